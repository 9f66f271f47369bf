/*
 * Error codes and the last error message.
 *
 * Functions return 0 on success and a negative WW_E* code on failure.  The
 * human-readable reason is stored with error()/error_code() (never printed
 * deep inside); main() prints it once, as "warnwatch: <message>".  A caller
 * that adds context wraps the message with error_prefix().
 */
#ifndef WW_ERROR_H
#define WW_ERROR_H

#include <stdarg.h>

enum ww_error {
	WW_OK = 0,
	WW_ERROR = -1,		/* generic failure */
	WW_EUSAGE = -2,		/* bad command line */
	WW_EINPUT = -3,		/* malformed input (mail, diff, rules...) */
	WW_ENOTFOUND = -4,	/* file, message-id or object missing */
	WW_ETOOBIG = -5,	/* input over a size cap */
	WW_ETIMEOUT = -6,	/* a deadline passed */
	WW_ECHILD = -7,		/* an external program failed */
	WW_EAPPLY = -8,		/* a patch does not apply */
	WW_EBUILD = -9,		/* the kernel does not build */
	WW_ENET = -10,		/* a server could not be reached */
	WW_EDUP = -11,		/* already done (e.g. reply already sent) */
	WW_ESTATE = -12,	/* state database problem */
	WW_ENOPATCH = -13,	/* a thread or mbox holds no patch (b4's "No patches found") */
};

#define WW_NORETURN __attribute__((noreturn))
#define WW_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Store a message and return WW_ERROR. */
int error(const char *fmt, ...) WW_PRINTF(1, 2);
/* Store a message and return `code`. */
int error_code(int code, const char *fmt, ...) WW_PRINTF(2, 3);
/* Prefix the stored message with "<context>: ", return `code` unchanged. */
int error_prefix(int code, const char *fmt, ...) WW_PRINTF(2, 3);
/* The last stored message (borrowed; "" when none). */
const char *error_last(void);
void error_clear(void);

#define ERROR_MSG_MAX 1024

/*
 * A failure held aside, as libgit2's git_error_state_capture/restore:
 * the code and message of a failure survive the cleanup, logging or
 * bookkeeping that runs before it is reported (each may store messages of
 * its own, or clear them).  No allocation: it lives on the stack.
 */
struct error_state {
	int code;
	char msg[ERROR_MSG_MAX];
};

/*
 * Move the stored message and `code` into `out` and clear the store.  A
 * failure that stored no message gets one naming its code, so no failure
 * is ever recorded with an empty reason.  Returns `code`.
 */
int error_state_capture(struct error_state *out, int code);
/* Store `st`'s message again; returns its code. */
int error_state_restore(const struct error_state *st);

/* Print "warnwatch: warning: ..." to stderr at once (main-level only). */
void warning(const char *fmt, ...) WW_PRINTF(1, 2);
/* Print "warnwatch: ..." to stderr and exit(2).  main-level code only. */
WW_NORETURN void die(const char *fmt, ...) WW_PRINTF(1, 2);
/* Broken invariant inside warnwatch itself: print and abort(). */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
WW_NORETURN void bug_fl(const char *file, int line, const char *fmt, ...)
	WW_PRINTF(3, 4);

#endif
