/*
 * Tests for kcover.c: evidence coverage summed from verdict files.  The
 * fixtures in tests/unit/data/kcover are hand-written verdicts (a clean
 * boot, a panic whose call fired by the report only, untestable series
 * with two reasons, a build failure without calls); nothing boots.
 */
#include "kcover.h"
#include "gitlib.h"
#include "tap.h"

#include <errno.h>
#include <string.h>
#include "tmpdir.h"

#include <git2.h>

#include <sys/stat.h>

static const char *top(void)
{
	const char *t = getenv("WW_TOP");

	return t ? t : ".";
}

static void fixtures(void)
{
	struct kcover cov = KCOVER_INIT;
	struct strbuf dir = STRBUF_INIT, text = STRBUF_INIT;
	json_t *o;
	char *dump;

	strbuf_addf(&dir, "%s/tests/unit/data/kcover", top());
	is(kcover_load(&cov, dir.buf), 0, "the fixture directory reads: %s",
	   error_last());
	kcover_sort(&cov);
	is(cov.series, 6, "six verdicts (the README is not one)");
	is(cov.booted, 2, "two booted: clean and panicked");
	is(cov.kinds[CI_CLEAN], 1, "one clean");
	is(cov.kinds[CI_PANICKED], 1, "one panicked");
	is(cov.kinds[CI_UNTESTABLE], 3, "three untestable");
	is(cov.kinds[CI_BUILD_FAILED], 1, "one build-failed");
	is(cov.nr_untestable, 2, "two untestable reasons");
	if (cov.nr_untestable == 2) {
		is(cov.untestable[0].count, 2, "the reason of two series first");
		ok(strstr(cov.untestable[0].reason, "does not apply"), "it is the apply one");
		is(cov.untestable[1].count, 1, "then the other");
	}
	is(cov.calls, 8, "eight added calls");
	is(cov.evidence, 3, "evidence: reached 41, reached 2, fired by the report");
	is(cov.not_reached, 1, "one measured at zero");
	is(cov.unmeasured, 4, "four with no count: a header, untestable series");

	kcover_text(&text, &cov);
	ok(strstr(text.buf, "with a boot verdict:  2 (33%)"), "text: share booted");
	ok(strstr(text.buf, "runtime evidence:     3 (38%)"), "text: share with evidence");
	ok(strstr(text.buf, "untestable 2: it does not apply"), "text: reasons grouped");

	o = kcover_to_json(&cov);
	dump = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	ok(dump && strstr(dump, "\"evidence_coverage\":0.375"), "json: the share: %s", dump ? dump : "(none)");
	ok(dump && strstr(dump, "\"untestable\":3"), "json: per verdict");
	ok(dump && strstr(dump, "\"reason\":\"linux 6.12.9 lacks"),
	   "json: the reasons");
	free(dump);
	json_decref(o);
	kcover_release(&cov);

	/* A file counts alone; a second path adds to the sums. */
	strbuf_addstr(&dir, "/01-clean.json");
	is(kcover_load(&cov, dir.buf), 0, "a file reads");
	is(kcover_load(&cov, dir.buf), 0, "and again");
	is(cov.series, 2, "two series");
	is(cov.calls, 6, "their calls summed");
	kcover_release(&cov);
	strbuf_release(&dir);
	strbuf_release(&text);
}

/* A call that fired counts as evidence even when its counter said 0. */
static void fired_beats_count(void)
{
	struct kcover cov = KCOVER_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct ci_call c[2] = {
		{ (char *)"a.c", 3, 3, (char *)"WARN_ON", 1, 0, NULL, true, NULL },
		{ (char *)"a.c", 9, 9, (char *)"WARN_ON", 1, -1, NULL, false, NULL },
	};
	json_t *o;

	v.kind = CI_HUNG;
	v.calls = c;
	v.nr_calls = 2;
	kcover_add(&cov, &v);
	is(cov.booted, 1, "hung is a boot verdict");
	is(cov.evidence, 1, "fired with a count of 0: evidence");
	is(cov.not_reached, 0, "and not 'never reached'");
	is(cov.unmeasured, 1, "no count, no report: unmeasured");
	kcover_release(&cov);

	o = kcover_to_json(&cov);
	ok(json_is_null(json_object_get(o, "evidence_coverage")),
	   "no calls: no share of nothing");
	json_decref(o);
}

static void errors(void)
{
	struct kcover cov = KCOVER_INIT;
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char dir[] = "/tmp/t-kcover.XXXXXX";

	is(kcover_load(&cov, "/nonexistent/kcover"), WW_ENOTFOUND, "a missing path");
	ok(strstr(error_last(), "'/nonexistent/kcover'"), "names it: %s", error_last());
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		goto out;
	}
	is(kcover_load(&cov, dir), WW_ENOTFOUND, "a directory without *.json");
	ok(strstr(error_last(), "no verdict files"), "says so: %s", error_last());
	strbuf_addf(&path, "%s/x.json", dir);
	strbuf_addstr(&sb, "{\"status\": \"clean\"}");
	strbuf_write_file(&sb, path.buf);
	is(kcover_load(&cov, dir), WW_EINPUT, "a file that is not a verdict");
	ok(strstr(error_last(), "x.json"), "names it: %s", error_last());
	is(cov.series, 0, "nothing counted");
	tmp_remove(dir);
out:
	kcover_release(&cov);
	strbuf_release(&path);
	strbuf_release(&sb);
}

/*
 * Issue 39: per untestable reason, how many series the operator's clone
 * has the base-commit of (testable on their own tree), and what the rest
 * lack.  Nothing is built: a look-up in the clone.
 */
static void with_repo(void)
{
	char dir[] = "/tmp/ww-t-kcover-XXXXXX";
	const char *reason = "linux 6.12.118 lacks the struct member 's_x'";
	struct kcover cov = KCOVER_INIT;
	struct ci_verdict v[3] = { CI_VERDICT_INIT, CI_VERDICT_INIT, CI_VERDICT_INIT };
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	git_repository *repo = NULL;
	git_treebuilder *tb = NULL;
	git_tree *tree = NULL;
	git_oid tree_id, commit;
	char *dump = NULL;
	json_t *o;

	if (!mkdtemp(dir)) {
		skip("mkdtemp failed", "the clone look-up");
		return;
	}
	gitlib_init();
	strbuf_addf(&path, "%s/linux.git", dir);
	if (git_repository_init(&repo, path.buf, 1) < 0 ||
	    git_treebuilder_new(&tb, repo, NULL) < 0 || git_treebuilder_write(&tree_id, tb) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_id) < 0 ||
	    gitlib_commit(&commit, repo, "HEAD", NULL, 0, "base", tree, NULL) < 0) {
		ok(0, "a clone with one commit: %s", gitlib_error());
		goto out;
	}
	for (int i = 0; i < 3; i++) {
		v[i].kind = CI_UNTESTABLE;
		v[i].reason = xstrdup(reason);
	}
	v[0].base_commit = xstrdup(git_oid_tostr_s(&commit));
	v[1].base_commit = xstrdup("0123456789abcdef0123456789abcdef01234567");
	strvec_push(&v[1].missing, "the struct member 's_x'");
	strvec_push(&v[2].missing, "the struct member 's_x'");

	for (int i = 0; i < 3; i++)
		kcover_add(&cov, &v[i]);
	kcover_sort(&cov);
	ok(cov.nr_untestable == 1 && cov.untestable[0].with_repo == 0 &&
	   cov.untestable_with_repo == 0, "no [ci] repo: none known to be testable");
	kcover_text(&text, &cov);
	ok(strstr(text.buf, "      lacking a clone to find its base-commit in ([ci] repo): 2\n") &&
	   strstr(text.buf, "      lacking a base-commit: line (git format-patch --base=auto): 1\n"),
	   "  what they lack: a clone for two, a base-commit: line for one");
	kcover_release(&cov);

	cov.repo = path.buf;
	for (int i = 0; i < 3; i++)
		kcover_add(&cov, &v[i]);
	kcover_sort(&cov);
	ok(cov.nr_untestable == 1 && cov.untestable[0].count == 3 &&
	   cov.untestable[0].with_repo == 1 && cov.untestable_with_repo == 1,
	   "with the clone: the series whose base-commit it has is testable");
	strbuf_reset(&text);
	kcover_text(&text, &cov);
	printf("%s", text.buf);
	ok(strstr(text.buf, "      testable with the clone: 1\n") &&
	   strstr(text.buf, "      lacking the struct member 's_x': 2\n") &&
	   strstr(text.buf, "      lacking its base-commit in the clone: 1\n") &&
	   strstr(text.buf, "      lacking a base-commit: line (git format-patch --base=auto): 1\n"),
	   "  the rest: the commit not in the clone, no base-commit:, the name");
	o = kcover_to_json(&cov);
	dump = json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT);
	ok(dump && strstr(dump, "\"untestable_with_repo\":1") &&
	   strstr(dump, "{\"count\":2,\"what\":\"the struct member 's_x'\"}") &&
	   strstr(dump, "\"with_repo\":1"), "json: %s", dump ? dump : "(none)");
	json_decref(o);
	free(dump);
	kcover_release(&cov);
out:
	for (int i = 0; i < 3; i++)
		ci_verdict_release(&v[i]);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_repository_free(repo);
	tmp_remove(dir);
	strbuf_release(&text);
	strbuf_release(&path);
}

int main(void)
{
	fixtures();
	fired_beats_count();
	errors();
	with_repo();
	return done_testing();
}
