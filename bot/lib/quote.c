/*
 * Patch text on its way out: git's C-style quoting for everything a
 * series can put into warnwatch's output (see quote.h).
 */
#include "quote.h"

size_t quote_utf8_len(const unsigned char *p, size_t len)
{
	uint32_t cp;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Is the valid `n`-byte sequence at `p` a control character (quote.h)? */
static bool wide_control(const unsigned char *p, size_t n)
{
	if (n == 2)
		return p[0] == 0xc2 && p[1] <= 0x9f;		/* C1 */
	if (n == 3 && p[0] == 0xe2 && p[1] == 0x80)
		return p[2] >= 0xa8 && p[2] <= 0xae;		/* U+2028..U+202E */
	if (n == 3 && p[0] == 0xe2 && p[1] == 0x81)
		return p[2] >= 0xa6 && p[2] <= 0xa9;		/* U+2066..U+2069 */
	return false;
}

/*
 * How many bytes at `p` form one unit, and whether it must be escaped
 * (true) or may be copied.
 */
static bool unit(size_t *n, const unsigned char *p, size_t len, unsigned flags)
{
	*n = quote_utf8_len(p, len);
	if (!*n) {
		*n = 1;
		return true;
	}
	if (*n == 1)
		return p[0] < 0x20 ? !(p[0] == '\t' && (flags & QUOTE_KEEP_TAB)) : p[0] == 0x7f;
	return wide_control(p, *n);
}

bool quote_needed(const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (size_t i = 0; i < len; i += n)
		if (unit(&n, p + i, len - i, flags))
			return true;
	return false;
}

static void escape_byte(struct strbuf *out, unsigned char c)
{
	char name;

	switch (c) {
	case '\a': name = 'a'; break;
	case '\b': name = 'b'; break;
	case '\t': name = 't'; break;
	case '\n': name = 'n'; break;
	case '\v': name = 'v'; break;
	case '\f': name = 'f'; break;
	case '\r': name = 'r'; break;
	default:
		strbuf_addf(out, "\\%03o", c);
		return;
	}
	strbuf_addch(out, '\\');
	strbuf_addch(out, name);
}

void quote_c_style_n(struct strbuf *out, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	bool wrap = flags & QUOTE_WRAP;
	size_t n;

	if (wrap && !quote_needed(s, len, flags)) {
		strbuf_add(out, s, len);
		return;
	}
	strbuf_grow(out, len + 2);
	if (wrap)
		strbuf_addch(out, '"');
	for (size_t i = 0; i < len; i += n) {
		if (unit(&n, p + i, len - i, flags)) {
			for (size_t k = 0; k < n; k++)
				escape_byte(out, p[i + k]);
		} else if (wrap && (p[i] == '"' || p[i] == '\\')) {
			strbuf_addch(out, '\\');
			strbuf_addch(out, p[i]);
		} else {
			strbuf_add(out, p + i, n);
		}
	}
	if (wrap)
		strbuf_addch(out, '"');
}

void quote_c_style(struct strbuf *out, const char *s)
{
	if (s)
		quote_c_style_n(out, s, strlen(s), QUOTE_WRAP);
}

void quote_between(struct strbuf *out, const char *pre, const char *s, const char *post)
{
	strbuf_addstr(out, pre);
	quote_c_style(out, s);
	strbuf_addstr(out, post);
}

const char *quote_str(struct strbuf *tmp, const char *s)
{
	if (!s)
		return NULL;
	strbuf_reset(tmp);
	quote_c_style(tmp, s);
	return tmp->buf;
}

void quote_buf(struct strbuf *sb, unsigned flags)
{
	struct strbuf tmp = STRBUF_INIT;

	if (!quote_needed(sb->buf, sb->len, flags))
		return;
	quote_c_style_n(&tmp, sb->buf, sb->len, flags);
	strbuf_release(sb);
	*sb = tmp;
}

void quote_lines(struct strbuf *out, const char *prefix, const char *text, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		strbuf_addstr(out, prefix);
		quote_c_style_n(out, text + pos, n, QUOTE_KEEP_TAB);
		strbuf_addch(out, '\n');
		pos += n + (nl != NULL);
	}
}
