/*
 * The service loop and its stages (see serve.h): poll feeds, group,
 * fetch with b4, check, boot with kernel-ci, reply exactly once, and keep
 * the dashboard and status.json current.
 */
#include "serve.h"
#include "mkdirs.h"
#include "atom.h"
#include "b4.h"
#include "ci.h"
#include "dashboard.h"
#include "guide.h"
#include "httpd.h"
#include "mailhdr.h"
#include "mbox.h"
#include "report.h"
#include "smtp.h"
#include "review.h"
#include "store.h"

#include <arpa/inet.h>
#include <ctype.h>
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

/* ---- configuration ----------------------------------------------------- */

static const char *const serve_keys[] = {
	"dashboard-dir", "listen", "poll-interval", "settle",
	"max-wait", "retry-base", "retry-max", "max-attempts", "confirm-window",
	"http-timeout", "backoff-max", "max-sleep", "census", NULL
};

static const char *const list_keys[] = {
	"archive", "inbox", "address", "tree", "boot", "reply", "reply-to",
	"allow-senders", "allow-paths", "quiet-hours", "backfill",
	"poll-interval", NULL
};

static const char *const state_keys[] = {
	"dir", "url", "password-file", "lease", NULL
};
static const char *const role_names[] = { "all", "poller", "worker", NULL };

const char *serve_role_name(enum serve_role r)
{
	return r < ARRAY_SIZE(role_names) - 1 ? role_names[r] : "?";
}

int serve_role_parse(enum serve_role *out, const char *name)
{
	for (size_t i = 0; role_names[i]; i++)
		if (!strcmp(name, role_names[i])) {
			*out = i;
			return 0;
		}
	return error_code(WW_EUSAGE, "unknown role '%s' (all, poller, worker)", name);
}
static const char *const reply_modes[] = { "none", "draft", "send", NULL };

static int get_uint(unsigned int *out, const struct config *c, const char *sec,
		    const char *key, unsigned long def, unsigned long min,
		    unsigned long max)
{
	unsigned long v;
	int ret = config_get_uint(&v, c, sec, key, def, min, max);

	if (!ret)
		*out = (unsigned int)v;
	return ret;
}

/* "a, b c" -> ["a", "b", "c"] */
static void split_words(struct strvec *out, const char *s)
{
	while (s && *s) {
		size_t n;

		s += strspn(s, ", \t");
		n = strcspn(s, ", \t");
		if (n) {
			char *w = xstrndup(s, n);

			strvec_push(out, w);
			free(w);
		}
		s += n;
	}
}

/* [serve] census: files, relative to the configuration file's directory. */
static void census_files(struct strvec *out, const struct config *c)
{
	struct strvec words = STRVEC_INIT;
	const char *slash = c->path ? strrchr(c->path, '/') : NULL;

	split_words(&words, config_get(c, "serve", "census"));
	for (size_t i = 0; i < words.nr; i++) {
		if (words.v[i][0] == '/' || !slash)
			strvec_push(out, words.v[i]);
		else
			strvec_pushf(out, "%.*s/%s", (int)(slash - c->path),
				     c->path, words.v[i]);
	}
	strvec_clear(&words);
}

static int parse_hhmm(int *out, const char *s, const char **end)
{
	int h, m;

	if (!isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) ||
	    s[2] != ':' || !isdigit((unsigned char)s[3]) ||
	    !isdigit((unsigned char)s[4]))
		return WW_EINPUT;
	h = (s[0] - '0') * 10 + s[1] - '0';
	m = (s[3] - '0') * 10 + s[4] - '0';
	if (h > 24 || m > 59 || (h == 24 && m))
		return WW_EINPUT;
	*out = h * 60 + m;
	*end = s + 5;
	return 0;
}

static int parse_quiet(struct serve_list *l, const char *v)
{
	const char *p = v;

	l->quiet_from = l->quiet_to = -1;
	if (!v || !*v || !strcmp(v, "none"))
		return 0;
	if (parse_hhmm(&l->quiet_from, p, &p) || *p++ != '-' ||
	    parse_hhmm(&l->quiet_to, p, &p) || *p ||
	    l->quiet_from == l->quiet_to)
		return error_code(WW_EINPUT, "list.%s.quiet-hours: '%s' is not "
				  "HH:MM-HH:MM", l->name, v);
	return 0;
}

static void trim_slashes(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '/')
		s[--n] = '\0';
}

static int load_list(struct serve_config *cfg, const struct config *c,
		     const char *section)
{
	struct serve_list *l;
	const char *v;
	int mode, to, def_to, ret;
	bool b;

	ALLOC_GROW(cfg->lists, cfg->nr_lists + 1, cfg->alloc_lists);
	l = &cfg->lists[cfg->nr_lists++];
	memset(l, 0, sizeof(*l));
	l->name = xstrdup(section + strlen("list."));
	strvec_init(&l->allow_senders);
	strvec_init(&l->allow_paths);
	if (!*l->name)
		return error_code(WW_EINPUT, "[list.] needs a name");
	ret = config_check(c, section, list_keys);
	if (ret)
		return ret;
	v = config_get(c, section, "archive");
	if (!v || !*v)
		return error_code(WW_EINPUT, "[%s] needs 'archive' (the public-inbox "
				  "base URL, e.g. https://lore.kernel.org)", section);
	if (!starts_with(v, "http://") && !starts_with(v, "https://"))
		return error_code(WW_EINPUT, "%s.archive: '%s' is not an http(s) URL",
				  section, v);
	l->archive = xstrdup(v);
	trim_slashes(l->archive);
	v = config_get(c, section, "inbox");
	l->inbox = xstrdup(v && *v ? v : l->name);
	if (strchr(l->inbox, '/') || strchr(l->inbox, '?') || strchr(l->inbox, '%'))
		return error_code(WW_EINPUT, "%s.inbox: '%s' is not an inbox name",
				  section, l->inbox);
	v = config_get(c, section, "address");
	l->address = xstrdup(v ? v : "");
	v = config_get(c, section, "tree");
	l->tree = xstrdup(v ? v : "");
	ret = config_get_bool(&l->boot, c, section, "boot", false);
	if (!ret)
		ret = config_get_enum(&mode, c, section, "reply", reply_modes,
				      SERVE_REPLY_DRAFT);
	if (!ret)
		ret = config_get_enum(&def_to, c, "review", "reply-to",
				      reply_policy_names, REPLY_TO_BOTH);
	if (!ret)
		ret = config_get_enum(&to, c, section, "reply-to",
				      reply_policy_names, def_to);
	if (!ret)
		ret = config_get_bool(&b, c, section, "backfill", false);
	if (!ret)
		ret = get_uint(&l->poll_interval, c, section, "poll-interval",
			       cfg->poll_interval, 1, 86400);
	if (ret)
		return ret;
	l->reply = mode;
	l->reply_to = to;
	l->backfill = b;
	split_words(&l->allow_senders, config_get(c, section, "allow-senders"));
	split_words(&l->allow_paths, config_get(c, section, "allow-paths"));
	return parse_quiet(l, config_get(c, section, "quiet-hours"));
}

int serve_config_load(struct serve_config *out, const struct config *c)
{
	struct strbuf sb = STRBUF_INIT;
	const char *v;
	int ret;

	memset(out, 0, sizeof(*out));
	out->config = c;
	ret = config_check(c, "serve", serve_keys);
	if (!ret)
		ret = config_check(c, "state", state_keys);
	if (ret)
		goto out;
	/* One state database with `warnwatch review`: a series answered by
	 * hand is not answered again by the service. */
	if (!config_get_path(&sb, c, "state", "dir"))
		out->state_dir = strbuf_detach(&sb, NULL);
	else
		out->state_dir = store_default_dir();
	strbuf_reset(&sb);
	/* A shared database for several machines; artifacts stay in dir. */
	v = config_get(c, "state", "url");
	if (v && *v)
		out->state_url = xstrdup(v);
	if (!config_get_path(&sb, c, "state", "password-file"))
		out->state_password_file = strbuf_detach(&sb, NULL);
	strbuf_reset(&sb);
	if (!config_get_path(&sb, c, "serve", "dashboard-dir")) {
		out->dashboard_dir = strbuf_detach(&sb, NULL);
	} else {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/dashboard", out->state_dir);
		out->dashboard_dir = strbuf_detach(&sb, NULL);
	}
	strvec_init(&out->census);
	census_files(&out->census, c);
	v = config_get(c, "serve", "listen");
	if (!v)
		v = HTTPD_DEFAULT_HOST ":8025";
	out->listen = xstrdup(!strcmp(v, "off") || !strcmp(v, "no") ? "" : v);
	if ((ret = get_uint(&out->poll_interval, c, "serve", "poll-interval", 60, 1, 86400)) ||
	    (ret = get_uint(&out->queue.settle, c, "serve", "settle", 120, 0, 86400)) ||
	    (ret = get_uint(&out->queue.max_wait, c, "serve", "max-wait", 3600, 0, 7 * 86400)) ||
	    (ret = get_uint(&out->queue.retry_base, c, "serve", "retry-base", 60, 1, 86400)) ||
	    (ret = get_uint(&out->queue.retry_max, c, "serve", "retry-max", 3600, 1, 7 * 86400)) ||
	    (ret = get_uint(&out->queue.max_attempts, c, "serve", "max-attempts", 5, 1, 100)) ||
	    (ret = get_uint(&out->confirm_window, c, "serve", "confirm-window", 900, 0, 7 * 86400)) ||
	    (ret = get_uint(&out->http_timeout, c, "serve", "http-timeout", 30, 1, 600)) ||
	    (ret = get_uint(&out->backoff_max, c, "serve", "backoff-max", 3600, 1, 86400)) ||
	    (ret = get_uint(&out->max_sleep, c, "serve", "max-sleep", 30, 1, 3600)) ||
	    (ret = get_uint(&out->lease, c, "state", "lease", 60, 3, 86400)))
		goto out;
	if (*out->listen) {
		struct httpd_opts ho = HTTPD_OPTS_INIT;
		char *copy = xstrdup(out->listen);

		struct in6_addr a;

		ret = httpd_parse_listen(&ho, copy);
		if (!ret && inet_pton(AF_INET, ho.host, &a) != 1 &&
		    inet_pton(AF_INET6, ho.host, &a) != 1)
			ret = error_code(WW_EINPUT, "'%s' is not a numeric address",
					 ho.host);
		free(copy);
		if (ret) {
			ret = error_prefix(ret, "serve.listen");
			goto out;
		}
	}
	for (size_t i = 0; i < c->nr; i++) {
		const char *sec = c->v[i].section;
		bool seen = false;

		if (!starts_with(sec, "list."))
			continue;
		for (size_t j = 0; j < out->nr_lists; j++)
			if (!strcmp(out->lists[j].name, sec + strlen("list.")))
				seen = true;
		if (seen)
			continue;
		ret = load_list(out, c, sec);
		if (ret)
			goto out;
	}
	if (!out->nr_lists)
		ret = error_code(WW_EINPUT, "%s: no [list.NAME] to watch",
				 c->path ? c->path : "configuration");
out:
	strbuf_release(&sb);
	return ret;
}

void serve_config_release(struct serve_config *cfg)
{
	for (size_t i = 0; i < cfg->nr_lists; i++) {
		struct serve_list *l = &cfg->lists[i];

		free(l->name);
		free(l->archive);
		free(l->inbox);
		free(l->address);
		free(l->tree);
		strvec_clear(&l->allow_senders);
		strvec_clear(&l->allow_paths);
	}
	free(cfg->lists);
	strvec_clear(&cfg->census);
	free(cfg->state_dir);
	free(cfg->state_url);
	free(cfg->state_password_file);
	free(cfg->dashboard_dir);
	free(cfg->listen);
	memset(cfg, 0, sizeof(*cfg));
}

const struct serve_list *serve_config_list(const struct serve_config *cfg,
					   const char *name)
{
	for (size_t i = 0; i < cfg->nr_lists; i++)
		if (!strcmp(cfg->lists[i].name, name))
			return &cfg->lists[i];
	return NULL;
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

/* ---- the state, for status and retry ------------------------------- */

/* The state directory: --state-dir, else the configuration's, else the
 * default.  A configuration that was asked for must load. */
static int find_state_dir(char **out, char **out_url, char **out_pw,
			  const char *config, const char *state_dir)
{
	struct config c = CONFIG_INIT;
	struct serve_config cfg = SERVE_CONFIG_INIT;
	char *path = NULL;
	int ret;

	*out_url = *out_pw = NULL;
	if (state_dir) {
		*out = xstrdup(state_dir);
		return 0;
	}
	path = config ? xstrdup(config) : config_default_path();
	ret = config_load(&c, path);
	if (ret == WW_ENOTFOUND && !config) {
		*out = store_default_dir();
		ret = 0;
	} else if (!ret) {
		ret = serve_config_load(&cfg, &c);
		if (!ret) {
			*out = xstrdup(cfg.state_dir);
			*out_url = cfg.state_url ? xstrdup(cfg.state_url) : NULL;
			*out_pw = cfg.state_password_file ?
				  xstrdup(cfg.state_password_file) : NULL;
		}
	}
	serve_config_release(&cfg);
	config_release(&c);
	free(path);
	return ret;
}

int serve_state_open(struct store *st, struct queue *q, const char *config,
		     const char *state_dir)
{
	struct strbuf db = STRBUF_INIT;
	struct stat sb;
	char *dir = NULL, *url = NULL, *pw = NULL;
	int ret;

	ret = find_state_dir(&dir, &url, &pw, config, state_dir);
	if (ret)
		return ret;
	if (url) {
		ret = store_open_url(st, url, pw);
		if (!ret)
			queue_init(q, st, dir, NULL);
		goto out;
	}
	strbuf_addf(&db, "%s/%s", dir, STORE_FILE);
	if (stat(db.buf, &sb)) {
		ret = error_code(WW_ENOTFOUND, "no state in '%s' (has the service run?)",
				 dir);
		goto out;
	}
	ret = store_open(st, dir);
	if (!ret)
		queue_init(q, st, dir, NULL);
out:
	strbuf_release(&db);
	free(dir);
	free(url);
	free(pw);
	return ret;
}

/* ---- the running service ----------------------------------------------- */

struct serve_inbox {
	struct archive_inbox poll;
	bool primed;
	struct guide guide;	/* the list's coding-style, for quoting */
	int guide_state;	/* 0 not loaded yet, 1 loaded, -1 none */
};

/*
 * Pollers and workers say they are alive, and workers keep their claim,
 * from a thread of their own with its own connection: a stage may run a
 * kernel boot for many minutes without returning to the loop.
 */
struct beat {
	pthread_t thread;
	pthread_mutex_t lock;
	bool running, stop;
	struct store store;	/* the thread's own connection */
	struct queue q;
	struct queue_worker w;	/* strings borrowed from struct serve */
	long long series_id;	/* under lock: what the loop works on */
	char stage[32];
	unsigned int interval;	/* seconds between beats */
	unsigned int lease;	/* seconds each renewal extends the claim by */
};

struct serve {
	const struct serve_config *cfg;
	unsigned int flags;
	struct store store;
	struct queue q;
	char name[320];		/* "host:pid": the worker, the lease owner */
	char host[256];
	struct beat beat;
	bool polling;		/* a poller holding the poll lock */
	unsigned int lock_epoch; /* store.epoch when it was taken */
	time_t last_outputs;
	struct serve_inbox *inboxes;	/* parallel to cfg->lists */
	struct ruleset rules;
	bool rules_loaded;
	struct httpd *httpd;
	struct archive_opts http;
};

static void say(struct serve *sv, const char *fmt, ...) WW_PRINTF(2, 3);
static void say(struct serve *sv, const char *fmt, ...)
{
	va_list ap;

	if (!(sv->flags & SERVE_VERBOSE))
		return;
	fputs("warnwatch serve: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * A stage failed: record it and set the retry.  The delay counts from now,
 * when the stage ended, not from the start of a stage that may have run a
 * boot for minutes or waited out a timeout, and it is never cut short by
 * the second already begun (t0401 once saw "retry in 1 s" come 0.3 s later).
 */
static int fail(struct serve *sv, long long id, const char *why, bool permanent)
{
	return queue_fail(&sv->q, id, why, permanent, time_ceil());
}

/* ---- polling ----------------------------------------------------------- */

/* public-inbox answers 404 with this body for an inbox without mail. */
#define PI_EMPTY_FEED "No feed found"

/* Poll list `i`: 1 when something changed (new mail, an error), 0 when
 * not, WW_ESTATE when the state database failed. */
static int poll_list(struct serve *sv, size_t i, time_t now)
{
	const struct serve_list *l = &sv->cfg->lists[i];
	struct serve_inbox *in = &sv->inboxes[i];
	struct archive_opts ao = sv->http;
	struct atom_feed feed = ATOM_FEED_INIT;
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT, err = STRBUF_INIT;
	size_t added = 0, fresh = 0;
	bool skip = !in->primed && !l->backfill, no_feed = false;
	unsigned int failures;
	int ret;

	ao.interval = l->poll_interval;
	strbuf_addf(&url, "%s/%s/new.atom", l->archive, l->inbox);
	failures = in->poll.failures;
	ret = archive_poll(&body, &in->poll, url.buf, &ao, now);
	if (ret == WW_ENOTFOUND && starts_with(body.buf, PI_EMPTY_FEED)) {
		ret = ARCHIVE_UNCHANGED;	/* an inbox without mail yet */
	} else if (ret == WW_ENOTFOUND) {
		no_feed = true;
	} else if (ret == ARCHIVE_CHANGED) {
		ret = atom_parse(&feed, body.buf, body.len);
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
		archive_note_failure(&in->poll, &ao, now, 0);
	}
	if (ret < 0) {
		/* The backoff counts from the failed answer, as fail()'s does,
		 * not from before a request that may have waited out its
		 * timeout. */
		in->poll.next_at += time_ceil() - now;
		strbuf_addstr(&err, error_last());
		queue_log(&sv->q, 0, l->name, QL_ERROR, "%s", err.buf);
		say(sv, "%s: %s", l->name, err.buf);
		goto save;
	}
	/* Oldest first, so parents are known before their replies. */
	for (size_t k = feed.nr; k-- > 0; ) {
		const struct atom_entry *e = &feed.v[k];
		struct queue_msg m = {
			.inbox = l->name, .msgid = e->message_id,
			.parent = e->in_reply_to, .subject = e->title,
			.author_name = e->author_name,
			.author_email = e->author_email,
		};

		ret = queue_add_message(&sv->q, &m, now, skip);
		if (ret < 0)
			goto save;
		if (ret == QUEUE_ADDED)
			added++;
		if (ret != QUEUE_KNOWN)
			fresh++;
	}
	/* public-inbox's feed holds the newest 25: none known means a gap. */
	if (in->primed && feed.nr >= 25 && fresh == feed.nr)
		queue_log(&sv->q, 0, l->name, QL_WARN,
			  "all %zu feed entries were new: mail may have been "
			  "missed; poll more often", feed.nr);
	if (added)
		say(sv, "%s: %zu new patch message(s)%s", l->name, added,
		    skip ? " (before watching: skipped)" : "");
	in->primed = true;
	ret = 0;
save:
	{
		int r = queue_inbox_save(&sv->q, l->name, &in->poll, in->primed,
					 err.buf);

		if (!ret && r < 0)
			ret = r;
	}
	atom_feed_release(&feed);
	strbuf_release(&url);
	strbuf_release(&body);
	strbuf_release(&err);
	/* A list that cannot be polled is an event, not a reason to stop. */
	if (ret == WW_ESTATE)
		return ret;
	return added || ret < 0 ? 1 : 0;
}

/* ---- stages ------------------------------------------------------------ */

/* Write `len` bytes to the series' artifact `name` (temp file + rename:
 * a crash leaves the old file or the new one, never half of one). */
static int put_artifact(struct serve *sv, long long id, const char *name,
			const char *buf, size_t len)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	int ret;

	ret = queue_series_dir(&path, &sv->q, id, true);
	if (!ret) {
		queue_artifact(&path, &sv->q, id, name);
		strbuf_add(&data, buf, len);
		ret = strbuf_write_file(&data, path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&data);
	return ret;
}

static int read_artifact(struct strbuf *out, struct serve *sv, long long id,
			 const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	queue_artifact(&path, &sv->q, id, name);
	ret = strbuf_read_file(out, path.buf, MBOX_MAX_BYTES);
	strbuf_release(&path);
	return ret;
}

/*
 * b4 may find that a "series" we grouped is one we already have: a
 * message that looked like a first patch (a reply that kept the subject
 * without "Re:") keyed a series of its own.  1 when `s` was set aside.
 */
static int same_as_known(struct serve *sv, const struct queue_series *s,
			 const struct b4_series *bs, time_t now)
{
	const struct strbuf *first = bs->cover.len ? &bs->cover : &bs->mbx;
	struct strbuf mid = STRBUF_INIT, why = STRBUF_INIT;
	long long other = 0;
	int ret = 0;

	if (b4_first_msgid(&mid, first->buf, first->len) ||
	    !strcmp(mid.buf, s->root_msgid))
		goto out;
	ret = queue_find(&other, &sv->q, s->inbox, mid.buf);
	if (ret == 1 && other != s->id) {
		strbuf_addf(&why, "the same series as #%lld", other);
		ret = queue_skip(&sv->q, s->id, why.buf, now);
		ret = ret < 0 ? ret : 1;
	} else if (ret == 1) {
		ret = 0;
	}
out:
	strbuf_release(&mid);
	strbuf_release(&why);
	return ret;
}

static int stage_fetch(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, time_t now)
{
	struct b4_opts o = B4_OPTS_INIT;
	struct b4_series bs = B4_SERIES_INIT;
	struct strbuf mask = STRBUF_INIT, mbx = STRBUF_INIT;
	int ret;

	/* [archive] and [identity] as review and ci read them, but the
	 * archive is this list's. */
	ret = b4_opts_from_config(&o, &mask, sv->cfg->config);
	if (ret)
		goto out;
	strbuf_reset(&mask);
	strbuf_addf(&mask, "%s/%s/%%s", l->archive, l->inbox);
	o.midmask = mask.buf;
	o.linkmask = NULL;
	o.searchmask = NULL;
	o.version = s->version;
	ret = b4_fetch(&bs, s->root_msgid, &o);
	if (ret == WW_EINPUT && now < s->first_seen + (time_t)sv->q.opts.max_wait) {
		/* Thread incomplete: the rest may still be on its way. */
		queue_log(&sv->q, s->id, l->name, QL_INFO, "waiting for the rest "
			  "of the series: %s", error_last());
		ret = queue_defer(&sv->q, s->id, now + sv->q.opts.settle);
		goto out;
	}
	if (ret < 0) {
		bool permanent = ret == WW_EINPUT;

		ret = fail(sv, s->id, error_last(), permanent);
		goto out;
	}
	ret = same_as_known(sv, s, &bs, now);
	if (ret)
		goto out;
	/* The cover letter first, in the same mbox (b4 writes it without
	 * a From_ line). */
	if (bs.cover.len && !starts_with(bs.cover.buf, "From "))
		strbuf_addstr(&mbx, "From git@z Thu Jan  1 00:00:00 1970\n");
	strbuf_addbuf(&mbx, &bs.cover);
	if (mbx.len && mbx.buf[mbx.len - 1] != '\n')
		strbuf_addch(&mbx, '\n');
	strbuf_addbuf(&mbx, &bs.mbx);
	ret = put_artifact(sv, s->id, QUEUE_MBOX, mbx.buf, mbx.len);
	if (!ret)
		ret = put_artifact(sv, s->id, QUEUE_THREAD, bs.thread.buf,
				   bs.thread.len);
	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_FETCHED, now);
	say(sv, "series %lld fetched (%.1f s in b4)", s->id, bs.seconds);
out:
	b4_series_release(&bs);
	strbuf_release(&mask);
	strbuf_release(&mbx);
	return ret;
}

/*
 * The series of `id` as b4 chose it, but with each message as the list
 * archived it: b4 am drops To:/Cc:/References:, which the reply needs.
 * `raw` holds the text the mails point into.
 */
static int load_series(struct mail_list *mails, struct series *series,
		       struct strbuf *raw, struct serve *sv, long long id)
{
	struct mail_list chosen = MAIL_LIST_INIT, thread = MAIL_LIST_INIT;
	struct strbuf mbx = STRBUF_INIT;
	int ret;

	ret = read_artifact(&mbx, sv, id, QUEUE_MBOX);
	if (!ret)
		ret = mbox_parse(&chosen, mbx.buf, mbx.len);
	if (!ret)
		ret = read_artifact(raw, sv, id, QUEUE_THREAD);
	if (!ret)
		ret = mbox_parse(&thread, raw->buf, raw->len);
	if (!ret)
		ret = review_choose_mails(mails, &thread, &chosen, NULL);
	if (!ret)
		ret = series_from_mails(series, mails);
	mail_list_clear(&thread);	/* moved entries were zeroed */
	mail_list_clear(&chosen);
	strbuf_release(&mbx);
	return ret < 0 ? error_prefix(ret, "series %lld", id) : 0;
}

/* Findings, not counting calls that only moved. */
static int count_findings(const struct check_result *r)
{
	int n = 0;

	for (size_t i = 0; i < r->nr; i++)
		if (!r->v[i].moved)
			n++;
	return n;
}

/*
 * The rules, loaded once per process.  Every stage that checks needs them,
 * not only the check stage: after a restart the first stage may be the
 * boot or the reply, which check the series again.
 */
static int need_rules(struct serve *sv)
{
	int ret;

	if (sv->rules_loaded)
		return 0;
	ret = rules_load(&sv->rules, rules_default_dir());
	if (ret < 0)
		return ret;	/* our installation, not the series */
	sv->rules_loaded = true;
	return 0;
}

static int stage_check(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, time_t now)
{
	struct mail_list mails = MAIL_LIST_INIT;
	struct series series = SERIES_INIT;
	struct check_result res = CHECK_RESULT_INIT;
	struct check_opts co = CHECK_OPTS_INIT;
	struct strbuf raw = STRBUF_INIT, path = STRBUF_INIT;
	json_t *json = NULL;
	char *text = NULL;
	int ret, n;

	ret = need_rules(sv);
	if (ret < 0)
		return ret;
	ret = load_series(&mails, &series, &raw, sv, s->id);
	if (ret < 0) {
		ret = fail(sv, s->id, error_last(), true);
		goto out;
	}
	co.rules = &sv->rules;
	ret = check_series(&res, &series, &co);
	if (ret < 0) {
		ret = fail(sv, s->id, error_last(), true);
		goto out;
	}
	queue_artifact(&path, &sv->q, s->id, QUEUE_MBOX);
	json = report_json(path.buf, &series, &res, &sv->rules);
	text = json ? json_dumps(json, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
	if (!text) {
		ret = error("cannot encode the findings of series %lld", s->id);
		goto out;
	}
	ret = put_artifact(sv, s->id, QUEUE_FINDINGS, text, strlen(text));
	if (ret < 0)
		goto out;
	n = count_findings(&res);
	ret = queue_set_verdict(&sv->q, s->id, n ? "findings" : "clean", n);
	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_CHECKED, now);
	say(sv, "series %lld checked: %d finding(s)", s->id, n);
out:
	free(text);
	json_decref(json);
	check_result_clear(&res);
	series_release(&series);
	mail_list_clear(&mails);
	strbuf_release(&raw);
	strbuf_release(&path);
	return ret;
}

static int copy_file(struct serve *sv, long long id, const char *name,
		     const char *from)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = strbuf_read_file(&buf, from, 64u << 20);

	if (!ret)
		ret = put_artifact(sv, id, name, buf.buf, buf.len);
	strbuf_release(&buf);
	return ret;
}

/*
 * The verdict as the reply module reads it (reply.h: verdict, summary,
 * kernel, first), next to kernel-ci's own ci.json.
 */
/* The verdict the reply reads: ci_verdict_json(), the one schema that
 * `warnwatch ci --format=json` writes and `review --verdict` reads. */
static int put_reply_verdict(struct serve *sv, long long id,
			     const struct ci_verdict *v)
{
	json_t *o = ci_verdict_json(v);
	char *text;
	int ret;

	text = o ? json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
	json_decref(o);
	if (!text)
		return error("cannot encode the verdict of series %lld", id);
	ret = put_artifact(sv, id, QUEUE_VERDICT, text, strlen(text));
	free(text);
	return ret;
}

static int stage_boot(struct serve *sv, const struct queue_series *s,
		      const struct serve_list *l, time_t now)
{
	struct mail_list mails = MAIL_LIST_INIT;
	struct series series = SERIES_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct ci_opts co = CI_OPTS_INIT;
	struct strbuf raw = STRBUF_INIT;
	json_t *json = NULL;
	char *text = NULL;
	int ret;

	ret = load_series(&mails, &series, &raw, sv, s->id);
	if (ret < 0) {
		ret = fail(sv, s->id, error_last(), true);
		goto out;
	}
	co.tree = *l->tree ? l->tree : NULL;
	co.rules = &sv->rules;
	ret = ci_run(&v, &series, &co);
	if (!ret && v.kind == CI_ERROR)
		ret = error("kernel-ci: %s", v.reason ? v.reason : "no verdict");
	if (ret < 0) {
		/* No verdict: our machinery failed, not the series. */
		ret = fail(sv, s->id, error_last(), false);
		goto out;
	}
	json = ci_verdict_json(&v);
	text = json ? json_dumps(json, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
	ret = text ? put_artifact(sv, s->id, QUEUE_CI, text, strlen(text)) :
		     error("cannot encode the verdict of series %lld", s->id);
	if (!ret)
		ret = put_reply_verdict(sv, s->id, &v);
	if (!ret && v.console)
		ret = copy_file(sv, s->id, QUEUE_CONSOLE, v.console);
	if (!ret)
		ret = queue_set_verdict(&sv->q, s->id, ci_verdict_name(v.kind),
					s->findings);
	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_BOOTED, now);
	say(sv, "series %lld booted: %s", s->id, ci_verdict_name(v.kind));
out:
	free(text);
	json_decref(json);
	ci_verdict_release(&v);
	series_release(&series);
	mail_list_clear(&mails);
	strbuf_release(&raw);
	return ret;
}

/* ---- the reply --------------------------------------------------------- */

/* The reply as written to reply.eml, and what sending it needs. */
struct outgoing {
	struct strbuf text;
	char *message_id;
	char *in_reply_to;
	char *subject;
	struct strbuf from;		/* envelope sender */
	struct mail_addr_list rcpt;	/* To + Cc */
	struct strbuf rcpt_text;	/* "a@x, b@y" for the store */
};

static void outgoing_init(struct outgoing *o)
{
	memset(o, 0, sizeof(*o));
	strbuf_init(&o->text, 0);
	strbuf_init(&o->from, 0);
	strbuf_init(&o->rcpt_text, 0);
}

static void outgoing_release(struct outgoing *o)
{
	strbuf_release(&o->text);
	strbuf_release(&o->from);
	strbuf_release(&o->rcpt_text);
	free(o->message_id);
	free(o->in_reply_to);
	free(o->subject);
	mail_addr_list_clear(&o->rcpt);
}

/*
 * Read back a drafted reply: everything about sending it comes from the
 * file itself, so a restarted service sends exactly what it drafted,
 * under the same Message-ID.
 */
static int outgoing_load(struct outgoing *o, struct serve *sv, long long id)
{
	struct mail_list ml = MAIL_LIST_INIT;
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	int ret;

	ret = read_artifact(&o->text, sv, id, QUEUE_REPLY);
	if (!ret)
		ret = mbox_parse(&ml, o->text.buf, o->text.len);
	if (!ret && ml.nr != 1)
		ret = error_code(WW_EINPUT, "not one message");
	if (!ret && !*ml.v[0].message_id)
		ret = error_code(WW_EINPUT, "no Message-ID");
	if (ret) {
		ret = error_prefix(ret, "series %lld: %s", id, QUEUE_REPLY);
		goto out;
	}
	o->message_id = xstrdup(ml.v[0].message_id);
	o->in_reply_to = xstrdup(ml.v[0].in_reply_to);
	o->subject = xstrdup(ml.v[0].subject);
	mail_addr_parse(&o->rcpt, ml.v[0].to);
	mail_addr_parse(&o->rcpt, ml.v[0].cc);
	mail_addr_parse(&from, ml.v[0].from);
	if (!from.nr || !o->rcpt.nr) {
		ret = error_code(WW_EINPUT, "series %lld: %s has no %s", id,
				 QUEUE_REPLY, from.nr ? "recipient" : "sender");
		goto out;
	}
	strbuf_addstr(&o->from, from.v[0].addr);
	for (size_t i = 0; i < o->rcpt.nr; i++)
		strbuf_addf(&o->rcpt_text, "%s%s", i ? ", " : "", o->rcpt.v[i].addr);
out:
	mail_addr_list_clear(&from);
	mail_list_clear(&ml);
	return ret;
}

/* Files a series touches (post-image names of its diffs). */
static void touched_paths(struct strvec *out, const struct series *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		const char *p = s->patches[i].diff, *end = p + s->patches[i].diff_len;

		while (p && p < end) {
			const char *nl = memchr(p, '\n', end - p);
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

			if (n > 6 && !strncmp(p, "+++ b/", 6))
				strvec_pushf(out, "%.*s", (int)(n - 6), p + 6);
			p = nl ? nl + 1 : end;
		}
	}
}

/* Nothing more to do for `s` but what the reply step recorded. */
static int finish(struct serve *sv, const struct queue_series *s,
		  const char *what, time_t now)
{
	int ret = queue_set_reply(&sv->q, s->id, what);

	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_REPLIED, now);
	say(sv, "series %lld done: %s", s->id, what);
	return ret;
}

/*
 * The reply's fate is unknown: the intent was recorded, the result was
 * not (the service died during the SMTP session, or it timed out).  Look
 * for its Message-ID in the list archive rather than send it again.
 */
static int confirm_unknown(struct serve *sv, const struct queue_series *s,
			   const struct serve_list *l,
			   const struct store_reply *rec, time_t now)
{
	struct strbuf what = STRBUF_INIT;
	int ret;

	ret = review_archived(l->archive, l->inbox, rec->message_id, &sv->http);
	if (ret == 1) {
		queue_log(&sv->q, s->id, l->name, QL_INFO, "reply <%s> found in the "
			  "archive: it was sent", rec->message_id);
		ret = store_mark_sent(&sv->store, rec->message_id);
		strbuf_addf(&what, "sent <%s> (confirmed by the archive)",
			    rec->message_id);
		if (!ret)
			ret = finish(sv, s, what.buf, now);
	} else if (!ret && l->reply_to != REPLY_TO_AUTHOR &&
		   now < rec->updated + (time_t)sv->cfg->confirm_window) {
		/* The list may simply not have archived it yet. */
		strbuf_addf(&what, "outcome unknown: looking for <%s> in the archive",
			    rec->message_id);
		ret = queue_set_reply(&sv->q, s->id, what.buf);
		if (!ret)
			ret = queue_defer(&sv->q, s->id, now +
					  (l->poll_interval < 30 ? l->poll_interval : 30));
	} else if (!ret) {
		strbuf_addf(&what, "the reply <%s> may have been sent (the SMTP "
			    "session did not finish) and %s; check, then 'warnwatch "
			    "retry --force %lld' sends it again under the same "
			    "Message-ID", rec->message_id,
			    l->reply_to != REPLY_TO_AUTHOR ?
			    "is not in the archive" : "was not copied to the list",
			    s->id);
		ret = fail(sv, s->id, what.buf, true);
	} else {
		ret = fail(sv, s->id, error_last(), false);
	}
	strbuf_release(&what);
	return ret < 0 ? ret : 0;
}

/* The list's coding-style guide, loaded on first use; NULL if none. */
static const struct guide *list_guide(struct serve *sv,
				      const struct serve_list *l)
{
	struct serve_inbox *in = &sv->inboxes[l - sv->cfg->lists];
	const struct config *c = sv->cfg->config;
	const char *tree = config_get(c, "review", "tree");
	const char *source = config_get(c, "review", "source");
	struct strbuf path = STRBUF_INIT;
	char *cache;
	struct stat st;

	if (in->guide_state)
		return in->guide_state > 0 ? &in->guide : NULL;
	/* A list's own tree: a source directory, or a linux-source tarball. */
	if (*l->tree && !stat(l->tree, &st)) {
		tree = S_ISDIR(st.st_mode) ? l->tree : NULL;
		source = S_ISDIR(st.st_mode) ? source : l->tree;
	}
	cache = guide_cache_dir();
	in->guide_state = -1;
	if (!guide_locate(&path, tree, cache, source) &&
	    !guide_load_file(&in->guide, path.buf))
		in->guide_state = 1;
	else
		queue_log(&sv->q, 0, l->name, QL_WARN, "replies will cite "
			  "coding-style sections without quoting them: %s",
			  error_last());
	free(cache);
	strbuf_release(&path);
	return in->guide_state > 0 ? &in->guide : NULL;
}

/* The previous version of `s`, checked, for the reply's credits. */
static bool load_prev(struct series *prev, struct check_result *res,
		      struct mail_list *mails, struct strbuf *raw,
		      struct serve *sv, const struct queue_series *s)
{
	struct check_opts co = CHECK_OPTS_INIT;
	long long pid = queue_prev_version(&sv->q, s->id);

	if (!pid)
		return false;
	co.rules = &sv->rules;
	if (load_series(mails, prev, raw, sv, pid) < 0 ||
	    check_series(res, prev, &co) < 0) {
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "v%d (series %lld) "
			  "not compared: %s", s->version - 1, pid, error_last());
		return false;
	}
	return true;
}

/*
 * Draft the reply of series `s` into reply.eml with the review module,
 * comparing with the previous version when there is one.  1 when there
 * is nothing to say.
 */
static int draft_reply(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, const struct series *series)
{
	const struct config *c = sv->cfg->config;
	struct reply_opts ro = REPLY_OPTS_INIT;
	struct review_conf keep = REVIEW_CONF_INIT;
	struct reply r = REPLY_INIT;
	struct reply_verdict v = REPLY_VERDICT_INIT;
	struct check_result cur = CHECK_RESULT_INIT, prev_res = CHECK_RESULT_INIT;
	struct check_opts co = CHECK_OPTS_INIT;
	struct series prev = SERIES_INIT;
	struct mail_list prev_mails = MAIL_LIST_INIT;
	struct strbuf prev_raw = STRBUF_INIT, path = STRBUF_INIT;
	int ret;

	co.rules = &sv->rules;
	ret = check_series(&cur, series, &co);
	if (ret < 0)
		goto out;
	ret = review_reply_opts(&ro, &keep, c, 0);
	if (ret < 0)
		goto out;
	queue_artifact(&path, &sv->q, s->id, QUEUE_VERDICT);
	if (!access(path.buf, F_OK) && reply_verdict_load(&v, path.buf) == 0)
		ro.verdict = &v;
	if (load_prev(&prev, &prev_res, &prev_mails, &prev_raw, sv, s)) {
		ro.prev = &prev;
		ro.prev_result = &prev_res;
	}
	/* The list's own policy and address before [review]'s. */
	ro.policy = l->reply_to;
	if (*l->address)
		ro.lists = l->address;
	ro.guide = list_guide(sv, l);
	ro.tree_name = *l->tree ? l->tree : NULL;
	ret = reply_build(&r, series, &cur, &ro);
	if (!ret && r.empty)
		ret = 1;
	else if (!ret)
		ret = put_artifact(sv, s->id, QUEUE_REPLY, r.text.buf, r.text.len);
out:
	reply_release(&r);
	reply_verdict_release(&v);
	check_result_clear(&cur);
	check_result_clear(&prev_res);
	series_release(&prev);
	mail_list_clear(&prev_mails);
	strbuf_release(&prev_raw);
	review_conf_release(&keep);
	strbuf_release(&path);
	return ret;
}

static int send_reply(struct serve *sv, const struct queue_series *s,
		      const struct serve_list *l, struct outgoing *o,
		      time_t now)
{
	struct store_reply r = STORE_REPLY_INIT, old = STORE_REPLY_INIT;
	struct smtp_opts so = SMTP_OPTS_INIT;
	struct strbuf password = STRBUF_INIT, ca_file = STRBUF_INIT, what = STRBUF_INIT;
	int ret;

	ret = smtp_opts_from_config(&so, &password, &ca_file, sv->cfg->config);
	if (ret) {
		ret = fail(sv, s->id, error_last(), true);
		goto out;
	}
	r.series = s->root_msgid;
	r.version = s->version;
	r.message_id = o->message_id;
	r.in_reply_to = o->in_reply_to;
	r.subject = o->subject;
	r.recipients = o->rcpt_text.buf;
	r.forced = s->force_reply;
	ret = review_send(&old, &sv->store, &so, &r, o->from.buf, &o->rcpt,
			  o->text.buf, o->text.len);
	if (ret == REVIEW_ANSWERED) {
		strbuf_addf(&what, "sent <%s>", old.message_id);
		ret = finish(sv, s, what.buf, now);
	} else if (ret == REVIEW_MAYBE_SENT) {
		ret = confirm_unknown(sv, s, l, &old, now);
	} else if (ret == REVIEW_UNRECORDED) {
		/* Sent; the intent left reads as "maybe sent" next time. */
		ret = WW_ESTATE;
	} else if (!ret) {
		strbuf_addf(&what, "sent <%s> to %s", o->message_id, o->rcpt_text.buf);
		ret = finish(sv, s, what.buf, now);
	} else if (ret == WW_ETIMEOUT) {
		/* Maybe delivered: leave the intent for confirm_unknown(). */
		ret = fail(sv, s->id, error_last(), false);
	} else if (ret != WW_ESTATE) {
		/* Refused, or no connection: certainly not delivered. */
		ret = fail(sv, s->id, error_last(), ret == WW_EINPUT);
	}
out:
	store_reply_release(&old);
	strbuf_release(&password);
	strbuf_release(&ca_file);
	strbuf_release(&what);
	return ret < 0 ? ret : 0;
}

static int stage_reply(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, time_t now)
{
	struct store_reply rec = STORE_REPLY_INIT;
	struct mail_list mails = MAIL_LIST_INIT;
	struct series series = SERIES_INIT;
	struct strbuf raw = STRBUF_INIT, path = STRBUF_INIT, what = STRBUF_INIT;
	struct strvec paths = STRVEC_INIT;
	struct outgoing o;
	const char *why = NULL;
	time_t until;
	int ret;

	outgoing_init(&o);
	if (l->reply == SERVE_REPLY_NONE) {
		ret = finish(sv, s, "none: replies are off for this list", now);
		goto out;
	}
	/* Answered already: by us before a crash, or by `warnwatch review`. */
	ret = review_known(&rec, &sv->store, s->root_msgid, s->version);
	if (ret == REVIEW_ANSWERED) {
		strbuf_addf(&what, "sent <%s>", rec.message_id);
		ret = finish(sv, s, what.buf, now);
		goto out;
	}
	if (ret == REVIEW_MAYBE_SENT && !s->force_reply) {
		ret = confirm_unknown(sv, s, l, &rec, now);
		goto out;
	}
	if (ret < 0)
		goto out;

	ret = load_series(&mails, &series, &raw, sv, s->id);
	if (ret < 0) {
		ret = fail(sv, s->id, error_last(), true);
		goto out;
	}
	/* Drafted once: a later attempt sends the same text and Message-ID. */
	queue_artifact(&path, &sv->q, s->id, QUEUE_REPLY);
	if (access(path.buf, F_OK)) {
		ret = draft_reply(sv, s, l, &series);
		if (ret == 1) {
			ret = finish(sv, s, "none: nothing to say", now);
			goto out;
		}
		if (ret < 0) {
			ret = fail(sv, s->id, error_last(), false);
			goto out;
		}
	}
	ret = outgoing_load(&o, sv, s->id);
	if (ret < 0) {
		ret = fail(sv, s->id, error_last(), true);
		goto out;
	}
	touched_paths(&paths, &series);
	if (l->reply == SERVE_REPLY_DRAFT) {
		ret = finish(sv, s, "drafted", now);
		goto out;
	}
	if (!serve_allowed(l, s->author_email, paths.v, &why)) {
		strbuf_addf(&what, "drafted, not sent: %s", why);
		ret = finish(sv, s, what.buf, now);
		goto out;
	}
	if (serve_quiet(l, now, &until)) {
		struct tm tm;

		localtime_r(&until, &tm);
		strbuf_addf(&what, "held until %02d:%02d (quiet hours)",
			    tm.tm_hour, tm.tm_min);
		ret = queue_set_reply(&sv->q, s->id, what.buf);
		if (!ret)
			ret = queue_defer(&sv->q, s->id, until);
		goto out;
	}
	ret = send_reply(sv, s, l, &o, now);
out:
	outgoing_release(&o);
	store_reply_release(&rec);
	series_release(&series);
	mail_list_clear(&mails);
	strvec_clear(&paths);
	strbuf_release(&raw);
	strbuf_release(&path);
	strbuf_release(&what);
	return ret;
}

/* ---- one step of work -------------------------------------------------- */

static int run_stage(struct serve *sv, long long id, time_t now)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	const struct serve_list *l;
	int ret;

	ret = queue_load(&s, &sv->q, id);
	if (ret < 0)
		return ret;
	l = serve_config_list(sv->cfg, s.inbox);
	if (!l) {
		ret = fail(sv, id, "its list is no longer configured", true);
		goto out;
	}
	error_clear();
	/* Checked again by the boot and reply stages, whatever ran before. */
	ret = s.state == QS_RECEIVED ? 0 : need_rules(sv);
	if (ret < 0)
		;	/* reported below, like any stage's own failure */
	else switch (s.state) {
	case QS_RECEIVED:
		ret = stage_fetch(sv, &s, l, now);
		break;
	case QS_FETCHED:
		ret = stage_check(sv, &s, l, now);
		break;
	case QS_CHECKED:
		ret = l->boot ? stage_boot(sv, &s, l, now) :
				stage_reply(sv, &s, l, now);
		break;
	case QS_BOOTED:
		ret = stage_reply(sv, &s, l, now);
		break;
	default:
		BUG("series %lld is not active (%s)", id, queue_state_name(s.state));
	}
	if (ret < 0) {
		/* The state store or our own installation failed, not the
		 * series: say so, and keep the series where it is. */
		queue_log(&sv->q, id, l->name, QL_ERROR, "%s", error_last());
		say(sv, "series %lld: %s", id, error_last());
		if (ret != WW_ESTATE)
			ret = fail(sv, id, error_last(), false);
	}
out:
	queue_series_release(&s);
	return ret < 0 ? ret : 0;
}

/* The dashboard, then status.json next to it (for people and scripts). */
static int write_outputs(struct serve *sv, time_t now)
{
	struct dashboard_opts dopts = DASHBOARD_OPTS_INIT;
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	json_t *status = NULL;
	char *text;
	int ret;

	dopts.out_dir = sv->cfg->dashboard_dir;
	dopts.state_dir = sv->cfg->state_dir;
	dopts.census = (const char **)sv->cfg->census.v;
	dopts.nr_census = sv->cfg->census.nr;
	dopts.now = now;
	ret = dashboard_write(&dopts);
	if (ret) {
		/* A page that cannot be drawn must not stop the reviews. */
		queue_log(&sv->q, 0, "", QL_ERROR, "dashboard: %s", error_last());
		say(sv, "dashboard: %s", error_last());
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

static void *beat_main(void *arg)
{
	struct beat *b = arg;

	for (;;) {
		struct queue_worker w = b->w;
		char stage[sizeof(b->stage)];
		time_t now = time(NULL);
		bool stop;

		pthread_mutex_lock(&b->lock);
		stop = b->stop;
		w.series_id = b->series_id;
		memcpy(stage, b->stage, sizeof(stage));
		pthread_mutex_unlock(&b->lock);
		if (stop)
			break;
		w.stage = stage;
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
	return NULL;
}

static int open_state(struct store *st, const struct serve_config *cfg)
{
	if (cfg->state_url)
		return store_open_url(st, cfg->state_url, cfg->state_password_file);
	return store_open(st, cfg->state_dir);
}

static int beat_start(struct serve *sv)
{
	struct beat *b = &sv->beat;
	int ret;

	ret = open_state(&b->store, sv->cfg);
	if (ret)
		return ret;
	queue_init(&b->q, &b->store, sv->cfg->state_dir, NULL);
	b->lease = sv->cfg->lease;
	b->w.name = sv->name;
	b->w.host = sv->host;
	b->w.pid = getpid();
	b->w.role = serve_role_name(sv->cfg->role);
	b->w.started = time(NULL);
	b->w.stage = "";
	b->interval = sv->cfg->lease / 3 ? sv->cfg->lease / 3 : 1;
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
 * The poller's turn: poll the due lists if this process holds the poll
 * lock, else try to take it (the active poller died or lost its
 * connection).  The lock comes with the lists' poll state, read afresh:
 * the previous poller moved it on.  1 when something changed.
 */
static int poll_turn(struct serve *sv, time_t now)
{
	bool changed = false;
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
	for (size_t i = 0; i < sv->cfg->nr_lists && !serve_stopping(); i++) {
		if (!archive_due(&sv->inboxes[i].poll, now))
			continue;
		ret = poll_list(sv, i, now);
		if (ret < 0)
			return ret;
		changed |= ret;
	}
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

	ret = queue_claim(&id, &sv->q, sv->name, sv->cfg->lease, time(NULL));
	if (ret <= 0)
		return ret;
	for (n = 0; n < SERVE_MAX_CHAIN && !serve_stopping(); n++) {
		struct queue_series s = QUEUE_SERIES_INIT;

		if (n) {
			ret = queue_claim_id(&sv->q, id, sv->name, sv->cfg->lease,
					     time(NULL));
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
			say(sv, "%s: series %lld at %s", sv->name, id,
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

static int start(struct serve *sv, const struct serve_config *cfg,
		 unsigned int flags)
{
	struct archive_opts ao = ARCHIVE_OPTS_INIT;
	int ret;

	sv->cfg = cfg;
	sv->flags = flags;
	ao.timeout_ms = cfg->http_timeout * 1000L;
	ao.connect_timeout_ms = ao.timeout_ms < 10000 ? ao.timeout_ms : 10000;
	ao.backoff_max = cfg->backoff_max;
	ao.user_agent = "warnwatch-serve";
	sv->http = ao;
	ret = open_state(&sv->store, cfg);
	if (ret)
		return ret;
	queue_init(&sv->q, &sv->store, cfg->state_dir, &cfg->queue);
	if (gethostname(sv->host, sizeof(sv->host) - 1))
		snprintf(sv->host, sizeof(sv->host), "localhost");
	snprintf(sv->name, sizeof(sv->name), "%s:%ld", sv->host, (long)getpid());
	if (cfg->role == SERVE_ROLE_WORKER)
		sv->q.owner = sv->name;	/* transitions fenced by the lease */
	sv->inboxes = xcalloc(cfg->nr_lists, sizeof(*sv->inboxes));
	for (size_t i = 0; i < cfg->nr_lists; i++) {
		ret = queue_inbox_load(&sv->inboxes[i].poll, &sv->inboxes[i].primed,
				       &sv->q, cfg->lists[i].name);
		if (ret < 0)
			return ret;
	}
	ret = mkdirs(cfg->dashboard_dir, 0755, WW_ESTATE);
	if (ret)
		return ret;
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
			cfg->nr_lists, cfg->state_dir);
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
	}
	free(sv->inboxes);
	sv->inboxes = NULL;
	if (sv->rules_loaded)
		ruleset_release(&sv->rules);
	queue_release(&sv->q);
	store_close(&sv->store);
}

/* Sleep until `until` (at most max_sleep), waking for a stop request. */
static void nap(struct serve *sv, time_t until)
{
	time_t now = time(NULL);
	time_t end = now + sv->cfg->max_sleep;

	if (until && until < end)
		end = until;
	/* Whole-second polls of the stop flag: a signal landing just before
	 * nanosleep() costs at most one second, never a whole interval. */
	while (!serve_stopping() && time(NULL) < end) {
		struct timespec ts = { 0, 250 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
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

	for (size_t i = 0; poll && i < sv->cfg->nr_lists && !serve_stopping(); i++) {
		if (!archive_due(&sv->inboxes[i].poll, now))
			continue;
		ret = poll_list(sv, i, now);
		if (ret < 0)
			return ret;
		changed |= ret;
		worked = true;
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
