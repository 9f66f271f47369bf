/*
 * The SVG charts: escaping, numbers, accessibility attributes, and that
 * every chart is well-formed XML (parsed with expat, which the Atom
 * reader already uses).
 */
#include <expat.h>

#include "svg.h"
#include "tap.h"

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static bool well_formed(const struct strbuf *sb)
{
	XML_Parser p = XML_ParserCreate("UTF-8");
	bool ok = XML_Parse(p, sb->buf, (int)sb->len, 1) == XML_STATUS_OK;

	if (!ok)
		printf("# expat: %s at line %lu\n",
		       XML_ErrorString(XML_GetErrorCode(p)),
		       (unsigned long)XML_GetCurrentLineNumber(p));
	XML_ParserFree(p);
	return ok;
}

static void test_escape_and_numbers(void)
{
	struct strbuf sb = STRBUF_INIT;

	svg_escape(&sb, "<a href=\"x\">Tom & Jerry's</a>\x01");
	is_str(sb.buf, "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;\\001",
	       "markup, quotes and control characters are escaped");
	strbuf_reset(&sb);
	svg_escape(&sb, "a\nb\x1b\xff\xc2\x85");
	is_str(sb.buf, "a\\nb\\033\\377\\302\\205",
	       "a line break, ESC, a byte that is not UTF-8 and a C1 control shown C-style");
	strbuf_reset(&sb);
	svg_escape_lines(&sb, "> +\x1b<x>\nBye.\n");
	is_str(sb.buf, "&gt; +\\033&lt;x&gt;\nBye.\n", "several lines: the LFs kept");
	strbuf_reset(&sb);
	svg_number(&sb, 1234567);
	is_str(sb.buf, "1,234,567", "thousands separators");
	strbuf_reset(&sb);
	svg_number(&sb, -1234);
	is_str(sb.buf, "-1,234", "negative numbers");
	strbuf_reset(&sb);
	svg_number(&sb, 999);
	is_str(sb.buf, "999", "no separator below a thousand");
	strbuf_reset(&sb);
	svg_number(&sb, 2.5);
	is_str(sb.buf, "2.5", "fractions keep one decimal");
	strbuf_release(&sb);
}

static void test_hbars(void)
{
	struct svg_chart c = { "movers", "Top <movers>", "Net change per subsystem",
			       "calls", 0 };
	struct svg_item items[] = {
		{ "MEMORY MANAGEMENT", 120, NULL, "#mm" },
		{ "NETWORKING & stuff", -45, NULL, NULL },
		{ "A VERY LONG SUBSYSTEM NAME THAT WILL NOT FIT IN THE LABEL COLUMN AT ALL, NO", 3, "bug", NULL },
	};
	struct strbuf sb = STRBUF_INIT;

	svg_hbars(&sb, &c, items, ARRAY_SIZE(items));
	ok(well_formed(&sb), "hbars: well-formed XML");
	ok(strstr(sb.buf, "role=\"img\"") != NULL, "hbars: an image for assistive technology");
	ok(strstr(sb.buf, "aria-labelledby=\"movers-t movers-d\"") != NULL,
	   "hbars: labelled by its title and description");
	ok(strstr(sb.buf, "<title id=\"movers-t\">Top &lt;movers&gt;</title>") != NULL,
	   "hbars: escaped title");
	is(count(sb.buf, "class=\"bar "), 3, "hbars: one bar per item");
	ok(strstr(sb.buf, "<title>MEMORY MANAGEMENT: 120 calls</title>") != NULL,
	   "hbars: tooltip with the exact number and unit");
	ok(strstr(sb.buf, "NETWORKING &amp; stuff") != NULL, "hbars: escaped label");
	ok(strstr(sb.buf, "class=\"bar down\"") != NULL, "hbars: negative bar marked down");
	ok(strstr(sb.buf, ">+120<") != NULL, "hbars: diverging numbers are signed");
	ok(strstr(sb.buf, ">-45<") != NULL, "hbars: negative number printed");
	ok(strstr(sb.buf, "class=\"axis\"") != NULL, "hbars: zero line when diverging");
	ok(strstr(sb.buf, "<a href=\"#mm\">") != NULL, "hbars: linked label");
	ok(strstr(sb.buf, "\xe2\x80\xa6") != NULL, "hbars: long label shortened with an ellipsis");
	strbuf_release(&sb);
}

static void test_columns_and_share(void)
{
	struct svg_chart c = { "rel", "Calls per release", NULL, "calls", 0 };
	struct svg_category cats[] = { { "bug", "bug" }, { "warn", "warn" } };
	double v1[] = { 12000, 30000 }, v2[] = { 11000, 33000 };
	struct svg_column cols[] = { { "6.1", v1 }, { "6.12", v2 } };
	struct svg_item shares[] = {
		{ "clean", 7, "clean", NULL }, { "panicked", 2, "panicked", NULL },
		{ "build failed", 0, "failed", NULL },
	};
	struct svg_item p1[] = { { "6.1", 5, NULL, NULL }, { "6.12", 7, NULL, NULL } };
	struct svg_panel panels[] = { { "bug", p1, 2 }, { "warn", p1, 2 }, { "panic", p1, 1 } };
	struct strbuf sb = STRBUF_INIT;

	svg_stacked_columns(&sb, &c, cats, 2, cols, 2);
	ok(well_formed(&sb), "columns: well-formed XML");
	is(count(sb.buf, "class=\"bar bug\""), 3, "columns: a bug segment per release, and its legend");
	ok(strstr(sb.buf, ">42,000<") != NULL, "columns: total on top of the 6.1 column");
	ok(strstr(sb.buf, ">44,000<") != NULL, "columns: total on top of the 6.12 column");
	ok(strstr(sb.buf, "<title>6.12, warn: 33,000 calls</title>") != NULL,
	   "columns: segment tooltip");
	ok(strstr(sb.buf, ">50,000<") != NULL, "columns: a round axis top");
	strbuf_reset(&sb);

	c.id = "share";
	svg_share_bar(&sb, &c, shares, 3);
	ok(well_formed(&sb), "share bar: well-formed XML");
	is(count(sb.buf, "<rect"), 2 + 3, "share bar: two segments (zero drawn only in the legend)");
	ok(strstr(sb.buf, ">panicked (2)<") != NULL, "share bar: legend with counts");
	strbuf_reset(&sb);

	c.id = "multi";
	svg_small_multiples(&sb, &c, panels, 3, 2);
	ok(well_formed(&sb), "small multiples: well-formed XML");
	is(count(sb.buf, "class=\"panel\""), 3, "small multiples: one panel each");
	ok(strstr(sb.buf, "<title>warn, 6.12: 7 calls</title>") != NULL,
	   "small multiples: tooltip names panel and column");
	strbuf_reset(&sb);

	svg_hbars(&sb, &c, NULL, 0);
	ok(well_formed(&sb), "an empty chart is still well-formed");
	strbuf_release(&sb);
}

int main(void)
{
	test_escape_and_numbers();
	test_hbars();
	test_columns_and_share();
	return done_testing();
}
