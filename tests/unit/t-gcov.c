/*
 * Unit tests for bot/kernel-ci/gcov.c with real gcc and gcov: a small program built
 * out of tree with --coverage (source in SRC/sub/, object in BUILD/sub/,
 * like a kernel O= build), run once, its .gcda moved to another directory
 * with the build's layout (as if copied out of the guest), then per-line
 * counts for a line that ran N times, one that ran 0 times and one that
 * has no code; and the errors: no counters, counters of another build.
 */
#include "gcov.h"
#include "child.h"
#include "mkdirs.h"
#include "strbuf.h"
#include "tap.h"

#include <unistd.h>

static char tmp[] = "/tmp/t-gcov.XXXXXX";

/* Line numbers below are part of the test: keep them in step. */
static const char prog[] =
	"#include <stdlib.h>\n"			/* 1 */
	"\n"					/* 2: no code */
	"static int rare(int x)\n"		/* 3 */
	"{\n"					/* 4 */
	"\tif (x > 100)\n"			/* 5: ran 7 times */
	"\t\tabort();\n"			/* 6: ran 0 times */
	"\treturn x;\n"				/* 7 */
	"}\n"					/* 8 */
	"/* a comment */\n"			/* 9: no code */
	"int main(void)\n"			/* 10 */
	"{\n"					/* 11 */
	"\tint s = 0;\n"			/* 12: ran once */
	"\tfor (int i = 0; i < 7; i++)\n"	/* 13 */
	"\t\ts += rare(i);\n"			/* 14: ran 7 times */
	"\treturn s == 21 ? 0 : 1;\n"		/* 15 */
	"}\n";					/* 16 */

static int run(const char *dir, const char *prog0, ...)
{
	struct child c = CHILD_INIT;
	va_list ap;
	const char *a;
	int ret;

	strvec_push(&c.args, prog0);
	va_start(ap, prog0);
	while ((a = va_arg(ap, const char *)))
		strvec_push(&c.args, a);
	va_end(ap);
	c.dir = dir;
	c.timeout_ms = 60 * 1000;
	ret = child_run_ok(&c);
	child_release(&c);
	return ret;
}

static void cleanup(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "rm", "-rf", "--", tmp, NULL);
	child_run(&c);
	child_release(&c);
}

/* Compile SRC/sub/t.c (with `text`) into BUILD/sub/t, run it. */
static int build_and_run(const char *text)
{
	struct strbuf p = STRBUF_INIT, src = STRBUF_INIT, obj = STRBUF_INIT,
		      exe = STRBUF_INIT;
	int ret;

	strbuf_addf(&p, "%s/src/sub", tmp);
	if ((ret = mkdirs(p.buf, 0755, WW_ERROR)) < 0)
		goto out;
	strbuf_setlen(&p, 0);
	strbuf_addf(&p, "%s/build/sub", tmp);
	if ((ret = mkdirs(p.buf, 0755, WW_ERROR)) < 0)
		goto out;
	strbuf_setlen(&p, 0);
	strbuf_addstr(&p, text);
	strbuf_addf(&src, "%s/src/sub/t.c", tmp);
	strbuf_addf(&obj, "%s/build/sub/t.o", tmp);
	strbuf_addf(&exe, "%s/build/sub/t", tmp);
	if ((ret = strbuf_write_file(&p, src.buf)) < 0 ||
	    (ret = run(tmp, "gcc", "--coverage", "-O0", "-c", "-o", obj.buf,
		       src.buf, NULL)) < 0 ||
	    (ret = run(tmp, "gcc", "--coverage", "-o", exe.buf, obj.buf, NULL)) < 0 ||
	    (ret = run(tmp, exe.buf, NULL)) < 0)
		goto out;
out:
	strbuf_release(&exe);
	strbuf_release(&obj);
	strbuf_release(&src);
	strbuf_release(&p);
	return ret;
}

static int move_gcda(void)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	int ret;

	strbuf_addf(&to, "%s/gcda/sub", tmp);
	ret = mkdirs(to.buf, 0755, WW_ERROR);
	strbuf_addstr(&to, "/t.gcda");
	strbuf_addf(&from, "%s/build/sub/t.gcda", tmp);
	if (!ret && rename(from.buf, to.buf) < 0)
		ret = error("rename '%s': %s", from.buf, strerror(errno));
	strbuf_release(&to);
	strbuf_release(&from);
	return ret;
}

static void test_counts(const char *build, const char *gcda)
{
	struct gcov_counts c = GCOV_COUNTS_INIT;
	int ret;

	ret = gcov_line_counts(&c, build, gcda, "sub/t.c");
	if (!ok(ret == 0, "counts of sub/t.c from BUILD/sub/t.gcno + GCDA/sub/t.gcda"))
		printf("# %s\n", error_last());
	ok(c.file && strstr(c.file, "sub/t.c"), "the file is named as gcc saw it (%s)",
	   c.file ? c.file : "(null)");
	is(gcov_line(&c, 5), 7, "line 5 (the if) ran 7 times");
	is(gcov_line(&c, 14), 7, "line 14 (the call) ran 7 times");
	is(gcov_line(&c, 12), 1, "line 12 ran once");
	is(gcov_line(&c, 6), 0, "line 6 (abort) could run and ran 0 times");
	is(gcov_line(&c, 2), GCOV_NO_DATA, "blank line 2 has no data");
	is(gcov_line(&c, 9), GCOV_NO_DATA, "comment line 9 has no data");
	is(gcov_line(&c, 100000), GCOV_NO_DATA, "a line past the end has no data");
	ok(GCOV_NO_DATA != 0, "no data is distinct from 0");
	gcov_counts_release(&c);
	ok(!c.file && !c.count && !c.nr, "release empties the counts");
}

static void test_errors(const char *build, const char *gcda)
{
	struct gcov_counts c = GCOV_COUNTS_INIT;
	struct strbuf nowhere = STRBUF_INIT;

	strbuf_addf(&nowhere, "%s/nowhere", tmp);
	is(gcov_line_counts(&c, build, nowhere.buf, "sub/t.c"), WW_ENOTFOUND,
	   "no .gcda: WW_ENOTFOUND");
	ok(strstr(error_last(), "not copied out"), "... saying why: %s", error_last());
	is(gcov_line_counts(&c, nowhere.buf, gcda, "sub/t.c"), WW_ENOTFOUND,
	   "no .gcno: WW_ENOTFOUND");
	is(gcov_line_counts(&c, build, gcda, "include/x.h"), WW_ENOTFOUND,
	   "a header has no object of its own");
	ok(!c.file, "a failed call leaves the counts empty");

	is(gcov_parse_json(&c, "{\"files\": [", 11, "a.c"), WW_EINPUT,
	   "malformed JSON is WW_EINPUT");
	is(gcov_parse_json(&c, "{\"files\": [{\"file\": \"x/a.c\", \"lines\": []}]}",
			   strlen("{\"files\": [{\"file\": \"x/a.c\", \"lines\": []}]}"),
			   "b.c"),
	   WW_EINPUT, "a file the object does not have is WW_EINPUT");
	{
		const char *j = "{\"files\": [{\"file\": \"../fs/ext4/namei.c\", \"lines\":"
				" [{\"line_number\": 3, \"count\": 2},"
				" {\"line_number\": 3, \"count\": 5}]},"
				" {\"file\": \"../fs/ext4/xnamei.c\", \"lines\":"
				" [{\"line_number\": 3, \"count\": 100}]}]}";

		is(gcov_parse_json(&c, j, strlen(j), "fs/ext4/namei.c"), 0,
		   "a path after '../' matches, 'xnamei.c' does not");
		is(gcov_line(&c, 3), 7, "a line listed twice counts both");
		gcov_counts_release(&c);
	}
	strbuf_release(&nowhere);
}

/* Rebuild with different code: the old counters must be refused. */
static void test_mismatch(const char *build, const char *gcda)
{
	struct gcov_counts c = GCOV_COUNTS_INIT;
	struct strbuf text = STRBUF_INIT;
	int ret;

	strbuf_addstr(&text, prog);
	strbuf_addstr(&text, "int unused(int x) { return x + 1; }\n");
	if (build_and_run(text.buf) < 0) {
		ok(0, "the program rebuilds with gcc --coverage: %s", error_last());
		goto out;
	}
	ret = gcov_line_counts(&c, build, gcda, "sub/t.c");
	is(ret, WW_EINPUT, "counters of another build are refused");
	ok(strstr(error_last(), "not from the build"), "... saying so: %s", error_last());
	gcov_counts_release(&c);
out:
	strbuf_release(&text);
}

/*
 * list_sort() of 6.1 with `if (WARN_ON_ONCE(!cmp)) return;` added at its
 * top (lines 190-191), and the records gcc 12's `gcov --json-format` gave
 * for it in the guest (same keys and shape as real output): no record for
 * the WARN line, 187 and 192 ran once, the return under the WARN 0 times.
 */
static const char list_sort_src[] =
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 1-20 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 21-40 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 41-60 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 61-80 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 81-100 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 101-120 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 121-140 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 141-160 */
	"\n\n\n\n\n\n\n\n\n\n" "\n\n\n\n\n\n\n\n\n\n" /* 161-180 */
	"\n\n\n"						/* 181-183 */
	"__attribute__((nonnull(2,3)))\n"			/* 184 */
	"void list_sort(void *priv, struct list_head *head, list_cmp_func_t cmp)\n" /* 185 */
	"{\n"							/* 186 */
	"\tstruct list_head *list = head->next, *pending = NULL;\n" /* 187: 1 */
	"\tsize_t count = 0;\t/* Count of pending */\n"		/* 188: none */
	"\n"							/* 189 */
	"\tif (WARN_ON_ONCE(!cmp))\n"				/* 190: none */
	"\t\treturn;\n"						/* 191: 0 */
	"\tif (list == head->prev)\t/* Zero or one elements */\n" /* 192: 1 */
	"\t\treturn;\n"						/* 193: 0 */
	"\n"							/* 194 */
	"\t/* Convert to a null-terminated singly-linked list. */\n" /* 195 */
	"\thead->prev->next = NULL;\n"				/* 196: 1 */
	"\tif (!count)\n"					/* 197: 1 */
	"\t\tcount++;\n"					/* 198: none */
	"\n"							/* 199 */
	"out:\n"						/* 200 */
	"\tWARN_ON(!list);\n";					/* 201: none */

#define GCOV_LINE(n, c, unexec) \
	"{\"branches\": [], \"count\": " #c ", \"line_number\": " #n ", " \
	"\"unexecuted_block\": " #unexec ", \"function_name\": \"list_sort\"}"

static const char list_sort_json[] =
	"{\"format_version\": \"1\", \"gcc_version\": \"12.2.0\", "
	"\"current_working_directory\": \"/ww/build\", "
	"\"data_file\": \"lib/list_sort.gcda\", \"files\": [{\"file\": \"../src/lib/list_sort.c\", "
	"\"functions\": [{\"blocks\": 40, \"end_column\": 1, \"start_line\": 185, "
	"\"name\": \"list_sort\", \"blocks_executed\": 31, \"execution_count\": 1, "
	"\"demangled_name\": \"list_sort\", \"start_column\": 6, \"end_line\": 260}], "
	"\"lines\": [" GCOV_LINE(185, 1, false) ", " GCOV_LINE(187, 1, false) ", "
	GCOV_LINE(191, 0, true) ", " GCOV_LINE(192, 1, false) ", "
	GCOV_LINE(193, 0, true) ", " GCOV_LINE(196, 1, false) ", "
	GCOV_LINE(197, 1, false) "]}]}";

static void test_statement(void)
{
	struct gcov_counts c = GCOV_COUNTS_INIT;
	size_t len = strlen(list_sort_src);
	unsigned long from;

	if (gcov_parse_json(&c, list_sort_json, strlen(list_sort_json),
			    "lib/list_sort.c") < 0) {
		ok(0, "list_sort JSON: %s", error_last());
		return;
	}
	is((int)gcov_line(&c, 190), (int)GCOV_NO_DATA, "WARN line: no record");
	is((int)gcov_statement(&c, list_sort_src, len, 190, 1, &from), 1,
	   "if (WARN_ON_ONCE(!cmp)): ran once, from the line of its block above");
	is((int)from, 187, "... line 187, through a declaration and a blank");
	is((int)gcov_statement(&c, NULL, 0, 190, 1, &from), (int)GCOV_NO_DATA,
	   "without the source: not measured, never the return's 0 below");
	is((int)from, 0, "... and no line named");
	is((int)gcov_statement(&c, list_sort_src, len, 191, 1, &from), 0,
	   "a record of zero is zero");
	is((int)gcov_statement(&c, list_sort_src, len, 190, 2, &from), 0,
	   "a two-line call takes its own second line's record");
	is((int)from, 191, "... line 191");
	is((int)gcov_statement(&c, list_sort_src, len, 198, 1, &from), (int)GCOV_NO_DATA,
	   "under an if: the condition's count is not the body's");
	is((int)gcov_statement(&c, list_sort_src, len, 201, 1, &from), (int)GCOV_NO_DATA,
	   "after a label: other paths join, no count");
	gcov_counts_release(&c);
}

int main(void)
{
	struct strbuf build = STRBUF_INIT, gcda = STRBUF_INIT;

	test_statement();
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (build_and_run(prog) < 0 || move_gcda() < 0) {
		ok(0, "a program builds and runs with gcc --coverage: %s", error_last());
		cleanup();
		return done_testing();
	}
	strbuf_addf(&build, "%s/build", tmp);
	strbuf_addf(&gcda, "%s/gcda", tmp);
	test_counts(build.buf, gcda.buf);
	test_errors(build.buf, gcda.buf);
	test_mismatch(build.buf, gcda.buf);
	cleanup();
	strbuf_release(&gcda);
	strbuf_release(&build);
	return done_testing();
}
