/*
 * check --suggest: the review's rewrite of each call a series adds, as a
 * unified diff that applies (git apply) on top of the whole series.
 * Never applied by warnwatch; the author reads it and decides.
 *
 * A rewrite needs the function as it stands after the series (its return
 * type, its own failure exits, what follows the call), which the diff
 * does not show: only `check --suggest --tree DIR` gives one, from the
 * review's facts and compiled in the tree (fixup.h, in warnwatch-all).
 * Without a tree, no code is suggested.  This module only writes the
 * patch, from edits of the files as the series left them.
 */
#ifndef WW_SUGGEST_H
#define WW_SUGGEST_H

#include "check.h"
#include "series.h"

#define SUGGEST_CONTEXT 3

/*
 * One rewrite: lines [line, line + n) (1-based) of `path` as the series
 * left it (`text`, the whole file) replaced by `code` (one line per
 * statement, unindented; each line is indented as `line` is), in
 * `function` (the hunk header's, or NULL).
 */
struct suggest_edit {
	const char *path;
	const char *text;
	int line, n;
	const char *code;
	const char *function;
};

/*
 * The edits v[0..nr) as one unified diff appended to `out`: SUGGEST_CONTEXT
 * lines of context, edits whose contexts touch sharing a hunk.  An edit
 * that is not in its text, or shares a line with another, is left out
 * with a line in `skipped` ("fs/a.c:12: ...\n").
 */
void suggest_edits(struct strbuf *out, struct strbuf *skipped,
		   const struct suggest_edit *v, size_t nr);

/* The options of `check --suggest --tree`, for fixup_series() (fixup.h). */
struct suggest_tree_opts {
	const char *tree;	/* the kernel tree the series applies to */
	const char *build_dir;	/* its configured build directory, or NULL */
	const char *rules_dir;	/* rules/ (advice.json) */
};

#endif
