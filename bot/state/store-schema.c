/*
 * The schema versions of the state database, in order: the array index + 1
 * is the version a migration leads to.  The replies' tables are store.c's;
 * the others' SQL is here, in the state floor, although their queries are
 * their owners' (queue.c the queue, backfill.c the archives it read,
 * feedback.c what people said back): the state must not reach up into the
 * service or the history to learn its own tables.
 *
 * Never edit or reorder a released entry: add a new one.  Written in the
 * dialect both backends accept; store-pg.c widens INTEGER to BIGINT and
 * INTEGER PRIMARY KEY to an identity column.
 */
#include "store-be.h"

/* ---- the queue (queue.h): migrations 2, 4, 5, 7 and 8 ---- */

static const char queue_schema_sql[] =
	"CREATE TABLE queue_inboxes (\n"
	"	name TEXT PRIMARY KEY,\n"
	"	etag TEXT NOT NULL DEFAULT '',\n"
	"	last_modified TEXT NOT NULL DEFAULT '',\n"
	"	failures INTEGER NOT NULL DEFAULT 0,\n"
	"	next_at INTEGER NOT NULL DEFAULT 0,\n"
	"	last_ok INTEGER NOT NULL DEFAULT 0,\n"
	"	primed INTEGER NOT NULL DEFAULT 0,\n"
	"	last_error TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"CREATE TABLE queue_series (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	inbox TEXT NOT NULL,\n"
	"	root_msgid TEXT NOT NULL,\n"
	"	title TEXT NOT NULL DEFAULT '',\n"
	"	title_key TEXT NOT NULL DEFAULT '',\n"
	"	author TEXT NOT NULL DEFAULT '',\n"
	"	author_email TEXT NOT NULL DEFAULT '',\n"
	"	version INTEGER NOT NULL DEFAULT 1,\n"
	"	total INTEGER NOT NULL DEFAULT 1,\n"
	"	has_cover INTEGER NOT NULL DEFAULT 0,\n"
	"	prev_id INTEGER NOT NULL DEFAULT 0,\n"
	"	state TEXT NOT NULL,\n"
	"	failed_in TEXT NOT NULL DEFAULT '',\n"
	"	attempts INTEGER NOT NULL DEFAULT 0,\n"
	"	next_at INTEGER NOT NULL DEFAULT 0,\n"
	"	first_seen INTEGER NOT NULL,\n"
	"	last_seen INTEGER NOT NULL,\n"
	"	updated INTEGER NOT NULL,\n"
	"	error TEXT NOT NULL DEFAULT '',\n"
	"	verdict TEXT NOT NULL DEFAULT '',\n"
	"	findings INTEGER NOT NULL DEFAULT 0,\n"
	"	reply TEXT NOT NULL DEFAULT '',\n"
	"	force_reply INTEGER NOT NULL DEFAULT 0,\n"
	"	UNIQUE (inbox, root_msgid)\n"
	");\n"
	"CREATE INDEX queue_series_due ON queue_series (state, next_at);\n"
	"CREATE INDEX queue_series_author ON queue_series (author_email, title_key);\n"
	"CREATE TABLE queue_messages (\n"
	"	inbox TEXT NOT NULL,\n"
	"	msgid TEXT NOT NULL,\n"
	"	parent TEXT NOT NULL DEFAULT '',\n"
	"	subject TEXT NOT NULL DEFAULT '',\n"
	"	title_key TEXT NOT NULL DEFAULT '',\n"
	"	author_email TEXT NOT NULL DEFAULT '',\n"
	"	is_patch INTEGER NOT NULL DEFAULT 0,\n"
	"	version INTEGER NOT NULL DEFAULT 1,\n"
	"	idx INTEGER NOT NULL DEFAULT -1,\n"
	"	total INTEGER NOT NULL DEFAULT -1,\n"
	"	series_id INTEGER NOT NULL DEFAULT 0,\n"
	"	seen INTEGER NOT NULL,\n"
	"	PRIMARY KEY (inbox, msgid)\n"
	");\n"
	"CREATE INDEX queue_messages_series ON queue_messages (series_id);\n"
	"CREATE INDEX queue_messages_title ON queue_messages (author_email, title_key);\n"
	"CREATE TABLE queue_events (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	at INTEGER NOT NULL,\n"
	"	series_id INTEGER NOT NULL DEFAULT 0,\n"
	"	inbox TEXT NOT NULL DEFAULT '',\n"
	"	level TEXT NOT NULL,\n"
	"	message TEXT NOT NULL\n"
	");\n";

/*
 * Several workers (--role=worker) claim a series for one stage: the claim
 * is a lease (lease_owner, lease_until) that the worker renews while the
 * stage runs and that any other worker may take once it has expired.
 * queue_workers is what `status` shows of them.  replies_once makes a
 * second unforced reply to a series version impossible, whichever
 * process or machine tries.
 */
static const char queue_workers_sql[] =
	"ALTER TABLE queue_series ADD COLUMN lease_owner TEXT NOT NULL DEFAULT '';\n"
	"ALTER TABLE queue_series ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;\n"
	"CREATE TABLE queue_workers (\n"
	"	name TEXT PRIMARY KEY,\n"
	"	host TEXT NOT NULL,\n"
	"	pid INTEGER NOT NULL,\n"
	"	role TEXT NOT NULL,\n"
	"	started INTEGER NOT NULL,\n"
	"	heartbeat INTEGER NOT NULL,\n"
	"	series_id INTEGER NOT NULL DEFAULT 0,\n"
	"	stage TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"CREATE UNIQUE INDEX replies_once ON replies (series, version)\n"
	"	WHERE forced = 0 AND state IN ('intent', 'sent');\n";

/*
 * Steering builds to warm caches: the release a series will be built on
 * first (queue_series.base, set once it is checked, for lists that boot)
 * and the releases each worker has built (queue_workers.warm, ",6.1,6.12,").
 * A worker's lease is kept so that `status` can tell a silent worker
 * (killed, or its machine gone) from a busy one.
 */
static const char queue_affinity_sql[] =
	"ALTER TABLE queue_series ADD COLUMN base TEXT NOT NULL DEFAULT '';\n"
	"ALTER TABLE queue_workers ADD COLUMN warm TEXT NOT NULL DEFAULT '';\n"
	"ALTER TABLE queue_workers ADD COLUMN lease INTEGER NOT NULL DEFAULT 0;\n";

static const char queue_epochs_sql[] =
	"CREATE TABLE queue_epochs (\n"
	"	inbox TEXT NOT NULL,\n"
	"	epoch INTEGER NOT NULL,\n"
	"	last_commit TEXT NOT NULL DEFAULT '',\n"
	"	commits INTEGER NOT NULL DEFAULT 0,\n"
	"	updated INTEGER NOT NULL DEFAULT 0,\n"
	"	PRIMARY KEY (inbox, epoch)\n"
	");\n";

/*
 * Fetching once: how many times b4 ran for a series (status, make
 * bench-serve) and the patches its thread did not have when it was
 * reviewed anyway ("[3/5]").
 */
static const char queue_fetch_sql[] =
	"ALTER TABLE queue_series ADD COLUMN b4_runs INTEGER NOT NULL DEFAULT 0;\n"
	"ALTER TABLE queue_series ADD COLUMN missing TEXT NOT NULL DEFAULT '';\n";

/* ---- the archives backfill read (backfill.h): migration 3 ---- */

static const char backfill_schema_sql[] =
	/* the last commit read per epoch repository of a list */
	"CREATE TABLE backfill_epochs ("
	"  list TEXT NOT NULL,"
	"  repo TEXT NOT NULL,"
	"  last_commit TEXT NOT NULL,"
	"  commits INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL,"
	"  PRIMARY KEY (list, repo)"
	");"
	/* every mail read; kind says what it is */
	"CREATE TABLE backfill_mails ("
	"  id INTEGER PRIMARY KEY,"
	"  list TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  commit_id TEXT NOT NULL,"
	"  date INTEGER,"			/* NULL: no readable Date: */
	"  kind TEXT NOT NULL CHECK (kind IN ('patch', 'cover', 'reply', 'other')),"
	"  subject TEXT NOT NULL,"
	"  title TEXT NOT NULL,"		/* the subject after its [tags] */
	"  prefix TEXT NOT NULL,"		/* the [tags]: "[PATCH net-next v2 3/5]" */
	"  version INTEGER NOT NULL,"
	"  idx INTEGER NOT NULL,"		/* n of n/m; -1 none */
	"  total INTEGER NOT NULL,"		/* m of n/m; -1 none */
	"  author TEXT NOT NULL,"
	"  email TEXT NOT NULL,"		/* the author's address, lower case */
	"  in_reply_to TEXT NOT NULL,"
	"  refs TEXT NOT NULL,"			/* References:, raw */
	"  base_commit TEXT,"
	"  UNIQUE (list, message_id)"
	");"
	"CREATE INDEX backfill_mails_kind ON backfill_mails (list, kind);"
	/* every call a patch mail's diff adds or removes */
	"CREATE TABLE backfill_calls ("
	"  mail INTEGER NOT NULL REFERENCES backfill_mails (id) ON DELETE CASCADE,"
	"  kind TEXT NOT NULL CHECK (kind IN ('added', 'removed')),"
	"  macro TEXT NOT NULL,"
	"  class TEXT NOT NULL,"
	"  file TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  function TEXT NOT NULL,"
	"  conversion INTEGER NOT NULL,"
	"  moved INTEGER NOT NULL"
	");"
	"CREATE INDEX backfill_calls_mail ON backfill_calls (mail);"
	/* where each list's archive is on the web (for links to mails) */
	"CREATE TABLE backfill_lists ("
	"  name TEXT PRIMARY KEY,"
	"  url TEXT NOT NULL"
	");";

/* ---- what people said back (feedback.h): migrations 9 and 10 ---- */

static const char feedback_schema_sql[] =
	"CREATE TABLE mutes ("
	"  kind TEXT NOT NULL CHECK (kind IN ('thread', 'sender')),"
	"  key TEXT NOT NULL,"
	"  by_addr TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  PRIMARY KEY (kind, key)"
	");"
	"CREATE TABLE findings_said ("
	"  message_id TEXT NOT NULL,"
	"  fingerprint TEXT NOT NULL,"
	"  rule TEXT NOT NULL,"
	"  line TEXT NOT NULL,"
	"  PRIMARY KEY (message_id, fingerprint)"
	");"
	"CREATE TABLE feedback ("
	"  fingerprint TEXT NOT NULL,"
	"  rule TEXT NOT NULL,"
	"  by_addr TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  PRIMARY KEY (message_id, fingerprint)"
	");";

/*
 * Migration 10 (feedback.h).  Every suppression says what it silences (a
 * finding by its fingerprint, or all mail), for whom (`scope` and `key`: a family by
 * the root Message-ID of the version it was said on, an author by
 * address, a list by name), who said it (`by_addr`, their `role` to the
 * series, how their identity was established: `trust`), where
 * (`message_id`), the keyword line (`why`), when, and until when.  A
 * mute-me is `pending` with a token until the address confirms it.
 *
 * Carried over from schema 9: the thread mutes, which only the author or
 * a recipient could make (a family mute from now, expiring as new ones
 * do).  Not carried over: schema 9's `feedback` rows (anyone's "wrong" or
 * "NAK" in free text, a stranger's included) and sender mutes (never
 * confirmed); those tables stay, read by nothing.
 */
static const char feedback_suppress_sql[] =
	"CREATE TABLE suppressions ("
	"  id INTEGER PRIMARY KEY,"
	"  what TEXT NOT NULL CHECK (what IN ('finding', 'mail')),"
	"  scope TEXT NOT NULL CHECK (scope IN ('family', 'author', 'list')),"
	"  key TEXT NOT NULL,"
	"  list TEXT NOT NULL,"
	"  fingerprint TEXT NOT NULL,"
	"  rule TEXT NOT NULL,"
	"  by_addr TEXT NOT NULL,"
	"  role TEXT NOT NULL,"
	"  trust TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  why TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  expires INTEGER NOT NULL,"
	"  state TEXT NOT NULL CHECK (state IN ('active', 'pending', 'lifted')),"
	"  token TEXT NOT NULL DEFAULT '',"
	"  thread TEXT NOT NULL DEFAULT '',"
	"  request_id TEXT NOT NULL DEFAULT '',"
	"  requested INTEGER NOT NULL DEFAULT 0,"
	"  lifted_by TEXT NOT NULL DEFAULT '',"
	"  UNIQUE (message_id, what, scope, fingerprint)"
	");"
	"CREATE INDEX suppressions_fp ON suppressions (fingerprint);"
	"CREATE INDEX suppressions_key ON suppressions (what, key);"
	"INSERT INTO suppressions (what, scope, key, list, fingerprint, rule,"
	"  by_addr, role, trust, message_id, why, created, expires, state)"
	"  SELECT 'mail', 'family', key, '', '', '', by_addr, 'recipient',"
	"  'From: as archived (schema 9)', message_id, 'warnwatch: mute',"
	"  created, created + 15552000, 'active' FROM mutes WHERE kind = 'thread';";

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
	/* 10: suppressions, scoped to the people a finding concerns, with
	 * who, why, when and an expiry; mute-me confirmed by the address
	 * (feedback.h, issue 40). */
	feedback_suppress_sql,
};

const size_t store_nr_migrations = ARRAY_SIZE(store_migrations);
