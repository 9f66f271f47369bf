/*
 * The dashboard's releases section: a card per release, the table and
 * charts of calls per release, the movers between the last two releases,
 * the top directories and the changes (dashboard.c renders the rest).
 */
#include "dashboard.h"
#include "dashboard-priv.h"
#include "rules.h"
#include "strbuf.h"
#include "svg.h"
#include "template.h"

#include <math.h>
/* --- rendering: releases ---------------------------------------------- */

static long class_count(const json_t *census, int k)
{
	return dash_jint(json_object_get(census, "classes"), rule_class_name(k));
}

static long warn_family(const json_t *census)
{
	return class_count(census, RC_WARN) + class_count(census, RC_WARN_ONCE) +
	       class_count(census, RC_WARN_LIKE);
}

static void release_card(struct tmpl_vars *v, const char *label, long now,
			 const json_t *prev_census, long prev, const char *prev_name)
{
	struct tmpl_vars *card = tmpl_add(v, "cards");
	struct strbuf note = STRBUF_INIT;

	dash_set_text(card, "label", label);
	dash_set_num(card, "value", now);
	tmpl_setf(card, "raw", "%ld", now);
	if (prev_census) {
		dash_set_change(card, "note", "trend", prev, now);
		strbuf_addf(&note, "%s since %s", tmpl_get(card, "note"), prev_name);
		dash_set_text(card, "note", note.buf);
	}
	strbuf_release(&note);
}

static void render_release_table(struct tmpl_vars *v, const json_t *releases)
{
	const json_t *c, *prev = NULL;
	size_t i;

	for (int k = 0; k < RC__NR; k++) {
		struct tmpl_vars *h = tmpl_add(v, "class_heads");

		dash_set_text(h, "name", rule_class_name(k));
	}
	json_array_foreach(releases, i, c) {
		struct tmpl_vars *row = tmpl_add(v, "rows");
		const json_t *tot = json_object_get(c, "totals");
		long total = dash_jint(tot, "calls");

		dash_set_text(row, "release", dash_release_name(c));
		dash_set_num(row, "files", dash_jint(c, "files"));
		for (int k = 0; k < RC__NR; k++) {
			dash_set_num(tmpl_add(row, "classes"), "n", class_count(c, k));
		}
		dash_set_num(row, "bug_on_family", dash_jint(tot, "bug_on_family"));
		dash_set_num(row, "total", total);
		if (prev)
			dash_set_change(row, "change", "trend",
				   dash_jint(json_object_get(prev, "totals"), "calls"), total);
		else
			tmpl_set(row, "change", "\xe2\x80\x94");
		prev = c;
	}
}

static void render_release_charts(struct tmpl_vars *v, const json_t *releases)
{
	size_t nr = json_array_size(releases), i;
	struct svg_category cats[RC__NR];
	struct svg_column *cols = xcalloc(nr + 1, sizeof(*cols));
	double *vals = xcalloc(nr * RC__NR + 1, sizeof(double));
	struct svg_panel panels[RC__NR];
	struct svg_item *items = xcalloc(nr * RC__NR + 1, sizeof(*items));
	struct svg_chart ch = { "releases-chart", "BUG/WARN-family calls per release",
				NULL, "calls", 0 };
	struct strbuf sb = STRBUF_INIT, desc = STRBUF_INIT;
	const json_t *c;

	for (int k = 0; k < RC__NR; k++) {
		cats[k].name = rule_class_name(k);
		cats[k].cls = rule_class_name(k);
	}
	strbuf_addstr(&desc, "Stacked columns by class:");
	json_array_foreach(releases, i, c) {
		cols[i].label = dash_release_name(c);
		cols[i].values = &vals[i * RC__NR];
		for (int k = 0; k < RC__NR; k++) {
			vals[i * RC__NR + k] = class_count(c, k);
			items[k * nr + i].label = dash_release_name(c);
			items[k * nr + i].value = class_count(c, k);
			items[k * nr + i].cls = rule_class_name(k);
		}
		strbuf_addf(&desc, " %s %ld calls;", dash_release_name(c),
			    dash_jint(json_object_get(c, "totals"), "calls"));
	}
	ch.desc = desc.buf;
	svg_stacked_columns(&sb, &ch, cats, RC__NR, cols, nr);
	tmpl_set(v, "releases_svg", sb.buf);

	strbuf_reset(&sb);
	for (int k = 0; k < RC__NR; k++) {
		panels[k].title = rule_class_name(k);
		panels[k].items = &items[k * nr];
		panels[k].nr = nr;
	}
	ch.id = "classes-chart";
	ch.title = "Calls per class and release";
	ch.desc = "One small chart per class, one column per release, each with its own scale";
	svg_small_multiples(&sb, &ch, panels, RC__NR, 3);
	tmpl_set(v, "classes_svg", sb.buf);
	dash_set_text(v, "classes_lead", "One panel per class of macro, one column per release; "
		 "each panel has its own scale, so compare shapes, and read the numbers.");
	strbuf_release(&sb);
	strbuf_release(&desc);
	free(cols);
	free(vals);
	free(items);
}

struct mover {
	const char *name;
	long prev, now, bug;
};

static int cmp_mover_abs(const void *a, const void *b)
{
	const struct mover *x = a, *y = b;
	long dx = labs(x->now - x->prev), dy = labs(y->now - y->prev);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_mover_delta(const void *a, const void *b)
{
	const struct mover *x = a, *y = b;
	long dx = x->now - x->prev, dy = y->now - y->prev;

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Subsystems of the last two releases, matched by section name. */
static void render_movers(struct tmpl_vars *v, const json_t *prev, const json_t *last)
{
	const json_t *ps = json_object_get(prev, "subsystems");
	const json_t *ls = json_object_get(last, "subsystems"), *s;
	size_t nr = 0, alloc = 0, i, shown;
	struct mover *m = NULL;
	struct svg_item *items;
	struct svg_chart ch = { "movers-chart", NULL, NULL, "calls", 0 };
	struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT;

	/* Every subsystem of either release; a missing side counts 0. */
	json_array_foreach(ls, i, s) {
		ALLOC_GROW(m, nr + 1, alloc);
		m[nr].name = dash_jstr(s, "name");
		m[nr].now = dash_jint(s, "total");
		m[nr].bug = dash_jint(json_object_get(s, "classes"), rule_class_name(RC_BUG));
		m[nr++].prev = 0;
	}
	json_array_foreach(ps, i, s) {
		size_t j;

		for (j = 0; j < nr; j++)
			if (!strcmp(m[j].name, dash_jstr(s, "name")))
				break;
		if (j == nr) {
			ALLOC_GROW(m, nr + 1, alloc);
			m[nr].name = dash_jstr(s, "name");
			m[nr].now = m[nr].bug = 0;
			nr++;
		}
		m[j].prev = dash_jint(s, "total");
	}
	shown = nr < 16 ? nr : 16;
	if (nr) {
		qsort(m, nr, sizeof(*m), cmp_mover_abs);
		qsort(m, shown, sizeof(*m), cmp_mover_delta);
	}
	items = xcalloc(shown + 1, sizeof(*items));
	for (i = 0; i < shown; i++) {
		struct tmpl_vars *row = tmpl_add(v, "movers");

		items[i].label = m[i].name;
		items[i].value = m[i].now - m[i].prev;
		dash_set_text(row, "name", m[i].name);
		dash_set_num(row, "prev", m[i].prev);
		dash_set_num(row, "now", m[i].now);
		dash_set_num(row, "bug", m[i].bug);
		dash_set_change(row, "change", "trend", m[i].prev, m[i].now);
	}
	strbuf_addf(&title, "Largest changes from %s to %s, per subsystem",
		    dash_release_name(prev), dash_release_name(last));
	ch.title = title.buf;
	ch.desc = "Net change in BUG/WARN-family calls per MAINTAINERS section; "
		  "red bars grew, green bars shrank";
	svg_hbars(&sb, &ch, items, shown);
	tmpl_set(v, "movers_svg", sb.buf);
	dash_set_text(v, "movers_lead", "The sections whose call count moved most between the last two "
		 "releases (net: calls in the new tree minus calls in the old one). A section "
		 "renamed in MAINTAINERS shows up as one removal and one addition.");
	dash_set_text(v, "movers_caption", title.buf);
	dash_set_text(v, "prev_release", dash_release_name(prev));
	free(items);
	free(m);
	strbuf_release(&sb);
	strbuf_release(&title);
}

static int cmp_item_value(const void *a, const void *b)
{
	const struct svg_item *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return strcmp(x->label, y->label);
}

static void render_top(struct tmpl_vars *v, const json_t *last)
{
	const json_t *subs = json_object_get(last, "subsystems"), *s;
	size_t nr = json_array_size(subs), i, shown = nr < 15 ? nr : 15;
	struct svg_item *items = xcalloc(nr + 1, sizeof(*items));
	struct svg_chart ch = { "top-chart", NULL, NULL, "calls", 0 };
	struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT;

	json_array_foreach(subs, i, s) {
		items[i].label = dash_jstr(s, "name");
		items[i].value = dash_jint(s, "total");
		items[i].cls = "total";
	}
	qsort(items, nr, sizeof(*items), cmp_item_value);
	strbuf_addf(&title, "The %zu subsystems with the most calls in %s", shown,
		    dash_release_name(last));
	ch.title = title.buf;
	ch.desc = title.buf;
	svg_hbars(&sb, &ch, items, shown);
	tmpl_set(v, "top_svg", sb.buf);
	free(items);
	strbuf_release(&sb);
	strbuf_release(&title);
}

/* census --git documents: added and removed per class. */
static void render_changes(struct tmpl_vars *v, const json_t *changes)
{
	const json_t *c;
	size_t i;

	json_array_foreach(changes, i, c) {
		struct tmpl_vars *cv = tmpl_add(v, "changes");
		const json_t *ca = json_object_get(c, "classes_added");
		const json_t *cr = json_object_get(c, "classes_removed");
		struct svg_item items[2 * RC__NR];
		struct strbuf labels[2 * RC__NR], sb = STRBUF_INIT, t = STRBUF_INIT;
		struct svg_chart ch = { NULL, NULL, NULL, "calls", 0 };
		size_t n = 0;

		strbuf_addf(&t, "Added and removed from %s to %s", dash_jstr(c, "from"),
			    dash_jstr(c, "to"));
		dash_set_text(cv, "title", t.buf);
		strbuf_reset(&sb);
		svg_number(&sb, dash_jint(c, "commits"));
		strbuf_addstr(&sb, dash_jint(c, "commits") == 1 ? " non-merge commit" :
			      " non-merge commits");
		strbuf_addstr(&sb, " changed ");
		svg_number(&sb, dash_jint(c, "files"));
		strbuf_addstr(&sb, " .c/.h files: ");
		svg_number(&sb, dash_jint(json_object_get(c, "totals"), "added"));
		strbuf_addstr(&sb, " calls added, ");
		svg_number(&sb, dash_jint(json_object_get(c, "totals"), "removed"));
		strbuf_addstr(&sb, " removed, as warnwatch check counts a patch (moved code is neither).");
		dash_set_text(cv, "lead", sb.buf);
		for (int k = 0; k < RC__NR; k++) {
			strbuf_init(&labels[n], 0);
			strbuf_addf(&labels[n], "%s added", rule_class_name(k));
			items[n].label = labels[n].buf;
			items[n].value = dash_jint(ca, rule_class_name(k));
			items[n].cls = rule_class_name(k);
			items[n++].href = NULL;
			strbuf_init(&labels[n], 0);
			strbuf_addf(&labels[n], "%s removed", rule_class_name(k));
			items[n].label = labels[n].buf;
			items[n].value = -dash_jint(cr, rule_class_name(k));
			items[n].cls = "down";
			items[n++].href = NULL;
		}
		strbuf_reset(&sb);
		{
			struct strbuf id = STRBUF_INIT;

			strbuf_addf(&id, "change-%zu", i + 1);
			ch.id = id.buf;
			ch.title = t.buf;
			ch.desc = "Calls added (right) and removed (left) per class";
			svg_hbars(&sb, &ch, items, n);
			strbuf_release(&id);
		}
		tmpl_set(cv, "svg", sb.buf);
		for (size_t j = 0; j < n; j++)
			strbuf_release(&labels[j]);
		strbuf_release(&sb);
		strbuf_release(&t);
	}
}

void dash_render_releases(struct tmpl_vars *v, const json_t *model)
{
	const json_t *releases = json_object_get(model, "releases");
	size_t nr = json_array_size(releases);
	const json_t *last, *prev;
	struct tmpl_vars *r;

	if (!nr)
		return;
	r = tmpl_add(v, "releases");
	last = json_array_get(releases, nr - 1);
	prev = nr > 1 ? json_array_get(releases, nr - 2) : NULL;
	{
		const json_t *lt = json_object_get(last, "totals");
		const json_t *pt = json_object_get(prev, "totals");
		struct strbuf label = STRBUF_INIT;

		strbuf_addf(&label, "Calls in %s", dash_release_name(last));
		release_card(r, label.buf, dash_jint(lt, "calls"), prev, dash_jint(pt, "calls"),
			     prev ? dash_release_name(prev) : NULL);
		release_card(r, "BUG_ON family", dash_jint(lt, "bug_on_family"), prev,
			     dash_jint(pt, "bug_on_family"), prev ? dash_release_name(prev) : NULL);
		release_card(r, "WARN family", warn_family(last), prev,
			     prev ? warn_family(prev) : 0, prev ? dash_release_name(prev) : NULL);
		release_card(r, "panic()", class_count(last, RC_PANIC), prev,
			     prev ? class_count(prev, RC_PANIC) : 0,
			     prev ? dash_release_name(prev) : NULL);
		strbuf_release(&label);
	}
	render_release_table(r, releases);
	render_release_charts(r, releases);
	dash_set_text(r, "last_release", dash_release_name(last));
	if (prev)
		render_movers(r, prev, last);
	render_changes(r, json_object_get(model, "changes"));
	render_top(r, last);
}

/* --- rendering: lists ---------------------------------------------------- */
