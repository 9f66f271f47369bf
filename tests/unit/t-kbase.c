/*
 * Unit tests for bot/kernel-ci/kbase.c: base-commit tags first, stable tags by their
 * series, hashes and unknown releases fall back to newest first, numeric
 * (not string) version order.
 */
#include "kbase.h"
#include "tap.h"

static void order(const char *base, const char *const *avail, const char *want,
		  const char *want_why, const char *name)
{
	struct strvec av = STRVEC_INIT, out = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT, got = STRBUF_INIT;

	for (; *avail; avail++)
		strvec_push(&av, *avail);
	if (kbase_order(&out, base, &av, &why) < 0)
		strbuf_addf(&got, "error: %s", error_last());
	for (size_t i = 0; i < out.nr; i++)
		strbuf_addf(&got, "%s%s", i ? " " : "", out.v[i]);
	is_str(got.buf, want, "%s: order", name);
	if (want_why)
		is_str(why.buf, want_why, "%s: why", name);
	strbuf_release(&got);
	strbuf_release(&why);
	strvec_clear(&out);
	strvec_clear(&av);
}

int main(void)
{
	const char *const deb[] = { "6.1.192", "6.12.57", NULL };
	const char *const three[] = { "6.1.192", "5.10.240", "6.12.57", NULL };
	const char *const bad[] = { "6.12.57", "linux", NULL };
	const char *const none[] = { NULL };

	order(NULL, deb, "6.12.57 6.1.192", "no base-commit: newest first",
	      "no base-commit");
	order("", deb, "6.12.57 6.1.192", "no base-commit: newest first",
	      "empty base-commit");
	order("v6.1", deb, "6.1.192 6.12.57", "base-commit names v6.1", "v6.1");
	order("v6.1.150", deb, "6.1.192 6.12.57", "base-commit names v6.1.150",
	      "a stable tag picks its series");
	order("v6.12-rc3", deb, "6.12.57 6.1.192", "base-commit names v6.12-rc3",
	      "an rc tag");
	order("6.1", deb, "6.1.192 6.12.57", NULL, "a version without v");
	order("v6.13", deb, "6.12.57 6.1.192",
	      "base-commit names v6.13, which is not available: newest first",
	      "a release we do not have");
	order("v6.10", deb, "6.12.57 6.1.192", NULL, "6.10 is not 6.1");
	order("0123456789abcdef0123456789abcdef01234567", deb, "6.12.57 6.1.192",
	      "base-commit 0123456789ab is a commit hash that cannot be mapped to a release here: newest first",
	      "a commit hash");
	order("next-20250101", deb, "6.12.57 6.1.192",
	      "base-commit 'next-20250101' names no release: newest first",
	      "a tag that is no release");
	order(NULL, three, "6.12.57 6.1.192 5.10.240", NULL,
	      "numeric order, not string order");
	order("v5.10.1", three, "5.10.240 6.12.57 6.1.192", NULL,
	      "the named one first, then the rest newest first");
	order(NULL, bad, "error: 'linux' is not a release version", NULL,
	      "a non-version is an error");
	order(NULL, none, "error: no kernel source tree is available", NULL,
	      "no tree is an error");
	return done_testing();
}
