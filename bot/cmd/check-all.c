/*
 * warnwatch check as warnwatch-all runs it: the same command (check.c),
 * with --suggest --tree's rewrites from the review's facts and compiler
 * (fixup.h), which need libclang and so never reach the lean binary.
 */
#include "builtin.h"
#include "fixup.h"

int cmd_check_all(int argc, const char **argv)
{
	return check_main(argc, argv, fixup_series);
}
