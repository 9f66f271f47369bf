/*
 * A review reply's headers and recipients (reply-headers.c): written
 * with mailhdr.h from the answered mail and the options, never from the
 * template, so that nothing in a series can inject one.
 */
#ifndef WW_REPLY_HEADERS_H
#define WW_REPLY_HEADERS_H

#include "mailhdr.h"
#include "strbuf.h"

struct reply;
struct reply_opts;

/*
 * The headers of the reply to `m` into `h`, and out's from_addr, to, cc,
 * rcpt and subject (out->author_skipped, and no headers, when the
 * author is in o->skip).  Errors: WW_EINPUT (no valid From: identity,
 * nobody to send to).
 */
int reply_headers(struct reply *out, struct strbuf *h, const struct mail *m,
		  const struct reply_opts *o);

/*
 * Does address `addr` match one of `globs` (fnmatch patterns separated by
 * blanks or commas, without case: "*@vger.kernel.org, jo@x.org")?  The
 * shape of [review] lists and skip-authors.  NULL matches nothing.
 */
bool reply_addr_matches(const char *addr, const char *globs);

#endif
