/*
 * Running other programs (b4, git, make, qemu, bwrap): the one way to do it.
 *
 * After git's run-command.h, with a deadline on every child: the child gets
 * its own process group, and when the deadline passes the whole group gets
 * SIGTERM, then SIGKILL.  The program runs under a reaper that leads the
 * group and ends it when warnwatch dies (child.c, "the reaper"), so no
 * child outlives warnwatch by more than seconds; with orphan_track()
 * (orphan.h) each group is also recorded.  No shell is ever involved; argv
 * goes straight to execvp().  Inherited descriptors are closed and signal handling is reset
 * in the child.  stdout and stderr are captured into buffers (capped), or
 * stdout is written to a file (console logs).
 */
#ifndef WW_CHILD_H
#define WW_CHILD_H

#include "strbuf.h"
#include "strvec.h"

enum child_flags {
	CHILD_STDERR_PASS = 1 << 0,	/* stderr goes to ours, not captured */
	CHILD_STDOUT_PASS = 1 << 1,	/* stdout goes to ours, not captured */
	CHILD_STDERR_TO_OUT = 1 << 2,	/* stderr merged into stdout */
	CHILD_CLEAN_ENV = 1 << 3,	/* start from an empty environment */
};

#define CHILD_DEFAULT_TIMEOUT_MS (10 * 60 * 1000)
#define CHILD_DEFAULT_CAP (16u << 20)

struct child {
	struct strvec args;	/* args.v[0] is the program, looked up in PATH */
	struct strvec env;	/* "K=V" sets, "K" unsets, on top of environ */
	const char *dir;	/* working directory, or NULL */
	unsigned int timeout_ms; /* 0: CHILD_DEFAULT_TIMEOUT_MS */
	const char *in;		/* stdin contents, or NULL for /dev/null */
	size_t in_len;
	const char *out_path;	/* if set, stdout (and merged stderr) go here */
	size_t cap;		/* per-stream capture cap; 0: CHILD_DEFAULT_CAP */
	unsigned int flags;	/* enum child_flags */
	/* Called with each chunk read from stdout (e.g. progress); may be NULL. */
	void (*on_stdout)(void *data, const char *buf, size_t len);
	void *data;

	/* Results. */
	struct strbuf out;
	struct strbuf err;
	int status;		/* exit status; 128+N when killed by signal N */
	bool timed_out;
	bool truncated;		/* some output was over `cap` and dropped */
	double seconds;		/* wall-clock run time */
};

#define CHILD_INIT { .args = STRVEC_INIT, .env = STRVEC_INIT, .out = STRBUF_INIT, \
			.err = STRBUF_INIT }

void child_init(struct child *c);
/* Free args, env and the captured output. */
void child_release(struct child *c);

/*
 * Run the child to completion or deadline.  Returns 0 when the program ran
 * and exited (whatever its status: check c->status), WW_ENOTFOUND when it
 * could not be executed, WW_ETIMEOUT when the deadline killed it.
 */
int child_run(struct child *c);

/* Like child_run, but a non-zero exit status is an error (WW_ECHILD) whose
 * message names the program and quotes the last line of its stderr. */
int child_run_ok(struct child *c);

/*
 * How a module says a program failed: store "<fmt...>: <last line>" as
 * WW_ECHILD and return WW_ECHILD.  The line is the last non-empty one of
 * its stderr, or of its stdout when stderr is empty (merged into stdout
 * with CHILD_STDERR_TO_OUT, or silent); no ": " when both are empty.
 */
int child_error(const struct child *c, const char *fmt, ...) WW_PRINTF(2, 3);

/* The last non-empty line of `sb` (for error messages), into `out`. */
void child_last_line(struct strbuf *out, const struct strbuf *sb);

#endif
