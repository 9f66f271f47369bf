/*
 * Where the service is in each watched list's archive, kept in the queue's
 * database: the newest public-inbox epoch read and its last commit
 * (follow.h), and the feed's poll state (archive.h: ETag, failures, when
 * to ask again).  The series themselves are queue.c's.
 */
#include "queue.h"

/* ---- following an archive's epochs ------------------------------------ */

int queue_epoch_newest(struct queue_epoch *out, struct queue *q, const char *inbox)
{
	struct store_rows *st;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = store_query(&st, q->store, "SELECT epoch, last_commit, commits "
			  "FROM queue_epochs WHERE inbox = ? ORDER BY epoch DESC "
			  "LIMIT 1", "s", inbox);
	if (ret <= 0)
		return ret;
	out->epoch = store_rows_int(st, 0);
	snprintf(out->last_commit, sizeof(out->last_commit), "%s",
		 store_rows_text(st, 1));
	out->commits = store_rows_int(st, 2);
	store_rows_free(st);
	return 1;
}

int queue_epoch_save(struct queue *q, const char *inbox, unsigned int epoch,
		     const char *commit, time_t now)
{
	int ret = store_exec(q->store, "INSERT INTO queue_epochs (inbox, epoch, "
			     "last_commit, commits, updated) VALUES (?, ?, ?, ?, ?) "
			     "ON CONFLICT (inbox, epoch) DO UPDATE SET "
			     "last_commit = excluded.last_commit, commits = "
			     "queue_epochs.commits + excluded.commits, "
			     "updated = excluded.updated",
			     "sisit", inbox, (long long)epoch, commit,
			     (long long)(*commit ? 1 : 0), now);

	return ret < 0 ? ret : 0;
}

/* ---- per-inbox poll state ---------------------------------------------- */

int queue_inbox_load(struct archive_inbox *out, bool *primed, struct queue *q,
		     const char *inbox)
{
	struct store_rows *st;
	int ret;

	archive_inbox_release(out);
	memset(out, 0, sizeof(*out));
	*primed = false;
	ret = store_query(&st, q->store, "SELECT etag, last_modified, failures, "
			  "next_at, last_ok, primed FROM queue_inboxes WHERE name = ?",
			  "s", inbox);
	if (ret <= 0) {
		out->etag = xstrdup("");
		out->last_modified = xstrdup("");
		return ret;
	}
	out->etag = xstrdup(store_rows_text(st, 0));
	out->last_modified = xstrdup(store_rows_text(st, 1));
	out->failures = store_rows_int(st, 2);
	out->next_at = store_rows_int(st, 3);
	out->last_ok = store_rows_int(st, 4);
	*primed = store_rows_int(st, 5);
	store_rows_free(st);
	return 0;
}

int queue_inbox_save(struct queue *q, const char *inbox,
		     const struct archive_inbox *st, bool primed,
		     const char *last_error)
{
	int ret = store_exec(q->store, "INSERT INTO queue_inboxes (name, etag, "
			     "last_modified, failures, next_at, last_ok, primed, "
			     "last_error) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
			     "(name) DO UPDATE SET etag = excluded.etag, "
			     "last_modified = excluded.last_modified, "
			     "failures = excluded.failures, next_at = excluded.next_at, "
			     "last_ok = excluded.last_ok, primed = excluded.primed, "
			     "last_error = excluded.last_error",
			     "sssittis", inbox, st->etag, st->last_modified,
			     (long long)st->failures, st->next_at, st->last_ok,
			     (long long)primed, last_error);

	return ret < 0 ? ret : 0;
}
