/*
 * warnwatch hook install|uninstall|run: warnwatch as git send-email's
 * sendemail-validate hook (see hook.h).  `run` is what the installed
 * hook executes for each mail.
 * Exit 0: done (run: send); 1 (run): refuse to send; 2: usage or error.
 */
#include "builtin.h"
#include "hook.h"
#include "opt.h"

#include <limits.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: warnwatch hook install [--repo DIR] [--strict] [--force]\n"
	"       warnwatch hook uninstall [--repo DIR]\n"
	"       warnwatch hook run [--strict] [--rules DIR] FILE\n"
	"\n"
	"install writes git send-email's sendemail-validate hook into the\n"
	"repository's hooks directory (core.hooksPath when set).  Each mail\n"
	"that adds a BUG()-class call at error level is refused before anything\n"
	"is sent; warnings are printed and let through, unless --strict.  A hook\n"
	"already there is kept and run first; --force rewrites warnwatch's own.\n"
	"uninstall removes warnwatch's hook and puts the chained one back.\n"
	"run is what the hook executes for each mail (exit 1: do not send).\n"
	"\n"
	"  --repo DIR   the repository (default: the one around the current directory)\n"
	"  --strict     warnings block the send too\n"
	"  --force      install over warnwatch's own hook (e.g. to add --strict)\n";

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "warnwatch: hook: %s%s%s%s\n", what,
		arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

/* This binary's absolute path, for the hook to run. */
static int self_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	if (n <= 0)
		return error("cannot find warnwatch's own path: %s", strerror(errno));
	buf[n] = '\0';
	return 0;
}

static int run(int argc, const char **argv, unsigned flags, const char *rules_dir)
{
	struct ruleset rules = RULESET_INIT;
	int ret;

	if (argc != 1)
		return usage_error("run needs one FILE (the mail git send-email validates)", NULL);
	ret = rules_load(&rules, rules_dir ? rules_dir : rules_default_dir());
	if (ret < 0)
		return report_error("hook");
	ret = hook_validate(stderr, argv[0], &rules, flags);
	ruleset_release(&rules);
	return ret;
}

int cmd_hook(int argc, const char **argv)
{
	const char *repo = NULL, *rules_dir = NULL, *verb;
	unsigned flags = 0;
	struct strbuf dir = STRBUF_INIT, what = STRBUF_INIT;
	struct strvec args = STRVEC_INIT;
	char self[PATH_MAX];
	int ret;
	struct opt opts[] = {
		OPT_BIT(0, "strict", &flags, HOOK_STRICT),
		OPT_BIT(0, "force", &flags, HOOK_FORCE),
		OPT_STRING(0, "repo", &repo, "DIR"),
		OPT_STRING(0, "rules", &rules_dir, "DIR"),
		OPT_END(),
	};

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	verb = argv[1];
	ret = opt_parse(&args, argc - 1, argv + 1, opts, 0);
	if (ret == OPT_HELP) {
		fputs(usage_text, stdout);
		ret = EXIT_OK;
		goto out;
	}
	if (ret < 0) {
		ret = usage_error(error_last(), NULL);
		goto out;
	}
	if (!strcmp(verb, "run")) {
		ret = run((int)args.nr, args.v, flags, rules_dir);
		goto out;
	}
	if (args.nr) {
		ret = usage_error("unexpected argument", args.v[0]);
		goto out;
	}
	if (strcmp(verb, "install") && strcmp(verb, "uninstall")) {
		ret = usage_error("wants install, uninstall or run, not", verb);
		goto out;
	}
	ret = hook_dir(&dir, repo);
	if (ret >= 0 && !strcmp(verb, "install")) {
		ret = self_path(self, sizeof(self));
		if (ret >= 0)
			ret = hook_install(&what, dir.buf, self, flags);
	} else if (ret >= 0) {
		ret = hook_uninstall(&what, dir.buf);
	}
	if (ret < 0)
		ret = report_error("hook");
	else
		printf("warnwatch: %s\n", what.buf);
out:
	strvec_clear(&args);
	strbuf_release(&dir);
	strbuf_release(&what);
	return ret;
}
