/*
 * Helpers the dashboard's pages share (dashboard.c, history.c): reading
 * the JSON model and setting template variables escaped for HTML/SVG.
 */
#ifndef WW_DASHBOARD_PRIV_H
#define WW_DASHBOARD_PRIV_H

#include "template.h"

#include <jansson.h>

/* A string member, "" when missing or not a string. */
const char *dash_jstr(const json_t *o, const char *key);
/* A number member as a long, 0 when missing. */
long dash_jint(const json_t *o, const char *key);
/* Sum of the integer members of an object ({"bug": 1, "warn": 2} -> 3). */
long dash_jsum(const json_t *o);
/* Set `name` to `s`, escaped for HTML and SVG. */
void dash_set_text(struct tmpl_vars *v, const char *name, const char *s);
/* The same for text of several lines: the LFs kept (svg_escape_lines()). */
void dash_set_lines(struct tmpl_vars *v, const char *name, const char *s);
/* Set `name` to `n` written with thousands separators. */
void dash_set_num(struct tmpl_vars *v, const char *name, double n);

/* A census's "release", else its "source" ("" when neither). */
const char *dash_release_name(const json_t *census);
/* "+1,234 (+2.1%)" in `name` and "up"/"down" in `trend`, from `prev` to `now`. */
void dash_set_change(struct tmpl_vars *v, const char *name,
		     const char *trend, double prev, double now);
/* dashboard-releases.c: the releases section of the front page. */
void dash_render_releases(struct tmpl_vars *v, const json_t *model);

#endif
