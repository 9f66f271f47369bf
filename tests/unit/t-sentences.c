/*
 * The inventory of what a review reply says in warnwatch's own words
 * (issue 37.4): every sentence of templates/sentences.json is listed
 * with the facts it needs, is said with them and never without any one
 * of them, and is the book's only source: every book sentence is said
 * by bot/review/reply.c, bot/review/plan.c (the counts of calls) or
 * bot/kernel-ci/ci-words.c, every call there that says one names one,
 * and none of them (ci-words.c: the reply's kernel-ci paragraph and the
 * text `warnwatch ci` prints alike) holds prose of its own beyond the
 * fact values it binds.  The book itself refuses a sentence that prints
 * a name it does not need (t-sentences checks that too, on bad books).
 */
#include "say.h"
#include "tap.h"
#include "template.h"
#include "tmpdir.h"

#include <errno.h>
#include <regex.h>
#include <unistd.h>

static const char *top(void)
{
	const char *t = getenv("WW_TOP");

	return t && *t ? t : ".";
}

/* Every name the sentence uses bound to a word, and `without` (or
 * none) left out. */
static int render(struct strbuf *out, const struct say_book *b, const char *name,
		  const struct strvec *uses, const char *without)
{
	struct tmpl_vars *v = tmpl_vars_new();
	int ret;

	for (size_t i = 0; i < uses->nr; i++)
		if (!without || strcmp(uses->v[i], without))
			tmpl_set(v, uses->v[i], "FACT");
	ret = say_render(out, b, name, v);
	tmpl_vars_free(v);
	return ret;
}

static void test_each_sentence(const struct say_book *b, const struct strvec *names)
{
	for (size_t i = 0; i < names->nr; i++) {
		struct strvec needs = STRVEC_INIT, uses = STRVEC_INIT;
		struct strbuf line = STRBUF_INIT, out = STRBUF_INIT;

		say_book_needs(b, names->v[i], &needs);
		say_book_uses(b, names->v[i], &uses);
		for (size_t k = 0; k < needs.nr; k++)
			strbuf_addf(&line, "%s%s", k ? ", " : "", needs.v[k]);
		printf("# %s: needs %s\n", names->v[i], line.len ? line.buf : "nothing");
		is(render(&out, b, names->v[i], &uses, NULL), 0,
		   "%s: said with its facts", names->v[i]);
		ok(out.len && !strstr(out.buf, "{{") && (!needs.nr || strstr(out.buf, "FACT") ||
							 strchr(out.buf, ' ')),
		   "%s: ... and reads as a sentence: '%.60s'", names->v[i], out.buf);
		for (size_t k = 0; k < needs.nr; k++) {
			strbuf_reset(&out);
			is(render(&out, b, names->v[i], &uses, needs.v[k]), WW_ENOTFOUND,
			   "%s: not said without %s", names->v[i], needs.v[k]);
			error_clear();
			is(out.len, 0, "%s: ... nothing of it", names->v[i]);
		}
		strvec_clear(&needs);
		strvec_clear(&uses);
		strbuf_release(&line);
		strbuf_release(&out);
	}
}

static void read_source(struct strbuf *out, const char *rel)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", top(), rel);
	if (strbuf_read_file(out, path.buf, 8u << 20) < 0) {
		printf("# %s\n", error_last());
		error_clear();
	}
	strbuf_release(&path);
}

/*
 * Each call that says a sentence (reply.c's sentence(), ci-words.c's
 * say_quiet()) names a sentence of the book: its third argument, or
 * both arms of a ?: there.
 */
static int test_calls(const struct strvec *names, const char *file, const char *src,
		      struct strvec *called)
{
	regex_t re;
	regmatch_t m[4];
	const char *p = src;
	int calls = 0;

	if (regcomp(&re, "(sentence|say_quiet)\\([^,;]+, [^,;]+,[[:space:]]*([^\",;]+ \\? )?"
		    "\"([a-z-]+)\"", REG_EXTENDED)) {
		ok(0, "regcomp");
		return 0;
	}
	while (!regexec(&re, p, 4, m, 0)) {
		char *name = xmemdupz(p + m[3].rm_so, m[3].rm_eo - m[3].rm_so);
		const char *rest = p + m[0].rm_eo;

		calls++;
		ok(strvec_has(names, name), "%s says '%s', a sentence of the book", file, name);
		strvec_push(called, name);
		/* `c ? "a" : "b"`: the other arm too */
		if (m[2].rm_so >= 0 && !strncmp(rest, " : \"", 4)) {
			const char *q = rest + 4;
			char *other = xmemdupz(q, strcspn(q, "\""));

			ok(strvec_has(names, other), "%s says '%s', a sentence of the book",
			   file, other);
			strvec_push(called, other);
			free(other);
		}
		free(name);
		p = rest;
	}
	regfree(&re);
	return calls;
}

/*
 * No prose of its own: outside comments, the string literals of two
 * words or more in `src` are only the fact values it binds, the lookup
 * keys it matches and its errors (each listed here with what it is).
 */
static void test_no_prose(const char *file, const char *src)
{
	static const char *const values[] = {
		"This patch", "This series",	/* "what": the number of patches */
		"this patch", "this series",
		"one of them",			/* opening-fired's "which" */
		"adds or changes",		/* opening-notes' "verb" */
		"the header of ",		/* a damaged file header, in reply.txt */
		"the message to answer is not in the input",	/* errors, not replies */
		"the message to answer has no valid Message-ID",
		"newest first",			/* kbase_order()'s word in base_why */
		NULL,
	};
	regex_t words;
	int prose = 0;

	if (regcomp(&words, "[A-Za-z]+ [a-z]+", REG_EXTENDED)) {
		ok(0, "regcomp");
		return;
	}
	for (const char *p = src; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			p = end ? end + 1 : p + strlen(p) - 1;
			continue;
		}
		if (*p == '\'' && p[1] && p[2] == '\'') {	/* '"' */
			p += 2;
			continue;
		}
		if (*p == '\'' && p[1] == '\\' && p[2] && p[3] == '\'') {
			p += 3;
			continue;
		}
		if (*p == '"') {
			const char *q = p + 1;
			char *lit;
			bool known = false;

			while (*q && *q != '"')
				q += *q == '\\' && q[1] ? 2 : 1;
			lit = xmemdupz(p + 1, q - p - 1);
			for (size_t i = 0; values[i]; i++)
				known |= !strcmp(values[i], lit);
			if (!known && !regexec(&words, lit, 0, NULL, 0)) {
				prose++;
				printf("# prose in %s: \"%s\"\n", file, lit);
			}
			free(lit);
			p = *q ? q : q - 1;
		}
	}
	is(prose, 0, "%s holds no prose of its own: its sentences are in the book", file);
	regfree(&words);
}

/* The book refuses what could say a sentence without its fact. */
static void test_bad_books(void)
{
	static const struct {
		const char *book, *why;
	} bad[] = {
		{ "{\"sentences\": {\"x\": {\"text\": \"a {{fact}} b\", \"needs\": {}}}}",
		  "a name printed outside a section that it does not need" },
		{ "{\"sentences\": {\"x\": {\"text\": \"a b\", \"needs\": {\"fact\": \"f\"}}}}",
		  "a need it never uses" },
		{ "{\"sentences\": {\"x\": {\"text\": \"{{fact}}\", \"needs\": {\"fact\": \"\"}}}}",
		  "a need that does not say where the fact comes from" },
		{ "{\"sentences\": {\"x\": \"text\"}}", "an entry that is not an object" },
		{ "{\"sentences\": {\"x\": {\"text\": \"a\", \"needs\": {}}, "
		  "\"x\": {\"text\": \"b\", \"needs\": {}}}}", "a name twice" },
		{ "{}", "no sentences" },
	};
	char dir[] = "/tmp/t-sentences-XXXXXX";

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct say_book b = SAY_BOOK_INIT;

		tmp_put(dir, SAY_FILE, bad[i].book);
		is(say_book_load(&b, dir), WW_EINPUT, "a book with %s is refused: %s",
		   bad[i].why, error_last());
		error_clear();
		say_book_release(&b);
	}
	{
		struct say_book b = SAY_BOOK_INIT;
		struct strbuf out = STRBUF_INIT;

		tmp_put(dir, SAY_FILE, "{\"sentences\": {\"x\": {\"text\": "
			"\"{{#opt}}[{{opt}}] {{/opt}}{{fact}}.\", \"needs\": {\"fact\": \"f\"}}}}");
		is(say_book_load(&b, dir), 0, "a name printed inside its section need not be needed");
		is(say_sentence(&out, &b, "x", "fact", "A", "opt", NULL, NULL), 0, "  said");
		is_str(out.buf, "A.", "  without the optional part");
		strbuf_reset(&out);
		is(say_sentence(&out, &b, "x", "fact", "", NULL), WW_ENOTFOUND,
		   "  an empty fact is no fact");
		error_clear();
		is(say_sentence(&out, &b, "y", NULL), WW_ENOTFOUND, "  a name the book lacks");
		error_clear();
		say_book_release(&b);
		strbuf_release(&out);
	}
	tmp_remove(dir);
}

int main(void)
{
	struct say_book b = SAY_BOOK_INIT;
	struct strvec names = STRVEC_INIT, called = STRVEC_INIT;
	struct strbuf dir = STRBUF_INIT, reply = STRBUF_INIT, words = STRBUF_INIT;
	struct strbuf plan = STRBUF_INIT;

	strbuf_addf(&dir, "%s/templates", top());
	if (say_book_load(&b, dir.buf)) {
		ok(0, "the book loads: %s", error_last());
		return done_testing();
	}
	say_book_names(&b, &names);
	ok(names.nr >= 20, "the book has %zu sentences", names.nr);
	test_each_sentence(&b, &names);
	read_source(&reply, "bot/review/reply.c");
	read_source(&words, "bot/kernel-ci/ci-words.c");
	read_source(&plan, "bot/review/plan.c");
	ok(test_calls(&names, "plan.c", plan.buf, &called) >= 3,
	   "plan.c says its counts through the book");
	test_no_prose("plan.c", plan.buf);
	ok(test_calls(&names, "reply.c", reply.buf, &called) > 10,
	   "reply.c says its sentences through the book");
	/* ci-words.c: the reply's kernel-ci paragraph and `warnwatch ci`'s
	 * text, every word of both the book's. */
	ok(test_calls(&names, "ci-words.c", words.buf, &called) > 40,
	   "ci-words.c says the kernel-ci sentences through the book");
	for (size_t i = 0; i < names.nr; i++)
		ok(strvec_has(&called, names.v[i]), "'%s' is said by reply.c, plan.c or ci-words.c",
		   names.v[i]);
	test_no_prose("reply.c", reply.buf);
	test_no_prose("ci-words.c", words.buf);
	test_bad_books();
	say_book_release(&b);
	strvec_clear(&names);
	strvec_clear(&called);
	strbuf_release(&dir);
	strbuf_release(&reply);
	strbuf_release(&words);
	strbuf_release(&plan);
	return done_testing();
}
