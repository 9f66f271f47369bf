/*
 * What mbox.c (splitting an mbox into messages) and mbox-decode.c
 * (charsets, encoded words, header fields, MIME bodies) share.  Not an
 * API: include mbox.h.
 */
#ifndef WW_MBOX_PRIV_H
#define WW_MBOX_PRIV_H

#include "mbox.h"

/* Small ASCII helpers (locale-independent on purpose). */
static inline int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static inline bool is_ws(int c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static inline bool mem_ieq(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);

	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return false;
	return true;
}

static inline bool mem_istarts(const char *a, size_t alen, const char *prefix)
{
	size_t n = strlen(prefix);

	return alen >= n && mem_ieq(a, n, prefix);
}

static inline bool blank_line(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_ws(p[i]))
			return false;
	return true;
}

#define CHARSET_MAX 64

/* The fields of a header block, one after another: mbox_hdr_next(). */
struct hdr_iter {
	const char *p, *end;
};

enum cte {
	CTE_IDENTITY,		/* 7bit, 8bit, binary, absent or unknown */
	CTE_QP,
	CTE_BASE64,
};

struct mime_info {
	char type[128];		/* lower case "text/plain"; "" when absent */
	char charset[CHARSET_MAX];
	char boundary[256];	/* RFC 2046 allows 70 */
	enum cte cte;
	bool flowed;		/* format=flowed (RFC 3676) */
	bool delsp;		/* delsp=yes: a soft break's space is not text */
};

/* A walk over a message's MIME parts, with a cap on their number. */
struct mime_walk {
	size_t parts;
	size_t msgno, msg_off;
};

/* mbox-decode.c, for mbox.c's splitting: */
/* UTF-8 or a subset of it: bytes kept as they are. */
bool mbox_charset_is_utf8(const char *cs);
/* "Name: ..." at `p`: a header field line. */
bool mbox_is_field(const char *p, size_t n);
/* The next field of `it`: name and raw (folded) value; false at the end. */
bool mbox_hdr_next(struct hdr_iter *it, const char **name, size_t *nlen,
		   const char **val, size_t *vlen);
/* A folded value as one line, into `out`. */
void mbox_unfold(struct strbuf *out, const char *v, size_t n);
/* A field's value unfolded, RFC 2047 decoded when `decode`; caller frees. */
char *mbox_header_text(const char *v, size_t n, bool decode);
/* "<id@host> (comment)" -> "id@host"; caller frees. */
char *mbox_msgid_text(const char *v, size_t n);
/* Content-Type and Content-Transfer-Encoding of a header block. */
void mbox_mime_headers(struct mime_info *mi, const char *hdr, size_t n);
/* The text parts of a message (MIME walked, decoded, UTF-8) into `out`. */
int mbox_mime_collect(struct strbuf *out, struct mime_walk *mw,
		      const char *hdr, size_t hlen,
		      const char *body, size_t blen, int depth);

#endif
