/*
 * Polling over HTTP against a real server (libmicrohttpd in this
 * process, on 127.0.0.1): conditional GETs with ETag and Last-Modified,
 * 404 bodies, server errors with Retry-After, the backoff, the body cap,
 * the deadline of a server that never answers, a refused connection.
 */
#include "archive.h"
#include "tap.h"

#include <microhttpd.h>
#include <unistd.h>

static const char feed[] = "<feed xmlns='http://www.w3.org/2005/Atom'/>";
static int hits;

static enum MHD_Result answer(struct MHD_Connection *c, unsigned int status,
			      const char *body, const char *h1, const char *v1)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(body), (void *)body,
					    MHD_RESPMEM_MUST_COPY);
	if (h1)
		MHD_add_response_header(r, h1, v1);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *data,
				  size_t *size, void **state)
{
	const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						      "If-None-Match");
	const char *ims = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						      "If-Modified-Since");

	hits++;
	if (!strcmp(url, "/etag/new.atom")) {
		if (inm && !strcmp(inm, "\"v1\""))
			return answer(c, 304, "", NULL, NULL);
		return answer(c, 200, feed, "ETag", "\"v1\"");
	}
	if (!strcmp(url, "/lm/new.atom")) {
		if (ims && !strcmp(ims, "Mon, 06 May 2024 10:00:00 GMT"))
			return answer(c, 304, "", NULL, NULL);
		return answer(c, 200, feed, "Last-Modified",
			      "Mon, 06 May 2024 10:00:00 GMT");
	}
	if (!strcmp(url, "/empty/new.atom"))
		return answer(c, 404, "No feed found for thread\n", NULL, NULL);
	if (!strcmp(url, "/busy/new.atom"))
		return answer(c, 503, "busy", "Retry-After", "900");
	if (!strcmp(url, "/teapot/new.atom"))
		return answer(c, 418, "no", NULL, NULL);
	if (!strcmp(url, "/big/new.atom")) {
		static char big[64 << 10];

		memset(big, 'x', sizeof(big) - 1);
		return answer(c, 200, big, NULL, NULL);
	}
	if (!strcmp(url, "/slow/new.atom")) {
		usleep(1500 * 1000);
		return answer(c, 200, feed, NULL, NULL);
	}
	if (!strcmp(url, "/redirect/new.atom"))
		return answer(c, 301, "", "Location", "/etag/new.atom");
	if (!strcmp(url, "/ftp/new.atom"))
		return answer(c, 302, "", "Location", "file:///etc/passwd");
	if (!strcmp(url, "/i/a%2Fb@c/raw") || !strcmp(url, "/i/a/b@c/raw"))
		return answer(c, 200, "found", NULL, NULL);
	return answer(c, 404, "Not Found", NULL, NULL);
}

int main(void)
{
	struct archive_opts o = ARCHIVE_OPTS_INIT;
	struct archive_inbox st = ARCHIVE_INBOX_INIT;
	struct strbuf body = STRBUF_INIT, url = STRBUF_INIT;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	char base[64];
	long status;
	int port;

	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
			     MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL,
			     on_request, NULL, MHD_OPTION_END);
	if (!d) {
		printf("Bail out! cannot start the test server\n");
		return 1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	port = info->port;
	snprintf(base, sizeof(base), "http://127.0.0.1:%d", port);
	o.interval = 60;
	o.backoff_max = 3600;
	o.timeout_ms = 5000;

#define URL(path) (strbuf_reset(&url), strbuf_addf(&url, "%s%s", base, path), url.buf)

	is(archive_poll(&body, &st, URL("/etag/new.atom"), &o, 1000), ARCHIVE_CHANGED,
	   "first poll: 200");
	is_str(body.buf, feed, "  body");
	is_str(st.etag, "\"v1\"", "  ETag kept");
	ok(st.next_at == 1060 && st.last_ok == 1000 && !st.failures, "  next poll an interval away");
	is(archive_poll(&body, &st, URL("/etag/new.atom"), &o, 1060), ARCHIVE_UNCHANGED,
	   "second poll: If-None-Match gives 304");
	is(body.len, 0, "  no body");
	archive_inbox_release(&st);
	memset(&st, 0, sizeof(st));

	is(archive_poll(&body, &st, URL("/lm/new.atom"), &o, 0), ARCHIVE_CHANGED,
	   "Last-Modified: 200");
	is(archive_poll(&body, &st, URL("/lm/new.atom"), &o, 0), ARCHIVE_UNCHANGED,
	   "If-Modified-Since gives 304");
	archive_inbox_release(&st);
	memset(&st, 0, sizeof(st));

	is(archive_poll(&body, &st, URL("/empty/new.atom"), &o, 0), WW_ENOTFOUND,
	   "404 is WW_ENOTFOUND");
	ok(starts_with(body.buf, "No feed found"), "  with its body (public-inbox's empty inbox)");
	is(st.failures, 0, "  not a failure of the archive");

	is(archive_poll(&body, &st, URL("/busy/new.atom"), &o, 5000), WW_ENET,
	   "503 is WW_ENET");
	ok(strstr(error_last(), "HTTP 503"), "  message: %s", error_last());
	ok(st.failures == 1 && st.next_at == 5900, "  Retry-After (900 s) honoured");
	ok(!archive_due(&st, 5899) && archive_due(&st, 5900), "  not due before");
	archive_note_failure(&st, &o, 6000, 0);
	is(st.next_at, 6000 + 120, "backoff doubles: 2 * interval");
	archive_note_failure(&st, &o, 7000, 0);
	is(st.next_at, 7000 + 240, "  then 4 * interval");
	for (int i = 0; i < 40; i++)
		archive_note_failure(&st, &o, 8000, 0);
	is(st.next_at, 8000 + 3600, "  capped at backoff_max");
	archive_note_success(&st, &o, 9000);
	ok(!st.failures && st.next_at == 9060, "success resets the backoff");

	is(archive_poll(&body, &st, URL("/teapot/new.atom"), &o, 0), WW_EINPUT,
	   "an odd status is WW_EINPUT");
	o.cap = 1024;
	is(archive_poll(&body, &st, URL("/big/new.atom"), &o, 0), WW_ETOOBIG,
	   "a body over the cap is WW_ETOOBIG");
	ok(body.len <= 1024, "  and not kept whole");
	o.cap = 8u << 20;
	o.timeout_ms = 300;
	is(archive_poll(&body, &st, URL("/slow/new.atom"), &o, 0), WW_ETIMEOUT,
	   "a server that does not answer in time: WW_ETIMEOUT");
	o.timeout_ms = 5000;
	archive_inbox_release(&st);
	memset(&st, 0, sizeof(st));
	is(archive_poll(&body, &st, URL("/redirect/new.atom"), &o, 0), ARCHIVE_CHANGED,
	   "a redirect is followed");
	ok(archive_poll(&body, &st, URL("/ftp/new.atom"), &o, 0) < 0,
	   "a redirect to file:// is not");

	strbuf_reset(&url);
	strbuf_addf(&url, "%s/i/", base);
	archive_escape_msgid(&url, "a/b@c");
	strbuf_addstr(&url, "/raw");
	ok(ends_with(url.buf, "/i/a%2Fb@c/raw"), "Message-ID escaped as public-inbox does");
	is(archive_get(&body, &status, url.buf, &o), 0, "archive_get: 200");
	ok(status == 200 && !strcmp(body.buf, "found"), "  body");
	is(archive_get(&body, &status, URL("/i/nope@x/raw"), &o), WW_ENOTFOUND,
	   "archive_get: 404");
	is(status, 404, "  status");

	MHD_stop_daemon(d);
	archive_inbox_release(&st);
	memset(&st, 0, sizeof(st));
	is(archive_poll(&body, &st, URL("/etag/new.atom"), &o, 100), WW_ENET,
	   "nothing listening: WW_ENET");
	is(st.failures, 1, "  counted as a failure");
	{
		struct strbuf esc = STRBUF_INIT;

		archive_escape_msgid(&esc, "x y%<z>@q");
		is_str(esc.buf, "x%20y%25%3Cz%3E@q", "escaping of spaces, %% and brackets");
		strbuf_release(&esc);
	}
	archive_inbox_release(&st);
	strbuf_release(&body);
	strbuf_release(&url);
	return done_testing();
}
