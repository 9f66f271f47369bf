/*
 * Allocation wrappers: running out of memory is fatal, so callers do not
 * need an error path for every malloc.
 */
#include "ww.h"

static void *oom(size_t n)
{
	fprintf(stderr, "warnwatch: out of memory allocating %zu bytes\n", n);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom(n);
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	return p ? p : oom(nmemb * n);
}

void *xrealloc(void *ptr, size_t n)
{
	void *p = realloc(ptr, n ? n : 1);

	return p ? p : oom(n);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : oom(strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	return p ? p : oom(n);
}

bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !memcmp(s + ls - lx, suffix, lx);
}
