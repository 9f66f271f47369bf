/*
 * Rewrites as a patch: see suggest.h.
 */
#include "suggest.h"

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

/* The line of `text` that starts at line `n` (1-based), or NULL. */
static const char *line_at(const char *text, int n)
{
	for (int at = 1; *text && at < n; at++)
		text += strcspn(text, "\n") + (text[strcspn(text, "\n")] == '\n');
	return *text ? text : NULL;
}

/* Edit `e` as a suggestion: its window of context from the whole text. */
static bool suggestion_of(struct suggestion *out, const struct suggest_edit *e)
{
	const char *at = line_at(e->text, e->line), *indent = at;
	struct strbuf sb = STRBUF_INIT;
	int lines = 0;

	for (const char *p = e->text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n'))
		lines++;
	if (!at || e->n < 1 || e->line + e->n - 1 > lines || !*e->code)
		return false;
	memset(out, 0, sizeof(*out));
	out->path = xstrdup(e->path);
	out->first = e->line;
	out->old_n = e->n;
	out->lo = e->line > SUGGEST_CONTEXT ? e->line - SUGGEST_CONTEXT : 1;
	out->hi = e->line + e->n - 1 + SUGGEST_CONTEXT;
	if (out->hi > lines)
		out->hi = lines;
	out->text = xcalloc(out->hi - out->lo + 1, sizeof(*out->text));
	for (int n = out->lo; n <= out->hi; n++) {
		const char *l = line_at(e->text, n);

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*s\n", (int)strcspn(l, "\n"), l);
		out->text[n - out->lo] = strbuf_detach(&sb, NULL);
	}
	/* The code indented as the line it replaces. */
	for (const char *c = e->code; *c; c += strcspn(c, "\n") + (c[strcspn(c, "\n")] == '\n')) {
		strbuf_addf(&sb, "+%.*s%.*s\n", (int)strspn(indent, " \t"), indent,
			    (int)strcspn(c, "\n"), c);
		out->new_n++;
	}
	out->repl = strbuf_detach(&sb, NULL);
	out->function = xstrdup(e->function ? e->function : "");
	return true;
}

void suggest_edits(struct strbuf *out, struct strbuf *skipped,
		   const struct suggest_edit *v, size_t nr)
{
	struct suggestions all = { NULL, 0, 0 };
	const char *file = NULL;
	int delta = 0;

	for (size_t i = 0; i < nr; i++) {
		ALLOC_GROW(all.v, all.nr + 1, all.alloc);
		if (suggestion_of(&all.v[all.nr], &v[i]))
			all.nr++;
		else
			strbuf_addf(skipped, "%s:%d: not in the file as the series left "
				    "it: left out\n", v[i].path, v[i].line);
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
