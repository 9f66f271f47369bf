/*
 * Unit tests for ktree.c and kapply.c on a tiny fake kernel tarball (a
 * top Makefile with a version, a .gitignore that ignores everything, a few
 * files): extraction, import, reuse, the lock, applying series, the
 * messages of patches that do not apply, and the paths patches must not
 * reach.
 */
#include "kapply.h"
#include "kbase.h"
#include "child.h"
#include "tap.h"

#include <sys/stat.h>
#include <utime.h>
#include <unistd.h>

static char tmp[] = "/tmp/t-kapply.XXXXXX";
static struct strbuf tarball = STRBUF_INIT, cache = STRBUF_INIT;

static const char foo_c[] =
	"line 1\nline 2\nline 3\nline 4\nline 5\n"
	"line 6\nline 7\nline 8\nline 9\nline 10\n";

static void write_file(const char *dir, const char *rel, const char *text)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	char *slash;

	strbuf_addf(&path, "%s/%s", dir, rel);
	slash = strrchr(path.buf, '/');
	*slash = '\0';
	{
		struct child c = CHILD_INIT;

		strvec_pushl(&c.args, "mkdir", "-p", path.buf, NULL);
		child_run_ok(&c);
		child_release(&c);
	}
	*slash = '/';
	strbuf_addstr(&sb, text);
	strbuf_write_file(&sb, path.buf);
	strbuf_release(&sb);
	strbuf_release(&path);
}

static int make_tarball(void)
{
	struct strbuf src = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret;

	strbuf_addf(&src, "%s/src/linux-source-9.9", tmp);
	write_file(src.buf, "Makefile",
		   "# SPDX-License-Identifier: GPL-2.0\nVERSION = 9\n"
		   "PATCHLEVEL = 9\nSUBLEVEL = 1\nEXTRAVERSION =\nNAME = Test\n");
	write_file(src.buf, ".gitignore", "/*\n!.gitignore\n*.o\n");
	write_file(src.buf, "kernel/foo.c", foo_c);
	write_file(src.buf, "lib/bar.c", "bar\n");
	write_file(src.buf, "lib/baz.o", "an ignored object in the tarball\n");
	strbuf_addf(&tarball, "%s/linux-source-9.9.tar.xz", tmp);
	strvec_pushl(&c.args, "tar", "-cJf", tarball.buf, "-C", NULL);
	strvec_pushf(&c.args, "%s/src", tmp);
	strvec_push(&c.args, "linux-source-9.9");
	ret = child_run_ok(&c);
	child_release(&c);
	strbuf_release(&src);
	strbuf_addf(&cache, "%s/cache", tmp);
	return ret;
}

static int open_tree(struct ktree *t, unsigned int lock_timeout)
{
	struct ktree_opts o = KTREE_OPTS_INIT;

	o.cache_dir = cache.buf;
	o.tarball = tarball.buf;
	o.lock_timeout_s = lock_timeout;
	return ktree_open(t, &o);
}

static bool tree_has(struct ktree *t, const git_oid *commit, const char *path)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	bool found;

	found = !git_commit_lookup(&c, t->repo, commit) &&
		!git_commit_tree(&tree, c) &&
		!git_tree_entry_bypath(&e, tree, path);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	return found;
}

static void read_work(struct strbuf *out, struct ktree *t, const char *rel)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_reset(out);
	strbuf_addf(&path, "%s/%s", t->worktree, rel);
	if (strbuf_read_file(out, path.buf, 1 << 20) < 0)
		strbuf_addstr(out, "(missing)");
	strbuf_release(&path);
}

static void test_tree(void)
{
	struct ktree t = KTREE_INIT, t2 = KTREE_INIT;
	struct strbuf v = STRBUF_INIT, path = STRBUF_INIT;

	is(open_tree(&t, 0), 0, "first open extracts and imports");
	is_str(t.version, "9.9.1", "version from the top Makefile");
	is_str(t.tag, "v9.9.1", "tag name");
	ok(t.extract_seconds > 0 && t.import_seconds > 0, "it did extract and import");
	ok(tree_has(&t, &t.base, "kernel/foo.c") && tree_has(&t, &t.base, ".gitignore"),
	   "import has every file despite .gitignore's '/*'");
	ok(tree_has(&t, &t.base, "lib/baz.o"), "... even ignored ones");
	is(open_tree(&t2, 1), WW_ETIMEOUT, "a second open waits for the lock, then gives up");
	ok(strstr(error_last(), "still locked by another warnwatch run") != NULL,
	   "the lock message says why");
	ktree_release(&t2);
	ktree_release(&t);
	is(open_tree(&t, 0), 0, "reopen");
	ok(t.extract_seconds == 0 && t.import_seconds == 0, "reopen reuses the cache");
	ktree_release(&t);

	strbuf_addf(&path, "%s/src/linux-source-9.9/Makefile", tmp);
	is(ktree_read_version(&v, path.buf), 0, "read_version");
	is_str(v.buf, "9.9.1", "read_version value");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/src/linux-source-9.9/lib/bar.c", tmp);
	is(ktree_read_version(&v, path.buf), WW_EINPUT, "no version lines: WW_EINPUT");
	strbuf_release(&path);
	strbuf_release(&v);
}

static const char good_diff[] =
	"diff --git a/kernel/foo.c b/kernel/foo.c\n"
	"--- a/kernel/foo.c\n"
	"+++ b/kernel/foo.c\n"
	"@@ -2,3 +2,4 @@\n"
	" line 2\n"
	" line 3\n"
	"+WARN_ON(1);\n"
	" line 4\n"
	"diff --git a/kernel/new.c b/kernel/new.c\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/kernel/new.c\n"
	"@@ -0,0 +1 @@\n"
	"+new\n";

static const char bad_hunk_diff[] =
	"diff --git a/kernel/foo.c b/kernel/foo.c\n"
	"--- a/kernel/foo.c\n"
	"+++ b/kernel/foo.c\n"
	"@@ -2,2 +2,3 @@\n"
	" line 2\n"
	"+ok\n"
	" line 3\n"
	"@@ -8,3 +9,4 @@ int func(void)\n"
	" line 8\n"
	" line nine\n"
	"+BUG_ON(1);\n"
	" line 10\n";

static int apply_one(struct kapply_result *r, struct ktree *t, const char *diff,
		     const char *base_commit)
{
	struct series s = SERIES_INIT;
	int ret;

	kapply_result_release(r);
	series_from_diff(&s, diff, strlen(diff), "test.patch");
	s.base_commit = base_commit ? xstrdup(base_commit) : NULL;
	ret = kapply_series(r, t, &s);
	series_release(&s);
	return ret;
}

static void test_apply(void)
{
	struct ktree t = KTREE_INIT;
	struct kapply_result r = KAPPLY_RESULT_INIT;
	struct strbuf sb = STRBUF_INIT, bar = STRBUF_INIT;
	struct series s = SERIES_INIT;
	struct utimbuf old = { 1000000000, 1000000000 };
	struct stat st;
	char hex[GIT_OID_HEXSZ + 1];
	int ret;

	if (open_tree(&t, 0) < 0) {
		ok(0, "open tree: %s", error_last());
		return;
	}
	strbuf_addf(&bar, "%s/lib/bar.c", t.worktree);
	utime(bar.buf, &old);

	is(apply_one(&r, &t, good_diff, NULL), 0, "a good patch applies");
	read_work(&sb, &t, "kernel/foo.c");
	ok(strstr(sb.buf, "line 3\nWARN_ON(1);\nline 4\n") != NULL,
	   "the worktree has the change");
	read_work(&sb, &t, "kernel/new.c");
	is_str(sb.buf, "new\n", "and the new file");
	is(r.nr, 1, "one commit");
	is(r.touched.nr, 2, "two touched paths");
	is_str(r.touched.nr ? r.touched.v[0] : NULL, "kernel/foo.c", "touched[0]");
	ok(tree_has(&t, &r.head, "kernel/new.c"), "the commit has the new file");
	ok(!stat(bar.buf, &st) && st.st_mtime == old.actime,
	   "an untouched file keeps its mtime");

	is(apply_one(&r, &t, "", NULL), WW_EAPPLY, "an empty diff is refused");
	is(apply_one(&r, &t, bad_hunk_diff, NULL), WW_EAPPLY, "a bad hunk: WW_EAPPLY");
	is_str(error_last(),
	       "the patch does not apply to linux 9.9.1: kernel/foo.c: hunk 2 (@@ -8,3 +9,4 @@): context does not match",
	       "the message names file, hunk number and header");
	is(r.fail.patch, 1, "failed names the patch");
	/* The verdict takes these as data, not from the message. */
	is_str(r.fail.file, "kernel/foo.c", "  the file, as data");
	is(r.fail.hunk, 2, "  the hunk, as data");
	is_str(r.fail.reason, "context does not match", "  the reason, as data");
	ok(!r.fail.refused, "  not refused: a question of the base");
	read_work(&sb, &t, "kernel/new.c");
	is_str(sb.buf, "new\n", "a failed apply does not touch the worktree");

	ok(apply_one(&r, &t, "diff --git a/drivers/none.c b/drivers/none.c\n"
		     "--- a/drivers/none.c\n+++ b/drivers/none.c\n"
		     "@@ -1 +1 @@\n-a\n+b\n", NULL) == WW_EAPPLY &&
	   strstr(error_last(), "drivers/none.c: no such file"),
	   "a missing file is named: %s", error_last());
	ok(r.fail.file && !strcmp(r.fail.file, "drivers/none.c") && !r.fail.hunk &&
	   r.fail.reason && !strcmp(r.fail.reason, "no such file"),
	   "  file, no hunk, reason as data");
	/* A name the message cannot be split at (": " inside it) stays whole. */
	/* Called before ok(): its arguments are evaluated in no set order,
	 * and the message's r.fail.file must be this call's. */
	ret = apply_one(&r, &t, "diff --git \"a/drivers/a: b.c\" \"b/drivers/a: b.c\"\n"
			"--- \"a/drivers/a: b.c\"\n+++ \"b/drivers/a: b.c\"\n"
			"@@ -1 +1 @@\n-a\n+b\n", NULL);
	ok(ret == WW_EAPPLY && r.fail.file && !strcmp(r.fail.file, "drivers/a: b.c"),
	   "a file named 'drivers/a: b.c' is kept whole: %s", r.fail.file ? r.fail.file : "(none)");
	ok(apply_one(&r, &t, "diff --git a/lib/bar.c b/lib/bar.c\n"
		     "new file mode 100644\n--- /dev/null\n+++ b/lib/bar.c\n"
		     "@@ -0,0 +1 @@\n+again\n", NULL) == WW_EAPPLY &&
	   strstr(error_last(), "lib/bar.c: already exists"),
	   "creating an existing file is refused: %s", error_last());

	/* Back to the base: the file the first series added goes away. */
	kapply_result_release(&r);
	is(kapply_series(&r, &t, &s), 0, "an empty series checks out the base");
	read_work(&sb, &t, "kernel/new.c");
	is_str(sb.buf, "(missing)", "a file added by the earlier series is removed");
	read_work(&sb, &t, "kernel/foo.c");
	is_str(sb.buf, foo_c, "a file changed by it is restored");

	/* base-commit: */
	git_oid_tostr(hex, sizeof(hex), &t.base);
	is(apply_one(&r, &t, good_diff, "0123456789abcdef0123456789abcdef01234567"), 0,
	   "an unknown base-commit still applies");
	ok(strstr(r.note.buf, "base-commit 0123456789ab is not in the linux 9.9.1 import; applied to v9.9.1") != NULL,
	   "... with a note: %s", r.note.buf);
	is(apply_one(&r, &t, good_diff, hex), 0, "a known base-commit");
	is(r.note.len, 0, "... no note");
	ok(git_oid_equal(&r.base, &t.base), "... used as base");
	is(apply_one(&r, &t, good_diff, "HEAD~1"), 0, "a base-commit that is not hex");
	ok(strstr(r.note.buf, "is not in") != NULL, "... is not looked up");

	series_release(&s);
	kapply_result_release(&r);
	strbuf_release(&bar);
	strbuf_release(&sb);
	ktree_release(&t);
}

/* Hunks whose context moved (git apply's offsets), and quilt diffs. */
static void test_offsets(void)
{
	struct ktree t = KTREE_INIT;
	struct kapply_result r = KAPPLY_RESULT_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (open_tree(&t, 0) < 0)
		return;
	is(apply_one(&r, &t, "diff --git a/kernel/foo.c b/kernel/foo.c\n"
		     "--- a/kernel/foo.c\n+++ b/kernel/foo.c\n"
		     "@@ -1,2 +1,3 @@\n line 3\n+A\n line 4\n"
		     "@@ -5,2 +6,3 @@\n line 8\n+B\n line 9\n", NULL), 0,
	   "hunks two and three lines off still apply");
	read_work(&sb, &t, "kernel/foo.c");
	is_str(sb.buf, "line 1\nline 2\nline 3\nA\nline 4\nline 5\nline 6\n"
	       "line 7\nline 8\nB\nline 9\nline 10\n", "... at the right lines");
	is_str(r.note.buf, "the patch: kernel/foo.c: hunk 1 applied at offset +2 lines; "
	       "the patch: kernel/foo.c: hunk 2 applied at offset +3 lines",
	       "the offsets are noted");
	is(apply_one(&r, &t, "--- linux.orig/kernel/foo.c\n"
		     "+++ linux/kernel/foo.c\n"
		     "@@ -9,2 +9,3 @@\n line 9\n+C\n line 10\n", NULL), 0,
	   "a quilt diff (no diff --git) applies");
	read_work(&sb, &t, "kernel/foo.c");
	ok(strstr(sb.buf, "line 9\nC\nline 10\n") != NULL, "... with its change");
	strbuf_release(&sb);
	kapply_result_release(&r);
	ktree_release(&t);
}

/* The abbreviated id of `path` in `commit`'s tree. */
static void blob_abbrev(struct strbuf *out, struct ktree *t, const git_oid *commit,
			const char *path)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;

	if (!git_commit_lookup(&c, t->repo, commit) && !git_commit_tree(&tree, c) &&
	    !git_tree_entry_bypath(&e, tree, path))
		strbuf_addf(out, "%.7s", git_oid_tostr_s(git_tree_entry_id(e)));
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
}

/*
 * git am -3: a patch written against a tree whose line 6 differs from the
 * base's.  Its context does not match the base; the pre-image blob (the
 * author's foo.c) is in the repository, so it applies 3-way.
 */
static void test_three_way(void)
{
	struct ktree t = KTREE_INIT;
	struct kapply_result r = KAPPLY_RESULT_INIT;
	struct strbuf diff = STRBUF_INIT, pre = STRBUF_INIT, sb = STRBUF_INIT;
	static const char newer[] =
		"diff --git a/kernel/foo.c b/kernel/foo.c\n"
		"--- a/kernel/foo.c\n+++ b/kernel/foo.c\n"
		"@@ -5,3 +5,3 @@\n line 5\n-line 6\n+line 6 in a newer tree\n line 7\n";
	git_oid author;

	if (open_tree(&t, 0) < 0)
		return;
	/* The author's tree: its foo.c blob is in the repository. */
	is(kapply_diff(&author, NULL, &t, &t.base, newer, strlen(newer), "newer",
		       "a newer tree", NULL), 0, "the author's tree");
	blob_abbrev(&pre, &t, &author, "kernel/foo.c");
	strbuf_addf(&diff, "diff --git a/kernel/foo.c b/kernel/foo.c\n"
		    "index %s..1234567 100644\n"
		    "--- a/kernel/foo.c\n+++ b/kernel/foo.c\n"
		    "@@ -6,4 +6,5 @@\n line 6 in a newer tree\n line 7\n line 8\n"
		    "+WARN_ON(x);\n line 9\n", pre.buf);
	is(apply_one(&r, &t, diff.buf, NULL), 0, "drifted context applies 3-way");
	is(r.three_way, 1, "... and says so");
	read_work(&sb, &t, "kernel/foo.c");
	is_str(sb.buf, "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n"
	       "line 8\nWARN_ON(x);\nline 9\nline 10\n",
	       "the change merged into the base's file, the base's line 6 kept");
	kapply_result_release(&r);

	/* The change itself touches what the base has differently: a conflict. */
	strbuf_reset(&diff);
	strbuf_addf(&diff, "diff --git a/kernel/foo.c b/kernel/foo.c\n"
		    "index %s..1234567 100644\n"
		    "--- a/kernel/foo.c\n+++ b/kernel/foo.c\n"
		    "@@ -5,3 +5,3 @@\n line 5\n-line 6 in a newer tree\n+WARN_ON(y);\n line 7\n",
		    pre.buf);
	is(apply_one(&r, &t, diff.buf, NULL), WW_EAPPLY, "a conflicting change fails");
	ok(strstr(error_last(), "hunk 1 (@@ -5,3 +5,3 @@): context does not match; "
		  "3-way: kernel/foo.c conflicts with the change") != NULL,
	   "the strict failure and the conflict: %s", error_last());
	kapply_result_release(&r);

	/* No such blob: the strict message, and why 3-way could not help. */
	strbuf_reset(&diff);
	strbuf_addstr(&diff, "diff --git a/kernel/foo.c b/kernel/foo.c\n"
		      "index 0abcdef..1234567 100644\n"
		      "--- a/kernel/foo.c\n+++ b/kernel/foo.c\n"
		      "@@ -5,3 +5,3 @@\n line 5\n-line 6 in a newer tree\n+WARN_ON(y);\n line 7\n");
	is(apply_one(&r, &t, diff.buf, NULL), WW_EAPPLY, "without the pre-image blob it fails");
	ok(strstr(error_last(), "3-way: the repository does not have kernel/foo.c's "
		  "pre-image blob 0abcdef") != NULL, "and says so: %s", error_last());
	kapply_result_release(&r);
	strbuf_release(&sb);
	strbuf_release(&pre);
	strbuf_release(&diff);
	ktree_release(&t);
}

/*
 * A commit of a git repository as the base (issue 28): the worktree is
 * seeded from the Debian tree of the same release, a later commit's
 * files are checked out, and only keep_bases bases stay in the cache.
 */
static void test_git_base(void)
{
	struct ktree t = KTREE_INIT, g = KTREE_INIT;
	struct ktree_opts o = KTREE_OPTS_INIT;
	struct strbuf sb = STRBUF_INIT, op = STRBUF_INIT;
	git_oid c[5];
	int n = 0;

	if (open_tree(&t, 0) < 0)
		return;
	/* The "operator's repository": the import plus four later commits. */
	strbuf_addstr(&op, t.gitdir);
	git_oid_cpy(&c[0], &t.base);
	for (int i = 1; i < 5; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "diff --git a/lib/bar.c b/lib/bar.c\n--- a/lib/bar.c\n"
			    "+++ b/lib/bar.c\n@@ -1 +1,2 @@\n bar\n+helper_%d();\n", i);
		if (!kapply_diff(&c[i], NULL, &t, &c[0], sb.buf, sb.len, "later",
				 "a later commit", NULL))
			n++;
	}
	is(n, 4, "four later commits");
	ktree_release(&t);
	{
		/* The base order: base-commit exactly, else the branch, else none. */
		struct strbuf why = STRBUF_INIT;
		git_oid got;
		bool own = false;

		is(kbase_git(&got, &own, &why, op.buf, "v9.9.1", git_oid_tostr_s(&c[2])), 1,
		   "base-commit found in the repository");
		ok(own && git_oid_equal(&got, &c[2]), "exactly that commit, the series' own");
		strbuf_reset(&why);
		is(kbase_git(&got, &own, &why, op.buf, "v9.9.1", "0123456789ab"), 1,
		   "base-commit not there: the branch");
		ok(!own && git_oid_equal(&got, &c[0]), "its commit, not the series' own: %s",
		   why.buf);
		strbuf_reset(&why);
		is(kbase_git(&got, &own, &why, op.buf, NULL, "0123456789ab"), 0,
		   "neither: the Debian trees");
		ok(starts_with(why.buf, "base-commit 0123456789ab is not in /") &&
		   ends_with(why.buf, ": the Debian trees; "), "why: %s", why.buf);
		strbuf_release(&why);
	}

	o.cache_dir = cache.buf;
	o.repo = op.buf;
	o.keep_bases = 3;
	o.lock_timeout_s = 5;
	is(ktree_open_git(&g, &o, &c[1]), 0, "a commit of the repository as base");
	ok(g.version && starts_with(g.version, "9.9.1-g"), "version names the release and commit: %s",
	   g.version ? g.version : "(null)");
	is_str(g.seed_version ? g.seed_version : "", "9.9.1", "seeded from the Debian tree");
	read_work(&sb, &g, "lib/bar.c");
	is_str(sb.buf, "bar\nhelper_1();\n", "the commit's file is checked out");
	read_work(&sb, &g, "kernel/foo.c");
	is_str(sb.buf, foo_c, "the others come from the seed");
	ktree_release(&g);
	for (int i = 2; i < 5; i++) {
		is(ktree_open_git(&g, &o, &c[i]), 0, "base %d", i);
		ktree_release(&g);
	}
	n = 0;
	for (int i = 1; i < 5; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/work/%s", cache.buf, git_oid_tostr_s(&c[i]));
		n += access(sb.buf, F_OK) == 0;
	}
	is(n, 3, "four bases opened, three kept");
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/work/%s", cache.buf, git_oid_tostr_s(&c[1]));
	ok(access(sb.buf, F_OK) < 0, "the oldest was evicted");
	strbuf_release(&sb);
	strbuf_release(&op);
}

static void test_series_names(void)
{
	struct ktree t = KTREE_INIT;
	struct kapply_result r = KAPPLY_RESULT_INIT;
	struct series s = SERIES_INIT;

	if (open_tree(&t, 0) < 0)
		return;
	series_from_diff(&s, good_diff, strlen(good_diff), "one");
	series_from_diff(&s, bad_hunk_diff, strlen(bad_hunk_diff), "two");
	s.patches[0].index = 1;
	s.patches[0].total = 2;
	s.patches[1].index = 2;
	s.patches[1].total = 2;
	is(kapply_series(&r, &t, &s), WW_EAPPLY, "series: patch 2 fails");
	ok(starts_with(error_last(), "patch 2/2 does not apply to linux 9.9.1: kernel/foo.c: hunk 2"),
	   "named 'patch 2/2': %s", error_last());
	is(r.fail.patch, 2, "failed = 2");
	is(r.nr, 1, "patch 1 was applied (committed)");
	series_release(&s);
	kapply_result_release(&r);
	ktree_release(&t);
}

static void refused(struct ktree *t, const char *diff, const char *want,
		    const char *name)
{
	struct kapply_result r = KAPPLY_RESULT_INIT;
	int ret = apply_one(&r, t, diff, NULL);

	ok(ret == WW_EAPPLY && strstr(error_last(), want),
	   "%s: %s", name, ret == WW_EAPPLY ? error_last() : "applied!");
	ok(r.fail.refused && r.fail.patch == 1 && r.fail.reason,
	   "  refused, as data: %s", r.fail.reason ? r.fail.reason : "(none)");
	kapply_result_release(&r);
}

static void test_security(void)
{
	struct ktree t = KTREE_INIT;
	struct kapply_result r = KAPPLY_RESULT_INIT;

	if (open_tree(&t, 0) < 0)
		return;
	refused(&t, "diff --git a/lib/bar.c b/../../etc/passwd\n"
		"similarity index 100%\nrename from lib/bar.c\n"
		"rename to ../../etc/passwd\n",
		"'../../etc/passwd' is a path that leaves the tree",
		"a rename out of the tree");
	refused(&t, "diff --git a/.git/config b/.git/config\n"
		"new file mode 100644\n--- /dev/null\n+++ b/.git/config\n"
		"@@ -0,0 +1 @@\n+[core]\n",
		"is a path inside .git", "a file in .git");
	refused(&t, "diff --git a/x/.GIT/hooks b/x/.GIT/hooks\n"
		"new file mode 100644\n--- /dev/null\n+++ b/x/.GIT/hooks\n"
		"@@ -0,0 +1 @@\n+x\n",
		"is a path inside .git", "a .GIT directory deeper down");
	{
		struct strbuf sb = STRBUF_INIT;
		int ret = apply_one(&r, &t, "diff --git a//ww-t-kapply/x b//ww-t-kapply/x\n"
				    "new file mode 100644\n--- /dev/null\n"
				    "+++ b//ww-t-kapply/x\n@@ -0,0 +1 @@\n+x\n",
				    NULL);

		if (ret == WW_EAPPLY) {
			ok(strstr(error_last(), "refused") != NULL,
			   "an absolute path is refused: %s", error_last());
		} else {
			/* libgit2 reads "b//x" as "x": inside the tree. */
			read_work(&sb, &t, "ww-t-kapply/x");
			ok(!ret && !strcmp(sb.buf, "x\n") &&
			   access("/ww-t-kapply", F_OK) < 0,
			   "an absolute path lands inside the tree");
		}
		strbuf_release(&sb);
	}
	refused(&t, "diff --git a/lib/evil b/lib/evil\n"
		"new file mode 120000\n--- /dev/null\n+++ b/lib/evil\n"
		"@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n",
		"symlink 'lib/evil' points outside the tree ('/etc/passwd')",
		"a symlink to an absolute path");
	refused(&t, "diff --git a/lib/evil b/lib/evil\n"
		"new file mode 120000\n--- /dev/null\n+++ b/lib/evil\n"
		"@@ -0,0 +1 @@\n+../../outside\n\\ No newline at end of file\n",
		"points outside the tree", "a symlink climbing out");
	is(apply_one(&r, &t, "diff --git a/lib/ok b/lib/ok\n"
		     "new file mode 120000\n--- /dev/null\n+++ b/lib/ok\n"
		     "@@ -0,0 +1 @@\n+../kernel/foo.c\n\\ No newline at end of file\n",
		     NULL), 0, "a symlink inside the tree is fine");
	/* Issue 22: each link alone stays inside as text; together they
	 * lead to /etc/hostname. */
	refused(&t, "diff --git a/a/b/c/d/s b/a/b/c/d/s\n"
		"new file mode 120000\n--- /dev/null\n+++ b/a/b/c/d/s\n"
		"@@ -0,0 +1 @@\n+../../../..\n\\ No newline at end of file\n"
		"diff --git a/a/b/c/d/l b/a/b/c/d/l\n"
		"new file mode 120000\n--- /dev/null\n+++ b/a/b/c/d/l\n"
		"@@ -0,0 +1 @@\n+s/../../../etc/hostname\n\\ No newline at end of file\n",
		"symlink 'a/b/c/d/l' points outside the tree ('s/../../../etc/hostname')",
		"a chain of two links that leads out");
	refused(&t, "diff --git a/lib/x b/lib/x\n"
		"new file mode 120000\n--- /dev/null\n+++ b/lib/x\n"
		"@@ -0,0 +1 @@\n+y/f\n\\ No newline at end of file\n"
		"diff --git a/lib/y b/lib/y\n"
		"new file mode 120000\n--- /dev/null\n+++ b/lib/y\n"
		"@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n",
		"points outside the tree", "a loop of links");
	is(apply_one(&r, &t, "diff --git a/a/b/s b/a/b/s\n"
		     "new file mode 120000\n--- /dev/null\n+++ b/a/b/s\n"
		     "@@ -0,0 +1 @@\n+../..\n\\ No newline at end of file\n"
		     "diff --git a/a/b/l b/a/b/l\n"
		     "new file mode 120000\n--- /dev/null\n+++ b/a/b/l\n"
		     "@@ -0,0 +1 @@\n+s/kernel/foo.c\n\\ No newline at end of file\n",
		     NULL), 0, "a chain that stays inside is fine");
	kapply_result_release(&r);
	ktree_release(&t);
}

static void cleanup(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "rm", "-rf", "--", tmp, NULL);
	child_run(&c);
	child_release(&c);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (make_tarball() < 0) {
		ok(0, "the test tarball is made: %s", error_last());
		cleanup();
		return done_testing();
	}
	test_tree();
	test_apply();
	test_offsets();
	test_three_way();
	test_git_base();
	test_series_names();
	test_security();
	cleanup();
	strbuf_release(&tarball);
	strbuf_release(&cache);
	return done_testing();
}
