/*
 * Inline SVG charts (see svg.h).  Layout is computed in viewBox units;
 * the page scales the SVG to its column width.  Text widths are
 * estimated (no font metrics without a renderer) per kind of character,
 * generously for the wide sans-serif capitals of DejaVu Sans at 12px.
 */
#include <math.h>

#include "svg.h"
#include "quote.h"

#define SVG_WIDTH 960
#define CHAR_W 7.0
#define BAR_H 18
#define BAR_GAP 6
#define LABEL_MAX 340

/* `len` bytes of `s`, already free of controls, with the markup escaped. */
static void escape_markup(struct strbuf *out, const char *s, size_t len)
{
	for (; len; s++, len--) {
		switch (*s) {
		case '&':
			strbuf_addstr(out, "&amp;");
			break;
		case '<':
			strbuf_addstr(out, "&lt;");
			break;
		case '>':
			strbuf_addstr(out, "&gt;");
			break;
		case '"':
			strbuf_addstr(out, "&quot;");
			break;
		case '\'':
			strbuf_addstr(out, "&#39;");
			break;
		default:
			strbuf_addch(out, *s);
		}
	}
}

/* Controls (not allowed in XML 1.0, and a line break in a one-line
 * value) and bytes that are not UTF-8 made visible, then the markup. */
static void escape_n(struct strbuf *out, const char *s, size_t len)
{
	struct strbuf q = STRBUF_INIT;

	quote_c_style_n(&q, s, len, 0);
	escape_markup(out, q.buf, q.len);
	strbuf_release(&q);
}

void svg_escape(struct strbuf *out, const char *s)
{
	if (s)
		escape_n(out, s, strlen(s));
}

void svg_escape_lines(struct strbuf *out, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");

		escape_n(out, s, n);
		s += n;
		if (*s) {
			strbuf_addch(out, '\n');
			s++;
		}
	}
}

void svg_number(struct strbuf *out, double v)
{
	char tmp[64];
	size_t len, start;
	double r = round(v);

	if (fabs(v - r) > 1e-9) {
		strbuf_addf(out, "%.1f", v);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.0f", fabs(r));
	len = strlen(tmp);
	if (r < 0)
		strbuf_addch(out, '-');
	for (start = 0; start < len; start++) {
		if (start && (len - start) % 3 == 0)
			strbuf_addch(out, ',');
		strbuf_addch(out, tmp[start]);
	}
}

static int width_of(const struct svg_chart *c)
{
	return c->width > 0 ? c->width : SVG_WIDTH;
}

static double char_w(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c == 'I' ? 4.5 : (c == 'M' || c == 'W') ? 10.5 : 8.4;
	if (c >= '0' && c <= '9')
		return 7.7;
	if (c == ' ' || c == '.' || c == ',' || c == ':' || c == 'i' ||
	    c == 'l' || c == 'j' || c == '(' || c == ')' || c == '/' ||
	    c == '[' || c == ']')
		return 4.2;
	if (c == 'm' || c == 'w')
		return 10.0;
	if (c >= 0x80 && c < 0xc0)
		return 0;	/* UTF-8 continuation byte */
	return CHAR_W;
}

static double text_w(const char *s)
{
	double w = 0;

	for (; s && *s; s++)
		w += char_w((unsigned char)*s);
	return w;
}

static void open_svg(struct strbuf *out, const struct svg_chart *c, int w,
		     double h)
{
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
		    "viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\" "
		    "role=\"img\" aria-labelledby=\"", w, h, w, h);
	svg_escape(out, c->id);
	strbuf_addstr(out, "-t ");
	svg_escape(out, c->id);
	strbuf_addstr(out, "-d\" font-family=\"system-ui, sans-serif\" font-size=\"12\">\n<title id=\"");
	svg_escape(out, c->id);
	strbuf_addstr(out, "-t\">");
	svg_escape(out, c->title);
	strbuf_addstr(out, "</title>\n<desc id=\"");
	svg_escape(out, c->id);
	strbuf_addstr(out, "-d\">");
	svg_escape(out, c->desc ? c->desc : c->title);
	strbuf_addstr(out, "</desc>\n");
}

static void tooltip(struct strbuf *out, const struct svg_chart *c,
		    const char *label, double v)
{
	strbuf_addstr(out, "<title>");
	svg_escape(out, label);
	strbuf_addstr(out, ": ");
	svg_number(out, v);
	if (c->unit) {
		strbuf_addch(out, ' ');
		svg_escape(out, c->unit);
	}
	strbuf_addstr(out, "</title>");
}

static void text(struct strbuf *out, double x, double y, const char *anchor,
		 const char *cls, const char *s)
{
	strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y,
		    anchor);
	if (cls)
		strbuf_addf(out, " class=\"%s\"", cls);
	strbuf_addch(out, '>');
	svg_escape(out, s);
	strbuf_addstr(out, "</text>");
}

static void number_text(struct strbuf *out, double x, double y,
			const char *anchor, double v, bool sign)
{
	struct strbuf n = STRBUF_INIT;

	if (sign && v > 0)
		strbuf_addch(&n, '+');
	svg_number(&n, v);
	text(out, x, y, anchor, "num", n.buf);
	strbuf_release(&n);
}

static void rect(struct strbuf *out, double x, double y, double w, double h,
		 const char *cls)
{
	strbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		    "class=\"bar%s%s\" fill=\"#5b7db1\"/>", x, y, w < 0 ? 0 : w,
		    h < 0 ? 0 : h, cls ? " " : "", cls ? cls : "");
}

static void label(struct strbuf *out, double x, double y, const char *anchor,
		  const struct svg_item *it, double max_w)
{
	struct strbuf s = STRBUF_INIT;

	strbuf_addstr(&s, it->label ? it->label : "");
	if (text_w(s.buf) > max_w && s.len > 1) {
		while (s.len > 1 && text_w(s.buf) > max_w - 8)
			strbuf_setlen(&s, s.len - 1);
		/* Do not cut a UTF-8 sequence in half. */
		while (s.len && ((unsigned char)s.buf[s.len - 1] & 0xc0) == 0x80)
			strbuf_setlen(&s, s.len - 1);
		if (s.len && (unsigned char)s.buf[s.len - 1] >= 0xc0)
			strbuf_setlen(&s, s.len - 1);
		strbuf_addstr(&s, "\xe2\x80\xa6");
	}
	if (it->href) {
		strbuf_addstr(out, "<a href=\"");
		svg_escape(out, it->href);
		strbuf_addstr(out, "\">");
	}
	text(out, x, y, anchor, "label", s.buf);
	if (it->href)
		strbuf_addstr(out, "</a>");
	strbuf_release(&s);
}

void svg_hbars(struct strbuf *out, const struct svg_chart *c,
	       const struct svg_item *items, size_t nr)
{
	int w = width_of(c);
	double label_w = 0, max = 0, min = 0, h, x0, plot_w, zero, scale;
	double num_w = 8 * CHAR_W;

	for (size_t i = 0; i < nr; i++) {
		label_w = fmax(label_w, text_w(items[i].label));
		max = fmax(max, items[i].value);
		min = fmin(min, items[i].value);
	}
	label_w = fmin(label_w, LABEL_MAX) + 8;
	h = nr * (BAR_H + BAR_GAP) + BAR_GAP + 4;
	open_svg(out, c, w, h);
	x0 = label_w;
	plot_w = w - x0 - num_w;
	if (min < 0) {
		/* Room for the numbers on both sides of the zero line. */
		plot_w -= num_w;
		scale = (max - min) > 0 ? plot_w / (max - min) : 0;
		zero = x0 + num_w + -min * scale;
	} else {
		scale = max > 0 ? plot_w / max : 0;
		zero = x0;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct svg_item *it = &items[i];
		double y = BAR_GAP + i * (BAR_H + BAR_GAP);
		double len = fabs(it->value) * scale;
		const char *cls = it->cls ? it->cls : it->value < 0 ? "down" : "up";
		double bx = it->value < 0 ? zero - len : zero;

		strbuf_addstr(out, "<g>");
		tooltip(out, c, it->label, it->value);
		label(out, x0 - 8, y + BAR_H * 0.72, "end", it, label_w - 8);
		rect(out, bx, y, fmax(len, it->value ? 1 : 0), BAR_H, cls);
		if (it->value < 0)
			number_text(out, bx - 4, y + BAR_H * 0.72, "end", it->value, true);
		else
			number_text(out, bx + len + 4, y + BAR_H * 0.72, "start",
				    it->value, min < 0);
		strbuf_addstr(out, "</g>\n");
	}
	if (min < 0)
		strbuf_addf(out, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%.0f\" "
			    "class=\"axis\" stroke=\"#888\"/>\n", zero, zero, h);
	strbuf_addstr(out, "</svg>\n");
}

/* A "nice" axis step (1, 2 or 5 times a power of ten) for about 5 ticks. */
static double nice_step(double max)
{
	double raw = max / 5, mag, f;

	if (raw <= 0)
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static double legend(struct strbuf *out, const struct svg_category *cats,
		     size_t nr, double y, int w)
{
	double x = 0;

	for (size_t i = 0; i < nr; i++) {
		double item_w = 18 + text_w(cats[i].name) + 16;

		if (x + item_w > w && x > 0) {
			x = 0;
			y += 18;
		}
		strbuf_addf(out, "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
			    "height=\"12\" rx=\"2\" class=\"bar %s\" fill=\"#5b7db1\"/>",
			    x, y, cats[i].cls ? cats[i].cls : "");
		text(out, x + 17, y + 10, "start", "label", cats[i].name);
		strbuf_addstr(out, "</g>\n");
		x += item_w;
	}
	return y + 18;
}

void svg_stacked_columns(struct strbuf *out, const struct svg_chart *c,
			 const struct svg_category *cats, size_t nr_cats,
			 const struct svg_column *cols, size_t nr_cols)
{
	int w = width_of(c);
	double max = 0, step, top, plot_h = 220, axis_w, plot_y, col_w, gap, left;
	double legend_rows = 1, h;
	struct strbuf tmp = STRBUF_INIT;

	for (size_t j = 0; j < nr_cols; j++) {
		double sum = 0;

		for (size_t i = 0; i < nr_cats; i++)
			sum += cols[j].values[i];
		max = fmax(max, sum);
	}
	step = nice_step(max);
	top = ceil(max / step) * step;
	if (top <= 0)
		top = step;
	/* Estimate legend rows to size the image. */
	{
		double x = 0;

		for (size_t i = 0; i < nr_cats; i++) {
			double item_w = 18 + text_w(cats[i].name) + 16;

			if (x + item_w > w && x > 0) {
				x = 0;
				legend_rows++;
			}
			x += item_w;
		}
	}
	plot_y = legend_rows * 18 + 22;
	h = plot_y + plot_h + 26;
	open_svg(out, c, w, h);
	legend(out, cats, nr_cats, 2, w);

	svg_number(&tmp, top);
	axis_w = text_w(tmp.buf) + 10;
	for (int t = 0; t * step <= top + step / 2; t++) {
		double v = t * step, y = plot_y + plot_h - v / top * plot_h;

		strbuf_reset(&tmp);
		svg_number(&tmp, v);
		strbuf_addf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			    "class=\"grid\" stroke=\"#ddd\"/>", axis_w, y, w, y);
		text(out, axis_w - 4, y + 4, "end", "tick", tmp.buf);
		strbuf_addch(out, '\n');
	}
	gap = nr_cols ? fmin(24, (w - axis_w) / nr_cols * 0.3) : 0;
	col_w = nr_cols ? fmin(120, ((w - axis_w) - gap * (nr_cols + 1)) / nr_cols) : 0;
	/* Few columns: centre them rather than crowd the left edge. */
	left = axis_w + ((w - axis_w) - (nr_cols * col_w + (nr_cols + 1) * gap)) / 2;
	for (size_t j = 0; j < nr_cols; j++) {
		double x = left + gap + j * (col_w + gap), y = plot_y + plot_h;
		double sum = 0;

		strbuf_addstr(out, "<g class=\"column\">");
		for (size_t i = 0; i < nr_cats; i++) {
			double v = cols[j].values[i], hh = v / top * plot_h;

			if (v <= 0)
				continue;
			y -= hh;
			sum += v;
			strbuf_reset(&tmp);
			strbuf_addf(&tmp, "%s, %s", cols[j].label, cats[i].name);
			strbuf_addstr(out, "<g>");
			tooltip(out, c, tmp.buf, v);
			rect(out, x, y, col_w, hh, cats[i].cls);
			strbuf_addstr(out, "</g>");
		}
		number_text(out, x + col_w / 2, y - 5, "middle", sum, false);
		text(out, x + col_w / 2, plot_y + plot_h + 16, "middle", "label",
		     cols[j].label);
		strbuf_addstr(out, "</g>\n");
	}
	strbuf_addstr(out, "</svg>\n");
	strbuf_release(&tmp);
}

void svg_share_bar(struct strbuf *out, const struct svg_chart *c,
		   const struct svg_item *items, size_t nr)
{
	int w = width_of(c);
	double sum = 0, x = 0, h, lx = 0;
	int rows = 1;
	struct svg_category *cats = xcalloc(nr + 1, sizeof(*cats));
	struct strbuf *names = xcalloc(nr + 1, sizeof(*names));

	for (size_t i = 0; i < nr; i++) {
		sum += items[i].value > 0 ? items[i].value : 0;
		strbuf_init(&names[i], 0);
		strbuf_addf(&names[i], "%s (", items[i].label);
		svg_number(&names[i], items[i].value);
		strbuf_addch(&names[i], ')');
		cats[i].name = names[i].buf;
		cats[i].cls = items[i].cls;
		/* Legend rows, as legend() will wrap them. */
		if (lx + 18 + text_w(cats[i].name) + 16 > w && lx > 0) {
			lx = 0;
			rows++;
		}
		lx += 18 + text_w(cats[i].name) + 16;
	}
	h = 28 + 8 + 18 * rows;
	open_svg(out, c, w, h);
	if (sum <= 0)
		rect(out, 0, 0, w, 28, "empty");
	for (size_t i = 0; i < nr; i++) {
		double len = items[i].value > 0 && sum > 0 ? items[i].value / sum * w : 0;

		if (len <= 0)
			continue;
		strbuf_addstr(out, "<g>");
		tooltip(out, c, items[i].label, items[i].value);
		rect(out, x, 0, len, 28, items[i].cls);
		if (len > 36) {
			struct strbuf n = STRBUF_INIT;

			svg_number(&n, items[i].value);
			text(out, x + len / 2, 18.5, "middle", "inbar", n.buf);
			strbuf_release(&n);
		}
		strbuf_addstr(out, "</g>\n");
		x += len;
	}
	legend(out, cats, nr, 36, w);
	strbuf_addstr(out, "</svg>\n");
	for (size_t i = 0; i < nr; i++)
		strbuf_release(&names[i]);
	free(names);
	free(cats);
}

void svg_small_multiples(struct strbuf *out, const struct svg_chart *c,
			 const struct svg_panel *panels, size_t nr, int per_row)
{
	int w = width_of(c);
	double pw, ph = 150, pad = 14, h;
	size_t rows;

	if (per_row < 1)
		per_row = 3;
	rows = (nr + per_row - 1) / per_row;
	pw = (w - pad * (per_row - 1)) / per_row;
	h = rows * (ph + pad);
	open_svg(out, c, w, h);
	for (size_t p = 0; p < nr; p++) {
		const struct svg_panel *pn = &panels[p];
		size_t row = p / (size_t)per_row, col = p % (size_t)per_row;
		double px = col * (pw + pad), py = row * (ph + pad);
		double max = 0, plot_top = py + 34, plot_h = ph - 34 - 22;
		double slot = pn->nr ? pw / pn->nr : pw, bw = fmin(44, slot * 0.7);

		for (size_t i = 0; i < pn->nr; i++)
			max = fmax(max, pn->items[i].value);
		strbuf_addf(out, "<g class=\"panel\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" rx=\"6\" class=\"panel-bg\" fill=\"#f6f7f9\"/>",
			    px, py, pw, ph);
		text(out, px + 8, py + 16, "start", "panel-title", pn->title);
		strbuf_addch(out, '\n');
		for (size_t i = 0; i < pn->nr; i++) {
			const struct svg_item *it = &pn->items[i];
			double hh = max > 0 ? it->value / max * plot_h : 0;
			double x = px + i * slot + (slot - bw) / 2;
			double y = plot_top + plot_h - hh;
			struct strbuf tl = STRBUF_INIT;

			strbuf_addf(&tl, "%s, %s", pn->title, it->label);
			strbuf_addstr(out, "<g>");
			tooltip(out, c, tl.buf, it->value);
			rect(out, x, y, bw, hh, it->cls);
			number_text(out, x + bw / 2, y - 4, "middle", it->value, false);
			text(out, x + bw / 2, plot_top + plot_h + 14, "middle", "label",
			     it->label);
			strbuf_addstr(out, "</g>\n");
			strbuf_release(&tl);
		}
		strbuf_addstr(out, "</g>\n");
	}
	strbuf_addstr(out, "</svg>\n");
}
