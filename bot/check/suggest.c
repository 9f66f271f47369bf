/*
 * Gentler forms as a patch: see suggest.h.
 */
#include "suggest.h"
#include "linemap.h"

#include <ctype.h>

struct hline {
	char origin;
	const char *text;	/* after the origin character */
	int len;
};

/*
 * One rewrite, in the series' result's line numbers: lines lo..hi of the
 * file are known (text[i] is line lo + i, LF-terminated), of which
 * first..first+old_n-1 are replaced by `repl` (new_n '+' lines).
 */
struct suggestion {
	char *path;
	int lo, hi;
	int first, old_n, new_n;
	char **text;
	char *repl;
	char *function;
};

struct suggestions {
	struct suggestion *v;
	size_t nr, alloc;
};

/* The errno that the code around `f` returns ("-ENOMEM"), or NULL. */
static char *nearby_errno(const struct finding *f, bool *err_ptr)
{
	const char *p = f->hunk ? f->hunk : "", *hit;

	*err_ptr = false;
	while ((hit = strstr(p, "-E"))) {
		size_t n = 2 + strspn(hit + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
		const char *bol = hit;

		p = hit + 2;
		while (bol > f->hunk && bol[-1] != '\n')
			bol--;
		if (*bol == '-' || n < 4)
			continue;	/* a removed line; "-E" alone */
		if (!memmem(bol, hit - bol, "return", 6) && !memmem(bol, hit - bol, "= ", 2))
			continue;
		*err_ptr = hit >= bol + 8 && !strncmp(hit - 8, "ERR_PTR(", 8);
		return xstrndup(hit, n);
	}
	return NULL;
}

/* Whether a line of the hunk that stays returns ERR_PTR(...). */
static bool nearby_err_ptr(const struct finding *f)
{
	for (const char *p = f->hunk ? f->hunk : ""; *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")]) {
		size_t n = strcspn(p, "\n");

		if (*p != '-' && memmem(p, n, "ERR_PTR(", 8) && memmem(p, n, "return", 6))
			return true;
	}
	return false;
}

void suggest_return(struct strbuf *out, const struct series *s, const struct finding *f,
		    const char *want_err)
{
	const struct series_patch *sp = NULL;
	struct strbuf want = STRBUF_INIT;
	enum { R_INT, R_VOID, R_PTR, R_BOOL } kind = R_INT;
	bool err_ptr;
	char *err;

	for (size_t i = 0; s && i < s->nr; i++)
		if (s->patches[i].index == f->patch)
			sp = &s->patches[i];
	if (!sp || !*f->function || !sp->diff)
		goto done;
	strbuf_addf(&want, "%s(", f->function);
	for (const char *p = sp->diff, *end = sp->diff + sp->diff_len, *prev = NULL,
	     *prev_eol = NULL; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p, *eol = p + n, *hit, *type;
		char *decl;

		/* Everything below stays inside [line, eol): the diff need not
		 * end in a NUL (fuzz-reply found a search running past it). */
		p = eol + 1;
		if (n >= 2 && line[0] == '@' && line[1] == '@') {
			line = n > 2 ? memmem(line + 2, n - 2, "@@", 2) : NULL;
			if (!line)
				continue;
			line += 2;
			if (line < eol && *line == ' ')
				line++;	/* "@@ ... @@ void foo(...)" */
		} else if (n && (*line == ' ' || *line == '+' || *line == '-')) {
			line++;
		} else {
			prev = NULL;
			continue;
		}
		if (line < eol && (*line == ' ' || *line == '\t')) {
			prev = NULL;
			continue;	/* indented: not a definition */
		}
		hit = memmem(line, eol - line, want.buf, want.len);
		if (!hit || (hit > line && (isalnum((unsigned char)hit[-1]) || hit[-1] == '_'))) {
			/* A hunk header's text is not the line above the next. */
			prev = line == eol - n + 1 ? line : NULL;
			prev_eol = eol;
			continue;
		}
		type = line;
		while (type < hit && *type == ' ')
			type++;
		/* "static struct buffer_head *\next4_find_entry(...)": the type
		 * is the line above. */
		if (type == hit && prev)
			decl = xstrndup(prev, prev_eol - prev);
		else
			decl = xstrndup(type, hit - type);
		if (strchr(decl, '*'))
			kind = R_PTR;
		else if (strstr(decl, "void"))
			kind = R_VOID;
		else if (strstr(decl, "bool"))
			kind = R_BOOL;
		free(decl);
		break;
	}
done:
	err = nearby_errno(f, &err_ptr);
	switch (kind) {
	case R_VOID:
		strbuf_addstr(out, "return;");
		break;
	case R_BOOL:
		strbuf_addstr(out, "return false;");
		break;
	case R_PTR:
		/* ERR_PTR() when the code around returns one, else NULL. */
		err_ptr |= nearby_err_ptr(f);
		if (err_ptr)
			strbuf_addf(out, "return ERR_PTR(%s);",
				    want_err ? want_err : err ? err : "-EINVAL");
		else
			strbuf_addstr(out, "return NULL;");
		break;
	case R_INT:
		strbuf_addf(out, "return %s;", want_err ? want_err : err ? err : "-EINVAL");
		break;
	}
	free(err);
	strbuf_release(&want);
}

static size_t split_hunk(struct hline **out, const char *hunk)
{
	size_t nr = 0, alloc = 0;

	for (const char *p = hunk; p && *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		ALLOC_GROW(*out, nr + 1, alloc);
		(*out)[nr].origin = n ? *p : ' ';
		(*out)[nr].text = n ? p + 1 : p;
		(*out)[nr].len = n ? n - 1 : 0;
		nr++;
		p = nl ? nl + 1 : p + n;
	}
	return nr;
}

/* The macros whose _ONCE form takes the same arguments. */
static const char *once_form(const char *macro)
{
	static const char *const pairs[][2] = {
		{ "WARN_ON", "WARN_ON_ONCE" },
		{ "WARN", "WARN_ONCE" },
		{ "WARN_TAINT", "WARN_TAINT_ONCE" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		if (!strcmp(macro, pairs[i][0]))
			return pairs[i][1];
	return NULL;
}

/* Offset of `macro` followed by '(' as a whole word in `l`, or -1. */
static int find_call(const struct hline *l, const char *macro)
{
	size_t n = strlen(macro);

	for (int i = 0; i + (int)n < l->len; i++) {
		if (memcmp(l->text + i, macro, n) || l->text[i + n] != '(')
			continue;
		if (i && (isalnum((unsigned char)l->text[i - 1]) || l->text[i - 1] == '_'))
			continue;
		return i;
	}
	return -1;
}

static int indent_len(const struct hline *l)
{
	int i = 0;

	while (i < l->len && (l->text[i] == ' ' || l->text[i] == '\t'))
		i++;
	return i;
}

/*
 * The call at v[at] (column `col`) spans lines at..*last: its closing
 * parenthesis, then ';' and nothing but blanks to the end of that line.
 * *close is the parenthesis's offset in v[*last].
 */
static bool bare_statement(const struct hline *v, size_t nr, size_t at, int col,
			   size_t *last, int *close)
{
	int depth = 0;

	for (size_t k = at; k < nr && k < at + 16; k++) {
		if (k > at && v[k].origin != '+')
			return false;
		for (int i = k == at ? col : 0; i < v[k].len; i++) {
			char c = v[k].text[i];

			/* Keep it simple: no literals, no comments. */
			if (c == '"' || c == '\'' || (c == '/' && i + 1 < v[k].len &&
			    (v[k].text[i + 1] == '*' || v[k].text[i + 1] == '/')))
				return false;
			if (c == '(')
				depth++;
			if (c != ')' || --depth)
				continue;
			if (i + 1 >= v[k].len || v[k].text[i + 1] != ';')
				return false;
			for (int j = i + 2; j < v[k].len; j++)
				if (v[k].text[j] != ' ' && v[k].text[j] != '\t')
					return false;
			*last = k;
			*close = i;
			return true;
		}
	}
	return false;
}

/* Is the post-image line before v[at] one after which a second statement
 * is safe (not the body of an unbraced if/else/for/while)? */
static bool after_complete(const struct hline *v, size_t at)
{
	for (size_t k = at; k-- > 0;) {
		const char *t = v[k].text;
		int n = v[k].len;

		if (v[k].origin == '-')
			continue;
		while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		if (!n)
			continue;
		return t[n - 1] == ';' || t[n - 1] == '{' || t[n - 1] == '}' || t[n - 1] == ':';
	}
	return false;
}

/* The new lines for the call at v[at..last], into `out` ('+'-prefixed). */
static bool rewrite(struct strbuf *out, int *new_n, const struct series *s,
		    const struct finding *f, const struct hline *v, size_t nr,
		    size_t at, size_t *last)
{
	const char *once = once_form(f->rule->macro);
	int col = find_call(&v[at], f->rule->macro), close, ind;
	struct strbuf ret = STRBUF_INIT;
	bool is_bug = !strcmp(f->rule->macro, "BUG_ON") || !strcmp(f->rule->macro, "BUG");

	*last = at;
	if (col < 0 || (!once && !is_bug))
		return false;
	if (once) {
		strbuf_addf(out, "+%.*s%s%.*s\n", col, v[at].text, once,
			    v[at].len - col - (int)strlen(f->rule->macro),
			    v[at].text + col + strlen(f->rule->macro));
		*new_n = 1;
		return true;
	}
	ind = indent_len(&v[at]);
	if (col != ind || !bare_statement(v, nr, at, col, last, &close))
		return false;
	if (!strcmp(f->rule->macro, "BUG") && !after_complete(v, at))
		return false;
	suggest_return(&ret, s, f, NULL);
	if (!strcmp(f->rule->macro, "BUG")) {
		strbuf_addf(out, "+%.*sWARN_ON_ONCE(1);\n", ind, v[at].text);
		strbuf_addf(out, "+%.*s%s\n", ind, v[at].text, ret.buf);
		*new_n = 2;
	} else {
		for (size_t k = at; k <= *last; k++) {
			int from = k == at ? col + (int)strlen("BUG_ON(") : 0;
			int upto = k == *last ? close : v[k].len;

			strbuf_addch(out, '+');
			if (k == at) {
				strbuf_addf(out, "%.*sif (WARN_ON_ONCE(", ind, v[at].text);
			} else {
				/* Keep continuation lines aligned under the condition. */
				int lead = indent_len(&v[k]);

				strbuf_add(out, v[k].text, lead);
				strbuf_addchars(out, ' ', strlen("if (WARN_ON_ONCE(") - strlen("BUG_ON("));
				from = lead;
			}
			strbuf_add(out, v[k].text + from, upto - from);
			strbuf_addstr(out, k == *last ? "))\n" : "\n");
		}
		strbuf_addf(out, "+%.*s\t%s\n", ind, v[at].text, ret.buf);
		*new_n = (int)(*last - at) + 2;
	}
	strbuf_release(&ret);
	return true;
}

static size_t patch_pos(const struct series *s, int index)
{
	size_t i;

	for (i = 0; i < s->nr && s->patches[i].index != index; i++)
		;
	return i;
}

/* Final line of post-image line `line` of f->file after patch `pos`, or 0. */
static int final_line(const struct series *s, const struct linemap *map, size_t pos,
		      const char *file, int line, struct strbuf *path)
{
	int out = line;

	if (pos < s->nr && linemap_final(&out, path, map, s, pos, file, line) < 0) {
		error_clear();
		return 0;
	}
	if (pos >= s->nr) {
		strbuf_reset(path);
		strbuf_addstr(path, file);
	}
	return out;
}

static void one(const struct finding *f, struct strbuf *skipped, const char *why)
{
	strbuf_addf(skipped, "%s:%d: %s(): %s\n", f->file, f->line, f->rule->macro, why);
}

static void suggest_one(struct suggestions *out, struct strbuf *skipped,
			const struct series *s, const struct linemap *map,
			const struct finding *f)
{
	struct hline *v = NULL;
	size_t nr = split_hunk(&v, f->hunk), at = f->hunk_line, last, lo, hi;
	struct strbuf body = STRBUF_INIT, repl = STRBUF_INIT, path = STRBUF_INIT, p2 = STRBUF_INIT;
	size_t pos = patch_pos(s, f->patch);
	int *num = xcalloc(nr + 1, sizeof(*num)), *fin = xcalloc(nr + 1, sizeof(*fin));
	int new_n = 0, before = 0, after = 0, n;
	struct suggestion *sg;

	if (!v || at >= nr || v[at].origin != '+') {
		one(f, skipped, "not found in its hunk");
		goto out;
	}
	if (!rewrite(&repl, &new_n, s, f, v, nr, at, &last)) {
		one(f, skipped, "no mechanical gentler form here");
		goto out;
	}
	/* Post-image numbers, then where each line is in the series' result. */
	num[at] = f->line;
	for (size_t k = at; k-- > 0;)
		num[k] = v[k].origin == '-' ? num[k + 1] : num[k + 1] - 1;
	for (size_t k = at + 1; k < nr; k++)
		num[k] = v[k].origin == '-' ? num[k - 1] : num[k - 1] + 1;
	fin[at] = final_line(s, map, pos, f->file, f->line, &path);
	if (!fin[at]) {
		one(f, skipped, "a later patch of the series changes it");
		goto out;
	}
	for (size_t k = at + 1; k <= last; k++) {
		fin[k] = final_line(s, map, pos, f->file, num[k], &p2);
		if (fin[k] != fin[at] + (int)(k - at)) {
			one(f, skipped, "a later patch of the series changes it");
			goto out;
		}
	}
	/* Context: post-image lines that reach the result unchanged, in a row. */
	n = fin[at];
	for (lo = at; lo > 0 && before < SUGGEST_CONTEXT; lo--) {
		if (v[lo - 1].origin == '-')
			continue;
		if (final_line(s, map, pos, f->file, num[lo - 1], &p2) != n - 1)
			break;
		n--;
		before++;
	}
	n = fin[at] + (int)(last - at);
	for (hi = last + 1; hi < nr && after < SUGGEST_CONTEXT; hi++) {
		if (v[hi].origin == '-')
			continue;
		if (final_line(s, map, pos, f->file, num[hi], &p2) != n + 1)
			break;
		n++;
		after++;
	}
	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	sg = &out->v[out->nr++];
	sg->path = strbuf_detach(&path, NULL);
	sg->first = fin[at];
	sg->old_n = (int)(last - at) + 1;
	sg->new_n = new_n;
	sg->lo = fin[at] - before;
	sg->hi = fin[at] + sg->old_n - 1 + after;
	sg->text = xcalloc(sg->hi - sg->lo + 1, sizeof(*sg->text));
	n = 0;
	for (size_t k = lo; k < hi; k++)
		if (v[k].origin != '-') {
			strbuf_reset(&body);
			strbuf_addf(&body, "%.*s\n", v[k].len, v[k].text);
			sg->text[n++] = xstrdup(body.buf);
		}
	sg->repl = strbuf_detach(&repl, NULL);
	sg->function = xstrdup(f->function ? f->function : "");
out:
	free(v);
	free(num);
	free(fin);
	strbuf_release(&body);
	strbuf_release(&repl);
	strbuf_release(&path);
	strbuf_release(&p2);
}

static int cmp_suggestion(const void *a, const void *b)
{
	const struct suggestion *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x->first > y->first) - (x->first < y->first);
}

static void suggestion_release(struct suggestion *sg)
{
	for (int i = 0; sg->text && i <= sg->hi - sg->lo; i++)
		free(sg->text[i]);
	free(sg->text);
	free(sg->path);
	free(sg->repl);
	free(sg->function);
}

/* The text of line `line` from whichever suggestion of v[0..nr) knows it. */
static const char *known_line(const struct suggestion *v, size_t nr, int line)
{
	for (size_t i = 0; i < nr; i++)
		if (line >= v[i].lo && line <= v[i].hi && v[i].text[line - v[i].lo])
			return v[i].text[line - v[i].lo];
	return "\n";	/* cannot happen: the windows of a group are contiguous */
}

/*
 * One hunk for suggestions v[0..nr) of one file whose windows touch or
 * overlap (neighbouring calls share their context), `delta` lines after
 * the hunks before it; returns the new delta.
 */
static int emit_group(struct strbuf *out, const struct suggestion *v, size_t nr, int delta)
{
	int lo = v[0].lo, hi = v[0].hi, old_n, new_n;
	size_t next = 0;

	for (size_t i = 1; i < nr; i++)
		if (v[i].hi > hi)
			hi = v[i].hi;
	old_n = hi - lo + 1;
	new_n = old_n;
	for (size_t i = 0; i < nr; i++)
		new_n += v[i].new_n - v[i].old_n;
	strbuf_addf(out, "@@ -%d,%d +%d,%d @@%s%s\n", lo, old_n, lo + delta, new_n,
		    *v[0].function ? " " : "", v[0].function);
	for (int line = lo; line <= hi;) {
		if (next < nr && line == v[next].first) {
			for (int k = 0; k < v[next].old_n; k++)
				strbuf_addf(out, "-%s", known_line(v, nr, line + k));
			strbuf_addstr(out, v[next].repl);
			line += v[next].old_n;
			next++;
			continue;
		}
		strbuf_addf(out, " %s", known_line(v, nr, line));
		line++;
	}
	return delta + new_n - old_n;
}

void suggest_series(struct strbuf *out, struct strbuf *skipped,
		    const struct series *s, const struct check_result *r)
{
	struct suggestions all = { NULL, 0, 0 };
	const char *file = NULL;
	int delta = 0;

	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->kind != FINDING_ADDED || f->moved || f->conversion ||
		    f->severity < SEV_WARNING)
			continue;
		suggest_one(&all, skipped, s, r->map, f);
	}
	if (all.nr)
		qsort(all.v, all.nr, sizeof(*all.v), cmp_suggestion);
	for (size_t i = 0, j; i < all.nr; i = j) {
		int hi = all.v[i].hi;

		if (!file || strcmp(file, all.v[i].path)) {
			file = all.v[i].path;
			delta = 0;
			strbuf_addf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n",
				    file, file, file, file);
		}
		/* The group: the next ones of the file whose windows reach it. */
		for (j = i + 1; j < all.nr && !strcmp(all.v[j].path, file) &&
			     all.v[j].lo <= hi + 1; j++) {
			const struct suggestion *prev = &all.v[j - 1];

			if (all.v[j].first < prev->first + prev->old_n) {
				/* Two calls on one line: one rewrite at a time. */
				strbuf_addf(skipped, "%s:%d: shares its line with another "
					    "suggestion: left out\n", file, all.v[j].first);
				suggestion_release(&all.v[j]);
				memmove(&all.v[j], &all.v[j + 1], (all.nr - j - 1) * sizeof(*all.v));
				all.nr--;
				j--;
				continue;
			}
			if (all.v[j].hi > hi)
				hi = all.v[j].hi;
		}
		delta = emit_group(out, &all.v[i], j - i, delta);
	}
	for (size_t i = 0; i < all.nr; i++)
		suggestion_release(&all.v[i]);
	free(all.v);
}
