/*
 * Atom feed parsing with expat: a streaming parser that keeps only the
 * handful of fields the service needs and skips message bodies (<content>)
 * without storing them.  See atom.h for what is taken from where.
 */
#include "atom.h"

#include <ctype.h>
#include <expat.h>

#define NS_ATOM "http://www.w3.org/2005/Atom"
#define NS_THR "http://purl.org/syndication/thread/1.0"
#define NS_SEP '\x01'

enum field {
	F_NONE,
	F_FEED_TITLE,
	F_FEED_UPDATED,
	F_TITLE,
	F_UPDATED,
	F_ID,
	F_AUTHOR_NAME,
	F_AUTHOR_EMAIL,
};

struct parse {
	XML_Parser xp;
	struct atom_feed *feed;
	int depth;		/* of the element being read; feed is 1 */
	bool in_entry;
	bool in_author;
	enum field field;
	int field_depth;	/* depth of the element collecting text */
	struct strbuf text;
	/* The entry being read. */
	struct strbuf title, updated, id, name, email, link, parent;
	bool have_link;
	int err;		/* set when we stop the parser ourselves */
	char errmsg[128];
};

/* Split an expat "ns\x01local" name; `ns` is "" without a namespace. */
static const char *local_name(const char *name, const char **ns, size_t *ns_len)
{
	const char *sep = strchr(name, NS_SEP);

	if (!sep) {
		*ns = "";
		*ns_len = 0;
		return name;
	}
	*ns = name;
	*ns_len = sep - name;
	return sep + 1;
}

static bool ns_is(const char *ns, size_t len, const char *want)
{
	return len == strlen(want) && !memcmp(ns, want, len);
}

/* Atom elements, or unqualified ones from feeds that forgot the xmlns. */
static bool is_atom(const char *ns, size_t len)
{
	return !len || ns_is(ns, len, NS_ATOM);
}

static const char *attr(const char **attrs, const char *name)
{
	for (size_t i = 0; attrs[i]; i += 2)
		if (!strcmp(attrs[i], name))
			return attrs[i + 1];
	return NULL;
}

static void stop(struct parse *p, int code, const char *what)
{
	if (p->err)
		return;
	p->err = code;
	snprintf(p->errmsg, sizeof(p->errmsg), "%s", what);
	XML_StopParser(p->xp, XML_FALSE);
}

static void collect(struct parse *p, enum field f)
{
	p->field = f;
	p->field_depth = p->depth;
	strbuf_reset(&p->text);
}

static void entry_reset(struct parse *p)
{
	strbuf_reset(&p->title);
	strbuf_reset(&p->updated);
	strbuf_reset(&p->id);
	strbuf_reset(&p->name);
	strbuf_reset(&p->email);
	strbuf_reset(&p->link);
	strbuf_reset(&p->parent);
	p->have_link = false;
}

static void on_start(void *data, const char *el, const char **attrs)
{
	struct parse *p = data;
	const char *ns, *name;
	size_t ns_len;

	p->depth++;
	name = local_name(el, &ns, &ns_len);
	if (p->depth == 1) {
		if (!is_atom(ns, ns_len) || strcmp(name, "feed"))
			stop(p, WW_EINPUT, "not an Atom feed (root element is not <feed>)");
		return;
	}
	if (p->field != F_NONE)
		return;		/* markup inside a text field (xhtml titles) */
	if (p->depth == 2 && is_atom(ns, ns_len)) {
		if (!strcmp(name, "entry")) {
			if (p->feed->nr + p->feed->dropped >= ATOM_MAX_ENTRIES) {
				stop(p, WW_ETOOBIG, "too many entries");
				return;
			}
			p->in_entry = true;
			entry_reset(p);
		} else if (!strcmp(name, "title")) {
			collect(p, F_FEED_TITLE);
		} else if (!strcmp(name, "updated")) {
			collect(p, F_FEED_UPDATED);
		}
		return;
	}
	if (!p->in_entry)
		return;
	if (p->depth == 3 && ns_is(ns, ns_len, NS_THR) &&
	    !strcmp(name, "in-reply-to")) {
		const char *href = attr(attrs, "href");

		if (href && !p->parent.len)
			strbuf_addstr(&p->parent, href);
		return;
	}
	if (!is_atom(ns, ns_len))
		return;
	if (p->depth == 3) {
		if (!strcmp(name, "title")) {
			collect(p, F_TITLE);
		} else if (!strcmp(name, "updated")) {
			collect(p, F_UPDATED);
		} else if (!strcmp(name, "id")) {
			collect(p, F_ID);
		} else if (!strcmp(name, "author")) {
			p->in_author = true;
		} else if (!strcmp(name, "link")) {
			const char *rel = attr(attrs, "rel");
			const char *href = attr(attrs, "href");

			if (href && !p->have_link &&
			    (!rel || !strcmp(rel, "alternate"))) {
				strbuf_addstr(&p->link, href);
				p->have_link = true;
			}
		}
	} else if (p->depth == 4 && p->in_author) {
		if (!strcmp(name, "name"))
			collect(p, F_AUTHOR_NAME);
		else if (!strcmp(name, "email"))
			collect(p, F_AUTHOR_EMAIL);
	}
}

static void on_text(void *data, const char *s, int len)
{
	struct parse *p = data;
	size_t room;

	if (p->field == F_NONE || p->text.len >= ATOM_MAX_FIELD)
		return;
	room = ATOM_MAX_FIELD - p->text.len;
	strbuf_add(&p->text, s, (size_t)len < room ? (size_t)len : room);
}

/* One line of text: control characters (folded subjects) become spaces. */
static void flatten(struct strbuf *out, const struct strbuf *in)
{
	strbuf_reset(out);
	for (size_t i = 0; i < in->len; i++) {
		unsigned char c = in->buf[i];

		strbuf_addch(out, c < 0x20 || c == 0x7f ? ' ' : c);
	}
	strbuf_trim(out);
}

static char *flat_dup(const struct strbuf *in)
{
	struct strbuf sb = STRBUF_INIT;

	flatten(&sb, in);
	return strbuf_detach(&sb, NULL);
}

static void field_done(struct parse *p)
{
	struct strbuf *dst = NULL;

	switch (p->field) {
	case F_FEED_TITLE:
		free(p->feed->title);
		p->feed->title = flat_dup(&p->text);
		break;
	case F_FEED_UPDATED:
		free(p->feed->updated);
		p->feed->updated = flat_dup(&p->text);
		break;
	case F_TITLE: dst = &p->title; break;
	case F_UPDATED: dst = &p->updated; break;
	case F_ID: dst = &p->id; break;
	case F_AUTHOR_NAME: dst = &p->name; break;
	case F_AUTHOR_EMAIL: dst = &p->email; break;
	case F_NONE: break;
	}
	if (dst)
		flatten(dst, &p->text);
	p->field = F_NONE;
	strbuf_reset(&p->text);
}

static void entry_done(struct parse *p)
{
	struct strbuf mid = STRBUF_INIT, parent = STRBUF_INIT;
	struct atom_entry *e;

	if (!p->have_link || atom_msgid_from_url(&mid, p->link.buf) < 0) {
		p->feed->dropped++;
		goto out;
	}
	/* A bad parent link only loses the threading hint, not the entry. */
	if (p->parent.len && atom_msgid_from_url(&parent, p->parent.buf) < 0)
		strbuf_reset(&parent);
	ALLOC_GROW(p->feed->v, p->feed->nr + 1, p->feed->alloc);
	e = &p->feed->v[p->feed->nr++];
	e->message_id = strbuf_detach(&mid, NULL);
	e->in_reply_to = strbuf_detach(&parent, NULL);
	e->title = xstrdup(p->title.buf);
	e->author_name = xstrdup(p->name.buf);
	e->author_email = xstrdup(p->email.buf);
	e->updated = xstrdup(p->updated.buf);
	if (atom_parse_time(&e->updated_at, e->updated) < 0)
		e->updated_at = 0;
	e->id = xstrdup(p->id.buf);
out:
	strbuf_release(&mid);
	strbuf_release(&parent);
	entry_reset(p);
}

static void on_end(void *data, const char *el)
{
	struct parse *p = data;
	const char *ns, *name;
	size_t ns_len;

	name = local_name(el, &ns, &ns_len);
	if (p->field != F_NONE && p->depth == p->field_depth)
		field_done(p);
	if (p->in_entry && p->depth == 2) {
		p->in_entry = false;
		entry_done(p);
	} else if (p->in_author && p->depth == 3 && !strcmp(name, "author")) {
		p->in_author = false;
	}
	p->depth--;
}

/* Feeds have no business declaring a DTD; refusing it rules out entity
 * expansion attacks (billion laughs) and external entities altogether. */
static void on_doctype(void *data, const char *name, const char *sysid,
		       const char *pubid, int has_internal_subset)
{
	stop(data, WW_EINPUT, "DTDs are not accepted in a feed");
}

static void on_entity_decl(void *data, const char *name, int is_param,
			   const char *value, int value_len, const char *base,
			   const char *sysid, const char *pubid,
			   const char *notation)
{
	stop(data, WW_EINPUT, "entity declarations are not accepted in a feed");
}

int atom_parse(struct atom_feed *out, const char *buf, size_t len)
{
	struct parse p = { 0 };
	int ret = 0;

	if (len > ATOM_MAX_BYTES)
		return error_code(WW_ETOOBIG, "feed is %zu bytes, over the %u byte cap",
				  len, ATOM_MAX_BYTES);
	p.xp = XML_ParserCreateNS(NULL, NS_SEP);
	if (!p.xp)
		return error("cannot create an XML parser");
	p.feed = out;
	strbuf_init(&p.text, 0);
	strbuf_init(&p.title, 0);
	strbuf_init(&p.updated, 0);
	strbuf_init(&p.id, 0);
	strbuf_init(&p.name, 0);
	strbuf_init(&p.email, 0);
	strbuf_init(&p.link, 0);
	strbuf_init(&p.parent, 0);
	XML_SetUserData(p.xp, &p);
	XML_SetElementHandler(p.xp, on_start, on_end);
	XML_SetCharacterDataHandler(p.xp, on_text);
	XML_SetStartDoctypeDeclHandler(p.xp, on_doctype);
	XML_SetEntityDeclHandler(p.xp, on_entity_decl);
	XML_SetParamEntityParsing(p.xp, XML_PARAM_ENTITY_PARSING_NEVER);

	if (XML_Parse(p.xp, buf, (int)len, XML_TRUE) == XML_STATUS_ERROR) {
		unsigned long line = XML_GetCurrentLineNumber(p.xp);
		unsigned long col = XML_GetCurrentColumnNumber(p.xp);

		if (p.err)
			ret = error_code(p.err, "line %lu:%lu: %s", line, col,
					 p.errmsg);
		else
			ret = error_code(WW_EINPUT, "line %lu:%lu: %s", line, col,
					 XML_ErrorString(XML_GetErrorCode(p.xp)));
	}
	XML_ParserFree(p.xp);
	strbuf_release(&p.text);
	strbuf_release(&p.title);
	strbuf_release(&p.updated);
	strbuf_release(&p.id);
	strbuf_release(&p.name);
	strbuf_release(&p.email);
	strbuf_release(&p.link);
	strbuf_release(&p.parent);
	return ret;
}

bool atom_msgid_ok(const char *mid, size_t len)
{
	if (!len || len > ATOM_MAX_MSGID)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = mid[i];

		/* UTF-8 (RFC 6532) is fine; controls, blanks and the
		 * brackets that delimit ids in headers are not. */
		if (c <= 0x20 || c == 0x7f || c == '<' || c == '>')
			return false;
	}
	return true;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int atom_msgid_from_url(struct strbuf *out, const char *url)
{
	size_t end = strcspn(url, "?#"), start;

	while (end && url[end - 1] == '/')
		end--;
	start = end;
	while (start && url[start - 1] != '/')
		start--;
	if (start == end || !start)
		return error_code(WW_EINPUT, "no message-id in URL '%.200s'", url);

	strbuf_reset(out);
	for (size_t i = start; i < end; i++) {
		if (url[i] != '%') {
			strbuf_addch(out, url[i]);
			continue;
		}
		if (i + 2 >= end || hexval(url[i + 1]) < 0 ||
		    hexval(url[i + 2]) < 0)
			return error_code(WW_EINPUT, "bad %%-escape in URL '%.200s'",
					  url);
		strbuf_addch(out, hexval(url[i + 1]) * 16 + hexval(url[i + 2]));
		i += 2;
	}
	if (!atom_msgid_ok(out->buf, out->len) || strlen(out->buf) != out->len)
		return error_code(WW_EINPUT, "implausible message-id in URL '%.200s'",
				  url);
	return 0;
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int num(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

int atom_parse_time(time_t *out, const char *s)
{
	struct tm tm = { 0 };
	const char *p;
	long off = 0;

	/* YYYY-MM-DDTHH:MM:SS */
	if (strlen(s) < 19 || !all_digits(s, 4) || s[4] != '-' ||
	    !all_digits(s + 5, 2) || s[7] != '-' || !all_digits(s + 8, 2) ||
	    (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
	    !all_digits(s + 11, 2) || s[13] != ':' || !all_digits(s + 14, 2) ||
	    s[16] != ':' || !all_digits(s + 17, 2))
		return error_code(WW_EINPUT, "bad timestamp '%.40s'", s);
	tm.tm_year = num(s, 4) - 1900;
	tm.tm_mon = num(s + 5, 2) - 1;
	tm.tm_mday = num(s + 8, 2);
	tm.tm_hour = num(s + 11, 2);
	tm.tm_min = num(s + 14, 2);
	tm.tm_sec = num(s + 17, 2);
	if (tm.tm_mon > 11 || !tm.tm_mday || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return error_code(WW_EINPUT, "bad timestamp '%.40s'", s);
	p = s + 19;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			;
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if ((*p == '+' || *p == '-') && all_digits(p + 1, 2) &&
		   p[3] == ':' && all_digits(p + 4, 2)) {
		off = (num(p + 1, 2) * 60 + num(p + 4, 2)) * 60L;
		if (*p == '-')
			off = -off;
		p += 6;
	} else {
		return error_code(WW_EINPUT, "bad timestamp '%.40s'", s);
	}
	if (*p)
		return error_code(WW_EINPUT, "bad timestamp '%.40s'", s);
	*out = timegm(&tm) - off;
	return 0;
}

void atom_feed_release(struct atom_feed *f)
{
	for (size_t i = 0; i < f->nr; i++) {
		struct atom_entry *e = &f->v[i];

		free(e->message_id);
		free(e->in_reply_to);
		free(e->title);
		free(e->author_name);
		free(e->author_email);
		free(e->updated);
		free(e->id);
	}
	free(f->v);
	free(f->title);
	free(f->updated);
	f->v = NULL;
	f->title = f->updated = NULL;
	f->nr = f->alloc = f->dropped = 0;
}
