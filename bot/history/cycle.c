/*
 * Release cycles from kernel-ci/releases.json: loading the table and
 * putting a mail's date (or its series' base-commit) into a bucket.
 * The rules are in cycle.h.
 */
#include "cycle.h"
#include "datadir.h"
#include "strbuf.h"

#include <ctype.h>
#include <jansson.h>

const char *cycles_default_path(char *buf, size_t size)
{
	char dir[4096];

	snprintf(buf, size, "%s/releases.json",
		 datadir_find(dir, sizeof(dir), "kernel-ci", ENV_WARNWATCH_KERNEL_CI, NULL));
	return buf;
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

bool cycles_parse_day(time_t *out, const char *s)
{
	struct tm tm = { 0 };

	if (strlen(s) != 10 || !all_digits(s, 4) || s[4] != '-' ||
	    !all_digits(s + 5, 2) || s[7] != '-' || !all_digits(s + 8, 2))
		return false;
	tm.tm_year = atoi(s) - 1900;
	tm.tm_mon = atoi(s + 5) - 1;
	tm.tm_mday = atoi(s + 8);
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31)
		return false;
	*out = timegm(&tm);
	return true;
}

static int bad(const char *name, size_t i, const char *key, const char *why)
{
	return error_code(WW_EINPUT, "%s: releases[%zu].%s: %s", name, i, key, why);
}

/* An optional hex commit id: NULL when absent. */
static int opt_commit(char **out, json_t *e, const char *key, const char *name,
		      size_t i)
{
	json_t *v = json_object_get(e, key);
	const char *s;
	size_t n;

	*out = NULL;
	if (!v)
		return 0;
	s = json_string_value(v);
	n = s ? strlen(s) : 0;
	if (!s || n < 7 || n > 64 || strspn(s, "0123456789abcdef") != n)
		return bad(name, i, key, "not a commit id (7 to 64 lower-case hex digits)");
	*out = xstrdup(s);
	return 0;
}

static int load_release(struct cycle_release *r, json_t *e, const char *name,
			size_t i)
{
	const char *s;
	json_t *v;
	int ret;

	if (!json_is_object(e))
		return error_code(WW_EINPUT, "%s: releases[%zu]: not an object", name, i);
	s = json_string_value(json_object_get(e, "name"));
	if (!s || s[0] != 'v' || !isdigit((unsigned char)s[1]))
		return bad(name, i, "name", "not a release name like \"v6.1\"");
	r->name = xstrdup(s);
	s = json_string_value(json_object_get(e, "date"));
	if (!s || !cycles_parse_day(&r->date, s))
		return bad(name, i, "date", "not a YYYY-MM-DD date");
	if ((v = json_object_get(e, "rc1"))) {
		s = json_string_value(v);
		if (!s || !cycles_parse_day(&r->rc1, s))
			return bad(name, i, "rc1", "not a YYYY-MM-DD date");
	}
	if ((ret = opt_commit(&r->commit, e, "commit", name, i)) < 0)
		return ret;
	return opt_commit(&r->rc1_commit, e, "rc1_commit", name, i);
}

static void add_bucket(struct cycles *c, const char *name, time_t from, time_t to)
{
	c->v[c->nr].name = xstrdup(name);
	c->v[c->nr].from = from;
	c->v[c->nr].to = to;
	c->nr++;
}

static void make_buckets(struct cycles *c, const char *upcoming)
{
	const struct cycle_release *r = c->releases;
	size_t n = c->nr_releases;

	c->v = xcalloc(n + 2, sizeof(*c->v));
	add_bucket(c, "older", 0, r[0].date);
	for (size_t i = 0; i + 1 < n; i++)
		add_bucket(c, i + 2 < n ? r[i + 2].name : upcoming, r[i].date,
			   r[i + 1].date);
	add_bucket(c, "unreleased", r[n - 1].date, 0);
	add_bucket(c, "unknown", 0, 0);
}

int cycles_load_buf(struct cycles *out, const char *buf, size_t len,
		    const char *name)
{
	json_error_t jerr;
	json_t *doc, *rels, *e;
	const char *upcoming;
	size_t i;
	int ret = 0;

	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc)
		return error_code(WW_EINPUT, "%s:%d:%d: %s", name, jerr.line,
				  jerr.column, jerr.text);
	rels = json_object_get(doc, "releases");
	upcoming = json_string_value(json_object_get(doc, "upcoming"));
	if (!json_is_array(rels) || json_array_size(rels) < 2 ||
	    json_array_size(rels) > CYCLE_MAX_RELEASES) {
		ret = error_code(WW_EINPUT, "%s: releases: not an array of 2 to %d releases",
				 name, CYCLE_MAX_RELEASES);
		goto out;
	}
	if (!upcoming || upcoming[0] != 'v') {
		ret = error_code(WW_EINPUT, "%s: upcoming: not a release name like \"v6.19\"",
				 name);
		goto out;
	}
	out->releases = xcalloc(json_array_size(rels), sizeof(*out->releases));
	json_array_foreach(rels, i, e) {
		struct cycle_release *r = &out->releases[i];

		out->nr_releases = i + 1;
		if ((ret = load_release(r, e, name, i)) < 0)
			goto out;
		if (i && r->date <= r[-1].date) {
			ret = bad(name, i, "date", "not after the previous release's");
			goto out;
		}
	}
	make_buckets(out, upcoming);
out:
	json_decref(doc);
	return ret;
}

int cycles_load(struct cycles *out, const char *path)
{
	struct strbuf buf = STRBUF_INIT;
	int ret;

	ret = strbuf_read_file(&buf, path, CYCLE_MAX_FILE);
	if (!ret)
		ret = cycles_load_buf(out, buf.buf, buf.len, path);
	strbuf_release(&buf);
	return ret;
}

/*
 * The release a base-commit names: its tag ("v6.1", "6.1", "v6.1.150",
 * "v6.12-rc3"), or a commit of the table.  *rc says it is an -rc.
 * Returns the release index or -1.
 */
static long named_release(const struct cycles *c, const char *base, bool *rc)
{
	char tag[64];
	const char *dash;
	size_t n;

	*rc = false;
	for (size_t i = 0; i < c->nr_releases; i++) {
		const struct cycle_release *r = &c->releases[i];

		if (r->commit && !strcmp(r->commit, base))
			return i;
		if (r->rc1_commit && !strcmp(r->rc1_commit, base)) {
			*rc = true;
			return i;
		}
	}
	n = strlen(base);
	if (n + 2 > sizeof(tag) || !n)
		return -1;
	snprintf(tag, sizeof(tag), "%s%s", base[0] == 'v' ? "" : "v", base);
	dash = strstr(tag, "-rc");
	if (dash) {
		if (!dash[3] || !all_digits(dash + 3, strlen(dash + 3)))
			return -1;
		*rc = true;
		tag[dash - tag] = '\0';
	}
	/* a stable tag names its release: v6.1.150 -> v6.1 */
	{
		char *dot = strchr(tag, '.');

		if (dot && (dot = strchr(dot + 1, '.')) && !*rc)
			*dot = '\0';
	}
	for (size_t i = 0; i < c->nr_releases; i++)
		if (!strcmp(c->releases[i].name, tag))
			return i;
	return -1;
}

size_t cycles_find(const struct cycles *c, time_t date, const char *base_commit)
{
	size_t n = c->nr_releases;

	if (base_commit && *base_commit) {
		bool rc;
		long j = named_release(c, base_commit, &rc);

		/* bucket k >= 1 covers [release k-1, release k) */
		if (j >= 0)
			return rc ? (size_t)j : (size_t)j + 1;
	}
	if (!date)
		return c->nr - 1;
	if (date < c->releases[0].date)
		return 0;
	for (size_t i = 1; i < n; i++)
		if (date < c->releases[i].date)
			return i;
	return n;
}

void cycles_release(struct cycles *c)
{
	for (size_t i = 0; i < c->nr_releases; i++) {
		free(c->releases[i].name);
		free(c->releases[i].commit);
		free(c->releases[i].rc1_commit);
	}
	for (size_t i = 0; i < c->nr; i++)
		free(c->v[i].name);
	free(c->releases);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static int month_of(const char *p)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";

	for (int m = 0; m < 12; m++)
		if (!strncasecmp(p, months + 3 * m, 3))
			return m;
	return -1;
}

/* Digits at *p (at most `max`), advancing it; -1 when none. */
static long digits(const char **p, int max)
{
	long v = 0;
	int n = 0;

	while (n < max && isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

static void skip_ws(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

bool cycles_mail_date(time_t *out, const char *s)
{
	struct tm tm = { 0 };
	const char *p = s;
	long day, year, hh, mm, ss = 0, off = 0;
	int mon;

	skip_ws(&p);
	if (isalpha((unsigned char)*p)) {	/* "Tue," */
		while (isalpha((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
		skip_ws(&p);
	}
	if ((day = digits(&p, 2)) < 1 || day > 31)
		return false;
	skip_ws(&p);
	if ((mon = month_of(p)) < 0)
		return false;
	while (isalpha((unsigned char)*p))
		p++;
	skip_ws(&p);
	year = digits(&p, 4);
	if (year < 0)
		return false;
	if (year < 100)			/* RFC 5322 4.3: obsolete 2-digit years */
		year += year < 50 ? 2000 : 1900;
	skip_ws(&p);
	if ((hh = digits(&p, 2)) < 0 || hh > 23 || *p++ != ':' ||
	    (mm = digits(&p, 2)) < 0 || mm > 59)
		return false;
	if (*p == ':' && (p++, (ss = digits(&p, 2)) < 0 || ss > 60))
		return false;
	skip_ws(&p);
	if ((*p == '+' || *p == '-') && all_digits(p + 1, 4)) {
		long z = atol(p + 1);

		off = ((z / 100) * 60 + z % 100) * 60;
		if (*p == '-')
			off = -off;
	}
	/* "GMT", "UT", "EST" or nothing: taken as UTC */
	tm.tm_year = year - 1900;
	tm.tm_mon = mon;
	tm.tm_mday = day;
	tm.tm_hour = hh;
	tm.tm_min = mm;
	tm.tm_sec = ss;
	*out = timegm(&tm) - off;
	return *out > 0;
}
