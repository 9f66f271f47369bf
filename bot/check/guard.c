/*
 * What guards an added BUG/WARN, read from its hunk (guard.h): debug
 * options and switches around a wrapper's WARN, and unreachable markers.
 */
#include "guard.h"

#include <ctype.h>

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether identifier `id` (`n` bytes) names a debug option or switch:
 * "DEBUG" or "debug"/"dbg" as one of its '_'-separated words
 * (CONFIG_FUSE_IOMAP_DEBUG, fuse_iomap_debug, XFS_DEBUG, dbg_on). */
static bool debug_name(const char *id, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t w = i;

		while (w < n && id[w] != '_')
			w++;
		if ((w - i == 5 && !strncasecmp(id + i, "debug", 5)) ||
		    (w - i == 3 && !strncasecmp(id + i, "dbg", 3)))
			return true;
		i = w + 1;
	}
	return false;
}

/*
 * The first debug identifier of `s` (`n` bytes), appended to `out`:
 * whether there is one, and whether a '!' negates it ("!defined(X)",
 * "!IS_ENABLED(X)", "!x").  A condition with "||" guards nothing: the
 * other side may hold in any build.
 */
static bool debug_ident(struct strbuf *out, bool *negated, const char *s, size_t n)
{
	if (memmem(s, n, "||", 2))
		return false;
	for (size_t i = 0; i < n;) {
		size_t e = i;

		if (!ident_char(s[i]) || (i && ident_char(s[i - 1]))) {
			i++;
			continue;
		}
		while (e < n && ident_char(s[e]))
			e++;
		if (!isdigit((unsigned char)s[i]) && debug_name(s + i, e - i)) {
			size_t k = i;

			/* Back over "defined(", "IS_ENABLED(", "&", blanks. */
			while (k > 0 && (isspace((unsigned char)s[k - 1]) || s[k - 1] == '(' ||
					 s[k - 1] == '&' || ident_char(s[k - 1])))
				k--;
			*negated = k > 0 && s[k - 1] == '!';
			strbuf_add(out, s + i, e - i);
			return true;
		}
		i = e;
	}
	return false;
}

/* The directive on `l` ("if", "ifdef", ...) and where its text starts. */
static size_t directive(const char **rest, const struct diff_line *l)
{
	const char *p = l->content, *end = l->content + l->len, *w;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || *p != '#')
		return 0;
	p++;
	while (p < end && isspace((unsigned char)*p))
		p++;
	for (w = p; w < end && ident_char(*w); w++)
		;
	*rest = w;
	return w - p;
}

static bool is(const char *w, size_t n, const char *name)
{
	return n == strlen(name) && !strncmp(w - n, name, n);
}

/* One #if open above the line being judged. */
struct cond {
	size_t line;		/* hunk line of the #if/#elif in force */
	bool ifndef;		/* #ifndef: the branch holds when the name is unset */
	bool in_else;		/* past its #else */
};

static enum guard_kind config_guard(struct strbuf *out, const struct diff_hunk *h,
				   size_t at)
{
	struct cond stack[16] = { { 0 } };
	size_t depth = 0, over = 0;

	for (size_t i = 0; i < at && i < h->nr; i++) {
		const struct diff_line *l = &h->lines[i];
		const char *rest;
		size_t n;

		if (l->origin == '-' || !(n = directive(&rest, l)))
			continue;
		if (is(rest, n, "if") || is(rest, n, "ifdef") || is(rest, n, "ifndef")) {
			if (depth == ARRAY_SIZE(stack)) {
				over++;
				continue;
			}
			stack[depth++] = (struct cond){ i, is(rest, n, "ifndef"), false };
		} else if (over && is(rest, n, "endif")) {
			over--;
		} else if (depth && is(rest, n, "elif")) {
			stack[depth - 1] = (struct cond){ i, false, false };
		} else if (depth && is(rest, n, "else")) {
			stack[depth - 1].in_else = !stack[depth - 1].in_else;
		} else if (depth && is(rest, n, "endif")) {
			depth--;
		}
	}
	for (size_t d = depth; d-- > 0;) {
		const struct diff_line *l = &h->lines[stack[d].line];
		const char *rest;
		size_t n = directive(&rest, l), len = out->len;
		bool negated = false;

		(void)n;
		if (!debug_ident(out, &negated, rest, l->content + l->len - rest))
			continue;
		/* The branch holds with the option set? */
		if ((negated != stack[d].ifndef) == stack[d].in_else)
			return GUARD_CONFIG;
		strbuf_setlen(out, len);
	}
	return GUARD_NONE;
}

/* The bracket closing the one (`open`) at body[i], or n. */
static size_t matching(const char *body, size_t n, size_t i, char open, char close)
{
	int depth = 0;

	for (; i < n; i++) {
		depth += body[i] == open;
		depth -= body[i] == close;
		if (!depth)
			return i;
	}
	return n;
}

static size_t close_paren(const char *body, size_t n, size_t i)
{
	return matching(body, n, i, '(', ')');
}

/* The end of the statement or block that starts at body[i] (after an
 * if's condition). */
static size_t statement_end(const char *body, size_t n, size_t i)
{
	int depth = 0;

	while (i < n && isspace((unsigned char)body[i]))
		i++;
	if (i < n && body[i] == '{')
		return matching(body, n, i, '{', '}');
	for (; i < n; i++) {
		depth += body[i] == '(';
		depth -= body[i] == ')';
		if (depth <= 0 && body[i] == ';')
			return i;
	}
	return n;
}

/* Is the call at `pos` inside an `if` whose condition names a debug
 * variable (appended to `out`)? */
static bool switched(struct strbuf *out, const char *body, size_t n, size_t pos)
{
	for (size_t i = 0; i + 2 < pos; i++) {
		size_t open, close, end;
		bool negated = false;

		if (strncmp(body + i, "if", 2) || (i && ident_char(body[i - 1])) ||
		    ident_char(body[i + 2]))
			continue;
		for (open = i + 2; open < n && isspace((unsigned char)body[open]); open++)
			;
		if (open >= n || body[open] != '(')
			continue;
		close = close_paren(body, n, open);
		end = statement_end(body, n, close + 1);
		if (pos < open || pos > end)
			continue;
		if (debug_ident(out, &negated, body + open, close - open) && !negated)
			return true;
	}
	return false;
}

/* Does the first argument of the call whose '(' is at body[open] name a
 * debug variable: WARN(fuse_iomap_debug, ...), WARN_ON(dbg && c)? */
static bool first_arg_debug(struct strbuf *out, const char *body, size_t n, size_t open)
{
	size_t close = close_paren(body, n, open), e = open + 1;
	int depth = 0;
	bool negated = false;

	for (; e < close; e++) {
		depth += body[e] == '(';
		depth -= body[e] == ')';
		if (!depth && body[e] == ',')
			break;
	}
	return debug_ident(out, &negated, body + open + 1, e - open - 1) && !negated;
}

static enum guard_kind runtime_guard(struct strbuf *out, const struct diff_hunk *h,
				     size_t at, size_t last, const char *macro)
{
	struct strbuf body = STRBUF_INIT, name = STRBUF_INIT;
	size_t m = strlen(macro), calls = 0, guarded = 0;
	enum guard_kind kind = GUARD_NONE;
	const char *p, *params;

	for (size_t i = at; i <= last && i < h->nr; i++) {
		if (h->lines[i].origin == '-')
			continue;
		strbuf_add(&body, h->lines[i].content, h->lines[i].len);
		strbuf_addch(&body, ' ');
	}
	/* After "#define NAME(params)": the body. */
	params = strchr(body.buf, '(');
	p = params ? body.buf + close_paren(body.buf, body.len, params - body.buf) : body.buf;
	for (; p && (p = strstr(p, macro)); p += m) {
		size_t pos = p - body.buf, k = pos + m;

		if ((pos && ident_char(p[-1])) || ident_char(p[m]))
			continue;
		while (k < body.len && isspace((unsigned char)body.buf[k]))
			k++;
		if (k >= body.len || body.buf[k] != '(')
			continue;
		calls++;
		strbuf_reset(&name);
		guarded += switched(&name, body.buf, body.len, pos) ||
			   first_arg_debug(&name, body.buf, body.len, k);
	}
	if (calls && guarded == calls)
		/* if (IS_ENABLED(CONFIG_X_DEBUG)) in the body: a build option. */
		kind = strncmp(name.buf, "CONFIG_", 7) ? GUARD_RUNTIME : GUARD_CONFIG;
	if (kind != GUARD_NONE)
		strbuf_addbuf(out, &name);
	strbuf_release(&body);
	strbuf_release(&name);
	return kind;
}

enum guard_kind guard_of_define(struct strbuf *out, const struct diff_hunk *h,
				size_t at, size_t last, const char *macro)
{
	enum guard_kind k = config_guard(out, h, at);

	return k != GUARD_NONE ? k : runtime_guard(out, h, at, last, macro);
}

/* Is `s` (`n` bytes) "IS_ENABLED(CONFIG_NAME)", blanks around, with a
 * debug NAME?  The option goes to `out`. */
static bool debug_config_operand(struct strbuf *out, const char *s, size_t n)
{
	static const char is[] = "IS_ENABLED(";
	size_t k = sizeof(is) - 1, e, close;

	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n < k + 1 || strncmp(s, is, k) || s[n - 1] != ')')
		return false;
	close = n - 1;
	while (k < close && isspace((unsigned char)s[k]))
		k++;
	while (close > k && isspace((unsigned char)s[close - 1]))
		close--;
	if (close - k < 8 || strncmp(s + k, "CONFIG_", 7))
		return false;
	for (e = k; e < close && ident_char(s[e]); e++)
		;
	if (e != close || !debug_name(s + k + 7, e - k - 7))
		return false;
	strbuf_add(out, s + k, e - k);
	return true;
}

bool guard_of_call(struct strbuf *out, const char *call)
{
	const char *a = strchr(call, '(');
	size_t n = a ? strlen(a) : 0, end, from = 1;
	int depth = 0;

	if (!a)
		return false;
	/* the first argument: to a top-level ',' or the closing ')' */
	for (end = 1; end < n; end++) {
		depth += a[end] == '(';
		depth -= a[end] == ')';
		if (depth < 0 || (!depth && a[end] == ','))
			break;
	}
	/* unclosed, or a || somewhere: its other side may hold in any build */
	if (end >= n || memmem(a + 1, end - 1, "||", 2))
		return false;
	depth = 0;
	for (size_t i = 1; i <= end; i++) {
		if (i < end) {
			depth += a[i] == '(';
			depth -= a[i] == ')';
			if (depth || a[i] != '&' || a[i + 1] != '&')
				continue;
		}
		if (debug_config_operand(out, a + from, i - from))
			return true;
		from = i + 2;
		i++;
	}
	return false;
}

/* Does `s` (`n` bytes, blanks trimmed) end with the label "default:"? */
static bool ends_default(const char *s, size_t n)
{
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n && s[n - 1] == '{') {
		n--;
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
	}
	if (n && s[n - 1] == ':') {
		n--;
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
	}
	else
		return false;
	return n >= 7 && !strncmp(s + n - 7, "default", 7) &&
	       (n == 7 || !ident_char(s[n - 8]));
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

/* `s` (`n` bytes) trimmed: "else", "else {", "} else {" (a line that opens an else). */
static bool is_else(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n && *s == '}') {
		s++, n--;
		while (n && isspace((unsigned char)*s))
			s++, n--;
	}
	if (n && s[n - 1] == '{') {
		n--;
		while (n && isspace((unsigned char)s[n - 1]))
			n--;
	}
	return n == 4 && !strncmp(s, "else", 4);
}

/* Leading blanks of `l`, a tab to 8 columns. */
static size_t indent(const struct diff_line *l)
{
	size_t col = 0;

	for (size_t i = 0; i < l->len && (l->content[i] == ' ' || l->content[i] == '\t'); i++)
		col = l->content[i] == '\t' ? (col + 8) & ~(size_t)7 : col + 1;
	return col;
}

/* Is the else on line `at` of `h` the last of a chain: an "else if" at its
 * depth above it, before the chain's "if"? */
static bool ends_chain(const struct diff_hunk *h, size_t at)
{
	size_t depth = indent(&h->lines[at]);

	for (size_t i = at; i-- > 0;) {
		const struct diff_line *l = &h->lines[i];
		const char *s = l->content + strspn(l->content, " \t");
		size_t n = l->len - (s - l->content);

		if (l->origin == '-' || blank(l->content, l->len) || indent(l) != depth)
			continue;
		if (n && *s == '}')
			s++, n--;
		s += strspn(s, " \t");
		n = l->len - (s - l->content);
		if (n >= 7 && !strncmp(s, "else if", 7))
			return true;
		if (n >= 2 && !strncmp(s, "if", 2) && !ident_char(s[2]))
			return false;
	}
	return false;
}

/* `l` trimmed starts with word `w` (a keyword: not a longer name). */
static bool starts_word(const struct diff_line *l, const char *w)
{
	const char *s = l->content;
	size_t n = l->len, m = strlen(w);

	while (n && isspace((unsigned char)*s))
		s++, n--;
	return n >= m && !strncmp(s, w, m) && (n == m || !ident_char(s[m]));
}

/* `l` trimmed is exactly `w` ("}"). */
static bool is_only(const struct diff_line *l, const char *w)
{
	const char *s = l->content;
	size_t n = l->len, m = strlen(w);

	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return n == m && !strncmp(s, w, m);
}

/* A line of the post-image worth reading: not removed, not blank, not a
 * comment (an opening slash-star or a //, or a block comment's next lines
 * starting with a lone star; `*p = 0;` is code). */
static bool code_line(const struct diff_line *l)
{
	const char *s = l->content + strspn(l->content, " \t");
	size_t n = l->len - (s - l->content);
	bool comment = n >= 2 && (!strncmp(s, "/*", 2) || !strncmp(s, "//", 2));

	if (n && *s == '*')
		comment = n == 1 || s[1] == ' ' || s[1] == '\t' || s[1] == '/';
	return l->origin != '-' && !blank(l->content, l->len) && !comment;
}

/* The next code line of `h` after `i`, or h->nr. */
static size_t next_code(const struct diff_hunk *h, size_t i)
{
	while (++i < h->nr && !code_line(&h->lines[i]))
		;
	return i;
}

/*
 * The WARN on line `at` (indent `depth`, one tab: the function's own
 * body) sits just before the function's final return, after a block
 * that returns: the line above is a return nested deeper (an if or for
 * without braces) or the `}` of a block whose last line is a return.
 * f2fs_bdev_index(), qat_vf_pci_step_device_state(): "should not get here".
 */
static bool ends_function(const struct diff_hunk *h, size_t at, size_t depth)
{
	size_t i = at, ret, end;

	if (depth != 8)
		return false;
	/* the WARN's statement ends with ';' (it may span lines) */
	while (i < h->nr && !(h->lines[i].len && memchr(h->lines[i].content, ';', h->lines[i].len)))
		i++;
	ret = next_code(h, i);
	end = ret < h->nr ? next_code(h, ret) : h->nr;
	if (end >= h->nr || !starts_word(&h->lines[ret], "return") ||
	    indent(&h->lines[ret]) != depth || !is_only(&h->lines[end], "}") ||
	    indent(&h->lines[end]) != 0)
		return false;
	for (i = at; i-- > 0;) {
		const struct diff_line *l = &h->lines[i];

		if (!code_line(l))
			continue;
		if (indent(l) > depth)
			return starts_word(l, "return");
		if (indent(l) < depth || !is_only(l, "}"))
			return false;
		while (i-- > 0) {
			if (code_line(&h->lines[i]))
				return indent(&h->lines[i]) > depth &&
				       starts_word(&h->lines[i], "return");
		}
		return false;
	}
	return false;
}

enum guard_marker guard_unreachable(const struct diff_hunk *h, size_t at, size_t col,
				    const char *call)
{
	const char *a = strchr(call, '('), *e;
	const struct diff_line *l;

	/* A constant true condition: WARN_ON(1), WARN(1, ...), WARN_ON_ONCE(true). */
	if (!a)
		return GUARD_MARKER_NONE;
	for (a++; isspace((unsigned char)*a); a++)
		;
	for (e = a; ident_char(*e); e++)
		;
	if (!((e - a == 1 && *a == '1') || (e - a == 4 && !strncmp(a, "true", 4))))
		return GUARD_MARKER_NONE;
	while (isspace((unsigned char)*e))
		e++;
	if (*e != ',' && *e != ')')
		return GUARD_MARKER_NONE;
	/* First after "default:", on its line or the nearest line above;
	 * or first in an else, on the nearest line above. */
	if (at >= h->nr)
		return GUARD_MARKER_NONE;
	l = &h->lines[at];
	if (col > l->len)
		return GUARD_MARKER_NONE;
	if (!blank(l->content, col))
		return ends_default(l->content, col) ? GUARD_MARKER_DEFAULT : GUARD_MARKER_NONE;
	for (size_t i = at; i-- > 0;) {
		l = &h->lines[i];
		if (l->origin == '-' || blank(l->content, l->len))
			continue;
		if (ends_default(l->content, l->len))
			return GUARD_MARKER_DEFAULT;
		if (is_else(l->content, l->len))
			return ends_chain(h, i) ? GUARD_MARKER_ELSE : GUARD_MARKER_NONE;
		break;
	}
	return ends_function(h, at, indent(&h->lines[at])) ? GUARD_MARKER_END :
	       GUARD_MARKER_NONE;
}
