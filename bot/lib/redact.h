/*
 * Secrets out of what warnwatch prints, stores and serves.  The
 * configuration is the one place a password lives ([smtp] url =
 * smtp://bot:PASSWORD@host, a list's archive = https://u:PASSWORD@host,
 * [state] url = postgresql://u:PASSWORD@host/db); the programs and
 * libraries that use those URLs (libcurl, libgit2, libpq, b4) echo them in
 * their errors, and warnwatch names them in its own messages.  Every such
 * text passes redact_add() on its way out: error.c for every error and
 * warning, queue_log() for the events stored, serve_say() for the
 * service's log, status and status.json for rows stored before, the
 * dashboard for its links (docs/security.md, "Secrets in the
 * configuration").
 *
 * What is a secret:
 *   - the password of a URL's userinfo: "scheme://user:PASSWORD@host"
 *     becomes "scheme://user:***@host" (the user stays: it says which
 *     account, and is no secret); with REDACT_LINK the userinfo goes
 *     whole, "scheme://host", for links a visitor follows;
 *   - the value of a query parameter named like a secret (password,
 *     passwd, pwd, pass, sslpassword, secret, token, access_token, auth,
 *     key, apikey, api_key; any case): "?token=***";
 *   - outside URLs, the value of libpq's keywords password and
 *     sslpassword in a keyword/value connection string: "password=***"
 *     (a value in single quotes, with its backslash escapes, included).
 * A URL is found wherever it stands in free text: a scheme (a letter,
 * then letters, digits, '+', '-', '.') and "://"; its authority ends at
 * '/', '?', '#', white space, a control character, '"', '<' or '>', and
 * its userinfo at the last '@' before that (a password may hold a raw
 * '@' or a quote, never a raw '/', '?' or '#': those must be
 * percent-encoded, as libcurl, libgit2 and libpq need them to be).
 * Redacting text twice gives what redacting it once gave.
 */
#ifndef WW_REDACT_H
#define WW_REDACT_H

#include "strbuf.h"

/* What a secret is replaced with. */
#define REDACTED "***"

enum redact_flags {
	/* A link for visitors (the dashboard's archive links): a URL's
	 * userinfo is dropped whole, user and '@' included. */
	REDACT_LINK = 1 << 0,
};

/* Append `text` to `out`, every secret in it replaced as above. */
void redact_add(struct strbuf *out, const char *text, unsigned flags);

/* redact_add() into a new string, the caller's to free. */
char *redact(const char *text, unsigned flags);

/* Whether redact_add() would change `text`. */
bool redact_needed(const char *text);

#endif
