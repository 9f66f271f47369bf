/*
 * The environment, read once (env.h).  The one table of every variable
 * warnwatch reads; docs/HACKING.md ("Environment") says what each does.
 */
#include "env.h"

#include <pthread.h>

static const char *const names[ENV_NR] = {
	[ENV_HOME] = "HOME",
	[ENV_TMPDIR] = "TMPDIR",
	[ENV_XDG_CONFIG_HOME] = "XDG_CONFIG_HOME",
	[ENV_XDG_CACHE_HOME] = "XDG_CACHE_HOME",
	[ENV_XDG_STATE_HOME] = "XDG_STATE_HOME",
	[ENV_SOURCE_DATE_EPOCH] = "SOURCE_DATE_EPOCH",
	[ENV_WARNWATCH_CONFIG] = "WARNWATCH_CONFIG",
	[ENV_WARNWATCH_CACHE] = "WARNWATCH_CACHE",
	[ENV_WARNWATCH_RULES] = "WARNWATCH_RULES",
	[ENV_WARNWATCH_TEMPLATES] = "WARNWATCH_TEMPLATES",
	[ENV_WARNWATCH_KERNEL_CI] = "WARNWATCH_KERNEL_CI",
	[ENV_WARNWATCH_EXEC_PATH] = "WARNWATCH_EXEC_PATH",
	[ENV_WARNWATCH_BASE_TARBALL] = "WARNWATCH_BASE_TARBALL",
	[ENV_WARNWATCH_B4] = "WARNWATCH_B4",
	[ENV_WARNWATCH_SMTP_DEBUG] = "WARNWATCH_SMTP_DEBUG",
	[ENV_WARNWATCH_TEST_KILL_AT] = "WARNWATCH_TEST_KILL_AT",
	[ENV_WARNWATCH_XZ_THREADS] = "WARNWATCH_XZ_THREADS",
};

/* Copies: a later setenv() by anyone cannot pull a value from under us. */
static char *values[ENV_NR];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	for (size_t i = 0; i < ENV_NR; i++) {
		const char *v = getenv(names[i]);

		free(values[i]);
		values[i] = v ? xstrdup(v) : NULL;
	}
}

void env_init(void)
{
	pthread_once(&once, load);
}

void env_reload(void)
{
	env_init();
	load();
}

const char *env_get(enum env_var v)
{
	if (v < 0 || v >= ENV_NR)
		return NULL;
	env_init();
	return values[v];
}

const char *env_get_nonempty(enum env_var v)
{
	const char *s = env_get(v);

	return s && *s ? s : NULL;
}

const char *env_name(enum env_var v)
{
	return v >= 0 && v < ENV_NR ? names[v] : "";
}
