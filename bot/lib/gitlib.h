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

/* The system's certificates (Debian's ca-certificates). */
#define GITLIB_CA_FILE "/etc/ssl/certs/ca-certificates.crt"

/*
 * Let libgit2 verify https servers: load GITLIB_CA_FILE into it (once per
 * process; gitlib.c says why it is not read at start).  0, or an error
 * naming the file (every later call returns the same).
 */
int gitlib_enable_tls(void);

/* libgit2's last error message, for ours: it does not always set one. */
const char *gitlib_error(void);

struct git_oid;
struct git_repository;
struct git_tree;
struct git_commit;
struct git_blob;

/*
 * The blob `oid` of `repo`, loaded only when it is at most `max` bytes.
 * Its size is asked first with git_odb_read_header(), which reads the
 * object's header and inflates nothing: a blob of a few hundred KiB in
 * the pack that inflates to gigabytes (a compression bomb in an archive)
 * costs nothing to refuse.  *size is set whenever the header was read.
 * *out is the caller's to free.  WW_ETOOBIG (the message gives the size
 * and the cap), WW_ENOTFOUND (no such object, or not a blob), WW_ERROR
 * (libgit2's message); callers prefix their context.
 */
int gitlib_blob_read(struct git_blob **out, size_t *size, struct git_repository *repo,
		     const struct git_oid *oid, size_t max);

/*
 * The one way warnwatch commits: `tree` on `parent` (NULL: a first
 * commit), by `author` ("Name <addr>" from a mail; what libgit2 refuses
 * in a signature is blanked out, a missing part becomes "unknown"; NULL:
 * warnwatch <warnwatch@localhost>) as author and committer, dated `when`
 * (seconds, UTC) -- the same inputs give the same commit id everywhere.
 * `ref` ("HEAD") is moved to it unless NULL.  The new id into `out`.
 * Errors: WW_EINPUT for an author libgit2 still refuses, WW_ERROR with
 * libgit2's message otherwise; callers prefix their context.
 */
int gitlib_commit(struct git_oid *out, struct git_repository *repo, const char *ref,
		  const char *author, int64_t when, const char *message,
		  const struct git_tree *tree, const struct git_commit *parent);

#endif
