/*
 * What people say back, read from a thread as the archive has it: a
 * keyword line that mutes warnwatch on the thread or for its sender, a
 * reply to one of warnwatch's own mails calling it wrong, and the added
 * lines a human already quoted in a review of the patch (the point is
 * made: warnwatch does not make it again).  Only the text is read here;
 * the reply stage records what it finds in the store (store.h) and
 * decides.  Keywords (docs/serve.md), each alone on a line of the
 * mail's own text (not a quote), case ignored:
 *
 *   warnwatch: mute       no more mail on this thread
 *   warnwatch: mute-me    no more mail about the sender's own series
 *   warnwatch: wrong      (in a reply to warnwatch) the finding is wrong
 *
 * and, in a reply to warnwatch only, the words "wrong", "false
 * positive" or "NAK" anywhere in the mail's own text.
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

enum feedback_kind {
	FEEDBACK_MUTE_THREAD,
	FEEDBACK_MUTE_SENDER,
	FEEDBACK_CALLED_WRONG,
};

struct feedback_event {
	enum feedback_kind kind;
	char *sender;		/* the first mailbox of From:, lower case */
	char *message_id;	/* the mail that says it */
	char *about;		/* FEEDBACK_CALLED_WRONG: warnwatch's mail */
	/* FEEDBACK_CALLED_WRONG: the added lines of warnwatch's mail it
	 * quotes (feedback_norm()), empty: the whole mail */
	struct strvec quoted;
};

struct feedback {
	struct feedback_event *v;
	size_t nr, alloc;
	/* Added lines ("+..." of a patch, feedback_norm()) a human quoted
	 * in a mail of the thread that is not warnwatch's. */
	struct strvec human_quoted;
};

#define FEEDBACK_INIT { .human_quoted = STRVEC_INIT }

/*
 * Read `thread` into `out`: `self` is warnwatch's own address (its mails
 * are answered, never read for keywords or quotes).
 */
void feedback_scan(struct feedback *out, const struct mail_list *thread,
		   const char *self);
void feedback_release(struct feedback *fb);

/* An added line without its '+' and spacing, for comparing: appended. */
void feedback_norm(struct strbuf *out, const char *line, size_t len);

/* Whether `line` (feedback_norm()) is in `quoted`. */
bool feedback_quoted(const struct strvec *quoted, const char *line);

/* ---- recorded in the store (schema 7) ---------------------------------- */

/* The tables: mutes, the findings each sent reply said, feedback on them. */
extern const char feedback_schema_sql[];

/*
 * Record finding `fingerprint` (plan_fingerprint()) of rule `rule` as said
 * in warnwatch's mail `message_id`.  Once per pair.
 */
int feedback_note_said(struct store *st, const char *message_id,
		       const char *fingerprint, const char *rule, const char *line);

/*
 * Record what `fb` holds: each mute (thread `root` for
 * FEEDBACK_MUTE_THREAD when may_mute_thread(sender) says yes), each
 * "wrong" against the findings warnwatch's mail said (those it quotes,
 * else all).  Idempotent: a thread read again records nothing twice.
 * Returns how many new records were made, negative when the store fails.
 */
int feedback_record(struct store *st, const struct feedback *fb, const char *root,
		    bool (*may_mute_thread)(void *data, const char *sender),
		    void *data, time_t now);

/* Whether mail on thread `root` or to series by `author` is muted: 1 with
 * `why` set, 0 no, negative when the store fails. */
int feedback_muted(struct strbuf *why, struct store *st, const char *root,
		   const char *author);

/* Whether recipients called finding `fingerprint` wrong: 1 yes, 0 no,
 * negative when the store fails. */
int feedback_called_wrong(struct store *st, const char *fingerprint);

/*
 * Per rule, how often warnwatch's replies said it and how often
 * recipients called it wrong: a JSON array of {"rule", "said", "wrong"},
 * most often called wrong first, into *out (the caller's).  Negative when
 * the store fails.
 */
int feedback_by_rule(json_t **out, struct store *st);

#endif
