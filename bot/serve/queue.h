/*
 * The service's persistent queue: which messages the archives showed us,
 * how they group into series, and where each series is on its way
 *
 *   received -> fetched -> checked [-> booted] -> replied
 *
 * with `failed` (after the last attempt, with the reason and the stage it
 * failed in, for `warnwatch retry`) and `skipped` (seen before the service
 * watched the list, or not a series we may act on).  Every transition is
 * one SQLite transaction, so a process killed at any moment restarts from
 * the last stage that completed; stages are written to be repeatable.
 *
 * Grouping follows b4 (group.h): the subject's tags and the parent each
 * message answers.  A cover letter (0/n, a PATCHSET, or an untagged
 * message that numbered patches answer), a lone patch, or a first patch
 * that answers no cover starts a series; other patches join the series
 * of the message they answer.  A series is due once all of its patches
 * are there, or `max_wait` after its first message (then reviewed once
 * without the missing ones).  A new version is linked to the newest
 * earlier version with the same author address and the same title (cover
 * letter or any patch), so the reply can compare them.
 *
 * The tables live in the state database (store.h), created by the
 * migrations in store-schema.c.  Whether a reply went out is the store's
 * replies table, shared with `warnwatch review`, so a series answered by
 * hand is not answered again by the service.  Artifacts live on disk
 * under STATE_DIR/series/ID/ (see queue_series_dir()).
 */
#ifndef WW_QUEUE_H
#define WW_QUEUE_H

#include "archive.h"
#include "store.h"
#include "strvec.h"

#include <jansson.h>
#include <time.h>

enum queue_state {
	QS_RECEIVED,
	QS_FETCHED,
	QS_CHECKED,
	QS_BOOTED,
	QS_REPLIED,	/* done: the reply step finished (sent, drafted or none needed) */
	QS_FAILED,
	QS_SKIPPED,
	QS__NR
};

/* The states a series still has work in, as SQL (`state IN ...`). */
#define QUEUE_ACTIVE_STATES "('received', 'fetched', 'checked', 'booted')"

/* Artifact file names inside a series directory. */
#define QUEUE_MBOX "series.mbx"	/* the patches b4 chose (b4's .mbx) */
#define QUEUE_COVER "cover.eml"	/* b4's cover letter, when there is one */
#define QUEUE_THREAD "thread.mbox"	/* the thread as archived */
#define QUEUE_SELECTED "selected.mbox"	/* the series' messages of it, for b4 */
#define QUEUE_FINDINGS "findings.json"
#define QUEUE_CI "ci.json"		/* warnwatch ci --format=json */
#define QUEUE_CONSOLE "console.log"
#define QUEUE_REPLY "reply.eml"

struct queue_opts {
	unsigned int settle;	/* seconds of quiet before a series is fetched */
	unsigned int max_wait;	/* give up waiting for missing patches after this */
	unsigned int retry_base; /* first retry delay after a failure, seconds */
	unsigned int retry_max;	/* longest retry delay */
	unsigned int max_attempts; /* failures before a series is `failed` */
	unsigned int warm_wait;	/* seconds a build waits for a warm worker */
};

#define QUEUE_OPTS_INIT { .settle = 120, .max_wait = 3600, .retry_base = 60, .retry_max = 3600, \
			.max_attempts = 5, .warm_wait = 600 }

struct queue {
	struct store *store;	/* borrowed: the state store */
	char *state_dir;
	struct queue_opts opts;
	/* A worker's name ("host:pid") when series are claimed (queue_claim):
	 * the stage-ending transitions then apply only while the claim is
	 * ours, and release it.  NULL for the single-process service. */
	const char *owner;
	/* The releases this worker has built (ci_warm_bases(): ",6.1,"), or
	 * NULL: queue_claim() prefers series whose build wants one of them. */
	const char *warm;
};

/* One series as stored.  Strings are owned, "" when unknown, never NULL. */
struct queue_series {
	long long id;
	char *inbox;		/* the configured list it came from */
	char *root_msgid;	/* cover letter, or first patch */
	char *title;		/* subject without tags */
	char *author;		/* "Name <addr>" */
	char *author_email;
	int version;		/* the cover's or the patches', the higher */
	int patch_version;	/* the highest its patches spell (1: none) */
	int total;		/* n of m/n; 1 for a lone patch; patches that
				 * disagree: group_total() */
	int nr_seen;		/* distinct patches seen so far */
	bool has_cover;
	long long prev_id;	/* the earlier version, 0 none */
	enum queue_state state;
	enum queue_state failed_in; /* for QS_FAILED: the stage that failed */
	int attempts;		/* failures at the current stage */
	time_t next_at;		/* not before (settle, backoff, quiet hours) */
	time_t first_seen, last_seen, updated;
	char *error;		/* last failure, "" none */
	char *verdict;		/* "clean", "findings", or ci's verdict name */
	int findings;		/* number of findings */
	char *reply;		/* what the reply step did, for people */
	bool force_reply;	/* `retry --force`: send even if maybe sent */
	char *base;		/* the release its build wants first, "" any */
	int b4_runs;		/* times b4 fetched it (once, normally) */
	char *missing;		/* patches not in its thread ("[3/5]"), "" none */
};

#define QUEUE_SERIES_INIT { 0 }

/* What the poller learned about one message. */
struct queue_msg {
	const char *inbox;
	const char *msgid;
	const char *parent;	/* "" or NULL: none */
	const char *subject;
	const char *author_name;
	const char *author_email;
};

/* Attach to an open state store (whose migrations have run); artifacts go
 * under `state_dir`. */
int queue_init(struct queue *q, struct store *store, const char *state_dir,
	       const struct queue_opts *opts);
void queue_release(struct queue *q);

enum queue_add_result {
	QUEUE_KNOWN = 0,	/* seen before: nothing changed */
	QUEUE_IGNORED = 1,	/* new, but not a patch (replies, chatter) */
	QUEUE_ADDED = 2,	/* new patch or cover, grouped into a series */
};

/*
 * Record a message seen at `now`.  With `skip` (the first poll of a list
 * that is not back-filled), a series it starts is created `skipped`.
 * Returns an enum queue_add_result or a negative code (WW_ESTATE).
 */
int queue_add_message(struct queue *q, const struct queue_msg *m, time_t now,
		      bool skip);

/*
 * The oldest series that is due at `now` (active state, next_at <= now)
 * into *out_id: 1 found, 0 none, negative on error.
 */
int queue_next_due(long long *out_id, struct queue *q, time_t now);
/*
 * Claim the oldest due series whose lease is free (never taken, released,
 * or expired) for `lease` seconds as `owner`, in one transaction that
 * skips rows another worker is claiming at that moment (PostgreSQL's FOR
 * UPDATE SKIP LOCKED; SQLite serialises writers anyway): 1 (into
 * *out_id), 0 none, negative on error.
 */
int queue_claim(long long *out_id, struct queue *q, const char *owner,
		unsigned int lease, time_t now);
/* Claim `id` itself if it is due and free (a worker going on with the
 * next stage of the series it just moved), and claimable as queue_claim()
 * says (a build left for a warm worker is not): 1 claimed, 0 not. */
int queue_claim_id(struct queue *q, long long id, const char *owner,
		   unsigned int lease, time_t now);
/* Extend `owner`'s lease on `id`: 1 still ours, 0 lost (released, or
 * expired and taken), negative on error. */
int queue_renew(struct queue *q, long long id, const char *owner,
		unsigned int lease, time_t now);
/* The release series `id`'s build wants first ("" none), for steering. */
int queue_set_base(struct queue *q, long long id, const char *base);
/* Give the claim up without a transition (a failed store, a stop). */
int queue_unclaim(struct queue *q, long long id, const char *owner);

/* One running serve process, as `status` shows it. */
struct queue_worker {
	const char *name;	/* "host:pid", unique */
	const char *host;
	long pid;
	const char *role;	/* "poller", "worker", "all" */
	time_t started;
	long long series_id;	/* the series being worked on, 0 none */
	const char *stage;	/* its stage, or "polling", "idle" */
	const char *warm;	/* releases built here, ",6.1,6.12,"; NULL none */
	unsigned int lease;	/* its [state] lease: silent longer is gone */
};

/* Record that `w` is alive at `now` (and what it does); remove it at a
 * clean stop. */
int queue_heartbeat(struct queue *q, const struct queue_worker *w, time_t now);
int queue_worker_gone(struct queue *q, const char *name);

/* The earliest next_at of an active series, 0 when none (for sleeping). */
time_t queue_next_wakeup(struct queue *q);

int queue_load(struct queue_series *out, struct queue *q, long long id);
void queue_series_release(struct queue_series *s);

/* The series of `inbox` whose root is `root_msgid`: 1 (into *out_id), 0
 * none, negative on error. */
int queue_find(long long *out_id, struct queue *q, const char *inbox,
	       const char *root_msgid);
/*
 * The ids of at most `max` series, newest first (first_seen, then id),
 * those set aside as skipped left out: what the dashboard lists.  *out
 * (the caller's to free) holds them; returns how many, or a negative code.
 */
int queue_recent(long long **out, struct queue *q, size_t max);
/* Set `id` aside as `skipped` with the reason (e.g. a duplicate). */
int queue_skip(struct queue *q, long long id, const char *reason, time_t now);

/* Move to `state` (attempts reset, error cleared, due at once). */
int queue_advance(struct queue *q, long long id, enum queue_state state,
		  time_t now);
/* Record outcomes shown by `status` and the dashboard. */
int queue_set_verdict(struct queue *q, long long id, const char *verdict,
		      int findings);
int queue_set_reply(struct queue *q, long long id, const char *what);
/* One more b4 run for `id` (counted before it runs, so a crash counts). */
int queue_count_b4(struct queue *q, long long id);
/* The patches its thread lacked when it was reviewed ("[3/5]", "" none). */
int queue_set_missing(struct queue *q, long long id, const char *missing);
/* The Message-IDs of the messages grouped into `id`, its root first
 * when the root itself arrived, then by patch number (0 none). */
int queue_members(struct strvec *out, struct queue *q, long long id);
/* The series message `msgid` of `inbox` was grouped into: 1 (into
 * *out_id), 0 none, negative on error. */
int queue_series_of(long long *out_id, struct queue *q, const char *inbox,
		    const char *msgid);
/* Not yet (settle, quiet hours, waiting for the archive): due at `at`. */
int queue_defer(struct queue *q, long long id, time_t at);

/*
 * A stage failed with `reason`.  Temporary failures are retried with a
 * doubling delay; after opts.max_attempts, or at once when `permanent`,
 * the series becomes `failed`, remembering the stage for queue_retry().
 * Returns the new state (QS_FAILED or unchanged).
 */
int queue_fail(struct queue *q, long long id, const char *reason, bool permanent,
	       time_t now);

/* `warnwatch retry`: a failed (or skipped) series goes back to the stage
 * it stopped at (received for skipped), due now.  WW_ENOTFOUND for an
 * unknown id, WW_EINPUT when it is not failed/skipped and not `force`.
 * `force` also lets the reply step send a reply whose earlier sending
 * has an unknown outcome (same Message-ID). */
int queue_retry(struct queue *q, long long id, bool force, time_t now);

/* The earlier version of `id` (0 none), linking it if not done yet. */
long long queue_prev_version(struct queue *q, long long id);

/* STATE_DIR/series/ID, created if `create`. */
int queue_series_dir(struct strbuf *out, struct queue *q, long long id,
		     bool create);
/* STATE_DIR/series/ID/NAME. */
void queue_artifact(struct strbuf *out, struct queue *q, long long id,
		    const char *name);

/* Per-list poll state (validators, backoff) and whether the list has
 * been polled once ("primed"). */
int queue_inbox_load(struct archive_inbox *out, bool *primed, struct queue *q,
		     const char *inbox);
int queue_inbox_save(struct queue *q, const char *inbox,
		     const struct archive_inbox *st, bool primed,
		     const char *last_error);

/*
 * Where the service is in a list's public-inbox epochs (migration 7):
 * the last commit read per epoch, saved after each message read, so a
 * restart reads on from the commit after it (a message read twice is
 * known by its Message-ID).
 */
struct queue_epoch {
	unsigned int epoch;	/* N of git/N.git */
	char last_commit[41];	/* hex, "" none read yet */
	long long commits;	/* commits read in it */
};

/* The newest epoch recorded for `inbox`: 1 (into *out), 0 none yet
 * (the list was never read through git), negative on error. */
int queue_epoch_newest(struct queue_epoch *out, struct queue *q, const char *inbox);
/* Record `commit` ("" to start an epoch) as the last read in `epoch`. */
int queue_epoch_save(struct queue *q, const char *inbox, unsigned int epoch,
		     const char *commit, time_t now);

/* An event for `status` (errors, late messages, resends). */
enum queue_level { QL_INFO, QL_WARN, QL_ERROR };
void queue_log(struct queue *q, long long series_id, const char *inbox,
	       enum queue_level level, const char *fmt, ...) WW_PRINTF(5, 6);

/*
 * Everything `warnwatch status` and the dashboard show, as a new JSON
 * object: {"generated", "backend", "lists": [poll state], "counts":
 * {STATE: N}, "series": [newest first: every one not yet replied to or
 * skipped, and the newest `limit` besides], "events": [newest
 * first, at most `limit`], "workers": [name, host, pid, role, heartbeat,
 * series_id, stage], "queue": {"active": series in an active state,
 * "due": those due by `now`, "held": those a policy holds (their reply
 * says "held ..."), "next_at": the earliest next_at of them, 0 none}}.
 * A list's "last_ok" is when its last successful poll began; a poll
 * that began after a mail was delivered has seen it, so the service is
 * idle when that poll is saved, "due" is 0 and every active series is
 * held (tests/e2e/lib.sh's wait_idle).  A series lists its artifacts as
 * paths relative to the state directory ("series/12/findings.json")
 * when they exist.
 */
int queue_status_json(json_t **out, struct queue *q, size_t limit, time_t now);

/*
 * What happened to a series, in the words of a list owner (issue 38.5):
 * the queue's state says where it is, this says what became of it.
 * Derived from the state, the reply step's record (`reply`, which the
 * reply stage writes in its fixed words: "sent <..>", "none: ...",
 * "drafted", "drafted, not sent: ...", "held ...") and the error.
 */
enum queue_outcome {
	QO_IN_PROGRESS,		/* on its way through the stages */
	QO_ANSWERED,		/* a reply went out (or answered by another entry) */
	QO_NOTHING,		/* reviewed: nothing to say */
	QO_HELD,		/* a policy kept the mail back (which: `why`) */
	QO_SKIPPED,		/* set aside, and why */
	QO_FAILED,		/* failed, and why */
	QO__NR
};

/* "answered", "nothing to say", "held by policy", ... */
const char *queue_outcome_name(enum queue_outcome o);
/* The outcome of a series in `state` with `reply` and `error` as status
 * has them; the reason (the policy, the skip, the failure) into `why`. */
enum queue_outcome queue_outcome_of(struct strbuf *why, const char *state,
				    const char *reply, const char *error);

const char *queue_state_name(enum queue_state s);
int queue_state_parse(enum queue_state *out, const char *name);
bool queue_state_active(enum queue_state s);

/* Normalised title for version matching: lower case, single spaces. */
void queue_title_key(struct strbuf *out, const char *title);

#endif
