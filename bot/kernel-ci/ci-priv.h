/*
 * What the parts of the ci module share (not an API): ci.c (the
 * pipeline), ci-attribute.c, ci-verdict.c and ci-words.c.
 */
#ifndef WW_CI_PRIV_H
#define WW_CI_PRIV_H

#include "ci-json.h"

struct ci_landed;

/* Free ci_land()'s record (ci-attribute.c); NULL is fine. */
void ci_landed_free(struct ci_landed *l);

/* How many reports of boot `con` (may be NULL) are report `f`. */
int ci_count_reports(const struct console_result *con, const struct fired *f);

/* xstrdup(s), or NULL for NULL. */
char *ci_xstrdup_or_null(const char *s);

/* Set v->reason from a format (ci-verdict.c). */
void ci_set_reason(struct ci_verdict *v, const char *fmt, ...) WW_PRINTF(2, 3);

#endif
