/*
 * A tiny TAP producer for the unit tests: ok()/is()/is_str() print one
 * "ok N - name" line each, skip() an "ok N - name # SKIP reason" line,
 * done_testing() prints the plan and returns the exit status (non-zero if
 * anything failed).  A test that returns before done_testing() prints no
 * plan, and tests/run fails it.
 */
#ifndef WW_TAP_H
#define WW_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is(got, want, ...) \
	tap_is((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) \
	tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)

static inline int tap_ok(int pass, const char *file, int line,
			 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int tap_ok(int pass, const char *file, int line,
			 const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", pass ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return pass;
}

#define tap_is(got, want, file, line, ...) \
	({ long long tap_g_ = (long long)(got), tap_w_ = (long long)(want); \
	   int tap_p_ = tap_ok(tap_g_ == tap_w_, file, line, __VA_ARGS__); \
	   if (!tap_p_) \
		   printf("#   got %lld, want %lld\n", tap_g_, tap_w_); \
	   tap_p_; })

#define tap_is_str(got, want, file, line, ...) \
	({ const char *tap_g_ = (got), *tap_w_ = (want); \
	   int tap_p_ = tap_ok(tap_g_ && tap_w_ && !strcmp(tap_g_, tap_w_), \
			       file, line, __VA_ARGS__); \
	   if (!tap_p_) \
		   printf("#   got '%s'\n#  want '%s'\n", tap_g_ ? tap_g_ : "(null)", \
			  tap_w_ ? tap_w_ : "(null)"); \
	   tap_p_; })

/* A test that cannot run here: "ok N - name # SKIP reason", counted as
 * skipped by tests/run.  skip("not-installed: no CA bundle", "libgit2 read it once"): the
 * reason first, one of tests/skips. */
#define skip(reason, ...) tap_skip((reason), __VA_ARGS__)
static inline void tap_skip(const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("ok %d - ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
