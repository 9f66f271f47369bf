/*
 * The service (see serve.h): polling the feeds into the queue, the roles with their heartbeats, poll lock and claims, and
 * the loop that hands one series at a time to its next stage (stage.h:
 * fetch, check, kernel-ci, reply, one module each), keeping the
 * dashboard and status.json current.
 */
#include "serve-priv.h"
#include "mkdirs.h"
#include "orphan.h"
#include "atom.h"
#include "follow.h"
#include "httpd.h"
#include "stage.h"
#include "ci.h"
#include "redact.h"

#include <fnmatch.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

void serve_request_stop(void)
{
	stop_requested = 1;
}

bool serve_stopping(void)
{
	return stop_requested != 0;
}

/* ---- policy ------------------------------------------------------------ */

bool serve_quiet(const struct serve_list *l, time_t now, time_t *out_end)
{
	struct tm tm;
	int m;
	bool quiet;

	if (l->quiet_from < 0)
		return false;
	localtime_r(&now, &tm);
	m = tm.tm_hour * 60 + tm.tm_min;
	if (l->quiet_from < l->quiet_to)
		quiet = m >= l->quiet_from && m < l->quiet_to;
	else
		quiet = m >= l->quiet_from || m < l->quiet_to;
	if (quiet && out_end) {
		tm.tm_hour = l->quiet_to / 60;
		tm.tm_min = l->quiet_to % 60;
		tm.tm_sec = 0;
		tm.tm_isdst = -1;
		if (m >= l->quiet_to)
			tm.tm_mday++;	/* mktime() normalises */
		*out_end = mktime(&tm);
	}
	return quiet;
}

static bool glob_any(const struct strvec *pats, const char *s, int flags)
{
	for (size_t i = 0; i < pats->nr; i++) {
		const char *p = pats->v[i];

		/* "drivers/net/" means everything below it. */
		if (ends_with(p, "/") && starts_with(s, p))
			return true;
		if (!fnmatch(p, s, flags))
			return true;
	}
	return false;
}

bool serve_allowed(const struct serve_list *l, const char *author_email,
		   const char *const *paths, const char **why)
{
	bool any = false;

	if (l->allow_senders.nr &&
	    !glob_any(&l->allow_senders, author_email, FNM_CASEFOLD)) {
		*why = "the author is not in allow-senders";
		return false;
	}
	if (!l->allow_paths.nr)
		return true;
	for (size_t i = 0; paths && paths[i]; i++)
		if (glob_any(&l->allow_paths, paths[i], 0))
			any = true;
	if (!any)
		*why = "the series touches nothing in allow-paths";
	return any;
}

bool serve_rcpt_allowed(const struct serve_list *l, const struct mail_addr_list *rcpt,
			const char *lists, const char **why)
{
	for (size_t i = 0; l->allow_senders.nr && i < rcpt->nr; i++) {
		const char *addr = rcpt->v[i].addr;

		if ((lists && reply_addr_matches(addr, lists)) ||
		    (l->address && *l->address && reply_addr_matches(addr, l->address)))
			continue;
		if (!glob_any(&l->allow_senders, addr, FNM_CASEFOLD)) {
			*why = "a recipient is not in allow-senders";
			return false;
		}
	}
	return true;
}

/* ---- the state, for status and retry ------------------------------- */

int serve_state_open(struct store *st, struct queue *q, const struct settings *s,
		     const char *state_dir)
{
	const char *dir = state_dir ? state_dir : s->state.dir;
	struct strbuf db = STRBUF_INIT;
	struct stat sb;
	int ret;

	strbuf_addf(&db, "%s/%s", dir, STORE_FILE);
	if (!state_dir && s->state.url)
		ret = settings_state_open(st, s);
	else if (stat(db.buf, &sb))
		ret = error_code(WW_ENOTFOUND, "no state in '%s' (has the service run?)",
				 dir);
	else if (state_dir)
		ret = store_open(st, dir);
	else
		ret = settings_state_open(st, s);
	if (!ret)
		queue_init(q, st, dir, NULL);
	strbuf_release(&db);
	return ret;
}

void serve_say(struct serve *sv, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT, out = STRBUF_INIT;
	va_list ap;

	if (!(sv->flags & SERVE_VERBOSE))
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	/* A list's archive URL may carry a password (redact.h). */
	redact_add(&out, msg.buf, 0);
	fprintf(stderr, "warnwatch serve: %s\n", out.buf);
	strbuf_release(&msg);
	strbuf_release(&out);
}

/*
 * A stage failed: record it and set the retry.  The delay counts from now,
 * when the stage ended, not from the start of a stage that may have run a
 * boot for minutes or waited out a timeout, and it is never cut short by
 * the second already begun (t0401 once saw "retry in 1 s" come 0.3 s later).
 */
int serve_fail(struct serve *sv, long long id, const char *why, bool permanent)
{
	int ret = queue_fail(&sv->q, id, why, permanent, time_ceil());

	/* The state it left (QS_FAILED or unchanged) is the queue's
	 * business; a stage returns 0 once the failure is recorded. */
	return ret < 0 ? ret : 0;
}

/* ---- polling ----------------------------------------------------------- */

/* public-inbox answers 404 with this body for an inbox without mail. */
#define PI_EMPTY_FEED "No feed found"

/* How long a list whose archive serves no git epoch is read through its
 * feed before the epochs are asked for again. */
#define SERVE_GIT_RETRY 3600

/*
 * Poll list `i` through its git epochs (follow.h): 0, WW_ENOTFOUND when
 * the archive serves none, or a failure (in the error state).
 */
static int poll_epochs(struct serve *sv, size_t i, time_t now, bool skip,
		       size_t *added)
{
	const struct serve_list *l = &sv->cfg->lists[i];
	struct serve_inbox *in = &sv->inboxes[i];
	struct follow_opts fo = {
		.list = l->name, .archive = l->archive, .inbox = l->inbox,
		.state_dir = sv->cfg->settings->state.dir, .http = &sv->http,
		.skip = skip, .stop = serve_stopping,
	};
	struct follow_result res;
	int ret = follow_list(&res, &sv->q, &fo, now);

	if (ret < 0)
		return ret;
	*added = res.added;
	if (res.new_epoch)
		queue_log(&sv->q, 0, l->name, QL_INFO, "reading epoch %u of %s/%s",
			  res.epoch, l->archive, l->inbox);
	if (res.read)
		serve_say(sv, "%s: epoch %u: %zu message(s) read, %zu new", l->name,
			  res.epoch, res.read, res.fresh);
	in->git = true;
	return 0;
}

/*
 * The feed showed nothing but new mail: a gap before it.  Its oldest
 * entry's thread (a patchbomb's cover and patches) is read whole; other
 * threads in the gap are lost, said as a warning in status.
 */
static int fill_gap(struct serve *sv, size_t i, const struct atom_feed *feed,
		    time_t now, bool skip, size_t *added)
{
	const struct serve_list *l = &sv->cfg->lists[i];
	struct follow_opts fo = {
		.list = l->name, .archive = l->archive, .inbox = l->inbox,
		.http = &sv->http, .skip = skip,
	};
	struct follow_result res = { 0 };
	const char *oldest = feed->v[feed->nr - 1].message_id;
	int ret = follow_fill_thread(&res, &sv->q, &fo, oldest, now);

	if (ret == WW_ESTATE)
		return ret;
	*added += res.added;
	queue_log(&sv->q, 0, l->name, QL_WARN,
		  "all %zu feed entries were new: mail may have been missed "
		  "(%s serves no git epoch to read it from); %zu more found in "
		  "the thread of <%s>%s%s; poll more often", feed->nr, l->archive,
		  res.fresh, oldest, ret < 0 ? ", which could not be read: " : "",
		  ret < 0 ? error_last() : "");
	if (ret < 0)
		error_clear();
	return 0;
}

/*
 * A failed poll of list `i`: the backoff counts from the failed answer,
 * as fail()'s does, not from before a request that may have waited out
 * its timeout; the error goes to the log and into `err`.
 */
static void poll_failed(struct serve *sv, size_t i, time_t now, struct strbuf *err)
{
	const struct serve_list *l = &sv->cfg->lists[i];

	sv->inboxes[i].poll.next_at += time_ceil() - now;
	strbuf_addstr(err, error_last());
	queue_log(&sv->q, 0, l->name, QL_ERROR, "%s", err->buf);
	serve_say(sv, "%s: %s", l->name, err->buf);
}

/*
 * List `i` read through its git epochs: 0 when read, 1 when it has none
 * to read (its new.atom is read instead, and git tried again later),
 * negative when it failed (logged, but for the state database's own).
 */
static int poll_git(struct serve *sv, size_t i, const struct archive_opts *ao, time_t now,
		    bool skip, size_t *added, struct strbuf *err)
{
	const struct serve_list *l = &sv->cfg->lists[i];
	struct serve_inbox *in = &sv->inboxes[i];
	int ret = poll_epochs(sv, i, now, skip, added);

	if (!ret) {
		archive_note_success(&in->poll, ao, now);
		return 0;
	}
	if (ret == WW_ESTATE)
		return ret;	/* the database, not the archive */
	if (ret != WW_ENOTFOUND) {
		archive_note_failure(&in->poll, ao, now, 0);
		poll_failed(sv, i, now, err);
		return ret;
	}
	if (in->git || !in->primed)
		queue_log(&sv->q, 0, l->name, QL_WARN, "%s; reading its "
			  "new.atom, which shows only the newest 25 messages",
			  error_last());
	error_clear();
	in->git = false;
	in->git_retry_at = now + SERVE_GIT_RETRY;
	return 1;
}

/*
 * List `i`'s new.atom into `feed` (left empty when unchanged): 0, or
 * negative when the archive gave no feed (logged).  (ARCHIVE_UNCHANGED
 * is 0, ARCHIVE_CHANGED becomes atom_parse()'s 0.)  `failures` is the
 * count of failed polls before this one.
 */
static int poll_feed(struct atom_feed *feed, struct serve *sv, size_t i,
		     const struct archive_opts *ao, time_t now, unsigned int failures,
		     struct strbuf *err)
{
	const struct serve_list *l = &sv->cfg->lists[i];
	struct serve_inbox *in = &sv->inboxes[i];
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT;
	bool no_feed = false;
	int ret;

	strbuf_addf(&url, "%s/%s/new.atom", l->archive, l->inbox);
	ret = archive_poll(&body, &in->poll, url.buf, ao, now);
	if (ret == WW_ENOTFOUND && starts_with(body.buf, PI_EMPTY_FEED)) {
		ret = ARCHIVE_UNCHANGED;	/* an inbox without mail yet */
	} else if (ret == WW_ENOTFOUND) {
		no_feed = true;
	} else if (ret == ARCHIVE_CHANGED) {
		ret = atom_parse(feed, body.buf, body.len);
		if (ret < 0) {
			ret = error_prefix(ret, "'%s'", url.buf);
			no_feed = true;
		}
	}
	/*
	 * archive_poll() counts any answer as the archive being up; an answer
	 * that is no feed (an error page, half a feed, a 404) is a failure
	 * here, and its backoff must go on from the failures before it, not
	 * start again at one interval (found by t0402: a 500, then garbage,
	 * then garbage again was polled every second).
	 */
	if (no_feed) {
		in->poll.failures = failures;
		archive_note_failure(&in->poll, ao, now, 0);
	}
	if (ret < 0)
		poll_failed(sv, i, now, err);
	strbuf_release(&url);
	strbuf_release(&body);
	return ret;
}

/* The feed's messages into the queue, and the gap behind a full feed. */
static int add_feed(struct serve *sv, size_t i, const struct atom_feed *feed, time_t now,
		    bool skip, size_t *added)
{
	const struct serve_list *l = &sv->cfg->lists[i];
	size_t fresh = 0;
	int ret;

	/* Oldest first, so parents are known before their replies. */
	for (size_t k = feed->nr; k-- > 0; ) {
		const struct atom_entry *e = &feed->v[k];
		struct queue_msg m = {
			.inbox = l->name, .msgid = e->message_id,
			.parent = e->in_reply_to, .subject = e->title,
			.author_name = e->author_name,
			.author_email = e->author_email,
		};

		ret = queue_add_message(&sv->q, &m, now, skip);
		if (ret < 0)
			return ret;
		if (ret == QUEUE_ADDED)
			(*added)++;
		if (ret != QUEUE_KNOWN)
			fresh++;
	}
	/* public-inbox's feed holds the newest 25: none known means a gap. */
	if (sv->inboxes[i].primed && feed->nr >= 25 && fresh == feed->nr) {
		ret = fill_gap(sv, i, feed, now, skip, added);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Poll list `i` once: its git epochs, else its new.atom, into the queue;
 * the inbox's poll state saved whatever happened.  WW_ESTATE when the
 * state database failed; else 1 when there was something to do (new
 * messages, or a failure to log), 0 when not.
 */
static int poll_list(struct serve *sv, size_t i, time_t now)
{
	const struct serve_list *l = &sv->cfg->lists[i];
	struct serve_inbox *in = &sv->inboxes[i];
	struct archive_opts ao = sv->http;
	struct atom_feed feed = ATOM_FEED_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t added = 0;
	bool skip = !in->primed && !l->backfill;
	unsigned int failures = in->poll.failures;
	int ret = 1, r;

	ao.interval = l->poll_interval;
	if (now >= in->git_retry_at)
		ret = poll_git(sv, i, &ao, now, skip, &added, &err);
	if (ret > 0) {
		ret = poll_feed(&feed, sv, i, &ao, now, failures, &err);
		if (!ret)
			ret = add_feed(sv, i, &feed, now, skip, &added);
	}
	if (!ret) {
		if (added)
			serve_say(sv, "%s: %zu new patch message(s)%s", l->name, added,
				  skip ? " (before watching: skipped)" : "");
		in->primed = true;
	}
	r = queue_inbox_save(&sv->q, l->name, &in->poll, in->primed, err.buf);
	if (!ret && r < 0)
		ret = r;
	atom_feed_release(&feed);
	strbuf_release(&err);
	/* A list that cannot be polled is an event, not a reason to stop. */
	if (ret == WW_ESTATE)
		return ret;
	return added || ret < 0 ? 1 : 0;
}

/* ---- one step of work -------------------------------------------------- */

/* The pipeline, in order: the first wanted stage that starts from a
 * series' state runs next (stage.h). */
static const struct stage *const stages[] = {
	&stage_fetch, &stage_check, &stage_ci, &stage_reply,
};

static const struct stage *next_stage(const struct queue_series *s,
				      const struct serve_list *l)
{
	for (size_t i = 0; i < ARRAY_SIZE(stages); i++)
		if ((stages[i]->from & STAGE_FROM(s->state)) &&
		    (!stages[i]->wanted || stages[i]->wanted(l)))
			return stages[i];
	BUG("series %lld is not active (%s)", s->id, queue_state_name(s->state));
}

static int run_stage(struct serve *sv, long long id, time_t now)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	const struct serve_list *l;
	const struct stage *st;
	int ret;

	ret = queue_load(&s, &sv->q, id);
	if (ret < 0)
		return ret;
	l = serve_config_list(sv->cfg, s.inbox);
	if (!l) {
		ret = serve_fail(sv, id, "its list is no longer configured", true);
		goto out;
	}
	error_clear();
	/* Checked again by the boot and reply stages, whatever ran before. */
	ret = s.state == QS_RECEIVED ? 0 : stage_need_rules(sv);
	if (ret < 0)
		;	/* reported below, like any stage's own failure */
	else
		ret = (st = next_stage(&s, l))->run(sv, &s, l, now);
	if (ret > 0)
		BUG("stage %s returned %d for series %lld (stage.h: 0 or negative)",
		    st->name, ret, id);
	if (ret < 0) {
		/* The state store or our own installation failed, not the
		 * series: say so, and keep the series where it is. */
		queue_log(&sv->q, id, l->name, QL_ERROR, "%s", error_last());
		serve_say(sv, "series %lld: %s", id, error_last());
		if (ret != WW_ESTATE)
			ret = serve_fail(sv, id, error_last(), false);
	}
out:
	queue_series_release(&s);
	return ret < 0 ? ret : 0;
}

/* The dashboard, then status.json next to it (for people and scripts). */
static int write_outputs(struct serve *sv, time_t now)
{
	const struct serve_drawer *d = &sv->cfg->drawer;
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	json_t *status = NULL;
	char *text;
	int ret;

	if (d->draw && d->draw(d->data, sv->cfg, &sv->store, now)) {
		/* A page that cannot be drawn must not stop the reviews. */
		queue_log(&sv->q, 0, "", QL_ERROR, "dashboard: %s", error_last());
		serve_say(sv, "dashboard: %s", error_last());
	}
	ret = queue_status_json(&status, &sv->q, 200, now);
	if (ret)
		return ret;
	text = json_dumps(status, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(status);
	if (!text)
		return error("cannot encode the status");
	strbuf_addstr(&data, text);
	strbuf_addch(&data, '\n');
	free(text);
	strbuf_addf(&path, "%s/status.json", sv->cfg->dashboard_dir);
	ret = strbuf_write_file(&data, path.buf);
	strbuf_release(&path);
	strbuf_release(&data);
	return ret;
}

/* ---- roles: heartbeats, the poll lock, claims ------------------------ */

/* The advisory lock only the active poller holds ("ww-poll"). */
#define SERVE_POLL_LOCK 0x77772d706f6c6cLL
/* A worker goes on with the next stage of its series at most this often
 * before it looks at the rest of the queue. */
#define SERVE_MAX_CHAIN 8
/* Seconds between the dashboards a poller writes while workers work. */
#define SERVE_OUTPUTS_EVERY 10

static void beat_set(struct serve *sv, long long id, const char *stage)
{
	if (!sv->beat.running)
		return;
	pthread_mutex_lock(&sv->beat.lock);
	sv->beat.series_id = id;
	snprintf(sv->beat.stage, sizeof(sv->beat.stage), "%s", stage);
	pthread_mutex_unlock(&sv->beat.lock);
}

/*
 * A worker's built releases, read again before each claim (a readdir of
 * the cache's build directory): a build it just finished counts at once,
 * and the heartbeat tells the other workers.
 */
static void refresh_warm(struct serve *sv)
{
	struct strbuf cache = STRBUF_INIT;

	strbuf_reset(&sv->warm);
	ci_cache_dir(&cache);
	ci_warm_bases(&sv->warm, cache.buf);
	sv->q.warm = sv->warm.buf;
	strbuf_release(&cache);
	/* Before the heartbeat thread starts, its first beat reads it as is. */
	if (sv->beat.running)
		pthread_mutex_lock(&sv->beat.lock);
	strbuf_reset(&sv->beat.warm);
	strbuf_addbuf(&sv->beat.warm, &sv->warm);
	if (sv->beat.running)
		pthread_mutex_unlock(&sv->beat.lock);
}

static void *beat_main(void *arg)
{
	struct beat *b = arg;
	struct strbuf warm = STRBUF_INIT;

	for (;;) {
		struct queue_worker w = b->w;
		char stage[sizeof(b->stage)];
		time_t now = time(NULL);
		bool stop;

		pthread_mutex_lock(&b->lock);
		stop = b->stop;
		w.series_id = b->series_id;
		memcpy(stage, b->stage, sizeof(stage));
		strbuf_reset(&warm);
		strbuf_addbuf(&warm, &b->warm);
		pthread_mutex_unlock(&b->lock);
		if (stop)
			break;
		w.stage = stage;
		w.warm = warm.buf;
		/* Failures (the database restarting) wait for the next beat;
		 * a lease lost meanwhile fences the stage's transitions. */
		queue_heartbeat(&b->q, &w, now);
		if (w.series_id)
			queue_renew(&b->q, w.series_id, w.name, b->lease, now);
		for (unsigned int i = 0; i < b->interval * 10; i++) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };

			pthread_mutex_lock(&b->lock);
			stop = b->stop;
			pthread_mutex_unlock(&b->lock);
			if (stop)
				break;
			nanosleep(&ts, NULL);
		}
	}
	strbuf_release(&warm);
	return NULL;
}

/* Whole-second polls of the stop flag: a signal landing just before
 * nanosleep() costs at most a quarter second, never a whole interval. */
static void sleep_until(time_t end)
{
	while (!serve_stopping() && time(NULL) < end) {
		struct timespec ts = { 0, 250 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
}

/*
 * A fleet starts in any order: a worker that comes up before its database
 * server waits for it ([state] start-wait seconds, backing off from 1 s to
 * 30 s, saying so each time) instead of exiting.  Only WW_ENET waits: a
 * wrong password or a missing database is said and ends the start.
 */
static int open_state_waiting(struct serve *sv, const struct serve_config *cfg)
{
	time_t until = time(NULL) + cfg->settings->state.start_wait;
	unsigned int delay = 1;
	int ret;

	for (;;) {
		time_t now;

		ret = settings_state_open(&sv->store, cfg->settings);
		now = time(NULL);
		if (ret != WW_ENET || (sv->flags & SERVE_ONCE) || serve_stopping() ||
		    now >= until)
			return ret;
		if (now + delay > until)
			delay = (unsigned int)(until - now);
		fprintf(stderr, "warnwatch serve: %s; trying again in %u s "
			"(giving up in %ld s)\n", error_last(), delay, (long)(until - now));
		sleep_until(now + delay);
		delay = delay * 2 > 30 ? 30 : delay * 2;
	}
}

static int beat_start(struct serve *sv)
{
	struct beat *b = &sv->beat;
	int ret;

	ret = settings_state_open(&b->store, sv->cfg->settings);
	if (ret)
		return ret;
	queue_init(&b->q, &b->store, sv->cfg->settings->state.dir, NULL);
	b->lease = sv->cfg->settings->state.lease;
	b->w.name = sv->name;
	b->w.host = sv->host;
	b->w.pid = getpid();
	b->w.role = serve_role_name(sv->cfg->role);
	b->w.started = time(NULL);
	b->w.stage = "";
	b->w.lease = sv->cfg->settings->state.lease;
	b->interval = sv->cfg->settings->state.lease / 3 ? sv->cfg->settings->state.lease / 3 : 1;
	snprintf(b->stage, sizeof(b->stage), "%s",
		 sv->cfg->role == SERVE_ROLE_POLLER ? "standby" : "idle");
	pthread_mutex_init(&b->lock, NULL);
	if (pthread_create(&b->thread, NULL, beat_main, b)) {
		queue_release(&b->q);
		store_close(&b->store);
		return error_code(WW_ERROR, "cannot start the heartbeat thread");
	}
	b->running = true;
	return 0;
}

static void beat_stop(struct serve *sv)
{
	struct beat *b = &sv->beat;

	if (!b->running)
		return;
	pthread_mutex_lock(&b->lock);
	b->stop = true;
	pthread_mutex_unlock(&b->lock);
	pthread_join(b->thread, NULL);
	queue_worker_gone(&b->q, sv->name);
	queue_release(&b->q);
	store_close(&b->store);
	pthread_mutex_destroy(&b->lock);
	b->running = false;
}

/*
 * The lists' per-release history, a bounded step after each round of
 * polls ([serve] history, history-batch): the history's own failure
 * (a tree the census cannot read) is logged, and serving goes on.
 */
static bool keep_history(struct serve *sv, time_t now)
{
	const struct serve_history_hook *h = &sv->cfg->history_hook;
	int ret;

	if (!sv->cfg->history || !h->step)
		return false;
	ret = h->step(h->data, sv->cfg, &sv->store, now);
	if (ret < 0) {
		queue_log(&sv->q, 0, "", QL_WARN, "%s", error_last());
		serve_say(sv, "%s", error_last());
		error_clear();
	}
	return ret > 0;
}

/*
 * Poll the lists that are due (both the poller's turn and the single
 * process's step), then the history when any was: 1 when something
 * changed, 0 when not, negative when the state database failed;
 * `*polled` is set when a list was polled.
 */
static int poll_due(struct serve *sv, time_t now, bool *polled)
{
	bool changed = false;
	int ret;

	for (size_t i = 0; i < sv->cfg->nr_lists && !serve_stopping(); i++) {
		if (!archive_due(&sv->inboxes[i].poll, now))
			continue;
		ret = poll_list(sv, i, now);
		if (ret < 0)
			return ret;
		changed |= ret;
		*polled = true;
	}
	if (*polled && !serve_stopping())
		changed |= keep_history(sv, now);
	return changed;
}

/*
 * The poller's turn: poll the due lists if this process holds the poll
 * lock, else try to take it (the active poller died or lost its
 * connection).  The lock comes with the lists' poll state, read afresh:
 * the previous poller moved it on.  1 when something changed.
 */
static int poll_turn(struct serve *sv, time_t now)
{
	bool changed = false, polled = false;
	int ret;

	if (sv->polling && sv->lock_epoch != sv->store.epoch)
		sv->polling = false;	/* reconnected: the session lock went */
	if (!sv->polling) {
		ret = store_try_lock(&sv->store, SERVE_POLL_LOCK);
		if (ret <= 0)
			return ret;
		sv->polling = true;
		sv->lock_epoch = sv->store.epoch;
		for (size_t i = 0; i < sv->cfg->nr_lists; i++) {
			ret = queue_inbox_load(&sv->inboxes[i].poll,
					       &sv->inboxes[i].primed, &sv->q,
					       sv->cfg->lists[i].name);
			if (ret < 0)
				return ret;
		}
		beat_set(sv, 0, "polling");
		fprintf(stderr, "warnwatch serve: %s is the active poller\n", sv->name);
	}
	ret = poll_due(sv, now, &polled);
	if (ret < 0)
		return ret;
	changed = ret;
	if (changed || now >= sv->last_outputs + SERVE_OUTPUTS_EVERY) {
		write_outputs(sv, now);
		sv->last_outputs = now;
	}
	return changed;
}

/* A series' stage inputs are in the state directory of the machine that
 * ran the stage before; on another machine, fetch again. */
static bool inputs_here(struct serve *sv, const struct queue_series *s)
{
	struct strbuf path = STRBUF_INIT;
	bool here;

	if (s->state == QS_RECEIVED)
		return true;
	queue_artifact(&path, &sv->q, s->id, QUEUE_MBOX);
	here = !access(path.buf, R_OK);
	strbuf_release(&path);
	return here;
}

/* Why a worker stopped going on with a series: its build is left for a
 * worker that has its kernel built (queue_claim_id() said no). */
static void say_left(struct serve *sv, long long id)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	struct strbuf key = STRBUF_INIT;

	if (queue_load(&s, &sv->q, id) < 0)
		return;
	strbuf_addf(&key, ",%s,", s.base);
	if (s.state == QS_CHECKED && *s.base && s.next_at <= time(NULL) &&
	    !strstr(sv->warm.buf, key.buf))
		queue_log(&sv->q, id, s.inbox, QL_INFO, "left by %s for a worker "
			  "that has linux %s built", sv->name, s.base);
	queue_series_release(&s);
	strbuf_release(&key);
}

/*
 * The worker's turn: claim the series that is due first and take it as
 * far as it goes now (its next stage is claimed again as soon as one
 * ends, so a series usually stays on the machine that has its files).
 * 1 when a stage ran, 0 when nothing was due, negative on a state error.
 */
static int work_turn(struct serve *sv)
{
	long long id;
	int ret, n;

	refresh_warm(sv);
	ret = queue_claim(&id, &sv->q, sv->name, sv->cfg->settings->state.lease, time(NULL));
	if (ret <= 0)
		return ret;
	for (n = 0; n < SERVE_MAX_CHAIN && !serve_stopping(); n++) {
		struct queue_series s = QUEUE_SERIES_INIT;

		if (n) {
			ret = queue_claim_id(&sv->q, id, sv->name, sv->cfg->settings->state.lease,
					     time(NULL));
			if (!ret)
				say_left(sv, id);
			if (ret <= 0)
				break;
		}
		ret = queue_load(&s, &sv->q, id);
		if (ret < 0)
			break;
		beat_set(sv, id, queue_state_name(s.state));
		if (!inputs_here(sv, &s)) {
			queue_log(&sv->q, id, s.inbox, QL_INFO, "%s on %s: its files "
				  "are elsewhere, fetching again",
				  queue_state_name(s.state), sv->host);
			ret = queue_advance(&sv->q, id, QS_RECEIVED, time(NULL));
		} else {
			serve_say(sv, "%s: series %lld at %s", sv->name, id,
			    queue_state_name(s.state));
			ret = run_stage(sv, id, time(NULL));
		}
		queue_series_release(&s);
		if (ret < 0)
			break;
	}
	/* Whatever happened, the claim is not kept past the turn. */
	queue_unclaim(&sv->q, id, sv->name);
	beat_set(sv, 0, "idle");
	return ret < 0 ? ret : 1;
}

/* ---- the loop ---------------------------------------------------------- */

/*
 * What a dead warnwatch on this state left running (orphan.h): killed,
 * and from now on every child's group recorded there.  Before any
 * thread starts.
 */
static int reap_orphans(struct serve *sv)
{
	struct strbuf dir = STRBUF_INIT;
	int ret;

	strbuf_addf(&dir, "%s/children", sv->cfg->settings->state.dir);
	ret = orphan_reap(dir.buf);
	if (ret > 0) {
		queue_log(&sv->q, 0, "", QL_WARN, "killed %d process(es) a dead warnwatch "
			  "left running", ret);
		fprintf(stderr, "warnwatch serve: killed %d process(es) a dead warnwatch "
			"left running\n", ret);
	}
	if (ret >= 0)
		ret = orphan_track(dir.buf);
	strbuf_release(&dir);
	return ret;
}

static int start(struct serve *sv, const struct serve_config *cfg,
		 unsigned int flags)
{
	struct archive_opts ao = ARCHIVE_OPTS_INIT;
	int ret;

	sv->cfg = cfg;
	sv->flags = flags;
	strbuf_init(&sv->warm, 0);
	strbuf_init(&sv->beat.warm, 0);
	ao.timeout_ms = cfg->http_timeout * 1000L;
	ao.connect_timeout_ms = ao.timeout_ms < 10000 ? ao.timeout_ms : 10000;
	ao.backoff_max = cfg->backoff_max;
	ao.user_agent = "warnwatch-serve";
	sv->http = ao;
	/* [review] rules, as review reads them: a directory that does not
	 * load is said now, not at the first series' check. */
	if (cfg->role != SERVE_ROLE_POLLER) {
		ret = stage_need_rules(sv);
		if (ret)
			return ret;
	}
	ret = open_state_waiting(sv, cfg);
	if (ret)
		return ret;
	queue_init(&sv->q, &sv->store, cfg->settings->state.dir, &cfg->queue);
	ret = reap_orphans(sv);
	if (ret < 0)
		return ret;
	if (gethostname(sv->host, sizeof(sv->host) - 1))
		snprintf(sv->host, sizeof(sv->host), "localhost");
	snprintf(sv->name, sizeof(sv->name), "%s:%ld", sv->host, (long)getpid());
	if (cfg->role == SERVE_ROLE_WORKER)
		sv->q.owner = sv->name;	/* transitions fenced by the lease */
	sv->inboxes = xcalloc(cfg->nr_lists, sizeof(*sv->inboxes));
	for (size_t i = 0; i < cfg->nr_lists; i++) {
		strvec_init(&sv->inboxes[i].warned);
		ret = queue_inbox_load(&sv->inboxes[i].poll, &sv->inboxes[i].primed,
				       &sv->q, cfg->lists[i].name);
		if (ret < 0)
			return ret;
	}
	ret = mkdirs(cfg->dashboard_dir, 0755, WW_ESTATE);
	if (ret)
		return ret;
	if (cfg->role == SERVE_ROLE_WORKER)
		refresh_warm(sv);	/* the first heartbeat says it too */
	if (cfg->role != SERVE_ROLE_ALL) {
		ret = beat_start(sv);
		if (ret)
			return ret;
	}
	/* Workers serve no dashboard: the pollers do. */
	if (*cfg->listen && cfg->role != SERVE_ROLE_WORKER) {
		struct httpd_opts ho = HTTPD_OPTS_INIT;
		char *listen = xstrdup(cfg->listen);

		httpd_parse_listen(&ho, listen);
		ho.root = cfg->dashboard_dir;
		ret = httpd_start(&sv->httpd, &ho);
		if (!ret)
			fprintf(stderr, "warnwatch serve: dashboard on http://%s%s%s:%u/\n",
				strchr(ho.host, ':') ? "[" : "", ho.host,
				strchr(ho.host, ':') ? "]" : "", httpd_port(sv->httpd));
		free(listen);
		if (ret)
			return ret;
	}
	if (cfg->role == SERVE_ROLE_ALL)
		fprintf(stderr, "warnwatch serve: watching %zu list(s), state in %s\n",
			cfg->nr_lists, cfg->settings->state.dir);
	else
		fprintf(stderr, "warnwatch serve: %s %s, %zu list(s), state in %s\n",
			serve_role_name(cfg->role), sv->name, cfg->nr_lists,
			sv->store.path);
	if (cfg->role == SERVE_ROLE_WORKER)
		return 0;
	return write_outputs(sv, time(NULL));
}

static void stop(struct serve *sv)
{
	beat_stop(sv);
	if (sv->polling)
		store_unlock(&sv->store, SERVE_POLL_LOCK);
	httpd_stop(sv->httpd);
	sv->httpd = NULL;
	for (size_t i = 0; sv->inboxes && i < sv->cfg->nr_lists; i++) {
		archive_inbox_release(&sv->inboxes[i].poll);
		if (sv->inboxes[i].guide_state > 0)
			guide_release(&sv->inboxes[i].guide);
		strvec_clear(&sv->inboxes[i].warned);
	}
	free(sv->inboxes);
	sv->inboxes = NULL;
	stage_forget(sv);
	if (sv->rules_loaded)
		ruleset_release(&sv->rules);
	queue_release(&sv->q);
	store_close(&sv->store);
	strbuf_release(&sv->warm);
	strbuf_release(&sv->beat.warm);
	orphan_track(NULL);
}

/* Sleep until `until` (at most max_sleep), waking for a stop request. */
static void nap(struct serve *sv, time_t until)
{
	time_t now = time(NULL);
	time_t end = now + sv->cfg->max_sleep;

	if (until && until < end)
		end = until;
	sleep_until(end);
}

static time_t next_event(struct serve *sv)
{
	time_t t = queue_next_wakeup(&sv->q);

	for (size_t i = 0; i < sv->cfg->nr_lists; i++) {
		time_t p = sv->inboxes[i].poll.next_at;

		if (!t || p < t)
			t = p;
	}
	return t;
}

/*
 * One turn of the loop: poll the lists that are due (if `poll`), then run
 * one stage of the series that is due first.  1 when something was done,
 * 0 when idle, negative when the state database failed.
 */
static int step(struct serve *sv, time_t now, bool poll)
{
	bool worked = false, changed = false;
	long long id;
	int ret;

	if (sv->cfg->role == SERVE_ROLE_POLLER)
		return poll ? poll_turn(sv, now) : 0;
	if (sv->cfg->role == SERVE_ROLE_WORKER)
		return serve_stopping() ? 0 : work_turn(sv);

	if (poll) {
		ret = poll_due(sv, now, &worked);
		if (ret < 0)
			return ret;
		changed = ret;
	}
	if (!serve_stopping()) {
		ret = queue_next_due(&id, &sv->q, now);
		if (ret < 0)
			return ret;
		if (ret == 1) {
			ret = run_stage(sv, id, now);
			if (ret < 0)
				return ret;
			worked = changed = true;
		}
	}
	/* The page follows every stage and every new message. */
	if (changed)
		write_outputs(sv, now);
	return worked;
}

int serve_run(const struct serve_config *cfg, unsigned int flags)
{
	struct serve sv = { 0 };
	bool polled = false;
	int ret;

	ret = start(&sv, cfg, flags);
	while (!ret && !serve_stopping()) {
		/* --once: one poll, then the stages that are due. */
		ret = step(&sv, time(NULL), !(flags & SERVE_ONCE) || !polled);
		polled = true;
		if (ret == WW_ESTATE && !(flags & SERVE_ONCE)) {
			/* The database failed (a full disk?): nothing was
			 * committed, so nothing is lost; try again later. */
			fprintf(stderr, "warnwatch serve: %s; retrying in %u s\n",
				error_last(), cfg->max_sleep);
			nap(&sv, time(NULL) + cfg->max_sleep);
			ret = 0;
			continue;
		}
		if (ret < 0)
			break;
		if (!ret && (flags & SERVE_ONCE))
			break;
		if (!ret && cfg->role != SERVE_ROLE_ALL)
			/* A standby poller tries the lock and an idle worker
			 * the queue every second: takeover within seconds. */
			nap(&sv, time(NULL) + 1);
		else if (!ret)
			nap(&sv, next_event(&sv));
		ret = 0;
	}
	if (ret >= 0 && (flags & SERVE_ONCE) && cfg->role != SERVE_ROLE_WORKER)
		write_outputs(&sv, time(NULL));
	if (sv.inboxes)
		fprintf(stderr, "warnwatch serve: %s\n", ret < 0 ? "stopped on an "
			"error" : "stopped");
	stop(&sv);
	return ret < 0 ? ret : 0;
}

