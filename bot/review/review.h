/*
 * One review path for `warnwatch review` and the service's reply stage
 * (stage-reply.c): which messages of a thread make the series b4 chose,
 * the reply's options from the configuration, the coding-style guide,
 * the review itself (review_run(): check, compare with the previous
 * version, draft, or decide there is nothing to send), and the
 * exactly-once send of the drafted text (review_deliver()).  The callers
 * only fetch the series and say what became of it in their own way.
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
#include "check.h"
#include "config.h"
#include "guide.h"
#include "mbox.h"
#include "reply.h"
#include "settings.h"
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

enum review_flags {
	REVIEW_SENDING = 1 << 0,	/* an [identity] email is required */
};

/*
 * The reply options that come from the configuration: from ([identity]),
 * policy, lists, skip-authors, patchwork-hint, templates and contact
 * ([review]).  The
 * rest (guide, verdict, previous version, a list's own address and
 * policy) is the caller's.  settings_reply_load() into `keep`, then
 * review_reply_from(): `out` is REPLY_OPTS_INIT with those, pointing into
 * `keep` and `c`.  WW_EINPUT
 * for an [identity] email that is not an address, or none with
 * REVIEW_SENDING; bad [review] values as config_get_enum() says.
 */
int review_reply_opts(struct reply_opts *out, struct settings_reply *keep,
		      const struct config *c, unsigned flags);

/*
 * The reply's options from the configured ones (settings.h, read by
 * settings_load()): REPLY_OPTS_INIT with `conf`'s values; `out` points
 * into `conf`.
 */
void review_reply_from(struct reply_opts *out, const struct settings_reply *conf);

/*
 * Whether the author of the mail reply `r` answers (a patch of `s`, or
 * its cover letter) asked not to get these reviews: `skip` ([review]
 * skip-authors, reply_opts.skip), globs separated by blanks or commas,
 * matched without case.  The author is the first mailbox of From:
 * (reply_build() sets r->author_skipped the same way); other recipients
 * in skip-authors are left out of the reply instead.
 */
bool review_author_skipped(const char *skip, const struct reply *r,
			   const struct series *s);

/* Something the review did without (the guide, the previous version):
 * said by the caller in its own way (stderr, the service's log). */
struct review_warn {
	void (*fn)(void *data, const char *msg);	/* NULL: warning() */
	void *data;
};

enum review_guide_flags {
	REVIEW_GUIDE_REQUIRED = 1 << 0,	/* a named tree: its guide must load */
};

/*
 * The coding-style guide of `tree` (a kernel source directory), else of
 * `source` (a linux-source tarball or directory, else the default) in
 * `cache`: 1 loaded into `out` (and `tree_name`, if not NULL, says whose
 * it is), 0 none (said through `w`: replies cite sections without
 * quoting them), negative with REVIEW_GUIDE_REQUIRED when it does not
 * load.
 */
int review_load_guide(struct guide *out, struct strbuf *tree_name,
		      const char *tree, const char *source, const char *cache,
		      unsigned flags, const struct review_warn *w);

struct review_run_opts {
	/* the configuration's reply options (review_reply_opts()) with the
	 * caller's own: guide, tree_name, verdict, policy, lists, always,
	 * message_id; prev and prev_result are review_run()'s */
	struct reply_opts reply;
	struct ruleset *rules;
	const char *tree;		/* the tree the series is checked in, or NULL */
	/*
	 * The series' check when the caller has it: check_series() of the
	 * same series with `rules` and no tree (borrowed).  NULL, or a
	 * tree: review_run() checks the series itself.
	 */
	const struct check_result *checked;
	/*
	 * Draft a reply that raises no issue (thanks for removed or
	 * converted calls, notes on calls with no specific point) rather
	 * than deciding REVIEW_NO_ISSUE: serve, which applies the list's
	 * own `positive` to it (reply.always drafts it too).
	 */
	bool positive;
	const struct series *prev;	/* the previous version, or NULL */
	const char *name;		/* whose series, for errors, or NULL */
	/*
	 * The tree to read facts from (patched.h: the series applied to a
	 * scratch copy of the files it touches, read with libclang, rewrites
	 * compiled), or NULL: the reply then says only what the diff proves.
	 */
	const char *facts_tree;
	/* Its configured build directory (make O=), whose .o.cmd files give
	 * each object's own compile command, or NULL: the tree itself, then
	 * the kernel-ci cache's (cache_dir) of the same release. */
	const char *build_dir;
	const char *cache_dir;
	struct review_warn warn;
};

#define REVIEW_RUN_OPTS_INIT { .reply = REPLY_OPTS_INIT }

/* What review_run() decided (0: a reply to send or show). */
enum review_decision {
	REVIEW_DRAFTED = 0,	/* out->text is the reply */
	REVIEW_NOTHING = 10,	/* nothing to say: no issue, nothing thanked */
	REVIEW_SKIPPED,		/* the author asked not to get these reviews */
	REVIEW_NO_ISSUE,	/* only thanks and notes: no point to make */
};

/*
 * Review series `s`: check it, check the previous version and compare
 * (a previous version that does not check is dropped and said through
 * o->warn), build the reply into `out`, and decide: REVIEW_DRAFTED,
 * REVIEW_NOTHING or REVIEW_SKIPPED.  Negative when the series does not
 * check or the reply cannot be built.  `out` is the caller's to
 * reply_release() in every case.
 */
int review_run(struct reply *out, const struct series *s,
	       const struct review_run_opts *o);

/* A drafted reply as sent: everything about sending it comes from its
 * text, so that a restarted service sends exactly what it drafted. */
struct review_outgoing {
	const char *text;		/* borrowed: the whole message */
	size_t len;
	char *message_id;
	char *in_reply_to;
	char *subject;
	struct strbuf from;		/* envelope sender */
	struct mail_addr_list rcpt;	/* To + Cc */
	struct strbuf rcpt_text;	/* "a@x, b@y" for the store and people */
};

#define REVIEW_OUTGOING_INIT { .from = STRBUF_INIT, .rcpt = MAIL_ADDR_LIST_INIT, \
			       .rcpt_text = STRBUF_INIT }

/* Read `text` (one message, which must outlive `out`) into `out`:
 * WW_EINPUT when it is not one message with a Message-ID, a sender and a
 * recipient. */
int review_outgoing_parse(struct review_outgoing *out, const char *text,
			  size_t len);
void review_outgoing_release(struct review_outgoing *o);

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
 * review_send() the outgoing reply `o` to version `version` of `series`
 * (its root Message-ID): the same results.
 */
int review_deliver(struct store_reply *existing, struct store *st,
		   const struct smtp_opts *so, const struct review_outgoing *o,
		   const char *series, int version, bool forced);

/*
 * Whether the public-inbox `base`/`inbox` has the message `msgid`: 1 yes,
 * 0 not (yet), negative when the archive could not say (as archive_get()).
 */
int review_archived(const char *base, const char *inbox, const char *msgid,
		    const struct archive_opts *ao);

#endif
