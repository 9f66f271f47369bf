/*
 * The SQLite backend of the state store (store-be.h): one file in the
 * state directory, WAL, synchronous=FULL, a busy timeout, and BEGIN
 * IMMEDIATE so that writers queue up rather than fail half-way.  One
 * machine only: locks are always granted and rows are not locked apart
 * from the database, which IMMEDIATE already serialises.
 */
#include "store-be.h"

#include <sqlite3.h>

struct sqlite_rows {
	struct store_rows base;
	sqlite3_stmt *st;
	struct store *s;
	bool first;	/* positioned on the first row, not yet returned */
};

static int db_error(struct store *s, const char *what)
{
	int code = WW_ESTATE;

	if (s->db && sqlite3_errcode(s->db) == SQLITE_CONSTRAINT &&
	    (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE ||
	     sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_PRIMARYKEY))
		code = WW_EDUP;
	return error_code(code, "%s: %s: %s", s->path ? s->path : "state", what,
			  s->db ? sqlite3_errmsg(s->db) : "no database");
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

static int sq_open(struct store *s)
{
	if (sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK)
		return db_error(s, "cannot open");
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	/* FULL: an intent that was committed survives a power cut too. */
	return exec_sql(s, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
			" PRAGMA foreign_keys = ON;", "cannot configure");
}

static void sq_close(struct store *s)
{
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

static int sq_schema_version(struct store *s)
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

static int sq_migrate(struct store *s, const char *const *migrations, size_t nr)
{
	int have, ret;

	/* IMMEDIATE: two processes opening a new database do not both migrate. */
	ret = exec_sql(s, "BEGIN IMMEDIATE", "cannot lock for migration");
	if (ret)
		return ret;
	have = sq_schema_version(s);
	if (have < 0) {
		ret = db_error(s, "cannot read the schema version");
		goto rollback;
	}
	if ((size_t)have > nr) {
		ret = error_code(WW_ESTATE, "%s: schema version %d is newer than this warnwatch (%zu)",
				 s->path, have, nr);
		goto rollback;
	}
	for (size_t i = have; i < nr; i++) {
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

static int prep(sqlite3_stmt **out, struct store *s, const char *sql,
		const char *types, va_list ap)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return error_code(WW_ESTATE, "state database: %s", sqlite3_errmsg(s->db));
	for (int i = 0; types[i]; i++) {
		if (types[i] == 's') {
			const char *v = va_arg(ap, const char *);

			sqlite3_bind_text(st, i + 1, v ? v : "", -1, SQLITE_TRANSIENT);
		} else if (types[i] == 'i') {
			sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
		} else if (types[i] == 't') {
			sqlite3_bind_int64(st, i + 1, (long long)va_arg(ap, time_t));
		} else {
			BUG("bad bind type '%c'", types[i]);
		}
	}
	*out = st;
	return 0;
}

static int step_error(struct store *s)
{
	int code = WW_ESTATE;
	int ext = sqlite3_extended_errcode(s->db);

	if (ext == SQLITE_CONSTRAINT_UNIQUE || ext == SQLITE_CONSTRAINT_PRIMARYKEY)
		code = WW_EDUP;
	return error_code(code, "state database: %s", sqlite3_errmsg(s->db));
}

static int sq_vexec(struct store *s, const char *sql, const char *types, va_list ap)
{
	sqlite3_stmt *st;
	int ret = prep(&st, s, sql, types, ap);

	if (ret < 0)
		return ret;
	ret = sqlite3_step(st);
	if (ret != SQLITE_DONE && ret != SQLITE_ROW)
		ret = step_error(s);
	else
		ret = sqlite3_changes(s->db);
	sqlite3_finalize(st);
	return ret;
}

static const struct store_rows_ops sqlite_rows_ops;

static int sq_vquery(struct store_rows **out, struct store *s, const char *sql,
		     const char *types, va_list ap)
{
	struct sqlite_rows *r;
	sqlite3_stmt *st = NULL;
	int ret = prep(&st, s, sql, types, ap);

	if (ret < 0)
		return ret;
	ret = sqlite3_step(st);
	if (ret == SQLITE_ROW) {
		r = xcalloc(1, sizeof(*r));
		r->base.ops = &sqlite_rows_ops;
		r->st = st;
		r->s = s;
		r->first = true;
		*out = &r->base;
		return 1;
	}
	ret = ret == SQLITE_DONE ? 0 : step_error(s);
	sqlite3_finalize(st);
	return ret;
}

static int rows_next(struct store_rows *base)
{
	struct sqlite_rows *r = (struct sqlite_rows *)base;
	int rc;

	if (r->first) {
		r->first = false;
		return 1;
	}
	rc = sqlite3_step(r->st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return step_error(r->s);
}

static int rows_ncols(struct store_rows *base)
{
	return sqlite3_column_count(((struct sqlite_rows *)base)->st);
}

static const char *rows_name(struct store_rows *base, int col)
{
	return sqlite3_column_name(((struct sqlite_rows *)base)->st, col);
}

static const char *rows_text(struct store_rows *base, int col)
{
	const unsigned char *t = sqlite3_column_text(((struct sqlite_rows *)base)->st, col);

	return t ? (const char *)t : "";
}

static long long rows_int(struct store_rows *base, int col)
{
	return sqlite3_column_int64(((struct sqlite_rows *)base)->st, col);
}

static bool rows_is_null(struct store_rows *base, int col)
{
	return sqlite3_column_type(((struct sqlite_rows *)base)->st, col) == SQLITE_NULL;
}

static bool rows_is_int(struct store_rows *base, int col)
{
	return sqlite3_column_type(((struct sqlite_rows *)base)->st, col) == SQLITE_INTEGER;
}

static void rows_free(struct store_rows *base)
{
	struct sqlite_rows *r = (struct sqlite_rows *)base;

	sqlite3_finalize(r->st);
	free(r);
}

static const struct store_rows_ops sqlite_rows_ops = {
	rows_next, rows_ncols, rows_name, rows_text, rows_int, rows_is_null,
	rows_is_int, rows_free,
};

static int sq_begin(struct store *s)
{
	/* IMMEDIATE: readers go on, but writers queue up here rather than
	 * failing half-way with SQLITE_BUSY. */
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return error_code(WW_ESTATE, "state database: %s", sqlite3_errmsg(s->db));
	return 0;
}

static int sq_commit(struct store *s)
{
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int ret = error_code(WW_ESTATE, "state database: %s",
				     sqlite3_errmsg(s->db));

		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	return 0;
}

static void sq_rollback(struct store *s)
{
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static int sq_try_lock(struct store *s, long long key)
{
	return 1;
}

static int sq_unlock(struct store *s, long long key)
{
	return 0;
}

const struct store_be store_be_sqlite = {
	.name = "sqlite",
	.open = sq_open,
	.close = sq_close,
	.migrate = sq_migrate,
	.schema_version = sq_schema_version,
	.vexec = sq_vexec,
	.vquery = sq_vquery,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.try_lock = sq_try_lock,
	.unlock = sq_unlock,
	.skip_locked = "",
	.for_update = "",
};
