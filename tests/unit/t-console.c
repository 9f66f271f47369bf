/*
 * Tests for console.c: KTAP results, WARNING/BUG reports, panics, on small
 * hand-made logs (formats copied from 6.1's lib/kunit/test.c, kernel/
 * panic.c and lib/bug.c) and on real console logs of linux 6.1.192
 * booted in QEMU (tests/unit/data/console/).
 */
#include "console.h"

#include "tap.h"

static void parse(struct console_result *r, const char *text)
{
	console_result_release(r);
	console_parse(r, text, strlen(text));
}

#define T "[    0.500000] "

static void test_ktap(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;
	const struct ktap_suite *su;

	parse(&r,
	      "[    0.000000] Linux version 6.1.192 (x@y) #1\r\n"
	      T "KTAP version 1\r\n"
	      T "1..3\r\n"
	      T "    KTAP version 1\r\n"
	      T "    # Subtest: time_test_cases\r\n"
	      T "    1..1\r\n"
	      T "    ok 1 time64_to_tm_test_date_range\r\n"
	      T "ok 1 time_test_cases\r\n"
	      T "    KTAP version 1\r\n"
	      T "    # Subtest: params\r\n"
	      T "    1..2\r\n"
	      T "        KTAP version 1\r\n"
	      T "        # Subtest: case_p\r\n"
	      T "        ok 1 one\r\n"
	      T "        not ok 2 two\r\n"
	      T "    # case_p: pass:1 fail:1 skip:0 total:2\r\n"
	      T "    not ok 1 case_p\r\n"
	      T "    ok 2 case_s # SKIP no hardware\r\n"
	      T "not ok 2 params\r\n"
	      T "    KTAP version 1\r\n"
	      T "    # Subtest: skipped_suite\r\n"
	      T "    1..1\r\n"
	      T "    ok 1 - only # SKIP why\r\n"
	      T "ok 3 - skipped_suite # SKIP why\r\n"
	      "[    0.600000] reboot: Restarting system\r\n");
	ok(r.booted, "Linux version line: booted");
	ok(r.tests_started, "KTAP header seen");
	is(r.planned_suites, 3, "top-level plan 1..3");
	is(r.nr_suites, 3, "three suites");
	ok(r.tests_finished, "every planned suite reported");
	ok(r.rebooted, "kunit_shutdown=reboot seen");
	ok(!r.panicked && !r.nr_fired, "nothing fired");
	su = console_find_suite(&r, "time_test_cases");
	ok(su && su->result == KTAP_PASS && su->pass == 1 && su->planned == 1,
	   "time_test_cases passed 1/1");
	su = console_find_suite(&r, "params");
	ok(su && su->result == KTAP_FAIL, "params failed");
	ok(su && su->nr_cases == 2 && su->fail == 1 && su->skip == 1,
	   "parameterised case counted once, params not as cases");
	su = console_find_suite(&r, "skipped_suite");
	ok(su && su->result == KTAP_SKIP, "suite-level SKIP directive, 'ok N - name' form");
	is_str(su ? su->cases[0].name : NULL, "only", "'- ' and directive stripped");
	console_result_release(&r);
}

static const char warn_log[] =
	"[    0.000000] Linux version 6.1.192\n"
	T "KTAP version 1\n"
	T "1..2\n"
	T "    KTAP version 1\n"
	T "    # Subtest: time_test_cases\n"
	T "    1..1\n"
	"[    0.910000] ------------[ cut here ]------------\n"
	"[    0.910001] WARNING: CPU: 0 PID: 20 at kernel/time/timeconv.c:55 time64_to_tm+0x1e0/0x1f0\n"
	"[    0.910002] Modules linked in:\n"
	"[    0.910003] CPU: 0 PID: 20 Comm: kunit_try_catch Not tainted 6.1.192 #1\n"
	"[    0.910004] RIP: 0010:time64_to_tm+0x1e0/0x1f0\n"
	"[    0.910005] Call Trace:\n"
	"[    0.910006]  <TASK>\n"
	"[    0.910007]  ? __warn+0x7d/0xc0\n"
	"[    0.910008]  time64_to_tm_test_date_range+0x6b/0x130\n"
	"[    0.910009]  kunit_try_run_case+0x4e/0x90\n"
	"[    0.910010]  </TASK>\n"
	"[    0.910011] Kernel panic - not syncing: kernel: panic_on_warn set ...\n"
	"[    0.910012] CPU: 0 PID: 20 Comm: kunit_try_catch Not tainted 6.1.192 #1\n"
	"[    0.910013] Call Trace:\n"
	"[    0.910014]  panic+0x10c/0x2c0\n"
	"[    0.910015] Kernel Offset: disabled\n";

static void test_warn_panic(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;
	const struct fired *f;

	parse(&r, warn_log);
	is(r.nr_fired, 1, "one report");
	f = r.fired;
	ok(r.nr_fired && f->kind == FIRED_WARN, "it is a WARNING");
	is_str(f->file, "kernel/time/timeconv.c", "file");
	is(f->line, 55, "line");
	is_str(f->function, "time64_to_tm", "function without offsets");
	is_str(f->suite, "time_test_cases", "suite running when it fired");
	is_str(f->test, "time64_to_tm_test_date_range",
	       "test case from the frame below kunit_try_run_case");
	is_str(f->trace, "time64_to_tm+0x1e0/0x1f0\n"
	       "time64_to_tm_test_date_range+0x6b/0x130\n"
	       "kunit_try_run_case+0x4e/0x90\n",
	       "trace trimmed: no '?' frames, no <TASK>, not the panic's");
	ok(r.panicked, "panicked");
	is_str(r.panic_message, "kernel: panic_on_warn set ...", "panic message");
	is_str(r.panic_suite, "time_test_cases", "panic suite");
	ok(!r.tests_finished, "suites did not finish");
	is(r.warn_count, 1, "warn_count");
	ok(console_find_suite(&r, "time_test_cases")->result == KTAP_CRASHED,
	   "suite without a result line crashed");
	console_result_release(&r);
}

static void test_not_fooled(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;

	parse(&r,
	      T "acpi: WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n"
	      T "WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n"
	      T "WARNING: the frobnicator is deprecated\n"
	      T "kernel BUG at nowhere.c:3!\n");
	is(r.nr_fired, 0, "WARNING text without 'cut here' or mid-line is no report");
	parse(&r,
	      T "KTAP version 1\n"
	      T "1..1\n"
	      T "    # Subtest: names\n"
	      T "    ok 1 WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n"
	      T "    # WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2\n"
	      T "ok 1 names\n");
	is(r.nr_fired, 0, "a test named like a WARNING is a test");
	is_str(r.suites[0].cases[0].name, "WARNING: CPU: 0 PID: 1 at a.c:1 f+0x1/0x2",
	       "its name kept");
	parse(&r,
	      T "------------[ cut here ]------------\n"
	      T "WARNING: this is a message\n");
	is(r.nr_fired, 0, "'cut here' then a malformed WARNING line: none");
	console_result_release(&r);
}

static void test_forms(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;

	parse(&r,
	      "------------[ cut here ]------------\n"
	      "WARNING: lib/foo.c:12 at foo_bar+0x10/0x20, CPU#1: kunit_try_catch/42\n");
	ok(r.nr_fired == 1 && r.fired[0].line == 12 &&
	   !strcmp(r.fired[0].file, "lib/foo.c") &&
	   !strcmp(r.fired[0].function, "foo_bar"),
	   "newer 'WARNING: FILE:LINE at FUNC' form, no timestamps");
	parse(&r,
	      T "------------[ cut here ]------------\n"
	      T "refcount_t: underflow; use-after-free.\n"
	      T "WARNING: CPU: 1 PID: 7 at lib/refcount.c:28 refcount_warn_saturate+0x9c/0xe0 [mod]\n");
	ok(r.nr_fired == 1 && !strcmp(r.fired[0].message,
				      "refcount_t: underflow; use-after-free."),
	   "WARN()'s own message kept");
	is_str(r.fired[0].function, "refcount_warn_saturate", "module suffix dropped");
	parse(&r,
	      T "------------[ cut here ]------------\n"
	      T "WARNING: CPU: 0 PID: 1 at fn_only+0x1/0x2\n");
	ok(r.nr_fired == 1 && !r.fired[0].file && !strcmp(r.fired[0].function, "fn_only"),
	   "WARNING without file info");
	parse(&r,
	      "[   12.000001] [    T1] ------------[ cut here ]------------\n"
	      "[   12.000002] [    T1] kernel BUG at mm/slub.c:4321!\n"
	      "[   12.000003] [    T1] invalid opcode: 0000 [#1] PREEMPT SMP NOPTI\n"
	      "[   12.000004] [    T1] RIP: 0010:kfree+0x1/0x2\n"
	      "[   12.000005] [    T1] Oops: 0000 [#1]\n"
	      "[   12.000006] [    T1] ---[ end trace 0000000000000000 ]---\n"
	      "[   12.000007] [    T1] Kernel panic - not syncing: Fatal exception\n");
	ok(r.nr_fired == 1 && r.fired[0].kind == FIRED_BUG &&
	   r.fired[0].line == 4321 && !strcmp(r.fired[0].file, "mm/slub.c"),
	   "kernel BUG at FILE:LINE!, with PRINTK_CALLER prefix");
	is_str(r.fired[0].function, "kfree", "function from RIP");
	ok(r.panicked && !strcmp(r.panic_message, "Fatal exception"), "oops panic");
	parse(&r,
	      T "BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	      T "#PF: supervisor read access in kernel mode\n"
	      T "Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
	      T "RIP: 0010:do_thing+0x5/0x10\n"
	      T "BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580\n");
	is(r.nr_fired, 2, "oops reports: the Oops line belongs to its BUG:");
	ok(r.nr_fired == 2 && r.fired[0].kind == FIRED_OOPS &&
	   !strcmp(r.fired[0].function, "do_thing"), "NULL deref, function from RIP");
	ok(r.nr_fired == 2 && r.fired[1].line == 580, "might_sleep location");
	console_result_release(&r);
}

static void test_second_boot_case(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;

	parse(&r,
	      T "KTAP version 1\n"
	      T "1..1\n"
	      T "    KTAP version 1\n"
	      T "    # Subtest: s\n"
	      T "    1..2\n"
	      T "    ok 1 first\n"
	      T "------------[ cut here ]------------\n"
	      T "WARNING: CPU: 0 PID: 9 at a/b.c:7 f+0x1/0x2\n"
	      T "---[ end trace 0000000000000000 ]---\n"
	      T "    ok 2 second\n"
	      T "ok 1 s\n");
	ok(r.nr_fired == 1 && r.fired[0].test && !strcmp(r.fired[0].test, "second"),
	   "panic_on_warn=0: the case reporting after the WARN ran it");
	ok(!r.panicked && r.tests_finished, "finished without panic");
	console_result_release(&r);
}

static void test_empty(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;

	parse(&r, "");
	ok(!r.booted && !r.nr_lines && r.planned_suites == -1, "empty log");
	console_parse(&r, "\0\0\0garbage\n[ no stamp", 20);
	ok(!r.booted, "NULs and a cut line do not crash");
	console_result_release(&r);
}

/* Real logs captured from linux 6.1.192 in QEMU (see data/console/README). */
static const char *data_dir(void)
{
	const char *top = getenv("WW_TOP");
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/tests/unit/data/console", top ? top : ".");
	return buf;
}

static int real(struct console_result *r, const char *name)
{
	char path[4200];

	console_result_release(r);
	snprintf(path, sizeof(path), "%s/%s", data_dir(), name);
	return console_parse_file(r, path);
}

static void test_real_logs(void);

/* kernel-ci/init's markers: user-space tests, what fired in them, and
 * user space's own KTAP not mistaken for KUnit suites. */
static void test_user_space(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;

	parse(&r,
	      "[    0.000000] Linux version 6.1.192 (x@y) #1\r\n"
	      T "KTAP version 1\r\n"
	      T "1..1\r\n"
	      T "    KTAP version 1\r\n"
	      T "    # Subtest: time_test_cases\r\n"
	      T "    1..1\r\n"
	      T "    ok 1 time64_to_tm_test_date_range\r\n"
	      T "ok 1 time_test_cases\r\n"
	      "[    1.000000] warnwatch: init start\r\n"
	      "[    1.100000] warnwatch: begin cgroup:test_core\r\n"
	      "TAP version 13\r\n"
	      "1..2\r\n"
	      "ok 1 test_cgcore_internal_process_constraint\r\n"
	      "ok 2 test_cgcore_populated\r\n"
	      "[    2.000000] warnwatch: end cgroup:test_core result=pass rc=0\r\n"
	      "[    2.100000] warnwatch: begin cgroup:test_kill\r\n"
	      "[    2.200000] warnwatch: end cgroup:test_kill result=timeout rc=124\r\n"
	      "[    2.300000] warnwatch: begin workload:ext4 image=ext4-1k-default dev=/dev/vdb\r\n"
	      "KTAP version 1\r\n"
	      "1..13\r\n"
	      "ok 1 mount\r\n"
	      T "------------[ cut here ]------------\r\n"
	      T "WARNING: CPU: 0 PID: 77 at fs/ext4/namei.c:2003 do_split+0x1e0/0x1f0\r\n"
	      T "Kernel panic - not syncing: kernel: panic_on_warn set ...\r\n");
	is(r.nr_suites, 1, "user space's TAP is not a KUnit suite");
	ok(r.tests_finished, "KUnit finished");
	ok(r.init_started && !r.init_done, "init started, never done");
	is(r.nr_utests, 3, "three user-space tests");
	is_str(r.utests[0].name, "cgroup:test_core", "first: cgroup:test_core");
	is_str(r.utests[0].result, "pass", "... passed");
	is(r.utests[0].rc, 0, "... rc 0");
	is_str(r.utests[1].result, "timeout", "test_kill timed out");
	is(r.utests[1].rc, 124, "... rc 124");
	is_str(r.utests[2].image, "ext4-1k-default", "workload image");
	ok(r.utests[2].result == NULL, "the workload never ended");
	is(r.nr_fired, 1, "one WARNING");
	is_str(r.fired[0].suite, "workload:ext4", "it fired in the workload");
	is_str(r.fired[0].test, "ext4-1k-default", "... on that image");
	is_str(r.panic_suite, "workload:ext4", "the panic names the workload");
	parse(&r, "warnwatch: init start\nwarnwatch: gcov files=2 dev=/dev/vda result=ok\n"
	      "warnwatch: init done\n");
	ok(r.init_done, "init done");
	is_str(r.gcov_result, "ok", "gcov result");
	is(r.gcov_files, 2, "gcov files");
	console_result_release(&r);
}

/* Issue 26: fingerprints as syzbot/NIPA group reports. */
static void test_fingerprint(void)
{
	struct strbuf fp = STRBUF_INIT;

	console_fingerprint(&fp, FIRED_WARN, "cgroup_mkdir",
			    "cgroup_mkdir+0x386/0x730\nkernfs_iop_mkdir+0x4b/0x70\n"
			    "vfs_mkdir.isra.0+0xe8/0x190\ndo_mkdirat+0x9a/0x130\n"
			    "__x64_sys_mkdir+0x21/0x30\n", NULL);
	is_str(fp.buf, "warn:cgroup_mkdir/kernfs_iop_mkdir/vfs_mkdir/do_mkdirat",
	       "fingerprint: function, three frames, no offsets or suffixes");
	strbuf_reset(&fp);
	console_fingerprint(&fp, FIRED_OOPS, NULL, "ext4_rename+0x1/0x2\nvfs_rename+0x3/0x4\n",
			    "BUG: kernel NULL pointer dereference");
	is_str(fp.buf, "oops:ext4_rename/vfs_rename", "no function: the frames");
	strbuf_reset(&fp);
	console_fingerprint(&fp, FIRED_BUG, NULL, NULL, "kernel BUG at x.c:1!");
	is_str(fp.buf, "bug:kernel BUG at x.c:1!", "nothing else: the message");
	strbuf_release(&fp);
}

/* Item 4 of issue 34: the system call a report's stack came from. */
static void test_syscall_entry(void)
{
	static const struct {
		const char *frame, *entry, *name;
	} c[] = {
		{ "__x64_sys_mkdir+0x21/0x30", "__x64_sys_mkdir", "mkdir" },
		{ "__arm64_sys_ioctl+0x9c/0xe0", "__arm64_sys_ioctl", "ioctl" },
		{ "__do_sys_mkdirat+0x1/0x2", "__do_sys_mkdirat", "mkdirat" },
		{ "__x64_compat_sys_ioctl+0x1/0x2 [x]", "__x64_compat_sys_ioctl", "ioctl" },
		{ "ksys_mount+0x1/0x2", NULL, NULL },
		{ "do_syscall_64+0x3b/0x90", NULL, NULL },
		{ "__x64_sys_+0x1/0x2", NULL, NULL },
		{ "my__x64_sys_mkdir+0x1/0x2", NULL, NULL },
	};
	struct strbuf entry = STRBUF_INIT, name = STRBUF_INIT, log = STRBUF_INIT;
	struct console_result r = CONSOLE_RESULT_INIT;
	const char *t;

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		bool yes = console_syscall_entry(&entry, &name, c[i].frame);

		ok(c[i].entry ? yes && !strcmp(entry.buf, c[i].entry) && !strcmp(name.buf, c[i].name)
			      : !yes, "syscall entry: %s (%s)", c[i].frame, yes ? name.buf : "none");
	}
	/* A stack deeper than the frames kept still names its system call. */
	strbuf_addstr(&log, "------------[ cut here ]------------\n"
		      "WARNING: CPU: 0 PID: 90 at fs/a.c:3 f0+0x1/0x2\nCall Trace:\n <TASK>\n");
	for (int i = 0; i < CONSOLE_TRACE_FRAMES + 3; i++)
		strbuf_addf(&log, " f%d+0x1/0x2\n", i);
	strbuf_addstr(&log, " __x64_sys_mkdir+0x21/0x30\n do_syscall_64+0x3b/0x90\n </TASK>\n"
		      "---[ end trace 0000000000000000 ]---\n");
	parse(&r, log.buf);
	t = r.nr_fired ? r.fired[0].trace : NULL;
	ok(t && strstr(t, "f11+0x1/0x2\n...\n__x64_sys_mkdir+0x21/0x30\n") && !strstr(t, "f12+") &&
	   !strstr(t, "do_syscall_64"), "a deep stack: the frames kept, '...', the system call");
	ok(t && console_trace_syscall(&entry, &name, t) && !strcmp(name.buf, "mkdir"),
	   "... which console_trace_syscall() finds");
	console_result_release(&r);
	strbuf_release(&entry);
	strbuf_release(&name);
	strbuf_release(&log);
}

int main(void)
{
	test_fingerprint();
	test_syscall_entry();
	test_ktap();
	test_warn_panic();
	test_not_fooled();
	test_forms();
	test_second_boot_case();
	test_empty();
	test_real_logs();
	test_user_space();
	return done_testing();
}

static void test_real_logs(void)
{
	struct console_result r = CONSOLE_RESULT_INIT;

	/* The logs are committed: one that does not parse is a failure,
	 * never a skip that hides the checks below (issue 36). */
	if (!ok(real(&r, "clean-6.1.192.log") == 0, "the committed clean log parses")) {
		printf("# %s\n", error_last());
		return;
	}
	ok(r.booted && r.tests_finished && r.rebooted && !r.panicked,
	   "clean boot: finished and rebooted");
	is(r.planned_suites, 28, "clean boot: 28 suites planned");
	is(r.nr_suites, 28, "clean boot: 28 suites reported");
	is(r.nr_fired, 0, "clean boot: nothing fired");
	ok(console_find_suite(&r, "time_test_cases") &&
	   console_find_suite(&r, "time_test_cases")->result == KTAP_PASS,
	   "clean boot: time_test_cases passed");
	ok(console_find_suite(&r, "hw_breakpoint") &&
	   console_find_suite(&r, "hw_breakpoint")->result == KTAP_SKIP &&
	   console_find_suite(&r, "hw_breakpoint")->skip == 9,
	   "clean boot: hw_breakpoint skipped, 9 cases");
	ok(console_find_suite(&r, "stackinit") &&
	   console_find_suite(&r, "stackinit")->pass == 60 &&
	   console_find_suite(&r, "stackinit")->skip == 5,
	   "clean boot: stackinit 60 passed, 5 skipped");

	if (real(&r, "warn-panic-6.1.192.log") < 0) {
		ok(0, "warn-panic log: %s", error_last());
		return;
	}
	ok(r.booted && r.panicked && !r.tests_finished && !r.rebooted,
	   "WARN with panic_on_warn=1: panicked before the suites finished");
	is_str(r.panic_message, "kernel: panic_on_warn set ...", "panic message");
	is(r.nr_fired, 1, "one WARNING");
	if (r.nr_fired == 1) {
		const struct fired *f = r.fired;

		is_str(f->file, "../src/kernel/time/timeconv.c", "file as the sandboxed build names it");
		is(f->line, 55, "the added line");
		is_str(f->function, "time64_to_tm", "function");
		is_str(f->suite, "time_test_cases", "suite");
		is_str(f->test, "time64_to_tm_test_date_range", "test case from the trace");
		is_str(f->trace, "time64_to_tm+0x1e0/0x1f0\n"
		       "time64_to_tm_test_date_range+0xbe/0x370\n"
		       "kunit_try_run_case+0x4b/0x70\n"
		       "kunit_generic_run_threadfn_adapter+0x11/0x20\n"
		       "kthread+0xb0/0xe0\n"
		       "ret_from_fork+0x22/0x30\n",
		       "trace: RIP first, no '?' frames, not the panic's own");
	}
	is(r.planned_suites, 28, "28 suites planned");
	ok(r.nr_suites == 1 && r.suites[0].result == KTAP_CRASHED,
	   "the suite that panicked is crashed, none after it ran");

	if (real(&r, "warn-flood-nopanic-6.1.192.log") < 0) {
		ok(0, "flood log: %s", error_last());
		return;
	}
	ok(!r.panicked && !r.tests_finished, "panic_on_warn=0 flood: no panic, cut short");
	is(r.warn_count, 96, "every WARNING block of the first 150 KB counted");
	is(r.nr_fired, 96, "each one a report");
	ok(r.nr_fired && r.fired[95].line == 55 &&
	   !strcmp(r.fired[95].suite, "time_test_cases"), "all the same line, same suite");
	console_result_release(&r);
}
