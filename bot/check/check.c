/*
 * The check pipeline: diff -> hunks -> pre/post images -> scanner ->
 * findings.  See check.h for what a finding is.
 *
 * Each hunk is scanned twice, as the text the file had (context and
 * removed lines) and as the text it gets (context and added lines), each
 * starting in the lexical state guessed from the hunk alone.  A call
 * whose macro name sits on an added line is new; on a removed line it is
 * gone; on a context line it is neither.  After a patch is read, calls
 * that were only moved, and removals replaced by gentler calls, are
 * paired up so that the author is neither blamed for the first nor
 * denied credit for the second.
 */
#include "check.h"
#include "guard.h"
#include "accept.h"
#include "check-priv.h"
#include "diff.h"
#include "linemap.h"
#include "scan.h"
#include "strvec.h"

#include <ctype.h>

/* One side of a hunk as plain text, and where each of its lines came from. */
struct image {
	struct strbuf text;
	size_t *map;		/* text line -> index in the hunk's lines */
	size_t nr, alloc;
	/* text line -> hunk line of the definition it is in, or FN_* */
	size_t *fn;
	size_t fn_alloc;
	bool fn_ready;
};

#define FN_HEADER SIZE_MAX		/* none in the hunk: the header's */
#define FN_CLOSED (SIZE_MAX - 1)	/* a column-0 '}' closed it: none */

/* Where a finding of the patch being checked came from (for pairing). */
struct where {
	int file;		/* sequence number of the file in the patch */
	int hunk;		/* hunk index in the file */
	size_t pos;		/* line index in the hunk */
	/* origin of the definition line of its function when that line is
	 * in the hunk ('-': the function's old definition, '+': its new
	 * one, ' '), else 0 (the header's, or none) */
	char fn_origin;
};

/* The name given to a macro body whose #define is above the hunk. */
#define HUNK_START_MACRO "__warnwatch_hunk_starts_in_a_macro"

/* A wrapper's #define line the patch removes: where, and what it wrapped. */
struct gone_define {
	char *name;
	char *file;
	int line;
	const struct rule *rule;
};

struct checker {
	struct check_result *out;
	struct ruleset *rs;
	int patch;
	size_t first;		/* the patch's first finding in out->v */
	struct where *where;	/* where[i - first] for finding i */
	size_t where_alloc;
	int file_seq;
	struct image pre, post;
	struct scan_result hits;
	struct strbuf sb;
	struct linemap *map;	/* record every file here, or NULL */
	size_t map_patch;	/* as patch `map_patch` of the map */
	/* #define lines of family wrappers the patch removes (for moves) */
	struct gone_define *gone;
	size_t gone_nr, gone_alloc;
	/* keep what the parse delivers here, to be checked later, or NULL */
	struct kept *keep;
};

/*
 * What the parse of one patch delivered, in order: owned copies of its
 * files, and its damaged hunks.  With --tree, the rules are only known
 * once every path of the series is (the tree's wrappers of the
 * directories it touches): the series is parsed once, kept, and checked
 * from what was kept.
 */
struct kept_item {
	struct diff_file *f;	/* a file, or NULL: a damaged hunk */
	char *file;
	int hunk;
	bool tabs;		/* reason is diff_reason_tabs */
	char *reason;
	char *message;
};

struct kept {
	struct kept_item *v;
	size_t nr, alloc;
};

/* Only what the rules say is scanned (C sources and headers, not Documentation/). */
static bool want_file(const char *path, void *data)
{
	return rules_path_scanned(data, path);
}

static void image_build(struct image *im, const struct diff_hunk *h, char drop)
{
	strbuf_reset(&im->text);
	im->nr = 0;
	im->fn_ready = false;
	for (size_t i = 0; i < h->nr; i++) {
		const struct diff_line *l = &h->lines[i];

		if (l->origin == drop)
			continue;
		ALLOC_GROW(im->map, im->nr + 1, im->alloc);
		im->map[im->nr++] = i;
		strbuf_add(&im->text, l->content, l->len);
		strbuf_addch(&im->text, '\n');
	}
}

static void image_release(struct image *im)
{
	strbuf_release(&im->text);
	free(im->map);
	free(im->fn);
}

/*
 * git's default funcname rule, a little stricter: a line that starts
 * with a letter or '_', has a '(' and is not a statement or a label.
 */
static bool is_definition(const char *s, size_t n)
{
	static const char *const statements[] = {
		"if", "for", "while", "switch", "return", "else", "do",
		"case", "goto", "typedef",
	};
	const char *paren, *end = s + n;
	size_t w;

	if (!n || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	paren = memchr(s, '(', end - s);
	if (!paren || end[-1] == ';')
		return false;
	if (memchr(s, '=', paren - s))
		return false;
	for (w = 0; s + w < end && (isalnum((unsigned char)s[w]) || s[w] == '_'); w++)
		;
	for (size_t i = 0; i < ARRAY_SIZE(statements); i++)
		if (strlen(statements[i]) == w && !memcmp(s, statements[i], w))
			return false;
	return true;
}

/* The identifier before the first '(' of `s`, into `out` ("" if none). */
static void definition_name(struct strbuf *out, const char *s, size_t n)
{
	const char *paren = memchr(s, '(', n), *e, *b;

	strbuf_reset(out);
	if (!paren)
		return;
	e = paren;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	b = e;
	while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	if (b < e && !isdigit((unsigned char)*b))
		strbuf_add(out, b, e - b);
}

/*
 * For each line of the image, the function it is in: the last definition
 * line before it in the hunk, else the hunk header's context, unless a
 * closing brace in column 0 ended that function first.  One pass.
 */
static void image_functions(struct image *im, const struct diff_hunk *h)
{
	size_t state = FN_HEADER;

	ALLOC_GROW(im->fn, im->nr, im->fn_alloc);
	for (size_t k = 0; k < im->nr; k++) {
		const struct diff_line *l = &h->lines[im->map[k]];

		im->fn[k] = state;
		if (l->len && l->content[0] == '}')
			state = FN_CLOSED;
		else if (is_definition(l->content, l->len))
			state = im->map[k];
	}
	im->fn_ready = true;
}

/* The name of the function image line `k` is in ("" if none known). */
static char *function_at(struct strbuf *sb, struct image *im,
			 const struct diff_hunk *h, size_t k)
{
	size_t def;

	if (!im->fn_ready)
		image_functions(im, h);
	def = im->fn[k];
	strbuf_reset(sb);
	if (def == FN_HEADER) {
		if (memchr(h->context, '(', h->context_len))
			definition_name(sb, h->context, h->context_len);
	} else if (def != FN_CLOSED) {
		definition_name(sb, h->lines[def].content, h->lines[def].len);
	}
	return xstrdup(sb->buf);
}

/* Whether `s` (`n` bytes) has the token `__init` (not __initdata). */
static bool has_init_token(const char *s, size_t n)
{
	for (const char *p = s; (p = memmem(p, n - (p - s), "__init", 6)); p += 6) {
		bool before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool after = p + 6 < s + n && (isalnum((unsigned char)p[6]) || p[6] == '_');

		if (!before && !after)
			return true;
	}
	return false;
}

/*
 * Whether the function image line `k` is in (function_at() ran) is
 * marked __init: the token on its definition line, on the line before it
 * when the hunk has one ("static int __init\nfoo_init(void)"), or in the
 * hunk header's context when the definition is above the hunk.
 */
static bool function_is_init(const struct image *im, const struct diff_hunk *h,
			     size_t k)
{
	size_t def = im->fn[k];

	if (def == FN_HEADER)
		return has_init_token(h->context, h->context_len);
	if (def == FN_CLOSED)
		return false;
	return has_init_token(h->lines[def].content, h->lines[def].len) ||
	       (def > 0 && has_init_token(h->lines[def - 1].content,
					  h->lines[def - 1].len));
}

/* The lines around hunk line `at` (to `last`), prefixed, for quoting. */
static char *hunk_window(const struct diff_hunk *h, size_t at, size_t last,
			 int *out_line)
{
	struct strbuf sb = STRBUF_INIT;
	size_t from = at > CHECK_HUNK_CONTEXT ? at - CHECK_HUNK_CONTEXT : 0;
	size_t to = last + CHECK_HUNK_CONTEXT + 1;

	if (to > h->nr)
		to = h->nr;
	/* Shrink from the far ends until it fits. */
	for (;;) {
		size_t bytes = 0;

		for (size_t i = from; i < to; i++)
			bytes += h->lines[i].len + 2;
		if (bytes <= CHECK_HUNK_MAX || (from == at && to == last + 1))
			break;
		if (from < at)
			from++;
		if (to > last + 1)
			to--;
	}
	for (size_t i = from; i < to; i++) {
		const struct diff_line *l = &h->lines[i];
		size_t n = l->len > CHECK_HUNK_MAX ? CHECK_HUNK_MAX : l->len;

		strbuf_addch(&sb, l->origin);
		strbuf_add(&sb, l->content, n);
		strbuf_addch(&sb, '\n');
	}
	*out_line = (int)(at - from);
	return strbuf_detach(&sb, NULL);
}

static char *xstrfmt(const char *fmt, ...) WW_PRINTF(1, 2);
static char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

static struct finding *new_finding(struct checker *c, const struct diff_hunk *h,
				   size_t pos)
{
	struct finding *f;
	struct where *w;

	ALLOC_GROW(c->out->v, c->out->nr + 1, c->out->alloc);
	ALLOC_GROW(c->where, c->out->nr + 1 - c->first, c->where_alloc);
	w = &c->where[c->out->nr - c->first];
	w->file = c->file_seq;
	w->hunk = h->index;
	w->pos = pos;
	w->fn_origin = 0;
	f = &c->out->v[c->out->nr++];
	memset(f, 0, sizeof(*f));
	f->patch = c->patch;
	return f;
}

static enum severity min_severity(enum severity a, enum severity b)
{
	return a < b ? a : b;
}

/* `sev` lowered by the path overrides for `path` (tools/ -> info). */
static enum severity capped(const struct ruleset *rs, const struct rule *r,
			    enum severity sev, const char *path)
{
	struct rule tmp = *r;

	tmp.severity = sev;
	return rules_severity(rs, &tmp, path);
}

/* Thanks for a removal: the rule's credit text, or a generic one. */
static const char *removal_message(const struct rule *r)
{
	if (r->credit && *r->credit)
		return r->credit;
	switch (r->class) {
	case RC_BUG:
	case RC_PANIC:
		return "one way fewer to crash the machine: thank you";
	case RC_DEBUG_ONLY:
		return "one debug-build assertion fewer: thank you";
	default:
		return "one WARN fewer (a crash where panic_on_warn is set): thank you";
	}
}

/*
 * The one rule for a call added in an `__init` function, which check,
 * the hook, serve and review all take from the finding's severity: that
 * code runs only while the kernel (or its module) initialises, where
 * stopping on a failure is accepted practice -- nothing is running yet
 * that a crash would take down, and an initcall's error would only be
 * logged -- so the call is at most info.  (docs/rules.md, "__init".)
 */
static void init_rule(struct finding *f)
{
	struct strbuf sb = STRBUF_INIT;

	if (!f->in_init || f->kind != FINDING_ADDED || f->severity <= SEV_INFO)
		return;
	f->severity = SEV_INFO;
	strbuf_addf(&sb, "%s() is in __init code, which runs only while the kernel or its "
		    "module initialises: a hard failure there is accepted practice",
		    f->rule->macro);
	free(f->message);
	f->message = strbuf_detach(&sb, NULL);
}

/* The debug-only family a guarded wrapper of `wrapped` is reported
 * under (rules/subsystems.json), or NULL. */
static const struct rule *debug_rule(const struct ruleset *rs, const struct rule *wrapped)
{
	const char *id = wrapped->class == RC_BUG || wrapped->class == RC_PANIC ?
			 "debug-only-bug" : "debug-only-warn";

	for (size_t i = 0; i < rs->nr; i++)
		if (rs->rules[i].class == RC_DEBUG_ONLY && rs->rules[i].id &&
		    !strcmp(rs->rules[i].id, id))
			return &rs->rules[i];
	return NULL;
}

/* A WARN_ON(1) that marks a case the code never reaches (guard.h). */
static void unreachable_marker(struct finding *f, enum guard_marker m)
{
	if (m == GUARD_MARKER_NONE)
		return;
	f->unreachable = true;
	f->severity = SEV_INFO;
	free(f->message);
	if (m == GUARD_MARKER_END)
		f->message = xstrfmt("%s() with a true condition just before the function's "
				     "final return, after a block that returns, marks a case "
				     "the code is not meant to reach: the kernel's own practice",
				     f->rule->macro);
	else
		f->message = xstrfmt("%s() with a true condition first in %s marks a case the "
				     "code never reaches: the kernel's own practice", f->rule->macro,
				     m == GUARD_MARKER_DEFAULT ? "a default:" :
				     "the last else of an if/else-if chain");
}

/*
 * An added WARN whose condition is IS_ENABLED() of a debug option (&&
 * the rest): it fires only in a debug build, which distributions leave
 * off -- the debug-only family, as a wrapper under that option is.
 */
static void debug_condition(struct checker *c, struct finding *f)
{
	struct strbuf name = STRBUF_INIT;

	if (!guard_of_call(&name, f->source)) {
		strbuf_release(&name);
		return;
	}
	f->guard = strbuf_detach(&name, NULL);
	f->debug = debug_rule(c->rs, f->rule);
	f->severity = min_severity(f->severity, f->debug ? f->debug->severity : SEV_INFO);
	free(f->message);
	f->message = xstrfmt("%s() fires only when %s is set: a debug-build check",
			     f->rule->macro, f->guard);
}

static void add_call(struct checker *c, const struct diff_file *df,
		     const struct diff_hunk *h, struct image *im, size_t k,
		     const struct scan_hit *hit, size_t last, bool added)
{
	size_t at = im->map[k];
	const struct diff_line *l = &h->lines[at];
	struct finding *f = new_finding(c, h, at);

	f->kind = added ? FINDING_ADDED : FINDING_REMOVED;
	f->file = xstrdup(added ? df->new_path : df->old_path);
	f->line = added ? l->new_lineno : l->old_lineno;
	f->function = function_at(&c->sb, im, h, k);
	if (im->fn[k] != FN_HEADER && im->fn[k] != FN_CLOSED)
		c->where[c->out->nr - 1 - c->first].fn_origin = h->lines[im->fn[k]].origin;
	f->in_init = function_is_init(im, h, k);
	f->rule = hit->rule;
	if (added)
		f->severity = rules_severity(c->rs, hit->rule, f->file);
	else
		f->severity = capped(c->rs, hit->rule, SEV_CREDIT, f->file);
	f->source = xstrdup(hit->text ? hit->text : "");
	f->hunk = hunk_window(h, at, last, &f->hunk_line);
	f->source_lines = (int)(last - at + 1);
	f->message = xstrdup(added ? hit->rule->message : removal_message(hit->rule));
	init_rule(f);
	if (added && (hit->rule->class == RC_WARN || hit->rule->class == RC_WARN_ONCE))
		unreachable_marker(f, guard_unreachable(h, at, hit->col, f->source));
	if (added && (hit->rule->class == RC_WARN || hit->rule->class == RC_WARN_ONCE))
		debug_condition(c, f);
}

/* Wrapper `f` only WARNs in a debug build or under a debug switch. */
static void debug_only(struct checker *c, struct finding *f, const struct diff_hunk *h,
		       size_t at, size_t last)
{
	struct strbuf name = STRBUF_INIT;
	enum guard_kind k = guard_of_define(&name, h, at, last, f->rule->macro);
	const char *what = *f->defined ? f->defined : "the macro";

	if (k == GUARD_NONE) {
		strbuf_release(&name);
		return;
	}
	f->guard = strbuf_detach(&name, NULL);
	f->guard_runtime = k == GUARD_RUNTIME;
	f->debug = debug_rule(c->rs, f->rule);
	f->severity = min_severity(f->severity, f->debug ? f->debug->severity : SEV_INFO);
	free(f->message);
	f->message = xstrfmt(k == GUARD_CONFIG ?
			     "%s%s is a %s() only when %s is set: a debug-build assertion" :
			     "%s%s is a %s() only while the debug switch %s is on: a "
			     "debug-only assertion", what, *f->defined ? "()" : "",
			     f->rule->macro, f->guard);
}

/*
 * A wrapper definition in the post-image: new if its #define line is
 * added, changed if an added line of its body names the macro it wraps.
 */
static void add_define(struct checker *c, const struct diff_file *df,
		       const struct diff_hunk *h, const struct scan_hit *hit,
		       size_t at, size_t last)
{
	const char *macro = hit->rule->macro;
	size_t where = at, n = strlen(macro);
	struct finding *f;

	if (h->lines[at].origin != '+') {
		for (where = at + 1; where <= last; where++) {
			const struct diff_line *l = &h->lines[where];

			if (l->origin == '+' && memmem(l->content, l->len, macro, n))
				break;
		}
		if (where > last)
			return;
	}
	f = new_finding(c, h, where);
	f->kind = FINDING_DEFINE;
	f->file = xstrdup(df->new_path);
	f->line = h->lines[where].new_lineno;
	f->function = xstrdup("");
	f->rule = hit->rule;
	f->severity = min_severity(SEV_WARNING,
				   rules_severity(c->rs, hit->rule, f->file));
	f->source = xstrdup(hit->text ? hit->text : "");
	f->in_body = where != at;
	if (hit->defined && strcmp(hit->defined, HUNK_START_MACRO))
		f->defined = xstrdup(hit->defined);
	else
		f->defined = xstrdup("");	/* its #define is above the hunk */
	f->hunk = hunk_window(h, where, last, &f->hunk_line);
	f->source_lines = (int)(last - where + 1);
	if (*f->defined)
		f->message = xstrfmt("every use of %s() is a %s(); checkpatch does not know that",
				     f->defined, macro);
	else
		f->message = xstrfmt("every use of the macro is a %s(); checkpatch does not know that",
				     macro);
	debug_only(c, f, h, at, last);
}

/*
 * Does the image start inside a macro body whose #define line lies above
 * the hunk?  Its first line then continues onto the next with a
 * backslash, which C code outside a directive never needs.
 */
static bool starts_in_define(const struct image *im)
{
	const char *s = im->text.buf, *nl = memchr(s, '\n', im->text.len), *e;

	if (!nl)
		return false;
	for (e = nl; e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return e > s && e[-1] == '\\' && *s != '#';
}

static void note_gone_define(struct checker *c, const struct diff_file *df,
			     const struct diff_hunk *h, const struct scan_hit *hit,
			     size_t at)
{
	struct gone_define *g;

	if (!hit->defined || !strcmp(hit->defined, HUNK_START_MACRO))
		return;
	ALLOC_GROW(c->gone, c->gone_nr + 1, c->gone_alloc);
	g = &c->gone[c->gone_nr++];
	g->name = xstrdup(hit->defined);
	g->file = xstrdup(df->old_path);
	g->line = h->lines[at].old_lineno;
	g->rule = hit->rule;
}

static void scan_image(struct checker *c, const struct diff_file *df,
		       const struct diff_hunk *h, struct image *im, char origin)
{
	const char *text = im->text.buf;
	size_t len = im->text.len, shift = 0;
	enum scan_state start;

	/* Give a body cut from its #define a head, so it is read as one. */
	if (starts_in_define(im)) {
		strbuf_reset(&c->sb);
		strbuf_addstr(&c->sb, "#define " HUNK_START_MACRO " \\\n");
		strbuf_addbuf(&c->sb, &im->text);
		text = c->sb.buf;
		len = c->sb.len;
		shift = 1;
	}
	start = scan_guess_state(text, len);
	scan_result_clear(&c->hits);
	scan_text(&c->hits, c->rs, text, len, start);
	for (size_t i = 0; i < c->hits.nr; i++) {
		const struct scan_hit *hit = &c->hits.v[i];
		size_t line = hit->line >= shift ? hit->line - shift : 0;

		if (c->out->nr + c->out->nr_notes > CHECK_MAX_FINDINGS)
			break;	/* check_file() reports it */
		size_t end = hit->end_line >= shift ? hit->end_line - shift : 0;
		size_t at, last;

		if (line >= im->nr || !hit->rule)
			continue;
		at = im->map[line];
		last = im->map[end < im->nr && end >= line ? end : line];
		if (hit->kind == HIT_DEFINE) {
			if (origin == '+')
				add_define(c, df, h, hit, at, last);
			else if (h->lines[at].origin == '-')
				note_gone_define(c, df, h, hit, at);
		} else if (h->lines[at].origin == origin) {
			add_call(c, df, h, im, line, hit, last, origin == '+');
		}
	}
}

struct order {
	size_t pos;
	size_t idx;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->pos != y->pos)
		return (x->pos > y->pos) - (x->pos < y->pos);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Keep a hunk's findings in hunk order, removals and additions interleaved. */
static void sort_hunk_findings(struct checker *c, size_t from)
{
	struct check_result *r = c->out;
	size_t n = r->nr - from;
	struct order *o;
	struct finding *f;
	struct where *w;

	if (n < 2)
		return;
	o = xmalloc(n * sizeof(*o));
	f = xmalloc(n * sizeof(*f));
	w = xmalloc(n * sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		o[i].pos = c->where[from + i - c->first].pos;
		o[i].idx = from + i;
	}
	qsort(o, n, sizeof(*o), cmp_order);
	for (size_t i = 0; i < n; i++) {
		f[i] = r->v[o[i].idx];
		w[i] = c->where[o[i].idx - c->first];
	}
	memcpy(r->v + from, f, n * sizeof(*f));
	memcpy(c->where + (from - c->first), w, n * sizeof(*w));
	free(o);
	free(f);
	free(w);
}

static int check_file(const struct diff_file *df, void *data)
{
	struct checker *c = data;

	if (c->keep) {
		ALLOC_GROW(c->keep->v, c->keep->nr + 1, c->keep->alloc);
		c->keep->v[c->keep->nr++] = (struct kept_item){ .f = diff_file_dup(df) };
		return 0;
	}
	if (c->map)
		linemap_add_file(c->map, c->map_patch, df);
	if (df->binary) {
		struct check_note *n;

		ALLOC_GROW(c->out->notes, c->out->nr_notes + 1, c->out->alloc_notes);
		n = &c->out->notes[c->out->nr_notes++];
		n->patch = c->patch;
		n->file = xstrdup(df->new_path);
		n->message = xstrdup("binary change: not scanned");
		return 0;
	}
	if (!df->wanted)
		return 0;	/* delivered for the map only */
	if (c->map && df->nr) {
		struct check_result *r = c->out;

		ALLOC_GROW(r->files, r->nr_files + 1, r->alloc_files);
		r->files[r->nr_files].pos = c->map_patch;
		r->files[r->nr_files++].f = diff_file_dup(df);
	}
	for (size_t i = 0; i < df->nr; i++) {
		const struct diff_hunk *h = &df->hunks[i];
		size_t first = c->out->nr;

		image_build(&c->pre, h, '+');
		image_build(&c->post, h, '-');
		scan_image(c, df, h, &c->pre, '-');
		scan_image(c, df, h, &c->post, '+');
		sort_hunk_findings(c, first);
		if (c->out->nr + c->out->nr_notes > CHECK_MAX_FINDINGS)
			return error_code(WW_ETOOBIG,
					  "more than %d findings, over warnwatch's cap: "
					  "too big to review", CHECK_MAX_FINDINGS);
	}
	c->file_seq++;
	return 0;
}

static bool crashes(enum rule_class c)
{
	return c == RC_BUG || c == RC_PANIC || c == RC_DEBUG_ONLY;
}

static bool warns(enum rule_class c)
{
	return c == RC_WARN || c == RC_WARN_ONCE || c == RC_WARN_LIKE;
}

/* Is replacing a call of class `from` by one of class `to` gentler? */
static bool gentler(enum rule_class from, enum rule_class to)
{
	if (crashes(from))
		return warns(to);
	return (from == RC_WARN || from == RC_WARN_LIKE) && to == RC_WARN_ONCE;
}

/* A removal and an addition this close in one hunk replace each other. */
#define CONVERSION_LINES 12

/*
 * Where a removal and an addition can be one change: the same function
 * of the same file; or, when a function is not known (a diff without
 * function context), nearby lines of the same hunk.  Hunks of diff -ruN
 * between releases span many functions, so "same hunk" alone is not enough.
 */
static bool same_place(const struct checker *c, size_t a, size_t b)
{
	const struct where *wa = &c->where[a - c->first], *wb = &c->where[b - c->first];
	const struct finding *fa = &c->out->v[a], *fb = &c->out->v[b];
	size_t dist = wa->pos > wb->pos ? wa->pos - wb->pos : wb->pos - wa->pos;

	if (wa->file != wb->file)
		return false;
	if (*fa->function && *fb->function)
		return !strcmp(fa->function, fb->function);
	return wa->hunk == wb->hunk && dist <= CONVERSION_LINES;
}

/* The first argument of call text `src`, without blanks, into `out`. */
static void first_arg(struct strbuf *out, const char *src)
{
	const char *p = strchr(src, '(');
	int depth = 0;

	for (p = p ? p + 1 : ""; *p; p++) {
		if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if ((*p == ')' || *p == ']' || *p == '}') && !depth--)
			break;
		else if (*p == ',' && !depth)
			break;
		if (!isspace((unsigned char)*p))
			strbuf_addch(out, *p);
	}
}

static bool same_first_arg(const struct finding *a, const struct finding *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	bool same;

	first_arg(&x, a->source ? a->source : "");
	first_arg(&y, b->source ? b->source : "");
	same = !strcmp(x.buf, y.buf);
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

enum pairing {
	PAIR_MOVE,		/* the same call elsewhere */
	PAIR_MODIFY,		/* the same call, arguments changed in place */
	PAIR_CONVERT,		/* a gentler call in its place */
};

static void pair(const struct checker *c, struct finding *rm,
		 struct finding *add, enum pairing how, struct strbuf *sb)
{
	rm->other = add->rule;
	add->other = rm->rule;
	rm->other_line = add->line;
	add->other_line = rm->line;
	if (how == PAIR_MODIFY) {
		rm->moved = add->moved = true;
		rm->modified = add->modified = true;
		/* panic() has no condition: its message is its argument. */
		rm->same_cond = add->same_cond = rm->rule->class == RC_PANIC ||
						  same_first_arg(rm, add);
		rm->severity = add->severity = SEV_INFO;
		free(rm->message);
		free(add->message);
		strbuf_reset(sb);
		strbuf_addf(sb, "its %s changed by line %d",
			    rm->same_cond ? "arguments" : "condition", add->line);
		rm->message = xstrdup(sb->buf);
		strbuf_reset(sb);
		strbuf_addf(sb, "changed %s of the existing %s() of line %d",
			    rm->same_cond ? "arguments" : "condition", rm->rule->macro, rm->line);
		add->message = xstrdup(sb->buf);
	} else if (how == PAIR_MOVE) {
		rm->moved = add->moved = true;
		rm->severity = add->severity = SEV_INFO;
		free(rm->message);
		free(add->message);
		strbuf_reset(sb);
		strbuf_addf(sb, "moved to %s:%d, unchanged", add->file, add->line);
		rm->message = xstrdup(sb->buf);
		strbuf_reset(sb);
		strbuf_addf(sb, "moved from %s:%d, unchanged: not a new call",
			    rm->file, rm->line);
		add->message = xstrdup(sb->buf);
	} else {
		rm->conversion = add->conversion = true;
		add->severity = capped(c->rs, add->rule, SEV_CREDIT, add->file);
		free(rm->message);
		free(add->message);
		strbuf_reset(sb);
		strbuf_addf(sb, "%s; %s() at line %d takes its place",
			    removal_message(rm->rule), add->rule->macro, add->line);
		rm->message = xstrdup(sb->buf);
		strbuf_reset(sb);
		strbuf_addf(sb, "gentler than the %s() it replaces (line %d): thank you",
			    rm->rule->macro, rm->line);
		/* What review says of it too (plan.c): a plain WARN still
		 * dumps its stack trace on every hit. */
		if (add->rule->class == RC_WARN && add->rule->replacement)
			strbuf_addf(sb, "; %s() would print it once, not on every hit",
				    add->rule->replacement);
		add->message = xstrdup(sb->buf);
	}
}

/*
 * What makes a removed and an added call one moved call: the macro, the
 * call's text without whitespace, and the function (a function moved
 * whole keeps its name, also to another file), or the file when the
 * function is not known.  A short call such as WARN_ON(1) removed in one
 * function and added in another stays two findings: a move hides a call
 * from the review.
 */
struct move_key {
	char *key;
	size_t idx;
};

/* The macro and the call's text without blanks: what a move keeps. */
static void call_key(struct strbuf *sb, const struct finding *f)
{
	strbuf_addstr(sb, f->rule->macro);
	strbuf_addch(sb, '\001');
	for (const char *s = f->source; *s; s++)
		if (!isspace((unsigned char)*s))
			strbuf_addch(sb, *s);
}

static void add_move_key(struct move_key **v, size_t *nr, size_t *alloc,
			 const struct checker *c, size_t idx)
{
	const struct finding *f = &c->out->v[idx];
	struct strbuf sb = STRBUF_INIT;

	call_key(&sb, f);
	strbuf_addch(&sb, '\001');
	if (*f->function)
		strbuf_addstr(&sb, f->function);
	else
		strbuf_addf(&sb, "\002%d", c->where[idx - c->first].file);
	ALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[*nr].key = strbuf_detach(&sb, NULL);
	(*v)[(*nr)++].idx = idx;
}

static int cmp_move_key(const void *a, const void *b)
{
	const struct move_key *x = a, *y = b;
	int d = strcmp(x->key, y->key);

	return d ? d : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Moves: sort both sides by key and pair equal keys in order, O(n log n). */
static void pair_moves(struct checker *c)
{
	struct check_result *r = c->out;
	struct move_key *rm = NULL, *add = NULL;
	size_t nrm = 0, arm = 0, nadd = 0, aadd = 0, i = 0, j = 0;

	for (size_t k = c->first; k < r->nr; k++) {
		if (r->v[k].kind == FINDING_REMOVED)
			add_move_key(&rm, &nrm, &arm, c, k);
		else if (r->v[k].kind == FINDING_ADDED)
			add_move_key(&add, &nadd, &aadd, c, k);
	}
	if (!nrm || !nadd)
		goto out;
	qsort(rm, nrm, sizeof(*rm), cmp_move_key);
	qsort(add, nadd, sizeof(*add), cmp_move_key);
	while (i < nrm && j < nadd) {
		int d = strcmp(rm[i].key, add[j].key);

		if (d < 0) {
			i++;
		} else if (d > 0) {
			j++;
		} else {
			pair(c, &r->v[rm[i].idx], &r->v[add[j].idx], PAIR_MOVE, &c->sb);
			i++;
			j++;
		}
	}
out:
	for (i = 0; i < nrm; i++)
		free(rm[i].key);
	for (j = 0; j < nadd; j++)
		free(add[j].key);
	free(rm);
	free(add);
}

/* How far from a removal (in findings of its hunk) a replacement is looked for. */
#define CONVERSION_SEARCH 64

/*
 * Conversions: a removal and the nearest gentler addition of the same
 * hunk and function (findings are in hunk order).  The search is bounded,
 * so a hunk of thousands of calls stays linear.
 */
static void pair_conversions(struct checker *c)
{
	struct check_result *r = c->out;

	for (size_t i = c->first; i < r->nr; i++) {
		struct finding *rm = &r->v[i];
		const struct where *wi = &c->where[i - c->first];

		if (rm->kind != FINDING_REMOVED || rm->moved || rm->conversion)
			continue;
		for (size_t d = 1; d <= CONVERSION_SEARCH; d++) {
			size_t cand[2] = { i >= c->first + d ? i - d : SIZE_MAX, i + d };
			bool found = false;

			for (int k = 0; k < 2 && !found; k++) {
				size_t j = cand[k];
				struct finding *add;
				const struct where *wj;

				if (j == SIZE_MAX || j >= r->nr)
					continue;
				add = &r->v[j];
				wj = &c->where[j - c->first];
				if (wj->file != wi->file || wj->hunk != wi->hunk ||
				    add->kind != FINDING_ADDED || add->moved ||
				    add->conversion || !same_place(c, i, j) ||
				    !gentler(rm->rule->class, add->rule->class))
					continue;
				pair(c, rm, add, PAIR_CONVERT, &c->sb);
				found = true;
			}
			if (found)
				break;
		}
	}
}

/*
 * Do hunk lines `from` .. `to` (positions in the hunk) of removal `rm`
 * form one change block: removed lines, then added ones, no context
 * between?  Read from rm's quote of its hunk; a block longer than the
 * quote is not one.
 */
static bool one_block(const struct finding *rm, size_t from, size_t to)
{
	const char *p = rm->hunk ? rm->hunk : "";
	size_t k = 0, first = rm->hunk_line, last = first + (to - from);
	bool added = false;

	for (; *p && k <= last; k++) {
		if (k >= first) {
			if (*p == '+')
				added = true;
			else if (*p != '-' || added)
				return false;
		}
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return k > last;
}

/*
 * Modifications: a removal and, below it in the same change block of
 * the same function, the first unpaired addition of the same macro
 * class ("-WARN_ON(a->x);" "+WARN_ON(a->y);").  A changed class is a
 * conversion (or a new, harsher call), never a modification.
 */
static void pair_modifications(struct checker *c)
{
	struct check_result *r = c->out;

	for (size_t i = c->first; i < r->nr; i++) {
		struct finding *rm = &r->v[i];
		const struct where *wi = &c->where[i - c->first];

		if (rm->kind != FINDING_REMOVED || rm->moved || rm->conversion)
			continue;
		for (size_t j = i + 1; j < r->nr && j <= i + CONVERSION_SEARCH; j++) {
			struct finding *add = &r->v[j];
			const struct where *wj = &c->where[j - c->first];

			if (wj->file != wi->file || wj->hunk != wi->hunk)
				break;
			if (add->kind != FINDING_ADDED || add->moved || add->conversion ||
			    wj->pos <= wi->pos || add->rule->class != rm->rule->class ||
			    !same_place(c, i, j))
				continue;
			if (one_block(rm, wi->pos, wj->pos))
				pair(c, rm, add, PAIR_MODIFY, &c->sb);
			break;
		}
	}
}

/*
 * A wrapper whose #define the same patch removes (moved to a header,
 * split by config) is no new wrapper when it wraps nothing harsher than
 * before: its uses were there already (kmsan 2024: KMSAN_WARN_ON() moved
 * from mm/kmsan/kmsan.h to include/linux/kmsan.h, "adds two wrapper
 * macros").  Only whole definitions; a body line changed in place stays.
 */
static void pair_defines(struct checker *c)
{
	struct check_result *r = c->out;

	for (size_t i = c->first; i < r->nr; i++) {
		struct finding *f = &r->v[i];

		if (f->kind != FINDING_DEFINE || f->in_body || !*f->defined)
			continue;
		for (size_t k = 0; k < c->gone_nr; k++) {
			const struct gone_define *g = &c->gone[k];

			if (strcmp(g->name, f->defined) ||
			    (g->rule->class != f->rule->class &&
			     !gentler(g->rule->class, f->rule->class)))
				continue;
			f->moved = true;
			f->severity = SEV_INFO;
			free(f->message);
			f->message = xstrfmt("%s() was defined at %s:%d before this patch: "
					     "no new wrapper", f->defined, g->file, g->line);
			break;
		}
	}
}

/* Neither moved, converted nor changed in place: a call new or gone. */
static bool unpaired(const struct finding *f, enum finding_kind kind)
{
	return f->kind == kind && !f->moved && !f->conversion;
}

/*
 * The first string literal of call text `src` into `sb`, if it has one of
 * at least `min` bytes: a WARN's message, which names the call better
 * than its condition.
 */
static bool call_message(struct strbuf *sb, const char *src, size_t min)
{
	const char *q = strchr(src, '"');

	strbuf_reset(sb);
	if (!q)
		return false;
	for (q++; *q && *q != '"'; q++) {
		if (*q == '\\' && q[1])
			strbuf_addch(sb, *q++);
		strbuf_addch(sb, *q);
	}
	return *q == '"' && sb->len >= min;
}

/* A WARN message this long is one call's own words, not a stock phrase. */
#define MESSAGE_MOVE_MIN 16

/*
 * The same call carried along, its arguments adjusted: a removal and an
 * addition of one macro in one patch, unpaired so far, that are
 *   - in a function of the same name whose definition the patch both
 *     removes and adds (the function moved; ublk 2026: its WARN_ON_ONCE()
 *     now tests disk->state, not ub->ub_disk->state), or
 *   - the same message of at least MESSAGE_MOVE_MIN bytes (9p 2023: the
 *     WARN_ONCE(1, "folio expected an open fid ...") moved into
 *     v9fs_init_request() with rreq->inode for inode).
 * Neither is new nor removed: the call changed, as in place.
 */
static void pair_carried(struct checker *c)
{
	struct check_result *r = c->out;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	for (size_t i = c->first; i < r->nr; i++) {
		struct finding *rm = &r->v[i];
		const struct where *wi = &c->where[i - c->first];
		bool msg;

		if (!unpaired(rm, FINDING_REMOVED))
			continue;
		msg = rm->source && call_message(&a, rm->source, MESSAGE_MOVE_MIN);
		for (size_t j = c->first; j < r->nr; j++) {
			struct finding *add = &r->v[j];
			const struct where *wj = &c->where[j - c->first];
			bool moved_fn, same_msg;

			if (!unpaired(add, FINDING_ADDED) || strcmp(add->rule->macro, rm->rule->macro))
				continue;
			moved_fn = wi->fn_origin == '-' && wj->fn_origin == '+' &&
				   wi->file == wj->file && *rm->function &&
				   !strcmp(rm->function, add->function);
			same_msg = msg && add->source && call_message(&b, add->source,
								      MESSAGE_MOVE_MIN) &&
				   !strcmp(a.buf, b.buf);
			if (moved_fn || same_msg) {
				pair(c, rm, add, PAIR_MODIFY, &c->sb);
				break;
			}
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

/*
 * A removal whose very call (macro and text) the same patch adds back
 * elsewhere, unpaired (a default: BUG() moved into a new helper, which
 * also gets a second one): no thanks for removing it.  The added calls
 * stay new, said as such.
 */
static void unthank_readded(struct checker *c)
{
	struct check_result *r = c->out;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	for (size_t i = c->first; i < r->nr; i++) {
		struct finding *rm = &r->v[i];

		if (!unpaired(rm, FINDING_REMOVED) || rm->severity != SEV_CREDIT)
			continue;
		strbuf_reset(&a);
		call_key(&a, rm);
		for (size_t j = c->first; j < r->nr; j++) {
			const struct finding *add = &r->v[j];

			if (!unpaired(add, FINDING_ADDED))
				continue;
			strbuf_reset(&b);
			call_key(&b, add);
			if (strcmp(a.buf, b.buf))
				continue;
			rm->severity = SEV_INFO;
			rm->readded = true;
			free(rm->message);
			rm->message = xstrfmt("the patch adds the same %s() at %s:%d: not thanked "
					      "as removed", rm->rule->macro, add->file, add->line);
			break;
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

/*
 * Wrappers first, then moves (an unchanged call is not a conversion),
 * then calls changed in place, then conversions, then calls carried
 * along with their function or message; last, what is not thanked.
 */
static void pair_findings(struct checker *c)
{
	pair_defines(c);
	pair_moves(c);
	pair_modifications(c);
	pair_conversions(c);
	pair_carried(c);
	unthank_readded(c);
}

static void count_findings(struct check_result *r, size_t first)
{
	for (size_t i = first; i < r->nr; i++) {
		const struct finding *f = &r->v[i];
		enum rule_class class = f->guard ? RC_DEBUG_ONLY : f->rule->class;

		r->by_severity[f->severity]++;
		if (f->moved)
			r->moved[class] += f->kind == FINDING_ADDED;
		else if (f->kind == FINDING_ADDED)
			r->added[class]++;
		else if (f->kind == FINDING_REMOVED)
			r->removed[class]++;
		if (!f->moved && f->conversion && f->kind == FINDING_ADDED)
			r->converted[class]++;
		if (f->kind != FINDING_REMOVED && f->severity > r->worst &&
		    f->severity != SEV_CREDIT)
			r->worst = f->severity;
	}
}

/*
 * The strings a hunk must contain to be worth scanning: a set of
 * substrings such that every macro name of the ruleset contains one.
 */
const char **check_make_anchors(const struct ruleset *rs)
{
	const char **v = xcalloc(rs->nr + 1, sizeof(*v));
	size_t nr = 0;
	bool *done = xcalloc(rs->nr + 1, sizeof(*done));

	/* Shortest names first, so that "BUG" covers "VM_BUG_ON". */
	for (;;) {
		size_t best = rs->nr;

		for (size_t i = 0; i < rs->nr; i++)
			if (!done[i] && (best == rs->nr ||
					 strlen(rs->rules[i].macro) <
					 strlen(rs->rules[best].macro)))
				best = i;
		if (best == rs->nr)
			break;
		done[best] = true;
		for (size_t k = 0; k < nr; k++)
			if (strstr(rs->rules[best].macro, v[k]))
				goto covered;
		v[nr++] = rs->rules[best].macro;
covered:
		;
	}
	free(done);
	return v;
}

/* diff_opts.damaged: keep it, and go on. */
static void add_damage(const char *file, int hunk, const char *reason,
		       const char *message, void *data)
{
	struct checker *c = data;
	struct check_result *r = c->out;
	struct check_damage *d;

	if (c->keep) {
		ALLOC_GROW(c->keep->v, c->keep->nr + 1, c->keep->alloc);
		c->keep->v[c->keep->nr++] = (struct kept_item){
			.file = xstrdup(file), .hunk = hunk,
			.tabs = reason == diff_reason_tabs, .reason = xstrdup(reason),
			.message = xstrdup(message) };
		return;
	}
	/* a skipped hunk's lines cannot be followed (tabs: all are read) */
	if (c->map && reason != diff_reason_tabs)
		linemap_set_damaged(c->map, c->map_patch);
	ALLOC_GROW(r->damaged, r->nr_damaged + 1, r->alloc_damaged);
	d = &r->damaged[r->nr_damaged++];
	d->patch = c->patch;
	d->file = xstrdup(file);
	d->hunk = hunk;
	d->reason = xstrdup(reason);
	d->message = xstrdup(message);
}

static void checker_init(struct checker *c, struct check_result *out, int patch,
			 const struct check_opts *opts, struct linemap *map,
			 size_t map_patch)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->first = out->nr;
	c->rs = opts->rules;
	c->patch = patch;
	c->map = map;
	c->map_patch = map_patch;
	strbuf_init(&c->pre.text, 0);
	strbuf_init(&c->post.text, 0);
	strbuf_init(&c->sb, 0);
}

/* The patch's findings paired and counted (after a parse that held), and
 * the checker's own memory freed; returns `ret`. */
static int checker_finish(struct checker *c, int ret)
{
	if (ret >= 0 && !c->keep) {
		pair_findings(c);
		count_findings(c->out, c->first);
	}
	free(c->where);
	for (size_t i = 0; i < c->gone_nr; i++) {
		free(c->gone[i].name);
		free(c->gone[i].file);
	}
	free(c->gone);
	image_release(&c->pre);
	image_release(&c->post);
	scan_result_clear(&c->hits);
	strbuf_release(&c->sb);
	return ret;
}

/*
 * The one parse of a diff: its files and damaged hunks go to check_file()
 * and add_damage(), which check them at once or keep them (c->keep).
 * Hunks are chosen by `anchors` (NULL: every hunk).
 */
static int parse_patch(struct checker *c, const char *diff, size_t len,
		       const struct diff_anchors *anchors)
{
	struct diff_opts dopts = DIFF_OPTS_INIT;

	dopts.want_file = want_file;
	dopts.data = c->rs;
	dopts.anchor_set = anchors;
	/* a map, or a later check, needs every file's ranges and path */
	dopts.every_file = c->map || c->keep;
	dopts.damaged = add_damage;
	dopts.damaged_data = c;
	return diff_parse(diff, len, &dopts, check_file, c);
}

/* Findings of one diff, its hunks chosen by `anchors` (made ready by the caller). */
static int check_patch(struct check_result *out, const char *diff, size_t len,
		       int patch, const struct check_opts *opts,
		       const struct diff_anchors *anchors, struct linemap *map,
		       size_t map_patch)
{
	struct checker c;

	checker_init(&c, out, patch, opts, map, map_patch);
	return checker_finish(&c, parse_patch(&c, diff, len, anchors));
}

static void kept_release(struct kept *k)
{
	for (size_t i = 0; i < k->nr; i++) {
		diff_file_free(k->v[i].f);
		free(k->v[i].file);
		free(k->v[i].reason);
		free(k->v[i].message);
	}
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* Findings of one patch from what its parse kept, in the order it came. */
static int check_kept(struct check_result *out, const struct kept *k, int patch,
		      const struct check_opts *opts, struct linemap *map,
		      size_t map_patch)
{
	struct checker c;
	int ret = 0;

	checker_init(&c, out, patch, opts, map, map_patch);
	for (size_t i = 0; ret >= 0 && i < k->nr; i++) {
		const struct kept_item *it = &k->v[i];

		if (it->f)
			ret = check_file(it->f, &c);
		else
			add_damage(it->file, it->hunk, it->tabs ? diff_reason_tabs :
				   it->reason, it->message, &c);
	}
	return checker_finish(&c, ret);
}

/* The hunk filter of a ruleset, ready to search (diff_anchors_free() it). */
static struct diff_anchors *ruleset_anchors(const struct ruleset *rs)
{
	const char **names = check_make_anchors(rs);
	struct diff_anchors *a = diff_anchors_new(names);

	free(names);
	return a;
}

void check_filter_release(struct check_filter *f)
{
	diff_anchors_free(f->anchors);
	f->anchors = NULL;
	f->rules = NULL;
	f->nr_rules = 0;
}

/* Rules are only ever added, so their number tells a stale filter. */
static const struct diff_anchors *filter_for(struct check_filter *f,
					     const struct ruleset *rs)
{
	if (!f->anchors || f->rules != rs || f->nr_rules != rs->nr) {
		check_filter_release(f);
		f->anchors = ruleset_anchors(rs);
		f->rules = rs;
		f->nr_rules = rs->nr;
	}
	return f->anchors;
}

int check_diff(struct check_result *out, const char *diff, size_t len,
	       int patch, const struct check_opts *opts)
{
	struct diff_anchors *own = NULL;
	const struct diff_anchors *anchors;
	int ret;

	if (opts->filter)
		anchors = filter_for(opts->filter, opts->rules);
	else
		anchors = own = ruleset_anchors(opts->rules);
	ret = check_patch(out, diff, len, patch, opts, anchors, NULL, 0);
	diff_anchors_free(own);
	return ret;
}

/*
 * The later patch that removes line `line` of `path` (as patch `pos`
 * left it) again: the first prefix of the series at whose end the line
 * is gone.  0: none, or not known (a damaged patch).
 */
static int removed_by(const struct series *s, const struct linemap *m, size_t pos,
		      const char *path, int line, struct strbuf *tmp)
{
	struct series head = *s;
	struct linemap mhead = *m;
	int at;

	if (linemap_final(&at, tmp, m, s, pos, path, line) < 0) {
		error_clear();
		return 0;
	}
	if (at)
		return 0;
	for (size_t k = pos + 1; k < s->nr; k++) {
		head.nr = mhead.nr = k + 1;
		if (linemap_final(&at, tmp, &mhead, &head, pos, path, line) < 0) {
			error_clear();
			return 0;
		}
		if (!at)
			return s->patches[k].index;
	}
	return 0;
}

/* Does call text `src` test something named (not BUG_ON(1), WARN_ON(0))? */
static bool names_something(const char *src)
{
	const char *open = strchr(src, '(');

	for (const char *p = open ? open + 1 : ""; *p; p++)
		if (isalpha((unsigned char)*p) || *p == '_')
			return true;
	return false;
}

/* "HEAD FILE:LINE (patch N)TAIL" of `at`, the patch only when `other_patch`. */
static char *move_message(const char *head, const struct finding *at, bool other_patch,
			  const char *tail)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s %s:%d", head, at->file, at->line);
	if (other_patch)
		strbuf_addf(&sb, " (patch %d)", at->patch);
	strbuf_addstr(&sb, tail);
	return strbuf_detach(&sb, NULL);
}

static void series_move(struct finding *rm, struct finding *add)
{
	bool other_patch = add->patch != rm->patch;

	rm->moved = add->moved = true;
	rm->severity = add->severity = SEV_INFO;
	rm->other = add->rule;
	add->other = rm->rule;
	rm->other_line = add->line;
	add->other_line = rm->line;
	free(rm->message);
	rm->message = move_message("moved to", add, other_patch, ", unchanged: not a removal");
	free(add->message);
	add->message = move_message("the call removed at", rm, other_patch,
				    ", moved here unchanged: neither new nor removed");
}

/* The key of a series move: the macro and the call's text without blanks;
 * none for calls that test nothing named. */
static bool series_key(struct strbuf *sb, const struct finding *f)
{
	if (!names_something(f->source))
		return false;
	call_key(sb, f);
	return true;
}

/*
 * The condition of the `if` whose body `f` (a constant true call such
 * as WARN_ON(1)) opens: the nearest line of its side above it in its
 * hunk quote, when that is `if (C)` or `if (C) {` on one line.
 */
static bool guarding_if(struct strbuf *out, const struct finding *f)
{
	const char *other = f->kind == FINDING_ADDED ? "-" : "+";
	const char *lines = f->hunk, *p, *eol, *s;
	const char *above = NULL, *above_end = NULL;
	int depth = 0, n = 0;

	for (p = lines; p && *p && n < f->hunk_line; p = eol + 1, n++) {
		eol = strchrnul(p, '\n');
		s = p + 1 + strspn(p + 1, " \t");
		if (*p != *other && s < eol) {
			above = s;
			above_end = eol;
		}
		if (!*eol)
			return false;
	}
	if (!above || strncmp(above, "if", 2) || !(p = above + 2 + strspn(above + 2, " \t")) ||
	    *p != '(')
		return false;
	for (s = p; s < above_end; s++) {
		depth += *s == '(';
		depth -= *s == ')';
		if (!depth)
			break;
	}
	if (s >= above_end)
		return false;
	/* nothing but a `{` after the condition */
	for (eol = s + 1; eol < above_end; eol++)
		if (!isspace((unsigned char)*eol) && *eol != '{')
			return false;
	for (p++; p < s; p++)
		if (!isspace((unsigned char)*p))
			strbuf_addch(out, *p);
	return true;
}

/*
 * The key of a reshaped move: the macro and the condition the call
 * tests, `->` read as `.` (a struct became a pointer to it), with
 * `if (unlikely(C)) { WARN_ON(1); ...` read as WARN_ON(C).  f2fs 2020:
 * recover_dentry()'s `if (unlikely(fname.disk_name.len > F2FS_NAME_LEN))
 * { WARN_ON(1); ...` became init_recovered_filename()'s
 * `if (WARN_ON(fname->disk_name.len > F2FS_NAME_LEN))`: one check,
 * moved, neither new nor removed.
 */
static bool cond_key(struct strbuf *sb, const struct finding *f)
{
	struct strbuf c = STRBUF_INIT;
	bool ok;

	first_arg(&c, f->source);
	if (!strcmp(c.buf, "1") || !strcmp(c.buf, "true")) {
		strbuf_reset(&c);
		if (!f->hunk || !guarding_if(&c, f)) {
			strbuf_release(&c);
			return false;
		}
	}
	if (!strbuf_unwrap(&c, "unlikely("))
		strbuf_unwrap(&c, "likely(");
	ok = c.len && strpbrk(c.buf, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
	if (ok) {
		strbuf_addstr(sb, f->rule->macro);
		strbuf_addch(sb, '\001');
		for (const char *p = c.buf; *p; p++) {
			if (p[0] == '-' && p[1] == '>') {
				strbuf_addch(sb, '.');
				p++;
			} else {
				strbuf_addch(sb, *p);
			}
		}
	}
	strbuf_release(&c);
	return ok;
}

static void reshaped_move(struct finding *rm, struct finding *add)
{
	bool other_patch = add->patch != rm->patch;

	series_move(rm, add);
	free(rm->message);
	rm->message = move_message("moved to", add, other_patch,
				   ", its condition the same: not a removal");
	free(add->message);
	add->message = move_message("the check removed at", rm, other_patch,
				    ", moved here with its condition the same: neither new nor removed");
}

/*
 * Pair, once each, a removed call and an added call of the series with
 * the same key(): the first unpaired addition of that key in the same
 * patch, else in a later one (a removal in a later patch than the
 * addition may remove that very addition: not a move).  join() marks
 * the pair.  Whether anything was paired.
 */
static bool pair_by_key(struct check_result *r,
			bool (*key)(struct strbuf *, const struct finding *),
			void (*join)(struct finding *, struct finding *))
{
	struct move_key *rm = NULL, *add = NULL;
	size_t nrm = 0, arm = 0, nadd = 0, aadd = 0, j = 0;
	struct strbuf sb = STRBUF_INIT;
	bool any = false;

	for (size_t k = 0; k < r->nr; k++) {
		const struct finding *f = &r->v[k];
		struct move_key **v = f->kind == FINDING_REMOVED ? &rm : &add;
		size_t *nr = f->kind == FINDING_REMOVED ? &nrm : &nadd;
		size_t *alloc = f->kind == FINDING_REMOVED ? &arm : &aadd;

		if (f->moved || f->conversion || !f->source ||
		    (f->kind != FINDING_REMOVED && f->kind != FINDING_ADDED))
			continue;
		strbuf_reset(&sb);
		if (!key(&sb, f))
			continue;
		ALLOC_GROW(*v, *nr + 1, *alloc);
		(*v)[*nr].key = xstrdup(sb.buf);
		(*v)[(*nr)++].idx = k;
	}
	if (!nrm || !nadd)
		goto out_free;	/* nothing to pair (and qsort() of NULL is undefined) */
	qsort(rm, nrm, sizeof(*rm), cmp_move_key);
	qsort(add, nadd, sizeof(*add), cmp_move_key);
	for (size_t i = 0; i < nrm; i++) {
		struct finding *a = NULL, *d = &r->v[rm[i].idx];

		while (j < nadd && strcmp(add[j].key, rm[i].key) < 0)
			j++;
		for (size_t k = j; k < nadd && !strcmp(add[k].key, rm[i].key); k++) {
			struct finding *c = &r->v[add[k].idx];

			if (c->moved || c->patch < d->patch)
				continue;
			if (!a || (c->patch == d->patch && a->patch != d->patch))
				a = c;
		}
		if (a) {
			join(d, a);
			any = true;
		}
	}
out_free:
	for (size_t i = 0; i < nrm; i++)
		free(rm[i].key);
	for (size_t i = 0; i < nadd; i++)
		free(add[i].key);
	free(rm);
	free(add);
	strbuf_release(&sb);
	return any;
}

/*
 * Moves across functions and patches: a call removed in one place of
 * the series and added, the same text, in another function or a later
 * patch (a check moved into a helper) is neither new nor removed, once
 * per pair.  Only calls that test something named: BUG_ON(1) removed
 * here and added there are two different calls.  Then the same check
 * reshaped (cond_key()).  Runs after each patch's own pairing
 * (pair_findings()), then counts again.
 */
static void pair_series_moves(struct check_result *r)
{
	bool any = pair_by_key(r, series_key, series_move);

	any |= pair_by_key(r, cond_key, reshaped_move);
	if (any) {
		memset(r->added, 0, sizeof(r->added));
		memset(r->removed, 0, sizeof(r->removed));
		memset(r->moved, 0, sizeof(r->moved));
		memset(r->converted, 0, sizeof(r->converted));
		memset(r->by_severity, 0, sizeof(r->by_severity));
		r->worst = SEV_INFO;
		count_findings(r, 0);
	}
}

/* Set removed_by on every added call of a series of several patches. */
static void mark_removed_later(struct check_result *r, const struct series *s)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t pos = 0;

	for (size_t i = 0; s->nr > 1 && i < r->nr; i++) {
		struct finding *f = &r->v[i];

		if (f->kind != FINDING_ADDED || f->moved)
			continue;
		while (pos < s->nr && s->patches[pos].index != f->patch)
			pos++;
		if (pos == s->nr) {
			pos = 0;
			continue;
		}
		f->removed_by = removed_by(s, r->map, pos, f->file, f->line, &tmp);
	}
	strbuf_release(&tmp);
}

/* Every path the kept patches name, for the tree's wrappers. */
static void kept_paths(struct strvec *out, const struct kept *k, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < k[i].nr; j++)
			if (k[i].v[j].f && !strvec_has(out, k[i].v[j].f->new_path))
				strvec_push(out, k[i].v[j].f->new_path);
}

/*
 * With a tree, the rules grow by the wrappers defined near the files the
 * series touches: each patch is parsed once, every hunk kept (no filter
 * can be made before the rules are known), then checked from its copy.
 */
static int check_series_tree(struct check_result *out, const struct series *s,
			     const struct check_opts *opts)
{
	struct kept *k = xcalloc(s->nr ? s->nr : 1, sizeof(*k));
	struct strvec paths = STRVEC_INIT;
	const struct series_patch *failed = NULL;
	size_t i;
	int ret = 0;

	for (i = 0; ret >= 0 && i < s->nr; i++) {
		struct checker c;

		checker_init(&c, out, s->patches[i].index, opts, NULL, i);
		c.keep = &k[i];
		ret = checker_finish(&c, parse_patch(&c, s->patches[i].diff,
						     s->patches[i].diff_len, NULL));
		failed = ret < 0 ? &s->patches[i] : NULL;
	}
	if (ret >= 0) {
		kept_paths(&paths, k, s->nr);
		ret = check_resolve_wrappers(opts->rules, opts->tree, paths.v);
	}
	for (i = 0; ret >= 0 && i < s->nr; i++) {
		ret = check_kept(out, &k[i], s->patches[i].index, opts, out->map, i);
		failed = ret < 0 ? &s->patches[i] : NULL;
	}
	/* a patch's own failure names it; the tree's does not */
	if (failed && failed->index)
		ret = error_prefix(ret, "patch %d", failed->index);
	for (i = 0; i < s->nr; i++)
		kept_release(&k[i]);
	free(k);
	strvec_clear(&paths);
	return ret;
}

/* Without a tree, the rules are known before the parse: each patch is
 * checked as it is parsed, only the hunks that name a rule's macro read. */
static int check_series_plain(struct check_result *out, const struct series *s,
			      const struct check_opts *opts)
{
	/* once for the series: the rules do not change from patch to patch */
	struct diff_anchors *anchors = ruleset_anchors(opts->rules);
	int ret = 0;

	for (size_t i = 0; i < s->nr; i++) {
		const struct series_patch *p = &s->patches[i];

		ret = check_patch(out, p->diff, p->diff_len, p->index, opts, anchors,
				  out->map, i);
		if (ret < 0) {
			if (p->index)
				ret = error_prefix(ret, "patch %d", p->index);
			break;
		}
	}
	diff_anchors_free(anchors);
	return ret;
}

int check_series(struct check_result *out, const struct series *s,
		 const struct check_opts *opts)
{
	int ret;

	if (out->map)
		linemap_release(out->map);
	else
		out->map = xcalloc(1, sizeof(*out->map));
	linemap_init(out->map, s->nr);
	for (size_t i = 0; i < out->nr_files; i++)
		diff_file_free(out->files[i].f);
	out->nr_files = 0;
	ret = opts->tree ? check_series_tree(out, s, opts) :
			   check_series_plain(out, s, opts);
	if (ret >= 0) {
		pair_series_moves(out);
		mark_removed_later(out, s);
		accept_apply(out, s);
	}
	return ret < 0 ? ret : 0;
}

void check_result_paths(struct strvec *out, const struct check_result *r)
{
	for (size_t i = 0; r->map && i < r->map->nr; i++)
		for (size_t k = 0; k < r->map->patches[i].nr; k++) {
			const char *path = r->map->patches[i].files[k].new_path;

			if (!strvec_has(out, path))
				strvec_push(out, path);
		}
}

const struct diff_hunk *check_hunk_of(const struct check_result *r, size_t pos,
				      const char *file, int line)
{
	for (size_t i = 0; i < r->nr_files; i++) {
		const struct diff_file *df = r->files[i].f;

		if (r->files[i].pos != pos || strcmp(df->new_path, file))
			continue;
		for (size_t h = 0; h < df->nr; h++)
			for (size_t k = 0; k < df->hunks[h].nr; k++)
				if (df->hunks[h].lines[k].origin == '+' &&
				    df->hunks[h].lines[k].new_lineno == line)
					return &df->hunks[h];
	}
	return NULL;
}

void check_finding_title(struct strbuf *out, const struct finding *f)
{
	const char *macro = f->rule->macro;

	switch (f->kind) {
	case FINDING_DEFINE:
		if (!*f->defined)
			strbuf_addf(out, "a macro body now calls %s()", macro);
		else if (f->in_body)
			strbuf_addf(out, "macro %s() now calls %s()", f->defined, macro);
		else if (f->moved)
			strbuf_addf(out, "wrapper %s() around %s() moved", f->defined, macro);
		else
			strbuf_addf(out, "defines wrapper %s() around %s()", f->defined, macro);
		break;
	case FINDING_REMOVED:
		if (f->modified)
			strbuf_addf(out, "%s of %s() changed",
				    f->same_cond ? "arguments" : "condition", macro);
		else if (f->moved)
			strbuf_addf(out, "%s() moved", macro);
		else if (f->conversion && f->other)
			strbuf_addf(out, "%s() converted to %s()", macro, f->other->macro);
		else
			strbuf_addf(out, "removed %s()", macro);
		break;
	case FINDING_ADDED:
		if (f->modified)
			strbuf_addf(out, "%s of %s() changed",
				    f->same_cond ? "arguments" : "condition", macro);
		else if (f->moved)
			strbuf_addf(out, "%s() moved", macro);
		else if (f->conversion && f->other)
			strbuf_addf(out, "new %s() replacing %s()", macro, f->other->macro);
		else
			strbuf_addf(out, f->whole_file ? "%s()" : "new %s()", macro);
		break;
	}
	if (f->function && *f->function)
		strbuf_addf(out, " in %s()", f->function);
}

void check_result_clear(struct check_result *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		struct finding *f = &r->v[i];

		free(f->file);
		free(f->function);
		free(f->source);
		free(f->defined);
		free(f->hunk);
		free(f->message);
		free(f->accepted);
		free(f->guard);
	}
	free(r->v);
	for (size_t i = 0; i < r->nr_stale; i++) {
		free(r->stale[i].file);
		free(r->stale[i].function);
		free(r->stale[i].reason);
		free(r->stale[i].why);
	}
	free(r->stale);
	for (size_t i = 0; i < r->nr_notes; i++) {
		free(r->notes[i].file);
		free(r->notes[i].message);
	}
	free(r->notes);
	for (size_t i = 0; i < r->nr_damaged; i++) {
		free(r->damaged[i].file);
		free(r->damaged[i].reason);
		free(r->damaged[i].message);
	}
	free(r->damaged);
	if (r->map) {
		linemap_release(r->map);
		free(r->map);
	}
	for (size_t i = 0; i < r->nr_files; i++)
		diff_file_free(r->files[i].f);
	free(r->files);
	memset(r, 0, sizeof(*r));
	r->worst = SEV_INFO;
}
