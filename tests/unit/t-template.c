/*
 * Unit tests for bot/lib/template.c: placeholders, sections, loops, partials,
 * standalone lines, errors, the escaping policy and the filler.
 */
#include "template.h"
#include "tap.h"

#include <sys/stat.h>
#include <unistd.h>

static char *render(const char *tmpl, const struct tmpl_vars *v,
		    unsigned int width, int *ret)
{
	struct template_opts opts = { NULL, "t", width };
	struct strbuf out = STRBUF_INIT;

	strbuf_addstr(&out, "");
	*ret = template_render(&out, tmpl, strlen(tmpl), v, &opts);
	return strbuf_detach(&out, NULL);
}

static void check(const char *tmpl, const struct tmpl_vars *v,
		  unsigned int width, const char *want, const char *name)
{
	int ret;
	char *got = render(tmpl, v, width, &ret);

	is(ret, 0, "%s: renders", name);
	is_str(got, want, "%s", name);
	free(got);
}

static void fails(const char *tmpl, const char *msg_part, const char *name)
{
	struct tmpl_vars *v = tmpl_vars_new();
	int ret;
	char *got = render(tmpl, v, 0, &ret);

	is(ret, WW_EINPUT, "%s: is an error", name);
	ok(strstr(error_last(), msg_part) != NULL, "%s: message '%s'", name,
	   error_last());
	is_str(got, "", "%s: nothing rendered", name);
	free(got);
	tmpl_vars_free(v);
}

static void fill(const char *in, unsigned int width, const char *want,
		 const char *name)
{
	struct strbuf out = STRBUF_INIT;

	template_fill(&out, in, strlen(in), width);
	is_str(out.buf, want, "fill: %s", name);
	strbuf_release(&out);
}

static void test_values(void)
{
	struct tmpl_vars *v = tmpl_vars_new(), *item;

	tmpl_set(v, "name", "Zo\xc3\xab");
	tmpl_setf(v, "n", "%d", 3);
	tmpl_set_bool(v, "yes", true);
	tmpl_set_bool(v, "no", false);
	tmpl_set(v, "empty", "");
	check("Hi {{name}}, {{ n }} things{{missing}}.", v, 0,
	      "Hi Zo\xc3\xab, 3 things.", "placeholders and absent names");
	check("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}!N{{/no}}{{#empty}}E{{/empty}}{{^empty}}!E{{/empty}}",
	      v, 0, "Y!N!E", "conditionals and inverted sections");
	check("{{#name}}[{{.}}]{{/name}}", v, 0, "[Zo\xc3\xab]", "{{.}} in a string section");

	item = tmpl_add(v, "items");
	tmpl_set(item, "x", "a");
	item = tmpl_add(v, "items");
	tmpl_set(item, "x", "b");
	tmpl_set(item, "name", "inner");
	item = tmpl_add(v, "items");
	tmpl_set(item, "x", "c");
	check("{{#items}}{{@index}}:{{x}}/{{name}}{{^@last}}, {{/@last}}{{/items}}", v, 0,
	      "1:a/Zo\xc3\xab, 2:b/inner, 3:c/Zo\xc3\xab",
	      "loops, inner names shadow outer ones, @index/@last");
	check("{{#items}}{{#@first}}first {{x}}{{/@first}}{{/items}}", v, 0,
	      "first a", "@first");
	check("{{^nolist}}none{{/nolist}}", v, 0, "none", "inverted absent list");
	tmpl_add(tmpl_add(v, "nest"), "deep");
	check("{{#nest}}{{#deep}}[{{name}}]{{/deep}}{{/nest}}", v, 0, "[Zo\xc3\xab]",
	      "nested lists see outer names");

	tmpl_set(v, "name", NULL);
	check("<{{name}}>", v, 0, "<>", "unbinding");
	is_str(tmpl_get(v, "n"), "3", "tmpl_get");
	ok(tmpl_get(v, "name") == NULL, "tmpl_get of an unbound name");
	tmpl_vars_free(v);
}

static void test_standalone(void)
{
	struct tmpl_vars *v = tmpl_vars_new();

	tmpl_set(tmpl_add(v, "l"), "x", "one");
	tmpl_set(tmpl_add(v, "l"), "x", "two");
	check("Start\n{{#l}}\n  - {{x}}\n{{/l}}\n{{! a comment }}\nEnd\n", v, 0,
	      "Start\n  - one\n  - two\nEnd\n", "standalone tags take their line");
	check("a {{#l}}{{x}} {{/l}}b\n", v, 0, "a one two b\n", "inline tags keep the text");
	check("  {{#l}}  \n{{x}}\n  {{/l}}", v, 0, "one\ntwo\n",
	      "standalone with spaces and no final newline");
	tmpl_vars_free(v);
}

static void test_escaping(void)
{
	struct tmpl_vars *v = tmpl_vars_new();
	struct strbuf sb = STRBUF_INIT;

	tmpl_set(v, "evil", "a\rb\001c\033[31md\x7f\te\nf\x80g\xc3(h\xc2\x85i");
	check("{{evil}}", v, 0, "abc[31md\te\nf\xef\xbf\xbdg\xef\xbf\xbd(hi",
	      "controls (C0, C1, DEL) dropped, TAB/LF kept, bad UTF-8 replaced");
	tmpl_set(v, "tag", "{{evil}}");
	check("{{tag}}", v, 0, "{{evil}}", "values are not re-parsed");
	template_clean(&sb, "\xed\xa0\x80\xf4\x90\x80\x80\xe0\x80\xaf", 10);
	ok(!strstr(sb.buf, "\xed\xa0") && !strstr(sb.buf, "\xf4\x90"),
	   "surrogates, > U+10FFFF and overlongs are replaced");
	strbuf_release(&sb);
	is(template_columns("Zo\xc3\xab", 4), 3, "columns count characters");
	is(template_columns("\tx", 2), 9, "columns expand tabs");
	tmpl_vars_free(v);
}

static void test_errors(void)
{
	fails("{{#a}}x", "section 'a' is not closed", "unclosed section");
	fails("line1\n{{#a}}{{/b}}", "line 2: wrong closing tag", "mismatched close");
	fails("{{/a}}", "not open", "close without open");
	fails("x {{name", "unterminated tag", "unterminated tag");
	fails("{{bad name}}", "bad tag name", "bad name");
	fails("{{> part}}", "no partials here", "partial without a directory");
	{
		struct tmpl_vars *v = tmpl_vars_new();
		struct strbuf out = STRBUF_INIT;

		is(template_render(&out, "a\0{{x}}", 7, v, NULL), WW_EINPUT, "a NUL byte is refused");
		tmpl_vars_free(v);
		strbuf_release(&out);
	}
}

static void test_partials(void)
{
	char dir[] = "/tmp/t-template.XXXXXX";
	struct strbuf path = STRBUF_INIT, out = STRBUF_INIT, body = STRBUF_INIT;
	struct tmpl_vars *v = tmpl_vars_new();
	int ret;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	strbuf_addf(&path, "%s/main.txt", dir);
	strbuf_addstr(&body, "Hello\n{{#l}}\n{{> item.txt}}\n{{/l}}\nBye\n");
	strbuf_write_file(&body, path.buf);
	strbuf_reset(&path);
	strbuf_reset(&body);
	strbuf_addf(&path, "%s/item.txt", dir);
	strbuf_addstr(&body, "* {{x}}\n");
	strbuf_write_file(&body, path.buf);
	strbuf_reset(&path);
	strbuf_reset(&body);
	strbuf_addf(&path, "%s/loop.txt", dir);
	strbuf_addstr(&body, "{{> loop.txt}}");
	strbuf_write_file(&body, path.buf);

	tmpl_set(tmpl_add(v, "l"), "x", "one");
	tmpl_set(tmpl_add(v, "l"), "x", "two");
	ret = template_render_file(&out, dir, "main.txt", v, 72);
	is(ret, 0, "partials: renders");
	is_str(out.buf, "Hello\n* one\n* two\nBye\n", "partials: inserted per item");

	strbuf_reset(&out);
	ret = template_render_file(&out, dir, "loop.txt", v, 72);
	is(ret, WW_EINPUT, "recursive partials stop at the depth cap");
	strbuf_reset(&out);
	ret = template_render_file(&out, dir, "nope.txt", v, 72);
	is(ret, WW_ENOTFOUND, "a missing template is WW_ENOTFOUND");
	strbuf_reset(&body);
	strbuf_addstr(&body, "{{> ../main.txt}}");
	ret = template_render(&out, body.buf, body.len, v,
			      &(struct template_opts){ dir, "x", 0 });
	is(ret, WW_EINPUT, "a partial cannot leave its directory");

	unlink(path.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/item.txt", dir);
	unlink(path.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/main.txt", dir);
	unlink(path.buf);
	rmdir(dir);
	strbuf_release(&path);
	strbuf_release(&out);
	strbuf_release(&body);
	tmpl_vars_free(v);
}

static void test_fill(void)
{
	struct tmpl_vars *v = tmpl_vars_new();
	char longword[100];

	fill("one two three four five six seven\n", 14,
	     "one two three\nfour five six\nseven\n", "wraps prose");
	fill("one\ntwo three\n\nfour\n", 72, "one two three\n\nfour\n",
	     "joins a paragraph's lines, keeps blank lines");
	fill("text\n> +\tBUG_ON(a_very_long_condition_that_goes_on && and_on && and_on_and_on_and_on);\nmore\n",
	     20, "text\n> +\tBUG_ON(a_very_long_condition_that_goes_on && and_on && and_on_and_on_and_on);\nmore\n",
	     "quoted code is never wrapped nor joined");
	fill("a\n  | indented quote line that is long\n\tcode line\nb\n", 10,
	     "a\n  | indented quote line that is long\n\tcode line\nb\n",
	     "indented and piped lines are verbatim");
	fill("- first item that wraps around\n- second\n1. numbered item wraps too\n", 16,
	     "- first item\n  that wraps\n  around\n- second\n1. numbered item\n   wraps too\n",
	     "list items hang");
	fill("- item\n  continued here\n", 72, "- item continued here\n",
	     "list continuation lines join the item");
	fill("Thanks,\001\nwarnwatch\n", 72, "Thanks,\nwarnwatch\n", "hard break marker");
	fill("para\n-- \nsig line one that is really long and stays as it is\nx\n", 10,
	     "para\n-- \nsig line one that is really long and stays as it is\nx\n",
	     "signature is verbatim");
	fill("Zo\xc3\xab \xc3\xa5\xc3\xa5\xc3\xa5 bb\n", 6, "Zo\xc3\xab\n\xc3\xa5\xc3\xa5\xc3\xa5 bb\n",
	     "counts UTF-8 characters, not bytes");
	memset(longword, 'u', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = 0;
	{
		struct strbuf in = STRBUF_INIT, want = STRBUF_INIT;

		strbuf_addf(&in, "see %s for more\n", longword);
		strbuf_addf(&want, "see\n%s\nfor more\n", longword);
		fill(in.buf, 72, want.buf, "an over-long word gets its own line");
		strbuf_release(&in);
		strbuf_release(&want);
	}
	fill("use `if (WARN_ON_ONCE(c)) return -EINVAL;` here\n", 30,
	     "use\n`if (WARN_ON_ONCE(c)) return -EINVAL;`\nhere\n", "`inline code` is never broken");
	fill("a `b c` d\n", 4, "a\n`b c`\nd\n", "short inline code moves as one word");
	/* A folded line never starts with '>' (a false quote: a reply's
	 * "a + b > MAX" did) nor "From" (mbox escapes it). */
	fill("fold it, a + tx_airtime > S32_MAX, ...\n", 22,
	     "fold it, a +\ntx_airtime > S32_MAX,\n...\n", "'>' goes down with the word before it");
	fill("one see From here\n", 8, "one\nsee From\nhere\n", "... so does From");
	fill("x > y\n", 1, "x >\ny\n", "a '>' after a line's only word stays there, overlong");
	fill("a > > b\n", 3, "a > >\nb\n", "a carried word never starts a line with '>' either");
	fill("no newline at end", 72, "no newline at end", "keeps a missing final newline");
	fill("trailing   \n   \n", 72, "trailing\n\n", "trims trailing spaces");
	fill("a\n\n\n\nb\n-- \n\n\nsig\n", 72, "a\n\nb\n-- \n\n\nsig\n",
	     "blank runs squeezed, not in the signature");

	tmpl_set(v, "who", "Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m");
	check("Hi {{who}},\n\nThis patch adds a call that crashes the machine when the condition\nholds; please consider {{who}}'s other option.\n\nThanks,{{br}}\nwarnwatch\n",
	      v, 72,
	      "Hi Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m,\n\nThis patch adds a call that crashes the machine when the condition\nholds; please consider Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m's other option.\n\nThanks,\nwarnwatch\n",
	      "render + fill at 72, with {{br}}");
	check("a{{br}}\nb\n", v, 0, "a\nb\n", "{{br}} vanishes without filling");
	/* Found by fuzz-template: a backtick before {{br}} and one after it
	 * made one "word" that carried the break mark into the output. */
	check("can be`wrong.  A {{br}}x `y\n", v, 72, "can be`wrong. A\nx `y\n",
	      "{{br}} inside an unclosed `code` span is still a break");
	tmpl_vars_free(v);
}

int main(void)
{
	test_values();
	test_standalone();
	test_escaping();
	test_errors();
	test_partials();
	test_fill();
	return done_testing();
}
