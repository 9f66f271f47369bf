/*
 * Unit tests for bot/kernel-ci/testmap.c: the real kernel-ci/tests.json (cgroup,
 * mm per base, timers without the slow and destructive tests, ext4, fs/),
 * most-specific-entry matching, and malformed files whose errors name the
 * key.
 */
#include "testmap.h"
#include "strbuf.h"
#include "tap.h"

static struct testmap *m;

static bool has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

static const struct testmap_test *find_test(const struct testmap_sel *sel,
					    const char *target, const char *name)
{
	for (size_t i = 0; i < sel->nr_tests; i++)
		if (!strcmp(sel->tests[i].target, target) &&
		    !strcmp(sel->tests[i].name, name))
			return &sel->tests[i];
	return NULL;
}

static void select1(struct testmap_sel *sel, const char *path, const char *base)
{
	struct strvec paths = STRVEC_INIT;

	strvec_push(&paths, path);
	testmap_select(sel, m, &paths, base);
	strvec_clear(&paths);
}

static void test_cgroup(void)
{
	struct testmap_sel sel = TESTMAP_SEL_INIT;
	const struct testmap_test *t;

	select1(&sel, "kernel/cgroup/cgroup.c", "6.12.57");
	ok(sel.kselftests.nr == 1 && has(&sel.kselftests, "cgroup"),
	   "kernel/cgroup/cgroup.c selects the cgroup kselftests only");
	t = find_test(&sel, "cgroup", "test_core");
	ok(t && t->timeout_s > 0 && t->runner == TESTMAP_RUNNER_KSELFTEST,
	   "cgroup:test_core runs under the kselftest runner with a timeout");
	ok(has(&sel.test_names, "cgroup:test_core") &&
	   has(&sel.test_names, "cgroup:test_memcontrol") &&
	   has(&sel.test_names, "cgroup:test_pids"),
	   "test names are target:name, test_pids on 6.12");
	is(sel.test_names.nr, sel.nr_tests, "test_names parallels tests");
	ok(has(&sel.config_fragments, "tools/testing/selftests/cgroup/config"),
	   "the cgroup config fragment is selected");
	ok(has(&sel.tests_skip, "cgroup:test_stress.sh") &&
	   !has(&sel.test_names, "cgroup:test_stress.sh"),
	   "test_stress.sh is skipped, not run");
	ok(testmap_skip_reason(m, "cgroup:test_zswap") != NULL,
	   "a skipped test has a reason");
	ok(!testmap_skip_reason(m, "cgroup:test_core"),
	   "a test that runs has no skip reason");
	testmap_sel_release(&sel);

	select1(&sel, "kernel/cgroup/cgroup.c", "6.1");
	ok(!has(&sel.test_names, "cgroup:test_pids") &&
	   !has(&sel.test_names, "cgroup:test_cpuset") &&
	   has(&sel.test_names, "cgroup:test_kill"),
	   "6.1 has no test_pids or test_cpuset");
	testmap_sel_release(&sel);

	select1(&sel, "mm/memcontrol.c", "6.12");
	ok(sel.kselftests.nr == 1 && has(&sel.kselftests, "cgroup"),
	   "mm/memcontrol.c selects cgroup, not the mm tests (most specific wins)");
	testmap_sel_release(&sel);
}

static void test_mm(void)
{
	struct testmap_sel sel = TESTMAP_SEL_INIT;
	const struct testmap_test *t;

	select1(&sel, "mm/mmap.c", "6.12.57");
	ok(has(&sel.kselftests, "mm") && !has(&sel.kselftests, "vm"),
	   "6.12: the mm target is tools/testing/selftests/mm");
	t = find_test(&sel, "mm", "mremap_dontunmap");
	ok(t && t->runner == TESTMAP_RUNNER_DIRECT,
	   "mm binaries are run directly (TEST_GEN_FILES are not in the runner's list)");
	ok(has(&sel.tests_skip, "mm:transhuge-stress") &&
	   has(&sel.tests_skip, "mm:run_vmtests.sh") &&
	   !find_test(&sel, "mm", "transhuge-stress"),
	   "unbounded mm tests are skipped");
	ok(has(&sel.config_fragments, "tools/testing/selftests/mm/config"),
	   "6.12 mm config fragment");
	testmap_sel_release(&sel);

	select1(&sel, "mm/mmap.c", "6.1.158");
	ok(has(&sel.kselftests, "vm") && !has(&sel.kselftests, "mm"),
	   "6.1: the mm target is tools/testing/selftests/vm");
	ok(has(&sel.test_names, "vm:madv_populate") &&
	   !has(&sel.test_names, "vm:mseal_test"),
	   "6.1 runs vm:madv_populate and has no mseal_test");
	ok(has(&sel.config_fragments, "tools/testing/selftests/vm/config"),
	   "6.1 vm config fragment");
	ok(testmap_skip_reason(m, "vm:transhuge-stress") != NULL,
	   "skip reasons are found under the 6.1 directory name too");
	testmap_sel_release(&sel);
}

static void test_timers(void)
{
	static const char *const never[] = {
		"raw_skew", "inconsistency-check", "threadtest", "set-timer-lat",
		"set-2038", "leap-a-day", "adjtick", "change_skew",
	};
	struct testmap_sel sel = TESTMAP_SEL_INIT;
	bool none = true;

	select1(&sel, "kernel/time/hrtimer.c", "6.12");
	ok(has(&sel.kselftests, "timers") && has(&sel.test_names, "timers:posix_timers") &&
	   has(&sel.test_names, "timers:nanosleep"),
	   "kernel/time/ runs the quick timers tests");
	for (size_t i = 0; i < ARRAY_SIZE(never); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "timers:%s", never[i]);
		if (has(&sel.test_names, sb.buf) || !has(&sel.tests_skip, sb.buf))
			none = false;
		strbuf_release(&sb);
	}
	ok(none, "slow and clock-setting timers tests are skipped");
	ok(has(&sel.kunit_suites, "time_test_cases"), "kernel/time/ adds time_test_cases");
	is(sel.config_fragments.nr, 0, "timers has no config fragment");
	testmap_sel_release(&sel);
}

static void test_fs(void)
{
	struct testmap_sel sel = TESTMAP_SEL_INIT;
	struct strvec paths = STRVEC_INIT;

	select1(&sel, "fs/ext4/namei.c", "6.12");
	ok(has(&sel.workloads, "ext4") && has(&sel.kunit_suites, "ext4_inode_test"),
	   "fs/ext4/ runs the ext4 workload and ext4_inode_test");
	testmap_sel_release(&sel);

	select1(&sel, "fs/jbd2/journal.c", NULL);
	ok(sel.workloads.nr == 1 && has(&sel.workloads, "ext4"),
	   "fs/jbd2/ runs the ext4 workload");
	testmap_sel_release(&sel);

	select1(&sel, "fs/namei.c", "6.1");
	ok(has(&sel.kselftests, "filesystems") && has(&sel.test_names, "filesystems:devpts_pts") &&
	   !sel.workloads.nr,
	   "fs/namei.c runs the filesystems tests, no workload");
	testmap_sel_release(&sel);

	select1(&sel, "fs/namespace.c", "6.1");
	ok(!has(&sel.kselftests, "filesystems/statmount"),
	   "statmount is 6.12 only");
	testmap_sel_release(&sel);

	strvec_pushl(&paths, "fs/ext4/namei.c", "kernel/cgroup/cgroup.c",
		     "fs/ext4/super.c", "Documentation/foo.rst", "mm/memcontrol.c",
		     NULL);
	testmap_select(&sel, m, &paths, "6.12");
	ok(sel.kselftests.nr == 1 && sel.workloads.nr == 1 &&
	   !strcmp(sel.kselftests.v[0], "cgroup") &&
	   sel.kunit_suites.nr == 2,
	   "a series touching several paths: union without duplicates");
	testmap_sel_release(&sel);
	strvec_clear(&paths);

	select1(&sel, "drivers/net/foo.c", "6.12");
	ok(!sel.kselftests.nr && !sel.nr_tests && !sel.workloads.nr &&
	   !sel.kunit_suites.nr, "an unmapped path selects nothing");
	testmap_sel_release(&sel);
}

static void expect_error(const char *json, const char *want, const char *what)
{
	struct testmap *bad = NULL;
	int ret = testmap_load_buf(&bad, json, strlen(json), "t.json");

	ok(ret == WW_EINPUT && !bad && strstr(error_last(), want), "%s", what);
	if (!strstr(error_last(), want))
		printf("#   error: %s\n", error_last());
	testmap_free(bad);
}

static void test_errors(void)
{
	struct testmap *x = NULL;

	expect_error("{", "t.json:", "broken JSON is an error");
	expect_error("{\"targets\": {}, \"map\": [{\"path\": \"kernel/\", \"kselftests\": [\"cgrop\"]}]}",
		     "map[0].kselftests[0]: unknown target 'cgrop'",
		     "an unknown target is named");
	expect_error("{\"targets\": {\"a\": {\"runner\": \"kselftest\", \"tests\": [{\"name\": \"x\"}]}}, \"map\": []}",
		     "targets.a.tests[0].timeout", "a test without a timeout is an error");
	expect_error("{\"targets\": {\"a\": {\"runner\": \"kselftest\", \"tests\": [{\"name\": \"x\", \"timeout\": 5}], \"skip\": [{\"name\": \"y\"}]}}, \"map\": []}",
		     "targets.a.skip[0].reason", "a skip without a reason is an error");
	expect_error("{\"targets\": {\"a\": {\"runner\": \"bash\", \"tests\": []}}, \"map\": []}",
		     "targets.a.runner", "an unknown runner is an error");
	is(testmap_load(&x, "/nonexistent/tests.json"), WW_ENOTFOUND,
	   "a missing file is WW_ENOTFOUND");
}

int main(void)
{
	const char *top = getenv("WW_TOP");
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/kernel-ci/tests.json", top ? top : ".");
	/* The selections below read it: without it there is nothing to test. */
	if (!ok(testmap_load(&m, path.buf) == 0, "kernel-ci/tests.json loads")) {
		printf("Bail out! cannot load %s: %s\n", path.buf, error_last());
		return 1;
	}
	test_cgroup();
	test_mm();
	test_timers();
	test_fs();
	test_errors();
	testmap_free(m);
	strbuf_release(&path);
	return done_testing();
}
