/*
 * chronicle: the census of a list's tree, made by serve once per version
 * of the tree (issue 38.6): a second step does not count it again, a new
 * version (the top Makefile changed) is counted, a tree that is not there
 * is nothing to count, and [serve] history-batch reaches backfill.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "chronicle.h"
#include "serve.h"
#include "store.h"
#include "strbuf.h"
#include "tap.h"

static void write_file(const char *path, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, text);
	strbuf_write_file(&sb, path);
	strbuf_release(&sb);
}

/* How many files in `dir` end in `suffix`. */
static int count_files(const char *dir, const char *suffix)
{
	struct child ls;
	int n = 0;

	child_init(&ls);
	strvec_pushl(&ls.args, "ls", dir, NULL);
	if (!child_run(&ls))
		for (const char *p = ls.out.buf; (p = strstr(p, suffix)); p += strlen(suffix))
			n++;
	child_release(&ls);
	return n;
}

int main(void)
{
	char tmp[] = "/tmp/t-chronicle.XXXXXX";
	const char *top = getenv("WW_TOP");
	struct settings set = SETTINGS_INIT;
	struct serve_config cfg = SERVE_CONFIG_INIT;
	struct serve_list lists[2] = { { 0 } };
	struct chronicle c = CHRONICLE_INIT;
	struct store st = STORE_INIT;
	struct strbuf tree = STRBUF_INIT, p = STRBUF_INIT, census = STRBUF_INIT;
	struct child rm;

	if (!mkdtemp(tmp))
		return 1;
	strbuf_addf(&set.rules_dir, "%s/rules", top ? top : ".");
	set.state.dir = tmp;
	strbuf_addf(&tree, "%s/linux", tmp);
	mkdir(tree.buf, 0755);
	strbuf_addf(&p, "%s/Makefile", tree.buf);
	write_file(p.buf, "VERSION = 6\nPATCHLEVEL = 99\nSUBLEVEL = 0\n");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/a.c", tree.buf);
	write_file(p.buf, "void f(int x)\n{\n\tBUG_ON(x);\n\tWARN_ON(x);\n}\n");
	strbuf_addf(&census, "%s/%s", tmp, CHRONICLE_CENSUS_DIR);

	/* Two lists on the same tree, one on a tree that is not there. */
	lists[0] = (struct serve_list){ .name = "a", .archive = "http://127.0.0.1:1",
					.inbox = "a", .tree = tree.buf };
	lists[1] = (struct serve_list){ .name = "b", .archive = "http://127.0.0.1:1",
					.inbox = "b", .tree = "/nonexistent/linux.tar.xz" };
	cfg.settings = &set;
	cfg.lists = lists;
	cfg.nr_lists = 2;
	cfg.history = true;
	cfg.history_batch = 10;
	if (store_open(&st, tmp)) {
		ok(0, "state opens: %s", error_last());
		return done_testing();
	}

	is(chronicle_step(&c, &cfg, &st, 0), 1, "the first step counts the tree: %s",
	   error_last());
	is((int)c.last_census, 1, "once for the two lists that share it");
	is(count_files(census.buf, ".json"), 1, "one census file in STATE/census");
	is(chronicle_step(&c, &cfg, &st, 0), 0, "the second step: nothing new");
	is((int)c.last_census, 0, "the same version is not counted again");

	/* A new version of the tree: its Makefile changed. */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/Makefile", tree.buf);
	write_file(p.buf, "VERSION = 6\nPATCHLEVEL = 100\nSUBLEVEL = 0\n# a new release\n");
	is(chronicle_step(&c, &cfg, &st, 0), 1, "a new version of the tree is counted");
	is(count_files(census.buf, ".json"), 2, "  into a file of its own");

	store_close(&st);
	chronicle_release(&c);
	strbuf_release(&set.rules_dir);
	child_init(&rm);
	strvec_pushl(&rm.args, "rm", "-rf", tmp, NULL);
	child_run(&rm);
	child_release(&rm);
	strbuf_release(&tree);
	strbuf_release(&p);
	strbuf_release(&census);
	return done_testing();
}
