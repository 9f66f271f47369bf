/*
 * warnwatch backfill: read list archives (public-inbox) into the state
 * database and print what the patches on them added and removed, per
 * release cycle (see backfill.h).
 */
#include "backfill.h"
#include "builtin.h"
#include "config.h"
#include "opt.h"
#include "serve.h"
#include "strbuf.h"

static const char usage_text[] =
	"usage: warnwatch backfill [options] [REPO...]\n"
	"\n"
	"REPO is a public-inbox archive: a v2 inbox (its git/N.git epochs are\n"
	"read in order), a v1 inbox, or one epoch repository.  Each run reads\n"
	"only the commits newer than the last one it recorded; without REPO it\n"
	"only prints what the state holds.\n"
	"\n"
	"  --list=NAME          the list's name (default: the inbox directory's)\n"
	"  --url=URL            the archive on the web, for the dashboard's links\n"
	"                       (default: https://lore.kernel.org/NAME/)\n"
	"  --format=text|json   the per-cycle table (default: text)\n"
	"  --state=DIR          the state directory (default: %s)\n"
	"  --config=FILE        ... or the state the service's configuration names\n"
	"                       ([state] dir, or url = postgresql://... shared by workers)\n"
	"  --releases=FILE      release dates (default: kernel-ci/releases.json)\n"
	"  --rules=DIR          rules directory (default: the installed rules)\n"
	"  -q, --quiet          no per-epoch lines on stderr\n"
	"\n"
	"exit status: 0 read and printed, 2 usage or input error\n";

static const char *const format_names[] = { "text", "json", NULL };

struct backfill_args {
	const char *list, *url, *format, *state, *config, *releases, *rules;
	struct strvec repos;
	bool quiet;
};

/* 0, OPT_HELP, or WW_EUSAGE with the message set. */
static int parse_args(struct backfill_args *a, int argc, const char **argv)
{
	int format = 0, ret;
	struct opt opts[] = {
		OPT_STRING(0, "list", &a->list, "NAME"),
		OPT_STRING(0, "url", &a->url, "URL"),
		OPT_CHOICE(0, "format", &format, format_names),
		OPT_STRING(0, "state", &a->state, "DIR"),
		OPT_STRING(0, "config", &a->config, "FILE"),
		OPT_STRING(0, "releases", &a->releases, "FILE"),
		OPT_STRING(0, "rules", &a->rules, "DIR"),
		OPT_FLAG('q', "quiet", &a->quiet),
		OPT_END(),
	};

	ret = opt_parse(&a->repos, argc, argv, opts, 0);
	if (ret)
		return ret;
	a->format = format_names[format];
	if (a->list && !*a->list)
		return error_code(WW_EUSAGE, "--list: empty name");
	if (a->url && !starts_with(a->url, "http://") && !starts_with(a->url, "https://"))
		return error_code(WW_EUSAGE, "--url: '%s' is not an http(s) URL", a->url);
	if (a->state && a->config)
		return error_code(WW_EUSAGE, "--state and --config exclude each other");
	return 0;
}

static void progress(void *data, const char *list, const struct backfill_epoch_stats *st)
{
	fprintf(stderr, "backfill: %s: %s: %zu commits read, %zu mails, %zu patch mails, "
		"%zu skipped, %.2f s\n", list, st->repo, st->commits, st->mails,
		st->patches, st->skipped, st->seconds);
}

static void skipped(void *data, const char *list, const char *repo, const char *reason)
{
	(void)data;
	fprintf(stderr, "backfill: %s: %s: skipped: %s\n", list, repo, reason);
}

static void print_counts(struct strbuf *sb, json_t *o)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v)
		if (json_integer_value(v))
			strbuf_addf(sb, "%s%s %lld", sb->len ? ", " : "", k,
				    (long long)json_integer_value(v));
	if (!sb->len)
		strbuf_addch(sb, '-');
}

static void print_text(json_t *report)
{
	size_t i, j;
	json_t *l, *c;

	json_array_foreach(json_object_get(report, "lists"), i, l) {
		printf("%s: %lld mails, %lld patch mails\n",
		       json_string_value(json_object_get(l, "name")),
		       (long long)json_integer_value(json_object_get(l, "mails")),
		       (long long)json_integer_value(json_object_get(l, "patch_mails")));
		json_array_foreach(json_object_get(l, "cycles"), j, c) {
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, r = STRBUF_INIT;

			print_counts(&a, json_object_get(c, "patches_adding"));
			print_counts(&b, json_object_get(c, "calls_added"));
			print_counts(&r, json_object_get(c, "calls_removed"));
			printf("  %-11s patches adding: %s; calls added: %s; removed: %s; "
			       "conversions: %lld\n",
			       json_string_value(json_object_get(c, "release")), a.buf, b.buf,
			       r.buf, (long long)json_integer_value(json_object_get(c, "conversions")));
			strbuf_release(&a);
			strbuf_release(&b);
			strbuf_release(&r);
		}
	}
}

static int run(struct backfill_args *a)
{
	struct ruleset rs = RULESET_INIT;
	struct cycles cy = CYCLES_INIT;
	struct store st = STORE_INIT;
	struct settings set = SETTINGS_INIT;
	struct backfill_opts opts = BACKFILL_OPTS_INIT;
	char path[4096];
	json_t *report = NULL;
	int ret;

	ret = cycles_load(&cy, a->releases ? a->releases : cycles_default_path(path, sizeof(path)));
	if (!ret)
		ret = rules_load(&rs, a->rules ? a->rules : rules_default_dir());
	/* --state, else the state --config names, else the default one. */
	if (!ret && a->state)
		ret = store_open(&st, a->state);
	else if (!ret && a->config)
		ret = settings_load(&set, a->config, 0);
	else if (!ret)
		ret = settings_apply(&set, 0);	/* no file: the defaults */
	if (!ret && !a->state)
		ret = settings_state_open(&st, &set);
	opts.list = a->list;
	opts.url = a->url;
	opts.rules = &rs;
	opts.progress = a->quiet ? NULL : progress;
	opts.skipped = skipped;
	for (size_t i = 0; !ret && i < a->repos.nr; i++) {
		struct backfill_epoch_stats total = { 0 };

		ret = backfill_inbox(&total, &st, a->repos.v[i], &opts);
		backfill_epoch_stats_release(&total);
	}
	if (!ret)
		ret = backfill_report(&report, &st, &cy, a->list, 0);
	if (!ret && !strcmp(a->format ? a->format : "text", "json")) {
		json_dumpf(report, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
	} else if (!ret) {
		print_text(report);
	}
	json_decref(report);
	store_close(&st);
	ruleset_release(&rs);
	cycles_release(&cy);
	settings_release(&set);
	return ret;
}

int cmd_backfill(int argc, const char **argv)
{
	struct backfill_args a = { .repos = STRVEC_INIT };
	char *dir;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (ret) {
		dir = store_default_dir();
		if (ret == OPT_HELP) {
			printf(usage_text, dir);
			ret = EXIT_OK;
		} else {
			report_error(NULL);
			fprintf(stderr, usage_text, dir);
			ret = EXIT_USAGE;
		}
		free(dir);
		strvec_clear(&a.repos);
		return ret;
	}
	ret = run(&a);
	strvec_clear(&a.repos);
	return ret < 0 ? report_error("backfill") : EXIT_OK;
}
