/*
 * Unit tests for bot/lib/env.c: the environment, read once from one table.
 */
#include "env.h"
#include "tap.h"

int main(void)
{
	setenv("WARNWATCH_CACHE", "/first", 1);
	unsetenv("WARNWATCH_B4");
	setenv("WARNWATCH_SMTP_DEBUG", "", 1);
	env_init();
	is_str(env_get(ENV_WARNWATCH_CACHE), "/first", "a variable as read at start");
	ok(env_get(ENV_WARNWATCH_B4) == NULL, "unset is NULL");
	is_str(env_get(ENV_WARNWATCH_SMTP_DEBUG), "", "set but empty is \"\"");
	ok(env_get_nonempty(ENV_WARNWATCH_SMTP_DEBUG) == NULL, "  which _nonempty calls unset");

	setenv("WARNWATCH_CACHE", "/later", 1);
	env_init();
	is_str(env_get(ENV_WARNWATCH_CACHE), "/first",
	       "read once: a later setenv() is not seen");
	env_reload();
	is_str(env_get(ENV_WARNWATCH_CACHE), "/later", "env_reload() reads it again");

	for (int v = 0; v < ENV_NR; v++)
		ok(*env_name(v) != '\0', "variable %d has its name in the table (%s)",
		   v, env_name(v));
	ok(env_get(ENV_NONE) == NULL, "ENV_NONE has no value");
	is_str(env_name(ENV_WARNWATCH_XZ_THREADS), "WARNWATCH_XZ_THREADS",
	       "names match the enum");
	return done_testing();
}
