/*
 * Allocation wrappers: running out of memory is fatal, so callers do not
 * need an error path for every malloc.  And the one monotonic clock.
 */
#include "ww.h"
#include "env.h"

#include <signal.h>
#include <time.h>

static WW_NORETURN void oom(size_t n)
{
	fprintf(stderr, "warnwatch: out of memory allocating %zu bytes\n", n);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		oom(nmemb * n);
	return p;
}

void *xrealloc(void *ptr, size_t n)
{
	void *p = realloc(ptr, n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s));
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		oom(n);
	return p;
}

char *xmemdupz(const void *p, size_t n)
{
	char *s = xmalloc(n + 1);

	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !memcmp(s + ls - lx, suffix, lx);
}

double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

time_t time_ceil(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + (ts.tv_nsec > 0);
}

void test_kill_point(const char *name)
{
	const char *at = env_get(ENV_WARNWATCH_TEST_KILL_AT);

	if (at && !strcmp(at, name))
		raise(SIGKILL);
}
