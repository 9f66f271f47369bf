/*
 * Unit tests for bot/review/plan.c on its own (t-reply tests it through
 * the words): which earlier call a later version fixed, converted or
 * kept, and which boot report belongs to an added call.  Findings and
 * reports are built by hand.
 */
#include "ci.h"
#include "advice.h"
#include "plan.h"
#include "tap.h"

static struct rule bug_on = { .macro = "BUG_ON", .class = RC_BUG, .severity = SEV_ERROR,
	.id = "new-bug" };
static struct rule warn_on = { .macro = "WARN_ON", .class = RC_WARN, .severity = SEV_WARNING,
	.id = "new-warn" };
static struct rule warn_once = { .macro = "WARN_ON_ONCE", .class = RC_WARN_ONCE,
	.severity = SEV_INFO, .id = "new-warn-once" };

static struct finding added(const struct rule *r, const char *file, const char *fn, int line)
{
	struct finding f = { 0 };

	f.patch = 1;
	f.kind = FINDING_ADDED;
	f.file = (char *)file;
	f.function = (char *)fn;
	f.line = line;
	f.rule = r;
	f.severity = r->severity;
	f.source = (char *)"";
	f.source_lines = 1;
	return f;
}

/* The first item of type `t`, or NULL. */
static const struct plan_item *first(const struct plan *p, enum plan_item_type t)
{
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].type == t)
			return &p->v[i];
	return NULL;
}

static int count(const struct plan *p, enum plan_item_type t)
{
	int n = 0;

	for (size_t i = 0; i < p->nr; i++)
		n += p->v[i].type == t;
	return n;
}

/* v1's calls against v2's: kept, converted, fixed, and those never counted. */
static void test_versions(void)
{
	struct finding old[5], now[3];
	struct check_result prev = { 0 }, r = { 0 };
	struct plan p = PLAN_INIT;
	const struct plan_item *conv = NULL, *fixed = NULL;

	old[0] = added(&bug_on, "fs/a.c", "a_read", 10);	/* kept in v2 */
	old[1] = added(&bug_on, "fs/a.c", "a_write", 20);	/* WARN_ON_ONCE in v2 */
	old[2] = added(&warn_on, "fs/b.c", "b_open", 30);	/* gone */
	old[3] = added(&warn_once, "fs/b.c", "b_open", 31);	/* info: never credited */
	old[4] = added(&bug_on, "fs/c.c", "c_init", 40);
	old[4].moved = true;					/* moved: not v1's */
	now[0] = added(&bug_on, "fs/a.c", "a_read", 12);
	now[1] = added(&warn_once, "fs/a.c", "a_write", 22);
	now[2] = added(&warn_on, "fs/d.c", "", 50);		/* another file */
	prev.v = old;
	prev.nr = 5;
	r.v = now;
	r.nr = 3;
	plan_build(&p, &r, &prev, NULL, NULL, NULL);
	for (size_t i = 0; i < p.nr; i++) {
		if (p.v[i].type != PLAN_XCREDIT)
			continue;
		if (p.v[i].f)
			conv = &p.v[i];
		else
			fixed = &p.v[i];
	}
	is(count(&p, PLAN_XCREDIT), 2, "two of v1's calls are credited: one converted, one fixed");
	ok(conv && conv->prev == &old[1] && conv->f == &now[1],
	   "the BUG_ON() made WARN_ON_ONCE() in the same function: converted");
	ok(fixed && fixed->prev == &old[2], "the WARN_ON() gone from b.c: fixed");
	is(count(&p, PLAN_ISSUE), 2, "v2's BUG_ON() and WARN_ON() are issues");
	plan_release(&p);

	/* A function name missing on either side still pairs by file. */
	old[0] = added(&bug_on, "fs/a.c", "", 10);
	now[0] = added(&warn_on, "fs/a.c", "a_read", 12);
	prev.nr = 1;
	r.nr = 1;
	plan_build(&p, &r, &prev, NULL, NULL, NULL);
	ok(count(&p, PLAN_XCREDIT) == 1 && first(&p, PLAN_XCREDIT)->f == &now[0],
	   "no function name in v1: BUG_ON() -> WARN_ON() in the same file, converted");
	plan_release(&p);

	/* Not gentler is no conversion: WARN_ON() -> BUG_ON() is fixed + new. */
	old[0] = added(&warn_on, "fs/a.c", "a_read", 10);
	now[0] = added(&bug_on, "fs/a.c", "a_read", 12);
	plan_build(&p, &r, &prev, NULL, NULL, NULL);
	ok(count(&p, PLAN_XCREDIT) == 1 && !first(&p, PLAN_XCREDIT)->f,
	   "WARN_ON() -> BUG_ON(): not a conversion (harsher), v1's call counts as gone");
	plan_release(&p);
}

/* A conversion in one patch: its removal is thanked; its new call is an
 * issue only when it is a plain WARN (coding-style prefers the _ONCE
 * variant) or when a point specific to it holds (none without advice). */
static void test_conversions(void)
{
	struct finding v[2];
	struct check_result r = { 0 };
	struct plan p = PLAN_INIT;
	struct advice a = ADVICE_INIT, none = ADVICE_INIT;

	v[0] = added(&bug_on, "block/bio.c", "bio_split", 10);
	v[0].kind = FINDING_REMOVED;
	v[1] = added(&warn_on, "block/bio.c", "bio_split", 10);
	v[0].conversion = v[1].conversion = true;
	v[0].severity = v[1].severity = SEV_CREDIT;
	r.v = v;
	r.nr = 2;
	plan_build(&p, &r, NULL, NULL, &none, NULL);
	ok(count(&p, PLAN_CREDIT) == 1 && !count(&p, PLAN_ISSUE),
	   "no \"conversions\" in advice.json: BUG_ON() -> WARN_ON() is only thanked");
	plan_release(&p);
	a.conv_always[RC_WARN] = true;
	a.conv_speaks[RC_WARN_ONCE] = true;
	plan_build(&p, &r, NULL, NULL, &a, NULL);
	is(count(&p, PLAN_CREDIT), 1, "BUG_ON() -> WARN_ON(): the removal is thanked");
	ok(count(&p, PLAN_ISSUE) == 1 && first(&p, PLAN_ISSUE)->f == &v[1],
	   "\"when\": \"always\" for warn: the plain WARN_ON() in its place is an issue");
	plan_release(&p);

	v[1] = added(&warn_once, "block/bio.c", "bio_split", 10);
	v[1].conversion = true;
	v[1].severity = SEV_CREDIT;
	plan_build(&p, &r, NULL, NULL, &a, NULL);
	ok(count(&p, PLAN_CREDIT) == 1 && !count(&p, PLAN_ISSUE) && !count(&p, PLAN_NOTE),
	   "BUG_ON() -> WARN_ON_ONCE() with nothing specific to say: thanked only");
	plan_release(&p);

	v[1] = added(&warn_on, "tools/x.c", "main", 10);
	v[1].conversion = true;
	v[1].severity = SEV_INFO;		/* an override lowered it */
	plan_build(&p, &r, NULL, NULL, &a, NULL);
	ok(!count(&p, PLAN_ISSUE), "where an override lowers the conversion, no issue");
	plan_release(&p);
}

/* The report that belongs to an added call: same patch, file and lines. */
static void test_fired(void)
{
	struct finding f = added(&warn_on, "fs/a.c", "a_read", 10);
	struct ci_fired fd[4] = { { 0 } };
	struct ci_verdict v = CI_VERDICT_INIT;

	f.source_lines = 3;
	fd[0].added_by_series = true;	/* another patch */
	fd[0].patch = 2;
	fd[0].file = (char *)"fs/a.c";
	fd[0].line = 11;
	fd[1].added_by_series = false;	/* the base's line */
	fd[1].patch = 1;
	fd[1].file = (char *)"fs/a.c";
	fd[1].line = 11;
	fd[2].added_by_series = true;	/* below the call's last line */
	fd[2].patch = 1;
	fd[2].file = (char *)"fs/a.c";
	fd[2].line = 13;
	v.fired = fd;
	v.nr_fired = 3;
	ok(!plan_fired_in_boot(&v, &f), "another patch's, the base's, a line past it: not the call's");
	fd[3].added_by_series = true;
	fd[3].patch = 1;
	fd[3].file = (char *)"fs/a.c";
	fd[3].line = 12;		/* the call's third line */
	v.nr_fired = 4;
	ok(plan_fired_in_boot(&v, &f) == &fd[3], "a report on the call's third line is the call's");
	f.kind = FINDING_REMOVED;
	ok(!plan_fired_in_boot(&v, &f), "a removed call never fired in the patched boot");
	ok(!plan_fired_in_boot(NULL, &f), "no boot: nothing fired");
}

int main(void)
{
	test_versions();
	test_conversions();
	test_fired();
	return done_testing();
}
