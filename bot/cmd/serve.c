/*
 * warnwatch serve: run the review service (see serve.h, docs/serve.md).
 */
#include "b4.h"
#include "builtin.h"
#include "chronicle.h"
#include "config.h"
#include "dashboard.h"
#include "opt.h"
#include "serve.h"

#include <signal.h>

static const char usage_text[] =
	"usage: warnwatch serve [--config FILE] [--role=all|poller|worker]\n"
	"                       [--once] [--verbose]\n"
	"\n"
	"Watch the lists of the configuration's [list.NAME] sections, check\n"
	"every new series, reply as configured, and serve the dashboard.\n"
	"\n"
	"  --config FILE  configuration (default $WARNWATCH_CONFIG or\n"
	"                 ~/.config/warnwatch/warnwatch.conf)\n"
	"  --role=ROLE    all: poll and work in this process (default);\n"
	"                 poller: feed the queue (one active at a time, the\n"
	"                 others stand by); worker: claim due series and run\n"
	"                 their stages.  Several machines share [state] url.\n"
	"  --once         poll once, process what is due, then exit\n"
	"  -v, --verbose  one line per stage on stderr\n"
	"\n"
	"SIGTERM or SIGINT: finish the current stage and exit; a second one\n"
	"exits at once (the queue is crash-safe).\n"
	"Exit status: 0 stopped cleanly, 2 usage or configuration error,\n"
	"3 the service failed (state database, address in use).\n";

static void on_stop(int sig)
{
	if (serve_stopping()) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	serve_request_stop();
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * The service's dashboard (serve_drawer), drawn after every stage with
 * `data`, a struct dashboard_cache: only the findings.json and ci.json
 * that changed since the last drawing are parsed.
 */
static int draw_dashboard(void *data, const struct serve_config *cfg,
			  struct store *st, time_t now)
{
	struct dashboard_opts dopts = DASHBOARD_OPTS_INIT;
	struct dashboard_watched *watched;
	struct strvec urls = STRVEC_INIT;
	int ret;

	/* The lists watched show from the start, before any series came. */
	watched = xcalloc(cfg->nr_lists + 1, sizeof(*watched));
	for (size_t i = 0; i < cfg->nr_lists; i++)
		strvec_pushf(&urls, "%s/%s/", cfg->lists[i].archive,
			     cfg->lists[i].inbox);
	for (size_t i = 0; i < cfg->nr_lists; i++) {
		watched[i].name = cfg->lists[i].name;
		watched[i].url = urls.v[i];
	}
	dopts.watched = watched;
	dopts.nr_watched = cfg->nr_lists;

	dopts.out_dir = cfg->dashboard_dir;
	dopts.state_dir = cfg->settings->state.dir;
	dopts.store = st;	/* PostgreSQL or not: the same tables as the queue */
	dopts.census = (const char **)cfg->census.v;
	dopts.nr_census = cfg->census.nr;
	dopts.now = now;
	dopts.cache = data;
	ret = dashboard_write(&dopts);
	free(watched);
	strvec_clear(&urls);
	return ret;
}

static int usage_error(const char *what)
{
	fprintf(stderr, "warnwatch serve: %s\n%s", what, usage_text);
	return EXIT_USAGE;
}

/* 0: go on; OPT_HELP: usage printed; EXIT_USAGE: bad command line (said). */
static int parse_args(const char **path, enum serve_role *role,
		      unsigned int *flags, int argc, const char **argv)
{
	struct strvec rest = STRVEC_INIT;
	const char *role_name = NULL;
	int ret;
	struct opt opts[] = {
		OPT_STRING(0, "config", path, "FILE"),
		OPT_STRING(0, "role", &role_name, "ROLE"),
		OPT_BIT(0, "once", flags, SERVE_ONCE),
		OPT_BIT('v', "verbose", flags, SERVE_VERBOSE),
		OPT_END(),
	};

	ret = opt_parse(&rest, argc, argv, opts, 0);
	if (ret == OPT_HELP)
		fputs(usage_text, stdout);
	else if (!ret && rest.nr)
		ret = error_code(WW_EUSAGE, "unknown argument '%s'", rest.v[0]);
	else if (!ret && role_name)
		ret = serve_role_parse(role, role_name);
	if (ret < 0)
		ret = usage_error(error_last());
	strvec_clear(&rest);
	return ret;
}

int cmd_serve(int argc, const char **argv)
{
	struct settings set = SETTINGS_INIT;
	struct serve_config cfg = SERVE_CONFIG_INIT;
	struct dashboard_cache dash = DASHBOARD_CACHE_INIT;
	struct chronicle chron = CHRONICLE_INIT;
	const char *path = NULL;
	unsigned int flags = 0;
	enum serve_role role = SERVE_ROLE_ALL;
	int ret;

	ret = parse_args(&path, &role, &flags, argc, argv);
	if (ret)
		return ret == OPT_HELP ? EXIT_OK : ret;
	ret = settings_load(&set, path, 0);
	if (!ret)
		ret = serve_config_load(&cfg, &set);
	if (ret) {
		ret = report_error("serve");
		goto out;
	}
	cfg.role = role;
	cfg.drawer.draw = draw_dashboard;
	cfg.drawer.data = &dash;
	cfg.history_hook.step = chronicle_step;
	cfg.history_hook.data = &chron;
	install_handlers();
	b4_sweep();	/* what a killed predecessor left */
	ret = serve_run(&cfg, flags);
	if (ret) {
		report_error("serve");
		ret = 3;
	}
out:
	serve_config_release(&cfg);
	dashboard_cache_release(&dash);
	chronicle_release(&chron);
	settings_release(&set);
	return ret;
}
