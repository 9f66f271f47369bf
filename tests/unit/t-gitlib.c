/*
 * gitlib: libgit2 starts without reading the CA bundle (gitlib.c says
 * why), and still works.
 */
#include "tap.h"
#include "gitlib.h"
#include "census.h"
#include "rules.h"

#include <git2.h>
#include <sys/stat.h>

extern int gitlib_ca_reads;

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
	features = git_libgit2_features();
	if (features & GIT_FEATURE_HTTPS) {
		/* Debian's libgit2 reads its CA file at start-up only when the
		 * file exists: then it must have reached our definition. */
		if (!stat("/etc/ssl/certs/ca-certificates.crt", &st))
			is(gitlib_ca_reads, 1, "libgit2's CA read reached warnwatch's definition, once");
		else
			skip("no CA bundle on this machine", "libgit2's CA read");
	} else {
		skip("libgit2 built without HTTPS", "libgit2's CA read");
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
