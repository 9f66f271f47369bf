/*
 * The schema versions of the state database, in order: the array index + 1
 * is the version a migration leads to.  Each table's SQL is its owner's
 * (store.c the replies, queue.c the queue, backfill.c the archives it
 * read, feedback.c what people said back); this list only orders them,
 * so that store.c runs migrations without knowing whose they are.
 *
 * Never edit or reorder a released entry: add a new one.  Written in the
 * dialect both backends accept; store-pg.c widens INTEGER to BIGINT and
 * INTEGER PRIMARY KEY to an identity column.
 */
#include "store-be.h"
#include "queue.h"
#include "backfill.h"
#include "feedback.h"

const char *const store_migrations[] = {
	/* 1: replies sent (or about to be) per series version. */
	store_replies_sql,
	/* 2: the service's queue (queue.h). */
	queue_schema_sql,
	/* 3: list archives read by `warnwatch backfill` (backfill.h). */
	backfill_schema_sql,
	/* 4: several workers: leases and heartbeats (queue.h), and at most
	 * one unforced reply in flight or sent per series version. */
	queue_workers_sql,
	/* 5: steering builds to workers whose kernel is warm; each worker's
	 * lease, for status. */
	queue_affinity_sql,
	/* 6: at most one unforced reply per message answered (store.c). */
	store_replies_once_sql,
	/* 7: the last commit read per public-inbox epoch of a watched list
	 * (queue.h, queue_epoch_*). */
	queue_epochs_sql,
	/* 8: b4 runs once per series; what its thread lacked (queue.h). */
	queue_fetch_sql,
	/* 9: what people said back (feedback.h): mutes by reply, and
	 * findings recipients called wrong, by fingerprint. */
	feedback_schema_sql,
};

const size_t store_nr_migrations = ARRAY_SIZE(store_migrations);
