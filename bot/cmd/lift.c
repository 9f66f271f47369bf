/*
 * warnwatch lift ID...: lift a suppression people's feedback made
 * (feedback_lift()): a finding called wrong, a mute, a pending mute-me.
 * `warnwatch status` lists them with their IDs.
 */
#include "builtin.h"
#include "feedback.h"
#include "opt.h"
#include "queue.h"
#include "serve.h"

#include <unistd.h>

static const char lift_usage[] =
	"usage: warnwatch lift [--config FILE | --state-dir DIR] [--by WHO] ID...\n"
	"\n"
	"Lift suppressions that feedback made (a finding called wrong, a mute,\n"
	"a mute-me waiting for its confirmation): warnwatch says again what it\n"
	"was told not to.  'warnwatch status' lists them with their IDs.\n"
	"--by records who lifted it (default: the user running this).\n"
	"Exit status: 0 lifted, 2 usage error or no such live suppression.\n";

int cmd_lift(int argc, const char **argv)
{
	struct strvec ids = STRVEC_INIT;
	struct store st = STORE_INIT;
	struct queue q = { 0 };
	struct settings set = SETTINGS_INIT;
	struct strbuf who = STRBUF_INIT;
	const char *config = NULL, *state_dir = NULL, *by = NULL;
	bool opened = false;
	int ret = 0;
	struct opt opts[] = {
		OPT_STRING(0, "config", &config, "FILE"),
		OPT_STRING(0, "state-dir", &state_dir, "DIR"),
		OPT_STRING(0, "by", &by, "WHO"),
		OPT_END(),
	};

	ret = opt_parse(&ids, argc, argv, opts, 0);
	if (ret == OPT_HELP) {
		fputs(lift_usage, stdout);
		ret = 0;
		goto out;
	}
	if (!ret)
		ret = opt_ids(&ids);
	if (!ret && !ids.nr)
		ret = error_code(WW_EUSAGE, "which suppression? (see 'warnwatch status')");
	if (ret < 0) {
		fprintf(stderr, "warnwatch: %s\n%s", error_last(), lift_usage);
		ret = EXIT_USAGE;
		goto out;
	}
	if (by && *by)
		strbuf_addstr(&who, by);
	else
		strbuf_addf(&who, "uid %ld (warnwatch lift)", (long)getuid());
	if (!state_dir)
		ret = settings_load(&set, config, SETTINGS_OPTIONAL);
	if (!ret)
		ret = serve_state_open(&st, &q, &set, state_dir);
	opened = !ret;
	for (size_t i = 0; !ret && i < ids.nr; i++) {
		long long id = strtoll(ids.v[i], NULL, 10);

		ret = feedback_lift(&st, id, who.buf, time(NULL));
		if (ret > 0)
			printf("suppression %lld lifted\n", id);
		else if (!ret)
			ret = error_code(WW_ENOTFOUND, "no live suppression %lld (see "
					 "'warnwatch status')", id);
		ret = ret > 0 ? 0 : ret;
	}
	if (ret < 0)
		ret = report_error("lift");
out:
	if (opened) {
		queue_release(&q);
		store_close(&st);
	}
	settings_release(&set);
	strbuf_release(&who);
	strvec_clear(&ids);
	return ret;
}
