/*
 * Reading what people say back from a thread (feedback.h).
 */
#include "feedback.h"
#include "mailhdr.h"

#include <ctype.h>

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

/* A line that is the keyword `kw`, alone but for spacing. */
static bool keyword_line(const char *l, size_t len, const char *kw)
{
	size_t n = strlen(kw);

	while (len && isspace((unsigned char)*l))
		l++, len--;
	while (len && isspace((unsigned char)l[len - 1]))
		len--;
	return len == n && !strncasecmp(l, kw, n);
}

static struct feedback_event *add(struct feedback *fb, enum feedback_kind kind,
				  const char *sender, const struct mail *m)
{
	struct feedback_event *e;

	ALLOC_GROW(fb->v, fb->nr + 1, fb->alloc);
	e = &fb->v[fb->nr++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->sender = xstrdup(sender);
	e->message_id = xstrdup(m->message_id);
	strvec_init(&e->quoted);
	return e;
}

static const struct mail *find_mail(const struct mail_list *l, const char *id)
{
	for (size_t i = 0; id && *id && i < l->nr; i++)
		if (l->v[i].message_id && !strcmp(l->v[i].message_id, id))
			return &l->v[i];
	return NULL;
}

static void read_mail(struct feedback *out, const struct mail_list *thread,
		      const struct mail *m, const char *sender, const char *self)
{
	const struct mail *parent = find_mail(thread, m->in_reply_to);
	struct mail_addr_list pa = MAIL_ADDR_LIST_INIT;
	struct strbuf own = STRBUF_INIT, sb = STRBUF_INIT;
	struct strvec quoted_ours = STRVEC_INIT;
	const char *p = m->body, *end = m->body + m->body_len;
	bool to_us = false;

	if (parent) {
		mail_addr_parse(&pa, parent->from_raw);
		to_us = pa.nr && !strcasecmp(pa.v[0].addr, self);
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *text;
		size_t len = (nl ? nl : end) - p;
		int depth = quote_depth(&text, p, p + len);

		if (depth == 0) {
			strbuf_add(&own, p, len);
			strbuf_addch(&own, '\n');
			if (keyword_line(p, len, FEEDBACK_MUTE))
				add(out, FEEDBACK_MUTE_THREAD, sender, m);
			else if (keyword_line(p, len, FEEDBACK_MUTE_ME))
				add(out, FEEDBACK_MUTE_SENDER, sender, m);
		} else if (text < p + len && *text == '+') {
			strbuf_reset(&sb);
			feedback_norm(&sb, text, p + len - text);
			/* A patch quoted once; warnwatch's quote of it, twice. */
			if (to_us && depth == 2)
				strvec_push(&quoted_ours, sb.buf);
			else if (!to_us && depth == 1 && sb.len &&
				 !feedback_quoted(&out->human_quoted, sb.buf))
				strvec_push(&out->human_quoted, sb.buf);
		}
		p = nl ? nl + 1 : end;
	}
	if (to_us && (has_word(own.buf, own.len, "wrong") ||
		      has_word(own.buf, own.len, "false positive") ||
		      has_word(own.buf, own.len, "NAK"))) {
		struct feedback_event *e = add(out, FEEDBACK_CALLED_WRONG, sender, m);

		e->about = xstrdup(parent->message_id);
		strvec_pushv(&e->quoted, quoted_ours.v);
	}
	strvec_clear(&quoted_ours);
	mail_addr_list_clear(&pa);
	strbuf_release(&own);
	strbuf_release(&sb);
}

void feedback_scan(struct feedback *out, const struct mail_list *thread,
		   const char *self)
{
	for (size_t i = 0; i < thread->nr; i++) {
		const struct mail *m = &thread->v[i];
		struct mail_addr_list from = MAIL_ADDR_LIST_INIT;

		if (!m->message_id || !m->body)
			continue;
		mail_addr_parse(&from, m->from_raw);
		if (from.nr && strcasecmp(from.v[0].addr, self)) {
			char *lc = xstrdup(from.v[0].addr);

			for (char *c = lc; *c; c++)
				*c = tolower((unsigned char)*c);
			read_mail(out, thread, m, lc, self);
			free(lc);
		}
		mail_addr_list_clear(&from);
	}
}

const char feedback_schema_sql[] =
	"CREATE TABLE mutes ("
	"  kind TEXT NOT NULL CHECK (kind IN ('thread', 'sender')),"
	"  key TEXT NOT NULL,"
	"  by_addr TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  PRIMARY KEY (kind, key)"
	");"
	"CREATE TABLE findings_said ("
	"  message_id TEXT NOT NULL,"
	"  fingerprint TEXT NOT NULL,"
	"  rule TEXT NOT NULL,"
	"  line TEXT NOT NULL,"
	"  PRIMARY KEY (message_id, fingerprint)"
	");"
	"CREATE TABLE feedback ("
	"  fingerprint TEXT NOT NULL,"
	"  rule TEXT NOT NULL,"
	"  by_addr TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  created INTEGER NOT NULL,"
	"  PRIMARY KEY (message_id, fingerprint)"
	");";

int feedback_note_said(struct store *st, const char *message_id,
		       const char *fingerprint, const char *rule, const char *line)
{
	return store_exec(st, "INSERT INTO findings_said (message_id, fingerprint,"
			  " rule, line) VALUES (?, ?, ?, ?) ON CONFLICT"
			  " (message_id, fingerprint) DO NOTHING", "ssss",
			  message_id, fingerprint, rule, line);
}

static int mute(struct store *st, const char *kind, const char *key,
		const struct feedback_event *e, time_t now)
{
	return store_exec(st, "INSERT INTO mutes (kind, key, by_addr, message_id,"
			  " created) VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, key)"
			  " DO NOTHING", "ssssi", kind, key, e->sender, e->message_id,
			  (long long)now);
}

/* Each finding warnwatch's mail e->about said that `e` quotes (or all). */
static int called_wrong(struct store *st, const struct feedback_event *e, time_t now)
{
	struct store_rows *r;
	int ret, n = 0;

	ret = store_query(&r, st, "SELECT fingerprint, rule, line FROM findings_said"
			  " WHERE message_id = ?", "s", e->about);
	if (ret <= 0)
		return ret;
	do {
		const char *line = store_rows_text(r, 2);

		if (e->quoted.nr && !feedback_quoted(&e->quoted, line))
			continue;
		ret = store_exec(st, "INSERT INTO feedback (fingerprint, rule, by_addr,"
				 " message_id, created) VALUES (?, ?, ?, ?, ?) ON CONFLICT"
				 " (message_id, fingerprint) DO NOTHING", "ssssi",
				 store_rows_text(r, 0), store_rows_text(r, 1),
				 e->sender, e->message_id, (long long)now);
		n += ret > 0 ? ret : 0;
	} while (ret >= 0 && store_rows_next(r) > 0);
	store_rows_free(r);
	return ret < 0 ? ret : n;
}

int feedback_record(struct store *st, const struct feedback *fb, const char *root,
		    bool (*may_mute_thread)(void *data, const char *sender),
		    void *data, time_t now)
{
	int ret = 0, n = 0;

	for (size_t i = 0; ret >= 0 && i < fb->nr; i++) {
		const struct feedback_event *e = &fb->v[i];

		if (e->kind == FEEDBACK_MUTE_THREAD && may_mute_thread(data, e->sender))
			ret = mute(st, "thread", root, e, now);
		else if (e->kind == FEEDBACK_MUTE_SENDER)
			ret = mute(st, "sender", e->sender, e, now);
		else if (e->kind == FEEDBACK_CALLED_WRONG)
			ret = called_wrong(st, e, now);
		else
			ret = 0;
		n += ret > 0 ? ret : 0;
	}
	return ret < 0 ? error_prefix(ret, "cannot record the feedback") : n;
}

int feedback_muted(struct strbuf *why, struct store *st, const char *root,
		   const char *author)
{
	struct store_rows *r;
	int ret;

	ret = store_query(&r, st, "SELECT kind, by_addr, message_id FROM mutes WHERE"
			  " (kind = 'thread' AND key = ?) OR (kind = 'sender' AND"
			  " key = lower(?))", "ss", root, author ? author : "");
	if (ret < 0)
		return error_prefix(ret, "cannot read the mutes");
	if (ret > 0)
		strbuf_addf(why, "%s muted warnwatch %s (<%s>)", store_rows_text(r, 1),
			    !strcmp(store_rows_text(r, 0), "thread") ?
			    "on this thread" : "for their series",
			    store_rows_text(r, 2));
	if (ret > 0)
		store_rows_free(r);
	return ret > 0;
}

int feedback_called_wrong(struct store *st, const char *fingerprint)
{
	struct store_rows *r;
	int ret;

	ret = store_query(&r, st, "SELECT 1 FROM feedback WHERE fingerprint = ?"
			  " LIMIT 1", "s", fingerprint);
	if (ret < 0)
		return error_prefix(ret, "cannot read the feedback");
	if (ret > 0)
		store_rows_free(r);
	return ret > 0;
}

int feedback_by_rule(json_t **out, struct store *st)
{
	struct store_rows *r;
	json_t *a = json_array();
	int ret;

	ret = store_query(&r, st, "SELECT s.rule, count(DISTINCT s.message_id),"
			  " (SELECT count(DISTINCT f.fingerprint) FROM feedback f"
			  "  WHERE f.rule = s.rule) AS wrong FROM findings_said s"
			  " GROUP BY s.rule ORDER BY wrong DESC, s.rule", "");
	while (ret > 0) {
		json_t *o = json_object();

		json_object_set_new(o, "rule", json_string(store_rows_text(r, 0)));
		json_object_set_new(o, "said", json_integer(store_rows_int(r, 1)));
		json_object_set_new(o, "wrong", json_integer(store_rows_int(r, 2)));
		json_array_append_new(a, o);
		ret = store_rows_next(r);
		if (ret <= 0)
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
		free(fb->v[i].sender);
		free(fb->v[i].message_id);
		free(fb->v[i].about);
		strvec_clear(&fb->v[i].quoted);
	}
	free(fb->v);
	strvec_clear(&fb->human_quoted);
	memset(fb, 0, sizeof(*fb));
	strvec_init(&fb->human_quoted);
}
