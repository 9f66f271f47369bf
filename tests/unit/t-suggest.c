/*
 * Unit tests for bot/check/suggest.c: edits of files as a series left them
 * written as one unified diff (context, neighbours sharing a hunk, the
 * offset of later hunks, code indented as the line it replaces), and the
 * edits left out.  The rewrites themselves are the review's (fixup.h,
 * t0032).
 */
#include "suggest.h"
#include "tap.h"

static const char text[] =
	"int f(int x)\n"		/* 1 */
	"{\n"
	"\tint y = x;\n"
	"\n"
	"\tBUG_ON(x > 3);\n"		/* 5 */
	"\tWARN_ON(!y);\n"		/* 6 */
	"\treturn y;\n"
	"}\n"
	"\n"
	"void g(int *p)\n"		/* 10 */
	"{\n"
	"\t*p = 1;\n"
	"\t*p = 2;\n"
	"\t*p = 3;\n"
	"\t*p = 4;\n"			/* 15 */
	"\tBUG_ON(!*p);\n"		/* 16 */
	"}\n";

int main(void)
{
	struct strbuf out = STRBUF_INIT, skipped = STRBUF_INIT;
	struct suggest_edit v[] = {
		{ "mm/a.c", text, 5, 1, "if (WARN_ON_ONCE(x > 3))\n\treturn -EINVAL;", "f" },
		{ "mm/a.c", text, 6, 1, "WARN_ON_ONCE(!y);", "f" },
		{ "mm/a.c", text, 16, 1, "WARN_ON_ONCE(!*p);", "g" },
	};
	struct suggest_edit bad[] = {
		{ "mm/a.c", text, 5, 1, "WARN_ON_ONCE(x > 3);", NULL },
		{ "mm/a.c", text, 5, 1, "if (WARN_ON_ONCE(x > 3))\n\treturn;", NULL },
		{ "mm/a.c", text, 40, 1, "WARN_ON_ONCE(1);", NULL },
	};

	suggest_edits(&out, &skipped, v, ARRAY_SIZE(v));
	is_str(out.buf,
	       "diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	       "@@ -2,8 +2,9 @@ f\n"
	       " {\n \tint y = x;\n \n"
	       "-\tBUG_ON(x > 3);\n"
	       "+\tif (WARN_ON_ONCE(x > 3))\n+\t\treturn -EINVAL;\n"
	       "-\tWARN_ON(!y);\n"
	       "+\tWARN_ON_ONCE(!y);\n"
	       " \treturn y;\n }\n \n"
	       "@@ -13,5 +14,5 @@ g\n"
	       " \t*p = 2;\n \t*p = 3;\n \t*p = 4;\n"
	       "-\tBUG_ON(!*p);\n"
	       "+\tWARN_ON_ONCE(!*p);\n"
	       " }\n",
	       "neighbours share a hunk, the code indented as the line it replaces, the "
	       "next hunk shifted by what the first added");
	is_str(skipped.buf, "", "nothing left out");

	strbuf_reset(&out);
	suggest_edits(&out, &skipped, bad, ARRAY_SIZE(bad));
	ok(strstr(out.buf, "+\tWARN_ON_ONCE(x > 3);\n") && !strstr(out.buf, "return;"),
	   "two edits of one line: the first kept");
	ok(strstr(skipped.buf, "mm/a.c:5: shares its line with another suggestion: left out\n") &&
	   strstr(skipped.buf, "mm/a.c:40: not in the file as the series left it: left out\n"),
	   "the second, and one past the end of the file, left out and said");
	strbuf_release(&out);
	strbuf_release(&skipped);
	return done_testing();
}
