/*
 * What people say back (feedback.h): reading a thread for keywords and
 * the lines humans quoted, deciding whose words count, and the
 * suppressions they make in the store.
 */
#include "feedback.h"
#include "authres.h"
#include "mailhdr.h"
#include "jsonval.h"
#include "msgid.h"
#include "reply-headers.h"

#include <ctype.h>
#include <errno.h>
#include <sys/random.h>

void feedback_norm(struct strbuf *out, const char *line, size_t len)
{
	const char *end = line + len;
	bool blank = false;
	size_t start = out->len;

	while (line < end && isspace((unsigned char)*line))
		line++;
	if (line < end && *line == '+')
		line++;
	for (; line < end; line++) {
		if (isspace((unsigned char)*line)) {
			blank = true;
			continue;
		}
		if (blank && out->len > start)
			strbuf_addch(out, ' ');
		blank = false;
		strbuf_addch(out, *line);
	}
}

bool feedback_quoted(const struct strvec *quoted, const char *line)
{
	for (size_t i = 0; *line && i < quoted->nr; i++)
		if (!strcmp(quoted->v[i], line))
			return true;
	return false;
}

/* How deep line `l` is quoted ("> > +x": 2), and where its text starts. */
static int quote_depth(const char **text, const char *l, const char *end)
{
	int depth = 0;

	while (l < end && (*l == '>' || (depth && *l == ' ' && l + 1 < end && l[1] == '>'))) {
		if (*l == '>')
			depth++;
		l++;
	}
	if (depth && l < end && *l == ' ' && l + 1 < end && l[1] == '+')
		l++;
	*text = l;
	return depth;
}

/* A word of `w` in `s` (case ignored), not inside another word. */
static bool has_word(const char *s, size_t len, const char *w)
{
	size_t n = strlen(w);

	for (size_t i = 0; i + n <= len; i++) {
		if (strncasecmp(s + i, w, n))
			continue;
		if ((!i || !isalnum((unsigned char)s[i - 1])) &&
		    (i + n == len || !isalnum((unsigned char)s[i + n])))
			return true;
	}
	return false;
}


#define DAY (24 * 3600)

/* The text of line `l` without spacing around it. */
static void trim(const char **l, size_t *len)
{
	while (*len && isspace((unsigned char)**l))
		(*l)++, (*len)--;
	while (*len && isspace((unsigned char)(*l)[*len - 1]))
		(*len)--;
}

/* Whether `l` starts with keyword `kw` (case ignored); `rest` after it. */
static bool keyword_at(const char **rest, const char *l, size_t len, const char *kw)
{
	size_t n = strlen(kw);

	if (len < n || strncasecmp(l, kw, n) ||
	    (len > n && !isspace((unsigned char)l[n])))
		return false;
	*rest = l + n;
	return true;
}

/* A `warnwatch: wrong` line's scope word, or -1 when the line is not one. */
static int wrong_scope(const char *rest, const char *end)
{
	static const char *const names[] = { "family", "author", "list" };
	size_t n;

	while (rest < end && isspace((unsigned char)*rest))
		rest++;
	if (rest == end)
		return FEEDBACK_FAMILY;
	n = end - rest;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (n == strlen(names[i]) && !strncasecmp(rest, names[i], n))
			return (int)i;
	return -1;
}

/* A confirmation token: FEEDBACK_TOKEN_HEX lower-case hex digits. */
static bool token_ok(const char *t, size_t n)
{
	if (n != FEEDBACK_TOKEN_HEX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)t[i]))
			return false;
	return true;
}

/* One mail's reading, before it becomes events. */
struct reading {
	const struct mail *m;
	const char *sender;
	const char *about;		/* warnwatch's mail it answers, or NULL */
	struct strbuf own;		/* its own text (not quoted) */
	struct strvec quoted_ours;	/* added lines it quotes of warnwatch's mail */
	bool wrong;			/* it has a `warnwatch: wrong` line */
};

static struct feedback_event *add(struct feedback *fb, enum feedback_kind kind,
				  const struct reading *r, const char *line, size_t len)
{
	struct feedback_event *e;
	struct strbuf sb = STRBUF_INIT;

	ALLOC_GROW(fb->v, fb->nr + 1, fb->alloc);
	e = &fb->v[fb->nr++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->sender = xstrdup(r->sender);
	e->message_id = xstrdup(r->m->message_id);
	e->about = xstrdup(r->about);
	strbuf_add(&sb, line, len);
	e->line = xstrdup(sb.buf);
	strbuf_reset(&sb);
	mailhdr_clean(&sb, e->line, MAILHDR_MAX_TEXT);
	free(e->line);
	e->line = strbuf_detach(&sb, NULL);
	strvec_init(&e->quoted);
	return e;
}

/* The mail warnwatch sent that `m` answers: its In-Reply-To, else the
 * nearest of its References.  NULL: none of ours. */
static const char *answered(const struct mail *m, const struct feedback_scan_opts *o,
			    struct strbuf *buf)
{
	const char *p = m->references, *best = NULL;
	size_t n = 0;

	if (*m->in_reply_to && o->ours(o->data, m->in_reply_to))
		return m->in_reply_to;
	/* The last of ours in References is the nearest; bounded. */
	while (p && (p = strchr(p, '<')) && n++ < 128) {
		const char *e = strchr(p, '>');

		if (!e)
			break;
		strbuf_reset(buf);
		strbuf_add(buf, p + 1, e - p - 1);
		if (buf->len && o->ours(o->data, buf->buf))
			best = p + 1;
		p = e + 1;
	}
	if (!best)
		return NULL;
	strbuf_reset(buf);
	strbuf_add(buf, best, strcspn(best, ">"));
	return buf->buf;
}

/* A keyword on a line of the mail's own text (or a confirm anywhere). */
static void read_line(struct feedback *out, struct reading *r, const char *l,
		      size_t len, int depth)
{
	const char *rest;
	struct feedback_event *e;
	int scope;

	trim(&l, &len);
	if (!r->about || !len)
		return;
	if (keyword_at(&rest, l, len, FEEDBACK_CONFIRM_KW)) {
		size_t n;

		while (rest < l + len && isspace((unsigned char)*rest))
			rest++;
		n = l + len - rest;
		if (token_ok(rest, n)) {
			e = add(out, FEEDBACK_CONFIRM, r, l, len);
			e->token = xstrndup(rest, n);
			for (char *c = e->token; *c; c++)
				*c = tolower((unsigned char)*c);
		}
		return;
	}
	if (depth)
		return;
	if (len == strlen(FEEDBACK_MUTE) && keyword_at(&rest, l, len, FEEDBACK_MUTE)) {
		add(out, FEEDBACK_MUTE_THREAD, r, l, len);
	} else if (len == strlen(FEEDBACK_MUTE_ME) &&
		   keyword_at(&rest, l, len, FEEDBACK_MUTE_ME)) {
		add(out, FEEDBACK_MUTE_SENDER, r, l, len);
	} else if (keyword_at(&rest, l, len, FEEDBACK_WRONG) &&
		   (scope = wrong_scope(rest, l + len)) >= 0) {
		e = add(out, FEEDBACK_CALLED_WRONG, r, l, len);
		e->scope = scope;
		r->wrong = true;
	}
}

/* Free text in a reply to warnwatch that reads like "you are wrong":
 * discussion, said in the log, never a keyword. */
static void discussion(struct feedback *out, const struct reading *r)
{
	static const char *const words[] = { "wrong", "false positive", "NAK" };

	if (!r->about || r->wrong)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (has_word(r->own.buf, r->own.len, words[i])) {
			add(out, FEEDBACK_DISCUSSION, r, words[i], strlen(words[i]));
			return;
		}
}

/* Whether the sender of `m` is believed (feedback_event.untrusted/trust). */
static void identity(struct feedback *out, size_t first, const struct mail *m,
		     const char *sender, const struct feedback_scan_opts *o)
{
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	char *untrusted = NULL, *trust = NULL;

	mail_addr_parse(&from, m->from_raw);
	if (!mail_header_nth(&sb, m->headers, m->headers_len, "From", 1)) {
		strbuf_reset(&sb);
		untrusted = xstrdup("the mail has two From: headers");
	} else if (from.nr != 1) {
		strbuf_addf(&why, "its From: names %zu mailboxes", from.nr);
		untrusted = strbuf_detach(&why, NULL);
	} else if (o->authserv_id) {
		const char *at = strrchr(sender, '@');

		if (authres_check(&sb, m->headers, m->headers_len, o->authserv_id,
				  at ? at + 1 : "") == AUTHRES_PASS) {
			trust = strbuf_detach(&sb, NULL);
		} else {
			strbuf_addf(&why, "its From: is not verified (%s)", sb.buf);
			untrusted = strbuf_detach(&why, NULL);
		}
	} else {
		trust = xstrdup("From: as archived");
	}
	for (size_t i = first; i < out->nr; i++) {
		out->v[i].untrusted = untrusted ? xstrdup(untrusted) : NULL;
		out->v[i].trust = trust ? xstrdup(trust) : NULL;
	}
	free(untrusted);
	free(trust);
	strbuf_release(&sb);
	strbuf_release(&why);
	mail_addr_list_clear(&from);
}

/*
 * A line of a human's own words: not blank, not a trailer ("Reviewed-by:
 * ..." under a whole quoted patch says nothing about any one call).
 */
static bool own_words(const char *l, size_t len)
{
	size_t n;

	trim(&l, &len);
	if (!len)
		return false;
	n = strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-");
	return !(n > 3 && n < len && l[n] == ':' && !strncasecmp(l + n - 3, "-by", 3));
}

/*
 * The human's own words under quoted lines `near` (the last
 * FEEDBACK_QUOTE_NEAR quoted lines, "" for one that is not an added
 * line): each added line among them is a point made about that call,
 * and a question when the words ask one.
 */
static void words_under(struct feedback *out, struct strvec *near, const char *l,
			size_t len)
{
	bool asks = memchr(l, '?', len) != NULL;

	for (size_t i = 0; i < near->nr; i++) {
		if (!*near->v[i])
			continue;
		if (!feedback_quoted(&out->human_quoted, near->v[i]))
			strvec_push(&out->human_quoted, near->v[i]);
		if (asks && !feedback_quoted(&out->human_asked, near->v[i]))
			strvec_push(&out->human_asked, near->v[i]);
	}
	strvec_clear(near);
}

/* Quoted line `l` ("" when not an added line): only the last
 * FEEDBACK_QUOTE_NEAR are "right above" the words that follow. */
static void near_push(struct strvec *near, const char *l)
{
	struct strvec kept = STRVEC_INIT;

	if (near->nr < FEEDBACK_QUOTE_NEAR) {
		strvec_push(near, l);
		return;
	}
	for (size_t i = 1; i < near->nr; i++)
		strvec_push(&kept, near->v[i]);
	strvec_push(&kept, l);
	strvec_clear(near);
	*near = kept;
}

static void read_mail(struct feedback *out, const struct mail *m, const char *sender,
		      const struct feedback_scan_opts *o)
{
	struct reading r = { m, sender, NULL, STRBUF_INIT, STRVEC_INIT, false };
	struct strbuf sb = STRBUF_INIT, ids = STRBUF_INIT;
	struct strvec near = STRVEC_INIT;
	const char *p = m->body, *end = m->body + m->body_len;
	size_t first = out->nr;

	r.about = answered(m, o, &ids);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *text;
		size_t len = (nl ? nl : end) - p;
		int depth = quote_depth(&text, p, p + len);

		if (depth == 0) {
			strbuf_add(&r.own, p, len);
			strbuf_addch(&r.own, '\n');
			/* A human's words right under the quoted call. */
			if (!r.about && own_words(p, len))
				words_under(out, &near, p, len);
		}
		read_line(out, &r, depth ? text : p, p + len - (depth ? text : p), depth);
		strbuf_reset(&sb);
		if (depth && text < p + len && *text == '+')
			feedback_norm(&sb, text, p + len - text);
		/* A patch quoted once; warnwatch's quote of it, twice. */
		if (sb.len && r.about && depth == 2)
			strvec_push(&r.quoted_ours, sb.buf);
		if (depth == 1 && !r.about && own_words(text, p + len - text)) {
			near_push(&near, sb.buf);
		}
		p = nl ? nl + 1 : end;
	}
	strvec_clear(&near);
	discussion(out, &r);
	for (size_t i = first; i < out->nr; i++)
		if (out->v[i].kind == FEEDBACK_CALLED_WRONG)
			strvec_pushv(&out->v[i].quoted, r.quoted_ours.v);
	if (out->nr > first)
		identity(out, first, m, sender, o);
	strvec_clear(&r.quoted_ours);
	strbuf_release(&r.own);
	strbuf_release(&sb);
	strbuf_release(&ids);
}

void feedback_scan(struct feedback *out, const struct mail_list *thread,
		   const struct feedback_scan_opts *opts)
{
	for (size_t i = 0; i < thread->nr; i++) {
		const struct mail *m = &thread->v[i];
		struct mail_addr_list from = MAIL_ADDR_LIST_INIT;

		if (!m->message_id || !*m->message_id || !m->body ||
		    opts->ours(opts->data, m->message_id))
			continue;
		mail_addr_parse(&from, m->from_raw);
		if (from.nr && strcasecmp(from.v[0].addr, opts->self)) {
			char *lc = xstrdup(from.v[0].addr);

			for (char *c = lc; *c; c++)
				*c = tolower((unsigned char)*c);
			read_mail(out, m, lc, opts);
			free(lc);
		}
		mail_addr_list_clear(&from);
	}
}

int feedback_note_said(struct store *st, const char *message_id,
		       const char *fingerprint, const char *rule, const char *line)
{
	return store_exec(st, "INSERT INTO findings_said (message_id, fingerprint,"
			  " rule, line) VALUES (?, ?, ?, ?) ON CONFLICT"
			  " (message_id, fingerprint) DO NOTHING", "ssss",
			  message_id, fingerprint, rule, line);
}

int feedback_said_before(struct strbuf *message_id, int *version, struct store *st,
			 const char *fingerprint, const struct strvec *earlier)
{
	for (size_t i = 0; i < earlier->nr; i++) {
		struct store_rows *r;
		int ret = store_query(&r, st, "SELECT r.message_id, r.version FROM"
				      " findings_said s JOIN replies r ON r.message_id ="
				      " s.message_id WHERE s.fingerprint = ? AND r.series = ?"
				      " AND r.state = 'sent' ORDER BY r.version DESC, r.id"
				      " DESC", "ss", fingerprint, earlier->v[i]);

		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		strbuf_reset(message_id);
		strbuf_addstr(message_id, store_rows_text(r, 0));
		*version = (int)store_rows_int(r, 1);
		store_rows_free(r);
		return 1;
	}
	return 0;
}

bool feedback_ours(void *store, const char *message_id)
{
	struct store_rows *r;
	int ret;

	if (!message_id || !*message_id)
		return false;
	ret = store_query(&r, store, "SELECT 1 FROM replies WHERE message_id = ? AND"
			  " state IN ('intent', 'sent') UNION ALL SELECT 1 FROM"
			  " suppressions WHERE request_id = ?", "ss", message_id,
			  message_id);
	if (ret > 0)
		store_rows_free(r);
	error_clear();
	return ret > 0;
}

static const char *const scope_names[] = { "family", "author", "list" };

/* Who `addr` is to the series of `ctx`: "owner", "author", "recipient",
 * or NULL: none of them. */
static const char *role_of(const struct feedback_ctx *ctx, const char *addr)
{
	if (ctx->owners && *ctx->owners && reply_addr_matches(addr, ctx->owners))
		return "owner";
	if (ctx->author && !strcasecmp(addr, ctx->author))
		return "author";
	for (size_t i = 0; ctx->mails && i < ctx->mails->nr; i++) {
		struct mail_addr_list a = MAIL_ADDR_LIST_INIT;
		const struct mail *m = &ctx->mails->v[i];
		bool yes;

		a.max = MAILHDR_MAX_SEEN;
		mail_addr_parse(&a, m->from_raw);
		mail_addr_parse(&a, m->to_raw);
		mail_addr_parse(&a, m->cc_raw);
		yes = mail_addr_has(&a, addr);
		mail_addr_list_clear(&a);
		if (yes)
			return "recipient";
	}
	return NULL;
}

static void say(const struct feedback_ctx *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!ctx->say)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ctx->say(ctx->data, sb.buf);
	strbuf_release(&sb);
}

/* One suppression row. */
struct row {
	const char *what, *scope, *key, *fingerprint, *rule, *role, *state;
	const char *token, *thread, *request_id;
	time_t expires;
};

static int insert(struct store *st, const struct feedback_event *e,
		  const struct feedback_ctx *ctx, const struct row *w)
{
	return store_exec(st, "INSERT INTO suppressions (what, scope, key, list,"
			  " fingerprint, rule, by_addr, role, trust, message_id, why,"
			  " created, expires, state, token, thread, request_id) VALUES"
			  " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT"
			  " (message_id, what, scope, fingerprint) DO NOTHING",
			  "sssssssssssiissss", w->what, w->scope, w->key, ctx->list,
			  w->fingerprint, w->rule, e->sender, w->role, e->trust,
			  e->message_id, e->line, (long long)ctx->now,
			  (long long)w->expires, w->state, w->token ? w->token : "",
			  w->thread ? w->thread : "", w->request_id ? w->request_id : "");
}

/* Each finding warnwatch's mail e->about said that `e` quotes (or all). */
static int called_wrong(struct store *st, const struct feedback_event *e,
			const struct feedback_ctx *ctx, const char *role)
{
	static const char *const may[] = {
		[FEEDBACK_FAMILY] = "the author, a recipient or an owner",
		[FEEDBACK_AUTHOR] = "the author or an owner",
		[FEEDBACK_LIST] = "an owner of the list",
	};
	struct row w = { .what = "finding", .scope = scope_names[e->scope],
			 .role = role, .state = "active" };
	struct store_rows *r;
	int ret, n = 0;

	if ((e->scope == FEEDBACK_AUTHOR && !strcmp(role, "recipient")) ||
	    (e->scope == FEEDBACK_LIST && strcmp(role, "owner"))) {
		say(ctx, "'%s' from %s (<%s>) not recorded: only %s may say it (%s is %s)",
		    e->line, e->sender, e->message_id, may[e->scope], e->sender,
		    !strcmp(role, "author") ? "the author" : "a recipient");
		return 0;
	}
	w.key = e->scope == FEEDBACK_FAMILY ? ctx->family :
		e->scope == FEEDBACK_AUTHOR ? ctx->author : ctx->list;
	w.expires = ctx->now + (time_t)FEEDBACK_DAYS * DAY;
	ret = store_query(&r, st, "SELECT fingerprint, rule, line FROM findings_said"
			  " WHERE message_id = ?", "s", e->about);
	if (ret <= 0)
		return ret;
	/* store_query() stands on the first row; the first next() stays there. */
	while (ret >= 0 && store_rows_next(r) == 1) {
		if (e->quoted.nr && !feedback_quoted(&e->quoted, store_rows_text(r, 2)))
			continue;
		w.fingerprint = store_rows_text(r, 0);
		w.rule = store_rows_text(r, 1);
		ret = insert(st, e, ctx, &w);
		n += ret > 0 ? ret : 0;
	}
	store_rows_free(r);
	return ret < 0 ? ret : n;
}

/* 128 random bits in hex: the secret only the muted address reads. */
static int new_token(struct strbuf *out)
{
	unsigned char rnd[FEEDBACK_TOKEN_HEX / 2];

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return error("cannot draw a confirmation token: %s", strerror(errno));
	for (size_t i = 0; i < sizeof(rnd); i++)
		strbuf_addf(out, "%02x", rnd[i]);
	return 0;
}

/* A mute-me: pending until the address itself confirms it. */
static int mute_me(struct store *st, const struct feedback_event *e,
		   const struct feedback_ctx *ctx, const char *role)
{
	struct strbuf token = STRBUF_INIT, id = STRBUF_INIT;
	struct row w = { .what = "mail", .scope = "author", .key = e->sender,
			 .fingerprint = "", .rule = "", .role = role, .state = "pending" };
	struct store_rows *r;
	const char *at = ctx->self ? strrchr(ctx->self, '@') : NULL;
	int ret;

	if (strcmp(role, "author")) {
		say(ctx, "'%s' from %s (<%s>) not recorded: only the series' author "
		    "may say it", e->line, e->sender, e->message_id);
		return 0;
	}
	ret = store_query(&r, st, "SELECT 1 FROM suppressions WHERE what = 'mail' AND"
			  " scope = 'author' AND key = ? AND list = ? AND state IN"
			  " ('active', 'pending') AND expires > ?", "ssi", e->sender,
			  ctx->list, (long long)ctx->now);
	if (ret > 0)
		store_rows_free(r);
	if (ret)
		return ret < 0 ? ret : 0;
	ret = new_token(&token);
	if (ret)
		return ret;
	mailhdr_new_msgid(&id, at ? at + 1 : NULL);
	w.token = token.buf;
	w.thread = ctx->family;
	w.request_id = id.buf;
	w.expires = ctx->now + (time_t)FEEDBACK_PENDING_DAYS * DAY;
	ret = insert(st, e, ctx, &w);
	if (ret > 0)
		say(ctx, "'%s' from %s (<%s>): pending until %s confirms it from "
		    "that address", e->line, e->sender, e->message_id, e->sender);
	strbuf_release(&token);
	strbuf_release(&id);
	return ret;
}

/*
 * A confirmation: the pending mute-me of the sender whose token it
 * carries.  The token went to that address only: whoever sends it back
 * reads that mailbox.
 */
static int confirm(struct store *st, const struct feedback_event *e,
		   const struct feedback_ctx *ctx)
{
	struct strbuf why = STRBUF_INIT, trust = STRBUF_INIT;
	int ret;

	strbuf_addf(&why, "; confirmed in <%s>", e->message_id);
	strbuf_addf(&trust, "%s, and the token mailed to the address", e->trust);
	ret = store_exec(st, "UPDATE suppressions SET state = 'active', expires = ?,"
			 " trust = ?, why = why || ? WHERE state = 'pending' AND"
			 " what = 'mail' AND scope = 'author' AND token = ? AND"
			 " key = ? AND expires > ?", "issssi",
			 (long long)ctx->now + (long long)FEEDBACK_DAYS * DAY, trust.buf,
			 why.buf, e->token, e->sender, (long long)ctx->now);
	if (ret > 0)
		say(ctx, "%s confirmed their mute-me in <%s>", e->sender, e->message_id);
	strbuf_release(&why);
	strbuf_release(&trust);
	return ret;
}

int feedback_record(struct store *st, const struct feedback *fb,
		    const struct feedback_ctx *ctx)
{
	int ret = 0, n = 0;

	for (size_t i = 0; ret >= 0 && i < fb->nr; i++) {
		const struct feedback_event *e = &fb->v[i];
		const char *role = role_of(ctx, e->sender);

		ret = 0;
		if (e->kind == FEEDBACK_DISCUSSION) {
			say(ctx, "%s wrote \"%s\" in <%s>, a reply to warnwatch: "
			    "discussion, not the keyword '%s'", e->sender, e->line,
			    e->message_id, FEEDBACK_WRONG);
		} else if (e->untrusted) {
			say(ctx, "'%s' from %s (<%s>) not recorded: %s", e->line,
			    e->sender, e->message_id, e->untrusted);
		} else if (e->kind == FEEDBACK_CONFIRM) {
			ret = confirm(st, e, ctx);
		} else if (!role) {
			say(ctx, "'%s' from %s (<%s>) not recorded: neither the author, "
			    "a recipient of the series nor an owner of the list",
			    e->line, e->sender, e->message_id);
		} else if (e->kind == FEEDBACK_MUTE_THREAD) {
			struct row w = { .what = "mail", .scope = "family",
					 .key = ctx->family, .fingerprint = "",
					 .rule = "", .role = role, .state = "active" };

			w.expires = ctx->now + (time_t)FEEDBACK_DAYS * DAY;
			ret = insert(st, e, ctx, &w);
		} else if (e->kind == FEEDBACK_MUTE_SENDER) {
			ret = mute_me(st, e, ctx, role);
		} else {
			ret = called_wrong(st, e, ctx, role);
		}
		n += ret > 0 ? ret : 0;
	}
	return ret < 0 ? error_prefix(ret, "cannot record the feedback") : n;
}

/* The first row of `sql` (id, by_addr, role, message_id, expires, scope)
 * into `why` as "ADDR (ROLE) ... WHAT (<MSGID>), until DATE, #ID". */
static int first_row(struct strbuf *why, struct store *st, const char *what,
		     const char *sql, const char *types, ...)
{
	struct store_rows *r;
	va_list ap;
	int ret;

	va_start(ap, types);
	ret = store_vquery(&r, st, sql, types, ap);
	va_end(ap);
	if (ret <= 0)
		return ret;
	{
		time_t until = (time_t)store_rows_int(r, 4);
		struct tm tm;

		gmtime_r(&until, &tm);
		strbuf_addf(why, "%s (the %s) %s (<%s>, %s scope), until "
			    "%04d-%02d-%02d (suppression #%lld)", store_rows_text(r, 1),
			    store_rows_text(r, 2), what, store_rows_text(r, 3),
			    store_rows_text(r, 5), tm.tm_year + 1900, tm.tm_mon + 1,
			    tm.tm_mday, store_rows_int(r, 0));
	}
	store_rows_free(r);
	return 1;
}

#define ROW_COLS "SELECT id, by_addr, role, message_id, expires, scope FROM suppressions "

int feedback_muted(struct strbuf *why, struct store *st,
		   const struct feedback_key *k, time_t now)
{
	int ret = 0;

	for (size_t i = 0; !ret && k->family && i < k->family->nr; i++)
		ret = first_row(why, st, "muted warnwatch on this series",
				ROW_COLS "WHERE what = 'mail' AND scope = 'family' AND"
				" key = ? AND state = 'active' AND expires > ? ORDER BY"
				" id LIMIT 1", "si", k->family->v[i], (long long)now);
	if (!ret && k->author && *k->author)
		ret = first_row(why, st, "muted warnwatch for their series",
				ROW_COLS "WHERE what = 'mail' AND scope = 'author' AND"
				" key = lower(?) AND list = ? AND state = 'active' AND"
				" expires > ? ORDER BY id LIMIT 1", "ssi", k->author,
				k->list, (long long)now);
	return ret < 0 ? error_prefix(ret, "cannot read the mutes") : ret;
}

int feedback_suppressed(struct strbuf *why, struct store *st, const char *fingerprint,
			const struct feedback_key *k, time_t now)
{
	int ret = 0;

	for (size_t i = 0; !ret && k->family && i < k->family->nr; i++)
		ret = first_row(why, st, "called it wrong",
				ROW_COLS "WHERE what = 'finding' AND fingerprint = ? AND"
				" scope = 'family' AND key = ? AND state = 'active' AND"
				" expires > ? ORDER BY id LIMIT 1", "ssi", fingerprint,
				k->family->v[i], (long long)now);
	if (!ret)
		ret = first_row(why, st, "called it wrong",
				ROW_COLS "WHERE what = 'finding' AND fingerprint = ? AND"
				" list = ? AND ((scope = 'author' AND key = lower(?)) OR"
				" (scope = 'list' AND key = ?)) AND state = 'active' AND"
				" expires > ? ORDER BY id LIMIT 1", "ssssi", fingerprint,
				k->list, k->author ? k->author : "", k->list, (long long)now);
	return ret < 0 ? error_prefix(ret, "cannot read the feedback") : ret;
}

int feedback_pending(struct strvec *out, struct store *st, const char *list,
		     const char *author, time_t now)
{
	struct store_rows *r;
	int ret;

	ret = store_query(&r, st, "SELECT DISTINCT thread FROM suppressions WHERE"
			  " state = 'pending' AND what = 'mail' AND scope = 'author' AND"
			  " key = lower(?) AND list = ? AND expires > ? AND thread <> ''",
			  "ssi", author ? author : "", list, (long long)now);
	if (ret > 0) {
		while ((ret = store_rows_next(r)) == 1)
			strvec_push(out, store_rows_text(r, 0));
		store_rows_free(r);
	}
	return ret < 0 ? error_prefix(ret, "cannot read the pending mutes") : 0;
}

int feedback_unrequested(struct feedback_request **out, struct store *st,
			 const char *list, size_t max, time_t now)
{
	struct feedback_request *v = NULL;
	size_t nr = 0, alloc = 0;
	struct store_rows *r;
	int ret;

	*out = NULL;
	ret = store_query(&r, st, "SELECT id, key, token, message_id, request_id FROM"
			  " suppressions WHERE state = 'pending' AND what = 'mail' AND"
			  " scope = 'author' AND requested = 0 AND list = ? AND expires > ?"
			  " ORDER BY id LIMIT ?", "sii", list, (long long)now,
			  (long long)max);
	if (ret > 0) {
		while ((ret = store_rows_next(r)) == 1) {
			ALLOC_GROW(v, nr + 1, alloc);
			v[nr].id = store_rows_int(r, 0);
			v[nr].addr = xstrdup(store_rows_text(r, 1));
			v[nr].token = xstrdup(store_rows_text(r, 2));
			v[nr].message_id = xstrdup(store_rows_text(r, 3));
			v[nr].request_id = xstrdup(store_rows_text(r, 4));
			nr++;
		}
		store_rows_free(r);
	}
	if (ret < 0) {
		feedback_requests_release(v, nr);
		return error_prefix(ret, "cannot read the pending mutes");
	}
	*out = v;
	return (int)nr;
}

void feedback_requests_release(struct feedback_request *r, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(r[i].addr);
		free(r[i].token);
		free(r[i].message_id);
		free(r[i].request_id);
	}
	free(r);
}

int feedback_requested(struct store *st, long long id, time_t now)
{
	int ret = store_exec(st, "UPDATE suppressions SET requested = ? WHERE id = ?",
			     "ii", (long long)now, id);

	return ret < 0 ? ret : 0;
}

void feedback_request_text(struct strbuf *out, const struct feedback_request *r,
			   const char *from_name, const char *from, const char *list,
			   time_t now)
{
	struct mail_addr_list a = MAIL_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *ids[] = { r->message_id };
	const char *self[] = { r->request_id };

	mail_addr_add(&a, from_name, from);
	mailhdr_add_addrs(out, "From", &a);
	mail_addr_list_clear(&a);
	mail_addr_add(&a, NULL, r->addr);
	mailhdr_add_addrs(out, "To", &a);
	mail_addr_list_clear(&a);
	/* A reply goes to the list: the confirmation is read from its archive. */
	if (list && mail_addr_add(&a, NULL, list))
		mailhdr_add_addrs(out, "Reply-To", &a);
	mail_addr_list_clear(&a);
	mailhdr_add_text(out, "Subject", "warnwatch: did you ask not to be reviewed?");
	mailhdr_date(&sb, now);
	strbuf_addf(out, "Date: %s\n", sb.buf);
	mailhdr_add_ids(out, "Message-ID", self, 1);
	mailhdr_add_ids(out, "In-Reply-To", ids, 1);
	mailhdr_add_ids(out, "References", ids, 1);
	strbuf_addstr(out, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n\n");
	strbuf_addf(out, "Hello,\n\n"
		    "A mail from your address, <%s>, asked warnwatch to stop\n"
		    "reviewing the patch series you send (\"%s\").  Anyone can\n"
		    "write an address into a From: line, so nothing has changed yet.\n\n"
		    "If it was you, reply to this mail so that your reply reaches\n"
		    "the list's archive%s%s%s, with this line in it:\n\n"
		    "%s %s\n\n"
		    "If you do nothing, your series are reviewed as before, and the\n"
		    "request lapses after %d days.\n\n-- \nwarnwatch\n",
		    r->message_id, FEEDBACK_MUTE_ME, list ? " (" : "", list ? list : "",
		    list ? ")" : "", FEEDBACK_CONFIRM_KW, r->token,
		    FEEDBACK_PENDING_DAYS);
	strbuf_release(&sb);
}

int feedback_lift(struct store *st, long long id, const char *by, time_t now)
{
	int ret = store_exec(st, "UPDATE suppressions SET state = 'lifted', lifted_by = ?"
			     " WHERE id = ? AND state IN ('active', 'pending') AND"
			     " expires > ?", "sii", by, id, (long long)now);

	return ret < 0 ? error_prefix(ret, "cannot lift suppression #%lld", id) : ret > 0;
}

int feedback_status_json(json_t **out, struct store *st, time_t now)
{
	/* Never the token: status.json is on the dashboard. */
	static const char sql[] = "SELECT id, what, scope, key, list, fingerprint, rule,"
		" by_addr AS by, role, trust, message_id, why, created, expires, state,"
		" requested FROM suppressions WHERE state IN ('active', 'pending') AND"
		" expires > ? ORDER BY id DESC LIMIT 1000";
	struct store_rows *r;
	json_t *a = json_array();
	int ret = store_query(&r, st, sql, "i", (long long)now);

	if (ret > 0) {
		while ((ret = store_rows_next(r)) == 1) {
			json_t *o = json_object();

			for (int i = 0; i < store_rows_ncols(r); i++)
				json_object_set_new(o, store_rows_name(r, i),
						    store_rows_is_int(r, i) ?
						    json_integer(store_rows_int(r, i)) :
						    jsonval_text(store_rows_text(r, i)));
			json_array_append_new(a, o);
		}
		store_rows_free(r);
	}
	if (ret < 0) {
		json_decref(a);
		return error_prefix(ret, "cannot read the suppressions");
	}
	*out = a;
	return 0;
}

int feedback_by_rule(json_t **out, struct store *st)
{
	struct store_rows *r;
	json_t *a = json_array();
	int ret;

	ret = store_query(&r, st, "SELECT s.rule, count(DISTINCT s.message_id),"
			  " (SELECT count(DISTINCT f.fingerprint) FROM suppressions f"
			  "  WHERE f.what = 'finding' AND f.rule = s.rule AND"
			  "  f.state <> 'lifted') AS wrong FROM findings_said s"
			  " GROUP BY s.rule ORDER BY wrong DESC, s.rule", "");
	if (ret > 0) {
		while ((ret = store_rows_next(r)) == 1) {
			json_t *o = json_object();

			json_object_set_new(o, "rule", json_string(store_rows_text(r, 0)));
			json_object_set_new(o, "said", json_integer(store_rows_int(r, 1)));
			json_object_set_new(o, "wrong", json_integer(store_rows_int(r, 2)));
			json_array_append_new(a, o);
		}
		store_rows_free(r);
	}
	if (ret < 0) {
		json_decref(a);
		return error_prefix(ret, "cannot count the feedback");
	}
	*out = a;
	return 0;
}

void feedback_release(struct feedback *fb)
{
	for (size_t i = 0; i < fb->nr; i++) {
		struct feedback_event *e = &fb->v[i];

		free(e->sender);
		free(e->message_id);
		free(e->about);
		free(e->line);
		free(e->token);
		free(e->untrusted);
		free(e->trust);
		strvec_clear(&e->quoted);
	}
	free(fb->v);
	strvec_clear(&fb->human_quoted);
	strvec_clear(&fb->human_asked);
	memset(fb, 0, sizeof(*fb));
	strvec_init(&fb->human_quoted);
	strvec_init(&fb->human_asked);
}
