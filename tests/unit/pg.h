/*
 * For the unit tests that need a real PostgreSQL: without one in the
 * environment, re-exec through tests/e2e/pg-run, which starts a server,
 * sets WW_TEST_PG_URL and WW_TEST_PG_PWFILE, and stops it afterwards (or
 * prints a skipping plan when the server binaries are not installed).
 */
#ifndef T_PG_H
#define T_PG_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void pg_test_env(char **argv)
{
	const char *top = getenv("WW_TOP");
	char runner[4096];

	if (getenv("WW_TEST_PG_URL"))
		return;
	snprintf(runner, sizeof(runner), "%s/tests/e2e/pg-run", top ? top : ".");
	if (access(runner, X_OK)) {
		printf("Bail out! no WW_TEST_PG_URL and no '%s' to start a server\n",
		       runner);
		exit(1);
	}
	{
		char *args[] = { "bash", runner, argv[0], NULL };

		fflush(stdout);
		execv("/bin/bash", args);
	}
	printf("Bail out! cannot run '%s'\n", runner);
	exit(1);
}

#endif
