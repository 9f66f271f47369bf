/*
 * warnwatch ci: placeholder until the pipeline lands.
 */
#include "builtin.h"

int cmd_ci(int argc, const char **argv)
{
	error("ci is not implemented yet");
	return report_error(NULL);
}
