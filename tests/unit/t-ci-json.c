/*
 * Tests for ci-json.c: the one verdict schema.  A verdict with every
 * field set goes to JSON and back and to JSON again, the same document;
 * the fields read back are the fields written; the verdict files under
 * tests/ and the shapes the dashboard and older states hold read; the
 * findings come back as the JSON they were; the errors name the key;
 * and the text `warnwatch ci` prints of the verdicts in data/ci-text.
 */
#include "ci-json.h"
#include "ci-words.h"
#include "mbox.h"
#include "quote.h"
#include "tap.h"
#include "book.h"

#include <dirent.h>

#define DUMP (JSON_INDENT(2) | JSON_SORT_KEYS)

static const char *top(void)
{
	const char *t = getenv("WW_TOP");

	return t ? t : ".";
}

/* The findings of tests/kernel/03 (a BUG_ON() turned into a WARN_ON_ONCE():
 * a removal, an addition, a conversion naming the other side). */
static int add_findings(struct ci_verdict *v, struct ruleset *rs, struct series *s,
			struct mail_list *mails, struct strbuf *buf)
{
	struct check_opts co = CHECK_OPTS_INIT;
	struct strbuf path = STRBUF_INIT;
	struct check_damage *d;
	int ret;

	strbuf_addf(&path, "%s/tests/kernel/03-bug-on-converted/series.mbox", top());
	ret = strbuf_read_file(buf, path.buf, 0);
	if (!ret)
		ret = mbox_parse(mails, buf->buf, buf->len);
	if (!ret)
		ret = series_from_mails(s, mails);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/rules", top());
	if (!ret)
		ret = rules_load(rs, path.buf);
	co.rules = rs;
	v->own_findings = xcalloc(1, sizeof(*v->own_findings));
	v->findings = v->own_findings;
	if (!ret)
		ret = check_series(v->own_findings, s, &co);
	v->rules = rs;
	/* And a damaged hunk, as check records one. */
	ALLOC_GROW(v->own_findings->damaged, v->own_findings->nr_damaged + 1,
		   v->own_findings->alloc_damaged);
	d = &v->own_findings->damaged[v->own_findings->nr_damaged++];
	memset(d, 0, sizeof(*d));
	d->patch = 1;
	d->file = xstrdup("kernel/time/hrtimer.c");
	d->hunk = 2;
	d->reason = xstrdup("is truncated at its line 7");
	strbuf_release(&path);
	return ret;
}

/* Every field of the verdict set, none to its default. */
static void fill(struct ci_verdict *v)
{
	v->kind = CI_APPLY_FAILED;
	v->base = xstrdup("6.1.192");
	v->base_why = xstrdup("base-commit names v6.1");
	v->reason = xstrdup("Kernel panic - not syncing: kernel: panic_on_warn set ...");
	v->accel = xstrdup("kvm");
	v->console = xstrdup("/var/cache/console.log");
	v->console2 = xstrdup("/var/cache/console2.log");
	v->panic_message = xstrdup("kernel: panic_on_warn set ...");
	v->panic_suite = xstrdup("time_test_cases");
	v->planned_suites = 3;
	ALLOC_GROW(v->suites, 2, v->alloc_suites);
	v->suites[0] = (struct ci_suite){ xstrdup("time_test_cases"), KTAP_CRASHED, 1, 2, 3 };
	v->suites[1] = (struct ci_suite){ xstrdup("ext4_inode_test"), KTAP_SKIP, 0, 0, 9 };
	v->nr_suites = 2;
	strvec_push(&v->enabled, "time_test_cases");
	strvec_push(&v->enabled, "clk_gate_test");
	strvec_push(&v->config_added, "CONFIG_COMMON_CLK");
	ALLOC_GROW(v->fired, 2, v->alloc_fired);
	v->fired[0] = (struct ci_fired){
		FIRED_WARN, xstrdup("kernel/time/timeconv.c"), 55, 39, xstrdup("time64_to_tm"),
		xstrdup("time_test_cases"), xstrdup("time64_to_tm_test_date_range"),
		xstrdup("time64_to_tm+0x1e0/0x1f0\nkunit_try_run_case+0x4b/0x70"),
		xstrdup("WARNING: CPU: 0 PID: 20 at kernel/time/timeconv.c:55"), 1, true, false,
		true, xstrdup("WARN_ON(totalsecs < 0)"), 1, 0,
		xstrdup("warn:time64_to_tm/kunit_try_run_case"), NULL, -1 };
	v->fired[1] = (struct ci_fired){
		FIRED_OOPS, NULL, 0, 0, xstrdup("ext4_rename"), NULL, NULL, NULL,
		xstrdup("BUG: kernel NULL pointer dereference"), 0, false, true, false, NULL,
		3, 2, xstrdup("oops:ext4_rename/vfs_rename"), xstrdup("a known oops"), 0 };
	v->nr_fired = 2;
	v->warn_count = 7;
	v->warn_flood = true;
	v->build_error = xstrdup("kernel/time/timeconv.c:55:2: error: expected ';'");
	v->apply_note = xstrdup("base-commit: v6.0 is not a tree we have");
	v->base_error = xstrdup("the unpatched kernel did not boot");
	v->failed_patch = 2;
	v->failed_file = xstrdup("drivers/clk/clk-gate.c");
	v->failed_hunk = 3;
	v->nr_patches = 2;
	v->t = (struct ci_timings){ .check = 0.25, .tree = 1.5, .apply = 2.125, .build = 301.75,
				    .boot = 12.5, .boot2 = 13.0625, .base_boot = 11.5,
				    .total = 391.03125, .kselftests = 40.5, .images = 3.25,
				    .initramfs = 2.75, .fsck = 0.5, .rerun = 9.5 };
	v->user_space = true;
	ALLOC_GROW(v->tests, 3, v->alloc_tests);
	v->tests[0] = (struct ci_test){ xstrdup("time_test_cases"), "kunit", "crashed", NULL, NULL,
					NULL, NULL };
	v->tests[1] = (struct ci_test){ xstrdup("timers:posix_timers"), "kselftest", "fail", NULL,
					xstrdup("timeout"), "fail", "pass" };
	v->tests[2] = (struct ci_test){ xstrdup("workload:ext4"), "workload", "pass",
					xstrdup("ext4-4k-default"), NULL, "pass", NULL };
	v->base_compared = true;
	v->base_log = xstrdup("/cache/ci/base-6.1.192-d5305d5fc8ff-0123456789ab.log");
	v->base_cached = true;
	v->rerun = true;
	v->nr_tests = 3;
	ALLOC_GROW(v->calls, 3, v->alloc_calls);
	v->calls[0] = (struct ci_call){ xstrdup("kernel/time/timeconv.c"), 55, 39, xstrdup("WARN_ON"),
					1, 3, NULL, true, xstrdup("time_test_cases") };
	v->calls[1] = (struct ci_call){ xstrdup("fs/ext4/namei.c"), 2003, 2003, xstrdup("WARN_ON_ONCE"),
					2, 0, NULL, false, NULL };
	v->calls[2] = (struct ci_call){ xstrdup("drivers/foo.c"), 88, 88, xstrdup("BUG_ON"),
					2, -1, xstrdup("no coverage data for drivers/foo.c"),
					false, NULL };
	v->nr_calls = 3;
	ALLOC_GROW(v->images, 2, v->alloc_images);
	v->images[0] = (struct ci_image){ xstrdup("ext4-4k-default"), xstrdup("has_journal"), true,
					  NULL };
	v->images[1] = (struct ci_image){ xstrdup("ext4-1k-nojournal"), xstrdup("^has_journal"),
					  false, xstrdup("Pass 1: Checking inodes\ninode 12 bad") };
	v->nr_images = 2;
	strvec_push(&v->not_built, "net: undefined reference to 'foo'");
	v->guest_error = xstrdup("busybox-static is not installed");
}

static char *dump(const struct ci_verdict *v)
{
	json_t *j = ci_verdict_to_json(v);
	char *text = json_dumps(j, DUMP);

	json_decref(j);
	return text;
}

static void round_trip(void)
{
	struct ci_verdict v = CI_VERDICT_INIT, back = CI_VERDICT_INIT, again = CI_VERDICT_INIT;
	struct ruleset rs = RULESET_INIT;
	struct series s = SERIES_INIT;
	struct mail_list mails = MAIL_LIST_INIT;
	struct strbuf buf = STRBUF_INIT;
	char *one, *two, *three;

	fill(&v);
	is(add_findings(&v, &rs, &s, &mails, &buf), 0, "tests/kernel/03 checks: %s", error_last());
	ok(v.findings->nr >= 2, "it has findings (%zu)", v.findings->nr);
	one = dump(&v);
	is(ci_verdict_from_json(&back, one, strlen(one), "one.json"), 0, "reads back: %s",
	   error_last());
	two = dump(&back);
	is_str(two, one, "to JSON, back, to JSON: the same document");
	is(ci_verdict_from_json(&again, two, strlen(two), "two.json"), 0, "and once more");
	three = dump(&again);
	is_str(three, one, "a fixed point");

	/* The fields themselves, not only their JSON. */
	is(back.kind, CI_APPLY_FAILED, "kind");
	is_str(back.base, "6.1.192", "base");
	is_str(back.base_why, "base-commit names v6.1", "base_why");
	is_str(back.reason, v.reason, "reason");
	is_str(back.guest_error, v.guest_error, "user_space_error");
	ok(back.user_space, "user_space");
	is(back.planned_suites, 3, "planned_suites");
	ok(back.nr_suites == 2 && back.suites[0].result == KTAP_CRASHED &&
	   back.suites[0].skip == 3 && back.suites[1].result == KTAP_SKIP, "suites");
	ok(back.enabled.nr == 2 && !strcmp(back.enabled.v[1], "clk_gate_test") &&
	   back.config_added.nr == 1, "enabled_suites, config_added");
	is(back.nr_fired, 2, "fired[]");
	is_str(back.fired[0].suite, "time_test_cases", "fired[0].suite");
	is_str(back.fired[0].test, "time64_to_tm_test_date_range", "fired[0].test");
	is_str(back.fired[0].trace, v.fired[0].trace, "fired[0].trace, its lines joined again");
	ok(back.fired[0].added_by_series && back.fired[0].in_first_boot &&
	   !back.fired[0].preexisting && back.fired[0].patch == 1 && back.fired[0].line == 55,
	   "fired[0]'s flags, patch and line");
	ok(back.fired[1].kind == FIRED_OOPS && !back.fired[1].file && !back.fired[1].suite &&
	   !back.fired[1].trace && back.fired[1].preexisting, "fired[1]: a crash report without a line");
	is(back.nr_tests, 3, "tests[]");
	ok(!strcmp(back.tests[1].kind, "kselftest") && !strcmp(back.tests[1].result, "fail") &&
	   !strcmp(back.tests[1].detail, "timeout") && !back.tests[1].image, "tests[1]");
	is_str(back.tests[2].image, "ext4-4k-default", "tests[2].image");
	is(back.nr_calls, 3, "calls[]");
	ok(back.calls[0].fired && back.calls[0].reached == 3 &&
	   !strcmp(back.calls[0].suite, "time_test_cases"), "calls[0]: fired, reached, suite");
	ok(back.calls[1].reached == 0 && !back.calls[1].reached_why, "calls[1]: reached 0");
	ok(back.calls[2].reached == -1 &&
	   !strcmp(back.calls[2].reached_why, "no coverage data for drivers/foo.c"),
	   "calls[2]: not measured, and why");
	ok(back.nr_images == 2 && back.images[0].clean && !back.images[1].clean &&
	   !strcmp(back.images[1].fsck_output, v.images[1].fsck_output), "images[]");
	ok(back.not_built.nr == 1, "kselftests_not_built");
	ok(back.warn_count == 7 && back.warn_flood, "warn_count, warn_flood");
	ok(back.failed_patch == 2 && back.failed_hunk == 3 &&
	   !strcmp(back.failed_file, "drivers/clk/clk-gate.c"), "apply_error");
	ok(back.t.build == 301.75 && back.t.total == 391.03125 && back.t.boot2 == 13.0625,
	   "seconds");
	/* Issue 25: the findings come back as the JSON they were, nothing
	 * made up for them (a finding once brought two rules of its own). */
	ok(!back.findings && !back.own_findings && !back.own_rules && !back.rules,
	   "read: no findings, no rules of its own");
	{
		json_t *j = ci_verdict_to_json(&v);
		const json_t *f0;

		ok(back.findings_doc &&
		   json_equal(json_object_get(back.findings_doc, "findings"),
			      json_object_get(j, "findings")) &&
		   json_equal(json_object_get(back.findings_doc, "damaged"),
			      json_object_get(j, "damaged")),
		   "read: findings[] and damaged[] kept as written");
		is(json_array_size(json_object_get(back.findings_doc, "findings")), v.findings->nr,
		   "read: every finding");
		f0 = json_array_get(json_object_get(back.findings_doc, "findings"), 0);
		is_str(json_string_value(json_object_get(json_object_get(f0, "guidance"), "file")),
		       rs.guidance_file, "read: the findings' guidance file");
		json_decref(j);
	}
	free(one);
	free(two);
	free(three);
	ci_verdict_release(&again);
	ci_verdict_release(&back);
	ci_verdict_release(&v);
	ruleset_release(&rs);
	series_release(&s);
	mail_list_clear(&mails);
	strbuf_release(&buf);
}

/* Every verdict name reads back as itself. */
static void names(void)
{
	for (int k = 0; k < CI_NR_KINDS; k++) {
		struct ci_verdict v = CI_VERDICT_INIT;
		char json[64];

		snprintf(json, sizeof(json), "{\"verdict\": \"%s\"}", ci_verdict_name(k));
		ok(!ci_verdict_from_json(&v, json, strlen(json), "k.json") && (int)v.kind == k,
		   "verdict '%s'", ci_verdict_name(k));
		ci_verdict_release(&v);
	}
}

static void reads(const char *what, const char *json, const char *want_verdict)
{
	struct ci_verdict v = CI_VERDICT_INIT;
	int ret = ci_verdict_from_json(&v, json, strlen(json), what);

	ok(!ret && !strcmp(ci_verdict_name(v.kind), want_verdict), "%s reads (%s)", what,
	   ret ? error_last() : ci_verdict_name(v.kind));
	ci_verdict_release(&v);
}

/* The verdict files under tests/ that review --verdict is given. */
static void fixtures(void)
{
	static const char *const files[][2] = {
		{ "tests/golden/input/f-verdict.json", "clean" },
		{ "tests/golden/input/f-verdict-fired.json", "panicked" },
		{ "tests/fuzz/corpus/verdict/full.json", "panicked" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct ci_verdict v = CI_VERDICT_INIT;
		struct strbuf path = STRBUF_INIT;
		int ret;

		strbuf_addf(&path, "%s/%s", top(), files[i][0]);
		ret = ci_verdict_load(&v, path.buf);
		ok(!ret && !strcmp(ci_verdict_name(v.kind), files[i][1]), "%s reads (%s)",
		   files[i][0], ret ? error_last() : ci_verdict_name(v.kind));
		ci_verdict_release(&v);
		strbuf_release(&path);
	}
	/* t0100-review.sh's (abridged), t0101's old one without calls, the
	 * dashboard's (t-dashboard.c, t0320). */
	reads("t0100 ci.json", "{\"verdict\": \"panicked\", \"reason\": \"Kernel panic - not syncing: "
	      "kernel: panic_on_warn set ...\", \"base\": \"6.1.192\", \"fired\": [{\"kind\": \"warn\", "
	      "\"file\": \"kernel/time/timeconv.c\", \"line\": 56, \"function\": \"time64_to_tm\", "
	      "\"suite\": \"time_test_cases\", \"source\": \"WARN_ON(offset)\", "
	      "\"trace\": [\"time64_to_tm_test_date_range+0x7c/0x1b0\"]}]}", "panicked");
	reads("t0101 old.json", "{\"verdict\": \"clean\", \"base\": \"6.1.192\"}", "clean");
	reads("t-dashboard ci.json", "{\"verdict\": \"panicked\", \"reason\": \"kernel BUG at "
	      "mm/slub.c:7\"}", "panicked");
	/* ci.json before its findings took check's form (brief, "function"
	 * null), and the reduced verdict.json serve wrote beside it. */
	reads("an older ci.json", "{\"verdict\": \"clean\", \"reason\": \"3 KUnit suites ran\", "
	      "\"base\": \"6.1.192\", \"findings\": [{\"patch\": 1, \"kind\": \"added\", \"file\": "
	      "\"kernel/time/time.c\", \"line\": 186, \"function\": null, \"macro\": \"WARN_ON_ONCE\", "
	      "\"severity\": \"warning\", \"conversion\": false, \"source\": \"WARN_ON_ONCE(tz)\"}], "
	      "\"seconds\": {\"check\": 0.1, \"total\": 2}}", "clean");
	reads("an older verdict.json", "{\"verdict\": \"panicked\", \"summary\": \"s\", \"kernel\": "
	      "\"6.1.192\", \"panic_on_warn\": true, \"first\": \"WARNING: x\"}", "panicked");
}

/* The kernel cases' expected.json are match patterns over ci.json: those
 * without "..._contains" patterns are verdicts too, a count ">0" read as
 * 1 (every case has one since they all give reached and patched_count). */
static void kernel_cases(void)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	DIR *d;
	struct dirent *e;
	int n = 0;

	strbuf_addf(&path, "%s/tests/kernel", top());
	d = opendir(path.buf);
	while (d && (e = readdir(d))) {
		struct ci_verdict v = CI_VERDICT_INIT;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/tests/kernel/%s/expected.json", top(), e->d_name);
		strbuf_reset(&text);
		if (strbuf_read_file(&text, path.buf, 0) < 0 ||
		    strstr(text.buf, "_contains\"") || strstr(text.buf, "_include\""))
			continue;
		for (char *gt = strstr(text.buf, "\">0\""); gt; gt = strstr(gt, "\">0\""))
			memcpy(gt, "1   ", 4);	/* same length: still valid JSON */
		ok(!ci_verdict_from_json(&v, text.buf, text.len, e->d_name), "tests/kernel/%s: %s",
		   e->d_name, error_last());
		ci_verdict_release(&v);
		n++;
	}
	if (d)
		closedir(d);
	ok(n >= 3, "%d kernel cases' expected.json read as verdicts", n);
	strbuf_release(&path);
	strbuf_release(&text);
}

static void refuses(const char *json, const char *want, const char *why)
{
	struct ci_verdict v = CI_VERDICT_INIT;
	int ret = ci_verdict_from_json(&v, json, strlen(json), "x.json");

	ok(ret == WW_EINPUT && strstr(error_last(), want), "%s: %s", why, error_last());
	ci_verdict_release(&v);
}

static void errors(void)
{
	refuses("[1]", "'x.json': not a JSON object", "not an object");
	refuses("{\"verdict\": ", "verdict 'x.json' line 1", "bad JSON: file and line");
	refuses("{\"status\": \"clean\"}", "no \"verdict\"", "another system's keys");
	refuses("{\"verdict\": \"warn\"}", "unknown verdict 'warn'", "a verdict kernel-ci never gives");
	refuses("{\"verdict\": \"clean\", \"base\": 6}", "\"base\" is not a string", "a wrong type");
	refuses("{\"verdict\": \"clean\", \"calls\": [{\"file\": \"a.c\", \"macro\": \"BUG_ON\", "
		"\"reached\": \"many\"}]}", "calls[0]: \"reached\" is not an integer",
		"names the entry");
	refuses("{\"verdict\": \"clean\", \"tests\": [{\"name\": \"t\", \"kind\": \"kunit\", "
		"\"result\": \"ok\"}]}", "tests[0]: unknown \"result\" 'ok'", "an unknown result");
	refuses("{\"verdict\": \"clean\", \"findings\": {}}", "'x.json': \"findings\" is not an array",
		"findings not an array");
	refuses("{\"verdict\": \"clean\", \"findings\": [{}, 1]}", "findings[1]: not an object",
		"a finding not an object");
	refuses("{\"verdict\": \"clean\", \"damaged\": [\"a.c\"]}", "damaged[0]: not an object",
		"a damaged hunk not an object");
	refuses("{\"verdict\": \"clean\", \"fired\": [1]}", "fired[0]: not an object", "fired[0] not an object");
}

/*
 * Issue 25: a ci.json's findings go out again as they came in, checked
 * for their shape only: an older one's "function": null, a key of a later
 * warnwatch, a finding without the "macro" check would write (its keys
 * are check's business, not the reader's).  Nothing is made up for them.
 */
static void kept_as_read(void)
{
	static const char json[] = "{\"verdict\": \"clean\", \"base\": \"6.1.192\", "
		"\"findings\": [{\"patch\": 1, \"kind\": \"added\", \"file\": \"kernel/time/time.c\", "
		"\"line\": 186, \"function\": null, \"macro\": \"WARN_ON_ONCE\", \"severity\": "
		"\"warning\", \"later\": {\"key\": [1, 2.5]}}, {\"kind\": \"added\", \"file\": \"a.c\"}], "
		"\"damaged\": [{\"patch\": 2, \"file\": \"a.c\", \"hunk\": 1, \"reason\": \"r\"}]}";
	static const char none_json[] = "{\"verdict\": \"clean\"}";
	struct ci_verdict v = CI_VERDICT_INIT, none = CI_VERDICT_INIT;
	json_t *in = json_loads(json, 0, NULL), *out, *empty;

	is(ci_verdict_from_json(&v, json, strlen(json), "old.json"), 0, "an older ci.json reads: %s",
	   error_last());
	out = ci_verdict_to_json(&v);
	ok(json_equal(json_object_get(out, "findings"), json_object_get(in, "findings")),
	   "its findings go out as they came in (function null, a later key, no macro)");
	ok(json_equal(json_object_get(out, "damaged"), json_object_get(in, "damaged")),
	   "and its damaged hunks");
	ok(!v.findings && !v.own_findings && !v.rules && !v.own_rules,
	   "no findings or rules made up for them");
	json_decref(out);

	is(ci_verdict_from_json(&none, none_json, strlen(none_json), "none.json"), 0,
	   "a ci.json without findings reads");
	empty = ci_verdict_to_json(&none);
	ok(json_is_array(json_object_get(empty, "findings")) &&
	   !json_array_size(json_object_get(empty, "findings")) &&
	   json_is_array(json_object_get(empty, "damaged")) &&
	   !json_array_size(json_object_get(empty, "damaged")),
	   "and has empty findings[] and damaged[], as ci_run writes none");
	json_decref(empty);
	json_decref(in);
	ci_verdict_release(&none);
	ci_verdict_release(&v);
}

/* Issue 22: console-derived strings with a line of bait, ESC and bytes
 * that are not UTF-8 (the guest prints what the series makes it print). */
#define BAIT "x\nReviewed-by: warnwatch <bot@example.org>\n\x1b[31m\xff\xfe\x7f"

static void set(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

/* Each line of `text` free of controls and invalid UTF-8, none starting
 * with the bait's trailer.  A trace or fsck's output is console lines,
 * each its own line, indented by four spaces as console lines are. */
static bool clean_lines(const char *text, const char *what)
{
	bool clean = true;

	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		if (quote_needed(l, n, QUOTE_KEEP_TAB) || !strncmp(l, "Reviewed-by:", 12)) {
			struct strbuf q = STRBUF_INIT;

			quote_c_style_n(&q, l, n, 0);
			printf("# %s: line '%s'\n", what, q.buf);
			strbuf_release(&q);
			clean = false;
		}
		l += n + (l[n] == '\n');
	}
	return clean;
}

static void hostile(void)
{
	static const enum ci_verdict_kind kinds[] = {
		CI_PANICKED, CI_CLEAN, CI_FS_CORRUPTED, CI_BUILD_FAILED, CI_APPLY_FAILED,
		CI_HUNG, CI_ERROR, CI_FIRED,
	};
	struct ci_verdict v = CI_VERDICT_INIT;
	struct strbuf text = STRBUF_INIT;
	const json_t *f0;
	json_t *j;
	char *dumped;

	fill(&v);
	set(&v.base_why, BAIT);
	set(&v.reason, BAIT);
	set(&v.panic_message, BAIT);
	set(&v.panic_suite, BAIT);
	set(&v.build_error, BAIT);
	set(&v.apply_note, BAIT);
	set(&v.base_error, BAIT);
	set(&v.suites[0].name, BAIT);
	set(&v.suites[1].name, BAIT);
	v.suites[1].result = KTAP_FAIL;
	set(&v.fired[0].file, BAIT);
	set(&v.fired[0].function, BAIT);
	set(&v.fired[0].suite, BAIT);
	set(&v.fired[0].test, BAIT);
	set(&v.fired[0].trace, BAIT);
	set(&v.fired[0].message, BAIT);
	set(&v.fired[0].source, BAIT);
	set(&v.fired[1].message, BAIT);
	set(&v.fired[1].function, BAIT);
	set(&v.tests[1].name, BAIT);
	set(&v.tests[1].detail, BAIT);
	set(&v.tests[2].name, "workload:" BAIT);
	set(&v.tests[2].image, BAIT);
	set(&v.calls[0].file, BAIT);
	set(&v.calls[0].suite, BAIT);
	set(&v.calls[1].macro, BAIT);
	set(&v.calls[2].reached_why, BAIT);
	set(&v.images[1].name, BAIT);
	set(&v.images[1].features, BAIT);
	set(&v.images[1].fsck_output, BAIT);
	strvec_push(&v.not_built, BAIT);
	strvec_push(&v.enabled, BAIT);

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		v.kind = kinds[i];
		v.fired[0].in_first_boot = true;
		v.fired[0].added_by_series = i % 2;
		strbuf_reset(&text);
		ci_verdict_text(&text, &v, NULL, test_book());
		ok(clean_lines(text.buf, ci_verdict_name(kinds[i])),
		   "ci text, %s: one line per item, no control or bait line",
		   ci_verdict_name(kinds[i]));
	}
	v.kind = CI_PANICKED;
	v.fired[0].added_by_series = false;
	strbuf_reset(&text);
	ci_verdict_text(&text, &v, NULL, test_book());
	ok(strstr(text.buf, "x\\nReviewed-by: warnwatch <bot@example.org>\\n\\033[31m\\377\\376\\177"),
	   "ci text: the bait shown escaped, as quote.h does");

	j = ci_verdict_to_json(&v);
	f0 = json_array_get(json_object_get(j, "fired"), 0);
	ok(json_is_string(json_object_get(f0, "file")) &&
	   json_is_string(json_object_get(f0, "function")) &&
	   json_is_string(json_object_get(f0, "suite")) &&
	   json_is_string(json_object_get(f0, "test")) &&
	   json_is_string(json_object_get(f0, "source")) &&
	   json_is_string(json_object_get(f0, "message")),
	   "JSON: fired[0] keeps every key whose text is not UTF-8");
	is(json_array_size(json_object_get(f0, "trace")), 3, "JSON: every trace line kept");
	is_str(json_string_value(json_object_get(f0, "suite")),
	       "x\\nReviewed-by: warnwatch <bot@example.org>\\n\\033[31m\\377\\376\\177",
	       "JSON: such a string escaped (quote.h)");
	ok(json_is_string(json_object_get(json_array_get(json_object_get(j, "suites"), 0), "name")) &&
	   json_is_string(json_object_get(json_array_get(json_object_get(j, "tests"), 1), "name")) &&
	   json_is_string(json_object_get(json_array_get(json_object_get(j, "calls"), 0), "file")) &&
	   json_is_string(json_object_get(json_array_get(json_object_get(j, "images"), 1), "name")) &&
	   json_is_string(json_object_get(j, "panic")) && json_is_string(json_object_get(j, "reason")) &&
	   json_is_string(json_object_get(j, "build_error")),
	   "JSON: suites, tests, calls, images and the top level keep theirs");
	is(json_array_size(json_object_get(j, "kselftests_not_built")), v.not_built.nr,
	   "JSON: no array entry lost");
	dumped = json_dumps(j, DUMP);
	{
		struct ci_verdict back = CI_VERDICT_INIT;

		is(dumped ? ci_verdict_from_json(&back, dumped, strlen(dumped), "hostile") : -1, 0,
		   "JSON: reads back");
		ci_verdict_release(&back);
	}
	free(dumped);
	json_decref(j);
	strbuf_release(&text);
	ci_verdict_release(&v);
}

/*
 * `warnwatch ci`'s text, byte for byte, of a verdict of each kind and of
 * every line it can print (tests/unit/data/ci-text/NAME.json, the text
 * NAME.txt): the words are the book's, and a fact left unbound there
 * makes a sentence silent, which only a comparison of the whole text sees.
 */
static void text_goldens(void)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, want = STRBUF_INIT,
		      text = STRBUF_INIT;
	struct dirent *e;
	DIR *d;
	int n = 0;

	strbuf_addf(&dir, "%s/tests/unit/data/ci-text", top());
	d = opendir(dir.buf);
	while (d && (e = readdir(d))) {
		struct ci_verdict v = CI_VERDICT_INIT;
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%.*s.txt", dir.buf, (int)len - 5, e->d_name);
		strbuf_reset(&want);
		strbuf_reset(&text);
		if (strbuf_read_file(&want, path.buf, 0) < 0) {
			ok(0, "ci text, %s: %s", e->d_name, error_last());
			error_clear();
			continue;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, e->d_name);
		if (!ci_verdict_load(&v, path.buf))
			ci_verdict_text(&text, &v, NULL, test_book());
		is_str(text.buf, want.buf, "ci text, %s: as its .txt says", e->d_name);
		ci_verdict_release(&v);
		n++;
	}
	if (d)
		closedir(d);
	ok(n >= 16, "%d ci texts compared", n);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&want);
	strbuf_release(&text);
}

int main(void)
{
	round_trip();
	names();
	fixtures();
	kernel_cases();
	errors();
	kept_as_read();
	hostile();
	text_goldens();
	return done_testing();
}
