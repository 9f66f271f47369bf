/*
 * Atom feeds of public-inbox archives (/INBOX/new.atom, and the ?x=A
 * search results): the entries the service needs to discover new mail.
 *
 * public-inbox writes one <entry> per message: the author, the subject as
 * <title>, the Date: header as <updated>, a <link href=".../INBOX/MID/">
 * whose last path segment is the percent-escaped Message-ID, and for a
 * reply a <thr:in-reply-to href=".../PARENT-MID/"> (RFC 4685).  The
 * <id> is a urn:uuid hash and is kept only for reference.
 *
 * The feed comes over the network, so the parser (expat) refuses DTDs and
 * entity declarations outright, caps the size of the document, of every
 * text field and the number of entries, and drops entries whose
 * Message-ID is not a plausible one rather than passing them on.
 */
#ifndef WW_ATOM_H
#define WW_ATOM_H

#include "strbuf.h"

#include <time.h>

#define ATOM_MAX_BYTES (8u << 20)	/* a whole feed */
#define ATOM_MAX_ENTRIES 2000
#define ATOM_MAX_FIELD 4096		/* title, author, ids: longer is cut */
#define ATOM_MAX_MSGID 995		/* RFC 5322 line length, as b4 */

struct atom_entry {
	/* All strings are owned, "" when absent, never NULL. */
	char *message_id;	/* without angle brackets, percent-decoded */
	char *in_reply_to;	/* parent's Message-ID, or "" */
	char *title;		/* the subject, entities decoded, one line */
	char *author_name;
	char *author_email;
	char *updated;		/* as written (RFC 3339) */
	time_t updated_at;	/* parsed; 0 when unparseable */
	char *id;		/* atom:id (urn:uuid:...) */
};

struct atom_feed {
	char *title;
	char *updated;
	struct atom_entry *v;	/* in document order (public-inbox: newest first) */
	size_t nr, alloc;
	size_t dropped;		/* entries without a usable Message-ID */
};

#define ATOM_FEED_INIT { 0 }

/*
 * Parse `len` bytes of an Atom document into `out` (entries appended).
 * Not well-formed XML, a DTD, a root element other than atom:feed, or more
 * than ATOM_MAX_BYTES: WW_EINPUT / WW_ETOOBIG with a message saying what
 * and where (line:column); the caller prefixes the feed's URL.
 */
int atom_parse(struct atom_feed *out, const char *buf, size_t len);

/*
 * The Message-ID named by a public-inbox message URL
 * ("http://host/INBOX/a%2Fb@c/" -> "a/b@c").  WW_EINPUT when the URL has
 * no such segment or the decoded id is not plausible (see atom_msgid_ok).
 */
int atom_msgid_from_url(struct strbuf *out, const char *url);

/* A Message-ID we are willing to pass on: 1..ATOM_MAX_MSGID bytes of
 * printable ASCII without spaces or angle brackets. */
bool atom_msgid_ok(const char *mid, size_t len);

/* RFC 3339 timestamp ("2024-01-01T10:00:02Z", "...+02:00") to time_t. */
int atom_parse_time(time_t *out, const char *s);

void atom_feed_release(struct atom_feed *f);

#endif
