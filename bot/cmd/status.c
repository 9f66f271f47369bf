/*
 * warnwatch status: the service's queue, recent verdicts and errors, read
 * from the state database (safe while the service runs: WAL readers do
 * not block it).
 */
#include "builtin.h"
#include "config.h"
#include "opt.h"
#include "quote.h"
#include "queue.h"
#include "serve.h"
#include "store.h"

#include <time.h>


static const char status_usage[] =
	"usage: warnwatch status [--config FILE | --state-dir DIR]\n"
	"                        [--format=text|json] [--limit N] [ID]\n"
	"\n"
	"Show the watched lists, the queue, recent verdicts and errors; with an\n"
	"ID, that series in full.\n"
	"Exit status: 0 all well, 1 a series failed or a list cannot be polled,\n"
	"2 usage error or no state.\n";

struct status_args {
	const char *config;
	const char *state_dir;
	const char *format;
	unsigned long limit;
	struct strvec ids;
};

static const char *const formats[] = { "text", "json", NULL };

/* 0: go on; 1: --help printed; EXIT_USAGE: bad command line (said). */
static int parse_args(struct status_args *a, int argc, const char **argv)
{
	int format = -1, ret;
	struct opt opts[] = {
		OPT_STRING(0, "config", &a->config, "FILE"),
		OPT_STRING(0, "state-dir", &a->state_dir, "DIR"),
		OPT_CHOICE(0, "format", &format, formats),
		OPT_ULONG(0, "limit", &a->limit, "N"),
		OPT_END(),
	};

	ret = opt_parse(&a->ids, argc, argv, opts, 0);
	if (ret == OPT_HELP) {
		fputs(status_usage, stdout);
		return 1;
	}
	if (!ret)
		ret = opt_ids(&a->ids);
	if (ret < 0) {
		fprintf(stderr, "warnwatch: status: %s\n%s", error_last(),
			status_usage);
		return EXIT_USAGE;
	}
	if (format >= 0)
		a->format = formats[format];
	return 0;
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static long long jint(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* "12s ago" / "in 3m" for people. */
static void rel_time(struct strbuf *out, time_t t, time_t now)
{
	long long d = (long long)t - now;
	long long a = d < 0 ? -d : d;

	if (!t) {
		strbuf_addstr(out, "never");
		return;
	}
	if (d > 0)
		strbuf_addstr(out, "in ");
	if (a < 120)
		strbuf_addf(out, "%llds", a);
	else if (a < 7200)
		strbuf_addf(out, "%lldm", a / 60);
	else if (a < 172800)
		strbuf_addf(out, "%lldh", a / 3600);
	else
		strbuf_addf(out, "%lldd", a / 86400);
	if (d <= 0)
		strbuf_addstr(out, " ago");
}

static void print_lists(const json_t *st, time_t now, bool *trouble)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i;
	json_t *l;

	printf("lists:\n");
	json_array_foreach(json_object_get(st, "lists"), i, l) {
		strbuf_reset(&a);
		strbuf_reset(&b);
		rel_time(&a, jint(l, "last_ok"), now);
		rel_time(&b, jint(l, "next_at"), now);
		if (jint(l, "failures")) {
			*trouble = true;
			printf("  %-20s %lld failure(s), next try %s: %s\n",
			       jstr(l, "name"), jint(l, "failures"), b.buf,
			       jstr(l, "last_error"));
		} else {
			printf("  %-20s polled %s, next %s\n", jstr(l, "name"),
			       a.buf, b.buf);
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

static void print_series_line(const json_t *s, time_t now)
{
	struct strbuf t = STRBUF_INIT, title = STRBUF_INIT, err = STRBUF_INIT;
	const char *state = jstr(s, "state");

	/* The title is the series' subject: escaped (quote.h). */
	quote_str(&title, jstr(s, "title"));
	quote_c_style_n(&err, jstr(s, "error"), strlen(jstr(s, "error")), 0);
	if (!strcmp(state, "replied")) {
		/* What happened, then the reply step's own words (38.5). */
		const char *outcome = jstr(s, "outcome"), *why = jstr(s, "why");

		printf("  %5lld  %-12s v%-2lld %-13s %3lld  %-30.30s  %s%s%s%s: %s\n",
		       jint(s, "id"), jstr(s, "list"), jint(s, "version"),
		       jstr(s, "verdict"), jint(s, "findings"), title.buf, outcome,
		       !strcmp(outcome, "held by policy") ? " (" : "",
		       !strcmp(outcome, "held by policy") ? why : "",
		       !strcmp(outcome, "held by policy") ? ")" : "",
		       jstr(s, "reply"));
	} else {
		rel_time(&t, jint(s, "next_at"), now);
		printf("  %5lld  %-12s v%-2lld %-9s %lld/%lld  next %-8s %-30.30s  %s%s\n",
		       jint(s, "id"), jstr(s, "list"), jint(s, "version"), state,
		       jint(s, "seen"), jint(s, "total"),
		       !strcmp(state, "failed") || !strcmp(state, "skipped") ? "-" : t.buf,
		       title.buf, !err.len ? "" : !strcmp(state, "skipped") ? "why: " :
		       "error: ", err.buf);
	}
	strbuf_release(&title);
	strbuf_release(&err);
	strbuf_release(&t);
}

#define STATUS_SILENT_AFTER 300	/* seconds: a worker that said nothing */

/* Pollers and workers (--role), when there are any: who, where, alive
 * when, doing what. */
static void print_workers(const json_t *st, time_t now)
{
	const json_t *workers = json_object_get(st, "workers");
	struct strbuf t = STRBUF_INIT, what = STRBUF_INIT;
	json_t *w;
	size_t i;

	size_t silent = 0;

	if (!json_array_size(workers))
		return;
	printf("workers:\n");
	json_array_foreach(workers, i, w) {
		time_t beat = jint(w, "heartbeat");
		long long lease = jint(w, "lease");
		const char *warm = jstr(w, "warm");	/* ",6.1,6.12," */

		/* Killed without a word: listed by --format=json only. */
		if (beat < now - STATUS_SILENT_AFTER) {
			silent++;
			continue;
		}
		strbuf_reset(&t);
		strbuf_reset(&what);
		rel_time(&t, beat, now);
		/* Beats come every lease/3 s: a whole lease without one is
		 * a process that is gone, whatever its row still says. */
		if (lease > 0 && beat < now - lease)
			strbuf_addf(&what, "silent past its %llds lease: stopped or killed",
				    lease);
		else if (jint(w, "series_id"))
			strbuf_addf(&what, "series #%lld %s", jint(w, "series_id"),
				    jstr(w, "stage"));
		else
			strbuf_addstr(&what, jstr(w, "stage"));
		if (strlen(warm) > 2) {
			strbuf_addstr(&what, " (built: ");
			for (const char *c = warm + 1; c[1]; c++)
				strbuf_addch(&what, *c == ',' ? ' ' : *c);
			strbuf_addch(&what, ')');
		}
		printf("  %-24s %-6s pid %-7lld heartbeat %-8s %s\n",
		       jstr(w, "host"), jstr(w, "role"), jint(w, "pid"), t.buf,
		       what.buf);
	}
	if (silent)
		printf("  (%zu more without a heartbeat for %d s: stopped or killed)\n",
		       silent, STATUS_SILENT_AFTER);
	strbuf_release(&t);
	strbuf_release(&what);
}

/* What people silenced, one line each, for an owner to lift
 * (`warnwatch lift ID`).  Names from mail, escaped. */
static void print_suppressions(const json_t *st, time_t now)
{
	struct strbuf t = STRBUF_INIT, line = STRBUF_INIT;
	size_t i;
	json_t *s;

	printf("suppressions (lift with 'warnwatch lift ID'):\n");
	json_array_foreach(json_object_get(st, "suppressions"), i, s) {
		strbuf_reset(&t);
		strbuf_reset(&line);
		rel_time(&t, jint(s, "expires"), now);
		strbuf_addf(&line, "#%lld %s ", jint(s, "id"), jstr(s, "state"));
		if (!strcmp(jstr(s, "what"), "finding")) {
			strbuf_addstr(&line, "finding ");
			quote_c_style(&line, jstr(s, "fingerprint"));
		} else {
			strbuf_addstr(&line, "all mail");
		}
		strbuf_addf(&line, " for the %s ", jstr(s, "scope"));
		quote_c_style(&line, jstr(s, "key"));
		strbuf_addstr(&line, ", by ");
		quote_c_style(&line, jstr(s, "by"));
		strbuf_addf(&line, " (%s) in <", jstr(s, "role"));
		quote_c_style(&line, jstr(s, "message_id"));
		strbuf_addstr(&line, ">: ");
		quote_c_style(&line, jstr(s, "why"));
		strbuf_addf(&line, "; expires %s", t.buf);
		printf("  %s\n", line.buf);
	}
	if (!i)
		printf("  (none)\n");
	strbuf_release(&t);
	strbuf_release(&line);
}

static void print_status(const json_t *st, time_t now, bool *trouble)
{
	const json_t *counts = json_object_get(st, "counts");
	const char *key;
	json_t *v, *s;
	size_t i;
	bool any = false;

	print_lists(st, now, trouble);
	printf("queue:");
	json_object_foreach((json_t *)counts, key, v)
		if (json_integer_value(v))
			printf(" %s %lld", key, (long long)json_integer_value(v));
	printf("\n");
	/* What became of them, in a list owner's words (issue 38.5). */
	printf("outcomes:");
	any = false;
	json_object_foreach(json_object_get(st, "outcomes"), key, v)
		if (json_integer_value(v)) {
			printf("%s %s %lld", any ? "," : "", key,
			       (long long)json_integer_value(v));
			any = true;
		}
	printf("\n");
	any = false;
	if (jint(counts, "failed"))
		*trouble = true;
	print_workers(st, now);
	print_suppressions(st, now);

	printf("in progress:\n");
	json_array_foreach(json_object_get(st, "series"), i, s)
		if (strcmp(jstr(s, "state"), "replied") &&
		    strcmp(jstr(s, "state"), "skipped")) {
			print_series_line(s, now);
			any = true;
		}
	if (!any)
		printf("  (none)\n");
	printf("recent verdicts:\n");
	any = false;
	json_array_foreach(json_object_get(st, "series"), i, s)
		if (!strcmp(jstr(s, "state"), "replied") ||
		    !strcmp(jstr(s, "state"), "skipped")) {
			print_series_line(s, now);
			any = true;
		}
	if (!any)
		printf("  (none)\n");
	printf("recent errors and warnings:\n");
	any = false;
	json_array_foreach(json_object_get(st, "events"), i, s) {
		struct strbuf t = STRBUF_INIT, id = STRBUF_INIT;

		if (!strcmp(jstr(s, "level"), "info"))
			continue;
		rel_time(&t, jint(s, "at"), now);
		if (jint(s, "series_id"))
			strbuf_addf(&id, "#%lld", jint(s, "series_id"));
		printf("  %-9s %-5s %-12s %-6s %s\n", t.buf, jstr(s, "level"),
		       jstr(s, "list"), id.buf, jstr(s, "message"));
		strbuf_release(&t);
		strbuf_release(&id);
		any = true;
	}
	if (!any)
		printf("  (none)\n");
}

static bool is_time_key(const char *key)
{
	return ends_with(key, "_at") || ends_with(key, "_seen") ||
	       !strcmp(key, "updated");
}

static void print_time(const char *key, time_t t)
{
	struct strbuf rel = STRBUF_INIT;
	char when[64] = "-";
	struct tm tm;

	if (t) {
		localtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		rel_time(&rel, t, time(NULL));
	}
	printf("%-12s %s%s%s%s\n", key, when, rel.len ? " (" : "", rel.buf,
	       rel.len ? ")" : "");
	strbuf_release(&rel);
}

static int show_one(const json_t *st, long long id, bool json)
{
	size_t i;
	json_t *s, *e;

	json_array_foreach(json_object_get(st, "series"), i, s) {
		const char *key;
		json_t *v;

		if (jint(s, "id") != id)
			continue;
		if (json) {
			json_dumpf(s, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
			putchar('\n');
			return 0;
		}
		json_object_foreach(s, key, v) {
			if (json_is_object(v))
				continue;
			if (json_is_integer(v) && is_time_key(key))
				print_time(key, json_integer_value(v));
			else if (json_is_integer(v))
				printf("%-12s %lld\n", key, (long long)json_integer_value(v));
			else
				printf("%-12s %s\n", key, json_string_value(v) ?: "");
		}
		json_object_foreach(json_object_get(s, "artifacts"), key, v)
			printf("%-12s %s/%s\n", key, jstr(st, "state_dir"),
			       json_string_value(v));
		json_array_foreach(json_object_get(st, "events"), i, e)
			if (jint(e, "series_id") == id)
				printf("event        %s: %s\n", jstr(e, "level"),
				       jstr(e, "message"));
		return 0;
	}
	return error_code(WW_ENOTFOUND, "no series %lld among the %zu most recent",
			  id, json_array_size(json_object_get(st, "series")));
}

int cmd_status(int argc, const char **argv)
{
	struct status_args a = { .format = "text", .limit = 50, .ids = STRVEC_INIT };
	struct store st = STORE_INIT;
	struct queue q = { 0 };
	struct settings set = SETTINGS_INIT;
	json_t *status = NULL;
	bool opened = false, trouble = false;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (ret == EXIT_USAGE) {
		strvec_clear(&a.ids);
		return ret;
	}
	if (ret)
		goto out;
	if (!a.state_dir)
		ret = settings_load(&set, a.config, SETTINGS_OPTIONAL);
	if (!ret)
		ret = serve_state_open(&st, &q, &set, a.state_dir);
	opened = !ret;
	if (!ret)
		ret = queue_status_json(&status, &q, a.ids.nr ? 100000 : a.limit,
					time(NULL));
	if (!ret && a.ids.nr)
		ret = show_one(status, strtoll(a.ids.v[0], NULL, 10),
			       !strcmp(a.format, "json"));
	else if (!ret && !strcmp(a.format, "json")) {
		json_dumpf(status, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		trouble = json_integer_value(json_object_get(
				json_object_get(status, "counts"), "failed")) > 0;
	} else if (!ret) {
		print_status(status, time(NULL), &trouble);
	}
out:
	if (ret < 0)
		ret = report_error("status");
	else if (ret == 0 && trouble)
		ret = EXIT_FOUND;
	else if (ret == 1)
		ret = EXIT_OK;	/* --help */
	json_decref(status);
	if (opened) {
		queue_release(&q);
		store_close(&st);
	}
	settings_release(&set);
	strvec_clear(&a.ids);
	return ret;
}
