/*
 * mkdir -p: see mkdirs.h.  One copy for the state, cache, build and site
 * directories (five modules had their own).
 */
#include "mkdirs.h"

#include <sys/stat.h>

int mkdirs(const char *dir, mode_t mode, int code)
{
	char *p = xstrdup(dir);
	int ret = 0;

	/* Each prefix that ends at a '/' (not the root's), then the whole. */
	for (char *s = p + 1; ; s++) {
		bool end = !*s;

		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (*p && mkdir(p, mode) < 0 && errno != EEXIST) {
			ret = error_code(code, "cannot create '%s': %s", p,
					 strerror(errno));
			break;
		}
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return ret;
}
