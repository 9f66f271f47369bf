/*
 * The dashboard's history pages (see history.h).
 */
#include "history.h"
#include "dashboard-priv.h"
#include "backfill.h"
#include "svg.h"
#include "template.h"

#include <ctype.h>
#include <sys/stat.h>

int history_model(json_t **out, struct store *st, const char *releases)
{
	struct cycles cy = CYCLES_INIT;
	char path[4096];
	json_t *h = NULL, *overall, *l;
	size_t i;
	int ret;

	*out = NULL;
	/* no backfill, no history: the release dates are not even needed */
	ret = 0;
	if (backfill_is_empty(st))
		goto out;
	ret = cycles_load(&cy, releases ? releases : cycles_default_path(path, sizeof(path)));
	if (!ret)
		ret = backfill_report(&h, st, &cy, NULL, BACKFILL_REPORT_MAILS);
	if (ret < 0 || !json_array_size(json_object_get(h, "lists")))
		goto out;
	/* every list summed, cycle by cycle, in time order */
	overall = json_array();
	for (size_t k = 0; k < cy.nr; k++) {
		json_t *sum = NULL, *c;
		size_t j;

		json_array_foreach(json_object_get(h, "lists"), i, l)
			json_array_foreach(json_object_get(l, "cycles"), j, c) {
				const char *key;
				json_t *v;

				if (strcmp(json_string_value(json_object_get(c, "release")), cy.v[k].name))
					continue;
				if (!sum) {
					sum = json_deep_copy(c);
					json_object_del(sum, "mails");
					continue;
				}
				json_object_foreach(c, key, v) {
					json_t *sv = json_object_get(sum, key), *x;
					const char *ck;

					if (json_is_integer(v))
						json_integer_set(sv, json_integer_value(sv) +
								 json_integer_value(v));
					else if (json_is_object(v) && sv)
						json_object_foreach(v, ck, x)
							json_integer_set(json_object_get(sv, ck),
									 json_integer_value(json_object_get(sv, ck)) +
									 json_integer_value(x));
				}
			}
		if (sum)
			json_array_append_new(overall, sum);
	}
	json_object_set_new(h, "overall", json_pack("{s:o}", "cycles", overall));
	*out = h;
	h = NULL;
out:
	json_decref(h);
	cycles_release(&cy);
	return ret;
}

/* ---- rendering ---- */

/* A list's name as a file name: [A-Za-z0-9._-], others '_', no leading '.'. */
static void page_name(struct strbuf *out, const char *name)
{
	for (const char *p = name; *p; p++)
		strbuf_addch(out, (isalnum((unsigned char)*p) || *p == '-' || *p == '_' ||
				   (*p == '.' && p != name)) ? *p : '_');
	strbuf_addstr(out, ".html");
}

/* public-inbox's own escaping of a Message-ID in a URL path. */
static void mid_url(struct strbuf *out, const char *base, const char *mid)
{
	static const char ok[] = "-._~!$&'()*+,;=:@";

	strbuf_addstr(out, base);
	for (const unsigned char *p = (const unsigned char *)mid; *p; p++) {
		if (isalnum(*p) || strchr(ok, *p))
			strbuf_addch(out, *p);
		else
			strbuf_addf(out, "%%%02X", *p);
	}
	strbuf_addch(out, '/');
}

/* The two charts of a cycles array: added by class; removed, conversions. */
static void render_charts(struct tmpl_vars *v, const json_t *cycles, const char *what)
{
	size_t nr = json_array_size(cycles), i;
	struct svg_category cats[RC__NR], rcats[2] = {
		{ "removed", "removed" }, { "conversions", "conversion" } };
	struct svg_column *cols = xcalloc(nr + 1, sizeof(*cols)),
			  *rcols = xcalloc(nr + 1, sizeof(*rcols));
	double *vals = xcalloc(nr * RC__NR + 1, sizeof(double)),
	       *rvals = xcalloc(nr * 2 + 1, sizeof(double));
	struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT, desc = STRBUF_INIT;
	struct svg_chart ch = { "added-chart", NULL, NULL, "calls", 0 };
	const json_t *c;

	for (int k = 0; k < RC__NR; k++)
		cats[k].name = cats[k].cls = rule_class_name(k);
	strbuf_addstr(&desc, "Calls added per release cycle, stacked by class:");
	json_array_foreach(cycles, i, c) {
		const json_t *added = json_object_get(c, "calls_added");

		cols[i].label = rcols[i].label = dash_jstr(c, "release");
		cols[i].values = &vals[i * RC__NR];
		rcols[i].values = &rvals[i * 2];
		for (int k = 0; k < RC__NR; k++)
			vals[i * RC__NR + k] = dash_jint(added, rule_class_name(k));
		rvals[i * 2] = dash_jsum(json_object_get(c, "calls_removed"));
		rvals[i * 2 + 1] = dash_jint(c, "conversions");
		strbuf_addf(&desc, " %s %ld;", dash_jstr(c, "release"), dash_jsum(added));
	}
	strbuf_addf(&title, "BUG/WARN calls added by the patches posted to %s, per release cycle",
		    what);
	ch.title = title.buf;
	ch.desc = desc.buf;
	svg_stacked_columns(&sb, &ch, cats, RC__NR, cols, nr);
	tmpl_set(v, "added_svg", sb.buf);

	strbuf_reset(&sb);
	strbuf_reset(&title);
	strbuf_addf(&title, "Calls removed, and conversions to gentler calls, on %s", what);
	ch.id = "removed-chart";
	ch.title = title.buf;
	ch.desc = "Calls removed and BUG-to-WARN conversions per release cycle";
	svg_stacked_columns(&sb, &ch, rcats, 2, rcols, nr);
	tmpl_set(v, "removed_svg", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&title);
	strbuf_release(&desc);
	free(cols);
	free(rcols);
	free(vals);
	free(rvals);
}

/* One number of the table; linked to the mails behind it when it has any. */
static void add_cell(struct tmpl_vars *row, long n, const char *anchor)
{
	struct tmpl_vars *cell = tmpl_add(row, "cells");

	dash_set_num(cell, "n", n);
	if (n && anchor)
		tmpl_set(cell, "href", anchor);
}

/* The mails behind one number, as a section of the list page. */
static void add_mailset(struct tmpl_vars *v, const char *id, const char *heading,
			const json_t *mails, const char *base)
{
	struct tmpl_vars *ms;
	struct strbuf url = STRBUF_INIT;
	const json_t *m;
	size_t i;

	if (!json_array_size(mails))
		return;
	ms = tmpl_add(v, "mailsets");
	tmpl_set(ms, "id", id);
	dash_set_text(ms, "heading", heading);
	json_array_foreach(mails, i, m) {
		struct tmpl_vars *mv = tmpl_add(ms, "mails");

		strbuf_reset(&url);
		mid_url(&url, base, dash_jstr(m, "message_id"));
		dash_set_text(mv, "href", url.buf);
		dash_set_text(mv, "subject", dash_jstr(m, "subject"));
		dash_set_text(mv, "date", *dash_jstr(m, "date") ? dash_jstr(m, "date") : "no date");
	}
	strbuf_release(&url);
}

static void cycle_row(struct tmpl_vars *v, const json_t *c, size_t idx, const char *base)
{
	struct tmpl_vars *row = tmpl_add(v, "rows");
	const json_t *mails = json_object_get(c, "mails");
	struct strbuf id = STRBUF_INIT, href = STRBUF_INIT, head = STRBUF_INIT;

	dash_set_text(row, "release", dash_jstr(c, "release"));
	/* "2024-09-15 to 2024-11-17", "before 2015-04-12", "from 2025-11-30" */
	if (*dash_jstr(c, "from") && *dash_jstr(c, "to"))
		strbuf_addf(&head, "%s to %s", dash_jstr(c, "from"), dash_jstr(c, "to"));
	else if (*dash_jstr(c, "to"))
		strbuf_addf(&head, "before %s", dash_jstr(c, "to"));
	else if (*dash_jstr(c, "from"))
		strbuf_addf(&head, "from %s", dash_jstr(c, "from"));
	else
		strbuf_addstr(&head, "no date");
	dash_set_text(row, "posted", head.buf);
	for (int k = 0; k < RC__NR; k++) {
		const char *cls = rule_class_name(k);

		strbuf_reset(&id);
		strbuf_addf(&id, "m%zu-adding-%s", idx, cls);
		strbuf_reset(&href);
		strbuf_addf(&href, "#%s", id.buf);
		add_cell(row, dash_jint(json_object_get(c, "patches_adding"), cls),
			 base ? href.buf : NULL);
		if (base) {
			strbuf_reset(&head);
			strbuf_addf(&head, "%s: patches adding %s calls", dash_jstr(c, "release"), cls);
			add_mailset(v, id.buf, head.buf,
				    json_object_get(json_object_get(mails, "patches_adding"), cls),
				    base);
		}
	}
	add_cell(row, dash_jsum(json_object_get(c, "calls_added")), NULL);
	strbuf_reset(&id);
	strbuf_addf(&id, "m%zu-removed", idx);
	strbuf_reset(&href);
	strbuf_addf(&href, "#%s", id.buf);
	add_cell(row, dash_jsum(json_object_get(c, "calls_removed")), base ? href.buf : NULL);
	if (base) {
		strbuf_reset(&head);
		strbuf_addf(&head, "%s: patches removing calls", dash_jstr(c, "release"));
		add_mailset(v, id.buf, head.buf, json_object_get(mails, "calls_removed"), base);
	}
	strbuf_reset(&id);
	strbuf_addf(&id, "m%zu-conversions", idx);
	strbuf_reset(&href);
	strbuf_addf(&href, "#%s", id.buf);
	add_cell(row, dash_jint(c, "conversions"), base ? href.buf : NULL);
	if (base) {
		strbuf_reset(&head);
		strbuf_addf(&head, "%s: conversions (in a patch, or between versions)",
			    dash_jstr(c, "release"));
		add_mailset(v, id.buf, head.buf, json_object_get(mails, "conversions"), base);
	}
	strbuf_release(&id);
	strbuf_release(&href);
	strbuf_release(&head);
}

static void class_heads(struct tmpl_vars *v)
{
	for (int k = 0; k < RC__NR; k++)
		dash_set_text(tmpl_add(v, "class_heads"), "name", rule_class_name(k));
}

static int write_page(const char *tdir, const char *tmpl, struct tmpl_vars *v,
		      const char *dir, const char *file)
{
	struct strbuf html = STRBUF_INIT, path = STRBUF_INIT;
	int ret;

	ret = template_render_file(&html, tdir, tmpl, v, 0);
	if (!ret) {
		strbuf_addf(&path, "%s/%s", dir, file);
		ret = strbuf_write_file(&html, path.buf);
	}
	strbuf_release(&html);
	strbuf_release(&path);
	return ret;
}

static int render_list_page(const json_t *l, const char *dir, const char *tdir,
			    struct tmpl_vars *common)
{
	struct tmpl_vars *v = tmpl_vars_new();
	const json_t *c;
	struct strbuf file = STRBUF_INIT;
	size_t i;
	int ret;

	dash_set_text(v, "title", tmpl_get(common, "title_raw"));
	tmpl_set(v, "generated", tmpl_get(common, "generated"));
	dash_set_text(v, "name", dash_jstr(l, "name"));
	dash_set_text(v, "url", dash_jstr(l, "url"));
	dash_set_num(v, "mails", dash_jint(l, "mails"));
	dash_set_num(v, "patch_mails", dash_jint(l, "patch_mails"));
	class_heads(v);
	render_charts(v, json_object_get(l, "cycles"), dash_jstr(l, "name"));
	json_array_foreach(json_object_get(l, "cycles"), i, c)
		cycle_row(v, c, i, dash_jstr(l, "url"));
	page_name(&file, dash_jstr(l, "name"));
	ret = write_page(tdir, "history-list.html", v, dir, file.buf);
	strbuf_release(&file);
	tmpl_vars_free(v);
	return ret;
}

void history_overall(struct tmpl_vars *v, const json_t *history)
{
	const json_t *cycles = json_object_get(json_object_get(history, "overall"),
					       "cycles"), *c;
	size_t i;

	class_heads(v);
	tmpl_set_bool(v, "overall", true);
	render_charts(v, cycles, "every list");
	json_array_foreach(cycles, i, c)
		cycle_row(v, c, i, NULL);
}

int history_render(const json_t *history, const char *out_dir, const char *tdir,
		   const char *site_title, const char *generated)
{
	struct tmpl_vars *v = tmpl_vars_new();
	struct strbuf dir = STRBUF_INIT, file = STRBUF_INIT;
	const json_t *l, *c;
	size_t i;
	int ret;

	strbuf_addf(&dir, "%s/history", out_dir);
	if (mkdir(dir.buf, 0755) < 0 && errno != EEXIST) {
		ret = error("cannot create '%s': %s", dir.buf, strerror(errno));
		goto out;
	}
	tmpl_set(v, "title_raw", site_title);
	dash_set_text(v, "title", site_title);
	dash_set_text(v, "generated", generated);
	history_overall(v, history);
	json_array_foreach(json_object_get(history, "lists"), i, l) {
		struct tmpl_vars *lv = tmpl_add(v, "lists");
		long added = 0, removed = 0, conv = 0;
		size_t j;

		json_array_foreach(json_object_get(l, "cycles"), j, c) {
			added += dash_jsum(json_object_get(c, "calls_added"));
			removed += dash_jsum(json_object_get(c, "calls_removed"));
			conv += dash_jint(c, "conversions");
		}
		strbuf_reset(&file);
		page_name(&file, dash_jstr(l, "name"));
		dash_set_text(lv, "href", file.buf);
		dash_set_text(lv, "name", dash_jstr(l, "name"));
		dash_set_num(lv, "mails", dash_jint(l, "mails"));
		dash_set_num(lv, "patch_mails", dash_jint(l, "patch_mails"));
		dash_set_num(lv, "added", added);
		dash_set_num(lv, "removed", removed);
		dash_set_num(lv, "conversions", conv);
		if ((ret = render_list_page(l, dir.buf, tdir, v)) < 0)
			goto out;
	}
	ret = write_page(tdir, "history.html", v, dir.buf, "index.html");
out:
	strbuf_release(&dir);
	strbuf_release(&file);
	tmpl_vars_free(v);
	return ret;
}
