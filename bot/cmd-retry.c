/*
 * warnwatch retry ID...: requeue failed series (queue_retry()).
 */
#include "builtin.h"
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
	const char *config = NULL, *state_dir = NULL, *v;
	bool force = false, opened = false;
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			config = argv[++i];
		} else if (skip_prefix(argv[i], "--config=", &v)) {
			config = v;
		} else if (!strcmp(argv[i], "--state-dir") && i + 1 < argc) {
			state_dir = argv[++i];
		} else if (skip_prefix(argv[i], "--state-dir=", &v)) {
			state_dir = v;
		} else if (!strcmp(argv[i], "--force")) {
			force = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(retry_usage, stdout);
			goto out;
		} else if (*argv[i] && strspn(argv[i], "0123456789") == strlen(argv[i])) {
			strvec_push(&ids, argv[i]);
		} else {
			fprintf(stderr, "warnwatch: unknown argument '%s'\n%s",
				argv[i], retry_usage);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (!ids.nr)
		ret = error_code(WW_EUSAGE, "which series? (see 'warnwatch status')");
	if (!ret)
		ret = serve_state_open(&st, &q, config, state_dir);
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
	strvec_clear(&ids);
	return ret;
}
