/*
 * check --suggest: the gentler form of each call a series adds, as a
 * unified diff that applies (git apply) on top of the whole series.
 * Never applied by warnwatch; the author reads it and decides.
 *
 * Mechanical forms only:
 *   BUG_ON(cond);    ->  if (WARN_ON_ONCE(cond))
 *                            return <what the reply suggests>;
 *   BUG();           ->  WARN_ON_ONCE(1);  return ...;  (after a complete
 *                        statement, a label or a brace only: never as the
 *                        body of an unbraced if/else/for/while)
 *   WARN_ON(c), WARN(c, ...), WARN_TAINT(...) -> their _ONCE forms
 * The return is suggest_return()'s, the one the review reply proposes.
 * Context comes from the patch's own hunk, kept only where every line
 * reaches the series' result unchanged (linemap.h), so no tree is needed.
 */
#ifndef WW_SUGGEST_H
#define WW_SUGGEST_H

#include "check.h"
#include "series.h"

#define SUGGEST_CONTEXT 3

/*
 * The diff for the findings `r` of series `s`, appended to `out` (empty
 * when nothing has a mechanical form).  Each finding left out although
 * it is new and at warning or error level gets one line in `skipped`
 * ("mm/a.c:12: BUG_ON() spans a macro body: no mechanical form").
 */
void suggest_series(struct strbuf *out, struct strbuf *skipped,
		    const struct series *s, const struct check_result *r);

/*
 * The statement that leaves the function of added call `f` (patch
 * f->patch of `s`, which may be NULL), appended to `out`: "return;" in a
 * void function, "return false;" for bool, "return NULL;" (or
 * "return ERR_PTR(-EXXX);" when the code around does that) for a
 * pointer, else "return -EXXX;" with the errno the code around the call
 * returns, -EINVAL when it shows none; `want_err` ("-EFSCORRUPTED", or
 * NULL) replaces that errno.  The type comes from the function's
 * definition in the patch (a hunk header or a line).  For
 * `check --suggest` as well as the reply.
 */
void suggest_return(struct strbuf *out, const struct series *s, const struct finding *f,
		    const char *want_err);

#endif
