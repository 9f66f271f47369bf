/*
 * The kernel-ci verdict in words, in one place (see ci-words.h): the
 * text `warnwatch ci` prints (ci_verdict_text) and what a review reply's
 * kernel-ci paragraph says (ci_words_of), which share their phrases for
 * tests and for what ran.
 */
#include "ci-priv.h"
#include "ci-words.h"
#include "quote.h"

/* ---- text ---- */

/*
 * Every string below came from the series or the guest (file, function
 * and suite names, console lines, the build log): names go through
 * quote_c_style() (quoted as git quotes a path when they need it), text
 * through text() (controls escaped, never wrapped), so that each item
 * stays on its own line (quote.h).
 */
static void text(struct strbuf *out, const char *s)
{
	if (s)
		quote_c_style_n(out, s, strlen(s), QUOTE_KEEP_TAB);
}

/* `head`, text `s`, `tail`: a line of the text verdict, when there is an `s`. */
static void line(struct strbuf *out, const char *head, const char *s, const char *tail)
{
	if (!s)
		return;
	strbuf_addstr(out, head);
	text(out, s);
	strbuf_addstr(out, tail);
}

static void test_phrase(struct strbuf *out, const char *name);

static void patch_name(struct strbuf *out, const struct ci_verdict *v, int patch)
{
	strbuf_addf(out, "patch %d/%d", patch, v->nr_patches ? v->nr_patches : patch);
}

static void fired_sentence(struct strbuf *out, const struct ci_verdict *v,
			   const struct ci_fired *f)
{
	const char *what = f->kind == FIRED_WARN ? "WARNING" :
			   f->kind == FIRED_BUG ? "BUG" : "crash report";

	if (f->added_by_series && f->source) {
		strbuf_addstr(out, "the ");
		text(out, f->source);
		strbuf_addstr(out, " that ");
		patch_name(out, v, f->patch);
		strbuf_addstr(out, " adds at ");
		ci_where(out, v, f->file, f->line, f->tree_line);
		strbuf_addstr(out, " fired");
	} else if (f->added_by_series) {
		strbuf_addf(out, "a %s fired at ", what);
		ci_where(out, v, f->file, f->line, f->tree_line);
		strbuf_addstr(out, ", a line that ");
		patch_name(out, v, f->patch);
		strbuf_addstr(out, " adds");
	} else if (f->file) {
		strbuf_addf(out, "the existing %s at ", what);
		quote_c_style(out, f->file);
		strbuf_addf(out, ":%d", f->line);
		if (f->function) {
			quote_between(out, " (", f->function, ")");
		}
		strbuf_addstr(out, " fired");
		strbuf_addstr(out, f->preexisting ?
			      " (it fires on the unpatched kernel too)" :
			      " (not on the unpatched kernel)");
	} else {
		text(out, f->message ? f->message : what);
		if (f->function) {
			strbuf_addstr(out, " in ");
			quote_c_style(out, f->function);
		}
		if (f->preexisting)
			strbuf_addstr(out, " (on the unpatched kernel too)");
	}
}

/* 0-day's parent column, whether it is known, whether it came back. */
static void fired_counts(struct strbuf *out, const struct ci_verdict *v,
			 const struct ci_fired *f)
{
	if (f->base_count >= 0)
		strbuf_addf(out, " [base: %d, patched: %d]", f->base_count,
			    f->patched_count);
	else
		strbuf_addf(out, " [base: not booted, patched: %d]", f->patched_count);
	if (f->known)
		strbuf_addf(out, " (known on %s: %s)", v->base ? v->base : "this base",
			    f->known);
	if (f->reproduced == 0)
		strbuf_addstr(out, " (did not fire again when booted once more: flaky)");
}

static void indent_trace(struct strbuf *out, const char *trace)
{
	if (trace)
		quote_lines(out, "    ", trace, strlen(trace));
}

static const struct ci_fired *first_fired(const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_fired; i++)
		if (v->fired[i].in_first_boot)
			return &v->fired[i];
	return NULL;
}

static void text_panicked(struct strbuf *out, const struct ci_verdict *v)
{
	const struct ci_fired *f = first_fired(v);
	size_t others = 0;

	const char *during = v->panic_suite ? v->panic_suite : f ? f->suite : NULL;

	strbuf_addstr(out, "With panic_on_warn=1 the patched kernel panicked");
	if (during) {
		strbuf_addstr(out, " while running ");
		test_phrase(out, during);
	} else {
		strbuf_addstr(out, " during boot, outside any test");
	}
	if (f) {
		strbuf_addstr(out, ": ");
		fired_sentence(out, v, f);
		fired_counts(out, v, f);
	} else {
		strbuf_addstr(out, ": ");
		text(out, v->panic_message);
	}
	strbuf_addstr(out, ".\n");
	if (f && f->test) {
		strbuf_addstr(out, f->suite && starts_with(f->suite, "workload:") ?
			      "The workload was running on image " : "The test case was ");
		quote_c_style(out, f->test);
		strbuf_addstr(out, ".\n");
	}
	if (f && f->trace) {
		strbuf_addstr(out, "\n");
		indent_trace(out, f->trace);
	}
	for (size_t i = 0; i < v->nr_fired; i++)
		if (!v->fired[i].in_first_boot)
			others++;
	if (v->console2 && v->warn_flood) {
		strbuf_addf(out, "\nBooted again with panic_on_warn=0: WARNINGs "
			    "kept firing in a loop (%d in the first %u MB of "
			    "console output, where the boot was stopped)%s\n",
			    v->warn_count, CI_SECOND_BOOT_MAX_CONSOLE >> 20,
			    others ? "; the others:" : ".");
	} else if (v->console2) {
		strbuf_addf(out, "\nBooted again with panic_on_warn=0: %d WARNING%s "
			    "fired (counted on the console%s)%s\n",
			    v->warn_count, v->warn_count == 1 ? "" : "s",
			    v->user_space ? "" : ": without user space the "
			    "guest's /sys/kernel/warn_count cannot be read",
			    others ? "; the others:" : ".");
	}
	if (v->console2) {
		for (size_t i = 0; i < v->nr_fired; i++) {
			const struct ci_fired *o = &v->fired[i];

			if (o->in_first_boot)
				continue;
			strbuf_addstr(out, "  - ");
			fired_sentence(out, v, o);
			fired_counts(out, v, o);
			if (o->suite) {
				strbuf_addstr(out, ", in suite ");
				quote_c_style(out, o->suite);
			}
			if (o->test) {
				quote_between(out, " (test ", o->test, ")");
			}
			strbuf_addch(out, '\n');
		}
	}
}

/*
 * A report fired and no panic followed (CI_FIRED): what fired, where and
 * during what, each other report once, and that the panic is missing.
 */
static void text_fired(struct strbuf *out, const struct ci_verdict *v)
{
	const struct ci_fired *f = first_fired(v);

	if (!f && v->nr_fired)
		f = &v->fired[0];
	strbuf_addstr(out, "With panic_on_warn=1 the patched kernel (linux ");
	text(out, v->base ? v->base : "?");
	strbuf_addstr(out, ") booted, and ");
	if (f) {
		fired_sentence(out, v, f);
		fired_counts(out, v, f);
		if (f->suite) {
			strbuf_addstr(out, " while running ");
			test_phrase(out, f->suite);
		} else {
			strbuf_addstr(out, " during boot, outside any test");
		}
	} else {
		text(out, v->reason);
	}
	strbuf_addstr(out, ", but no panic followed on the console: panic_on_warn=1 "
		      "should have stopped the kernel there, so the console may be "
		      "cut short.\n");
	if (f && f->test) {
		strbuf_addstr(out, "The test case was ");
		quote_c_style(out, f->test);
		strbuf_addstr(out, ".\n");
	}
	if (f && f->trace) {
		strbuf_addstr(out, "\n");
		indent_trace(out, f->trace);
	}
	for (size_t i = 0; i < v->nr_fired; i++) {
		const struct ci_fired *o = &v->fired[i];

		if (o == f)
			continue;
		strbuf_addstr(out, "  - also ");
		fired_sentence(out, v, o);
		fired_counts(out, v, o);
		strbuf_addch(out, '\n');
	}
}

static void text_suites(struct strbuf *out, const struct ci_verdict *v)
{
	int pass = 0, fail = 0, skip = 0;

	for (size_t i = 0; i < v->nr_suites; i++) {
		switch (v->suites[i].result) {
		case KTAP_PASS: pass++; break;
		case KTAP_FAIL: fail++; break;
		case KTAP_SKIP: skip++; break;
		case KTAP_CRASHED: break;
		}
	}
	if (!v->nr_suites)
		return;
	strbuf_addf(out, "KUnit suites: %d passed, %d failed, %d skipped",
		    pass, fail, skip);
	for (size_t i = 0; i < v->nr_suites; i++)
		if (v->suites[i].result == KTAP_CRASHED) {
			quote_between(out, ", ", v->suites[i].name, " cut short");
		}
	if (v->planned_suites > (int)v->nr_suites)
		strbuf_addf(out, ", %d of %d never ran",
			    v->planned_suites - (int)v->nr_suites, v->planned_suites);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < v->nr_suites; i++)
		if (v->suites[i].result == KTAP_FAIL) {
			quote_between(out, "  failed: ", v->suites[i].name, "\n");
		}
}

/* A clean boot says nothing about an added call but that it did not fire. */
static void text_clean_findings(struct strbuf *out, const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->findings.nr; i++) {
		const struct finding *f = &v->findings.v[i];
		const char *macro = f->rule ? f->rule->macro : "call";

		if (f->kind == FINDING_ADDED && !v->nr_calls) {
			strbuf_addf(out, "The %s() that ", macro);
			patch_name(out, v, f->patch);
			strbuf_addstr(out, " adds at ");
			quote_c_style(out, f->file);
			strbuf_addf(out, ":%d did not fire during the KUnit suites: "
				    "that finding stays static.\n", f->line);
		} else if (f->kind == FINDING_REMOVED) {
			strbuf_addf(out, "The %s() that ", macro);
			patch_name(out, v, f->patch);
			strbuf_addstr(out, " removes at ");
			quote_c_style(out, f->file);
			strbuf_addf(out, ":%d is gone%s, and the kernel still boots "
				    "clean.\n", f->line,
				    f->conversion ? " (converted to a gentler call)" : "");
		}
	}
}

static void test_phrase(struct strbuf *out, const char *name)
{
	ci_test_phrase(out, name);
}

/* What ran, for "ran N times during ...": the boot, its KUnit suites,
 * the kselftest targets and the workloads, each named once. */
static void ran_phrase(struct strbuf *out, const struct ci_verdict *v)
{
	struct strvec parts = STRVEC_INIT, seen = STRVEC_INIT;
	bool kunit = false;

	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *t = &v->tests[i];
		struct strbuf key = STRBUF_INIT;
		const char *w;
		bool dup = false;

		if (!strcmp(t->kind, "kunit")) {
			kunit = true;
			continue;
		}
		if (skip_prefix(t->name, "workload:", &w)) {
			ci_test_phrase(&key, t->name);
		} else {
			struct strbuf target = STRBUF_INIT;

			strbuf_add(&target, t->name, strcspn(t->name, ":"));
			strbuf_addstr(&key, "the ");
			quote_c_style(&key, target.buf);
			strbuf_addstr(&key, " kselftests");
			strbuf_release(&target);
		}
		for (size_t j = 0; j < seen.nr; j++)
			dup = dup || !strcmp(seen.v[j], key.buf);
		if (!dup)
			strvec_push(&seen, key.buf);
		strbuf_release(&key);
	}
	strvec_push(&parts, "the boot");
	if (kunit)
		strvec_push(&parts, "its KUnit suites");
	for (size_t i = 0; i < seen.nr; i++)
		strvec_push(&parts, seen.v[i]);
	for (size_t i = 0; i < parts.nr; i++)
		strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == parts.nr ?
			    " and " : ", ", parts.v[i]);
	strvec_clear(&parts);
	strvec_clear(&seen);
}

/* Per added call, in words: did it run, how often, did it fire. */
static void text_calls(struct strbuf *out, const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_calls; i++) {
		const struct ci_call *c = &v->calls[i];
		const char *suite;

		if (ci_call_fired(v, c, &suite)) {
			strbuf_addstr(out, "The ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addstr(out, ") fired");
			if (suite) {
				strbuf_addstr(out, " during ");
				test_phrase(out, suite);
			}
			if (c->reached > 0)
				strbuf_addf(out, "; it ran %lld time%s in the boot with "
					    "panic_on_warn=0", c->reached,
					    c->reached == 1 ? "" : "s");
			strbuf_addstr(out, ".\n");
		} else if (c->reached > 0) {
			strbuf_addstr(out, "The ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addf(out, ") ran %lld time%s during ", c->reached,
				    c->reached == 1 ? "" : "s");
			ran_phrase(out, v);
			strbuf_addstr(out, ", and never fired.\n");
		} else if (c->reached == 0) {
			strbuf_addstr(out, "No test reached the ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addstr(out, "), so this boot says nothing about it: "
				      "the line never ran during ");
			ran_phrase(out, v);
			strbuf_addstr(out, ".\n");
		} else {
			strbuf_addstr(out, "Whether the ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addstr(out, ") ran could not be measured (");
			text(out, c->reached_why ? c->reached_why : "?");
			strbuf_addstr(out, "); it did not fire.\n");
		}
	}
}

/* The user-space tests and the images, briefly. */
static void text_tests(struct strbuf *out, const struct ci_verdict *v)
{
	size_t bad = 0;

	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *t = &v->tests[i];

		if (!strcmp(t->kind, "kunit"))
			continue;
		text(out, t->kind);
		strbuf_addch(out, ' ');
		quote_c_style(out, t->name);
		if (t->image) {
			quote_between(out, " (image ", t->image, ")");
		}
		strbuf_addstr(out, ": ");
		text(out, t->result);
		if (t->detail) {
			strbuf_addstr(out, " (");
			text(out, t->detail);
			strbuf_addch(out, ')');
		}
		if (t->rerun_result && !strcmp(t->rerun_result, "pass"))
			strbuf_addstr(out, "; passed when run again (flaky)");
		else if (t->rerun_result) {
			strbuf_addstr(out, "; run again: ");
			text(out, t->rerun_result);
		}
		if (t->base_result && !strcmp(t->result, "fail"))
			strbuf_addstr(out, !strcmp(t->base_result, "fail") ?
				      "; fails on the unpatched kernel too (not the "
				      "series' fault)" : "; passes on the unpatched kernel");
		strbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < v->not_built.nr; i++) {
		quote_between(out, "kselftests not (all) built: ", v->not_built.v[i], "\n");
	}
	for (size_t i = 0; i < v->nr_images; i++)
		if (!v->images[i].clean)
			bad++;
	if (v->nr_images && !bad)
		strbuf_addf(out, "e2fsck -fn after the workload: all %zu images clean.\n",
			    v->nr_images);
	for (size_t i = 0; i < v->nr_images; i++) {
		const struct ci_image *im = &v->images[i];

		if (im->clean)
			continue;
		quote_between(out, "e2fsck -fn after the workload: image ", im->name, " (");
		text(out, im->features);
		strbuf_addstr(out, ") is corrupted:\n");
		indent_trace(out, im->fsck_output);
	}
}

void ci_verdict_text(struct strbuf *out, const struct ci_verdict *v,
		     const struct series *s)
{
	const char *base = v->base ? v->base : "?";

	switch (v->kind) {
	case CI_PANICKED:
		text_panicked(out, v);
		break;
	case CI_FIRED:
		text_fired(out, v);
		break;
	case CI_CLEAN:
		strbuf_addstr(out, "With panic_on_warn=1 the patched kernel (linux ");
		text(out, base);
		strbuf_addf(out, ") booted and ran its %s without any WARNING "
			    "or BUG firing.\n", v->user_space ? "tests" : "KUnit suites");
		text_clean_findings(out, v);
		break;
	case CI_FS_CORRUPTED:
		strbuf_addstr(out, "With panic_on_warn=1 the patched kernel (linux ");
		text(out, base);
		strbuf_addstr(out, ") ran its tests without any WARNING or BUG firing, "
			      "but afterwards e2fsck -fn finds a file system the "
			      "workload used corrupted: ");
		text(out, v->reason);
		strbuf_addch(out, '\n');
		break;
	case CI_BUILD_FAILED:
		strbuf_addstr(out, "The patched kernel (linux ");
		text(out, base);
		strbuf_addstr(out, ") does not build");
		if (v->build_error) {
			strbuf_addstr(out, ":\n    ");
			text(out, v->build_error);
			strbuf_addch(out, '\n');
		} else {
			strbuf_addstr(out, ".\n");
		}
		break;
	case CI_APPLY_FAILED:
		text(out, v->reason ? v->reason : "the series does not apply");
		strbuf_addch(out, '\n');
		if (s && v->failed_patch > 0 && (size_t)v->failed_patch <= s->nr) {
			strbuf_addf(out, "(patch %d/%zu is \"", v->failed_patch, s->nr);
			text(out, s->patches[v->failed_patch - 1].title);
			strbuf_addstr(out, "\")\n");
		}
		break;
	case CI_UNTESTABLE:
		strbuf_addstr(out, "Could not test this series: ");
		text(out, v->reason ? v->reason : "?");
		strbuf_addch(out, '\n');
		break;
	case CI_HUNG:
	case CI_ERROR:
		strbuf_addstr(out, v->kind == CI_HUNG ? "The patched kernel hung: " :
			      "No verdict: ");
		text(out, v->reason);
		strbuf_addch(out, '\n');
		break;
	}
	if (v->kind == CI_PANICKED || v->kind == CI_CLEAN ||
	    v->kind == CI_FS_CORRUPTED || v->kind == CI_FIRED) {
		text_calls(out, v);
		text_suites(out, v);
		text_tests(out, v);
	}
	if (v->base_why) {
		strbuf_addstr(out, "Base: linux ");
		text(out, base);
		strbuf_addstr(out, " (");
		text(out, v->base_why);
		strbuf_addstr(out, ").\n");
	}
	if (v->enabled.nr) {
		strbuf_addstr(out, "Suites enabled for the files the series touches:");
		for (size_t i = 0; i < v->enabled.nr; i++) {
			strbuf_addch(out, ' ');
			quote_c_style(out, v->enabled.v[i]);
		}
		strbuf_addch(out, '\n');
	}
	line(out, "The unpatched kernel could not be booted for comparison (", v->base_error,
	     "): whether a report is pre-existing is unknown.\n");
	if (v->applied && strcmp(v->applied, "applied"))
		line(out, "The series ", v->applied, ".\n");
	line(out, "Note: ", v->apply_note, "\n");
	line(out, "Console log: ", v->console, "\n");
	line(out, "Console log (panic_on_warn=0): ", v->console2, "\n");
}

/* ---- a review reply's kernel-ci paragraph ---- */

/*
 * A test by its kind, as the ci text names it ("KUnit suite
 * time_test_cases", "kselftest cgroup:test_core", "the ext4 workload"):
 * a bare "cgroup:test_core" in a reply read as a KUnit suite (issue 26).
 */
static void test_name(struct strbuf *out, const char *name)
{
	ci_test_phrase(out, name);
}

/* The first WARN/BUG, in words, and its trace (when no log yet). */
static void words_fired(struct ci_words *w, const struct ci_verdict *v)
{
	const struct ci_fired *f = v->nr_fired ? &v->fired[0] : NULL;
	size_t n = 0;

	if (!f)
		return;
	if (f->file) {
		/* In backquotes: the filler never breaks code apart.  Without
		 * the source line, the kind in words, not a JSON value. */
		if (f->source) {
			strbuf_addch(&w->first, '`');
			quote_c_style_n(&w->first, f->source, strlen(f->source), 0);
			strbuf_addstr(&w->first, "` at ");
		} else {
			strbuf_addstr(&w->first, f->kind == FIRED_WARN ? "a WARNING at " :
				      f->kind == FIRED_BUG ? "a BUG at " : "an oops at ");
		}
		if (f->line > 0)
			ci_where(&w->first, v, f->file, f->line, f->tree_line);
		else
			quote_c_style(&w->first, f->file);
		strbuf_addstr(&w->first, " fired");
		if (f->suite) {
			strbuf_addstr(&w->first, " in ");
			ci_test_phrase(&w->first, f->suite);
		}
		/* 0-day's parent column. */
		if (f->base_count >= 0)
			strbuf_addf(&w->first, " (base: %d, patched: %d)", f->base_count,
				    f->patched_count);
		if (f->known)
			strbuf_addstr(&w->first, ", a known report on this base");
		if (!f->added_by_series && f->preexisting)
			strbuf_addstr(&w->first, ", and it fires on the unpatched kernel too");
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
/* "a", "a and b", "a, b and c": the names a list of tests is said with. */
static void join_names(struct strbuf *out, const struct strvec *names)
{
	for (size_t i = 0; i < names->nr; i++) {
		if (i)
			strbuf_addstr(out, i + 1 == names->nr ? " and " : ", ");
		strbuf_addstr(out, names->v[i]);
	}
}

static void push_name(struct strvec *v, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	test_name(&sb, name);
	strvec_push(v, sb.buf);
	strbuf_release(&sb);
}

static void words_tests(struct ci_words *w, const struct ci_verdict *v)
{
	struct strvec ran = STRVEC_INIT, failed = STRVEC_INIT, on_base = STRVEC_INIT,
		      flaky = STRVEC_INIT;
	size_t n = v->nr_tests;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct ci_test *t = &v->tests[i];
		bool fail = !strcmp(t->result, "fail");

		push_name(&ran, t->name);
		/* A test that fails on the base, or passed when run again, is
		 * marked with the reason, not blamed. */
		if (fail && t->base_result && !strcmp(t->base_result, "fail"))
			push_name(&on_base, t->name);
		else if (fail && t->rerun_result && !strcmp(t->rerun_result, "pass"))
			push_name(&flaky, t->name);
		else if (fail || !strcmp(t->result, "crashed"))
			push_name(&failed, t->name);
	}
	if (n > 4)
		strbuf_addf(&w->tests, "%zu tests", n);
	else
		join_names(&w->tests, &ran);
	strbuf_addstr(&w->tests, " ran");
	/* Named once when every test named failed: not "X ran, and X failed". */
	if (failed.nr && failed.nr == n && n <= 4) {
		strbuf_addstr(&w->tests, n == 1 ? " and failed" : " and all failed");
	} else if (failed.nr) {
		strbuf_addstr(&w->tests, ", and ");
		join_names(&w->tests, &failed);
		strbuf_addstr(&w->tests, " failed");
	}
	if (on_base.nr || flaky.nr) {
		strbuf_addstr(&w->tests, " (");
		join_names(&w->tests, &on_base);
		if (on_base.nr)
			strbuf_addstr(&w->tests, on_base.nr == 1 ?
				      " fails on the unpatched kernel too" :
				      " fail on the unpatched kernel too");
		if (on_base.nr && flaky.nr)
			strbuf_addstr(&w->tests, "; ");
		join_names(&w->tests, &flaky);
		if (flaky.nr)
			strbuf_addstr(&w->tests, " failed once and passed when run again");
		strbuf_addch(&w->tests, ')');
	}
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
static void words_calls(struct ci_words *w, const struct ci_verdict *v)
{
	const char *only = v->nr_tests == 1 ? v->tests[0].name : NULL;
	struct strbuf at = STRBUF_INIT, sb = STRBUF_INIT;

	for (size_t i = 0; i < v->nr_calls; i++) {
		const struct ci_call *c = &v->calls[i];
		const char *suite;

		strbuf_reset(&at);
		strbuf_reset(&sb);
		strbuf_addstr(&at, "the ");
		quote_c_style(&at, c->macro);
		strbuf_addstr(&at, "() at ");
		ci_where(&at, v, c->file, c->line, c->tree_line);
		/* Fired beats any count: never "not reached" for a call that fired. */
		if (named_first(v, c))
			continue;
		if (ci_call_fired(v, c, &suite)) {
			strbuf_addf(&sb, "%s fired", at.buf);
			if (suite) {
				strbuf_addstr(&sb, " during ");
				test_name(&sb, suite);
			}
		} else if (c->reached > 0) {
			strbuf_addf(&sb, "%s ran %lld time%s", at.buf, c->reached,
				    c->reached == 1 ? "" : "s");
			if (only) {
				strbuf_addstr(&sb, " during ");
				ran_phrase(&sb, v);
			}
			strbuf_addstr(&sb, " and never fired");
		} else if (c->reached == 0) {
			strbuf_addf(&sb, "no test reached %s, so this boot says nothing about it",
				    at.buf);
		} else {
			strbuf_addf(&sb, "whether %s ran could not be measured", at.buf);
			if (c->reached_why) {
				strbuf_addstr(&sb, " (");
				quote_c_style(&sb, c->reached_why);
				strbuf_addch(&sb, ')');
			}
		}
		strvec_push(&w->calls, sb.buf);
	}
	strbuf_release(&at);
	strbuf_release(&sb);
}

/*
 * The console lines to quote: the compiler's error, else the first
 * WARN/BUG's trace, headed by the reason (a console line such as
 * "Kernel panic - not syncing: ...").
 */
void ci_words_of(struct ci_words *w, const struct ci_verdict *v)
{
	if (v->build_error) {
		strbuf_addstr(&w->log, v->build_error);
		w->has_log = true;
	}
	words_fired(w, v);
	words_tests(w, v);
	words_calls(w, v);
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
const char *ci_words_outcome(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_PANICKED: return "the kernel panicked";
	case CI_FIRED:
		return "a WARN or BUG fired (and the console shows no panic after it)";
	case CI_BUILD_FAILED: return "the kernel did not build";
	case CI_APPLY_FAILED: return "the series did not apply";
	case CI_HUNG: return "the boot did not finish in time";
	case CI_FS_CORRUPTED:
		return "the file system was corrupted (e2fsck -fn on the images after the boot)";
	default: return NULL;
	}
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
static void untestable_order(struct strbuf *out, const struct ci_verdict *v)
{
	const char *bc = v->base_commit;

	if (!bc)
		strbuf_addstr(out, "it has no base-commit: line, so ");
	else if (!plain_ref(bc))
		strbuf_addstr(out, "its base-commit: line names no tree kernel-ci has, so ");
	else if (is_hash(bc))
		strbuf_addf(out, "its base-commit: %.12s is not a commit kernel-ci has, so ", bc);
	else
		strbuf_addf(out, "its base-commit: names %s, a tree kernel-ci does not have, so ",
			    bc);
	if (v->base_why && strstr(v->base_why, "newest first"))
		strbuf_addstr(out, "kernel-ci tried the kernel trees it has, newest first: ");
	else
		strbuf_addstr(out, "kernel-ci tried another tree: ");
}

/* "patch 1/2 does not apply (fs/x.c, hunk 3)" of the last tree. */
static void apply_failure(struct strbuf *out, const struct ci_verdict *v, bool either)
{
	if (v->failed_patch > 0)
		strbuf_addf(out, "patch %d/%d does not apply", v->failed_patch,
			    v->nr_patches);
	else
		strbuf_addstr(out, "the series does not apply");
	if (either)
		strbuf_addstr(out, " either");
	if (v->failed_file) {
		strbuf_addstr(out, " (");
		text(out, v->failed_file);
		if (v->failed_hunk > 0)
			strbuf_addf(out, ", hunk %d", v->failed_hunk);
		strbuf_addch(out, ')');
	}
}

void ci_words_untestable(struct strbuf *out, const struct ci_verdict *v)
{
	const char *base = v->base ? v->base : "?";
	size_t start = out->len;

	/* A verdict without the facts (older ci.json, no base at all): its reason. */
	if (v->kind != CI_UNTESTABLE || (!v->tried.nr && !v->missing.nr &&
					 !v->failed_patch && !v->failed_file)) {
		strbuf_addstr(out, v->reason ? v->reason : "no base tree to test it on");
		strbuf_rtrim(out);
		while (out->len > start && out->buf[out->len - 1] == '.')
			strbuf_setlen(out, out->len - 1);
		return;
	}
	untestable_order(out, v);
	for (size_t i = 0; i < v->tried.nr; i++) {
		strbuf_addf(out, "%son linux ", i ? ", " : "");
		text(out, v->tried.v[i]);
		strbuf_addch(out, ' ');
		text(out, i < v->tried_why.nr ? v->tried_why.v[i] : "");
	}
	strbuf_addstr(out, v->tried.nr ? ", and on linux " : "on linux ");
	text(out, base);
	strbuf_addch(out, ' ');
	if (v->missing.nr) {
		strbuf_addf(out, "it applies, but linux ");
		text(out, base);
		strbuf_addstr(out, " lacks ");
		for (size_t i = 0; i < v->missing.nr; i++) {
			strbuf_addstr(out, i ? (i + 1 == v->missing.nr ? " and " : ", ") : "");
			text(out, v->missing.v[i]);
		}
		strbuf_addstr(out, ", which the series uses and does not add: it was "
			      "written for a newer tree");
	} else {
		apply_failure(out, v, v->tried.nr > 0);
		strbuf_addstr(out, ": it was written for a tree kernel-ci does not have");
	}
}

void ci_words_base_hint(struct strbuf *out, const struct ci_verdict *v)
{
	if (v->kind != CI_UNTESTABLE || v->base_commit)
		return;
	strbuf_addstr(out, "kernel-ci tests a series on the tree its base-commit: "
		      "line names when it has that tree; `git format-patch "
		      "--base=auto` writes the line, and b4 adds it when it sends "
		      "a series.");
}
