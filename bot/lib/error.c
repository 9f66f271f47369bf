/*
 * The last error message, set where a failure is detected and printed
 * once by the command that gave up.  One buffer per thread, as libgit2
 * keeps its git_error_last(): libmicrohttpd serves the dashboard on its
 * own thread (httpd.c), and a lookup failing there must neither
 * overwrite nor read half of the message the main thread is building.
 */
#include "ww.h"
#include "quote.h"
#include "redact.h"

static _Thread_local char last[ERROR_MSG_MAX];

/*
 * A message names files, subjects and message-ids from a series; it is
 * printed, stored and shown on the dashboard as one line, so what it
 * quotes is escaped (quote.h) once, here.  It also names URLs from the
 * configuration, and quotes libcurl, libgit2, libpq and b4, which echo
 * them: their passwords are redacted (redact.h) once, here, first, on
 * the text before it is cut to size -- a password cut short of its '@'
 * would no longer look like one.
 */
static void clean_into(char *msg, size_t size, const char *whole)
{
	struct strbuf cut = STRBUF_INIT, red = STRBUF_INIT, quoted = STRBUF_INIT;
	const char *text;

	/* Bounded work whatever a caller formats (a child's stderr): what
	 * the message keeps, and room for a URL that starts inside it. */
	strbuf_add(&cut, whole, strnlen(whole, 8 * size));
	text = cut.buf;
	if (redact_needed(text)) {
		redact_add(&red, text, 0);
		text = red.buf;
	}
	if (quote_needed(text, strlen(text), 0)) {
		quote_c_style_n(&quoted, text, strlen(text), 0);
		text = quoted.buf;
	}
	/* Truncation is fine: the message is for humans. */
	snprintf(msg, size, "%s", text);
	strbuf_release(&cut);
	strbuf_release(&red);
	strbuf_release(&quoted);
}

static void store(const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	clean_into(last, sizeof(last), sb.buf);
	strbuf_release(&sb);
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
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (last[0])
		strbuf_addf(&sb, ": %s", last);
	clean_into(last, sizeof(last), sb.buf);
	strbuf_release(&sb);
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
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	clean_into(msg, sizeof(msg), sb.buf);
	strbuf_release(&sb);
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
