/*
 * warnwatch: the review bot for BUG()/WARN() additions in kernel patches.
 * This file only dispatches subcommands from one table (as git.c does).
 */
#include "builtin.h"

#define WW_VERSION "0.1"

struct cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{ "check", cmd_check, "find BUG/WARN calls a patch series adds or removes" },
	{ "census", cmd_census, "count BUG/WARN calls in a kernel tree, tarball or git range" },
	{ "dashboard", cmd_dashboard, "write the static dashboard site (HTML, SVG charts, JSON)" },
	{ "ci", cmd_ci, "build and boot a series with panic_on_warn=1: which WARN fires" },
	{ "serve", cmd_serve, "the review service: watch lists, check, reply, dashboard" },
	{ "status", cmd_status, "the service's queue, recent verdicts and errors" },
	{ "retry", cmd_retry, "requeue a failed series of the service" },
	{ "review", cmd_review, "draft (or send) the review reply to a patch series" },
	{ "kbuild", cmd_kbuild, "apply a series to the distro kernel and build it (sandboxed)" },
};

static int usage(FILE *f)
{
	fprintf(f, "usage: warnwatch <command> [options] [args]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
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
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help") ||
	    !strcmp(argv[1], "-h"))
		return usage(stdout);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("warnwatch %s\n", WW_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	/* One line, as git does: the list is one --help away. */
	fprintf(stderr, "warnwatch: '%s' is not a warnwatch command (see 'warnwatch --help')\n",
		argv[1]);
	return EXIT_USAGE;
}
