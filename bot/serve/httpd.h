/*
 * The dashboard's HTTP server: a directory served read-only with
 * libmicrohttpd, in a thread of the service, on 127.0.0.1 by default.
 *
 * Only GET and HEAD; only regular files under the root (a directory means
 * its index.html; there are no listings).  Paths are checked twice: no
 * "." / ".." or hidden segment after percent-decoding, and the file is
 * opened with openat2(RESOLVE_BENEATH) so that no symlink can lead out of
 * the root (on kernels without openat2, symlinks are refused outright).
 * Responses say what they are (Content-Type from the extension, nosniff)
 * and forbid scripts (the pages show subjects written by strangers).
 *
 * Slow clients: each request head (request line and headers) must arrive
 * whole within head_timeout_s of the connection opening or of the previous
 * response, however steadily it trickles in; one address holds at most
 * max_per_ip of the max_connections; and at most max_pending connections
 * wait for their head at once: a new connection beyond that cuts the one
 * that has waited longest, so max_connections - max_pending stay in
 * reserve for clients that send a request, whatever number of addresses
 * the dribblers come from.  The server runs its own thread
 * (MHD_run_wait) so that it can cut the late ones between polls.  Facing
 * the internet it belongs behind a reverse proxy (docs/serve.md).
 */
#ifndef WW_HTTPD_H
#define WW_HTTPD_H

#include "ww.h"

#include <sys/stat.h>

struct httpd_opts {
	const char *root;	/* directory to serve */
	const char *host;	/* numeric address to bind, IPv4 or IPv6 */
	unsigned int port;	/* 0: any free port (see httpd_port) */
	unsigned int max_connections;
	unsigned int max_per_ip;	/* connections from one address */
	unsigned int max_pending;	/* waiting for their head; < max_connections */
	unsigned int timeout_s;		/* idle connection timeout */
	unsigned int head_timeout_s;	/* the whole request head, from its start */
};

#define HTTPD_DEFAULT_HOST "127.0.0.1"
#define HTTPD_DEFAULT_PORT 8025
#define HTTPD_OPTS_INIT { .host = HTTPD_DEFAULT_HOST, .port = HTTPD_DEFAULT_PORT, \
			.max_connections = 64, .max_per_ip = 8, .max_pending = 32, \
			.timeout_s = 30, .head_timeout_s = 10 }

struct httpd;

/* Start serving; `*out` is the caller's to httpd_stop().  The root need
 * not exist yet (requests get 404 until it does).  WW_ENET when the
 * address cannot be bound, WW_EINPUT when max_pending leaves no reserve. */
int httpd_start(struct httpd **out, const struct httpd_opts *opts);
/* The port actually bound. */
unsigned int httpd_port(const struct httpd *h);
/* Stop the server thread and free `h` (NULL is fine). */
void httpd_stop(struct httpd *h);

/*
 * Parse "HOST:PORT", "[V6]:PORT", "HOST" or ":PORT" into opts->host
 * (pointing into `buf`, which this rewrites) and opts->port.  WW_EINPUT
 * when malformed.
 */
int httpd_parse_listen(struct httpd_opts *opts, char *buf);

enum httpd_open_result {
	HTTPD_FILE = 0,		/* *out_fd is a regular file to send */
	HTTPD_REDIRECT = 1,	/* a directory named without its final '/' */
};

/*
 * Resolve decoded request path `url` under `root`: HTTPD_FILE with an
 * open descriptor (the caller closes it) and its stat, HTTPD_REDIRECT,
 * WW_EINPUT for a path we refuse to interpret ("..", hidden or control
 * characters), WW_ENOTFOUND for anything else that is not a regular file
 * under the root.  Exposed for the unit tests.
 */
int httpd_open(int *out_fd, struct stat *st, const char *root, const char *url);

/* Content-Type for a file name (by extension); never NULL. */
const char *httpd_content_type(const char *name);

#endif
