/*
 * census on a small tree written here, as a directory and as a tarball
 * (libarchive writes it): per macro, class and subsystem counts, wrapper
 * scoping (include/ is global, other headers their directory, .c files
 * themselves), what is not a call, the release, and the JSON shape.
 */
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>

#include "census.h"
#include "census-priv.h"
#include "child.h"
#include "strbuf.h"
#include "tap.h"

static const struct { const char *path, *text; } files[] = {
	{ "Makefile", "# SPDX\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 3\nEXTRAVERSION =\nNAME = Baby Opossum Posse\n" },
	{ "MAINTAINERS",
	  "List of maintainers\n\n"
	  "DRIVER A\nM:\tA <a@example.org>\nF:\tdrivers/a/\n\n"
	  "DRIVER A CORE\nF:\tdrivers/a/core.c\n\n"
	  "THE REST\nF:\t*\nF:\t*/\n" },
	{ "include/linux/mybug.h",
	  "#define MY_BUG_ON(x) BUG_ON(x)\n"
	  "#define BUG_ON(c) do { if (c) BUG(); } while (0)\n" },
	{ "drivers/a/a.h", "#define A_ASSERT(x) WARN_ON(!(x))\n" },
	{ "drivers/a/a.c",
	  "#include \"a.h\"\n"
	  "#define LOCAL_CHECK(x) BUG_ON(x)\n"
	  "/* BUG_ON(in a comment) is not a call */\n"
	  "static const char *s = \"BUG_ON(in a string)\";\n"
	  "void f(int x)\n{\n"
	  "\tBUG_ON(x > 1);\n"
	  "\tMY_BUG_ON(x > 2);\n"
	  "\tA_ASSERT(x);\n"
	  "\tLOCAL_CHECK(x == 3);\n"
	  "\tBUILD_BUG_ON(sizeof(int) != 4);\n"
	  "\tif (WARN_ON_ONCE(x < 0) && WARN_ON(x < -1))\n\t\treturn;\n"
	  "}\n" },
	{ "drivers/a/core.c", "void g(void)\n{\n\tpanic(\"no\");\n}\n" },
	{ "drivers/b/b.c",
	  "void h(int x)\n{\n"
	  "\tA_ASSERT(x);\t/* drivers/a/a.h is not visible here */\n"
	  "\tLOCAL_CHECK(x);\t/* nor is drivers/a/a.c's macro */\n"
	  "\tMY_BUG_ON(x);\n"
	  "\tWARN_ON_ONCE(x);\n"
	  "}\n" },
	{ "Documentation/example.c", "void d(void) { BUG_ON(1); }\n" },
	{ "drivers/a/README", "BUG_ON(1) in a text file\n" },
};

static void write_tree(const char *top)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", top, files[i].path);
		for (char *p = path.buf + strlen(top) + 1; (p = strchr(p, '/')); p++) {
			*p = '\0';
			mkdir(path.buf, 0755);
			*p = '/';
		}
		strbuf_reset(&text);
		strbuf_addstr(&text, files[i].text);
		if (strbuf_write_file(&text, path.buf))
			printf("# cannot write %s\n", path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&text);
}

static void write_tarball(const char *file)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	struct strbuf name = STRBUF_INIT;

	archive_write_add_filter_gzip(a);
	archive_write_set_format_pax_restricted(a);
	archive_write_open_filename(a, file);
	archive_entry_set_pathname(e, "linux-source-6.12/");
	archive_entry_set_filetype(e, AE_IFDIR);
	archive_entry_set_perm(e, 0755);
	archive_write_header(a, e);
	/* Reverse order: a tarball need not list headers or MAINTAINERS first. */
	for (size_t i = ARRAY_SIZE(files); i-- > 0; ) {
		archive_entry_clear(e);
		strbuf_reset(&name);
		strbuf_addf(&name, "linux-source-6.12/%s", files[i].path);
		archive_entry_set_pathname(e, name.buf);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, strlen(files[i].text));
		archive_write_header(a, e);
		archive_write_data(a, files[i].text, strlen(files[i].text));
	}
	archive_entry_free(e);
	archive_write_close(a);
	archive_write_free(a);
	strbuf_release(&name);
}

static long macro_calls(const struct census *c, const char *name)
{
	for (size_t i = 0; i < c->nr_macros; i++)
		if (!strcmp(c->macros[i].name, name))
			return c->macros[i].calls;
	return 0;
}

static const struct census_subsystem *subsystem(const struct census *c,
						 const char *name)
{
	for (size_t i = 0; i < c->nr_subsystems; i++)
		if (!strcmp(c->subsystems[i].name, name))
			return &c->subsystems[i];
	return NULL;
}

static void check_counts(const char *what, const char *tree, const char *rules)
{
	struct ruleset rs = RULESET_INIT;
	struct census c = CENSUS_INIT;
	const struct census_subsystem *a, *core, *rest;
	json_t *j;

	if (rules_load(&rs, rules)) {
		ok(0, "%s: rules load: %s", what, error_last());
		return;
	}
	is(census_tree(&c, tree, &rs, NULL), 0, "%s: census runs", what);
	is_str(c.release, "6.12.3", "%s: release from the Makefile", what);
	is(c.files, 5, "%s: five .c/.h files (Documentation/ and README not scanned)", what);
	is(macro_calls(&c, "BUG_ON"), 1, "%s: one BUG_ON call (not the comment, string, define, BUILD_BUG_ON)", what);
	is(macro_calls(&c, "MY_BUG_ON"), 2, "%s: include/ wrapper seen everywhere", what);
	is(macro_calls(&c, "A_ASSERT"), 1, "%s: directory header wrapper only in its directory", what);
	is(macro_calls(&c, "LOCAL_CHECK"), 1, "%s: .c wrapper only in its file", what);
	/* In the tarball drivers/b/b.c comes before a.c defines LOCAL_CHECK. */
	ok(c.out_of_scope >= 1, "%s: wrapper-named calls where no definition is visible are dropped", what);
	is(macro_calls(&c, "WARN_ON_ONCE"), 2, "%s: WARN_ON_ONCE in a condition", what);
	is(macro_calls(&c, "WARN_ON"), 1, "%s: two calls on one line", what);
	is(macro_calls(&c, "panic"), 1, "%s: panic()", what);
	is(c.classes[RC_BUG], 4, "%s: bug class: BUG_ON, 2 MY_BUG_ON, LOCAL_CHECK", what);
	is(c.classes[RC_WARN], 2, "%s: warn class: WARN_ON and A_ASSERT (a WARN_ON wrapper)", what);
	is(c.total, 9, "%s: nine calls", what);
	a = subsystem(&c, "DRIVER A");
	core = subsystem(&c, "DRIVER A CORE");
	rest = subsystem(&c, "THE REST");
	ok(a && a->total == 6 && a->classes[RC_BUG] == 3,
	   "%s: drivers/a/a.c goes to DRIVER A", what);
	ok(core && core->total == 1 && core->classes[RC_PANIC] == 1,
	   "%s: drivers/a/core.c goes to its more specific section", what);
	ok(rest && rest->total == 2, "%s: drivers/b/ goes to THE REST", what);
	ok(c.nr_subsystems == 3 && c.subsystems[0].total >= c.subsystems[1].total,
	   "%s: subsystems sorted by calls", what);

	j = census_to_json(&c);
	is(json_integer_value(json_object_get(j, "files")), 5, "%s: JSON files", what);
	is(json_integer_value(json_object_get(json_object_get(j, "calls"), "MY_BUG_ON")), 2,
	   "%s: JSON calls per macro", what);
	is(json_integer_value(json_object_get(json_object_get(j, "classes"), "bug")), 4,
	   "%s: JSON calls per class", what);
	is(json_integer_value(json_object_get(json_object_get(j, "totals"), "bug_on_family")), 4,
	   "%s: JSON BUG_ON family (BUG_ON, MY_BUG_ON, LOCAL_CHECK wrap BUG_ON)", what);
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(j, "subsystems"), 0), "name")),
	       "DRIVER A", "%s: JSON subsystems[0].name", what);
	is(json_integer_value(json_object_get(json_object_get(j, "dirs"), "drivers")), 9,
	   "%s: JSON calls per top directory", what);
	json_decref(j);
	census_release(&c);
	ruleset_release(&rs);
}

static void check_no_wrappers(const char *tree, const char *rules)
{
	struct ruleset rs = RULESET_INIT;
	struct census c = CENSUS_INIT;
	struct census_opts opts = CENSUS_OPTS_INIT;

	opts.flags = CENSUS_NO_WRAPPERS;
	rules_load(&rs, rules);
	is(census_tree(&c, tree, &rs, &opts), 0, "--no-wrappers: census runs");
	is(c.total, 5, "--no-wrappers: only the rules' own macros");
	is(c.wrappers, 0, "--no-wrappers: no definitions collected");
	census_release(&c);
	ruleset_release(&rs);
}

/*
 * A chain of wrappers, each wrapping the one before, all in include/: every
 * definition reads the inner one's root and class while p->defs grows past
 * 16, 32, 64 slots (regression: a pointer kept across ALLOC_GROW, a
 * heap-use-after-free under ASan).
 */
static void check_wrapper_chain(const char *rules)
{
	struct ruleset rs = RULESET_INIT;
	struct census c = CENSUS_INIT;
	struct census_priv *p;
	struct strbuf name = STRBUF_INIT, like = STRBUF_INIT;
	size_t i, bad = 0, di;

	rules_load(&rs, rules);
	census_priv_init(&c, "chain");
	p = c.priv;
	strbuf_addstr(&like, "WARN_ON");
	for (i = 0; i < 100; i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "CHAIN_WARN_%zu", i);
		if (!census_add_def(&c, &rs, name.buf, like.buf,
				    "include/linux/chain.h"))
			bad++;
		strbuf_reset(&like);
		strbuf_addbuf(&like, &name);
	}
	is(bad, 0, "wrapper chain: 100 definitions added");
	is(p->nr_defs, 100, "wrapper chain: 100 definitions kept");
	di = census_visible_def(p, "CHAIN_WARN_99", "drivers/x.c");
	ok(di != CENSUS_NO_DEF, "wrapper chain: the last one is visible everywhere");
	for (i = bad = 0; i < p->nr_defs; i++)
		if (strcmp(p->defs[i].root, "WARN_ON") || p->defs[i].class != RC_WARN)
			bad++;
	is(bad, 0, "wrapper chain: every definition ends in WARN_ON, class warn");
	strbuf_release(&name);
	strbuf_release(&like);
	census_release(&c);
	ruleset_release(&rs);
}

static void check_errors(const char *rules)
{
	struct ruleset rs = RULESET_INIT;
	struct census c = CENSUS_INIT;

	rules_load(&rs, rules);
	is(census_tree(&c, "/nonexistent/linux.tar.xz", &rs, NULL), WW_ENOTFOUND,
	   "a missing tree is not found");
	ok(strstr(error_last(), "/nonexistent/linux.tar.xz") != NULL,
	   "the error names it");
	census_release(&c);
	ruleset_release(&rs);
}

int main(void)
{
	char tmpl[] = "/tmp/t-census.XXXXXX";
	const char *top = getenv("WW_TOP");
	struct strbuf rules = STRBUF_INIT, tree = STRBUF_INIT, tar = STRBUF_INIT;
	struct child rm;

	if (!mkdtemp(tmpl))
		return 1;
	strbuf_addf(&rules, "%s/rules", top ? top : ".");
	strbuf_addf(&tree, "%s/linux", tmpl);
	strbuf_addf(&tar, "%s/linux.tar.gz", tmpl);
	mkdir(tree.buf, 0755);
	write_tree(tree.buf);
	write_tarball(tar.buf);

	check_counts("directory", tree.buf, rules.buf);
	check_counts("tarball", tar.buf, rules.buf);
	check_no_wrappers(tree.buf, rules.buf);
	check_wrapper_chain(rules.buf);
	check_errors(rules.buf);

	child_init(&rm);
	strvec_pushl(&rm.args, "rm", "-rf", tmpl, NULL);
	child_run(&rm);
	child_release(&rm);
	strbuf_release(&rules);
	strbuf_release(&tree);
	strbuf_release(&tar);
	return done_testing();
}
