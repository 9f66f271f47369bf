/*
 * Regression tests for what fuzzing (tests/fuzz/) and the hostile set
 * (tests/hostile/) found in other modules: one test per finding, with the
 * input that triggered it.  Most were memory errors that only the
 * sanitizer pass (make check SANITIZE=1) sees fail; the checks here also
 * pin down the behaviour that replaced them.
 */
#include "guide.h"
#include "kconfig.h"
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

/* A template text node kept its length but was copied up to a NUL. */
static void test_template_nul(void)
{
	static const char crash[] = "\x1a+\0\0";
	struct template_opts o = TEMPLATE_OPTS_INIT;
	struct tmpl_vars *v = tmpl_vars_new();
	struct strbuf sb = STRBUF_INIT;

	o.width = 0;
	ok(template_render(&sb, crash, sizeof(crash) - 1, v, &o) == 0 &&
	   sb.len == sizeof(crash) - 1 && !memcmp(sb.buf, crash, sb.len),
	   "template: text with NUL bytes is copied whole");
	strbuf_release(&sb);
	tmpl_vars_free(v);
}

int main(void)
{
	test_guide_nul();
	test_kconfig_empty();
	test_template_nul();
	return done_testing();
}
