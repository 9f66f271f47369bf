/*
 * The last error message, set where a failure is detected and printed
 * once by the command that gave up.  One buffer per thread, as libgit2
 * keeps its git_error_last(): libmicrohttpd serves the dashboard on its
 * own thread (httpd.c), and a lookup failing there must neither
 * overwrite nor read half of the message the main thread is building.
 */
#include "ww.h"
#include "quote.h"

static _Thread_local char last[ERROR_MSG_MAX];

/*
 * A message names files, subjects and message-ids from a series; it is
 * printed, stored and shown on the dashboard as one line, so what it
 * quotes is escaped (quote.h) once, here.
 */
static void clean(char *msg, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(msg);

	if (!quote_needed(msg, len, 0))
		return;
	quote_c_style_n(&sb, msg, len, 0);
	snprintf(msg, size, "%s", sb.buf);
	strbuf_release(&sb);
}

static void store(const char *fmt, va_list ap)
{
	vsnprintf(last, sizeof(last), fmt, ap);
	clean(last, sizeof(last));
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	store(fmt, ap);
	va_end(ap);
	return WW_ERROR;
}

int error_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	store(fmt, ap);
	va_end(ap);
	return code;
}

int error_prefix(int code, const char *fmt, ...)
{
	char prefix[512], old[sizeof(last)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, last, sizeof(old));
	/* Truncation is fine: the message is for humans. */
	snprintf(last, sizeof(last), "%s", prefix);
	if (old[0]) {
		size_t n = strlen(last);

		snprintf(last + n, sizeof(last) - n, ": %.*s",
			 (int)(sizeof(last) - n), old);
	}
	clean(last, sizeof(last));
	return code;
}

const char *error_last(void)
{
	return last;
}

void error_clear(void)
{
	last[0] = '\0';
}

int error_state_capture(struct error_state *out, int code)
{
	out->code = code;
	if (last[0])
		memcpy(out->msg, last, sizeof(out->msg));
	else
		snprintf(out->msg, sizeof(out->msg),
			 "failed with no message (code %d)", code);
	error_clear();
	return code;
}

int error_state_restore(const struct error_state *st)
{
	memcpy(last, st->msg, sizeof(last));
	return st->code;
}

void warning(const char *fmt, ...)
{
	char msg[sizeof(last)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	clean(msg, sizeof(msg));
	fprintf(stderr, "warnwatch: warning: %s\n", msg);
}

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("warnwatch: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
