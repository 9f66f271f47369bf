/*
 * Unit tests for bot/lib/quote.c: patch text on its way out.
 */
#include "quote.h"
#include "tap.h"

static void wrap(const char *in, size_t len, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	quote_c_style_n(&sb, in, len, QUOTE_WRAP);
	is_str(sb.buf, want, "wraps %s", what);
	strbuf_release(&sb);
}

static void lines(const char *in, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	quote_lines(&sb, "> ", in, strlen(in));
	is_str(sb.buf, want, "quotes %s", what);
	strbuf_release(&sb);
}

#define W(in, want, what) wrap(in, sizeof(in) - 1, want, what)

int main(void)
{
	struct strbuf sb = STRBUF_INIT;

	/* Normal text stays byte for byte, quotes and backslashes too. */
	W("fs/ext4/inode.c", "fs/ext4/inode.c", "a plain path");
	W("Revert \"x\" \\o/", "Revert \"x\" \\o/", "quotes and backslashes alone");
	W("J\xc3\xb6rg \xe6\x9d\x8e", "J\xc3\xb6rg \xe6\x9d\x8e", "UTF-8 names as they are");
	/* What git's quote_c_style() does to a path that needs quoting. */
	W("b/fs/x\nReviewed-by: warnwatch <bot@example.org>\n.c",
	  "\"b/fs/x\\nReviewed-by: warnwatch <bot@example.org>\\n.c\"", "a newline");
	W("a\tb\rc\ad\be\vf\fg", "\"a\\tb\\rc\\ad\\be\\vf\\fg\"", "the named controls");
	W("\x1b[31mred\x1b[0m \x7f", "\"\\033[31mred\\033[0m \\177\"", "ESC and DEL in octal");
	W("say \"hi\"\n\\", "\"say \\\"hi\\\"\\n\\\\\"", "quotes and backslashes once wrapped");
	W("a\0b", "\"a\\000b\"", "NUL");
	W("bad \xff\xc3 utf8", "\"bad \\377\\303 utf8\"", "invalid UTF-8 bytes");
	W("over\xc0\xaflong", "\"over\\300\\257long\"", "an overlong form");
	W("nel\xc2\x85x", "\"nel\\302\\205x\"", "a C1 control (NEL)");
	W("ls\xe2\x80\xa8ps\xe2\x80\xa9", "\"ls\\342\\200\\250ps\\342\\200\\251\"",
	  "the Unicode line and paragraph separators");
	W("rlo\xe2\x80\xaex\xe2\x81\xa6", "\"rlo\\342\\200\\256x\\342\\201\\246\"",
	  "bidirectional overrides and isolates");

	/* Without QUOTE_WRAP: only controls, no quotes; TAB as asked. */
	quote_c_style_n(&sb, "\tif (\"a\\n\")\x1b", 12, QUOTE_KEEP_TAB);
	is_str(sb.buf, "\tif (\"a\\n\")\\033", "code keeps TAB, quotes and backslashes");
	strbuf_reset(&sb);
	quote_c_style_n(&sb, "\tx", 2, 0);
	is_str(sb.buf, "\\tx", "a TAB is escaped unless kept");

	ok(!quote_needed("a\tb", 3, QUOTE_KEEP_TAB), "a kept TAB needs nothing");
	ok(quote_needed("a\tb", 3, 0), "a TAB needs escaping otherwise");
	ok(!quote_needed("\"\\", 2, 0), "quotes and backslashes alone need nothing");

	lines("+\tBUG_ON(x);\n context\n", "> +\tBUG_ON(x);\n>  context\n", "code lines");
	lines("a\rReviewed-by: x <x@y.org>\nb", "> a\\rReviewed-by: x <x@y.org>\n> b\n",
	      "a CR and a last line without LF");
	lines("", "", "nothing");

	strbuf_reset(&sb);
	ok(quote_str(&sb, NULL) == NULL, "quote_str(NULL) is NULL");
	is_str(quote_str(&sb, "x\ny"), "\"x\\ny\"", "quote_str quotes");
	is_str(quote_str(&sb, "z"), "z", "quote_str resets its buffer");
	strbuf_release(&sb);
	return done_testing();
}
