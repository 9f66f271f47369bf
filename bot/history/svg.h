/*
 * Charts as inline SVG, drawn by warnwatch itself so that the dashboard
 * needs no JavaScript and no network: horizontal bars (diverging when
 * values are negative), stacked columns, one stacked 100% bar, and small
 * multiples.  Every chart is an accessible image (role="img", <title>
 * and <desc> referenced by aria-labelledby) and every mark carries a
 * <title> tooltip with its exact number.  All text is XML-escaped.
 * Colours come from CSS classes ("bar", plus the item's class such as
 * "bug" or "warn"), so the page's stylesheet decides them; the SVG
 * carries a default fill so it stays readable on its own.
 */
#ifndef WW_SVG_H
#define WW_SVG_H

#include "strbuf.h"

struct svg_chart {
	const char *id;		/* unique in the page: prefix of element ids */
	const char *title;	/* shown above the chart and read out */
	const char *desc;	/* one-sentence summary for screen readers */
	const char *unit;	/* "calls": appended to numbers in tooltips */
	int width;		/* viewBox width; 0: 640 */
};

struct svg_item {
	const char *label;
	double value;
	const char *cls;	/* CSS class of the mark ("bug"), or NULL */
	const char *href;	/* makes the label a link, or NULL */
};

/* One column of a stacked chart: values[i] for category i. */
struct svg_column {
	const char *label;
	const double *values;
};

struct svg_category {
	const char *name;	/* legend text */
	const char *cls;	/* CSS class of its segments */
};

struct svg_panel {
	const char *title;
	const struct svg_item *items;
	size_t nr;
};

/*
 * Append `s` with &, <, >, " and ' escaped (for SVG and HTML alike), and
 * first every control character (LF and TAB too), every byte that is not
 * valid UTF-8 and the Unicode separators and bidi controls shown C-style
 * as quote.h does ("\n", "\033"): strings from mail and from the guest
 * stay one line of visible text, and the page stays valid UTF-8 and XML.
 */
void svg_escape(struct strbuf *out, const char *s);
/* The same for text of several lines (a reply in a <pre>): each line as
 * svg_escape() does, the LFs kept. */
void svg_escape_lines(struct strbuf *out, const char *s);

/* 1234567 -> "1,234,567"; fractions get one decimal ("2.5"). */
void svg_number(struct strbuf *out, double v);

/* Horizontal bars, one per item, labels left; diverging around 0 when
 * any value is negative (negative bars get class "down", others "up"
 * unless the item names a class). */
void svg_hbars(struct strbuf *out, const struct svg_chart *c,
	       const struct svg_item *items, size_t nr);

/* Stacked columns (releases), with a legend and a value axis. */
void svg_stacked_columns(struct strbuf *out, const struct svg_chart *c,
			 const struct svg_category *cats, size_t nr_cats,
			 const struct svg_column *cols, size_t nr_cols);

/* One horizontal bar split into the items' shares, with a legend. */
void svg_share_bar(struct strbuf *out, const struct svg_chart *c,
		   const struct svg_item *items, size_t nr);

/* A grid of small column charts, `per_row` panels to a row; every panel
 * has its own scale (the numbers are printed on the columns). */
void svg_small_multiples(struct strbuf *out, const struct svg_chart *c,
			 const struct svg_panel *panels, size_t nr,
			 int per_row);

#endif
