/*
 * The SQLite state database: opening, migrations, and the replies table.
 * See store.h for the crash-safety argument.
 */
#include "store.h"
#include "mkdirs.h"
#include "queue.h"
#include "backfill.h"

#include <sqlite3.h>
#include <sys/stat.h>

/*
 * Migrations, applied in order, each in its own transaction; the array
 * index + 1 is the schema version it leads to.  Never edit a released
 * entry: add a new one.
 */
static const char *const migrations[] = {
	/* 1: replies sent (or about to be) per series version. */
	"CREATE TABLE replies ("
	"  id INTEGER PRIMARY KEY,"
	"  series TEXT NOT NULL,"
	"  version INTEGER NOT NULL,"
	"  message_id TEXT NOT NULL UNIQUE,"
	"  in_reply_to TEXT NOT NULL,"
	"  subject TEXT NOT NULL,"
	"  recipients TEXT NOT NULL,"
	"  state TEXT NOT NULL CHECK (state IN ('intent', 'sent', 'failed')),"
	"  created INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL,"
	"  error TEXT,"
	"  forced INTEGER NOT NULL DEFAULT 0"
	");"
	"CREATE INDEX replies_series ON replies (series, version);",
	/* 2: the service's queue (queue.h). */
	queue_schema_sql,
	/* 3: list archives read by `warnwatch backfill` (backfill.h). */
	backfill_schema_sql,
};

static int db_error(struct store *s, const char *what)
{
	return error_code(WW_ESTATE, "%s: %s: %s", s->path ? s->path : "state",
			  what, s->db ? sqlite3_errmsg(s->db) : "no database");
}

char *store_default_dir(void)
{
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	if (xdg && *xdg)
		strbuf_addf(&sb, "%s/warnwatch", xdg);
	else
		strbuf_addf(&sb, "%s/.local/state/warnwatch", home && *home ? home : ".");
	return strbuf_detach(&sb, NULL);
}

static int exec_sql(struct store *s, const char *sql, const char *what)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int ret = error_code(WW_ESTATE, "%s: %s: %s", s->path, what,
				     msg ? msg : sqlite3_errmsg(s->db));

		sqlite3_free(msg);
		return ret;
	}
	return 0;
}

int store_schema_version(struct store *s)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int migrate(struct store *s)
{
	int have, ret;

	/* IMMEDIATE: two processes opening a new database do not both migrate. */
	ret = exec_sql(s, "BEGIN IMMEDIATE", "cannot lock for migration");
	if (ret)
		return ret;
	have = store_schema_version(s);
	if (have < 0) {
		ret = db_error(s, "cannot read the schema version");
		goto rollback;
	}
	if ((size_t)have > ARRAY_SIZE(migrations)) {
		ret = error_code(WW_ESTATE, "%s: schema version %d is newer than this warnwatch (%zu)",
				 s->path, have, ARRAY_SIZE(migrations));
		goto rollback;
	}
	for (size_t i = have; i < ARRAY_SIZE(migrations); i++) {
		char pragma[64];

		ret = exec_sql(s, migrations[i], "migration failed");
		if (ret)
			goto rollback;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %zu", i + 1);
		ret = exec_sql(s, pragma, "cannot set the schema version");
		if (ret)
			goto rollback;
	}
	return exec_sql(s, "COMMIT", "cannot commit the migration");
rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

int store_open(struct store *out, const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	out->db = NULL;
	ret = mkdirs(dir, 0700, WW_ESTATE);
	if (ret)
		goto out;
	strbuf_addf(&path, "%s/%s", dir, STORE_FILE);
	out->path = strbuf_detach(&path, NULL);
	if (sqlite3_open_v2(out->path, &out->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		ret = db_error(out, "cannot open");
		goto out_close;
	}
	sqlite3_busy_timeout(out->db, STORE_BUSY_MS);
	/* FULL: an intent that was committed survives a power cut too. */
	ret = exec_sql(out, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
		       " PRAGMA foreign_keys = ON;", "cannot configure");
	if (!ret)
		ret = migrate(out);
	if (!ret)
		return 0;
out_close:
	store_close(out);
out:
	strbuf_release(&path);
	return ret;
}

void store_close(struct store *s)
{
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
	free(s->path);
	s->path = NULL;
}

const char *reply_state_name(enum reply_state st)
{
	switch (st) {
	case REPLY_INTENT: return "intent";
	case REPLY_SENT: return "sent";
	case REPLY_FAILED: return "failed";
	}
	return "?";
}

static enum reply_state parse_state(const char *s)
{
	if (s && !strcmp(s, "sent"))
		return REPLY_SENT;
	if (s && !strcmp(s, "failed"))
		return REPLY_FAILED;
	return REPLY_INTENT;
}

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

void store_reply_release(struct store_reply *r)
{
	free(r->series);
	free(r->message_id);
	free(r->in_reply_to);
	free(r->subject);
	free(r->recipients);
	free(r->error);
	memset(r, 0, sizeof(*r));
}

static int find(struct store_reply *out, struct store *s, const char *series,
		int version)
{
	static const char sql[] =
		"SELECT series, version, message_id, in_reply_to, subject, recipients,"
		" state, created, updated, error, forced FROM replies"
		" WHERE series = ?1 AND version = ?2 ORDER BY id DESC LIMIT 1";
	sqlite3_stmt *st;
	int rc, ret;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(s, "cannot query replies");
	sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, version);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (out) {
			store_reply_release(out);
			out->series = col_str(st, 0);
			out->version = sqlite3_column_int(st, 1);
			out->message_id = col_str(st, 2);
			out->in_reply_to = col_str(st, 3);
			out->subject = col_str(st, 4);
			out->recipients = col_str(st, 5);
			out->state = parse_state((const char *)sqlite3_column_text(st, 6));
			out->created = sqlite3_column_int64(st, 7);
			out->updated = sqlite3_column_int64(st, 8);
			out->error = col_str(st, 9);
			out->forced = sqlite3_column_int(st, 10);
		}
		ret = 0;
	} else if (rc == SQLITE_DONE) {
		ret = WW_ENOTFOUND;
	} else {
		ret = db_error(s, "cannot query replies");
	}
	sqlite3_finalize(st);
	return ret;
}

int store_find_reply(struct store_reply *out, struct store *s,
		     const char *series, int version)
{
	return find(out, s, series, version);
}

int store_begin_reply(struct store *s, const struct store_reply *r,
		      struct store_reply *existing)
{
	static const char sql[] =
		"INSERT INTO replies (series, version, message_id, in_reply_to,"
		" subject, recipients, state, created, updated, forced)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'intent', ?7, ?7, ?8)"
		" ON CONFLICT (message_id) DO UPDATE SET state = 'intent',"
		" updated = ?7, error = NULL, forced = ?8";
	struct store_reply old = STORE_REPLY_INIT;
	sqlite3_stmt *st = NULL;
	int ret;

	ret = exec_sql(s, "BEGIN IMMEDIATE", "cannot lock");
	if (ret)
		return ret;
	ret = find(&old, s, r->series, r->version);
	if (ret && ret != WW_ENOTFOUND)
		goto rollback;
	if (!ret && old.state != REPLY_FAILED && !r->forced) {
		ret = error_code(WW_EDUP, "series <%s> v%d already has a reply <%s> (%s)",
				 r->series, r->version, old.message_id,
				 reply_state_name(old.state));
		if (existing) {
			store_reply_release(existing);
			*existing = old;
			memset(&old, 0, sizeof(old));
		}
		goto rollback;
	}
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		ret = db_error(s, "cannot record the reply");
		goto rollback;
	}
	sqlite3_bind_text(st, 1, r->series, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, r->version);
	sqlite3_bind_text(st, 3, r->message_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->in_reply_to ? r->in_reply_to : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->subject ? r->subject : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, r->recipients ? r->recipients : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)time(NULL));
	sqlite3_bind_int(st, 8, r->forced);
	if (sqlite3_step(st) != SQLITE_DONE) {
		ret = db_error(s, "cannot record the reply");
		goto rollback;
	}
	sqlite3_finalize(st);
	st = NULL;
	ret = exec_sql(s, "COMMIT", "cannot commit the reply");
	store_reply_release(&old);
	return ret;
rollback:
	if (st)
		sqlite3_finalize(st);
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	store_reply_release(&old);
	return ret;
}

static int set_state(struct store *s, const char *message_id, const char *state,
		     const char *why)
{
	static const char sql[] =
		"UPDATE replies SET state = ?1, updated = ?2, error = ?3"
		" WHERE message_id = ?4";
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_error(s, "cannot update the reply");
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)time(NULL));
	if (why)
		sqlite3_bind_text(st, 3, why, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_text(st, 4, message_id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		ret = db_error(s, "cannot update the reply");
	else if (!sqlite3_changes(s->db))
		ret = error_code(WW_ESTATE, "%s: no reply <%s> recorded", s->path, message_id);
	sqlite3_finalize(st);
	return ret;
}

int store_mark_sent(struct store *s, const char *message_id)
{
	return set_state(s, message_id, "sent", NULL);
}

int store_mark_failed(struct store *s, const char *message_id, const char *why)
{
	return set_state(s, message_id, "failed", why);
}
