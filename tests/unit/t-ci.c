/*
 * Tests for ci.c without a kernel: attribution of fired WARNINGs to the
 * lines a series adds in the final tree (tests/kernel/ series as input),
 * pre-existing warnings, the verdict from a console, and its JSON and
 * text forms.
 */
#include "ci-json.h"
#include "ci-words.h"
#include "mbox.h"
#include "diff.h"
#include "tap.h"
#include "book.h"
#include "tmpdir.h"
#include "mkdirs.h"
#include "gitlib.h"
#include "rmtree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

struct fixture {
	struct strbuf buf;
	struct mail_list mails;
	struct series s;
	struct ruleset rules;
};

static const char *top(void)
{
	const char *t = getenv("WW_TOP");

	return t ? t : ".";
}

static int load(struct fixture *f, const char *kcase)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	memset(f, 0, sizeof(*f));
	strbuf_init(&f->buf, 0);
	strbuf_addf(&path, "%s/tests/kernel/%s/series.mbox", top(), kcase);
	ret = strbuf_read_file(&f->buf, path.buf, 0);
	if (!ret)
		ret = mbox_parse(&f->mails, f->buf.buf, f->buf.len);
	if (!ret)
		ret = series_from_mails(&f->s, &f->mails);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/rules", top());
	if (!ret)
		ret = rules_load(&f->rules, path.buf);
	strbuf_release(&path);
	return ret;
}

static void unload(struct fixture *f)
{
	series_release(&f->s);
	mail_list_clear(&f->mails);
	ruleset_release(&f->rules);
	strbuf_release(&f->buf);
}

static void findings(struct ci_verdict *v, struct fixture *f)
{
	struct check_opts co = CHECK_OPTS_INIT;

	co.rules = &f->rules;
	v->own_findings = xcalloc(1, sizeof(*v->own_findings));
	v->findings = v->own_findings;
	if (check_series(v->own_findings, &f->s, &co) < 0)
		printf("# check_series: %s\n", error_last());
	v->nr_patches = (int)f->s.nr;
}

static void con(struct console_result *r, const char *text)
{
	console_result_release(r);
	console_parse(r, text, strlen(text));
}

#define WARN_AT(fileline, fn) \
	"------------[ cut here ]------------\n" \
	"WARNING: CPU: 0 PID: 20 at " fileline " " fn "+0x1e0/0x1f0\n" \
	"Call Trace:\n" \
	" <TASK>\n" \
	" time64_to_tm_test_date_range+0xbe/0x370\n" \
	" kunit_try_run_case+0x4b/0x70\n" \
	" </TASK>\n"

#define SUITE(name) "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: " name "\n    1..1\n"

static void test_panicked_01(void)
{
	struct fixture f;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT;
	struct strbuf text = STRBUF_INIT;
	json_t *j;

	if (load(&f, "01-warn-fires") < 0) {
		ok(0, "load 01-warn-fires: %s", error_last());
		return;
	}
	findings(&v, &f);
	con(&r, "Linux version 6.1.192\n" SUITE("time_test_cases")
	    WARN_AT("../src/kernel/time/timeconv.c:55", "time64_to_tm")
	    "Kernel panic - not syncing: kernel: panic_on_warn set ...\n"
	    "Kernel Offset: 0x3800000 from 0xffffffff81000000\n");
	ci_decide(&v, &r, false);
	ci_attribute(&v, &r, true, &f.s, NULL);
	is(v.kind, CI_PANICKED, "01: panicked");
	is(v.nr_fired, 1, "01: one report");
	is_str(v.fired[0].file, "kernel/time/timeconv.c", "01: sandbox prefix dropped");
	is(v.fired[0].patch, 1, "01: patch 1 added the line");
	ok(v.fired[0].added_by_series && !v.fired[0].preexisting, "01: added by the series");
	is_str(v.fired[0].suite, "time_test_cases", "01: suite");
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(strstr(text.buf, "With panic_on_warn=1 the patched kernel panicked while "
		  "running KUnit suite time_test_cases: the WARN_ON(totalsecs < 0) "
		  "that patch 1/1 adds at kernel/time/timeconv.c:55 fired") != NULL,
	   "01: the sentence");
	if (!strstr(text.buf, "WARN_ON(totalsecs < 0) that patch"))
		printf("# %s", text.buf);
	ok(strstr(text.buf, "    time64_to_tm_test_date_range+0xbe/0x370\n") != NULL,
	   "01: the trimmed trace follows");
	j = ci_verdict_to_json(&v);
	is_str(json_string_value(json_object_get(j, "verdict")), "panicked", "json verdict");
	is(json_integer_value(json_object_get(json_array_get(json_object_get(j, "fired"), 0),
					      "line")), 55, "json fired line");
	ok(json_is_true(json_object_get(json_array_get(json_object_get(j, "fired"), 0),
					"added_by_series")), "json added_by_series");
	ok(json_array_size(json_object_get(j, "findings")) >= 1, "json findings");
	json_decref(j);
	strbuf_release(&text);
	console_result_release(&r);
	ci_verdict_release(&v);
	unload(&f);
}

/*
 * Issue 40.6: the series' WARN fired and no panic followed (the console
 * cut short, or panic_on_warn not in force).  What fired decides as much
 * as how the boot ended: never "clean", never "without any WARNING"
 * beside a fired list.
 */
static void test_fired_without_panic_01(void)
{
	struct fixture f;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT;
	struct strbuf text = STRBUF_INIT;
	json_t *j;

	if (load(&f, "01-warn-fires") < 0) {
		ok(0, "load 01-warn-fires: %s", error_last());
		return;
	}
	findings(&v, &f);
	con(&r, "Linux version 6.1.192\n" SUITE("time_test_cases")
	    WARN_AT("../src/kernel/time/timeconv.c:55", "time64_to_tm")
	    "---[ end trace 0000000000000000 ]---\n"
	    "    ok 1 time64_to_tm_test_date_range\nok 1 time_test_cases\n"
	    "reboot: Restarting system\n");
	ci_decide(&v, &r, false);
	ci_attribute(&v, &r, true, &f.s, NULL);
	ok(v.kind != CI_CLEAN, "a fired WARN without a panic: not clean");
	is_str(ci_verdict_name(v.kind), "fired", "  the verdict is \"fired\"");
	ok(v.nr_fired == 1 && v.fired[0].added_by_series, "  the series' own WARN is listed");
	ok(v.reason && !strstr(v.reason, "no WARNING"), "  the reason does not say "
	   "nothing fired: %s", v.reason ? v.reason : "(none)");
	ok(v.reason && strstr(v.reason, "a WARNING in time64_to_tm() fired") &&
	   strstr(v.reason, "did not panic"), "  it names what fired and how the "
	   "boot ended");
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(!strstr(text.buf, "without any WARNING"), "  the text never says "
	   "\"without any WARNING\"");
	ok(strstr(text.buf, "the WARN_ON(totalsecs < 0) that patch 1/1 adds at "
		  "kernel/time/timeconv.c:55 fired") != NULL, "  the text says it fired");
	if (strstr(text.buf, "without any WARNING") || !strstr(text.buf, "fired"))
		printf("# %s", text.buf);
	{
		struct strbuf outcome = STRBUF_INIT;

		ci_words_outcome(&outcome, v.kind, test_book());
		ok(outcome.len, "  the reply has an outcome for it: %s", outcome.buf);
		strbuf_release(&outcome);
	}
	j = ci_verdict_to_json(&v);
	is_str(json_string_value(json_object_get(j, "verdict")), "fired", "  json verdict");
	json_decref(j);
	/* The same with a BUG(): anything the console reports is not clean. */
	con(&r, "Linux version 6.1.192\n" SUITE("a")
	    "------------[ cut here ]------------\n"
	    "kernel BUG at kernel/time/timeconv.c:55!\n"
	    "    ok 1 t\nok 1 a\nreboot: Restarting system\n");
	ci_decide(&v, &r, false);
	is_str(ci_verdict_name(v.kind), "fired", "a BUG() without a panic: fired");
	con(&r, "Linux version 6.1.192\n" SUITE("a") "    ok 1 t\nok 1 a\n"
	    "reboot: Restarting system\n");
	ci_decide(&v, &r, false);
	ok(v.kind == CI_CLEAN && strstr(v.reason, "no WARNING or BUG fired"),
	   "nothing fired: clean, and the reason says so");
	strbuf_release(&text);
	console_result_release(&r);
	ci_verdict_release(&v);
	unload(&f);
}

/* Patch 2 of 04 adds 4 lines above the WARN_ON that patch 1 adds at 99. */
static void test_carried_lines_04(void)
{
	struct fixture f;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT;

	if (load(&f, "04-new-test-new-suite") < 0) {
		ok(0, "load 04: %s", error_last());
		return;
	}
	is(f.s.nr, 2, "04: two patches");
	findings(&v, &f);
	con(&r, SUITE("clk-gate-register-test")
	    WARN_AT("drivers/clk/clk-gate.c:103", "clk_gate_hiword_value")
	    "---[ end trace 0000000000000000 ]---\n"
	    "    ok 1 clk_gate_test_hiword_value_invalid\n"
	    "------------[ cut here ]------------\n"
	    "WARNING: CPU: 0 PID: 20 at drivers/clk/clk-gate.c:59 clk_gate_endisable+0x1/0x2\n"
	    "ok 1 clk-gate-register-test\n");
	ci_attribute(&v, &r, false, &f.s, NULL);
	is(v.nr_fired, 2, "04: two reports");
	ok(v.fired[0].added_by_series && v.fired[0].patch == 1,
	   "04: line 103 of the final tree is patch 1's line 99");
	is_str(v.fired[0].source, "WARN_ON(bit_idx > 15)", "04: check's finding quoted");
	is_str(v.fired[0].test, "clk_gate_test_hiword_value_invalid", "04: test case");
	ok(!v.fired[1].added_by_series && !v.fired[1].patch,
	   "04: line 59 of the final tree is not an added line");
	console_result_release(&r);
	ci_verdict_release(&v);
	unload(&f);
}

static void test_preexisting(void)
{
	struct fixture f;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT, base = CONSOLE_RESULT_INIT;
	struct strbuf text = STRBUF_INIT;

	if (load(&f, "02-warn-unreached") < 0) {
		ok(0, "load 02: %s", error_last());
		return;
	}
	con(&base, SUITE("s") WARN_AT("mm/slub.c:700", "kfree"));
	con(&r, SUITE("s") WARN_AT("mm/slub.c:702", "kfree")
	    WARN_AT("mm/page_alloc.c:5", "alloc_pages"));
	ci_attribute(&v, &r, false, &f.s, &base);
	is(v.nr_fired, 2, "two reports");
	ok(v.fired[0].preexisting, "same file and function on the base: preexisting");
	ok(!v.fired[1].preexisting, "not on the base: not preexisting");
	ok(!v.fired[0].added_by_series, "not added by the series");
	v.kind = CI_PANICKED;
	v.console2 = xstrdup("/tmp/x");
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(strstr(text.buf, "fires on the unpatched kernel too") != NULL,
	   "text says preexisting");
	strbuf_release(&text);
	console_result_release(&r);
	console_result_release(&base);
	ci_verdict_release(&v);
	unload(&f);
}

/* A WARNING with a call trace of its own, for the fingerprint. */
#define WARN_TRACE(fileline, fn, f1, f2, f3) \
	"------------[ cut here ]------------\n" \
	"WARNING: CPU: 0 PID: 90 at " fileline " " fn "+0x386/0x730\n" \
	"Call Trace:\n" \
	" <TASK>\n" \
	" " fn "+0x386/0x730\n" \
	" " f1 "+0x4b/0x70\n" \
	" ? " f2 "+0x1/0x2\n" \
	" " f2 ".isra.0+0xe8/0x190\n" \
	" " f3 "+0x9a/0x130\n" \
	" __x64_sys_mkdir+0x21/0x30\n" \
	" </TASK>\n" \
	"---[ end trace 0000000000000000 ]---\n"
#define BEGIN(t) "warnwatch: begin " t "\n"
#define END(t, r) "warnwatch: end " t " result=" r " rc=" \
	"0\n"

/*
 * Issue 26 items 3 and 5: parent vs patched, flaky and known, on console
 * fixtures of 07's cgroup series (its WARN at kernel/cgroup/cgroup.c:5789).
 */
static void test_parent_vs_patched(void)
{
	struct fixture f;
	struct ci_verdict v = CI_VERDICT_INIT, back = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT, base = CONSOLE_RESULT_INIT,
			      rerun = CONSOLE_RESULT_INIT;
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	char dir[] = "/tmp/t-ci-known-XXXXXX";
	const struct ci_fired *mine = NULL, *kfree_w = NULL, *flaky = NULL;
	const struct ci_test *cpu = NULL;
	json_t *j;
	char *dump, *dump2;

	if (load(&f, "07-cgroup-kselftest-fires") < 0) {
		ok(0, "load 07: %s", error_last());
		return;
	}
	findings(&v, &f);
	v.base = xstrdup("6.1.192");
	con(&r, "Linux version 6.1.192\nwarnwatch: init start\n"
	    BEGIN("cgroup:test_cpu") END("cgroup:test_cpu", "fail")
	    BEGIN("cgroup:test_kmem")
	    WARN_TRACE("mm/slub.c:702", "kfree", "memcg_free", "css_free", "process_one_work")
	    WARN_TRACE("mm/slub.c:702", "kfree", "memcg_free", "css_free", "process_one_work")
	    END("cgroup:test_kmem", "pass")
	    BEGIN("cgroup:test_freezer")
	    WARN_TRACE("mm/page_alloc.c:5", "alloc_pages", "a1", "a2", "a3")
	    END("cgroup:test_freezer", "pass")
	    BEGIN("cgroup:test_core")
	    WARN_TRACE("../src/kernel/cgroup/cgroup.c:5789", "cgroup_mkdir",
		       "kernfs_iop_mkdir", "vfs_mkdir", "do_mkdirat")
	    END("cgroup:test_core", "pass") "warnwatch: init done\n");
	v.kind = CI_PANICKED;
	ci_attribute(&v, &r, false, &f.s, NULL);
	ci_tests_from_console(&v, &r);
	for (size_t i = 0; i < v.nr_fired; i++) {
		const struct ci_fired *x = &v.fired[i];

		if (x->function && !strcmp(x->function, "cgroup_mkdir"))
			mine = x;
		else if (x->function && !strcmp(x->function, "kfree"))
			kfree_w = x;
		else if (x->function && !strcmp(x->function, "alloc_pages"))
			flaky = x;
	}
	for (size_t i = 0; i < v.nr_tests; i++)
		if (!strcmp(v.tests[i].name, "cgroup:test_cpu"))
			cpu = &v.tests[i];
	if (!mine || !kfree_w || !flaky || !cpu) {
		ok(0, "26: the fixture's reports and tests (%zu fired, %zu tests)",
		   v.nr_fired, v.nr_tests);
		goto out;
	}
	ok(mine->added_by_series && mine->base_count == 0 && mine->patched_count == 1,
	   "26: the series' WARN: base 0 (the base has no such line), patched 1");
	is_str(mine->fingerprint, "warn:cgroup_mkdir/kernfs_iop_mkdir/vfs_mkdir/do_mkdirat",
	       "26: fingerprint: function and the next three frames, no offsets, no '?'");
	is_str(kfree_w->fingerprint, "warn:kfree/memcg_free/css_free/process_one_work",
	       "26: a compiler suffix (.isra.0) dropped");
	is(kfree_w->patched_count, 2, "26: an existing WARN twice in the patched boot");
	is(kfree_w->base_count, -1, "26: no base boot yet: base unknown");
	ok(ci_needs_rerun(&v), "26: a report the series did not add: boot again");
	ok(ci_needs_base(&v), "26: and compare with the base");

	/* The base: the same tests; test_cpu fails there too, kfree fires once. */
	con(&base, "Linux version 6.1.192\nwarnwatch: init start\n"
	    BEGIN("cgroup:test_cpu") END("cgroup:test_cpu", "fail")
	    BEGIN("cgroup:test_kmem")
	    WARN_TRACE("mm/slub.c:700", "kfree", "memcg_free", "css_free", "process_one_work")
	    END("cgroup:test_kmem", "pass")
	    BEGIN("cgroup:test_freezer") END("cgroup:test_freezer", "pass")
	    BEGIN("cgroup:test_core") END("cgroup:test_core", "pass")
	    "warnwatch: init done\n");
	/* Booted again: kfree again, alloc_pages not, test_cpu passes. */
	con(&rerun, "Linux version 6.1.192\nwarnwatch: init start\n"
	    BEGIN("cgroup:test_cpu") END("cgroup:test_cpu", "pass")
	    BEGIN("cgroup:test_kmem")
	    WARN_TRACE("mm/slub.c:702", "kfree", "memcg_free", "css_free", "process_one_work")
	    END("cgroup:test_kmem", "pass") "warnwatch: init done\n");
	ci_compare_rerun(&v, &rerun);
	ci_compare_base(&v, &base);
	is(kfree_w->base_count, 1, "26: base: 1 (same kind, file and function; line moved)");
	ok(kfree_w->preexisting && !kfree_w->added_by_series,
	   "26: fires on the base: preexisting, never the series'");
	is(kfree_w->reproduced, 1, "26: kfree fired again when rerun");
	ok(flaky->base_count == 0 && !flaky->preexisting && flaky->reproduced == 0,
	   "26: alloc_pages: not on the base, not again: flaky");
	is(mine->reproduced, -1, "26: the series' WARN is never rerun to doubt it");
	is(mine->base_count, 0, "26: the series' WARN stays base 0");
	is_str(cpu->base_result, "fail", "26: test_cpu fails on the base too");
	is_str(cpu->rerun_result, "pass", "26: and passed when rerun");
	ok(v.base_compared && v.rerun, "26: both said in the verdict");

	/* known.json: the kfree report is known on 6.1, by release. */
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		goto out;
	}
	strbuf_addf(&path, "%s/known.json", dir);
	strbuf_addstr(&text, "{\"comment\": \"x\", \"6.12\": [{\"fingerprint\": "
		      "\"warn:alloc_pages/a1/a2/a3\"}], \"6.1\": [{\"fingerprint\": "
		      "\"warn:kfree/memcg_free/css_free/process_one_work\", "
		      "\"note\": \"memcg teardown under TCG\"}]}");
	strbuf_write_file(&text, path.buf);
	strbuf_reset(&text);
	is(ci_mark_known(&v, path.buf), 0, "26: known.json read");
	is_str(kfree_w->known, "memcg teardown under TCG", "26: known on 6.1 (by release)");
	ok(!flaky->known && !mine->known, "26: another base's entry does not count");
	strbuf_addstr(&text, "[]");
	strbuf_write_file(&text, path.buf);
	strbuf_reset(&text);
	is(ci_mark_known(&v, path.buf), WW_EINPUT, "26: known.json in another shape");
	error_clear();
	{
		/* Each malformed shape is an input error naming the file; an
		 * entry without a note is known all the same. */
		static const struct { const char *json, *says, *name; } bad[] = {
			{ "{\"6.1\": {}}", "\"6.1\" is not an array", "a release that is no list" },
			{ "{\"6.1\": [{\"note\": \"x\"}]}", "\"6.1\"[0] has no \"fingerprint\"",
			  "an entry without its fingerprint" },
			{ "{\"6.1\": [", "line 1", "JSON cut short" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			strbuf_addstr(&text, bad[i].json);
			strbuf_write_file(&text, path.buf);
			strbuf_reset(&text);
			ok(ci_mark_known(&v, path.buf) == WW_EINPUT &&
			   strstr(error_last(), bad[i].says) && strstr(error_last(), path.buf),
			   "36: known.json, %s: %s", bad[i].name, error_last());
			error_clear();
		}
		struct ci_fired *fl = (struct ci_fired *)flaky;

		strbuf_addf(&text, "{\"6.1\": [{\"fingerprint\": \"%s\"}]}", flaky->fingerprint);
		strbuf_write_file(&text, path.buf);
		strbuf_reset(&text);
		ok(!ci_mark_known(&v, path.buf) && fl->known && !strcmp(fl->known, "known"),
		   "36: known.json, an entry without a note: \"known\"");
		free(fl->known);
		fl->known = NULL;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/none.json", dir);
	is(ci_mark_known(&v, path.buf), 0, "26: no known.json: nothing known");
	tmp_remove(dir);

	v.console2 = xstrdup("/tmp/boot-panic_on_warn-0.log");
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(strstr(text.buf, "[base: 1, patched: 2] (known on 6.1.192: memcg teardown "
		  "under TCG)") != NULL, "26: text: the parent column and known");
	ok(strstr(text.buf, "[base: 0, patched: 1] (did not fire again when booted "
		  "once more: flaky)") != NULL, "26: text: flaky");
	ok(strstr(text.buf, "kselftest cgroup:test_cpu: fail; passed when run again "
		  "(flaky); fails on the unpatched kernel too") != NULL,
	   "26: text: the failing test is marked, not blamed");
	if (!strstr(text.buf, "[base: 1, patched: 2]") || !strstr(text.buf, "test_cpu: fail;"))
		printf("# %s", text.buf);
	j = ci_verdict_to_json(&v);
	dump = json_dumps(j, JSON_SORT_KEYS);
	is(ci_verdict_from_json(&back, dump, strlen(dump), "pvp.json"), 0, "26: JSON reads back");
	json_decref(j);
	j = ci_verdict_to_json(&back);
	dump2 = json_dumps(j, JSON_SORT_KEYS);
	is_str(dump2, dump, "26: the same document again (counts, fingerprint, known, "
	       "reproduced, base_result, rerun_result)");
	ok(strstr(dump, "\"base_count\": 1") && strstr(dump, "\"patched_count\": 2") &&
	   strstr(dump, "\"reproduced\": false") && strstr(dump, "\"base_result\": \"fail\""),
	   "26: JSON keys");
	json_decref(j);
	free(dump);
	free(dump2);
out:
	strbuf_release(&text);
	strbuf_release(&path);
	console_result_release(&r);
	console_result_release(&base);
	console_result_release(&rerun);
	ci_verdict_release(&v);
	ci_verdict_release(&back);
	unload(&f);
}

static void test_decide(void)
{
	struct ci_verdict v = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT;

	con(&r, "");
	ci_decide(&v, &r, false);
	is(v.kind, CI_ERROR, "empty console: error");
	is_str(v.reason, "the kernel printed nothing on the console", "reason");
	con(&r, "Linux version 6.1.192\nKTAP version 1\n1..2\n");
	ci_decide(&v, &r, true);
	is(v.kind, CI_HUNG, "deadline: hung");
	con(&r, "Linux version 6.1.192\nKTAP version 1\n1..2\n    # Subtest: a\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_ERROR, "stopped without panic: error");
	con(&r, "Linux version 6.1.192\nKTAP version 1\n1..1\n    # Subtest: a\n"
	    "    ok 1 t\nok 1 a\nreboot: Restarting system\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_CLEAN, "all suites and reboot: clean");
	is(v.nr_suites, 1, "suites copied");
	con(&r, "Linux version 6.1.192\nKernel panic - not syncing: VFS: Unable to "
	    "mount root fs on unknown-block(0,0)\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_ERROR, "root-fs panic without a report: our setup, error");
	con(&r, "Linux version 6.1.192\nBUG: kernel NULL pointer dereference, "
	    "address: 0000000000000008\nKernel panic - not syncing: Fatal exception\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_PANICKED, "oops: panicked");

	/* Each other branch once (issue 36: a false "clean" went unnoticed). */
	v.user_space = true;
	con(&r, "Linux version 6.1.192\n" SUITE("a") "    ok 1 t\nok 1 a\n"
	    "warnwatch: init start\nwarnwatch: begin timers:nanosleep\n"
	    "reboot: Restarting system\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_ERROR, "the guest stopped before /init said done: error, never clean");
	ok(v.reason && strstr(v.reason, "before kernel-ci/init finished its tests"),
	   "  the reason says so: %s", v.reason ? v.reason : "(none)");
	con(&r, "Linux version 6.1.192\n" SUITE("a") "    ok 1 t\nok 1 a\n"
	    "warnwatch: init start\nwarnwatch: begin timers:nanosleep\n"
	    "warnwatch: end timers:nanosleep result=pass rc=0\n"
	    "warnwatch: init done\nreboot: Restarting system\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_CLEAN, "/init done: clean");
	is_str(v.reason, "1 KUnit suites and 1 user-space tests ran, no WARNING or BUG fired",
	       "  the reason counts the user-space tests");
	con(&r, "Linux version 6.1.192\n" SUITE("a") "    ok 1 t\nok 1 a\n"
	    "warnwatch: init start\n"
	    "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_ERROR, "/init exited (Attempted to kill init), no report: our setup, error");
	ok(v.reason && strstr(v.reason, "the guest's /init exited instead of rebooting"),
	   "  the reason says so: %s", v.reason ? v.reason : "(none)");
	/* A report before such a panic is what killed it: the series'. */
	con(&r, "Linux version 6.1.192\nwarnwatch: init start\n"
	    "BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	    "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_PANICKED, "an oops, then init killed: panicked, not our setup");
	con(&r, "Linux version 6.1.192\n" SUITE("time_test_cases")
	    WARN_AT("../src/kernel/time/timeconv.c:55", "time64_to_tm")
	    "Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_PANICKED, "a WARNING, then the root-fs panic: panicked, not our setup");
	v.user_space = false;

	/* Reports without a panic (issue 36: each way fired_reason() says it). */
	con(&r, "Linux version 6.1.192\n" SUITE("time_test_cases")
	    WARN_AT("../src/kernel/time/timeconv.c:55", "time64_to_tm")
	    WARN_AT("../src/kernel/time/timeconv.c:60", "time64_to_tm")
	    "    ok 1 t\nok 1 time_test_cases\nreboot: Restarting system\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_FIRED, "two WARNINGs, no panic: fired, never clean");
	is_str(v.reason, "a WARNING in time64_to_tm() and 1 more report fired and the kernel "
	       "did not panic (panic_on_warn=1 should have stopped it there: the console may "
	       "be cut short); the boot went on to its end", "  the reason: the first, one more, "
	       "the end");
	con(&r, "Linux version 6.1.192\n" SUITE("a")
	    "------------[ cut here ]------------\nkernel BUG at mm/slub.c:123!\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_FIRED, "a kernel BUG without its panic: fired");
	ok(v.reason && starts_with(v.reason, "a BUG") &&
	   ends_with(v.reason, "the boot stopped without a panic message"),
	   "  a BUG, and the boot stopped: %s", v.reason ? v.reason : "(none)");
	con(&r, "Linux version 6.1.192\n" SUITE("a") "    ok 1 t\nok 1 a\n"
	    "BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	    "reboot: Restarting system\n");
	ci_decide(&v, &r, false);
	is(v.kind, CI_FIRED, "an oops without a panic: fired, never clean");
	ok(v.reason && starts_with(v.reason, "a crash report"), "  a crash report: %s",
	   v.reason ? v.reason : "(none)");
	con(&r, "Linux version 6.1.192\n");
	ci_decide(&v, &r, true);
	is_str(v.reason, "the boot did not finish before the deadline; last console line: "
	       "Linux version 6.1.192", "hung: the reason names the last line");
	console_result_release(&r);
	ci_verdict_release(&v);
}

/* A second boot is wanted for a report the series did not add and no
 * boot repeated yet, and only then. */
static void test_needs_rerun(void)
{
	struct ci_verdict v = CI_VERDICT_INIT;
	struct ci_fired f = { .kind = FIRED_WARN, .reproduced = -1 };

	v.fired = &f;
	v.nr_fired = 1;
	ok(ci_needs_rerun(&v), "a report not the series', not booted again: rerun");
	f.reproduced = 1;
	ok(!ci_needs_rerun(&v), "  reproduced: no rerun");
	f.reproduced = -1;
	f.added_by_series = true;
	ok(!ci_needs_rerun(&v), "  the series' own report: proof already, no rerun");
}

/* calls[]: one per added call, reached null with the reason, then in words. */
static void test_calls_02(void)
{
	struct fixture f;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT;
	struct strbuf text = STRBUF_INIT;
	json_t *j, *c;

	if (load(&f, "02-warn-unreached") < 0) {
		ok(0, "load 02-warn-unreached: %s", error_last());
		return;
	}
	findings(&v, &f);
	v.user_space = true;
	con(&r, "Linux version 6.1.192\n" SUITE("time_test_cases")
	    "    ok 1 t\nok 1 time_test_cases\n"
	    "warnwatch: init start\nwarnwatch: begin timers:nanosleep\n"
	    "warnwatch: end timers:nanosleep result=pass rc=0\n"
	    "warnwatch: begin workload:ext4 image=ext4-4k-default dev=/dev/vdb\n"
	    "warnwatch: end workload:ext4 image=ext4-4k-default result=fail rc=1\n"
	    "warnwatch: init done\nreboot: Restarting system\n");
	ci_decide(&v, &r, false);
	ci_attribute(&v, &r, true, &f.s, NULL);
	ci_tests_from_console(&v, &r);
	is(v.kind, CI_CLEAN, "02 with user space: clean");
	is(v.nr_tests, 3, "tests: one KUnit suite, a kselftest, a workload");
	is_str(v.tests[1].kind, "kselftest", "kind kselftest");
	is_str(v.tests[2].kind, "workload", "kind workload");
	is_str(v.tests[2].result, "fail", "workload result");
	is_str(v.tests[2].image, "ext4-4k-default", "workload image");
	ci_calls(&v, &f.s, NULL, "/nonexistent", "/nonexistent", "no gcov here");
	is(v.nr_calls, 1, "one added call");
	is_str(v.calls[0].file, "kernel/time/time.c", "call file");
	is(v.calls[0].line, 186, "call line");
	is_str(v.calls[0].macro, "WARN_ON_ONCE", "call macro");
	ok(v.calls[0].reached < 0 && !strcmp(v.calls[0].reached_why, "no gcov here"),
	   "reached null, with the reason");
	j = ci_verdict_to_json(&v);
	c = json_array_get(json_object_get(j, "calls"), 0);
	ok(json_is_null(json_object_get(c, "reached")), "json reached null");
	is_str(json_string_value(json_object_get(c, "reached_why")), "no gcov here",
	       "json reached_why");
	ok(json_is_false(json_object_get(c, "fired")), "json fired false");
	is(json_array_size(json_object_get(j, "tests")), 3, "json tests");
	json_decref(j);
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(strstr(text.buf, "Whether the WARN_ON_ONCE() at kernel/time/time.c:186 "
		  "(patch 1/1) ran could not be measured (no gcov here)") != NULL,
	   "text: not measured");
	v.calls[0].reached = 0;
	strbuf_reset(&text);
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(strstr(text.buf, "No test reached the WARN_ON_ONCE() at kernel/time/time.c:186 "
		  "(patch 1/1), so this boot says nothing about it") != NULL,
	   "text: never reached");
	v.calls[0].reached = 41;
	strbuf_reset(&text);
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(strstr(text.buf, "The WARN_ON_ONCE() at kernel/time/time.c:186 (patch 1/1) "
		  "ran 41 times during the boot, its KUnit suites, the timers "
		  "kselftests and the ext4 workload, and never fired.") != NULL,
	   "text: ran 41 times and never fired");
	if (!strstr(text.buf, "ran 41 times"))
		printf("# %s", text.buf);
	strbuf_release(&text);
	console_result_release(&r);
	ci_verdict_release(&v);
	unload(&f);
}

static void touch_in(const char *root, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&p, "%s/%s", root, rel);
	*strrchr(p.buf, '/') = '\0';
	mkdirs(p.buf, 0755, WW_ERROR);
	p.buf[strlen(p.buf)] = '/';
	f = fopen(p.buf, "w");
	if (f)
		fclose(f);
	strbuf_release(&p);
}

/* What a worker tells the queue it has built (serve's steering). */
/* ---- a series written against another tree: where its lines landed ---- */

#define LANDED_MAIL(n, subject, diff) \
	"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n" \
	"From: Ada Tester <ada@example.org>\n" \
	"Date: Tue, 6 Jan 2026 10:00:00 +0000\n" \
	"Message-Id: <landed." n "@example.org>\n" \
	"Subject: [PATCH " n "/2] " subject "\n\n" \
	"Signed-off-by: Ada Tester <ada@example.org>\n---\n" diff "\nbase-commit: v6.1\n-- \n2.39.5\n\n"

/* Patch 1 adds a WARN at its line 13, written against a file where the
 * function starts at line 10; patch 2 adds two lines at the top. */
static const char landed_series[] =
	LANDED_MAIL("1", "x: warn",
		"diff --git a/kernel/cgroup/x.c b/kernel/cgroup/x.c\n"
		"--- a/kernel/cgroup/x.c\n+++ b/kernel/cgroup/x.c\n"
		"@@ -10,6 +10,7 @@ int cgroup_mkdir(void)\n"
		" \tc10();\n \tc11();\n \tc12();\n"
		"+\tWARN_ON_ONCE(!cgrp);\n"
		" \tc13();\n \tc14();\n \tc15();\n")
	LANDED_MAIL("2", "x: two more",
		"diff --git a/kernel/cgroup/x.c b/kernel/cgroup/x.c\n"
		"--- a/kernel/cgroup/x.c\n+++ b/kernel/cgroup/x.c\n"
		"@@ -1,3 +1,5 @@\n"
		" \tc1();\n+int new_a;\n+int new_b;\n \tc2();\n \tc3();\n");

/* A one-file tree kernel/cgroup/x.c as a commit of `repo`. */
static int commit_file(git_oid *out, git_repository *repo, const char *text)
{
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_oid id;
	const char *names[] = { "x.c", "cgroup", "kernel" };
	int ret = -1;

	if (git_blob_create_from_buffer(&id, repo, text, strlen(text)) < 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		if (git_treebuilder_new(&tb, repo, NULL) < 0 ||
		    git_treebuilder_insert(NULL, tb, names[i], &id,
					   i ? GIT_FILEMODE_TREE : GIT_FILEMODE_BLOB) < 0 ||
		    git_treebuilder_write(&id, tb) < 0)
			goto out;
		git_treebuilder_free(tb);
		tb = NULL;
	}
	if (git_tree_lookup(&tree, repo, &id) < 0 ||
	    git_signature_new(&sig, "t", "t@example.org", 0, 0) < 0 ||
	    git_commit_create(out, repo, NULL, sig, sig, NULL, "base", tree, 0, NULL) < 0)
		goto out;
	ret = 0;
out:
	git_signature_free(sig);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	return ret;
}

static void test_landed_offset(void)
{
	char dir[] = "/tmp/t-ci-landed.XXXXXX";
	struct strbuf base = STRBUF_INIT, text = STRBUF_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct console_result r = CONSOLE_RESULT_INIT;
	struct kapply_result ap = KAPPLY_RESULT_INIT;
	struct ktree t = KTREE_INIT;
	struct fixture f;
	git_oid commits[2];
	json_t *j, *o;

	memset(&f, 0, sizeof(f));
	strbuf_init(&f.buf, 0);
	strbuf_addstr(&f.buf, landed_series);
	if (!mkdtemp(dir) || mbox_parse(&f.mails, f.buf.buf, f.buf.len) < 0 ||
	    series_from_mails(&f.s, &f.mails) < 0 || f.s.nr != 2) {
		ok(0, "landed: set up: %s", error_last());
		return;
	}
	strbuf_addf(&text, "%s/rules", top());
	rules_load(&f.rules, text.buf);
	findings(&v, &f);
	gitlib_init();
	/* The booted tree has 16 more lines above the function. */
	for (int i = 1; i <= 16; i++)
		strbuf_addf(&base, "/* new in this tree %d */\n", i);
	for (int i = 1; i <= 20; i++)
		strbuf_addf(&base, "\tc%d();\n", i);
	t.version = (char *)"6.12.118";
	if (git_repository_init(&t.repo, dir, 1) < 0 ||
	    commit_file(&ap.base, t.repo, base.buf) < 0 ||
	    kapply_diff(&commits[0], &ap, &t, &ap.base, f.s.patches[0].diff,
			f.s.patches[0].diff_len, "patch 1/2", "x", NULL) < 0 ||
	    kapply_diff(&commits[1], &ap, &t, &commits[0], f.s.patches[1].diff,
			f.s.patches[1].diff_len, "patch 2/2", "y", NULL) < 0) {
		ok(0, "landed: apply: %s", error_last());
		goto out;
	}
	ap.commits = commits;
	ap.nr = 2;
	is(ci_land(&v, &f.s, t.repo, &ap), 0, "landed: diffed the applied commits");
	v.base = xstrdup("6.12.118");
	con(&r, "Linux version 6.12.118\n" SUITE("cgroup")
	    WARN_AT("../src/kernel/cgroup/x.c:31", "cgroup_mkdir")
	    "Kernel panic - not syncing: kernel: panic_on_warn set ...\n");
	ci_decide(&v, &r, false);
	ci_attribute(&v, &r, true, &f.s, NULL);
	ok(v.nr_fired == 1 && v.fired[0].added_by_series && v.fired[0].patch == 1,
	   "landed: the WARN at the landed line is patch 1's");
	is(v.fired[0].line, 13, "landed: line is the patch's own");
	is(v.fired[0].tree_line, 31, "landed: tree_line is where it landed (+16, +2)");
	ci_calls(&v, &f.s, NULL, "/nonexistent", "/nonexistent", "no gcov here");
	ok(v.nr_calls == 1 && v.calls[0].line == 13 && v.calls[0].tree_line == 31 &&
	   v.calls[0].fired, "landed: the call: line 13, tree line 31, fired");
	j = ci_verdict_to_json(&v);
	o = json_array_get(json_object_get(j, "fired"), 0);
	ok(json_integer_value(json_object_get(o, "line")) == 13 &&
	   json_integer_value(json_object_get(o, "tree_line")) == 31 &&
	   json_integer_value(json_object_get(o, "patch")) == 1 &&
	   json_is_true(json_object_get(o, "added_by_series")),
	   "landed: JSON line, tree_line, patch, added_by_series");
	json_decref(j);
	strbuf_reset(&text);
	ci_verdict_text(&text, &v, &f.s, test_book());
	ok(strstr(text.buf, "kernel/cgroup/x.c:13 (line 31 in linux 6.12.118) fired") != NULL,
	   "landed: the text names both lines");
	if (!strstr(text.buf, "(line 31 in linux 6.12.118) fired"))
		printf("# %s", text.buf);
	ok(strstr(ap.note.buf, "hunk 1 applied at offset +16 lines") != NULL,
	   "landed: the apply note keeps the offset");
out:
	console_result_release(&r);
	ci_verdict_release(&v);
	git_repository_free(t.repo);
	unload(&f);
	ap.commits = NULL;	/* ours, on the stack */
	kapply_result_release(&ap);
	strbuf_release(&base);
	strbuf_release(&text);
	tmp_remove(dir);
}

static void test_warm_bases(void)
{
	char tmpl[] = "/tmp/t-ci-warm.XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct strbuf w = STRBUF_INIT;

	if (!dir) {
		ok(0, "mkdtemp");
		return;
	}
	ci_warm_bases(&w, dir);
	is_str(w.buf, "", "warm: an empty cache has nothing built");
	touch_in(dir, "build/6.12.118-4892b465e0f7/.config");
	touch_in(dir, "build/6.1.192-e3d48e04cf65/arch/x86/boot/bzImage");
	touch_in(dir, "build/6.12.118-e3d48e04cf65/arch/x86/boot/bzImage");
	touch_in(dir, "build/6.1.192-3f56d44cddd9/arch/x86/boot/bzImage");
	touch_in(dir, "build/locks/arch/x86/boot/bzImage");
	strbuf_reset(&w);
	ci_warm_bases(&w, dir);
	is_str(w.buf, ",6.1,6.12,", "warm: each release with a bzImage once, sorted");
	strbuf_release(&w);
	tmp_remove(dir);
}

/* ---- what the cache keeps: run directories and parent-boot consoles ---- */

static int count_runs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += ci_is_run_dir_name(e->d_name);
	if (d)
		closedir(d);
	return n;
}

static void symlink_in(const char *dir, const char *name, const char *to)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", dir, name);
	if (symlink(to, p.buf) < 0)
		BUG("cannot link '%s'", p.buf);
	strbuf_release(&p);
}

/*
 * Pids above PID_MAX_LIMIT (4194304) belong to no process: the fake runs
 * are finished ones.
 */
#define DEAD_PID 5000000

static void test_prune_logs(void)
{
	char tmpl[] = "/tmp/t-ci-prune.XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct strbuf logs = STRBUF_INIT, outside = STRBUF_INIT, name = STRBUF_INIT;
	char current[64];
	bool newest = true, oldest = false;

	if (!dir) {
		ok(0, "mkdtemp");
		return;
	}
	ok(ci_is_run_dir_name("20260103-081500-1234") &&
	   !ci_is_run_dir_name("20260103-081500-") &&
	   !ci_is_run_dir_name("20260103-081500-12x") &&
	   !ci_is_run_dir_name("20260103081500-1234") &&
	   !ci_is_run_dir_name("2026010-081500-1234") &&
	   !ci_is_run_dir_name("notes"), "prune: the run directories' names");
	strbuf_addf(&logs, "%s/ci/logs", dir);
	strbuf_addf(&outside, "%s/outside", dir);
	touch_in(outside.buf, "precious");
	/* 40 runs a second apart; the newest is this run's. */
	for (int i = 0; i < 40; i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "20260101-1200%02d-%d", i, DEAD_PID + i);
		if (i == 1) {
			/* A run's name on a link: the link goes, not the target. */
			symlink_in(logs.buf, name.buf, outside.buf);
			continue;
		}
		strbuf_addstr(&name, "/boot.log");
		touch_in(logs.buf, name.buf);
	}
	touch_in(logs.buf, "20260101-120000-5000000/gcda/fs/ext4/inode.gcda");
	touch_in(logs.buf, "20260101-120000-5000000/images/ext4.img");
	strbuf_reset(&name);
	strbuf_addf(&name, "%s/20260101-120000-5000000/images", logs.buf);
	symlink_in(name.buf, "escape", outside.buf);
	/* Not ours: a user's notes, a name almost a run's. */
	touch_in(logs.buf, "notes.txt");
	touch_in(logs.buf, "20260101-junk/keep");
	touch_in(logs.buf, "20260101-115959-12x/keep");
	snprintf(current, sizeof(current), "20260101-120039-%d", DEAD_PID + 39);

	is(ci_prune_logs(logs.buf, current, CI_KEEP_LOGS), 8,
	   "prune: 40 runs, 32 kept: the 8 oldest removed");
	is(count_runs(logs.buf), 32, "prune: 32 run directories remain");
	for (int i = 0; i < 40; i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "20260101-1200%02d-%d", i, DEAD_PID + i);
		if (i < 8)
			oldest |= tmp_exists(logs.buf, name.buf);
		else
			newest &= tmp_exists(logs.buf, name.buf);
	}
	ok(!oldest && newest, "prune: the newest are the ones kept");
	ok(tmp_exists(logs.buf, current), "prune: this run's is kept");
	ok(tmp_exists(logs.buf, "notes.txt") &&
	   tmp_exists(logs.buf, "20260101-junk/keep") &&
	   tmp_exists(logs.buf, "20260101-115959-12x/keep"),
	   "prune: entries not named as runs are untouched");
	ok(tmp_exists(outside.buf, "precious"),
	   "prune: links (a run's name, one inside a run) not followed");
	is(ci_prune_logs(logs.buf, current, CI_KEEP_LOGS), 0,
	   "prune: again, nothing beyond 32");

	/* Older than all, but its process is alive (our parent): running. */
	strbuf_reset(&name);
	strbuf_addf(&name, "20260101-110000-%ld/boot.log", (long)getppid());
	touch_in(logs.buf, name.buf);
	/* Our own pid's older run: finished (one ci_run at a time). */
	strbuf_reset(&name);
	strbuf_addf(&name, "20260101-110001-%ld/boot.log", (long)getpid());
	touch_in(logs.buf, name.buf);
	is(ci_prune_logs(logs.buf, current, CI_KEEP_LOGS), 1,
	   "prune: a live process's run is skipped, our own old one removed");
	*strrchr(name.buf, '/') = '\0';
	ok(!tmp_exists(logs.buf, name.buf), "prune: our own old run is gone");
	strbuf_reset(&name);
	strbuf_addf(&name, "20260101-110000-%ld", (long)getppid());
	ok(tmp_exists(logs.buf, name.buf), "prune: the live one stays");
	strbuf_reset(&name);
	strbuf_addf(&name, "%s/20260101-110000-%ld", logs.buf, (long)getppid());
	rmtree(name.buf);	/* out of the way of the counts below */

	/* A run it cannot remove whole: a warning's error, the rest go. */
	strbuf_reset(&name);
	strbuf_addstr(&name, "20260101-100000-4999999");
	for (int i = 0; i <= RMTREE_MAX_DEPTH + 1; i++)
		strbuf_addstr(&name, "/d");
	strbuf_addstr(&name, "/f");
	touch_in(logs.buf, name.buf);
	touch_in(logs.buf, "20260101-100001-4999998/boot.log");
	ok(ci_prune_logs(logs.buf, current, CI_KEEP_LOGS) < 0 &&
	   strstr(error_last(), "directories deep") != NULL,
	   "prune: a run it cannot remove is an error");
	error_clear();
	ok(!tmp_exists(logs.buf, "20260101-100001-4999998"),
	   "prune: after trying the rest");
	is(ci_prune_logs(logs.buf, current, 1) < 0, 1,
	   "prune: keep 1: every older run tried, the stuck one fails");
	error_clear();
	is(count_runs(logs.buf), 2, "prune: keep 1: the current run and the stuck one");
	ok(tmp_exists(logs.buf, current), "prune: keep 1 keeps the current run");
	ok(ci_prune_logs("/nonexistent/ci/logs", NULL, 1) < 0,
	   "prune: no logs directory is an error for a warning");
	error_clear();
	tmp_remove(dir);
	strbuf_release(&logs);
	strbuf_release(&outside);
	strbuf_release(&name);
}

static void test_prune_base_logs(void)
{
	char tmpl[] = "/tmp/t-ci-bases.XXXXXX";
	char *dir = mkdtemp(tmpl);
	struct strbuf p = STRBUF_INIT;
	int kept = 0, gone = 0;

	if (!dir) {
		ok(0, "mkdtemp");
		return;
	}
	for (int i = 0; i < 70; i++) {
		/* Named against their age, so mtime (not the name) must decide. */
		struct timespec ts[2] = { { .tv_sec = 1700000000 + i },
					  { .tv_sec = 1700000000 + i } };

		strbuf_reset(&p);
		strbuf_addf(&p, "%s/base-6.1.1-abc-%02d.log", dir, 69 - i);
		touch_in(dir, p.buf + strlen(dir) + 1);
		utimensat(AT_FDCWD, p.buf, ts, 0);
	}
	touch_in(dir, "base-6.1.1-abc-99.log.tmp");
	touch_in(dir, "other.log");
	touch_in(dir, "outside/precious");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/outside/precious", dir);
	symlink_in(dir, "base-link.log", p.buf);
	is(ci_prune_base_logs(dir, CI_KEEP_BASE_LOGS), 6,
	   "bases: 70 consoles, the 64 newest kept");
	for (int i = 0; i < 70; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "base-6.1.1-abc-%02d.log", 69 - i);
		if (tmp_exists(dir, p.buf))
			kept += i >= 6;
		else
			gone += i < 6;
	}
	ok(kept == 64 && gone == 6, "bases: by mtime, the oldest go");
	ok(tmp_exists(dir, "base-6.1.1-abc-99.log.tmp") && tmp_exists(dir, "other.log") &&
	   tmp_exists(dir, "base-link.log") && tmp_exists(dir, "outside/precious"),
	   "bases: a boot being written, other files and links are untouched");
	is(ci_prune_base_logs(dir, CI_KEEP_BASE_LOGS), 0, "bases: again, nothing to do");
	tmp_remove(dir);
	strbuf_release(&p);
}

/*
 * Handed the caller's check (ci_opts.checked: serve's stages), ci_run()
 * takes its findings as they are: the verdict points at them and the
 * series is not parsed again.  A base that is not there ends the run
 * early, after the static findings.
 */
static void test_checked(void)
{
	struct fixture f;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct ci_opts co = CI_OPTS_INIT;
	struct check_opts ko = CHECK_OPTS_INIT;
	struct check_result cr = CHECK_RESULT_INIT;
	struct diff_counts before, after;
	char dir[] = "/tmp/t-ci-checked-XXXXXX";

	if (load(&f, "01-warn-fires") < 0 || !mkdtemp(dir)) {
		ok(0, "checked: setup: %s", error_last());
		return;
	}
	ko.rules = &f.rules;
	is(check_series(&cr, &f.s, &ko), 0, "checked: the caller's check");
	co.rules = &f.rules;
	co.checked = &cr;
	co.cache_dir = dir;
	co.tree = "/nonexistent/linux-source-6.1.tar.xz";
	diff_counts(&before);
	ci_run(&v, &f.s, &co);
	diff_counts(&after);
	error_clear();
	ok(v.findings == &cr && !v.own_findings, "checked: the verdict's findings are the caller's");
	is(after.parses - before.parses, 0, "checked: no parse of its own");
	ci_verdict_release(&v);
	ok(cr.nr > 0 && cr.v[0].file, "checked: the caller's findings outlive the verdict");
	check_result_clear(&cr);
	rmtree(dir);
	unload(&f);
}

int main(void)
{
	test_checked();
	test_warm_bases();
	test_prune_logs();
	test_prune_base_logs();
	test_panicked_01();
	test_fired_without_panic_01();
	test_carried_lines_04();
	test_preexisting();
	test_decide();
	test_needs_rerun();
	test_calls_02();
	test_landed_offset();
	test_parent_vs_patched();
	return done_testing();
}
