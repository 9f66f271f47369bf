/*
 * Which distro kernel trees to try a series on, in order: the release the
 * series' "base-commit:" trailer names when we have it, otherwise the
 * newest first (real series apply to 6.12 far more often than to 6.1).
 * Pure logic; the caller lists what /usr/src/linux-source-*.tar.xz holds.
 */
#ifndef WW_KBASE_H
#define WW_KBASE_H

#include "ww.h"
#include "strbuf.h"
#include "strvec.h"

#include <git2.h>

/*
 * Fill `out` (appended to) with every entry of `available` ("6.12.57",
 * "6.1.192": release versions, digits and dots) once, in the order to try.
 * `base_commit` is the trailer's value or NULL.  It names a release when
 * it is a tag "v6.1", "v6.1.192", "v6.12-rc3" (or the same without "v");
 * the available tree of that major.minor goes first (a stable tag names
 * its series: v6.1.150 picks our 6.1.192).  A commit hash cannot be mapped
 * to a release here (no upstream history on this machine), so it counts as
 * no base.  The rest follow newest first, by version number.
 * `why` (appended to) says in words why the first was chosen:
 *   "base-commit names v6.1"
 *   "base-commit names v5.15, which is not available: newest first"
 *   "base-commit 1a2b3c4d is a commit hash that cannot be mapped to a
 *    release here: newest first"
 *   "no base-commit: newest first"
 * Returns 0, or WW_EINPUT when an `available` entry is not a version or
 * `available` is empty (out is left unchanged).
 */
int kbase_order(struct strvec *out, const char *base_commit,
		const struct strvec *available, struct strbuf *why);

/*
 * A git repository as the base (issue 28), in this order: the series'
 * base-commit: when `repo` has that commit, exactly (*own = true: a
 * failure there is the series'); else `branch` (a branch, remote branch
 * or any revision; *own = false); else nothing: the Debian tarballs.
 * Returns 1 with `out` set, 0 when the repository gives no base, or an
 * error when it cannot be opened.  `why` (appended to) says which and why.
 */
int kbase_git(git_oid *out, bool *own, struct strbuf *why, const char *repo,
	      const char *branch, const char *base_commit);

#endif
