/*
 * warnwatch serve: the service loop.  It polls each configured list's
 * Atom feed, groups new mail into series (queue.h), and moves one series
 * one stage at a time:
 *
 *   received --b4--> fetched --check--> checked --ci (boot = yes)--> booted
 *            --draft, maybe send--> replied
 *
 * then regenerates the dashboard and serves it over HTTP (httpd.h).
 *
 * Stopping: SIGTERM/SIGINT let the current stage finish and the loop
 * exit; every sleep is bounded.  Crash safety: a stage's result is
 * written to disk before the queue moves on, so a killed service redoes
 * at most the stage it was in.  A reply is sent at most once: the intent
 * is committed in the store before the SMTP session and the result after
 * it; a reply found in the intent state at the next attempt has an
 * unknown outcome and is looked up in the list's archive by its
 * Message-ID rather than sent again (see docs/serve.md).
 */
#ifndef WW_SERVE_H
#define WW_SERVE_H

#include "config.h"
#include "settings.h"
#include "policy.h"
#include "queue.h"
#include "reply.h"
#include "strvec.h"

#include <time.h>

enum serve_reply_mode {
	SERVE_REPLY_NONE,	/* never reply (check and show only) */
	SERVE_REPLY_DRAFT,	/* write the reply under the state dir */
	SERVE_REPLY_SEND,	/* and send it */
};

/* One watched mailing list ([list.NAME] in the configuration). */
struct serve_list {
	char *name;
	char *archive;		/* public-inbox base URL, no trailing '/' */
	char *inbox;		/* inbox name on the archive (default: NAME) */
	char *address;		/* the list's posting address(es), or "" */
	char *tree;		/* base kernel for boots ("6.1", a tarball), or "" */
	bool boot;		/* build and boot (kernel-ci), or only check */
	enum serve_reply_mode reply;
	enum reply_policy reply_to; /* default: [review] reply-to */
	struct strvec allow_senders; /* fnmatch() globs on the author's address */
	struct strvec allow_paths;   /* fnmatch() globs on touched files */
	int quiet_from, quiet_to; /* minutes after local midnight; -1 none */
	bool backfill;		/* act on what the feed shows at the first poll */
	unsigned int poll_interval;
	struct policy_list policy; /* positive, ignore-senders, daily-cap */
};

/* What one `warnwatch serve` process does (--role). */
enum serve_role {
	SERVE_ROLE_ALL,		/* poll and work, one process (the default) */
	SERVE_ROLE_POLLER,	/* feeds into the queue, one at a time by lock */
	SERVE_ROLE_WORKER,	/* claims due series and runs their stages */
};

struct serve_config;

/*
 * What draws the dashboard after every stage.  The pages are history's
 * (dashboard.h), a floor above the service, so the command hands the
 * drawer in: `draw` gets `data`, the configuration, the service's open
 * connection and the time; a failure is logged and the service goes on.
 * A NULL `draw` draws nothing (status.json is still written).
 */
struct serve_drawer {
	int (*draw)(void *data, const struct serve_config *cfg,
		    struct store *st, time_t now);
	void *data;
};

/* Mails of a list's epochs backfilled per poll, by default. */
#define SERVE_HISTORY_BATCH 2000

/*
 * What keeps the lists' per-release history (history/chronicle.h), handed
 * in by `warnwatch serve` as the drawer is: the active poller calls step()
 * after each round of polls when [serve] history is on: 1 it recorded
 * something (the dashboard is drawn again), 0 nothing, negative an error
 * (logged, not fatal).
 */
struct serve_history_hook {
	int (*step)(void *data, const struct serve_config *cfg, struct store *st,
		    time_t now);
	void *data;
};

struct serve_config {
	const struct settings *settings; /* borrowed: [state], [identity], [smtp],
					  * [review], [archive] */
	const struct config *config;	/* borrowed: settings->config */
	enum serve_role role;	/* from the command line */
	char *dashboard_dir;	/* default STATE_DIR/dashboard */
	char *listen;		/* "127.0.0.1:8025"; "" when off */
	unsigned int poll_interval;
	unsigned int http_timeout;
	unsigned int backoff_max;
	unsigned int confirm_window; /* seconds to look for an unconfirmed reply */
	unsigned int max_sleep;	/* longest sleep between checks */
	struct strvec census;	/* census JSON files shown on the dashboard */
	/* [serve] history: the lists' per-release history kept by the poller
	 * (history_hook), at most history_batch mails per list and poll. */
	bool history;
	unsigned int history_batch;
	struct serve_history_hook history_hook;
	struct queue_opts queue;
	struct policy_global send; /* [serve] daily-cap, stop-file */
	struct serve_list *lists;
	size_t nr_lists, alloc_lists;
	struct serve_drawer drawer;	/* set by the caller, not from the file */
};

#define SERVE_CONFIG_INIT { 0 }

/*
 * Read [serve] and every [list.NAME] of the settings `s` (which must
 * outlive `out`; settings_load() checked every key).  When a list sends
 * replies, the identity and [smtp] must be usable now
 * (settings_need_sending()), not at the first send.  Bad values and a
 * list without `archive` are WW_EINPUT naming the key.
 */
int serve_config_load(struct serve_config *out, struct settings *s);
void serve_config_release(struct serve_config *cfg);
/* The list called `name`, or NULL (borrowed). */
const struct serve_list *serve_config_list(const struct serve_config *cfg,
					   const char *name);

/* Whether `now` (local time) is inside the list's quiet hours; if so
 * *out_end is when they end. */
bool serve_quiet(const struct serve_list *l, time_t now, time_t *out_end);
/* Whether replies to `author_email` touching `paths` (NULL-terminated) may
 * be mailed under the list's allow-lists; if not, *why says which. */
bool serve_allowed(const struct serve_list *l, const char *author_email,
		   const char *const *paths, const char **why);

/*
 * Whether allow-senders lets the reply reach every one of `rcpt`: each
 * address that is not the list being answered (`lists`: the list's
 * configured address or [review] lists, globs; NULL: none; and the
 * list's own address) must match it,
 * not only the author's -- a From: or Cc: can name anyone, and anyone can
 * own an address that looks like a list.  If not, *why says so.
 */
bool serve_rcpt_allowed(const struct serve_list *l, const struct mail_addr_list *rcpt,
			const char *lists, const char **why);

enum serve_flags {
	SERVE_ONCE = 1 << 0,	/* stop when nothing is due (tests, cron) */
	SERVE_VERBOSE = 1 << 1,	/* a line on stderr per stage */
};

/* "all", "poller", "worker"; serve_role_parse() is WW_EUSAGE otherwise. */
const char *serve_role_name(enum serve_role r);
int serve_role_parse(enum serve_role *out, const char *name);

/* Run until serve_request_stop() (or, with SERVE_ONCE, until idle).
 * 0 on a clean stop, negative when the service could not start. */
int serve_run(const struct serve_config *cfg, unsigned int flags);

/*
 * For `warnwatch status`, `retry` and `dashboard`: open the state of
 * `state_dir` if set, else the state of the settings `s`
 * (settings_state_open()), and the queue on it.  WW_ENOTFOUND when there
 * is no state yet (nothing is created).
 */
int serve_state_open(struct store *st, struct queue *q, const struct settings *s,
		     const char *state_dir);

/* Async-signal-safe: ask the loop to stop after the current stage. */
void serve_request_stop(void);
bool serve_stopping(void);

#endif
