/*
 * One review path for `warnwatch review` and the service's reply stage
 * (stage-reply.c): which messages of a thread make the series b4 chose,
 * the reply's options from the configuration, the state a reply is
 * recorded in, and the exactly-once send.
 *
 * Exactly once: the intent is committed in the store (store.h, SQLite or
 * PostgreSQL) before the SMTP session and the result after it.  A session
 * that ends without the server's final answer (a timeout, a connection
 * cut after the data: smtp.h's WW_ETIMEOUT) is "maybe sent" for both
 * callers: the intent stays, so the next attempt does not send blindly;
 * the service then looks the Message-ID up in the list archive
 * (review_archived()), `review` asks for --force.
 */
#ifndef WW_REVIEW_H
#define WW_REVIEW_H

#include "archive.h"
#include "config.h"
#include "mbox.h"
#include "reply.h"
#include "smtp.h"
#include "store.h"

/*
 * Move into `out` the messages of `thread` (the thread as the archive
 * has it: exact headers, To/Cc/References that b4 drops) whose
 * Message-ID is in `picked` (what b4 chose), each once, in thread order.
 * Moved entries are zeroed in `thread` (message_id NULL); both lists are
 * the caller's to mail_list_clear().  WW_EINPUT when some of `picked` is
 * not in the thread; `name` (or NULL) says whose series in the message.
 */
int review_choose_mails(struct mail_list *out, struct mail_list *thread,
			const struct mail_list *picked, const char *name);

/* What review_reply_opts() keeps for the reply_opts it fills. */
struct review_conf {
	struct strbuf from;		/* "Name <addr>" */
	struct strbuf templates;	/* the template directory */
};

#define REVIEW_CONF_INIT { .from = STRBUF_INIT, .templates = STRBUF_INIT }

void review_conf_release(struct review_conf *k);

enum review_flags {
	REVIEW_SENDING = 1 << 0,	/* an [identity] email is required */
};

/*
 * The reply options that come from the configuration: from ([identity]),
 * policy, lists, skip-authors, patchwork-hint, templates and contact
 * ([review]).  The
 * rest (guide, verdict, previous version, a list's own address and
 * policy) is the caller's.  `out` points into `keep` and `c`.  WW_EINPUT
 * for an [identity] email that is not an address, or none with
 * REVIEW_SENDING; bad [review] values as config_get_enum() says.
 */
int review_reply_opts(struct reply_opts *out, struct review_conf *keep,
		      const struct config *c, unsigned flags);

/*
 * Whether the author of the mail reply `r` answers (a patch of `s`, or
 * its cover letter) asked not to get these reviews: [review] skip-authors,
 * globs separated by blanks or commas, matched without case.  The author
 * is the first mailbox of From: (reply_build() sets r->author_skipped
 * the same way); other recipients in skip-authors are left out of the
 * reply instead (reply_opts.skip, set by review_reply_opts()).
 */
bool review_author_skipped(const struct config *c, const struct reply *r,
			   const struct series *s);

/*
 * Open the state of configuration `c`: [state] url (PostgreSQL, with
 * [state] password-file) if set, else [state] dir, else the default
 * directory (store_default_dir()).
 */
int review_state_open(struct store *out, const struct config *c);

/* What review_known() and review_send() found (> 0; 0 is "go on"/"sent"). */
enum review_outcome {
	REVIEW_ANSWERED = 1,	/* a reply was sent before: *existing */
	REVIEW_MAYBE_SENT,	/* an intent without a result: *existing */
	REVIEW_UNRECORDED,	/* sent now, but the store did not take it */
};

/*
 * What the store knows of a reply to (series, version): REVIEW_ANSWERED,
 * REVIEW_MAYBE_SENT, or 0 when nothing blocks a send (no row, or a failed
 * send: then out->message_id is set, to be reused by the retry so that a
 * copy that did get through is de-duplicated downstream).  Negative when
 * the store failed.
 */
int review_known(struct store_reply *out, struct store *st,
		 const char *series, int version);

/*
 * Send `text` (the whole message) from `from` to `rcpt`, recording `rec`
 * (series, version, message_id, in_reply_to, subject, recipients,
 * forced) as the intent first.  0 sent and recorded; REVIEW_ANSWERED or
 * REVIEW_MAYBE_SENT (nothing sent: *existing says what another attempt
 * recorded); REVIEW_UNRECORDED (sent, the result not recorded: the intent
 * stays, so it reads as "maybe sent" later).  Negative: WW_ETIMEOUT maybe
 * delivered (the intent stays); WW_ESTATE the store failed before
 * sending; any other code, not delivered (recorded as failed).
 */
int review_send(struct store_reply *existing, struct store *st,
		const struct smtp_opts *so, const struct store_reply *rec,
		const char *from, const struct mail_addr_list *rcpt,
		const char *text, size_t len);

/*
 * Whether the public-inbox `base`/`inbox` has the message `msgid`: 1 yes,
 * 0 not (yet), negative when the archive could not say (as archive_get()).
 */
int review_archived(const char *base, const char *inbox, const char *msgid,
		    const struct archive_opts *ao);

#endif
