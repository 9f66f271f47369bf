/*
 * Unit tests for bot/kernel-ci/bwrap.c with the real bubblewrap: inside the sandbox
 * the build directory is writable, the source, /tmp and the root are not,
 * the user is 65534, and there is no network interface but loopback.
 */
#include "bwrap.h"
#include "mkdirs.h"
#include "tap.h"

#include <signal.h>
#include <unistd.h>

static char tmp[] = "/tmp/t-bwrap.XXXXXX";

/* Run argv (NULL-terminated) in the sandbox; its exit status, or -1. */
static const struct strvec *extra_binds;

static int in_sandbox(struct strbuf *out, const char *src, const char *build,
		      ...)
{
	struct bwrap_opts o = BWRAP_OPTS_INIT;
	struct child c = CHILD_INIT;
	va_list ap;
	const char *arg;
	int ret;

	o.src = src;
	o.build = build;
	o.mem_mb = 1024;
	o.binds = extra_binds;
	bwrap_argv(&c.args, &o);
	va_start(ap, build);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	bwrap_env(&c.env, false);
	c.flags = CHILD_CLEAN_ENV | CHILD_STDERR_TO_OUT;
	c.timeout_ms = 30000;
	ret = child_run(&c);
	if (out)
		strbuf_addbuf(out, &c.out);
	if (!ret && bwrap_failed(&c))
		ret = -1;
	else if (!ret)
		ret = c.status;
	else
		ret = -1;
	child_release(&c);
	return ret;
}

/* Run argv (NULL-terminated) in the review's sandbox over `dir` (read-only). */
static int in_review_box(struct strbuf *out, const char *dir, unsigned int cpu_s, ...)
{
	struct bwrap_review_opts o = BWRAP_REVIEW_OPTS_INIT;
	struct strvec ro = STRVEC_INIT;
	struct child c = CHILD_INIT;
	va_list ap;
	const char *arg;
	int ret;

	strvec_push(&ro, dir);
	o.ro = &ro;
	o.chdir = dir;
	o.mem_mb = 256;
	o.cpu_s = cpu_s;
	bwrap_review_argv(&c.args, &o);
	va_start(ap, cpu_s);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	strvec_push(&c.env, "PATH=/usr/bin:/bin");
	c.flags = CHILD_CLEAN_ENV | CHILD_STDERR_TO_OUT;
	c.timeout_ms = 30000;
	ret = child_run(&c);
	if (out)
		strbuf_addbuf(out, &c.out);
	ret = ret ? -1 : bwrap_failed(&c) ? -1 : c.status;
	child_release(&c);
	strvec_clear(&ro);
	return ret;
}

/* The review's sandbox (bwrap_review_argv()): nothing writable, no host
 * file but /usr, only /dev/null, and its CPU and memory limits. */
static void test_review_box(const char *dir)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/x", dir);
	ok(in_review_box(NULL, dir, 10, "touch", path.buf, NULL) > 0 &&
	   in_review_box(NULL, dir, 10, "touch", "/tmp/x", NULL) > 0,
	   "review box: its directory and /tmp are read-only");
	ok(in_review_box(NULL, dir, 10, "cat", "/etc/passwd", NULL) > 0,
	   "review box: no host file outside the binds (/etc/passwd)");
	ok(in_review_box(&out, dir, 10, "ls", "/dev", NULL) == 0 && !strcmp(out.buf, "null\n"),
	   "review box: /dev holds /dev/null only (no /dev/zero to read without end)");
	ret = in_review_box(NULL, dir, 1, "sh", "-c", "while :; do :; done", NULL);
	ok(ret == 128 + SIGXCPU || ret == 128 + SIGKILL,
	   "review box: RLIMIT_CPU ends a busy loop (status %d)", ret);
	/* 400 MB once: over the 256 MB limit, harmless without it. */
	ret = in_review_box(NULL, dir, 10, "python3", "-c", "bytearray(400 << 20)", NULL);
	ok(ret > 0, "review box: RLIMIT_AS refuses 400 MB of a 256 MB box (status %d)", ret);
	strbuf_release(&out);
	strbuf_release(&path);
}

int main(void)
{
	struct strbuf src = STRBUF_INIT, build = STRBUF_INIT, out = STRBUF_INIT;
	struct strvec args = STRVEC_INIT;
	struct bwrap_opts o = BWRAP_OPTS_INIT;
	struct child c = CHILD_INIT;

	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	strbuf_addf(&src, "%s/src", tmp);
	strbuf_addf(&build, "%s/build", tmp);
	mkdirs(src.buf, 0755, WW_ERROR);
	mkdirs(build.buf, 0777, WW_ERROR);

	o.src = "/S";
	o.build = "/B";
	bwrap_argv(&args, &o);
	ok(!strcmp(args.v[0], "prlimit") && !strcmp(args.v[1], "--as=4294967296"),
	   "prlimit sets the address-space limit");
	{
		bool ro = false, rw = false, cc = false;

		for (size_t i = 0; i + 2 < args.nr; i++) {
			ro |= !strcmp(args.v[i], "--ro-bind") && !strcmp(args.v[i + 1], "/S") &&
			      !strcmp(args.v[i + 2], BWRAP_SRC);
			rw |= !strcmp(args.v[i], "--bind") && !strcmp(args.v[i + 1], "/B") &&
			      !strcmp(args.v[i + 2], BWRAP_BUILD);
			cc |= !strcmp(args.v[i + 2], BWRAP_CCACHE);
		}
		ok(ro && rw && !cc, "source read-only, build writable, no ccache unless asked");
	}

	strvec_pushl(&c.args, "bwrap", "--version", NULL);
	if (child_run(&c) < 0 || c.status) {
		skip("no-namespaces: bwrap cannot run here", "sandbox behaviour");
		goto out;
	}
	ok(in_sandbox(NULL, src.buf, build.buf, "touch", BWRAP_BUILD "/x", NULL) == 0,
	   "the build directory is writable");
	strbuf_addstr(&out, build.buf);
	strbuf_addstr(&out, "/x");
	ok(access(out.buf, F_OK) == 0, "and it is the host's build directory");
	ok(in_sandbox(NULL, src.buf, build.buf, "touch", BWRAP_SRC "/x", NULL) > 0,
	   "the source is read-only");
	ok(in_sandbox(NULL, src.buf, build.buf, "touch", "/tmp/x", NULL) > 0,
	   "/tmp is read-only");
	strbuf_reset(&out);
	ok(in_sandbox(&out, src.buf, build.buf, "id", "-u", NULL) == 0 &&
	   !strcmp(out.buf, "65534\n"), "runs as uid 65534");
	strbuf_reset(&out);
	ok(in_sandbox(&out, src.buf, build.buf, "cat", "/proc/net/dev", NULL) == 0 &&
	   strstr(out.buf, "lo:") && !strstr(out.buf, "eth"),
	   "no network interface but loopback");
	{
		struct strvec binds = STRVEC_INIT;
		struct strbuf sub = STRBUF_INIT, copy = STRBUF_INIT;

		strbuf_addf(&sub, "%s/sub", src.buf);
		strbuf_addf(&copy, "%s/copy", tmp);
		mkdirs(sub.buf, 0755, WW_ERROR);
		mkdirs(copy.buf, 0777, WW_ERROR);
		strvec_pushl(&binds, copy.buf, BWRAP_SRC "/sub", NULL);
		extra_binds = &binds;
		ok(in_sandbox(NULL, src.buf, build.buf, "touch", BWRAP_SRC "/sub/x", NULL) == 0 &&
		   in_sandbox(NULL, src.buf, build.buf, "touch", BWRAP_SRC "/y", NULL) > 0,
		   "an extra bind makes one directory of the source writable, only that one");
		strbuf_addstr(&copy, "/x");
		ok(access(copy.buf, F_OK) == 0, "the write lands in the copy");
		extra_binds = NULL;
		strvec_clear(&binds);
		strbuf_release(&copy);
		strbuf_release(&sub);
	}
	test_review_box(src.buf);
out:
	child_release(&c);
	strvec_clear(&args);
	strbuf_release(&out);
	strbuf_release(&build);
	strbuf_release(&src);
	{
		struct child rm = CHILD_INIT;

		strvec_pushl(&rm.args, "rm", "-rf", "--", tmp, NULL);
		child_run(&rm);
		child_release(&rm);
	}
	return done_testing();
}
