/*
 * The function a refused hunk names, read by name from the base file,
 * and the hunk's call placed in it (see byname.h).
 */
#include "byname.h"

#include <ctype.h>

/* How far above the insertion point the context before the call is looked for. */
#define BYNAME_WINDOW_SLACK 10
/* A placement needs one of this many lines nearest the call (git's context). */
#define BYNAME_NEAR 3
/* Lines between a definition's name and its body's brace. */
#define BYNAME_SIGNATURE_MAX 20

/* The file's lines, each squeezed once for comparison. */
struct lines {
	const char **at;	/* start of each line in the text (borrowed) */
	size_t *len;
	char **sq;		/* squeezed */
	size_t nr;
};

/* `s` with runs of blanks made one space, none at the ends or inside parentheses. */
static char *squeeze(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	bool space = false;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (isspace((unsigned char)c)) {
			space = sb.len > 0;
			continue;
		}
		if (space && c != ')' && c != ',' && sb.buf[sb.len - 1] != '(')
			strbuf_addch(&sb, ' ');
		space = false;
		strbuf_addch(&sb, c);
	}
	return strbuf_detach(&sb, NULL);
}

static void lines_split(struct lines *out, const char *text, size_t len)
{
	size_t alloc = 0, alloc2 = 0, alloc3 = 0;

	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		ALLOC_GROW(out->at, out->nr + 1, alloc);
		ALLOC_GROW(out->len, out->nr + 1, alloc2);
		ALLOC_GROW(out->sq, out->nr + 1, alloc3);
		out->at[out->nr] = p;
		out->len[out->nr] = n;
		out->sq[out->nr] = squeeze(p, n);
		out->nr++;
		p += n + (nl != NULL);
	}
}

static void lines_release(struct lines *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->sq[i]);
	free(l->at);
	free(l->len);
	free(l->sq);
}

/* Only braces, parentheses, semicolons and `else`: matches anywhere, proves nothing. */
static bool trivial(const char *sq)
{
	for (const char *p = sq; *p; p++) {
		if (starts_with(p, "else")) {
			p += 3;
			continue;
		}
		if (!strchr("{}(); ", *p))
			return false;
	}
	return true;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Does line `s` (`n` bytes) name `fn` as a word followed by '('? */
static bool names(const char *s, size_t n, const char *fn)
{
	size_t fl = strlen(fn);

	for (const char *p = s; fl && (p = memmem(p, n - (p - s), fn, fl)); p++) {
		const char *q = p + fl;

		if (p > s && word_char(p[-1]))
			continue;
		while (q < s + n && (*q == ' ' || *q == '\t'))
			q++;
		if (q < s + n && *q == '(')
			return true;
	}
	return false;
}

/* A line that could start the definition of `fn`: column 0, not a
 * preprocessor line or a comment, no assignment before the name. */
static bool definition_start(const char *s, size_t n, const char *fn)
{
	const char *paren;

	if (!n || isspace((unsigned char)*s) || strchr("#/*{}", *s) || !names(s, n, fn))
		return false;
	paren = memchr(s, '(', n);
	return paren && !memchr(s, '=', paren - s) && !memchr(s, ';', paren - s);
}

/* A line holding only the return type of the definition below it ("static int"). */
static bool return_type_line(const char *s, size_t n)
{
	if (!n || isspace((unsigned char)*s) || strchr("#/*{}", *s))
		return false;
	for (size_t i = 0; i < n; i++)
		if (strchr(";(){}=", s[i]))
			return false;
	return !(n >= 2 && s[n - 2] == '*' && s[n - 1] == '/');
}

struct function {
	size_t start;		/* its first line: the return type's, when that has its own */
	size_t open, close;	/* the body's brace lines (0-based) */
	char *signature;	/* squeezed, from the return type to the ')' */
};

/* The definition of `fn` starting at line k of `l`, if it is one. */
static bool function_at(struct function *out, const struct lines *l, size_t k, const char *fn)
{
	struct strbuf sig = STRBUF_INIT;
	size_t j, s = k;

	if (!definition_start(l->at[k], l->len[k], fn))
		return false;
	for (j = k; j < l->nr && j < k + BYNAME_SIGNATURE_MAX; j++) {
		if (j > k && l->len[j] && l->at[j][0] == '{')
			break;
		if (l->sq[j][0] && l->sq[j][strlen(l->sq[j]) - 1] == ';')
			return false;	/* a declaration, not a definition */
	}
	if (j >= l->nr || j == k + BYNAME_SIGNATURE_MAX || l->at[j][0] != '{')
		return false;
	out->open = j;
	for (j = out->open + 1; j < l->nr && !(l->len[j] && l->at[j][0] == '}'); j++)
		;
	if (j >= l->nr)
		return false;
	out->close = j;
	if (k > 0 && return_type_line(l->at[k - 1], l->len[k - 1]))
		s = k - 1;
	out->start = s;
	for (j = s; j < out->open; j++)
		strbuf_addf(&sig, "%s%s", sig.len ? " " : "", l->sq[j]);
	out->signature = strbuf_detach(&sig, NULL);
	return true;
}

/* The hunk's lines squeezed, and whether each is more than braces. */
struct seq {
	char **sq;
	size_t nr;
};

static void seq_add(struct seq *out, const struct strvec *v, size_t *alloc)
{
	for (size_t i = 0; i < v->nr; i++) {
		ALLOC_GROW(out->sq, out->nr + 1, *alloc);
		out->sq[out->nr++] = squeeze(v->v[i], strlen(v->v[i]));
	}
}

static void seq_release(struct seq *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->sq[i]);
	free(s->sq);
}

/*
 * The longest common subsequence of a[0..na) and lines [lb, le) of `l`,
 * counting only lines that are more than braces.
 */
static size_t common(char *const *a, size_t na, const struct lines *l, size_t lb, size_t le)
{
	size_t n = le > lb ? le - lb : 0, best;
	size_t *prev = xcalloc(n + 1, sizeof(*prev)), *cur = xcalloc(n + 1, sizeof(*cur)), *t;

	for (size_t i = 0; i < na; i++) {
		bool counts = !trivial(a[i]);

		for (size_t j = 0; j < n; j++) {
			size_t v = prev[j + 1] > cur[j] ? prev[j + 1] : cur[j];

			if (!strcmp(a[i], l->sq[lb + j]) && prev[j] + counts > v)
				v = prev[j] + counts;
			cur[j + 1] = v;
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	best = prev[n];
	free(prev);
	free(cur);
	return best;
}

static size_t nontrivial(char *const *a, size_t na)
{
	size_t n = 0;

	for (size_t i = 0; i < na; i++)
		n += !trivial(a[i]);
	return n;
}

struct place {
	size_t after;		/* insert after this line (0-based) */
	size_t matched;		/* context lines before the call found above it */
	size_t near;		/* ... of the BYNAME_NEAR nearest the call */
	size_t nearest;		/* index+1 in before of the line matched at `after` */
	size_t follow;		/* after-lines found right below */
	size_t drift;		/* distance from where the hunk said */
	bool drop;		/* the removed.nr lines below `after` go */
	bool set;
};

static bool better(const struct place *a, const struct place *b)
{
	if (!b->set)
		return true;
	if (a->matched != b->matched)
		return a->matched > b->matched;
	if (a->nearest != b->nearest)
		return a->nearest > b->nearest;
	if (a->follow != b->follow)
		return a->follow > b->follow;
	return a->drift < b->drift;
}

/* Do the block's removed lines follow line `at`? */
static bool removed_follow(const struct lines *l, size_t at, const struct seq *removed)
{
	if (!removed->nr || at + removed->nr >= l->nr)
		return false;
	for (size_t r = 0; r < removed->nr; r++)
		if (strcmp(removed->sq[r], l->sq[at + 1 + r]))
			return false;
	return true;
}

/* How many context lines after the block follow line `below` of `fn`. */
static size_t follow_from(const struct lines *l, const struct function *fn, size_t below,
			  const struct seq *after)
{
	size_t n = 0;

	while (n < after->nr && below + n < fn->close && !strcmp(after->sq[n], l->sq[below + n]))
		n++;
	return n;
}

/*
 * How many of the context lines after the block follow line `at` with
 * the block there, and whether the base lines the block replaces go
 * (*drop): the removed lines as they are, or as many lines changed in
 * the base, when the context after the block follows them.
 */
static size_t following(const struct lines *l, const struct function *fn, size_t at,
			const struct seq *removed, const struct seq *after, bool *drop)
{
	size_t n = follow_from(l, fn, at + 1, after), r = removed->nr, m;

	*drop = removed_follow(l, at, removed);
	if (*drop)
		return follow_from(l, fn, at + 1 + r, after);
	m = r && at + 1 + r < fn->close ? follow_from(l, fn, at + 1 + r, after) : 0;
	if (m > n && !trivial(after->sq[0])) {
		*drop = true;
		return m;
	}
	return n;
}

/* Where `text` defines `fn` (column 0 head, braces in column 0): its
 * first line, the return type's when that has a line of its own, in
 * *start, its closing brace's in *close.  False when it does not. */
static bool defined_at(size_t *start, size_t *close, const struct lines *l, const char *fn)
{
	for (size_t k = 0; k < l->nr; k++) {
		struct function f;

		if (!function_at(&f, l, k, fn))
			continue;
		free(f.signature);
		*start = f.start;
		*close = f.close;
		return true;
	}
	return false;
}

int byname_append(struct strbuf *out, int *line, const char *text, size_t len,
		  const struct byname_hunk *h)
{
	struct strbuf added = STRBUF_INIT;
	struct lines a = { 0 }, base = { 0 };
	size_t start, close, bstart, bclose;
	int ret = WW_ENOTFOUND;

	if (!h->function || !*h->function || !h->added.nr)
		goto out;
	for (size_t k = 0; k < h->added.nr; k++)
		strbuf_addf(&added, "%s\n", h->added.v[k]);
	lines_split(&a, added.buf, added.len);
	if (!defined_at(&start, &close, &a, h->function) || start > h->call || close <= h->call)
		goto out;
	lines_split(&base, text, len);
	/* A base that has the function already (merged since, under
	 * another context) gets it replaced; else it goes at the end. */
	if (!defined_at(&bstart, &bclose, &base, h->function))
		bstart = bclose = base.nr;
	for (size_t k = 0; k < bstart; k++)
		strbuf_addf(out, "%.*s\n", (int)base.len[k], base.at[k]);
	if (bstart == base.nr)
		strbuf_addch(out, '\n');
	/* The lines written so far: the base's before it, and the blank one. */
	*line = (int)bstart + (bstart == base.nr) + 1 + (int)(h->call - start);
	for (size_t k = start; k <= close; k++)
		strbuf_addf(out, "%.*s\n", (int)a.len[k], a.at[k]);
	for (size_t k = bclose + 1; k < base.nr; k++)
		strbuf_addf(out, "%.*s\n", (int)base.len[k], base.at[k]);
	ret = 0;
out:
	lines_release(&a);
	lines_release(&base);
	strbuf_release(&added);
	return ret ? error_code(ret, "the hunk does not add all of '%s'",
				h->function ? h->function : "") : 0;
}

/* The best place for the block in function `fn` of `l`. */
static void best_place(struct place *best, const struct lines *l, const struct function *fn,
		       const struct seq *before, const struct seq *removed,
		       const struct seq *after, int old_line)
{
	size_t window = 2 * before->nr + BYNAME_WINDOW_SLACK;
	size_t near_from = before->nr, seen = 0;

	/* The last BYNAME_NEAR lines before the call that are more than braces. */
	while (near_from > 0 && seen < BYNAME_NEAR)
		seen += !trivial(before->sq[--near_from]);

	for (size_t p = fn->open; p < fn->close; p++) {
		for (size_t j = before->nr; j-- > 0;) {
			struct place c = { .after = p, .set = true };
			size_t from = p > fn->open + window ? p - window : fn->open, below;

			if (strcmp(before->sq[j], l->sq[p]))
				continue;
			c.matched = !trivial(before->sq[j]) + common(before->sq, j, l, from, p);
			/* One of the lines right above the call must be there. */
			c.near = j >= near_from ? !trivial(before->sq[j]) +
				 common(before->sq + near_from, j - near_from, l, from, p) : 0;
			if (!c.near)
				break;
			c.nearest = j + 1;
			c.follow = following(l, fn, p, removed, after, &c.drop);
			/*
			 * The hunk's lines between that one and the call were
			 * not found there: changed in the base, when the
			 * context after the call follows as many lines below.
			 */
			below = p + before->nr - c.nearest;
			if (below > p && below < fn->close) {
				bool drop;
				size_t f = following(l, fn, below, removed, after, &drop);

				if (f > c.follow) {
					c.after = below;
					c.follow = f;
					c.drop = drop;
				}
			}
			c.drift = (size_t)labs((long)c.after + 2 - old_line);
			if (better(&c, best))
				*best = c;
			break;	/* the nearest line of the hunk that matches here */
		}
	}
}

int byname_place(struct strbuf *out, int *line, const char *text, size_t len,
		 const struct byname_hunk *h)
{
	struct lines l = { 0 };
	struct seq before = { 0 }, removed = { 0 }, after = { 0 }, all = { 0 };
	size_t a1 = 0, a2 = 0, a3 = 0, a4 = 0;
	struct place best = { 0 };
	char *shown = h->shown ? squeeze(h->shown, strlen(h->shown)) : NULL;
	int ret = WW_ENOTFOUND;

	if (!h->function || !*h->function || !h->added.nr)
		goto out;
	/* "int f(void) {" shows the same declaration as "int f(void)". */
	for (size_t n = shown ? strlen(shown) : 0; n && strchr("{ ", shown[n - 1]); n--)
		shown[n - 1] = '\0';
	lines_split(&l, text, len);
	seq_add(&before, &h->before, &a1);
	seq_add(&removed, &h->removed, &a2);
	seq_add(&after, &h->after, &a3);
	seq_add(&all, &h->before, &a4);
	seq_add(&all, &h->removed, &a4);
	seq_add(&all, &h->after, &a4);
	for (size_t k = 0; k < l.nr; k++) {
		struct function fn;
		struct place c = { 0 };

		if (!function_at(&fn, &l, k, h->function))
			continue;
		if (shown && *shown) {
			/* The declaration as shown must be this one's (git cuts it short). */
			if (!strstr(fn.signature, shown))
				goto next;
		} else {
			size_t want = nontrivial(all.sq, all.nr);
			size_t got = common(all.sq, all.nr, &l, fn.open + 1, fn.close);

			if (want < 2 || got < 2 || 2 * got < want)
				goto next;
		}
		best_place(&c, &l, &fn, &before, &removed, &after, h->old_line);
		if (c.set && better(&c, &best))
			best = c;
next:
		free(fn.signature);
		k = fn.close;
	}
	if (!best.set)
		goto out;
	for (size_t k = 0; k <= best.after; k++)
		strbuf_addf(out, "%.*s\n", (int)l.len[k], l.at[k]);
	for (size_t k = 0; k < h->added.nr; k++)
		strbuf_addf(out, "%s\n", h->added.v[k]);
	for (size_t k = best.after + 1 + (best.drop ? removed.nr : 0); k < l.nr; k++)
		strbuf_addf(out, "%.*s\n", (int)l.len[k], l.at[k]);
	*line = (int)best.after + 2 + (int)h->call;
	ret = 0;
out:
	free(shown);
	lines_release(&l);
	seq_release(&before);
	seq_release(&removed);
	seq_release(&after);
	seq_release(&all);
	return ret ? error_code(ret, "no function '%s' in the base matches the hunk",
				h->function ? h->function : "") : 0;
}

int byname_unplace(struct strbuf *out, const char *text, size_t len,
		   const struct byname_hunk *h, int line)
{
	struct lines l = { 0 };
	size_t from = line > 0 && (size_t)line > h->call ? (size_t)line - 1 - h->call : 0;
	int ret = 0;

	lines_split(&l, text, len);
	if (line <= 0 || (size_t)line <= h->call || !h->added.nr || !l.nr ||
	    from + h->added.nr > l.nr) {
		ret = WW_ENOTFOUND;
		goto out;
	}
	for (size_t k = 0; k < h->added.nr; k++)
		if (strlen(h->added.v[k]) != l.len[from + k] ||
		    memcmp(h->added.v[k], l.at[from + k], l.len[from + k])) {
			ret = WW_ENOTFOUND;
			goto out;
		}
	for (size_t k = 0; k < l.nr; k++)
		if (k < from || k >= from + h->added.nr)
			strbuf_addf(out, "%.*s\n", (int)l.len[k], l.at[k]);
out:
	lines_release(&l);
	return ret ? error_code(ret, "the hunk's lines are not on line %d", line) : 0;
}

bool byname_defines(const char *text, size_t len, int line, const char *fn)
{
	const char *p = text, *end = text + len;

	for (int k = 1; k < line && p < end; k++) {
		const char *nl = memchr(p, '\n', end - p);

		p = nl ? nl + 1 : end;
	}
	for (int k = 0; k < BYNAME_SIGNATURE_MAX && p < end; k++) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (k && n && *p == '{')
			break;
		if (names(p, n, fn))
			return line > 0;
		p += n + (nl != NULL);
	}
	return false;
}

/* A pre-image line of `h` that defines `fn` (its text), or NULL. */
static const struct diff_line *shown_definition(const struct diff_hunk *h, size_t upto,
						const char *fn)
{
	const struct diff_line *found = NULL;

	for (size_t i = 0; i < upto; i++)
		if (h->lines[i].origin != '+' &&
		    definition_start(h->lines[i].content, h->lines[i].len, fn))
			found = &h->lines[i];
	return found;
}

int byname_hunk_read(struct byname_hunk *out, const struct diff_hunk *h, int line,
		     const char *function)
{
	const struct diff_line *def;
	size_t at, b, e;
	int old = h->old_start;

	for (at = 0; at < h->nr; at++)
		if (h->lines[at].origin == '+' && h->lines[at].new_lineno == line)
			break;
	if (at == h->nr)
		return error_code(WW_ENOTFOUND, "no added line %d in the hunk", line);
	for (b = at; b > 0 && h->lines[b - 1].origin != ' '; b--)
		;
	for (e = at; e < h->nr && h->lines[e].origin != ' '; e++)
		;
	out->function = xstrdup(function ? function : "");
	for (size_t i = 0; i < h->nr; i++) {
		const struct diff_line *dl = &h->lines[i];
		struct strvec *to;

		if (i >= b && i < e)
			to = dl->origin == '+' ? &out->added : &out->removed;
		else if (dl->origin == '+')
			continue;
		else
			to = i < b ? &out->before : &out->after;
		strvec_pushf(to, "%.*s", (int)dl->len, dl->content);
		if (i < at && dl->origin == '+' && i >= b)
			out->call++;
		if (i < b && dl->origin != '+')
			old++;
	}
	out->old_line = old;
	def = shown_definition(h, b, out->function);
	if (def)
		out->shown = xstrndup(def->content, def->len);
	else if (*out->function && names(h->context, h->context_len, out->function))
		out->shown = xstrndup(h->context, h->context_len);
	return 0;
}

void byname_hunk_release(struct byname_hunk *h)
{
	free(h->function);
	free(h->shown);
	strvec_clear(&h->before);
	strvec_clear(&h->removed);
	strvec_clear(&h->added);
	strvec_clear(&h->after);
	h->function = h->shown = NULL;
	h->call = 0;
}
