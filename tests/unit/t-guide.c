/*
 * Unit tests for bot/review/guide.c: reStructuredText sections, finding them by
 * heading (also when reworded), quoting verbatim, locating a tree.
 */
#include "guide.h"
#include "env.h"
#include "tap.h"

#include <sys/stat.h>
#include <unistd.h>

static const char rst[] =
	".. _codingstyle:\n"
	"\n"
	"Linux kernel coding style\n"
	"=========================\n"
	"\n"
	"Intro.\n"
	"\n"
	"22) Do not crash the kernel\n"
	"---------------------------\n"
	"\n"
	"In general, crashing is the user's decision.\n"
	"\n"
	"Use WARN() rather than BUG()\n"
	"****************************\n"
	"\n"
	"Do not add new code that uses any of the BUG() variants.\n"
	"Second line.\n"
	"\n"
	"\n"
	"Third paragraph with ``markup``.\n"
	"\n"
	"The panic_on_warn kernel option\n"
	"********************************\n"
	"\n"
	"Note that ``panic_on_warn`` is an available kernel option.\n"
	"\n"
	"Appendix I) References\n"
	"----------------------\n"
	"\n"
	"K&R.\n";

int main(void)
{
	struct guide g = GUIDE_INIT;
	const struct guide_section *s;
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	char dir[] = "/tmp/t-guide.XXXXXX";

	is(guide_parse(&g, rst, strlen(rst), "test.rst"), 0, "parses");
	is(g.nr, 5, "five headings");
	is_str(g.v[0].heading, "Linux kernel coding style", "title");
	is(g.v[0].level, 0, "title level");
	is(g.v[1].level, 1, "'-' underline level");
	is(g.v[2].level, 2, "'*' underline level");
	is(g.v[4].level, 1, "levels by first use");

	s = guide_find(&g, "Use WARN() rather than BUG()");
	ok(s && !strcmp(s->heading, "Use WARN() rather than BUG()"), "exact heading");
	s = guide_find(&g, "use warn() rather than bug()");
	ok(s && s == &g.v[2], "case does not matter");
	s = guide_find(&g, "Do not crash the kernel");
	ok(s && s == &g.v[1], "numbering '22)' is ignored");
	s = guide_find(&g, "Do not worry about panic_on_warn users");
	ok(s && s == &g.v[3], "a reworded heading is found by its identifiers");
	ok(guide_find(&g, "Naming") == NULL, "no match is NULL");
	ok(guide_find_exact(&g, "Do not worry about panic_on_warn users") == NULL,
	   "exact lookup does not take a neighbour");
	ok(guide_find_exact(&g, "the PANIC_ON_WARN kernel option") == &g.v[3],
	   "exact lookup ignores case");
	ok(guide_find(&g, "") == NULL, "empty heading is NULL");

	s = guide_find(&g, "Use WARN() rather than BUG()");
	guide_quote(&sb, &g, s, "  | ");
	is_str(sb.buf,
	       "  | Use WARN() rather than BUG()\n"
	       "  | ****************************\n"
	       "  |\n"
	       "  | Do not add new code that uses any of the BUG() variants.\n"
	       "  | Second line.\n"
	       "  |\n"
	       "  | Third paragraph with ``markup``.\n",
	       "quoted verbatim, heading included, blank runs squeezed, no trailing blank");

	{
		struct guide big = GUIDE_INIT;
		struct strbuf text = STRBUF_INIT;

		strbuf_addstr(&text, "Long\n====\n\n");
		for (int i = 0; i < 50; i++)
			strbuf_addf(&text, "line %d\n", i);
		guide_parse(&big, text.buf, text.len, "big.rst");
		strbuf_reset(&sb);
		guide_quote(&sb, &big, &big.v[0], "> ");
		ok(ends_with(sb.buf, "> [...]\n"), "long sections are cut with [...]");
		guide_release(&big);
		strbuf_release(&text);
	}
	{
		struct guide none = GUIDE_INIT;

		is(guide_parse(&none, "no headings\n", 12, "x.rst"), WW_EINPUT, "no headings: error");
		guide_release(&none);
	}

	/* Locating: an explicit tree wins and must have the file. */
	if (mkdtemp(dir)) {
		struct strbuf f = STRBUF_INIT, body = STRBUF_INIT;

		is(guide_locate(&path, dir, NULL, NULL), WW_ENOTFOUND, "a tree without the file");
		ok(strstr(error_last(), "has no Documentation/process/coding-style.rst") != NULL,
		   "says so: %s", error_last());
		strbuf_addf(&f, "%s/Documentation", dir);
		mkdir(f.buf, 0755);
		strbuf_addstr(&f, "/process");
		mkdir(f.buf, 0755);
		strbuf_addstr(&f, "/coding-style.rst");
		strbuf_addstr(&body, rst);
		strbuf_write_file(&body, f.buf);
		is(guide_locate(&path, dir, NULL, NULL), 0, "a tree with the file");
		is_str(path.buf, f.buf, "its path");
		guide_release(&g);
		is(guide_load_tree(&g, dir), 0, "loads from the tree");
		/* A cache holding an extracted tree is used without a tarball. */
		is(guide_locate(&path, NULL, "/nonexistent-cache", "/nonexistent/linux-source-6.1.tar.xz"),
		   WW_ENOTFOUND, "no tree, no tarball: not found");
		unlink(f.buf);
		for (int i = 0; i < 2; i++) {
			*strrchr(f.buf, '/') = 0;
			rmdir(f.buf);
		}
		rmdir(dir);
		strbuf_release(&f);
		strbuf_release(&body);
	}
	setenv("WARNWATCH_CACHE", "/var/cache/ww", 1);
	env_reload();
	{
		char *c = guide_cache_dir();

		is_str(c, "/var/cache/ww", "WARNWATCH_CACHE");
		free(c);
	}
	guide_release(&g);
	strbuf_release(&sb);
	strbuf_release(&path);
	return done_testing();
}
