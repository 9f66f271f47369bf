/*
 * Unit tests for the scanner (bot/check/scan.c) with the real rules/: what is a
 * call and what is not, line/column/end_line/text of each hit, wrapper
 * definitions, the start state, odd and truncated input (every text is
 * copied into a buffer of exactly its length, so a sanitizer build catches
 * a read past `len`), and a differential test of the fast path against
 * the token-by-token scan on generated input.
 *
 * By hand: WW_SCAN_BENCH=<file, or directory whose .c files are read> build/unit/t-scan
 * also prints the scanner's speed on that text.
 */
#include "scan.h"
#include "strbuf.h"
#include "tap.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

static struct ruleset rs = RULESET_INIT;

/* "CALL BUG_ON 0-1:4 [BUG_ON(x)]; DEF BUG FOO_BUG_ON 0-2:8 [...]" */
static void format_hits(struct strbuf *out, const struct scan_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct scan_hit *h = &r->v[i];

		if (i)
			strbuf_addstr(out, "; ");
		if (h->kind == HIT_CALL)
			strbuf_addf(out, "CALL %s", h->rule->macro);
		else
			strbuf_addf(out, "DEF %s %s", h->rule->macro, h->defined);
		strbuf_addf(out, " %zu-%zu:%zu [%s]", h->line, h->end_line, h->col,
			    h->text ? h->text : "(null)");
	}
}

static char *scan_fmt(const char *text, size_t len, enum scan_state st,
		      bool slow)
{
	struct scan_result r = SCAN_RESULT_INIT;
	struct strbuf sb = STRBUF_INIT;
	/* Exactly `len` bytes, no NUL after them. */
	char *copy = xmalloc(len ? len : 1);

	memcpy(copy, text, len);
	if (slow)
		scan_text_slow(&r, &rs, copy, len, st);
	else
		scan_text(&r, &rs, copy, len, st);
	format_hits(&sb, &r);
	scan_result_clear(&r);
	free(copy);
	return strbuf_detach(&sb, NULL);
}

/* Scan `text` from `st`; the fast and the slow scan must agree. */
static void check_st(const char *name, const char *text, enum scan_state st,
		     const char *want)
{
	char *fast = scan_fmt(text, strlen(text), st, false);
	char *slow = scan_fmt(text, strlen(text), st, true);

	is_str(fast, want, "%s", name);
	is_str(slow, fast, "%s (slow scan agrees)", name);
	free(fast);
	free(slow);
}

static void check(const char *name, const char *text, const char *want)
{
	check_st(name, text, SCAN_CODE, want);
}

static char *defines_fmt(const char *text)
{
	struct scan_result r = SCAN_RESULT_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(text);
	char *copy = xmalloc(len ? len : 1);

	memcpy(copy, text, len);
	scan_defines(&r, &rs, copy, len);
	format_hits(&sb, &r);
	scan_result_clear(&r);
	free(copy);
	return strbuf_detach(&sb, NULL);
}

static void check_defines(const char *name, const char *text, const char *want)
{
	char *got = defines_fmt(text);

	is_str(got, want, "%s", name);
	free(got);
}

static void test_not_calls(void)
{
	check("block and line comments",
	      "/* BUG_ON(x) */ // WARN_ON(y)\n/*\n * panic(\"z\");\n */\n", "");
	check("a spliced line comment goes on",
	      "// x \\\nBUG_ON(1);\nWARN_ON(2);\n",
	      "CALL WARN_ON 2-2:0 [WARN_ON(2)]");
	check("strings", "s = \"BUG_ON(\"; t = \"a\\\"BUG_ON(x)\";\n", "");
	check("wide and escaped strings",
	      "w = L\"WARN_ON(\"; u = \"\\\\\"; BUG_ON(u);\n",
	      "CALL BUG_ON 0-0:27 [BUG_ON(u)]");
	check("char literals with quotes",
	      "c = '\\''; d = '\"'; BUG_ON(c == '\"' || d == ')');\n",
	      "CALL BUG_ON 0-0:19 [BUG_ON(c == '\"' || d == ')')]");
	check("BUILD_BUG_ON and friends",
	      "BUILD_BUG_ON(sizeof(x) != 4); BUILD_BUG_ON_MSG(1, \"m\");\n"
	      "BUILD_BUG(); BUILD_BUG_ON_ZERO(0); static_assert(1);\n", "");
	check("no prefix or suffix matching",
	      "MY_BUG_ON(x); BUG_ON_FOO(y); xBUG_ON(z); WARN_ONx(1); panics(2);\n",
	      "");
	check("members",
	      "x.BUG_ON(1); p->WARN(1, \"x\"); p -> panic(\"y\"); s . WARN_ON (z);\n",
	      "");
	check("prototypes and definitions",
	      "void panic(const char *fmt, ...);\n"
	      "extern __printf(1, 2) void panic(const char *fmt, ...) __cold;\n"
	      "static inline void BUG_ON(int x)\n{\n}\n"
	      "char *WARN(int);\nint\npanic(int x)\n{\n}\n"
	      "void __noreturn nmi_panic(struct pt_regs *regs, const char *msg);\n",
	      "");
	check("names without a call",
	      "EXPORT_SYMBOL(panic); fn = &panic; ops.f = WARN_ON; x = BUG_ON;\n",
	      "");
	check("#if 0 blocks",
	      "#if 0\nBUG();\n#ifdef A\nWARN_ON(1);\n#endif\n#else\nWARN(1, \"x\");\n#endif\n"
	      "#if 0\npanic(\"y\");\n#endif\nBUG_ON(z);\n",
	      "CALL WARN 6-6:0 [WARN(1, \"x\")]; CALL BUG_ON 11-11:0 [BUG_ON(z)]");
}

static void test_calls(void)
{
	check("if (WARN_ON_ONCE(x)) return -EINVAL;",
	      "\tif (WARN_ON_ONCE(x))\n\t\treturn -EINVAL;\n",
	      "CALL WARN_ON_ONCE 0-0:5 [WARN_ON_ONCE(x)]");
	check("a call split over lines",
	      "\tBUG_ON(a &&\n\t       b(c, (d)));\n",
	      "CALL BUG_ON 0-1:1 [BUG_ON(a && b(c, (d)))]");
	check("nested parentheses",
	      "WARN_ON(f(g(x), (y)) || (z));\n",
	      "CALL WARN_ON 0-0:0 [WARN_ON(f(g(x), (y)) || (z))]");
	check("several calls on one line",
	      "BUG_ON(a); WARN_ON(b); panic(\"c\");\n",
	      "CALL BUG_ON 0-0:0 [BUG_ON(a)]; CALL WARN_ON 0-0:11 [WARN_ON(b)]; "
	      "CALL panic 0-0:23 [panic(\"c\")]");
	check("a call in a call's arguments",
	      "WARN_ON(BUG_ON(x) || y);\n",
	      "CALL WARN_ON 0-0:0 [WARN_ON(BUG_ON(x) || y)]; CALL BUG_ON 0-0:8 [BUG_ON(x)]");
	check("keywords before a call",
	      "return WARN_ON(x);\nelse BUG();\ncase 1: BUG();\ndo BUG(); while (0);\n"
	      "n = sizeof(WARN_ON(x));\n",
	      "CALL WARN_ON 0-0:7 [WARN_ON(x)]; CALL BUG 1-1:5 [BUG()]; "
	      "CALL BUG 2-2:8 [BUG()]; CALL BUG 3-3:3 [BUG()]; "
	      "CALL WARN_ON 4-4:11 [WARN_ON(x)]");
	check("expressions before a call",
	      "x = !WARN_ON(a); (void)WARN_ON_ONCE(b); y = 2 * WARN_ON(c);\n",
	      "CALL WARN_ON 0-0:5 [WARN_ON(a)]; CALL WARN_ON_ONCE 0-0:23 [WARN_ON_ONCE(b)]; "
	      "CALL WARN_ON 0-0:48 [WARN_ON(c)]");
	check("numbers next to a name",
	      " * 4. WARN_ON(1)\nx = 4.WARN_ON(2);\ny = x.5 BUG_ON(3);\nz = 1e->BUG(4);\n",
	      "CALL WARN_ON 0-0:6 [WARN_ON(1)]; CALL BUG_ON 2-2:8 [BUG_ON(3)]; "
	      "CALL BUG 3-3:8 [BUG(4)]");
	check("a comment between name and '('",
	      "WARN_ON /* why */ (x);\n",
	      "CALL WARN_ON 0-0:0 [WARN_ON (x)]");
	check("the '(' on the next line",
	      "WARN_ON\n\t(x);\n",
	      "CALL WARN_ON 0-1:0 [WARN_ON (x)]");
	check("comments inside the arguments",
	      "BUG_ON(a /* ) */ && // )\n b);\n",
	      "CALL BUG_ON 0-1:0 [BUG_ON(a && b)]");
	check("a directive before the call",
	      "int x;\n#ifdef CONFIG_X\nBUG_ON(x);\n#endif\n",
	      "CALL BUG_ON 2-2:0 [BUG_ON(x)]");
	check("a directive inside the arguments",
	      "WARN_ON(a\n#ifdef B\n\t|| b\n#endif\n);\n",
	      "CALL WARN_ON 0-4:0 [WARN_ON(a || b )]");
	check("CRLF line ends",
	      "a;\r\nBUG_ON(x);\r\n\tWARN_ON(y\r\n);\r\n",
	      "CALL BUG_ON 1-1:0 [BUG_ON(x)]; CALL WARN_ON 2-3:1 [WARN_ON(y )]");
	check("a '#' that is not at the start of a line",
	      "x; # BUG();\n", "CALL BUG 0-0:5 [BUG()]");
	check("subsystem and mm macros",
	      "VM_BUG_ON_PAGE(PageTail(p), p); snd_BUG_ON(!c); drm_WARN_ON(&i->drm, 1);\n",
	      "CALL VM_BUG_ON_PAGE 0-0:0 [VM_BUG_ON_PAGE(PageTail(p), p)]; "
	      "CALL snd_BUG_ON 0-0:32 [snd_BUG_ON(!c)]; "
	      "CALL drm_WARN_ON 0-0:48 [drm_WARN_ON(&i->drm, 1)]");
}

static void test_defines(void)
{
	check("a wrapper with continuation lines",
	      "#define FOO_BUG_ON(c) do {\t\\\n\tif (c)\t\t\\\n\t\tBUG();\t\\\n} while (0)\nx();\n",
	      "DEF BUG FOO_BUG_ON 0-3:8 [#define FOO_BUG_ON(c) do { if (c) BUG(); } while (0)]");
	check("the most severe macro of a body",
	      "#define X(c) ({ if (WARN_ON(c)) BUG(); 0; })\n",
	      "DEF BUG X 0-0:8 [#define X(c) ({ if (WARN_ON(c)) BUG(); 0; })]");
	check("an alias", "# define DBG_X BUG_ON\n",
	      "DEF BUG_ON DBG_X 0-0:9 [# define DBG_X BUG_ON]");
	check("not an argument, not stringified, not pasted",
	      "#define S(x) STR(BUG_ON)\n#define T(x) #WARN_ON\n#define U(x) BUG_ON ## x(y)\n"
	      "#define V(p) p.BUG_ON(1)\n", "");
	check("a definition of a rule or of a name never flagged",
	      "#define BUG_ON(c) do { if (c) BUG(); } while (0)\n"
	      "#define WARN_ON_ONCE(c) WARN_ON(c)\n"
	      "#define lockdep_assert(c) do { WARN_ON(!(c)); } while (0)\n", "");
	check("a directive after a comment",
	      "/* c */ #define X(a) BUG_ON(a)\n",
	      "DEF BUG_ON X 0-0:16 [#define X(a) BUG_ON(a)]");
	check("a comment spanning lines inside a directive",
	      "#define X(a) /* a\n b */ BUG_ON(a)\nWARN_ON(1);\n",
	      "DEF BUG_ON X 0-1:8 [#define X(a) BUG_ON(a)]; CALL WARN_ON 2-2:0 [WARN_ON(1)]");
	check("no define inside #if 0",
	      "#if 0\n#define X(a) BUG_ON(a)\n#endif\n", "");
	check_defines("scan_defines: names that say what they are",
		      "#define page_buffers(p) ({ BUG_ON(!p); p; })\n"
		      "#define FOO_WARN(x) WARN_ON(x)\n"
		      "#define foo_debug(x) BUG_ON(x)\n"
		      "#define DEBUG_BUG(x) BUG()\n"
		      "#define my_assert(x) BUG_ON(!(x))\n"
		      "BUG_ON(1);\n",
		      "DEF WARN_ON FOO_WARN 1-1:8 [#define FOO_WARN(x) WARN_ON(x)]; "
		      "DEF BUG DEBUG_BUG 3-3:8 [#define DEBUG_BUG(x) BUG()]; "
		      "DEF BUG_ON my_assert 4-4:8 [#define my_assert(x) BUG_ON(!(x))]");
}

static void test_states(void)
{
	check_st("starting inside a comment",
		 "still a comment BUG_ON(x) */ WARN_ON(y);\n", SCAN_BLOCK_COMMENT,
		 "CALL WARN_ON 0-0:29 [WARN_ON(y)]");
	check_st("starting inside a comment that never ends",
		 " * BUG_ON(x)\n * WARN_ON(y)\n", SCAN_BLOCK_COMMENT, "");
	is(scan_guess_state(" * foo\n */\nBUG_ON(x);\n", 22), SCAN_BLOCK_COMMENT,
	   "guess: */ before /*");
	is(scan_guess_state("x; /* a */\n*/", 13), SCAN_CODE, "guess: /* first");
	is(scan_guess_state("\n * BUG_ON(x) is bad\n * more\n", 29), SCAN_BLOCK_COMMENT,
	   "guess: comment-like lines");
	is(scan_guess_state("\t *p = 1;\n", 10), SCAN_CODE, "guess: a dereference");
	is(scan_guess_state("BUG_ON(x);\n", 11), SCAN_CODE, "guess: code");
	is(scan_guess_state("", 0), SCAN_CODE, "guess: empty");
	is(scan_guess_state(" *", 1), SCAN_CODE, "guess: reads only len bytes");
}

static void test_odd_input(void)
{
	static const char *const cuts[] = {
		"BUG_ON", "BUG_ON(", "BUG_ON (", "BUG_ON(x", "BUG_ON /*", "/", "/*",
		"/* *", "//", "\"", "\"\\", "'", "'\\", "\\", "#", "#define",
		"#define X", "#define X(", "#define X BUG_ON", "#if", "#if 0",
		"x.", "x-", "x->", "*", "0x", "1e", "\xff\xfe", "WARN_ON(\"\xe2\x82",
	};
	char big[400];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		char *got = scan_fmt(cuts[i], strlen(cuts[i]), SCAN_CODE, false);
		char *slow = scan_fmt(cuts[i], strlen(cuts[i]), SCAN_CODE, true);

		is_str(slow, got, "text cut after '%s': fast and slow agree", cuts[i]);
		free(got);
		free(slow);
	}
	check("an unterminated call", "\tBUG_ON(x &&\n\t       y",
	      "CALL BUG_ON 0-1:1 [BUG_ON(x && y...]");
	check("an unterminated string ends at its line",
	      "s = \"abc\nBUG_ON(1);\n", "CALL BUG_ON 1-1:0 [BUG_ON(1)]");
	check("an unterminated comment", "/* BUG_ON(1);\nWARN_ON(2);\n", "");
	check("a stray ')'", ")) BUG_ON(1); )\n", "CALL BUG_ON 0-0:3 [BUG_ON(1)]");
	check("a NUL byte", "a\0b", "");
	check("invalid UTF-8 in the text",
	      "WARN(1, \"\xff\xc3\x28 \xe2\x82\xac\");\n",
	      "CALL WARN 0-0:0 [WARN(1, \"?" "?( \xe2\x82\xac\")]");

	memset(big, 'a', sizeof(big));
	memcpy(big, "WARN(1, \"", 9);
	memcpy(big + sizeof(big) - 4, "\");\n", 4);
	{
		char *got = scan_fmt(big, sizeof(big), SCAN_CODE, false);
		const char *open = strchr(got, '['), *close = strrchr(got, ']');

		ok(open && close && close - open - 1 == 203 &&
		   !strncmp(close - 3, "...", 3),
		   "a long call's text is cut at 200 bytes and marked");
		free(got);
	}
	/* A UTF-8 sequence across the cut is not split. */
	memset(big, 'a', sizeof(big));
	memcpy(big, "WARN(1, \"", 9);
	memcpy(big + 198, "\xe2\x82\xac", 3);
	memcpy(big + sizeof(big) - 4, "\");\n", 4);
	{
		char *got = scan_fmt(big, sizeof(big), SCAN_CODE, false);
		const char *open = strchr(got, '['), *close = strrchr(got, ']');

		ok(open && close && close - open - 1 == 198 + 3,
		   "the cut does not split a UTF-8 sequence");
		free(got);
	}
}

/* Many nested unterminated calls: still linear, still bounded texts. */
static void test_pathological(void)
{
	struct scan_result r = SCAN_RESULT_INIT;
	struct strbuf sb = STRBUF_INIT;
	size_t i, longest = 0;
	clock_t t0 = clock();

	for (i = 0; i < 100000; i++)
		strbuf_addstr(&sb, "BUG_ON(");
	scan_text(&r, &rs, sb.buf, sb.len, SCAN_CODE);
	for (i = 0; i < r.nr; i++)
		if (strlen(r.v[i].text) > longest)
			longest = strlen(r.v[i].text);
	is(r.nr, 100000, "100000 nested unterminated calls are all found");
	ok(longest <= 203, "and their texts stay bounded (%zu)", longest);
	ok(clock() - t0 < 5 * CLOCKS_PER_SEC, "in linear time");
	scan_result_clear(&r);

	strbuf_reset(&sb);
	for (i = 0; i < 100000; i++)
		strbuf_addstr(&sb, "#define A(x) WARN_ON(\\\n");
	t0 = clock();
	scan_text(&r, &rs, sb.buf, sb.len, SCAN_CODE);
	is(r.nr, 1, "one long spliced #define is one definition");
	ok(clock() - t0 < 5 * CLOCKS_PER_SEC, "read in linear time");
	scan_result_clear(&r);
	strbuf_release(&sb);
}

/* A small deterministic generator of C-like token soup. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void gen(struct strbuf *sb)
{
	static const char *const pieces[] = {
		"BUG_ON", "WARN_ON", "WARN_ON_ONCE", "panic", "BUG", "VM_BUG_ON",
		"BUILD_BUG_ON", "x", "foo", "void", "int", "return", "else",
		"struct", "sizeof", "(", ")", "(", ")", ";", ",", ".", "->", "*",
		"{", "}", "#", "##", "=", "!", "&&", " 1 ", " 0 ", "\"s\"", "\"a\\\"b\"",
		"'c'", "'\\''", "'\"'", "/* c */", "/*\n*/", "// c\n", "\n", "\n",
		" ", " ", "\t", "\\\n", "#define ", "#define W(a) ", "#if 0\n",
		"#endif\n", "#else\n", "#ifdef X\n", "\"", "'", "/*", "*/", "\r\n",
		"  #  define D(x) ", "# if 0 /* c */\n", "#if 1\n", "#elif 0\n",
		"WARN(", "BUG_ON(x)", "snd_BUG_ON", "J_ASSERT", "static_assert",
		"__WARN", "x->BUG_ON", "s.panic", "char *", "extern ", "\\\r\n",
		"+", "-", "[", "]", ":", "?", "\"\\\\\"",
	};
	unsigned n = 1 + rnd(40), i;

	for (i = 0; i < n; i++)
		strbuf_addstr(sb, pieces[rnd(ARRAY_SIZE(pieces))]);
}

static void test_differential(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *env = getenv("WW_SCAN_DIFF");
	unsigned i, bad = 0, hits = 0, n = env ? (unsigned)atoi(env) : 30000;

	if (getenv("WW_SCAN_SEED"))
		rng = strtoull(getenv("WW_SCAN_SEED"), NULL, 0) | 1;

	for (i = 0; i < n; i++) {
		enum scan_state st = rnd(8) ? SCAN_CODE : SCAN_BLOCK_COMMENT;
		char *fast, *slow;

		strbuf_reset(&sb);
		gen(&sb);
		fast = scan_fmt(sb.buf, sb.len, st, false);
		slow = scan_fmt(sb.buf, sb.len, st, true);
		hits += *fast != '\0';
		if (strcmp(fast, slow) && bad++ < 3) {
			struct strbuf q = STRBUF_INIT;
			size_t k;

			for (k = 0; k < sb.len; k++)
				if (sb.buf[k] == '\n')
					strbuf_addstr(&q, "\\n");
				else
					strbuf_addch(&q, sb.buf[k]);
			printf("# input: %s\n#  fast: %s\n#  slow: %s\n", q.buf, fast, slow);
			strbuf_release(&q);
		}
		free(fast);
		free(slow);
	}
	is(bad, 0, "fast and slow scans agree on %u generated texts (%u with hits)",
	   n, hits);
	strbuf_release(&sb);
}

/* A file, or every .c file under a directory, concatenated. */
static void read_bench_input(struct strbuf *sb, const char *path, bool top)
{
	struct stat st;
	struct dirent **names;
	int n, i;

	if (stat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (top || ends_with(path, ".c"))
			strbuf_read_file(sb, path, 0);
		return;
	}
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			struct strbuf sub = STRBUF_INIT;

			strbuf_addf(&sub, "%s/%s", path, names[i]->d_name);
			read_bench_input(sb, sub.buf, false);
			strbuf_release(&sub);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void bench(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int round, rounds = 10;
	size_t calls = 0;
	double t0, fast = 0, slow = 0;

	read_bench_input(&sb, path, true);
	for (int pass = 0; pass < 2; pass++) {
		t0 = cpu_seconds();
		for (round = 0; round < rounds; round++) {
			struct scan_result r = SCAN_RESULT_INIT;

			if (pass)
				scan_text_slow(&r, &rs, sb.buf, sb.len, SCAN_CODE);
			else
				scan_text(&r, &rs, sb.buf, sb.len, SCAN_CODE);
			calls = r.nr;
			scan_result_clear(&r);
		}
		if (pass)
			slow = cpu_seconds() - t0;
		else
			fast = cpu_seconds() - t0;
	}
	printf("# bench: %s: %zu bytes, %zu hits; scan_text %.0f MB/s, "
	       "scan_text_slow %.0f MB/s (CPU time, %d rounds)\n",
	       path, sb.len, calls, sb.len * (double)rounds / fast / 1e6,
	       sb.len * (double)rounds / slow / 1e6, rounds);
	strbuf_release(&sb);
}

int main(void)
{
	const char *top = getenv("WW_TOP"), *b = getenv("WW_SCAN_BENCH");
	struct strbuf dir = STRBUF_INIT;

	strbuf_addf(&dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, dir.buf) < 0) {
		printf("Bail out! cannot load rules: %s\n", error_last());
		return 1;
	}
	test_not_calls();
	test_calls();
	test_defines();
	test_states();
	test_odd_input();
	test_pathological();
	test_differential();
	if (b && *b)
		bench(b);
	ruleset_release(&rs);
	strbuf_release(&dir);
	return done_testing();
}
