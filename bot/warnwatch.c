/*
 * warnwatch: the review bot for BUG()/WARN() additions in kernel patches.
 * This file only dispatches subcommands from one table (as git.c does).
 *
 * It is built twice.  `warnwatch` links only libgit2 and jansson and runs
 * `check` itself: contributors run it before every git send-email, and
 * loading libcurl, SQLite, libmicrohttpd and libarchive with their ~50
 * libraries would double the start-up of checking a small patch (git keeps
 * libcurl out of its main binary for the same reason).  Every other
 * command runs in `warnwatch-all` (built with WW_ALL: every command
 * in-process), which `warnwatch` execs with the same arguments.
 */
#include "builtin.h"
#include "advice.h"
#include "env.h"
#include "rules.h"
#include "datadir.h"

#include <limits.h>
#include <unistd.h>

#define WW_VERSION "0.1"

#ifndef WW_LIBEXECDIR
#define WW_LIBEXECDIR "/usr/local/libexec/warnwatch"
#endif
#define ALL_NAME "warnwatch-all"

#ifdef WW_ALL
#define HEAVY(fn) fn
#define CHECK_FN cmd_check_all	/* with --suggest --tree's rewrites */
#else
#define HEAVY(fn) NULL		/* run by warnwatch-all */
#define CHECK_FN cmd_check	/* EXIT_RUN_ALL for --suggest --tree */
#endif

struct cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{ "check", CHECK_FN, "find BUG/WARN calls a patch series adds or removes" },
	{ "hook", cmd_hook, "git send-email's sendemail-validate hook: install, uninstall" },
	{ "census", HEAVY(cmd_census), "count BUG/WARN calls in a kernel tree, tarball or git range" },
	{ "backfill", HEAVY(cmd_backfill), "read list archives (public-inbox): BUG/WARN calls per release cycle" },
	{ "dashboard", HEAVY(cmd_dashboard), "write the static dashboard site (HTML, SVG charts, JSON)" },
	{ "ci", HEAVY(cmd_ci), "build and boot a series with panic_on_warn=1: which WARN fires" },
	{ "serve", HEAVY(cmd_serve), "the review service: watch lists, check, reply, dashboard" },
	{ "status", HEAVY(cmd_status), "the service's queue, recent verdicts and errors" },
	{ "retry", HEAVY(cmd_retry), "requeue a failed series of the service" },
	{ "lift", HEAVY(cmd_lift), "lift a suppression that feedback made (see status)" },
	{ "review", HEAVY(cmd_review), "draft (or send) the review reply to a patch series" },
	{ "kbuild", HEAVY(cmd_kbuild), "apply a series to the distro kernel and build it (sandboxed)" },
	/* Internal (no help): the review's C front end in its sandbox. */
	{ "cfacts", HEAVY(cmd_cfacts), NULL },
};

/*
 * Run `argv` in warnwatch-all: $WARNWATCH_EXEC_PATH (as GIT_EXEC_PATH),
 * else beside this binary (a build tree), else the installed libexec
 * directory.  Returns only on failure.
 */
static int exec_all(const char **argv)
{
	const char *env = env_get(ENV_WARNWATCH_EXEC_PATH);
	char exe[PATH_MAX], path[PATH_MAX + sizeof(ALL_NAME) + 1];

	if (env && *env) {
		snprintf(path, sizeof(path), "%s/" ALL_NAME, env);
		execv(path, (char *const *)argv);
	} else {
		if (datadir_exe_dir(exe, sizeof(exe))) {
			snprintf(path, sizeof(path), "%s/" ALL_NAME, exe);
			execv(path, (char *const *)argv);
		}
		snprintf(path, sizeof(path), WW_LIBEXECDIR "/" ALL_NAME);
		execv(path, (char *const *)argv);
	}
	fprintf(stderr, "warnwatch: '%s' runs in %s, which cannot be run: %s "
		"(installed in " WW_LIBEXECDIR " by make install)\n",
		argv[1], path, strerror(errno));
	return EXIT_USAGE;
}

static int usage(FILE *f)
{
	fprintf(f, "usage: warnwatch <command> [options] [args]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (commands[i].help)
			fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'warnwatch <command> --help' shows a command's options\n");
	return f == stdout ? 0 : EXIT_USAGE;
}

int report_error(const char *prefix)
{
	const char *msg = error_last();

	if (prefix && *prefix)
		fprintf(stderr, "warnwatch: %s%s%s\n", prefix, *msg ? ": " : "", msg);
	else
		fprintf(stderr, "warnwatch: %s\n", *msg ? msg : "unknown error");
	return EXIT_USAGE;
}

int main(int argc, const char **argv)
{
	int ret;

	env_init();	/* the environment is read here, once (env.h) */
	/* Rule files carry the reply's advice: check refuses a broken one. */
	rules_own_part("review", advice_check_buf);
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help") ||
	    !strcmp(argv[1], "-h"))
		return usage(stdout);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("warnwatch %s\n", WW_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (!commands[i].fn)
			return exec_all(argv);
		ret = commands[i].fn(argc - 1, argv + 1);
		return ret == EXIT_RUN_ALL ? exec_all(argv) : ret;
	}
	/* One line, as git does: the list is one --help away. */
	fprintf(stderr, "warnwatch: '%s' is not a warnwatch command (see 'warnwatch --help')\n",
		argv[1]);
	return EXIT_USAGE;
}
