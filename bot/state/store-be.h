/*
 * The backends behind store.h, like git's ref storage backends: each
 * fills one `struct store_be` (store-sqlite.c, store-pg.c); store.c
 * dispatches to it and keeps what is common (running the migrations,
 * replies).
 * Private to the store: nothing else includes this.
 */
#ifndef WW_STORE_BE_H
#define WW_STORE_BE_H

#include "store.h"

struct store_be {
	const char *name;
	/* Connect `s` (s->path / s->conninfo set by store.c). */
	int (*open)(struct store *s);
	void (*close)(struct store *s);
	/* Apply migrations[have..nr-1] atomically against concurrent openers;
	 * each migration is several statements of the common dialect. */
	int (*migrate)(struct store *s, const char *const *migrations, size_t nr);
	int (*schema_version)(struct store *s);
	int (*vexec)(struct store *s, const char *sql, const char *types, va_list ap);
	int (*vquery)(struct store_rows **out, struct store *s, const char *sql,
		      const char *types, va_list ap);
	int (*begin)(struct store *s);
	int (*commit)(struct store *s);
	void (*rollback)(struct store *s);
	int (*try_lock)(struct store *s, long long key);
	int (*unlock)(struct store *s, long long key);
	const char *skip_locked, *for_update;
};

/* A cursor: each backend's rows begin with this. */
struct store_rows {
	const struct store_rows_ops *ops;
};

struct store_rows_ops {
	int (*next)(struct store_rows *r);
	int (*ncols)(struct store_rows *r);
	const char *(*name)(struct store_rows *r, int col);
	const char *(*text)(struct store_rows *r, int col);
	long long (*integer)(struct store_rows *r, int col);
	bool (*is_null)(struct store_rows *r, int col);
	bool (*is_int)(struct store_rows *r, int col);
	void (*free)(struct store_rows *r);
};

extern const struct store_be store_be_sqlite;
extern const struct store_be store_be_pg;

/* The migrations in schema order (store-schema.c), and the replies
 * table's own two (store.c). */
extern const char *const store_migrations[];
extern const size_t store_nr_migrations;
extern const char store_replies_sql[], store_replies_once_sql[];

#endif
