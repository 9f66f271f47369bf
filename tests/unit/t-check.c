/*
 * Unit tests for bot/check/check.c: which calls of a diff are findings, their
 * line numbers and functions, moves and conversions, severities after
 * path overrides, macro bodies, and wrapper resolution in a tree.
 */
#include "check.h"
#include "diff.h"
#include "series.h"
#include "strvec.h"
#include "tap.h"

#include <sys/stat.h>
#include <unistd.h>

static struct ruleset rs = RULESET_INIT;

/* Run check_diff on `diff`; the findings as "kind file:line function macro sev [flags]". */
static int run(struct strbuf *out, struct check_result *r, const char *diff)
{
	struct check_opts o = CHECK_OPTS_INIT;
	int ret;

	o.rules = &rs;
	check_result_clear(r);
	strbuf_reset(out);
	error_clear();
	ret = check_diff(r, diff, strlen(diff), 1, &o);
	if (ret < 0)
		printf("# check_diff: %s\n", error_last());
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];
		static const char *const kinds[] = { "added", "removed", "define" };

		strbuf_addf(out, "%s %s:%d %s %s %s%s%s%s\n", kinds[f->kind], f->file,
			    f->line, *f->function ? f->function : "-", f->rule->macro,
			    severity_name(f->severity), f->conversion ? " conversion" : "",
			    f->moved ? " moved" : "", f->in_init ? " __init" : "");
	}
	return ret;
}

static void test_added_removed_context(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	is(run(&s, &r,
	       "diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	       "@@ -20,6 +20,6 @@ static int alpha(struct page *page)\n"
	       " \tWARN_ON(page == NULL);\n"		/* context: not a finding */
	       "-\tpanic(\"no page\");\n"
	       "+\tBUG_ON(!page);\n"
	       " \treturn 0;\n"
	       " }\n"
	       " \n"
	       "+int beta(void)\n"
	       "-int gamma(void)\n"), 0, "mixed hunk: parses");
	is_str(s.buf,
	       "removed mm/a.c:21 alpha panic credit\n"
	       "added mm/a.c:21 alpha BUG_ON error\n",
	       "added/removed lines are findings with their own line numbers; context is not");
	is(r.added[RC_BUG], 1, "summary: one bug added");
	is(r.removed[RC_PANIC], 1, "summary: one panic removed");
	is(r.worst, SEV_ERROR, "worst: error");
	check_result_clear(&r);
	strbuf_release(&s);
}

static void test_functions(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/mm/b.c b/mm/b.c\n--- a/mm/b.c\n+++ b/mm/b.c\n"
	    "@@ -1,15 +1,19 @@ struct ops frob_ops = {\n"
	    " \t.x = 1,\n"
	    "+\tWARN_ON(1),\n"			/* no function: header has no '(' */
	    " };\n"
	    " \n"
	    " static int __init frob_init(void)\n"
	    " {\n"
	    "+\tBUG_ON(x);\n"
	    " \tif (y)\n"
	    " \t\treturn 0;\n"
	    " }\n"
	    " \n"
	    " static DEFINE_MUTEX(frob_lock);\n"
	    "+static int x = WARN_ON(0);\n"	/* after a closing brace: no function */
	    " \n"
	    " SYSCALL_DEFINE2(frob, int, a,\n"
	    " \t\tint, b)\n"
	    " {\n"
	    "+\tWARN_ON_ONCE(a < 0);\n"
	    " }\n");
	is_str(s.buf,
	       "added mm/b.c:2 - WARN_ON warning\n"
	       "added mm/b.c:7 frob_init BUG_ON info __init\n"
	       "added mm/b.c:13 - WARN_ON warning\n"
	       "added mm/b.c:18 SYSCALL_DEFINE2 WARN_ON_ONCE info\n",
	       "function: last definition line, not a struct, ended by a closing brace");
	run(&s, &r,
	    "diff --git a/mm/c.c b/mm/c.c\n--- a/mm/c.c\n+++ b/mm/c.c\n"
	    "@@ -40,2 +40,3 @@ static void *frob_alloc(size_t n, gfp_t gfp)\n"
	    " \tvoid *p = kmalloc(n, gfp);\n"
	    "+\tVM_BUG_ON(!p);\n"
	    " \treturn p;\n");
	is_str(s.buf, "added mm/c.c:41 frob_alloc VM_BUG_ON error\n",
	       "function: from the hunk header's context");
	/* __init: in the hunk header, on the line above a definition, never
	 * __initdata or a name that merely contains it. */
	run(&s, &r,
	    "diff --git a/fs/d.c b/fs/d.c\n--- a/fs/d.c\n+++ b/fs/d.c\n"
	    "@@ -40,2 +40,3 @@ static int __init d_setup(char *s)\n"
	    " \tvoid *p = kmalloc(n, GFP_KERNEL);\n"
	    "+\tBUG_ON(!p);\n"
	    " \treturn p;\n"
	    "@@ -60,8 +61,11 @@ static int d_x;\n"
	    " static int __init\n"
	    " d_init(void)\n"
	    " {\n"
	    "+\tif (!d_x)\n"
	    "+\t\tpanic(\"d\");\n"
	    " }\n"
	    " static int __initdata d_y;\n"
	    " static int d__init_x(void)\n"
	    " {\n"
	    "+\tBUG_ON(d_y);\n"
	    " }\n");
	is_str(s.buf,
	       "added fs/d.c:41 d_setup BUG_ON info __init\n"
	       "added fs/d.c:65 d_init panic info __init\n"
	       "added fs/d.c:70 d__init_x BUG_ON error\n",
	       "__init: from the hunk header, the line above the name; not __initdata");
	/* The one __init rule (docs/rules.md): info, and the message says why. */
	ok(r.nr == 3 && strstr(r.v[0].message, "in __init code") &&
	   strstr(r.v[1].message, "a hard failure there is accepted practice") &&
	   !strstr(r.v[2].message, "__init"), "__init: the message says why it is info");
	is(r.worst, SEV_ERROR, "  the BUG_ON() outside __init still makes the check fail");
	check_result_clear(&r);
	strbuf_release(&s);
}

static void test_multiline_and_window(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	const struct finding *f;

	run(&s, &r,
	    "diff --git a/mm/d.c b/mm/d.c\n--- a/mm/d.c\n+++ b/mm/d.c\n"
	    "@@ -5,3 +5,6 @@ int d(void)\n"
	    " \tint a;\n"
	    "+\tif (WARN_ONCE(a > 1,\n"
	    "+\t\t      \"a is %d\\n\", a))\n"
	    "+\t\treturn -EINVAL;\n"
	    " \treturn 0;\n"
	    " }\n");
	is((int)r.nr, 1, "multi-line call: one finding");
	f = &r.v[0];
	is(f->line, 6, "multi-line call: the line of its name");
	is_str(f->source, "WARN_ONCE(a > 1, \"a is %d\\n\", a)", "multi-line call: source joined");
	is(f->source_lines, 2, "multi-line call: spans two lines");
	is(f->hunk_line, 1, "window: the finding's line in the quoted hunk");
	ok(f->hunk && !strncmp(f->hunk, " \tint a;\n+\tif (WARN_ONCE(a > 1,\n", 26),
	   "window: prefixed hunk lines");
	check_result_clear(&r);
	strbuf_release(&s);
}

static void test_moves_and_conversions(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/mm/e.c b/mm/e.c\n--- a/mm/e.c\n+++ b/mm/e.c\n"
	    "@@ -10,4 +10,5 @@ static int e(void)\n"
	    "-\tBUG_ON(!e_ready);\n"
	    "+\tif (WARN_ON_ONCE(!e_ready))\n"
	    "+\t\treturn -EBUSY;\n"
	    " \tWARN_ON(e_count < 0);\n"
	    " \treturn 0;\n"
	    " }\n"
	    "@@ -30,2 +31,2 @@ static void f(void)\n"
	    "-\tWARN_ON(1);\n"
	    "+\tBUG_ON(1);\n"			/* harsher: not a conversion */
	    " }\n"
	    "diff --git a/mm/f.c b/mm/f.c\n--- a/mm/f.c\n+++ b/mm/f.c\n"
	    "@@ -1 +1 @@ void g(void)\n"
	    "-\tWARN_ON_ONCE( f_state !=  1);\n"
	    "+\t\tWARN_ON_ONCE(f_state != 1);\n");	/* re-indented: moved */
	is_str(s.buf,
	       "removed mm/e.c:10 e BUG_ON credit conversion\n"
	       "added mm/e.c:10 e WARN_ON_ONCE credit conversion\n"
	       "removed mm/e.c:30 f WARN_ON credit\n"
	       "added mm/e.c:31 f BUG_ON error\n"
	       "removed mm/f.c:1 g WARN_ON_ONCE info moved\n"
	       "added mm/f.c:1 g WARN_ON_ONCE info moved\n",
	       "conversion gentler only; unchanged call re-indented is moved");
	is(r.moved[RC_WARN_ONCE], 1, "summary: the move is counted apart");
	is(r.added[RC_WARN_ONCE], 1, "summary: the conversion's call is added");
	is(r.worst, SEV_ERROR, "worst: the harsher BUG_ON");
	ok(r.nr && r.v[0].other && !strcmp(r.v[0].other->macro, "WARN_ON_ONCE") &&
	   r.v[0].other_line == 10, "conversion: the other side is recorded");
	strbuf_reset(&s);
	if (r.nr == 6)
		check_finding_title(&s, &r.v[1]);
	is_str(s.buf, "new WARN_ON_ONCE() replacing BUG_ON() in e()", "title: conversion");
	strbuf_reset(&s);
	if (r.nr == 6)
		check_finding_title(&s, &r.v[4]);
	is_str(s.buf, "WARN_ON_ONCE() moved in g()", "title: moved");
	/* A debug-build assertion crashes too: a WARN in its place is gentler. */
	run(&s, &r,
	    "diff --git a/drivers/gpu/drm/i915/h.c b/drivers/gpu/drm/i915/h.c\n"
	    "--- a/drivers/gpu/drm/i915/h.c\n+++ b/drivers/gpu/drm/i915/h.c\n"
	    "@@ -5,1 +5,1 @@ static void h(void)\n"
	    "-\tGEM_BUG_ON(!h_ready);\n"
	    "+\tWARN_ON_ONCE(!h_ready);\n");
	if (!ok(r.nr == 2 && r.v[0].conversion && r.v[1].conversion,
		"GEM_BUG_ON() (debug-only) to WARN_ON_ONCE(): a conversion"))
		printf("# %s", s.buf);
	check_result_clear(&r);
	strbuf_release(&s);
}

/* Without function context, only nearby lines of a hunk pair up. */
static void test_conversion_distance(void)
{
	struct strbuf s = STRBUF_INIT, d = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	strbuf_addstr(&d, "diff --git a/mm/k.c b/mm/k.c\n--- a/mm/k.c\n+++ b/mm/k.c\n"
		      "@@ -1,22 +1,22 @@\n"
		      "-\tBUG_ON(a);\n"
		      "+\ta();\n");
	for (int i = 0; i < 20; i++)
		strbuf_addstr(&d, " \tx();\n");
	strbuf_addstr(&d, "-\tb();\n+\tWARN_ON_ONCE(b);\n");
	run(&s, &r, d.buf);
	is_str(s.buf,
	       "removed mm/k.c:1 - BUG_ON credit\n"
	       "added mm/k.c:22 - WARN_ON_ONCE info\n",
	       "far apart in a hunk without function context: not a conversion");
	check_result_clear(&r);
	strbuf_release(&s);
	strbuf_release(&d);
}

/*
 * A -/+ pair of the same call with changed arguments is a modification
 * (moved and modified, info): no credit, no objection.  A changed class
 * stays a conversion; context between the two lines makes them two.
 */
static void test_modified(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/fs/ext4/a.c b/fs/ext4/a.c\n--- a/fs/ext4/a.c\n+++ b/fs/ext4/a.c\n"
	    "@@ -10,5 +10,5 @@ static int a(struct inode *inode)\n"
	    "-\tWARN_ON(inode->i_size < 0);\n"
	    "-\tBUG_ON(!list_empty(&ei->i_list));\n"
	    "+\tWARN_ON(i_size_read(inode) < 0);\n"
	    "+\tBUG_ON(!list_empty(&EXT4_I(inode)->i_list));\n"
	    " \tx();\n"
	    "-\tWARN_ON(a);\n"
	    "+\tWARN_ON_ONCE(b);\n"
	    " \treturn 0;\n"
	    "@@ -30,3 +30,3 @@ static void b(void)\n"
	    "-\tWARN_ON(p);\n"
	    " \ty();\n"
	    "+\tWARN_ON(q);\n"
	    " }\n");
	is_str(s.buf,
	       "removed fs/ext4/a.c:10 a WARN_ON info moved\n"
	       "removed fs/ext4/a.c:11 a BUG_ON info moved\n"
	       "added fs/ext4/a.c:10 a WARN_ON info moved\n"
	       "added fs/ext4/a.c:11 a BUG_ON info moved\n"
	       "removed fs/ext4/a.c:13 a WARN_ON credit conversion\n"
	       "added fs/ext4/a.c:13 a WARN_ON_ONCE credit conversion\n"
	       "removed fs/ext4/a.c:30 b WARN_ON credit\n"
	       "added fs/ext4/a.c:31 b WARN_ON warning\n",
	       "same call, changed arguments, one change block: modified; class "
	       "change: conversion; context between: two findings");
	ok(r.nr == 8 && r.v[0].modified && r.v[2].modified && r.v[0].other_line == 10 &&
	   !r.v[4].modified && !r.v[6].modified, "modified is set on both sides only");
	is(r.added[RC_WARN], 1, "summary: a modified call is not added");
	is(r.removed[RC_BUG], 0, "summary: ... nor removed");
	strbuf_reset(&s);
	if (r.nr == 8)
		check_finding_title(&s, &r.v[2]);
	is_str(s.buf, "condition of WARN_ON() changed in a()", "title: changed");
	ok(r.nr == 8 && !strcmp(r.v[2].message, "changed condition of the existing WARN_ON() of line 10") &&
	   !strstr(r.v[2].message, "new"),
	   "message: a changed condition, neither new nor 'not new'");
	check_result_clear(&r);
	strbuf_release(&s);
}

/* The same short call removed here and added in another function is new. */
static void test_not_moved(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/mm/m.c b/mm/m.c\n--- a/mm/m.c\n+++ b/mm/m.c\n"
	    "@@ -10,2 +10,2 @@ static void one(void)\n"
	    "-\tBUG_ON(1);\n"
	    "+\treturn;\n"
	    " }\n"
	    "@@ -40,2 +40,2 @@ static void two(void)\n"
	    "-\treturn;\n"
	    "+\tBUG_ON(1);\n"
	    " }\n");
	is_str(s.buf,
	       "removed mm/m.c:10 one BUG_ON info\n"
	       "added mm/m.c:40 two BUG_ON error\n",
	       "same text in another function: not a move (and not thanked: it is back)");
	ok(r.nr == 2 && r.v[0].readded && !r.v[1].readded,
	   "  the removal is marked readded, for the reply's count");
	check_result_clear(&r);
	strbuf_release(&s);
}

/*
 * A long hunk that rewrites f() with a new g() added above it: the BUG()
 * removed from the old f() is in f(), not in the g() whose definition
 * (an added line) precedes it, so its copy in the new f() is a move
 * (linux-arch 2022, x86/cet: "adds a BUG()" and "thanks for removing"
 * the same call).
 */
static void test_long_mixed_hunk(void)
{
	struct strbuf s = STRBUF_INIT, d = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	strbuf_addstr(&d, "diff --git a/k/t.c b/k/t.c\n--- a/k/t.c\n+++ b/k/t.c\n"
		      "@@ -10,8 +10,74 @@ enum e {\n"
		      " };\n \n-void f(void)\n+static DEFINE_X(y,\n+\t\tz);\n+\n"
		      "+static void g(int x)\n {\n"
		      "-\tif (!ready) {\n-\t\tBUG();\n-\t}\n");
	for (int i = 0; i < 60; i++)
		strbuf_addstr(&d, "+\tx++;\n");
	strbuf_addstr(&d, "+}\n+\n+void f(void)\n+{\n+\tif (!ready)\n+\t\tBUG();\n }\n");
	run(&s, &r, d.buf);
	is_str(s.buf,
	       "removed k/t.c:15 f BUG info moved\n"
	       "added k/t.c:82 f BUG info moved\n",
	       "a long hunk cut into pieces: a removed line's function is of the old side");
	check_result_clear(&r);
	strbuf_release(&s);
	strbuf_release(&d);
}

/*
 * Lines at the left margin that are not definitions keep the function
 * above: an initialiser that calls a macro, a statement; a definition
 * with trailing blanks is one (issue 36: is_definition()'s branches).
 */
static void test_not_definitions(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/k/d.c b/k/d.c\n--- a/k/d.c\n+++ b/k/d.c\n"
	    "@@ -1,8 +1,11 @@ int top(void)\n"
	    " int h(void)  \t\n"
	    " {\n"
	    "+\tBUG_ON(a);\n"
	    " static struct ops o = OPS(a,\n"
	    " \tb)\n"
	    "+\tWARN_ON(b);\n"
	    " if (x)\n"
	    "+\tBUG_ON(c);\n"
	    " \n"
	    " }\n"
	    " }\n");
	is_str(s.buf,
	       "added k/d.c:3 h BUG_ON error\n"
	       "added k/d.c:6 h WARN_ON warning\n"
	       "added k/d.c:8 h BUG_ON error\n",
	       "an initialiser, a statement at the margin: not definitions; trailing blanks: one");
	check_result_clear(&r);
	strbuf_release(&s);
}

/*
 * Calls carried along: with their function (its definition removed and
 * added), or by their message; a call added back elsewhere is not
 * thanked as removed; a short message or another function is no carry.
 */
static void test_carried(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/d/u.c b/d/u.c\n--- a/d/u.c\n+++ b/d/u.c\n"
	    "@@ -10,4 +10,0 @@ static int x;\n"
	    "-static void scan(struct u *ub)\n"
	    "-{\n"
	    "-\tWARN_ON_ONCE(!ub->disk->state);\n"
	    "-}\n"
	    "@@ -90,1 +86,5 @@ static void put(void)\n"
	    " }\n"
	    "+static void scan(struct gendisk *disk)\n"
	    "+{\n"
	    "+\tWARN_ON_ONCE(!disk->state);\n"
	    "+}\n"
	    "@@ -200,3 +200,2 @@ static int w(struct f *f)\n"
	    " \tif (!fid) {\n"
	    "-\t\tWARN_ONCE(1, \"folio expected an open fid %p\\n\", f->p);\n"
	    " \t\treturn -EINVAL;\n"
	    "@@ -300,2 +299,3 @@ static int r(struct q *q)\n"
	    " \tif (!fid) {\n"
	    "+\t\tWARN_ONCE(1, \"folio expected an open fid %p\\n\", q->f->p);\n"
	    " \t\treturn -EINVAL;\n"
	    "@@ -400,2 +400,1 @@ static int a(int t)\n"
	    " \tswitch (t) {\n"
	    "-\tdefault: BUG();\n"
	    "@@ -500,1 +499,2 @@ static int b(int t)\n"
	    " \tswitch (t) {\n"
	    "+\tdefault: BUG();\n"
	    "@@ -600,2 +600,1 @@ static int c1(int t)\n"
	    " \tx = 1;\n"
	    "-\tWARN(t, \"bad t\");\n"
	    "@@ -700,1 +699,2 @@ static int c2(int t)\n"
	    " \tx = 1;\n"
	    "+\tWARN(t > 1, \"bad t\");\n");
	is_str(s.buf,
	       "removed d/u.c:12 scan WARN_ON_ONCE info moved\n"
	       "added d/u.c:89 scan WARN_ON_ONCE info moved\n"
	       "removed d/u.c:201 w WARN_ONCE info moved\n"
	       "added d/u.c:300 r WARN_ONCE info moved\n"
	       "removed d/u.c:401 a BUG info\n"
	       "added d/u.c:500 b BUG error\n"
	       "removed d/u.c:601 c1 WARN credit\n"
	       "added d/u.c:700 c2 WARN warning\n",
	       "carried with its function or its message: changed; BUG() added back: "
	       "not thanked, still new; a short message elsewhere: two calls");
	ok(r.nr == 8 && r.v[0].modified && r.v[2].modified && !r.v[5].moved,
	   "carried calls are changed ones (modified); the added-back BUG() is not");
	check_result_clear(&r);
	strbuf_release(&s);
}

static void test_overrides_and_skips(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/tools/x/main.c b/tools/x/main.c\n--- a/tools/x/main.c\n+++ b/tools/x/main.c\n"
	    "@@ -1 +1 @@ int main(void)\n"
	    "-\tWARN_ON(1);\n"
	    "+\tBUG_ON(1);\n"
	    "diff --git a/Documentation/x.rst b/Documentation/x.rst\n"
	    "--- a/Documentation/x.rst\n+++ b/Documentation/x.rst\n"
	    "@@ -1 +1 @@\n-a\n+\tBUG_ON(1);\n"
	    "diff --git a/lib/x.S b/lib/x.S\n--- a/lib/x.S\n+++ b/lib/x.S\n"
	    "@@ -1 +1 @@\n-a\n+\tBUG_ON(1);\n");
	is_str(s.buf,
	       "removed tools/x/main.c:1 main WARN_ON info\n"
	       "added tools/x/main.c:1 main BUG_ON info\n",
	       "tools/ is info both ways; Documentation and .S are not scanned");
	is(r.worst, SEV_INFO, "worst: info");
	check_result_clear(&r);
	strbuf_release(&s);
}

static void test_defines(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	run(&s, &r,
	    "diff --git a/mm/g.h b/mm/g.h\n--- a/mm/g.h\n+++ b/mm/g.h\n"
	    "@@ -1,3 +1,4 @@\n"
	    "+#define G_BUG_ON(c) BUG_ON(c)\n"
	    " /* BUG_ON(x) in a comment */\n"
	    " #define G_NAME \"BUG_ON\"\n"
	    " \n"
	    "@@ -10,3 +11,4 @@\n"
	    " #define G_CHECK(x)\t\t\\\n"
	    " \tdo {\t\t\t\\\n"
	    "+\t\tWARN_ON(!(x));\t\\\n"
	    " \t} while (0)\n"
	    "@@ -30,3 +32,4 @@\n"
	    " \t\tfoo(x);\t\t\\\n"
	    "+\t\tBUG_ON(!x);\t\\\n"
	    " \t} while (0)\n"
	    " \n");
	is_str(s.buf,
	       "define mm/g.h:1 - BUG_ON warning\n"
	       "define mm/g.h:13 - WARN_ON warning\n"
	       "define mm/g.h:33 - BUG_ON warning\n",
	       "new wrapper, changed macro body, body whose #define is above the hunk");
	is(r.nr == 3 && !strcmp(r.v[0].defined, "G_BUG_ON") && !r.v[0].in_body, 1,
	   "new wrapper: named");
	is(r.nr == 3 && !strcmp(r.v[1].defined, "G_CHECK") && r.v[1].in_body, 1,
	   "changed body: named, in_body");
	is(r.nr == 3 && !strcmp(r.v[2].defined, "") && r.v[2].in_body, 1,
	   "body cut from its #define: no name");
	is(r.added[RC_BUG] + r.added[RC_WARN], 0, "definitions are not added calls");
	/* A wrapper moved to a header (and given a WARN_ON() alias for the
	 * other config) is no new wrapper; one made harsher on the way is. */
	run(&s, &r,
	    "diff --git a/include/k.h b/include/k.h\n--- a/include/k.h\n+++ b/include/k.h\n"
	    "@@ -1,2 +1,5 @@\n"
	    " #ifdef CONFIG_K\n"
	    "+#define K_WARN_ON(c) ({ bool __c = WARN_ON(c); if (__c && k_panic) BUG(); __c; })\n"
	    "+#else\n"
	    "+#define K_WARN_ON WARN_ON\n"
	    " #endif\n"
	    "diff --git a/mm/k/k.h b/mm/k/k.h\n--- a/mm/k/k.h\n+++ b/mm/k/k.h\n"
	    "@@ -40,4 +40,2 @@\n"
	    " #define K_META 1\n"
	    "-#define K_WARN_ON(c) ({ bool __c = WARN_ON(c); if (__c && k_panic) BUG(); __c; })\n"
	    "-#define K_CHECK(c) WARN_ON(c)\n"
	    " \n"
	    "diff --git a/mm/k/c.h b/mm/k/c.h\n--- a/mm/k/c.h\n+++ b/mm/k/c.h\n"
	    "@@ -1,1 +1,2 @@\n"
	    "+#define K_CHECK(c) BUG_ON(c)\n"
	    " \n");
	is_str(s.buf,
	       "define include/k.h:2 - BUG info moved\n"
	       "define include/k.h:4 - WARN_ON info moved\n"
	       "define mm/k/c.h:1 - BUG_ON warning\n",
	       "a wrapper moved (and its gentler alias): no new wrapper; made harsher: new");
	strbuf_reset(&s);
	if (r.nr == 3)
		check_finding_title(&s, &r.v[0]);
	is_str(s.buf, "wrapper K_WARN_ON() around BUG() moved", "title: a moved wrapper");
	check_result_clear(&r);
	strbuf_release(&s);
}

static void test_binary_and_errors(void)
{
	struct strbuf s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct series se = SERIES_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	static const char bad[] =
		"diff --git a/mm/h.c b/mm/h.c\n--- a/mm/h.c\n+++ b/mm/h.c\n"
		"@@ -1,3 +1,3 @@\n-a\n+b\n";

	is(run(&s, &r, "diff --git a/fw/x.bin b/fw/x.bin\nindex 1234567..89abcde 100644\n"
	       "Binary files a/fw/x.bin and b/fw/x.bin differ\n"), 0, "binary: no error");
	is((int)r.nr_notes, 1, "binary: a note");
	is_str(r.nr_notes ? r.notes[0].file : "", "fw/x.bin", "binary: the note names the file");
	check_result_clear(&r);

	ALLOC_GROW(se.patches, 2, se.alloc);
	memset(se.patches, 0, 2 * sizeof(*se.patches));
	se.nr = 2;
	se.patches[0].index = 1;
	se.patches[0].diff = "";
	se.patches[1].index = 2;
	se.patches[1].diff = bad;
	se.patches[1].diff_len = strlen(bad);
	o.rules = &rs;
	is(check_series(&r, &se, &o), 0, "truncated hunk in patch 2: the check goes on");
	is((int)r.nr_damaged, 1, "truncated hunk in patch 2: one damaged hunk");
	if (r.nr_damaged) {
		is(r.damaged[0].patch, 2, "damaged: the patch");
		is_str(r.damaged[0].file, "mm/h.c", "damaged: the file");
		is(r.damaged[0].hunk, 1, "damaged: the hunk");
		ok(starts_with(r.damaged[0].message, "'mm/h.c' hunk 1 is truncated"),
		   "damaged: the error line names file and hunk (%s)", r.damaged[0].message);
		ok(starts_with(r.damaged[0].reason, "is truncated: the diff ends"),
		   "damaged: the reason (%s)", r.damaged[0].reason);
	}
	free(se.patches);
	check_result_clear(&r);
	strbuf_release(&s);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * check_series() with a tree, on rules that know no wrapper yet: each
 * patch is parsed once, the wrappers of the directories it touches are
 * resolved from what that parse kept, and the kept hunks are checked
 * with them -- also a hunk that names no macro of the rules files, only
 * a wrapper (Y_ASSERT: no rule's name is in it) -- with a damaged hunk recorded in its place.
 */
static void tree_series(const char *dir)
{
	static const char p1[] =
		"diff --git a/drivers/x/y.c b/drivers/x/y.c\n--- a/drivers/x/y.c\n"
		"+++ b/drivers/x/y.c\n@@ -1 +1 @@ void y(void)\n-\tfoo();\n+\tX_BUG_ON(ok);\n"
		"diff --git a/mm/h.c b/mm/h.c\n--- a/mm/h.c\n+++ b/mm/h.c\n"
		"@@ -1,3 +1,3 @@\n-a\n+b\n";
	static const char p2[] =
		"diff --git a/drivers/x/z.c b/drivers/x/z.c\n--- a/drivers/x/z.c\n"
		"+++ b/drivers/x/z.c\n@@ -4 +4 @@ void z(void)\n-\tfoo();\n+\tY_ASSERT(!ok);\n";
	struct ruleset own = RULESET_INIT;
	struct series se = SERIES_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct strbuf s = STRBUF_INIT, rdir = STRBUF_INIT;
	struct diff_counts before, after;
	const char *top = getenv("WW_TOP");

	strbuf_addf(&rdir, "%s/rules", top && *top ? top : ".");
	if (rules_load(&own, rdir.buf) < 0) {
		ok(0, "tree series: rules: %s", error_last());
		return;
	}
	ok(!rules_lookup(&own, "X_BUG_ON", 8) && !rules_lookup(&own, "Y_ASSERT", 8),
	   "tree series: the rules alone know neither wrapper");
	ALLOC_GROW(se.patches, 2, se.alloc);
	memset(se.patches, 0, 2 * sizeof(*se.patches));
	se.nr = 2;
	se.patches[0].index = 1;
	se.patches[0].diff = p1;
	se.patches[0].diff_len = strlen(p1);
	se.patches[1].index = 2;
	se.patches[1].diff = p2;
	se.patches[1].diff_len = strlen(p2);
	o.rules = &own;
	o.tree = dir;
	diff_counts(&before);
	is(check_series(&r, &se, &o), 0, "tree series: checked");
	diff_counts(&after);
	is(after.parses - before.parses, 2, "tree series: each patch parsed once");
	for (size_t i = 0; i < r.nr; i++)
		strbuf_addf(&s, "%d %s:%d %s\n", r.v[i].patch, r.v[i].file, r.v[i].line,
			    r.v[i].rule->macro);
	is_str(s.buf, "1 drivers/x/y.c:1 X_BUG_ON\n2 drivers/x/z.c:4 Y_ASSERT\n",
	       "tree series: the wrappers' calls, found in hunks that name only them");
	is((int)r.nr_damaged, 1, "tree series: the damaged hunk, recorded");
	ok(r.nr_damaged && r.damaged[0].patch == 1 && !strcmp(r.damaged[0].file, "mm/h.c"),
	   "tree series: in its patch and file");
	ok(r.map && r.map->nr == 2 && r.map->patches[0].damaged && !r.map->patches[1].damaged,
	   "tree series: the line map knows which patch is damaged");
	is((int)r.nr_files, 2, "tree series: both scanned files kept for later stages");
	ok(check_hunk_of(&r, 1, "drivers/x/z.c", 4) != NULL,
	   "tree series: the hunk of patch 2's call, without a parse");
	strbuf_reset(&s);
	{
		struct strvec paths = STRVEC_INIT;

		check_result_paths(&paths, &r);
		for (size_t i = 0; i < paths.nr; i++)
			strbuf_addf(&s, "%s ", paths.v[i]);
		is_str(s.buf, "drivers/x/y.c mm/h.c drivers/x/z.c ",
		       "tree series: every path, from the same parse");
		strvec_clear(&paths);
	}
	check_result_clear(&r);
	o.tree = "/nonexistent/tree";
	ok(check_series(&r, &se, &o) < 0 && !starts_with(error_last(), "patch "),
	   "tree series: a tree that is not there is not blamed on a patch (%s)", error_last());
	error_clear();
	check_result_clear(&r);
	ruleset_release(&own);
	free(se.patches);
	strbuf_release(&s);
	strbuf_release(&rdir);
}

static void test_tree_wrappers(void)
{
	char tmpl[] = "/tmp/t-check-XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct strbuf p = STRBUF_INIT, s = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	const char *paths[] = { "drivers/x/y.c", NULL };
	const char *again[] = { "drivers/x/y.c", "drivers/x/z.c", "drivers/x/y.c", NULL };
	const struct rule *w;
	unsigned long reads;

	if (!dir) {
		ok(0, "mkdtemp");
		return;
	}
	strbuf_addf(&p, "%s/include", dir);
	mkdir(p.buf, 0755);
	strbuf_addstr(&p, "/linux");
	mkdir(p.buf, 0755);
	strbuf_addstr(&p, "/y.h");
	write_file(p.buf, "#define Y_LIMIT 4 /* BUG_ON() is not needed,\n   says a comment */\n"
		   "#define Y_WARN(c) WARN_ON(c)\n"
		   "#define Y_ASSERT(c) do { if (!(c)) Y_WARN(1); } while (0)\n"
		   "#define Y_NOTHING(c) do { } while (0)\n");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/drivers", dir);
	mkdir(p.buf, 0755);
	strbuf_addstr(&p, "/x");
	mkdir(p.buf, 0755);
	strbuf_addstr(&p, "/local.h");
	write_file(p.buf, "#define X_BUG_ON(c) BUG_ON(c)\n");

	reads = check_tree_reads();
	is(check_resolve_wrappers(&rs, dir, paths), 0, "tree: resolves");
	is(check_tree_reads() - reads, 3, "tree: include/linux/y.h, drivers/x/local.h, y.c read");
	reads = check_tree_reads();
	is(check_resolve_wrappers(&rs, dir, again), 0, "tree: resolves again");
	is(check_tree_reads() - reads, 3,
	   "tree: again: include/ not reread, drivers/x/ once for three paths, each .c once");
	w = rules_lookup(&rs, "Y_ASSERT", 8);
	ok(w && w->class == RC_WARN, "tree: a wrapper of a wrapper is classed like WARN_ON");
	w = rules_lookup(&rs, "X_BUG_ON", 8);
	ok(w && w->class == RC_BUG, "tree: a touched directory's header counts");
	ok(!rules_lookup(&rs, "Y_NOTHING", 9), "tree: a macro without a call is not a wrapper");
	run(&s, &r, "diff --git a/drivers/x/y.c b/drivers/x/y.c\n--- a/drivers/x/y.c\n"
	    "+++ b/drivers/x/y.c\n@@ -1 +1 @@ void y(void)\n-\tfoo();\n+\tY_ASSERT(ok);\n");
	is_str(s.buf, "added drivers/x/y.c:1 y Y_ASSERT warning\n", "tree: the wrapper's call is found");
	is(check_resolve_wrappers(&rs, "/nonexistent/tree", NULL), WW_ENOTFOUND,
	   "tree: a missing tree is an error");
	tree_series(dir);

	strbuf_reset(&p);
	strbuf_addf(&p, "%s/drivers/x/local.h", dir);
	unlink(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/include/linux/y.h", dir);
	unlink(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/drivers/x", dir);
	rmdir(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/drivers", dir);
	rmdir(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/include/linux", dir);
	rmdir(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/include", dir);
	rmdir(p.buf);
	rmdir(dir);
	check_result_clear(&r);
	strbuf_release(&p);
	strbuf_release(&s);
}

/* Patch n of a three-patch series adding a BUG_ON() to mm/a.c. */
#define PATCH_MAIL(n, from, to, at) \
	"From ww Mon Sep 17 00:00:00 2001\n" \
	"From: A <a@example.org>\nSubject: [PATCH " #n "/3] mm: step " #n "\n" \
	"Message-ID: <p" #n "@example.org>\n\n" \
	"---\n" \
	"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n" \
	"@@ -" #at ",2 +" #at ",3 @@ int f(void)\n" \
	" {\n" \
	"+\tBUG_ON(x == " #n ");\n" \
	" \treturn 0;\n" \
	"-- \n2.43.0\n\n"

static const char three_patches[] =
	PATCH_MAIL(1, 0, 0, 10) PATCH_MAIL(2, 0, 0, 20) PATCH_MAIL(3, 0, 0, 5);

/*
 * One check of a series parses each patch once and makes the hunk filter
 * (the anchors) once, however many patches and findings there are.
 */
static void test_parse_once(void)
{
	struct series s = SERIES_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	struct diff_counts before, after;

	o.rules = &rs;
	if (series_read(&s, three_patches, strlen(three_patches), "x.mbox") < 0) {
		printf("# series_read: %s\n", error_last());
		ok(0, "parse once: the series reads");
		goto out;
	}
	is(s.nr, 3, "parse once: three patches");
	diff_counts(&before);
	is(check_series(&r, &s, &o), 0, "parse once: check_series");
	diff_counts(&after);
	is(r.nr, 3, "parse once: a finding per patch");
	is(after.parses - before.parses, 3, "parse once: three patches, three parses");
	is(after.anchor_sets - before.anchor_sets, 1, "parse once: one anchor set per series");

	/* Where each finding lands after the series (what --format=gcc,
	 * --suggest and the hook print) comes from the same parse. */
	ok(r.map && r.map->nr == 3, "parse once: the line map of the series");
	for (size_t i = 0; r.map && i < r.nr; i++) {
		static const int want[] = { 12, 22, 6 };
		struct strbuf path = STRBUF_INIT;
		int line = -1;

		diff_counts(&before);
		is(linemap_final(&line, &path, r.map, &s, i, r.v[i].file, r.v[i].line), 0,
		   "parse once: patch %zu's finding followed", i + 1);
		diff_counts(&after);
		is(after.parses - before.parses, 0, "parse once: ... without a parse");
		is(line, want[i], "parse once: ... to line %d of the result", want[i]);
		is_str(path.buf, "mm/a.c", "parse once: ... in its file");
		/* ...and the hunk that adds the call (a rewrite's placement
		 * by name reads it) is the check's own copy. */
		diff_counts(&before);
		{
			const struct diff_hunk *h = check_hunk_of(&r, i, r.v[i].file, r.v[i].line);
			bool adds = false;

			for (size_t k = 0; h && k < h->nr; k++)
				adds |= h->lines[k].origin == '+' &&
					h->lines[k].new_lineno == r.v[i].line &&
					strstr(h->lines[k].content, r.v[i].rule->macro);
			ok(adds, "parse once: patch %zu's hunk adds the call", i + 1);
			ok(!check_hunk_of(&r, i == 0 ? 1 : 0, r.v[i].file, r.v[i].line) ||
			   r.v[i].line == r.v[i == 0 ? 1 : 0].line,
			   "parse once: ... and no other patch's hunk does");
		}
		diff_counts(&after);
		is(after.parses - before.parses, 0, "parse once: ... without a parse");
		strbuf_release(&path);
	}
out:
	check_result_clear(&r);
	series_release(&s);
}

/*
 * census checks thousands of file diffs against one ruleset: one hunk
 * filter for all of them, rebuilt only when a wrapper joins the rules.
 */
static void test_filter_kept(void)
{
	static const char d[] =
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1 +1 @@ void a(void)\n-\tfoo();\n+\tZZ_CHECK(x);\n";
	struct check_filter f = CHECK_FILTER_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct diff_counts before, after;

	o.rules = &rs;
	o.filter = &f;
	diff_counts(&before);
	for (int i = 0; i < 3; i++)
		is(check_diff(&r, d, strlen(d), 0, &o), 0, "filter: check_diff %d", i + 1);
	diff_counts(&after);
	is(after.anchor_sets - before.anchor_sets, 1, "filter: three diffs, one filter");
	is(r.nr, 0, "filter: ZZ_CHECK is nothing yet");
	is(rules_add_wrapper(&rs, "ZZ_CHECK", rules_lookup(&rs, "WARN_ON", 7)), 0,
	   "filter: a wrapper joins the rules");
	diff_counts(&before);
	is(check_diff(&r, d, strlen(d), 0, &o), 0, "filter: check_diff after it");
	diff_counts(&after);
	is(after.anchor_sets - before.anchor_sets, 1, "filter: rebuilt for the new rule");
	is(r.nr, 1, "filter: the wrapper's call is found");
	check_result_clear(&r);
	check_filter_release(&f);
}

/* A BUG_ON of patch 1 that patch 3 converts: removed_by names patch 3,
 * the severity stays error; the conversion is counted as one. */
static void test_removed_later(void)
{
	static const char p1[] =
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1,4 +1,5 @@\n int f(int x)\n {\n+\tBUG_ON(x < 0);\n \treturn x;\n }\n";
	static const char p2[] =
		"diff --git a/mm/b.c b/mm/b.c\n--- a/mm/b.c\n+++ b/mm/b.c\n"
		"@@ -1,1 +1,1 @@\n-a\n+b\n";
	static const char p3[] =
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1,5 +1,6 @@ int f(int x)\n int f(int x)\n {\n-\tBUG_ON(x < 0);\n"
		"+\tif (WARN_ON_ONCE(x < 0))\n+\t\treturn -EINVAL;\n \treturn x;\n }\n";
	const char *diffs[] = { p1, p2, p3 };
	struct check_result r = CHECK_RESULT_INIT;
	struct series se = SERIES_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	const struct finding *bug = NULL;

	ALLOC_GROW(se.patches, 3, se.alloc);
	memset(se.patches, 0, 3 * sizeof(*se.patches));
	se.nr = 3;
	for (int i = 0; i < 3; i++) {
		se.patches[i].index = i + 1;
		se.patches[i].total = 3;
		se.patches[i].diff = diffs[i];
		se.patches[i].diff_len = strlen(diffs[i]);
	}
	o.rules = &rs;
	is(check_series(&r, &se, &o), 0, "removed later: checked");
	for (size_t i = 0; i < r.nr; i++)
		if (r.v[i].patch == 1 && r.v[i].kind == FINDING_ADDED)
			bug = &r.v[i];
	ok(bug != NULL, "removed later: patch 1's BUG_ON found");
	is(bug ? bug->removed_by : -1, 3, "removed later: removed_by names patch 3");
	is(bug ? (int)bug->severity : -1, SEV_ERROR, "removed later: still an error");
	is(r.worst, SEV_ERROR, "removed later: the check's verdict is error");
	is(r.converted[RC_WARN_ONCE], 1, "removed later: one conversion counted");
	check_result_clear(&r);
	free(se.patches);
}

/* check_series() of diffs[0..n), one patch each. */
static int run_series(struct check_result *r, const char *const *diffs, int n)
{
	struct series se = SERIES_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	int ret;

	ALLOC_GROW(se.patches, (size_t)n, se.alloc);
	memset(se.patches, 0, n * sizeof(*se.patches));
	se.nr = n;
	for (int i = 0; i < n; i++) {
		se.patches[i].index = i + 1;
		se.patches[i].total = n;
		se.patches[i].diff = diffs[i];
		se.patches[i].diff_len = strlen(diffs[i]);
	}
	o.rules = &rs;
	check_result_clear(r);
	ret = check_series(r, &se, &o);
	free(se.patches);
	return ret;
}

/*
 * Issue 34: a check moved into a helper, in the same patch or a later
 * one, is neither new nor removed: no objection, no thanks.  Not when
 * the removal comes first in a later patch than the addition (it may
 * remove that very call), nor for a call that tests nothing named.
 */
static void test_series_moves(void)
{
	static const char rm[] =
		"diff --git a/fs/a.c b/fs/a.c\n--- a/fs/a.c\n+++ b/fs/a.c\n"
		"@@ -10,4 +10,3 @@ static int a(struct inode *inode)\n"
		" \tint ret;\n-\tBUG_ON(!inode->i_sb);\n \tret = 0;\n \treturn ret;\n";
	static const char add[] =
		"diff --git a/fs/b.c b/fs/b.c\n--- a/fs/b.c\n+++ b/fs/b.c\n"
		"@@ -40,3 +40,4 @@ static void b_helper(struct inode *inode)\n"
		" {\n+\tBUG_ON( !inode->i_sb );\n \tb();\n }\n";
	static const char one[] =
		"diff --git a/fs/a.c b/fs/a.c\n--- a/fs/a.c\n+++ b/fs/a.c\n"
		"@@ -10,4 +10,3 @@ static int a(struct inode *inode)\n"
		" \tint ret;\n-\tBUG_ON(!inode->i_sb);\n \tret = 0;\n \treturn ret;\n"
		"diff --git a/fs/b.c b/fs/b.c\n--- a/fs/b.c\n+++ b/fs/b.c\n"
		"@@ -40,3 +40,4 @@ static void b_helper(struct inode *inode)\n"
		" {\n+\tBUG_ON(!inode->i_sb);\n \tb();\n }\n";
	static const char rm1[] =
		"diff --git a/fs/a.c b/fs/a.c\n--- a/fs/a.c\n+++ b/fs/a.c\n"
		"@@ -10,3 +10,2 @@ static int a(void)\n \tint ret;\n-\tBUG_ON(1);\n \treturn 0;\n";
	static const char add1[] =
		"diff --git a/fs/b.c b/fs/b.c\n--- a/fs/b.c\n+++ b/fs/b.c\n"
		"@@ -40,2 +40,3 @@ static void b(void)\n {\n+\tBUG_ON(1);\n }\n";
	const char *const later[] = { rm, add }, *const first_added[] = { add, rm };
	const char *const same[] = { one }, *const constant[] = { rm1, add1 };
	struct check_result r = CHECK_RESULT_INIT;

	is(run_series(&r, later, 2), 0, "series move: checked");
	ok(r.nr == 2 && r.v[0].moved && r.v[1].moved && r.v[0].severity == SEV_INFO &&
	   r.v[1].severity == SEV_INFO, "moved into a helper by a later patch: both sides moved, info");
	ok(r.nr == 2 && !r.removed[RC_BUG] && !r.added[RC_BUG] && r.moved[RC_BUG] == 1 &&
	   r.worst == SEV_INFO, "  counted as one move: nothing added, nothing removed");
	ok(r.nr == 2 && !strcmp(r.v[0].message, "moved to fs/b.c:41 (patch 2), unchanged: not a removal") &&
	   !strcmp(r.v[1].message, "the call removed at fs/a.c:11 (patch 1), moved here unchanged: "
		   "neither new nor removed"), "  each side names the other");
	is(run_series(&r, same, 1), 0, "series move in one patch: checked");
	ok(r.nr == 2 && r.v[0].moved && r.v[1].moved && r.worst == SEV_INFO,
	   "moved to another function of the same patch: a move");
	is(run_series(&r, first_added, 2), 0, "added, then removed: checked");
	ok(r.nr == 2 && !r.v[0].moved && !r.v[1].moved && r.worst == SEV_ERROR,
	   "a removal in a later patch than the addition: not a move");
	is(run_series(&r, constant, 2), 0, "BUG_ON(1): checked");
	ok(r.nr == 2 && !r.v[0].moved && !r.v[1].moved && r.worst == SEV_ERROR,
	   "BUG_ON(1) removed here, added there: two calls, not a move");
	check_result_clear(&r);
}

/*
 * The same check reshaped as it moved (f2fs 2020, "rework filename
 * handling"): `if (unlikely(C)) { WARN_ON(1); ...` removed from one
 * function and `if (WARN_ON(C'))` added to a helper, C' being C with
 * a struct now reached through a pointer.  Not when the conditions
 * differ, the if holds more than the condition, or the macro changed.
 */
static void test_reshaped_moves(void)
{
	static const char *const rm_if[] = {
		"-\tif (unlikely(fname.len > NAME_LEN)) {\n-\t\tWARN_ON(1);\n",
		"-\tif (fname.len > NAME_LEN)\n-\t\tWARN_ON(true);\n",
		"-\tif (fname.len > NAME_LEN) {\n-\t\tWARN_ON(1);\n",
		"-\tif (fname.len >= NAME_LEN) {\n-\t\tWARN_ON(1);\n",
		"-\tif (fname.len > NAME_LEN && x) {\n-\t\tWARN_ON(1);\n",
		"-\tif (fname.len > NAME_LEN) {\n-\t\tBUG_ON(1);\n",
		"-\tif (fname.len > NAME_LEN) {\n-\t\tv = 1;\n-\t\tWARN_ON(1);\n",
	};
	static const bool moved[] = { true, true, true, false, false, false, false };
	struct strbuf d = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(rm_if); i++) {
		const char *diffs[1];

		int gone = 0;

		for (const char *p = rm_if[i]; *p; p++)
			gone += *p == '\n';
		strbuf_reset(&d);
		strbuf_addf(&d, "diff --git a/fs/r.c b/fs/r.c\n--- a/fs/r.c\n+++ b/fs/r.c\n"
			    "@@ -10,1 +10,5 @@ static int helper(struct fname *fname)\n"
			    " {\n+\tif (WARN_ON(fname->len > NAME_LEN))\n+\t\treturn -1;\n"
			    "+\treturn 0;\n+}\n"
			    "@@ -40,%d +44,2 @@ static int recover(struct inode *inode)\n"
			    " \tint err;\n%s \treturn err;\n", gone + 2, rm_if[i]);
		diffs[0] = d.buf;
		is(run_series(&r, diffs, 1), 0, "reshaped move %zu: checked", i);
		if (moved[i])
			ok(r.nr == 2 && r.v[0].moved && r.v[1].moved && r.worst == SEV_INFO &&
			   strstr(r.v[0].message, "with its condition the same") &&
			   strstr(r.v[1].message, "its condition the same: not a removal"),
			   "  one check moved (%zu findings: %s)", r.nr, r.nr ? r.v[0].message : "-");
		else
			ok(r.nr == 2 && !r.v[0].moved && !r.v[1].moved,
			   "  two calls (%zu findings: %s)", r.nr, r.nr ? r.v[0].message : "-");
	}
	strbuf_release(&d);
	check_result_clear(&r);
}

int main(void)
{
	const char *top = getenv("WW_TOP");
	struct strbuf dir = STRBUF_INIT;

	strbuf_addf(&dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, dir.buf) < 0) {
		printf("Bail out! cannot load %s: %s\n", dir.buf, error_last());
		return 1;
	}
	test_added_removed_context();
	test_modified();
	test_filter_kept();
	test_functions();
	test_multiline_and_window();
	test_moves_and_conversions();
	test_conversion_distance();
	test_not_moved();
	test_long_mixed_hunk();
	test_not_definitions();
	test_carried();
	test_overrides_and_skips();
	test_defines();
	test_binary_and_errors();
	test_tree_wrappers();
	test_parse_once();
	test_removed_later();
	test_series_moves();
	test_reshaped_moves();
	ruleset_release(&rs);
	strbuf_release(&dir);
	return done_testing();
}
