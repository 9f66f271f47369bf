/*
 * The subcommands.  Each cmd_NAME lives in its own bot/cmd/NAME.c file and
 * returns the process exit status: 0 nothing to report, 1 something found
 * (a finding at error level, a verdict other than clean), 2 usage or input
 * error.  Later statuses are named in each command's usage text.
 */
#ifndef WW_BUILTIN_H
#define WW_BUILTIN_H

#include "ww.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_FOUND = 1,
	EXIT_USAGE = 2,
	/* Not a status: main() runs the command again in warnwatch-all. */
	EXIT_RUN_ALL = -1,
};

int cmd_check(int argc, const char **argv);

/*
 * check --suggest --tree's rewrites (fixup_series(), review/fixup.h):
 * given to check_main() by warnwatch-all's cmd_check_all(); the lean
 * check has none and returns EXIT_RUN_ALL for --suggest --tree.
 */
struct strbuf;
struct series;
struct check_result;
struct suggest_tree_opts;
int check_main(int argc, const char **argv,
	       int (*suggest_tree)(struct strbuf *out, struct strbuf *skipped,
				   const struct series *s, const struct check_result *r,
				   const struct suggest_tree_opts *o));
int cmd_check_all(int argc, const char **argv);
int cmd_hook(int argc, const char **argv);
int cmd_census(int argc, const char **argv);
int cmd_backfill(int argc, const char **argv);
int cmd_dashboard(int argc, const char **argv);
int cmd_ci(int argc, const char **argv);
int cmd_serve(int argc, const char **argv);
int cmd_status(int argc, const char **argv);
int cmd_retry(int argc, const char **argv);
int cmd_lift(int argc, const char **argv);
int cmd_review(int argc, const char **argv);
int cmd_kbuild(int argc, const char **argv);
/* The review's sandboxed C front end (cfront.h): internal, not listed. */
int cmd_cfacts(int argc, const char **argv);

/* Print the last error as "warnwatch: <prefix>: <message>" and return 2. */
int report_error(const char *prefix);

#endif
