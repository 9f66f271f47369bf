/*
 * Who sent a mail, as the receiving MTA checked it: the results an MTA
 * wrote into Authentication-Results: (RFC 8601) or, as a hop of an ARC
 * chain, ARC-Authentication-Results: (RFC 8617), read for one trusted
 * authserv-id.  Nothing is verified here (no DNS, no signature): the
 * header is the MTA's word, and only the MTA the configuration names is
 * believed.  Everyone else can write such a header into their own mail,
 * so a header naming another authserv-id is ignored, and of those naming
 * ours only the topmost counts: the MTA prepends its own, and RFC 8601
 * section 5 has it delete any that claim its name on the way in.
 */
#ifndef WW_AUTHRES_H
#define WW_AUTHRES_H

#include "strbuf.h"

#define AUTHRES_MAX_VALUE 8192	/* a header value read at most */

enum authres_result {
	AUTHRES_NONE,		/* no header from that authserv-id */
	AUTHRES_PASS,		/* dkim=pass aligned with the From: domain,
				   or dmarc=pass for it */
	AUTHRES_FAIL,		/* its header says nothing that passes */
};

/*
 * What the topmost Authentication-Results: of `authserv_id` (else the
 * topmost ARC-Authentication-Results: of it) in the raw header block
 * `headers` says of `domain`, the domain of the mail's From: address:
 * AUTHRES_PASS when a `dkim=pass` result's `header.d` (or the domain of
 * its `header.i`) is `domain` or a parent of it with a dot in it (the
 * signer owns the From: domain), or a `dmarc=pass` result's
 * `header.from` is `domain`.  Comments and quoted strings are
 * understood; case is ignored.  `why` gets one clause saying what was
 * found ("dkim=pass header.d=example.org by mx.example.net").
 */
enum authres_result authres_check(struct strbuf *why, const char *headers,
				  size_t len, const char *authserv_id,
				  const char *domain);

/* Whether `domain` is `signer` or under it ("a.example.org" under
 * "example.org"); a signer without a dot aligns with nothing. */
bool authres_aligned(const char *domain, const char *signer);

#endif
