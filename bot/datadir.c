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

/* The checkout a binary at <top>/bot/warnwatch or <top>/build/warnwatch is in. */
static bool checkout_top(char *exe, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", exe, size - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	/* Drop the binary's name, then its directory (bot/, build/). */
	for (int level = 0; level < 2; level++) {
		char *slash = strrchr(exe, '/');

		if (!slash)
			return false;
		*slash = '\0';
	}
	return true;
}

const char *datadir_find(char *buf, size_t size, const char *sub,
			 const char *env, const char *env_sub)
{
	const char *val = env ? getenv(env) : NULL;
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
