/*
 * Unit tests for bot/check/suggest.c: the gentler form of each new call as a
 * hunk (BUG_ON -> if (WARN_ON_ONCE()) return, BUG() -> WARN_ON_ONCE(1);
 * return, WARN_ON -> WARN_ON_ONCE), what has no mechanical form, and a
 * line a later patch moves or changes.
 */
#include "suggest.h"
#include "tap.h"

static struct ruleset rs = RULESET_INIT;

/* The suggestion for a series of the given diffs (NULL-terminated). */
static void run(struct strbuf *out, struct strbuf *skipped, const char *const *diffs)
{
	struct series s = SERIES_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	size_t n = 0;

	while (diffs[n])
		n++;
	ALLOC_GROW(s.patches, n, s.alloc);
	memset(s.patches, 0, n * sizeof(*s.patches));
	for (size_t i = 0; i < n; i++) {
		s.patches[i].index = (int)i + 1;
		s.patches[i].total = (int)n;
		s.patches[i].diff = diffs[i];
		s.patches[i].diff_len = strlen(diffs[i]);
	}
	s.nr = n;
	o.rules = &rs;
	strbuf_reset(out);
	strbuf_reset(skipped);
	if (check_series(&r, &s, &o) < 0)
		printf("# check_series: %s\n", error_last());
	suggest_series(out, skipped, &s, &r);
	check_result_clear(&r);
	free(s.patches);
}

static const char p1[] =
	"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	"@@ -10,5 +10,7 @@ static int f(struct foo *p)\n"
	" \tint x;\n"
	" \n"
	"+\tBUG_ON(!p);\n"
	"+\tWARN_ON(p->x > 3);\n"
	" \tx = p->x;\n"
	" \treturn x;\n"
	" }\n";

int main(void)
{
	const char *top = getenv("WW_TOP");
	struct strbuf dir = STRBUF_INIT, out = STRBUF_INIT, skipped = STRBUF_INIT;
	const char *one[] = { p1, NULL };
	/* Patch 2 adds three lines at the top: the hunks move down. */
	const char *two[] = { p1,
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1,1 +1,4 @@\n+/* a */\n+\n+#include <x.h>\n #include <linux/bug.h>\n", NULL };
	/* Patch 2 converts the BUG_ON itself. */
	const char *conv[] = { p1,
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -11,3 +11,4 @@ static int f(struct foo *p)\n"
		" \n"
		"-\tBUG_ON(!p);\n"
		"+\tif (WARN_ON_ONCE(!p))\n"
		"+\t\treturn -EINVAL;\n"
		" \tWARN_ON(p->x > 3);\n", NULL };
	const char *unbraced[] = {
		"diff --git a/mm/b.c b/mm/b.c\n--- a/mm/b.c\n+++ b/mm/b.c\n"
		"@@ -1,4 +1,5 @@ void g(int x)\n"
		" {\n"
		" \tif (x)\n"
		"+\t\tBUG();\n"
		" \tx++;\n"
		" }\n", NULL };

	strbuf_addf(&dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, dir.buf) < 0) {
		printf("Bail out! cannot load %s: %s\n", dir.buf, error_last());
		return 1;
	}
	run(&out, &skipped, one);
	is_str(out.buf,
	       "diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	       "@@ -10,7 +10,8 @@ f\n"
	       " \tint x;\n"
	       " \n"
	       "-\tBUG_ON(!p);\n"
	       "+\tif (WARN_ON_ONCE(!p))\n"
	       "+\t\treturn -EINVAL;\n"
	       "-\tWARN_ON(p->x > 3);\n"
	       "+\tWARN_ON_ONCE(p->x > 3);\n"
	       " \tx = p->x;\n"
	       " \treturn x;\n"
	       " }\n",
	       "neighbouring calls: one hunk, an int function's return");
	is_str(skipped.buf, "", "nothing skipped");
	run(&out, &skipped, two);
	ok(strstr(out.buf, "@@ -13,7 +13,8 @@ f\n") != NULL, "a later patch shifts the hunk by 3");
	run(&out, &skipped, conv);
	ok(!strstr(out.buf, "BUG_ON(!p);\n+"), "a BUG_ON patch 2 converts: no suggestion");
	ok(strstr(out.buf, "+\tWARN_ON_ONCE(p->x > 3);\n") != NULL, "... the WARN_ON still gets one");
	ok(strstr(skipped.buf, "mm/a.c:12: BUG_ON(): a later patch of the series changes it\n") != NULL,
	   "... and the BUG_ON is named on the skipped list");
	run(&out, &skipped, unbraced);
	is_str(out.buf, "", "BUG() as an unbraced if's body: no suggestion");
	is_str(skipped.buf, "mm/b.c:3: BUG(): no mechanical gentler form here\n", "... said why");
	ruleset_release(&rs);
	strbuf_release(&dir);
	strbuf_release(&out);
	strbuf_release(&skipped);
	return done_testing();
}
