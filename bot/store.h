/*
 * warnwatch's state: one SQLite database file in the state directory
 * (libsqlite3), in WAL mode with a busy timeout so that several warnwatch
 * processes can share it, and a schema that grows by numbered migrations
 * (PRAGMA user_version says which have run).
 *
 * The replies table is what makes "never answer a series twice" hold even
 * across crashes: the intent to send is committed (synchronous=FULL)
 * BEFORE the mail goes out and the result after it.  A row left in the
 * intent state means "maybe sent": it blocks a new send until a human
 * says --force, and the retry reuses the same Message-ID so that archives
 * and mail readers de-duplicate it if the first attempt did get through.
 */
#ifndef WW_STORE_H
#define WW_STORE_H

#include "strbuf.h"

#include <time.h>

#define STORE_FILE "warnwatch.db"
#define STORE_BUSY_MS 5000

struct sqlite3;

struct store {
	struct sqlite3 *db;
	char *path;
};

#define STORE_INIT { NULL, NULL }

enum reply_state {
	REPLY_INTENT,		/* committed before sending: maybe sent */
	REPLY_SENT,		/* the SMTP server accepted it */
	REPLY_FAILED,		/* the send failed: not delivered */
};

struct store_reply {
	char *series;		/* message-id of the cover letter / first patch */
	int version;		/* series version (v2 -> 2) */
	char *message_id;	/* our reply's Message-ID */
	char *in_reply_to;	/* the message it answers */
	char *subject;
	char *recipients;	/* envelope recipients, comma separated */
	enum reply_state state;
	time_t created, updated;
	char *error;		/* why it failed, or NULL */
	bool forced;
};

#define STORE_REPLY_INIT { NULL, 0, NULL, NULL, NULL, NULL, REPLY_INTENT, 0, 0, NULL, false }

/* The default state directory: $XDG_STATE_HOME/warnwatch or
 * ~/.local/state/warnwatch.  Caller frees. */
char *store_default_dir(void);

/* Open (creating dir 0700 and file) `dir`/warnwatch.db and migrate it.
 * Errors are WW_ESTATE naming the file. */
int store_open(struct store *out, const char *dir);
void store_close(struct store *s);

/* The schema version after migrations (for tests and `--version`). */
int store_schema_version(struct store *s);

/* The newest reply recorded for (series, version): 0 or WW_ENOTFOUND. */
int store_find_reply(struct store_reply *out, struct store *s,
		     const char *series, int version);

/*
 * Record the intent to send `r` (its state is ignored: it becomes
 * REPLY_INTENT).  In one IMMEDIATE transaction, so two processes cannot
 * both pass: when (series, version) already has a row in the intent or
 * sent state and `r->forced` is false, nothing is written and WW_EDUP is
 * returned with `*existing` filled (if non-NULL).
 */
int store_begin_reply(struct store *s, const struct store_reply *r,
		      struct store_reply *existing);
int store_mark_sent(struct store *s, const char *message_id);
int store_mark_failed(struct store *s, const char *message_id, const char *why);

const char *reply_state_name(enum reply_state st);
void store_reply_release(struct store_reply *r);

#endif
