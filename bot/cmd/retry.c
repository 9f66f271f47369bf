/*
 * warnwatch retry ID...: requeue failed series (queue_retry()).
 */
#include "builtin.h"
#include "opt.h"
#include "queue.h"
#include "serve.h"

static const char retry_usage[] =
	"usage: warnwatch retry [--config FILE | --state-dir DIR] [--force] ID...\n"
	"\n"
	"Requeue failed (or skipped) series at the stage they stopped at.\n"
	"--force requeues any series, and lets a reply whose sending was\n"
	"interrupted go out again under the same Message-ID.\n"
	"Exit status: 0 requeued, 2 usage error or unknown series.\n";

int cmd_retry(int argc, const char **argv)
{
	struct strvec ids = STRVEC_INIT;
	struct store st = STORE_INIT;
	struct queue q = { 0 };
	struct settings set = SETTINGS_INIT;
	const char *config = NULL, *state_dir = NULL;
	bool force = false, opened = false;
	int ret = 0;
	struct opt opts[] = {
		OPT_STRING(0, "config", &config, "FILE"),
		OPT_STRING(0, "state-dir", &state_dir, "DIR"),
		OPT_FLAG(0, "force", &force),
		OPT_END(),
	};

	ret = opt_parse(&ids, argc, argv, opts, 0);
	if (ret == OPT_HELP) {
		fputs(retry_usage, stdout);
		ret = 0;
		goto out;
	}
	if (!ret)
		ret = opt_ids(&ids);
	if (ret < 0) {
		fprintf(stderr, "warnwatch: %s\n%s", error_last(), retry_usage);
		ret = EXIT_USAGE;
		goto out;
	}
	if (!ids.nr)
		ret = error_code(WW_EUSAGE, "which series? (see 'warnwatch status')");
	if (!ret && !state_dir)
		ret = settings_load(&set, config, SETTINGS_OPTIONAL);
	if (!ret)
		ret = serve_state_open(&st, &q, &set, state_dir);
	opened = !ret;
	for (size_t i = 0; !ret && i < ids.nr; i++) {
		long long id = strtoll(ids.v[i], NULL, 10);

		ret = queue_retry(&q, id, force, time(NULL));
		if (!ret)
			printf("series %lld requeued\n", id);
	}
	if (ret < 0)
		ret = report_error("retry");
out:
	if (opened) {
		queue_release(&q);
		store_close(&st);
	}
	settings_release(&set);
	strvec_clear(&ids);
	return ret;
}
