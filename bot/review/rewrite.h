/*
 * The code a review reply shows, and the advice texts' placeholders
 * ({macro}, {function}, {cond}, {ret}, {repl}, {arg}, {fs}, {ret:-EXXX})
 * filled for one call.
 */
#ifndef WW_REWRITE_H
#define WW_REWRITE_H

#include "advice.h"
#include "cfacts.h"
#include "check.h"
#include "series.h"

/* The placeholders of advice texts for one call. */
struct rewrite_subst {
	const char *keys[7];
	const char *vals[7];
	struct strbuf cond, ret, fn;
	const struct series *s;
	const struct finding *f;
	const struct cfacts *cf;	/* from the tree, or NULL */
	bool no_exit;			/* a {ret:} the facts have no way out for */
	struct strbuf exit;		/* the way out a rewrite took */
};

/* The placeholders for finding `f` of `s`: `h` (may be NULL) the advice
 * that matched, `cf` (may be NULL) the facts from the tree. */
void rewrite_subst_init(struct rewrite_subst *x, const struct series *s,
			const struct finding *f, const struct advice_hit *h,
			const struct cfacts *cf);
void rewrite_subst_release(struct rewrite_subst *x);

/*
 * May advice for the call of `cf` say how to leave its function (a
 * return, a goto to its exit)?  Only when the facts say it is in no loop
 * (a way out there skips the later iterations) and a lock held has an
 * exit that drops it.  False without facts.
 */
bool rewrite_may_leave(const struct cfacts *cf);

/* `text` with x's placeholders filled, into `out`; "{ret:-EXXX}" is the
 * way out of the call's function with that errno (x->exit gets it;
 * x->no_exit is set when the facts have none), "{leave:YES|NO}" YES when
 * rewrite_may_leave(), else NO. */
void rewrite_expand(struct strbuf *out, const char *text, struct rewrite_subst *x);

/* The added line of `f`, without its '+' and indentation. */
void rewrite_finding_line(struct strbuf *out, const struct finding *f);

/* Code lines into a mail block: a TAB first, wrapped as the kernel wraps. */
void rewrite_code_block(struct strbuf *out, const char *code);

/* The default rewrite of added call `f` from the facts `cf` into `out`
 * (empty when there is none), and the failure exit it took into `exit`. */
void rewrite_example(struct strbuf *out, struct strbuf *exit, const struct finding *f,
		     const struct cfacts *cf);

#endif
