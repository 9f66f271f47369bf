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
};

int cmd_check(int argc, const char **argv);
int cmd_hook(int argc, const char **argv);
int cmd_census(int argc, const char **argv);
int cmd_backfill(int argc, const char **argv);
int cmd_dashboard(int argc, const char **argv);
int cmd_ci(int argc, const char **argv);
int cmd_serve(int argc, const char **argv);
int cmd_status(int argc, const char **argv);
int cmd_retry(int argc, const char **argv);
int cmd_review(int argc, const char **argv);
int cmd_kbuild(int argc, const char **argv);

/* Print the last error as "warnwatch: <prefix>: <message>" and return 2. */
int report_error(const char *prefix);

#endif
