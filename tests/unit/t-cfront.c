/*
 * cfront: the C front end on hostile text.  The screen (every directive
 * and operator that makes a preprocessor open a file, in every spelling
 * that reaches it: spliced lines, comments, trigraphs, digraphs), the
 * include cycles of a scratch copy, and the sandbox: a compile or a parse
 * sees the trees and nothing else of the host, and its limits hold.
 */
#include "cfront.h"
#include "child.h"
#include "env.h"
#include "tap.h"
#include "tmpdir.h"

#include <limits.h>
#include <unistd.h>

static char top[] = "/tmp/ww-t-cfront-XXXXXX";
static struct strbuf tree = STRBUF_INIT, scratch = STRBUF_INIT;

/* Screen `text` as drivers/misc/frob.c: 0, or the refusal's message. */
static int screen(struct strbuf *why, const char *text)
{
	struct cfront cf = CFRONT_INIT;
	int ret;

	cf.tree = tree.buf;
	cf.scratch = scratch.buf;
	ret = cfront_screen(&cf, "drivers/misc/frob.c", text, strlen(text));
	strbuf_reset(why);
	if (ret)
		strbuf_addstr(why, error_last());
	error_clear();
	return ret;
}

static void refused(const char *text, const char *want, const char *what)
{
	struct strbuf why = STRBUF_INIT;
	int ret = screen(&why, text);

	if (!ok(ret == WW_EINPUT && !strcmp(why.buf, want), "refused: %s", what))
		printf("# ret %d\n# got  [%s]\n# want [%s]\n", ret, why.buf, want);
	strbuf_release(&why);
}

static void allowed(const char *text, const char *what)
{
	struct strbuf why = STRBUF_INIT;

	if (!ok(!screen(&why, text), "allowed: %s", what))
		printf("# %s\n", why.buf);
	strbuf_release(&why);
}

static void test_screen(void)
{
	const char *p = "drivers/misc/frob.c";
	struct strbuf want = STRBUF_INIT;

#define WANT(line, rest) (strbuf_reset(&want), strbuf_addf(&want, "%s:%d: %s", p, line, rest), want.buf)
	/* What the kernel does. */
	allowed("#include <linux/kernel.h>\n#include \"frob.h\"\n#include \"../misc2/x.h\"\n"
		"#include \"../../include/y.h\"\n#include <../drivers/ata/ahci.h>\n",
		"angled names, quoted names beside the file, .. that stays in the tree and is there");
	allowed("#ifdef __has_include\n#if __has_include(\"errata/abi-1.h\")\n#endif\n#endif\n"
		"#ifndef __has_include\n#endif\n#if defined(__has_include) && __has_include(<linux/x.h>)\n#endif\n",
		"__has_include as landlock uses it (#ifdef, defined, a call)");
	allowed("const char *s = \"#include \\\"/etc/passwd\\\"\"; /* #include \"/dev/zero\" */\n"
		"// __has_include(\"/etc/shadow\")\nint __has_include_x;\n",
		"the words in a string, a comment, a longer identifier");
	allowed("#pragma once\n#pragma GCC diagnostic push\n", "other pragmas");

	/* Files outside the tree. */
	refused("int a;\n#include \"/dev/zero\"\n", WANT(2, "#include \"/dev/zero\": an absolute path"),
		"an absolute #include");
	refused("#include </etc/passwd>\n", WANT(1, "#include \"/etc/passwd\": an absolute path"),
		"an absolute angled #include");
	refused("#include \"../../../etc/shadow\"\n",
		WANT(1, "#include \"../../../etc/shadow\": a path that leaves the tree"),
		"a quoted name that climbs out from beside the file");
	refused("#include \"../../etc/shadow\"\n",
		WANT(1, "#include \"../../etc/shadow\": a path that leaves the tree from the "
		     "include directories"),
		"... or from include/, when it is not beside the file");
	refused("#include <../../etc/shadow>\n",
		WANT(1, "#include \"../../etc/shadow\": a path that leaves the tree"),
		"an angled name that climbs out of include/");
	refused("#include_next \"/etc/passwd\"\n#import \"x\"\n",
		WANT(1, "#include_next \"/etc/passwd\": an absolute path"), "#include_next");
	refused("#import \"/etc/passwd\"\n", WANT(1, "#import \"/etc/passwd\": an absolute path"),
		"#import");
	refused("#embed \"/dev/urandom\"\n", WANT(1, "#embed \"/dev/urandom\": an absolute path"),
		"#embed");
	refused("#if __has_include(\"/etc/passwd\")\n#error host\n#endif\n",
		WANT(1, "__has_include \"/etc/passwd\": an absolute path"), "__has_include");
	refused("#if __has_include_next(</etc/passwd>)\n#endif\n",
		WANT(1, "__has_include_next \"/etc/passwd\": an absolute path"), "__has_include_next");
	refused("#if __has_embed(\"/etc/passwd\")\n#endif\n",
		WANT(1, "__has_embed \"/etc/passwd\": an absolute path"), "__has_embed");
	refused("#define P __has_include\n#if P(\"/etc/passwd\")\n#endif\n",
		WANT(1, "__has_include: used other than as a call"), "__has_include renamed by a macro");
	refused("#define F \"/etc/passwd\"\n#include F\n",
		WANT(2, "#include: a file name computed by a macro"), "a computed #include");
	refused("#if __has_include(F)\n#endif\n",
		WANT(1, "__has_include: a file name computed by a macro"), "a computed __has_include");
	refused("#pragma GCC dependency \"/etc/passwd\"\n",
		WANT(1, "#pragma: a dependency pragma reads a file"), "#pragma GCC dependency");
	refused("_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n",
		WANT(1, "_Pragma: a dependency pragma reads a file"), "_Pragma dependency");

	/* Spellings that reach the preprocessor all the same. */
	refused("#inc\\\nlude \"/dev/zero\"\n", WANT(1, "#include \"/dev/zero\": an absolute path"),
		"a spliced directive");
	refused("  #  /* x\n */ include /* y */ \"/dev/zero\"\n",
		WANT(1, "#include \"/dev/zero\": an absolute path"), "comments between the words");
	refused("?\?=include \"/dev/zero\"\n", WANT(1, "#include \"/dev/zero\": an absolute path"),
		"a trigraph #");
	refused("%:include \"/dev/zero\"\n", WANT(1, "#include \"/dev/zero\": an absolute path"),
		"a digraph #");
	refused("int x; // a comment ending in a splice \\\n#include \"/dev/zero\"\nint y;\n#include \"/dev/zero\"\n",
		WANT(4, "#include \"/dev/zero\": an absolute path"),
		"a // comment spliced onto the next line hides it; the line counts stay right");

	/* The file itself, and files that are not regular. */
	refused("#include \"frob.c\"\n#include \"frob.c\"\n",
		WANT(1, "#include \"frob.c\": the file itself"), "a file including itself");
	refused("#include \"zero.h\"\n", WANT(1, "#include \"zero.h\": not a regular file of the tree"),
		"a link the series made to /dev/zero");
	refused("#include \"out.h\"\n", WANT(1, "#include \"out.h\": not a regular file of the tree"),
		"a link in the tree to a file outside it");
#undef WANT
	strbuf_release(&want);
}

/*
 * Token pasting (issue 40): a __has_include the preprocessor builds out
 * of pieces is never seen as one, so the pieces are refused, and the
 * flags of a planted .o.cmd are screened like the file's own #defines.
 */
static void test_screen_pasting(void)
{
	const char *p = "drivers/misc/frob.c";
	struct strbuf want = STRBUF_INIT;
	struct cfront cf = CFRONT_INIT;
	struct strvec flags = STRVEC_INIT;
	const char *text = "int f(void);\n";
	int rets[1];
	struct cfacts facts[1] = { CFACTS_INIT };
	struct cfront_call call = { 1, "WARN_ON" };
	int ret;

#define WANT(line, rest) (strbuf_reset(&want), strbuf_addf(&want, "%s:%d: %s", p, line, rest), want.buf)
	refused("#define H(x) __has_include(x)\n#if H(\"/etc/passwd\")\n#error host\n#endif\n",
		WANT(1, "__has_include: a file name computed by a macro"),
		"a macro that passes its argument to __has_include");
	refused("#define CAT(a, b) a ## b\n#define XCAT(a, b) CAT(a, b)\n"
		"#if XCAT(__has_, include)(\"/etc/passwd\")\n#error host\n#endif\n",
		WANT(3, "__has_: a piece token pasting can make __has_include of"),
		"__has_include pasted from __has_ and include");
	refused("#define U(x) _ ## x\n",
		WANT(1, "_: a piece token pasting can make __has_include of"),
		"a lone _ to paste onto");
	refused("#if SYSCALL_DEFINE0(_has_include)(\"/etc/passwd\")\n#endif\n",
		WANT(1, "_has_include: a piece token pasting can make __has_include of"),
		"the rest of the name, for a base-tree macro that pastes _ onto its argument");
	refused("#define C(a, b) a ## b\n#if C(__has_inc, lude_next)(<x.h>)\n#endif\n",
		WANT(2, "__has_inc: a piece token pasting can make __has_include of"),
		"__has_include_next pasted");
	refused("#define S(x) #x\n#define XS(x) S(x)\n_Pragma(XS(GCC depend ## ency \"/etc/passwd\"))\n",
		WANT(3, "_Pragma: a pragma computed by a macro"),
		"a dependency pragma pasted inside _Pragma");
	refused("#define PR(x) __PASTE(_, Pragma)(x)\n",
		WANT(1, "_: a piece token pasting can make __has_include of"), "_Pragma pasted");
	allowed("#define __PASTE(a, b) ___PASTE(a, b)\n#define ___PASTE(a, b) a ## b\n"
		"struct l { struct l *next; int has; int include, embed, __hash; };\n"
		"_Pragma(\"GCC diagnostic push\")\n#include_next <x.h>\nint ___ = 1;\n",
		"pasting of other names, next, has, include, a _Pragma of a literal");
#undef WANT

	cf.tree = tree.buf;
	cf.scratch = scratch.buf;
	strvec_pushl(&flags, "-D__KERNEL__", "-DKBUILD_MODNAME=\"frob\"", "-DP=__has_", NULL);
	ret = cfront_facts(facts, rets, &cf, p, "/nowhere/frob.c", text, strlen(text), &call, 1,
			   &flags, NULL, NULL);
	ok(ret == WW_EINPUT && !strcmp(error_last(), "the flag '-DP=__has_': __has_: a piece token "
				       "pasting can make __has_include of"),
	   "a build's -D flag holding a piece is refused (%s)", error_last());
	error_clear();
	strvec_pop(&flags);
	strvec_push(&flags, "-DQ=__has_include(\"/etc/passwd\")");
	ret = cfront_facts(facts, rets, &cf, p, "/nowhere/frob.c", text, strlen(text), &call, 1,
			   &flags, NULL, NULL);
	ok(ret == WW_EINPUT && strstr(error_last(), "__has_include \"/etc/passwd\": an absolute path"),
	   "  and one holding a __has_include of a host path (%s)", error_last());
	error_clear();
	strvec_pop(&flags);
	ret = cfront_facts(facts, rets, &cf, p, "/nowhere/frob.c", text, strlen(text), &call, 1,
			   &flags, NULL, NULL);
	ok(ret == WW_ENOTFOUND, "the kernel's own -D flags pass the screen");
	error_clear();
	strvec_clear(&flags);
	strbuf_release(&want);
}

static void test_screen_copy(void)
{
	struct cfront cf = CFRONT_INIT;
	struct strbuf s2 = STRBUF_INIT;
	int ret;

	strbuf_addf(&s2, "%s/copy2", top);
	cf.tree = tree.buf;
	cf.scratch = s2.buf;
	tmp_put(top, "copy2/drivers/misc/frob.c", "#include \"frob.h\"\nint f(void) { return 0; }\n");
	tmp_put(top, "copy2/drivers/misc/frob.h", "#ifndef FROB_H\n#define FROB_H\n#include \"util.h\"\n#endif\n");
	tmp_put(top, "copy2/drivers/misc/util.h", "int g(void);\n");
	ok(!cfront_screen_copy(&cf), "a copy whose files include each other without a cycle");
	error_clear();
	tmp_put(top, "copy2/drivers/misc/util.h", "#include \"frob.h\"\n#include \"frob.h\"\n");
	ret = cfront_screen_copy(&cf);
	ok(ret == WW_EINPUT && strstr(error_last(), "an include cycle") &&
	   strstr(error_last(), "frob.h"), "an include cycle among the touched files: refused (%s)",
	   error_last());
	error_clear();
	tmp_put(top, "copy2/drivers/misc/util.h", "#include </dev/zero>\n");
	ret = cfront_screen_copy(&cf);
	ok(ret == WW_EINPUT && strstr(error_last(), "drivers/misc/util.h:1: #include \"/dev/zero\""),
	   "a touched header is screened too (%s)", error_last());
	error_clear();
	strbuf_release(&s2);
}

/* The sandbox: a compile sees the trees, not the host; the limits hold. */
static void test_sandbox(void)
{
	struct cfront cf = CFRONT_INIT;
	struct strvec argv = STRVEC_INIT;
	struct strbuf file = STRBUF_INIT, text = STRBUF_INIT;
	struct child probe = CHILD_INIT;

	strvec_pushl(&probe.args, "bwrap", "--version", NULL);
	if (child_run(&probe) < 0 || probe.status) {
		skip("bwrap cannot run here", "the sandbox's compiles");
		child_release(&probe);
		return;
	}
	child_release(&probe);
	cf.tree = tree.buf;
	cf.scratch = scratch.buf;
	strbuf_addstr(&text, "int f(void) { return 0; }\n");
	strbuf_addf(&file, "%s/drivers/misc/ok.c", scratch.buf);
	strbuf_write_file(&text, file.buf);
	strvec_pushl(&argv, "gcc", "-fsyntax-only", NULL);
	is(cfront_compile(&cf, "drivers/misc/ok.c", file.buf, &text, &argv, NULL), 1,
	   "a clean file compiles in the sandbox");
	error_clear();
	strvec_push(&argv, "-include/etc/passwd");
	is(cfront_compile(&cf, "drivers/misc/ok.c", file.buf, &text, &argv, NULL), 0,
	   "a host file named past the allowlist is not there to read (/etc/passwd)");
	error_clear();
	strvec_pop(&argv);
	strvec_pushf(&argv, "-include%s/../secret.h", tree.buf);
	is(cfront_compile(&cf, "drivers/misc/ok.c", file.buf, &text, &argv, NULL), 0,
	   "nor a file beside the tree");
	error_clear();
	strvec_pop(&argv);
	strvec_push(&argv, "-include/dev/zero");
	is(cfront_compile(&cf, "drivers/misc/ok.c", file.buf, &text, &argv, NULL), 0,
	   "nor /dev/zero (only /dev/null is there)");
	error_clear();
	strvec_pop(&argv);
	strvec_pushf(&argv, "-include%s/drivers/misc/tree.h", tree.buf);
	is(cfront_compile(&cf, "drivers/misc/ok.c", file.buf, &text, &argv, NULL), 1,
	   "a header of the tree is");
	error_clear();
	strvec_pop(&argv);
	strvec_clear(&argv);
	strvec_pushl(&argv, "gcc", "-c", NULL);
	strvec_pushf(&argv, "-o%s/drivers/misc/ok.o", scratch.buf);
	ok(cfront_compile(&cf, "drivers/misc/ok.c", file.buf, &text, &argv, NULL) <= 0,
	   "nothing is writable, not even the scratch copy (gcc -c fails)");
	ok(!tmp_exists(scratch.buf, "drivers/misc/ok.o"), "... no object appeared");
	error_clear();
	strvec_clear(&argv);
	strbuf_reset(&text);
	strbuf_addstr(&text, "#include \"/dev/zero\"\n");
	strvec_pushl(&argv, "gcc", "-fsyntax-only", NULL);
	ok(cfront_compile(&cf, "drivers/misc/ok.c", file.buf, &text, &argv, NULL) == WW_EINPUT &&
	   strstr(error_last(), "an absolute path"), "a compile's text is screened first");
	error_clear();
	strvec_clear(&argv);
	strbuf_release(&file);
	strbuf_release(&text);
}

/* Facts from the child (warnwatch-all cfacts, beside the unit tests). */
static void test_facts(void)
{
	struct cfront cf = CFRONT_INIT;
	struct cfacts facts[2] = { CFACTS_INIT, CFACTS_INIT };
	struct cfront_call calls[2] = { { 4, "BUG_ON" }, { 9, "WARN_ON" } };
	int rets[2];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *text = "#define BUG_ON(c) do { if (c) __builtin_trap(); } while (0)\n"
		"int f(int *p)\n{\n\tBUG_ON(!p);\n\treturn 0;\n}\n"
		"#define WARN_ON(c) (c)\nvoid g(int x)\n{\n\twhile (x--)\n\t\tWARN_ON(x < 0);\n}\n";
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;
	int ret;

	exe[n > 0 ? n : 0] = '\0';
	/* build/unit/t-cfront: warnwatch-all is in build/ */
	strbuf_addstr(&dir, exe);
	for (int up = 0; up < 2 && strrchr(dir.buf, '/'); up++)
		strbuf_setlen(&dir, strrchr(dir.buf, '/') - dir.buf);
	setenv("WARNWATCH_EXEC_PATH", dir.buf, 1);
	env_reload();
	if (cfront_init(&cf, tree.buf, scratch.buf)) {
		skip(error_last(), "facts from the sandboxed child");
		error_clear();
		goto out;
	}
	strbuf_addf(&path, "%s/drivers/misc/two.c", scratch.buf);
	calls[1].line = 11;
	ret = cfront_facts(facts, rets, &cf, "drivers/misc/two.c", path.buf, text, strlen(text),
			   calls, 2, NULL, NULL, NULL);
	if (!ok(!ret && !rets[0] && !rets[1] && facts[0].found && facts[1].found,
		"two calls of one file, one child: both read"))
		printf("# ret %d (%s), rets %d %d\n", ret, error_last(), rets[0], rets[1]);
	ok(facts[0].function && !strcmp(facts[0].function, "f") && facts[0].ret == CF_RET_INT &&
	   facts[0].statement_macro, "... the first: f(), returns int, a statement macro");
	ok(facts[1].function && !strcmp(facts[1].function, "g") && facts[1].ret == CF_RET_VOID &&
	   facts[1].cond && !strcmp(facts[1].cond, "x < 0"), "... the second: g(), void, its condition");
	/* The loop fact is read in the child and crosses in its answer. */
	ok(facts[0].loop == INLOOP_NO && facts[1].loop == INLOOP_YES,
	   "... the loop fact: the first in no loop, the second in a while (%d %d)",
	   facts[0].loop, facts[1].loop);
	error_clear();
	cfacts_release(&facts[0]);
	cfacts_release(&facts[1]);
	ret = cfront_facts(facts, rets, &cf, "drivers/misc/two.c", path.buf,
			   "#include \"/etc/passwd\"\n", 23, calls, 1, NULL, NULL, NULL);
	ok(ret == WW_EINPUT && strstr(error_last(), "an absolute path"),
	   "a text the screen refuses starts no child");
	error_clear();
out:
	unsetenv("WARNWATCH_EXEC_PATH");
	env_reload();
	cfront_release(&cf);
	strbuf_release(&path);
	strbuf_release(&dir);
}

int main(void)
{
	struct strbuf link = STRBUF_INIT;

	if (!mkdtemp(top)) {
		printf("1..0 # SKIP mkdtemp: %s\n", strerror(errno));
		return 0;
	}
	strbuf_addf(&tree, "%s/tree", top);
	strbuf_addf(&scratch, "%s/copy", top);
	tmp_put(top, "tree/drivers/misc/frob.c", "int f(void);\n");
	tmp_put(top, "tree/drivers/misc/tree.h", "int tree_h;\n");
	tmp_put(top, "tree/drivers/misc2/x.h", "\n");
	tmp_put(top, "tree/include/y.h", "\n");
	tmp_put(top, "secret.h", "#error the host's file was read\n");
	tmp_put(top, "copy/drivers/misc/frob.c", "int f(void);\n");
	strbuf_addf(&link, "%s/drivers/misc/zero.h", scratch.buf);
	if (symlink("/dev/zero", link.buf))
		printf("# symlink: %s\n", strerror(errno));
	strbuf_reset(&link);
	strbuf_addf(&link, "%s/drivers/misc/out.h", tree.buf);
	if (symlink("../../../secret.h", link.buf))
		printf("# symlink: %s\n", strerror(errno));
	strbuf_release(&link);

	test_screen();
	test_screen_pasting();
	test_screen_copy();
	test_sandbox();
	test_facts();
	tmp_remove(top);
	strbuf_release(&tree);
	strbuf_release(&scratch);
	return done_testing();
}
