/*
 * Serving the dashboard directory with libmicrohttpd.  The root is opened
 * again for every request, so a generator that replaces the directory
 * (write a new one, rename it over) is picked up at once.
 *
 * One thread of our own runs libmicrohttpd (MHD_run_wait) and, between
 * polls, cuts every connection whose request head is late: MHD's own
 * connection timeout only measures silence, so a client sending a byte
 * every few seconds would keep a connection for ever.  And when a new
 * connection comes while max_pending others are still sending their
 * heads, the oldest of those is cut at once: dribblers from any number
 * of addresses hold at most max_pending connections, so the rest of
 * max_connections stays free for clients that send a request (the
 * reserve for the pages; httpd.h).  All connection state below is
 * touched by that thread alone.
 */
#include "httpd.h"
#include "safefs.h"
#include "strbuf.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <unistd.h>

#define CSP "default-src 'self'; script-src 'none'; object-src 'none'; " \
	    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; " \
	    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/* One TCP connection (MHD's socket context), in struct httpd's list. */
struct httpd_conn {
	struct httpd_conn *prev, *next;
	struct MHD_Connection *conn;
	double head_since;	/* when the pending request head began; 0 once it is in */
	bool cut;		/* shut down for being late; MHD closes it */
};

struct httpd {
	struct MHD_Daemon *mhd;
	char *root;
	unsigned int port;
	unsigned int head_timeout_s;
	unsigned int max_pending;	/* connections still sending a head */
	pthread_t thread;
	atomic_bool stop;
	struct httpd_conn *conns;	/* every open connection */
};

static const struct {
	const char *ext;
	const char *type;
} types[] = {
	{ ".html", "text/html; charset=utf-8" },
	{ ".htm", "text/html; charset=utf-8" },
	{ ".css", "text/css; charset=utf-8" },
	{ ".svg", "image/svg+xml" },
	{ ".png", "image/png" },
	{ ".jpg", "image/jpeg" },
	{ ".ico", "image/x-icon" },
	{ ".json", "application/json" },
	/* Artifacts: mail, logs and drafts are shown, never downloaded or
	 * rendered as HTML. */
	{ ".txt", "text/plain; charset=utf-8" },
	{ ".log", "text/plain; charset=utf-8" },
	{ ".mbox", "text/plain; charset=utf-8" },
	{ ".mbx", "text/plain; charset=utf-8" },
	{ ".eml", "text/plain; charset=utf-8" },
	{ ".patch", "text/plain; charset=utf-8" },
	{ ".diff", "text/plain; charset=utf-8" },
};

const char *httpd_content_type(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (ends_with(name, types[i].ext))
			return types[i].type;
	return "application/octet-stream";
}

/*
 * Turn "/a/b/" into "a/b", refusing any segment we will not interpret.
 * MHD has already percent-decoded the path, so "%2e%2e" arrives as "..".
 */
static int clean_path(struct strbuf *out, const char *url)
{
	const char *p = url;

	if (*p != '/')
		return error_code(WW_EINPUT, "request path '%.100s' is not absolute", url);
	while (*p) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (!n)
			break;
		if (p[0] == '.')	/* ".", "..", and hidden files */
			return error_code(WW_EINPUT, "request path '%.100s' has a dot segment", url);
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f || p[i] == '\\')
				return error_code(WW_EINPUT, "request path has control characters");
		if (out->len)
			strbuf_addch(out, '/');
		strbuf_add(out, p, n);
		p += n;
	}
	if (!out->len)
		strbuf_addch(out, '.');
	return 0;
}

int httpd_open(int *out_fd, struct stat *st, const char *root, const char *url)
{
	struct strbuf rel = STRBUF_INIT;
	int rootfd = -1, fd = -1, ret;

	ret = clean_path(&rel, url);
	if (ret < 0)
		goto out;
	ret = error_code(WW_ENOTFOUND, "'%.100s' not found", url);
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		goto out;
	fd = safefs_openat(rootfd, rel.buf, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0 || fstat(fd, st) < 0)
		goto out;
	if (S_ISDIR(st->st_mode)) {
		int idx;

		if (!ends_with(url, "/")) {
			ret = HTTPD_REDIRECT;
			goto out;
		}
		idx = openat(fd, "index.html", O_RDONLY | O_CLOEXEC |
			     O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
		close(fd);
		fd = idx;
		if (fd < 0 || fstat(fd, st) < 0)
			goto out;
	}
	/* FIFOs, sockets and devices are not pages (and a FIFO would block). */
	if (!S_ISREG(st->st_mode))
		goto out;
	*out_fd = fd;
	fd = -1;
	ret = HTTPD_FILE;
out:
	if (fd >= 0)
		close(fd);
	if (rootfd >= 0)
		close(rootfd);
	strbuf_release(&rel);
	return ret;
}

static void add_common_headers(struct MHD_Response *r)
{
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Content-Security-Policy", CSP);
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(r, "Cache-Control", "no-cache");
}

static enum MHD_Result reply_text(struct MHD_Connection *conn,
				  unsigned int status, const char *text)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(strlen(text), (void *)text,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	add_common_headers(r);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* 301 to the same path with a final '/', escaped for the Location. */
static enum MHD_Result reply_redirect(struct MHD_Connection *conn,
				      const char *url)
{
	struct strbuf loc = STRBUF_INIT;
	struct MHD_Response *r;
	enum MHD_Result ret;

	for (const char *p = url; *p; p++) {
		unsigned char c = *p;

		if (c > 0x20 && c < 0x7f && !strchr("\"%<>?#\\^`{|}", c))
			strbuf_addch(&loc, c);
		else
			strbuf_addf(&loc, "%%%02X", c);
	}
	strbuf_addch(&loc, '/');
	r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	if (!r) {
		strbuf_release(&loc);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Location", loc.buf);
	add_common_headers(r);
	ret = MHD_queue_response(conn, MHD_HTTP_MOVED_PERMANENTLY, r);
	MHD_destroy_response(r);
	strbuf_release(&loc);
	return ret;
}

/* The connection's entry in struct httpd's list, or NULL. */
static struct httpd_conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return info ? info->socket_context : NULL;
}

/* The request head is in: no deadline until the response is done. */
static void head_arrived(struct MHD_Connection *conn)
{
	struct httpd_conn *c = conn_of(conn);

	if (c)
		c->head_since = 0;
}

/*
 * Shut the connection down; MHD sees the end of the stream at its next
 * poll and closes it as it would any client that went away.
 */
static void cut(struct httpd_conn *c)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c->conn, MHD_CONNECTION_INFO_CONNECTION_FD);

	if (info)
		shutdown(info->connect_fd, SHUT_RDWR);
	c->cut = true;
}

static bool pending(const struct httpd_conn *c)
{
	return !c->cut && c->head_since;
}

/*
 * A connection came: when more than max_pending are waiting for their
 * request head, the one waiting longest goes.  The newcomer is never the
 * one (it began last), so a client that sends its request at once is
 * answered however many others dribble, from however many addresses.
 */
static void cut_oldest_pending(struct httpd *h)
{
	struct httpd_conn *oldest = NULL;
	unsigned int n = 0;

	for (struct httpd_conn *c = h->conns; c; c = c->next) {
		if (!pending(c))
			continue;
		n++;
		if (!oldest || c->head_since <= oldest->head_since)
			oldest = c;
	}
	if (n > h->max_pending && oldest)
		cut(oldest);
}

/* MHD_OPTION_NOTIFY_CONNECTION: keep the list of open connections. */
static void on_connection(void *cls, struct MHD_Connection *conn,
			  void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct httpd *h = cls;
	struct httpd_conn *c = *socket_context;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		c = xcalloc(1, sizeof(*c));
		c->conn = conn;
		c->head_since = monotonic_now();
		c->next = h->conns;
		if (h->conns)
			h->conns->prev = c;
		h->conns = c;
		*socket_context = c;
		cut_oldest_pending(h);
		return;
	}
	if (!c)
		return;
	if (c->prev)
		c->prev->next = c->next;
	else
		h->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	free(c);
	*socket_context = NULL;
}

/* MHD_OPTION_NOTIFY_COMPLETED: a kept-alive connection's next head is due. */
static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct httpd_conn *c = conn_of(conn);

	if (c)
		c->head_since = monotonic_now();
}

/* Cut every connection whose head is later than the deadline. */
static void cut_late_heads(struct httpd *h)
{
	double now = monotonic_now();

	for (struct httpd_conn *c = h->conns; c; c = c->next)
		if (pending(c) && now - c->head_since >= h->head_timeout_s)
			cut(c);
}

/* The server thread: MHD's work, and the deadline at least every 250 ms. */
static void *serve_thread(void *arg)
{
	struct httpd *h = arg;

	while (!atomic_load(&h->stop)) {
		if (MHD_run_wait(h->mhd, 250) != MHD_YES)
			usleep(10 * 1000);	/* never a busy loop */
		cut_late_heads(h);
	}
	return NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
				  const char *url, const char *method,
				  const char *version, const char *upload_data,
				  size_t *upload_data_size, void **con_cls)
{
	struct httpd *h = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	struct stat st = { 0 };
	const char *name;
	int fd = -1, rc;

	head_arrived(conn);
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "read-only: GET and HEAD only\n");
	/* A GET has no body; do not wait for one. */
	if (*upload_data_size)
		return reply_text(conn, MHD_HTTP_BAD_REQUEST, "unexpected body\n");

	rc = httpd_open(&fd, &st, h->root, url);
	if (rc == WW_EINPUT)
		return reply_text(conn, MHD_HTTP_BAD_REQUEST, "bad path\n");
	if (rc == HTTPD_REDIRECT)
		return reply_redirect(conn, url);
	if (rc < 0)
		return reply_text(conn, MHD_HTTP_NOT_FOUND, "not found\n");

	r = MHD_create_response_from_fd64(st.st_size, fd);
	if (!r) {
		close(fd);
		return MHD_NO;
	}
	name = ends_with(url, "/") ? "index.html" : url;
	MHD_add_response_header(r, "Content-Type", httpd_content_type(name));
	add_common_headers(r);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);	/* MHD closes fd with the response */
	return ret;
}

static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
	/* MHD reports client misbehaviour here; it is not ours to print. */
}

static int make_addr(struct sockaddr_storage *ss, const char *host,
		     unsigned int port, bool *v6)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(port);
		*v6 = false;
		return 0;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		*v6 = true;
		return 0;
	}
	return error_code(WW_EINPUT, "'%s' is not a numeric IPv4 or IPv6 address",
			  host);
}

int httpd_start(struct httpd **out, const struct httpd_opts *opts)
{
	struct sockaddr_storage ss;
	const union MHD_DaemonInfo *info;
	struct httpd *h;
	/* epoll: unlike poll, it works with a loop of our own (serve_thread) */
	unsigned int flags = MHD_USE_EPOLL;
	bool v6 = false;
	int ret;

	if (opts->port > 65535)
		return error_code(WW_EINPUT, "port %u out of range", opts->port);
	/* Without room beside the dribblers there is no reserve. */
	if (opts->max_pending >= opts->max_connections)
		return error_code(WW_EINPUT, "max_pending %u leaves nothing of the %u "
				  "connections in reserve", opts->max_pending,
				  opts->max_connections);
	ret = make_addr(&ss, opts->host, opts->port, &v6);
	if (ret < 0)
		return ret;
	if (v6)
		flags |= MHD_USE_IPv6;
	h = xcalloc(1, sizeof(*h));
	h->root = xstrdup(opts->root);
	h->head_timeout_s = opts->head_timeout_s;
	h->max_pending = opts->max_pending ? opts->max_pending : 1;
	atomic_init(&h->stop, false);
	h->mhd = MHD_start_daemon(flags, (uint16_t)opts->port, NULL, NULL,
				  on_request, h,
				  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				  MHD_OPTION_CONNECTION_LIMIT, opts->max_connections,
				  MHD_OPTION_PER_IP_CONNECTION_LIMIT,
				  opts->max_per_ip ? opts->max_per_ip : 1,
				  MHD_OPTION_CONNECTION_TIMEOUT, opts->timeout_s,
				  MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
				  MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 << 10),
				  MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, NULL,
				  MHD_OPTION_END);
	if (!h->mhd) {
		ret = error_code(WW_ENET, "cannot listen on %s%s%s:%u: %s",
				 v6 ? "[" : "", opts->host, v6 ? "]" : "",
				 opts->port, strerror(errno));
		free(h->root);
		free(h);
		return ret;
	}
	info = MHD_get_daemon_info(h->mhd, MHD_DAEMON_INFO_BIND_PORT);
	h->port = info ? info->port : opts->port;
	errno = pthread_create(&h->thread, NULL, serve_thread, h);
	if (errno) {
		ret = error_code(WW_ENET, "cannot start the server thread: %s",
				 strerror(errno));
		MHD_stop_daemon(h->mhd);
		free(h->root);
		free(h);
		return ret;
	}
	*out = h;
	return 0;
}

unsigned int httpd_port(const struct httpd *h)
{
	return h->port;
}

void httpd_stop(struct httpd *h)
{
	if (!h)
		return;
	atomic_store(&h->stop, true);
	pthread_join(h->thread, NULL);
	MHD_stop_daemon(h->mhd);	/* closes the rest, each through on_connection() */
	while (h->conns) {		/* in case it did not */
		struct httpd_conn *c = h->conns;

		h->conns = c->next;
		free(c);
	}
	free(h->root);
	free(h);
}

int httpd_parse_listen(struct httpd_opts *opts, char *buf)
{
	char *port = NULL, *end;
	unsigned long n;

	if (buf[0] == '[') {
		char *close_br = strchr(buf, ']');

		if (!close_br || (close_br[1] && close_br[1] != ':'))
			return error_code(WW_EINPUT, "bad address '%s'", buf);
		*close_br = '\0';
		opts->host = buf + 1;
		if (close_br[1] == ':')
			port = close_br + 2;
	} else {
		char *colon = strrchr(buf, ':');

		if (colon && strchr(buf, ':') != colon)
			return error_code(WW_EINPUT,
					  "bad address '%s' (write IPv6 as [addr]:port)", buf);
		if (colon) {
			*colon = '\0';
			port = colon + 1;
		}
		if (*buf)
			opts->host = buf;
	}
	if (!port)
		return 0;
	errno = 0;
	n = strtoul(port, &end, 10);
	if (!*port || *end || errno || n > 65535)
		return error_code(WW_EINPUT, "bad port '%s'", port);
	opts->port = (unsigned int)n;
	return 0;
}
