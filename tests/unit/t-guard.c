/*
 * Unit tests for bot/check/guard.c through check_diff() (issue 38.2): a
 * wrapper that only WARNs under a debug option (#if around its #define)
 * or a runtime debug switch (an if in its body) is a debug-only finding,
 * never "every use is a WARN"; a WARN_ON(1) first in a default: is an
 * unreachable marker, not objected to.
 */
#include "check.h"
#include "tap.h"

static struct ruleset rs = RULESET_INIT;

#define HEAD(file, start, n) \
	"diff --git a/" file " b/" file "\n--- a/" file "\n+++ b/" file "\n" \
	"@@ -" #start ",0 +" #start "," #n " @@\n"

/* check_diff() on `diff`: the one finding of kind `kind`, or NULL. */
static const struct finding *one(struct check_result *r, const char *diff,
				 enum finding_kind kind)
{
	struct check_opts o = CHECK_OPTS_INIT;
	const struct finding *f = NULL;

	o.rules = &rs;
	check_result_clear(r);
	if (check_diff(r, diff, strlen(diff), 1, &o) < 0)
		printf("# check_diff: %s\n", error_last());
	for (size_t i = 0; i < r->nr; i++)
		if (r->v[i].kind == kind)
			f = &r->v[i];
	return f;
}

static const char config_guarded[] =
	HEAD("fs/fuse/iomap_priv.h", 1, 17)
	"+#if IS_ENABLED(CONFIG_FUSE_IOMAP_DEBUG)\n"
	"+# define ASSERT_OK(condition) do { } while (0)\n"
	"+# define BAD_DATA(condition) ({\t\t\t\t\t\t\\\n"
	"+\tint __cond = !!(condition);\t\t\t\t\t\\\n"
	"+\tWARN(__cond, \"Bad mapping: %s, func: %s, line: %d\",\t\t\\\n"
	"+\t     #condition, __func__, __LINE__);\t\t\t\t\\\n"
	"+\t__cond;\t\t\t\t\t\t\t\t\\\n"
	"+})\n"
	"+#else\n"
	"+# define BAD_DATA(condition) (condition)\n"
	"+#endif\n"
	"+\n"
	"+static inline int fuse_iomap_ok(int x)\n"
	"+{\n"
	"+\treturn BAD_DATA(x < 0) ? -EIO : 0;\n"
	"+}\n"
	"+\n";

static const char runtime_guarded[] =
	HEAD("fs/fuse/iomap_priv.h", 1, 7)
	"+extern bool fuse_iomap_debug;\n"
	"+# define BAD_DATA(condition) ({\t\t\t\t\t\t\\\n"
	"+\tint __cond = !!(condition);\t\t\t\t\t\\\n"
	"+\tif (unlikely(__cond && fuse_iomap_debug))\t\t\t\\\n"
	"+\t\tWARN(1, \"Bad mapping: %s\", #condition);\t\t\t\\\n"
	"+\tunlikely(__cond);\t\t\t\t\t\t\\\n"
	"+})\n";

static const char switch_in_warn[] =
	HEAD("fs/fuse/iomap_priv.h", 1, 2)
	"+#define BAD_DATA(condition) \\\n"
	"+\t({ bool __c = (condition); WARN(__c && fuse_dbg_on, \"bad\"); __c; })\n";

static const char ifndef_else[] =
	HEAD("drivers/foo/foo.h", 1, 5)
	"+#ifndef CONFIG_FOO_DEBUG\n"
	"+#define FOO_CHECK(c) ((void)(c))\n"
	"+#else\n"
	"+#define FOO_CHECK(c) WARN_ON(c)\n"
	"+#endif\n";

static const char either[] =
	HEAD("drivers/foo/foo.h", 1, 3)
	"+#if defined(CONFIG_FOO_DEBUG) || defined(CONFIG_COMPILE_TEST)\n"
	"+#define FOO_CHECK(c) WARN_ON(c)\n"
	"+#endif\n";

static const char unguarded[] =
	HEAD("fs/fuse/iomap_priv.h", 1, 4)
	"+# define BAD_DATA(condition) ({\t\t\\\n"
	"+\tint __cond = !!(condition);\t\t\\\n"
	"+\tif (__cond) WARN(1, \"Bad mapping\");\t\\\n"
	"+\t__cond; })\n";

static const char defaults[] =
	HEAD("drivers/foo/foo.c", 10, 14)
	"+static int foo_mode(enum foo_mode m)\n"
	"+{\n"
	"+\tswitch (m) {\n"
	"+\tcase FOO_A:\n"
	"+\t\treturn 1;\n"
	"+\tcase FOO_B:\n"
	"+\t\treturn 2;\n"
	"+\tdefault:\n"
	"+\t\tWARN_ON(1);\n"
	"+\t\treturn -EINVAL;\n"
	"+\t}\n"
	"+}\n"
	"+\n"
	"+\n";

/* The same call, not after a default: label; and a non-constant one. */
static const char not_default[] =
	HEAD("drivers/foo/foo.c", 10, 4)
	"+static void foo_x(int m)\n"
	"+{\n"
	"+\tif (m > 3)\n"
	"+\t\tWARN_ON(1);\n";

static const char default_cond[] =
	HEAD("drivers/foo/foo.c", 10, 3)
	"+\tswitch (m) {\n"
	"+\tdefault: WARN(m > 3, \"mode %d\\n\", m);\n"
	"+\t}\n";

static const char default_same_line[] =
	HEAD("drivers/foo/foo.c", 10, 3)
	"+\tswitch (m) {\n"
	"+\tdefault: WARN_ONCE(true, \"mode %d\\n\", m); break;\n"
	"+\t}\n";

static const char default_bug[] =
	HEAD("drivers/foo/foo.c", 10, 4)
	"+\tswitch (m) {\n"
	"+\tdefault:\n"
	"+\t\tBUG();\n"
	"+\t}\n";

/*
 * An added WARN whose condition is IS_ENABLED() of a debug option, alone
 * or &&-joined to the rest, fires only in a debug build: debug-only,
 * info (the reply says nothing of it).  Not with a || anywhere, a
 * negation, an option that is no debug option, or "debug" in another
 * name of the condition; never for a BUG.
 */
static void test_debug_condition(struct check_result *r)
{
	static const struct {
		const char *call, *guard, *what;
	} cases[] = {
		{ "WARN_ON(IS_ENABLED(CONFIG_BTRFS_DEBUG));", "CONFIG_BTRFS_DEBUG", "alone" },
		{ "WARN_ON(IS_ENABLED(CONFIG_BTRFS_DEBUG) && n > 3);", "CONFIG_BTRFS_DEBUG",
		  "first of an &&" },
		{ "WARN_ON_ONCE(n > (3 & m) && IS_ENABLED( CONFIG_XFS_DEBUG ));", "CONFIG_XFS_DEBUG",
		  "last of an &&, with blanks" },
		{ "WARN(IS_ENABLED(CONFIG_BTRFS_DEBUG), \"leak %d\", n);", "CONFIG_BTRFS_DEBUG",
		  "WARN() with a message" },
		{ "WARN_ON(IS_ENABLED(CONFIG_BTRFS_DEBUG) || n > 3);", NULL, "an || (any build)" },
		{ "WARN_ON(IS_ENABLED(CONFIG_BTRFS_DEBUG) && (n > 3 || m));", NULL,
		  "an || inside, read as any build" },
		{ "WARN_ON(!IS_ENABLED(CONFIG_BTRFS_DEBUG));", NULL, "negated" },
		{ "WARN_ON(IS_ENABLED(CONFIG_64BIT));", NULL, "no debug option" },
		{ "WARN_ON(dev->debug_count > 4);", NULL, "'debug' in another name" },
		{ "WARN_ON(n, IS_ENABLED(CONFIG_BTRFS_DEBUG));", NULL, "not the condition" },
		{ "BUG_ON(IS_ENABLED(CONFIG_BTRFS_DEBUG));", NULL, "a BUG_ON()" },
	};
	struct strbuf d = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct finding *f;

		strbuf_reset(&d);
		strbuf_addf(&d, HEAD("fs/btrfs/x.c", 1, 3) "+void f(int n, int m)\n+{\n+\t%s\n",
			    cases[i].call);
		f = one(r, d.buf, FINDING_ADDED);
		if (cases[i].guard)
			ok(f && f->guard && !strcmp(f->guard, cases[i].guard) &&
			   f->severity == SEV_INFO && f->debug &&
			   !strcmp(f->debug->id, "debug-only-warn") &&
			   strstr(f->message, "fires only when") && strstr(f->message, cases[i].guard),
			   "debug condition, %s: debug-only, info: %s", cases[i].what,
			   f ? f->message : "(none)");
		else
			ok(f && !f->guard && f->severity >= SEV_WARNING,
			   "debug condition, %s: no guard (%s)", cases[i].what, f ? f->message : "(none)");
	}
	strbuf_release(&d);
}

/*
 * A WARN_ON(1) first in the last else of an if/else-if chain is the
 * switch's default: written with ifs (linux-wireless/0063's chip
 * checks): a marker.  Not in the else of a lone if (that is WARN_ON(!c)
 * with its recovery), nor a WARN with a real condition there.
 */
static void test_else_chain(struct check_result *r)
{
	static const struct {
		const char *body, *what;
		bool marker;
	} cases[] = {
		{ "+\tif (is_a(d)) {\n+\t\tv = 1;\n+\t} else if (is_b(d)) {\n+\t\tv = 2;\n"
		  "+\t} else {\n+\t\tWARN_ON(1);\n+\t\treturn -EINVAL;\n+\t}\n",
		  "the last else of a chain", true },
		{ "+\tif (is_a(d))\n+\t\tv = 1;\n+\telse if (is_b(d))\n+\t\tv = 2;\n"
		  "+\telse\n+\t\tWARN_ONCE(true, \"chip %d\", d);\n",
		  "a chain without braces", true },
		{ "+\tif (is_a(d)) {\n+\t\tv = 1;\n+\t} else {\n+\t\tWARN_ON(1);\n"
		  "+\t\treturn -EINVAL;\n+\t}\n", "the else of a lone if", false },
		{ "+\tif (is_a(d)) {\n+\t\tv = 1;\n+\t} else if (is_b(d)) {\n+\t\tv = 2;\n"
		  "+\t} else {\n+\t\tWARN_ON(d > 3);\n+\t}\n", "a real condition", false },
		{ "+\tif (is_a(d)) {\n+\t\tif (x)\n+\t\t\tv = 1;\n+\t\telse if (y)\n"
		  "+\t\t\tv = 3;\n+\t} else {\n+\t\tWARN_ON(1);\n+\t}\n",
		  "an else if at another depth", false },
	};
	struct strbuf d = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct finding *f;
		size_t lines = 1;

		strbuf_reset(&d);

		for (const char *p = cases[i].body; *p; p++)
			lines += *p == '\n';
		strbuf_addf(&d, "diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n"
			    "--- a/drivers/foo/foo.c\n+++ b/drivers/foo/foo.c\n"
			    "@@ -1,0 +1,%zu @@\n+int f(int d)\n%s", lines, cases[i].body);
		f = one(r, d.buf, FINDING_ADDED);
		if (cases[i].marker)
			ok(f && f->unreachable && f->severity == SEV_INFO &&
			   strstr(f->message, "the last else of an if/else-if chain"),
			   "else chain, %s: a marker (%s)", cases[i].what, f ? f->message : "(none)");
		else
			ok(f && !f->unreachable, "else chain, %s: no marker (%s)", cases[i].what,
			   f ? f->message : "(none)");
	}
	strbuf_release(&d);
}

/* BUG_ON(1) in the same place stops the machine: never a marker. */
static void f_bug_end(struct check_result *r, struct strbuf *d)
{
	const struct finding *f;

	strbuf_reset(d);
	strbuf_addstr(d, "diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n"
		      "--- a/drivers/foo/foo.c\n+++ b/drivers/foo/foo.c\n"
		      "@@ -1,0 +1,7 @@\n+int f(int cur)\n+{\n+\tif (cur == A)\n"
		      "+\t\treturn 0;\n+\tBUG_ON(1);\n+\treturn -1;\n+}\n");
	f = one(r, d->buf, FINDING_ADDED);
	ok(f && !f->unreachable && f->severity == SEV_ERROR,
	   "function end, BUG_ON(1): no marker, an error");
}

/*
 * A WARN_ON(1) just before the function's final return, after a block
 * that returns, is "cannot get here" (f2fs_bdev_index()'s search loop,
 * qat_vf_pci_step_device_state()'s state arcs, both accepted without a
 * word): a marker.  Not after a plain statement, nor followed by more
 * code, nor nested, nor with a real condition.
 */
static void test_function_end(struct check_result *r)
{
	static const struct {
		const char *body, *what;
		bool marker;
	} cases[] = {
		{ "+\tfor (i = 0; i < n; i++)\n+\t\tif (dev[i] == d)\n+\t\t\treturn i;\n+\n"
		  "+\tWARN_ON(1);\n+\treturn -1;\n+}\n", "after a search loop", true },
		{ "+\tif (cur == A && new == B) {\n+\t\tstop(d);\n+\t\treturn NULL;\n+\t}\n+\n"
		  "+\t/* no other arcs */\n+\tWARN_ON(true);\n+\treturn ERR_PTR(-EINVAL);\n+}\n",
		  "after a block that returns, a comment between", true },
		{ "+\tif (cur == A)\n+\t\treturn 0;\n+\tWARN_ONCE(1, \"state %d\\n\",\n"
		  "+\t\t  cur);\n+\treturn -EINVAL;\n+}\n", "a WARN_ONCE() on two lines", true },
		{ "+\tv = 1;\n+\tWARN_ON(1);\n+\treturn -1;\n+}\n", "after a plain statement", false },
		{ "+\tif (cur == A)\n+\t\treturn 0;\n+\t*out = cur;\n+\tWARN_ON(1);\n+\treturn -1;\n+}\n",
		  "after a store through a pointer (not a comment)", false },
		{ "+\tfor (i = 0; i < n; i++)\n+\t\tsum += dev[i];\n+\tWARN_ON(1);\n+\treturn -1;\n+}\n",
		  "after a loop that does not return", false },
		{ "+\tif (cur == A) {\n+\t\tv = 1;\n+\t}\n+\tWARN_ON(1);\n+\treturn -1;\n+}\n",
		  "after a block that does not return", false },
		{ "+\tif (cur == A)\n+\t\treturn 0;\n+\tWARN_ON(1);\n+\tv = 2;\n+\treturn v;\n+}\n",
		  "followed by more code", false },
		{ "+\tif (cur == A)\n+\t\treturn 0;\n+\tWARN_ON(cur > 3);\n+\treturn -1;\n+}\n",
		  "a real condition", false },
		{ "+\tif (x) {\n+\t\tif (cur == A)\n+\t\t\treturn 0;\n+\t\tWARN_ON(1);\n"
		  "+\t\treturn -1;\n+\t}\n+\treturn 0;\n+}\n", "nested in a block", false },
	};
	struct strbuf d = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct finding *f;
		size_t lines = 2;

		strbuf_reset(&d);
		for (const char *p = cases[i].body; *p; p++)
			lines += *p == '\n';
		strbuf_addf(&d, "diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n"
			    "--- a/drivers/foo/foo.c\n+++ b/drivers/foo/foo.c\n"
			    "@@ -1,0 +1,%zu @@\n+int f(int cur)\n+{\n%s", lines, cases[i].body);
		f = one(r, d.buf, FINDING_ADDED);
		if (cases[i].marker)
			ok(f && f->unreachable && f->severity == SEV_INFO &&
			   strstr(f->message, "just before the function's final return"),
			   "function end, %s: a marker (%s)", cases[i].what, f ? f->message : "(none)");
		else
			ok(f && !f->unreachable, "function end, %s: no marker (%s)", cases[i].what,
			   f ? f->message : "(none)");
	}
	f_bug_end(r, &d);
	strbuf_release(&d);
}

int main(void)
{
	const char *top = getenv("WW_TOP");
	struct strbuf dir = STRBUF_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	const struct finding *f;

	strbuf_addf(&dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, dir.buf) < 0) {
		printf("Bail out! cannot load %s: %s\n", dir.buf, error_last());
		return 1;
	}

	f = one(&r, config_guarded, FINDING_DEFINE);
	ok(f && f->guard && !strcmp(f->guard, "CONFIG_FUSE_IOMAP_DEBUG") && !f->guard_runtime,
	   "BAD_DATA() under #if IS_ENABLED(CONFIG_FUSE_IOMAP_DEBUG): a build guard");
	ok(f && f->severity == SEV_INFO && f->debug && !strcmp(f->debug->id, "debug-only-warn"),
	   "  info, under debug-only-warn");
	ok(f && !strstr(f->message, "every use") &&
	   !strcmp(f->message, "BAD_DATA() is a WARN() only when CONFIG_FUSE_IOMAP_DEBUG is "
		   "set: a debug-build assertion"), "  and says so: %s", f ? f->message : "");
	ok(r.worst < SEV_WARNING && r.added[RC_DEBUG_ONLY] == 0,
	   "  nothing at warning; no call counted (a definition)");

	f = one(&r, runtime_guarded, FINDING_DEFINE);
	ok(f && f->guard && !strcmp(f->guard, "fuse_iomap_debug") && f->guard_runtime &&
	   f->severity == SEV_INFO, "WARN() under if (... && fuse_iomap_debug): a runtime switch");
	ok(f && strstr(f->message, "only while the debug switch fuse_iomap_debug is on"),
	   "  said: %s", f ? f->message : "");

	f = one(&r, switch_in_warn, FINDING_DEFINE);
	ok(f && f->guard && !strcmp(f->guard, "fuse_dbg_on") && f->guard_runtime,
	   "WARN(__c && fuse_dbg_on, ...): the switch in the WARN's own condition");

	f = one(&r, ifndef_else, FINDING_DEFINE);
	ok(f && f->guard && !strcmp(f->guard, "CONFIG_FOO_DEBUG") && f->severity == SEV_INFO,
	   "#ifndef CONFIG_FOO_DEBUG ... #else: the #else branch is the debug build");

	f = one(&r, either, FINDING_DEFINE);
	ok(f && !f->guard && f->severity == SEV_WARNING,
	   "#if debug || COMPILE_TEST: not debug-only, a warning");

	f = one(&r, unguarded, FINDING_DEFINE);
	ok(f && !f->guard && f->severity == SEV_WARNING && strstr(f->message, "every use"),
	   "if (__cond) WARN(): the macro's own condition guards nothing: every use WARNs");

	f = one(&r, defaults, FINDING_ADDED);
	ok(f && f->unreachable && f->severity == SEV_INFO,
	   "WARN_ON(1) first in a default: an unreachable marker, info");
	ok(f && strstr(f->message, "never reaches"), "  said: %s", f ? f->message : "");
	f = one(&r, default_same_line, FINDING_ADDED);
	ok(f && f->unreachable, "WARN_ONCE(true, ...) after default: on the same line");
	f = one(&r, not_default, FINDING_ADDED);
	ok(f && !f->unreachable && f->severity == SEV_WARNING,
	   "WARN_ON(1) under an if: not a marker, a warning");
	f = one(&r, default_cond, FINDING_ADDED);
	ok(f && !f->unreachable && f->severity == SEV_WARNING,
	   "WARN(m > 3, ...) in a default: a real condition, a warning");
	f = one(&r, default_bug, FINDING_ADDED);
	ok(f && !f->unreachable && f->severity == SEV_ERROR,
	   "BUG() in a default: still an error (it stops the machine)");

	test_debug_condition(&r);
	test_else_chain(&r);
	test_function_end(&r);
	check_result_clear(&r);
	ruleset_release(&rs);
	strbuf_release(&dir);
	return done_testing();
}
