/*
 * The C-aware scanner: one pass over a hunk's text with a small C lexer,
 * finding the calls of the macros the rules name.
 *
 * The lexer knows what a compiler's first phases know and no more:
 * comments, string and character literals, line splices, preprocessor
 * directives.  On top of it a call is "a rule's name, not after '.' or
 * '->' or a type, followed by '('", and it ends at the matching ')'.
 * Nothing is ever read past `len` (the text is not NUL-terminated), odd
 * input just ends the scan, and the work is linear in the input: the
 * one-line text of each call is collected while the main pass goes on,
 * and stops growing at SCAN_TEXT_MAX bytes.
 */
#include "scan.h"
#include "scan-priv.h"
#include "strbuf.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A call's text is cut here (then "..." is added). */
#define SCAN_TEXT_MAX 200

/*
 * The fast path finds a call from its '(' and looks backwards for the name
 * and the token before it, stepping over blanks: whitespace and the spans
 * recorded here (comments, directives, "#if 0" blocks).  Only the last few
 * can lie between a name and its neighbours.
 */
#define SCAN_BLANK_SPANS 64

struct span {
	const char *start, *end;
	bool literal;		/* a string or character literal, not a blank */
	bool directive;		/* a directive (or an "#if 0" block) */
};

/* A call being read: its hit, the paren depth before its '(', its text. */
struct open_call {
	size_t hit;
	size_t depth;
	struct strbuf text;
	bool full;
};

struct scanner {
	struct scan_result *out;
	const struct ruleset *rs;
	const char *text;	/* start of the text */
	bool calls;		/* report HIT_CALL (not for scan_defines) */
	bool wrappers_only;	/* defines: only names that say BUG/WARN... */
	struct lexer lx;
	struct token pending;	/* a token read ahead, if has_pending */
	bool has_pending;

	struct token prev;	/* last token outside directives */
	struct token before_stars; /* last token before a run of '*' */
	size_t depth;		/* parenthesis depth */
	unsigned if0;		/* nesting inside "#if 0", 0 when live */

	struct open_call *open;
	size_t nr_open, alloc_open;
	size_t collecting;	/* open[collecting..] still collect text */
	size_t last_line;	/* line of the last token */

	/* The fast path counts lines lazily: lx.line is right at line_pos. */
	const char *line_pos;
	/* The fast path's memory of what is not code, newest last. */
	struct span blank[SCAN_BLANK_SPANS];
	size_t nr_blank;	/* spans recorded so far (ring index mod size) */
	const char *dead_start;	/* where the current "#if 0" began */
};

static void next_token(struct scanner *sc, struct token *t)
{
	if (sc->has_pending) {
		*t = sc->pending;
		sc->has_pending = false;
		return;
	}
	scan_lex_next(&sc->lx, t);
}

static void unread_token(struct scanner *sc, const struct token *t)
{
	sc->pending = *t;
	sc->has_pending = true;
}

/* The token after the current one, without consuming it. */
static void peek_token(struct scanner *sc, struct token *t)
{
	next_token(sc, t);
	unread_token(sc, t);
}

/*
 * Make `sb` one line of valid UTF-8 no longer than SCAN_TEXT_MAX (+ "...")
 * so that it can go into JSON and a terminal as it is.
 */
static char *text_finish(struct strbuf *sb, bool truncated)
{
	size_t i, len = sb->len;

	if (len > SCAN_TEXT_MAX) {
		len = SCAN_TEXT_MAX;
		/* Do not cut a UTF-8 sequence in two. */
		while (len && ((unsigned char)sb->buf[len] & 0xc0) == 0x80)
			len--;
		truncated = true;
	}
	strbuf_setlen(sb, len);
	for (i = 0; i < sb->len; ) {
		unsigned char c = sb->buf[i];
		size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
			   (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
		size_t k;

		if (c < 0x20 || c == 0x7f) {
			sb->buf[i++] = ' ';
			continue;
		}
		for (k = 1; n && k < n; k++)
			if (i + k >= sb->len ||
			    ((unsigned char)sb->buf[i + k] & 0xc0) != 0x80)
				n = 0;
		if ((n == 2 && c < 0xc2) || (n == 4 && c > 0xf4))
			n = 0;
		if (!n) {
			sb->buf[i++] = '?';
			continue;
		}
		i += n;
	}
	if (truncated)
		strbuf_addstr(sb, "...");
	return strbuf_detach(sb, NULL);
}

/* Add a token to a one-line text: one space where there was any blank. */
static void text_add(struct strbuf *sb, const struct token *t)
{
	size_t room;

	if (t->ws && sb->len)
		strbuf_addch(sb, ' ');
	/* A few bytes past the cap tell text_finish() to add "...". */
	room = sb->len < SCAN_TEXT_MAX + 4 ? SCAN_TEXT_MAX + 4 - sb->len : 0;
	strbuf_add(sb, t->s, t->len < room ? t->len : room);
}

static void call_text_done(struct scanner *sc, struct open_call *oc,
			   bool truncated)
{
	struct scan_hit *h = &sc->out->v[oc->hit];

	h->text = text_finish(&oc->text, truncated);
	oc->full = true;
}

/* Every open call that still collects text gets the token. */
static void collect(struct scanner *sc, const struct token *t)
{
	size_t i;

	for (i = sc->collecting; i < sc->nr_open; i++) {
		struct open_call *oc = &sc->open[i];

		text_add(&oc->text, t);
		if (oc->text.len > SCAN_TEXT_MAX) {
			/*
			 * Outer calls hold everything inner ones hold, so
			 * the full ones are always the bottom of the stack.
			 */
			call_text_done(sc, oc, true);
			sc->collecting = i + 1;
		}
	}
}

static struct scan_hit *new_hit(struct scanner *sc, enum scan_hit_kind kind,
				const struct rule *r, const struct token *t)
{
	struct scan_hit *h;

	ALLOC_GROW(sc->out->v, sc->out->nr + 1, sc->out->alloc);
	h = &sc->out->v[sc->out->nr++];
	memset(h, 0, sizeof(*h));
	h->kind = kind;
	h->rule = r;
	h->line = h->end_line = t->line;
	h->col = t->col;
	return h;
}

static void open_call(struct scanner *sc, const struct rule *r,
		      const struct token *t)
{
	struct open_call *oc;

	new_hit(sc, HIT_CALL, r, t);
	ALLOC_GROW(sc->open, sc->nr_open + 1, sc->alloc_open);
	oc = &sc->open[sc->nr_open++];
	oc->hit = sc->out->nr - 1;
	oc->depth = sc->depth;
	strbuf_init(&oc->text, 0);
	oc->full = false;
}

static void close_call(struct scanner *sc, size_t end_line, bool truncated)
{
	struct open_call *oc = &sc->open[--sc->nr_open];

	sc->out->v[oc->hit].end_line = end_line;
	if (!oc->full)
		call_text_done(sc, oc, truncated);
	if (sc->collecting > sc->nr_open)
		sc->collecting = sc->nr_open;
}

/* Is the rule-named identifier `t` (just read) a call? */
static bool is_call(struct scanner *sc, const struct token *t)
{
	const struct token *p = &sc->prev;
	struct token next;

	if (p->kind == TK_PUNCT && (tok_is(p, ".") || tok_is(p, "->")))
		return false;	/* a member: x.BUG_ON(), ops->panic() */
	if (p->kind == TK_IDENT && !scan_lex_is_expr_keyword(p))
		return false;	/* a declaration: void panic(...) */
	if (tok_punct(p, '*') && sc->before_stars.kind == TK_IDENT &&
	    !scan_lex_is_expr_keyword(&sc->before_stars))
		return false;	/* char *panic(...) */
	peek_token(sc, &next);
	return tok_punct(&next, '(');
}

/* A name that says it asserts: BUG, WARN, ASSERT, PANIC ("debug" aside). */
static bool wrapper_like_name(const char *name)
{
	static const char *const words[] = { "bug", "warn", "assert", "panic" };
	char low[128];
	size_t i, n = strlen(name);
	char *d;

	if (n >= sizeof(low))
		n = sizeof(low) - 1;
	for (i = 0; i < n; i++)
		low[i] = name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i];
	low[n] = '\0';
	while ((d = strstr(low, "debug")))
		memset(d, '_', 5);
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strstr(low, words[i]))
			return true;
	return false;
}

/*
 * The body of "#define NAME..." up to the end of the directive: the most
 * severe family macro it uses, not as a member, not stringified or pasted.
 */
static void scan_define(struct scanner *sc, const struct token *hash,
			struct strbuf *text)
{
	struct token name, t, prev = { 0 };
	const struct rule *best = NULL;
	struct scan_hit *h;
	char *defined;

	next_token(sc, &name);
	if (name.kind != TK_IDENT || name.bol) {
		unread_token(sc, &name);
		return;
	}
	text_add(text, &name);
	sc->last_line = name.end_line;
	for (;;) {
		const struct rule *r;

		next_token(sc, &t);
		if (t.kind == TK_EOF || t.bol) {
			unread_token(sc, &t);
			break;
		}
		text_add(text, &t);
		sc->last_line = t.end_line;
		if (t.kind == TK_IDENT && (r = rules_lookup(sc->rs, t.s, t.len)) &&
		    !(prev.kind == TK_PUNCT &&
		      (tok_is(&prev, ".") || tok_is(&prev, "->") ||
		       tok_is(&prev, "#") || tok_is(&prev, "##")))) {
			struct token next;

			/*
			 * A call, or an alias: the name ends the body
			 * ("#define DBG_BUGON BUG_ON").  Not an argument
			 * ("STR(BUG_ON)") nor pasted ("BUG_ON ## x").
			 */
			peek_token(sc, &next);
			if ((next.kind == TK_EOF || next.bol ||
			     tok_punct(&next, '(')) &&
			    (!best || r->severity > best->severity))
				best = r;
		}
		prev = t;
	}
	if (!best || sc->if0)
		return;
	defined = xstrndup(name.s, name.len);
	if (rules_lookup(sc->rs, name.s, name.len) ||
	    rules_ignored(sc->rs, defined) ||
	    (sc->wrappers_only && !wrapper_like_name(defined))) {
		free(defined);
		return;
	}
	h = new_hit(sc, HIT_DEFINE, best, hash);
	h->col = name.col;
	h->end_line = sc->last_line;
	h->defined = defined;
	h->text = text_finish(text, false);
}

/* A directive whose '#' was just read: #define, "#if 0" nesting, or skipped. */
static void scan_directive(struct scanner *sc, const struct token *hash)
{
	struct strbuf text = STRBUF_INIT;
	struct token t;

	sc->last_line = hash->end_line;
	text_add(&text, hash);
	next_token(sc, &t);
	if (t.kind == TK_EOF || t.bol) {
		unread_token(sc, &t);
		goto out;
	}
	text_add(&text, &t);
	if (t.kind == TK_IDENT && tok_is(&t, "define")) {
		scan_define(sc, hash, &text);
	} else if (t.kind == TK_IDENT &&
		   (tok_is(&t, "if") || tok_is(&t, "ifdef") || tok_is(&t, "ifndef"))) {
		struct token c1, c2;
		bool zero = false;

		/* Only a literal "#if 0" starts dead code we can be sure of. */
		next_token(sc, &c1);
		if (c1.kind == TK_EOF || c1.bol) {
			unread_token(sc, &c1);
		} else {
			next_token(sc, &c2);
			unread_token(sc, &c2);
			zero = tok_is(&t, "if") && tok_is(&c1, "0") &&
			       (c2.kind == TK_EOF || c2.bol);
		}
		if (sc->if0)
			sc->if0++;
		else if (zero)
			sc->if0 = 1;
	} else if (t.kind == TK_IDENT &&
		   (tok_is(&t, "else") || tok_is(&t, "elif"))) {
		if (sc->if0 == 1)
			sc->if0 = 0;
	} else if (t.kind == TK_IDENT && tok_is(&t, "endif")) {
		if (sc->if0)
			sc->if0--;
	}
	/* The rest of the directive. */
	for (;;) {
		next_token(sc, &t);
		if (t.kind == TK_EOF || t.bol) {
			unread_token(sc, &t);
			break;
		}
		sc->last_line = t.end_line;
	}
out:
	strbuf_release(&text);
}

/* Go back to the start of a token read ahead, so the byte loop rereads it. */
static void unpend(struct scanner *sc)
{
	if (!sc->has_pending)
		return;
	sc->lx.p = sc->pending.s;
	sc->lx.line = sc->pending.line;
	sc->lx.lstart = sc->pending.s - sc->pending.col;
	sc->lx.bol = sc->pending.bol;
	sc->lx.ws = sc->pending.ws;
	sc->has_pending = false;
}

/* One token of the slow loop: the one that reads the inside of calls. */
static void slow_token(struct scanner *sc, struct token *t)
{
	if (t->bol && tok_punct(t, '#')) {
		scan_directive(sc, t);
		return;
	}
	sc->last_line = t->end_line;
	if (sc->if0)
		return;
	if (t->kind == TK_IDENT && sc->calls) {
		const struct rule *r = rules_lookup(sc->rs, t->s, t->len);

		if (r && is_call(sc, t))
			open_call(sc, r, t);
	}
	collect(sc, t);
	if (tok_punct(t, '(')) {
		sc->depth++;
	} else if (tok_punct(t, ')') && sc->depth) {
		sc->depth--;
		while (sc->nr_open && sc->open[sc->nr_open - 1].depth == sc->depth)
			close_call(sc, t->end_line, false);
	}
	if (tok_punct(t, '*') && !tok_punct(&sc->prev, '*'))
		sc->before_stars = sc->prev;
	sc->prev = *t;
}

/* Token by token while a call is open: its end and its text. */
static void scan_slow(struct scanner *sc)
{
	struct token t;

	while (sc->nr_open) {
		next_token(sc, &t);
		if (t.kind == TK_EOF)
			return;
		slow_token(sc, &t);
	}
	unpend(sc);
}

/* Count the newlines up to `p` (the fast loop does not stop at them). */
static void catch_up(struct scanner *sc, const char *p)
{
	const char *q = sc->line_pos, *last = NULL;
	size_t n = 0;

#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');

	for (; p - q >= 16; q += 16) {
		unsigned mask = _mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)q), nl));

		if (mask) {
			unsigned x = mask - ((mask >> 1) & 0x5555);

			/* A 16-bit popcount without needing -mpopcnt. */
			x = (x & 0x3333) + ((x >> 2) & 0x3333);
			x = (x + (x >> 4)) & 0x0f0f;
			n += (x + (x >> 8)) & 0x1f;
			last = q + 31 - __builtin_clz(mask);
		}
	}
#endif
	for (; q < p; q++)
		if (*q == '\n') {
			n++;
			last = q;
		}
	if (last) {
		sc->lx.line += n;
		sc->lx.lstart = last + 1;
	}
	sc->line_pos = p;
}

/*
 * The end of a block comment whose opening is just before `p`, for the
 * fast loop: its newlines are left to catch_up().
 */
static const char *block_comment_end(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (q = memchr(q, '/', end - q))) {
		if (q > p && q[-1] == '*')
			return q + 1;
		q++;
	}
	return end;
}

static void add_span(struct scanner *sc, const char *start, const char *end,
		     bool literal, bool directive)
{
	struct span *sp = &sc->blank[sc->nr_blank++ % SCAN_BLANK_SPANS];

	sp->start = start;
	sp->end = end;
	sp->literal = literal;
	sp->directive = directive;
}

static void add_blank(struct scanner *sc, const char *start, const char *end)
{
	add_span(sc, start, end, false, false);
}

static void add_directive(struct scanner *sc, const char *start,
			  const char *end)
{
	add_span(sc, start, end, false, true);
}

/* The recorded span (blank or literal) that holds the byte at `p`, or NULL. */
static const struct span *span_at(const struct scanner *sc, const char *p)
{
	size_t n = sc->nr_blank < SCAN_BLANK_SPANS ? sc->nr_blank : SCAN_BLANK_SPANS;
	size_t i;

	for (i = 1; i <= n; i++) {
		const struct span *sp = &sc->blank[(sc->nr_blank - i) % SCAN_BLANK_SPANS];

		if (p >= sp->start && p < sp->end)
			return sp;
		if (sp->end <= p)
			break;	/* older spans end earlier still */
	}
	return NULL;
}

static bool is_space_byte(unsigned char c)
{
	return c == '\n' || (scan_cclass[c] & CC_SPACE);
}

/*
 * Step back from `p` over whitespace, splices and recorded blanks; the
 * result is just past the previous code byte (or the start of the text).
 * With `same_line`, stop at a newline that is not a splice.
 */
static const char *back_blank(const struct scanner *sc, const char *p,
			      bool same_line, bool *directive)
{
	const char *text = sc->text;
	const struct span *sp;

	for (;;) {
		while (p > text && is_space_byte(p[-1])) {
			if (p[-1] == '\n' && same_line) {
				const char *q = p - 1;

				if (q > text && q[-1] == '\r')
					q--;
				if (q == text || q[-1] != '\\')
					return p;
				p = q - 1;	/* a splice: same logical line */
				continue;
			}
			p--;
			if (*p == '\n' && p > text && p[-1] == '\\')
				p--;
			else if (*p == '\n' && p - 1 > text && p[-1] == '\r' &&
				 p[-2] == '\\')
				p -= 2;
		}
		if (p == text || !(sp = span_at(sc, p - 1)) || sp->literal)
			return p;
		if (directive && sp->directive)
			*directive = true;
		p = sp->start;
	}
}

/* Is the identifier [s, s+len) one of the keywords that may precede a call? */
static bool expr_keyword(const char *s, size_t len)
{
	struct token t = { .kind = TK_IDENT, .s = s, .len = len };

	return scan_lex_is_expr_keyword(&t);
}

/* The identifier that ends at `e`, as its start (== e when there is none). */
static const char *back_ident(const struct scanner *sc, const char *e)
{
	const char *p = e;

	while (p > sc->text && (scan_cclass[(unsigned char)p[-1]] & CC_IDENT))
		p--;
	while (p < e && (scan_cclass[(unsigned char)*p] & CC_DIGIT))
		p++;	/* "0x1f" is a number, not an identifier */
	return p;
}

static bool is_exp(char c)
{
	return c == 'e' || c == 'E' || c == 'p' || c == 'P';
}

enum run_tok {
	RT_IDENT,
	RT_NUMBER,
	RT_PUNCT,
};

/*
 * The last token before `e` when looking back is ambiguous: in "4.WARN_ON"
 * or "1e+x" the bytes before the name belong to a number (the lexer reads
 * "4.WARN_ON" as one pp-number).  So take the whole run of identifier
 * bytes, dots and exponent signs that ends at `e`, and lex it forwards as
 * scan_lex_next() would.  Returns the kind of its last token, and its start.
 */
static enum run_tok last_in_run(const struct scanner *sc, const char *e,
				const char **start)
{
	const char *r = e, *p;
	enum run_tok kind = RT_PUNCT;

	while (r > sc->text) {
		unsigned char c = r[-1];

		if ((scan_cclass[c] & CC_IDENT) || c == '.' ||
		    ((c == '+' || c == '-') && r - 1 > sc->text && is_exp(r[-2])))
			r--;
		else
			break;
	}
	*start = e;
	for (p = r; p < e; ) {
		*start = p;
		if ((scan_cclass[(unsigned char)*p] & CC_DIGIT) ||
		    (*p == '.' && p + 1 < e && (scan_cclass[(unsigned char)p[1]] & CC_DIGIT))) {
			for (p++; p < e; p++)
				if (!(scan_cclass[(unsigned char)*p] & CC_IDENT) && *p != '.' &&
				    !((*p == '+' || *p == '-') && is_exp(p[-1])))
					break;
			kind = RT_NUMBER;
		} else if (scan_cclass[(unsigned char)*p] & CC_IDENT) {
			while (++p < e && (scan_cclass[(unsigned char)*p] & CC_IDENT))
				;
			kind = RT_IDENT;
		} else {
			p++;
			kind = RT_PUNCT;
		}
	}
	return kind;
}

static bool in_literal(const struct scanner *sc, const char *p)
{
	const struct span *sp = span_at(sc, p);

	return sp && sp->literal;
}

/*
 * What comes before the name at `s` makes it a member ("x.BUG_ON(",
 * "p->panic(") or a declaration ("void panic(", "char *panic(").  The
 * same judgement as is_call() makes from the previous token.
 */
static bool not_a_call(const struct scanner *sc, const char *s)
{
	const char *q = back_blank(sc, s, false, NULL), *ps;
	bool star = false;
	char c;

	for (;;) {
		if (q == sc->text || in_literal(sc, q - 1))
			return false;
		if (q[-1] != '*')
			break;
		star = true;
		q = back_blank(sc, q - 1, false, NULL);
	}
	c = q[-1];
	if (c == '>' && q - 1 > sc->text && q[-2] == '-')
		/* "->", unless the '-' is an exponent's sign ("1e->") */
		return !star && last_in_run(sc, q - 1, &ps) == RT_PUNCT;
	if (!(scan_cclass[(unsigned char)c] & CC_IDENT) && c != '.')
		return false;
	switch (last_in_run(sc, q, &ps)) {
	case RT_PUNCT:		/* '.' */
		return !star;
	case RT_NUMBER:
		return false;
	case RT_IDENT:
	default:
		return !expr_keyword(ps, q - ps);
	}
}

/*
 * A '(' at `paren`: if a rule's name comes before it, and what comes
 * before the name makes it a call (not "x.BUG_ON(", not "void panic("),
 * read the call with the slow loop.
 */
static void fast_paren(struct scanner *sc, const char *paren)
{
	bool directive = false;
	const char *e = back_blank(sc, paren, false, &directive), *s, *ls;
	const struct rule *r;
	struct token t;
	size_t line;

	if (e == sc->text || directive || !rules_may_end_with(sc->rs, e[-1]))
		return;
	if (in_literal(sc, e - 1))
		return;		/* the name is in an unterminated literal */
	s = back_ident(sc, e);
	if (s == e || !(r = rules_lookup(sc->rs, s, e - s)))
		return;
	if (last_in_run(sc, e, &ls) != RT_IDENT || ls != s)
		return;		/* part of a longer name or of a number */
	/* A directive between name and '(' was read already: not a call. */
	if (s < sc->line_pos)
		return;
	if (not_a_call(sc, s))
		return;

	catch_up(sc, s);
	line = sc->lx.line;
	ls = sc->lx.lstart;
	t = (struct token){ TK_IDENT, s, e - s, line, s - ls, line, false, false };
	sc->lx.p = e;
	sc->lx.bol = sc->lx.ws = false;
	sc->depth = 0;
	sc->prev = t;
	open_call(sc, r, &t);
	collect(sc, &t);
	scan_slow(sc);
	sc->line_pos = sc->lx.p;
}

/*
 * The fast loop's skips, which leave line counting to catch_up(): past a
 * literal whose opening quote is at `p` (it ends at an unescaped newline
 * too), and to the newline that ends a line comment or a directive.
 */
static const char *quoted_end(const char *p, const char *end)
{
	char quote = *p++;

	while (p < end && *p != quote && *p != '\n') {
		if (*p == '\\' && p + 1 < end)
			p += p[1] == '\r' && p + 2 < end && p[2] == '\n' ? 3 : 2;
		else
			p++;
	}
	return p < end && *p == quote ? p + 1 : p;
}

static bool spliced(const char *text, const char *nl)
{
	if (nl > text && nl[-1] == '\r')
		nl--;
	return nl > text && nl[-1] == '\\';
}

static const char *line_comment_end(const char *text, const char *p,
				    const char *end)
{
	while ((p = memchr(p, '\n', end - p)) && spliced(text, p))
		p++;
	return p ? p : end;
}

static const char *directive_end(const char *text, const char *p,
				 const char *end)
{
	while (p < end) {
		switch (*p) {
		case '\n':
			if (!spliced(text, p))
				return p;
			p++;
			break;
		case '"':
		case '\'':
			p = quoted_end(p, end);
			break;
		case '/':
			if (p + 1 < end && p[1] == '*')
				p = block_comment_end(p + 2, end);
			else if (p + 1 < end && p[1] == '/')
				return line_comment_end(text, p + 2, end);
			else
				p++;
			break;
		default:
			p++;
		}
	}
	return end;
}

/* Directives the lexer reads: definitions, and the "#if 0" bookkeeping. */
static bool directive_needs_lexer(const char *p, const char *end)
{
	static const char *const names[] = {
		"define", "if", "ifdef", "ifndef", "else", "elif", "endif", NULL
	};
	const char *const *n;
	const char *s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && !(scan_cclass[(unsigned char)*p] & CC_IDENT))
		return true;	/* a comment or a splice: let the lexer judge */
	for (s = p; p < end && (scan_cclass[(unsigned char)*p] & CC_IDENT); p++)
		;
	for (n = names; *n; n++)
		if (strlen(*n) == (size_t)(p - s) && !memcmp(*n, s, p - s))
			return true;
	return false;
}

/* A '#': a directive if only blanks come before it on its logical line. */
static bool fast_directive(struct scanner *sc, const char *hash)
{
	const char *q = back_blank(sc, hash, true, NULL);
	struct token t;
	unsigned if0 = sc->if0;

	if ((q > sc->text && q[-1] != '\n') ||
	    (hash + 1 < sc->lx.end && hash[1] == '#'))
		return false;	/* not first on its line, or a "##" */
	if (!directive_needs_lexer(hash + 1, sc->lx.end)) {
		sc->lx.p = directive_end(sc->text, hash + 1, sc->lx.end);
		add_directive(sc, hash, sc->lx.p);
		return true;
	}
	catch_up(sc, hash);
	sc->lx.p = hash;
	sc->lx.bol = true;
	scan_lex_next(&sc->lx, &t);
	scan_directive(sc, &t);
	unpend(sc);
	sc->line_pos = sc->lx.p;
	add_directive(sc, hash, sc->lx.p);
	if (!if0 && sc->if0)
		sc->dead_start = hash;
	else if (if0 && !sc->if0)
		add_directive(sc, sc->dead_start, sc->lx.p);
	return true;
}

/* The bytes the fast loop stops at; all others are skipped in a tight loop. */
enum {
	STOP_QUOTE = 1,
	STOP_SLASH,
	STOP_HASH,
	STOP_PAREN,
};

static const unsigned char stop_calls[256] = {
	['"'] = STOP_QUOTE, ['\''] = STOP_QUOTE, ['/'] = STOP_SLASH,
	['#'] = STOP_HASH, ['('] = STOP_PAREN,
};
static const unsigned char stop_defines[256] = {
	['"'] = STOP_QUOTE, ['\''] = STOP_QUOTE, ['/'] = STOP_SLASH,
	['#'] = STOP_HASH,
};

/*
 * The next stop byte at or after `p`, or `end`.  With SSE2 (every x86-64),
 * sixteen bytes are tested at a time; whole 16-byte loads only, so nothing
 * past `end` is read.
 */
static const char *next_stop(const unsigned char *stop, const char *p,
			     const char *end)
{
#ifdef __SSE2__
	const __m128i dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\''),
		      sl = _mm_set1_epi8('/'), hs = _mm_set1_epi8('#'),
		      pa = _mm_set1_epi8(stop['('] ? '(' : '#');

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, dq), _mm_cmpeq_epi8(v, sq)),
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sl),
						  _mm_cmpeq_epi8(v, hs)),
				     _mm_cmpeq_epi8(v, pa)));
		int mask = _mm_movemask_epi8(m);

		if (mask)
			return p + __builtin_ctz(mask);
		p += 16;
	}
#endif
	while (p < end && !stop[(unsigned char)*p])
		p++;
	return p;
}

/*
 * The loop that reads most of the text.  It stops only where the lexical
 * state may change (quotes, comments, '#') and at '(' -- every call has
 * one -- and skips everything else unexamined; lines are counted in bulk
 * (catch_up()) only when something needs them.
 */
static void scan_fast(struct scanner *sc)
{
	const unsigned char *stop = sc->calls ? stop_calls : stop_defines;
	struct lexer *lx = &sc->lx;
	const char *p = lx->p, *end = lx->end;

	while (p < end) {
		const char *s;

		p = next_stop(stop, p, end);
		if (p == end)
			break;
		s = p;
		switch (stop[(unsigned char)*p]) {
		case STOP_QUOTE:
			p = quoted_end(p, end);
			add_span(sc, s, p, true, false);
			break;
		case STOP_SLASH:
			if (p + 1 < end && p[1] == '*') {
				p = block_comment_end(p + 2, end);
				add_blank(sc, s, p);
			} else if (p + 1 < end && p[1] == '/') {
				p = line_comment_end(sc->text, p + 2, end);
				add_blank(sc, s, p);
			} else {
				p++;
			}
			break;
		case STOP_HASH:
			if (fast_directive(sc, p))
				p = lx->p;
			else
				p++;
			break;
		case STOP_PAREN:
			if (!sc->if0) {
				lx->p = p;
				fast_paren(sc, p);
				if (lx->p != p) {
					p = lx->p;
					break;
				}
			}
			p++;
			break;
		}
	}
	lx->p = p;
	catch_up(sc, p);
}

static void scan_run(struct scanner *sc, const char *text, size_t len,
		     enum scan_state start)
{
	sc->text = text;
	sc->lx.p = sc->lx.lstart = text;
	sc->lx.end = text + len;
	sc->lx.bol = true;
	sc->line_pos = text;
	if (start == SCAN_BLOCK_COMMENT && len) {
		scan_lex_skip_block_comment(&sc->lx);
		sc->line_pos = sc->lx.p;
		add_blank(sc, text, sc->lx.p);
	}
	scan_fast(sc);
	/* Calls cut off by the end of the text. */
	while (sc->nr_open)
		close_call(sc, sc->last_line, true);
	free(sc->open);
}

void scan_text(struct scan_result *out, const struct ruleset *rs,
	       const char *text, size_t len, enum scan_state start)
{
	struct scanner sc = { 0 };

	sc.out = out;
	sc.rs = rs;
	sc.calls = true;
	scan_run(&sc, text, len, start);
}

void scan_text_slow(struct scan_result *out, const struct ruleset *rs,
		    const char *text, size_t len, enum scan_state start)
{
	struct scanner sc = { 0 };
	struct token t;

	sc.out = out;
	sc.rs = rs;
	sc.calls = true;
	sc.text = text;
	sc.lx.p = sc.lx.lstart = text;
	sc.lx.end = text + len;
	sc.lx.bol = true;
	if (start == SCAN_BLOCK_COMMENT && len)
		scan_lex_skip_block_comment(&sc.lx);
	for (;;) {
		next_token(&sc, &t);
		if (t.kind == TK_EOF)
			break;
		slow_token(&sc, &t);
	}
	while (sc.nr_open)
		close_call(&sc, sc.last_line, true);
	free(sc.open);
}

void scan_defines(struct scan_result *out, const struct ruleset *rs,
		  const char *text, size_t len)
{
	struct scanner sc = { 0 };

	sc.out = out;
	sc.rs = rs;
	sc.wrappers_only = true;
	scan_run(&sc, text, len, SCAN_CODE);
}

/* How lines inside a kernel block comment start: " * text", " *", "*\/". */
static bool comment_like_line(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '*')
		return false;
	p++;
	return p >= end || *p == ' ' || *p == '\t' || *p == '\n' ||
	       *p == '\r' || *p == '/';
}

enum scan_state scan_guess_state(const char *text, size_t len)
{
	const char *end = text + len, *p = text;
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		if (text[i] == '/' && text[i + 1] == '*')
			return SCAN_CODE;
		if (text[i] == '*' && text[i + 1] == '/')
			return SCAN_BLOCK_COMMENT;
	}
	/* Neither: a hunk in the middle of a long comment, if it looks so. */
	while (p < end && (*p == '\n' || *p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p < end && comment_like_line(p, end) ? SCAN_BLOCK_COMMENT :
						       SCAN_CODE;
}

void scan_result_clear(struct scan_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->v[i].defined);
		free(r->v[i].text);
	}
	free(r->v);
	r->v = NULL;
	r->nr = r->alloc = 0;
}
