/*
 * Whose fault a failure is: the series', or the base tree's.  A series
 * written against mainline or linux-next that does not apply to, or calls
 * helpers missing from, an older tree says nothing about the series; only
 * a failure on the tree it names (its base-commit: found exactly, or the
 * release it names) is its own.  Such a failure elsewhere is the verdict
 * "untestable", with the reason, and no text may blame the series.
 */
#ifndef WW_KBLAME_H
#define WW_KBLAME_H

#include "ci.h"
#include "strvec.h"

#include <git2.h>

/*
 * Symbols a failed build names that the base tree lacks: every X of gcc's
 * "implicit declaration of function 'X'" and "'X' undeclared" in `log`
 * that occurs as a word in no .c/.h file of `src_dir` (the tree as built)
 * but the files the series changes (`touched`, may be NULL), nor in those
 * files as the base has them (their blobs in commit `base` of `repo`; both
 * may be NULL: then the touched files do not count at all).  Into `out`,
 * once each, in log order.  Returns 0, or an error when grep cannot run.
 */
int kblame_missing_symbols(struct strvec *out, const char *log, const char *src_dir,
			   const struct strvec *touched, git_repository *repo,
			   const git_oid *base);

/*
 * After an apply or build failure: on a base that is not the series' own
 * (!v->own_base), an apply failure, and a build failure whose error names
 * symbols the base lacks (`missing`, may be NULL), become CI_UNTESTABLE
 * with the reason ("it does not apply to linux 6.12.118, an older tree
 * than the one it was written for (...)").  Anything else stays as it is:
 * a failure on the series' own base is the series'.
 */
void kblame_classify(struct ci_verdict *v, const struct strvec *missing);

#endif
