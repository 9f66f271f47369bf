/*
 * Writing mail headers that strangers' data goes into.  A subject or a
 * name taken from a patch can carry CR/LF (header injection), NUL,
 * control characters, broken UTF-8 or kilobytes of text; these functions
 * make that impossible to pass through: values are cleaned, non-ASCII is
 * re-encoded as RFC 2047 encoded words, and lines are folded at 78
 * columns (RFC 5322) without changing the unfolded value.
 *
 * Headers are written with LF line ends; smtp.c converts to CRLF.
 */
#ifndef WW_MAILHDR_H
#define WW_MAILHDR_H

#include "strbuf.h"

#include <time.h>

#define MAILHDR_LINE 78			/* fold headers at this column */
#define MAILHDR_MAX_TEXT 400		/* characters kept of a subject/name */
#define MAILHDR_MAX_ADDR 254		/* RFC 5321 path limit */
#define MAILHDR_MAX_ADDRS 64		/* recipients kept from one header */
#define MAILHDR_MAX_SEEN 1024		/* addresses read from one message's
					 * To: and Cc: to find its lists */

/*
 * Clean an untrusted header value into `out`: CR, LF, TAB and every other
 * control become a space, runs of whitespace that came from folding are
 * kept as single spaces, leading/trailing space is trimmed, invalid UTF-8
 * becomes U+FFFD, and at most `max` characters are kept ("..." marks a
 * cut).
 */
void mailhdr_clean(struct strbuf *out, const char *in, size_t max);

struct mail_addr {
	char *name;		/* display name, decoded UTF-8, may be "" */
	char *addr;		/* addr-spec, validated ASCII */
};

struct mail_addr_list {
	struct mail_addr *v;
	size_t nr, alloc;
	size_t max;		/* entries kept at most; 0: MAILHDR_MAX_ADDRS */
};

#define MAIL_ADDR_LIST_INIT { 0 }

/*
 * Parse `value`, the raw value of an address-list header (From:, To:,
 * Cc:; folded or not) as RFC 5322 does, with GMime: comments, quoted
 * names and groups are understood, a group stands for its members, and
 * RFC 2047 encoded words are decoded inside display names only.  So an
 * address that only appears inside a display name or a comment -- "j@x
 * (J <v@y>)", "=?UTF-8?q?=3Cv=40y=3E=2C?= <j@x>" -- is never one.  Give
 * it the header as it was written, never a decoded copy (mail.from_raw,
 * not mail.from).  Each valid mailbox is appended to `out`, duplicates
 * (case-insensitive) skipped, at most out->max (MAILHDR_MAX_ADDRS when 0)
 * in `out`.
 * Returns how many entries were dropped as invalid.
 */
int mail_addr_parse(struct mail_addr_list *out, const char *value);
/* Append one address (copied); false if `addr` is not a valid addr-spec
 * or already in the list. */
bool mail_addr_add(struct mail_addr_list *l, const char *name, const char *addr);
bool mail_addr_valid(const char *addr);
bool mail_addr_has(const struct mail_addr_list *l, const char *addr);
void mail_addr_list_clear(struct mail_addr_list *l);

/*
 * One mailbox as RFC 5322 writes it: `name` as a phrase (as it is when
 * only atoms, else a quoted-string with '"' and '\\' escaped, or RFC 2047
 * words when not ASCII), then " <addr>"; `addr` alone when `name` is NULL
 * or empty.  A name holding a comma, quotes or angle brackets stays one
 * display name: mail_addr_parse() gives back exactly this mailbox.
 */
void mail_addr_format(struct strbuf *out, const char *name, const char *addr);

/* "Name: value\n", an unstructured header (Subject), encoded and folded. */
void mailhdr_add_text(struct strbuf *out, const char *name, const char *value);
/* "Name: a, b\n" for an address list; display names encoded or quoted. */
void mailhdr_add_addrs(struct strbuf *out, const char *name,
		       const struct mail_addr_list *l);
/* "Name: <id1> <id2>\n" for Message-ID / In-Reply-To / References: each
 * id must be valid (msgid.h); folded between ids. */
void mailhdr_add_ids(struct strbuf *out, const char *name,
		     const char *const *ids, size_t nr);

/* RFC 2047 "=?UTF-8?q?...?=" words for `text` (phrase-safe), into `out`,
 * separated by "\n " when more than one word is needed. */
void mailhdr_encode_words(struct strbuf *out, const char *text, size_t first_room);

/* A new message-id (without brackets) in `domain`: time, pid, randomness. */
void mailhdr_new_msgid(struct strbuf *out, const char *domain);
/* RFC 5322 date of `t` in UTC ("Thu, 02 May 2024 09:15:00 +0000"). */
void mailhdr_date(struct strbuf *out, time_t t);
/* Now, or $SOURCE_DATE_EPOCH when set (reproducible drafts). */
time_t mailhdr_now(void);

#endif
