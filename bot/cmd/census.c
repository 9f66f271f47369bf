/*
 * warnwatch census: count the BUG/WARN-family calls of a kernel tree or
 * tarball, or the ones a git range added and removed (see census.h).
 */
#include <unistd.h>

#include "builtin.h"
#include "opt.h"
#include "census.h"
#include "strbuf.h"

static const char usage_text[] =
	"usage: warnwatch census [options] TREE\n"
	"       warnwatch census [options] --git REPO A..B\n"
	"\n"
	"TREE is a kernel source directory or a tarball (read without extracting).\n"
	"\n"
	"  --format=table|json  output format (default: table)\n"
	"  --output=FILE        write there instead of stdout\n"
	"  --top=N              rows per table (default: 25)\n"
	"  --rules=DIR          rules directory (default: the installed rules)\n"
	"  --no-wrappers        one pass, no #define wrapper resolution\n"
	"  --no-regex           ignore MAINTAINERS N: patterns\n"
	"  -q, --quiet          no progress on stderr\n"
	"\n"
	"exit status: 0 counted, 2 usage or input error\n";

struct census_args {
	const char *format;
	const char *output;
	const char *rules;
	const char *git;
	const char *target;
	size_t top;
	unsigned int flags;
	bool quiet;
};

static void progress(void *data, const char *what, size_t files)
{
	fprintf(stderr, "\r%s: %zu files", what, files);
	fflush(stderr);
}

static const char *const format_names[] = { "table", "json", NULL };

/*
 * 0, OPT_HELP, or WW_EUSAGE with the message set.  a->target points into
 * `args`, which the caller clears.
 */
static int parse_args(struct census_args *a, struct strvec *args, int argc,
		      const char **argv)
{
	unsigned long top = a->top;
	int format = 0, ret;
	struct opt opts[] = {
		OPT_CHOICE(0, "format", &format, format_names),
		OPT_STRING(0, "output", &a->output, "FILE"),
		OPT_STRING(0, "rules", &a->rules, "DIR"),
		OPT_ULONG(0, "top", &top, "N"),
		OPT_STRING(0, "git", &a->git, "REPO"),
		OPT_BIT(0, "no-wrappers", &a->flags, CENSUS_NO_WRAPPERS),
		OPT_BIT(0, "no-regex", &a->flags, CENSUS_NO_REGEX),
		OPT_FLAG('q', "quiet", &a->quiet),
		OPT_END(),
	};

	ret = opt_parse(args, argc, argv, opts, 0);
	if (ret)
		return ret;
	a->format = format_names[format];
	a->top = top;
	if (args->nr > 1)
		return error_code(WW_EUSAGE, "unexpected argument '%s'", args->v[1]);
	if (!args->nr)
		return error_code(WW_EUSAGE, a->git ? "--git needs a range A..B" :
				  "no tree given");
	a->target = args->v[0];
	return 0;
}

static int write_output(const struct census_args *a, const struct census *c)
{
	FILE *f = stdout;
	int ret = 0;

	if (a->output && !(f = fopen(a->output, "w")))
		return error("cannot write '%s': %s", a->output, strerror(errno));
	if (!strcmp(a->format, "json")) {
		json_t *j = census_to_json(c);

		if (json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0)
			ret = error("cannot write the JSON");
		fputc('\n', f);
		json_decref(j);
	} else {
		census_print(f, c, a->top);
	}
	if (fflush(f) || ferror(f))
		ret = error("cannot write '%s'", a->output ? a->output : "stdout");
	if (a->output && fclose(f))
		ret = error("cannot write '%s': %s", a->output, strerror(errno));
	return ret;
}

int cmd_census(int argc, const char **argv)
{
	struct census_args a = { "table", NULL, NULL, NULL, NULL, 25, 0, false };
	struct census_opts opts = CENSUS_OPTS_INIT;
	struct ruleset rs = RULESET_INIT;
	struct census c = CENSUS_INIT;
	struct strvec args = STRVEC_INIT;
	int ret;

	ret = parse_args(&a, &args, argc, argv);
	if (ret) {
		strvec_clear(&args);
		if (ret == OPT_HELP) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		}
		report_error(NULL);
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	opts.flags = a.flags;
	if (!a.quiet && isatty(2))
		opts.progress = progress;

	ret = rules_load(&rs, a.rules ? a.rules : rules_default_dir());
	if (ret < 0)
		goto out;
	if (a.git)
		ret = census_git(&c, a.git, a.target, &rs, &opts);
	else
		ret = census_tree(&c, a.target, &rs, &opts);
	if (opts.progress)
		fputs("\r\033[K", stderr);
	if (ret < 0)
		goto out;
	ret = write_output(&a, &c);
out:
	census_release(&c);
	ruleset_release(&rs);
	strvec_clear(&args);
	if (ret < 0)
		return report_error("census");
	return EXIT_OK;
}
