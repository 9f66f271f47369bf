/*
 * The state database, whatever the backend: opening by directory or URL
 * and running the migrations (their list: store-schema.c; each table's
 * SQL: its owner module), the SQL entry points that dispatch to the
 * backend (store-be.h), and the replies table.  See store.h for the
 * crash-safety argument.
 */
#include "store-be.h"
#include "env.h"
#include "mkdirs.h"
#include "redact.h"
#include "safefs.h"

#include <sys/stat.h>

/* The replies table (store.h's store_reply_*): the store's own. */
const char store_replies_sql[] =
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
	"CREATE INDEX replies_series ON replies (series, version);";

/*
 * At most one unforced reply in flight or sent per message answered,
 * whichever queue entry drafted it (a thread whose cover has no tag became
 * one "series" per patch, each answering the same patch).  Copies
 * recorded before this keep their row but leave the index, as a forced
 * reply does.
 */
const char store_replies_once_sql[] =
	"UPDATE replies SET forced = 1 WHERE forced = 0 AND in_reply_to <> ''"
	"  AND state IN ('intent', 'sent') AND id NOT IN (SELECT MIN(id)"
	"  FROM replies WHERE forced = 0 AND state IN ('intent', 'sent')"
	"  GROUP BY in_reply_to);"
	"CREATE UNIQUE INDEX replies_answer_once ON replies (in_reply_to)"
	"  WHERE forced = 0 AND in_reply_to <> '' AND state IN ('intent', 'sent');";

char *store_default_dir(void)
{
	const char *xdg = env_get(ENV_XDG_STATE_HOME), *home = env_get(ENV_HOME);
	struct strbuf sb = STRBUF_INIT;

	if (xdg && *xdg)
		strbuf_addf(&sb, "%s/warnwatch", xdg);
	else
		strbuf_addf(&sb, "%s/.local/state/warnwatch", home && *home ? home : ".");
	return strbuf_detach(&sb, NULL);
}

int store_schema_version(struct store *s)
{
	return s->be ? s->be->schema_version(s) : -1;
}

static int open_be(struct store *s)
{
	int ret = s->be->open(s);

	if (!ret)
		ret = s->be->migrate(s, store_migrations, store_nr_migrations);
	if (ret)
		store_close(s);
	return ret;
}

int store_open(struct store *out, const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = mkdirs(dir, 0700, WW_ESTATE);
	if (ret) {
		strbuf_release(&path);
		return ret;
	}
	strbuf_addf(&path, "%s/%s", dir, STORE_FILE);
	out->path = strbuf_detach(&path, NULL);
	out->be = &store_be_sqlite;
	return open_be(out);
}

static bool is_pg_url(const char *url)
{
	return starts_with(url, "postgresql://") || starts_with(url, "postgres://");
}

int store_open_url(struct store *out, const char *url,
		   const char *password_file)
{
	struct strbuf pw = STRBUF_INIT;
	int ret;

	if (!is_pg_url(url))
		return store_open(out, url);
	memset(out, 0, sizeof(*out));
	if (password_file) {
		ret = safefs_read_secret(&pw, password_file);
		if (ret) {
			strbuf_release(&pw);
			return ret;
		}
		out->password = strbuf_detach(&pw, NULL);
	}
	out->path = redact(url, 0);	/* for messages */
	out->conninfo = xstrdup(url);
	out->be = &store_be_pg;
	return open_be(out);
}

void store_close(struct store *s)
{
	if (s->be)
		s->be->close(s);
	free(s->path);
	/* Do not leave a password in freed memory. */
	if (s->password)
		memset(s->password, 0, strlen(s->password));
	free(s->password);
	free(s->conninfo);
	memset(s, 0, sizeof(*s));
}

const char *store_backend_name(const struct store *s)
{
	return s->be ? s->be->name : "none";
}

bool store_is_shared(const struct store *s)
{
	return s->be == &store_be_pg;
}

/* ---- SQL, dispatched to the backend ---------------------------------- */

int store_vexec(struct store *s, const char *sql, const char *types, va_list ap)
{
	return s->be->vexec(s, sql, types, ap);
}

int store_vquery(struct store_rows **out, struct store *s, const char *sql,
		 const char *types, va_list ap)
{
	return s->be->vquery(out, s, sql, types, ap);
}

int store_exec(struct store *s, const char *sql, const char *types, ...)
{
	va_list ap;
	int ret;

	va_start(ap, types);
	ret = s->be->vexec(s, sql, types, ap);
	va_end(ap);
	return ret;
}

int store_query(struct store_rows **out, struct store *s, const char *sql,
		const char *types, ...)
{
	va_list ap;
	int ret;

	va_start(ap, types);
	ret = s->be->vquery(out, s, sql, types, ap);
	va_end(ap);
	return ret;
}

int store_rows_next(struct store_rows *r)
{
	return r->ops->next(r);
}

int store_rows_ncols(struct store_rows *r)
{
	return r->ops->ncols(r);
}

const char *store_rows_name(struct store_rows *r, int col)
{
	return r->ops->name(r, col);
}

long long store_rows_int(struct store_rows *r, int col)
{
	return r->ops->integer(r, col);
}

const char *store_rows_text(struct store_rows *r, int col)
{
	return r->ops->text(r, col);
}

bool store_rows_is_null(struct store_rows *r, int col)
{
	return r->ops->is_null(r, col);
}

bool store_rows_is_int(struct store_rows *r, int col)
{
	return r->ops->is_int(r, col);
}

void store_rows_free(struct store_rows *r)
{
	if (r)
		r->ops->free(r);
}

int store_begin(struct store *s)
{
	int ret;

	if (s->txn)
		BUG("nested state transaction");
	ret = s->be->begin(s);

	if (!ret)
		s->txn = 1;
	return ret;
}

int store_commit(struct store *s)
{
	int ret = s->be->commit(s);

	s->txn = 0;
	return ret;
}

void store_rollback(struct store *s)
{
	s->be->rollback(s);
	s->txn = 0;
}

const char *store_skip_locked(const struct store *s)
{
	return s->be->skip_locked;
}

const char *store_for_update(const struct store *s)
{
	return s->be->for_update;
}

const char *store_insert_order(const struct store *s)
{
	return store_is_shared(s) ? "ctid" : "rowid";
}

int store_try_lock(struct store *s, long long key)
{
	return s->be->try_lock(s, key);
}

int store_unlock(struct store *s, long long key)
{
	return s->be->unlock(s, key);
}

/* ---- replies ----------------------------------------------------------- */

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

static char *col_str(struct store_rows *r, int i)
{
	return store_rows_is_null(r, i) ? NULL : xstrdup(store_rows_text(r, i));
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

/* The newest reply for (series, version), or with `in_reply_to` set, the
 * newest one in flight or sent that answers that message. */
static int find(struct store_reply *out, struct store *s, const char *series,
		int version, const char *in_reply_to)
{
	struct store_rows *r;
	int ret;

	if (in_reply_to)
		ret = store_query(&r, s, "SELECT series, version, message_id, in_reply_to,"
				  " subject, recipients, state, created, updated, error, forced"
				  " FROM replies WHERE in_reply_to = ? AND in_reply_to <> ''"
				  " AND state IN ('intent', 'sent') ORDER BY id DESC LIMIT 1",
				  "s", in_reply_to);
	else
		ret = store_query(&r, s, "SELECT series, version, message_id, in_reply_to,"
				  " subject, recipients, state, created, updated, error, forced"
				  " FROM replies WHERE series = ? AND version = ?"
				  " ORDER BY id DESC LIMIT 1", "si", series, (long long)version);
	if (ret < 0)
		return error_prefix(ret, "cannot query replies");
	if (!ret)
		return WW_ENOTFOUND;
	if (out) {
		store_reply_release(out);
		out->series = col_str(r, 0);
		out->version = store_rows_int(r, 1);
		out->message_id = col_str(r, 2);
		out->in_reply_to = col_str(r, 3);
		out->subject = col_str(r, 4);
		out->recipients = col_str(r, 5);
		out->state = parse_state(store_rows_text(r, 6));
		out->created = store_rows_int(r, 7);
		out->updated = store_rows_int(r, 8);
		out->error = col_str(r, 9);
		out->forced = store_rows_int(r, 10);
	}
	store_rows_free(r);
	return 0;
}

/* What blocks `r`: a reply in flight or sent for its series version, or
 * one (of any series) to the message it answers.  0 with *old filled,
 * WW_ENOTFOUND, or an error. */
static int find_blocking(struct store_reply *old, struct store *s,
			 const struct store_reply *r)
{
	int ret = find(old, s, r->series, r->version, NULL);

	if ((!ret && old->state != REPLY_FAILED) || (ret && ret != WW_ENOTFOUND))
		return ret;
	/* The retry of a failed forced reply stays forced. */
	if (!ret && old->forced && !strcmp(old->message_id, r->message_id))
		return WW_ENOTFOUND;
	if (!r->in_reply_to || !*r->in_reply_to)
		return WW_ENOTFOUND;
	store_reply_release(old);
	return find(old, s, NULL, 0, r->in_reply_to);
}

int store_find_reply(struct store_reply *out, struct store *s,
		     const char *series, int version)
{
	return find(out, s, series, version, NULL);
}

static int dup_error(struct store_reply *old, struct store_reply *existing)
{
	int ret = error_code(WW_EDUP, "series <%s> v%d already has a reply <%s> (%s)"
			     " to <%s>", old->series, old->version, old->message_id,
			     reply_state_name(old->state), old->in_reply_to);

	if (existing) {
		store_reply_release(existing);
		*existing = *old;
		memset(old, 0, sizeof(*old));
	}
	return ret;
}

int store_begin_reply(struct store *s, const struct store_reply *r,
		      struct store_reply *existing)
{
	struct store_reply old = STORE_REPLY_INIT;
	time_t now = time(NULL);
	int ret;

	ret = store_begin(s);
	if (ret)
		return error_prefix(ret, "cannot lock");
	ret = r->forced ? WW_ENOTFOUND : find_blocking(&old, s, r);
	if (ret && ret != WW_ENOTFOUND)
		goto rollback;
	if (!ret) {
		ret = dup_error(&old, existing);
		goto rollback;
	}
	/* A row once forced stays forced when retried: it is the extra
	 * reply a human asked for, outside the one-reply index. */
	ret = store_exec(s, "INSERT INTO replies (series, version, message_id,"
			 " in_reply_to, subject, recipients, state, created, updated,"
			 " forced) VALUES (?, ?, ?, ?, ?, ?, 'intent', ?, ?, ?)"
			 " ON CONFLICT (message_id) DO UPDATE SET state = 'intent',"
			 " updated = excluded.updated, error = NULL, forced ="
			 " CASE WHEN replies.forced = 1 THEN 1 ELSE excluded.forced END",
			 "sisssstti", r->series, (long long)r->version, r->message_id,
			 r->in_reply_to, r->subject, r->recipients, now, now,
			 (long long)r->forced);
	if (ret == WW_EDUP) {
		/* Another process recorded its intent between our look and
		 * our insert: the unique index said no.  Report theirs. */
		store_rollback(s);
		ret = find_blocking(&old, s, r);
		if (!ret)
			ret = dup_error(&old, existing);
		else
			ret = error_code(WW_EDUP, "series <%s> v%d already has a reply",
					 r->series, r->version);
		store_reply_release(&old);
		return ret;
	}
	if (ret < 0) {
		error_prefix(ret, "cannot record the reply");
		goto rollback;
	}
	ret = store_commit(s);
	if (ret)
		error_prefix(ret, "cannot commit the reply");
	store_reply_release(&old);
	return ret;
rollback:
	store_rollback(s);
	store_reply_release(&old);
	return ret;
}

static int set_state(struct store *s, const char *message_id, const char *state,
		     const char *why)
{
	int ret;

	if (why)
		ret = store_exec(s, "UPDATE replies SET state = ?, updated = ?, error = ?"
				 " WHERE message_id = ?", "stss", state, time(NULL),
				 why, message_id);
	else
		ret = store_exec(s, "UPDATE replies SET state = ?, updated = ?,"
				 " error = NULL WHERE message_id = ?", "sts", state,
				 time(NULL), message_id);
	if (ret < 0)
		return error_prefix(ret, "cannot update the reply");
	if (!ret)
		return error_code(WW_ESTATE, "%s: no reply <%s> recorded", s->path,
				  message_id);
	return 0;
}

int store_mark_sent(struct store *s, const char *message_id)
{
	return set_state(s, message_id, "sent", NULL);
}

int store_mark_failed(struct store *s, const char *message_id, const char *why)
{
	return set_state(s, message_id, "failed", why);
}
