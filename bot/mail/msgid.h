/*
 * Message-ids from strangers.  A message-id typed by a user or found in a
 * mail ends up in b4's argv, in URLs, in file names of drafts and in our
 * own References: header, so it is checked once, here, before it goes
 * anywhere: a conservative character set (RFC 5322 atext minus the
 * characters that mean something in URLs or paths), one '@', a length
 * cap, no leading '-' (it would be an option to b4), no empty, "." or
 * ".." path segments (public-inbox URLs are paths).
 */
#ifndef WW_MSGID_H
#define WW_MSGID_H

#include "strbuf.h"

/* Longer ids exist in theory; none that a mailer generates (RFC 5322 caps
 * the whole header line at 998 and real ids stay under 120). */
#define MSGID_MAX 250

/*
 * Normalise `in` into `out`: trim whitespace, strip one pair of angle
 * brackets and an "id:" or "mid:" prefix, then validate.  On failure
 * returns WW_EINPUT with a message saying what is wrong (the caller adds
 * the id itself, which may be unprintable: see msgid_quote()).
 */
int msgid_normalize(struct strbuf *out, const char *in);

/* True if `id` (already without brackets) passes the checks above. */
bool msgid_valid(const char *id);

/* A printable, length-capped rendering of untrusted `in` for messages. */
void msgid_quote(struct strbuf *out, const char *in);

#endif
