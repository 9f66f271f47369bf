/*
 * Building a review reply: deciding what to say (issues, thanks, notes),
 * which message to answer, who gets it, and rendering it with the
 * template engine.  See reply.h.
 */
#include "reply.h"
#include "advice.h"
#include "english.h"
#include "plan.h"
#include "reply-headers.h"
#include "rewrite.h"
#include "ci-json.h"
#include "ci-words.h"
#include "datadir.h"
#include "msgid.h"
#include "quote.h"
#include "strvec.h"
#include "suggest.h"
#include "say.h"
#include "template.h"

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>


/* ---- the template variables -------------------------------------------- */

/* A multi-line value, without its final newline (the template adds it). */
static void set_block(struct tmpl_vars *v, const char *name, struct strbuf *sb)
{
	while (sb->len && sb->buf[sb->len - 1] == '\n')
		strbuf_setlen(sb, sb->len - 1);
	tmpl_set(v, name, sb->len ? sb->buf : NULL);
}

struct builder {
	const struct series *s;
	const struct reply_opts *o;
	const struct advice *advice;	/* o->advice, or loaded, or NULL */
	struct strvec said;		/* what this reply said already */
	struct strvec unchanged;	/* points made on an earlier version */
	struct strvec unchanged_quote;	/* ... and each one's added line, quoted */
	const struct check_result *r;
	json_t *record;			/* reply.record */
	/* Per item of the plan: a rewrite is shown under it (it compiled).
	 * The opening promises rewrites only for these. */
	const struct plan *plan;
	bool *rewritten;
	struct say_book book;		/* templates/sentences.json */
};

/*
 * Sentence `name` of the book (pairs of names and facts, NULL-ended)
 * into `out`.  One whose fact is missing is not said: better silent than
 * wrong (say.h); the book and its inventory test keep that rare.
 */
#define sentence(out, b, ...) say_quiet((out), &(b)->book, __VA_ARGS__)

/* The facts about finding `f` of b->r, or NULL (no tree, no function). */
static const struct cfacts *facts_of(const struct reply_opts *o, const struct check_result *r,
				     const struct finding *f)
{
	const struct cfacts *cf;

	if (!o->facts || !r || f < r->v || f >= r->v + r->nr)
		return NULL;
	cf = &o->facts[f - r->v];
	return cf->found ? cf : NULL;
}

static const struct series_patch *patch_of(const struct series *s, int index)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->patches[i].index == index)
			return &s->patches[i];
	return NULL;
}

/* ---- inline comments ---------------------------------------------------- */

/*
 * A quote block: lines of one file of one patch, each with a sort key
 * (twice its post-image line number; a removed line sorts just before
 * the line that follows it), and the calls it is quoted for.
 */
struct qline {
	long key;
	char *text;
};

struct qblock {
	const char *file;
	int patch;
	struct qline *v;
	size_t nr, alloc;
	const struct plan_item *items[16];
	size_t nr_items;
};

/* Context quoted with a call: before it, after it (at most 3 together). */
#define QUOTE_CONTEXT 3

static bool blank_line(const char *l)
{
	return !l[1 + strspn(l + 1, " \t")];
}

/* A function's first line ("+static void foo(...)" or "+{"): not indented. */
static bool defines(const char *l)
{
	return l[0] != '-' && l[1] && l[1] != ' ' && l[1] != '\t' && l[1] != '#' &&
	       l[1] != '/' && l[1] != '*';
}

static void qblock_of(struct qblock *out, const struct plan_item *it)
{
	const struct finding *f = it->f;
	struct strvec lines = STRVEC_INIT;
	long *key;
	size_t at = f->hunk_line, last, from, to, before = 2, after = 1;

	memset(out, 0, sizeof(*out));
	out->file = f->file;
	out->patch = it->patch;
	out->items[out->nr_items++] = it;
	for (const char *p = f->hunk ? f->hunk : ""; *p;) {
		size_t n = strcspn(p, "\n");

		strvec_pushf(&lines, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (at >= lines.nr)
		goto out;
	last = at + (f->source_lines > 0 ? (size_t)f->source_lines : 1) - 1;
	if (last >= lines.nr)
		last = lines.nr - 1;
	/* The line that names the function, when it is just above. */
	for (size_t k = 1; k <= QUOTE_CONTEXT && k <= at; k++)
		if (defines(lines.v[at - k]) && lines.v[at - k][1] != '{') {
			before = k;
			after = QUOTE_CONTEXT - k;
			break;
		}
	from = at > before ? at - before : 0;
	to = last + 1 + after;
	if (to > lines.nr)
		to = lines.nr;
	while (from < at && blank_line(lines.v[from]))
		from++;
	while (to > last + 1 && blank_line(lines.v[to - 1]))
		to--;
	/* Keys: twice the post-image line number of the line, or of the
	 * next kept line for a removed one, less one. */
	key = xcalloc(lines.nr, sizeof(*key));
	{
		long post = f->line;

		for (size_t i = at + 1; i < lines.nr; i++) {
			key[i] = post + 1;
			if (lines.v[i][0] != '-')
				post++;
		}
		post = f->line;
		key[at] = post;
		for (size_t i = at; i-- > 0;) {
			if (lines.v[i][0] != '-')
				post--;
			key[i] = post;
		}
		for (size_t i = 0; i < lines.nr; i++)
			key[i] = 2 * key[i] - (lines.v[i][0] == '-');
	}
	for (size_t i = from; i < to; i++) {
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr].key = key[i];
		out->v[out->nr++].text = xstrdup(lines.v[i]);
	}
	free(key);
out:
	strvec_clear(&lines);
}

static void qblock_release(struct qblock *b)
{
	for (size_t i = 0; i < b->nr; i++)
		free(b->v[i].text);
	free(b->v);
	memset(b, 0, sizeof(*b));
}

/* Merge `b` into `a` when they overlap or touch; `b` is then empty. */
static bool qblock_merge(struct qblock *a, struct qblock *b)
{
	long amax;

	if (!a->nr || !b->nr || a->patch != b->patch || strcmp(a->file, b->file) ||
	    a->nr_items >= ARRAY_SIZE(a->items))
		return false;
	amax = a->v[a->nr - 1].key;
	if (b->v[0].key > amax + 2)
		return false;
	for (size_t i = 0; i < b->nr; i++) {
		if (b->v[i].key <= amax)
			continue;
		ALLOC_GROW(a->v, a->nr + 1, a->alloc);
		a->v[a->nr++] = b->v[i];
		b->v[i].text = NULL;
	}
	a->items[a->nr_items++] = b->items[0];
	qblock_release(b);
	return true;
}

static void qblock_text(struct strbuf *out, const struct qblock *b, bool new_file,
			bool skipped)
{
	if (new_file) {
		/* As git writes a name that needs quoting: +++ "b/x\ny". */
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "b/%s", b->file);
		quote_between(out, "> +++ ", path.buf, "\n");
		strbuf_release(&path);
	}
	if (skipped)
		strbuf_addstr(out, "> [...]\n");
	for (size_t i = 0; i < b->nr; i++) {
		size_t start = out->len;

		strbuf_addstr(out, "> ");
		quote_c_style_n(out, b->v[i].text, strlen(b->v[i].text), QUOTE_KEEP_TAB);
		while (out->len > start && isspace((unsigned char)out->buf[out->len - 1]))
			strbuf_setlen(out, out->len - 1);
		strbuf_addch(out, '\n');
	}
}

/* The sentences of a coding-style section that start with `starts`,
 * as "  | " lines filled at 70 columns.  Nothing when none is there. */
static void guide_sentences(struct strbuf *out, const struct guide *g,
			    const struct guide_section *sec, const struct strvec *starts)
{
	struct strbuf flat = STRBUF_INIT, pick = STRBUF_INIT;
	const char *p, *end;
	size_t col = 0;

	/* The body after the heading and its underline, on one line. */
	p = g->text + sec->start;
	for (int k = 0; k < 2 && p < g->text + sec->end; k++)
		p += strcspn(p, "\n") + 1;
	end = g->text + sec->end;
	for (; p < end; p++) {
		if (isspace((unsigned char)*p)) {
			if (flat.len && flat.buf[flat.len - 1] != ' ')
				strbuf_addch(&flat, ' ');
		} else {
			strbuf_addch(&flat, *p);
		}
	}
	for (size_t i = 0; i < starts->nr; i++) {
		const char *s = strstr(flat.buf, starts->v[i]), *e;

		if (!s)
			continue;
		for (e = s; *e; e++)
			if ((e[0] == '.' || e[0] == '?') && (!e[1] || e[1] == ' '))
				break;
		if (*e)
			e++;
		if (pick.len)
			strbuf_addch(&pick, ' ');
		strbuf_add(&pick, s, e - s);
	}
	/* Fill at 70 columns behind "  | ". */
	for (const char *w = pick.buf; *w;) {
		size_t n = strcspn(w, " ");

		if (col && col + 1 + n > 66) {
			strbuf_addch(out, '\n');
			col = 0;
		}
		if (!col)
			strbuf_addstr(out, "  | ");
		else
			strbuf_addch(out, ' ');
		strbuf_add(out, w, n);
		col += n + 1;
		w += n;
		w += strspn(w, " ");
	}
	if (col)
		strbuf_addch(out, '\n');
	strbuf_release(&flat);
	strbuf_release(&pick);
}

static bool said(struct builder *b, const char *key)
{
	if (strvec_has(&b->said, key))
		return true;
	strvec_push(&b->said, key);
	return false;
}

static struct tmpl_vars *say(struct tmpl_vars *fv, struct builder *b, const char *text,
			     struct rewrite_subst *x)
{
	struct strbuf sb = STRBUF_INIT, s = STRBUF_INIT;
	struct tmpl_vars *item = NULL;

	rewrite_expand(&sb, text, x);
	english_sentence(&s, sb.buf);
	/* No sentence twice in one reply. */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "text:%s", s.buf);
	if (s.len && !said(b, sb.buf)) {
		item = tmpl_add(fv, "say");
		tmpl_set(item, "text", s.buf);
	}
	strbuf_release(&sb);
	strbuf_release(&s);
	return item;
}

/*
 * The second coding-style section advice.json names for `class`, when
 * the tree under review has it under that exact heading (older trees say
 * the opposite under another one), after what `out` holds.
 */
static void also_sentences(struct strbuf *out, struct builder *b, enum rule_class class)
{
	const struct advice *a = b->advice;
	const struct guide_section *sec;
	struct strbuf key = STRBUF_INIT;

	if (!a || !b->o->guide || !a->also_section[class] || !a->also[class].nr)
		return;
	sec = guide_find_exact(b->o->guide, a->also_section[class]);
	strbuf_addf(&key, "guide:%s", a->also_section[class]);
	if (sec && !said(b, key.buf)) {
		if (out->len)
			strbuf_addstr(out, "  |\n");
		guide_sentences(out, b->o->guide, sec, &a->also[class]);
	}
	strbuf_release(&key);
}

static bool replaced(const struct advice_hit *h, size_t nr, const char *id)
{
	for (size_t i = 0; i < nr; i++)
		for (size_t k = 0; k < h[i].e->replaces.nr; k++)
			if (!strcmp(h[i].e->replaces.v[k], id))
				return true;
	return false;
}

/*
 * An added call the boot saw fire is an error whatever its rule says (a
 * WARN_ON_ONCE() is otherwise a note): said first under its quote, in
 * place of its class's explanation, so that nothing above the boot
 * paragraph reads as if the call were harmless.  Returns whether it said so.
 */
static bool fired_comment(struct tmpl_vars *fv, struct builder *b,
			  const struct finding *f)
{
	const struct ci_verdict *v = b->o->verdict;
	const struct ci_fired *fd = plan_fired_in_boot(v, f);
	struct strbuf sb = STRBUF_INIT, during = STRBUF_INIT;
	struct tmpl_vars *item;

	if (!fd)
		return false;
	if (fd->suite)
		ci_words_test(&during, fd->suite, &b->book);
	else
		strbuf_addstr(&during, "boot");
	sentence(&sb, b, "fired", "base", v->base, "macro", f->rule->macro, "during", during.buf,
	    "down", fd->in_first_boot ? "1" : NULL, NULL);
	strbuf_release(&during);
	if (!sb.len)
		return false;
	/* Said under every call that fired, whatever was said before. */
	item = tmpl_add(fv, "say");
	tmpl_set(item, "text", sb.buf);
	strbuf_release(&sb);
	return true;
}

/*
 * Compile rewrite `code` of `f` with the caller's compiler (reply_opts
 * .compile): "compiled" true, false (then `code` is emptied: nothing
 * said about code rather than something wrong), or null when it could
 * not be tried, and "compile", the command used, in `rec`.  Facts read
 * by name from the base (cf->by_name) are of a function the series did
 * not apply to: their rewrite is not even recorded unless it compiled.
 * True when it compiled: only then does the reply show it (README: a
 * rewrite is offered only when it compiles; "compiled": null is a
 * rewrite nobody built, issue 34).
 */
static bool compiled(json_t *rec, struct strbuf *code, const struct reply_opts *o,
		     const struct finding *f, const struct cfacts *cf)
{
	const char *how = NULL;
	bool must = cf && cf->by_name;
	int ret;

	if (!code->len || !o->compile) {
		if (must)
			strbuf_reset(code);
		json_object_set_new(rec, "compiled", json_null());
		json_object_set_new(rec, "compile", json_null());
		return false;
	}
	ret = o->compile(o->compile_data, f, code->buf, &how);
	if (ret < 0)
		error_clear();
	if (ret <= 0 && (ret == 0 || must))
		strbuf_reset(code);
	json_object_set_new(rec, "compiled", ret < 0 ? json_null() : json_boolean(ret > 0));
	json_object_set_new(rec, "compile", how ? json_string(how) : json_null());
	return ret > 0;
}

/* The JSON record of one call: where, the rules that fired and why. */
static json_t *record_of(const struct finding *f, const struct cfacts *cf)
{
	json_t *rec = json_object();
	struct strbuf fp = STRBUF_INIT, added = STRBUF_INIT;

	plan_fingerprint(&fp, f);
	plan_added_line(&added, f);
	json_object_set_new(rec, "patch", json_integer(f->patch));
	json_object_set_new(rec, "file", json_string(f->file));
	json_object_set_new(rec, "line", json_integer(f->line));
	json_object_set_new(rec, "function", json_string(f->function));
	json_object_set_new(rec, "macro", json_string(f->rule->macro));
	json_object_set_new(rec, "rule", json_string(f->rule->id));
	json_object_set_new(rec, "fingerprint", json_string(fp.buf));
	json_object_set_new(rec, "added", json_string(added.buf));
	json_object_set_new(rec, "facts", json_boolean(cf != NULL));
	json_object_set_new(rec, "facts_from", !cf ? json_null() :
			    json_string(cf->appended ? "hunk-added" :
						cf->by_name ? "base-by-name" : "patched"));
	json_object_set_new(rec, "return_type", cf && cf->ret_type ?
			    json_string(cf->ret_type) : json_null());
	/* Whether advice may say how to leave the function (rewrite_may_leave()). */
	json_object_set_new(rec, "loop", cf ? json_string(inloop_name(cf->loop)) : json_null());
	json_object_set_new(rec, "rules", json_array());
	strbuf_release(&fp);
	strbuf_release(&added);
	return rec;
}

static void record_rule(json_t *rec, const char *id, const char *fact, const char *evidence)
{
	json_t *r = json_object();

	json_object_set_new(r, "id", json_string(id));
	json_object_set_new(r, "fact", json_string(fact));
	json_object_set_new(r, "evidence", json_string(evidence ? evidence : ""));
	json_array_append_new(json_object_get(rec, "rules"), r);
}

/*
 * The rewrite of call `f` (hits[0..nr): the advice that fired): the
 * first advice's own rewrite, else the gentler form (rewrite_example()); only
 * from the facts, since the diff does not show the way out.
 */
static void pick_rewrite(struct strbuf *code, struct strbuf *exit, const struct series *s,
			 const struct finding *f, const struct cfacts *cf,
			 const struct advice_hit *hits, size_t nr)
{
	for (size_t i = 0; i < nr && cf; i++) {
		const struct advice_entry *e = hits[i].e;
		struct rewrite_subst y;

		if (replaced(hits, nr, e->id) || (!e->rewrite && !hits[i].fs))
			continue;
		rewrite_subst_init(&y, s, f, &hits[i], cf);
		rewrite_expand(code, e->rewrite ? e->rewrite : hits[i].fs->rewrite, &y);
		if (y.no_exit)
			strbuf_reset(code);
		strbuf_addbuf(exit, &y.exit);
		rewrite_subst_release(&y);
		return;
	}
	rewrite_example(code, exit, f, cf);
}

void reply_rewrite(struct strbuf *code, struct strbuf *exit, const struct series *s,
		   const struct finding *f, const struct cfacts *cf, const struct advice *a)
{
	struct advice_hit *hits;
	size_t nr = advice_match(&hits, a, f, cf);

	pick_rewrite(code, exit, s, f, cf, hits, nr);
	advice_hits_free(hits, nr);
}

/*
 * A note on a call that needs no change for a reason of its own (check's
 * __init rule, a changed condition): that reason in one sentence, and
 * nothing else -- no advice, no rewrite, which would contradict the
 * opening's "nothing needs a change".  False for other items.
 */
static bool own_note(struct tmpl_vars *bv, struct builder *b, const struct plan_item *it)
{
	const struct finding *f = it->f;
	struct strbuf sb = STRBUF_INIT, s = STRBUF_INIT;
	struct tmpl_vars *fv;

	if (it->type != PLAN_NOTE || (it->note != PN_INIT && it->note != PN_CHANGED))
		return false;
	fv = tmpl_add(bv, "findings");
	tmpl_set(fv, "location", quote_str(&sb, f->file));
	strbuf_reset(&sb);
	if (it->note == PN_INIT) {
		sentence(&sb, b, "note-init", "message", f->message, NULL);	/* check.c's words */
	} else {
		char line[16];

		snprintf(line, sizeof(line), "%d", f->other_line);
		sentence(&sb, b, "note-changed", "part", f->same_cond ? "arguments" : "condition",
		    "macro", f->rule->macro, "line", f->other_line ? line : NULL, NULL);
	}
	english_sentence(&s, sb.buf);
	tmpl_set(tmpl_add(fv, "say"), "text", s.buf);
	json_array_append_new(b->record, record_of(f, facts_of(b->o, b->r, f)));
	strbuf_release(&sb);
	strbuf_release(&s);
	return true;
}

/* What to say under the quote of one call: what is new, and its rewrite. */
static void add_comment(struct tmpl_vars *bv, struct builder *b, const struct plan_item *it)
{
	const struct finding *f = it->f;
	const struct advice *a = b->advice;
	const struct cfacts *cf = facts_of(b->o, b->r, f);
	struct tmpl_vars *fv = tmpl_add(bv, "findings");
	struct advice_hit *hits;
	struct strbuf sb = STRBUF_INIT, code = STRBUF_INIT, exit = STRBUF_INIT;
	struct tmpl_vars *item;
	json_t *rec = record_of(f, cf);
	struct rewrite_subst x;
	size_t nr = advice_match(&hits, a, f, cf);
	bool shown;

	rewrite_subst_init(&x, b->s, f, NULL, cf);
	tmpl_set(fv, "location", quote_str(&sb, f->file));
	if (fired_comment(fv, b, f)) {
		/* The boot is the point: the class's note would weaken it. */
		strbuf_reset(&sb);
	} else if (!replaced(hits, nr, "explain")) {
		const char *explain = a && f->kind != FINDING_DEFINE ?
			a->explain[f->rule->class] : NULL;

		strbuf_addf(&sb, "explain:%s", explain ? rule_class_name(f->rule->class) :
			    f->rule->id);
		if (!said(b, sb.buf)) {
			const struct guide_section *sec = b->o->guide && f->rule->section ?
				guide_find(b->o->guide, f->rule->section) : NULL;

			struct strbuf q = STRBUF_INIT, see = STRBUF_INIT;

			if (sec && a && a->guide[f->rule->class].nr)
				guide_sentences(&q, b->o->guide, sec, &a->guide[f->rule->class]);
			also_sentences(&q, b, f->rule->class);
			strbuf_reset(&sb);
			english_sentence(&sb, explain ? explain : f->message ? f->message :
					 f->rule->message);
			if (q.len && a && a->guide_intro) {
				english_sentence(&sb, a->guide_intro);
			} else if (!b->o->guide && f->rule->section) {
				/* No tree to quote from: name the section. */
				strbuf_reset(&see);
				sentence(&see, b, "see-section", "section", f->rule->section,
					 "guide", GUIDE_PATH, NULL);
				if (see.len)
					english_sentence(&sb, see.buf);
			}
			item = say(fv, b, sb.buf, &x);
			if (item)
				set_block(item, "guide", &q);
			strbuf_release(&q);
			strbuf_release(&see);
		}
		strbuf_reset(&sb);
	}
	for (size_t i = 0; i < nr; i++) {
		const struct advice_entry *e = hits[i].e;
		struct rewrite_subst y;

		if (replaced(hits, nr, e->id))
			continue;
		record_rule(rec, e->id, hits[i].fact, hits[i].evidence);
		rewrite_subst_init(&y, b->s, f, &hits[i], cf);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "advice:%s", e->id);
		if (!said(b, sb.buf))
			say(fv, b, e->say, &y);
		else if (e->again)
			say(fv, b, e->again, &y);
		rewrite_subst_release(&y);
	}
	pick_rewrite(&code, &exit, b->s, f, cf, hits, nr);
	shown = compiled(rec, &code, b->o, f, cf) && code.len;
	json_object_set_new(rec, "rewrite", code.len ? json_string(code.buf) : json_null());
	json_object_set_new(rec, "exit", code.len && exit.len ? json_string(exit.buf) :
			    json_null());
	json_array_append_new(b->record, rec);
	strbuf_reset(&sb);
	if (shown) {
		rewrite_code_block(&sb, code.buf);
		b->rewritten[it - b->plan->v] = true;
	}
	set_block(fv, "rewrite", &sb);
	advice_hits_free(hits, nr);
	rewrite_subst_release(&x);
	strbuf_release(&sb);
	strbuf_release(&code);
	strbuf_release(&exit);
}

/* The calls of patch `index`, quoted and commented in patch order. */
static void add_patch(struct tmpl_vars *pv, struct builder *b, const struct plan *p,
		      int index)
{
	struct qblock *blocks = NULL;
	const char *prev = NULL;
	size_t nr = 0, alloc = 0;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < p->nr; i++) {
		const struct plan_item *it = &p->v[i];

		if ((it->type != PLAN_ISSUE && it->type != PLAN_NOTE) || it->patch != index)
			continue;
		ALLOC_GROW(blocks, nr + 1, alloc);
		qblock_of(&blocks[nr], it);
		if (nr && qblock_merge(&blocks[nr - 1], &blocks[nr]))
			continue;
		nr++;
	}
	for (size_t i = 0; i < nr; i++) {
		struct tmpl_vars *bv = tmpl_add(pv, "blocks");
		bool new_file = !prev || strcmp(prev, blocks[i].file);

		prev = blocks[i].file;
		strbuf_reset(&sb);
		qblock_text(&sb, &blocks[i], new_file, !new_file);
		set_block(bv, "quote", &sb);
		for (size_t k = 0; k < blocks[i].nr_items; k++)
			if (!own_note(bv, b, blocks[i].items[k]))
				add_comment(bv, b, blocks[i].items[k]);
		qblock_release(&blocks[i]);
	}
	free(blocks);
	strbuf_release(&sb);
}

/* A removal or an in-patch conversion: one sentence of thanks, said
 * once per reply however many calls earn it.  What v(N-1) added and
 * this version fixed is said in the opening. */
static void add_credit(struct tmpl_vars *top, struct builder *b, const struct plan_item *it)
{
	const struct finding *f = it->f;
	struct strbuf sb = STRBUF_INIT, key = STRBUF_INIT;

	if (f->conversion && f->other) {
		sentence(&sb, b, "credit-converted", "macro", f->rule->macro, "function", f->function,
		    "other", f->other->macro, NULL);
	} else {
		struct strbuf where = STRBUF_INIT;

		if (*f->function)
			strbuf_addf(&where, "%s()", f->function);
		else
			quote_c_style(&where, f->file);
		sentence(&sb, b, "credit-removed", "macro", f->rule->macro, "where", where.buf, NULL);
		strbuf_release(&where);
	}
	if (!sb.len)
		goto out;
	strbuf_addf(&key, "credit:%s", sb.buf);
	if (!said(b, key.buf))
		tmpl_set(tmpl_add(top, "credits"), "text", sb.buf);
out:
	strbuf_release(&sb);
	strbuf_release(&key);
}


/* "Thanks for v2: the BUG_ON() that v1 added to foo() is now ...": what
 * the previous version added and this one converted or dropped. */
static void thank_version(struct strbuf *out, const struct plan *p, const struct builder *b)
{
	const struct series *s = b->s;
	struct strvec macros = STRVEC_INIT, now = STRVEC_INIT;
	struct strbuf calls = STRBUF_INIT, fns = STRBUF_INIT;
	char version[16], previous[16];
	bool all_converted = true, all_recover = true, one;

	for (size_t i = 0; i < p->nr; i++) {
		const struct finding *f = p->v[i].f;
		struct strbuf l = STRBUF_INIT;
		bool dup = false;

		if (p->v[i].type != PLAN_XCREDIT)
			continue;
		if (!f) {
			all_converted = false;
			continue;
		}
		rewrite_finding_line(&l, f);
		all_recover &= strstr(l.buf, "if (") != NULL;
		strbuf_release(&l);
		for (size_t k = 0; k < now.nr; k++)
			dup |= !strcmp(now.v[k], f->rule->macro);
		if (!dup)
			strvec_push(&now, f->rule->macro);
	}
	one = plan_count_macros(&macros, p, PLAN_XCREDIT, true, &b->book) == 1;
	english_join(&calls, &macros);
	plan_functions_of(&fns, p, PLAN_XCREDIT, true);
	snprintf(version, sizeof(version), "%d", s->version);
	snprintf(previous, sizeof(previous), "%d", s->version - 1);
	sentence(out, b, "version-thanks", "version", version, "previous", previous,
	    "calls", calls.buf, "functions", fns.buf, NULL);
	if (all_converted && now.nr == 1) {
		sentence(out, b, "version-converted", "macro", now.v[0], "one", one ? "1" : NULL, NULL);
		sentence(out, b, "version-recovers", "recovers", all_recover ? "1" : NULL,
		    "one", one ? "1" : NULL, NULL);
	} else {
		sentence(out, b, "version-gone", "gone", "1", "one", one ? "1" : NULL, NULL);
	}
	sentence(out, b, "version-asks", NULL);
	strbuf_release(&calls);
	strbuf_release(&fns);
	strvec_clear(&now);
	strvec_clear(&macros);
}

/* The opening paragraph: what was found, in one or two sentences. */
/*
 * The main point made about `f`: its rule, and the advice entry that
 * takes the place of the class's explanation ("fs-corruption",
 * "user-input"), if any.  Calls with the same point are one thing to fix.
 */
static void point_of(struct strbuf *out, const struct advice *a, const struct finding *f,
		     const struct cfacts *cf)
{
	struct advice_hit *hits;
	size_t nr = advice_match(&hits, a, f, cf);

	strbuf_addstr(out, f->rule->id);
	for (size_t i = 0; i < nr; i++) {
		bool main = false;

		for (size_t k = 0; k < hits[i].e->replaces.nr; k++)
			main |= !strcmp(hits[i].e->replaces.v[k], "explain");
		if (main) {
			strbuf_addf(out, "/%s", hits[i].e->id);
			break;
		}
	}
	advice_hits_free(hits, nr);
}

/*
 * The end of the opening's "one point covers all three, made at the
 * first" sentence: which of the issues get a rewrite below, exactly
 * those add_comment() showed one under (b->rewritten), and nothing about
 * rewrites when none did.
 */
static void rewrites_below(struct strbuf *out, const struct plan *p, const struct builder *b)
{
	struct strvec with = STRVEC_INIT;
	int n = 0, k = 0;
	bool named = true;

	for (size_t i = 0; i < p->nr; i++) {
		if (p->v[i].type != PLAN_ISSUE)
			continue;
		n++;
		k += b->rewritten[i];
		named &= *p->v[i].f->function != '\0';
	}
	/* Named by function only when no call without one shares it. */
	for (size_t i = 0; named && i < p->nr; i++) {
		const struct finding *f = p->v[i].f;

		if (p->v[i].type != PLAN_ISSUE || !b->rewritten[i])
			continue;
		for (size_t j = 0; j < p->nr && named; j++)
			named = p->v[j].type != PLAN_ISSUE || b->rewritten[j] ||
				strcmp(p->v[j].f->function, f->function);
		if (named) {
			struct strbuf name = STRBUF_INIT;

			strbuf_addf(&name, "%s()", f->function);
			if (!strvec_has(&with, name.buf))
				strvec_push(&with, name.buf);
			strbuf_release(&name);
		}
	}
	if (!k) {
		strbuf_addch(out, '.');
	} else if (k == n) {
		sentence(out, b, "opening-rewrite-each", "each", "1", NULL);
	} else if (named && with.nr <= 3) {
		struct strbuf fns = STRBUF_INIT;

		english_join(&fns, &with);
		sentence(out, b, "opening-rewrite-named", "functions", fns.buf,
		    "one", k == 1 ? "1" : NULL, NULL);
		strbuf_release(&fns);
	} else {
		sentence(out, b, "opening-rewrite-some", "count", english_number(k),
		    "one", k == 1 ? "1" : NULL, NULL);
	}
	strvec_clear(&with);
}

/* Does the plan object to an added call of `macro` in patch `patch`? */
static bool issue_like(const struct plan *p, const char *macro, int patch)
{
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].type == PLAN_ISSUE && p->v[i].f->patch == patch &&
		    !strcmp(p->v[i].f->rule->macro, macro))
			return true;
	return false;
}

/*
 * After the count of added calls: the same calls the patch removed
 * elsewhere (finding.readded), so that "adds two BUG() calls" where one
 * of them replaces a removed one says so.  Named when there is one.
 */
static void readded_words(struct strbuf *out, const struct plan *p, const struct builder *b)
{
	const struct check_result *r = b->r;
	const struct finding *one = NULL;
	int n = 0;

	for (size_t i = 0; r && i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->kind != FINDING_REMOVED || !f->readded ||
		    !issue_like(p, f->rule->macro, f->patch))
			continue;
		one = f;
		n++;
	}
	if (n == 1 && *one->function)
		sentence(out, b, "opening-readded-one", "macro", one->rule->macro,
		    "function", one->function, NULL);
	else if (n == 1)
		sentence(out, b, "opening-readded-one-file", "macro", one->rule->macro,
		    "file", one->file, NULL);
	else if (n)
		sentence(out, b, "opening-readded-many", "count", english_number(n), NULL);
}

/* " to foo()": a call is added to a function, changed in one. */
static void in_functions(struct strbuf *fns)
{
	struct strbuf in = STRBUF_INIT;

	strbuf_addf(&in, " in %s", fns->buf + 4);
	strbuf_swap(&in, fns);
	strbuf_release(&in);
}

/* The issues on calls whose condition changed (check: finding.modified). */
static int changed_issues(const struct plan *p)
{
	int n = 0;

	for (size_t i = 0; i < p->nr; i++)
		n += p->v[i].type == PLAN_ISSUE && p->v[i].f->modified &&
		     p->v[i].f->kind == FINDING_ADDED;
	return n;
}

/* The opening of a reply with notes only (--always): "nothing to
 * comment on" above a comment would contradict the reply itself (issue
 * 26). */
static void opening_notes(struct strbuf *out, const struct plan *p, const struct builder *b,
			  const char *what)
{
	struct strvec macros = STRVEC_INIT;
	struct strbuf calls = STRBUF_INIT, fns = STRBUF_INIT;
	int changed = 0;

	for (size_t i = 0; i < p->nr; i++)
		changed += p->v[i].type == PLAN_NOTE && p->v[i].note == PN_CHANGED;
	plan_count_macros(&macros, p, PLAN_NOTE, false, &b->book);
	english_join(&calls, &macros);
	plan_functions_of(&fns, p, PLAN_NOTE, false);
	if (changed && starts_with(fns.buf, " to "))
		in_functions(&fns);
	sentence(out, b, "opening-notes", "what", what,
		 "verb", !changed ? "adds" : changed == p->notes ? "changes" : "adds or changes",
		 "calls", calls.buf, "functions", fns.buf, NULL);
	/* A changed condition is not judged: only "see the note". */
	sentence(out, b, changed ? "opening-notes-changed" : "opening-notes-added",
		 "changed", changed ? "1" : NULL, "notes", "1",
		 "many", p->notes > 1 ? "1" : NULL, NULL);
	strbuf_release(&calls);
	strbuf_release(&fns);
	strvec_clear(&macros);
}

static void opening(struct strbuf *out, const struct plan *p, const struct builder *b,
		    bool single)
{
	const struct series *s = b->s;
	const struct advice *a = b->advice;
	const struct ci_verdict *v = b->o->verdict;
	const char *what = single ? "This patch" : "This series";
	struct strvec macros = STRVEC_INIT;
	struct strbuf calls = STRBUF_INIT, fns = STRBUF_INIT;
	bool xc = false;
	int nr_fired = 0, changed;

	for (size_t i = 0; i < p->nr; i++) {
		xc |= p->v[i].type == PLAN_XCREDIT;
		if (p->v[i].type == PLAN_ISSUE && plan_fired_in_boot(v, p->v[i].f))
			nr_fired++;
	}
	if (p->issues) {
		struct strbuf first = STRBUF_INIT, point = STRBUF_INIT;
		bool one_kind = true;

		for (size_t i = 0; i < p->nr; i++) {
			if (p->v[i].type != PLAN_ISSUE)
				continue;
			strbuf_reset(&point);
			point_of(&point, a, p->v[i].f, facts_of(b->o, b->r, p->v[i].f));
			if (!first.len)
				strbuf_addbuf(&first, &point);
			else if (strcmp(first.buf, point.buf))
				one_kind = false;
		}
		strbuf_release(&first);
		strbuf_release(&point);
		plan_count_macros(&macros, p, PLAN_ISSUE, false, &b->book);
		english_join(&calls, &macros);
		/* A quote shows a function's name only when its first line is
		 * near the call: the opening names them (up to three). */
		plan_functions_of(&fns, p, PLAN_ISSUE, false);
		changed = changed_issues(p);
		if (changed && starts_with(fns.buf, " to "))
			in_functions(&fns);
		sentence(out, b, "opening-adds", "what", what,
		    "verb", !changed ? "adds" : changed == p->issues ? "changes" : "adds or changes",
		    "calls", calls.buf, "functions", fns.buf, NULL);
		readded_words(out, p, b);
		if (nr_fired)
			sentence(out, b, "opening-fired", "which",
			    nr_fired == 1 && p->issues == 1 ? "it" :
			    nr_fired == 1 ? "one of them" : "them", NULL);
		if (one_kind && p->issues > 1 && !nr_fired) {
			struct strbuf which = STRBUF_INIT;

			if (p->issues == 2)
				strbuf_addstr(&which, "both");
			else
				strbuf_addf(&which, "all %s", english_number(p->issues));
			sentence(out, b, "opening-covers", "which", which.buf, NULL);
			strbuf_release(&which);
			rewrites_below(out, p, b);
		} else {
			sentence(out, b, "opening-inline", "issues", "1", NULL);
		}
		if (xc && s->version > 1) {
			/* What v(N-1) added and this one fixed: said here, once. */
			strbuf_addch(out, ' ');
			thank_version(out, p, b);
		}
	} else if (p->credits) {
		if (xc && s->version > 1)
			thank_version(out, p, b);
		else
			sentence(out, b, "opening-removes", "credits", "1",
			    "unit", single ? "patch" : "series", NULL);
	} else if (p->notes) {
		opening_notes(out, p, b, what);
	} else if (b->unchanged.nr) {
		/* Only points an earlier version's review made: the lines
		 * below name them (made_before()); nothing is new. */
		sentence(out, b, "opening-unchanged", "unchanged", "1", "what", what, NULL);
	} else {
		sentence(out, b, "opening-nothing", "what", single ? "this patch" : "this series", NULL);
	}
	strbuf_release(&calls);
	strbuf_release(&fns);
	strvec_clear(&macros);
}

static void verdict_vars(struct tmpl_vars *top, const struct ci_verdict *vd,
			 const struct say_book *book)
{
	struct ci_words w = CI_WORDS_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct tmpl_vars *v;
	bool failed = false;

	if (!vd)
		return;
	v = tmpl_add(top, "verdict");
	tmpl_set(v, "verdict", ci_verdict_name(vd->kind));
	tmpl_set(v, "kernel", quote_str(&sb, vd->base));
	strbuf_reset(&sb);
	if (vd->kind == CI_UNTESTABLE) {
		/* One line, the reason: nothing about the series itself. */
		ci_words_untestable(&sb, vd, book);
		tmpl_set_bool(v, "untestable", true);
		tmpl_set(v, "why", sb.buf);
		strbuf_reset(&sb);
		ci_words_base_hint(&sb, vd, book);
		tmpl_set(v, "base_hint", sb.len ? sb.buf : NULL);
		strbuf_release(&sb);
		return;
	}
	ci_words_of(&w, vd, book);
	/* kernel-ci boots with panic_on_warn=1 (the second boot only lists). */
	tmpl_set_bool(v, "panic_on_warn", true);
	if (vd->kind == CI_CLEAN) {
		tmpl_set_bool(v, "clean", true);
	} else if (vd->kind == CI_ERROR) {
		/* kernel-ci itself failed; not the series' fault. */
		tmpl_set_bool(v, "skipped", true);
	} else {
		/* Nothing booted when it did not apply or build: say so. */
		tmpl_set_bool(v, vd->kind == CI_APPLY_FAILED ? "not_applied" :
			      vd->kind == CI_BUILD_FAILED ? "not_built" : "failed", true);
		failed = true;
		strbuf_reset(&sb);
		ci_words_outcome(&sb, vd->kind, book);
		tmpl_set(v, "outcome", sb.len ? sb.buf : NULL);
		strbuf_reset(&sb);
	}
	if (w.first.len) {
		english_sentence(&sb, w.first.buf);
		tmpl_set(v, "first", sb.buf);
		strbuf_reset(&sb);
	}
	tmpl_set(v, "tests", w.tests.len ? w.tests.buf : NULL);
	/* After a failure the tests open a sentence of their own ("The ext4
	 * workload ran"); after a clean boot they follow a semicolon. */
	if (w.tests.len) {
		strbuf_reset(&sb);
		english_sentence(&sb, w.tests.buf);
		tmpl_set(v, "tests_sentence", sb.buf);
	}
	strbuf_reset(&sb);
	for (size_t i = 0; i < w.calls.nr; i++) {
		strbuf_reset(&sb);
		english_sentence(&sb, w.calls.v[i]);
		tmpl_set(tmpl_add(v, "calls"), "text", sb.buf);
	}
	/* When it went wrong, the console lines that say where (the panic
	 * and the trace): the author needs them to reproduce it, and they
	 * may not be anywhere else the author can read. */
	strbuf_reset(&sb);
	if (failed) {
		size_t n = 0;

		for (const char *l = w.log.buf; *l && n < CI_WORDS_LOG_LINES; n++) {
			size_t len = strcspn(l, "\n");

			if (len)
				quote_lines(&sb, "    ", l, len);
			l += len + (l[len] == '\n');
		}
		set_block(v, "log", &sb);
	}
	strbuf_release(&sb);
	ci_words_release(&w);
}

/* ---- putting it together ------------------------------------------------ */

/* Which message to answer: the one patch with something to say, else the
 * cover letter, else the first patch that has something. */
static int choose_target(const struct plan *p, const struct series *s)
{
	int first = 0;
	bool several = false, nopatch = false;

	for (size_t i = 0; i < p->nr; i++) {
		int idx = p->v[i].patch;

		if (p->v[i].type == PLAN_NOTE)
			continue;
		if (!idx)
			nopatch = true;
		else if (!first)
			first = idx;
		else if (idx != first)
			several = true;
		if (idx && idx < first)
			first = idx;
	}
	if (first && !several && !nopatch)
		return first;
	if (s->cover)
		return 0;
	if (first)
		return first;
	return s->nr ? s->patches[0].index : 0;
}

static void greeting(struct tmpl_vars *v, const struct mail *m)
{
	struct mail_addr_list a = MAIL_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	mail_addr_parse(&a, m->from_raw);
	if (a.nr && *a.v[0].name)
		tmpl_set(v, "author", quote_str(&sb, a.v[0].name));
	mail_addr_list_clear(&a);
	strbuf_release(&sb);
}

static void body_vars(struct tmpl_vars *top, struct builder *b, const struct plan *p,
		      int target)
{
	const struct series *s = b->s;
	bool single = target != 0;
	struct strbuf sb = STRBUF_INIT;

	b->plan = p;
	b->rewritten = xcalloc(p->nr ? p->nr : 1, sizeof(*b->rewritten));
	tmpl_set_bool(top, "single", single);
	tmpl_setf(top, "version", "%d", s->version);
	tmpl_set(top, "guide_file", GUIDE_PATH);
	tmpl_set(top, "tree", b->o->tree_name);
	tmpl_set_bool(top, "have_guide", b->o->guide != NULL);

	/* Inline comments, grouped by patch in series order. */
	for (size_t k = 0; k < s->nr; k++) {
		const struct series_patch *sp = &s->patches[k];
		bool any = false;

		for (size_t i = 0; i < p->nr; i++)
			any |= (p->v[i].type == PLAN_ISSUE || p->v[i].type == PLAN_NOTE) &&
			       p->v[i].patch == sp->index;
		if (any) {
			struct tmpl_vars *pv = tmpl_add(top, "patches");

			tmpl_set(pv, "subject", quote_str(&sb, sp->subject));
			tmpl_set_bool(pv, "heading", !single);
			add_patch(pv, b, p, sp->index);
		}
	}
	/* Points an earlier version's review made, unchanged: one line each. */
	for (size_t i = 0; i < b->unchanged.nr; i++) {
		struct tmpl_vars *uv = tmpl_add(top, "unchanged");

		tmpl_set(uv, "quote", *b->unchanged_quote.v[i] ? b->unchanged_quote.v[i] : NULL);
		tmpl_set(uv, "text", b->unchanged.v[i]);
	}
	/* Said after the comments: it promises only the rewrites shown. */
	strbuf_reset(&sb);
	opening(&sb, p, b, single);
	tmpl_set(top, "opening", sb.buf);
	/* What v(N-1) added and this version fixed is said in the opening. */
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].type == PLAN_CREDIT)
			add_credit(top, b, &p->v[i]);
	tmpl_set_bool(top, "issues", p->issues > 0);
	verdict_vars(top, b->o->verdict, &b->book);
	tmpl_set(top, "contact", b->o->contact);
	strbuf_release(&sb);
}

/* "damaged": the hunks check skipped, "patch 2, mm/a.c hunk 1; ...". */
static void damaged_var(struct tmpl_vars *v, const struct check_result *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->nr_damaged; i++) {
		const struct check_damage *d = &r->damaged[i];

		if (sb.len)
			strbuf_addstr(&sb, "; ");
		if (d->patch)
			strbuf_addf(&sb, "patch %d, ", d->patch);
		if (!d->hunk)
			strbuf_addstr(&sb, "the header of ");
		quote_c_style(&sb, d->file);
		if (d->hunk)
			strbuf_addf(&sb, " hunk %d", d->hunk);
	}
	tmpl_set(v, "damaged", sb.len ? sb.buf : NULL);
	strbuf_release(&sb);
}

/* Does `len` bytes of `s` hold an address as b4 sees one (\S+@\S+\.\S+)? */
static bool has_address(const char *s, size_t len)
{
	for (size_t i = 1; i + 1 < len; i++) {
		size_t k = i + 1;

		if (s[i] != '@' || isspace((unsigned char)s[i - 1]))
			continue;
		while (k < len && !isspace((unsigned char)s[k]) && (s[k] != '.' || k == i + 1))
			k++;
		if (k + 1 < len && s[k] == '.' && !isspace((unsigned char)s[k + 1]))
			return true;
	}
	return false;
}

/*
 * Would b4 take `line` for a trailer in a follow-up?  b4 (0.12, its
 * find_trailers()) matches r'^\s*(\w\S+):\s+(\S.*)' on every line above
 * the signature: a first word of two or more characters that starts with
 * a word character and ends in ':', then blanks and more text; in a
 * follow-up it keeps the ones whose value holds an address, and a few
 * named ones without ("Fixes:", "Link:").  Judged loosely on purpose
 * (any non-ASCII byte counts as blank or word, any name without an
 * address counts when it is one of those): none may slip by.
 */
static bool trailer_shaped(const char *line, size_t len)
{
	static const char *const named[] = { "fixes:", "subject:", "date:", "link:",
		"buglink:", "obsoleted-by:", "change-id:", "base-commit:" };
	size_t i = 0, w;

	while (i < len && (isspace((unsigned char)line[i]) || (unsigned char)line[i] >= 0x80))
		i++;
	w = i;
	if (i == len || (!isalnum((unsigned char)line[i]) && line[i] != '_' &&
			 (unsigned char)line[i] < 0x80))
		return false;
	while (i < len && !isspace((unsigned char)line[i]))
		i++;
	if (i - w < 3 || line[i - 1] != ':')
		return false;
	if (i == len || !isspace((unsigned char)line[i]))
		return false;
	if (has_address(line + i, len - i))
		return true;
	for (size_t k = 0; k < ARRAY_SIZE(named); k++)
		if (i - w == strlen(named[k]) && !strncasecmp(line + w, named[k], i - w))
			return true;
	return false;
}

/*
 * The last line of defence against trailers in a reply: a line above
 * the signature that b4 would read as "Reviewed-by: ..." can only come
 * from the series (a subject the filler wrapped, a console line the
 * guest printed), since no sentence of ours has that shape.  It is
 * quoted with "> " like the rest of the series' text.
 */
static void quote_trailers(struct strbuf *body)
{
	struct strbuf out = STRBUF_INIT;
	const char *sig = NULL, *p = body->buf, *end;

	for (const char *s = body->buf; (s = strstr(s, "\n-- \n")); s++)
		sig = s + 1;
	end = sig ? sig : body->buf + body->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (*p != '>' && trailer_shaped(p, n - (nl != NULL)))
			strbuf_addstr(&out, "> ");
		strbuf_add(&out, p, n);
		p += n;
	}
	if (out.len == (size_t)(end - body->buf)) {
		strbuf_release(&out);
		return;
	}
	strbuf_add(&out, end, body->buf + body->len - end);
	strbuf_release(body);
	*body = out;
}

/*
 * An advice fired on a fact of the patched tree that makes `f` reachable,
 * or one specific to the call ("speaks": a test to fold into the if).
 */
static bool fact_evidence(const struct builder *b, const struct finding *f)
{
	const struct cfacts *cf = facts_of(b->o, b->r, f);
	struct advice_hit *hits;
	size_t nr;
	bool yes = false;

	/* Without the tree's facts, what the patch's own lines prove. */
	nr = advice_match(&hits, b->advice, f, cf);
	for (size_t i = 0; i < nr; i++)
		yes |= hits[i].e->speaks || (hits[i].fact && (!strcmp(hits[i].fact, "user") ||
							      !strcmp(hits[i].fact, "disk")));
	advice_hits_free(hits, nr);
	return yes;
}

/*
 * Was the point about `f` made on an earlier version, with nothing new
 * to add (no boot of this version reached it)?  Then it is named in one
 * line (b->unchanged) instead of being made again.
 */
static bool made_before(struct builder *b, const struct finding *f)
{
	struct strbuf where = STRBUF_INIT, sb = STRBUF_INIT, line = STRBUF_INIT,
		      quote = STRBUF_INIT;
	int version;

	if (!b->o->earlier || plan_reached_in_boot(b->o->verdict, f))
		return false;
	version = b->o->earlier(b->o->earlier_data, f, &where);
	if (version > 0) {
		json_t *rec = record_of(f, NULL);
		struct strbuf at = STRBUF_INIT;
		char v[16];

		/* Its added line quoted alone (a reply that calls it wrong
		 * quotes it, as it would a full review), then one line. */
		plan_added_line(&line, f);
		if (line.len)
			quote_lines(&quote, "> +", line.buf, line.len);
		quote_c_style(&at, f->file);
		strbuf_addf(&at, ":%d", f->line);
		snprintf(v, sizeof(v), "%d", version);
		sentence(&sb, b, "unchanged", "macro", f->kind == FINDING_DEFINE && f->defined &&
		    *f->defined ? f->defined : f->rule->macro, "where", at.buf,
		    "function", f->function, "version", v, "review", where.buf, NULL);
		strbuf_release(&at);
		strvec_push(&b->unchanged, sb.buf);
		strbuf_rtrim(&quote);
		strvec_push(&b->unchanged_quote, quote.buf);
		/* Said by this mail too: feedback on it reaches the finding. */
		json_object_set_new(rec, "unchanged", json_true());
		json_array_append_new(b->record, rec);
	}
	strbuf_release(&where);
	strbuf_release(&sb);
	strbuf_release(&line);
	strbuf_release(&quote);
	return version > 0;
}

/* plan_drop()'s question: what the service's list policy keeps. */
static bool keep_item(void *data, const struct plan_item *it)
{
	struct builder *b = data;
	const struct finding *f = it->f;

	if (b->o->drop && b->o->drop(b->o->drop_data, f))
		return false;
	if (made_before(b, f))
		return false;
	if (!b->o->need_evidence || f->severity >= SEV_WARNING)
		return true;
	return plan_reached_in_boot(b->o->verdict, f) || fact_evidence(b, f);
}

int reply_build(struct reply *out, const struct series *s,
		const struct check_result *r, const struct reply_opts *o)
{
	struct plan p = PLAN_INIT;
	struct builder b = { s, o, o->advice, STRVEC_INIT, STRVEC_INIT, STRVEC_INIT, r, NULL,
			     NULL, NULL, SAY_BOOK_INIT };
	struct advice own = ADVICE_INIT;
	struct strbuf body = STRBUF_INIT, id = STRBUF_INIT;
	const struct series_patch *sp;
	struct tmpl_vars *vars = NULL;
	const struct mail *m;
	int target, ret = 0;

	out->empty = false;
	out->author_skipped = false;
	if (!out->record)
		out->record = json_array();
	b.record = out->record;
	/* The service builds replies without loading the advice itself. */
	if (!b.advice && !advice_load(&own, rules_default_dir()))
		b.advice = &own;
	error_clear();
	ret = say_book_load_beside(&b.book, o->template_dir ? o->template_dir : "templates");
	if (ret)
		goto out;
	plan_build(&p, r, o->prev ? o->prev_result : NULL, o->verdict, b.advice, o->facts);
	out->dropped = 0;
	if (o->need_evidence || o->drop || o->earlier)
		out->dropped = plan_drop(&p, keep_item, &b);
	out->unchanged = (int)b.unchanged.nr;
	out->issues = p.issues;
	out->credits = p.credits;
	out->notes = p.notes;
	out->fixed = 0;
	for (size_t i = 0; i < p.nr; i++)
		out->fixed += p.v[i].type == PLAN_XCREDIT;
	/* Points unchanged since an earlier version's review are still
	 * said, in one line each: silence would read as "addressed". */
	if ((!p.issues && !p.credits && !b.unchanged.nr && !o->always) ||
	    (out->dropped && !p.issues && !p.notes && !b.unchanged.nr)) {
		out->empty = true;
		goto out;
	}
	target = choose_target(&p, s);
	sp = target ? patch_of(s, target) : NULL;
	m = sp ? sp->mail : s->cover;
	if (!m) {
		ret = error_code(WW_EINPUT, "the message to answer is not in the input");
		goto out;
	}
	if (!msgid_valid(m->message_id)) {
		ret = error_code(WW_EINPUT, "the message to answer has no valid Message-ID");
		goto out;
	}
	out->answered = target;
	out->in_reply_to = xstrdup(m->message_id);
	if (o->message_id && msgid_valid(o->message_id)) {
		strbuf_addstr(&id, o->message_id);
	} else {
		const char *at = strrchr(o->from ? o->from : "", '@');
		struct strbuf dom = STRBUF_INIT;

		if (at)
			strbuf_add(&dom, at + 1, strcspn(at + 1, "> \t"));
		mailhdr_new_msgid(&id, dom.buf);
		strbuf_release(&dom);
	}
	out->message_id = strbuf_detach(&id, NULL);

	ret = reply_headers(out, &out->text, m, o);
	if (ret || out->author_skipped)
		goto out;
	strbuf_addch(&out->text, '\n');
	vars = tmpl_vars_new();
	greeting(vars, m);
	body_vars(vars, &b, &p, target);
	damaged_var(vars, r);
	ret = template_render_file(&body, o->template_dir ? o->template_dir : "templates",
				   o->template_name ? o->template_name : "reply.txt",
				   vars, TEMPLATE_WIDTH);
	if (ret)
		goto out;
	quote_trailers(&body);
	strbuf_addbuf(&out->text, &body);
out:
	tmpl_vars_free(vars);
	strvec_clear(&b.said);
	free(b.rewritten);
	strvec_clear(&b.unchanged);
	strvec_clear(&b.unchanged_quote);
	say_book_release(&b.book);
	advice_release(&own);
	strbuf_release(&body);
	strbuf_release(&id);
	plan_release(&p);
	return ret;
}

void reply_release(struct reply *r)
{
	strbuf_release(&r->text);
	free(r->message_id);
	free(r->in_reply_to);
	free(r->subject);
	free(r->from_addr);
	mail_addr_list_clear(&r->to);
	mail_addr_list_clear(&r->cc);
	mail_addr_list_clear(&r->rcpt);
	json_decref(r->record);
	memset(r, 0, sizeof(*r));
}

const char *reply_default_templates(void)
{
	static char buf[PATH_MAX + 16];

	return datadir_find(buf, sizeof(buf), "templates", ENV_WARNWATCH_TEMPLATES, NULL);
}
