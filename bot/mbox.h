/*
 * Mail: splitting an mbox (or a single saved message) into messages and
 * decoding what a patch reviewer needs from each one: unfolded headers,
 * RFC 2047 encoded words, quoted-printable and base64 bodies, CRLF.
 */
#ifndef WW_MBOX_H
#define WW_MBOX_H

#include "strbuf.h"

/* Caps for input from strangers (stated in README "Limits"). */
#define MBOX_MAX_BYTES (256u << 20)
#define MBOX_MAX_MESSAGES 10000
#define MAIL_MAX_HEADER_BYTES (1u << 20)

struct mail {
	/* Decoded to UTF-8, unfolded, trimmed; "" when absent, never NULL. */
	char *from;
	char *to;
	char *cc;
	char *subject;
	char *date;
	char *message_id;	/* without the angle brackets */
	char *in_reply_to;	/* without the angle brackets */
	char *references;	/* raw, space separated <ids> */
	char *body;		/* transfer-decoded text, LF line ends */
	size_t body_len;
	size_t offset;		/* byte offset of the message in the input */
};

struct mail_list {
	struct mail *v;
	size_t nr;
	size_t alloc;
};

#define MAIL_LIST_INIT { NULL, 0, 0 }

/*
 * Parse `buf` as an mbox ("From " separated, >From unquoted, mboxrd and
 * mboxo) or as one message without a From_ line.  Messages are appended
 * to `out`.  Malformed input gives WW_EINPUT with a message saying what
 * and where (the caller prefixes the input's name).
 */
int mbox_parse(struct mail_list *out, const char *buf, size_t len);

/* Header value of `name` in a raw header block (for tests and callers
 * that need an unusual header); decoded into `out`.  0 or WW_ENOTFOUND. */
int mail_header(struct strbuf *out, const char *headers, size_t len,
		const char *name);

/* Decode RFC 2047 encoded words in `in` (UTF-8 and Latin-1 charsets) into `out`. */
void mail_decode_words(struct strbuf *out, const char *in, size_t len);

/* The name part of a From: value ("Jane Doe <j@x>" -> "Jane Doe"), and the address. */
void mail_addr_name(struct strbuf *out, const char *from);
void mail_addr_email(struct strbuf *out, const char *from);

void mail_release(struct mail *m);
void mail_list_clear(struct mail_list *l);

#endif
