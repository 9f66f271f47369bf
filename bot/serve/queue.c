/*
 * The persistent queue of the service: series grouping, stage
 * transitions, retries and the exactly-once reply record, in the state
 * database (store.h).  See queue.h for the model; this file is the SQL
 * behind it, but for where each list's archive was read up to
 * (queue-inbox.c) and the status JSON (queue-status.c).
 */
#include "queue.h"
#include "mkdirs.h"
#include "group.h"
#include "redact.h"

#include <ctype.h>

#define QUEUE_MAX_EVENTS 10000
#define QUEUE_WORKER_FORGET (24 * 3600)	/* seconds without a heartbeat */

static const char *const state_names[QS__NR] = {
	[QS_RECEIVED] = "received",
	[QS_FETCHED] = "fetched",
	[QS_CHECKED] = "checked",
	[QS_BOOTED] = "booted",
	[QS_REPLIED] = "replied",
	[QS_FAILED] = "failed",
	[QS_SKIPPED] = "skipped",
};

const char *queue_state_name(enum queue_state s)
{
	return s < QS__NR ? state_names[s] : "?";
}

int queue_state_parse(enum queue_state *out, const char *name)
{
	for (int i = 0; i < QS__NR; i++)
		if (!strcmp(name, state_names[i])) {
			*out = i;
			return 0;
		}
	return error_code(WW_EINPUT, "unknown queue state '%s'", name);
}

bool queue_state_active(enum queue_state s)
{
	return s == QS_RECEIVED || s == QS_FETCHED || s == QS_CHECKED ||
	       s == QS_BOOTED;
}

/* ---- a few statement helpers ------------------------------------------ */

/* Run a statement that returns no rows; the number of changed rows. */
static int exec(struct queue *q, const char *sql, const char *types, ...)
{
	va_list ap;
	int ret;

	va_start(ap, types);
	ret = store_vexec(q->store, sql, types, ap);
	va_end(ap);
	return ret;
}

/* Run a query; *out is positioned on the first row.
 * Returns 1 (a row; free it), 0 (no row), or negative. */
static int query(struct store_rows **out, struct queue *q, const char *sql,
		 const char *types, ...)
{
	va_list ap;
	int ret;

	va_start(ap, types);
	ret = store_vquery(out, q->store, sql, types, ap);
	va_end(ap);
	return ret;
}

static char *col_str(struct store_rows *st, int i)
{
	return xstrdup(store_rows_text(st, i));
}

static int begin(struct queue *q)
{
	return store_begin(q->store);
}

static int commit(struct queue *q)
{
	return store_commit(q->store);
}

static void rollback(struct queue *q)
{
	store_rollback(q->store);
}

/* ---- setup ------------------------------------------------------------- */

int queue_init(struct queue *q, struct store *store, const char *state_dir,
	       const struct queue_opts *opts)
{
	struct queue_opts defaults = QUEUE_OPTS_INIT;

	memset(q, 0, sizeof(*q));	/* no owner, nothing warm */
	q->store = store;
	q->state_dir = xstrdup(state_dir);
	q->opts = opts ? *opts : defaults;
	if (!q->opts.max_attempts)
		q->opts.max_attempts = 1;
	return 0;
}

void queue_release(struct queue *q)
{
	free(q->state_dir);
	q->state_dir = NULL;
}

void queue_title_key(struct strbuf *out, const char *title)
{
	bool space = false;

	strbuf_reset(out);
	for (const char *p = title; *p; p++) {
		unsigned char c = *p;

		if (isspace(c)) {
			space = out->len > 0;
			continue;
		}
		if (space)
			strbuf_addch(out, ' ');
		space = false;
		strbuf_addch(out, tolower(c));
	}
}

static void lower_email(struct strbuf *out, const char *email)
{
	strbuf_reset(out);
	for (const char *p = email ? email : ""; *p; p++)
		strbuf_addch(out, tolower((unsigned char)*p));
	strbuf_trim(out);
}

void queue_log(struct queue *q, long long series_id, const char *inbox,
	       enum queue_level level, const char *fmt, ...)
{
	static const char *const levels[] = { "info", "warn", "error" };
	struct strbuf text = STRBUF_INIT, msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	/* Events name the lists' archive URLs: never their passwords. */
	redact_add(&msg, text.buf, 0);
	strbuf_release(&text);
	/* Losing an event line is better than failing the step that logs. */
	exec(q, "INSERT INTO queue_events (at, series_id, inbox, level, message) "
		"VALUES (?, ?, ?, ?, ?)", "tisss", time(NULL), series_id, inbox,
	     levels[level], msg.buf);
	exec(q, "DELETE FROM queue_events WHERE id <= "
		"(SELECT max(id) FROM queue_events) - ?", "i",
	     (long long)QUEUE_MAX_EVENTS);
	strbuf_release(&msg);
}

/* ---- grouping ---------------------------------------------------------- */

struct parent_info {
	long long series_id;
	struct group_msg g;
	char *subject;
};

static int load_parent(struct parent_info *out, struct queue *q,
		       const char *inbox, const char *msgid)
{
	struct subject_tags tags;
	struct store_rows *st;
	int ret;

	if (!msgid || !*msgid)
		return 0;
	ret = query(&st, q, "SELECT series_id, version, idx, total, subject "
			    "FROM queue_messages WHERE inbox = ? AND msgid = ?",
		    "ss", inbox, msgid);
	if (ret <= 0)
		return ret;
	series_parse_subject(&tags, store_rows_text(st, 4));
	out->subject = col_str(st, 4);
	out->series_id = store_rows_int(st, 0);
	out->g.kind = group_kind(&tags);
	out->g.version = store_rows_int(st, 1);
	out->g.idx = store_rows_int(st, 2);
	out->g.total = store_rows_int(st, 3);
	store_rows_free(st);
	return 1;
}

/* The id `sql` selects for (inbox, msgid): 1 (into *out), 0, or negative. */
static int query_id(long long *out, struct queue *q, const char *sql,
		    const char *inbox, const char *msgid)
{
	struct store_rows *st;
	int ret = query(&st, q, sql, "ss", inbox, msgid);

	if (ret == 1) {
		*out = store_rows_int(st, 0);
		store_rows_free(st);
	}
	return ret;
}

static int find_series(long long *out, struct queue *q, const char *inbox,
		       const char *root)
{
	return query_id(out, q, "SELECT id FROM queue_series WHERE inbox = ? AND "
				"root_msgid = ?", inbox, root);
}

struct new_msg {
	const struct queue_msg *m;
	struct subject_tags tags;
	struct group_msg g;
	const char *title;
	struct strbuf title_key;
	struct strbuf email;
	struct strbuf author;
	int idx, total;
};

/*
 * Which series `n` belongs to (group.h): join its parent's (*out_id), or
 * start one at `*root`.  `*cover` when that root is a parent without a
 * tag that this patch shows to be a cover letter; `*echo_of` the series
 * of a parent with the very same subject (a review that kept the patch's
 * subject without "Re:"), which its own is the same as.
 */
static int pick_series(long long *out_id, const char **root, bool *cover,
		       long long *echo_of, struct queue *q, struct new_msg *n)
{
	struct parent_info parent = { 0 };
	const char *pmid = n->m->parent;
	int ret;

	*out_id = *echo_of = 0;
	*root = n->m->msgid;
	*cover = false;
	if (n->g.kind == GROUP_COVER)
		return 0;	/* a cover letter always starts a series */
	ret = load_parent(&parent, q, n->m->inbox, pmid);
	if (ret < 0)
		return ret;
	if (ret && !strcmp(parent.subject, n->m->subject))
		*echo_of = parent.series_id;
	free(parent.subject);
	if (ret && !*echo_of && group_joins(&n->g, &parent.g)) {
		if (parent.series_id) {
			*out_id = parent.series_id;
		} else if (parent.g.kind == GROUP_OTHER) {
			*root = pmid;	/* a cover without a tag */
			*cover = true;
		}
		return 0;
	}
	/* Patch 2/n and later whose parent we have not seen (yet): assume
	 * the usual shallow threading and key the series by that parent;
	 * when it arrives it adopts the series. */
	if (!ret && n->idx > 1 && pmid && *pmid)
		*root = pmid;
	return 0;
}

/* A new series of `n` keyed by `root`; `skip`: created skipped, saying why. */
static int create_series(long long *out_id, struct queue *q, struct new_msg *n,
			 const char *root, bool is_root, time_t now,
			 const char *skip)
{
	int ret;

	struct store_rows *st;

	ret = query(&st, q, "INSERT INTO queue_series (inbox, root_msgid, title, "
		      "title_key, author, author_email, version, total, has_cover, "
		      "state, error, next_at, first_seen, last_seen, updated) "
		      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
		   "ssssssiiisstttt", n->m->inbox, root, n->title,
		   n->title_key.buf, n->author.buf, n->email.buf,
		   (long long)n->tags.version, (long long)n->total,
		   (long long)(is_root && n->idx == 0),
		   queue_state_name(skip ? QS_SKIPPED : QS_RECEIVED),
		   skip ? skip : "",
		   now + q->opts.settle, now, now, now);
	if (ret <= 0)
		return ret < 0 ? ret : error_code(WW_ESTATE, "no id for a new series");
	*out_id = store_rows_int(st, 0);
	store_rows_free(st);
	return 0;
}

/* The series' root message arrived: it names the series (its version
 * and length are its members', touch_series()). */
static int adopt_root(struct queue *q, long long id, struct new_msg *n)
{
	return exec(q, "UPDATE queue_series SET title = ?, title_key = ?, "
		       "author = ?, author_email = ?, has_cover = ? WHERE id = ?",
		    "ssssii", n->title, n->title_key.buf, n->author.buf,
		    n->email.buf, (long long)(n->idx == 0), id);
}

/*
 * `msgid`, a message without a tag, is the cover letter of series `id`:
 * a patch answered it.  It names the series and becomes its member 0.
 */
static int adopt_cover(struct queue *q, long long id, const char *inbox,
		       const char *msgid)
{
	struct subject_tags tags;
	struct strbuf key = STRBUF_INIT;
	struct store_rows *st;
	const char *subject;
	int ret;

	ret = query(&st, q, "SELECT subject FROM queue_messages WHERE inbox = ? "
			    "AND msgid = ?", "ss", inbox, msgid);
	if (ret <= 0)
		return ret;
	subject = store_rows_text(st, 0);
	series_parse_subject(&tags, subject);
	queue_title_key(&key, subject + tags.title_off);
	ret = exec(q, "UPDATE queue_series SET title = ?, title_key = ?, "
		      "has_cover = 1 WHERE id = ?", "ssi",
		   subject + tags.title_off, key.buf, id);
	if (ret >= 0)
		ret = exec(q, "UPDATE queue_messages SET series_id = ?, idx = 0 "
			      "WHERE inbox = ? AND msgid = ?", "iss", id, inbox, msgid);
	store_rows_free(st);
	strbuf_release(&key);
	return ret < 0 ? ret : 0;
}

/*
 * The version and length of series `id` from its members, into `s`: the
 * highest version any of them spells (the cover's or the patches'), and
 * group_total() of the patches' counts; `s->nr_seen` recounted for it.
 */
static int series_shape(struct queue_series *s, struct queue *q, long long id)
{
	struct store_rows *st;
	int ret;

	ret = query(&st, q, "SELECT max(version), "
			    "min(CASE WHEN idx >= 1 THEN total END), "
			    "max(CASE WHEN idx >= 1 THEN idx END) "
			    "FROM queue_messages WHERE series_id = ?", "i", id);
	if (ret <= 0)
		return ret;
	if (!store_rows_is_null(st, 0))
		s->version = store_rows_int(st, 0);
	if (!store_rows_is_null(st, 2))
		s->total = group_total(store_rows_int(st, 1), store_rows_int(st, 2));
	store_rows_free(st);
	ret = query(&st, q, "SELECT count(DISTINCT idx) FROM queue_messages "
			    "WHERE series_id = ? AND idx >= 1 AND idx <= ?", "ii",
		    id, (long long)s->total);
	if (ret == 1) {
		s->nr_seen = store_rows_int(st, 0);
		store_rows_free(st);
	}
	return ret < 0 ? ret : 0;
}

/* After a message joined: its shape, and when it is due. */
static int touch_series(struct queue *q, long long id, struct new_msg *n,
			time_t now)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	time_t due;
	int ret;

	ret = queue_load(&s, q, id);
	if (ret < 0)
		return ret;
	if (s.state != QS_RECEIVED) {
		if (queue_state_active(s.state) || s.state == QS_REPLIED)
			queue_log(q, id, n->m->inbox, QL_WARN,
				  "'%s' arrived after the series was %s; not re-read",
				  n->m->msgid, queue_state_name(s.state));
		ret = exec(q, "UPDATE queue_series SET last_seen = ? WHERE id = ?",
			   "ti", now, id);
		goto out;
	}
	ret = series_shape(&s, q, id);
	if (ret < 0)
		goto out;
	/*
	 * Complete (every patch 1..n there): due at once.  Incomplete: it
	 * waits for the archive to bring the rest (each message that joins
	 * comes through here again), and after max-wait b4 runs once on
	 * what there is; no b4 run in between.
	 */
	if (s.nr_seen >= s.total)
		due = now;
	else
		due = s.first_seen + q->opts.max_wait;
	if (due < now)
		due = now;
	ret = exec(q, "UPDATE queue_series SET last_seen = ?, next_at = ?, "
		      "updated = ?, version = ?, total = ? WHERE id = ?", "tttiii",
		   now, due, now, (long long)s.version, (long long)s.total, id);
out:
	queue_series_release(&s);
	return ret < 0 ? ret : 0;
}

/* What the subject and the author of `n->m` say, into `n`. */
static void new_msg_read(struct new_msg *n)
{
	const struct queue_msg *m = n->m;

	series_parse_subject(&n->tags, m->subject);
	n->title = m->subject + n->tags.title_off;
	queue_title_key(&n->title_key, n->title);
	lower_email(&n->email, m->author_email);
	if (m->author_name && *m->author_name)
		strbuf_addf(&n->author, "%s <%s>", m->author_name, n->email.buf);
	else
		strbuf_addstr(&n->author, n->email.buf);
	n->g.kind = group_kind(&n->tags);
}

/*
 * A reply or a mail that is no patch: recorded, and QUEUE_IGNORED, but
 * for a cover without a tag that patches answering it keyed a series
 * by: adopted (QUEUE_ADDED).
 */
static int add_other(struct queue *q, struct new_msg *n, time_t now)
{
	const struct queue_msg *m = n->m;
	long long id = 0;
	int ret;

	ret = exec(q, "INSERT INTO queue_messages (inbox, msgid, parent, "
		      "subject, title_key, author_email, seen) "
		      "VALUES (?, ?, ?, ?, ?, ?, ?)", "sssssst",
		   m->inbox, m->msgid, m->parent, m->subject,
		   n->title_key.buf, n->email.buf, now);
	if (ret < 0 || n->g.kind == GROUP_REPLY)
		return ret < 0 ? ret : QUEUE_IGNORED;
	ret = find_series(&id, q, m->inbox, m->msgid);
	if (ret != 1)
		return ret < 0 ? ret : QUEUE_IGNORED;
	ret = adopt_cover(q, id, m->inbox, m->msgid);
	if (!ret)
		ret = touch_series(q, id, n, now);
	return ret < 0 ? ret : QUEUE_ADDED;
}

/* A patch or a cover letter: into its series, made when it is the first. */
static int add_patch(struct queue *q, struct new_msg *n, time_t now, bool skip)
{
	const struct queue_msg *m = n->m;
	struct strbuf why = STRBUF_INIT;
	long long id = 0, echo_of;
	const char *root;
	bool cover;
	int ret;

	n->idx = n->g.kind == GROUP_COVER ? 0 : n->tags.index < 0 ? 1 : n->tags.index;
	n->total = n->tags.total < 1 ? 1 : n->tags.total;
	n->g.version = n->tags.version;
	n->g.idx = n->idx;
	n->g.total = n->total;

	ret = pick_series(&id, &root, &cover, &echo_of, q, n);
	if (ret < 0)
		goto out;
	if (skip)
		strbuf_addstr(&why, "posted before the service watched this list");
	else if (echo_of)
		strbuf_addf(&why, "the same series as #%lld", echo_of);
	if (!id) {
		ret = find_series(&id, q, m->inbox, root);
		if (ret < 0)
			goto out;
		if (ret && root == m->msgid)
			ret = adopt_root(q, id, n);
		else if (!ret)
			ret = create_series(&id, q, n, root, root == m->msgid,
					    now, why.len ? why.buf : NULL);
		if (ret >= 0 && cover)
			ret = adopt_cover(q, id, m->inbox, root);
		if (ret < 0)
			goto out;
	}
	ret = exec(q, "INSERT INTO queue_messages (inbox, msgid, parent, subject, "
		      "title_key, author_email, is_patch, version, idx, total, "
		      "series_id, seen) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)",
		   "ssssssiiiit", m->inbox, m->msgid, m->parent, m->subject,
		   n->title_key.buf, n->email.buf, (long long)n->tags.version,
		   (long long)n->idx, (long long)n->total, id, now);
	if (ret >= 0)
		ret = touch_series(q, id, n, now);
	if (ret >= 0)
		ret = QUEUE_ADDED;
out:
	strbuf_release(&why);
	return ret;
}

int queue_add_message(struct queue *q, const struct queue_msg *m, time_t now,
		      bool skip)
{
	struct new_msg n = { .m = m };
	struct store_rows *st;
	int ret;

	strbuf_init(&n.title_key, 0);
	strbuf_init(&n.email, 0);
	strbuf_init(&n.author, 0);
	ret = begin(q);
	if (ret < 0)
		goto out_free;
	ret = query(&st, q, "SELECT 1 FROM queue_messages WHERE inbox = ? AND "
			    "msgid = ?", "ss", m->inbox, m->msgid);
	if (ret > 0) {
		store_rows_free(st);
		ret = QUEUE_KNOWN;
	} else if (!ret) {
		new_msg_read(&n);
		if (n.g.kind == GROUP_REPLY || n.g.kind == GROUP_OTHER)
			ret = add_other(q, &n, now);
		else
			ret = add_patch(q, &n, now, skip);
	}
	if (ret < 0) {
		rollback(q);
	} else {
		int c = commit(q);

		if (c < 0)
			ret = c;
	}
out_free:
	strbuf_release(&n.title_key);
	strbuf_release(&n.email);
	strbuf_release(&n.author);
	return ret;
}

/* ---- reading and moving series ----------------------------------------- */

int queue_load(struct queue_series *out, struct queue *q, long long id)
{
	struct store_rows *st;
	int ret;

	ret = query(&st, q,
		    "SELECT id, inbox, root_msgid, title, author, author_email, "
		    "version, total, has_cover, prev_id, state, failed_in, "
		    "attempts, next_at, first_seen, last_seen, updated, error, "
		    "verdict, findings, reply, force_reply, "
		    "(SELECT count(DISTINCT idx) FROM queue_messages m WHERE "
		    " m.series_id = s.id AND m.idx >= 1 AND m.idx <= s.total), base, "
		    "(SELECT max(version) FROM queue_messages m WHERE "
		    " m.series_id = s.id AND m.idx >= 1), b4_runs, missing "
		    "FROM queue_series s WHERE id = ?", "i", id);
	if (ret < 0)
		return ret;
	if (!ret)
		return error_code(WW_ENOTFOUND, "no series %lld in the queue", id);
	out->id = store_rows_int(st, 0);
	out->inbox = col_str(st, 1);
	out->root_msgid = col_str(st, 2);
	out->title = col_str(st, 3);
	out->author = col_str(st, 4);
	out->author_email = col_str(st, 5);
	out->version = store_rows_int(st, 6);
	out->total = store_rows_int(st, 7);
	out->has_cover = store_rows_int(st, 8);
	out->prev_id = store_rows_int(st, 9);
	if (queue_state_parse(&out->state, store_rows_text(st, 10)) < 0)
		out->state = QS_FAILED;
	if (queue_state_parse(&out->failed_in, store_rows_text(st, 11)) < 0)
		out->failed_in = QS_RECEIVED;
	out->attempts = store_rows_int(st, 12);
	out->next_at = store_rows_int(st, 13);
	out->first_seen = store_rows_int(st, 14);
	out->last_seen = store_rows_int(st, 15);
	out->updated = store_rows_int(st, 16);
	out->error = col_str(st, 17);
	out->verdict = col_str(st, 18);
	out->findings = store_rows_int(st, 19);
	out->reply = col_str(st, 20);
	out->force_reply = store_rows_int(st, 21);
	out->nr_seen = store_rows_int(st, 22);
	out->base = col_str(st, 23);
	out->patch_version = store_rows_is_null(st, 24) ? 1 : store_rows_int(st, 24);
	out->b4_runs = store_rows_int(st, 25);
	out->missing = col_str(st, 26);
	store_rows_free(st);
	error_clear();
	return 0;
}

void queue_series_release(struct queue_series *s)
{
	free(s->inbox);
	free(s->root_msgid);
	free(s->title);
	free(s->author);
	free(s->author_email);
	free(s->error);
	free(s->verdict);
	free(s->reply);
	free(s->base);
	free(s->missing);
	memset(s, 0, sizeof(*s));
}

int queue_next_due(long long *out_id, struct queue *q, time_t now)
{
	struct store_rows *st;
	int ret;

	ret = query(&st, q, "SELECT id FROM queue_series WHERE state IN "
			    QUEUE_ACTIVE_STATES " AND next_at <= ? "
			    "ORDER BY next_at, id LIMIT 1", "t", now);
	if (ret == 1) {
		*out_id = store_rows_int(st, 0);
		store_rows_free(st);
	}
	return ret;
}

time_t queue_next_wakeup(struct queue *q)
{
	struct store_rows *st;
	time_t t = 0;

	if (query(&st, q, "SELECT min(next_at) FROM queue_series WHERE state IN "
			  QUEUE_ACTIVE_STATES, "") == 1) {
		t = store_rows_int(st, 0);
		store_rows_free(st);
	}
	return t;
}

static int expect_one(int changed, long long id)
{
	if (changed < 0)
		return changed;
	if (!changed)
		return error_code(WW_ENOTFOUND, "no series %lld in the queue", id);
	return 0;
}

/*
 * The claim condition of the stage-ending transitions: with an owner, the
 * row changes only while its lease is ours (a worker whose lease expired
 * and was taken over must not overwrite the new owner's progress), and
 * the change releases the lease.
 */
#define FENCE " AND (? = '' OR lease_owner = ?)"
#define OWNER(q) ((q)->owner ? (q)->owner : "")

static int expect_ours(int changed, struct queue *q, long long id)
{
	if (changed == 0 && q->owner)
		return error_code(WW_ESTATE, "series %lld: the claim of '%s' "
				  "expired and was taken over", id, q->owner);
	return expect_one(changed, id);
}

int queue_advance(struct queue *q, long long id, enum queue_state state,
		  time_t now)
{
	/* A forced reply is a one-off: done once the reply step is. */
	return expect_ours(exec(q, "UPDATE queue_series SET state = ?, attempts = 0, "
				   "error = '', next_at = ?, updated = ?, force_reply = "
				   "force_reply * ?, lease_until = 0 WHERE id = ?" FENCE,
				"sttiiss", queue_state_name(state), now, now,
				(long long)(state != QS_REPLIED), id, OWNER(q),
				OWNER(q)), q, id);
}

/*
 * Which due series a worker may claim, given its warm releases (the ?s:
 * warm, warm, now - warm_wait, owner, now - lease).  A series that waits
 * for its kernel build (checked, with a base) is left to a live worker
 * that has that release built, unless this one has it too, or it has
 * waited warm_wait seconds, or no live worker has it (then anyone's cold
 * build is the quickest).  Those this worker has warm come first.
 */
#define WARM_MATCH(b) "(? LIKE '%,' || " b " || ',%')"
#define CLAIMABLE \
	" AND (s.base = '' OR s.state <> 'checked' OR " WARM_MATCH("s.base") \
	" OR s.next_at <= ? OR NOT EXISTS (SELECT 1 FROM queue_workers w " \
	"WHERE w.name <> ? AND w.heartbeat >= ? AND w.warm LIKE '%,' || s.base || ',%'))"

int queue_claim(long long *out_id, struct queue *q, const char *owner,
		unsigned int lease, time_t now)
{
	struct store_rows *st;
	struct strbuf sql = STRBUF_INIT;
	const char *warm = q->warm ? q->warm : "";
	int ret;

	strbuf_addstr(&sql, "SELECT s.id FROM queue_series s WHERE s.state IN "
		      QUEUE_ACTIVE_STATES " AND s.next_at <= ? AND s.lease_until <= ?"
		      CLAIMABLE " ORDER BY CASE WHEN s.base <> '' AND s.state = "
		      "'checked' AND " WARM_MATCH("s.base") " THEN 0 ELSE 1 END, "
		      "s.next_at, s.id LIMIT 1");
	strbuf_addstr(&sql, store_skip_locked(q->store));
	ret = begin(q);
	if (ret < 0)
		goto out;
	ret = query(&st, q, sql.buf, "ttststs", now, now, warm,
		    now - (time_t)q->opts.warm_wait, owner, now - (time_t)lease,
		    warm);
	if (ret == 1) {
		*out_id = store_rows_int(st, 0);
		store_rows_free(st);
		ret = exec(q, "UPDATE queue_series SET lease_owner = ?, lease_until = ? "
			      "WHERE id = ?", "sti", owner, now + (time_t)lease, *out_id);
		ret = ret < 0 ? ret : 1;
	}
	if (ret < 0) {
		rollback(q);
	} else {
		int c = commit(q);

		if (c < 0)
			ret = c;
	}
out:
	strbuf_release(&sql);
	return ret;
}

int queue_claim_id(struct queue *q, long long id, const char *owner,
		   unsigned int lease, time_t now)
{
	const char *warm = q->warm ? q->warm : "";
	int ret = exec(q, "UPDATE queue_series SET lease_owner = ?, lease_until = ? "
			  "WHERE id = ? AND id IN (SELECT s.id FROM queue_series s "
			  "WHERE s.id = ? AND s.state IN " QUEUE_ACTIVE_STATES " AND "
			  "s.next_at <= ? AND s.lease_until <= ?" CLAIMABLE ")",
		       "stiittstst", owner, now + (time_t)lease, id, id, now, now,
		       warm, now - (time_t)q->opts.warm_wait, owner,
		       now - (time_t)lease);

	return ret < 0 ? ret : ret > 0;
}

int queue_set_base(struct queue *q, long long id, const char *base)
{
	return expect_one(exec(q, "UPDATE queue_series SET base = ? WHERE id = ?",
			       "si", base ? base : "", id), id);
}

int queue_renew(struct queue *q, long long id, const char *owner,
		unsigned int lease, time_t now)
{
	int ret = exec(q, "UPDATE queue_series SET lease_until = ? WHERE id = ? "
			  "AND lease_owner = ? AND lease_until > 0", "tis",
		       now + (time_t)lease, id, owner);

	return ret < 0 ? ret : ret > 0;
}

int queue_unclaim(struct queue *q, long long id, const char *owner)
{
	int ret = exec(q, "UPDATE queue_series SET lease_until = 0 WHERE id = ? "
			  "AND lease_owner = ?", "is", id, owner);

	return ret < 0 ? ret : 0;
}

int queue_heartbeat(struct queue *q, const struct queue_worker *w, time_t now)
{
	int ret = exec(q, "INSERT INTO queue_workers (name, host, pid, role, started, "
			  "heartbeat, series_id, stage, warm, lease) VALUES (?, ?, ?, ?, ?, "
			  "?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET heartbeat = "
			  "excluded.heartbeat, role = excluded.role, series_id = "
			  "excluded.series_id, stage = excluded.stage, warm = excluded.warm, "
			  "lease = excluded.lease", "ssisttissi", w->name, w->host,
		       (long long)w->pid, w->role, w->started, now, w->series_id,
		       w->stage, w->warm ? w->warm : "", (long long)w->lease);

	/* Processes killed without a word leave their row: not for ever. */
	if (ret >= 0)
		ret = exec(q, "DELETE FROM queue_workers WHERE heartbeat < ?", "t",
			   now - QUEUE_WORKER_FORGET);
	return ret < 0 ? ret : 0;
}

int queue_worker_gone(struct queue *q, const char *name)
{
	int ret = exec(q, "DELETE FROM queue_workers WHERE name = ?", "s", name);

	return ret < 0 ? ret : 0;
}

int queue_find(long long *out_id, struct queue *q, const char *inbox,
	       const char *root_msgid)
{
	return find_series(out_id, q, inbox, root_msgid);
}

int queue_recent(long long **out, struct queue *q, size_t max)
{
	struct store_rows *rows = NULL;
	long long *ids = NULL;
	size_t nr = 0, alloc = 0;
	int rc;

	*out = NULL;
	rc = query(&rows, q, "SELECT id FROM queue_series WHERE state != 'skipped' "
			     "ORDER BY first_seen DESC, id DESC LIMIT ?", "i",
		   (long long)max);
	while (rc == 1 && (rc = store_rows_next(rows)) == 1) {
		ALLOC_GROW(ids, nr + 1, alloc);
		ids[nr++] = store_rows_int(rows, 0);
	}
	store_rows_free(rows);
	if (rc < 0) {
		free(ids);
		return rc;
	}
	*out = ids;
	return (int)nr;
}

int queue_skip(struct queue *q, long long id, const char *reason, time_t now)
{
	int ret = exec(q, "UPDATE queue_series SET state = 'skipped', error = ?, "
			  "updated = ? WHERE id = ?", "sti", reason, now, id);

	if (ret > 0) {
		queue_log(q, id, "", QL_INFO, "skipped: %s", reason);
		return 0;
	}
	return expect_one(ret, id);
}

int queue_set_verdict(struct queue *q, long long id, const char *verdict,
		      int findings)
{
	return expect_one(exec(q, "UPDATE queue_series SET verdict = ?, "
				  "findings = ? WHERE id = ?", "sii", verdict,
			       (long long)findings, id), id);
}

int queue_count_b4(struct queue *q, long long id)
{
	return expect_one(exec(q, "UPDATE queue_series SET b4_runs = b4_runs + 1 "
				  "WHERE id = ?", "i", id), id);
}

int queue_set_missing(struct queue *q, long long id, const char *missing)
{
	return expect_one(exec(q, "UPDATE queue_series SET missing = ? WHERE id = ?",
			       "si", missing, id), id);
}

int queue_series_of(long long *out_id, struct queue *q, const char *inbox,
		    const char *msgid)
{
	return query_id(out_id, q, "SELECT series_id FROM queue_messages WHERE "
				   "inbox = ? AND msgid = ? AND series_id <> 0",
			inbox, msgid);
}

int queue_members(struct strvec *out, struct queue *q, long long id)
{
	struct store_rows *st;
	int ret;

	ret = query(&st, q, "SELECT m.msgid FROM queue_messages m, queue_series s "
			    "WHERE s.id = ? AND m.series_id = s.id AND m.inbox = s.inbox "
			    "ORDER BY m.msgid = s.root_msgid DESC, m.idx, m.seen", "i", id);
	if (ret <= 0)
		return ret;
	do
		strvec_push(out, store_rows_text(st, 0));
	while ((ret = store_rows_next(st)) == 1);
	store_rows_free(st);
	return ret < 0 ? ret : 0;
}

int queue_set_reply(struct queue *q, long long id, const char *what)
{
	return expect_one(exec(q, "UPDATE queue_series SET reply = ? WHERE id = ?",
			       "si", what, id), id);
}

int queue_defer(struct queue *q, long long id, time_t at)
{
	return expect_ours(exec(q, "UPDATE queue_series SET next_at = ?, "
				   "lease_until = 0 WHERE id = ?" FENCE, "tiss",
				at, id, OWNER(q), OWNER(q)), q, id);
}

int queue_fail(struct queue *q, long long id, const char *reason, bool permanent,
	       time_t now)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	unsigned long delay;
	int ret, attempts;
	struct error_state why;

	/*
	 * Callers pass error_last(), which queue_load() clears: held aside,
	 * or every failure was recorded with an empty reason.  A failure
	 * never goes down without one.
	 */
	if (!reason || reason == error_last()) {
		error_state_capture(&why, WW_ERROR);
		reason = why.msg;
	} else if (!*reason) {
		reason = "failed with no message";
	}
	ret = queue_load(&s, q, id);
	if (ret < 0)
		goto out;
	attempts = s.attempts + 1;
	if (permanent || attempts >= (int)q->opts.max_attempts) {
		ret = expect_ours(exec(q, "UPDATE queue_series SET state = 'failed', "
				       "failed_in = ?, attempts = ?, error = ?, updated = ?, "
				       "lease_until = 0 WHERE id = ?" FENCE, "sistiss",
				       queue_state_name(s.state), (long long)attempts,
				       reason, now, id, OWNER(q), OWNER(q)), q, id);
		if (ret < 0)
			goto out;
		queue_log(q, id, s.inbox, QL_ERROR, "%s failed%s: %s",
			  queue_state_name(s.state),
			  permanent ? "" : " for the last time", reason);
		ret = ret < 0 ? ret : QS_FAILED;
		goto out;
	}
	delay = q->opts.retry_base ? q->opts.retry_base : 1;
	for (int i = 1; i < attempts && delay < q->opts.retry_max; i++)
		delay *= 2;
	if (delay > q->opts.retry_max)
		delay = q->opts.retry_max;
	ret = expect_ours(exec(q, "UPDATE queue_series SET attempts = ?, error = ?, "
			       "next_at = ?, updated = ?, lease_until = 0 WHERE id = ?"
			       FENCE, "isttiss", (long long)attempts, reason,
			       now + (time_t)delay, now, id, OWNER(q), OWNER(q)), q, id);
	if (ret < 0)
		goto out;
	queue_log(q, id, s.inbox, QL_WARN, "attempt %d at %s failed, retry in %lu s: %s",
		  attempts, queue_state_name(s.state), delay, reason);
	ret = ret < 0 ? ret : (int)s.state;
out:
	queue_series_release(&s);
	return ret;
}

int queue_retry(struct queue *q, long long id, bool force, time_t now)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	enum queue_state to;
	int ret;

	ret = queue_load(&s, q, id);
	if (ret < 0)
		return ret;
	if (s.state == QS_FAILED)
		to = s.failed_in;
	else if (s.state == QS_SKIPPED)
		to = QS_RECEIVED;
	else if (force)
		to = queue_state_active(s.state) ? s.state : QS_RECEIVED;
	else {
		ret = error_code(WW_EINPUT, "series %lld is %s, not failed or skipped "
				 "(--force requeues it anyway)", id,
				 queue_state_name(s.state));
		goto out;
	}
	ret = exec(q, "UPDATE queue_series SET state = ?, attempts = 0, next_at = ?, "
		      "updated = ?, force_reply = ? WHERE id = ?", "sttii",
		   queue_state_name(to), now, now, (long long)force, id);
	if (ret >= 0) {
		queue_log(q, id, s.inbox, QL_INFO, "requeued at %s by retry",
			  queue_state_name(to));
		ret = 0;
	}
out:
	queue_series_release(&s);
	return ret;
}

long long queue_prev_version(struct queue *q, long long id)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	struct strbuf key = STRBUF_INIT;
	struct store_rows *st;
	long long prev = 0;

	if (queue_load(&s, q, id) < 0)
		return 0;
	if (s.prev_id || s.version <= 1) {
		prev = s.prev_id;
		goto out;
	}
	queue_title_key(&key, s.title);
	/* Any earlier version by the same author whose cover or patches
	 * carry one of this series' titles: covers get reworded less often
	 * than they disappear, so patch titles count too. */
	if (query(&st, q,
		  "SELECT o.id FROM queue_series o WHERE o.author_email = ? AND "
		  "o.version < ? AND o.id != ? AND ("
		  " o.title_key = ? OR EXISTS (SELECT 1 FROM queue_messages om, "
		  "  queue_messages m WHERE om.series_id = o.id AND m.series_id = ? "
		  "  AND om.title_key = m.title_key AND om.title_key != '')) "
		  "ORDER BY o.title_key = ? DESC, o.version DESC, o.id DESC LIMIT 1",
		  "siisis", s.author_email, (long long)s.version, id, key.buf,
		  id, key.buf) == 1) {
		prev = store_rows_int(st, 0);
		store_rows_free(st);
		exec(q, "UPDATE queue_series SET prev_id = ? WHERE id = ?", "ii",
		     prev, id);
	}
out:
	strbuf_release(&key);
	queue_series_release(&s);
	return prev;
}

/* ---- artifacts --------------------------------------------------------- */

int queue_series_dir(struct strbuf *out, struct queue *q, long long id,
		     bool create)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/series/%lld", q->state_dir, id);
	return create ? mkdirs(out->buf, 0755, WW_ESTATE) : 0;
}

void queue_artifact(struct strbuf *out, struct queue *q, long long id,
		    const char *name)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/series/%lld/%s", q->state_dir, id, name);
}
