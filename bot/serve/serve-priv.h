/*
 * The running service, shared by the loop (serve.c) and its stages
 * (stage.h, stage-*.c): not for other modules.  serve.c owns it: it
 * opens the state, loads the lists' poll state, runs the roles and hands
 * one series at a time to a stage.
 */
#ifndef WW_SERVE_PRIV_H
#define WW_SERVE_PRIV_H

#include "serve.h"
#include "archive.h"
#include "guide.h"
#include "rules.h"
#include "store.h"

#include <pthread.h>

struct httpd;

struct serve_inbox {
	struct archive_inbox poll;
	bool primed;
	bool git;		/* read through its git epochs (follow.h) */
	time_t git_retry_at;	/* no epochs: the feed until then */
	struct guide guide;	/* the list's coding-style, for quoting */
	int guide_state;	/* 0 not loaded yet, 1 loaded, -1 none */
	/* Review warnings logged as warnings for this list: a cause (the
	 * same text) is a warning once, later series' copies are info. */
	struct strvec warned;
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
	struct strbuf warm;	/* under lock: the releases built here, uncut */
	unsigned int interval;	/* seconds between beats */
	unsigned int lease;	/* seconds each renewal extends the claim by */
};

struct stage_series;

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
	/* The series the last stage read and checked, for the next stage
	 * of the same series (stage_checked()), or NULL. */
	struct stage_series *checked;
	struct httpd *httpd;
	struct archive_opts http;
	struct strbuf warm;	/* a worker's built releases (q.warm points here) */
};

/* A line on stderr with --verbose ("warnwatch serve: ..."). */
void serve_say(struct serve *sv, const char *fmt, ...) WW_PRINTF(2, 3);
/* A stage of series `id` failed: record `why` and set the retry
 * (queue_fail()); `permanent` when retrying cannot help.  0 once
 * recorded (what the stage then returns, stage.h), negative when the
 * state store failed. */
int serve_fail(struct serve *sv, long long id, const char *why, bool permanent);

#endif
