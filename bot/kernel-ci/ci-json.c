/*
 * The kernel-ci verdict as JSON, both ways: see ci-json.h.  The keys are
 * documented in docs/ci.md; a key added here is added to the reader
 * below and to the round-trip test (tests/unit/t-ci-json.c).
 */
#include "ci-json.h"
#include "quote.h"
#include "jsonval.h"
#include "report.h"

/* ---- the verdict to JSON ---- */

void ci_where(struct strbuf *out, const struct ci_verdict *v,
	      const char *file, int line, int tree_line)
{
	quote_c_style(out, file);	/* the patch named it */
	strbuf_addf(out, ":%d", line);
	if (tree_line > 0 && tree_line != line)
		strbuf_addf(out, " (line %d in linux %s)", tree_line,
			    v->base ? v->base : "?");
}

bool ci_call_fired(const struct ci_verdict *v, const struct ci_call *c,
		   const char **suite)
{
	if (suite)
		*suite = c->fired ? c->suite : NULL;
	if (c->fired)
		return true;
	for (size_t i = 0; i < v->nr_fired; i++) {
		const struct ci_fired *f = &v->fired[i];

		if (!f->added_by_series || f->patch != c->patch || !f->file ||
		    strcmp(f->file, c->file) || f->line < c->line ||
		    f->line > c->line + CI_CALL_LINES)
			continue;
		if (suite)
			*suite = f->suite;
		return true;
	}
	return false;
}

const char *ci_verdict_name(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_CLEAN: return "clean";
	case CI_PANICKED: return "panicked";
	case CI_BUILD_FAILED: return "build-failed";
	case CI_APPLY_FAILED: return "apply-failed";
	case CI_HUNG: return "hung";
	case CI_ERROR: return "error";
	case CI_FS_CORRUPTED: return "fs-corrupted";
	case CI_UNTESTABLE: return "untestable";
	case CI_FIRED: return "fired";
	}
	return "?";
}

/* Strings from the series or the guest: kept even when not UTF-8. */
static json_t *json_str_or_null(const char *s)
{
	return jsonval_text(s);
}

static json_t *trace_json(const char *trace)
{
	json_t *a = json_array();
	const char *p = trace;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		json_array_append_new(a, jsonval_textn(p, n));
		p += n;
		if (*p)
			p++;
	}
	return a;
}

static json_t *fired_json(const struct ci_fired *f)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", json_string(fired_kind_name(f->kind)));
	json_object_set_new(o, "file", json_str_or_null(f->file));
	json_object_set_new(o, "line", f->line > 0 ? json_integer(f->line) : json_null());
	json_object_set_new(o, "tree_line", f->tree_line > 0 ?
			    json_integer(f->tree_line) : json_null());
	json_object_set_new(o, "function", json_str_or_null(f->function));
	json_object_set_new(o, "suite", json_str_or_null(f->suite));
	json_object_set_new(o, "test", json_str_or_null(f->test));
	json_object_set_new(o, "patch", f->patch ? json_integer(f->patch) : json_null());
	json_object_set_new(o, "added_by_series", json_boolean(f->added_by_series));
	json_object_set_new(o, "preexisting", json_boolean(f->preexisting));
	json_object_set_new(o, "patched_count", json_integer(f->patched_count));
	json_object_set_new(o, "base_count", f->base_count >= 0 ?
			    json_integer(f->base_count) : json_null());
	json_object_set_new(o, "fingerprint", json_str_or_null(f->fingerprint));
	json_object_set_new(o, "known", json_str_or_null(f->known));
	json_object_set_new(o, "reproduced", f->reproduced < 0 ? json_null() :
			    json_boolean(f->reproduced));
	json_object_set_new(o, "panic_on_warn_boot", json_boolean(f->in_first_boot));
	json_object_set_new(o, "source", json_str_or_null(f->source));
	json_object_set_new(o, "message", json_str_or_null(f->message));
	json_object_set_new(o, "trace", trace_json(f->trace));
	return o;
}

static json_t *test_json(const struct ci_test *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", jsonval_text(t->name));
	json_object_set_new(o, "kind", json_string(t->kind));
	json_object_set_new(o, "result", json_string(t->result));
	if (t->image)
		json_object_set_new(o, "image", jsonval_text(t->image));
	if (t->detail)
		json_object_set_new(o, "detail", jsonval_text(t->detail));
	if (t->base_result)
		json_object_set_new(o, "base_result", json_string(t->base_result));
	if (t->rerun_result)
		json_object_set_new(o, "rerun_result", json_string(t->rerun_result));
	return o;
}

static json_t *call_json(const struct ci_call *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "file", jsonval_text(c->file));
	json_object_set_new(o, "line", json_integer(c->line));
	json_object_set_new(o, "tree_line", json_integer(c->tree_line));
	json_object_set_new(o, "macro", jsonval_text(c->macro));
	json_object_set_new(o, "patch", json_integer(c->patch));
	json_object_set_new(o, "reached", c->reached >= 0 ?
			    json_integer(c->reached) : json_null());
	if (c->reached < 0)
		json_object_set_new(o, "reached_why", json_str_or_null(c->reached_why));
	json_object_set_new(o, "fired", json_boolean(c->fired));
	if (c->fired)
		json_object_set_new(o, "suite", json_str_or_null(c->suite));
	return o;
}

/*
 * "findings" and "damaged": check's JSON of ci_run's findings, put into
 * that form here once, or a read verdict's as it read them.
 */
static void findings_json(json_t *o, const struct ci_verdict *v)
{
	const char *guidance = v->rules ? v->rules->guidance_file : NULL;
	json_t *a;

	if (v->findings_doc) {
		/* Copies: the document is the caller's to change. */
		json_object_set_new(o, "findings", json_deep_copy(
					    json_object_get(v->findings_doc, "findings")));
		json_object_set_new(o, "damaged", json_deep_copy(
					    json_object_get(v->findings_doc, "damaged")));
		return;
	}
	a = json_array();
	for (size_t i = 0; i < ci_verdict_findings(v)->nr; i++)
		json_array_append_new(a, report_finding_json(&ci_verdict_findings(v)->v[i],
							     guidance));
	json_object_set_new(o, "findings", a);
	json_object_set_new(o, "damaged", report_damaged_json(ci_verdict_findings(v)));
}

/* Issue 39: the series' base-commit:, the trees tried before `base` and
 * why each did not fit, what the base lacks. */
static void tried_to_json(json_t *o, const struct ci_verdict *v)
{
	json_t *a = json_array();

	json_object_set_new(o, "base_commit", jsonval_text(v->base_commit));
	for (size_t i = 0; i < v->tried.nr; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}",
			"base", jsonval_text(v->tried.v[i]),
			"why", jsonval_text(i < v->tried_why.nr ? v->tried_why.v[i] : NULL)));
	json_object_set_new(o, "tried", a);
	a = json_array();
	for (size_t i = 0; i < v->missing.nr; i++)
		json_array_append_new(a, jsonval_text(v->missing.v[i]));
	json_object_set_new(o, "missing", a);
}

static int tried_from_json(struct ci_verdict *out, const json_t *root, const char *what)
{
	const json_t *a = NULL, *e;
	size_t i;
	int ret = jsonval_str(&out->base_commit, root, "base_commit", what);

	if (!ret)
		ret = jsonval_strv(&out->missing, root, "missing", what);
	if (!ret)
		ret = jsonval_array(&a, root, "tried", what);
	if (ret || !a)
		return ret;
	json_array_foreach(a, i, e) {
		char *base = NULL, *why = NULL;

		if (!json_is_object(e))
			return error_code(WW_EINPUT, "%s: \"tried\" holds a non-object", what);
		ret = jsonval_str(&base, e, "base", what);
		if (!ret)
			ret = jsonval_str(&why, e, "why", what);
		if (!ret) {
			strvec_push(&out->tried, base ? base : "?");
			strvec_push(&out->tried_why, why ? why : "");
		}
		free(base);
		free(why);
		if (ret)
			return ret;
	}
	return 0;
}

static json_t *suites_json(const struct ci_verdict *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->nr_suites; i++) {
		const struct ci_suite *su = &v->suites[i];
		json_t *s = json_object();

		json_object_set_new(s, "name", jsonval_text(su->name));
		json_object_set_new(s, "result", json_string(ktap_result_name(su->result)));
		json_object_set_new(s, "pass", json_integer(su->pass));
		json_object_set_new(s, "fail", json_integer(su->fail));
		json_object_set_new(s, "skip", json_integer(su->skip));
		json_array_append_new(a, s);
	}
	return a;
}

static json_t *strvec_json(const struct strvec *sv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < sv->nr; i++)
		json_array_append_new(a, jsonval_text(sv->v[i]));
	return a;
}

static json_t *images_json(const struct ci_verdict *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->nr_images; i++) {
		const struct ci_image *im = &v->images[i];
		json_t *t = json_object();

		json_object_set_new(t, "name", jsonval_text(im->name));
		json_object_set_new(t, "features", json_str_or_null(im->features));
		json_object_set_new(t, "fsck", json_string(im->clean ? "clean" : "corrupted"));
		json_object_set_new(t, "fsck_output", json_str_or_null(im->fsck_output));
		json_array_append_new(a, t);
	}
	return a;
}

static json_t *seconds_json(const struct ci_timings *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "check", json_real(t->check));
	json_object_set_new(o, "tree", json_real(t->tree));
	json_object_set_new(o, "apply", json_real(t->apply));
	json_object_set_new(o, "build", json_real(t->build));
	json_object_set_new(o, "boot", json_real(t->boot));
	json_object_set_new(o, "boot_panic_on_warn_0", json_real(t->boot2));
	json_object_set_new(o, "base_boot", json_real(t->base_boot));
	json_object_set_new(o, "rerun", json_real(t->rerun));
	json_object_set_new(o, "kselftests", json_real(t->kselftests));
	json_object_set_new(o, "images", json_real(t->images));
	json_object_set_new(o, "initramfs", json_real(t->initramfs));
	json_object_set_new(o, "fsck", json_real(t->fsck));
	json_object_set_new(o, "total", json_real(t->total));
	return o;
}

json_t *ci_verdict_to_json(const struct ci_verdict *v)
{
	json_t *o = json_object(), *a, *t;

	json_object_set_new(o, "verdict", json_string(ci_verdict_name(v->kind)));
	json_object_set_new(o, "reason", json_str_or_null(v->reason));
	json_object_set_new(o, "base", json_str_or_null(v->base));
	json_object_set_new(o, "base_why", json_str_or_null(v->base_why));
	json_object_set_new(o, "user_space", json_boolean(v->user_space));
	json_object_set_new(o, "user_space_error", json_str_or_null(v->guest_error));
	json_object_set_new(o, "accel", json_str_or_null(v->accel));
	json_object_set_new(o, "patches", json_integer(v->nr_patches));
	json_object_set_new(o, "suites", suites_json(v));
	json_object_set_new(o, "planned_suites", v->planned_suites >= 0 ?
			    json_integer(v->planned_suites) : json_null());
	json_object_set_new(o, "enabled_suites", strvec_json(&v->enabled));
	json_object_set_new(o, "config_added", strvec_json(&v->config_added));
	a = json_array();
	for (size_t i = 0; i < v->nr_fired; i++)
		json_array_append_new(a, fired_json(&v->fired[i]));
	json_object_set_new(o, "fired", a);
	a = json_array();
	for (size_t i = 0; i < v->nr_tests; i++)
		json_array_append_new(a, test_json(&v->tests[i]));
	json_object_set_new(o, "tests", a);
	a = json_array();
	for (size_t i = 0; i < v->nr_calls; i++)
		json_array_append_new(a, call_json(&v->calls[i]));
	json_object_set_new(o, "calls", a);
	json_object_set_new(o, "images", images_json(v));
	json_object_set_new(o, "kselftests_not_built", strvec_json(&v->not_built));
	tried_to_json(o, v);
	json_object_set_new(o, "warn_count", json_integer(v->warn_count));
	json_object_set_new(o, "warn_flood", json_boolean(v->warn_flood));
	json_object_set_new(o, "panic", json_str_or_null(v->panic_message));
	json_object_set_new(o, "panic_suite", json_str_or_null(v->panic_suite));
	json_object_set_new(o, "console", json_str_or_null(v->console));
	json_object_set_new(o, "console_panic_on_warn_0", json_str_or_null(v->console2));
	json_object_set_new(o, "build_error", json_str_or_null(v->build_error));
	json_object_set_new(o, "apply_note", json_str_or_null(v->apply_note));
	json_object_set_new(o, "applied", json_str_or_null(v->applied));
	json_object_set_new(o, "own_base", json_boolean(v->own_base));
	json_object_set_new(o, "base_boot_error", json_str_or_null(v->base_error));
	json_object_set_new(o, "base_compared", json_boolean(v->base_compared));
	json_object_set_new(o, "base_boot_log", json_str_or_null(v->base_log));
	json_object_set_new(o, "base_boot_cached", json_boolean(v->base_cached));
	json_object_set_new(o, "rerun", json_boolean(v->rerun));
	if (v->kind == CI_APPLY_FAILED) {
		t = json_object();
		json_object_set_new(t, "patch", json_integer(v->failed_patch));
		json_object_set_new(t, "file", json_str_or_null(v->failed_file));
		json_object_set_new(t, "hunk", v->failed_hunk ?
				    json_integer(v->failed_hunk) : json_null());
		json_object_set_new(o, "apply_error", t);
	}
	findings_json(o, v);
	json_object_set_new(o, "seconds", seconds_json(&v->t));
	return o;
}

/* ---- and back ---- */

/* Where in the document: "kernel-ci verdict 'ci.json' fired[2]". */
struct where {
	const char *name;
	struct strbuf sb;
};

static const char *at(struct where *w, const char *key, size_t i)
{
	strbuf_reset(&w->sb);
	strbuf_addf(&w->sb, "kernel-ci verdict '%s'", w->name);
	if (key)
		strbuf_addf(&w->sb, " %s[%zu]", key, i);
	return w->sb.buf;
}

/* `name` as one of `names` (NULL-terminated): the static string. */
static int one_of(const char **out, const char *name, const char *const *names,
		  const char *key, const char *what)
{
	for (; *names; names++)
		if (name && !strcmp(name, *names)) {
			*out = *names;
			return 0;
		}
	return error_code(WW_EINPUT, "%s: unknown \"%s\" '%s'", what, key, name ? name : "");
}

static int kind_from_name(enum ci_verdict_kind *out, const char *name, const char *what)
{
	for (int k = 0; k < CI_NR_KINDS; k++)
		if (name && !strcmp(name, ci_verdict_name(k))) {
			*out = k;
			return 0;
		}
	if (!name)
		return error_code(WW_EINPUT, "%s: no \"verdict\" string", what);
	return error_code(WW_EINPUT, "%s: unknown verdict '%s'", what, name);
}

static int suite_from_json(void *vout, const json_t *j, const char *what)
{
	struct ci_suite *out = vout;
	static const char *const results[] = { "pass", "fail", "skip", "crashed", NULL };
	const char *res = NULL;
	char *s = NULL;
	int ret = jsonval_str(&out->name, j, "name", what);

	if (!ret)
		ret = jsonval_str(&s, j, "result", what);
	if (!ret)
		ret = one_of(&res, s, results, "result", what);
	free(s);
	for (int r = KTAP_PASS; !ret && r <= KTAP_CRASHED; r++)
		if (!strcmp(res, ktap_result_name(r)))
			out->result = r;
	if (!ret)
		ret = jsonval_int(&out->pass, j, "pass", 0, what);
	if (!ret)
		ret = jsonval_int(&out->fail, j, "fail", 0, what);
	if (!ret)
		ret = jsonval_int(&out->skip, j, "skip", 0, what);
	if (!ret && !out->name)
		ret = error_code(WW_EINPUT, "%s: no \"name\"", what);
	return ret;
}

/* The trace's lines, one string again. */
static int trace_from_json(char **out, const json_t *j, const char *what)
{
	struct strvec lines = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	int ret = jsonval_strv(&lines, j, "trace", what);

	for (size_t i = 0; !ret && i < lines.nr; i++) {
		if (i)
			strbuf_addch(&sb, '\n');
		strbuf_addstr(&sb, lines.v[i]);
	}
	*out = lines.nr ? strbuf_detach(&sb, NULL) : NULL;
	strbuf_release(&sb);
	strvec_clear(&lines);
	return ret;
}

static int fired_from_json(void *vout, const json_t *j, const char *what)
{
	struct ci_fired *out = vout;
	static const char *const kinds[] = { "warn", "bug", "oops", NULL };
	const char *kind = NULL;
	char *s = NULL;
	int ret = jsonval_str(&s, j, "kind", what);

	if (!ret)
		ret = one_of(&kind, s, kinds, "kind", what);
	free(s);
	for (int k = FIRED_WARN; !ret && kind && k <= FIRED_OOPS; k++)
		if (!strcmp(kind, fired_kind_name(k)))
			out->kind = k;
	if (!ret)
		ret = jsonval_str(&out->file, j, "file", what);
	if (!ret)
		ret = jsonval_int(&out->line, j, "line", 0, what);
	/* Older verdicts knew one line, the tree's. */
	if (!ret)
		ret = jsonval_int(&out->tree_line, j, "tree_line", out->line, what);
	if (!ret)
		ret = jsonval_str(&out->function, j, "function", what);
	if (!ret)
		ret = jsonval_str(&out->suite, j, "suite", what);
	if (!ret)
		ret = jsonval_str(&out->test, j, "test", what);
	if (!ret)
		ret = jsonval_int(&out->patch, j, "patch", 0, what);
	if (!ret)
		ret = jsonval_bool(&out->added_by_series, j, "added_by_series", false, what);
	if (!ret)
		ret = jsonval_bool(&out->preexisting, j, "preexisting", false, what);
	if (!ret)
		ret = jsonval_int(&out->patched_count, j, "patched_count", 0, what);
	if (!ret)
		ret = jsonval_int(&out->base_count, j, "base_count", -1, what);
	if (!ret)
		ret = jsonval_str(&out->fingerprint, j, "fingerprint", what);
	if (!ret)
		ret = jsonval_str(&out->known, j, "known", what);
	out->reproduced = -1;
	if (!ret && json_is_boolean(json_object_get(j, "reproduced")))
		out->reproduced = json_is_true(json_object_get(j, "reproduced"));
	if (!ret)
		ret = jsonval_bool(&out->in_first_boot, j, "panic_on_warn_boot", false, what);
	if (!ret)
		ret = jsonval_str(&out->source, j, "source", what);
	if (!ret)
		ret = jsonval_str(&out->message, j, "message", what);
	if (!ret)
		ret = trace_from_json(&out->trace, j, what);
	return ret;
}

static int test_from_json(void *vout, const json_t *j, const char *what)
{
	struct ci_test *out = vout;
	static const char *const kinds[] = { "kunit", "kselftest", "workload", NULL };
	static const char *const results[] = { "pass", "fail", "skip", "crashed", NULL };
	char *s = NULL;
	int ret = jsonval_str(&out->name, j, "name", what);

	if (!ret && !out->name)
		ret = error_code(WW_EINPUT, "%s: no \"name\"", what);
	if (!ret)
		ret = jsonval_str(&s, j, "kind", what);
	if (!ret)
		ret = one_of(&out->kind, s, kinds, "kind", what);
	free(s);
	s = NULL;
	if (!ret)
		ret = jsonval_str(&s, j, "result", what);
	if (!ret)
		ret = one_of(&out->result, s, results, "result", what);
	free(s);
	if (!ret)
		ret = jsonval_str(&out->image, j, "image", what);
	if (!ret)
		ret = jsonval_str(&out->detail, j, "detail", what);
	for (int k = 0; !ret && k < 2; k++) {
		static const char *const also[] = { "pass", "fail", "skip", "crashed",
						    "missing", NULL };
		const char *key = k ? "rerun_result" : "base_result";
		const char **v = k ? &out->rerun_result : &out->base_result;

		s = NULL;
		ret = jsonval_str(&s, j, key, what);
		if (!ret && s)
			ret = one_of(v, s, also, key, what);
		free(s);
	}
	return ret;
}

static int call_from_json(void *vout, const json_t *j, const char *what)
{
	struct ci_call *out = vout;
	int ret = jsonval_str(&out->file, j, "file", what);

	if (!ret)
		ret = jsonval_int(&out->line, j, "line", 0, what);
	if (!ret)
		ret = jsonval_int(&out->tree_line, j, "tree_line", out->line, what);
	if (!ret)
		ret = jsonval_str(&out->macro, j, "macro", what);
	if (!ret && (!out->file || !out->macro))
		ret = error_code(WW_EINPUT, "%s: no \"file\" or \"macro\"", what);
	if (!ret)
		ret = jsonval_int(&out->patch, j, "patch", 0, what);
	if (!ret)
		ret = jsonval_llong(&out->reached, j, "reached", -1, what);
	if (!ret)
		ret = jsonval_str(&out->reached_why, j, "reached_why", what);
	if (!ret)
		ret = jsonval_bool(&out->fired, j, "fired", false, what);
	if (!ret)
		ret = jsonval_str(&out->suite, j, "suite", what);
	return ret;
}

static int image_from_json(void *vout, const json_t *j, const char *what)
{
	struct ci_image *out = vout;
	char *fsck = NULL;
	int ret = jsonval_str(&out->name, j, "name", what);

	if (!ret && !out->name)
		ret = error_code(WW_EINPUT, "%s: no \"name\"", what);
	if (!ret)
		ret = jsonval_str(&out->features, j, "features", what);
	if (!ret)
		ret = jsonval_str(&fsck, j, "fsck", what);
	if (!ret && fsck && strcmp(fsck, "clean") && strcmp(fsck, "corrupted"))
		ret = error_code(WW_EINPUT, "%s: unknown \"fsck\" '%s'", what, fsck);
	out->clean = !ret && fsck && !strcmp(fsck, "clean");
	free(fsck);
	if (!ret)
		ret = jsonval_str(&out->fsck_output, j, "fsck_output", what);
	return ret;
}

/*
 * Each object of array `key` into a new zeroed slot of *v (`size` bytes
 * each), by `one`: the slot is counted before it is filled, so that
 * ci_verdict_release() frees a half-read one too.  *v is empty before.
 */
static int read_array(void *vp, size_t *nr, size_t *alloc, size_t size,
		      const json_t *root, const char *key,
		      int (*one)(void *out, const json_t *j, const char *what),
		      struct where *w)
{
	void **v = vp;
	const json_t *arr, *el;
	size_t i;
	int ret = jsonval_array(&arr, root, key, at(w, NULL, 0));

	if (ret < 0 || !json_array_size(arr))
		return ret;
	*v = xcalloc(json_array_size(arr), size);
	*alloc = json_array_size(arr);
	json_array_foreach(arr, i, el) {
		const char *what = at(w, key, i);

		(*nr)++;
		ret = json_is_object(el) ? one((char *)*v + i * size, el, what) :
			error_code(WW_EINPUT, "%s: not an object", what);
		if (ret < 0)
			break;
	}
	return ret;
}

/*
 * Array `key` of `root` into `doc` as it is (a reference; an empty array
 * when it is missing or null, as ci_run writes none), once it is seen to
 * hold objects only.
 */
static int keep_objects(json_t *doc, json_t *root, const char *key, struct where *w)
{
	const json_t *arr, *el;
	size_t i;
	int ret = jsonval_array(&arr, root, key, at(w, NULL, 0));

	if (ret < 0)
		return ret;
	json_array_foreach(arr, i, el)
		if (!json_is_object(el))
			return error_code(WW_EINPUT, "%s: not an object", at(w, key, i));
	json_object_set_new(doc, key, arr ? json_incref(json_object_get(root, key)) :
			    json_array());
	return 0;
}

/*
 * The findings and damaged hunks, checked for their shape only and kept
 * as JSON (ci.h, findings_doc): findings as structs would point at rules,
 * and a read verdict has none to point at.
 */
static int findings_from_json(struct ci_verdict *out, json_t *root, struct where *w)
{
	int ret;

	out->findings_doc = json_object();
	ret = keep_objects(out->findings_doc, root, "findings", w);
	if (!ret)
		ret = keep_objects(out->findings_doc, root, "damaged", w);
	return ret;
}

static int apply_error_from_json(struct ci_verdict *out, const json_t *root, const char *what)
{
	const json_t *a;
	int ret = jsonval_object(&a, root, "apply_error", what);

	if (ret < 0 || !a)
		return ret;
	ret = jsonval_int(&out->failed_patch, a, "patch", 0, what);
	if (!ret)
		ret = jsonval_str(&out->failed_file, a, "file", what);
	if (!ret)
		ret = jsonval_int(&out->failed_hunk, a, "hunk", 0, what);
	return ret;
}

static int seconds_from_json(struct ci_timings *t, const json_t *root, const char *what)
{
	const struct { const char *key; double *v; } keys[] = {
		{ "check", &t->check }, { "tree", &t->tree }, { "apply", &t->apply },
		{ "build", &t->build }, { "boot", &t->boot },
		{ "boot_panic_on_warn_0", &t->boot2 }, { "base_boot", &t->base_boot },
		{ "rerun", &t->rerun },
		{ "kselftests", &t->kselftests }, { "images", &t->images },
		{ "initramfs", &t->initramfs }, { "fsck", &t->fsck }, { "total", &t->total },
	};
	const json_t *s;
	int ret = jsonval_object(&s, root, "seconds", what);

	for (size_t i = 0; !ret && s && i < ARRAY_SIZE(keys); i++)
		ret = jsonval_real(keys[i].v, s, keys[i].key, 0, what);
	return ret;
}

/* The scalars of the top level: strings, numbers, flags. */
static int scalars_from_json(struct ci_verdict *out, const json_t *root, const char *what)
{
	const struct { const char *key; char **v; } strs[] = {
		{ "reason", &out->reason }, { "base", &out->base }, { "base_why", &out->base_why },
		{ "user_space_error", &out->guest_error }, { "accel", &out->accel },
		{ "panic", &out->panic_message }, { "panic_suite", &out->panic_suite },
		{ "console", &out->console }, { "console_panic_on_warn_0", &out->console2 },
		{ "build_error", &out->build_error }, { "apply_note", &out->apply_note },
		{ "base_boot_error", &out->base_error }, { "applied", &out->applied },
		{ "base_boot_log", &out->base_log },
	};
	char *name = NULL;
	int ret = jsonval_str(&name, root, "verdict", what);

	if (!ret)
		ret = kind_from_name(&out->kind, name, what);
	free(name);
	for (size_t i = 0; !ret && i < ARRAY_SIZE(strs); i++)
		ret = jsonval_str(strs[i].v, root, strs[i].key, what);
	if (!ret)
		ret = jsonval_bool(&out->user_space, root, "user_space", false, what);
	if (!ret)
		ret = jsonval_bool(&out->base_compared, root, "base_compared", false, what);
	if (!ret)
		ret = jsonval_bool(&out->base_cached, root, "base_boot_cached", false, what);
	if (!ret)
		ret = jsonval_bool(&out->rerun, root, "rerun", false, what);
	if (!ret)
		ret = jsonval_bool(&out->own_base, root, "own_base", false, what);
	if (!ret)
		ret = jsonval_int(&out->nr_patches, root, "patches", 0, what);
	if (!ret)
		ret = jsonval_int(&out->planned_suites, root, "planned_suites", -1, what);
	if (!ret)
		ret = jsonval_strv(&out->enabled, root, "enabled_suites", what);
	if (!ret)
		ret = jsonval_strv(&out->config_added, root, "config_added", what);
	if (!ret)
		ret = jsonval_strv(&out->not_built, root, "kselftests_not_built", what);
	if (!ret)
		ret = jsonval_int(&out->warn_count, root, "warn_count", 0, what);
	if (!ret)
		ret = jsonval_bool(&out->warn_flood, root, "warn_flood", false, what);
	if (!ret)
		ret = tried_from_json(out, root, what);
	if (!ret)
		ret = apply_error_from_json(out, root, what);
	if (!ret)
		ret = seconds_from_json(&out->t, root, what);
	return ret;
}

int ci_verdict_from_json(struct ci_verdict *out, const char *json, size_t len,
			 const char *name)
{
	struct where w = { name, STRBUF_INIT };
	json_error_t jerr;
	json_t *root = json_loadb(json, len, 0, &jerr);
	int ret;

	if (!root)
		return error_code(WW_EINPUT, "kernel-ci verdict '%s' line %d: %s",
				  name, jerr.line, jerr.text);
	if (!json_is_object(root)) {
		ret = error_code(WW_EINPUT, "kernel-ci verdict '%s': not a JSON object", name);
		goto out;
	}
	ret = scalars_from_json(out, root, at(&w, NULL, 0));
	if (!ret)
		ret = read_array(&out->suites, &out->nr_suites, &out->alloc_suites,
				 sizeof(*out->suites), root, "suites", suite_from_json, &w);
	if (!ret)
		ret = read_array(&out->fired, &out->nr_fired, &out->alloc_fired,
				 sizeof(*out->fired), root, "fired", fired_from_json, &w);
	if (!ret)
		ret = read_array(&out->tests, &out->nr_tests, &out->alloc_tests,
				 sizeof(*out->tests), root, "tests", test_from_json, &w);
	if (!ret)
		ret = read_array(&out->calls, &out->nr_calls, &out->alloc_calls,
				 sizeof(*out->calls), root, "calls", call_from_json, &w);
	if (!ret)
		ret = read_array(&out->images, &out->nr_images, &out->alloc_images,
				 sizeof(*out->images), root, "images", image_from_json, &w);
	if (!ret)
		ret = findings_from_json(out, root, &w);
out:
	strbuf_release(&w.sb);
	json_decref(root);
	return ret;
}

int ci_verdict_load(struct ci_verdict *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, CI_VERDICT_MAX_BYTES);

	if (!ret)
		ret = ci_verdict_from_json(out, sb.buf, sb.len, path);
	strbuf_release(&sb);
	return ret;
}
