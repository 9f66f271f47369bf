/*
 * warnwatch dashboard (see dashboard.h).  Two steps: build the model (a
 * jansson document from census files and the lists' series), then render
 * it with the templates.  Rendering never trusts a string: subjects,
 * authors and file names come from mail, so they are escaped here, and
 * paths of artifacts are checked before anything is copied.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dashboard.h"
#include "chronicle.h"
#include "ci-json.h"
#include "cycle.h"
#include "history.h"
#include "feedback.h"
#include "jsonval.h"
#include "dashboard-priv.h"
#include "datadir.h"
#include "mbox.h"
#include "queue.h"
#include "redact.h"
#include "rules.h"
#include "store.h"
#include "strbuf.h"
#include "svg.h"
#include "template.h"


/* --- small helpers ---------------------------------------------------- */

const char *dash_jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

long dash_jint(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (long)json_integer_value(v);
	if (json_is_real(v))
		return (long)json_real_value(v);
	return 0;
}

/* Sum of the integer members of an object ({"bug": 1, "warn": 2} -> 3). */
long dash_jsum(const json_t *o)
{
	const char *k;
	json_t *v;
	long n = 0;

	json_object_foreach((json_t *)o, k, v)
		if (json_is_integer(v))
			n += (long)json_integer_value(v);
	return n;
}

void dash_set_text(struct tmpl_vars *v, const char *name, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	svg_escape(&sb, s);
	tmpl_set(v, name, sb.buf);
	strbuf_release(&sb);
}

void dash_set_lines(struct tmpl_vars *v, const char *name, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	svg_escape_lines(&sb, s);
	tmpl_set(v, name, sb.buf);
	strbuf_release(&sb);
}

void dash_set_num(struct tmpl_vars *v, const char *name, double n)
{
	struct strbuf sb = STRBUF_INIT;

	svg_number(&sb, n);
	tmpl_set(v, name, sb.buf);
	strbuf_release(&sb);
}

/* "+1,234 (+2.1%)" and "up"/"down" for a change from `prev` to `now`. */
void dash_set_change(struct tmpl_vars *v, const char *name,
		     const char *trend, double prev, double now)
{
	struct strbuf sb = STRBUF_INIT;
	double d = now - prev;

	if (d > 0)
		strbuf_addch(&sb, '+');
	svg_number(&sb, d);
	if (prev > 0)
		strbuf_addf(&sb, " (%+.1f%%)", d / prev * 100);
	tmpl_set(v, name, sb.buf);
	tmpl_set(v, trend, d > 0 ? "up" : d < 0 ? "down" : "");
	strbuf_release(&sb);
}

/* An id or list name safe as one path component / HTML anchor. */
static void safe_name(struct strbuf *out, const char *s)
{
	strbuf_reset(out);
	for (; *s && out->len < 80; s++) {
		unsigned char c = *s;

		strbuf_addch(out, (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				  (c >= '0' && c <= '9') || c == '-' || c == '_' ||
				  (c == '.' && out->len) ? c : '_');
	}
	if (!out->len)
		strbuf_addch(out, '_');
}

static void id_string(struct strbuf *out, const json_t *id)
{
	struct strbuf raw = STRBUF_INIT;

	if (json_is_integer(id))
		strbuf_addf(&raw, "%lld", (long long)json_integer_value(id));
	else if (json_is_string(id))
		strbuf_addstr(&raw, json_string_value(id));
	safe_name(out, raw.buf);
	strbuf_release(&raw);
}

int dashboard_release_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return 0;
}

const char *dashboard_templates_dir(void)
{
	static char buf[PATH_MAX + 32];

	return datadir_find(buf, sizeof(buf), "templates/dashboard",
			    ENV_WARNWATCH_TEMPLATES, "dashboard");
}

static int load_json_file(json_t **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	json_error_t err;
	int ret = strbuf_read_file(&sb, path, DASHBOARD_MAX_INPUT);

	if (ret < 0)
		return ret;
	*out = json_loadb(sb.buf, sb.len, 0, &err);
	strbuf_release(&sb);
	if (!*out)
		return error_code(WW_EINPUT, "'%s': line %d: %s", path, err.line,
				  err.text);
	if (!json_is_object(*out)) {
		json_decref(*out);
		*out = NULL;
		return error_code(WW_EINPUT, "'%s': not a JSON object", path);
	}
	return 0;
}

/* --- the model: releases ------------------------------------------------ */

const char *dash_release_name(const json_t *census)
{
	const char *r = dash_jstr(census, "release");

	return *r ? r : dash_jstr(census, "source");
}

static int cmp_release_json(const void *a, const void *b)
{
	return dashboard_release_cmp(dash_release_name(*(json_t *const *)a),
				     dash_release_name(*(json_t *const *)b));
}

/* Whether a tree census of `release` is among the first `nr` of `v`. */
static bool have_release(json_t *const *v, size_t nr, const char *release)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(dash_release_name(v[i]), release))
			return true;
	return false;
}

/*
 * The census files to show: those given, then the ones serve wrote into
 * the state (STATE/census/ *.json, chronicle.h), in name order.
 */
static void census_paths(struct strvec *out, const struct dashboard_opts *opts)
{
	struct strbuf dir = STRBUF_INIT;
	struct strvec found = STRVEC_INIT;
	struct dirent *de;
	DIR *d;

	for (size_t i = 0; i < opts->nr_census; i++)
		strvec_push(out, opts->census[i]);
	if (!opts->state_dir)
		return;
	strbuf_addf(&dir, "%s/%s", opts->state_dir, CHRONICLE_CENSUS_DIR);
	d = opendir(dir.buf);
	while (d && (de = readdir(d)) && found.nr < DASHBOARD_MAX_CENSUS)
		if (de->d_name[0] != '.' && ends_with(de->d_name, ".json"))
			strvec_pushf(&found, "%s/%s", dir.buf, de->d_name);
	if (d)
		closedir(d);
	strvec_sort(&found);
	for (size_t i = 0; i < found.nr; i++)
		strvec_push(out, found.v[i]);
	strvec_clear(&found);
	strbuf_release(&dir);
}

static int load_census(json_t *model, const struct dashboard_opts *opts)
{
	json_t *releases = json_array(), *changes = json_array();
	struct strvec paths = STRVEC_INIT;
	json_t **v;
	size_t nr = 0;
	int ret = 0;

	census_paths(&paths, opts);
	v = xcalloc(paths.nr + 1, sizeof(json_t *));
	for (size_t i = 0; i < paths.nr; i++) {
		json_t *c;

		ret = load_json_file(&c, paths.v[i]);
		if (ret < 0 && i >= opts->nr_census) {
			/* serve's own, being written or broken: not this page's
			 * failure */
			error_clear();
			ret = 0;
			continue;
		}
		if (ret < 0)
			goto out;
		if (json_object_get(c, "from") && json_object_get(c, "added")) {
			json_array_append_new(changes, c);
		} else if (json_is_object(json_object_get(c, "classes")) &&
			   json_is_array(json_object_get(c, "subsystems"))) {
			/* A release given and also counted by serve: once. */
			if (have_release(v, nr, dash_release_name(c)))
				json_decref(c);
			else
				v[nr++] = c;
		} else {
			json_decref(c);
			if (i >= opts->nr_census)
				continue;
			ret = error_code(WW_EINPUT, "'%s': not a warnwatch census "
					 "(want --format=json output)", paths.v[i]);
			goto out;
		}
	}
	if (nr)
		qsort(v, nr, sizeof(json_t *), cmp_release_json);
	for (size_t i = 0; i < nr; i++) {
		json_array_append_new(releases, v[i]);
		v[i] = NULL;
	}
out:
	for (size_t i = 0; i < nr; i++)
		json_decref(v[i]);
	free(v);
	strvec_clear(&paths);
	json_object_set_new(model, "releases", releases);
	json_object_set_new(model, "changes", changes);
	return ret;
}

/* --- the model: lists from the service's state ---------------------------- */

/* Read a small JSON artifact of a series, or NULL. */
static json_t *read_artifact_json(const char *path)
{
	json_t *j = NULL;

	if (access(path, R_OK))
		return NULL;
	if (load_json_file(&j, path) < 0) {
		error_clear();
		return NULL;
	}
	return j;
}

/* The verdict and its reason from kernel-ci's ci.json, when it reads. */
static void verdict_summary(json_t *s, const char *path, const char *unused)
{
	struct ci_verdict v = CI_VERDICT_INIT;

	if (access(path, R_OK))
		return;
	if (ci_verdict_load(&v, path) < 0) {
		error_clear();
	} else {
		json_object_set_new(s, "verdict", json_string(ci_verdict_name(v.kind)));
		if (v.reason && *v.reason)
			json_object_set_new(s, "reason", json_string(v.reason));
	}
	ci_verdict_release(&v);
}

/* Counts from check's findings.json: per-class added/removed, conversions. */
static void summarize_findings(json_t *s, const json_t *findings)
{
	const json_t *summary = json_object_get(findings, "summary");
	json_t *arr = json_object_get(findings, "findings"), *f;
	size_t i;
	long conversions = 0, n = 0;

	if (json_is_object(json_object_get(summary, "added")))
		json_object_set(s, "added", json_object_get(summary, "added"));
	if (json_is_object(json_object_get(summary, "removed")))
		json_object_set(s, "removed", json_object_get(summary, "removed"));
	json_array_foreach(arr, i, f) {
		if (json_is_true(json_object_get(f, "moved")))
			continue;
		n++;
		if (json_is_true(json_object_get(f, "conversion")) &&
		    !strcmp(dash_jstr(f, "kind"), "removed"))
			conversions++;
	}
	json_object_set_new(s, "findings", json_integer(n));
	json_object_set_new(s, "conversions", json_integer(conversions));
}

static void add_link(json_t *links, const char *name, const char *state_dir,
		     long long id, const char *file)
{
	struct strbuf rel = STRBUF_INIT, abs = STRBUF_INIT;

	strbuf_addf(&rel, "series/%lld/%s", id, file);
	strbuf_addf(&abs, "%s/%s", state_dir, rel.buf);
	if (!access(abs.buf, R_OK))
		json_object_set_new(links, name, json_string(rel.buf));
	strbuf_release(&rel);
	strbuf_release(&abs);
}

/* findings.json's summary, in the form verdict_summary() has. */
static void findings_summary(json_t *s, const char *path, const char *unused)
{
	json_t *j = read_artifact_json(path);

	if (j)
		summarize_findings(s, j);
	json_decref(j);
}

/*
 * The Date: of the message `root` (the series' cover letter or first
 * patch) in the archived messages at `path`, as "posted_at" (seconds),
 * unchecked: posted_date() judges it.  Nothing when it has none that
 * reads.
 */
static void posted_summary(json_t *s, const char *path, const char *root)
{
	struct strbuf sb = STRBUF_INIT;
	struct mail_list ml = MAIL_LIST_INIT;
	const struct mail *m = NULL;
	time_t t;

	if (strbuf_read_file(&sb, path, DASHBOARD_MAX_ARTIFACT) < 0 ||
	    mbox_parse(&ml, sb.buf, sb.len) < 0)
		error_clear();
	for (size_t i = 0; i < ml.nr && !m; i++)
		if (!strcmp(ml.v[i].message_id, root))
			m = &ml.v[i];
	if (m && cycles_mail_date(&t, m->date))
		json_object_set_new(s, "posted_at", json_integer(t));
	mail_list_clear(&ml);
	strbuf_release(&sb);
}

/*
 * When the series was posted, as its root's Date: says, into "posted"
 * (ISO 8601 UTC), if that is believable: anyone writes a Date:, so one
 * later than a day after serve read the mail (clocks and zones are off by
 * hours, not days), or before Linux existed, is not shown; the row then
 * shows when serve read it and says so.
 */
static void posted_date(json_t *s, time_t read_at)
{
	json_t *v = json_object_get(s, "posted_at");
	time_t t = json_is_integer(v) ? (time_t)json_integer_value(v) : 0;
	char date[32];
	struct tm tm;

	json_object_del(s, "posted_at");
	if (t < DASHBOARD_POSTED_FLOOR || t > read_at + DASHBOARD_POSTED_SKEW)
		return;
	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(s, "posted", json_string(date));
}

void dashboard_cache_release(struct dashboard_cache *c)
{
	json_decref(c->parts);
	c->parts = NULL;
}

/*
 * What the artifact `path` says, by `fn`, into `s`: from the cache when
 * the file did not change, else read.  `keep` (NULL without a cache)
 * collects the entries this write used.
 */
static void artifact_summary(json_t *s, const char *path,
			     void (*fn)(json_t *, const char *, const char *),
			     const char *arg, struct dashboard_cache *cache,
			     json_t *keep)
{
	json_t *e, *part;
	struct stat st;
	char stamp[96];

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	snprintf(stamp, sizeof(stamp), "%ju:%jd:%jd.%09ld", (uintmax_t)st.st_ino,
		 (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec,
		 st.st_mtim.tv_nsec);
	e = cache ? json_object_get(cache->parts, path) : NULL;
	if (e && !strcmp(dash_jstr(e, "stamp"), stamp)) {
		part = json_incref(json_object_get(e, "part"));
	} else {
		part = json_object();
		fn(part, path, arg);
		if (cache)
			cache->parsed++;
	}
	json_object_update(s, part);
	if (keep)
		json_object_set_new(keep, path, json_pack("{s:s, s:O}", "stamp", stamp,
							  "part", part));
	json_decref(part);
}

static json_t *series_from_queue(const struct queue_series *qs,
				 const char *state_dir,
				 struct dashboard_cache *cache, json_t *keep)
{
	json_t *s = json_object(), *links = json_object();
	struct strbuf path = STRBUF_INIT;
	char date[32];
	struct tm tm;
	time_t t = qs->first_seen;

	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(s, "id", json_integer(qs->id));
	/* From mail: kept when not UTF-8 (jsonval_text()), never lost. */
	json_object_set_new(s, "message_id", jsonval_text(qs->root_msgid));
	json_object_set_new(s, "subject", jsonval_text(qs->title));
	json_object_set_new(s, "version", json_integer(qs->version));
	json_object_set_new(s, "patches", json_integer(qs->total));
	json_object_set_new(s, "author", jsonval_text(qs->author));
	json_object_set_new(s, "date", json_string(date));
	json_object_set_new(s, "state", json_string(queue_state_name(qs->state)));
	json_object_set_new(s, "findings", json_integer(qs->findings));
	/* No "verdict" from the queue row: the check stage puts "clean" or
	 * "findings" there too, and the Boot column must not read a check
	 * as a boot.  Only ci.json (a boot that ran) sets it, below. */
	if (qs->prev_id)
		json_object_set_new(s, "previous", json_integer(qs->prev_id));
	if (*qs->error) {
		/* Stored redacted; redacted again for rows from before. */
		char *error = redact(qs->error, 0);

		json_object_set_new(s, "error", jsonval_text(error));
		free(error);
	}

	strbuf_addf(&path, "%s/series/%lld/%s", state_dir, qs->id, QUEUE_FINDINGS);
	artifact_summary(s, path.buf, findings_summary, NULL, cache, keep);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/series/%lld/%s", state_dir, qs->id, QUEUE_CI);
	artifact_summary(s, path.buf, verdict_summary, NULL, cache, keep);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/series/%lld/%s", state_dir, qs->id, QUEUE_SELECTED);
	artifact_summary(s, path.buf, posted_summary, qs->root_msgid, cache, keep);
	posted_date(s, qs->first_seen);
	add_link(links, "findings", state_dir, qs->id, QUEUE_FINDINGS);
	add_link(links, "console", state_dir, qs->id, QUEUE_CONSOLE);
	add_link(links, "reply", state_dir, qs->id, QUEUE_REPLY);
	add_link(links, "mbox", state_dir, qs->id, QUEUE_MBOX);
	json_object_set_new(s, "links", links);
	strbuf_release(&path);
	return s;
}

/* The list named `name` in `lists`, created if missing. */
static json_t *list_get(json_t *lists, const char *name)
{
	json_t *l;
	size_t i;

	json_array_foreach(lists, i, l)
		if (!strcmp(dash_jstr(l, "name"), name))
			return l;
	l = json_pack("{s:s, s:[]}", "name", name, "series");
	json_array_append_new(lists, l);
	return l;
}

/*
 * Every series of the state, newest first: the ids from queue_recent(),
 * each series read through queue_load() like `status` does.
 */
static int lists_from_state(json_t *model, struct store *st,
			    const struct dashboard_opts *opts)
{
	const char *state_dir = opts->state_dir;
	long long *ids = NULL;
	struct queue q;
	json_t *lists = json_array();
	/* the cache's entries this write uses: the next cache */
	json_t *keep = opts->cache ? json_object() : NULL;
	int ret, n;

	if (opts->cache)
		opts->cache->parsed = 0;

	/* The watched lists first, in their order, series or not yet. */
	for (size_t i = 0; i < opts->nr_watched; i++) {
		json_t *l = list_get(lists, opts->watched[i].name);

		/* A link for visitors: without the archive's credentials. */
		if (opts->watched[i].url && *opts->watched[i].url) {
			char *url = redact(opts->watched[i].url, REDACT_LINK);

			json_object_set_new(l, "url", json_string(url));
			free(url);
		}
	}
	ret = queue_init(&q, st, state_dir, NULL);
	if (ret < 0)
		goto out_lists;
	n = queue_recent(&ids, &q, DASHBOARD_MAX_SERIES);
	if (n < 0)
		ret = error_prefix(n, "'%s': cannot list series", state_dir);
	for (int i = 0; i < n; i++) {
		struct queue_series qs = QUEUE_SERIES_INIT;
		json_t *list;

		ret = queue_load(&qs, &q, ids[i]);
		if (ret < 0) {
			queue_series_release(&qs);
			break;
		}
		list = list_get(lists, qs.inbox);
		json_array_append_new(json_object_get(list, "series"),
				      series_from_queue(&qs, state_dir, opts->cache, keep));
		queue_series_release(&qs);
	}
	free(ids);
	queue_release(&q);
out_lists:
	if (opts->cache) {
		json_decref(opts->cache->parts);
		opts->cache->parts = keep;
	}
	json_object_set_new(model, "lists", lists);
	json_object_set_new(model, "lists_base", json_string(state_dir));
	return ret;
}

static int lists_from_file(json_t *model, const char *path)
{
	json_t *doc, *lists;
	struct strbuf base = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	int ret = load_json_file(&doc, path);

	if (ret < 0)
		return ret;
	lists = json_object_get(doc, "lists");
	if (!json_is_array(lists)) {
		json_decref(doc);
		return error_code(WW_EINPUT, "'%s': no \"lists\" array", path);
	}
	json_object_set(model, "lists", lists);
	/* Artifact links are relative to the file's directory. */
	if (slash)
		strbuf_add(&base, path, slash - path);
	else
		strbuf_addch(&base, '.');
	json_object_set_new(model, "lists_base", json_string(base.buf));
	strbuf_release(&base);
	json_decref(doc);
	return 0;
}

int dashboard_model(json_t **out, const struct dashboard_opts *opts)
{
	json_t *m = json_object();
	char date[40];
	struct tm tm;
	time_t now = opts->now ? opts->now : time(NULL);
	int ret;

	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	json_object_set_new(m, "generated", json_string(date));
	json_object_set_new(m, "title", json_string(opts->title ? opts->title :
						      "warnwatch"));
	ret = load_census(m, opts);
	if (!ret && opts->state_dir) {
		struct store own = STORE_INIT, *st = opts->store;
		json_t *h = NULL;

		if (!st) {
			ret = store_open(&own, opts->state_dir);
			st = &own;
		}
		if (!ret)
			ret = lists_from_state(m, st, opts);
		if (!ret) {
			json_t *fb = NULL;

			ret = feedback_by_rule(&fb, st);
			if (!ret)
				json_object_set_new(m, "feedback", fb);
		}
		if (!ret)
			ret = history_model(&h, st, NULL);
		if (h)
			json_object_set_new(m, "history", h);
		store_close(&own);
	}
	else if (!ret && opts->lists_file)
		ret = lists_from_file(m, opts->lists_file);
	else if (!ret)
		json_object_set_new(m, "lists", json_array());
	if (ret < 0) {
		json_decref(m);
		*out = NULL;
		return ret;
	}
	*out = m;
	return 0;
}


struct verdict_kind {
	const char *cls, *label;
	bool boot;	/* a boot ran: counted in the Boot verdicts bar */
};

static const struct verdict_kind verdict_kinds[] = {
	{ "panicked", "panicked", true },
	{ "clean", "clean", true },
	{ "build-failed", "build failed", true },
	{ "apply-failed", "did not apply", true },
	{ "hung", "hung", true },
	{ "error", "error", true },
	{ "not-booted", "not booted", false },
	{ "pending", "pending", false },
	/* Not the series' fault (issue 28): never "failed". */
	{ "untestable", "untestable", true },
	/* A report fired without the panic that should follow (issue 40). */
	{ "fired", "fired, no panic", true },
	/* The series failed before any boot (b4 could not fetch it, ...):
	 * its error is on its page, and it is no boot (issue 38). */
	{ "failed", "not booted: failed", false },
	{ "fs-corrupted", "filesystem corrupted", true },
};

enum { VK_APPLY_FAILED = 3, VK_NOT_BOOTED = 6, VK_PENDING = 7, VK_FAILED = 10 };

static size_t verdict_of(const json_t *s)
{
	const char *v = dash_jstr(s, "verdict"), *st = dash_jstr(s, "state");

	for (size_t i = 0; i < ARRAY_SIZE(verdict_kinds); i++)
		if (!strcmp(v, verdict_kinds[i].cls))
			return i;
	if (!strcmp(v, "did-not-apply") || !strcmp(v, "apply-failed"))
		return VK_APPLY_FAILED;
	if (!strcmp(st, "failed"))
		return VK_FAILED;
	if (!strcmp(v, "findings") || !strcmp(st, "checked") ||
	    !strcmp(st, "replied") || !strcmp(st, "booted"))
		return VK_NOT_BOOTED;
	return VK_PENDING;
}

static bool reviewed(const json_t *s)
{
	const char *st = dash_jstr(s, "state");

	return !*st || !strcmp(st, "checked") || !strcmp(st, "booted") ||
	       !strcmp(st, "replied");
}

/* A path inside the lists' base directory: relative, no "..". */
static bool safe_rel_path(const char *p)
{
	if (!*p || *p == '/')
		return false;
	for (const char *c = p; *c; ) {
		size_t n = strcspn(c, "/");

		if ((n == 2 && !strncmp(c, "..", 2)) || n == 0)
			return false;
		c += n;
		if (*c == '/')
			c++;
	}
	return true;
}

struct render_ctx {
	const struct dashboard_opts *opts;
	const char *tdir;
	const char *base;	/* where the lists' artifact links start */
	const char *site_title;
	int error;
};

/*
 * Copy a series artifact into OUT/series/ID/ (the site must stand on
 * its own).  The link name, relative to the site root, goes into
 * `out`; "" when there is nothing to link.
 */
static int copy_artifact(struct strbuf *out, struct render_ctx *rc,
			 const json_t *links, const char *key, const char *sid)
{
	const char *link = dash_jstr(links, key), *name;
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT, data = STRBUF_INIT;
	int ret = 0;

	strbuf_reset(out);
	if (!*link || !safe_rel_path(link))
		return 0;
	name = strrchr(link, '/');
	name = name ? name + 1 : link;
	strbuf_addf(&src, "%s/%s", rc->base, link);
	strbuf_addf(&dst, "%s/series/%s/%s", rc->opts->out_dir, sid, name);
	ret = strbuf_read_file(&data, src.buf, DASHBOARD_MAX_ARTIFACT);
	if (ret == WW_ENOTFOUND) {
		/* Listed but gone (a cleaned-up state dir): no link. */
		error_clear();
		ret = 0;
		goto out;
	}
	if (ret < 0 || (ret = strbuf_write_file(&data, dst.buf)) < 0)
		goto out;
	strbuf_addf(out, "series/%s/%s", sid, name);
out:
	strbuf_release(&src);
	strbuf_release(&dst);
	strbuf_release(&data);
	return ret;
}

static void series_finding_vars(struct tmpl_vars *pv, const json_t *findings)
{
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(findings, "findings"), i, f) {
		struct tmpl_vars *fv;
		char line[32];

		if (json_is_true(json_object_get(f, "moved")))
			continue;
		fv = tmpl_add(pv, "findings");
		snprintf(line, sizeof(line), "%ld", dash_jint(f, "line"));
		dash_set_text(fv, "severity", dash_jstr(f, "severity"));
		dash_set_text(fv, "file", dash_jstr(f, "file"));
		tmpl_set(fv, "line", line);
		dash_set_text(fv, "function", dash_jstr(f, "function"));
		dash_set_text(fv, "kind", dash_jstr(f, "kind"));
		dash_set_text(fv, "macro", dash_jstr(f, "macro"));
		dash_set_text(fv, "message", dash_jstr(f, "message"));
		dash_set_text(fv, "source", dash_jstr(f, "source"));
		tmpl_set_bool(fv, "conversion",
			      json_is_true(json_object_get(f, "conversion")));
	}
}

static int write_series_page(struct render_ctx *rc, const json_t *list,
			     const json_t *s, const char *sid,
			     const struct strbuf *links /* [4] */,
			     const char *prev_sid, const char *prev_version)
{
	struct tmpl_vars *pv = tmpl_vars_new();
	struct strbuf anchor = STRBUF_INIT, path = STRBUF_INIT, html = STRBUF_INIT;
	struct strbuf reply = STRBUF_INIT, tmp = STRBUF_INIT;
	size_t vk = verdict_of(s);
	json_t *findings = NULL;
	int ret;

	safe_name(&anchor, dash_jstr(list, "name"));
	dash_set_text(pv, "site_title", rc->site_title);
	dash_set_text(pv, "list", dash_jstr(list, "name"));
	tmpl_set(pv, "list_anchor", anchor.buf);
	dash_set_text(pv, "subject", *dash_jstr(s, "subject") ? dash_jstr(s, "subject") : "(no subject)");
	dash_set_text(pv, "author", dash_jstr(s, "author"));
	dash_set_text(pv, "date", dash_jstr(s, "date"));
	dash_set_text(pv, "posted", dash_jstr(s, "posted"));
	dash_set_text(pv, "message_id", dash_jstr(s, "message_id"));
	if (dash_jint(s, "version") > 1)
		tmpl_setf(pv, "version", "%ld", dash_jint(s, "version"));
	tmpl_set(pv, "verdict_class", verdict_kinds[vk].cls);
	dash_set_text(pv, "verdict", verdict_kinds[vk].label);
	dash_set_text(pv, "reason", *dash_jstr(s, "reason") ? dash_jstr(s, "reason") : dash_jstr(s, "error"));
	if (prev_sid) {
		tmpl_set(pv, "previous", prev_sid);
		dash_set_text(pv, "previous_version", prev_version);
	}
	/* Links from series/ID/index.html to series/ID/x: just the name. */
	{
		static const char *const keys[] = { "findings_link", "console_link",
						    "reply_link", "mbox_link" };

		for (int k = 0; k < 4; k++)
			if (links[k].len)
				dash_set_text(pv, keys[k], strrchr(links[k].buf, '/') + 1);
	}
	if (links[0].len) {
		strbuf_addf(&tmp, "%s/%s", rc->opts->out_dir, links[0].buf);
		findings = read_artifact_json(tmp.buf);
		if (findings)
			series_finding_vars(pv, findings);
	}
	if (links[2].len) {
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%s/%s", rc->opts->out_dir, links[2].buf);
		if (!strbuf_read_file(&reply, tmp.buf, 1u << 20))
			dash_set_lines(pv, "reply_text", reply.buf);
		error_clear();
	}
	ret = template_render_file(&html, rc->tdir, "series.html", pv, 0);
	if (!ret) {
		strbuf_addf(&path, "%s/series/%s/index.html", rc->opts->out_dir, sid);
		ret = strbuf_write_file(&html, path.buf);
	}
	json_decref(findings);
	tmpl_vars_free(pv);
	strbuf_release(&anchor);
	strbuf_release(&path);
	strbuf_release(&html);
	strbuf_release(&reply);
	strbuf_release(&tmp);
	return ret;
}

static int make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return error("cannot create '%s': %s", path, strerror(errno));
	return 0;
}

/* The id and version of the series `prev` names in this list, if shown. */
static const json_t *find_series(const json_t *list, const json_t *id)
{
	const json_t *s;
	size_t i;

	if (!id)
		return NULL;
	json_array_foreach(json_object_get(list, "series"), i, s)
		if (json_equal(json_object_get(s, "id"), (json_t *)id))
			return s;
	return NULL;
}

/* "2026-12-03T09:00:00Z" -> "2026-12-03 09:00" */
static void short_date(struct strbuf *out, const char *iso)
{
	strbuf_reset(out);
	strbuf_addstr(out, iso);
	if (out->len >= 16 && out->buf[10] == 'T') {
		out->buf[10] = ' ';
		strbuf_setlen(out, 16);
	}
}

static int render_series_row(struct render_ctx *rc, struct tmpl_vars *lv,
			     const json_t *list, const json_t *s)
{
	static const char *const keys[] = { "findings", "console", "reply", "mbox" };
	static const char *const link_vars[] = { "findings_link", "console_link",
						 "reply_link", NULL };
	struct tmpl_vars *row = tmpl_add(lv, "series");
	struct strbuf sid = STRBUF_INIT, dir = STRBUF_INIT, links[4], date = STRBUF_INIT;
	const json_t *prev = find_series(list, json_object_get(s, "previous"));
	struct strbuf prev_sid = STRBUF_INIT, prev_version = STRBUF_INIT;
	size_t vk = verdict_of(s);
	int ret = 0;

	id_string(&sid, json_object_get(s, "id"));
	strbuf_addf(&dir, "%s/series/%s", rc->opts->out_dir, sid.buf);
	for (int k = 0; k < 4; k++)
		strbuf_init(&links[k], 0);
	if ((ret = make_dir(dir.buf)) < 0)
		goto out;
	for (int k = 0; k < 4 && !ret; k++)
		ret = copy_artifact(&links[k], rc, json_object_get(s, "links"),
				    keys[k], sid.buf);
	if (ret < 0)
		goto out;

	/* When it was posted (its Date:, when believable), else when serve
	 * read it, saying so. */
	short_date(&date, *dash_jstr(s, "posted") ? dash_jstr(s, "posted") :
		   dash_jstr(s, "date"));
	dash_set_text(row, "date", date.buf);
	if (!*dash_jstr(s, "posted") && date.len)
		tmpl_set(row, "date_read", "1");
	dash_set_text(row, "subject", *dash_jstr(s, "subject") ? dash_jstr(s, "subject") : "(no subject)");
	{
		/* The name alone: addresses are for mail, not for a page. */
		const char *a = dash_jstr(s, "author"), *lt = strchr(a, '<');
		struct strbuf name = STRBUF_INIT;

		strbuf_add(&name, a, lt ? (size_t)(lt - a) : strlen(a));
		strbuf_trim(&name);
		if (!name.len && lt)
			strbuf_addstr(&name, "(no name)");
		dash_set_text(row, "author", name.buf);
		strbuf_release(&name);
	}
	dash_set_num(row, "findings", dash_jint(s, "findings"));
	{
		/* A conversion (check's: a call removed, a gentler one in its
		 * place) is one thing done, not a call added and one removed:
		 * its two sides leave Added and Removed (issue 38). */
		long conv = dash_jint(s, "conversions");
		long added = dash_jsum(json_object_get(s, "added")) - conv;
		long removed = dash_jsum(json_object_get(s, "removed")) - conv;

		dash_set_num(row, "added", added > 0 ? added : 0);
		dash_set_num(row, "removed", removed > 0 ? removed : 0);
		dash_set_num(row, "converted", conv);
	}
	tmpl_set(row, "verdict_class", verdict_kinds[vk].cls);
	dash_set_text(row, "verdict", verdict_kinds[vk].label);
	strbuf_addf(&dir, "/index.html");
	{
		struct strbuf page = STRBUF_INIT;

		strbuf_addf(&page, "series/%s/index.html", sid.buf);
		dash_set_text(row, "page", page.buf);
		strbuf_release(&page);
	}
	for (int k = 0; link_vars[k]; k++)
		if (links[k].len)
			dash_set_text(row, link_vars[k], links[k].buf);
	if (prev) {
		id_string(&prev_sid, json_object_get(prev, "id"));
		strbuf_addf(&prev_version, "%ld", dash_jint(prev, "version") ?
			    dash_jint(prev, "version") : 1);
		tmpl_set(row, "previous", "1");
		strbuf_reset(&dir);
		strbuf_addf(&dir, "series/%s/index.html", prev_sid.buf);
		dash_set_text(row, "previous_page", dir.buf);
		dash_set_text(row, "previous_version", prev_version.buf);
	}
	ret = write_series_page(rc, list, s, sid.buf, links,
				prev ? prev_sid.buf : NULL, prev_version.buf);
out:
	for (int k = 0; k < 4; k++)
		strbuf_release(&links[k]);
	strbuf_release(&sid);
	strbuf_release(&dir);
	strbuf_release(&date);
	strbuf_release(&prev_sid);
	strbuf_release(&prev_version);
	return ret;
}

static void list_card(struct tmpl_vars *lv, const char *label, double value,
		      const char *note)
{
	struct tmpl_vars *card = tmpl_add(lv, "cards");

	dash_set_text(card, "label", label);
	dash_set_num(card, "value", value);
	tmpl_setf(card, "raw", "%g", value);
	dash_set_text(card, "note", note);
}

/*
 * What tells the entries of one list apart: the id (id_string(): never a
 * ':'), else the Message-ID, else the place in the list.
 */
static void entry_key(struct strbuf *out, const json_t *s, size_t idx)
{
	strbuf_reset(out);
	if (json_object_get(s, "id")) {
		id_string(out, json_object_get(s, "id"));
	} else if (*dash_jstr(s, "message_id")) {
		strbuf_addf(out, "mid:%s", dash_jstr(s, "message_id"));
	} else {
		strbuf_addf(out, "nr:%zu", idx);
	}
}

/*
 * The series an entry belongs to, across versions: the key of the oldest
 * version its "previous" links reach in `by_key` (key -> entry).  Every
 * version of one series has the same key; a chain is followed at most
 * as many steps as there are entries, so a loop in the links ends.
 */
static void series_key(struct strbuf *out, const json_t *by_key, const json_t *s,
		       size_t idx)
{
	size_t steps = json_object_size(by_key);
	struct strbuf k = STRBUF_INIT;

	entry_key(out, s, idx);
	while (steps-- && json_object_get(s, "previous")) {
		const json_t *prev;

		id_string(&k, json_object_get(s, "previous"));
		prev = json_object_get(by_key, k.buf);
		if (!prev || prev == s)
			break;
		s = prev;
		strbuf_reset(out);
		strbuf_addbuf(out, &k);
	}
	strbuf_release(&k);
}

static int render_list(struct render_ctx *rc, struct tmpl_vars *v,
		       const json_t *list)
{
	struct tmpl_vars *lv = tmpl_add(v, "lists");
	const json_t *series = json_object_get(list, "series"), *s;
	size_t i, n, nr_reviewed = 0, shown = 0, boots = 0;
	long findings = 0, bug_added = 0, conversions = 0;
	double verdicts[ARRAY_SIZE(verdict_kinds)] = { 0 };
	struct svg_item items[ARRAY_SIZE(verdict_kinds)];
	struct svg_chart ch = { NULL, "Boot verdicts", NULL, "series", 0 };
	struct strbuf anchor = STRBUF_INIT, sb = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf key = STRBUF_INIT;
	json_t *by_key = json_object(), *counted = json_object();
	size_t recent = rc->opts->recent ? rc->opts->recent : DASHBOARD_RECENT;
	int ret = 0;

	safe_name(&anchor, dash_jstr(list, "name"));
	dash_set_text(lv, "name", dash_jstr(list, "name"));
	tmpl_set(lv, "anchor", anchor.buf);
	if (*dash_jstr(list, "url"))
		dash_set_text(lv, "url", dash_jstr(list, "url"));
	json_array_foreach(series, i, s) {
		entry_key(&key, s, i);
		json_object_set(by_key, key.buf, (json_t *)s);
	}
	json_array_foreach(series, i, s) {
		if (!strcmp(dash_jstr(s, "state"), "skipped"))
			continue;
		/* The bar is about boots: a series that failed before one
		 * (a b4 fetch), or was only checked, is no boot outcome. */
		if (verdict_kinds[verdict_of(s)].boot) {
			verdicts[verdict_of(s)]++;
			boots++;
		}
		/* A series counts once, in its newest reviewed version (the
		 * entries come newest first): its findings and conversions,
		 * not those of every version again. */
		series_key(&key, by_key, s, i);
		if (reviewed(s) && !json_object_get(counted, key.buf)) {
			json_object_set_new(counted, key.buf, json_true());
			nr_reviewed++;
			findings += dash_jint(s, "findings");
			conversions += dash_jint(s, "conversions");
			/* What the series adds now: a BUG_ON() v2 dropped
			 * is not added, one v2 kept is not added twice. */
			bug_added += dash_jint(json_object_get(s, "added"),
					       rule_class_name(RC_BUG));
		}
		if (shown < recent) {
			ret = render_series_row(rc, lv, list, s);
			if (ret < 0)
				goto out;
			shown++;
		}
	}
	list_card(lv, "Series reviewed", nr_reviewed,
		  "checked, booted or replied to; each version chain once");
	list_card(lv, "Findings per series",
		  nr_reviewed ? round((double)findings / nr_reviewed * 10) / 10 : 0,
		  "added or removed BUG/WARN calls");
	list_card(lv, "BUG() / BUG_ON() added", bug_added,
		  "BUG class calls the series add, each in its newest version");
	list_card(lv, "Conversions credited", conversions,
		  "BUG/WARN calls turned into gentler code, once per series");

	/* No boot ran: no bar of zeros, the template says so. */
	if (!boots)
		goto out;
	/* The four outcomes people look for always; the rest when they happened. */
	for (i = 0, n = 0; i < ARRAY_SIZE(verdict_kinds); i++) {
		if (i >= 4 && !verdicts[i])
			continue;
		items[n].label = verdict_kinds[i].label;
		items[n].value = verdicts[i];
		items[n].cls = verdict_kinds[i].cls;
		items[n++].href = NULL;
	}
	strbuf_addf(&id, "verdicts-%s", anchor.buf);
	ch.id = id.buf;
	ch.desc = "How the series ended: panicked, clean, build failed, did not apply";
	svg_share_bar(&sb, &ch, items, n);
	tmpl_set(lv, "verdicts_svg", sb.buf);
out:
	json_decref(by_key);
	json_decref(counted);
	strbuf_release(&key);
	strbuf_release(&anchor);
	strbuf_release(&sb);
	strbuf_release(&id);
	return ret;
}

/* --- the whole site ------------------------------------------------------ */

static int copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, from, 1u << 20);

	if (!ret)
		ret = strbuf_write_file(&sb, to);
	strbuf_release(&sb);
	return ret;
}

int dashboard_render(const json_t *model, const struct dashboard_opts *opts)
{
	struct render_ctx rc = { opts, NULL, NULL, NULL, 0 };
	struct tmpl_vars *v = tmpl_vars_new(), *sec = NULL;
	struct strbuf path = STRBUF_INIT, html = STRBUF_INIT, from = STRBUF_INIT;
	const json_t *l;
	char *dump = NULL;
	size_t i;
	int ret;

	rc.tdir = opts->templates ? opts->templates : dashboard_templates_dir();
	rc.base = dash_jstr(model, "lists_base");
	rc.site_title = dash_jstr(model, "title");
	if ((ret = make_dir(opts->out_dir)) < 0)
		goto out;
	strbuf_addf(&path, "%s/series", opts->out_dir);
	if ((ret = make_dir(path.buf)) < 0)
		goto out;

	dash_set_text(v, "title", rc.site_title);
	dash_set_text(v, "generated", dash_jstr(model, "generated"));
	tmpl_set(v, "data_link", "dashboard.json");
	dash_render_releases(v, model);
	if (json_object_get(model, "history")) {
		tmpl_set(v, "history_link", "history/index.html");
		/* The numbers the dashboard exists for, on the first page. */
		history_overall(tmpl_add(v, "cycles_section"), json_object_get(model, "history"));
		ret = history_render(json_object_get(model, "history"), opts->out_dir, rc.tdir,
				     rc.site_title, dash_jstr(model, "generated"));
		if (ret < 0)
			goto out;
	}
	/* Per rule, how often recipients called it wrong (feedback.h). */
	if (json_array_size(json_object_get(model, "feedback")))
		sec = tmpl_add(v, "feedback_section");
	json_array_foreach(json_object_get(model, "feedback"), i, l) {
		struct tmpl_vars *fv = tmpl_add(sec, "feedback");

		dash_set_text(fv, "rule", dash_jstr(l, "rule"));
		dash_set_num(fv, "said", dash_jint(l, "said"));
		dash_set_num(fv, "wrong", dash_jint(l, "wrong"));
	}
	json_array_foreach(json_object_get(model, "lists"), i, l) {
		ret = render_list(&rc, v, l);
		if (ret < 0)
			goto out;
	}
	ret = template_render_file(&html, rc.tdir, "index.html", v, 0);
	if (ret < 0)
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/index.html", opts->out_dir);
	if ((ret = strbuf_write_file(&html, path.buf)) < 0)
		goto out;

	strbuf_addf(&from, "%s/style.css", rc.tdir);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/style.css", opts->out_dir);
	if ((ret = copy_file(from.buf, path.buf)) < 0)
		goto out;

	dump = json_dumps(model, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	strbuf_reset(&html);
	strbuf_addstr(&html, dump ? dump : "{}");
	strbuf_addch(&html, '\n');
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/dashboard.json", opts->out_dir);
	ret = strbuf_write_file(&html, path.buf);
out:
	free(dump);
	tmpl_vars_free(v);
	strbuf_release(&path);
	strbuf_release(&html);
	strbuf_release(&from);
	return ret;
}

int dashboard_write(const struct dashboard_opts *opts)
{
	json_t *model;
	int ret = dashboard_model(&model, opts);

	if (ret < 0)
		return ret;
	ret = dashboard_render(model, opts);
	json_decref(model);
	return ret;
}
