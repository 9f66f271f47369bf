/*
 * Message-id validation: see msgid.h for the policy and why.
 */
#include "msgid.h"

#include <ctype.h>

/* RFC 5322 atext minus '#', '%', '&', '?', '`', '"', '\'' (URLs, shells,
 * quoting) plus '.', '@' and '/' (gmail and some list servers use it;
 * segments are checked separately). */
static bool msgid_char(unsigned char c)
{
	if (isalnum(c))
		return true;
	return c && strchr(".-_+=!$*^~{}|@/", c);
}

static const char *check(const char *id)
{
	size_t len = strlen(id);
	const char *at, *seg;

	if (!len)
		return "empty message-id";
	if (len > MSGID_MAX)
		return "message-id too long";
	if (id[0] == '-')
		return "message-id starts with '-'";
	for (const char *p = id; *p; p++)
		if (!msgid_char((unsigned char)*p))
			return "message-id has a character outside the allowed set";
	at = strchr(id, '@');
	if (!at || strchr(at + 1, '@'))
		return "message-id needs exactly one '@'";
	if (at == id || !at[1])
		return "message-id needs text on both sides of '@'";
	/* Every '/'-separated segment must be a name, not a path step. */
	seg = id;
	for (;;) {
		size_t n = strcspn(seg, "/");

		if (!n || (n == 1 && seg[0] == '.') ||
		    (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return "message-id has an empty, '.' or '..' path segment";
		if (!seg[n])
			break;
		seg += n + 1;
	}
	return NULL;
}

bool msgid_valid(const char *id)
{
	return !check(id);
}

int msgid_normalize(struct strbuf *out, const char *in)
{
	const char *why, *p;
	size_t len;

	strbuf_reset(out);
	if (strlen(in) > 4 * MSGID_MAX)
		return error_code(WW_EINPUT, "message-id too long");
	strbuf_addstr(out, in);
	strbuf_trim(out);
	if (skip_prefix(out->buf, "id:", &p) || skip_prefix(out->buf, "mid:", &p)) {
		memmove(out->buf, p, strlen(p) + 1);
		out->len = strlen(out->buf);
	}
	len = out->len;
	if (len >= 2 && out->buf[0] == '<' && out->buf[len - 1] == '>') {
		memmove(out->buf, out->buf + 1, len - 2);
		strbuf_setlen(out, len - 2);
	}
	why = check(out->buf);
	if (why) {
		strbuf_reset(out);
		return error_code(WW_EINPUT, "%s", why);
	}
	return 0;
}

void msgid_quote(struct strbuf *out, const char *in)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		if (n++ >= 80) {
			strbuf_addstr(out, "...");
			break;
		}
		if (*p < 0x20 || *p >= 0x7f || *p == '\\')
			strbuf_addf(out, "\\x%02x", *p);
		else
			strbuf_addch(out, *p);
	}
}
