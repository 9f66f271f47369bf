/*
 * warnwatch dashboard: write the static site (see dashboard.h).
 */
#include "builtin.h"
#include "dashboard.h"

static const char usage_text[] =
	"usage: warnwatch dashboard --out DIR [--state DIR | --lists FILE.json]\n"
	"                           [--census FILE.json]... [options]\n"
	"\n"
	"  --out=DIR          where to write index.html, style.css, dashboard.json, series/\n"
	"  --state=DIR        the lists' series from warnwatch serve's state directory\n"
	"  --lists=FILE       ... or from a JSON document of the same shape (docs/census.md)\n"
	"  --census=FILE      a 'warnwatch census --format=json' output (a tree or a\n"
	"                     --git range); repeat for several releases\n"
	"  --title=TEXT       the page title (default: warnwatch)\n"
	"  --recent=N         series per list in the table (default: 25)\n"
	"  --templates=DIR    the dashboard templates (default: the installed ones)\n"
	"\n"
	"exit status: 0 written, 2 usage or input error\n";

/* "--name=value" or "--name value": the value, advancing *i. */
static const char *opt_value(int argc, const char **argv, int *i,
			     const char *name)
{
	const char *v;
	size_t n = strlen(name);

	if (!argv[*i])
		return NULL;
	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], name) && *i + 1 < argc) {
		v = argv[++*i];
		return v;
	}
	return NULL;
}

int cmd_dashboard(int argc, const char **argv)
{
	struct dashboard_opts opts = DASHBOARD_OPTS_INIT;
	const char **census = xcalloc(argc + 1, sizeof(*census));
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		const char *v;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			free(census);
			return EXIT_OK;
		} else if ((v = opt_value(argc, argv, &i, "--out"))) {
			opts.out_dir = v;
		} else if ((v = opt_value(argc, argv, &i, "--state"))) {
			opts.state_dir = v;
		} else if ((v = opt_value(argc, argv, &i, "--lists"))) {
			opts.lists_file = v;
		} else if ((v = opt_value(argc, argv, &i, "--census"))) {
			census[opts.nr_census++] = v;
		} else if ((v = opt_value(argc, argv, &i, "--title"))) {
			opts.title = v;
		} else if ((v = opt_value(argc, argv, &i, "--templates"))) {
			opts.templates = v;
		} else if ((v = opt_value(argc, argv, &i, "--recent"))) {
			char *end;
			long n = strtol(v, &end, 10);

			if (*end || n < 1 || n > 10000) {
				ret = error_code(WW_EUSAGE, "--recent: '%s' is not a number from 1 to 10000", v);
				break;
			}
			opts.recent = n;
		} else {
			ret = error_code(WW_EUSAGE, "unknown argument '%s'", argv[i]);
			break;
		}
	}
	if (!ret && !opts.out_dir)
		ret = error_code(WW_EUSAGE, "--out DIR is required");
	if (!ret && opts.state_dir && opts.lists_file)
		ret = error_code(WW_EUSAGE, "--state and --lists exclude each other");
	if (ret < 0) {
		free(census);
		report_error(NULL);
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	opts.census = census;
	ret = dashboard_write(&opts);
	free(census);
	if (ret < 0)
		return report_error("dashboard");
	return EXIT_OK;
}
