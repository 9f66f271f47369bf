/*
 * warnwatch dashboard: write the static site (see dashboard.h).  With
 * --config, the state is the service's own, wherever its [state] says it
 * is: a directory, or the PostgreSQL database several machines share.
 */
#include "builtin.h"
#include "opt.h"
#include "dashboard.h"
#include "queue.h"
#include "serve.h"

static const char usage_text[] =
	"usage: warnwatch dashboard --out DIR [--state DIR | --config FILE | --lists FILE.json]\n"
	"                           [--census FILE.json]... [options]\n"
	"\n"
	"  --out=DIR          where to write index.html, style.css, dashboard.json, series/\n"
	"  --state=DIR        the lists' series from warnwatch serve's state directory\n"
	"  --config=FILE      ... or from the state the service's configuration names\n"
	"                     ([state] dir, or url = postgresql://... shared by workers)\n"
	"  --lists=FILE       ... or from a JSON document of the same shape (docs/census.md)\n"
	"  --census=FILE      a 'warnwatch census --format=json' output (a tree or a\n"
	"                     --git range); repeat for several releases\n"
	"  --title=TEXT       the page title (default: warnwatch)\n"
	"  --recent=N         series per list in the table (default: 25)\n"
	"  --templates=DIR    the dashboard templates (default: the installed ones)\n"
	"\n"
	"exit status: 0 written, 2 usage or input error\n";

/*
 * The service's [list.NAME] sections, as `warnwatch serve` hands them to
 * its own dashboard, so that the page shows the watched lists before any
 * series came, not "No list is watched yet".  `urls` holds the strings.
 */
static struct dashboard_watched *watched_lists(size_t *out_nr, struct strvec *urls,
					       const struct config *c)
{
	struct dashboard_watched *w = xcalloc(c->nr_sections + 1, sizeof(*w));
	size_t nr = 0;

	for (size_t i = 0; i < c->nr_sections; i++) {
		const char *sec = c->sections[i].name;
		const char *archive = config_get(c, sec, "archive");
		const char *inbox = config_get(c, sec, "inbox");
		bool seen = false;

		if (!starts_with(sec, "list.") || !sec[strlen("list.")])
			continue;
		for (size_t j = 0; j < nr; j++)
			seen |= !strcmp(w[j].name, sec + strlen("list."));
		if (seen)
			continue;
		w[nr].name = sec + strlen("list.");
		if (archive && inbox) {
			strvec_pushf(urls, "%s/%s/", archive, inbox);
			w[nr].url = urls->v[urls->nr - 1];
		}
		nr++;
	}
	*out_nr = nr;
	return w;
}

int cmd_dashboard(int argc, const char **argv)
{
	struct dashboard_opts opts = DASHBOARD_OPTS_INIT;
	struct strvec census = STRVEC_INIT, args = STRVEC_INIT, urls = STRVEC_INIT;
	struct dashboard_watched *watched = NULL;
	struct store st = STORE_INIT;
	struct queue q = { 0 };
	struct settings set = SETTINGS_INIT;
	const char *config = NULL;
	unsigned long recent = 0;
	int ret;
	struct opt o[] = {
		OPT_STRING(0, "out", &opts.out_dir, "DIR"),
		OPT_STRING(0, "state", &opts.state_dir, "DIR"),
		OPT_STRING(0, "config", &config, "FILE"),
		OPT_STRING(0, "lists", &opts.lists_file, "FILE"),
		OPT_LIST(0, "census", &census, "FILE"),
		OPT_STRING(0, "title", &opts.title, "TEXT"),
		OPT_STRING(0, "templates", &opts.templates, "DIR"),
		OPT_ULONG(0, "recent", &recent, "N"),
		OPT_END(),
	};

	ret = opt_parse(&args, argc, argv, o, 0);
	if (ret == OPT_HELP) {
		fputs(usage_text, stdout);
		ret = EXIT_OK;
		goto out;
	}
	if (!ret && args.nr)
		ret = error_code(WW_EUSAGE, "unknown argument '%s'", args.v[0]);
	if (!ret && recent > 10000)
		ret = error_code(WW_EUSAGE, "--recent: '%lu' is not a number from 1 to 10000",
				 recent);
	if (recent)
		opts.recent = recent;
	if (!ret && !opts.out_dir)
		ret = error_code(WW_EUSAGE, "--out DIR is required");
	if (!ret && !!opts.state_dir + !!opts.lists_file + !!config > 1)
		ret = error_code(WW_EUSAGE, "--state, --config and --lists exclude each other");
	if (ret < 0) {
		report_error(NULL);
		fputs(usage_text, stderr);
		ret = EXIT_USAGE;
		goto out;
	}
	opts.census = census.v;
	opts.nr_census = census.nr;
	ret = 0;
	if (config) {
		ret = settings_load(&set, config, 0);
		if (!ret)
			ret = serve_state_open(&st, &q, &set, NULL);
		opts.store = &st;
		opts.state_dir = q.state_dir;
		watched = watched_lists(&opts.nr_watched, &urls, &set.config);
		opts.watched = watched;
	}
	if (!ret)
		ret = dashboard_write(&opts);
	ret = ret < 0 ? report_error("dashboard") : EXIT_OK;
	queue_release(&q);
	store_close(&st);
	settings_release(&set);
	free(watched);
	strvec_clear(&urls);
out:
	strvec_clear(&census);
	strvec_clear(&args);
	return ret;
}
