/*
 * Building a review reply: deciding what to say (issues, thanks, notes),
 * which message to answer, who gets it, and rendering it with the
 * template engine.  See reply.h.
 */
#include "reply.h"
#include "advice.h"
#include "ci-json.h"
#include "datadir.h"
#include "msgid.h"
#include "quote.h"
#include "strvec.h"
#include "suggest.h"
#include "template.h"

#include <ctype.h>
#include <fnmatch.h>
#include <jansson.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const reply_policy_names[] = { "both", "author", "list", "all", NULL };

/* ---- the kernel-ci verdict, in words ------------------------------------ */

/* What the verdict paragraph says besides the verdict itself. */
struct verdict_words {
	struct strbuf first;	/* the first WARN/BUG that fired, or empty */
	struct strbuf log;	/* console lines to quote */
	bool has_log;
	struct strbuf tests;	/* "three suites ran", or empty */
	struct strvec calls;	/* per added call: did it run, did it fire */
};

/* The first WARN/BUG, in words, and its trace (when no log yet). */
static void words_fired(struct verdict_words *w, const struct ci_verdict *v)
{
	const struct ci_fired *f = v->nr_fired ? &v->fired[0] : NULL;
	size_t n = 0;

	if (!f)
		return;
	if (f->file) {
		/* In backquotes: the filler never breaks code apart. */
		strbuf_addch(&w->first, '`');
		if (f->source)
			quote_c_style_n(&w->first, f->source, strlen(f->source), 0);
		else
			strbuf_addstr(&w->first, fired_kind_name(f->kind));
		strbuf_addstr(&w->first, "` at ");
		if (f->line > 0)
			ci_where(&w->first, v, f->file, f->line, f->tree_line);
		else
			quote_c_style(&w->first, f->file);
		strbuf_addstr(&w->first, " fired");
		if (f->suite) {
			strbuf_addstr(&w->first, " in ");
			ci_test_phrase(&w->first, f->suite);
		}
		/* 0-day's parent column. */
		if (f->base_count >= 0)
			strbuf_addf(&w->first, " (base: %d, patched: %d)", f->base_count,
				    f->patched_count);
		if (f->known)
			strbuf_addstr(&w->first, ", a known report on this base");
		if (!f->added_by_series && f->preexisting)
			strbuf_addstr(&w->first, ", and it fires on the unpatched kernel too");
	}
	if (w->has_log)
		return;
	w->has_log = true;
	for (const char *p = f->trace; p && *p && n < REPLY_VERDICT_LOG_LINES; n++) {
		size_t len = strcspn(p, "\n");

		strbuf_add(&w->log, p, len);
		strbuf_addch(&w->log, '\n');
		p += len + (p[len] == '\n');
	}
}

/* "workload:ext4" -> "the ext4 workload"; "cgroup:test_core" stays. */
static void test_name(struct strbuf *out, const char *name)
{
	if (starts_with(name, "workload:")) {
		quote_between(out, "the ", name + 9, " workload");
	} else {
		quote_c_style(out, name);
	}
}

/* What ran, and what failed, in a few words. */
static void words_tests(struct verdict_words *w, const struct ci_verdict *v)
{
	struct strbuf failed = STRBUF_INIT;
	size_t n = v->nr_tests, nfail = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct ci_test *t = &v->tests[i];

		if (n <= 4) {
			if (i)
				strbuf_addstr(&w->tests, i + 1 == n ? " and " : ", ");
			test_name(&w->tests, t->name);
		}
		/* A test that fails on the base, or passed when run again, is not blamed. */
		if (!strcmp(t->result, "crashed") ||
		    (!strcmp(t->result, "fail") &&
		     !(t->base_result && !strcmp(t->base_result, "fail")) &&
		     !(t->rerun_result && !strcmp(t->rerun_result, "pass")))) {
			strbuf_addstr(&failed, nfail++ ? ", " : "");
			test_name(&failed, t->name);
		}
	}
	if (n > 4)
		strbuf_addf(&w->tests, "%zu tests", n);
	strbuf_addstr(&w->tests, " ran");
	if (nfail)
		strbuf_addf(&w->tests, ", and %s failed", failed.buf);
	strbuf_release(&failed);
}

/*
 * Per added call, whether it ran and fired.  When one test ran, it is
 * where the count comes from ("ran 41 times during the ext4 workload").
 */
static void words_calls(struct verdict_words *w, const struct ci_verdict *v)
{
	const char *only = v->nr_tests == 1 ? v->tests[0].name : NULL;
	struct strbuf at = STRBUF_INIT, sb = STRBUF_INIT;

	for (size_t i = 0; i < v->nr_calls; i++) {
		const struct ci_call *c = &v->calls[i];
		const char *suite;

		strbuf_reset(&at);
		strbuf_reset(&sb);
		strbuf_addstr(&at, "the ");
		quote_c_style(&at, c->macro);
		strbuf_addstr(&at, "() at ");
		ci_where(&at, v, c->file, c->line, c->tree_line);
		/* Fired beats any count: never "not reached" for a call that fired. */
		if (ci_call_fired(v, c, &suite)) {
			strbuf_addf(&sb, "%s fired", at.buf);
			if (suite) {
				strbuf_addstr(&sb, " during ");
				test_name(&sb, suite);
			}
		} else if (c->reached > 0) {
			strbuf_addf(&sb, "%s ran %lld time%s", at.buf, c->reached,
				    c->reached == 1 ? "" : "s");
			if (only) {
				strbuf_addstr(&sb, " during ");
				test_name(&sb, only);
			}
			strbuf_addstr(&sb, " and never fired");
		} else if (c->reached == 0) {
			strbuf_addf(&sb, "no test reached %s, so this boot says nothing about it",
				    at.buf);
		} else {
			strbuf_addf(&sb, "whether %s ran could not be measured", at.buf);
			if (c->reached_why) {
				strbuf_addstr(&sb, " (");
				quote_c_style(&sb, c->reached_why);
				strbuf_addch(&sb, ')');
			}
		}
		strvec_push(&w->calls, sb.buf);
	}
	strbuf_release(&at);
	strbuf_release(&sb);
}

/*
 * The console lines to quote: the compiler's error, else the first
 * WARN/BUG's trace, headed by the reason (a console line such as
 * "Kernel panic - not syncing: ...").
 */
static void words_of(struct verdict_words *w, const struct ci_verdict *v)
{
	if (v->build_error) {
		strbuf_addstr(&w->log, v->build_error);
		w->has_log = true;
	}
	words_fired(w, v);
	words_tests(w, v);
	words_calls(w, v);
	if (v->reason) {
		struct strbuf head = STRBUF_INIT;

		/* One console line, whatever it holds. */
		quote_c_style_n(&head, v->reason, strlen(v->reason), QUOTE_KEEP_TAB);
		strbuf_addch(&head, '\n');
		strbuf_addbuf(&head, &w->log);
		strbuf_release(&w->log);
		w->log = head;
		w->has_log = true;
	}
}

static void words_release(struct verdict_words *w)
{
	strbuf_release(&w->first);
	strbuf_release(&w->log);
	strbuf_release(&w->tests);
	strvec_clear(&w->calls);
}

/* ---- what to say ------------------------------------------------------- */

enum item_type {
	IT_ISSUE,	/* an added call to fix */
	IT_CREDIT,	/* a removal or conversion in this version */
	IT_XCREDIT,	/* fixed since the previous version */
	IT_NOTE,	/* an added WARN_ON_ONCE(): worth a sentence */
};

struct item {
	enum item_type type;
	const struct finding *f;	/* this version's finding (NULL: dropped) */
	const struct finding *prev;	/* IT_XCREDIT: the previous version's */
	int patch;			/* where it is; 0: no patch */
};

struct plan {
	struct item *v;
	size_t nr, alloc;
	int issues, credits, notes;
};

static void plan_add(struct plan *p, enum item_type t, const struct finding *f,
		     const struct finding *prev)
{
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = (struct item){ t, f, prev, f ? f->patch : 0 };
	if (t == IT_ISSUE)
		p->issues++;
	else if (t == IT_NOTE)
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
		plan_add(p, IT_XCREDIT, best, old);
	}
}

/* The report of the boot that saw added call `f` fire, or NULL.
 * (fired[] lines are the patch's own, as findings are.) */
static const struct ci_fired *fired_in_boot(const struct ci_verdict *v,
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
 * (the fs-corruption or user-input advice fires for it)?  Then even a
 * WARN_ON_ONCE() is worth a reply: that is where reviewers object.
 */
static bool reached_from_outside(const struct advice *a, const struct finding *f,
				 const struct cfacts *cf)
{
	struct advice_hit hits[32];
	bool outside = false;
	size_t nr;

	if (!a || !cf || !cf->found || a->nr > ARRAY_SIZE(hits))
		return false;
	nr = advice_match(hits, a, f, cf);
	for (size_t i = 0; i < nr; i++)
		outside |= hits[i].e->match == AM_ON_DISK || hits[i].e->match == AM_USER_INPUT;
	advice_hits_release(hits, nr);
	return outside;
}

/* `facts`: r->nr of them, in order, or NULL (reply_opts.facts). */
static void plan_build(struct plan *p, const struct check_result *r,
		       const struct check_result *prev, const struct ci_verdict *v,
		       const struct advice *a, const struct cfacts *facts)
{
	bool *used = xcalloc(r->nr ? r->nr : 1, sizeof(*used));

	plan_versions(p, r, prev, used);
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->moved)
			continue;
		if (f->kind == FINDING_REMOVED) {
			if (f->severity == SEV_CREDIT)
				plan_add(p, IT_CREDIT, f, NULL);
			continue;
		}
		if (f->conversion)
			continue;	/* thanked with its removal */
		/* Early boot: nothing to return an error to (f->in_init). */
		if (f->in_init && (f->rule->class == RC_BUG || f->rule->class == RC_PANIC) &&
		    !fired_in_boot(v, f))
			continue;
		/* A call the boot saw fire is an error whatever its rule says. */
		if (f->severity >= SEV_WARNING || fired_in_boot(v, f)) {
			plan_add(p, IT_ISSUE, f, NULL);
		} else if (!used[i] && f->kind == FINDING_ADDED &&
			   f->rule->class == RC_WARN_ONCE &&
			   f->severity == f->rule->severity) {
			/* Not where overrides lowered it (tools/, tests). */
			plan_add(p, reached_from_outside(a, f, facts ? &facts[i] : NULL) ?
				 IT_ISSUE : IT_NOTE, f, NULL);
		}
	}
	free(used);
}

/* ---- small English ------------------------------------------------------ */

static const char *number(int n)
{
	static const char *const words[] = { "no", "one", "two", "three", "four",
		"five", "six", "seven", "eight", "nine", "ten" };
	static char buf[16];

	if (n >= 0 && n < (int)ARRAY_SIZE(words))
		return words[n];
	snprintf(buf, sizeof(buf), "%d", n);
	return buf;
}

/* Join `v` as "a", "a and b", "a, b and c". */
static void join(struct strbuf *out, const struct strvec *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		if (i)
			strbuf_addstr(out, i + 1 == v->nr ? " and " : ", ");
		strbuf_addstr(out, v->v[i]);
	}
}

/* "a BUG_ON()", "two WARN_ON() calls" for the issues of each macro. */
static void count_macros(struct strvec *out, const struct plan *p, enum item_type t,
			 bool prev_side)
{
	struct strvec seen = STRVEC_INIT;

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
		if (f->kind == FINDING_DEFINE && n == 1)
			strvec_pushf(out, "a macro %s() that wraps a BUG/WARN", macro);
		else if (f->kind == FINDING_DEFINE)
			strvec_pushf(out, "%s %s() wrapper macros", number(n), macro);
		else if (n == 1)
			strvec_pushf(out, "%s %s()", prev_side ? "the" : "a", macro);
		else
			strvec_pushf(out, "%s %s() calls", number(n), macro);
	}
	strvec_clear(&seen);
}

/* The functions the items of type `t` are in: "in foo()" / "in foo() and bar()". */
static void functions_of(struct strbuf *out, const struct plan *p, enum item_type t,
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
		join(out, &names);
	}
	strvec_clear(&names);
}

/* ---- quoting ------------------------------------------------------------ */

/* The added line of the finding, without its '+' and indentation. */
static void finding_line(struct strbuf *out, const struct finding *f)
{
	const char *p = f->hunk ? f->hunk : "";

	for (int i = 0; i < f->hunk_line && *p; i++)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	if (*p)
		p++;	/* the '+', '-' or ' ' */
	strbuf_add(out, p, strcspn(p, "\n"));
	strbuf_trim(out);
}

/* Replace {name} placeholders of `text` from `keys`/`vals`. */
static void expand(struct strbuf *out, const char *text, const char *const *keys,
		   const char *const *vals, size_t n)
{
	for (const char *p = text ? text : ""; *p;) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;
		size_t k = n;

		if (close)
			for (k = 0; k < n; k++)
				if (strlen(keys[k]) == (size_t)(close - p - 1) &&
				    !strncmp(p + 1, keys[k], close - p - 1))
					break;
		if (k < n) {
			strbuf_addstr(out, vals[k] ? vals[k] : "");
			p = close + 1;
		} else {
			strbuf_addch(out, *p++);
		}
	}
}

/* The placeholders of advice texts for one call. */
struct subst {
	const char *keys[7];
	const char *vals[7];
	struct strbuf cond, ret, fn;
	const struct series *s;
	const struct finding *f;
	const struct cfacts *cf;	/* from the tree, or NULL */
	bool no_exit;			/* a {ret:} the facts have no way out for */
	struct strbuf exit;		/* the way out a rewrite took */
};

/* Where "-EXXX" starts in `s`, and its length, or NULL. */
static const char *find_errno(const char *s, size_t *len)
{
	for (const char *p = strstr(s, "-E"); p; p = strstr(p + 1, "-E")) {
		size_t n = strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

		if (n > 1) {
			*len = n + 1;
			return p;
		}
	}
	return NULL;
}

/*
 * The way out of the call's function that the facts support, into
 * `out`, with errno `want` when given: the function's own nearest
 * failure exit mirrored (so its cleanup labels and unlocks come with
 * it), else what its return type allows.  False when there is none (a
 * void function without a failure exit of its own, a hash, a struct):
 * there the fix is a WARN that lets the function run to its end.
 */
static bool fact_return(struct strbuf *out, const struct cfacts *cf, const char *want)
{
	const char *err;
	size_t n;

	if (cf->exit) {
		if (cf->exit_var)
			strbuf_addf(out, "%s = %s;\n", cf->exit_var, want ? want : "-EINVAL");
		err = want && !cf->exit_var ? find_errno(cf->exit, &n) : NULL;
		if (err)
			strbuf_addf(out, "%.*s%s%s", (int)(err - cf->exit), cf->exit, want,
				    err + n);
		else
			strbuf_addstr(out, cf->exit);
		return true;
	}
	/* A lock held and no exit that drops it: no way out. */
	if (cf->locked)
		return false;
	switch (cf->ret) {
	case CF_RET_INT:
		strbuf_addf(out, "return %s;", want ? want : "-EINVAL");
		return true;
	case CF_RET_BOOL:
		/* An int that carries a truth value (a verifier) returns 0. */
		strbuf_addstr(out, cf->ret_type && strstr(cf->ret_type, "bool") ?
			      "return false;" : "return 0;");
		return true;
	case CF_RET_PTR:
		strbuf_addstr(out, "return NULL;");
		return true;
	case CF_RET_ERR_PTR:
		strbuf_addf(out, "return ERR_PTR(%s);", want ? want : "-EINVAL");
		return true;
	default:
		return false;
	}
}

/* What must hold, turned into what must not: "!p" -> "p", "a < b" -> "!(a < b)". */
static void negate(struct strbuf *cond)
{
	struct strbuf sb = STRBUF_INIT;
	const char *id = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_->.";

	if (cond->buf[0] == '!' && cond->buf[1] != '(' && strspn(cond->buf + 1, id) == cond->len - 1)
		strbuf_addstr(&sb, cond->buf + 1);
	else if (strspn(cond->buf, id) == cond->len)
		strbuf_addf(&sb, "!%s", cond->buf);
	else
		strbuf_addf(&sb, "!(%s)", cond->buf);
	strbuf_reset(cond);
	strbuf_addbuf(cond, &sb);
	strbuf_release(&sb);
}

/*
 * Way out `way` where a rewrite's "{ret:...}" stands, at the end of
 * `out`: its later lines ("err = -EIO;\ngoto out;") indented as the
 * first, and an if whose body it is ("if (x)\n\t{ret:...}") given braces,
 * or only the first line would be the if's.
 */
static void add_exit(struct strbuf *out, const char *way)
{
	size_t bol = out->len, if_bol, indent;
	struct strbuf pre = STRBUF_INIT, if_pre = STRBUF_INIT;
	bool brace;

	while (bol && out->buf[bol - 1] != '\n')
		bol--;
	indent = out->len - bol;
	strbuf_add(&pre, out->buf + bol, indent);
	brace = strchr(way, '\n') && indent && strspn(pre.buf, " \t") == indent &&
		bol >= 2 && out->buf[bol - 2] == ')';
	if (brace) {
		/* "if (x)\n\t" -> "if (x) {\n\t", the "}" under the if */
		for (if_bol = bol - 1; if_bol && out->buf[if_bol - 1] != '\n'; if_bol--)
			;
		strbuf_add(&if_pre, out->buf + if_bol, strspn(out->buf + if_bol, " \t"));
		strbuf_setlen(out, bol - 1);
		strbuf_addf(out, " {\n%s", pre.buf);
	}
	for (const char *p = way; *p;) {
		size_t n = strcspn(p, "\n");

		if (p != way)
			strbuf_addf(out, "\n%s", pre.buf);
		strbuf_add(out, p, n);
		p += n + (p[n] == '\n');
	}
	if (brace)
		strbuf_addf(out, "\n%s}", if_pre.buf);
	strbuf_release(&pre);
	strbuf_release(&if_pre);
}

/*
 * expand() with the call's placeholders, and "{ret:-EXXX}": the way out
 * of the call's function with that errno where it returns one ("return
 * ERR_PTR(-EXXX);" when the code around uses ERR_PTR(), "return;" in a
 * void function).
 */
static void expand_call(struct strbuf *out, const char *text, struct subst *x)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	const char *p = text ? text : "", *at;

	while ((at = strstr(p, "{ret:"))) {
		size_t n = strcspn(at + 5, "}");

		if (!at[5 + n])
			break;
		strbuf_add(&sb, p, at - p);
		strbuf_reset(&err);
		strbuf_add(&err, at + 5, n);
		if (!x->cf) {
			suggest_return(&sb, x->s, x->f, err.buf);
		} else {
			struct strbuf way = STRBUF_INIT;

			if (fact_return(&way, x->cf, err.buf)) {
				strbuf_reset(&x->exit);
				strbuf_addbuf(&x->exit, &way);
				add_exit(&sb, way.buf);
			} else {
				x->no_exit = true;
			}
			strbuf_release(&way);
		}
		p = at + 5 + n + 1;
	}
	strbuf_addstr(&sb, p);
	expand(out, sb.buf, x->keys, x->vals, ARRAY_SIZE(x->keys));
	strbuf_release(&sb);
	strbuf_release(&err);
}

static void subst_init(struct subst *x, const struct series *s, const struct finding *f,
		       const struct advice_hit *h, const struct cfacts *cf)
{
	static const char *const keys[] = { "macro", "function", "cond", "ret", "repl",
					    "arg", "fs" };

	memcpy(x->keys, keys, sizeof(keys));
	x->s = s;
	x->f = f;
	x->cf = cf;
	x->no_exit = false;
	strbuf_init(&x->cond, 0);
	strbuf_init(&x->ret, 0);
	strbuf_init(&x->fn, 0);
	strbuf_init(&x->exit, 0);
	advice_call_args(&x->cond, f->source);
	/* An assertion states what must hold: a rewrite tests the opposite. */
	if (cf && cf->assertion && x->cond.len)
		negate(&x->cond);
	quote_buf(&x->cond, QUOTE_KEEP_TAB);
	if (!cf)
		suggest_return(&x->ret, s, f, NULL);
	else
		fact_return(&x->ret, cf, NULL);
	strbuf_addstr(&x->fn, *f->function ? f->function : "this function");
	x->vals[0] = f->kind == FINDING_DEFINE ? f->defined : f->rule->macro;
	x->vals[1] = x->fn.buf;
	x->vals[2] = x->cond.buf;
	x->vals[3] = x->ret.buf;
	x->vals[4] = f->rule->replacement ? f->rule->replacement : "WARN_ON_ONCE";
	x->vals[5] = h ? h->arg : NULL;
	x->vals[6] = h && h->fs ? h->fs->name : NULL;
}

static void subst_release(struct subst *x)
{
	strbuf_release(&x->cond);
	strbuf_release(&x->ret);
	strbuf_release(&x->fn);
	strbuf_release(&x->exit);
}

/* The column after `len` bytes of `s` (TABs to the next multiple of 8). */
static size_t column(const char *s, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++)
		col = s[i] == '\t' ? (col + 8) & ~(size_t)7 : col + 1;
	return col;
}

/*
 * One code line of a rewrite, as the kernel wraps it: over REWRITE_COLS
 * columns, break after the last "|| ", "&& " or ", " that fits and
 * align the rest under the first character inside the open parenthesis.
 * A line with no such place stays long.
 */
#define REWRITE_COLS 80

static void code_line(struct strbuf *out, const char *line, size_t len)
{
	struct strbuf l = STRBUF_INIT;

	strbuf_add(&l, line, len);
	while (column(l.buf, l.len) > REWRITE_COLS) {
		size_t cut = 0, align = 0, opens[32], depth = 0;

		for (size_t i = 0; i + 1 < l.len; i++) {
			if (l.buf[i] == '(' && depth < ARRAY_SIZE(opens))
				opens[depth++] = i;
			else if (l.buf[i] == ')' && depth)
				depth--;
			if (!depth || l.buf[i + 1] != ' ' ||
			    column(l.buf, i + 1) > REWRITE_COLS)
				continue;
			if (l.buf[i] == ',' || (i && ((l.buf[i] == '|' && l.buf[i - 1] == '|') ||
						     (l.buf[i] == '&' && l.buf[i - 1] == '&')))) {
				cut = i + 1;
				align = column(l.buf, opens[depth - 1] + 1);
			}
		}
		if (!cut)
			break;
		strbuf_add(out, l.buf, cut);
		strbuf_addch(out, '\n');
		{
			struct strbuf rest = STRBUF_INIT;

			for (size_t t = 0; t < align / 8; t++)
				strbuf_addch(&rest, '\t');
			for (size_t t = 0; t < align % 8; t++)
				strbuf_addch(&rest, ' ');
			strbuf_addstr(&rest, l.buf + cut + 1);
			strbuf_reset(&l);
			strbuf_addbuf(&l, &rest);
			strbuf_release(&rest);
		}
	}
	strbuf_addbuf(out, &l);
	strbuf_addch(out, '\n');
	strbuf_release(&l);
}

/* Code lines into a mail block: each line starts with a TAB. */
static void code_block(struct strbuf *out, const char *code)
{
	struct strbuf l = STRBUF_INIT;

	for (const char *p = code; *p;) {
		size_t n = strcspn(p, "\n");

		strbuf_reset(&l);
		strbuf_addch(&l, '\t');
		quote_c_style_n(&l, p, n, QUOTE_KEEP_TAB);
		code_line(out, l.buf, l.len);
		p += n + (p[n] == '\n');
	}
	strbuf_release(&l);
}

/*
 * The default rewrite of an added BUG/WARN, from the facts about it
 * (never without them: the diff alone does not show the function's
 * return type or its exits): the rule's gentler macro, inside an if
 * that leaves the way the function's own nearest failure exit does
 * (`exit` gets that way out) when code that would use the bad state
 * follows; the gentler macro alone when nothing follows, the next
 * statement recovers, or the function has no way out.  An assertion's
 * condition is negated; a statement macro (VM_WARN_ON_ONCE) is never
 * made a condition.  Empty when the rule has no replacement.
 */
static void example(struct strbuf *out, struct strbuf *exit, const struct finding *f,
		    const struct cfacts *cf)
{
	const char *repl = f->rule->replacement;
	struct strbuf args = STRBUF_INIT, line = STRBUF_INIT, ret = STRBUF_INIT;
	const char *macro = f->rule->macro;
	bool statement = repl && starts_with(repl, "VM_");

	if (!cf || !repl || f->kind != FINDING_ADDED || !f->source ||
	    (f->rule->class != RC_BUG && f->rule->class != RC_WARN))
		goto out;
	if (!advice_call_args(&args, f->source))
		goto out;
	if (cf->assertion && args.len)
		negate(&args);
	finding_line(&line, f);
	if (!starts_with(line.buf, macro) || f->source_lines > 1 ||
	    line.buf[strlen(macro)] != '(') {
		/* Already a condition: only the macro changes. */
		const char *at = strstr(line.buf, macro);

		if (at && f->source_lines <= 1 && !cf->assertion && !statement)
			strbuf_addf(out, "%.*s%s%s", (int)(at - line.buf), line.buf,
				    repl, at + strlen(macro));
		goto out;
	}
	if (!args.len) {
		strbuf_addf(out, "%s(1);", repl);
		goto out;
	}
	/* A void function with no failure exit runs to its end, unless what
	 * follows would dereference the NULL the call reports. */
	if (!statement && cf->follows && !cf->recovers && !fact_return(&ret, cf, NULL) &&
	    cf->ret == CF_RET_VOID && cf->deref)
		strbuf_addstr(&ret, "return;");
	if (statement || !cf->follows || cf->recovers || !ret.len) {
		strbuf_addf(out, "%s(%s);", repl, args.buf);
		goto out;
	}
	strbuf_addbuf(exit, &ret);
	if (!strchr(ret.buf, '\n')) {
		strbuf_addf(out, "if (%s(%s))\n\t%s", repl, args.buf, ret.buf);
		goto out;
	}
	strbuf_addf(out, "if (%s(%s)) {\n", repl, args.buf);
	for (const char *u = ret.buf; *u; u += strcspn(u, "\n") + (u[strcspn(u, "\n")] == '\n'))
		strbuf_addf(out, "\t%.*s\n", (int)strcspn(u, "\n"), u);
	strbuf_addch(out, '}');
out:
	strbuf_release(&args);
	strbuf_release(&line);
	strbuf_release(&ret);
}

/* "Sentence." from a rule text: first letter up, a full stop at the end. */
static void sentence(struct strbuf *out, const char *text)
{
	size_t start = out->len;

	strbuf_addstr(out, text ? text : "");
	strbuf_trim(out);
	/* "new BUG_ON()" -> "New BUG_ON()", but never "Foo_bar()". */
	if (out->len > start && islower((unsigned char)out->buf[start]) &&
	    strspn(out->buf + start, "abcdefghijklmnopqrstuvwxyz") ==
	    strcspn(out->buf + start, " ,:;."))
		out->buf[start] = toupper((unsigned char)out->buf[start]);
	if (out->len > start && !strchr(".!?:", out->buf[out->len - 1]))
		strbuf_addch(out, '.');
}

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
	const struct check_result *r;
	json_t *record;			/* reply.record */
};

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
	const struct item *items[16];
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

static void qblock_of(struct qblock *out, const struct item *it)
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
			     struct subst *x)
{
	struct strbuf sb = STRBUF_INIT, s = STRBUF_INIT;
	struct tmpl_vars *item = NULL;

	expand_call(&sb, text, x);
	sentence(&s, sb.buf);
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
	const struct ci_fired *fd = fired_in_boot(v, f);
	struct strbuf sb = STRBUF_INIT;
	struct tmpl_vars *item;

	if (!fd)
		return false;
	strbuf_addf(&sb, "This is an error: kernel-ci booted the series%s%s with "
		    "panic_on_warn=1 and this %s() fired", v->base ? " on linux " : "",
		    v->base ? v->base : "", f->rule->macro);
	if (fd->suite) {
		strbuf_addstr(&sb, " during ");
		ci_test_phrase(&sb, fd->suite);
	} else {
		strbuf_addstr(&sb, " during boot");
	}
	strbuf_addf(&sb, "%s. A condition that a test makes true is not one that "
		    "cannot happen: fix the condition, or handle the case and return "
		    "an error, before this goes in.",
		    fd->in_first_boot ? ", which took the kernel down" : "");
	/* Said under every call that fired, whatever was said before. */
	item = tmpl_add(fv, "say");
	tmpl_set(item, "text", sb.buf);
	strbuf_release(&sb);
	return true;
}

/*
 * Compile rewrite `code` of `f` with the caller's compiler (reply_opts
 * .compile): true, false (then `code` is emptied: nothing said about
 * code rather than something wrong), or null when it could not be tried.
 */
static json_t *compiled(struct strbuf *code, const struct reply_opts *o,
			const struct finding *f)
{
	int ret;

	if (!code->len || !o->compile)
		return json_null();
	ret = o->compile(o->compile_data, f, code->buf);
	if (ret < 0) {
		error_clear();
		return json_null();
	}
	if (!ret)
		strbuf_reset(code);
	return json_boolean(ret > 0);
}

/* The JSON record of one call: where, the rules that fired and why. */
static json_t *record_of(const struct finding *f, const struct cfacts *cf)
{
	json_t *rec = json_object();

	json_object_set_new(rec, "patch", json_integer(f->patch));
	json_object_set_new(rec, "file", json_string(f->file));
	json_object_set_new(rec, "line", json_integer(f->line));
	json_object_set_new(rec, "function", json_string(f->function));
	json_object_set_new(rec, "macro", json_string(f->rule->macro));
	json_object_set_new(rec, "facts", json_boolean(cf != NULL));
	json_object_set_new(rec, "return_type", cf && cf->ret_type ?
			    json_string(cf->ret_type) : json_null());
	json_object_set_new(rec, "rules", json_array());
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

/* What to say under the quote of one call: what is new, and its rewrite. */
static void add_comment(struct tmpl_vars *bv, struct builder *b, const struct item *it)
{
	const struct finding *f = it->f;
	const struct advice *a = b->advice;
	const struct cfacts *cf = facts_of(b->o, b->r, f);
	struct tmpl_vars *fv = tmpl_add(bv, "findings");
	struct advice_hit hits[32];
	struct strbuf sb = STRBUF_INIT, code = STRBUF_INIT, exit = STRBUF_INIT;
	const char *rewrite = NULL;
	struct tmpl_vars *item;
	json_t *rec = record_of(f, cf);
	struct subst x;
	size_t nr = 0;

	if (a && a->nr <= ARRAY_SIZE(hits))
		nr = advice_match(hits, a, f, cf);
	subst_init(&x, b->s, f, NULL, cf);
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

			struct strbuf q = STRBUF_INIT;

			if (sec && a && a->guide[f->rule->class].nr)
				guide_sentences(&q, b->o->guide, sec, &a->guide[f->rule->class]);
			also_sentences(&q, b, f->rule->class);
			strbuf_reset(&sb);
			strbuf_addstr(&sb, explain ? explain : f->message ? f->message : f->rule->message);
			if (q.len && a->guide_intro)
				strbuf_addf(&sb, " %s", a->guide_intro);
			else if (!b->o->guide && f->rule->section)
				/* No tree to quote from: name the section. */
				strbuf_addf(&sb, "%s See \"%s\" in %s.",
					    sb.len && sb.buf[sb.len - 1] == '.' ? "" : ".",
					    f->rule->section, GUIDE_PATH);
			item = say(fv, b, sb.buf, &x);
			if (item)
				set_block(item, "guide", &q);
			strbuf_release(&q);
		}
		strbuf_reset(&sb);
	}
	for (size_t i = 0; i < nr; i++) {
		const struct advice_entry *e = hits[i].e;
		struct subst y;

		if (replaced(hits, nr, e->id))
			continue;
		record_rule(rec, e->id, hits[i].fact, hits[i].evidence);
		subst_init(&y, b->s, f, &hits[i], cf);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "advice:%s", e->id);
		if (!said(b, sb.buf))
			say(fv, b, e->say, &y);
		else if (e->again)
			say(fv, b, e->again, &y);
		/* A rewrite only from the facts: the diff does not show the way out. */
		if (!rewrite && cf && (e->rewrite || hits[i].fs)) {
			rewrite = e->rewrite ? e->rewrite : hits[i].fs->rewrite;
			expand_call(&code, rewrite, &y);
			if (y.no_exit)
				strbuf_reset(&code);
			strbuf_addbuf(&exit, &y.exit);
		}
		subst_release(&y);
	}
	if (!rewrite)
		example(&code, &exit, f, cf);
	json_object_set_new(rec, "compiled", compiled(&code, b->o, f));
	json_object_set_new(rec, "rewrite", code.len ? json_string(code.buf) : json_null());
	json_object_set_new(rec, "exit", code.len && exit.len ? json_string(exit.buf) :
			    json_null());
	json_array_append_new(b->record, rec);
	strbuf_reset(&sb);
	if (code.len)
		code_block(&sb, code.buf);
	set_block(fv, "rewrite", &sb);
	advice_hits_release(hits, nr);
	subst_release(&x);
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
		const struct item *it = &p->v[i];

		if ((it->type != IT_ISSUE && it->type != IT_NOTE) || it->patch != index)
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
			add_comment(bv, b, blocks[i].items[k]);
		qblock_release(&blocks[i]);
	}
	free(blocks);
	strbuf_release(&sb);
}

/* A removal or an in-patch conversion: one sentence of thanks, said
 * once per reply however many calls earn it.  What v(N-1) added and
 * this version fixed is said in the opening. */
static void add_credit(struct tmpl_vars *top, struct builder *b, const struct item *it)
{
	const struct finding *f = it->f;
	struct strbuf sb = STRBUF_INIT, key = STRBUF_INIT;

	if (f->conversion && f->other) {
		strbuf_addf(&sb, "Thanks for turning the %s()", f->rule->macro);
		if (*f->function)
			strbuf_addf(&sb, " in %s()", f->function);
		strbuf_addf(&sb, " into a %s().", f->other->macro);
	} else {
		strbuf_addf(&sb, "Thanks for removing the %s()", f->rule->macro);
		if (*f->function)
			strbuf_addf(&sb, " from %s().", f->function);
		else {
			strbuf_addstr(&sb, " from ");
			quote_c_style(&sb, f->file);
			strbuf_addch(&sb, '.');
		}
	}
	strbuf_addf(&key, "credit:%s", sb.buf);
	if (!said(b, key.buf))
		tmpl_set(tmpl_add(top, "credits"), "text", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&key);
}


/* "Thanks for v2: the BUG_ON() that v1 added to foo() is now ...": what
 * the previous version added and this one converted or dropped. */
static void thank_version(struct strbuf *out, const struct plan *p, const struct series *s)
{
	struct strvec macros = STRVEC_INIT, now = STRVEC_INIT;
	bool all_converted = true, all_recover = true, one;

	for (size_t i = 0; i < p->nr; i++) {
		const struct finding *f = p->v[i].f;
		struct strbuf l = STRBUF_INIT;
		bool dup = false;

		if (p->v[i].type != IT_XCREDIT)
			continue;
		if (!f) {
			all_converted = false;
			continue;
		}
		finding_line(&l, f);
		all_recover &= strstr(l.buf, "if (") != NULL;
		strbuf_release(&l);
		for (size_t k = 0; k < now.nr; k++)
			dup |= !strcmp(now.v[k], f->rule->macro);
		if (!dup)
			strvec_push(&now, f->rule->macro);
	}
	count_macros(&macros, p, IT_XCREDIT, true);
	one = macros.nr == 1 && !strstr(macros.v[0], " calls");
	strbuf_addf(out, "Thanks for v%d: ", s->version);
	join(out, &macros);
	strbuf_addf(out, " that v%d added", s->version - 1);
	functions_of(out, p, IT_XCREDIT, true);
	if (all_converted && now.nr == 1) {
		strbuf_addf(out, one ? " is now a %s()" : " are now %s() calls",
			    now.v[0]);
		if (all_recover)
			strbuf_addstr(out, one ? " with a recovery path" :
				      " with recovery paths");
	} else {
		strbuf_addstr(out, one ? " is gone" : " are gone or gentler now");
	}
	strbuf_addstr(out, ", as Documentation/process/coding-style.rst asks.");
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
	struct advice_hit hits[32];
	size_t nr = 0;

	strbuf_addstr(out, f->rule->id);
	if (a && a->nr <= ARRAY_SIZE(hits))
		nr = advice_match(hits, a, f, cf);
	for (size_t i = 0; i < nr; i++) {
		bool main = false;

		for (size_t k = 0; k < hits[i].e->replaces.nr; k++)
			main |= !strcmp(hits[i].e->replaces.v[k], "explain");
		if (main) {
			strbuf_addf(out, "/%s", hits[i].e->id);
			break;
		}
	}
	advice_hits_release(hits, nr);
}

static void opening(struct strbuf *out, const struct plan *p, const struct builder *b,
		    bool single)
{
	const struct series *s = b->s;
	const struct advice *a = b->advice;
	const struct ci_verdict *v = b->o->verdict;
	const char *what = single ? "This patch" : "This series";
	struct strvec macros = STRVEC_INIT;
	bool xc = false;
	int nr_fired = 0;

	for (size_t i = 0; i < p->nr; i++) {
		xc |= p->v[i].type == IT_XCREDIT;
		if (p->v[i].type == IT_ISSUE && fired_in_boot(v, p->v[i].f))
			nr_fired++;
	}
	if (p->issues) {
		struct strbuf first = STRBUF_INIT, point = STRBUF_INIT;
		bool one_kind = true;

		for (size_t i = 0; i < p->nr; i++) {
			if (p->v[i].type != IT_ISSUE)
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
		count_macros(&macros, p, IT_ISSUE, false);
		strbuf_addf(out, "%s adds ", what);
		join(out, &macros);
		/* A quote shows a function's name only when its first line is
		 * near the call: the opening names them (up to three). */
		functions_of(out, p, IT_ISSUE, false);
		if (nr_fired)
			strbuf_addstr(out, nr_fired == 1 && p->issues == 1 ?
				      ", and kernel-ci's boot saw it fire" :
				      nr_fired == 1 ? ", and kernel-ci's boot saw one of them fire" :
				      ", and kernel-ci's boot saw them fire");
		if (one_kind && p->issues > 1 && !nr_fired)
			strbuf_addf(out, ": one point covers %s%s, made at the first, "
				    "and each gets its rewrite below.", p->issues == 2 ? "both" : "all ",
				    p->issues == 2 ? "" : number(p->issues));
		else
			strbuf_addstr(out, "; comments inline.");
		if (xc && s->version > 1) {
			/* What v(N-1) added and this one fixed: said here, once. */
			strbuf_addch(out, ' ');
			thank_version(out, p, s);
		}
	} else if (p->credits) {
		if (xc && s->version > 1) {
			thank_version(out, p, s);
		} else {
			strbuf_addf(out, "Thanks for this %s: it removes calls that can stop the machine.",
				    single ? "patch" : "series");
		}
	} else {
		strbuf_addf(out, "I looked for BUG()/WARN() calls that %s adds or removes and "
			    "found nothing to comment on.", single ? "this patch" : "this series");
	}
	strvec_clear(&macros);
}

/* What went wrong, in words, for each verdict that is not clean. */
static const char *outcome_of(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_PANICKED: return "the kernel panicked";
	case CI_BUILD_FAILED: return "the kernel did not build";
	case CI_APPLY_FAILED: return "the series did not apply";
	case CI_HUNG: return "the boot did not finish in time";
	case CI_FS_CORRUPTED:
		return "the file system was corrupted (e2fsck -fn on the images after the boot)";
	default: return NULL;
	}
}

static void verdict_vars(struct tmpl_vars *top, const struct ci_verdict *vd)
{
	struct verdict_words w = { STRBUF_INIT, STRBUF_INIT, false, STRBUF_INIT, STRVEC_INIT };
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
		strbuf_addstr(&sb, vd->reason ? vd->reason : "no base tree to test it on");
		strbuf_rtrim(&sb);
		while (sb.len && sb.buf[sb.len - 1] == '.')
			strbuf_setlen(&sb, sb.len - 1);
		tmpl_set_bool(v, "untestable", true);
		tmpl_set(v, "why", sb.buf);
		strbuf_release(&sb);
		return;
	}
	words_of(&w, vd);
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
		tmpl_set(v, "outcome", outcome_of(vd->kind));
	}
	if (w.first.len) {
		sentence(&sb, w.first.buf);
		tmpl_set(v, "first", sb.buf);
		strbuf_reset(&sb);
	}
	tmpl_set(v, "tests", w.tests.len ? w.tests.buf : NULL);
	for (size_t i = 0; i < w.calls.nr; i++) {
		strbuf_reset(&sb);
		sentence(&sb, w.calls.v[i]);
		tmpl_set(tmpl_add(v, "calls"), "text", sb.buf);
	}
	/* When it went wrong, the console lines that say where (the panic
	 * and the trace): the author needs them to reproduce it, and they
	 * may not be anywhere else the author can read. */
	strbuf_reset(&sb);
	if (failed) {
		size_t n = 0;

		for (const char *l = w.log.buf; *l && n < REPLY_VERDICT_LOG_LINES; n++) {
			size_t len = strcspn(l, "\n");

			if (len)
				quote_lines(&sb, "    ", l, len);
			l += len + (l[len] == '\n');
		}
		set_block(v, "log", &sb);
	}
	strbuf_release(&sb);
	words_release(&w);
}

/* ---- headers ------------------------------------------------------------ */

bool reply_addr_matches(const char *addr, const char *globs)
{
	struct strbuf pat = STRBUF_INIT;
	const char *p = globs ? globs : "";
	bool match = false;

	while (*p && !match) {
		size_t n = strcspn(p, " ,\t");

		if (n) {
			strbuf_reset(&pat);
			strbuf_add(&pat, p, n);
			match = !fnmatch(pat.buf, addr, FNM_CASEFOLD);
		}
		p += n;
		p += strspn(p, " ,\t");
	}
	strbuf_release(&pat);
	return match;
}

/* Only the configured lists count (reply_opts.lists): NULL matches none. */
static bool is_list(const char *addr, const char *patterns)
{
	return patterns && reply_addr_matches(addr, patterns);
}

/* `in` into `out`, but ourselves and whoever asked for no reviews. */
static void add_all(struct mail_addr_list *out, const struct mail_addr_list *in,
		    const char *self, const char *skip)
{
	for (size_t i = 0; i < in->nr; i++)
		if (strcasecmp(in->v[i].addr, self) != 0 &&
		    !reply_addr_matches(in->v[i].addr, skip))
			mail_addr_add(out, in->v[i].name, in->v[i].addr);
}

/*
 * Who gets the reply, as kernel etiquette has it: To: the author; Cc: the
 * watched list first (o->watched, whether or not the patch named it, so
 * that no cap drops it), then the lists the patch went to (o->lists
 * globs), or with reply-to = all everyone it went to.  The addresses come
 * from the raw headers parsed as RFC 5322 lists (mail_addr_parse()), so
 * nothing inside a display name or a comment is one; To: and Cc: are read
 * up to MAILHDR_MAX_SEEN addresses, so a list after the 64th address of a
 * 200-address To: is still found, and only what the reply writes is
 * capped (MAILHDR_MAX_ADDRS per header).  The author is exactly one
 * address, the first mailbox of From:, whatever else From: lists;
 * [review] skip-authors (o->skip) holds for every recipient, and a
 * skipped author means no reply at all.
 */
static int recipients(struct reply *out, const struct mail *m, const struct reply_opts *o,
		      const char *self)
{
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT, author = MAIL_ADDR_LIST_INIT,
			      others = MAIL_ADDR_LIST_INIT, lists = MAIL_ADDR_LIST_INIT;
	int ret = 0;

	mail_addr_parse(&from, m->from_raw);
	if (from.nr)
		mail_addr_add(&author, from.v[0].name, from.v[0].addr);
	if (author.nr && reply_addr_matches(author.v[0].addr, o->skip)) {
		out->author_skipped = true;
		goto out;
	}
	others.max = lists.max = MAILHDR_MAX_SEEN;
	if (o->watched && o->policy != REPLY_TO_AUTHOR)
		mail_addr_parse(&lists, o->watched);
	mail_addr_parse(&others, m->to_raw);
	mail_addr_parse(&others, m->cc_raw);
	for (size_t i = 0; i < others.nr; i++)
		if (is_list(others.v[i].addr, o->lists))
			mail_addr_add(&lists, others.v[i].name, others.v[i].addr);
	switch (o->policy) {
	case REPLY_TO_AUTHOR:
		add_all(&out->to, &author, self, o->skip);
		break;
	case REPLY_TO_LIST:
		add_all(&out->to, &lists, self, o->skip);
		break;
	case REPLY_TO_ALL:
		add_all(&out->to, &author, self, o->skip);
		add_all(&out->cc, &lists, self, o->skip);
		add_all(&out->cc, &others, self, o->skip);
		break;
	case REPLY_TO_BOTH:
		add_all(&out->to, &author, self, o->skip);
		add_all(&out->cc, &lists, self, o->skip);
		break;
	}
	/* Nobody in To: is odd; Cc: alone works but reads badly. */
	if (!out->to.nr && out->cc.nr) {
		mail_addr_list_clear(&out->to);
		out->to = out->cc;
		memset(&out->cc, 0, sizeof(out->cc));
	}
	out->rcpt.max = 2 * MAILHDR_MAX_ADDRS;
	for (size_t i = 0; i < out->to.nr; i++)
		mail_addr_add(&out->rcpt, "", out->to.v[i].addr);
	for (size_t i = 0; i < out->cc.nr; i++)
		mail_addr_add(&out->rcpt, "", out->cc.v[i].addr);
	if (!out->rcpt.nr)
		ret = error_code(WW_EINPUT, "no %s address to send the reply to (reply-to = %s)",
				 o->policy == REPLY_TO_LIST ? "mailing list" : "valid",
				 reply_policy_names[o->policy]);
out:
	mail_addr_list_clear(&from);
	mail_addr_list_clear(&author);
	mail_addr_list_clear(&others);
	mail_addr_list_clear(&lists);
	return ret;
}

/* References: the answered message's (valid ones, the first and the
 * last few if there are many), then its own id. */
static void references(struct strvec *out, const struct mail *m)
{
	struct strvec all = STRVEC_INIT;
	const char *p = m->references ? m->references : "";

	while ((p = strchr(p, '<'))) {
		const char *end = strchr(p, '>');
		char *id;

		if (!end)
			break;
		id = xstrndup(p + 1, end - p - 1);
		if (msgid_valid(id))
			strvec_push(&all, id);
		free(id);
		p = end + 1;
	}
	for (size_t i = 0; i < all.nr; i++)
		if (i == 0 || i + 8 >= all.nr)
			strvec_push(out, all.v[i]);
	strvec_push(out, m->message_id);
	strvec_clear(&all);
}

static int headers(struct reply *out, struct strbuf *h, const struct mail *m,
		   const struct reply_opts *o)
{
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	struct strvec refs = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *self;
	int ret;

	if (mail_addr_parse(&from, o->from ? o->from : "") || from.nr != 1) {
		ret = error_code(WW_EINPUT, "the From: identity '%s' is not one valid address",
				 o->from ? o->from : "");
		goto out;
	}
	self = from.v[0].addr;
	out->from_addr = xstrdup(self);
	ret = recipients(out, m, o, self);
	if (ret || out->author_skipped)
		goto out;
	mailhdr_add_addrs(h, "From", &from);
	mailhdr_add_addrs(h, "To", &out->to);
	if (out->cc.nr)
		mailhdr_add_addrs(h, "Cc", &out->cc);
	strbuf_addstr(&sb, m->subject);
	strbuf_trim(&sb);
	if (strncasecmp(sb.buf, "Re:", 3) != 0) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "Re: %s", m->subject);
	}
	mailhdr_add_text(h, "Subject", sb.buf);
	/* The subject as it went out, for the state database. */
	{
		struct strbuf subj = STRBUF_INIT;

		mailhdr_clean(&subj, sb.buf, MAILHDR_MAX_TEXT);
		out->subject = strbuf_detach(&subj, NULL);
	}
	strbuf_reset(&sb);
	mailhdr_date(&sb, o->date ? o->date : mailhdr_now());
	strbuf_addf(h, "Date: %s\n", sb.buf);
	{
		const char *id = out->message_id;

		mailhdr_add_ids(h, "Message-ID", &id, 1);
		id = m->message_id;
		mailhdr_add_ids(h, "In-Reply-To", &id, 1);
	}
	references(&refs, m);
	mailhdr_add_ids(h, "References", refs.v, refs.nr);
	if (o->patchwork_hint)
		strbuf_addstr(h, "X-Patchwork-Hint: ignore\n");
	strbuf_addstr(h, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n");
out:
	mail_addr_list_clear(&from);
	strvec_clear(&refs);
	strbuf_release(&sb);
	return ret;
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

		if (p->v[i].type == IT_NOTE)
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

	opening(&sb, p, b, single);
	tmpl_set(top, "opening", sb.buf);
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
			any |= (p->v[i].type == IT_ISSUE || p->v[i].type == IT_NOTE) &&
			       p->v[i].patch == sp->index;
		if (any) {
			struct tmpl_vars *pv = tmpl_add(top, "patches");

			tmpl_set(pv, "subject", quote_str(&sb, sp->subject));
			tmpl_set_bool(pv, "heading", !single);
			add_patch(pv, b, p, sp->index);
		}
	}
	/* What v(N-1) added and this version fixed is said in the opening. */
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].type == IT_CREDIT)
			add_credit(top, b, &p->v[i]);
	tmpl_set_bool(top, "issues", p->issues > 0);
	verdict_vars(top, b->o->verdict);
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

int reply_build(struct reply *out, const struct series *s,
		const struct check_result *r, const struct reply_opts *o)
{
	struct plan p = { NULL, 0, 0, 0, 0, 0 };
	struct builder b = { s, o, o->advice, STRVEC_INIT, r, NULL };
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
	plan_build(&p, r, o->prev ? o->prev_result : NULL, o->verdict, b.advice, o->facts);
	out->issues = p.issues;
	out->credits = p.credits;
	out->notes = p.notes;
	if (!p.issues && !p.credits && !o->always) {
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

	ret = headers(out, &out->text, m, o);
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
	advice_release(&own);
	strbuf_release(&body);
	strbuf_release(&id);
	free(p.v);
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

	return datadir_find(buf, sizeof(buf), "templates", "WARNWATCH_TEMPLATES", NULL);
}
