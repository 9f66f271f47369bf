/*
 * The kernel-ci verdict (see ci.h): deciding it from the decisive boot
 * (ci_decide), comparing with the base and a second boot
 * (ci_compare_base, ci_compare_rerun, ci_needs_*), known reports
 * (ci_mark_known) and releasing it.  Its words are ci-words.c's, its
 * JSON ci-json.c's.
 */
#include "ci-priv.h"
#include "safefs.h"

#include <jansson.h>
#include <unistd.h>

/* ---- the verdict ---- */

void ci_set_reason(struct ci_verdict *v, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(v->reason);
	v->reason = strbuf_detach(&sb, NULL);
}

static void copy_suites(struct ci_verdict *v, const struct console_result *boot)
{
	for (size_t i = 0; i < v->nr_suites; i++)
		free(v->suites[i].name);
	v->nr_suites = 0;
	for (size_t i = 0; i < boot->nr_suites; i++) {
		const struct ktap_suite *su = &boot->suites[i];
		struct ci_suite *c;

		ALLOC_GROW(v->suites, v->nr_suites + 1, v->alloc_suites);
		c = &v->suites[v->nr_suites++];
		c->name = xstrdup(su->name);
		c->result = su->result;
		c->pass = su->pass;
		c->fail = su->fail;
		c->skip = su->skip;
	}
}

/*
 * The reason of a boot on whose console `boot->fired[0]` was reported
 * and no panic followed: what fired, where, and how the boot ended.
 */
static void fired_reason(struct ci_verdict *out, const struct console_result *boot)
{
	const struct fired *f = &boot->fired[0];
	const char *what = f->kind == FIRED_WARN ? "a WARNING" :
			   f->kind == FIRED_BUG ? "a BUG" : "a crash report";
	struct strbuf sb = STRBUF_INIT;

	/* The function, not the console's file name: that is the guest's
	 * path (fired[] gets the tree's name from ci_attribute()). */
	strbuf_addstr(&sb, what);
	if (f->function)
		strbuf_addf(&sb, " in %s()", f->function);
	else if (f->message)
		strbuf_addf(&sb, " (%s)", f->message);
	if (boot->nr_fired > 1)
		strbuf_addf(&sb, " and %zu more report%s", boot->nr_fired - 1,
			    boot->nr_fired == 2 ? "" : "s");
	ci_set_reason(out, "%s fired and the kernel did not panic (panic_on_warn=1 "
		      "should have stopped it there: the console may be cut short); %s",
		      sb.buf, boot->rebooted || boot->tests_finished ?
		      "the boot went on to its end" : "the boot stopped without a "
		      "panic message");
	strbuf_release(&sb);
}

void ci_decide(struct ci_verdict *out, const struct console_result *boot,
	       bool timed_out)
{
	bool reports = false;

	for (size_t i = 0; i < boot->nr_fired; i++)
		if (boot->fired[i].kind != FIRED_OOPS || boot->panicked)
			reports = true;
	copy_suites(out, boot);
	out->planned_suites = boot->planned_suites;
	free(out->panic_message);
	free(out->panic_suite);
	out->panic_message = ci_xstrdup_or_null(boot->panic_message);
	out->panic_suite = ci_xstrdup_or_null(boot->panic_suite);
	if (boot->panicked && !reports &&
	    starts_with(boot->panic_message, "VFS: Unable to mount root fs")) {
		/* The tests ended but the kernel did not reboot: our setup. */
		out->kind = CI_ERROR;
		ci_set_reason(out, "the kernel did not reboot after its tests "
			   "(kunit_shutdown=reboot ignored?) and panicked: %s",
			   boot->panic_message);
	} else if (boot->panicked && !reports &&
		   starts_with(boot->panic_message, "Attempted to kill init")) {
		out->kind = CI_ERROR;
		ci_set_reason(out, "the guest's /init exited instead of rebooting "
			   "(kernel-ci/init failed?); last console line: %s",
			   boot->last_line ? boot->last_line : "");
	} else if (boot->panicked) {
		out->kind = CI_PANICKED;
		ci_set_reason(out, "Kernel panic - not syncing: %s", boot->panic_message);
	} else if (timed_out) {
		out->kind = CI_HUNG;
		ci_set_reason(out, "the boot did not finish before the deadline%s%s",
			   boot->last_line ? "; last console line: " : "",
			   boot->last_line ? boot->last_line : "");
	} else if (!boot->booted) {
		out->kind = CI_ERROR;
		ci_set_reason(out, "the kernel printed nothing on the console");
	} else if (boot->nr_fired) {
		/* What fired decides as much as how the boot ended: a report
		 * without its panic is proof that it fired, never clean. */
		out->kind = CI_FIRED;
		fired_reason(out, boot);
	} else if (!boot->tests_finished && !boot->rebooted) {
		out->kind = CI_ERROR;
		ci_set_reason(out, "QEMU stopped before the KUnit suites finished, "
			   "without a panic message; last console line: %s",
			   boot->last_line ? boot->last_line : "");
	} else if (out->user_space && !boot->init_done) {
		out->kind = CI_ERROR;
		ci_set_reason(out, "the guest stopped before kernel-ci/init finished "
			   "its tests, without a panic message; last console "
			   "line: %s", boot->last_line ? boot->last_line : "");
	} else if (out->user_space) {
		out->kind = CI_CLEAN;
		ci_set_reason(out, "%zu KUnit suites and %zu user-space tests ran, no "
			   "WARNING or BUG fired", boot->nr_suites, boot->nr_utests);
	} else {
		out->kind = CI_CLEAN;
		ci_set_reason(out, "%zu KUnit suites ran, no WARNING or BUG fired",
			   boot->nr_suites);
	}
}

void ci_verdict_release(struct ci_verdict *v)
{
	struct ci_verdict blank = CI_VERDICT_INIT;

	free(v->base);
	free(v->reason);
	free(v->accel);
	free(v->console);
	free(v->console2);
	free(v->panic_message);
	free(v->panic_suite);
	for (size_t i = 0; i < v->nr_suites; i++)
		free(v->suites[i].name);
	free(v->suites);
	strvec_clear(&v->enabled);
	strvec_clear(&v->config_added);
	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];

		free(f->file);
		free(f->function);
		free(f->suite);
		free(f->test);
		free(f->trace);
		free(f->message);
		free(f->source);
		free(f->fingerprint);
		free(f->known);
	}
	free(v->fired);
	free(v->build_error);
	free(v->apply_note);
	free(v->applied);
	free(v->git_why);
	free(v->base_log);
	free(v->base_error);
	free(v->failed_file);
	free(v->base_why);
	for (size_t i = 0; i < v->nr_tests; i++) {
		free(v->tests[i].name);
		free(v->tests[i].image);
		free(v->tests[i].detail);
	}
	free(v->tests);
	for (size_t i = 0; i < v->nr_calls; i++) {
		free(v->calls[i].file);
		free(v->calls[i].macro);
		free(v->calls[i].reached_why);
		free(v->calls[i].suite);
	}
	free(v->calls);
	for (size_t i = 0; i < v->nr_images; i++) {
		free(v->images[i].name);
		free(v->images[i].features);
		free(v->images[i].fsck_output);
	}
	free(v->images);
	strvec_clear(&v->not_built);
	strvec_clear(&v->tried);
	strvec_clear(&v->tried_why);
	strvec_clear(&v->missing);
	free(v->base_commit);
	free(v->guest_error);
	if (v->own_findings) {
		check_result_clear(v->own_findings);
		free(v->own_findings);
	}
	ci_landed_free(v->landed);
	if (v->own_rules) {
		ruleset_release(v->own_rules);
		free(v->own_rules);
	}
	json_decref(v->findings_doc);
	*v = blank;
}

/* fired[i] as a console report, to compare with another boot's. */
static void probe_of(struct fired *probe, const struct ci_fired *f)
{
	memset(probe, 0, sizeof(*probe));
	probe->kind = f->kind;
	probe->file = f->file;
	probe->line = f->tree_line;
	probe->function = f->function;
	probe->message = f->message;
}

static bool test_failed(const struct ci_test *t)
{
	return !strcmp(t->result, "fail");
}

/* The test of `tests` that is `t` (name and image), or NULL. */
static const struct ci_test *same_test(const struct ci_verdict *tests,
				       const struct ci_test *t)
{
	for (size_t i = 0; i < tests->nr_tests; i++) {
		const struct ci_test *o = &tests->tests[i];

		if (!strcmp(o->name, t->name) &&
		    !strcmp(o->image ? o->image : "", t->image ? t->image : ""))
			return o;
	}
	return NULL;
}

void ci_compare_base(struct ci_verdict *v, const struct console_result *base)
{
	struct ci_verdict bt = CI_VERDICT_INIT;

	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];
		struct fired probe;

		if (f->added_by_series) {
			f->base_count = 0;
			continue;
		}
		probe_of(&probe, f);
		f->base_count = ci_count_reports(base, &probe);
		f->preexisting = f->base_count > 0;
	}
	ci_tests_from_console(&bt, base);
	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *o = same_test(&bt, &v->tests[i]);

		v->tests[i].base_result = o ? o->result : NULL;
	}
	v->base_compared = true;
	ci_verdict_release(&bt);
}

void ci_compare_rerun(struct ci_verdict *v, const struct console_result *rerun)
{
	struct ci_verdict rt = CI_VERDICT_INIT;

	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];
		struct fired probe;

		if (f->added_by_series)
			continue;	/* proof already: never rerun to doubt it */
		probe_of(&probe, f);
		f->reproduced = ci_count_reports(rerun, &probe) > 0;
	}
	ci_tests_from_console(&rt, rerun);
	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *o;

		if (!test_failed(&v->tests[i]))
			continue;
		o = same_test(&rt, &v->tests[i]);
		v->tests[i].rerun_result = o ? o->result : "missing";
	}
	v->rerun = true;
	ci_verdict_release(&rt);
}

bool ci_needs_rerun(const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_fired; i++)
		if (!v->fired[i].added_by_series && v->fired[i].reproduced < 0)
			return true;
	for (size_t i = 0; i < v->nr_tests; i++)
		if (test_failed(&v->tests[i]))
			return true;
	return false;
}

bool ci_needs_base(const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_fired; i++)
		if (!v->fired[i].added_by_series)
			return true;
	for (size_t i = 0; i < v->nr_tests; i++)
		if (test_failed(&v->tests[i]))
			return true;
	return false;
}

/* Does known.json's key `key` name base `base` ("6.12" names 6.12.118)? */
static bool known_base(const char *key, const char *base)
{
	const char *rest;

	return base && skip_prefix(base, key, &rest) && (!*rest || *rest == '.');
}

int ci_mark_known(struct ci_verdict *v, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;
	json_t *root = NULL, *list;
	const char *key;
	int ret = 0;

	if (access(path, F_OK))
		return 0;
	if (strbuf_read_file(&text, path, 1u << 20) < 0) {
		ret = error_code(WW_EINPUT, "%s", error_last());
		goto out;
	}
	root = json_loadb(text.buf, text.len, 0, &jerr);
	if (!root || !json_is_object(root)) {
		ret = error_code(WW_EINPUT, "'%s' line %d: %s", path, jerr.line,
				 root ? "not an object" : jerr.text);
		goto out;
	}
	json_object_foreach(root, key, list) {
		size_t k;
		json_t *e;

		if (!strcmp(key, "comment") || !known_base(key, v->base))
			continue;
		if (!json_is_array(list)) {
			ret = error_code(WW_EINPUT, "'%s': \"%s\" is not an array", path, key);
			goto out;
		}
		json_array_foreach(list, k, e) {
			const char *fp = json_string_value(json_object_get(e, "fingerprint"));
			const char *note = json_string_value(json_object_get(e, "note"));

			if (!fp) {
				ret = error_code(WW_EINPUT, "'%s': \"%s\"[%zu] has no "
						 "\"fingerprint\" string", path, key, k);
				goto out;
			}
			for (size_t i = 0; i < v->nr_fired; i++) {
				struct ci_fired *f = &v->fired[i];

				if (f->known || !f->fingerprint || strcmp(f->fingerprint, fp))
					continue;
				f->known = xstrdup(note ? note : "known");
			}
		}
	}
out:
	json_decref(root);
	strbuf_release(&text);
	return ret;
}
