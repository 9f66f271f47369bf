/*
 * warnwatch kbuild: apply a series (or nothing) to the base tree and build
 * it, printing the bzImage path.  The build half of `warnwatch ci`, on its
 * own so that it can be run and tested alone.
 *
 * Exit status: 0 built, 1 the series does not apply or does not build
 * (a verdict), 2 usage or machinery error.
 */
#include "builtin.h"
#include "kapply.h"
#include "kbuild.h"
#include "mbox.h"
#include "opt.h"
#include "series.h"

#include <jansson.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: warnwatch kbuild [options] [MBOX|PATCH]\n"
	"\n"
	"Apply the series in MBOX (or a bare diff) to the distro kernel and build\n"
	"it in a sandbox; print the bzImage path.  Without input, build the base.\n"
	"\n"
	"  --cache DIR           cache directory (default $WARNWATCH_CACHE,\n"
	"                        else ${XDG_CACHE_HOME:-~/.cache}/warnwatch)\n"
	"  --base-tarball PATH   kernel source tarball\n"
	"                        (default /usr/src/linux-source-6.1.tar.xz)\n"
	"  --series MBOX         the same as giving MBOX as the argument\n"
	"  --jobs N              make -jN (default: online CPUs)\n"
	"  --timeout SECONDS     wall-clock limit of the build (default 3600)\n"
	"  --mem MB              address-space limit per build process (default 4096)\n"
	"  --format text|json    output format (default text)\n"
	"  -n, --dry-run         apply and choose the config, do not build; print\n"
	"                        the build directory it would use\n"
	"  -q, --quiet           no progress or summary on stderr\n"
	"\n"
	"exit status: 0 built, 1 does not apply or does not build, 2 error\n";

struct kbuild_cmd {
	const char *cache;
	const char *tarball;
	const char *input;
	unsigned long jobs, timeout_s, mem_mb;
	int format;		/* index in format_names */
	bool quiet, dry_run;
	struct strvec args;	/* the arguments that are not options */
};

static const char *const format_names[] = { "text", "json", NULL };
#define FORMAT_JSON 1

/* Numbers above this are typing mistakes, and would not fit an unsigned. */
#define KBUILD_MAX_NUMBER 1000000ul

/* 0: go on; 1: done (--help); < 0: bad command line (error_last() says why). */
static int parse_args(struct kbuild_cmd *o, int argc, const char **argv)
{
	const char *series = NULL;
	struct opt opts[] = {
		OPT_STRING(0, "cache", &o->cache, "DIR"),
		OPT_STRING(0, "base-tarball", &o->tarball, "PATH"),
		OPT_STRING(0, "series", &series, "MBOX"),
		OPT_ULONG(0, "jobs", &o->jobs, "N"),
		OPT_ULONG(0, "timeout", &o->timeout_s, "SECONDS"),
		OPT_ULONG(0, "mem", &o->mem_mb, "MB"),
		OPT_CHOICE(0, "format", &o->format, format_names),
		OPT_FLAG('n', "dry-run", &o->dry_run),
		OPT_FLAG('q', "quiet", &o->quiet),
		OPT_END(),
	};
	const struct { const char *name; const unsigned long *v; } nums[] = {
		{ "--jobs", &o->jobs }, { "--timeout", &o->timeout_s }, { "--mem", &o->mem_mb },
	};
	int ret = opt_parse(&o->args, argc, argv, opts, 0);

	if (ret == OPT_HELP) {
		fputs(usage_text, stdout);
		return 1;
	}
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		if (*nums[i].v > KBUILD_MAX_NUMBER)
			return error_code(WW_EUSAGE, "%s: %lu is more than %lu",
					  nums[i].name, *nums[i].v, KBUILD_MAX_NUMBER);
	if (o->args.nr + (series != NULL) > 1)
		return error_code(WW_EUSAGE, "only one MBOX or PATCH");
	o->input = series ? series : o->args.nr ? o->args.v[0] : NULL;
	return 0;
}

static json_t *strvec_json(const struct strvec *sv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < sv->nr; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

static void print_json(const char *verdict, const struct ktree *t,
		       const struct kapply_result *ar,
		       const struct kbuild_result *br, double apply_s,
		       const char *err)
{
	json_t *o = json_object();
	char *s;

	json_object_set_new(o, "verdict", json_string(verdict));
	json_object_set_new(o, "base", json_string(t->version));
	json_object_set_new(o, "patches_applied", json_integer(ar->nr));
	if (ar->fail.patch)
		json_object_set_new(o, "failed_patch", json_integer(ar->fail.patch));
	if (ar->note.len)
		json_object_set_new(o, "note", json_string(ar->note.buf));
	json_object_set_new(o, "touched", strvec_json(&ar->touched));
	json_object_set_new(o, "bzimage", br->bzimage ?
			    json_string(br->bzimage) : json_null());
	json_object_set_new(o, "build_dir", br->build_dir ?
			    json_string(br->build_dir) : json_null());
	json_object_set_new(o, "config_hash", br->config_hash ?
			    json_string(br->config_hash) : json_null());
	json_object_set_new(o, "base_config", json_boolean(br->base_config));
	json_object_set_new(o, "suites", strvec_json(&br->suites));
	json_object_set_new(o, "tests", strvec_json(&br->tests));
	json_object_set_new(o, "symbols", strvec_json(&br->symbols));
	json_object_set_new(o, "dropped", strvec_json(&br->dropped));
	json_object_set_new(o, "log", br->log_path ?
			    json_string(br->log_path) : json_null());
	json_object_set_new(o, "error", err ? json_string(err) : json_null());
	json_object_set_new(o, "extract_seconds", json_real(t->extract_seconds));
	json_object_set_new(o, "import_seconds", json_real(t->import_seconds));
	json_object_set_new(o, "apply_seconds", json_real(apply_s));
	json_object_set_new(o, "config_seconds", json_real(br->config_seconds));
	json_object_set_new(o, "build_seconds", json_real(br->build_seconds));
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (s)
		printf("%s\n", s);
	free(s);
	json_decref(o);
}

/* A series that did not apply or build is a verdict, not an error of
 * warnwatch's: JSON says which, the text one line; status 1 either way. */
static int print_failure(bool json, const char *verdict, const struct ktree *t,
			 const struct kapply_result *ar,
			 const struct kbuild_result *br, double apply_s)
{
	if (json)
		print_json(verdict, t, ar, br, apply_s, error_last());
	else
		fprintf(stderr, "warnwatch: %s\n", error_last());
	return EXIT_FOUND;
}

static void print_list(const char *what, const struct strvec *sv)
{
	if (!sv->nr)
		return;
	fprintf(stderr, "warnwatch: %s:", what);
	for (size_t i = 0; i < sv->nr; i++)
		fprintf(stderr, " %s", sv->v[i]);
	fprintf(stderr, "\n");
}

static void print_summary(const struct ktree *t, const struct kapply_result *ar,
			  const struct kbuild_result *br, double apply_s)
{
	if (ar->note.len)
		fprintf(stderr, "warnwatch: note: %s\n", ar->note.buf);
	if (t->import_seconds)
		fprintf(stderr, "warnwatch: extracted %s in %.1f s, imported it in %.1f s\n",
			t->tarball, t->extract_seconds, t->import_seconds);
	fprintf(stderr, "warnwatch: linux %s, %zu patch%s applied in %.1f s, configured in %.1f s, built in %.1f s\n",
		t->version, ar->nr, ar->nr == 1 ? "" : "es", apply_s,
		br->config_seconds, br->build_seconds);
	print_list("KUnit suites near the series", &br->suites);
	print_list("enabled beyond the base config", &br->symbols);
	print_list("requested but not in .config", &br->dropped);
}

int cmd_kbuild(int argc, const char **argv)
{
	struct kbuild_cmd o = { .args = STRVEC_INIT };
	struct ktree_opts to = KTREE_OPTS_INIT;
	struct kbuild_opts bo = KBUILD_OPTS_INIT;
	struct ktree t = KTREE_INIT;
	struct kapply_result ar = KAPPLY_RESULT_INIT;
	struct kbuild_result br = KBUILD_RESULT_INIT;
	struct series s = SERIES_INIT;
	double t0;
	double apply_s = 0;
	int ret, status = EXIT_USAGE;
	bool json = false;

	ret = parse_args(&o, argc, argv);
	if (ret) {
		if (ret > 0) {
			status = EXIT_OK;
		} else {
			report_error(NULL);
			fprintf(stderr, "see 'warnwatch kbuild --help'\n");
		}
		goto out;
	}
	json = o.format == FORMAT_JSON;
	if (o.input && series_load(&s, o.input, 0, NULL, NULL) < 0)
		goto out_error;
	to.cache_dir = o.cache;
	to.tarball = o.tarball;
	to.progress = !o.quiet && !json;
	if (ktree_open(&t, &to) < 0)
		goto out_error;
	t0 = monotonic_now();
	ret = kapply_series(&ar, &t, &s);
	apply_s = monotonic_now() - t0;
	if (ret == WW_EAPPLY) {
		status = print_failure(json, "apply-failed", &t, &ar, &br, apply_s);
		goto out;
	}
	if (ret < 0)
		goto out_error;
	bo.touched = &ar.touched;
	bo.jobs = (unsigned int)o.jobs;
	bo.timeout_s = (unsigned int)o.timeout_s;
	bo.mem_mb = (unsigned int)o.mem_mb;
	bo.progress = !o.quiet && !json;
	bo.plan_only = o.dry_run;
	ret = kbuild_run(&br, &t, &bo);
	if (ret == WW_EBUILD) {
		status = print_failure(json, "build-failed", &t, &ar, &br, apply_s);
		goto out;
	}
	if (ret < 0)
		goto out_error;
	if (json) {
		print_json(o.dry_run ? "planned" : "built", &t, &ar, &br,
			   apply_s, NULL);
	} else {
		if (!o.quiet)
			print_summary(&t, &ar, &br, apply_s);
		printf("%s\n", o.dry_run ? br.build_dir : br.bzimage);
	}
	status = EXIT_OK;
	goto out;
out_error:
	status = report_error(NULL);
out:
	kbuild_result_release(&br);
	kapply_result_release(&ar);
	ktree_release(&t);
	series_release(&s);
	strvec_clear(&o.args);
	return status;
}
