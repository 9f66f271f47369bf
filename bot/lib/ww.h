/*
 * What every warnwatch module includes first: the C library pieces we use
 * everywhere, error codes, and the banned-function list (last, so that it
 * also covers what the system headers declare).
 */
#ifndef WW_H
#define WW_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "error.h"
#include "banned.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation failure is not a recoverable error for us: die loudly. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Exactly `n` bytes of `p` (NULs included) plus a terminating NUL: for
 * text from strangers, where a length kept next to the copy must hold. */
char *xmemdupz(const void *p, size_t n);

/* Seconds on the monotonic clock: for deadlines and timings only. */
double monotonic_now(void);
/* The wall clock rounded up to the next whole second: a delay of D s counted
 * from it never comes due sooner than D s from now, as one counted from
 * time(NULL), mid-second, can. */
time_t time_ceil(void);

/* Grow an array `x` of `alloc` slots to hold at least `nr` (git's ALLOC_GROW);
 * afterwards `x` is never NULL, which static analysers can see. */
#define ALLOC_GROW(x, nr, alloc) \
	do { \
		if ((nr) > (alloc) || !(x)) { \
			(alloc) = (alloc) < 16 ? 16 : (alloc) * 2; \
			if ((alloc) < (nr)) \
				(alloc) = (nr); \
			(x) = xrealloc((x), (alloc) * sizeof(*(x))); \
		} \
	} while (0)

static inline bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* If `s` starts with `prefix`, point *out past it and return true. */
static inline bool skip_prefix(const char *s, const char *prefix,
			       const char **out)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	*out = s + n;
	return true;
}

bool ends_with(const char *s, const char *suffix);

/* Test-only crash points: with WARNWATCH_TEST_KILL_AT=NAME in the
 * environment, the process dies as kill -9 would when it passes NAME, at
 * the worst moments for exactly-once work (tests/e2e). */
void test_kill_point(const char *name);

#endif
