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
 * Names a failed build's errors are about that neither the base nor the
 * series knows (issue 39).  The kinds gcc and ld report: "implicit
 * declaration of function 'X'", "'X' undeclared" (a macro, enum constant
 * or variable; CONFIG_X: a Kconfig symbol), "has no member named 'X'",
 * "unknown type name 'X'", "invalid use of undefined type 'struct X'",
 * "dereferencing pointer to incomplete type 'struct X'", "undefined
 * reference to `X'", and "fatal error: X: No such file or directory" (a
 * header).  A name is known when it occurs as a word in a .c/.h file (a
 * Kconfig* file for CONFIG_X) of `src_dir` (the tree as built) that the
 * series does not change (`touched`, may be NULL: then every file
 * counts); in a file it changes, when the base's version of it holds the
 * word (their blobs in commit `base` of `repo`, both may be NULL: the
 * series may also have removed it there), or when the series' version
 * defines or declares it (a #define, a tag, a prototype, a member or
 * variable after its type, an enum constant, a Kconfig entry: a
 * heuristic on text).  A header is known when a file of the tree ends in
 * its name, or the base has a file the series changes ending in it.
 * The unknown names go into `out` once each in log order (at most 8),
 * and what each is ("the function", "the struct member", "the type",
 * "the name", "the Kconfig symbol", "the header") into `whats` (may be
 * NULL).  Returns 0, or an error when grep or find cannot run.
 */
int kblame_missing_symbols(struct strvec *out, struct strvec *whats, const char *log,
			   const char *src_dir, const struct strvec *touched,
			   git_repository *repo, const git_oid *base);

/*
 * After an apply or build failure: on a base that is not the series' own
 * (!v->own_base), an apply failure, and a build failure whose errors name
 * what the base lacks (`missing`, may be NULL, with `whats` as
 * kblame_missing_symbols() gives them, may be NULL), become
 * CI_UNTESTABLE with the reason ("linux 6.12.118 lacks the struct member
 * 'x', which the series uses and does not add: ...") and v->missing ("the
 * struct member 'x'").  Anything else stays as it is: a failure on the
 * series' own base is the series'.
 */
void kblame_classify(struct ci_verdict *v, const struct strvec *missing,
		     const struct strvec *whats);

#endif
