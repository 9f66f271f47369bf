/*
 * Unit tests for kconfig.c: fragment merging, normal form and hash, what
 * olddefconfig dropped, and suite selection on the real extracted tree
 * (basetree.h: the cache's, or extracted now).
 */
#include "kconfig.h"
#include "tap.h"
#include "basetree.h"

#include <unistd.h>

static int parse(struct kconfig_frag *f, const char *text, const char *name)
{
	return kconfig_frag_parse(f, text, strlen(text), name);
}

static void test_frag(void)
{
	struct kconfig_frag f = KCONFIG_FRAG_INIT, got = KCONFIG_FRAG_INIT;
	struct strbuf sb = STRBUF_INIT, h1 = STRBUF_INIT, h2 = STRBUF_INIT;
	struct strvec miss = STRVEC_INIT;
	const char *base =
		"# a comment\n"
		"CONFIG_KUNIT=y\n"
		"\n"
		"CONFIG_DEBUG_VM=y\r\n"
		"# CONFIG_LOCALVERSION_AUTO is not set\n"
		"CONFIG_LOCALVERSION=\"\"\n"
		"CONFIG_KUNIT=m\n";

	is(kconfig_frag_parse(&f, base, strlen(base), "base.config"), 0,
	   "parse a fragment");
	is(f.nr, 4, "four symbols (a repeated one replaced)");
	is_str(kconfig_frag_get(&f, "KUNIT")->value, "m", "later line wins");
	ok(kconfig_frag_get(&f, "LOCALVERSION_AUTO") &&
	   !kconfig_frag_get(&f, "LOCALVERSION_AUTO")->value,
	   "'is not set' is kept as a NULL value");
	kconfig_frag_set(&f, "KUNIT", "y");
	kconfig_frag_format(&sb, &f);
	is_str(sb.buf, "CONFIG_DEBUG_VM=y\nCONFIG_KUNIT=y\n"
	       "CONFIG_LOCALVERSION=\"\"\n"
	       "# CONFIG_LOCALVERSION_AUTO is not set\n",
	       "normal form is sorted, one line per symbol");
	kconfig_frag_hash(&h1, &f);
	is(h1.len, 12, "hash has 12 hex digits");
	/* The same set in another order hashes the same. */
	kconfig_frag_release(&f);
	is(parse(&f, "# CONFIG_LOCALVERSION_AUTO is not set\n"
			      "CONFIG_LOCALVERSION=\"\"\nCONFIG_KUNIT=y\n"
			      "CONFIG_DEBUG_VM=y\n", "x"), 0,
	   "parse the same set reordered");
	kconfig_frag_hash(&h2, &f);
	is_str(h2.buf, h1.buf, "order does not change the hash");
	/* The hash is the git blob id of the normal form: check one value. */
	kconfig_frag_release(&f);
	parse(&f, "CONFIG_A=y\n", "x");
	strbuf_reset(&h2);
	kconfig_frag_hash(&h2, &f);
	is_str(h2.buf, "abd280e2f616", "hash = git hash-object of the normal form");

	is(parse(&f, "CONFIG_A=y\nrubbish\n", "frag"),
	   WW_EINPUT, "a line that is not config is an error");
	is_str(error_last(), "'frag' line 2: not a config line: 'rubbish'",
	       "the message names the fragment and line");

	kconfig_frag_release(&f);
	parse(&f, "CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n"
			   "CONFIG_D=\"x\"\n# CONFIG_E is not set\n", "want");
	parse(&got, "CONFIG_A=y\nCONFIG_C=y\nCONFIG_D=\"x\"\n"
			   "# CONFIG_B is not set\n", "got");
	kconfig_frag_missing(&miss, &f, &got);
	is(miss.nr, 2, "two requested options were dropped");
	is_str(miss.nr > 0 ? miss.v[0] : NULL, "CONFIG_B=y (got: not set)",
	       "a dropped =y option");
	is_str(miss.nr > 1 ? miss.v[1] : NULL,
	       "# CONFIG_C is not set (got: y)", "an option that stayed on");

	strvec_clear(&miss);
	kconfig_frag_release(&got);
	kconfig_frag_release(&f);
	strbuf_release(&h2);
	strbuf_release(&h1);
	strbuf_release(&sb);
}

static bool has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

static void test_base_config(void)
{
	struct kconfig_frag f = KCONFIG_FRAG_INIT;
	const char *top = getenv("WW_TOP");
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/kernel-ci/base.config", top ? top : ".");
	is(kconfig_frag_read(&f, path.buf), 0, "kernel-ci/base.config parses");
	ok(kconfig_frag_get(&f, "KUNIT") && kconfig_frag_get(&f, "DEBUG_VM") &&
	   kconfig_frag_get(&f, "SERIAL_8250_CONSOLE") &&
	   kconfig_frag_get(&f, "LOCALVERSION_AUTO"),
	   "base.config has KUNIT, DEBUG_VM, the serial console, no LOCALVERSION_AUTO");
	kconfig_frag_release(&f);
	strbuf_release(&path);
}

static void select_for(struct kconfig_suites *out, const char *tree,
		       const char *file)
{
	struct strvec touched = STRVEC_INIT;

	strvec_push(&touched, file);
	kconfig_suites_release(out);
	kconfig_select_suites(out, tree, &touched);
	strvec_clear(&touched);
}

static void test_select(void)
{
	struct strbuf tree = STRBUF_INIT, version = STRBUF_INIT;
	struct kconfig_suites s = KCONFIG_SUITES_INIT;
	int ret = basetree_get(&tree, &version);

	if (ret == WW_ENOTFOUND) {
		skip("not-installed: linux-source-6.1", "suite selection (%s)", error_last());
		goto out;
	}
	if (!ok(!ret, "the base tree, %s, to select suites in", version.buf)) {
		printf("# %s\n", error_last());
		goto out;
	}

	select_for(&s, tree.buf, "kernel/time/timeconv.c");
	ok(has(&s.tests, "TIME_KUNIT_TEST"), "timeconv.c -> TIME_KUNIT_TEST");
	ok(has(&s.suites, "time_test_cases"), "... suite time_test_cases");
	ok(!has(&s.tests, "TEST_UDELAY"),
	   "a test that does not depend on KUNIT is not taken");

	select_for(&s, tree.buf, "fs/ext4/inode.c");
	ok(has(&s.tests, "EXT4_KUNIT_TESTS"), "fs/ext4/inode.c -> EXT4_KUNIT_TESTS");
	ok(has(&s.symbols, "EXT4_FS"), "... and the EXT4_FS it depends on");
	ok(has(&s.suites, "ext4_inode_test"), "... suite ext4_inode_test");
	ok(!has(&s.symbols, "BLOCK"),
	   "... but not BLOCK, which EXT4_FS needs from another subsystem");

	select_for(&s, tree.buf, "lib/cmdline.c");
	ok(has(&s.tests, "CMDLINE_KUNIT_TEST"), "lib/cmdline.c -> CMDLINE_KUNIT_TEST");
	ok(has(&s.suites, "cmdline"), "... suite cmdline");
	is(s.tests.nr, 1, "... only it: the test named after the file");
	ok(!has(&s.symbols, "FORTIFY_SOURCE") && !has(&s.symbols, "FUNCTION_TRACER"),
	   "... and nothing that changes how everything compiles");

	select_for(&s, tree.buf, "lib/list_sort.c");
	ok(has(&s.tests, "TEST_LIST_SORT") && s.tests.nr == 1,
	   "lib/list_sort.c -> test_list_sort.o's TEST_LIST_SORT");

	select_for(&s, tree.buf, "lib/ucs2_string.c");
	ok(s.tests.nr > 5 && has(&s.tests, "CMDLINE_KUNIT_TEST"),
	   "lib/ucs2_string.c (no test named after it) -> the KUnit tests of lib/");
	ok(!has(&s.symbols, "FORTIFY_SOURCE") && !has(&s.symbols, "KPROBES") &&
	   !has(&s.symbols, "FUNCTION_TRACER") && !has(&s.symbols, "DYNAMIC_FTRACE"),
	   "... without tracing, kprobes or fortify (they rebuild everything)");

	select_for(&s, tree.buf, "drivers/clk/clk-gate.c");
	ok(has(&s.tests, "CLK_GATE_KUNIT_TEST"), "clk-gate.c -> CLK_GATE_KUNIT_TEST");
	ok(has(&s.symbols, "COMMON_CLK"), "... and COMMON_CLK (x86 does not select it)");
	ok(has(&s.suites, "clk-gate-register-test"), "... suite clk-gate-register-test");

	select_for(&s, tree.buf, "Makefile");
	is(s.tests.nr, 0, "a top-level file selects nothing");

	select_for(&s, tree.buf, "drivers/nonexistent/foo.c");
	is(s.tests.nr, 0, "a directory that does not exist selects nothing");
out:
	kconfig_suites_release(&s);
	strbuf_release(&version);
	strbuf_release(&tree);
}

int main(void)
{
	test_frag();
	test_base_config();
	test_select();
	return done_testing();
}
