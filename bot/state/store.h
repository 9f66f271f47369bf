/*
 * warnwatch's state: the replies table, the service's queue (queue.h) and
 * the workers, in one database reached through one interface with two
 * backends, as git reaches refs through files or reftable:
 *
 *   store-sqlite.c  one SQLite file in the state directory, in WAL mode
 *                   with a busy timeout so that several warnwatch
 *                   processes on one machine can share it (the default);
 *   store-pg.c      a PostgreSQL database ([state] url), shared by
 *                   pollers and workers on several machines.
 *
 * Callers write SQL once, in the dialect both accept (`?` placeholders,
 * ON CONFLICT, RETURNING); the few places that differ ask the store
 * (store_for_update(), store_try_lock()).  The schema grows by numbered
 * migrations listed in store-schema.c, each table's SQL its owner's.
 *
 * The replies table is what makes "never answer a series twice" hold even
 * across crashes: the intent to send is committed (synchronous=FULL)
 * BEFORE the mail goes out and the result after it.  A row left in the
 * intent state means "maybe sent": it blocks a new send until a human
 * says --force, and the retry reuses the same Message-ID so that archives
 * and mail readers de-duplicate it if the first attempt did get through.
 * Unique indexes over unforced intent/sent rows on (series, version) and
 * on in_reply_to (the message answered) make a second reply impossible
 * even for two machines racing, and even when two queue entries took the
 * same thread for two series (a cover without a [PATCH] tag).
 */
#ifndef WW_STORE_H
#define WW_STORE_H

#include "strbuf.h"

#include <time.h>

#define STORE_FILE "warnwatch.db"
#define STORE_BUSY_MS 5000

struct sqlite3;
struct store_be;
struct store_rows;

struct store {
	const struct store_be *be;	/* the backend (store-be.h) */
	struct sqlite3 *db;	/* SQLite backend: the handle (tests poke it) */
	void *conn;		/* PostgreSQL backend: the PGconn */
	char *path;		/* the file, or the URL without password: for messages */
	char *conninfo;		/* PostgreSQL: the URL (libpq connection string) */
	char *password;		/* PostgreSQL: from the password file, or NULL */
	int txn;		/* open transactions (no nesting: 0 or 1) */
	unsigned int epoch;	/* connections made: a change means session
				 * locks (store_try_lock) were lost */
};

#define STORE_INIT { 0 }

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

#define STORE_REPLY_INIT { .state = REPLY_INTENT }

/* The default state directory: $XDG_STATE_HOME/warnwatch or
 * ~/.local/state/warnwatch.  Caller frees. */
char *store_default_dir(void);

/* Open (creating dir 0700 and file) `dir`/warnwatch.db and migrate it.
 * Errors are WW_ESTATE naming the file. */
int store_open(struct store *out, const char *dir);
/*
 * Open the state named by `url`: "postgresql://..." or "postgres://..."
 * (a libpq connection string; `password_file`, if not NULL, is read as
 * the SMTP password file is: a regular file only its owner may read),
 * anything else being a directory for store_open().  Then migrate.
 */
int store_open_url(struct store *out, const char *url,
		   const char *password_file);
void store_close(struct store *s);
/* "sqlite" or "postgresql". */
const char *store_backend_name(const struct store *s);
bool store_is_shared(const struct store *s);

/*
 * SQL in the common dialect.  `types` describes the arguments after it:
 * 's' a string (NULL binds ""), 'i' a long long, 't' a time_t.
 * store_exec() returns the number of changed rows or a negative code;
 * store_query() returns 1 with *out on the first row (store_rows_free()
 * it), 0 when there is no row, or a negative code.  Errors are WW_ESTATE;
 * a unique constraint broken is WW_EDUP.
 */
int store_exec(struct store *s, const char *sql, const char *types, ...);
int store_query(struct store_rows **out, struct store *s, const char *sql,
		const char *types, ...);
int store_vexec(struct store *s, const char *sql, const char *types,
		va_list ap);
int store_vquery(struct store_rows **out, struct store *s, const char *sql,
		 const char *types, va_list ap);
/* The next row: 1, 0 at the end, negative on error. */
int store_rows_next(struct store_rows *r);
int store_rows_ncols(struct store_rows *r);
const char *store_rows_name(struct store_rows *r, int col);
long long store_rows_int(struct store_rows *r, int col);
/* Borrowed until the next store_rows_next(); "" for NULL. */
const char *store_rows_text(struct store_rows *r, int col);
bool store_rows_is_null(struct store_rows *r, int col);
bool store_rows_is_int(struct store_rows *r, int col);
void store_rows_free(struct store_rows *r);

/* A write transaction that excludes other writers where the backend can
 * (SQLite: BEGIN IMMEDIATE); no nesting. */
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);
/* " FOR UPDATE SKIP LOCKED" where rows can be locked, else "". */
const char *store_skip_locked(const struct store *s);
const char *store_for_update(const struct store *s);
/*
 * The column that orders a table without a key of its own as its rows
 * were inserted: SQLite's "rowid", PostgreSQL's "ctid" (which holds for
 * rows never updated, as long as nobody runs VACUUM FULL or CLUSTER).
 */
const char *store_insert_order(const struct store *s);
/*
 * A lock held by this connection until store_unlock() or the connection
 * ends (PostgreSQL: a session advisory lock; SQLite: always granted, one
 * machine): 1 taken, 0 held by someone else, negative on error.
 */
int store_try_lock(struct store *s, long long key);
int store_unlock(struct store *s, long long key);

/* The schema version after migrations (for tests and `--version`). */
int store_schema_version(struct store *s);

/* The newest reply recorded for (series, version): 0 or WW_ENOTFOUND. */
int store_find_reply(struct store_reply *out, struct store *s,
		     const char *series, int version);

/*
 * Record the intent to send `r` (its state is ignored: it becomes
 * REPLY_INTENT).  In one IMMEDIATE transaction, so two processes cannot
 * both pass: when (series, version), or else the message `r->in_reply_to`
 * answers, already has a reply in the intent or sent state and
 * `r->forced` is false, nothing is written and WW_EDUP is returned with
 * `*existing` (that reply, perhaps of another series) filled (if
 * non-NULL).
 */
int store_begin_reply(struct store *s, const struct store_reply *r,
		      struct store_reply *existing);
int store_mark_sent(struct store *s, const char *message_id);
int store_mark_failed(struct store *s, const char *message_id, const char *why);

const char *reply_state_name(enum reply_state st);
void store_reply_release(struct store_reply *r);

#endif
