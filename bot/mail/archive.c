/*
 * HTTP polling with libcurl: one easy handle per request (polls are
 * minutes apart, connection reuse buys nothing), every limit set
 * explicitly, no signals (the dashboard server runs in a thread).
 */
#include "archive.h"

#include <curl/curl.h>
#include <pthread.h>

struct fetch {
	struct strbuf *body;
	size_t cap;
	bool too_big;
	struct strbuf etag, last_modified;
	unsigned int retry_after;
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_started = CURLE_FAILED_INIT;

static void curl_start(void)
{
	curl_started = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int archive_curl_init(void)
{
	pthread_once(&curl_once, curl_start);
	if (curl_started != CURLE_OK)
		return error("cannot initialise libcurl: %s",
			     curl_easy_strerror(curl_started));
	return 0;
}

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
	struct fetch *f = arg;
	size_t len = size * n;

	if (f->body->len + len > f->cap) {
		f->too_big = true;
		return 0;	/* makes curl stop with CURLE_WRITE_ERROR */
	}
	strbuf_add(f->body, data, len);
	return len;
}

/* The value of header line `line` if it is `name`, trimmed, into `out`. */
static bool header_value(struct strbuf *out, const char *line, size_t len,
			 const char *name)
{
	size_t n = strlen(name);

	if (len <= n || strncasecmp(line, name, n) || line[n] != ':')
		return false;
	strbuf_reset(out);
	strbuf_add(out, line + n + 1, len - n - 1);
	strbuf_trim(out);
	return true;
}

static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
	struct fetch *f = arg;
	size_t len = size * n;
	struct strbuf v = STRBUF_INIT;

	/* A redirect's headers come first: start over at each status line. */
	if (len > 5 && !strncmp(data, "HTTP/", 5)) {
		strbuf_reset(&f->etag);
		strbuf_reset(&f->last_modified);
		f->retry_after = 0;
	}
	if (len > 1024)
		return len;	/* no validator is that long: ignore it */
	header_value(&f->etag, data, len, "ETag");
	header_value(&f->last_modified, data, len, "Last-Modified");
	if (header_value(&v, data, len, "Retry-After")) {
		char *end;
		unsigned long s = strtoul(v.buf, &end, 10);

		/* The HTTP-date form is rare; a plain backoff covers it. */
		if (end != v.buf && !*end)
			f->retry_after = s > 86400 ? 86400 : s;
	}
	strbuf_release(&v);
	return len;
}

/* Run one GET; `cond` may carry validators.  Sets *status. */
static int do_get(struct fetch *f, long *status, const char *url,
		  const struct archive_inbox *cond, const struct archive_opts *opts)
{
	struct curl_slist *hdrs = NULL;
	struct strbuf h = STRBUF_INIT;
	char errbuf[CURL_ERROR_SIZE] = "";
	CURL *curl;
	CURLcode rc;
	int ret;

	*status = 0;
	ret = archive_curl_init();
	if (ret)
		return ret;
	curl = curl_easy_init();
	if (!curl)
		return error("cannot initialise libcurl");
	if (cond && cond->etag && *cond->etag) {
		strbuf_addf(&h, "If-None-Match: %s", cond->etag);
		hdrs = curl_slist_append(hdrs, h.buf);
	}
	if (cond && cond->last_modified && *cond->last_modified) {
		strbuf_reset(&h);
		strbuf_addf(&h, "If-Modified-Since: %s", cond->last_modified);
		hdrs = curl_slist_append(hdrs, h.buf);
	}
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, opts->timeout_ms);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, opts->connect_timeout_ms);
	curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(curl, CURLOPT_USERAGENT, opts->user_agent);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, f);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);

	rc = curl_easy_perform(curl);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
	if (rc == CURLE_OK)
		ret = 0;
	else if (f->too_big)
		ret = error_code(WW_ETOOBIG, "'%s': response over %zu bytes",
				 url, opts->cap);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		ret = error_code(WW_ETIMEOUT, "'%s': no answer within %ld ms",
				 url, opts->timeout_ms);
	else
		ret = error_code(WW_ENET, "'%s': %s", url,
				 *errbuf ? errbuf : curl_easy_strerror(rc));
	curl_easy_cleanup(curl);
	curl_slist_free_all(hdrs);
	strbuf_release(&h);
	return ret;
}

/* Map a completed exchange's HTTP status to our codes. */
static int check_status(long status, const char *url)
{
	if (status == 200 || status == 304)
		return 0;
	if (status == 404 || status == 410)
		return error_code(WW_ENOTFOUND, "'%s': HTTP %ld", url, status);
	if (status == 429 || status >= 500)
		return error_code(WW_ENET, "'%s': HTTP %ld", url, status);
	return error_code(WW_EINPUT, "'%s': unexpected HTTP %ld", url, status);
}

static void fetch_init(struct fetch *f, struct strbuf *body, size_t cap)
{
	memset(f, 0, sizeof(*f));
	f->body = body;
	f->cap = cap;
	strbuf_init(&f->etag, 0);
	strbuf_init(&f->last_modified, 0);
}

static void fetch_release(struct fetch *f)
{
	strbuf_release(&f->etag);
	strbuf_release(&f->last_modified);
}

int archive_poll(struct strbuf *out, struct archive_inbox *st, const char *url,
	      const struct archive_opts *opts, time_t now)
{
	struct fetch f;
	long status;
	int ret;

	strbuf_reset(out);
	fetch_init(&f, out, opts->cap);
	ret = do_get(&f, &status, url, st, opts);
	if (!ret)
		ret = check_status(status, url);
	if (ret == WW_ENOTFOUND) {
		/* Answered: the archive is up, the caller judges the 404. */
		archive_note_success(st, opts, now);
		goto out;
	}
	if (ret < 0) {
		archive_note_failure(st, opts, now, f.retry_after);
		goto out;
	}
	archive_note_success(st, opts, now);
	if (status == 304) {
		ret = ARCHIVE_UNCHANGED;
		goto out;
	}
	free(st->etag);
	st->etag = xstrdup(f.etag.buf);
	free(st->last_modified);
	st->last_modified = xstrdup(f.last_modified.buf);
	ret = ARCHIVE_CHANGED;
out:
	fetch_release(&f);
	return ret;
}

int archive_get(struct strbuf *out, long *status, const char *url,
	     const struct archive_opts *opts)
{
	struct fetch f;
	int ret;

	strbuf_reset(out);
	fetch_init(&f, out, opts->cap);
	ret = do_get(&f, status, url, NULL, opts);
	if (!ret)
		ret = check_status(*status, url);
	fetch_release(&f);
	return ret;
}

bool archive_due(const struct archive_inbox *st, time_t now)
{
	return now >= st->next_at;
}

void archive_note_success(struct archive_inbox *st, const struct archive_opts *opts,
		       time_t now)
{
	st->failures = 0;
	st->last_ok = now;
	st->next_at = now + opts->interval;
}

void archive_note_failure(struct archive_inbox *st, const struct archive_opts *opts,
		       time_t now, unsigned int retry_after)
{
	unsigned long delay = opts->interval ? opts->interval : 1;

	if (st->failures < 32)
		st->failures++;
	for (unsigned int i = 1; i < st->failures && delay < opts->backoff_max; i++)
		delay *= 2;
	if (delay > opts->backoff_max)
		delay = opts->backoff_max;
	if (retry_after > delay)
		delay = retry_after;
	st->next_at = now + delay;
}

void archive_escape_msgid(struct strbuf *out, const char *s)
{
	static const char ok[] = "-._~!$&'()*+,;=:@";

	for (; *s; s++) {
		unsigned char c = *s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || strchr(ok, c))
			strbuf_addch(out, c);
		else
			strbuf_addf(out, "%%%02X", c);
	}
}

void archive_inbox_release(struct archive_inbox *st)
{
	free(st->etag);
	free(st->last_modified);
	st->etag = st->last_modified = NULL;
}
