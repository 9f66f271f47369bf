/*
 * What a review reply says, decided before any word of it: one item per
 * added call to fix or to note and per removal or conversion to thank
 * for, this version's against the previous one's.
 */
#ifndef WW_PLAN_H
#define WW_PLAN_H

#include "check.h"
#include "strvec.h"
#include "say.h"

struct ci_verdict;
struct ci_fired;
struct advice;
struct cfacts;

enum plan_item_type {
	PLAN_ISSUE,	/* an added call to fix */
	PLAN_CREDIT,	/* a removal or conversion in this version */
	PLAN_XCREDIT,	/* fixed since the previous version */
	PLAN_NOTE,	/* an added WARN_ON_ONCE(): worth a sentence */
};

/* Why a PLAN_NOTE is said: each has its own sentence. */
enum plan_note {
	PN_NONE,
	PN_ONCE,	/* an added WARN_ON_ONCE() (info, rules/core.json) */
	PN_INIT,	/* an added BUG/WARN in __init code (check.c's __init rule) */
	PN_CHANGED,	/* the condition or arguments of an existing call changed */
};

struct plan_item {
	enum plan_item_type type;
	enum plan_note note;		/* PLAN_NOTE: which */
	const struct finding *f;	/* this version's finding (NULL: dropped) */
	const struct finding *prev;	/* PLAN_XCREDIT: the previous version's */
	int patch;			/* where it is; 0: no patch */
};

struct plan {
	struct plan_item *v;
	size_t nr, alloc;
	int issues, credits, notes;
};

#define PLAN_INIT { 0 }

/*
 * The plan for findings `r` into `p` (PLAN_INIT): `prev` (may be NULL)
 * is the previous version's findings, `v` (may be NULL) kernel-ci's
 * verdict, for the calls that fired.  `a` (may be NULL) the advice and
 * `facts` (r->nr of them, in order, or NULL: reply_opts.facts) make a
 * lone WARN_ON_ONCE() that disk content or user space reaches an issue.
 */
void plan_build(struct plan *p, const struct check_result *r,
		const struct check_result *prev, const struct ci_verdict *v,
		const struct advice *a, const struct cfacts *facts);
void plan_release(struct plan *p);

/* The report of the boot that saw added call `f` fire, or NULL (borrowed).
 * `v` may be NULL. */
const struct ci_fired *plan_fired_in_boot(const struct ci_verdict *v,
					  const struct finding *f);

/* Whether a boot reached added call `f` (counted its runs) or saw it fire.
 * `v` may be NULL. */
bool plan_reached_in_boot(const struct ci_verdict *v, const struct finding *f);

/*
 * Leave out of `p` each issue and note `keep` says no to (credits stay),
 * and count again.  Returns how many were left out.
 */
size_t plan_drop(struct plan *p, bool (*keep)(void *data, const struct plan_item *it),
		 void *data);

/*
 * The fingerprint of finding `f`, appended to `out`: "file:function:
 * macro:condition", the condition (the call's arguments, else the call)
 * without its spacing, so that the same call in a later version of the
 * series has the same fingerprint whatever its line or indentation.
 * What feedback on a finding is recorded against.
 */
void plan_fingerprint(struct strbuf *out, const struct finding *f);

/* The added line of `f` as the patch has it, without its '+' ("" when the
 * hunk does not show it): appended to `out`. */
void plan_added_line(struct strbuf *out, const struct finding *f);

/*
 * "a BUG_ON()", "two WARN_ON() calls", one per macro of the items of
 * type `t` (of their previous version's finding when `prev_side`), each
 * a sentence of `book` (count-*).  Returns how many items were counted.
 */
int plan_count_macros(struct strvec *out, const struct plan *p,
		      enum plan_item_type t, bool prev_side, const struct say_book *book);

/* " to foo()" / " to foo() and bar()": the functions of the items of
 * type `t`, when there are at most three; nothing otherwise. */
void plan_functions_of(struct strbuf *out, const struct plan *p,
		       enum plan_item_type t, bool prev_side);

#endif
