/*
 * Unit tests for bot/kernel-ci/kselftest.c: the cache key on a small fake tree (what
 * changes it and what does not), and real static builds from the 6.1
 * base tree (basetree.h: the cache's, or extracted now; read-only: the
 * build writes only into a temporary cache): cgroup builds completely and is static, a second call
 * comes from the cache, 6.1's timers builds partly with the link error
 * quoted.
 */
#include "kselftest.h"
#include "child.h"
#include "mkdirs.h"
#include "tap.h"
#include "tmpdir.h"
#include "basetree.h"

#include <sys/stat.h>
#include <unistd.h>

static char tmp[] = "/tmp/t-kselftest.XXXXXX";

static void cleanup(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "rm", "-rf", "--", tmp, NULL);
	child_run(&c);
	child_release(&c);
}

/* A file of the fake kernel tree under tmp/tree. */
static void put(const char *rel, const char *text)
{
	struct strbuf tree = STRBUF_INIT;

	strbuf_addf(&tree, "%s/tree", tmp);
	tmp_put(tree.buf, rel, text);
	strbuf_release(&tree);
}

static void hash(struct strbuf *out, const char *target,
		 const struct strvec *touched)
{
	struct strbuf tree = STRBUF_INIT;

	strbuf_reset(out);
	strbuf_addf(&tree, "%s/tree", tmp);
	if (kselftest_hash(out, tree.buf, target, "6.1.192", touched) < 0)
		strbuf_addf(out, "error: %s", error_last());
	strbuf_release(&tree);
}

static void test_hash(void)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, p = STRBUF_INIT;
	struct strvec touched = STRVEC_INIT;
	int ret;

	put("tools/testing/selftests/Makefile", "all:\n");
	put("tools/testing/selftests/lib.mk", "# lib\n");
	put("tools/testing/selftests/kselftest/runner.sh", "#!/bin/sh\n");
	put("tools/testing/selftests/cgroup/Makefile", "include ../lib.mk\n");
	put("tools/testing/selftests/cgroup/test_core.c", "int main(){}\n");
	put("tools/testing/selftests/timers/posix_timers.c", "int main(){}\n");
	put("kernel/cgroup/cgroup.c", "void f(void) {}\n");
	put("tools/include/x.h", "#define X 1\n");

	hash(&a, "cgroup", NULL);
	ok(a.len == 12 && !strchr(a.buf, ' '), "key is 12 hex digits (%s)",
	   a.buf);
	hash(&b, "cgroup", NULL);
	is_str(b.buf, a.buf, "same tree, same key");

	put("tools/testing/selftests/timers/posix_timers.c", "int main(){return 1;}\n");
	hash(&b, "cgroup", NULL);
	is_str(b.buf, a.buf, "another target's change does not count");

	strvec_push(&touched, "kernel/cgroup/cgroup.c");
	hash(&b, "cgroup", &touched);
	is_str(b.buf, a.buf, "a series touching only kernel code reuses the build");

	strvec_push(&touched, "tools/include/x.h");
	hash(&b, "cgroup", &touched);
	ok(strcmp(b.buf, a.buf), "a touched file under tools/ changes the key");

	put("tools/testing/selftests/cgroup/test_core.c", "int main(){return 2;}\n");
	hash(&b, "cgroup", NULL);
	ok(strcmp(b.buf, a.buf), "the target's own source changes the key");
	strbuf_reset(&a);
	strbuf_addbuf(&a, &b);

	put("tools/testing/selftests/lib.mk", "# lib 2\n");
	hash(&b, "cgroup", NULL);
	ok(strcmp(b.buf, a.buf), "lib.mk changes the key");

	strbuf_addf(&p, "%s/tree", tmp);
	strbuf_reset(&b);
	ret = kselftest_hash(&b, p.buf, "nosuch", "6.1.192", NULL);
	ok(ret == WW_ENOTFOUND && strstr(error_last(), "'nosuch'"),
	   "unknown target: %s", error_last());
	ret = kselftest_hash(&b, p.buf, "../../etc", "6.1.192", NULL);
	is(ret, WW_EINPUT, "a target leaving the tree is refused");
	ret = kselftest_hash(&b, p.buf, "/etc", "6.1.192", NULL);
	is(ret, WW_EINPUT, "an absolute target is refused");

	strvec_clear(&touched);
	strbuf_release(&p);
	strbuf_release(&b);
	strbuf_release(&a);
}

/* The 6.1 tree warnwatch extracted, if this machine has one. */
static bool is_static(const char *path)
{
	struct child c = CHILD_INIT;
	bool ret;

	strvec_pushl(&c.args, "readelf", "-lW", path, NULL);
	ret = child_run_ok(&c) == 0 && strstr(c.out.buf, "LOAD") &&
	      !strstr(c.out.buf, "INTERP");
	child_release(&c);
	return ret;
}

static void test_build(void)
{
	struct kselftest_opts o = KSELFTEST_OPTS_INIT;
	struct kselftest_result r = KSELFTEST_RESULT_INIT;
	struct kselftest_result r2 = KSELFTEST_RESULT_INIT;
	struct strvec targets = STRVEC_INIT;
	struct strbuf tree = STRBUF_INIT, cache = STRBUF_INIT, p = STRBUF_INIT;
	struct strbuf version = STRBUF_INIT;
	struct stat st;
	int ret;

	if (getenv("WW_SKIP_SLOW")) {
		skip("check-fast: WW_SKIP_SLOW", "cgroup builds statically");
		skip("check-fast: WW_SKIP_SLOW", "cached rebuild");
		skip("check-fast: WW_SKIP_SLOW", "timers partial build");
		goto out;
	}
	ret = basetree_get(&tree, &version);
	if (ret == WW_ENOTFOUND) {
		skip("not-installed: linux-source-6.1", "cgroup builds statically");
		skip("not-installed: linux-source-6.1", "cached rebuild");
		skip("not-installed: linux-source-6.1", "timers partial build");
		goto out;
	}
	if (!ok(!ret, "the 6.1 base tree (%s)", version.buf)) {
		printf("# %s\n", error_last());
		goto out;
	}
	strbuf_addf(&cache, "%s/cache", tmp);
	o.cache_dir = cache.buf;
	o.base = version.buf;
	o.jobs = 2;
	strvec_pushl(&targets, "cgroup", "timers", NULL);
	ret = kselftest_build(&r, tree.buf, &targets, &o);
	if (!ok(ret == 0 && r.nr == 2, "cgroup and timers build (%.1f s)",
		r.seconds)) {
		printf("# %s\n", error_last());
		goto out;
	}
	strbuf_addf(&p, "%s/cgroup/test_core", r.v[0].install_dir);
	ok(r.v[0].complete && !r.v[0].cached && is_static(p.buf),
	   "cgroup complete, test_core is a static binary (%.1f s)",
	   r.v[0].seconds);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/kselftest-list.txt", r.v[0].install_dir);
	ok(stat(p.buf, &st) == 0 && st.st_size > 0, "cgroup has its test list");

	strbuf_reset(&p);
	strbuf_addf(&p, "%s/timers/posix_timers", r.v[1].install_dir);
	ok(!r.v[1].complete && is_static(p.buf),
	   "timers partial, posix_timers installed anyway");
	ok(strstr(r.v[1].error.buf, "clock_adjtime") != NULL,
	   "timers error quotes the link error");
	printf("# %s\n", r.v[1].error.buf);

	ret = kselftest_build(&r2, tree.buf, &targets, &o);
	ok(ret == 0 && r2.nr == 2 && r2.v[0].cached && r2.v[1].cached &&
	   r2.v[0].complete && !r2.v[1].complete &&
	   !strcmp(r2.v[1].error.buf, r.v[1].error.buf) &&
	   !strcmp(r2.v[0].install_dir, r.v[0].install_dir),
	   "second run comes from the cache (%.2f s)", r2.seconds);
out:
	kselftest_result_release(&r2);
	kselftest_result_release(&r);
	strvec_clear(&targets);
	strbuf_release(&p);
	strbuf_release(&version);
	strbuf_release(&cache);
	strbuf_release(&tree);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_hash();
	test_build();
	cleanup();
	return done_testing();
}
