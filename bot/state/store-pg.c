/*
 * The PostgreSQL backend of the state store (store-be.h), through libpq:
 * one database shared by pollers and workers on several machines.
 *
 * SQL arrives in the common dialect: `?` placeholders become $1..$n and
 * every argument is sent as text, its type inferred from where it is
 * used.  Transactions are READ COMMITTED; the callers that need more say
 * so in their SQL (FOR UPDATE SKIP LOCKED for claims) or rely on unique
 * constraints (a broken one is WW_EDUP).  Locks are session advisory
 * locks: they go when the connection does, so a dead poller's lock is
 * free again as soon as the server notices.
 *
 * A connection found broken outside a transaction is re-established once
 * before the statement is sent (the server restarted, a cut TCP
 * connection); inside one the statement fails and the caller's rollback
 * ends it.  Every wait is bounded: connect_timeout, TCP keepalives and a
 * statement_timeout.
 */
#include "store-be.h"

#include <ctype.h>
#include <libpq-fe.h>

#define PG_CONNECT_TIMEOUT "10"
#define PG_STATEMENT_TIMEOUT "'30s'"
#define PG_MIGRATE_LOCK "2004287489"	/* advisory lock key: migrations */
#define PG_MAX_PARAMS 32

struct pg_rows {
	struct store_rows base;
	PGresult *res;
	int row;	/* the current row; -1 before the first */
};

/* libpq's messages run over lines ("...failed: Connection refused\n\tIs
 * the server running..."): one line for logs, "; " between the parts. */
static void flatten(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < sb->len; i++) {
		if (sb->buf[i] != '\n') {
			strbuf_addch(&out, sb->buf[i]);
			continue;
		}
		while (i + 1 < sb->len && isspace((unsigned char)sb->buf[i + 1]))
			i++;
		strbuf_addstr(&out, "; ");
	}
	strbuf_reset(sb);
	strbuf_addbuf(sb, &out);
	strbuf_release(&out);
}

static int pg_error(struct store *s, PGresult *res, const char *what)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorMessage(res) : NULL;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, msg && *msg ? msg : PQerrorMessage(s->conn));
	strbuf_trim(&sb);
	flatten(&sb);
	ret = error_code(state && !strcmp(state, "23505") ? WW_EDUP : WW_ESTATE,
			 "%s: %s: %s", s->path, what, sb.buf);
	strbuf_release(&sb);
	return ret;
}

static void no_notices(void *arg, const char *message)
{
}

static int pg_connect(struct store *s)
{
	const char *keys[] = {
		"dbname", "password", "connect_timeout", "keepalives",
		"keepalives_idle", "keepalives_interval", "keepalives_count",
		"tcp_user_timeout", "application_name", NULL,
	};
	const char *vals[] = {
		s->conninfo, s->password, PG_CONNECT_TIMEOUT, "1", "10", "5", "3",
		"30000", "warnwatch", NULL,
	};
	PGconn *c;
	PGresult *res;

	/* dbname is expanded from the URL; the later keys add to it, the
	 * password only when there is one. */
	if (!s->password) {
		for (size_t i = 1; keys[i]; i++) {
			keys[i] = keys[i + 1];
			vals[i] = vals[i + 1];
		}
	}
	if (s->conn)
		PQfinish(s->conn);
	c = PQconnectdbParams(keys, vals, 1);
	s->conn = c;
	s->epoch++;
	if (!c)
		return error_code(WW_ESTATE, "%s: out of memory", s->path);
	if (PQstatus(c) != CONNECTION_OK)
		return pg_error(s, NULL, "cannot connect");
	PQsetNoticeProcessor(c, no_notices, NULL);
	res = PQexec(c, "SET statement_timeout = " PG_STATEMENT_TIMEOUT);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		int ret = pg_error(s, res, "cannot configure");

		PQclear(res);
		return ret;
	}
	PQclear(res);
	return 0;
}

/*
 * Opening: a server that does not answer (down, starting, shutting down)
 * is WW_ENET, which a service may wait out; one that answers and refuses
 * us (password, database) stays WW_ESTATE.  libpq's ping tells them apart
 * without parsing its messages.
 */
static int pg_open(struct store *s)
{
	int ret = pg_connect(s);
	PGPing ping;

	if (ret != WW_ESTATE || !s->conn || PQstatus(s->conn) == CONNECTION_OK)
		return ret;
	ping = PQpingParams((const char *[]){ "dbname", "connect_timeout", NULL },
			    (const char *[]){ s->conninfo, PG_CONNECT_TIMEOUT, NULL }, 1);
	if (ping == PQPING_NO_RESPONSE || ping == PQPING_REJECT) {
		struct error_state why;

		/* The same message, as a failure to connect. */
		error_state_capture(&why, WW_ENET);
		ret = error_state_restore(&why);
	}
	return ret;
}

static void pg_close(struct store *s)
{
	if (s->conn)
		PQfinish(s->conn);
	s->conn = NULL;
}

/* Before a statement outside a transaction: a broken connection (the
 * server restarted, the network cut) gets one new one. */
static int pg_ensure(struct store *s)
{
	if (s->conn && PQstatus(s->conn) == CONNECTION_OK)
		return 0;
	if (s->txn)
		return error_code(WW_ESTATE, "%s: connection lost in a transaction",
				  s->path);
	return pg_connect(s);
}

/* `?` -> $n, outside quoted literals and identifiers. */
static int placeholders(struct strbuf *out, const char *sql)
{
	char quote = 0;
	int n = 0;

	for (const char *p = sql; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '?') {
			strbuf_addf(out, "$%d", ++n);
			continue;
		}
		strbuf_addch(out, *p);
	}
	return n;
}

static PGresult *run(struct store *s, const char *sql, const char *types,
		     va_list ap)
{
	struct strbuf q = STRBUF_INIT;
	char bufs[PG_MAX_PARAMS][24];
	const char *vals[PG_MAX_PARAMS];
	int n = strlen(types);
	PGresult *res;

	if (n > PG_MAX_PARAMS)
		BUG("%d parameters in one statement", n);
	if (placeholders(&q, sql) != n)
		BUG("placeholders and types differ in '%s'", sql);
	for (int i = 0; i < n; i++) {
		if (types[i] == 's') {
			const char *v = va_arg(ap, const char *);

			vals[i] = v ? v : "";
		} else if (types[i] == 'i') {
			snprintf(bufs[i], sizeof(bufs[i]), "%lld", va_arg(ap, long long));
			vals[i] = bufs[i];
		} else if (types[i] == 't') {
			snprintf(bufs[i], sizeof(bufs[i]), "%lld",
				 (long long)va_arg(ap, time_t));
			vals[i] = bufs[i];
		} else {
			BUG("bad bind type '%c'", types[i]);
		}
	}
	res = PQexecParams(s->conn, q.buf, n, NULL, vals, NULL, NULL, 0);
	strbuf_release(&q);
	return res;
}

static int pg_vexec(struct store *s, const char *sql, const char *types, va_list ap)
{
	PGresult *res;
	int ret = pg_ensure(s);

	if (ret)
		return ret;
	res = run(s, sql, types, ap);
	if (PQresultStatus(res) == PGRES_COMMAND_OK ||
	    PQresultStatus(res) == PGRES_TUPLES_OK) {
		const char *n = PQcmdTuples(res);

		ret = *n ? atoi(n) : PQntuples(res);
	} else {
		ret = pg_error(s, res, "state database");
	}
	PQclear(res);
	return ret;
}

static const struct store_rows_ops pg_rows_ops;

static int pg_vquery(struct store_rows **out, struct store *s, const char *sql,
		     const char *types, va_list ap)
{
	struct pg_rows *r;
	PGresult *res;
	int ret = pg_ensure(s);

	if (ret)
		return ret;
	res = run(s, sql, types, ap);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = pg_error(s, res, "state database");
		PQclear(res);
		return ret;
	}
	if (!PQntuples(res)) {
		PQclear(res);
		return 0;
	}
	r = xcalloc(1, sizeof(*r));
	r->base.ops = &pg_rows_ops;
	r->res = res;
	r->row = -1;	/* the caller reads row 0 at once, or calls next */
	*out = &r->base;
	return 1;
}

static int cur(struct pg_rows *r)
{
	return r->row < 0 ? 0 : r->row;
}

static int rows_next(struct store_rows *base)
{
	struct pg_rows *r = (struct pg_rows *)base;

	r->row = r->row < 0 ? 0 : r->row + 1;
	return r->row < PQntuples(r->res);
}

static int rows_ncols(struct store_rows *base)
{
	return PQnfields(((struct pg_rows *)base)->res);
}

static const char *rows_name(struct store_rows *base, int col)
{
	return PQfname(((struct pg_rows *)base)->res, col);
}

static const char *rows_text(struct store_rows *base, int col)
{
	struct pg_rows *r = (struct pg_rows *)base;

	return PQgetvalue(r->res, cur(r), col);
}

static long long rows_int(struct store_rows *base, int col)
{
	struct pg_rows *r = (struct pg_rows *)base;
	const char *v = PQgetvalue(r->res, cur(r), col);

	if (!strcmp(v, "t"))	/* a boolean expression */
		return 1;
	return strtoll(v, NULL, 10);
}

static bool rows_is_null(struct store_rows *base, int col)
{
	struct pg_rows *r = (struct pg_rows *)base;

	return PQgetisnull(r->res, cur(r), col);
}

static bool rows_is_int(struct store_rows *base, int col)
{
	struct pg_rows *r = (struct pg_rows *)base;
	Oid t = PQftype(r->res, col);

	/* int8, int2, int4 (pg_type.h) */
	return !PQgetisnull(r->res, cur(r), col) && (t == 20 || t == 21 || t == 23);
}

static void rows_free(struct store_rows *base)
{
	struct pg_rows *r = (struct pg_rows *)base;

	PQclear(r->res);
	free(r);
}

static const struct store_rows_ops pg_rows_ops = {
	rows_next, rows_ncols, rows_name, rows_text, rows_int, rows_is_null,
	rows_is_int, rows_free,
};

static int simple(struct store *s, const char *sql, const char *what)
{
	PGresult *res = PQexec(s->conn, sql);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = pg_error(s, res, what);
	PQclear(res);
	return ret;
}

static int pg_begin(struct store *s)
{
	int ret = pg_ensure(s);

	return ret ? ret : simple(s, "BEGIN", "cannot begin");
}

/*
 * In a transaction that a failed statement aborted, COMMIT rolls back and
 * still succeeds (its tag says ROLLBACK): not a commit for our callers,
 * whose earlier writes are gone.
 */
static int pg_commit(struct store *s)
{
	PGresult *res = PQexec(s->conn, "COMMIT");
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		ret = pg_error(s, res, "cannot commit");
	else if (!strcmp(PQcmdStatus(res), "ROLLBACK"))
		ret = error_code(WW_ESTATE, "%s: cannot commit: a statement failed "
				 "in the transaction, which was rolled back", s->path);
	PQclear(res);
	if (ret)
		simple(s, "ROLLBACK", "cannot roll back");
	return ret;
}

static void pg_rollback(struct store *s)
{
	simple(s, "ROLLBACK", "cannot roll back");
}

static int one_value(struct store *s, const char *sql, const char *arg,
		     const char **vals_out, PGresult **res_out)
{
	PGresult *res;
	int ret = pg_ensure(s);

	if (ret)
		return ret;
	res = PQexecParams(s->conn, sql, arg ? 1 : 0, NULL, &arg, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		ret = pg_error(s, res, "state database");
		PQclear(res);
		return ret < 0 ? ret : WW_ESTATE;	/* never 0: the value is unset */
	}
	*vals_out = PQgetvalue(res, 0, 0);
	*res_out = res;
	return 0;
}

static int pg_try_lock(struct store *s, long long key)
{
	char k[24];
	const char *v = NULL;
	PGresult *res = NULL;
	int ret;

	snprintf(k, sizeof(k), "%lld", key);
	ret = one_value(s, "SELECT pg_try_advisory_lock($1::bigint)", k, &v, &res);
	if (ret)
		return ret;
	ret = !strcmp(v, "t");
	PQclear(res);
	return ret;
}

static int pg_unlock(struct store *s, long long key)
{
	char k[24];
	const char *v = NULL;
	PGresult *res = NULL;
	int ret;

	snprintf(k, sizeof(k), "%lld", key);
	ret = one_value(s, "SELECT pg_advisory_unlock($1::bigint)", k, &v, &res);
	if (!ret)
		PQclear(res);
	return ret;
}

static int pg_schema_version(struct store *s)
{
	const char *v = NULL;
	PGresult *res = NULL;
	int ret;

	if (one_value(s, "SELECT coalesce(max(version), 0) FROM ww_schema",
		      NULL, &v, &res))
		return -1;
	ret = atoi(v);
	PQclear(res);
	return ret;
}

/* The common dialect's types, widened: times and ids do not fit int4
 * for ever, and INTEGER PRIMARY KEY is SQLite's rowid. */
static void pg_dialect(struct strbuf *out, const char *sql)
{
	const char *p = sql, *m;

	while ((m = strstr(p, "INTEGER"))) {
		strbuf_add(out, p, m - p);
		if (starts_with(m, "INTEGER PRIMARY KEY")) {
			strbuf_addstr(out, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY");
			p = m + strlen("INTEGER PRIMARY KEY");
		} else {
			strbuf_addstr(out, "BIGINT");
			p = m + strlen("INTEGER");
		}
	}
	strbuf_addstr(out, p);
}

static int pg_migrate(struct store *s, const char *const *migrations, size_t nr)
{
	struct strbuf sql = STRBUF_INIT;
	int have, ret;

	/* The lock: two workers starting on an empty database do not both
	 * migrate; the second waits and finds the work done. */
	ret = simple(s, "BEGIN", "cannot begin the migration");
	if (!ret)
		ret = simple(s, "SELECT pg_advisory_xact_lock(" PG_MIGRATE_LOCK ")",
			     "cannot lock for migration");
	if (!ret)
		ret = simple(s, "CREATE TABLE IF NOT EXISTS ww_schema (version BIGINT NOT NULL)",
			     "cannot create the schema table");
	if (ret)
		goto rollback;
	have = pg_schema_version(s);
	if (have < 0) {
		ret = error_code(WW_ESTATE, "%s: cannot read the schema version", s->path);
		goto rollback;
	}
	if ((size_t)have > nr) {
		ret = error_code(WW_ESTATE, "%s: schema version %d is newer than this warnwatch (%zu)",
				 s->path, have, nr);
		goto rollback;
	}
	for (size_t i = have; i < nr; i++) {
		strbuf_reset(&sql);
		pg_dialect(&sql, migrations[i]);
		strbuf_addf(&sql, ";\nDELETE FROM ww_schema; INSERT INTO ww_schema VALUES (%zu)",
			    i + 1);
		ret = simple(s, sql.buf, "migration failed");
		if (ret)
			goto rollback;
	}
	strbuf_release(&sql);
	return simple(s, "COMMIT", "cannot commit the migration");
rollback:
	strbuf_release(&sql);
	simple(s, "ROLLBACK", "cannot roll back");
	return ret;
}

const struct store_be store_be_pg = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.migrate = pg_migrate,
	.schema_version = pg_schema_version,
	.vexec = pg_vexec,
	.vquery = pg_vquery,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.try_lock = pg_try_lock,
	.unlock = pg_unlock,
	.skip_locked = " FOR UPDATE SKIP LOCKED",
	.for_update = " FOR UPDATE",
};
