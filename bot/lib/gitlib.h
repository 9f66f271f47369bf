/*
 * libgit2, started once and without what warnwatch never uses.
 *
 * Every module that calls libgit2 starts it with gitlib_init() rather
 * than git_libgit2_init(): see gitlib.c for why the two differ.
 */
#ifndef WW_GITLIB_H
#define WW_GITLIB_H

#include "ww.h"

/*
 * Start libgit2 for the rest of the process (idempotent).  The process
 * holds this one reference until exit and nothing shuts libgit2 down:
 * `ci` checks out a tree and `serve` runs stage after stage in one
 * process, and a module that dropped "its" reference when done left the
 * next one on a shut-down library (census --git, then ci).  Restarting it
 * would also read the CA bundle again (gitlib.c).  tests/checksrc allows
 * git_libgit2_init() and git_libgit2_shutdown() only in gitlib.c.
 */
void gitlib_init(void);

/* libgit2's last error message, for ours: it does not always set one. */
const char *gitlib_error(void);

#endif
