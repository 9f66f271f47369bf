/*
 * Warnwatch-accepted: trailers: see accept.h.
 */
#include "accept.h"

#include <ctype.h>

/* One line of a text: [start, end) without its '\n'. */
struct line {
	const char *start, *end;
};

static bool blank(const struct line *l)
{
	for (const char *c = l->start; c < l->end; c++)
		if (!isspace((unsigned char)*c))
			return false;
	return true;
}

static bool line_is(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(l->end - l->start) >= n && !memcmp(l->start, prefix, n);
}

/* Where the commit message ends: "---" alone on its line, or a diff. */
static bool message_ends(const struct line *l, const char *next, const char *end)
{
	const char *c = l->start + 3;

	if (line_is(l, "---")) {
		while (c < l->end && (*c == ' ' || *c == '\t'))
			c++;
		if (c == l->end)
			return true;
	}
	if (line_is(l, "diff --git ") || line_is(l, "Index: "))
		return true;
	return line_is(l, "--- ") && (size_t)(end - next) >= 4 && !memcmp(next, "+++ ", 4);
}

/* The lines of the message in `msg`, cut where the patch starts. */
static size_t split_message(struct line **out, size_t *alloc, const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;
	size_t nr = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct line l = { p, nl ? nl : end };

		if (l.end > l.start && l.end[-1] == '\r')
			l.end--;
		p = nl ? nl + 1 : end;
		if (message_ends(&l, p, end))
			break;
		ALLOC_GROW(*out, nr + 1, *alloc);
		(*out)[nr++] = l;
	}
	return nr;
}

/* "Warnwatch-accepted:" (any case, blanks before the colon): the value. */
static const char *accept_value(const struct line *l)
{
	size_t n = strlen(ACCEPT_KEY);
	const char *c = l->start + n;

	if ((size_t)(l->end - l->start) < n || strncasecmp(l->start, ACCEPT_KEY, n))
		return NULL;
	while (c < l->end && (*c == ' ' || *c == '\t'))
		c++;
	return c < l->end && *c == ':' ? c + 1 : NULL;
}

/* FILE:FUNCTION, then the reason, from the trailer's value. */
static void parse_value(struct accept_trailer *t, const struct strbuf *value)
{
	const char *v = value->buf, *sp, *colon;

	while (*v == ' ' || *v == '\t')
		v++;
	sp = v + strcspn(v, " \t");
	colon = memrchr(v, ':', (size_t)(sp - v));
	if (colon && colon > v && colon + 1 < sp) {
		const char *fn_end = sp;

		if (fn_end - colon > 3 && !memcmp(fn_end - 2, "()", 2))
			fn_end -= 2;
		t->file = xstrndup(v, (size_t)(colon - v));
		t->function = xstrndup(colon + 1, (size_t)(fn_end - colon - 1));
		v = sp;
	} else {
		t->file = xstrdup("");
		t->function = xstrdup("");
	}
	while (*v == ' ' || *v == '\t')
		v++;
	t->reason = xstrdup(v);
}

void accept_parse(struct accept_list *out, const char *msg, size_t len)
{
	struct line *lines = NULL;
	size_t alloc = 0, nr = split_message(&lines, &alloc, msg, len), block = 0;
	struct strbuf value = STRBUF_INIT;

	/* the trailer block: the last paragraph, trailing blank lines aside */
	while (nr && blank(&lines[nr - 1]))
		nr--;
	for (size_t i = nr; i > 0; i--)
		if (blank(&lines[i - 1])) {
			block = i;
			break;
		}
	for (size_t i = 0; i < nr; i++) {
		const char *v = accept_value(&lines[i]);
		struct accept_trailer *t;

		if (!v)
			continue;
		strbuf_reset(&value);
		strbuf_add(&value, v, (size_t)(lines[i].end - v));
		/* continuation lines start with a blank, as git folds them */
		while (i + 1 < nr && lines[i + 1].start < lines[i + 1].end &&
		       (*lines[i + 1].start == ' ' || *lines[i + 1].start == '\t')) {
			const char *c = lines[++i].start;

			while (c < lines[i].end && (*c == ' ' || *c == '\t'))
				c++;
			strbuf_addch(&value, ' ');
			strbuf_add(&value, c, (size_t)(lines[i].end - c));
		}
		strbuf_rtrim(&value);
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		t = &out->v[out->nr++];
		memset(t, 0, sizeof(*t));
		parse_value(t, &value);
		t->in_block = i >= block;
	}
	strbuf_release(&value);
	free(lines);
}

void accept_list_release(struct accept_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].file);
		free(l->v[i].function);
		free(l->v[i].reason);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The text that holds a patch's commit message. */
static void patch_message(const struct series_patch *p, const char **msg, size_t *len)
{
	if (p->log) {
		*msg = p->log;
		*len = p->log_len;
	} else if (p->mail) {
		*msg = p->mail->body;
		*len = p->mail->body_len;
	} else {
		*msg = p->diff;	/* a bare diff: the prose in front, if any */
		*len = p->diff_len;
	}
}

/* Can a trailer accept `f`: a call (or wrapper) the patch adds? */
static bool acceptable(const struct finding *f)
{
	return f->kind != FINDING_REMOVED && !f->moved && !f->conversion && !f->accepted;
}

static void accept_one(struct check_result *r, struct finding *f, const char *reason)
{
	r->by_severity[f->severity]--;
	r->accepted++;
	f->accepted = xstrdup(reason);
	f->accepted_severity = f->severity;
	f->severity = SEV_INFO;
}

static void add_stale(struct check_result *r, int patch, const struct accept_trailer *t,
		      const char *why)
{
	struct check_stale *st;

	ALLOC_GROW(r->stale, r->nr_stale + 1, r->alloc_stale);
	st = &r->stale[r->nr_stale++];
	st->patch = patch;
	st->file = xstrdup(t->file);
	st->function = xstrdup(t->function);
	st->reason = xstrdup(t->reason);
	st->why = xstrdup(why);
	r->by_severity[SEV_WARNING]++;
}

/* Accept the calls of patch `index` that `t` names; how many. */
static size_t accept_named(struct check_result *r, int index, const struct accept_trailer *t)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr; i++) {
		struct finding *f = &r->v[i];

		if (f->patch != index || !acceptable(f) || strcmp(f->file, t->file) ||
		    strcmp(f->function, t->function))
			continue;
		accept_one(r, f, t->reason);
		n++;
	}
	return n;
}

static void apply_trailer(struct check_result *r, int index, const struct accept_trailer *t)
{
	if (!t->in_block)
		add_stale(r, index, t, "is not in the trailer block (the last paragraph of "
			  "the commit message, with Signed-off-by:): ignored");
	else if (!*t->file)
		add_stale(r, index, t, "names no FILE:FUNCTION: ignored");
	else if (!*t->reason)
		add_stale(r, index, t, "gives no reason: a call is accepted only with one");
	else if (!accept_named(r, index, t))
		add_stale(r, index, t, "names no call this patch adds");
}

void accept_apply(struct check_result *r, const struct series *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		struct accept_list l = ACCEPT_LIST_INIT;
		const char *msg;
		size_t len;

		patch_message(&s->patches[i], &msg, &len);
		if (msg)
			accept_parse(&l, msg, len);
		for (size_t k = 0; k < l.nr; k++)
			apply_trailer(r, s->patches[i].index, &l.v[k]);
		accept_list_release(&l);
	}
	/* the worst added call, as count_findings() had it, without the accepted */
	r->worst = SEV_INFO;
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->kind != FINDING_REMOVED && f->severity > r->worst &&
		    f->severity != SEV_CREDIT)
			r->worst = f->severity;
	}
}
