/*
 * Unit tests for rule loading (bot/check/rules.c): the real rules/ (lookups,
 * classes, path overrides, sections that exist in coding-style.rst),
 * tree wrappers, and malformed rule files, whose errors must name the
 * file and the key.
 */
#include "rules.h"
#include "guide.h"
#include "strbuf.h"
#include "env.h"
#include "tap.h"

#include <sys/stat.h>
#include <unistd.h>

/* The subsections of "22) Do not crash the kernel" in 6.1 and 6.12. */
static const char *const sections[] = {
	"Avoid panic()",
	"Use WARN() rather than BUG()",
	"Use WARN_ON_ONCE() rather than WARN() or WARN_ON()",
	"Do not WARN lightly",
	"Do not worry about panic_on_warn users",
	"Use BUILD_BUG_ON() for compile-time assertions",
};

static struct ruleset rs = RULESET_INIT;
static struct strbuf rules_dir = STRBUF_INIT;

static const struct rule *lookup(const char *name)
{
	return rules_lookup(&rs, name, strlen(name));
}

static void test_lookups(void)
{
	const struct rule *r;
	char call[] = "BUG_ON(x)";

	ok(rs.nr >= 60, "the real rules load (%zu macros)", rs.nr);
	is_str(rs.guidance_file, "Documentation/process/coding-style.rst",
	       "guidance file");

	r = lookup("BUG_ON");
	ok(r && r->class == RC_BUG && r->severity == SEV_ERROR, "BUG_ON: bug, error");
	if (r) {
		is_str(r->id, "new-bug", "BUG_ON: id");
		is_str(r->section, "Use WARN() rather than BUG()", "BUG_ON: section");
		is_str(r->replacement, "WARN_ON_ONCE", "BUG_ON: replacement");
		ok(strstr(r->message, "BUG_ON()") != NULL, "BUG_ON: message names it");
		ok(strstr(r->suggest, "if (WARN_ON_ONCE(cond)) return -EINVAL;") != NULL,
		   "BUG_ON: suggestion with recovery");
		ok(r->credit && strstr(r->credit, "BUG_ON()"), "BUG_ON: credit");
		ok(!strchr(r->message, '{') && !strchr(r->credit, '{'),
		   "BUG_ON: placeholders expanded");
	}
	ok(rules_lookup(&rs, call, 6) == r, "lookup of a name that is not NUL-terminated");
	r = lookup("WARN_ON");
	ok(r && r->class == RC_WARN && r->severity == SEV_WARNING &&
	   !strcmp(r->replacement, "WARN_ON_ONCE"), "WARN_ON: warn, warning, WARN_ON_ONCE");
	r = lookup("WARN");
	ok(r && r->class == RC_WARN && !strcmp(r->replacement, "WARN_ONCE"),
	   "WARN: suggests WARN_ONCE");
	r = lookup("WARN_ON_ONCE");
	ok(r && r->class == RC_WARN_ONCE && r->severity == SEV_INFO &&
	   !strcmp(r->section, "Do not WARN lightly"), "WARN_ON_ONCE: warn-once, info");
	r = lookup("panic");
	ok(r && r->class == RC_PANIC && r->severity == SEV_ERROR &&
	   !strcmp(r->section, "Avoid panic()"), "panic: panic, error");
	r = lookup("VM_BUG_ON_FOLIO");
	ok(r && r->class == RC_BUG && !strcmp(r->replacement, "VM_WARN_ON_ONCE_FOLIO"),
	   "VM_BUG_ON_FOLIO: bug, VM_WARN_ON_ONCE_FOLIO");
	r = lookup("VM_WARN_ON_ONCE");
	ok(r && r->class == RC_WARN_ONCE, "VM_WARN_ON_ONCE: warn-once");
	r = lookup("snd_BUG_ON");
	ok(r && r->class == RC_WARN_LIKE, "snd_BUG_ON: warn-like");
	r = lookup("GEM_BUG_ON");
	ok(r && r->class == RC_DEBUG_ONLY && r->severity == SEV_INFO,
	   "GEM_BUG_ON: debug-only, info");
	r = lookup("drm_WARN_ON_ONCE");
	ok(r && r->class == RC_WARN_ONCE, "drm_WARN_ON_ONCE: warn-once");

	ok(!lookup("BUILD_BUG_ON") && !lookup("BUILD_BUG") &&
	   !lookup("BUILD_BUG_ON_INVALID") && !lookup("static_assert"),
	   "compile-time assertions are not rules");
	ok(!lookup("pr_warn") && !lookup("dev_warn_once") &&
	   !lookup("lockdep_assert_held") && !lookup("ASSERT"),
	   "printk warnings, lock assertions and ASSERT are not rules");
	ok(!lookup("BUG_ONX") && !lookup("BUG_O") && !lookup("bug_on") &&
	   !lookup("") && !lookup("_"), "no partial or case-insensitive matches");
}

static void test_every_rule(void)
{
	bool classes[RC__NR] = { false };
	size_t i, j, bad_section = 0, bad_text = 0;

	for (i = 0; i < rs.nr; i++) {
		const struct rule *r = &rs.rules[i];
		bool known = false;

		classes[r->class] = true;
		for (j = 0; j < ARRAY_SIZE(sections); j++)
			known |= !strcmp(r->section, sections[j]);
		if (!known && bad_section++ < 3)
			printf("# %s: section '%s' is not in coding-style.rst\n",
			       r->macro, r->section);
		if ((!r->message || !r->suggest || !r->credit || !r->id ||
		     strstr(r->message, "{macro}") || strstr(r->suggest, "{replacement}")) &&
		    bad_text++ < 3)
			printf("# %s: incomplete texts\n", r->macro);
		if (rules_lookup(&rs, r->macro, strlen(r->macro)) != r)
			bad_text++;
	}
	is(bad_section, 0, "every rule cites a subsection of \"Do not crash the kernel\"");
	is(bad_text, 0, "every rule has its texts and is found by lookup");
	for (i = 0; i < RC__NR; i++)
		ok(classes[i], "some macro has class %s", rule_class_name(i));
}

/*
 * The sections, checked against the real file when one is at hand: where
 * `review` finds it (guide_locate(): the cache, extracted from the
 * linux-source tarball on first use), or $WW_CODING_STYLE.
 */
static void test_sections_in_tree(void)
{
	struct strbuf path = STRBUF_INIT, doc = STRBUF_INIT;
	const char *env = getenv("WW_CODING_STYLE");
	char *cache = guide_cache_dir();
	size_t i;
	int ret = 0;

	if (env)
		strbuf_addstr(&path, env);
	else
		ret = guide_locate(&path, NULL, cache, NULL);
	if (ret < 0 || strbuf_read_file(&doc, path.buf, 0) < 0) {
		skip("not-installed: linux-source-6.1, to read coding-style.rst from",
		     "sections in the real coding-style.rst (%s)",
		     ret < 0 ? error_last() : path.buf);
		error_clear();
	} else {
		size_t missing = 0;

		for (i = 0; i < ARRAY_SIZE(sections); i++) {
			struct strbuf heading = STRBUF_INIT;

			/* An RST heading: the text on its own line. */
			strbuf_addf(&heading, "\n%s\n", sections[i]);
			if (!strstr(doc.buf, heading.buf)) {
				printf("# missing heading '%s'\n", sections[i]);
				missing++;
			}
			strbuf_release(&heading);
		}
		is(missing, 0, "the cited headings are in %s", path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&doc);
	free(cache);
}

static void test_paths(void)
{
	static const struct {
		const char *path;
		enum severity want;
	} cases[] = {
		{ "drivers/foo/bar.c", SEV_ERROR },
		{ "mm/memory.c", SEV_ERROR },
		{ "tools/testing/selftests/mm/gup_test.c", SEV_INFO },
		{ "tools/include/linux/bug.h", SEV_INFO },
		{ "samples/kfifo/bytestream-example.c", SEV_INFO },
		{ "scripts/mod/modpost.c", SEV_INFO },
		{ "lib/test_xarray.c", SEV_INFO },
		{ "lib/test-kstrtox.c", SEV_INFO },
		{ "lib/globtest.c", SEV_INFO },
		{ "lib/kunit/test.c", SEV_INFO },
		{ "lib/cmdline_kunit.c", SEV_INFO },
		{ "mm/kasan/kasan_test.c", SEV_INFO },
		{ "fs/ext4/inode-test.c", SEV_INFO },
		{ "fs/btrfs/tests/inode-tests.c", SEV_INFO },
		{ "drivers/gpu/drm/i915/selftests/i915_gem.c", SEV_INFO },
		{ "drivers/gpu/drm/i915/gt/selftest_rps.c", SEV_INFO },
		/* Production code with "test" in its name stays an error. */
		{ "net/bpf/test_run.c", SEV_ERROR },
		{ "drivers/net/wireless/ath/ath10k/testmode.c", SEV_ERROR },
		{ "net/ethtool/cabletest.c", SEV_ERROR },
		{ "mm/memtest.c", SEV_ERROR },
		{ "crypto/testmgr.c", SEV_ERROR },
		{ "drivers/gpu/drm/amd/amdgpu/amdgpu_fw_attestation.c", SEV_ERROR },
	};
	const struct rule *bug = lookup("BUG_ON"), *once = lookup("WARN_ON_ONCE");
	size_t i;

	if (!bug || !once) {
		ok(0, "BUG_ON and WARN_ON_ONCE are rules");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		is(rules_severity(&rs, bug, cases[i].path), cases[i].want,
		   "BUG_ON in %s: %s", cases[i].path, severity_name(cases[i].want));
	is(rules_severity(&rs, once, "tools/lib/x.c"), SEV_INFO,
	   "an override never raises a severity");
	is(rules_severity(&rs, bug, NULL), SEV_ERROR, "no path: the rule's severity");

	ok(!rules_path_scanned(&rs, "Documentation/process/coding-style.rst"),
	   "Documentation/ is not scanned");
	ok(!rules_path_scanned(&rs, "Documentation/foo/example.c"),
	   "not even its C files");
	ok(rules_path_scanned(&rs, "drivers/foo/bar.c") &&
	   rules_path_scanned(&rs, "include/linux/bug.h"), ".c and .h are scanned");
	ok(!rules_path_scanned(&rs, "arch/x86/kernel/head_64.S") &&
	   !rules_path_scanned(&rs, "rust/kernel/lib.rs") &&
	   !rules_path_scanned(&rs, "mm/Makefile"), "other files are not");
}

static void test_ignored(void)
{
	static const char *const never[] = {
		"BUILD_BUG_ON", "BUILD_BUG_ON_ZERO", "BUILD_BUG", "static_assert",
		"lockdep_assert_held", "lockdep_assert_irqs_disabled", "ASSERT_RTNL",
		"pr_warn_once", "dev_warn_ratelimited", "ASSERT", "KUNIT_ASSERT_EQ",
	};

	static const char *const wrapped[] = {
		"BUILD_BUG_ON", "BUILD_BUG", "static_assert",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(never); i++)
		ok(rules_ignored(&rs, never[i]), "on the ignore list: %s", never[i]);
	/*
	 * What the list is for: check learns wrappers from a series'
	 * #defines, and one that defines BUILD_BUG_ON over BUG_ON must still
	 * not get it flagged.  The scanner's side (no hit for the names) is
	 * t-scan's.
	 */
	for (i = 0; i < ARRAY_SIZE(wrapped); i++)
		ok(rules_add_wrapper(&rs, wrapped[i], lookup("BUG_ON")) == 1 &&
		   !lookup(wrapped[i]),
		   "never flagged, even defined as a wrapper of BUG_ON: %s", wrapped[i]);
	ok(!rules_ignored(&rs, "BUG_ON") && !rules_ignored(&rs, "J_ASSERT"),
	   "rules are not ignored");
	ok(rules_may_end_with(&rs, 'N') && rules_may_end_with(&rs, 'c') &&
	   !rules_may_end_with(&rs, 'z') && !rules_may_end_with(&rs, ')'),
	   "last-byte filter");
}

static void test_wrappers(void)
{
	const struct rule *r;
	size_t i, before = rs.nr;
	int ret;

	ret = rules_add_wrapper(&rs, "FOO_BUG_ON", lookup("BUG_ON"));
	is(ret, 0, "add wrapper FOO_BUG_ON around BUG_ON");
	r = lookup("FOO_BUG_ON");
	ok(r && r->class == RC_BUG && r->severity == SEV_ERROR &&
	   !strcmp(r->wraps, "BUG_ON") && !strcmp(r->id, "new-bug"),
	   "the wrapper is classed like BUG_ON");
	ok(r && strstr(r->message, "new FOO_BUG_ON()") &&
	   strstr(r->message, "FOO_BUG_ON() wraps BUG_ON()"),
	   "its message names both");
	is(rules_add_wrapper(&rs, "FOO_BUG_ON", lookup("WARN_ON")), 1,
	   "a second definition keeps the first");
	is(rules_add_wrapper(&rs, "WARN_ON_ONCE", lookup("WARN_ON")), 1,
	   "a rule is never redefined by a tree");
	is(rules_add_wrapper(&rs, "lockdep_assert_held", lookup("WARN_ON")), 1,
	   "nor is a name never flagged");
	is(rules_add_wrapper(&rs, "1abc", lookup("WARN_ON")), WW_EINPUT,
	   "a wrapper must be an identifier");
	/* `like` points into the array that grows: it must survive. */
	for (i = 0; i < 500; i++) {
		char name[32];

		snprintf(name, sizeof(name), "W%zu_WARN", i);
		if (rules_add_wrapper(&rs, name, &rs.rules[rs.nr - 1]) != 0)
			break;
	}
	is(i, 500, "500 wrappers of wrappers");
	r = lookup("W499_WARN");
	ok(r && r->class == RC_BUG && !strcmp(r->wraps, "W498_WARN"),
	   "the last one is still classed like BUG_ON");
	ok(lookup("BUG_ON") && lookup("W0_WARN") && lookup("FOO_BUG_ON"),
	   "lookups work after the table grew");
	is(rs.nr, before + 501, "%zu rules", before + 501);
}

/* Load `doc` as "rules/foo.json" into a copy of nothing; return the error. */
static int load_doc(struct ruleset *into, const char *doc)
{
	error_clear();
	return rules_load_buf(into, doc, strlen(doc), "rules/foo.json");
}

static void bad_doc(const char *name, const char *doc, const char *want)
{
	struct ruleset tmp = RULESET_INIT;
	int ret = load_doc(&tmp, doc);

	is(ret, WW_EINPUT, "%s: WW_EINPUT", name);
	is_str(error_last(), want, "%s: message", name);
	ruleset_release(&tmp);
}

#define FAM_BODY(class, macro) \
	"{\"id\": \"x\", \"class\": \"" class "\", \"severity\": \"error\"," \
	" \"section\": \"s\", \"message\": \"m\", \"suggest\": \"s\"," \
	" \"credit\": \"c\", \"macros\": [\"" macro "\"]}"

#define FAM(extra) \
	"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"error\"," \
	" \"section\": \"s\", \"message\": \"new {macro}()\", \"suggest\": \"s\"," \
	" \"credit\": \"c\", \"macros\": [\"MY_BUG\"]" extra "}]}"

static void test_malformed(void)
{
	struct ruleset tmp = RULESET_INIT;

	is(load_doc(&tmp, FAM("")), 0, "a minimal family loads");
	ok(rules_lookup(&tmp, "MY_BUG", 6) &&
	   !strcmp(rules_lookup(&tmp, "MY_BUG", 6)->message, "new MY_BUG()"),
	   "and expands {macro}");
	is(load_doc(&tmp, FAM("")), WW_EINPUT, "a second definition of a macro");
	is_str(error_last(), "rules/foo.json: families[0].macros[0]: 'MY_BUG' "
	       "already defined in rules/foo.json", "names both files");
	ruleset_release(&tmp);

	bad_doc("not JSON", "{\"families\": [",
		"rules/foo.json:1:14: ']' expected near end of file");
	bad_doc("a duplicate key", "{\"paths\": {}, \"paths\": {}}",
		"rules/foo.json:1:21: duplicate object key near '\"paths\"'");
	bad_doc("not an object", "[1]", "rules/foo.json: not a JSON object");
	bad_doc("an unknown top-level key", "{\"familes\": []}",
		"rules/foo.json: familes: unknown key");
	bad_doc("an unknown class",
		"{\"families\": [" FAM_BODY("bug", "A") ", " FAM_BODY("panic", "B") ", "
		FAM_BODY("bugz", "C") "]}",
		"rules/foo.json: families[2].class: unknown class 'bugz'");
	bad_doc("an unknown severity",
		"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"fatal\","
		" \"section\": \"s\", \"message\": \"m\", \"suggest\": \"s\", \"credit\": \"c\","
		" \"macros\": [\"X\"]}]}",
		"rules/foo.json: families[0].severity: unknown severity 'fatal'");
	bad_doc("a misspelt key", FAM(", \"sevrity\": \"error\""),
		"rules/foo.json: families[0].sevrity: unknown key");
	bad_doc("a missing key",
		"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"error\"}]}",
		"rules/foo.json: families[0].section: missing");
	bad_doc("a wrong type", "{\"families\": [{\"id\": 3}]}",
		"rules/foo.json: families[0].id: not a string");
	bad_doc("credit as a severity",
		"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"credit\","
		" \"section\": \"s\", \"message\": \"m\", \"suggest\": \"s\", \"credit\": \"c\","
		" \"macros\": [\"X\"]}]}",
		"rules/foo.json: families[0].severity: 'credit' is for removals, "
		"not a severity for added calls");
	bad_doc("an empty macro list",
		"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"error\","
		" \"section\": \"s\", \"message\": \"m\", \"suggest\": \"s\", \"credit\": \"c\","
		" \"macros\": []}]}",
		"rules/foo.json: families[0].macros: not a non-empty array");
	bad_doc("a macro that is not an identifier",
		"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"error\","
		" \"section\": \"s\", \"message\": \"m\", \"suggest\": \"s\", \"credit\": \"c\","
		" \"macros\": [\"OK\", \"BUG ON\"]}]}",
		"rules/foo.json: families[0].macros[1]: 'BUG ON' is not a C identifier");
	bad_doc("an unknown placeholder",
		"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"error\","
		" \"section\": \"s\", \"message\": \"new {macor}()\", \"suggest\": \"s\","
		" \"credit\": \"c\", \"macros\": [\"X\"]}]}",
		"rules/foo.json: families[0].message: unknown placeholder '{macor}'");
	bad_doc("code in braces is not a placeholder, but {replacement} needs one",
		"{\"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"error\","
		" \"section\": \"s\", \"message\": \"m\", \"suggest\": \"if (c) { {replacement}(1); }\","
		" \"credit\": \"c\", \"macros\": [{\"name\": \"A\", \"replacement\": \"B\"}, \"C\"]}]}",
		"rules/foo.json: families[0].macros[1]: 'C' has no replacement for {replacement}");
	bad_doc("a flagged name that is also ignored",
		"{\"ignore\": [{\"names\": [\"BUILD_BUG*\"], \"reason\": \"r\"}],"
		" \"families\": [{\"id\": \"x\", \"class\": \"bug\", \"severity\": \"error\","
		" \"section\": \"s\", \"message\": \"m\", \"suggest\": \"s\", \"credit\": \"c\","
		" \"macros\": [\"BUILD_BUG_ON\"]}]}",
		"rules/foo.json: families[0].macros[0]: 'BUILD_BUG_ON' is listed as never flagged");
	bad_doc("an ignore without a reason", "{\"ignore\": [{\"names\": [\"x\"]}]}",
		"rules/foo.json: ignore[0].reason: missing");
	bad_doc("an override with a bad severity",
		"{\"paths\": {\"overrides\": [{\"pattern\": \"tools/*\", \"max\": \"low\","
		" \"reason\": \"r\"}]}}",
		"rules/foo.json: paths.overrides[0].max: unknown severity 'low'");
	bad_doc("a path glob that is not a string", "{\"paths\": {\"skip\": [\"a\", 1]}}",
		"rules/foo.json: paths.skip[1]: not a non-empty string");
}

static void write_file(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", dir, name);
	strbuf_addstr(&sb, text);
	if (strbuf_write_file(&sb, path.buf) < 0)
		printf("# cannot write %s: %s\n", path.buf, error_last());
	strbuf_release(&path);
	strbuf_release(&sb);
}

static void test_load_dir(void)
{
	char dir[] = "/tmp/ww-t-rules.XXXXXX";
	struct ruleset tmp = RULESET_INIT;
	struct strbuf want = STRBUF_INIT;
	int ret;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	ret = rules_load(&tmp, dir);
	is(ret, WW_ENOTFOUND, "a directory without rule files");
	ruleset_release(&tmp);

	write_file(dir, "b.json", FAM(""));
	write_file(dir, "a.json", "{\"guidance\": {\"file\": \"g.rst\"}}");
	write_file(dir, "notes.txt", "not json");
	ret = rules_load(&tmp, dir);
	ok(ret == 0 && tmp.nr == 1 && !strcmp(tmp.guidance_file, "g.rst"),
	   "*.json files load, other files are left alone");
	ruleset_release(&tmp);

	write_file(dir, "c.json", "{\"guidance\": {\"file\": \"h.rst\"}, \"families\": []}");
	ret = rules_load(&tmp, dir);
	strbuf_addf(&want, "%s/c.json: guidance: already set in %s/a.json", dir, dir);
	is(ret, WW_EINPUT, "a second guidance file");
	is_str(error_last(), want.buf, "the error names both files, in sorted order");
	ruleset_release(&tmp);

	strbuf_reset(&want);
	strbuf_addf(&want, "%s/nonexistent", dir);
	is(rules_load(&tmp, want.buf), WW_ENOTFOUND, "a missing directory");
	ok(strstr(error_last(), want.buf) != NULL, "is named in the error");
	ruleset_release(&tmp);

	strbuf_reset(&want);
	strbuf_addf(&want, "rm -r %s", dir);
	for (const char *const *f = (const char *const[]){ "a.json", "b.json",
							   "c.json", "notes.txt", NULL };
	     *f; f++) {
		strbuf_reset(&want);
		strbuf_addf(&want, "%s/%s", dir, *f);
		unlink(want.buf);
	}
	rmdir(dir);
	strbuf_release(&want);
}

static void test_names(void)
{
	enum rule_class c;
	enum severity sev;
	int i;

	for (i = 0; i < RC__NR; i++)
		ok(rule_class_parse(&c, rule_class_name(i)) == 0 && (int)c == i,
		   "class %s round-trips", rule_class_name(i));
	for (i = 0; i < SEV__NR; i++)
		ok(severity_parse(&sev, severity_name(i)) == 0 && (int)sev == i,
		   "severity %s round-trips", severity_name(i));
	is(rule_class_parse(&c, "bugz"), WW_EINPUT, "unknown class");
	is_str(error_last(), "unknown class 'bugz'", "unknown class: message");
	is_str(rule_class_name(RC__NR), "unknown", "out-of-range class name");

	setenv("WARNWATCH_RULES", "/some/where", 1);
	env_reload();
	is_str(rules_default_dir(), "/some/where", "WARNWATCH_RULES wins");
	unsetenv("WARNWATCH_RULES");
	env_reload();
	ok(ends_with(rules_default_dir(), "/rules"), "default dir: %s",
	   rules_default_dir());
}

int main(void)
{
	const char *top = getenv("WW_TOP");

	strbuf_addf(&rules_dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, rules_dir.buf) < 0) {
		printf("Bail out! cannot load %s: %s\n", rules_dir.buf, error_last());
		return 1;
	}
	test_lookups();
	test_every_rule();
	test_sections_in_tree();
	test_paths();
	test_ignored();
	test_malformed();
	test_load_dir();
	test_names();
	test_wrappers();
	ruleset_release(&rs);
	strbuf_release(&rules_dir);
	return done_testing();
}
