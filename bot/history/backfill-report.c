/*
 * warnwatch backfill --report: the state database's mails and calls ->
 * per-cycle counts, series and conversions (see backfill.h).  Reading the
 * archives into the database is backfill.c's.
 */
#include "backfill.h"
#include "redact.h"
#include "strvec.h"

#include <ctype.h>

enum rkind { RK_PATCH, RK_COVER };

struct rcall {
	bool added;
	bool conversion;
	enum rule_class class;
	char *macro;
	char *where;		/* "file\nfunction": where a call is, for versions */
};

struct rmail {
	long long id;
	enum rkind kind;
	char *mid, *irt, *refs, *email, *title, *subject, *base;
	int version, idx;
	time_t date;
	struct rcall *calls;
	size_t nr_calls, alloc_calls;
	size_t anchor;		/* the posting it belongs to (index) */
	size_t series;		/* the series of its posting (index) */
};

struct rseries {
	size_t newest;		/* the anchor counted */
	size_t *postings;	/* anchors, by version then date */
	size_t nr_postings;
};

struct rlist {
	struct rmail *v;
	size_t nr, alloc;
	size_t *by_mid;		/* indexes sorted by message-id */
	struct rseries *series;
	size_t nr_series;
};

static char *col(struct store_rows *r, int i)
{
	return xstrdup(store_rows_text(r, i));
}

static const struct rmail *sort_base;

static int cmp_mid(const void *a, const void *b)
{
	return strcmp(sort_base[*(const size_t *)a].mid, sort_base[*(const size_t *)b].mid);
}

static long find_mid(const struct rlist *l, const char *mid)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mi = (lo + hi) / 2;
		int c = strcmp(l->v[l->by_mid[mi]].mid, mid);

		if (!c)
			return l->by_mid[mi];
		if (c < 0)
			lo = mi + 1;
		else
			hi = mi;
	}
	return -1;
}

static int load_list(struct rlist *l, struct store *s, const char *list)
{
	struct store_rows *st = NULL;
	int rc;

	rc = store_query(&st, s, "SELECT id, kind, message_id, in_reply_to, refs, email,"
			 " title, subject, base_commit, version, idx, date FROM backfill_mails"
			 " WHERE list = ? AND kind IN ('patch', 'cover') ORDER BY id", "s", list);
	while (rc == 1 && (rc = store_rows_next(st)) == 1) {
		struct rmail *m;

		if (l->nr == l->alloc) {
			l->alloc = l->alloc ? 2 * l->alloc : 256;
			l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
		}
		m = &l->v[l->nr++];
		memset(m, 0, sizeof(*m));
		m->id = store_rows_int(st, 0);
		m->kind = !strcmp(store_rows_text(st, 1), "cover") ? RK_COVER : RK_PATCH;
		m->mid = col(st, 2);
		m->irt = col(st, 3);
		m->refs = col(st, 4);
		m->email = col(st, 5);
		m->title = col(st, 6);
		m->subject = col(st, 7);
		m->base = store_rows_is_null(st, 8) ? NULL : col(st, 8);
		m->version = store_rows_int(st, 9);
		m->idx = store_rows_int(st, 10);
		m->date = store_rows_int(st, 11);
	}
	store_rows_free(st);
	return rc < 0 ? error_prefix(rc, "cannot read the mails of '%s'", list) : 0;
}

static int load_calls(struct rlist *l, struct store *s, const char *list)
{
	struct store_rows *st = NULL;
	struct strbuf sql = STRBUF_INIT;
	size_t j = 0;
	int rc;

	/* both in id order: one merge pass; a mail's calls as recorded */
	strbuf_addf(&sql, "SELECT c.mail, c.kind, c.macro, c.class, c.file, c.function,"
		    " c.conversion FROM backfill_calls c JOIN backfill_mails m"
		    " ON m.id = c.mail WHERE m.list = ? AND m.kind = 'patch'"
		    " AND c.moved = 0 ORDER BY c.mail, c.%s", store_insert_order(s));
	rc = store_query(&st, s, sql.buf, "s", list);
	strbuf_release(&sql);
	while (rc == 1 && (rc = store_rows_next(st)) == 1) {
		long long id = store_rows_int(st, 0);
		struct rmail *m;
		struct rcall *c;
		struct strbuf where = STRBUF_INIT;

		while (j < l->nr && l->v[j].id < id)
			j++;
		if (j == l->nr || l->v[j].id != id)
			continue;
		m = &l->v[j];
		if (m->nr_calls == m->alloc_calls) {
			m->alloc_calls = m->alloc_calls ? 2 * m->alloc_calls : 4;
			m->calls = xrealloc(m->calls, m->alloc_calls * sizeof(*m->calls));
		}
		c = &m->calls[m->nr_calls++];
		c->added = !strcmp(store_rows_text(st, 1), "added");
		c->macro = col(st, 2);
		if (rule_class_parse(&c->class, store_rows_text(st, 3)) < 0) {
			error_clear();
			c->class = RC_WARN;
		}
		strbuf_addf(&where, "%s\n", store_rows_text(st, 4));
		strbuf_addstr(&where, store_rows_text(st, 5));
		c->where = strbuf_detach(&where, NULL);
		c->conversion = store_rows_int(st, 6);
	}
	store_rows_free(st);
	return rc < 0 ? error_prefix(rc, "cannot read the calls of '%s'", list) : 0;
}

/*
 * The posting a mail belongs to: the first message it answers (References
 * in order, then In-Reply-To) that is a cover letter or a patch 1 of the
 * same version -- or, for a patch 2/n and later, any patch of the same
 * version -- else itself.  A v2 sent in reply to v1 is its own posting.
 */
static size_t find_anchor(const struct rlist *l, size_t i)
{
	const struct rmail *m = &l->v[i];
	const char *p = m->refs;
	char id[1024];

	if (m->kind == RK_COVER)
		return i;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			p = m->irt;
		while (*p) {
			const char *lt = pass ? p : strchr(p, '<'), *gt;
			size_t n;
			long j;

			if (!lt)
				break;
			if (pass) {
				n = strlen(lt);
				p += n;
			} else {
				lt++;
				if (!(gt = strchr(lt, '>')))
					break;
				n = gt - lt;
				p = gt + 1;
			}
			if (!n || n >= sizeof(id))
				continue;
			memcpy(id, lt, n);
			id[n] = '\0';
			j = find_mid(l, id);
			/* a patch of the same version: its posting (resolved
			 * by group_series: deep threading, 3 -> 2 -> 1) */
			if (j >= 0 && (size_t)j != i && l->v[j].version == m->version &&
			    (m->idx > 1 || l->v[j].kind == RK_COVER || l->v[j].idx == 1))
				return j;
		}
	}
	return i;
}

static int cmp_posting(const struct rlist *l, size_t a, size_t b)
{
	const struct rmail *x = &l->v[a], *y = &l->v[b];

	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Series identity: the posting's author and title, case and blanks folded. */
static char *series_key(const struct rmail *m)
{
	struct strbuf sb = STRBUF_INIT;
	bool blank = false;

	strbuf_addf(&sb, "%s\n", m->email);
	for (const char *p = m->title; *p; p++) {
		if (isspace((unsigned char)*p)) {
			blank = sb.len && sb.buf[sb.len - 1] != '\n';
			continue;
		}
		if (blank)
			strbuf_addch(&sb, ' ');
		blank = false;
		strbuf_addch(&sb, tolower((unsigned char)*p));
	}
	return strbuf_detach(&sb, NULL);
}

struct keyed {
	char *key;
	size_t anchor;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->anchor > y->anchor) - (x->anchor < y->anchor);
}

static void group_series(struct rlist *l)
{
	struct keyed *k = xcalloc(l->nr + 1, sizeof(*k));
	size_t nk = 0;

	l->by_mid = xcalloc(l->nr + 1, sizeof(*l->by_mid));
	for (size_t i = 0; i < l->nr; i++)
		l->by_mid[i] = i;
	sort_base = l->v;
	qsort(l->by_mid, l->nr, sizeof(*l->by_mid), cmp_mid);
	for (size_t i = 0; i < l->nr; i++)
		l->v[i].anchor = find_anchor(l, i);
	/* patch 3 answering patch 1 answering the cover: the cover's */
	for (size_t i = 0; i < l->nr; i++)
		for (int hops = 0; hops < 8 && l->v[l->v[i].anchor].anchor != l->v[i].anchor; hops++)
			l->v[i].anchor = l->v[l->v[i].anchor].anchor;
	for (size_t i = 0; i < l->nr; i++) {
		if (l->v[i].anchor == i) {
			k[nk].key = series_key(&l->v[i]);
			k[nk++].anchor = i;
		}
	}
	qsort(k, nk, sizeof(*k), cmp_keyed);
	l->series = xcalloc(nk + 1, sizeof(*l->series));
	for (size_t i = 0; i < nk; ) {
		struct rseries *s = &l->series[l->nr_series];
		size_t j = i;

		while (j < nk && !strcmp(k[j].key, k[i].key))
			j++;
		s->postings = xcalloc(j - i, sizeof(*s->postings));
		for (size_t x = i; x < j; x++) {
			size_t a = k[x].anchor, y = s->nr_postings++;

			/* insertion by version, then date */
			while (y && cmp_posting(l, s->postings[y - 1], a) > 0) {
				s->postings[y] = s->postings[y - 1];
				y--;
			}
			s->postings[y] = a;
			l->v[a].series = l->nr_series;
		}
		s->newest = s->postings[s->nr_postings - 1];
		l->nr_series++;
		i = j;
	}
	for (size_t i = 0; i < l->nr; i++)
		l->v[i].series = l->v[l->v[i].anchor].series;
	for (size_t i = 0; i < nk; i++)
		free(k[i].key);
	free(k);
}

static void rlist_release(struct rlist *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		struct rmail *m = &l->v[i];

		for (size_t j = 0; j < m->nr_calls; j++) {
			free(m->calls[j].macro);
			free(m->calls[j].where);
		}
		free(m->calls);
		free(m->mid);
		free(m->irt);
		free(m->refs);
		free(m->email);
		free(m->title);
		free(m->subject);
		free(m->base);
	}
	for (size_t i = 0; i < l->nr_series; i++)
		free(l->series[i].postings);
	free(l->series);
	free(l->v);
	free(l->by_mid);
	memset(l, 0, sizeof(*l));
}

struct rcycle {
	bool used;
	long adding[RC__NR], added[RC__NR], removed[RC__NR];
	long conversions, review_conversions;
	/* BACKFILL_REPORT_MAILS: the mails behind the numbers */
	json_t *m_adding[RC__NR], *m_removed, *m_conversions;
};

static bool is_bug_class(enum rule_class c)
{
	return c == RC_BUG || c == RC_PANIC;
}

static bool is_warn_class(enum rule_class c)
{
	return c == RC_WARN || c == RC_WARN_ONCE || c == RC_WARN_LIKE;
}

static void day_str(char *buf, size_t size, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

static json_t *mail_json(const struct rmail *m)
{
	char date[32] = "";
	struct tm tm;

	if (m->date) {
		gmtime_r(&m->date, &tm);
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	return json_pack("{s:s, s:s, s:s?}", "message_id", m->mid, "subject", m->subject,
			 "date", m->date ? date : NULL);
}

/* Add `m` to `arr` once (the last entry is the only candidate twin). */
static void add_mail(json_t **arr, const struct rmail *m)
{
	size_t n;

	if (!*arr)
		*arr = json_array();
	n = json_array_size(*arr);
	if (n && !strcmp(json_string_value(json_object_get(json_array_get(*arr, n - 1),
							   "message_id")), m->mid))
		return;
	json_array_append_new(*arr, mail_json(m));
}

struct where_count {
	const char *where;
	int bug[2], warn[2];
	const struct rmail *warn_mail;	/* the newer posting's mail adding a WARN */
};

static void count_where(struct where_count **v, size_t *nr, const struct rmail *m,
			int side)
{
	for (size_t i = 0; i < m->nr_calls; i++) {
		const struct rcall *c = &m->calls[i];
		struct where_count *w = NULL;

		if (!c->added || (!is_bug_class(c->class) && !is_warn_class(c->class)))
			continue;
		for (size_t j = 0; j < *nr && !w; j++)
			if (!strcmp((*v)[j].where, c->where))
				w = &(*v)[j];
		if (!w) {
			*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
			w = &(*v)[(*nr)++];
			memset(w, 0, sizeof(*w));
			w->where = c->where;
		}
		if (is_bug_class(c->class)) {
			w->bug[side]++;
		} else {
			w->warn[side]++;
			if (side)
				w->warn_mail = m;
		}
	}
}

/*
 * Conversions the review of a series made: in each file and function, a
 * BUG-class call that version N added and N+1 no longer adds, where N+1
 * adds a WARN-class call instead.
 */
static void review_conversions(struct rcycle *rc, const struct rlist *l,
			       const size_t *order, size_t nr_order,
			       const struct rseries *s, bool mails)
{
	for (size_t p = 0, q; p + 1 < s->nr_postings; p = q) {
		struct where_count *w = NULL;
		size_t nw = 0;

		/* the last posting of a version against the last of the next
		 * one: a resend replaces what it resends */
		if (l->v[s->postings[p]].version == l->v[s->postings[p + 1]].version) {
			q = p + 1;
			continue;
		}
		q = p + 1;
		while (q + 1 < s->nr_postings &&
		       l->v[s->postings[q]].version == l->v[s->postings[q + 1]].version)
			q++;

		for (size_t k = 0; k < nr_order; k++) {
			const struct rmail *m = &l->v[order[k]];

			if (m->anchor == s->postings[p])
				count_where(&w, &nw, m, 0);
			else if (m->anchor == s->postings[q])
				count_where(&w, &nw, m, 1);
		}
		for (size_t j = 0; j < nw; j++) {
			int dropped = w[j].bug[0] - w[j].bug[1];
			int gained = w[j].warn[1] - w[j].warn[0];
			int n = dropped < gained ? dropped : gained;

			if (n <= 0)
				continue;
			rc->used = true;
			rc->review_conversions += n;
			if (mails)
				add_mail(&rc->m_conversions, w[j].warn_mail);
		}
		free(w);
	}
}

/* The cycle of a series: its newest posting's date and base-commit. */
static size_t series_cycle(const struct rlist *l, const size_t *order, size_t nr_order,
			   const struct rseries *s, const struct cycles *c)
{
	const struct rmail *a = &l->v[s->newest];
	const char *base = a->base;
	time_t date = a->date;

	for (size_t k = 0; k < nr_order; k++) {
		const struct rmail *m = &l->v[order[k]];

		if (m->anchor != s->newest)
			continue;
		if (!base && m->base)
			base = m->base;
		if (!date || (m->date && m->date < date))
			date = m->date;
	}
	return cycles_find(c, date, base);
}

static json_t *class_counts(const long *v)
{
	json_t *o = json_object();

	for (int i = 0; i < RC__NR; i++)
		json_object_set_new(o, rule_class_name(i), json_integer(v[i]));
	return o;
}

static void bump(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	json_object_set_new(o, key, json_integer(v ? json_integer_value(v) + 1 : 1));
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static json_t *cycles_json(struct rcycle *rc, const struct cycles *c, bool mails)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < c->nr; i++) {
		struct rcycle *r = &rc[i];
		char from[16], to[16];
		json_t *o;

		if (!r->used)
			continue;
		day_str(from, sizeof(from), c->v[i].from);
		day_str(to, sizeof(to), c->v[i].to);
		o = json_pack("{s:s, s:s?, s:s?, s:o, s:o, s:o, s:I}",
			      "release", c->v[i].name,
			      "from", c->v[i].from ? from : NULL,
			      "to", c->v[i].to ? to : NULL,
			      "patches_adding", class_counts(r->adding),
			      "calls_added", class_counts(r->added),
			      "calls_removed", class_counts(r->removed),
			      "conversions", (json_int_t)r->conversions + r->review_conversions);
		if (mails) {
			json_t *m = json_object(), *ad = json_object();

			for (int k = 0; k < RC__NR; k++)
				json_object_set_new(ad, rule_class_name(k),
						    r->m_adding[k] ? r->m_adding[k] : json_array());
			json_object_set_new(m, "patches_adding", ad);
			json_object_set_new(m, "calls_removed",
					    r->m_removed ? r->m_removed : json_array());
			json_object_set_new(m, "conversions",
					    r->m_conversions ? r->m_conversions : json_array());
			json_object_set_new(o, "mails", m);
			json_object_set_new(o, "review_conversions",
					    json_integer(r->review_conversions));
			memset(r->m_adding, 0, sizeof(r->m_adding));
			r->m_removed = r->m_conversions = NULL;
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

static void count_patch(struct rcycle *r, const struct rmail *m, bool mails)
{
	bool adds[RC__NR] = { false };

	r->used = true;
	for (size_t i = 0; i < m->nr_calls; i++) {
		const struct rcall *c = &m->calls[i];

		if (c->added) {
			r->added[c->class]++;
			adds[c->class] = true;
			continue;
		}
		r->removed[c->class]++;
		if (mails)
			add_mail(&r->m_removed, m);
		if (c->conversion && is_bug_class(c->class)) {
			r->conversions++;
			if (mails)
				add_mail(&r->m_conversions, m);
		}
	}
	for (int k = 0; k < RC__NR; k++) {
		r->adding[k] += adds[k];
		if (adds[k] && mails)
			add_mail(&r->m_adding[k], m);
	}
}

/* The list's archive URL ("http://host/NAME/"): as recorded by --url,
 * else lore's. */
static json_t *list_url(struct store *s, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	struct store_rows *st = NULL;
	json_t *j;

	/* Stored as a link (save_url()); made one again for older rows. */
	if (store_query(&st, s, "SELECT url FROM backfill_lists WHERE name = ?", "s",
			name) == 1)
		redact_add(&sb, store_rows_text(st, 0), REDACT_LINK);
	else
		error_clear();	/* no URL recorded: lore's */
	store_rows_free(st);
	if (!sb.len)
		strbuf_addf(&sb, "https://lore.kernel.org/%s/", name);
	if (sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j;
}

static int list_report(json_t *lists, json_t *tot_added, json_t *tot_removed,
		       struct store *s, const struct cycles *c, const char *name,
		       long mails_total, bool mails)
{
	struct rlist l = { 0 };
	struct rcycle *rc = xcalloc(c->nr, sizeof(*rc));
	size_t *order = NULL, nr_order = 0, *scycle = NULL;
	long patch_mails = 0;
	int ret;

	if ((ret = load_list(&l, s, name)) < 0 || (ret = load_calls(&l, s, name)) < 0)
		goto out;
	group_series(&l);
	/* patch mails by posting, then patch number */
	order = xcalloc(l.nr + 1, sizeof(*order));
	for (size_t i = 0; i < l.nr; i++)
		if (l.v[i].kind == RK_PATCH)
			order[nr_order++] = i;
	qsort(order, nr_order, sizeof(*order), cmp_size);
	scycle = xcalloc(l.nr_series + 1, sizeof(*scycle));
	for (size_t i = 0; i < l.nr_series; i++) {
		scycle[i] = series_cycle(&l, order, nr_order, &l.series[i], c);
		if (l.series[i].nr_postings > 1)
			review_conversions(&rc[scycle[i]], &l, order, nr_order,
					   &l.series[i], mails);
	}
	for (size_t k = 0; k < nr_order; k++) {
		const struct rmail *m = &l.v[order[k]];

		patch_mails++;
		for (size_t i = 0; i < m->nr_calls; i++)
			bump(m->calls[i].added ? tot_added : tot_removed, m->calls[i].macro);
		if (m->anchor == l.series[m->series].newest)
			count_patch(&rc[scycle[m->series]], m, mails);
	}
	json_array_append_new(lists, json_pack("{s:s, s:I, s:I, s:o}", "name", name,
					       "mails", (json_int_t)mails_total,
					       "patch_mails", (json_int_t)patch_mails,
					       "cycles", cycles_json(rc, c, mails)));
	if (mails)
		json_object_set_new(json_array_get(lists, json_array_size(lists) - 1), "url",
				    list_url(s, name));
out:
	for (size_t i = 0; i < c->nr; i++) {
		for (int k = 0; k < RC__NR; k++)
			json_decref(rc[i].m_adding[k]);
		json_decref(rc[i].m_removed);
		json_decref(rc[i].m_conversions);
	}
	free(rc);
	free(order);
	free(scycle);
	rlist_release(&l);
	return ret;
}

/* Sort a {MACRO: N} object by name: stable output for tests and diffs. */
static json_t *sorted_object(json_t *o)
{
	struct strvec keys = STRVEC_INIT;
	const char *k;
	json_t *v, *out = json_object();

	json_object_foreach(o, k, v)
		strvec_push(&keys, k);
	strvec_sort(&keys);
	for (size_t i = 0; i < keys.nr; i++)
		json_object_set(out, keys.v[i], json_object_get(o, keys.v[i]));
	strvec_clear(&keys);
	json_decref(o);
	return out;
}

bool backfill_is_empty(struct store *s)
{
	struct store_rows *st = NULL;
	bool empty = store_query(&st, s, "SELECT 1 FROM backfill_mails LIMIT 1", "") != 1;

	store_rows_free(st);
	error_clear();
	return empty;
}

int backfill_report(json_t **out, struct store *s, const struct cycles *c,
		    const char *list, unsigned int flags)
{
	json_t *lists = json_array(), *added = json_object(), *removed = json_object();
	struct store_rows *st = NULL;
	int rc, ret = 0;

	*out = NULL;
	/* all lists when `list` is NULL ("" binds as no list) */
	rc = store_query(&st, s, "SELECT list, count(*) FROM backfill_mails"
			 " WHERE ? = '' OR list = ? GROUP BY list ORDER BY list", "ss",
			 list, list);
	while (rc == 1 && (rc = store_rows_next(st)) == 1) {
		char *name = col(st, 0);

		ret = list_report(lists, added, removed, s, c, name,
				  store_rows_int(st, 1), flags & BACKFILL_REPORT_MAILS);
		free(name);
		if (ret < 0)
			goto out;
	}
	if (rc < 0) {
		ret = error_prefix(rc, "cannot read the lists");
		goto out;
	}
	*out = json_pack("{s:o, s:{s:o, s:o}}", "lists", lists, "totals",
			 "calls_added", sorted_object(added),
			 "calls_removed", sorted_object(removed));
	lists = added = removed = NULL;
out:
	store_rows_free(st);
	json_decref(lists);
	json_decref(added);
	json_decref(removed);
	return ret;
}
