/*
 * The kernel-ci verdict in words, in one place (see ci-words.h): the
 * text `warnwatch ci` prints (ci_verdict_text) and what a review reply's
 * kernel-ci paragraph says (ci_words_of), which share their phrases for
 * tests and for what ran.  Every word of both is a sentence of the book
 * (say.h, templates/sentences.json): this file decides which sentence
 * to say, escapes the names and binds the facts.
 */
#include "ci-priv.h"
#include "ci-words.h"
#include "quote.h"
#include "say.h"

/* ---- `warnwatch ci`'s text ---- */

/* Room for a number bound as a fact's value. */
#define NUM_LEN 24

/*
 * Every string below came from the series or the guest (file, function
 * and suite names, console lines, the build log): names go through
 * quote_c_style() (quoted as git quotes a path when they need it), text
 * through text() (controls escaped, never wrapped), so that each item
 * stays on its own line (quote.h).  Escaped, a value passes the book's
 * template unchanged (template.h drops only control characters).
 */
static void text(struct strbuf *out, const char *s)
{
	if (s)
		quote_c_style_n(out, s, strlen(s), QUOTE_KEEP_TAB);
}

static const char *num(char *buf, long long n)
{
	snprintf(buf, NUM_LEN, "%lld", n);
	return buf;
}

/* A fact that is true or unbound, for a {{#section}}. */
static const char *flag(bool on)
{
	return on ? "1" : NULL;
}

/* The base tree's name as the text says it: "?" when unknown. */
static void base_name(struct strbuf *out, const struct ci_verdict *v)
{
	text(out, v->base);
	if (!out->len)
		strbuf_addch(out, '?');
}

void ci_words_test(struct strbuf *out, const char *name, const struct say_book *book)
{
	struct strbuf q = STRBUF_INIT;
	const char *w;

	/* The names come from the guest's console: escaped (quote.h). */
	if (skip_prefix(name, "workload:", &w)) {
		quote_c_style(&q, w);
		say_quiet(out, book, "ci-test-workload", "workload", q.buf, NULL);
	} else if (strchr(name, ':')) {
		quote_c_style(&q, name);
		say_quiet(out, book, "ci-test-kselftest", "test", q.buf, NULL);
	} else {
		quote_c_style(&q, name);
		say_quiet(out, book, "ci-test-kunit", "suite", q.buf, NULL);
	}
	strbuf_release(&q);
}

static void patch_name(struct strbuf *out, const struct ci_verdict *v, int patch,
		       const struct say_book *book)
{
	char n[NUM_LEN], of[NUM_LEN];

	say_quiet(out, book, "ci-text-patch", "patch", num(n, patch),
		  "patches", num(of, v->nr_patches ? v->nr_patches : patch), NULL);
}

/* A report that names no line the series adds: where it fired, if known. */
static void fired_elsewhere(struct strbuf *out, const struct ci_fired *f,
			    const char *kind, const struct say_book *book)
{
	struct strbuf file = STRBUF_INIT, fn = STRBUF_INIT, msg = STRBUF_INIT;
	char line[NUM_LEN];

	quote_c_style(&fn, f->function);
	if (f->file) {
		quote_c_style(&file, f->file);
		say_quiet(out, book, "ci-text-fired-existing", "kind", kind, "file", file.buf,
			  "line", num(line, f->line), "function", fn.buf,
			  "preexisting", flag(f->preexisting), NULL);
	} else {
		text(&msg, f->message);
		say_quiet(out, book, "ci-text-fired-console", "message", msg.buf,
			  "kind", f->message ? NULL : kind, "function", fn.buf,
			  "preexisting", flag(f->preexisting), NULL);
	}
	strbuf_release(&file);
	strbuf_release(&fn);
	strbuf_release(&msg);
}

static void fired_sentence(struct strbuf *out, const struct ci_verdict *v,
			   const struct ci_fired *f, const struct say_book *book)
{
	struct strbuf kind = STRBUF_INIT, where = STRBUF_INIT, patch = STRBUF_INIT,
		      source = STRBUF_INIT;

	say_quiet(&kind, book, "ci-text-report", "warning", flag(f->kind == FIRED_WARN),
		  "bug", flag(f->kind == FIRED_BUG),
		  "oops", flag(f->kind != FIRED_WARN && f->kind != FIRED_BUG), NULL);
	if (f->added_by_series) {
		ci_where(&where, v, f->file, f->line, f->tree_line);
		patch_name(&patch, v, f->patch, book);
	}
	if (f->added_by_series && f->source) {
		text(&source, f->source);
		say_quiet(out, book, "ci-text-fired-source", "source", source.buf,
			  "patch", patch.buf, "where", where.buf, NULL);
	} else if (f->added_by_series) {
		say_quiet(out, book, "ci-text-fired-added", "kind", kind.buf,
			  "where", where.buf, "patch", patch.buf, NULL);
	} else {
		fired_elsewhere(out, f, kind.buf, book);
	}
	strbuf_release(&kind);
	strbuf_release(&where);
	strbuf_release(&patch);
	strbuf_release(&source);
}

/* 0-day's parent column, whether it is known, whether it came back. */
static void fired_counts(struct strbuf *out, const struct ci_verdict *v,
			 const struct ci_fired *f, const struct say_book *book)
{
	char base[NUM_LEN], patched[NUM_LEN];

	say_quiet(out, book, "ci-text-counts",
		  "base_count", f->base_count >= 0 ? num(base, f->base_count) : NULL,
		  "patched_count", num(patched, f->patched_count), NULL);
	say_quiet(out, book, "ci-text-known", "known", f->known, "base", v->base, NULL);
	say_quiet(out, book, "ci-text-flaky", "flaky", flag(f->reproduced == 0), NULL);
}

/* The system call its trace runs through: user space reached it. */
static void fired_from_user(struct strbuf *out, const struct ci_fired *f,
			    const struct say_book *book)
{
	struct strbuf entry = STRBUF_INIT, name = STRBUF_INIT;

	if (console_trace_syscall(&entry, &name, f->trace))
		say_quiet(out, book, "ci-text-from-user", "entry", entry.buf, "syscall",
			  name.buf, NULL);
	strbuf_release(&entry);
	strbuf_release(&name);
}

/* A report in full: what fired, and its counts. */
static void fired_report(struct strbuf *out, const struct ci_verdict *v,
			 const struct ci_fired *f, const struct say_book *book)
{
	fired_sentence(out, v, f, book);
	fired_counts(out, v, f, book);
	fired_from_user(out, f, book);
}

/* " while running KUnit suite x", or that no test was running. */
static void fired_during(struct strbuf *out, const char *suite, const struct say_book *book)
{
	struct strbuf test = STRBUF_INIT;

	if (suite)
		ci_words_test(&test, suite, book);
	say_quiet(out, book, "ci-text-while", "running", flag(suite), "test", test.buf, NULL);
	strbuf_release(&test);
}

/* The test case (or a workload's image) that was running, and the trace. */
static void fired_case(struct strbuf *out, const struct ci_fired *f, bool workload,
		       const struct say_book *book)
{
	struct strbuf name = STRBUF_INIT;

	if (f && f->test) {
		quote_c_style(&name, f->test);
		say_quiet(out, book, "ci-text-test-case", "case", name.buf,
			  "workload", flag(workload), NULL);
	}
	if (f && f->trace) {
		strbuf_addch(out, '\n');
		quote_lines(out, "    ", f->trace, strlen(f->trace));
	}
	strbuf_release(&name);
}

static const struct ci_fired *first_fired(const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_fired; i++)
		if (v->fired[i].in_first_boot)
			return &v->fired[i];
	return NULL;
}

/* The boot with panic_on_warn=0 after a panic: how many fired, and the others. */
static void text_second_boot(struct strbuf *out, const struct ci_verdict *v,
			     const struct say_book *book)
{
	struct strbuf report = STRBUF_INIT, suite = STRBUF_INIT, test = STRBUF_INIT;
	char count[NUM_LEN], mb[NUM_LEN];
	size_t others = 0;

	if (!v->console2)
		return;
	for (size_t i = 0; i < v->nr_fired; i++)
		if (!v->fired[i].in_first_boot)
			others++;
	num(count, v->warn_count);
	say_quiet(out, book, v->warn_flood ? "ci-text-flood" : "ci-text-second-boot",
		  "count", count, "mb", num(mb, CI_SECOND_BOOT_MAX_CONSOLE >> 20),
		  "one", flag(v->warn_count == 1), "user_space", flag(v->user_space),
		  "others", flag(others), NULL);
	for (size_t i = 0; i < v->nr_fired; i++) {
		const struct ci_fired *o = &v->fired[i];

		if (o->in_first_boot)
			continue;
		strbuf_reset(&report);
		strbuf_reset(&suite);
		strbuf_reset(&test);
		fired_report(&report, v, o, book);
		quote_c_style(&suite, o->suite);
		quote_c_style(&test, o->test);
		say_quiet(out, book, "ci-text-other", "report", report.buf,
			  "suite", suite.buf, "case", test.buf, NULL);
	}
	strbuf_release(&report);
	strbuf_release(&suite);
	strbuf_release(&test);
}

static void text_panicked(struct strbuf *out, const struct ci_verdict *v,
			  const struct say_book *book)
{
	const struct ci_fired *f = first_fired(v);
	const char *suite = v->panic_suite ? v->panic_suite : f ? f->suite : NULL;
	struct strbuf during = STRBUF_INIT, report = STRBUF_INIT;

	fired_during(&during, suite, book);
	if (f)
		fired_report(&report, v, f, book);
	else
		text(&report, v->panic_message);
	say_quiet(out, book, "ci-text-panicked", "during", during.buf,
		  "report", report.buf, NULL);
	fired_case(out, f, f && f->suite && starts_with(f->suite, "workload:"), book);
	text_second_boot(out, v, book);
	strbuf_release(&during);
	strbuf_release(&report);
}

/*
 * A report fired and no panic followed (CI_FIRED): what fired, where and
 * during what, each other report once, and that the panic is missing.
 */
static void text_fired(struct strbuf *out, const struct ci_verdict *v,
		       const struct say_book *book)
{
	const struct ci_fired *f = first_fired(v);
	struct strbuf base = STRBUF_INIT, report = STRBUF_INIT;

	if (!f && v->nr_fired)
		f = &v->fired[0];
	base_name(&base, v);
	if (f) {
		fired_report(&report, v, f, book);
		fired_during(&report, f->suite, book);
	} else {
		text(&report, v->reason);
	}
	say_quiet(out, book, "ci-text-fired", "base", base.buf, "report", report.buf, NULL);
	fired_case(out, f, false, book);
	for (size_t i = 0; i < v->nr_fired; i++) {
		const struct ci_fired *o = &v->fired[i];

		if (o == f)
			continue;
		strbuf_reset(&report);
		fired_report(&report, v, o, book);
		say_quiet(out, book, "ci-text-also", "report", report.buf, NULL);
	}
	strbuf_release(&base);
	strbuf_release(&report);
}

static void text_suites(struct strbuf *out, const struct ci_verdict *v,
			const struct say_book *book)
{
	struct strbuf cut = STRBUF_INIT, name = STRBUF_INIT;
	char n[3][NUM_LEN], never[NUM_LEN], planned[NUM_LEN];
	int count[3] = { 0 };	/* passed, failed, skipped */

	if (!v->nr_suites)
		return;
	for (size_t i = 0; i < v->nr_suites; i++) {
		const struct ci_suite *s = &v->suites[i];

		if (s->result != KTAP_CRASHED) {
			count[s->result == KTAP_PASS ? 0 : s->result == KTAP_FAIL ? 1 : 2]++;
			continue;
		}
		strbuf_reset(&name);
		quote_c_style(&name, s->name);
		say_quiet(&cut, book, "ci-text-suite-cut", "suite", name.buf, NULL);
	}
	say_quiet(out, book, "ci-text-suites", "passed", num(n[0], count[0]),
		  "failed", num(n[1], count[1]), "skipped", num(n[2], count[2]), "cut", cut.buf,
		  "never", v->planned_suites > (int)v->nr_suites ?
			   num(never, v->planned_suites - (int)v->nr_suites) : NULL,
		  "planned", num(planned, v->planned_suites), NULL);
	for (size_t i = 0; i < v->nr_suites; i++) {
		if (v->suites[i].result != KTAP_FAIL)
			continue;
		strbuf_reset(&name);
		quote_c_style(&name, v->suites[i].name);
		say_quiet(out, book, "ci-text-suite-failed", "suite", name.buf, NULL);
	}
	strbuf_release(&cut);
	strbuf_release(&name);
}

/* A clean boot says nothing about an added call but that it did not fire. */
static void text_clean_findings(struct strbuf *out, const struct ci_verdict *v,
				const struct say_book *book)
{
	struct strbuf patch = STRBUF_INIT, file = STRBUF_INIT;
	char line[NUM_LEN];

	for (size_t i = 0; i < ci_verdict_findings(v)->nr; i++) {
		const struct finding *f = &ci_verdict_findings(v)->v[i];
		const char *macro = f->rule ? f->rule->macro : "call";
		bool added = f->kind == FINDING_ADDED && !v->nr_calls;

		if (!added && f->kind != FINDING_REMOVED)
			continue;
		strbuf_reset(&patch);
		strbuf_reset(&file);
		patch_name(&patch, v, f->patch, book);
		quote_c_style(&file, f->file);
		say_quiet(out, book, added ? "ci-text-static" : "ci-text-removed", "macro", macro,
			  "patch", patch.buf, "file", file.buf, "line", num(line, f->line),
			  "converted", flag(f->conversion), NULL);
	}
	strbuf_release(&patch);
	strbuf_release(&file);
}

/* "a", "a and b", "a, b and c": the names a list of tests is said with. */
static void join_names(struct strbuf *out, const struct strvec *names)
{
	for (size_t i = 0; i < names->nr; i++) {
		if (i)
			strbuf_addstr(out, i + 1 == names->nr ? " and " : ", ");
		strbuf_addstr(out, names->v[i]);
	}
}

/* What ran, for "ran N times during ...": the boot, its KUnit suites,
 * the kselftest targets and the workloads, each named once. */
static void ran_phrase(struct strbuf *out, const struct ci_verdict *v,
		       const struct say_book *book)
{
	struct strvec parts = STRVEC_INIT, seen = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	bool kunit = false;

	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *t = &v->tests[i];
		const char *w;

		if (!strcmp(t->kind, "kunit")) {
			kunit = true;
			continue;
		}
		strbuf_reset(&sb);
		if (skip_prefix(t->name, "workload:", &w)) {
			ci_words_test(&sb, t->name, book);
		} else {
			struct strbuf target = STRBUF_INIT, q = STRBUF_INIT;

			strbuf_add(&target, t->name, strcspn(t->name, ":"));
			quote_c_style(&q, target.buf);
			say_quiet(&sb, book, "ci-ran-kselftests", "target", q.buf, NULL);
			strbuf_release(&target);
			strbuf_release(&q);
		}
		if (sb.len && !strvec_has(&seen, sb.buf))
			strvec_push(&seen, sb.buf);
	}
	strbuf_reset(&sb);
	say_quiet(&sb, book, "ci-ran-boot", NULL);
	strvec_push(&parts, sb.buf);
	strbuf_reset(&sb);
	say_quiet(&sb, book, "ci-ran-kunit", "kunit", kunit ? "1" : NULL, NULL);
	if (sb.len)
		strvec_push(&parts, sb.buf);
	for (size_t i = 0; i < seen.nr; i++)
		strvec_push(&parts, seen.v[i]);
	join_names(out, &parts);
	strbuf_release(&sb);
	strvec_clear(&parts);
	strvec_clear(&seen);
}

/* One added call, in words: did it run, how often, did it fire. */
static void text_call(struct strbuf *out, const struct ci_verdict *v,
		      const struct ci_call *c, const struct say_book *book)
{
	struct strbuf macro = STRBUF_INIT, where = STRBUF_INIT, patch = STRBUF_INIT,
		      call = STRBUF_INIT, sb = STRBUF_INIT;
	const char *suite;
	char count[NUM_LEN];

	text(&macro, c->macro);
	ci_where(&where, v, c->file, c->line, c->tree_line);
	patch_name(&patch, v, c->patch, book);
	say_quiet(&call, book, "ci-text-call", "macro", macro.buf, "where", where.buf,
		  "patch", patch.buf, NULL);
	num(count, c->reached);
	if (ci_call_fired(v, c, &suite)) {
		if (suite)
			ci_words_test(&sb, suite, book);
		say_quiet(out, book, "ci-text-call-fired", "call", call.buf, "during", sb.buf,
			  "count", c->reached > 0 ? count : NULL,
			  "one", flag(c->reached == 1), NULL);
	} else if (c->reached >= 0) {
		ran_phrase(&sb, v, book);
		say_quiet(out, book, c->reached ? "ci-text-call-ran" : "ci-text-call-unreached",
			  "call", call.buf, "count", count, "one", flag(c->reached == 1),
			  "ran", sb.buf, NULL);
	} else {
		text(&sb, c->reached_why ? c->reached_why : "?");
		say_quiet(out, book, "ci-text-call-unmeasured", "call", call.buf,
			  "why", sb.buf, NULL);
	}
	strbuf_release(&macro);
	strbuf_release(&where);
	strbuf_release(&patch);
	strbuf_release(&call);
	strbuf_release(&sb);
}

/* A user-space test's result, and what its rerun and the base say of it. */
static void text_test(struct strbuf *out, const struct ci_test *t,
		      const struct say_book *book)
{
	struct strbuf kind = STRBUF_INIT, name = STRBUF_INIT, image = STRBUF_INIT,
		      result = STRBUF_INIT, detail = STRBUF_INIT, rerun = STRBUF_INIT;
	bool flaky = t->rerun_result && !strcmp(t->rerun_result, "pass");
	bool vs_base = t->base_result && !strcmp(t->result, "fail");
	bool on_base = vs_base && !strcmp(t->base_result, "fail");

	text(&kind, t->kind);
	quote_c_style(&name, t->name);
	quote_c_style(&image, t->image);
	text(&result, t->result);
	text(&detail, t->detail);
	if (!flaky)
		text(&rerun, t->rerun_result);
	say_quiet(out, book, "ci-text-test", "kind", kind.buf, "test", name.buf,
		  "image", image.buf, "result", result.buf, "detail", detail.buf, NULL);
	say_quiet(out, book, "ci-text-test-flaky", "flaky", flag(flaky), NULL);
	say_quiet(out, book, "ci-text-test-rerun", "rerun", rerun.buf, NULL);
	say_quiet(out, book, "ci-text-test-on-base", "on_base", flag(on_base), NULL);
	say_quiet(out, book, "ci-text-test-not-on-base", "not_on_base",
		  flag(vs_base && !on_base), NULL);
	strbuf_addch(out, '\n');
	strbuf_release(&kind);
	strbuf_release(&name);
	strbuf_release(&image);
	strbuf_release(&result);
	strbuf_release(&detail);
	strbuf_release(&rerun);
}

/* The images e2fsck checked after the workload. */
static void text_images(struct strbuf *out, const struct ci_verdict *v,
			const struct say_book *book)
{
	struct strbuf name = STRBUF_INIT, features = STRBUF_INIT;
	char count[NUM_LEN];
	size_t bad = 0;

	for (size_t i = 0; i < v->nr_images; i++)
		if (!v->images[i].clean)
			bad++;
	if (v->nr_images && !bad)
		say_quiet(out, book, "ci-text-images-clean", "count",
			  num(count, (long long)v->nr_images), NULL);
	for (size_t i = 0; i < v->nr_images; i++) {
		const struct ci_image *im = &v->images[i];

		if (im->clean)
			continue;
		strbuf_reset(&name);
		strbuf_reset(&features);
		quote_c_style(&name, im->name);
		text(&features, im->features);
		say_quiet(out, book, "ci-text-image-corrupted", "image", name.buf,
			  "features", features.buf, NULL);
		if (im->fsck_output)
			quote_lines(out, "    ", im->fsck_output, strlen(im->fsck_output));
	}
	strbuf_release(&name);
	strbuf_release(&features);
}

/* What ran: each added call, the KUnit suites, the tests, the images. */
static void text_ran(struct strbuf *out, const struct ci_verdict *v,
		     const struct say_book *book)
{
	struct strbuf name = STRBUF_INIT;

	for (size_t i = 0; i < v->nr_calls; i++)
		text_call(out, v, &v->calls[i], book);
	text_suites(out, v, book);
	for (size_t i = 0; i < v->nr_tests; i++)
		if (strcmp(v->tests[i].kind, "kunit"))
			text_test(out, &v->tests[i], book);
	for (size_t i = 0; i < v->not_built.nr; i++) {
		strbuf_reset(&name);
		quote_c_style(&name, v->not_built.v[i]);
		say_quiet(out, book, "ci-text-not-built", "target", name.buf, NULL);
	}
	text_images(out, v, book);
	strbuf_release(&name);
}

/* The apply failed: the reason, and which patch it was when `s` says. */
static void text_not_applied(struct strbuf *out, const struct ci_verdict *v,
			     const struct series *s, const char *reason,
			     const struct say_book *book)
{
	struct strbuf title = STRBUF_INIT;
	char patch[NUM_LEN], patches[NUM_LEN];

	say_quiet(out, book, "ci-text-apply-failed", "not_applied", "1",
		  "reason", reason, "none", flag(!v->reason), NULL);
	if (s && v->failed_patch > 0 && (size_t)v->failed_patch <= s->nr) {
		text(&title, s->patches[v->failed_patch - 1].title);
		say_quiet(out, book, "ci-text-apply-title", "patch", num(patch, v->failed_patch),
			  "patches", num(patches, (long long)s->nr), "title", title.buf, NULL);
	}
	strbuf_release(&title);
}

/* The verdict's first sentence, by its kind. */
static void text_verdict(struct strbuf *out, const struct ci_verdict *v,
			 const struct series *s, const struct say_book *book)
{
	struct strbuf base = STRBUF_INIT, reason = STRBUF_INIT, log = STRBUF_INIT;

	base_name(&base, v);
	text(&reason, v->kind == CI_UNTESTABLE && !v->reason ? "?" : v->reason);
	switch (v->kind) {
	case CI_PANICKED:
		text_panicked(out, v, book);
		break;
	case CI_FIRED:
		text_fired(out, v, book);
		break;
	case CI_CLEAN:
		say_quiet(out, book, "ci-text-clean", "base", base.buf,
			  "user_space", flag(v->user_space), NULL);
		text_clean_findings(out, v, book);
		break;
	case CI_FS_CORRUPTED:
		say_quiet(out, book, "ci-text-corrupted", "base", base.buf,
			  "reason", reason.buf, NULL);
		break;
	case CI_BUILD_FAILED:
		text(&log, v->build_error);
		say_quiet(out, book, "ci-text-build-failed", "base", base.buf,
			  "log", flag(v->build_error), "error", log.buf, NULL);
		break;
	case CI_APPLY_FAILED:
		text_not_applied(out, v, s, reason.buf, book);
		break;
	case CI_UNTESTABLE:
		say_quiet(out, book, "ci-text-untestable", "untestable", "1",
			  "reason", reason.buf, NULL);
		break;
	case CI_HUNG:
		say_quiet(out, book, "ci-text-hung", "hung", "1", "reason", reason.buf, NULL);
		break;
	case CI_ERROR:
		say_quiet(out, book, "ci-text-error", "no_verdict", "1",
			  "reason", reason.buf, NULL);
		break;
	}
	strbuf_release(&base);
	strbuf_release(&reason);
	strbuf_release(&log);
}

/* The lines under every verdict: the base, the suites, what to read next. */
static void text_trailer(struct strbuf *out, const struct ci_verdict *v,
			 const struct say_book *book)
{
	struct strbuf base = STRBUF_INIT, sb = STRBUF_INIT;

	base_name(&base, v);
	text(&sb, v->base_why);
	say_quiet(out, book, "ci-text-base", "base", base.buf, "why", sb.buf, NULL);
	strbuf_reset(&sb);
	for (size_t i = 0; i < v->enabled.nr; i++) {
		strbuf_addch(&sb, ' ');
		quote_c_style(&sb, v->enabled.v[i]);
	}
	say_quiet(out, book, "ci-text-enabled", "suites", sb.buf, NULL);
	strbuf_reset(&sb);
	text(&sb, v->base_error);
	say_quiet(out, book, "ci-text-base-error", "error", sb.buf, NULL);
	strbuf_reset(&sb);
	if (v->applied && strcmp(v->applied, "applied"))
		text(&sb, v->applied);
	say_quiet(out, book, "ci-text-applied", "how", sb.buf, NULL);
	strbuf_reset(&sb);
	text(&sb, v->apply_note);
	say_quiet(out, book, "ci-text-note", "note", sb.buf, NULL);
	strbuf_reset(&sb);
	text(&sb, v->console);
	say_quiet(out, book, "ci-text-console", "log", sb.buf, NULL);
	strbuf_reset(&sb);
	text(&sb, v->console2);
	say_quiet(out, book, "ci-text-console-second", "log", sb.buf, NULL);
	strbuf_release(&base);
	strbuf_release(&sb);
}

void ci_verdict_text(struct strbuf *out, const struct ci_verdict *v,
		     const struct series *s, const struct say_book *book)
{
	text_verdict(out, v, s, book);
	if (v->kind == CI_PANICKED || v->kind == CI_CLEAN ||
	    v->kind == CI_FS_CORRUPTED || v->kind == CI_FIRED)
		text_ran(out, v, book);
	text_trailer(out, v, book);
}

/* ---- a review reply's kernel-ci paragraph ---- */

/* The first WARN/BUG, in words, and its trace (when no log yet). */
static void words_fired(struct ci_words *w, const struct ci_verdict *v,
			const struct say_book *book)
{
	const struct ci_fired *f = v->nr_fired ? &v->fired[0] : NULL;
	size_t n = 0;

	if (!f)
		return;
	if (f->file) {
		struct strbuf src = STRBUF_INIT, where = STRBUF_INIT, during = STRBUF_INIT;
		char base[16], patched[16];

		/* In backquotes: the filler never breaks code apart.  Without
		 * the source line, the kind in words, not a JSON value. */
		if (f->source)
			quote_c_style_n(&src, f->source, strlen(f->source), 0);
		if (f->line > 0)
			ci_where(&where, v, f->file, f->line, f->tree_line);
		else
			quote_c_style(&where, f->file);
		if (f->suite)
			ci_words_test(&during, f->suite, book);
		/* 0-day's parent column. */
		snprintf(base, sizeof(base), "%d", f->base_count);
		snprintf(patched, sizeof(patched), "%d", f->patched_count);
		say_quiet(&w->first, book, "ci-first-fired", "source", src.buf,
			  "warning", f->kind == FIRED_WARN ? "1" : NULL,
			  "bug", f->kind == FIRED_BUG ? "1" : NULL,
			  "oops", f->kind != FIRED_WARN && f->kind != FIRED_BUG ? "1" : NULL,
			  "where", where.buf, "during", during.buf,
			  "base_count", f->base_count >= 0 ? base : NULL,
			  "patched_count", patched, "known", f->known ? "1" : NULL,
			  "preexisting", !f->added_by_series && f->preexisting ? "1" : NULL, NULL);
		strbuf_release(&src);
		strbuf_release(&where);
		strbuf_release(&during);
	}
	if (w->has_log)
		return;
	w->has_log = true;
	for (const char *p = f->trace; p && *p && n < CI_WORDS_LOG_LINES; n++) {
		size_t len = strcspn(p, "\n");

		strbuf_add(&w->log, p, len);
		strbuf_addch(&w->log, '\n');
		p += len + (p[len] == '\n');
	}
}

/* What ran, and what failed, in a few words. */
static void push_name(struct strvec *v, const char *name, const struct say_book *book)
{
	struct strbuf sb = STRBUF_INIT;

	ci_words_test(&sb, name, book);
	strvec_push(v, sb.buf);
	strbuf_release(&sb);
}

static void words_tests(struct ci_words *w, const struct ci_verdict *v,
			const struct say_book *book)
{
	struct strvec ran = STRVEC_INIT, failed = STRVEC_INIT, on_base = STRVEC_INIT,
		      flaky = STRVEC_INIT;
	struct strbuf names = STRBUF_INIT;
	size_t n = v->nr_tests;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct ci_test *t = &v->tests[i];
		bool fail = !strcmp(t->result, "fail");

		push_name(&ran, t->name, book);
		/* A test that fails on the base, or passed when run again, is
		 * marked with the reason, not blamed. */
		if (fail && t->base_result && !strcmp(t->base_result, "fail"))
			push_name(&on_base, t->name, book);
		else if (fail && t->rerun_result && !strcmp(t->rerun_result, "pass"))
			push_name(&flaky, t->name, book);
		else if (fail || !strcmp(t->result, "crashed"))
			push_name(&failed, t->name, book);
	}
	if (n > 4) {
		char count[24];

		snprintf(count, sizeof(count), "%zu", n);
		say_quiet(&names, book, "ci-tests-count", "count", count, NULL);
	} else {
		join_names(&names, &ran);
	}
	say_quiet(&w->tests, book, "ci-tests-ran", "tests", names.buf, NULL);
	/* Named once when every test named failed: not "X ran, and X failed". */
	if (failed.nr && failed.nr == n && n <= 4) {
		say_quiet(&w->tests, book, "ci-tests-all-failed", "failed", "1",
			  "one", n == 1 ? "1" : NULL, NULL);
	} else if (failed.nr) {
		strbuf_reset(&names);
		join_names(&names, &failed);
		say_quiet(&w->tests, book, "ci-tests-failed", "failed", names.buf, NULL);
	}
	if (on_base.nr || flaky.nr) {
		strbuf_addstr(&w->tests, " (");
		strbuf_reset(&names);
		join_names(&names, &on_base);
		say_quiet(&w->tests, book, "ci-tests-on-base", "tests", names.buf,
			  "one", on_base.nr == 1 ? "1" : NULL, NULL);
		if (on_base.nr && flaky.nr)
			strbuf_addstr(&w->tests, "; ");
		strbuf_reset(&names);
		join_names(&names, &flaky);
		say_quiet(&w->tests, book, "ci-tests-flaky", "tests", names.buf, NULL);
		strbuf_addch(&w->tests, ')');
	}
	strbuf_release(&names);
	strvec_clear(&ran);
	strvec_clear(&failed);
	strvec_clear(&on_base);
	strvec_clear(&flaky);
}

/* The call is the one words_fired() already named, with where it fired:
 * saying "fired during" again, one sentence later, adds nothing. */
static bool named_first(const struct ci_verdict *v, const struct ci_call *c)
{
	const struct ci_fired *f = v->nr_fired ? &v->fired[0] : NULL;

	return f && f->file && f->line > 0 && f->added_by_series &&
	       f->patch == c->patch && !strcmp(f->file, c->file) &&
	       f->line >= c->line && f->line <= c->line + CI_CALL_LINES;
}

/*
 * Per added call, whether it ran and fired.  When one test ran, what ran
 * is said with the count ("ran 41 times during the boot and the ext4
 * workload": the counters run from boot, as in ci_verdict_text()).
 */
static void words_calls(struct ci_words *w, const struct ci_verdict *v,
			const struct say_book *book)
{
	const char *only = v->nr_tests == 1 ? v->tests[0].name : NULL;
	struct strbuf at = STRBUF_INIT, sb = STRBUF_INIT, where = STRBUF_INIT,
		      macro = STRBUF_INIT, during = STRBUF_INIT;

	for (size_t i = 0; i < v->nr_calls; i++) {
		const struct ci_call *c = &v->calls[i];
		const char *suite;
		char count[24];

		/* Fired beats any count: never "not reached" for a call that fired. */
		if (named_first(v, c))
			continue;
		strbuf_reset(&at);
		strbuf_reset(&sb);
		strbuf_reset(&where);
		strbuf_reset(&macro);
		strbuf_reset(&during);
		quote_c_style(&macro, c->macro);
		ci_where(&where, v, c->file, c->line, c->tree_line);
		say_quiet(&at, book, "ci-call", "macro", macro.buf, "where", where.buf, NULL);
		snprintf(count, sizeof(count), "%lld", c->reached);
		if (ci_call_fired(v, c, &suite)) {
			if (suite)
				ci_words_test(&during, suite, book);
			say_quiet(&sb, book, "ci-call-fired", "call", at.buf,
				  "during", during.buf, NULL);
		} else if (c->reached > 0) {
			if (only)
				ran_phrase(&during, v, book);
			say_quiet(&sb, book, "ci-call-ran", "call", at.buf, "count", count,
				  "one", c->reached == 1 ? "1" : NULL, "during", during.buf, NULL);
		} else if (c->reached == 0) {
			say_quiet(&sb, book, "ci-call-unreached", "unreached", "1",
				  "call", at.buf, NULL);
		} else {
			if (c->reached_why)
				quote_c_style(&during, c->reached_why);
			say_quiet(&sb, book, "ci-call-unmeasured", "call", at.buf,
				  "why", during.buf, NULL);
		}
		if (sb.len)
			strvec_push(&w->calls, sb.buf);
	}
	strbuf_release(&at);
	strbuf_release(&sb);
	strbuf_release(&where);
	strbuf_release(&macro);
	strbuf_release(&during);
}

/*
 * The console lines to quote: the compiler's error, else the first
 * WARN/BUG's trace, headed by the reason (a console line such as
 * "Kernel panic - not syncing: ...").
 */
void ci_words_of(struct ci_words *w, const struct ci_verdict *v, const struct say_book *book)
{
	if (v->build_error) {
		strbuf_addstr(&w->log, v->build_error);
		w->has_log = true;
	}
	words_fired(w, v, book);
	words_tests(w, v, book);
	words_calls(w, v, book);
	if (v->reason) {
		struct strbuf head = STRBUF_INIT;

		/* One console line, whatever it holds. */
		quote_c_style_n(&head, v->reason, strlen(v->reason), QUOTE_KEEP_TAB);
		strbuf_addch(&head, '\n');
		strbuf_addbuf(&head, &w->log);
		strbuf_release(&w->log);
		w->log = head;
		w->has_log = true;
	}
}

void ci_words_release(struct ci_words *w)
{
	strbuf_release(&w->first);
	strbuf_release(&w->log);
	strbuf_release(&w->tests);
	strvec_clear(&w->calls);
}

/* What went wrong, in words, for each verdict that is not clean. */
void ci_words_outcome(struct strbuf *out, enum ci_verdict_kind k, const struct say_book *book)
{
	say_quiet(out, book, "ci-outcome", "panicked", k == CI_PANICKED ? "1" : NULL,
		  "fired", k == CI_FIRED ? "1" : NULL, "not_built", k == CI_BUILD_FAILED ? "1" : NULL,
		  "not_applied", k == CI_APPLY_FAILED ? "1" : NULL, "hung", k == CI_HUNG ? "1" : NULL,
		  "corrupted", k == CI_FS_CORRUPTED ? "1" : NULL, NULL);
}

/* A base-commit: value fit to repeat: a tag or a hash, nothing else. */
static bool plain_ref(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 64 && strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ._-") == n;
}

static bool is_hash(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return n >= 7 && n <= 64 && !s[n];
}

/*
 * Why the trees were tried in that order.  "newest first" in base_why is
 * kbase_order()'s word that the Debian trees were tried newest first
 * (the git branch base and --tree say otherwise).
 */
static void untestable_order(struct strbuf *out, const struct ci_verdict *v,
			     const struct say_book *book)
{
	const char *bc = v->base_commit;
	char hash[16];
	bool newest = v->base_why && strstr(v->base_why, "newest first");

	if (!bc) {
		say_quiet(out, book, "ci-untestable-no-base", "no_base", "1", NULL);
	} else if (!plain_ref(bc)) {
		say_quiet(out, book, "ci-untestable-odd-base", "odd", "1", NULL);
	} else if (is_hash(bc)) {
		snprintf(hash, sizeof(hash), "%.12s", bc);
		say_quiet(out, book, "ci-untestable-hash", "hash", hash, NULL);
	} else {
		say_quiet(out, book, "ci-untestable-ref", "ref", bc, NULL);
	}
	say_quiet(out, book, newest ? "ci-untestable-newest" : "ci-untestable-another",
		  "newest", newest ? "1" : NULL, "another", newest ? NULL : "1", NULL);
}

/* "patch 1/2 does not apply (fs/x.c, hunk 3)" of the last tree. */
static void apply_failure(struct strbuf *out, const struct ci_verdict *v, bool either,
			  const struct say_book *book)
{
	char patch[16], patches[16];

	snprintf(patch, sizeof(patch), "%d", v->failed_patch);
	snprintf(patches, sizeof(patches), "%d", v->nr_patches);
	if (v->failed_patch > 0)
		say_quiet(out, book, "ci-untestable-patch", "patch", patch, "patches", patches,
			  "either", either ? "1" : NULL, NULL);
	else
		say_quiet(out, book, "ci-untestable-series", "series", "1",
			  "either", either ? "1" : NULL, NULL);
	if (v->failed_file) {
		strbuf_addstr(out, " (");
		text(out, v->failed_file);
		if (v->failed_hunk > 0)
			strbuf_addf(out, ", hunk %d", v->failed_hunk);
		strbuf_addch(out, ')');
	}
}

void ci_words_untestable(struct strbuf *out, const struct ci_verdict *v,
			 const struct say_book *book)
{
	struct strbuf tree = STRBUF_INIT, why = STRBUF_INIT;
	size_t start = out->len;

	/* A verdict without the facts (older ci.json, no base at all): its reason. */
	if (v->kind != CI_UNTESTABLE || (!v->tried.nr && !v->missing.nr &&
					 !v->failed_patch && !v->failed_file)) {
		say_quiet(out, book, v->reason ? "ci-untestable-reason" : "ci-untestable-no-tree",
			  "reason", v->reason, "none", "1", NULL);
		strbuf_rtrim(out);
		while (out->len > start && out->buf[out->len - 1] == '.')
			strbuf_setlen(out, out->len - 1);
		return;
	}
	untestable_order(out, v, book);
	for (size_t i = 0; i < v->tried.nr; i++) {
		strbuf_reset(&tree);
		strbuf_reset(&why);
		text(&tree, v->tried.v[i]);
		text(&why, i < v->tried_why.nr ? v->tried_why.v[i] : "");
		if (i)
			strbuf_addstr(out, ", ");
		say_quiet(out, book, "ci-untestable-on", "tree", tree.buf, "why", why.buf, NULL);
	}
	strbuf_addstr(out, v->tried.nr ? ", and " : "");
	strbuf_reset(&tree);
	text(&tree, v->base ? v->base : "?");
	say_quiet(out, book, "ci-untestable-last", "tree", tree.buf, NULL);
	if (v->missing.nr) {
		struct strbuf missing = STRBUF_INIT;

		for (size_t i = 0; i < v->missing.nr; i++) {
			strbuf_addstr(&missing, i ? (i + 1 == v->missing.nr ? " and " : ", ") : "");
			text(&missing, v->missing.v[i]);
		}
		say_quiet(out, book, "ci-untestable-lacks", "tree", tree.buf,
			  "missing", missing.buf, NULL);
		strbuf_release(&missing);
	} else {
		apply_failure(out, v, v->tried.nr > 0, book);
		say_quiet(out, book, "ci-untestable-written", "older", "1", NULL);
	}
	strbuf_release(&tree);
	strbuf_release(&why);
}

void ci_words_base_hint(struct strbuf *out, const struct ci_verdict *v,
			const struct say_book *book)
{
	if (v->kind != CI_UNTESTABLE || v->base_commit)
		return;
	say_quiet(out, book, "ci-base-hint", "no_base", "1", NULL);
}
