/*
 * Unit tests for child.c: argv without a shell, captured output, exit
 * statuses, deadlines that kill the whole process group, and a program
 * that does not outlive warnwatch killed with SIGKILL (its grandchildren,
 * one of them in a session of its own, neither).
 */
#include "child.h"
#include "proc.h"
#include "tap.h"
#include "tmpdir.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
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

/*
 * warnwatch (a forked copy of this test) runs a program that starts two
 * grandchildren, one in its own session (out of the group); then
 * warnwatch is killed with SIGKILL, as a crash or the OOM killer would.
 * All three must be gone within seconds, not at the program's deadline.
 */
static void test_parent_killed(void)
{
	char dir[] = "/tmp/t-child.XXXXXX";
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT;
	long pids[3] = { 0 };
	double t0, took = -1;
	pid_t ww;
	int i;

	if (!mkdtemp(dir)) {
		skip("mkdtemp failed", "a program outliving warnwatch");
		return;
	}
	strbuf_addf(&file, "%s/pids", dir);
	prctl(PR_SET_CHILD_SUBREAPER, 1);	/* orphans come here to be reaped */
	fflush(stdout);
	ww = fork();
	if (!ww) {
		struct child c = CHILD_INIT;

		strvec_pushl(&c.args, "sh", "-c", "sleep 300 & a=$!; setsid sleep 300 & "
			     "echo $$ $a $! >\"$0.tmp\"; mv \"$0.tmp\" \"$0\"; wait",
			     file.buf, NULL);
		c.timeout_ms = 600 * 1000;
		child_run(&c);
		_exit(0);
	}
	for (i = 0; i < 100 && strbuf_read_file(&text, file.buf, 4096) < 0; i++) {
		error_clear();
		usleep(100 * 1000);
	}
	ok(sscanf(text.buf, "%ld %ld %ld", &pids[0], &pids[1], &pids[2]) == 3,
	   "the program and its two grandchildren run: %s", text.buf);
	ok(pids[0] > 0 && proc_alive(pids[0]) && proc_alive(pids[1]) &&
	   proc_alive(pids[2]),
	   "  all three alive");
	kill(ww, SIGKILL);
	t0 = monotonic_now();
	while (monotonic_now() - t0 < 10) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!proc_alive(pids[0]) && !proc_alive(pids[1]) && !proc_alive(pids[2])) {
			took = monotonic_now() - t0;
			break;
		}
		usleep(50 * 1000);
	}
	ok(took >= 0 && took < 5, "warnwatch killed with SIGKILL: all three gone in %.1f s "
	   "(bound 5 s)", took);
	for (i = 0; i < 3; i++)
		if (pids[i] > 0 && proc_alive(pids[i]))
			kill((pid_t)pids[i], SIGKILL);	/* not left behind by a failure */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	tmp_remove(dir);
	strbuf_release(&file);
	strbuf_release(&text);
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
	test_parent_killed();
	return done_testing();
}
