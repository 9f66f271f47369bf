/*
 * Finding warnwatch's data directories: see datadir.h.
 */
#include "datadir.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

bool datadir_exe_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

/* The checkout a binary at <top>/bot/warnwatch or <top>/build/warnwatch is in. */
static bool checkout_top(char *exe, size_t size)
{
	char *slash;

	/* The binary's directory, then its parent (bot/, build/ dropped). */
	if (!datadir_exe_dir(exe, size))
		return false;
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

const char *datadir_find(char *buf, size_t size, const char *sub,
			 enum env_var env, const char *env_sub)
{
	const char *val = env_get(env);
	char exe[PATH_MAX];

	if (val && *val) {
		snprintf(buf, size, "%s%s%s", val, env_sub ? "/" : "",
			 env_sub ? env_sub : "");
		return buf;
	}
	if (checkout_top(exe, sizeof(exe))) {
		snprintf(buf, size, "%s/%s", exe, sub);
		if (is_dir(buf))
			return buf;
	}
	snprintf(buf, size, "%s/%s", WW_DATADIR, sub);
	return buf;
}

void datadir_cache(struct strbuf *out, const char *option)
{
	const char *env = env_get(ENV_WARNWATCH_CACHE);
	const char *xdg = env_get(ENV_XDG_CACHE_HOME);
	const char *home = env_get(ENV_HOME);

	if (option && *option)
		strbuf_addstr(out, option);
	else if (env && *env)
		strbuf_addstr(out, env);
	else if (xdg && *xdg)
		strbuf_addf(out, "%s/warnwatch", xdg);
	else
		strbuf_addf(out, "%s/.cache/warnwatch",
			    home && *home ? home : "/tmp");
}
