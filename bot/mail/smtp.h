/*
 * Sending one message over SMTP with libcurl: smtp:// (optionally
 * upgraded with STARTTLS) or smtps://, optional AUTH, timeouts.  The
 * password comes from a file named in the configuration, never from the
 * command line (where `ps` would show it).
 */
#ifndef WW_SMTP_H
#define WW_SMTP_H

#include "mailhdr.h"

struct config;

enum smtp_tls {
	SMTP_TLS_NO,		/* plain smtp:// (loopback, a local MTA) */
	SMTP_TLS_TRY,		/* STARTTLS when offered */
	SMTP_TLS_REQUIRED,	/* STARTTLS or fail (smtps:// is always TLS) */
};

struct smtp_opts {
	const char *url;		/* smtp://host[:port] or smtps://host[:port] */
	enum smtp_tls starttls;
	const char *user;		/* NULL: no AUTH */
	const char *password;
	const char *ca_file;		/* extra CA bundle, or NULL */
	unsigned int connect_timeout_s;	/* 0: 30 s */
	unsigned int timeout_s;		/* whole session; 0: 120 s */
};

#define SMTP_OPTS_INIT { .starttls = SMTP_TLS_TRY }

/*
 * Send `msg` (a whole message with LF or CRLF line ends) from envelope
 * address `from` to every address of `rcpt`.  All recipients are
 * accepted or nothing is sent.  Errors: WW_EINPUT (bad URL, no
 * recipient), WW_ENET (cannot connect / TLS, or the session broke before
 * the whole message went out), WW_ETIMEOUT (a timeout, or the session
 * broke after the whole message went out: it may have been delivered),
 * WW_ERROR (the server refused: the message quotes its reply).
 */
int smtp_send(const struct smtp_opts *o, const char *from,
	      const struct mail_addr_list *rcpt, const char *msg, size_t len);

/*
 * [smtp] of the configuration `c` (url, starttls, timeout, user,
 * password-file, ca-file; paths relative to the configuration file) into
 * `o`, for `warnwatch review --send` and the service alike.  `password`
 * and `ca_file` hold what `o` points to: the caller's to release.
 * WW_EINPUT without a url, or with a user but no password file.
 */
int smtp_opts_from_config(struct smtp_opts *o, struct strbuf *password,
			  struct strbuf *ca_file, const struct config *c);


/* `msg` with every line ending in CRLF (bare LF and bare CR fixed). */
void smtp_crlf(struct strbuf *out, const char *msg, size_t len);

#endif
