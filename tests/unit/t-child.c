/*
 * Unit tests for child.c: argv without a shell, captured output, exit
 * statuses, deadlines that kill the whole process group.
 */
#include "child.h"
#include "tap.h"

#include <signal.h>
#include <unistd.h>

static void test_capture(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "sh", "-c", "echo out; echo err >&2; exit 3", NULL);
	is(child_run(&c), 0, "runs sh");
	is(c.status, 3, "exit status 3");
	is_str(c.out.buf, "out\n", "stdout captured");
	is_str(c.err.buf, "err\n", "stderr captured");
	child_release(&c);
}

static void test_argv_not_shell(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "printf", "%s", "$(id); `id` <x> | y", NULL);
	is(child_run(&c), 0, "printf runs");
	is_str(c.out.buf, "$(id); `id` <x> | y", "metacharacters reach argv verbatim");
	child_release(&c);
}

static void test_stdin_env(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "sh", "-c", "cat; echo \"$WW_T\"", NULL);
	strvec_push(&c.env, "WW_T=hello");
	c.in = "input\n";
	c.in_len = 6;
	is(child_run(&c), 0, "cat runs");
	is_str(c.out.buf, "input\nhello\n", "stdin fed, env set");
	child_release(&c);
}

static void test_timeout(void)
{
	struct child c = CHILD_INIT;

	/* The grandchild holds the pipe open too: the group must die. */
	strvec_pushl(&c.args, "sh", "-c", "sleep 30 & sleep 30", NULL);
	c.timeout_ms = 300;
	is(child_run(&c), WW_ETIMEOUT, "deadline gives WW_ETIMEOUT");
	ok(c.timed_out, "timed_out set");
	ok(c.seconds < 5, "returned promptly (%.1f s)", c.seconds);
	ok(c.status >= 128, "killed by a signal (%d)", c.status);
	child_release(&c);
}

static void test_missing(void)
{
	struct child c = CHILD_INIT;

	strvec_push(&c.args, "/nonexistent/program");
	is(child_run(&c), WW_ENOTFOUND, "missing program is WW_ENOTFOUND");
	ok(strstr(error_last(), "/nonexistent/program") != NULL,
	   "error names the program: %s", error_last());
	child_release(&c);
}

static void test_run_ok(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "sh", "-c", "echo first >&2; echo 'last words' >&2; exit 1", NULL);
	is(child_run_ok(&c), WW_ECHILD, "non-zero status is WW_ECHILD");
	ok(strstr(error_last(), "last words") != NULL,
	   "message quotes stderr: %s", error_last());
	child_release(&c);
}

/* The one way modules word a failed program (qemu, e2fsck, gcov, b4...). */
static void test_error(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "sh", "-c", "echo out; echo 'err 1' >&2; echo 'err 2' >&2; exit 3",
		     NULL);
	is(child_run(&c), 0, "ran");
	is(child_error(&c, "sh said no with status %d", c.status), WW_ECHILD,
	   "child_error returns WW_ECHILD");
	is_str(error_last(), "sh said no with status 3: err 2",
	       "and quotes the last line of stderr");
	child_release(&c);

	child_init(&c);
	strvec_pushl(&c.args, "sh", "-c", "echo 'to out' >&2; exit 4", NULL);
	c.flags = CHILD_STDERR_TO_OUT;
	child_run(&c);
	child_error(&c, "merged");
	is_str(error_last(), "merged: to out", "stdout when stderr went into it");
	child_release(&c);

	child_init(&c);
	strvec_pushl(&c.args, "false", NULL);
	is(child_run_ok(&c), WW_ECHILD, "false fails");
	is_str(error_last(), "'false' failed with status 1", "no ': ' after a silent program");
	child_release(&c);
}

static void test_cap(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "head", "-c", "100000", "/dev/zero", NULL);
	c.cap = 1000;
	is(child_run(&c), 0, "head runs");
	is(c.out.len, 1000, "capture capped");
	ok(c.truncated, "truncation flagged");
	child_release(&c);
}

int main(void)
{
	test_capture();
	test_argv_not_shell();
	test_stdin_env();
	test_timeout();
	test_missing();
	test_run_ok();
	test_error();
	test_cap();
	return done_testing();
}
