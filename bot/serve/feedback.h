/*
 * What people say back, read from a thread as the archive has it, and
 * what the service keeps of it (docs/serve.md, "What people say back").
 *
 * Two things are read.  The added lines a human quoted in a review of
 * the patch (the point is made: warnwatch does not make it again), from
 * any mail that is not warnwatch's.  And warnwatch's keywords, each alone
 * on a line of the mail's own text (not a quote), case ignored, and only
 * in a reply to a mail warnwatch sent (its In-Reply-To or References
 * names one):
 *
 *   warnwatch: wrong [family|author|list]  the findings of the mail it
 *                        answers (those it quotes, else all) are wrong
 *   warnwatch: mute      no more mail on this series (this version on)
 *   warnwatch: mute-me   no more mail about the sender's own series,
 *                        once confirmed from that address
 *   warnwatch: confirm TOKEN   confirms a mute-me (the token warnwatch
 *                        mailed to the address; at any quote depth)
 *
 * "wrong", "NAK" or "false positive" in free text is discussion, never a
 * keyword: "this BUG_ON() is wrong" agrees with warnwatch as often as not.
 *
 * Only the text is read by feedback_scan(); feedback_record() decides,
 * by who the sender is to the series (its author, a recipient of its
 * patches, an owner of the list) and whether the sender's identity is
 * believed, what is recorded: scoped suppressions with who, why, when,
 * and an expiry, listed by `warnwatch status` and lifted by `warnwatch
 * lift`.
 */
#ifndef WW_FEEDBACK_H
#define WW_FEEDBACK_H

#include "mbox.h"
#include "store.h"

#include <jansson.h>
#include "strvec.h"

#define FEEDBACK_MUTE "warnwatch: mute"
#define FEEDBACK_MUTE_ME "warnwatch: mute-me"
#define FEEDBACK_WRONG "warnwatch: wrong"
#define FEEDBACK_CONFIRM_KW "warnwatch: confirm"

#define FEEDBACK_DAYS 180		/* a suppression lasts this long */
#define FEEDBACK_PENDING_DAYS 14	/* a mute-me waits this long for its confirmation */
#define FEEDBACK_TOKEN_HEX 32		/* a confirmation token: 128 random bits */
#define FEEDBACK_FAMILY_MAX 32		/* versions followed back for a series' family */

enum feedback_kind {
	FEEDBACK_MUTE_THREAD,	/* warnwatch: mute */
	FEEDBACK_MUTE_SENDER,	/* warnwatch: mute-me */
	FEEDBACK_CALLED_WRONG,	/* warnwatch: wrong [SCOPE] */
	FEEDBACK_CONFIRM,	/* warnwatch: confirm TOKEN */
	FEEDBACK_DISCUSSION,	/* "wrong", "NAK", "false positive" in a reply
				   to warnwatch, without a keyword: recorded
				   nowhere, only said in the log */
};

/* Whom a suppression concerns. */
enum feedback_scope {
	FEEDBACK_FAMILY,	/* the series, the version it was said on and later */
	FEEDBACK_AUTHOR,	/* every series of that author on the list */
	FEEDBACK_LIST,		/* every series on the list: an owner's word only */
};

struct feedback_event {
	enum feedback_kind kind;
	enum feedback_scope scope;	/* FEEDBACK_CALLED_WRONG: as asked */
	char *sender;		/* the first mailbox of From:, lower case */
	char *message_id;	/* the mail that says it */
	char *about;		/* warnwatch's mail it answers */
	char *line;		/* the keyword line as written (cleaned), or the
				   discussion's word */
	char *token;		/* FEEDBACK_CONFIRM: the token */
	/* How the sender's identity stands: `untrusted` says why it is not
	 * believed (NULL: it is), `trust` how it is ("From: as archived",
	 * "dkim=pass header.d=... by MX"). */
	char *untrusted;
	char *trust;
	/* FEEDBACK_CALLED_WRONG: the added lines of warnwatch's mail it
	 * quotes (feedback_norm()), empty: the whole mail */
	struct strvec quoted;
};

struct feedback {
	struct feedback_event *v;
	size_t nr, alloc;
	/* Added lines ("+..." of a patch, feedback_norm()) a human quoted
	 * in a mail of the thread that is not warnwatch's, with words of
	 * their own right under them (within FEEDBACK_QUOTE_NEAR quoted
	 * lines; a trailer is not words): the point about that call is
	 * made.  A quote of a whole patch discussing something else makes
	 * no point about the calls far above its words. */
	struct strvec human_quoted;
	/* ... those whose words ask a question ('?'): new evidence on a
	 * point made on an earlier version. */
	struct strvec human_asked;
};

#define FEEDBACK_QUOTE_NEAR 3	/* the call's quoted line and two after it */

#define FEEDBACK_INIT { .human_quoted = STRVEC_INIT, .human_asked = STRVEC_INIT }

struct feedback_scan_opts {
	const char *self;	/* warnwatch's own address: its mails are not read */
	/* Whether `message_id` is a mail warnwatch sent (feedback_ours()). */
	bool (*ours)(void *data, const char *message_id);
	void *data;
	/* The list MTA's authserv-id: a sender is believed only when its
	 * Authentication-Results pass for the From: domain (authres.h).
	 * NULL: the From: as archived (one header, one mailbox). */
	const char *authserv_id;
};

/* Read `thread` into `out`. */
void feedback_scan(struct feedback *out, const struct mail_list *thread,
		   const struct feedback_scan_opts *opts);
void feedback_release(struct feedback *fb);

/* An added line without its '+' and spacing, for comparing: appended. */
void feedback_norm(struct strbuf *out, const char *line, size_t len);

/* Whether `line` (feedback_norm()) is in `quoted`. */
bool feedback_quoted(const struct strvec *quoted, const char *line);

/* ---- recorded in the store (schema 9, 10) ------------------------------ */

/* The tables (mutes, the findings each sent reply said, feedback on them;
 * then the suppressions, scoped, with who, why, when and an expiry, the
 * thread mutes of schema 9 carried over) are created by store-schema.c's
 * migrations 9 and 10: schema 9's mutes and feedback are read by nothing
 * since 10. */

/*
 * Record finding `fingerprint` (plan_fingerprint()) of rule `rule` as said
 * in warnwatch's mail `message_id`.  Once per pair.
 */
int feedback_note_said(struct store *st, const char *message_id,
		       const char *fingerprint, const char *rule, const char *line);

/*
 * Whether a reply warnwatch sent to an earlier version of the series
 * said finding `fingerprint`: `earlier` holds the root Message-IDs of
 * the earlier versions, newest first.  1 with the newest such reply's
 * Message-ID in `message_id` and the version it answered in *version,
 * 0 none, negative when the store fails.
 */
int feedback_said_before(struct strbuf *message_id, int *version, struct store *st,
			 const char *fingerprint, const struct strvec *earlier);

/* Whether `message_id` is a mail warnwatch sent: a reply (in flight or
 * sent) or a confirmation request.  A callback for feedback_scan_opts
 * (`data`: the store); a store failure reads as no. */
bool feedback_ours(void *store, const char *message_id);

/* Who a sender is to a series, and what the thread read belongs to. */
struct feedback_ctx {
	const char *list;	/* the list's name */
	const char *family;	/* the root Message-ID of the version whose
				   thread is read: a family suppression's key */
	const char *author;	/* the series' author address */
	const struct mail_list *mails; /* its patches: To:/Cc: are its recipients */
	const char *owners;	/* the list's owners (policy_owner()), or "" */
	const char *self;	/* warnwatch's address: the domain of its Message-IDs */
	time_t now;
	/* Says what was refused or only discussion, for the log. */
	void (*say)(void *data, const char *msg);
	void *data;
};

/*
 * Record what `fb` holds, for the people it concerns (docs/serve.md):
 * each `wrong` against the findings warnwatch's mail said, a `mute` of
 * the family, a `mute-me` of the author pending its confirmation (a
 * token; feedback_unrequested() gives what to mail), a `confirm` that
 * makes one active.  Idempotent: a thread read again records nothing
 * twice.  Returns how many new records were made, negative when the
 * store fails.
 */
int feedback_record(struct store *st, const struct feedback *fb,
		    const struct feedback_ctx *ctx);

/* What a series is: its list, its author, and the root Message-IDs of
 * its version and the earlier ones (its family). */
struct feedback_key {
	const char *list;
	const char *author;
	const struct strvec *family;
};

/* Whether mail on a series `k` is muted (a family or a confirmed author
 * mute, not expired): 1 with `why` set, 0 no, negative when the store
 * fails. */
int feedback_muted(struct strbuf *why, struct store *st,
		   const struct feedback_key *k, time_t now);

/* Whether finding `fingerprint` is suppressed for series `k` (called
 * wrong for its family, its author or the list, not expired): 1 with
 * `why` set, 0 no, negative when the store fails. */
int feedback_suppressed(struct strbuf *why, struct store *st, const char *fingerprint,
			const struct feedback_key *k, time_t now);

/* The threads where a mute-me of `author` on `list` waits for its
 * confirmation (their roots), appended to `out`; negative when the
 * store fails. */
int feedback_pending(struct strvec *out, struct store *st, const char *list,
		     const char *author, time_t now);

/* A mute-me whose confirmation request is still to be mailed. */
struct feedback_request {
	long long id;
	char *addr;		/* the address to mute, and to ask */
	char *token;
	char *message_id;	/* the mute-me mail */
	char *request_id;	/* the request's own Message-ID */
};

/* The requests of `list` still to be mailed, at most `max`, into `out`
 * (feedback_requests_release()); how many, or negative. */
int feedback_unrequested(struct feedback_request **out, struct store *st,
			 const char *list, size_t max, time_t now);
void feedback_requests_release(struct feedback_request *r, size_t nr);
/* Request `id` was mailed. */
int feedback_requested(struct store *st, long long id, time_t now);

/* The confirmation request for `r`: a mail to r->addr only, whose text
 * holds the token, answering the mute-me; `from` warnwatch's mailbox,
 * `list` the list's address (Reply-To: a confirmation is read from the
 * archive). */
void feedback_request_text(struct strbuf *out, const struct feedback_request *r,
			   const char *from_name, const char *from, const char *list,
			   time_t now);

/* Lift suppression `id` (`by` says who): 1 done, 0 no such live one,
 * negative when the store fails. */
int feedback_lift(struct store *st, long long id, const char *by, time_t now);

/* The live suppressions (active or pending, not expired) as a JSON array
 * into *out (the caller's), newest first; negative when the store fails. */
int feedback_status_json(json_t **out, struct store *st, time_t now);

/*
 * Per rule, how often warnwatch's replies said it and how many of its
 * findings the people it concerned called wrong: a JSON array of {"rule",
 * "said", "wrong"}, most often called wrong first, into *out (the
 * caller's).  Negative when the store fails.
 */
int feedback_by_rule(json_t **out, struct store *st);

#endif
