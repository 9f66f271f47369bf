/*
 * Regression tests for what fuzzing (tests/fuzz/) and the hostile set
 * (tests/hostile/) found in other modules: one test per finding, with the
 * input that triggered it.  Most were memory errors that only the
 * sanitizer pass (make check SANITIZE=1) sees fail; the checks here also
 * pin down the behaviour that replaced them.
 */
#include "diff.h"
#include "guide.h"
#include "kconfig.h"
#include "scan.h"
#include "template.h"
#include "tap.h"

/* guide_parse() kept `len` but copied up to the first NUL only. */
static void test_guide_nul(void)
{
	static const char crash[] = "\0\x02";
	static const char text[] = "Title\n=====\nBody\n\0\0\0\nmore\0text\n";
	struct guide g = GUIDE_INIT;

	ok(guide_parse(&g, crash, sizeof(crash) - 1, "crash.rst") == WW_EINPUT,
	   "guide: NUL bytes only: no headings, no overread");
	guide_release(&g);
	ok(guide_parse(&g, text, sizeof(text) - 1, "nul.rst") == 0 && g.nr == 1,
	   "guide: a line of NULs is no underline");
	ok(g.nr == 1 && g.v[0].end == sizeof(text) - 1 && g.len == sizeof(text) - 1 &&
	   !memcmp(g.text, text, sizeof(text) - 1),
	   "guide: the text is kept whole, NULs included");
	guide_release(&g);
}

/* kconfig_frag_format() passed a NULL array to memcpy() and qsort(). */
static void test_kconfig_empty(void)
{
	struct kconfig_frag f = KCONFIG_FRAG_INIT;
	struct strbuf sb = STRBUF_INIT;

	ok(kconfig_frag_parse(&f, "", 0, "empty") == 0, "kconfig: empty fragment parses");
	kconfig_frag_format(&sb, &f);
	is(sb.len, 0, "kconfig: empty fragment formats to nothing");
	kconfig_frag_hash(&sb, &f);
	ok(sb.len > 0, "kconfig: empty fragment has a hash");
	strbuf_release(&sb);
	kconfig_frag_release(&f);
}

/* A template text node kept its length but was copied up to a NUL (since
 * then review refuses templates with NUL bytes). */
static void test_template_nul(void)
{
	static const char crash[] = "\x1a+\0\0";
	struct template_opts o = TEMPLATE_OPTS_INIT;
	struct tmpl_vars *v = tmpl_vars_new();
	struct strbuf sb = STRBUF_INIT;

	int ret;

	o.width = 0;
	ret = template_render(&sb, crash, sizeof(crash) - 1, v, &o);
	ok((ret == 0 && sb.len == sizeof(crash) - 1 && !memcmp(sb.buf, crash, sb.len)) ||
	   (ret == WW_EINPUT && !sb.len),
	   "template: text with NUL bytes is refused or copied whole, never cut (%d)", ret);
	strbuf_release(&sb);
	tmpl_vars_free(v);
}

/* kconfig: a NUL cut the value short, so the normal form did not parse
 * back to itself (fuzz-kconfig). */
static void test_kconfig_nul(void)
{
	static const char text[] = "CONFIG_N=e that did \0\0\n";
	struct kconfig_frag f = KCONFIG_FRAG_INIT;

	ok(kconfig_frag_parse(&f, text, sizeof(text) - 1, "nul.config") == WW_EINPUT,
	   "kconfig: a NUL byte makes a line no config line");
	kconfig_frag_release(&f);
}

static int diff_cb(const struct diff_file *f, void *data)
{
	const char **paths = data;

	paths[0] = f->old_path ? "set" : NULL;
	paths[1] = f->new_path ? "set" : NULL;
	return 0;
}

/*
 * diff: libgit2 copies a hunk line up to a NUL but reports its full
 * length (a heap overread in fill_from_patch, fuzz-diff/check/reply, and
 * "mbox with NUL bytes" in tests/hostile); and it leaves a path NULL
 * when a name starts with a blank (fuzz-diff).
 */
static void test_diff_nul_and_paths(void)
{
	static const char nul[] = "--- a/x.c\n+++ b/x.c\n@@ -1 +1,2 @@\n a\n+b\0\0\0 BUG_ON(1);\n";
	static const char blank_add[] = "--- \n+++  f\n@@ -0,0 +1 @@\n+\n";
	static const char blank_del[] = "--- a/ x.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-BUG_ON(1);\n";
	const char *paths[2];

	ok(diff_parse(nul, sizeof(nul) - 1, NULL, diff_cb, paths) == WW_EINPUT &&
	   strstr(error_last(), "NUL byte"),
	   "diff: a NUL in a hunk line is refused: %s", error_last());
	paths[0] = paths[1] = NULL;
	ok(diff_parse(blank_add, sizeof(blank_add) - 1, NULL, diff_cb, paths) == 0 &&
	   paths[0] && paths[1], "diff: added file named ' f' has both paths");
	paths[0] = paths[1] = NULL;
	ok(diff_parse(blank_del, sizeof(blank_del) - 1, NULL, diff_cb, paths) == 0 &&
	   paths[0] && paths[1], "diff: deleted file named ' x.c' has both paths");
}

/* scan: "##" at the start of a line is a paste token, not a directive,
 * in both loops (fuzz-scan, "##WARN("); a number before a
 * name ("0. BUG(", "0x BUG(") was a member access or a type name for the
 * fast loop, a number for the token loop (fuzz-scan, "0. BUG("); bytes
 * of an unterminated quote were code when looking back from '(', and a
 * directive skipped without the lexer did not separate a name from its
 * '(' (fuzz-scan). */
static void test_scan_hashhash(void)
{
	static const char *const texts[] = {
		"##WARN(", "##WARN(x);", " ## WARN(x);\nWARN(y);",
		"0. BUG(", "0.BUG(x);", "0x BUG(x);", "0.e+BUG(x);", "a. BUG(x);",
		"'$\nWARN(", "panic'\n(", "'panic\n(", "panic\n#E\n(", "1u*panic(",
		"..2.\npanic(", "'$\n*BUG(",
	};
	static const char *const labels[] = {
		"##WARN(", "##WARN(x);", " ## WARN(x);\\nWARN(y);",
		"0. BUG(", "0.BUG(x);", "0x BUG(x);", "0.e+BUG(x);", "a. BUG(x);",
		"'$\\nWARN(", "panic'\\n(", "'panic\\n(", "panic\\n#E\\n(", "1u*panic(",
		"..2.\\npanic(", "'$\\n*BUG(",
	};
	static const size_t want[] = { 1, 1, 2, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 1 };
	struct ruleset rs = RULESET_INIT;

	if (rules_load(&rs, "rules") < 0) {
		ok(0, "scan: rules load: %s", error_last());
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct scan_result a = SCAN_RESULT_INIT, b = SCAN_RESULT_INIT;

		scan_text(&a, &rs, texts[i], strlen(texts[i]), SCAN_CODE);
		scan_text_slow(&b, &rs, texts[i], strlen(texts[i]), SCAN_CODE);
		ok(a.nr == want[i] && b.nr == want[i],
		   "scan: '%s': fast %zu, slow %zu hits, want %zu", labels[i], a.nr,
		   b.nr, want[i]);
		scan_result_clear(&a);
		scan_result_clear(&b);
	}
	ruleset_release(&rs);
}

/* diff: an octal escape in a quoted path with non-digits after it
 * shifted a negative value (UBSan, fuzz-diff: "\1" then junk). */
static void test_diff_octal_escape(void)
{
	static const char text[] =
		"diff --git \"a/x\\1!!.c\" \"b/x\\1!!.c\"\n"
		"--- \"a/x\\1!!.c\"\n+++ \"b/x\\1!!.c\"\n@@ -1 +1,2 @@\n a\n+b\n";
	const char *paths[2] = { NULL, NULL };
	int ret = diff_parse(text, sizeof(text) - 1, NULL, diff_cb, paths);

	ok(ret == 0 || ret == WW_EINPUT, "diff: '\\1!!' in a quoted path parses or is refused (%d)", ret);
}

int main(void)
{
	test_guide_nul();
	test_kconfig_empty();
	test_template_nul();
	test_kconfig_nul();
	test_diff_nul_and_paths();
	test_scan_hashhash();
	test_diff_octal_escape();
	return done_testing();
}
