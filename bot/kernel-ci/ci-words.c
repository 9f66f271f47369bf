/*
 * The kernel-ci verdict in words, in one place (see ci-words.h): the
 * text `warnwatch ci` prints (ci_verdict_text) and what a review reply's
 * kernel-ci paragraph says (ci_words_of), which share their phrases for
 * tests and for what ran.  The reply's words, and the shared phrases,
 * are sentences of the book (say.h, templates/sentences.json): this
 * file escapes the names and binds the facts.
 */
#include "ci-priv.h"
#include "ci-words.h"
#include "quote.h"
#include "say.h"

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

static void text_panicked(struct strbuf *out, const struct ci_verdict *v,
			  const struct say_book *book)
{
	const struct ci_fired *f = first_fired(v);
	size_t others = 0;

	const char *during = v->panic_suite ? v->panic_suite : f ? f->suite : NULL;

	strbuf_addstr(out, "With panic_on_warn=1 the patched kernel panicked");
	if (during) {
		strbuf_addstr(out, " while running ");
		ci_words_test(out, during, book);
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
static void text_fired(struct strbuf *out, const struct ci_verdict *v,
		       const struct say_book *book)
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
			ci_words_test(out, f->suite, book);
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
	for (size_t i = 0; i < ci_verdict_findings(v)->nr; i++) {
		const struct finding *f = &ci_verdict_findings(v)->v[i];
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

/* Per added call, in words: did it run, how often, did it fire. */
static void text_calls(struct strbuf *out, const struct ci_verdict *v,
		       const struct say_book *book)
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
				ci_words_test(out, suite, book);
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
			ran_phrase(out, v, book);
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
			ran_phrase(out, v, book);
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
		     const struct series *s, const struct say_book *book)
{
	const char *base = v->base ? v->base : "?";

	switch (v->kind) {
	case CI_PANICKED:
		text_panicked(out, v, book);
		break;
	case CI_FIRED:
		text_fired(out, v, book);
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
		text_calls(out, v, book);
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
