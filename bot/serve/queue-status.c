/*
 * `warnwatch status` and status.json: the queue as JSON, read-only (lists,
 * counts by state, the series in progress and the newest, workers, the
 * event log).  The series' moves are queue.c's.
 */
#include "queue.h"
#include "feedback.h"
#include "jsonval.h"
#include "redact.h"

#include <sys/stat.h>

/* ---- status ------------------------------------------------------------ */

static const char *jstr_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/*
 * The columns that hold what warnwatch said (errors, events): redacted
 * again on the way out, for rows an older warnwatch stored unredacted
 * (workers of two versions share one PostgreSQL state).
 */
const char *queue_outcome_name(enum queue_outcome o)
{
	static const char *const names[] = {
		[QO_IN_PROGRESS] = "in progress", [QO_ANSWERED] = "answered",
		[QO_NOTHING] = "nothing to say", [QO_HELD] = "held by policy",
		[QO_SKIPPED] = "skipped", [QO_FAILED] = "failed",
	};

	return o < QO__NR ? names[o] : "?";
}

/*
 * The reply step's "none: ..." and "drafted ..." records that a policy
 * wrote, and the policy each names; any other "none: " is the review
 * having nothing (left) to say.
 */
static const struct {
	const char *prefix;
	const char *policy;
} held_by[] = {
	{ "none: replies are off", "reply = none" },
	{ "none: the author is in ignore-senders", "ignore-senders" },
	{ "none: the author asked not to get", "[review] skip-authors" },
	{ "none: only info-level notes", "min-level = warning" },
	{ "none: every point was made in the thread already, called wrong before, or info",
	  "min-level = warning, or points made and called wrong" },
	{ "drafted, not sent: ", NULL },	/* the allow-list it names */
	{ "drafted", "reply = draft" },
};

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

enum queue_outcome queue_outcome_of(struct strbuf *why, const char *state,
				    const char *reply, const char *error)
{
	reply = reply ? reply : "";
	error = error ? error : "";
	if (!strcmp(state, "failed")) {
		strbuf_addstr(why, error);
		return QO_FAILED;
	}
	if (!strcmp(state, "skipped")) {
		strbuf_addstr(why, error);
		return QO_SKIPPED;
	}
	if (strcmp(state, "replied")) {
		/* Held while in the queue: embargo, quiet hours, caps, pacing. */
		if (starts(reply, "held ") || starts(reply, "held:")) {
			strbuf_addstr(why, reply);
			return QO_HELD;
		}
		return QO_IN_PROGRESS;
	}
	if (starts(reply, "sent ") || starts(reply, "none: <")) {
		strbuf_addstr(why, reply);
		return QO_ANSWERED;
	}
	/* A mute said back to warnwatch is the people's policy. */
	if (starts(reply, "none: ") && strstr(reply, " muted warnwatch")) {
		strbuf_addf(why, "a mute: %s", reply + 6);
		return QO_HELD;
	}
	for (size_t i = 0; i < ARRAY_SIZE(held_by); i++) {
		if (!starts(reply, held_by[i].prefix))
			continue;
		if (held_by[i].policy)
			strbuf_addstr(why, held_by[i].policy);
		else
			strbuf_addstr(why, reply + strlen(held_by[i].prefix));
		return QO_HELD;
	}
	strbuf_addstr(why, starts(reply, "none: ") ? reply + 6 : reply);
	return QO_NOTHING;
}

/* Each series row's outcome and why, and the count of each outcome. */
static void add_outcomes(json_t *series, json_t *counts)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;
	json_t *row;

	for (int k = 0; counts && k < QO__NR; k++)
		json_object_set_new(counts, queue_outcome_name(k), json_integer(0));
	json_array_foreach(series, i, row) {
		enum queue_outcome o;

		strbuf_reset(&why);
		o = queue_outcome_of(&why, jstr_of(row, "state"), jstr_of(row, "reply"),
				     jstr_of(row, "error"));
		json_object_set_new(row, "outcome", json_string(queue_outcome_name(o)));
		json_object_set_new(row, "why", jsonval_text(why.buf));
		if (counts)
			json_object_set_new(counts, queue_outcome_name(o), json_integer(
				json_integer_value(json_object_get(counts,
						   queue_outcome_name(o))) + 1));
	}
	strbuf_release(&why);
}

static bool said_column(const char *name)
{
	static const char *const names[] = { "error", "last_error", "message", NULL };

	for (size_t i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static json_t *col_json(struct store_rows *st, int i)
{
	const char *text;
	json_t *v;
	char *red;

	if (store_rows_is_int(st, i))
		return json_integer(store_rows_int(st, i));
	if (store_rows_is_null(st, i))
		return json_null();
	text = store_rows_text(st, i);
	if (!said_column(store_rows_name(st, i)) || !redact_needed(text))
		/* Text from mail that is not UTF-8: kept, escaped (jsonval.h). */
		return jsonval_text(text);
	red = redact(text, 0);
	v = jsonval_text(red);
	free(red);
	return v;
}

/* Each row of `sql` as an object keyed by column name, into `arr`. */
static int rows_json(json_t *arr, struct queue *q, const char *sql,
		     long long limit)
{
	struct store_rows *st;
	int ret;

	if (limit >= 0)
		ret = store_query(&st, q->store, sql, "i", limit);
	else
		ret = store_query(&st, q->store, sql, "");
	if (ret <= 0)
		return ret;
	while ((ret = store_rows_next(st)) == 1) {
		json_t *o = json_object();

		for (int i = 0; i < store_rows_ncols(st); i++)
			json_object_set_new(o, store_rows_name(st, i),
					    col_json(st, i));
		json_array_append_new(arr, o);
	}
	store_rows_free(st);
	return ret;
}

static void add_artifacts(json_t *series, struct queue *q)
{
	static const char *const names[] = {
		QUEUE_MBOX, QUEUE_COVER, QUEUE_FINDINGS, QUEUE_CI, QUEUE_CONSOLE,
		QUEUE_REPLY,
	};
	json_t *a = json_object();
	struct strbuf path = STRBUF_INIT;
	long long id = json_integer_value(json_object_get(series, "id"));
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		queue_artifact(&path, q, id, names[i]);
		if (stat(path.buf, &st) || !S_ISREG(st.st_mode))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "series/%lld/%s", id, names[i]);
		json_object_set_new(a, names[i], json_string(path.buf));
	}
	json_object_set_new(series, "artifacts", a);
	strbuf_release(&path);
}

/* How much work is left: status.json's "queue" (queue.h). */
static int work_left(json_t **out, struct queue *q, time_t now)
{
	struct store_rows *st;
	int ret;

	ret = store_query(&st, q->store, "SELECT count(*), "
			  "coalesce(sum(CASE WHEN next_at <= ? THEN 1 ELSE 0 END), 0), "
			  "coalesce(sum(CASE WHEN reply LIKE 'held%' THEN 1 ELSE 0 END), 0), "
			  "coalesce(min(next_at), 0) FROM queue_series WHERE state IN "
			  QUEUE_ACTIVE_STATES, "t", now);
	if (ret <= 0)
		return ret < 0 ? ret : error_code(WW_ESTATE, "no count of the queue");
	*out = json_pack("{sIsIsIsI}", "active", (json_int_t)store_rows_int(st, 0),
			 "due", (json_int_t)store_rows_int(st, 1),
			 "held", (json_int_t)store_rows_int(st, 2),
			 "next_at", (json_int_t)store_rows_int(st, 3));
	store_rows_free(st);
	return 0;
}

int queue_status_json(json_t **out, struct queue *q, size_t limit, time_t now)
{
	json_t *o = json_object(), *lists = json_array(), *series = json_array();
	json_t *events = json_array(), *counts = json_object(), *rows = json_array();
	json_t *workers = json_array(), *work = NULL, *supp = NULL;
	json_t *all = json_array(), *outcomes = json_object();
	size_t i;
	json_t *row;
	int ret;

	ret = rows_json(lists, q, "SELECT name, failures, next_at, last_ok, primed, "
				  "last_error FROM queue_inboxes ORDER BY name", -1);
	if (!ret)
		ret = rows_json(rows, q, "SELECT state, count(*) AS n FROM queue_series "
					 "GROUP BY state", -1);
	if (!ret)
		ret = rows_json(series, q,
			"SELECT s.id, s.inbox AS list, s.root_msgid, s.title, s.author, "
			"s.version, s.total, (SELECT count(DISTINCT idx) FROM "
			"queue_messages m WHERE m.series_id = s.id AND m.idx >= 1 AND "
			"m.idx <= s.total) AS seen, s.prev_id, s.state, s.failed_in, "
			"s.attempts, s.next_at, s.first_seen, s.last_seen, s.updated, "
			"s.error, s.verdict, s.findings, s.reply, s.lease_owner, "
			"s.lease_until, s.base, s.b4_runs, s.missing FROM queue_series s "
			/* Every series in progress, however old, and
			 * the newest `limit` besides. */
			"WHERE s.state NOT IN ('replied', 'skipped') OR s.id IN "
			"(SELECT id FROM queue_series ORDER BY id DESC LIMIT ?) "
			"ORDER BY s.id DESC", (long long)limit);
	if (!ret)
		ret = rows_json(workers, q, "SELECT name, host, pid, role, started, "
					    "heartbeat, series_id, stage, warm, lease FROM "
					    "queue_workers ORDER BY name LIMIT ?", (long long)limit);
	if (!ret)
		ret = rows_json(events, q, "SELECT id, at, series_id, inbox AS list, "
					   "level, message FROM queue_events "
					   "ORDER BY id DESC LIMIT ?", (long long)limit);
	if (!ret)
		ret = work_left(&work, q, now);
	/* What became of every series, however old (issue 38.5). */
	if (!ret)
		ret = rows_json(all, q, "SELECT state, reply, error FROM queue_series", -1);
	if (!ret)
		add_outcomes(all, outcomes);
	json_decref(all);
	/* What people silenced, for an owner to see and lift (feedback.h). */
	if (!ret)
		ret = feedback_status_json(&supp, q->store, now);
	if (ret) {
		json_decref(work);
		json_decref(o);
		json_decref(lists);
		json_decref(series);
		json_decref(events);
		json_decref(counts);
		json_decref(rows);
		json_decref(workers);
		json_decref(outcomes);
		return ret;
	}
	for (int s = 0; s < QS__NR; s++)
		json_object_set_new(counts, queue_state_name(s), json_integer(0));
	json_array_foreach(rows, i, row)
		json_object_set(counts, jstr_of(row, "state"),
				json_object_get(row, "n"));
	json_decref(rows);
	json_array_foreach(series, i, row)
		add_artifacts(row, q);
	add_outcomes(series, NULL);
	json_object_set_new(o, "outcomes", outcomes);
	json_object_set_new(o, "generated", json_integer(now));
	json_object_set_new(o, "state_dir", json_string(q->state_dir));
	json_object_set_new(o, "lists", lists);
	json_object_set_new(o, "counts", counts);
	json_object_set_new(o, "series", series);
	json_object_set_new(o, "events", events);
	json_object_set_new(o, "workers", workers);
	json_object_set_new(o, "queue", work);
	json_object_set_new(o, "suppressions", supp);
	json_object_set_new(o, "backend", json_string(store_backend_name(q->store)));
	*out = o;
	return 0;
}
