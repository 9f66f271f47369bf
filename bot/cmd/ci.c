/*
 * warnwatch ci MBOX|MSGID: apply a series to the distro kernel, build it,
 * boot it with panic_on_warn=1 and say which added line fired (ci.h).
 * Exit status: 0 clean, 1 any other verdict, 2 usage or input error, 4
 * an input over one of warnwatch's limits (intake.h): refused before
 * anything is built.
 * warnwatch ci --coverage PATH...: the evidence coverage of verdicts
 * already written (kcover.h); exit status 0, or 2.
 */
#include "builtin.h"

#include "b4.h"
#include "ci-json.h"
#include "intake.h"
#include "ci-words.h"
#include "kcover.h"
#include "mbox.h"
#include "msgid.h"
#include "opt.h"
#include "rules.h"
#include "say.h"
#include "datadir.h"
#include "settings.h"

#include <limits.h>
#include <unistd.h>

#define EXIT_TOOBIG 4

static const char usage_text[] =
	"usage: warnwatch ci MBOX|MSGID [options]\n"
	"   or: warnwatch ci --coverage DIR|FILE... [--format=text|json]\n"
	"\n"
	"  --tree VERSION|TARBALL  base kernel: \"6.1\", \"6.12\" or a linux-source\n"
	"                          tarball (default: the release the series'\n"
	"                          base-commit: names, else newest first)\n"
	"  --repo PATH             a git kernel repository: the series' base-commit:\n"
	"                          when it has it, else --branch, else the trees\n"
	"  --branch B              the branch of --repo to use without base-commit:\n"
	"  --cache DIR             cache directory (default $WARNWATCH_CACHE or\n"
	"                          ~/.cache/warnwatch); console logs are kept there\n"
	"  --format=text|json      output (json is quiet on stderr)\n"
	"  --json-out FILE         also write the JSON verdict to FILE\n"
	"  --timeout S             deadline of each boot in seconds (default 300,\n"
	"                          plus the bounds of the guest's tests);\n"
	"                          a boot that passes it is the verdict \"hung\"\n"
	"  --accel auto|kvm|tcg    QEMU accelerator (default: probe, cached)\n"
	"  --rules DIR             rules directory for the static findings\n"
	"  --config FILE           warnwatch config ([archive] url for MSGID,\n"
	"                          [ci] repo, keep-bases and keep-logs;\n"
	"                          default ~/.config/warnwatch/warnwatch.conf)\n"
	"  -v N                    with MSGID: version N of the series (default: newest)\n"
	"  --no-second-boot        after a panic, do not boot again with\n"
	"                          panic_on_warn=0 to list every WARNING\n"
	"  --no-base-boot          do not boot the unpatched kernel to recognise\n"
	"                          pre-existing warnings\n"
	"  --base-boot             boot the unpatched kernel even when nothing\n"
	"                          needs it (every test gets its base result)\n"
	"  --no-rerun              do not boot again to tell a flaky warning or\n"
	"                          test failure from a real one\n"
	"  --no-user-space         KUnit only: no initramfs, kselftests, workloads\n"
	"                          or gcov counts\n"
	"  --coverage              read kernel-ci verdicts (FILEs, or every *.json\n"
	"                          in a DIR, as --format=json or --json-out wrote\n"
	"                          them) and sum them: series with a boot verdict,\n"
	"                          untestable ones and why, added calls with\n"
	"                          runtime evidence; for each untestable reason, how\n"
	"                          many --repo (or [ci] repo) has the base-commit:\n"
	"                          of, and what the rest lack; it builds nothing,\n"
	"                          so a DIR of series mboxes needs `warnwatch ci\n"
	"                          --json-out` on each first\n"
	"\n"
	"exit status: 0 clean, 1 panicked/hung/build-failed/apply-failed/\n"
	"fs-corrupted/error,\n"
	"2 usage or input error, 4 input over warnwatch's limits\n"
	"(docs/limits.md); --coverage: 0, or 2\n";

struct ci_args {
	struct strvec args;	/* the arguments that are not options */
	const char *input;	/* the one of them: the series */
	const char *format;
	const char *json_out;	/* --json-out FILE, or NULL */
	const char *rules_dir;
	struct ci_opts opts;
	const char *config_path;
	struct settings set;	/* the configuration (settings_load()) */
	int version;
	bool coverage;		/* --coverage: args are verdicts to sum */
};

/* Print a usage error (the message is error_last()); exit status 2. */
static int usage_error(void)
{
	fprintf(stderr, "warnwatch ci: %s\n"
		"usage: warnwatch ci MBOX|MSGID [options] (see --help)\n",
		error_last());
	return EXIT_USAGE;
}

static int parse_timeout(unsigned int *out, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > 24 * 3600)
		return error_code(WW_EUSAGE, "bad --timeout (seconds) '%s'", s);
	*out = (unsigned int)v;
	return 0;
}

/* The values opt_parse() cannot check itself, in the words t0211 expects. */
static int check_values(struct ci_args *a, const char *timeout,
			const char *version)
{
	if (strcmp(a->format, "text") && strcmp(a->format, "json"))
		return error_code(WW_EUSAGE, "unknown format '%s'", a->format);
	if (timeout && parse_timeout(&a->opts.boot_timeout_s, timeout) < 0)
		return WW_EUSAGE;
	if (a->opts.accel && strcmp(a->opts.accel, "auto") &&
	    strcmp(a->opts.accel, "kvm") && strcmp(a->opts.accel, "tcg"))
		return error_code(WW_EUSAGE, "unknown accelerator '%s'", a->opts.accel);
	if (version) {
		a->version = atoi(version);
		if (a->version <= 0 || a->version > 999)
			return error_code(WW_EUSAGE, "bad version '%s'", version);
	}
	return 0;
}

/* 0: go on; 1: done (--help); EXIT_USAGE: bad command line, reported. */
static int parse_args(struct ci_args *a, int argc, const char **argv)
{
	const char *timeout = NULL, *version = NULL;
	struct opt opts[] = {
		OPT_STRING(0, "tree", &a->opts.tree, "VERSION|TARBALL"),
		OPT_STRING(0, "cache", &a->opts.cache_dir, "DIR"),
		OPT_STRING(0, "repo", &a->opts.repo, "PATH"),
		OPT_STRING(0, "branch", &a->opts.branch, "B"),
		OPT_STRING(0, "format", &a->format, "text|json"),
		OPT_STRING(0, "timeout", &timeout, "S"),
		OPT_STRING(0, "accel", &a->opts.accel, "auto|kvm|tcg"),
		OPT_STRING(0, "rules", &a->rules_dir, "DIR"),
		OPT_STRING(0, "json-out", &a->json_out, "FILE"),
		OPT_STRING(0, "config", &a->config_path, "FILE"),
		OPT_STRING('v', NULL, &version, "N"),
		OPT_BIT(0, "no-second-boot", &a->opts.flags, CI_NO_SECOND_BOOT),
		OPT_BIT(0, "no-base-boot", &a->opts.flags, CI_NO_BASE_BOOT),
		OPT_BIT(0, "base-boot", &a->opts.flags, CI_BASE_BOOT),
		OPT_BIT(0, "no-rerun", &a->opts.flags, CI_NO_RERUN),
		OPT_BIT(0, "no-user-space", &a->opts.flags, CI_NO_USER_SPACE),
		OPT_FLAG(0, "coverage", &a->coverage),
		OPT_END(),
	};
	int ret;

	ret = opt_parse(&a->args, argc, argv, opts, 0);
	if (ret == OPT_HELP) {
		fputs(usage_text, stdout);
		return 1;
	}
	if (!ret)
		ret = check_values(a, timeout, version);
	if (!ret && a->args.nr > 1 && !a->coverage)
		ret = error_code(WW_EUSAGE, "more than one series given: '%s'",
				 a->args.v[1]);
	if (!ret && (a->opts.flags & CI_BASE_BOOT) &&
	    (a->opts.flags & CI_NO_BASE_BOOT))
		ret = error_code(WW_EUSAGE, "--base-boot and --no-base-boot "
				 "contradict each other");
	if (!ret && !a->args.nr)
		ret = a->coverage ?
		      error_code(WW_EUSAGE, "no verdicts given 'DIR|FILE...'") :
		      error_code(WW_EUSAGE, "no series given 'MBOX|MSGID'");
	if (ret < 0)
		return usage_error();
	a->input = a->args.v[0];
	return 0;
}

/*
 * The series a message-id belongs to, fetched with b4 from the archive
 * named in warnwatch's configuration (as `warnwatch review` does).
 */
static int fetch_series(struct mail_list *out, const char *msgid, void *data)
{
	const struct ci_args *a = data;
	struct b4_opts o = a->set.b4;
	struct b4_series bs = B4_SERIES_INIT;
	struct strbuf id = STRBUF_INIT;
	int ret;

	ret = msgid_normalize(&id, msgid);
	if (ret < 0) {
		struct strbuf q = STRBUF_INIT;

		msgid_quote(&q, msgid);
		error_prefix(ret, "'%s'", q.buf);
		strbuf_release(&q);
		goto out;
	}
	o.version = a->version;
	if (!o.user_email || !*o.user_email)
		o.user_email = "warnwatch@localhost";	/* b4 am needs one */
	ret = b4_fetch(&bs, id.buf, &o);
	if (ret < 0)
		goto out;
	/* b4's pieces each as they are: the patches (From_ lines), then the
	 * cover letter, a message of its own (no From_ line). */
	ret = mbox_parse(out, bs.mbx.buf, bs.mbx.len);
	if (!ret && bs.cover.len)
		ret = mbox_parse(out, bs.cover.buf, bs.cover.len);
out:
	b4_series_release(&bs);
	strbuf_release(&id);
	return ret;
}

/* A series read from a file, held to intake.h's caps before any build. */
static int input_caps(const struct series *s, const char *input)
{
	struct strbuf name = STRBUF_INIT;
	int ret;

	if (!s->raw.len)
		return 0;	/* fetched: b4_fetch() held it */
	strbuf_addf(&name, "'%s'", input);
	ret = intake_check_parsed(NULL, s->raw.buf, s->raw.len, &s->mails, name.buf);
	strbuf_release(&name);
	return ret;
}

/*
 * The configuration, as every command reads it (settings.h): [ci] repo
 * unless --repo says otherwise, [ci] keep-bases and keep-logs, [archive]
 * for b4.  No file at the default place: the defaults.
 */
static int load_settings(struct ci_args *a)
{
	int ret = settings_load(&a->set, a->config_path, SETTINGS_OPTIONAL);

	if (ret < 0)
		return ret;
	if (!a->opts.repo)
		a->opts.repo = a->set.ci.repo;
	a->opts.keep_bases = a->set.ci.keep_bases;
	a->opts.keep_logs = a->set.ci.keep_logs;
	return 0;
}

/* JSON on stdout, indented; `o` is stolen. */
static void print_json(json_t *o)
{
	char *text = json_dumps(o, JSON_INDENT(2));

	if (text)
		printf("%s\n", text);
	free(text);
	json_decref(o);
}

static void print_verdict(const struct ci_verdict *v, const struct series *s,
			  bool json, const struct say_book *book)
{
	if (json) {
		print_json(ci_verdict_to_json(v));
	} else {
		struct strbuf sb = STRBUF_INIT;

		ci_verdict_text(&sb, v, s, book);
		fputs(sb.buf, stdout);
		strbuf_release(&sb);
	}
}

/* The same verdict as JSON into a file, next to the text on stdout. */
static int write_json(const struct ci_verdict *v, const char *path)
{
	json_t *o = ci_verdict_to_json(v);
	int ret = 0;

	if (json_dump_file(o, path, JSON_INDENT(2)) < 0)
		ret = error("cannot write '%s': %s", path, strerror(errno));
	json_decref(o);
	return ret;
}

/* --coverage: the verdicts in a->args summed (kcover.h). */
static int coverage(struct ci_args *a)
{
	struct kcover cov = KCOVER_INIT;
	int ret = EXIT_OK;

	/* --repo, else [ci] repo: would the clone have made them testable? */
	if (load_settings(a) < 0) {
		ret = report_error(NULL);
		goto out;
	}
	cov.repo = a->opts.repo;
	for (size_t i = 0; i < a->args.nr; i++)
		if (kcover_load(&cov, a->args.v[i]) < 0) {
			ret = report_error(NULL);
			goto out;
		}
	kcover_sort(&cov);
	if (!strcmp(a->format, "json")) {
		print_json(kcover_to_json(&cov));
	} else {
		struct strbuf sb = STRBUF_INIT;

		kcover_text(&sb, &cov);
		fputs(sb.buf, stdout);
		strbuf_release(&sb);
	}
out:
	kcover_release(&cov);
	return ret;
}

int cmd_ci(int argc, const char **argv)
{
	struct ci_args a = { .args = STRVEC_INIT, .format = "text",
			     .opts = CI_OPTS_INIT, .set = SETTINGS_INIT };
	struct ruleset rules = RULESET_INIT;
	struct series s = SERIES_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct say_book book = SAY_BOOK_INIT;
	char dir[PATH_MAX];
	bool json;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (ret) {
		ret = ret == 1 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	if (a.coverage) {
		ret = coverage(&a);
		goto out;
	}
	json = !strcmp(a.format, "json");
	/* an mbox, a saved message or a diff; a Message-ID is fetched (b4.c
	 * holds what b4 wrote to intake.h's caps, a file is held here) */
	if (load_settings(&a) < 0 ||
	    (ret = series_load(&s, a.input, 0, fetch_series, &a)) < 0 ||
	    (ret = input_caps(&s, a.input)) < 0 ||
	    (a.rules_dir && rules_load(&rules, a.rules_dir) < 0) ||
	    say_book_load_beside(&book, datadir_find(dir, sizeof(dir), "templates",
						     ENV_WARNWATCH_TEMPLATES, NULL)) < 0) {
		bool too_big = ret == WW_ETOOBIG;

		ret = report_error(NULL);
		if (too_big)
			ret = EXIT_TOOBIG;
		goto out;
	}
	if (a.rules_dir)
		a.opts.rules = &rules;
	if (!json && isatty(2))
		a.opts.flags |= CI_PROGRESS;
	if (ci_run(&v, &s, &a.opts) < 0) {
		/* warnwatch could not get to a verdict: say why, as a verdict. */
		v.kind = CI_ERROR;
		free(v.reason);
		v.reason = xstrdup(error_last());
		if (!json)
			fprintf(stderr, "warnwatch: '%s': %s\n", a.input, error_last());
	}
	print_verdict(&v, &s, json, &book);
	ret = v.kind == CI_CLEAN ? EXIT_OK : EXIT_FOUND;
	if (a.json_out && write_json(&v, a.json_out) < 0)
		ret = report_error(NULL);
out:
	ci_verdict_release(&v);
	series_release(&s);
	ruleset_release(&rules);
	say_book_release(&book);
	strvec_clear(&a.args);
	settings_release(&a.set);
	return ret;
}
