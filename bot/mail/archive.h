/*
 * Polling archives over HTTP with libcurl: conditional GETs of a feed
 * (ETag / Last-Modified), a deadline on every request, a size cap on every
 * body, and per-inbox backoff when an archive is down or answers errors.
 *
 * The per-inbox state is plain data owned by the caller (the queue stores
 * it), so a restarted service keeps its validators and its backoff.
 */
#ifndef WW_ARCHIVE_H
#define WW_ARCHIVE_H

#include "strbuf.h"

#include <time.h>

struct archive_inbox {
	char *etag;		/* validator from the last 200, "" none (owned) */
	char *last_modified;	/* ditto */
	unsigned int failures;	/* consecutive failed polls */
	time_t next_at;		/* not before this time (backoff) */
	time_t last_ok;		/* last successful poll, 0 never */
};

#define ARCHIVE_INBOX_INIT { 0 }

struct archive_opts {
	unsigned int interval;	/* seconds between polls of a healthy inbox */
	unsigned int backoff_max; /* longest wait after failures, seconds */
	long timeout_ms;	/* whole request, connection included */
	long connect_timeout_ms;
	size_t cap;		/* largest body accepted */
	const char *user_agent;
};

#define ARCHIVE_OPTS_INIT { .interval = 60, .backoff_max = 3600, .timeout_ms = 30000, \
			.connect_timeout_ms = 10000, .cap = 8u << 20, .user_agent = "warnwatch" }

enum archive_poll_result {
	ARCHIVE_UNCHANGED = 0,	/* 304: nothing new */
	ARCHIVE_CHANGED = 1,	/* 200: body in `out` */
};

/*
 * Fetch `url` conditionally on `st`'s validators.  Returns ARCHIVE_CHANGED
 * (body in `out`, validators updated), ARCHIVE_UNCHANGED, or a negative code:
 * WW_ENOTFOUND for 404 (the body is still in `out`: public-inbox answers
 * 404 for an inbox without mail), WW_ENET (connection failed, 5xx, 429),
 * WW_ETIMEOUT, WW_ETOOBIG, WW_EINPUT (other statuses).  Success and
 * failure both update `st`'s backoff; see archive_due().
 */
int archive_poll(struct strbuf *out, struct archive_inbox *st, const char *url,
	      const struct archive_opts *opts, time_t now);

/* Whether `st` may be polled at `now`. */
bool archive_due(const struct archive_inbox *st, time_t now);

/* Record a success / a failure (with the server's Retry-After seconds,
 * 0 if none) in `st`: the next poll is an interval away, or a doubling
 * backoff capped at opts->backoff_max. */
void archive_note_success(struct archive_inbox *st, const struct archive_opts *opts,
		       time_t now);
void archive_note_failure(struct archive_inbox *st, const struct archive_opts *opts,
		       time_t now, unsigned int retry_after);

/*
 * A plain GET of `url` (archive look-ups: does our reply's Message-ID
 * exist yet?).  0 with the body in `out` on 200, WW_ENOTFOUND on 404,
 * otherwise as archive_poll.  `*status` gets the HTTP status (0 if none).
 */
int archive_get(struct strbuf *out, long *status, const char *url,
	     const struct archive_opts *opts);

/* Append `s` to `out` escaped as public-inbox escapes a Message-ID in a
 * URL path segment ('/' and '%' included). */
void archive_escape_msgid(struct strbuf *out, const char *s);

void archive_inbox_release(struct archive_inbox *st);

/*
 * Start libcurl, once per process whichever thread comes first
 * (pthread_once); every module that uses libcurl (archive, smtp) calls it
 * before its first handle.
 */
int archive_curl_init(void);

#endif
