/*
 * gitlib: libgit2 starts without reading the CA bundle (gitlib.c says
 * why), and still works.
 */
#include "gitlib.h"
#include "tap.h"
#include "census.h"
#include "rules.h"

#include "tmpdir.h"

#include <git2.h>
#include <stdlib.h>
#include <sys/stat.h>

extern int gitlib_ca_reads;

/* gitlib_commit(): the signature, the date, the parent, the ref. */
static void test_commit(void)
{
	char dir[] = "/tmp/t-gitlib.XXXXXX";
	git_repository *repo = NULL;
	git_treebuilder *tb = NULL;
	git_tree *tree = NULL;
	git_commit *first = NULL, *second = NULL;
	git_oid tree_id, a, b, again, head;

	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 1) < 0 ||
	    git_treebuilder_new(&tb, repo, NULL) < 0 ||
	    git_treebuilder_write(&tree_id, tb) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_id) < 0) {
		ok(0, "scratch repository: %s", gitlib_error());
		goto out;
	}
	is(gitlib_commit(&a, repo, "HEAD", NULL, 1000, "first\n", tree, NULL), 0,
	   "a first commit, moving HEAD");
	is(git_reference_name_to_id(&head, repo, "HEAD"), 0, "HEAD resolves");
	ok(git_oid_equal(&head, &a), "to the new commit");
	git_commit_lookup(&first, repo, &a);
	is_str(first ? git_commit_author(first)->name : "", "warnwatch", "NULL author: warnwatch");
	is(first ? (long long)git_commit_committer(first)->when.time : 0, 1000,
	   "committed at `when`");
	is(gitlib_commit(&b, repo, NULL, "A\r\nB <a@x.org>", 2000, "second\n", tree,
			 first), 0, "an author libgit2 would refuse is made harmless");
	git_commit_lookup(&second, repo, &b);
	is_str(second ? git_commit_author(second)->name : "", "A  B", "  its line breaks blanked");
	is_str(second ? git_commit_author(second)->email : "", "a@x.org", "  its address kept");
	is(second ? (long long)git_commit_parentcount(second) : -1, 1, "one parent");
	gitlib_commit(&again, repo, NULL, "A\r\nB <a@x.org>", 2000, "second\n", tree, first);
	ok(git_oid_equal(&again, &b), "the same inputs give the same commit");
	git_reference_name_to_id(&head, repo, "HEAD");
	ok(git_oid_equal(&head, &a), "ref NULL leaves HEAD alone");
out:
	git_commit_free(second);
	git_commit_free(first);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_repository_free(repo);
	tmp_remove(dir);
}

int main(void)
{
	static const char text[] =
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
		"@@ -1 +1 @@\n-\tBUG_ON(x);\n+\tWARN_ON_ONCE(x);\n";
	git_diff *diff = NULL;
	struct stat st;
	int features;

	gitlib_init();
	gitlib_init();
	test_commit();
	features = git_libgit2_features();
	if (features & GIT_FEATURE_HTTPS) {
		/* Debian's libgit2 reads its CA file at start-up only when the
		 * file exists: then it must have reached our definition. */
		if (!stat("/etc/ssl/certs/ca-certificates.crt", &st))
			is(gitlib_ca_reads, 1, "libgit2's CA read reached warnwatch's definition, once");
		else
			skip("not-installed: no CA bundle (ca-certificates)", "libgit2's CA read");
	} else {
		skip("not-installed: a libgit2 with HTTPS", "libgit2's CA read");
	}
	if ((features & GIT_FEATURE_HTTPS) && !stat(GITLIB_CA_FILE, &st)) {
		int reads = gitlib_ca_reads;

		is(gitlib_enable_tls(), 0, "gitlib_enable_tls() loads the CA bundle");
		is(gitlib_ca_reads, reads + 1, "  through our definition, handed on");
		is(gitlib_enable_tls(), 0, "  a second call");
		is(gitlib_ca_reads, reads + 1, "  reads nothing again");
	} else {
		skip("not-installed: a libgit2 with HTTPS and a CA bundle", "gitlib_enable_tls()");
	}
	is(git_diff_from_buffer(&diff, text, sizeof(text) - 1), 0,
	   "libgit2 parses a diff after gitlib_init()");
	is(diff ? (long long)git_diff_num_deltas(diff) : -1, 1, "one delta");
	git_diff_free(diff);

	/*
	 * census --git, then ci, in one process (serve does both): a module
	 * done with libgit2 must not shut it down under the next one.
	 * git_libgit2_init() returns the new count: 1 would mean that the
	 * library had been shut down in between.
	 */
	{
		struct census c;
		struct ruleset *rs = NULL;

		memset(&c, 0, sizeof(c));
		ok(census_git(&c, "/nonexistent/repo", "a..b", rs, NULL) < 0,
		   "census_git on a missing repository fails");
		census_release(&c);
		ok(git_libgit2_init() > 1, "libgit2 is still started after census_git");
		git_libgit2_shutdown();
		diff = NULL;
		is(git_diff_from_buffer(&diff, text, sizeof(text) - 1), 0,
		   "and the next module's libgit2 call works");
		git_diff_free(diff);
	}
	return done_testing();
}
