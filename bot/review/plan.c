/*
 * What a review reply says, before any word of it: the plan (see
 * plan.h) and the few phrases made from it.
 */
#include "plan.h"
#include "english.h"
#include "ci.h"
#include "advice.h"
#include "cfacts.h"

#include <ctype.h>

static void plan_add(struct plan *p, enum plan_item_type t, const struct finding *f,
		     const struct finding *prev)
{
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = (struct plan_item){ t, PN_NONE, f, prev, f ? f->patch : 0 };
	if (t == PLAN_ISSUE)
		p->issues++;
	else if (t == PLAN_NOTE)
		p->notes++;
	else
		p->credits++;
}

/* How hard a class hits: a conversion goes from higher to lower. */
static int harm(enum rule_class c)
{
	switch (c) {
	case RC_BUG:
	case RC_PANIC:
		return 3;
	case RC_WARN:
	case RC_WARN_LIKE:
		return 2;
	case RC_WARN_ONCE:
		return 1;
	default:
		return 0;
	}
}

static bool same_place(const struct finding *a, const struct finding *b)
{
	if (strcmp(a->file, b->file) != 0)
		return false;
	return !*a->function || !*b->function || !strcmp(a->function, b->function);
}

/* Previous version's issues: fixed, converted, or still there. */
static void plan_versions(struct plan *p, const struct check_result *r,
			  const struct check_result *prev, bool *used)
{
	for (size_t i = 0; prev && i < prev->nr; i++) {
		const struct finding *old = &prev->v[i], *best = NULL;
		bool still = false;

		if (old->kind != FINDING_ADDED || old->moved || old->severity < SEV_WARNING)
			continue;
		for (size_t j = 0; j < r->nr && !still; j++) {
			const struct finding *f = &r->v[j];

			if (f->kind != FINDING_ADDED || f->moved || !same_place(old, f))
				continue;
			if (!strcmp(f->rule->macro, old->rule->macro))
				still = true;
			else if (!used[j] && !best && harm(f->rule->class) < harm(old->rule->class))
				best = f;
		}
		if (still)
			continue;
		if (best)
			used[best - r->v] = true;
		plan_add(p, PLAN_XCREDIT, best, old);
	}
}

/* The report of the boot that saw added call `f` fire, or NULL.
 * (fired[] lines are the patch's own, as findings are.) */
const struct ci_fired *plan_fired_in_boot(const struct ci_verdict *v,
					  const struct finding *f)
{
	int last = f->line + (f->source_lines > 1 ? f->source_lines - 1 : 0);

	for (size_t i = 0; v && f->kind == FINDING_ADDED && i < v->nr_fired; i++) {
		const struct ci_fired *fd = &v->fired[i];

		if (fd->added_by_series && fd->patch == f->patch && fd->file &&
		    !strcmp(fd->file, f->file) && fd->line >= f->line && fd->line <= last)
			return fd;
	}
	return NULL;
}

/*
 * Do the facts say that disk content or user space reaches the call
 * (the fs-corruption or user-input advice fires for it), or does an
 * advice entry marked "speaks" hold (a point specific to this call, such
 * as a test to fold into the if above)?  Then even a WARN_ON_ONCE() is
 * worth a reply: that is where reviewers object.
 */
static bool worth_saying(const struct advice *a, const struct finding *f,
				 const struct cfacts *cf)
{
	struct advice_hit *hits;
	bool outside = false;
	size_t nr;

	nr = advice_match(&hits, a, f, cf && cf->found ? cf : NULL);
	for (size_t i = 0; i < nr; i++)
		outside |= hits[i].e->match == AM_ON_DISK || hits[i].e->match == AM_USER_INPUT ||
			   hits[i].e->speaks;
	advice_hits_free(hits, nr);
	return outside;
}

/*
 * The new call of an in-patch conversion, thanked with its removal: is it
 * worth a comment too?  advice.json's "conversions" says, per class: a
 * plain WARN in the BUG's place still dumps a stack trace on every hit,
 * and a point specific to the call holds whatever it replaced.  Not where
 * overrides lowered the conversion (tools/, tests).
 */
static bool conversion_worth_saying(const struct advice *a, const struct finding *f,
				    const struct cfacts *cf)
{
	if (!a || f->kind != FINDING_ADDED || f->severity != SEV_CREDIT)
		return false;
	return a->conv_always[f->rule->class] ||
	       (a->conv_speaks[f->rule->class] && worth_saying(a, f, cf));
}

void plan_build(struct plan *p, const struct check_result *r,
		const struct check_result *prev, const struct ci_verdict *v,
		const struct advice *a, const struct cfacts *facts)
{
	bool *used = xcalloc(r->nr ? r->nr : 1, sizeof(*used));

	plan_versions(p, r, prev, used);
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];
		bool changed = f->modified && f->kind == FINDING_ADDED;

		/* Moved: neither new nor removed, nothing to say.  A changed
		 * condition is said as one (its added side), never thanked. */
		if (f->moved && !changed)
			continue;
		if (f->kind == FINDING_REMOVED) {
			if (f->severity == SEV_CREDIT)
				plan_add(p, PLAN_CREDIT, f, NULL);
			continue;
		}
		if (f->unreachable)
			continue;	/* a default: marker */
		if (f->conversion) {
			/* Thanked with its removal; sometimes commented too. */
			if (conversion_worth_saying(a, f, facts ? &facts[i] : NULL))
				plan_add(p, PLAN_ISSUE, f, NULL);
			continue;
		}
		/* A call the boot saw fire is an error whatever its rule says.
		 * Otherwise check's severity is the rule, for __init code
		 * too (check.c: init_rule()), as in check, the hook and serve. */
		if (f->severity >= SEV_WARNING || plan_fired_in_boot(v, f)) {
			plan_add(p, PLAN_ISSUE, f, NULL);
		} else if (changed) {
			plan_add(p, PLAN_NOTE, f, NULL);
			p->v[p->nr - 1].note = PN_CHANGED;
		} else if (f->in_init && f->kind == FINDING_ADDED &&
			   f->rule->severity > SEV_INFO) {
			plan_add(p, PLAN_NOTE, f, NULL);
			p->v[p->nr - 1].note = PN_INIT;
		} else if (!used[i] && f->kind == FINDING_ADDED &&
			   f->rule->class == RC_WARN_ONCE &&
			   f->severity == f->rule->severity) {
			/* Not where overrides lowered it (tools/, tests). */
			plan_add(p, worth_saying(a, f, facts ? &facts[i] : NULL) ?
				 PLAN_ISSUE : PLAN_NOTE, f, NULL);
			p->v[p->nr - 1].note = p->v[p->nr - 1].type == PLAN_NOTE ? PN_ONCE : PN_NONE;
		}
	}
	free(used);
}


/* One macro's count in words: a sentence of the book, its facts bound. */
static void count_words(struct strvec *out, const struct finding *f, int n,
			bool prev_side, const struct say_book *book)
{
	const char *macro = f->kind == FINDING_DEFINE ? f->defined : f->rule->macro;
	const char *count = english_number(n);
	struct strbuf sb = STRBUF_INIT;

	if (f->kind == FINDING_DEFINE)
		say_quiet(&sb, book, n == 1 ? "count-wrapper-one" : "count-wrapper-many",
			  "macro", macro, "count", count, NULL);
	else if (n > 1)
		say_quiet(&sb, book, "count-call-many", "macro", macro, "count", count, NULL);
	else
		say_quiet(&sb, book, prev_side ? "count-call-one-prev" : "count-call-one",
			  "macro", macro, NULL);
	if (sb.len)
		strvec_push(out, sb.buf);
	strbuf_release(&sb);
}

int plan_count_macros(struct strvec *out, const struct plan *p, enum plan_item_type t,
		      bool prev_side, const struct say_book *book)
{
	struct strvec seen = STRVEC_INIT;
	int total = 0;

	for (size_t i = 0; i < p->nr; i++) {
		const struct finding *f = prev_side ? p->v[i].prev : p->v[i].f;
		const char *macro;
		int n = 0;
		bool dup = false;

		if (p->v[i].type != t || !f)
			continue;
		macro = f->kind == FINDING_DEFINE ? f->defined : f->rule->macro;
		for (size_t k = 0; k < seen.nr; k++)
			dup |= !strcmp(seen.v[k], macro);
		if (dup)
			continue;
		strvec_push(&seen, macro);
		for (size_t j = i; j < p->nr; j++) {
			const struct finding *g = prev_side ? p->v[j].prev : p->v[j].f;

			if (p->v[j].type == t && g &&
			    !strcmp(g->kind == FINDING_DEFINE ? g->defined : g->rule->macro, macro))
				n++;
		}
		count_words(out, f, n, prev_side, book);
		total += n;
	}
	strvec_clear(&seen);
	return total;
}

/* The functions the items of type `t` are in: "in foo()" / "in foo() and bar()". */
void plan_functions_of(struct strbuf *out, const struct plan *p, enum plan_item_type t,
		       bool prev_side)
{
	struct strvec names = STRVEC_INIT;

	for (size_t i = 0; i < p->nr; i++) {
		const struct finding *f = prev_side ? p->v[i].prev : p->v[i].f;
		bool dup = false;

		if (p->v[i].type != t || !f || !*f->function)
			continue;
		for (size_t k = 0; k < names.nr; k++)
			dup |= !strncmp(names.v[k], f->function, strlen(f->function)) &&
			       !strcmp(names.v[k] + strlen(f->function), "()");
		if (!dup)
			strvec_pushf(&names, "%s()", f->function);
	}
	if (names.nr && names.nr <= 3) {
		strbuf_addstr(out, " to ");
		english_join(out, &names);
	}
	strvec_clear(&names);
}

/* A boot reached added call `f` (its calls[] entry counted runs) or saw it
 * fire. */
bool plan_reached_in_boot(const struct ci_verdict *v, const struct finding *f)
{
	if (plan_fired_in_boot(v, f))
		return true;
	for (size_t i = 0; v && f->kind == FINDING_ADDED && i < v->nr_calls; i++) {
		const struct ci_call *c = &v->calls[i];

		if (c->patch == f->patch && c->file && !strcmp(c->file, f->file) &&
		    c->line == f->line && (c->reached > 0 || c->fired))
			return true;
	}
	return false;
}

size_t plan_drop(struct plan *p, bool (*keep)(void *data, const struct plan_item *it),
		 void *data)
{
	size_t n = 0;

	p->issues = p->credits = p->notes = 0;
	for (size_t i = 0; i < p->nr; i++) {
		const struct plan_item *it = &p->v[i];

		if ((it->type == PLAN_ISSUE || it->type == PLAN_NOTE) && !keep(data, it))
			continue;
		p->v[n++] = *it;
		if (it->type == PLAN_ISSUE)
			p->issues++;
		else if (it->type == PLAN_NOTE)
			p->notes++;
		else
			p->credits++;
	}
	n = p->nr - n;
	p->nr -= n;
	return n;
}

void plan_fingerprint(struct strbuf *out, const struct finding *f)
{
	struct strbuf cond = STRBUF_INIT;
	const char *macro = f->kind == FINDING_DEFINE && f->defined ? f->defined :
			    f->rule->macro;
	bool blank = false;

	strbuf_addf(out, "%s:%s:%s:", f->file, f->function ? f->function : "", macro);
	if (!f->source || !advice_call_args(&cond, f->source))
		strbuf_addstr(&cond, f->source ? f->source : "");
	/* The condition without its spacing: a re-indented v2 is the same. */
	for (const char *c = cond.buf; *c; c++) {
		if (isspace((unsigned char)*c)) {
			blank = true;
			continue;
		}
		if (blank && out->len && isalnum((unsigned char)out->buf[out->len - 1]) &&
		    isalnum((unsigned char)*c))
			strbuf_addch(out, ' ');
		blank = false;
		strbuf_addch(out, *c);
	}
	strbuf_release(&cond);
}

void plan_added_line(struct strbuf *out, const struct finding *f)
{
	const char *l = f->hunk;

	for (int i = 0; l && i < f->hunk_line; i++) {
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	if (!l || *l != '+')
		return;
	l++;
	strbuf_add(out, l, strcspn(l, "\n"));
}

void plan_release(struct plan *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}
