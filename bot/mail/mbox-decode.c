/*
 * What a message says, decoded: charsets to UTF-8 (iconv), RFC 2047
 * encoded words, header fields (folded, several of a name), and MIME
 * bodies (quoted-printable, base64, multipart, format=flowed), for
 * mbox.c, which splits the input into messages.
 */
#include "mbox-priv.h"

#include <iconv.h>
/* ---- charsets ---- */

/* Charsets whose bytes we keep as they are (UTF-8 or a subset of it;
 * 8-bit bytes in "us-ascii" mail are UTF-8 in practice). */
bool mbox_charset_is_utf8(const char *cs)
{
	static const char *const same[] = {
		"", "utf-8", "utf8", "us-ascii", "ascii", "ansi_x3.4-1968",
		"unknown-8bit", "x-unknown", "unknown",
	};

	for (size_t i = 0; i < ARRAY_SIZE(same); i++)
		if (mem_ieq(cs, strlen(cs), same[i]))
			return true;
	return false;
}

/*
 * Append `in` converted from `charset` to UTF-8.  A byte that is invalid
 * in the charset becomes U+FFFD and the conversion goes on.  WW_ENOTFOUND
 * (nothing appended) when iconv does not know the charset.
 */
static int append_utf8(struct strbuf *out, const char *in, size_t len,
		       const char *charset)
{
	char *ip = (char *)in, *op;
	size_t il = len, ol;
	iconv_t cd;

	if (mbox_charset_is_utf8(charset)) {
		strbuf_add(out, in, len);
		return 0;
	}
	cd = iconv_open("UTF-8", charset);
	if (cd == (iconv_t)-1)
		return WW_ENOTFOUND;
	while (il) {
		size_t r;

		strbuf_grow(out, il + il / 2 + 16);
		op = out->buf + out->len;
		ol = out->alloc - out->len - 1;
		r = iconv(cd, &ip, &il, &op, &ol);
		strbuf_setlen(out, op - out->buf);
		if (r != (size_t)-1 || errno == E2BIG)
			continue;
		/* EILSEQ or EINVAL (truncated at the end): mark, skip a byte */
		strbuf_addstr(out, "\xef\xbf\xbd");
		ip++;
		il--;
		iconv(cd, NULL, NULL, NULL, NULL);
	}
	/* Stateful charsets (ISO-2022-JP) may owe a final shift sequence. */
	strbuf_grow(out, 16);
	op = out->buf + out->len;
	ol = out->alloc - out->len - 1;
	iconv(cd, NULL, NULL, &op, &ol);
	strbuf_setlen(out, op - out->buf);
	iconv_close(cd);
	return 0;
}

/* ---- RFC 2047 encoded words ---- */

/*
 * Real encoded words are at most 75 bytes (RFC 2047); some mailers make
 * longer ones.  The cap bounds the work a hostile "=?=?=?..." can cause.
 */
#define WORD_MAX 512

struct eword {
	char charset[CHARSET_MAX];
	int enc;		/* 'b' or 'q' */
	const char *text;
	size_t text_len;
	size_t len;		/* of the whole "=?...?=" */
};

static bool charset_char(int c)
{
	return c > ' ' && c < 127 && !strchr("()<>@,;:\"/[]?.=", c);
}

/* Parse an encoded word at `p` (which starts with "=?"). */
static bool parse_eword(struct eword *w, const char *p, size_t n)
{
	size_t i = 2, cs, lang = 0;

	if (n > WORD_MAX)
		n = WORD_MAX;
	for (cs = i; i < n && p[i] != '?'; i++) {
		if (p[i] == '*' && !lang)
			lang = i;	/* RFC 2231 language: "utf-8*en" */
		else if (!charset_char((unsigned char)p[i]) && p[i] != '.')
			return false;
	}
	if (i >= n || i == cs || (lang ? lang : i) - cs >= CHARSET_MAX)
		return false;
	memcpy(w->charset, p + cs, (lang ? lang : i) - cs);
	w->charset[(lang ? lang : i) - cs] = '\0';
	if (i + 3 >= n || p[i + 2] != '?')
		return false;
	w->enc = lower((unsigned char)p[i + 1]);
	if (w->enc != 'b' && w->enc != 'q')
		return false;
	i += 3;
	w->text = p + i;
	for (; i + 1 < n; i++) {
		if (p[i] == '?' && p[i + 1] == '=') {
			w->text_len = p + i - w->text;
			w->len = i + 2;
			return true;
		}
		if ((unsigned char)p[i] <= ' ' || p[i] == 127)
			return false;
	}
	return false;
}

/* Base64 digit values plus one (0: not a digit), for a table lookup. */
#define B64_RANGE(a, v) \
	[a] = v + 1, [a + 1] = v + 2, [a + 2] = v + 3, [a + 3] = v + 4, \
	[a + 4] = v + 5, [a + 5] = v + 6, [a + 6] = v + 7, [a + 7] = v + 8, \
	[a + 8] = v + 9, [a + 9] = v + 10
static const unsigned char b64_digit[256] = {
	B64_RANGE('A', 0), B64_RANGE('K', 10), ['U'] = 21, ['V'] = 22,
	['W'] = 23, ['X'] = 24, ['Y'] = 25, ['Z'] = 26,
	B64_RANGE('a', 26), B64_RANGE('k', 36), ['u'] = 47, ['v'] = 48,
	['w'] = 49, ['x'] = 50, ['y'] = 51, ['z'] = 52,
	B64_RANGE('0', 52), ['+'] = 63, ['/'] = 64,
};

static int b64val(int c)
{
	return (int)b64_digit[c & 0xff] - 1;
}

/*
 * Decode base64 text, skipping whitespace and line ends; stop at '='.
 * Returns false on a character outside the alphabet when `strict`.
 */
static bool b64_decode(struct strbuf *out, const char *p, size_t n, bool strict)
{
	unsigned int acc = 0;
	int bits = 0;
	char *o;

	strbuf_grow(out, n / 4 * 3 + 3);
	o = out->buf + out->len;
	for (size_t i = 0; i < n; i++) {
		int v = b64val((unsigned char)p[i]);

		if (v < 0) {
			if (p[i] == '=')
				break;
			if (strict)
				return false;
			continue;
		}
		acc = (acc << 6) | (unsigned int)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			*o++ = (char)((acc >> bits) & 0xff);
		}
	}
	strbuf_setlen(out, o - out->buf);
	return true;
}

/* Q encoding of a header word: '_' is a space, "=XX" a byte. */
static bool q_decode(struct strbuf *out, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (p[i] == '_') {
			strbuf_addch(out, ' ');
		} else if (p[i] != '=') {
			strbuf_addch(out, p[i]);
		} else {
			if (i + 2 >= n)
				return false;
			hi = hexval((unsigned char)p[i + 1]);
			lo = hexval((unsigned char)p[i + 2]);
			if (hi < 0 || lo < 0)
				return false;
			strbuf_addch(out, hi << 4 | lo);
			i += 2;
		}
	}
	return true;
}

/* Decoded bytes of a run of adjacent encoded words in one charset. */
struct word_run {
	struct strbuf bytes;
	char charset[CHARSET_MAX];
	const char *raw;	/* the run as written, for when it cannot be */
	size_t raw_len;		/* converted after all */
};

/* Control characters never come out of a header: no header injection. */
static void scrub_controls(struct strbuf *sb, size_t from)
{
	for (size_t i = from; i < sb->len; i++) {
		unsigned char c = sb->buf[i];

		if ((c < ' ' && c != '\t') || c == 127)
			sb->buf[i] = ' ';
	}
}

static void run_flush(struct strbuf *out, struct word_run *run)
{
	size_t start = out->len;

	if (!run->raw)
		return;
	if (append_utf8(out, run->bytes.buf, run->bytes.len, run->charset) < 0)
		strbuf_add(out, run->raw, run->raw_len);
	scrub_controls(out, start);
	strbuf_reset(&run->bytes);
	run->raw = NULL;
	run->raw_len = 0;
}

/* Decode one word's payload; false if it is not valid base64 / Q. */
static bool eword_decode(struct strbuf *out, const struct eword *w)
{
	if (w->enc == 'b')
		return b64_decode(out, w->text, w->text_len, true);
	return q_decode(out, w->text, w->text_len);
}

void mail_decode_words(struct strbuf *out, const char *in, size_t len)
{
	struct word_run run = { STRBUF_INIT, "", NULL, 0 };
	struct strbuf word = STRBUF_INIT;
	const char *end = in + len, *p = in;
	const char *lit = in;	/* start of text not yet copied to `out` */

	while ((p = memchr(p, '=', end - p)) != NULL) {
		struct eword w;
		bool adjacent;

		strbuf_reset(&word);
		if (p + 1 >= end || p[1] != '?' || !parse_eword(&w, p, end - p) ||
		    !eword_decode(&word, &w)) {
			p++;
			continue;
		}
		/* Whitespace between two encoded words is not text. */
		adjacent = run.raw && blank_line(lit, p - lit);
		if (adjacent && !strcmp(run.charset, w.charset)) {
			strbuf_addbuf(&run.bytes, &word);
		} else {
			run_flush(out, &run);
			if (!adjacent)
				strbuf_add(out, lit, p - lit);
			strbuf_addbuf(&run.bytes, &word);
			memcpy(run.charset, w.charset, sizeof(w.charset));
			run.raw = p;
		}
		p += w.len;
		run.raw_len = p - run.raw;
		lit = p;
	}
	run_flush(out, &run);
	strbuf_add(out, lit, end - lit);
	strbuf_release(&run.bytes);
	strbuf_release(&word);
}

/* ---- headers ---- */

/* A header field line: "Name:" with a printable, colon-free name. */
bool mbox_is_field(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n && p[i] != ':'; i++)
		if ((unsigned char)p[i] <= ' ' || (unsigned char)p[i] >= 127)
			return false;
	return i > 0 && i < n;
}


/*
 * The next logical header of a block of LF-terminated lines: its name and
 * its raw value (from after the colon, folds included).
 */
bool mbox_hdr_next(struct hdr_iter *it, const char **name, size_t *nlen,
		     const char **val, size_t *vlen)
{
	while (it->p < it->end) {
		const char *line = it->p, *nl, *colon;

		nl = memchr(line, '\n', it->end - line);
		it->p = nl ? nl + 1 : it->end;
		if (!mbox_is_field(line, (nl ? nl : it->end) - line))
			continue;	/* a stray continuation */
		colon = memchr(line, ':', (nl ? nl : it->end) - line);
		*name = line;
		*nlen = colon - line;
		*val = colon + 1;
		while (it->p < it->end && is_ws(*it->p)) {
			nl = memchr(it->p, '\n', it->end - it->p);
			it->p = nl ? nl + 1 : it->end;
		}
		*vlen = it->p - *val;
		return true;
	}
	return false;
}

/* Trim whitespace from what was appended to `sb` since `start`. */
static void trim_from(struct strbuf *sb, size_t start)
{
	size_t skip = start;

	while (sb->len > start && is_ws(sb->buf[sb->len - 1]))
		sb->len--;
	while (skip < sb->len && is_ws(sb->buf[skip]))
		skip++;
	memmove(sb->buf + start, sb->buf + skip, sb->len - skip);
	sb->len -= skip - start;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

/* A raw value unfolded: each line end and the whitespace after it
 * become one space; leading and trailing whitespace go. */
void mbox_unfold(struct strbuf *out, const char *v, size_t n)
{
	size_t start = out->len;

	for (size_t i = 0; i < n; i++) {
		if (v[i] != '\n') {
			strbuf_addch(out, v[i]);
			continue;
		}
		while (i + 1 < n && is_ws(v[i + 1]))
			i++;
		if (i + 1 < n)
			strbuf_addch(out, ' ');
	}
	trim_from(out, start);
}

/* Unfolded and decoded, as a new string. */
char *mbox_header_text(const char *v, size_t n, bool decode)
{
	struct strbuf raw = STRBUF_INIT, dec = STRBUF_INIT;

	mbox_unfold(&raw, v, n);
	if (!decode)
		return strbuf_detach(&raw, NULL);
	mail_decode_words(&dec, raw.buf, raw.len);
	strbuf_trim(&dec);
	strbuf_release(&raw);
	return strbuf_detach(&dec, NULL);
}

/* "<id@host> (comment)" -> "id@host". */
char *mbox_msgid_text(const char *v, size_t n)
{
	char *s = mbox_header_text(v, n, false), *lt, *gt;

	lt = strchr(s, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (gt) {
		memmove(s, lt + 1, gt - lt - 1);
		s[gt - lt - 1] = '\0';
	}
	return s;
}

int mail_header(struct strbuf *out, const char *headers, size_t len,
		const char *name)
{
	struct hdr_iter it = { headers, headers + len };
	const char *n, *v;
	size_t nlen, vlen;

	while (mbox_hdr_next(&it, &n, &nlen, &v, &vlen)) {
		char *s;

		if (!mem_ieq(n, nlen, name))
			continue;
		s = mbox_header_text(v, vlen, true);
		strbuf_addstr(out, s);
		free(s);
		return 0;
	}
	return WW_ENOTFOUND;
}

int mail_header_nth(struct strbuf *out, const char *headers, size_t len,
		    const char *name, size_t nth)
{
	struct hdr_iter it = { headers, headers + len };
	const char *n, *v;
	size_t nlen, vlen;

	while (mbox_hdr_next(&it, &n, &nlen, &v, &vlen)) {
		char *s;

		if (!mem_ieq(n, nlen, name) || nth--)
			continue;
		s = mbox_header_text(v, vlen, false);
		strbuf_addstr(out, s);
		free(s);
		return 0;
	}
	return WW_ENOTFOUND;
}

/* ---- bodies ---- */


/* Copy a parameter value (token or quoted string) into `dst`. */
static void param_value(char *dst, size_t size, const char *p, const char *end)
{
	size_t n = 0;

	if (p < end && *p == '"') {
		for (p++; p < end && *p != '"'; p++) {
			if (*p == '\\' && p + 1 < end)
				p++;
			if (n + 1 < size)
				dst[n++] = *p;
		}
	} else {
		for (; p < end && *p != ';' && !is_ws(*p); p++)
			if (n + 1 < size)
				dst[n++] = *p;
	}
	dst[n] = '\0';
}

static void parse_content_type(struct mime_info *mi, const char *raw, size_t rn)
{
	char *v = mbox_header_text(raw, rn, false);
	const char *p = v, *end = v + strlen(v);
	size_t t = 0;

	while (p < end && is_ws(*p))
		p++;
	for (; p < end && *p != ';' && !is_ws(*p); p++)
		if (t + 1 < sizeof(mi->type))
			mi->type[t++] = (char)lower((unsigned char)*p);
	mi->type[t] = '\0';
	while (p < end) {
		const char *name, *eq;

		if (*p != ';') {
			/* skip to the next parameter, past quoted strings */
			if (*p == '"')
				for (p++; p < end && *p != '"'; p++)
					if (*p == '\\')
						p++;
			p++;
			continue;
		}
		for (p++; p < end && is_ws(*p); p++)
			;
		name = p;
		while (p < end && *p != '=' && *p != ';')
			p++;
		if (p >= end || *p != '=')
			continue;
		eq = p;
		while (eq > name && is_ws(eq[-1]))
			eq--;
		for (p++; p < end && is_ws(*p); p++)
			;
		if (mem_ieq(name, eq - name, "charset"))
			param_value(mi->charset, sizeof(mi->charset), p, end);
		else if (mem_ieq(name, eq - name, "boundary"))
			param_value(mi->boundary, sizeof(mi->boundary), p, end);
		else if (mem_ieq(name, eq - name, "format") ||
			 mem_ieq(name, eq - name, "delsp")) {
			char val[16];

			param_value(val, sizeof(val), p, end);
			if (mem_ieq(name, eq - name, "format"))
				mi->flowed = !strcasecmp(val, "flowed");
			else
				mi->delsp = !strcasecmp(val, "yes");
		}
	}
	free(v);
}

void mbox_mime_headers(struct mime_info *mi, const char *hdr, size_t n)
{
	struct hdr_iter it = { hdr, hdr + n };
	const char *name, *v;
	size_t nlen, vlen;

	memset(mi, 0, sizeof(*mi));
	while (mbox_hdr_next(&it, &name, &nlen, &v, &vlen)) {
		if (mem_ieq(name, nlen, "content-type") && !mi->type[0]) {
			parse_content_type(mi, v, vlen);
		} else if (mem_ieq(name, nlen, "content-transfer-encoding")) {
			while (vlen && (is_ws(*v) || *v == '\n'))
				v++, vlen--;
			if (mem_istarts(v, vlen, "quoted-printable"))
				mi->cte = CTE_QP;
			else if (mem_istarts(v, vlen, "base64"))
				mi->cte = CTE_BASE64;
		}
	}
}

/* Quoted-printable: "=\n" is a soft line break, "=XX" a byte; a stray
 * '=' is kept (as git mailinfo does: patches are better kept than lost). */
static void qp_decode(struct strbuf *out, const char *p, size_t n)
{
	char *o;

	strbuf_grow(out, n);
	o = out->buf + out->len;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (p[i] != '=') {
			*o++ = p[i];
			continue;
		}
		if (i + 1 < n && p[i + 1] == '\n') {
			i++;
			continue;
		}
		/* "=  \n": a soft break with transport padding */
		if (i + 1 < n && is_ws(p[i + 1])) {
			size_t j = i + 1;

			while (j < n && is_ws(p[j]))
				j++;
			if (j == n || p[j] == '\n') {
				i = j;
				continue;
			}
		}
		hi = i + 2 < n ? hexval((unsigned char)p[i + 1]) : -1;
		lo = i + 2 < n ? hexval((unsigned char)p[i + 2]) : -1;
		if (hi < 0 || lo < 0) {
			*o++ = '=';
			continue;
		}
		*o++ = (char)(hi << 4 | lo);
		i += 2;
	}
	strbuf_setlen(out, o - out->buf);
}

/* CRLF and lone CR to LF, in place, from `from` on. */
static void normalize_eol(struct strbuf *sb, size_t from)
{
	char *r, *w, *end = sb->buf + sb->len;

	r = memchr(sb->buf + from, '\r', sb->len - from);
	if (!r)
		return;
	for (w = r; r < end; r++) {
		if (*r != '\r') {
			*w++ = *r;
			continue;
		}
		*w++ = '\n';
		if (r + 1 < end && r[1] == '\n')
			r++;
	}
	strbuf_setlen(sb, w - sb->buf);
}

/*
 * Undo format=flowed (RFC 3676) in out->buf from `start`, as git's
 * mailinfo does: a leading space is stuffing, a line ending in a space
 * (but the signature's "-- ") goes on in the next one.  A patch sent
 * flowed by a careful client comes out whole again.
 */
static void unflow(struct strbuf *out, size_t start, bool delsp)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p = out->buf + start, *end = out->buf + out->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		bool soft;

		if (n && *p == ' ')
			p++, n--;
		soft = n && p[n - 1] == ' ' && !(n == 3 && !memcmp(p, "-- ", 3));
		strbuf_add(&tmp, p, soft && delsp ? n - 1 : n);
		if (!soft && nl)
			strbuf_addch(&tmp, '\n');
		p += n + (nl ? 1 : 0);
	}
	strbuf_setlen(out, start);
	strbuf_addbuf(out, &tmp);
	strbuf_release(&tmp);
}

/* A text part, transfer-decoded and converted, appended to `out`. */
static void decode_leaf(struct strbuf *out, const struct mime_info *mi,
			const char *p, size_t n)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t start = out->len;

	if (mi->cte == CTE_QP)
		qp_decode(&tmp, p, n);
	else if (mi->cte == CTE_BASE64)
		b64_decode(&tmp, p, n, false);
	if (mi->cte != CTE_IDENTITY) {
		normalize_eol(&tmp, 0);
		p = tmp.buf;
		n = tmp.len;
	}
	if (append_utf8(out, p, n, mi->charset) < 0)
		strbuf_add(out, p, n);	/* unknown charset: keep the bytes */
	if (mi->flowed)
		unflow(out, start, mi->delsp);
	if (out->len > start && out->buf[out->len - 1] != '\n')
		strbuf_addch(out, '\n');
	strbuf_release(&tmp);
}

static bool wanted_part(const char *type)
{
	static const char *const text[] = {
		"", "text/plain", "text/x-patch", "text/x-diff",
		"text/x-diff-file", "application/x-patch", "application/x-diff",
	};

	for (size_t i = 0; i < ARRAY_SIZE(text); i++)
		if (!strcmp(type, text[i]))
			return true;
	return false;
}



/* Is `line` "--boundary" or "--boundary--" (trailing whitespace allowed)? */
static int boundary_line(const char *line, size_t n, const char *b, size_t blen)
{
	size_t i;

	if (n < blen + 2 || line[0] != '-' || line[1] != '-' ||
	    memcmp(line + 2, b, blen) != 0)
		return 0;
	i = blen + 2;
	if (i + 1 < n && line[i] == '-' && line[i + 1] == '-' &&
	    blank_line(line + i + 2, n - i - 2))
		return 2;
	return blank_line(line + i, n - i) ? 1 : 0;
}

/* One part of a multipart body: headers, a blank line, content. */
static int mime_part(struct strbuf *out, struct mime_walk *mw,
		     const char *p, size_t n, int depth)
{
	const char *end = p + n, *q = p;

	/* a part that starts with a blank line has no headers */
	while (q < end) {
		const char *nl = memchr(q, '\n', end - q);
		size_t l = (nl ? nl : end) - q;

		if (blank_line(q, l))
			return mbox_mime_collect(out, mw, p, q - p,
					    nl ? nl + 1 : end,
					    nl ? end - nl - 1 : 0, depth);
		q = nl ? nl + 1 : end;
	}
	return 0;		/* headers only: no content */
}

static int mime_multipart(struct strbuf *out, struct mime_walk *mw,
			  const struct mime_info *mi,
			  const char *body, size_t blen, int depth)
{
	const char *p = body, *end = body + blen, *part = NULL;
	size_t bl = strlen(mi->boundary);
	int ret;

	if (depth >= MAIL_MAX_MIME_DEPTH)
		return error_code(WW_ETOOBIG,
				  "message %zu (byte %zu): MIME parts nested deeper than %d",
				  mw->msgno, mw->msg_off, MAIL_MAX_MIME_DEPTH);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end;
		int b = boundary_line(p, (nl ? nl : end) - p, mi->boundary, bl);

		if (b) {
			if (part) {
				/* the line end before a boundary belongs to it */
				size_t plen = p - part;

				if (plen && part[plen - 1] == '\n')
					plen--;
				if (++mw->parts > MAIL_MAX_MIME_PARTS)
					return error_code(WW_ETOOBIG,
							  "message %zu (byte %zu): more than %d MIME parts",
							  mw->msgno, mw->msg_off,
							  MAIL_MAX_MIME_PARTS);
				ret = mime_part(out, mw, part, plen, depth + 1);
				if (ret < 0)
					return ret;
			}
			if (b == 2)
				return 0;
			part = next;
		}
		p = next;
	}
	/* no closing boundary (truncated mail): keep the last part */
	if (part)
		return mime_part(out, mw, part, end - part, depth + 1);
	/* no boundary at all: not really multipart, read it as text */
	decode_leaf(out, mi, body, blen);
	return 0;
}

int mbox_mime_collect(struct strbuf *out, struct mime_walk *mw,
			const char *hdr, size_t hlen,
			const char *body, size_t blen, int depth)
{
	struct mime_info mi;

	mbox_mime_headers(&mi, hdr, hlen);
	if (starts_with(mi.type, "multipart/") && mi.boundary[0])
		return mime_multipart(out, mw, &mi, body, blen, depth);
	/* A forwarded message: its own headers and body, one level down. */
	if (depth && !strcmp(mi.type, "message/rfc822")) {
		if (depth >= MAIL_MAX_MIME_DEPTH)
			return error_code(WW_ETOOBIG,
					  "message %zu (byte %zu): MIME parts nested deeper than %d",
					  mw->msgno, mw->msg_off, MAIL_MAX_MIME_DEPTH);
		return mime_part(out, mw, body, blen, depth + 1);
	}
	/* A single-part message is its body, whatever its type says. */
	if (!depth || wanted_part(mi.type))
		decode_leaf(out, &mi, body, blen);
	return 0;
}

/* ---- splitting the input into messages ---- */
