/*
 * warnwatch check: placeholder until the check pipeline lands.
 */
#include "builtin.h"

int cmd_check(int argc, const char **argv)
{
	error("check is not implemented yet");
	return report_error(NULL);
}
