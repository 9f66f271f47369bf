/*
 * Mail: splitting an mbox (or a single saved message) into messages and
 * decoding what a patch reviewer needs from each one: unfolded headers,
 * RFC 2047 encoded words, quoted-printable and base64 bodies, CRLF.
 */
#ifndef WW_MBOX_H
#define WW_MBOX_H

#include "strbuf.h"

/*
 * Caps for input from strangers (stated in README "Limits"); going over
 * one gives WW_ETOOBIG.  RFC 5322 allows 998-byte lines, but real mail
 * has long unfolded To:/Cc: lines, so a header line may be much longer.
 */
#define MBOX_MAX_BYTES (256u << 20)	/* the whole input */
#define MBOX_MAX_MESSAGES 10000		/* messages in one input */
#define MAIL_MAX_HEADER_BYTES (1u << 20) /* one message's header block */
#define MAIL_MAX_HEADER_LINE (64u << 10) /* one physical header line */
#define MAIL_MAX_MIME_DEPTH 8		/* nested multipart/ levels */
#define MAIL_MAX_MIME_PARTS 1000	/* MIME parts in one message */

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
	/*
	 * From:, To: and Cc: unfolded but NOT decoded, several To:/Cc:
	 * lines joined with ", ": what mail_addr_parse() (mailhdr.h) takes.
	 * The decoded from/to/cc above are for showing only: a decoded
	 * display name can look like an address list.  "" when absent.
	 */
	char *from_raw;
	char *to_raw;
	char *cc_raw;
	char *body;		/* transfer-decoded text, LF line ends */
	size_t body_len;
	size_t offset;		/* byte offset of the message in the input */
	/* The raw header block (unfolded only by mail_header()), LF line
	 * ends, for callers that need a header not decoded above. */
	char *headers;
	size_t headers_len;
};

struct mail_list {
	struct mail *v;
	size_t nr;
	size_t alloc;
};

#define MAIL_LIST_INIT { 0 }

/*
 * Parse `buf` as an mbox ("From " separated, >From unquoted, mboxrd and
 * mboxo) or as one message without a From_ line.  Messages are appended
 * to `out`.  Malformed input gives WW_EINPUT with a message saying what
 * and where (the caller prefixes the input's name), e.g.
 * "message 3 (byte 1234): NUL byte in header"; input over a cap gives
 * WW_ETOOBIG.  On error, `out` keeps the messages parsed before it.
 *
 * A From_ line separates messages when it follows a blank line and looks
 * like one ("From SENDER DATE" with a hh:mm time, as git mailsplit
 * checks), or anywhere when it is git format-patch's
 * "From <sha> Mon Sep 17 00:00:00 2001": a commit message line "From the
 * datasheet, ..." after a blank line does not split a message.
 *
 * Bodies of multipart messages are their text/plain, text/x-patch and
 * text/x-diff parts (patches sent as attachments), concatenated.  Bodies
 * in another charset are converted to UTF-8 (iconv); bytes that are not
 * valid in their charset become U+FFFD.  Linear in `len`.
 */
int mbox_parse(struct mail_list *out, const char *buf, size_t len);


/*
 * The value of the first header `name` (case-insensitive) in a raw header
 * block such as mail.headers, unfolded, RFC 2047 decoded and trimmed,
 * appended to `out`.  0, or WW_ENOTFOUND when there is no such header.
 */
int mail_header(struct strbuf *out, const char *headers, size_t len,
		const char *name);

/*
 * The value of the `nth` (0-based) header `name` in a raw header block,
 * unfolded and trimmed but NOT decoded (Authentication-Results, a second
 * From:), appended to `out`.  0, or WW_ENOTFOUND when there are fewer.
 */
int mail_header_nth(struct strbuf *out, const char *headers, size_t len,
		    const char *name, size_t nth);

/*
 * Decode RFC 2047 encoded words ("=?UTF-8?q?J=C3=B6rg?=", B and Q, any
 * charset iconv knows) in `in`, appending UTF-8 to `out`.  Whitespace
 * between adjacent encoded words is dropped; a word that is not valid
 * (bad base64, unknown charset) is copied as it is.  Control characters
 * that decoding produces (CR, LF, NUL...) become spaces: a decoded
 * subject never spans lines.
 */
void mail_decode_words(struct strbuf *out, const char *in, size_t len);


void mail_release(struct mail *m);
void mail_list_clear(struct mail_list *l);

#endif
