/*
 * The template engine: a template is parsed into a tree of nodes once,
 * rendered against a tree of values, and the result is filled into
 * paragraphs.  See template.h for the syntax and the escaping policy.
 */
#include "template.h"
#include "quote.h"
#include "strvec.h"

#include <ctype.h>

/* The filler's hard-break marker.  Values cannot contain it (template_clean
 * drops every C0 byte but TAB and LF), so only {{br}} produces it. */
#define BREAK_MARK '\001'

/* ---- values ------------------------------------------------------------ */

struct tmpl_entry {
	char *name;
	char *str;			/* a string value, or NULL for a list */
	struct tmpl_vars **items;
	size_t nr, alloc;
};

struct tmpl_vars {
	struct tmpl_entry *v;
	size_t nr, alloc;
};

struct tmpl_vars *tmpl_vars_new(void)
{
	return xcalloc(1, sizeof(struct tmpl_vars));
}

static void entry_release(struct tmpl_entry *e)
{
	free(e->str);
	for (size_t i = 0; i < e->nr; i++)
		tmpl_vars_free(e->items[i]);
	free(e->items);
	e->str = NULL;
	e->items = NULL;
	e->nr = e->alloc = 0;
}

void tmpl_vars_free(struct tmpl_vars *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nr; i++) {
		entry_release(&v->v[i]);
		free(v->v[i].name);
	}
	free(v->v);
	free(v);
}

static struct tmpl_entry *find_entry(const struct tmpl_vars *v, const char *name)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i].name, name))
			return &v->v[i];
	return NULL;
}

static struct tmpl_entry *get_entry(struct tmpl_vars *v, const char *name)
{
	struct tmpl_entry *e = find_entry(v, name);

	if (e)
		return e;
	ALLOC_GROW(v->v, v->nr + 1, v->alloc);
	e = &v->v[v->nr++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	return e;
}

void tmpl_set(struct tmpl_vars *v, const char *name, const char *value)
{
	struct tmpl_entry *e;

	if (!value) {
		e = find_entry(v, name);
		if (e)
			entry_release(e);
		return;
	}
	e = get_entry(v, name);
	entry_release(e);
	e->str = xstrdup(value);
}

void tmpl_setf(struct tmpl_vars *v, const char *name, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	tmpl_set(v, name, sb.buf);
	strbuf_release(&sb);
}

void tmpl_set_bool(struct tmpl_vars *v, const char *name, bool on)
{
	tmpl_set(v, name, on ? "1" : NULL);
}

struct tmpl_vars *tmpl_add(struct tmpl_vars *v, const char *name)
{
	struct tmpl_entry *e = get_entry(v, name);
	struct tmpl_vars *item;

	if (e->str) {
		free(e->str);
		e->str = NULL;
	}
	item = tmpl_vars_new();
	/* An array of pointers, on purpose: items are handed out. */
	ALLOC_GROW(e->items, e->nr + 1, e->alloc); /* NOLINT(bugprone-sizeof-expression) */
	e->items[e->nr++] = item;
	return item;
}

const char *tmpl_get(const struct tmpl_vars *v, const char *name)
{
	const struct tmpl_entry *e = find_entry(v, name);

	return e ? e->str : NULL;
}

/* ---- escaping ---------------------------------------------------------- */

void template_clean(struct strbuf *out, const char *in, size_t len)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0;

	strbuf_grow(out, len);
	while (i < len) {
		size_t n;

		if (p[i] < 0x80) {
			if (p[i] >= 0x20 ? p[i] != 0x7f : (p[i] == '\t' || p[i] == '\n'))
				strbuf_addch(out, p[i]);
			i++;
			continue;
		}
		n = quote_utf8_len(p + i, len - i);
		if (n == 2 && p[i] == 0xc2 && p[i + 1] <= 0x9f) {
			/* C1 controls are controls too. */
			i += n;
		} else if (n) {
			strbuf_add(out, p + i, n);
			i += n;
		} else {
			strbuf_addstr(out, "\xef\xbf\xbd");
			i++;
		}
	}
}

size_t template_columns(const char *s, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '\t')
			col = (col + 8) & ~(size_t)7;
		else if ((c & 0xc0) != 0x80 && c != BREAK_MARK)
			col++;
	}
	return col;
}

/* ---- parsing ----------------------------------------------------------- */

enum node_type {
	N_TEXT,
	N_VAR,
	N_SECTION,
	N_INVERTED,
	N_PARTIAL,
	N_BREAK,
};

struct node {
	enum node_type type;
	char *text;		/* N_TEXT: the text; others: the name */
	size_t len;
	int line;
	struct node_list {
		struct node *v;
		size_t nr, alloc;
	} kids;
};

static void node_list_release(struct node_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].text);
		node_list_release(&l->v[i].kids);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

static struct node *node_add(struct node_list *l, enum node_type type,
			     const char *text, size_t len, int line)
{
	struct node *n;

	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	n = &l->v[l->nr++];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->text = xmemdupz(text, len);
	n->len = len;
	n->line = line;
	return n;
}

struct parser {
	const char *src;
	size_t len;
	const char *name;
	/* Open sections; stack[0] is the top-level list. */
	struct node_list *stack[TEMPLATE_MAX_DEPTH + 1];
	int stack_line[TEMPLATE_MAX_DEPTH + 1];
	int depth;
};

static int line_of(const struct parser *p, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off && i < p->len; i++)
		if (p->src[i] == '\n')
			line++;
	return line;
}

static int parse_error(const struct parser *p, size_t off, const char *what,
		       const char *name)
{
	return error_code(WW_EINPUT, "template '%s' line %d: %s%s%s%s",
			  p->name, line_of(p, off), what, name ? " '" : "",
			  name ? name : "", name ? "'" : "");
}

static bool valid_name(const char *s, size_t len)
{
	if (!len)
		return false;
	if (len == 1 && s[0] == '.')
		return true;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.@", s[i]))
			return false;
	return true;
}

static bool is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

/* The tag between "{{" and "}}" without its blanks, and its sigil (0: none). */
static void read_tag(const char **tag, size_t *tag_len, char *sigil, const char *open,
		     const char *close)
{
	const char *t = open + 2;
	size_t n = close - t;

	while (n && isspace((unsigned char)*t))
		t++, n--;
	while (n && isspace((unsigned char)t[n - 1]))
		n--;
	*sigil = n ? t[0] : 0;
	if (*sigil == '#' || *sigil == '^' || *sigil == '/' || *sigil == '>' || *sigil == '!') {
		t++, n--;
		while (n && isspace((unsigned char)*t))
			t++, n--;
	} else {
		*sigil = 0;
	}
	*tag = t;
	*tag_len = n;
}

/* The node of tag `tag` (sigil `sigil`, at byte `start`): a section opened
 * or closed, a partial, a line break or a variable. */
static int add_tag(struct parser *p, char sigil, const char *tag, size_t tag_len,
		   size_t start)
{
	struct node_list *parent;
	struct node *n;
	int ret;

	if (!valid_name(tag, tag_len)) {
		struct strbuf nm = STRBUF_INIT;

		template_clean(&nm, tag, tag_len > 40 ? 40 : tag_len);
		ret = parse_error(p, start, "bad tag name", nm.buf);
		strbuf_release(&nm);
		return ret;
	}
	if (sigil == '#' || sigil == '^') {
		if (p->depth >= TEMPLATE_MAX_DEPTH)
			return parse_error(p, start, "sections nested too deeply", NULL);
		n = node_add(p->stack[p->depth], sigil == '#' ? N_SECTION : N_INVERTED,
			     tag, tag_len, line_of(p, start));
		p->depth++;
		p->stack[p->depth] = &n->kids;
		p->stack_line[p->depth] = n->line;
	} else if (sigil == '/') {
		if (!p->depth) {
			char *want = xstrndup(tag, tag_len);

			ret = parse_error(p, start, "closing a section that is not open:", want);
			free(want);
			return ret;
		}
		parent = p->stack[p->depth - 1];
		n = &parent->v[parent->nr - 1];
		if (n->len != tag_len || memcmp(n->text, tag, tag_len) != 0)
			return parse_error(p, start, "wrong closing tag for section", n->text);
		p->depth--;
	} else if (sigil == '>') {
		node_add(p->stack[p->depth], N_PARTIAL, tag, tag_len, line_of(p, start));
	} else if (tag_len == 2 && !memcmp(tag, "br", 2)) {
		node_add(p->stack[p->depth], N_BREAK, "", 0, 0);
	} else {
		node_add(p->stack[p->depth], N_VAR, tag, tag_len, 0);
	}
	return 0;
}

static int parse(struct node_list *out, const char *src, size_t len,
		 const char *name)
{
	struct parser p = { src, len, name, { out }, { 0 }, 0 };
	size_t pos = 0;
	int ret = 0;

	while (pos < len && !ret) {
		const char *open = memmem(src + pos, len - pos, "{{", 2);
		size_t start, end, text_end, after, tag_len, line_start;
		const char *close, *tag;
		char sigil;
		bool standalone;

		if (!open) {
			node_add(p.stack[p.depth], N_TEXT, src + pos, len - pos, 0);
			break;
		}
		start = open - src;
		close = memmem(open + 2, len - start - 2, "}}", 2);
		if (!close) {
			ret = parse_error(&p, start, "unterminated tag", NULL);
			break;
		}
		end = close + 2 - src;
		read_tag(&tag, &tag_len, &sigil, open, close);

		/* A standalone block tag takes its whole line with it. */
		line_start = start;
		while (line_start > 0 && src[line_start - 1] != '\n')
			line_start--;
		after = end;
		while (after < len && (src[after] == ' ' || src[after] == '\t'))
			after++;
		standalone = sigil && pos <= line_start &&
			     is_blank(src + line_start, start - line_start) &&
			     (after == len || src[after] == '\n');
		text_end = standalone ? line_start : start;
		if (text_end > pos)
			node_add(p.stack[p.depth], N_TEXT, src + pos, text_end - pos, 0);
		pos = standalone ? (after < len ? after + 1 : len) : end;
		if (sigil != '!')
			ret = add_tag(&p, sigil, tag, tag_len, start);
	}
	if (!ret && p.depth) {
		struct node_list *parent = p.stack[p.depth - 1];

		ret = error_code(WW_EINPUT, "template '%s' line %d: section '%s' is not closed",
				 name, p.stack_line[p.depth], parent->v[parent->nr - 1].text);
	}
	if (ret)
		node_list_release(out);
	return ret;
}

/* ---- rendering --------------------------------------------------------- */

struct frame {
	const struct tmpl_vars *vars;	/* names visible at this level, or NULL */
	const char *self;		/* {{.}} */
	size_t index, count;		/* list position (count 0: not a list) */
	const struct frame *up;
};

struct render {
	const struct template_opts *opts;
	int depth;
};

/* Found value: either a string or a list entry. */
struct found {
	const char *str;
	const struct tmpl_entry *list;
};

static bool lookup(struct found *out, const struct frame *f, const char *name)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(name, ".")) {
		for (; f; f = f->up)
			if (f->self) {
				out->str = f->self;
				return true;
			}
		return false;
	}
	if (name[0] == '@') {
		static char num[32];

		for (; f && !f->count; f = f->up)
			;
		if (!f)
			return false;
		if (!strcmp(name, "@index")) {
			snprintf(num, sizeof(num), "%zu", f->index + 1);
			out->str = num;
		} else if (!strcmp(name, "@first")) {
			out->str = f->index == 0 ? "1" : "";
		} else if (!strcmp(name, "@last")) {
			out->str = f->index + 1 == f->count ? "1" : "";
		} else {
			return false;
		}
		return true;
	}
	for (; f; f = f->up) {
		const struct tmpl_entry *e;

		if (!f->vars)
			continue;
		e = find_entry(f->vars, name);
		if (!e || (!e->str && !e->nr && !e->items))
			continue;
		if (e->str)
			out->str = e->str;
		else
			out->list = e;
		return true;
	}
	return false;
}

static bool truthy(const struct found *v)
{
	return v->str ? *v->str != 0 : v->list && v->list->nr > 0;
}

static int render_file(struct strbuf *out, const char *dir, const char *file,
		       const struct frame *f, struct render *r);

static int render_nodes(struct strbuf *out, const struct node_list *l,
			const struct frame *f, struct render *r)
{
	int ret = 0;

	for (size_t i = 0; i < l->nr && !ret; i++) {
		const struct node *n = &l->v[i];
		struct found v;

		switch (n->type) {
		case N_TEXT:
			strbuf_add(out, n->text, n->len);
			break;
		case N_BREAK:
			strbuf_addch(out, BREAK_MARK);
			break;
		case N_VAR:
			if (lookup(&v, f, n->text) && v.str)
				template_clean(out, v.str, strlen(v.str));
			break;
		case N_INVERTED:
			if (!lookup(&v, f, n->text) || !truthy(&v))
				ret = render_nodes(out, &n->kids, f, r);
			break;
		case N_SECTION:
			if (!lookup(&v, f, n->text) || !truthy(&v))
				break;
			if (v.str) {
				struct frame sub = { NULL, v.str, 0, 0, f };

				ret = render_nodes(out, &n->kids, &sub, r);
				break;
			}
			for (size_t k = 0; k < v.list->nr && !ret; k++) {
				struct frame sub = { v.list->items[k], NULL, k,
						     v.list->nr, f };

				ret = render_nodes(out, &n->kids, &sub, r);
			}
			break;
		case N_PARTIAL:
			if (!r->opts->dir)
				return error_code(WW_EINPUT, "template '%s' line %d: no partials here",
						  r->opts->name, n->line);
			if (n->text[0] == '.' || strchr(n->text, '/'))
				return error_code(WW_EINPUT, "template '%s' line %d: bad partial name '%s'",
						  r->opts->name, n->line, n->text);
			ret = render_file(out, r->opts->dir, n->text, f, r);
			break;
		}
	}
	return ret;
}

static int render_text(struct strbuf *out, const char *text, size_t len,
		       const struct frame *f, struct render *r)
{
	struct node_list nodes = { NULL, 0, 0 };
	int ret;

	/* Text is handled as C strings: a NUL byte would cut it short. */
	if (memchr(text, '\0', len))
		return error_code(WW_EINPUT, "template '%s' has a NUL byte", r->opts->name);
	if (++r->depth > TEMPLATE_MAX_DEPTH) {
		r->depth--;
		return error_code(WW_EINPUT, "template '%s': partials nested too deeply",
				  r->opts->name);
	}
	ret = parse(&nodes, text, len, r->opts->name);
	if (!ret)
		ret = render_nodes(out, &nodes, f, r);
	node_list_release(&nodes);
	r->depth--;
	return ret;
}

static int render_file(struct strbuf *out, const char *dir, const char *file,
		       const struct frame *f, struct render *r)
{
	struct template_opts sub = *r->opts;
	const struct template_opts *saved = r->opts;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", dir, file);
	ret = strbuf_read_file(&text, path.buf, TEMPLATE_MAX_BYTES);
	if (ret)
		goto out;
	sub.name = file;
	r->opts = &sub;
	ret = render_text(out, text.buf, text.len, f, r);
	r->opts = saved;
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

static void strip_marks(struct strbuf *sb)
{
	size_t j = 0;

	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] != BREAK_MARK)
			sb->buf[j++] = sb->buf[i];
	strbuf_setlen(sb, j);
}

static int finish(struct strbuf *out, struct strbuf *raw, unsigned int width)
{
	if (width)
		template_fill(out, raw->buf, raw->len, width);
	else {
		strip_marks(raw);
		strbuf_addbuf(out, raw);
	}
	return 0;
}

int template_render(struct strbuf *out, const char *text, size_t len,
		    const struct tmpl_vars *vars,
		    const struct template_opts *opts)
{
	struct template_opts defaults = TEMPLATE_OPTS_INIT;
	struct render r = { opts ? opts : &defaults, 0 };
	struct frame top = { vars, NULL, 0, 0, NULL };
	struct strbuf raw = STRBUF_INIT;
	int ret;

	if (len > TEMPLATE_MAX_BYTES)
		return error_code(WW_ETOOBIG, "template '%s' is over %u bytes",
				  r.opts->name, TEMPLATE_MAX_BYTES);
	ret = render_text(&raw, text, len, &top, &r);
	if (!ret)
		ret = finish(out, &raw, r.opts->width);
	strbuf_release(&raw);
	return ret;
}

int template_render_file(struct strbuf *out, const char *dir, const char *file,
			 const struct tmpl_vars *vars, unsigned int width)
{
	struct template_opts opts = { dir, file, width };
	struct render r = { &opts, 0 };
	struct frame top = { vars, NULL, 0, 0, NULL };
	struct strbuf raw = STRBUF_INIT;
	int ret;

	ret = render_file(&raw, dir, file, &top, &r);
	if (!ret)
		ret = finish(out, &raw, width);
	strbuf_release(&raw);
	return ret;
}

/* ---- filling ----------------------------------------------------------- */

struct para {
	struct strvec words;	/* BREAK_MARK alone is a hard break */
	char *marker;		/* "- " for a list item, or "" */
	size_t hang;		/* indentation of continuation lines */
	bool open;
};

static bool is_verbatim(const char *line, size_t len)
{
	return len && strchr(">| \t", line[0]);
}

/* Length of a list marker ("- ", "* ", "12. ") at the start of `line`. */
static size_t list_marker(const char *line, size_t len)
{
	size_t i = 0;

	if (len >= 2 && (line[0] == '-' || line[0] == '*') && line[1] == ' ')
		return 2;
	while (i < len && i < 3 && isdigit((unsigned char)line[i]))
		i++;
	if (i && i + 1 < len && line[i] == '.' && line[i + 1] == ' ')
		return i + 2;
	return 0;
}

static void para_words(struct para *p, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t start;

		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= len)
			break;
		if (s[i] == BREAK_MARK) {
			strvec_push(&p->words, "\001");
			i++;
			continue;
		}
		start = i;
		while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != BREAK_MARK) {
			/* `inline code` is one word: never broken inside,
			 * but a hard break ends it even there. */
			if (s[i] == '`') {
				const char *brk = memchr(s + i + 1, BREAK_MARK, len - i - 1);
				size_t span = brk ? (size_t)(brk - s) - i - 1 : len - i - 1;
				const char *close = memchr(s + i + 1, '`', span);

				if (close)
					i = close - s;
			}
			i++;
		}
		strvec_pushf(&p->words, "%.*s", (int)(i - start), s + start);
	}
}

static void emit_line(struct strbuf *out, struct strbuf *line)
{
	strbuf_rtrim(line);
	strbuf_addbuf(out, line);
	strbuf_addch(out, '\n');
	strbuf_reset(line);
}

/*
 * May word `w` begin a line of a mail body?  Not a '>' (every mail
 * reader shows the line as a quote: a folded "a > b" did, in a reply's
 * condition), nor "From" (mbox escapes it to ">From").
 */
static bool may_start_line(const char *w)
{
	return w[0] != '>' && strcmp(w, "From");
}

static void para_flush(struct strbuf *out, struct para *p, unsigned int width)
{
	struct strbuf line = STRBUF_INIT, carry = STRBUF_INIT;
	size_t col = 0, last = 0;	/* `last`: where the line's last word starts */
	bool first = true, empty = true;

	if (!p->open)
		return;
	for (size_t i = 0; i < p->words.nr; i++) {
		const char *w = p->words.v[i];
		size_t wl = strlen(w), wc = template_columns(w, wl);

		if (w[0] == BREAK_MARK) {
			if (!empty) {
				emit_line(out, &line);
				empty = true;
			}
			continue;
		}
		if (!empty && (col + 1 + wc <= width ||
			       (!may_start_line(w) && (!last || !may_start_line(line.buf + last))))) {
			/* it fits, or it cannot start a line and no word can
			 * go down with it: an overlong line beats a false quote */
			last = line.len + 1;
			strbuf_addch(&line, ' ');
			strbuf_add(&line, w, wl);
			col += 1 + wc;
			continue;
		}
		strbuf_reset(&carry);
		if (!empty && !may_start_line(w)) {
			/* the line's last word goes down with it */
			strbuf_addstr(&carry, line.buf + last);
			strbuf_setlen(&line, last - 1);
		}
		if (!empty)
			emit_line(out, &line);
		if (first)
			strbuf_addstr(&line, p->marker);
		else
			strbuf_addchars(&line, ' ', p->hang);
		first = false;
		last = 0;
		col = p->hang;
		if (carry.len) {
			strbuf_addbuf(&line, &carry);
			strbuf_addch(&line, ' ');
			col += template_columns(carry.buf, carry.len) + 1;
			last = line.len;
		}
		strbuf_add(&line, w, wl);
		col += wc;
		empty = false;
	}
	strbuf_release(&carry);
	if (!empty)
		emit_line(out, &line);
	strbuf_release(&line);
	strvec_clear(&p->words);
	free(p->marker);
	p->marker = NULL;
	p->hang = 0;
	p->open = false;
}

static void para_start(struct para *p, const char *marker, size_t len)
{
	p->open = true;
	p->marker = xstrndup(marker, len);
	p->hang = len;
}

void template_fill(struct strbuf *out, const char *text, size_t len,
		   unsigned int width)
{
	struct para p = { STRVEC_INIT, NULL, 0, false };
	bool in_sig = false;
	size_t pos = 0;

	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos, m;
		bool has_nl = nl != NULL;

		pos += n + has_nl;
		if (in_sig || (n == 3 && !memcmp(line, "-- ", 3)) ||
		    is_blank(line, n) || (is_verbatim(line, n) &&
		    !(p.open && p.hang && n > p.hang && is_blank(line, p.hang) &&
		      line[p.hang] != ' ' && line[p.hang] != '\t'))) {
			struct strbuf sb = STRBUF_INIT;

			para_flush(out, &p, width);
			if (n == 3 && !memcmp(line, "-- ", 3))
				in_sig = true;
			strbuf_add(&sb, line, n);
			strip_marks(&sb);
			if (is_blank(sb.buf, sb.len)) {
				strbuf_reset(&sb);
				/* One blank line separates; more is layout noise. */
				if (!in_sig && out->len >= 2 &&
				    !memcmp(out->buf + out->len - 2, "\n\n", 2)) {
					strbuf_release(&sb);
					continue;
				}
			}
			strbuf_addbuf(out, &sb);
			if (has_nl)
				strbuf_addch(out, '\n');
			strbuf_release(&sb);
			continue;
		}
		m = list_marker(line, n);
		if (m) {
			para_flush(out, &p, width);
			para_start(&p, line, m);
			para_words(&p, line + m, n - m);
		} else {
			/* Only indented lines continue a list item. */
			if (p.open && p.hang && !(n > p.hang && is_blank(line, p.hang)))
				para_flush(out, &p, width);
			if (!p.open)
				para_start(&p, "", 0);
			para_words(&p, line, n);
		}
		if (!has_nl) {
			/* Keep "no newline at the end" as it was. */
			size_t before = out->len;

			para_flush(out, &p, width);
			if (out->len > before && out->buf[out->len - 1] == '\n')
				strbuf_setlen(out, out->len - 1);
		}
	}
	para_flush(out, &p, width);
}
