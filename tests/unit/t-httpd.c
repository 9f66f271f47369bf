/*
 * The dashboard server against real HTTP requests (libcurl, paths sent
 * as written): content types, read-only methods, and every way out of
 * the root we know of: "..", "%2e%2e", "%2f", hidden files, symlinks to
 * files and directories outside, FIFOs.  And slow clients: a few
 * addresses dribbling request heads neither hold every connection nor
 * keep theirs past the head deadline; a flood of dribblers from many
 * addresses, coming back as soon as they are cut, does not keep a client
 * that sends its request from being answered (the reserve).
 */
#include "httpd.h"
#include "strbuf.h"
#include "tap.h"
#include "tmpdir.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static char base[64];

struct resp {
	long status;
	struct strbuf body;
	struct strbuf headers;
};

static size_t on_data(char *d, size_t s, size_t n, void *arg)
{
	strbuf_add(arg, d, s * n);
	return s * n;
}

static void get(struct resp *r, const char *method, const char *path)
{
	struct strbuf url = STRBUF_INIT;
	CURL *c = curl_easy_init();

	strbuf_init(&r->body, 0);
	strbuf_init(&r->headers, 0);
	strbuf_addf(&url, "%s%s", base, path);
	curl_easy_setopt(c, CURLOPT_URL, url.buf);
	curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);	/* no client-side "..": */
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &r->body);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &r->headers);
	if (!strcmp(method, "HEAD"))
		curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
	else if (strcmp(method, "GET"))
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	r->status = curl_easy_perform(c) == CURLE_OK ? 0 : -1;
	if (!r->status)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	curl_easy_cleanup(c);
	strbuf_release(&url);
}

static void resp_release(struct resp *r)
{
	strbuf_release(&r->body);
	strbuf_release(&r->headers);
}

static bool has_header(const struct resp *r, const char *line)
{
	return strcasestr(r->headers.buf, line) != NULL;
}


static bool have_openat2(void)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_BENEATH };
	int fd = syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how));

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* One request, expecting a status and (if not NULL) a body substring. */
static void expect(const char *method, const char *path, long status,
		   const char *body, const char *what)
{
	struct resp r;

	get(&r, method, path);
	if (!ok(r.status == status && (!body || strstr(r.body.buf, body)),
		"%s %s: %s", method, path, what))
		printf("#   status %ld, body '%.80s'\n", r.status, r.body.buf);
	resp_release(&r);
}

/* ---- slow clients --------------------------------------------------- */

#define DRIBBLERS_PER_ADDR 32	/* the whole default limit, from two addresses */
#define SLOW_SLACK_S 3.0	/* what the server may take beyond its deadline */

/* A TCP connection from loopback address `src` to 127.0.0.1:port, made
 * non-blocking once connected; -1 when refused. */
static int connect_from(const char *src, unsigned int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	inet_pton(AF_INET, src, &a.sin_addr);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto fail;
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	a.sin_port = htons(port);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto fail;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
fail:
	close(fd);
	return -1;
}

/* Has the server closed `fd`?  What it sent is read and dropped. */
static bool peer_closed(int fd)
{
	char buf[512];

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0)
			continue;
		return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
				  errno != EINTR);
	}
}

/* A request from `src`, its answer's status line read within `limit_s`:
 * the seconds it took, or -1. */
static double timed_get(const char *src, unsigned int port, double limit_s)
{
	static const char req[] = "GET / HTTP/1.0\r\nHost: x\r\n\r\n";
	double t0 = monotonic_now();
	char buf[64] = "";
	size_t got = 0;
	int fd = connect_from(src, port);

	if (fd < 0)
		return -1;
	if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req))
		goto fail;
	while (got < 12) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		double left = t0 + limit_s - monotonic_now();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			goto fail;
		n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
		if (n <= 0)
			goto fail;
		got += n;
	}
	close(fd);
	return strncmp(buf, "HTTP/1.0 200", 12) && strncmp(buf, "HTTP/1.1 200", 12) ?
	       -1 : monotonic_now() - t0;
fail:
	close(fd);
	return -1;
}

/* A server with the default options on a free port, or NULL (said). */
static struct httpd *start_default(const char *root, const char *what)
{
	struct httpd_opts opts = HTTPD_OPTS_INIT;
	struct httpd *h = NULL;

	opts.root = root;
	opts.port = 0;
	if (httpd_start(&h, &opts) < 0) {
		ok(0, "%s: server starts: %s", what, error_last());
		return NULL;
	}
	return h;
}

/*
 * Two addresses open the whole connection limit between them and send
 * their request heads a byte at a time, never finishing; a third address
 * must be answered at once, and the dribblers cut at the head deadline
 * although they never stop sending.  Every wait is bounded.
 */
static void test_slow_clients(const char *root)
{
	static const char head[] = "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: y\r\n";
	const char *addrs[] = { "127.0.0.1", "127.0.0.2" };
	struct httpd_opts opts = HTTPD_OPTS_INIT;
	struct httpd *h = start_default(root, "slow clients");
	int fds[2 * DRIBBLERS_PER_ADDR];
	double opened_at, last_close = 0, third, bound;
	size_t sent = 0, open_nr = 0, held = 0;
	unsigned int port;

	if (!h)
		return;
	port = httpd_port(h);
	bound = opts.head_timeout_s + SLOW_SLACK_S;
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = connect_from(addrs[i / DRIBBLERS_PER_ADDR], port);
	opened_at = monotonic_now();
	/* Dribble for a second, then see who the server kept. */
	while (monotonic_now() - opened_at < 1.0) {
		for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
			if (fds[i] >= 0)
				send(fds[i], head + sent % strlen(head), 1,
				     MSG_NOSIGNAL | MSG_DONTWAIT);
		sent++;
		usleep(250 * 1000);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0 && !peer_closed(fds[i]))
			held++;
	printf("# slow clients: %zu of %zu dribbling connections held after 1 s\n",
	     held, ARRAY_SIZE(fds));
	ok(held > 0, "slow clients: some dribblers are held (the test is real)");

	third = timed_get("127.0.0.3", port, 3.0);
	ok(third >= 0, "slow clients: a third address is answered within 3 s (%.2f s)",
	   third);

	/* Keep dribbling until the server has cut every one, or the bound. */
	do {
		open_nr = 0;
		for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
			if (fds[i] < 0)
				continue;
			if (peer_closed(fds[i]) ||
			    (send(fds[i], head + sent % strlen(head), 1,
				  MSG_NOSIGNAL | MSG_DONTWAIT) < 0 &&
			     errno != EAGAIN)) {
				close(fds[i]);
				fds[i] = -1;
				last_close = monotonic_now() - opened_at;
				continue;
			}
			open_nr++;
		}
		sent++;
		if (open_nr)
			usleep(250 * 1000);
	} while (open_nr && monotonic_now() - opened_at < bound);
	is(open_nr, 0, "slow clients: every dribbler is cut within %.0f s although it "
	   "keeps sending (last after %.1f s)", bound, last_close);
	ok(last_close >= opts.head_timeout_s - 1.0,
	   "slow clients: not before the head deadline of %u s (%.1f s)",
	   opts.head_timeout_s, last_close);
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	third = timed_get("127.0.0.3", port, 3.0);
	ok(third >= 0, "slow clients: the server still answers afterwards (%.2f s)", third);
	httpd_stop(h);
}

/* ---- a flood from many addresses ----------------------------------- */

#define FLOOD_ADDRS 25		/* 127.0.0.2 .. 127.0.0.26 */
#define FLOOD_PER_ADDR 8	/* the per-address limit: 200 connections */
#define FLOOD_GETS 15
#define FLOOD_GET_LIMIT_S 2.0

/*
 * One round of the flood: every connection the server closed (or that was
 * never made) is made again at once, as an attacker's would be, and every
 * open one sends the next byte of a head it never finishes.  The number
 * of connections made again is added to *remade.
 */
static void flood_round(int *fds, size_t nr, unsigned int port, size_t sent,
			size_t *remade)
{
	static const char head[] = "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: y\r\n";

	for (size_t i = 0; i < nr; i++) {
		char src[32];

		if (fds[i] >= 0 && peer_closed(fds[i])) {
			close(fds[i]);
			fds[i] = -1;
		}
		if (fds[i] < 0) {
			snprintf(src, sizeof(src), "127.0.0.%zu", 2 + i / FLOOD_PER_ADDR);
			fds[i] = connect_from(src, port);
			(*remade)++;
		}
		if (fds[i] >= 0)
			send(fds[i], head + sent % strlen(head), 1,
			     MSG_NOSIGNAL | MSG_DONTWAIT);
	}
}

/*
 * 200 dribbling connections from 25 addresses (the per-address limit of
 * each), remade whenever the server cuts them: more than the server's
 * whole connection limit.  A client on 127.0.0.1 asks for the page 15
 * times in the middle of it; every request must be answered within 2 s
 * (before the reserve: 0 of 15, every connection held by dribblers).
 */
static void test_flood(const char *root)
{
	struct httpd_opts opts = HTTPD_OPTS_INIT;
	struct httpd *h = start_default(root, "flood");
	int fds[FLOOD_ADDRS * FLOOD_PER_ADDR];
	size_t sent = 0, remade = 0, first, answered = 0;
	double t0, slowest = 0;
	unsigned int port;

	if (!h)
		return;
	port = httpd_port(h);
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = -1;
	/* A second of flood first: every slot the server has is taken. */
	t0 = monotonic_now();
	while (monotonic_now() - t0 < 1.0) {
		flood_round(fds, ARRAY_SIZE(fds), port, sent++, &remade);
		usleep(250 * 1000);
	}
	first = remade;
	for (int k = 0; k < FLOOD_GETS; k++) {
		double t;

		flood_round(fds, ARRAY_SIZE(fds), port, sent++, &remade);
		t = timed_get("127.0.0.1", port, FLOOD_GET_LIMIT_S);
		if (t >= 0)
			answered++;
		if (t > slowest)
			slowest = t;
	}
	printf("# flood: %zu connections made, %zu of them again after the server closed "
	       "them, in %.1f s\n", remade, remade - ARRAY_SIZE(fds),
	       monotonic_now() - t0);
	ok(remade > first, "flood: the server closed dribblers and they came back "
	   "(the flood is real)");
	is(answered, FLOOD_GETS, "flood: 200 dribblers from 25 addresses, 127.0.0.1 "
	   "answered %zu of %d times within %.0f s (slowest %.2f s)", answered,
	   FLOOD_GETS, FLOOD_GET_LIMIT_S, slowest);
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	httpd_stop(h);
	h = NULL;

	opts.root = root;
	opts.port = 0;
	opts.max_pending = opts.max_connections;
	is(httpd_start(&h, &opts), WW_EINPUT, "flood: a max_pending that leaves no "
	   "reserve is refused: %s", error_last());
	httpd_stop(h);
}

int main(void)
{
	char tmpl[] = "/tmp/t-httpd.XXXXXX";
	struct strbuf root = STRBUF_INIT, p = STRBUF_INIT, p2 = STRBUF_INIT;
	struct httpd_opts opts = HTTPD_OPTS_INIT;
	struct httpd *h = NULL, *h2 = NULL;
	struct resp r;
	char listen[64];
	bool beneath = have_openat2();

	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (!mkdtemp(tmpl)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	strbuf_addf(&root, "%s/site", tmpl);
	mkdir(root.buf, 0755);
	tmp_put(tmpl, "secret.txt", "SECRET outside the root\n");
	tmp_put(root.buf, "index.html", "<html>dashboard</html>\n");
	tmp_put(root.buf, "chart.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>\n");
	tmp_put(root.buf, "data.json", "{\"series\": 3}\n");
	tmp_put(root.buf, "console.log", "<script>alert(1)</script>\n");
	tmp_put(root.buf, ".hidden", "hidden\n");
	strbuf_addf(&p, "%s/sub", root.buf);
	mkdir(p.buf, 0755);
	tmp_put(p.buf, "index.html", "sub index\n");
	tmp_put(p.buf, "page.html", "sub page\n");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/empty", root.buf);
	mkdir(p.buf, 0755);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/link-out", root.buf);
	symlink("../secret.txt", p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/link-abs", root.buf);
	symlink("/etc/passwd", p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/dir-out", root.buf);
	symlink("/etc", p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/alias.html", root.buf);
	symlink("index.html", p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/fifo", root.buf);
	mkfifo(p.buf, 0644);

	opts.root = root.buf;
	opts.port = 0;
	is(httpd_start(&h, &opts), 0, "server starts on a free port");
	if (!h) {
		printf("Bail out! %s\n", error_last());
		return 1;
	}
	snprintf(base, sizeof(base), "http://127.0.0.1:%u", httpd_port(h));
	ok(httpd_port(h) > 0, "port %u bound", httpd_port(h));

	get(&r, "GET", "/");
	is(r.status, 200, "GET / is 200");
	ok(strstr(r.body.buf, "dashboard"), "  serves index.html");
	ok(has_header(&r, "Content-Type: text/html; charset=utf-8"), "  text/html");
	ok(has_header(&r, "X-Content-Type-Options: nosniff"), "  nosniff");
	ok(has_header(&r, "script-src 'none'"), "  CSP forbids scripts");
	resp_release(&r);

	get(&r, "GET", "/chart.svg");
	ok(r.status == 200 && has_header(&r, "Content-Type: image/svg+xml"), "SVG type");
	resp_release(&r);
	get(&r, "GET", "/data.json");
	ok(r.status == 200 && has_header(&r, "Content-Type: application/json"), "JSON type");
	resp_release(&r);
	get(&r, "GET", "/console.log");
	ok(r.status == 200 && has_header(&r, "Content-Type: text/plain"),
	   "console log is plain text, not HTML");
	resp_release(&r);
	get(&r, "HEAD", "/data.json");
	ok(r.status == 200 && !r.body.len && has_header(&r, "Content-Length: 14"),
	   "HEAD: length, no body");
	resp_release(&r);

	get(&r, "POST", "/");
	ok(r.status == 405 && has_header(&r, "Allow: GET, HEAD"), "POST refused with 405");
	resp_release(&r);
	expect("PUT", "/x.html", 405, NULL, "PUT refused");
	expect("DELETE", "/index.html", 405, NULL, "DELETE refused");

	expect("GET", "/../secret.txt", 400, NULL, "literal .. refused");
	expect("GET", "/sub/../../secret.txt", 400, NULL, "nested .. refused");
	expect("GET", "/%2e%2e/secret.txt", 400, NULL, "%2e%2e refused");
	expect("GET", "/%2E%2E/secret.txt", 400, NULL, "%2E%2E refused");
	expect("GET", "/sub/%2e%2e/%2e%2e/secret.txt", 400, NULL, "nested %2e%2e refused");
	expect("GET", "/..%2fsecret.txt", 400, NULL, "..%2f refused");
	expect("GET", "/%2e%2e%2fsecret.txt", 400, NULL, "%2e%2e%2f refused");
	expect("GET", "/.%2e/secret.txt", 400, NULL, ".%2e refused");
	expect("GET", "/./index.html", 400, NULL, "single dot refused");
	expect("GET", "/.hidden", 400, NULL, "hidden file refused");
	expect("GET", "/sub/..", 400, NULL, "trailing .. refused");
	expect("GET", "/%5c..%5csecret.txt", 400, NULL, "backslashes refused");
	expect("GET", "/link-out", 404, NULL, "relative symlink out of the root");
	expect("GET", "/link-abs", 404, NULL, "absolute symlink to /etc/passwd");
	expect("GET", "/dir-out/passwd", 404, NULL, "symlinked directory out of the root");
	expect("GET", "/dir-out/", 404, NULL, "symlinked directory listing");
	expect("GET", "/fifo", 404, NULL, "FIFO is not served (and does not hang)");
	expect("GET", "/nope.html", 404, NULL, "missing file");
	expect("GET", "/empty/", 404, NULL, "directory without index: no listing");
	if (beneath)
		expect("GET", "/alias.html", 200, "dashboard", "symlink inside the root is fine");
	else
		skip("no-openat2: all symlinks refused", "symlink inside the root is fine");

	get(&r, "GET", "/sub");
	ok(r.status == 301 && has_header(&r, "Location: /sub/"), "directory without / redirects");
	resp_release(&r);
	expect("GET", "/sub/", 200, "sub index", "directory serves its index.html");
	expect("GET", "//sub//page.html", 200, "sub page", "doubled slashes collapse");
	expect("GET", "/sub/page.html?x=../../secret.txt", 200, "sub page",
	       "query string ignored");
	expect("GET", "/index.html%00.png", 200, "dashboard", "%00 cannot smuggle a suffix");

	/* A generator that swaps the whole directory is picked up at once. */
	strbuf_addf(&p2, "%s/site.new", tmpl);
	mkdir(p2.buf, 0755);
	tmp_put(p2.buf, "index.html", "new dashboard\n");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/site.old", tmpl);
	rename(root.buf, p.buf);
	rename(p2.buf, root.buf);
	expect("GET", "/", 200, "new dashboard", "replaced root directory served");

	/* The same port twice: a clear error, not a crash. */
	opts.port = httpd_port(h);
	is(httpd_start(&h2, &opts), WW_ENET, "busy port gives WW_ENET");
	ok(strstr(error_last(), "cannot listen on 127.0.0.1:"), "  says where: %s",
	   error_last());

	httpd_stop(h);
	expect("GET", "/", -1, NULL, "stopped server does not answer");

	test_slow_clients(root.buf);
	test_flood(root.buf);

	snprintf(listen, sizeof(listen), "127.0.0.1:8080");
	opts = (struct httpd_opts)HTTPD_OPTS_INIT;
	is(httpd_parse_listen(&opts, listen), 0, "parse host:port");
	ok(!strcmp(opts.host, "127.0.0.1") && opts.port == 8080, "  values");
	snprintf(listen, sizeof(listen), "[::1]:9");
	is(httpd_parse_listen(&opts, listen), 0, "parse [v6]:port");
	ok(!strcmp(opts.host, "::1") && opts.port == 9, "  values");
	snprintf(listen, sizeof(listen), ":81");
	opts = (struct httpd_opts)HTTPD_OPTS_INIT;
	is(httpd_parse_listen(&opts, listen), 0, "parse :port");
	ok(!strcmp(opts.host, "127.0.0.1") && opts.port == 81, "  host stays default");
	snprintf(listen, sizeof(listen), "::1:80");
	is(httpd_parse_listen(&opts, listen), WW_EINPUT, "bare v6 with port refused");
	snprintf(listen, sizeof(listen), "1.2.3.4:99999");
	is(httpd_parse_listen(&opts, listen), WW_EINPUT, "port out of range");
	snprintf(listen, sizeof(listen), "localhost:80");
	opts = (struct httpd_opts)HTTPD_OPTS_INIT;
	httpd_parse_listen(&opts, listen);
	opts.root = root.buf;
	is(httpd_start(&h2, &opts), WW_EINPUT, "host names refused: numeric addresses only");

	is_str(httpd_content_type("a/b.svg"), "image/svg+xml", "type of .svg");
	is_str(httpd_content_type("x.bin"), "application/octet-stream", "unknown type");

	tmp_remove(tmpl);
	strbuf_release(&root);
	strbuf_release(&p);
	strbuf_release(&p2);
	curl_global_cleanup();
	return done_testing();
}
