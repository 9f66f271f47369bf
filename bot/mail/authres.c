/*
 * Authentication-Results as the trusted MTA wrote them (authres.h).
 */
#include "authres.h"
#include "mbox.h"

#include <ctype.h>

enum tok_kind { TOK_END, TOK_WORD, TOK_SEMI, TOK_EQ };

struct tok {
	enum tok_kind kind;
	struct strbuf text;	/* TOK_WORD: the word or the quoted string */
};

struct lexer {
	const char *p, *end;
};

/* A comment, nested, with quoted pairs: skipped. */
static void skip_comment(struct lexer *lx)
{
	int depth = 0;

	for (; lx->p < lx->end; lx->p++) {
		if (*lx->p == '\\' && lx->p + 1 < lx->end)
			lx->p++;
		else if (*lx->p == '(')
			depth++;
		else if (*lx->p == ')' && !--depth) {
			lx->p++;
			return;
		}
	}
}

static void next(struct tok *t, struct lexer *lx)
{
	strbuf_reset(&t->text);
	for (;;) {
		while (lx->p < lx->end && isspace((unsigned char)*lx->p))
			lx->p++;
		if (lx->p < lx->end && *lx->p == '(')
			skip_comment(lx);
		else
			break;
	}
	if (lx->p >= lx->end) {
		t->kind = TOK_END;
		return;
	}
	if (*lx->p == ';' || *lx->p == '=') {
		t->kind = *lx->p++ == ';' ? TOK_SEMI : TOK_EQ;
		return;
	}
	t->kind = TOK_WORD;
	if (*lx->p == '"') {
		for (lx->p++; lx->p < lx->end && *lx->p != '"'; lx->p++) {
			if (*lx->p == '\\' && lx->p + 1 < lx->end)
				lx->p++;
			strbuf_addch(&t->text, *lx->p);
		}
		if (lx->p < lx->end)
			lx->p++;
		return;
	}
	while (lx->p < lx->end && !isspace((unsigned char)*lx->p) &&
	       !strchr(";=\"()", *lx->p))
		strbuf_addch(&t->text, *lx->p++);
}

bool authres_aligned(const char *domain, const char *signer)
{
	size_t d = strlen(domain), s = strlen(signer);

	if (!s || !strchr(signer, '.') || s > d)
		return false;
	if (strcasecmp(domain + d - s, signer))
		return false;
	return d == s || domain[d - s - 1] == '.';
}

/* One resinfo's method, result and the properties we read. */
struct resinfo {
	struct strbuf method, result, d, i, from;
};

static void resinfo_reset(struct resinfo *r)
{
	strbuf_reset(&r->method);
	strbuf_reset(&r->result);
	strbuf_reset(&r->d);
	strbuf_reset(&r->i);
	strbuf_reset(&r->from);
}

/* Whether resinfo `r` passes for `domain`; says so in `why`. */
static bool passes(struct strbuf *why, const struct resinfo *r, const char *domain,
		   const char *id)
{
	const char *at = strrchr(r->i.buf, '@');
	const char *signer = r->d.len ? r->d.buf : at ? at + 1 : "";

	if (strcasecmp(r->result.buf, "pass"))
		return false;
	if (!strcasecmp(r->method.buf, "dkim") && authres_aligned(domain, signer)) {
		strbuf_addf(why, "dkim=pass header.d=%s by %s", signer, id);
		return true;
	}
	if (!strcasecmp(r->method.buf, "dmarc") && !strcasecmp(r->from.buf, domain)) {
		strbuf_addf(why, "dmarc=pass header.from=%s by %s", r->from.buf, id);
		return true;
	}
	return false;
}

/*
 * Header value `v` (of ARC-Authentication-Results when `arc`): -1 when
 * it is not `id`'s, else whether a result passes for `domain`.
 */
static int read_value(struct strbuf *why, const char *v, bool arc, const char *id,
		      const char *domain)
{
	struct lexer lx = { v, v + strlen(v) };
	struct tok t = { TOK_END, STRBUF_INIT };
	struct resinfo r = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
			     STRBUF_INIT };
	struct strbuf key = STRBUF_INIT;
	int ret = -1;

	next(&t, &lx);
	if (arc) {
		/* "i=1;" first */
		while (t.kind != TOK_SEMI && t.kind != TOK_END)
			next(&t, &lx);
		next(&t, &lx);
	}
	if (t.kind != TOK_WORD || strcasecmp(t.text.buf, id))
		goto out;
	ret = 0;
	while (t.kind != TOK_SEMI && t.kind != TOK_END)
		next(&t, &lx);
	while (t.kind == TOK_SEMI && !ret) {
		resinfo_reset(&r);
		next(&t, &lx);
		/* key = value pairs up to the next ';' */
		while (t.kind == TOK_WORD) {
			strbuf_reset(&key);
			strbuf_addbuf(&key, &t.text);
			next(&t, &lx);
			if (t.kind != TOK_EQ)
				continue;
			next(&t, &lx);
			if (t.kind != TOK_WORD)
				continue;
			if (!r.method.len) {
				strbuf_add(&r.method, key.buf, strcspn(key.buf, "/"));
				strbuf_addbuf(&r.result, &t.text);
			} else if (!strcasecmp(key.buf, "header.d")) {
				strbuf_addbuf(&r.d, &t.text);
			} else if (!strcasecmp(key.buf, "header.i")) {
				strbuf_addbuf(&r.i, &t.text);
			} else if (!strcasecmp(key.buf, "header.from")) {
				strbuf_addbuf(&r.from, &t.text);
			}
			next(&t, &lx);
		}
		ret = passes(why, &r, domain, id);
		while (t.kind != TOK_SEMI && t.kind != TOK_END)
			next(&t, &lx);
	}
out:
	strbuf_release(&t.text);
	strbuf_release(&key);
	strbuf_release(&r.method);
	strbuf_release(&r.result);
	strbuf_release(&r.d);
	strbuf_release(&r.i);
	strbuf_release(&r.from);
	return ret;
}

enum authres_result authres_check(struct strbuf *why, const char *headers,
				  size_t len, const char *authserv_id,
				  const char *domain)
{
	static const char *const names[] = {
		"Authentication-Results", "ARC-Authentication-Results",
	};
	struct strbuf v = STRBUF_INIT;
	int ret = -1;

	for (size_t n = 0; ret < 0 && n < ARRAY_SIZE(names); n++) {
		for (size_t i = 0; ret < 0; i++) {
			strbuf_reset(&v);
			if (mail_header_nth(&v, headers, len, names[n], i))
				break;
			if (v.len > AUTHRES_MAX_VALUE)
				continue;
			ret = read_value(why, v.buf, n == 1, authserv_id, domain);
		}
	}
	strbuf_release(&v);
	if (ret < 0) {
		strbuf_addf(why, "no Authentication-Results by %s", authserv_id);
		return AUTHRES_NONE;
	}
	if (!ret)
		strbuf_addf(why, "no DKIM or DMARC pass for %s by %s", domain,
			    authserv_id);
	return ret ? AUTHRES_PASS : AUTHRES_FAIL;
}
