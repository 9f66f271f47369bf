/*
 * Applying a patch series to the base tree with libgit2.
 *
 * Each patch is applied in the object database (git_apply_to_tree) and
 * committed, one commit per patch on top of the base, so that later steps
 * can map a line of the final tree back to the patch that added it.  Only
 * then is the worktree checked out to the last commit (ktree_checkout):
 * files the series does not touch keep their mtimes and the kernel build
 * stays incremental.
 *
 * A patch that does not apply is a verdict (WW_EAPPLY, with the patch,
 * the file and the hunk in the message and in struct kapply_failure), not
 * a crash.  Patches come from
 * strangers: paths that leave the tree ("../"), absolute paths, paths
 * inside .git, and symlinks whose target leaves the tree are refused
 * (WW_EAPPLY too, the message says why).
 */
#ifndef WW_KAPPLY_H
#define WW_KAPPLY_H

#include "ktree.h"
#include "series.h"
#include "strvec.h"

/*
 * Why a patch did not apply, as data: the caller (ci.c's verdict) takes
 * the patch, file and hunk from here, never from the message.
 */
struct kapply_failure {
	int patch;		/* 1-based patch that did not apply, 0 if none */
	char *file;		/* the file it failed on, or NULL */
	int hunk;		/* 1-based hunk of that file, 0 if not a hunk */
	char *reason;		/* why, without patch/file/hunk ("context does
				   not match", "no such file", "already
				   exists", "'../x' is a path outside ..."),
				   or NULL */
	bool refused;		/* refused (a path or link that would leave
				   the tree): on any base, never a question
				   of which tree it was written for */
};

struct kapply_result {
	git_oid base;		/* the commit the series was applied to */
	git_oid head;		/* the last patch's commit (== base if none) */
	git_oid *commits;	/* commits[i]: the tree after patch i+1 */
	size_t nr;		/* patches applied */
	struct strvec touched;	/* paths the series changes (old and new
				   names of renames), sorted, unique */
	struct strbuf note;	/* why base-commit: was not used, hunks applied
				   at an offset; "" if none */
	struct kapply_failure fail; /* on WW_EAPPLY; zero otherwise */
	int three_way;		/* patches applied 3-way (as git am -3) */
};

#define KAPPLY_RESULT_INIT { .touched = STRVEC_INIT, .note = STRBUF_INIT }

/*
 * Apply `s` to the base of `t` and check the result out into t->worktree.
 * The base is the series' base-commit: when the repository has that
 * commit, else the base tag (out->note says so).  An empty series checks
 * out the base.  On WW_EAPPLY, out->fail says which patch, file and hunk
 * and why, and the worktree is not touched.  The message reads
 *   "patch 2/4 does not apply to linux 6.1.192: drivers/foo.c: hunk 3 (@@ -10,6 +10,7 @@) ..."
 */
int kapply_series(struct kapply_result *out, struct ktree *t,
		  const struct series *s);

/*
 * Apply one diff text on top of `parent` and commit it as `subject` by
 * `author` ("Name <addr>", may be NULL), without checking it out.  `what`
 * names the patch in messages ("patch 2/4").  The paths it changes go to
 * res->touched, hunks moved to another line are described in res->note
 * (`res` may be NULL; on WW_EAPPLY res->fail holds the file, hunk and
 * reason, not the patch number, which is kapply_series()'s).  Hunks are placed as git apply places them: at the
 * line the header says, else where their context is, nearest first; no
 * fuzz.  Quilt and "diff -ruN" output is normalised first (diff.h).
 * When that fails, it is applied 3-way as git am -3 does: each file's
 * pre-image blob (its "index abc1234..def5678" line) is looked up in the
 * repository, the patch applied to it and the result merged into the
 * parent's file (git_merge_file); res->three_way counts it.  When that
 * fails too (no blob, a conflict), the message gives the strict failure
 * and then "; 3-way: <why>".
 */
int kapply_diff(git_oid *out, struct kapply_result *res, struct ktree *t,
		const git_oid *parent, const char *diff, size_t len,
		const char *what, const char *subject, const char *author);

void kapply_result_release(struct kapply_result *r);

/* Why `path` (named by a patch) may not be written: absolute, "..", ".",
 * an empty component, inside .git; NULL when it is fine. */
const char *kapply_bad_path(const char *path);

#endif
