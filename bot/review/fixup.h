/*
 * check --suggest --tree: the review's rewrite of each call a series
 * adds, as a patch.  The same path as the review reply's (no copy): the
 * series applied to a scratch copy of the files it touches and each call
 * read there with libclang (patched.h, cfacts.h), the rewrite the reply
 * would give (reply_rewrite()), compiled with the object's own kbuild
 * command (patched_compile()); only rewrites that compile are offered,
 * written as a diff by suggest_edits() (suggest.h).
 *
 * libclang: warnwatch-all only.  The lean `warnwatch check` execs
 * warnwatch-all for --suggest with --tree (cmd/check-all.c).
 */
#ifndef WW_FIXUP_H
#define WW_FIXUP_H

#include "check.h"
#include "series.h"
#include "suggest.h"

/*
 * The patch of rewrites for the added calls of `r` (findings of series
 * `s`), appended to `out`; each call left without one gets a line in
 * `skipped` ("fs/a.c:12: BUG_ON(): ...\n": no function found, no rewrite
 * the facts support, or it does not compile).  Errors: the tree has none
 * of the files the series changes (WW_ENOTFOUND), what patched_apply()
 * returns otherwise.
 */
int fixup_series(struct strbuf *out, struct strbuf *skipped, const struct series *s,
		 const struct check_result *r, const struct suggest_tree_opts *o);

#endif
