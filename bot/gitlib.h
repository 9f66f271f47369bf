/*
 * libgit2, started once and without what warnwatch never uses.
 *
 * Every module that calls libgit2 starts it with gitlib_init() rather
 * than git_libgit2_init(): see gitlib.c for why the two differ.
 */
#ifndef WW_GITLIB_H
#define WW_GITLIB_H

#include "ww.h"

/* Start libgit2 (idempotent: libgit2 counts the calls, we call it once). */
void gitlib_init(void);

/* libgit2's last error message, for ours: it does not always set one. */
const char *gitlib_error(void);

#endif
