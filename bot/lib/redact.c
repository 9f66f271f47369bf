/*
 * Secrets out of text on its way out (redact.h): one pass over the text,
 * URLs redacted where they stand, libpq's password keywords elsewhere.
 */
#include "redact.h"

#include <ctype.h>

/* Query parameters whose value is a secret (compared ignoring case). */
static const char *const query_secrets[] = {
	"password", "passwd", "pwd", "pass", "sslpassword", "secret", "token",
	"access_token", "auth", "key", "apikey", "api_key", NULL,
};

/* libpq's keywords whose value is a secret, in a keyword/value string. */
static const char *const conninfo_secrets[] = { "password", "sslpassword", NULL };

static bool is_scheme_char(char c)
{
	return isalnum((unsigned char)c) || c == '+' || c == '-' || c == '.';
}

/* Where a URL's authority (and the URL) can no longer go on. */
static bool ends_url(char c)
{
	return !c || isspace((unsigned char)c) || iscntrl((unsigned char)c) ||
	       c == '"' || c == '<' || c == '>';
}

static bool ends_authority(char c)
{
	return ends_url(c) || c == '/' || c == '?' || c == '#';
}

/* A query value ends here (and at the URL's end). */
static bool ends_value(char c)
{
	return ends_url(c) || c == '&' || c == ';' || c == '#' || c == '\'';
}

static bool in_list(const char *const *list, const char *s, size_t n)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == n && !strncasecmp(list[i], s, n))
			return true;
	return false;
}

/* The length of a scheme and "://" at `p`, or 0 when no URL starts there. */
static size_t url_start(const char *text, const char *p)
{
	const char *q = p;

	if (!isalpha((unsigned char)*p) || (p > text && is_scheme_char(p[-1])))
		return 0;
	while (is_scheme_char(*q))
		q++;
	return starts_with(q, "://") ? (size_t)(q + 3 - p) : 0;
}

/* The authority from `p`: "user:password@" redacted, the host kept. */
static const char *add_authority(struct strbuf *out, const char *p, unsigned flags)
{
	const char *end = p, *at = NULL, *colon;

	while (!ends_authority(*end)) {
		if (*end == '@')
			at = end;
		end++;
	}
	if (!at) {
		strbuf_add(out, p, end - p);
		return end;
	}
	colon = memchr(p, ':', at - p);
	if (flags & REDACT_LINK) {
		/* nothing of the userinfo */
	} else if (colon) {
		strbuf_add(out, p, colon + 1 - p);
		strbuf_addstr(out, REDACTED "@");
	} else {
		strbuf_add(out, p, at + 1 - p);
	}
	strbuf_add(out, at + 1, end - at - 1);
	return end;
}

/*
 * The path, query and fragment from `p`: secret parameters redacted.  A
 * URL that starts inside it ("?next=https://u:pw@host", or two quoted
 * URLs with nothing between) ends it: it is redacted on its own.
 */
static const char *add_rest(struct strbuf *out, const char *text, const char *p)
{
	bool query = false;

	while (!ends_url(*p) && !url_start(text, p)) {
		const char *key = p + 1, *eq;

		strbuf_addch(out, *p);
		if (*p == '#')
			query = false;
		else if (*p == '?' || (query && (*p == '&' || *p == ';')))
			query = true;
		else {
			p++;
			continue;
		}
		p++;
		if (!query)
			continue;
		for (eq = key; !ends_value(*eq) && *eq != '='; eq++)
			;
		if (*eq != '=' || !in_list(query_secrets, key, eq - key))
			continue;
		strbuf_add(out, key, eq + 1 - key);
		strbuf_addstr(out, REDACTED);
		for (p = eq + 1; !ends_value(*p); p++)
			;
	}
	return p;
}

/*
 * libpq's "password = 'it''s' ..." at `p` (a word starting there): the
 * end of the value, with "password=***" in `out`; NULL when `p` starts
 * no such keyword.
 */
static const char *add_keyword(struct strbuf *out, const char *text, const char *p)
{
	const char *q = p, *v;

	if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		return NULL;
	while (isalpha((unsigned char)*q))
		q++;
	if (!in_list(conninfo_secrets, p, q - p))
		return NULL;
	v = q;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v != '=')
		return NULL;
	v++;
	while (*v == ' ' || *v == '\t')
		v++;
	strbuf_add(out, p, q - p);
	strbuf_addstr(out, "=" REDACTED);
	if (*v == '\'') {
		/* libpq: a quoted value, '\' escaping the next byte */
		for (v++; *v && *v != '\''; v++)
			if (*v == '\\' && v[1])
				v++;
		return *v ? v + 1 : v;
	}
	while (*v && !isspace((unsigned char)*v))
		v++;
	return v;
}

void redact_add(struct strbuf *out, const char *text, unsigned flags)
{
	const char *p = text;

	while (*p) {
		size_t n = url_start(text, p);
		const char *end;

		if (n) {
			strbuf_add(out, p, n);
			p = add_rest(out, text, add_authority(out, p + n, flags));
		} else if ((end = add_keyword(out, text, p))) {
			p = end;
		} else {
			strbuf_addch(out, *p++);
		}
	}
}

char *redact(const char *text, unsigned flags)
{
	struct strbuf sb = STRBUF_INIT;

	redact_add(&sb, text, flags);
	return strbuf_detach(&sb, NULL);
}

bool redact_needed(const char *text)
{
	char *r;
	bool changed;

	/* No URL and no keyword: the common case, without a copy. */
	if (!strstr(text, "://") && !strcasestr(text, "password"))
		return false;
	r = redact(text, 0);
	changed = strcmp(r, text) != 0;
	free(r);
	return changed;
}
