/*
 * inloop: is a line of a C function inside one of its loops?  The review
 * says how to leave the function only when the answer is "no" (issue 34:
 * "leave the function" inside cgroup_init_early()'s loop over subsystems
 * would skip every later one).  Each case is a function whose line
 * marked "@" is asked about.
 */
#include "inloop.h"
#include "tap.h"

/* inloop_at() of the line holding "@" in `text`, the function's
 * definition on line 1 unless `def` says otherwise. */
static enum inloop at(const char *text, int def)
{
	int line = 1;

	for (const char *p = text; *p && *p != '@'; p++)
		line += *p == '\n';
	return inloop_at(text, strlen(text), def, line);
}

static void check(const char *text, enum inloop want, const char *what)
{
	enum inloop got = at(text, 1);

	if (!ok(got == want, "%s: %s", inloop_name(want), what))
		printf("# got %s\n", inloop_name(got));
}

int main(void)
{
	/* Not in a loop. */
	check("int f(int x)\n{\n\tif (x) {\n\t\tWARN_ON(x); /* @ */\n\t}\n\treturn 0;\n}\n",
	      INLOOP_NO, "an if's block");
	check("int f(int x)\n{\n\tfor (;;)\n\t\tx++;\n\tWARN_ON(x); /* @ */\n\treturn 0;\n}\n",
	      INLOOP_NO, "after an unbraced for body");
	check("int f(int x)\n{\n\twhile (x)\n\t\tx--;\n\tdo {\n\t\tx++;\n\t} while (0);\n"
	      "\tWARN_ON(x); /* @ */\n\treturn 0;\n}\n", INLOOP_NO, "after a while and a do-while");
	check("int f(int x)\n{\n\tscoped_guard(spinlock, &l) {\n\t\tWARN_ON(x); /* @ */\n\t}\n}\n",
	      INLOOP_NO, "a scoped_guard() block");
	check("int f(int x)\n{\n\tconst char *s = \"for (;;) {\";\n\t/* while (1) { */\n"
	      "#define LOOP for (;;) {\n\tWARN_ON(x); /* @ */\n}\n",
	      INLOOP_NO, "loops in a string, a comment and a directive do not count");
	check("static int __init\nf(void)\n{\n\tint a[] = { 1, 2 };\n\tBUG_ON(!a[0]); /* @ */\n}\n",
	      INLOOP_NO, "an initialiser's braces are no loop");

	/* In one. */
	check("int f(int x)\n{\n\tfor (int i = 0; i < x; i++) {\n\t\tif (i)\n"
	      "\t\t\tWARN_ON(x); /* @ */\n\t}\n}\n", INLOOP_YES, "an if inside a for");
	check("int f(int x)\n{\n\twhile (x--)\n\t\tWARN_ON(x); /* @ */\n}\n",
	      INLOOP_YES, "an unbraced while body");
	check("int f(int x)\n{\n\tdo\n\t\tWARN_ON(x); /* @ */\n\twhile (x--);\n}\n",
	      INLOOP_YES, "an unbraced do body");
	check("int __init cgroup_init_early(void)\n{\n\tfor_each_subsys(ss, i) {\n"
	      "\t\tWARN(!ss->css_alloc, \"x\"); /* @ */\n\t}\n}\n",
	      INLOOP_YES, "for_each_subsys() of cgroup_init_early()");
	check("void f(struct list_head *h)\n{\n\tlist_for_each_entry(p, h, node) {\n"
	      "\t\tscoped_guard(mutex, &m) {\n\t\t\tWARN_ON(!p); /* @ */\n\t\t}\n\t}\n}\n",
	      INLOOP_YES, "a guard inside list_for_each_entry()");

	/* Not known. */
	check("int f(int x)\n{\n\tfrob_all(x) {\n\t\tWARN_ON(x); /* @ */\n\t}\n}\n",
	      INLOOP_UNKNOWN, "a block of a macro that may be a loop");
	check("int f(int x)\n{\n\treturn 0;\n}\nint g(void)\n{\n\tWARN_ON(1); /* @ */\n}\n",
	      INLOOP_UNKNOWN, "the function ended above the line");
	ok(at("int f(int x)\n{\n\tWARN_ON(x); /* @ */\n}\n", 5) == INLOOP_UNKNOWN,
	   "unknown: the definition below the line");
	ok(inloop_at(NULL, 0, 1, 2) == INLOOP_UNKNOWN, "unknown: no text");

	/* Its words, as the child's answer and the reply's record say it. */
	ok(inloop_from_name("no") == INLOOP_NO && inloop_from_name("yes") == INLOOP_YES &&
	   inloop_from_name("unknown") == INLOOP_UNKNOWN && inloop_from_name("maybe") ==
	   INLOOP_UNKNOWN && inloop_from_name(NULL) == INLOOP_UNKNOWN,
	   "names back: a word not known is unknown");
	is_str(inloop_name(INLOOP_NO), "no", "names: no");
	return done_testing();
}
