/*
 * The dashboard's history pages: what the patches posted to each list
 * did to BUG/WARN calls, per release cycle, from what `warnwatch
 * backfill` recorded in the state database.  An overview (every list
 * summed, one row per list) and a page per list: stacked columns per
 * cycle (calls added, by class; calls removed and conversions), the same
 * numbers in a table, and under it the mails behind each number, linked
 * to their public-inbox archive.  Nothing names or ranks people.
 *
 *   history/index.html   history/LIST.html
 */
#ifndef WW_HISTORY_H
#define WW_HISTORY_H

#include "ww.h"

#include <jansson.h>

struct store;

/*
 * The history part of the dashboard's model: backfill_report() with the
 * mails behind each number, plus "overall": { "cycles": [...] } summing
 * the lists per cycle.  NULL in *out (and 0) when the state holds no
 * backfill.  `releases` NULL: kernel-ci/releases.json.
 */
int history_model(json_t **out, struct store *st, const char *releases);

struct tmpl_vars;

/* Every list summed per cycle into `v`, for cycle-table.html: its two
 * charts (added_svg, removed_svg), class_heads and rows; the front page
 * and history/index.html show it. */
void history_overall(struct tmpl_vars *v, const json_t *history);

/* Write history/ under `out_dir` with the templates of `tdir`. */
int history_render(const json_t *history, const char *out_dir, const char *tdir,
		   const char *site_title, const char *generated);

#endif
