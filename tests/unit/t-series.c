/*
 * Unit tests for series.c: subject tags in their real-world shapes, the
 * diff inside a patch mail, and building a series from format-patch and
 * b4 output, with several versions, duplicates, gaps, cover letters and
 * review replies that quote a patch.
 */
#include "series.h"
#include "check.h"
#include "rules.h"
#include "tap.h"

#include <errno.h>
#include <string.h>

#include <stdlib.h>
#include <unistd.h>

static const char *data_dir(void)
{
	static char path[4096];
	const char *top = getenv("WW_TOP");

	snprintf(path, sizeof(path), "%s/tests/unit/data/mail", top ? top : ".");
	return path;
}

/* Parse `name` (a file under data/mail) or the string `s` into a series. */
static int build(struct series *s, struct mail_list *l, struct strbuf *in,
		 const char *name, const char *str)
{
	int ret;

	if (name) {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/%s", data_dir(), name);
		ret = strbuf_read_file(in, path.buf, 0);
		strbuf_release(&path);
		if (ret)
			return ret;
	} else {
		strbuf_addstr(in, str);
	}
	ret = mbox_parse(l, in->buf, in->len);
	if (ret)
		return ret;
	return series_from_mails(s, l);
}

struct fixture {
	struct series s;
	struct mail_list l;
	struct strbuf in;
};

static int fixture_build(struct fixture *f, const char *name, const char *str)
{
	struct series init = SERIES_INIT;
	struct mail_list linit = MAIL_LIST_INIT;

	f->s = init;
	f->l = linit;
	strbuf_init(&f->in, 0);
	return build(&f->s, &f->l, &f->in, name, str);
}

static void fixture_release(struct fixture *f)
{
	series_release(&f->s);
	mail_list_clear(&f->l);
	strbuf_release(&f->in);
}

static char *diff_text(const struct series_patch *p)
{
	return xstrndup(p->diff, p->diff_len);
}

static void test_subjects(void)
{
	struct {
		const char *subject;
		bool patch, reply, rfc;
		int version, index, total;
		const char *title;
	} t[] = {
		{ "[PATCH] mm: fix", true, false, false, 1, -1, -1, "mm: fix" },
		{ "[PATCH v2 3/5] mm: fix", true, false, false, 2, 3, 5, "mm: fix" },
		{ "[PATCH net-next v3 02/10] net: x", true, false, false, 3, 2, 10, "net: x" },
		{ "[RFC PATCH 1/2] a", true, false, true, 1, 1, 2, "a" },
		{ "[PATCH RFC v2 0/3] b", true, false, true, 2, 0, 3, "b" },
		{ "[RFC][PATCH] c", true, false, true, 1, -1, -1, "c" },
		{ "[PATCH 1/2 v2] d", true, false, false, 2, 1, 2, "d" },
		{ "[PATCHv4 07/12] e", true, false, false, 4, 7, 12, "e" },
		{ "[PATCH-v5] f", true, false, false, 5, -1, -1, "f" },
		{ "[RFC v2] g", true, false, true, 2, -1, -1, "g" },
		{ "[PATCH RESEND v2 1/1] h", true, false, false, 2, 1, 1, "h" },
		{ "[PATCH 6.1 012/200] stable backport", true, false, false, 1, 12, 200, "stable backport" },
		{ "[PATCH bpf-next,v2,1/3] i", true, false, false, 2, 1, 3, "i" },
		{ "[PATCH] [RESEND] j", true, false, false, 1, -1, -1, "j" },
		{ "  [patch v2 1/2]   k  ", true, false, false, 2, 1, 2, "k  " },
		{ "[PATCH]fw: no space", true, false, false, 1, -1, -1, "fw: no space" },
		{ "[PATCH] fw: loader: a title that looks like a reply prefix", true, false, false,
		  1, -1, -1, "fw: loader: a title that looks like a reply prefix" },
		{ "Re: [PATCH v2 3/5] mm: fix", false, true, false, 2, 3, 5, "mm: fix" },
		{ "RE: [PATCH] x", false, true, false, 1, -1, -1, "x" },
		{ "Aw: [PATCH] x", false, true, false, 1, -1, -1, "x" },
		{ "AW: Re: Fwd: [PATCH] x", false, true, false, 1, -1, -1, "x" },
		{ "Fwd: [PATCH 1/2] x", false, true, false, 1, 1, 2, "x" },
		{ "Re[2]: [PATCH] x", false, true, false, 1, -1, -1, "x" },
		{ "[linux-foo] Re: [PATCH] x", false, true, false, 1, -1, -1, "x" },
		{ "mm: fix without tags", false, false, false, 1, -1, -1, "mm: fix without tags" },
		{ "[GIT PULL] mm fixes", false, false, false, 1, -1, -1, "mm fixes" },
		{ "Regression in mm", false, false, false, 1, -1, -1, "Regression in mm" },
		{ "[PATCH unterminated", false, false, false, 1, -1, -1, "[PATCH unterminated" },
		{ "[PATCH 99999999999/2] huge", true, false, false, 1, -1, -1, "huge" },
		{ "", false, false, false, 1, -1, -1, "" },
	};
	struct subject_tags set;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct subject_tags st;
		const char *s = t[i].subject;

		series_parse_subject(&st, s);
		ok(st.is_patch == t[i].patch && st.is_reply == t[i].reply &&
		   st.rfc == t[i].rfc && st.version == t[i].version &&
		   st.index == t[i].index && st.total == t[i].total &&
		   !strcmp(s + st.title_off, t[i].title),
		   "subject '%s'", s);
		if (!(st.is_patch == t[i].patch && st.is_reply == t[i].reply &&
		      st.rfc == t[i].rfc && st.version == t[i].version &&
		      st.index == t[i].index && st.total == t[i].total))
			printf("#   got patch=%d reply=%d rfc=%d v%d %d/%d title '%s'\n",
			       st.is_patch, st.is_reply, st.rfc, st.version, st.index,
			       st.total, s + st.title_off);
	}
	/* Darrick Wong's covers: set 3 of 9, not patch 3/9 (issue 27). */
	series_parse_subject(&set, "[PATCHSET v7 3/9] fuse: cache iomap mappings");
	ok(set.patchset && set.is_patch && set.version == 7 && set.index == 3,
	   "[PATCHSET v7 3/9] says it is a set, v7");
	series_parse_subject(&set, "[PATCHBOMB v7] fuse: iomap");
	ok(set.patchset, "[PATCHBOMB v7] is a letter above sets");
	/* Issue 38.5: a made-up collection word is one too, not a patch
	 * b4 would be asked about. */
	series_parse_subject(&set, "[PATCHBLIZZARD v7] fuse: iomap and more");
	ok(set.patchset && set.is_patch && set.version == 7,
	   "[PATCHBLIZZARD v7] is a letter above sets, v7");
	series_parse_subject(&set, "[PATCHv3 1/2] fuse: one");
	ok(!set.patchset && set.version == 3, "[PATCHv3 1/2] is a version, no set");
	series_parse_subject(&set, "[PATCHES 1/2] fuse: one");
	ok(!set.patchset, "[PATCHES 1/2] is no set");
	series_parse_subject(&set, "[PATCH v7 3/9] fuse: one");
	ok(!set.patchset, "[PATCH v7 3/9] is no set");
}

static void test_format_patch_series(void)
{
	struct fixture f;
	char *d;

	is(fixture_build(&f, "series-v1.mbox", NULL), 0, "v1 series builds");
	is(f.s.nr, 3, "v1: three patches");
	if (f.s.nr != 3)
		goto out;
	ok(f.s.cover == &f.l.v[0], "v1: cover letter found");
	is_str(f.s.subject, "[PATCH 0/3] foo: parent checks", "v1: series subject is the cover's");
	is_str(f.s.message_id, "cover.1796285251.git.joerg@example.org", "v1: series message-id is the cover's");
	is(f.s.version, 1, "v1: version 1");
	is(f.s.versions_nr, 1, "v1: one version seen");
	ok(!f.s.rfc, "v1: not RFC");
	is_str(f.s.base_commit, "9887b2b9cabb8b00b2279d6ebca4599bf1397101", "v1: base-commit from the cover letter");
	for (int i = 0; i < 3; i++) {
		is(f.s.patches[i].index, i + 1, "v1: patch %d in order", i + 1);
		is(f.s.patches[i].total, 3, "v1: patch %d of 3", i + 1);
		ok(starts_with(f.s.patches[i].diff, "diff --git a/drivers/foo/"), "v1: patch %d diff starts at diff --git", i + 1);
		ok(f.s.patches[i].mail == &f.l.v[i + 1], "v1: patch %d mail", i + 1);
	}
	is_str(f.s.patches[0].title, "foo: assert the parent exists", "v1: title without tags");
	is_str(f.s.patches[1].author, "Ann Author <ann@example.org>", "v1: author from From:");
	d = diff_text(&f.s.patches[1]);
	ok(ends_with(d, "@@ -1,3 +1,2 @@\n Notes\n-- \n - item\n"),
	   "v1: a removed '- ' line inside a hunk does not end the diff");
	ok(!strstr(d, "2.39.5"), "v1: the signature is not in the diff");
	free(d);
	d = diff_text(&f.s.patches[0]);
	ok(strstr(d, "+\tBUG_ON(!dev->parent);\n") != NULL, "v1: patch 1 diff holds the added line");
	ok(!strstr(d, "Signed-off-by"), "v1: commit message not in the diff");
	free(d);
out:
	fixture_release(&f);
}

static void test_versions(void)
{
	struct fixture f;

	is(fixture_build(&f, "series-v1-v2.mbox", NULL), 0, "v1 + v2 mbox builds");
	is(f.s.version, 2, "v1+v2: the newest version kept");
	is(f.s.versions_nr, 2, "v1+v2: two versions seen");
	if (f.s.versions_nr == 2)
		ok(f.s.versions[0] == 1 && f.s.versions[1] == 2, "v1+v2: versions 1 and 2, ascending");
	is(f.s.nr, 3, "v1+v2: three patches, not six");
	if (f.s.nr == 3) {
		is_str(f.s.subject, "[PATCH net-next v2 0/3] foo: parent checks", "v1+v2: v2 cover subject");
		ok(f.s.cover == &f.l.v[4], "v1+v2: the v2 cover letter");
		is_str(f.s.patches[0].author, "J\xc3\xb6rg R\xc3\xb6" "del <joerg@example.org>",
		       "v1+v2: in-body From: overrides the sender");
		is_str(f.s.patches[1].author, "Ann Author <ann@example.org>",
		       "v1+v2: in-body From: of the second author");
		is_str(f.s.patches[2].message_id,
		       "0d821067774a8c2465cf1dc62f196ecc681865c4.1796285999.git.joerg@example.org",
		       "v1+v2: patch message-id of v2");
		ok(f.s.patches[0].mail == &f.l.v[5], "v1+v2: patch 1 is v2's");
	}
	fixture_release(&f);
}

static void test_b4(void)
{
	struct fixture f;

	is(fixture_build(&f, "b4-series.mbx", NULL), 0, "b4 .mbx builds");
	is(f.s.nr, 3, "b4: three patches");
	ok(!f.s.cover, "b4: no cover letter in the .mbx");
	is_str(f.s.subject, "[PATCH v2 1/3] foo: assert the parent exists", "b4: series subject is patch 1's");
	is_str(f.s.message_id, "fa3e1f5bb52d75933ac74e463e0b9d1ac2eddcdc.1796285999.git.joerg@example.org",
	       "b4: series message-id is patch 1's");
	ok(f.s.base_commit == NULL, "b4: no base-commit");
	fixture_release(&f);

	is(fixture_build(&f, "b4-incomplete.mbx", NULL), WW_EINPUT, "b4 'Thread incomplete!' .mbx: WW_EINPUT");
	is_str(error_last(), "series incomplete: missing patch 1/3", "b4 incomplete: names the missing patch");
	fixture_release(&f);

	is(fixture_build(&f, "b4-series.cover", NULL), WW_ENOTFOUND, "a cover letter alone: WW_ENOTFOUND");
	is_str(error_last(), "no patches found", "cover alone: message");
	fixture_release(&f);
}

static void test_public_inbox(void)
{
	struct fixture f;

	is(fixture_build(&f, "public-inbox-thread.mbox", NULL), 0,
	   "public-inbox t.mbox.gz thread (mboxrd, with a review reply) builds");
	is(f.l.nr, 5, "public-inbox: five messages");
	is(f.s.nr, 3, "public-inbox: three patches, the reply skipped");
	ok(f.s.cover == &f.l.v[0], "public-inbox: cover letter");
	is(f.s.version, 2, "public-inbox: v2");
	if (f.s.nr == 3) {
		ok(starts_with(f.s.patches[0].mail->body, "From: J"),
		   "public-inbox: in-body From: first in patch 1");
		ok(strstr(f.s.patches[0].mail->body, "\n\nFrom the datasheet") != NULL,
		   "public-inbox: >From unquoted");
	}
	if (f.l.nr == 5)
		ok(strstr(f.l.v[4].body, "\nFrom the coding style") != NULL,
		   "public-inbox: >From unquoted in the reply");
	fixture_release(&f);

	is(fixture_build(&f, "public-inbox-raw.eml", NULL), 0, "public-inbox /raw builds");
	is(f.s.nr, 1, "public-inbox /raw: one patch");
	if (f.s.nr == 1) {
		is(f.s.patches[0].index, 1, "public-inbox /raw: patch 1/3");
		ok(strstr(f.s.patches[0].mail->body, "\n\nFrom the datasheet") != NULL,
		   "public-inbox /raw: >From unquoted");
	}
	fixture_release(&f);
}

static void test_single(void)
{
	struct fixture f;
	char *d;

	is(fixture_build(&f, "seed-001.eml", NULL), 0, "seed patch builds");
	is(f.s.nr, 1, "seed: one patch");
	if (f.s.nr == 1) {
		is(f.s.patches[0].index, 1, "seed: [PATCH] is patch 1");
		is(f.s.patches[0].total, 0, "seed: no total");
		is_str(f.s.patches[0].title, "Documentation: coding-style: don't encourage WARN*()", "seed: title");
		is_str(f.s.patches[0].author, "Alex Elder <elder@linaro.org>", "seed: author");
		d = diff_text(&f.s.patches[0]);
		ok(starts_with(d, "diff --git a/Documentation/process/coding-style.rst"), "seed: diff start");
		ok(ends_with(d, " Use BUILD_BUG_ON() for compile-time assertions\n"
			     " **********************************************\n"), "seed: diff ends before '-- '");
		free(d);
	}
	fixture_release(&f);

	is(fixture_build(&f, "single-2of3.patch", NULL), 0, "[PATCH v2 2/3] alone may be checked");
	is(f.s.nr, 1, "2/3 alone: one patch");
	if (f.s.nr == 1) {
		is(f.s.patches[0].index, 2, "2/3 alone: index 2");
		is(f.s.patches[0].total, 3, "2/3 alone: total 3");
		is(f.s.version, 2, "2/3 alone: version 2");
	}
	fixture_release(&f);
}

#define HDR(subject) "From x Thu Jan  1 00:00:00 1970\nFrom: A <a@x>\nSubject: " subject "\n"
#define DIFF "diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1,2 @@\n a\n+\tBUG_ON(x);\n"

static void test_replies(void)
{
	struct fixture f;
	const char *reply =
		HDR("Re: [PATCH 1/1] x: y") "In-Reply-To: <p1@x>\n\n"
		"On Mon, A wrote:\n> diff --git a/x.c b/x.c\n> --- a/x.c\n> +++ b/x.c\n"
		"> @@ -1 +1,2 @@\n> +  BUG_ON(x);\n\nPlease don't.\n\n";
	const char *noreply =
		HDR("[PATCH 1/1] x: y (quoted without Re:)") "\n"
		"> diff --git a/x.c b/x.c\n> --- a/x.c\n> +++ b/x.c\n> +  BUG_ON(x);\n\n";
	struct strbuf sb = STRBUF_INIT;

	is(fixture_build(&f, NULL, reply), WW_ENOTFOUND, "a review reply quoting a patch is no patch");
	fixture_release(&f);

	strbuf_addstr(&sb, HDR("[PATCH 1/1] x: y") "Message-ID: <p1@x>\n\n" DIFF "\n");
	strbuf_addstr(&sb, reply);
	is(fixture_build(&f, NULL, sb.buf), 0, "patch + reply builds");
	is(f.s.nr, 1, "patch + reply: the reply is skipped");
	fixture_release(&f);

	is(fixture_build(&f, NULL, noreply), 0, "quoted diff in a [PATCH 1/1] mail");
	if (f.s.nr == 1)
		is(f.s.patches[0].diff_len, 0, "quoted diff is no diff (empty patch 1/1)");
	fixture_release(&f);
	strbuf_release(&sb);
}

static void test_numbers(void)
{
	struct fixture f;

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 1/3] a") "\n" DIFF "\n"
			 HDR("[PATCH 2/3] b") "\n" DIFF "\n"
			 HDR("[PATCH 2/3] b again") "\n" DIFF "\n"
			 HDR("[PATCH 3/3] c") "\n" DIFF "\n"), WW_EINPUT, "duplicate number: WW_EINPUT");
	is_str(error_last(), "duplicate patch 2/3", "duplicate: message");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 0/3] cover") "\nblurb\n\n"
			 HDR("[PATCH 1/3] a") "\n" DIFF "\n"
			 HDR("[PATCH 3/3] c") "\n" DIFF "\n"), WW_EINPUT, "missing number: WW_EINPUT");
	is_str(error_last(), "series incomplete: missing patch 2/3", "missing: message");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 0/2] cover") "\nblurb\n\n"
			 HDR("[PATCH 2/2] b") "\n" DIFF "\n"), WW_EINPUT, "cover + 2/2: patch 1 missing");
	is_str(error_last(), "series incomplete: missing patch 1/2", "cover + 2/2: message");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 1/2] a") "\n" DIFF "\n"
			 HDR("[PATCH 2/3] b") "\n" DIFF "\n"), WW_EINPUT, "totals disagree: WW_EINPUT");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 0/2] cover") "\n\n"
			 HDR("[PATCH 0/2] cover again") "\n\n"
			 HDR("[PATCH 1/2] a") "\n" DIFF "\n"
			 HDR("[PATCH 2/2] b") "\n" DIFF "\n"), WW_EINPUT, "two cover letters: WW_EINPUT");
	is_str(error_last(), "duplicate patch 0/2", "two covers: message");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 3/2] a") "\n" DIFF "\n"), WW_EINPUT, "3/2: WW_EINPUT");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 2/2] b") "\n" DIFF "\n"
			 HDR("[PATCH 1/2] a") "\n" DIFF "\n"), 0, "patches out of order");
	if (f.s.nr == 2)
		ok(f.s.patches[0].index == 1 && !strcmp(f.s.patches[0].title, "a") &&
		   f.s.patches[1].index == 2, "out of order: sorted by index");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH] first") "\n" DIFF "\n"
			 HDR("[PATCH] second") "\n" DIFF "\n"), 0, "two unnumbered patches (cat *.patch)");
	if (f.s.nr == 2)
		ok(f.s.patches[0].index == 1 && !strcmp(f.s.patches[0].title, "first") &&
		   f.s.patches[1].index == 2 && !strcmp(f.s.patches[1].title, "second"),
		   "unnumbered: numbered in mail order");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 1/2] a") "\n" DIFF "\n"
			 HDR("[PATCH] b") "\n" DIFF "\n"), WW_EINPUT, "numbered and unnumbered mixed: WW_EINPUT");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 1/2] a") "Message-ID: <same@x>\n\n" DIFF "\n"
			 HDR("[PATCH 1/2] a") "Message-ID: <same@x>\n\n" DIFF "\n"
			 HDR("[PATCH 1/2] a") "Message-ID: <same@x>\n\n" DIFF "\n"
			 HDR("[PATCH 2/2] b") "\n" DIFF "\n"), 0, "the same message three times (cross-posted) is one");
	is(f.s.nr, 2, "cross-posted: two patches");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH 0/2] cover") "\nbase-commit: 0123456789abcdef0123456789abcdef01234567\n\n"
			 HDR("[PATCH 1/2] a") "\n" DIFF "\n"
			 HDR("[PATCH 2/2] empty") "\nNo diff here.\n\n"), 0, "a patch without diff is kept");
	if (f.s.nr == 2) {
		is(f.s.patches[1].diff_len, 0, "patch 2/2 without diff: diff_len 0");
		ok(f.s.patches[1].diff != NULL, "patch 2/2 without diff: diff not NULL");
	}
	is_str(f.s.base_commit, "0123456789abcdef0123456789abcdef01234567", "base-commit from the cover");
	fixture_release(&f);

	is(fixture_build(&f, NULL, HDR("[RFC] should we?") "\nDiscussion only.\n"), WW_ENOTFOUND,
	   "[RFC] discussion without diff: no patches");
	fixture_release(&f);
	is(fixture_build(&f, NULL, HDR("hello") "\nJust mail.\n"), WW_ENOTFOUND, "plain mail: no patches");
	is_str(error_last(), "no patches found", "plain mail: message");
	fixture_release(&f);
}

static void test_diff_styles(void)
{
	struct fixture f;
	char *d;

	is(fixture_build(&f, NULL,
			 HDR("[PATCH] quilt") "\nFix.\n\nSigned-off-by: A <a@x>\n---\n"
			 "Index: linux/mm/x.c\n"
			 "===================================================================\n"
			 "--- linux.orig/mm/x.c\n+++ linux/mm/x.c\n@@ -1 +1,2 @@\n a\n+\tWARN_ON(1);\n"), 0,
	   "quilt patch builds");
	if (f.s.nr == 1) {
		d = diff_text(&f.s.patches[0]);
		ok(starts_with(d, "Index: linux/mm/x.c\n===="), "quilt: diff starts at Index:");
		free(d);
	}
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH] diff -u") "\nFix.\n---\n x.c | 1 +\n\n"
			 "diff -ruN a/x.c b/x.c\n--- a/x.c\t2024-01-01\n+++ b/x.c\t2024-01-02\n"
			 "@@ -1 +1,2 @@\n a\n+\tWARN_ON(1);\n-- \nsig\n"), 0, "diff -u patch builds");
	if (f.s.nr == 1) {
		d = diff_text(&f.s.patches[0]);
		is_str(d, "--- a/x.c\t2024-01-01\n+++ b/x.c\t2024-01-02\n@@ -1 +1,2 @@\n a\n+\tWARN_ON(1);\n",
		       "diff -u: from --- to the signature");
		free(d);
	}
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH] base") "\nFix.\n---\n" DIFF "\nbase-commit: abcdef1\n-- \n2.40\n"), 0,
	   "patch with base-commit after the diff");
	if (f.s.nr == 1) {
		d = diff_text(&f.s.patches[0]);
		ok(ends_with(d, "+\tBUG_ON(x);\n\n"), "base-commit: not in the diff");
		free(d);
		is_str(f.s.base_commit, "abcdef1", "base-commit from a patch");
	}
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH] base tag") "\nFix.\n---\n" DIFF "\nbase-commit: v6.1\n-- \n2.40\n"), 0,
	   "patch with a release tag as base-commit");
	if (f.s.nr == 1)
		is_str(f.s.base_commit, "v6.1", "base-commit: v6.1 (a release, for kbase)");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH] commit message mentions --- and +++") "\n"
			 "The --- line\n+++ is here\n---\n" DIFF), 0, "'---' text in the commit message");
	if (f.s.nr == 1) {
		d = diff_text(&f.s.patches[0]);
		ok(starts_with(d, "diff --git"), "'---' text: only a '--- ' line followed by '+++ ' starts a diff");
		free(d);
	}
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 "From: A <a@x>\nSubject: [PATCH] attached\nMIME-Version: 1.0\n"
			 "Content-Type: multipart/mixed; boundary=BB\n\n"
			 "--BB\nContent-Type: text/plain\n\nSee attachment.\n"
			 "--BB\nContent-Type: text/x-patch; name=x.patch\nContent-Transfer-Encoding: base64\n\n"
			 "ZGlmZiAtLWdpdCBhL3guYyBiL3guYwotLS0gYS94LmMKKysrIGIveC5jCkBAIC0xICsxLDIg\n"
			 "QEAKIGEKKwlCVUdfT04oeCk7Cg==\n--BB--\n"), 0, "patch sent as an attachment");
	if (f.s.nr == 1) {
		d = diff_text(&f.s.patches[0]);
		is_str(d, DIFF, "attachment: the decoded diff");
		free(d);
	}
	fixture_release(&f);

	is(fixture_build(&f, NULL, HDR("mm: fix (format-patch -k)") "\nFix.\n---\n" DIFF), 0,
	   "a diff under a subject without tags");
	is(f.s.nr, 1, "no tags: still one patch");
	fixture_release(&f);

	is(fixture_build(&f, NULL,
			 HDR("[PATCH] other author") "\n\nFrom: =?UTF-8?q?J=C3=B6rg?= <j@x>\n"
			 "Date: Tue, 2 Jan 2024 00:00:00 +0000\n\nFix.\n---\n" DIFF), 0,
	   "in-body From: and Date:");
	if (f.s.nr == 1) {
		is_str(f.s.patches[0].author, "J\xc3\xb6rg <j@x>", "in-body From: decoded");
		is_str(f.s.patches[0].date, "Tue, 2 Jan 2024 00:00:00 +0000", "in-body Date:");
	}
	fixture_release(&f);
}

static void test_bare_diff(void)
{
	struct series s = SERIES_INIT;

	series_from_diff(&s, DIFF, strlen(DIFF), "x.diff");
	is(s.nr, 1, "bare diff: one patch");
	is(s.patches[0].index, 0, "bare diff: index 0");
	is(s.patches[0].diff_len, strlen(DIFF), "bare diff: the whole text");
	ok(s.patches[0].mail == NULL, "bare diff: no mail");
	ok(s.cover == NULL, "bare diff: no cover");
	is_str(s.subject, "x.diff", "bare diff: named after the input");
	series_release(&s);
	is(s.nr, 0, "series_release empties");
}

/* series_read(): every shape of input, sniffed in one place. */
static int read_str(struct series *s, const char *in)
{
	struct series init = SERIES_INIT;

	*s = init;
	return series_read(s, in, strlen(in), "in.patch");
}

static void test_read(void)
{
	struct series s;
	static const char saved[] =	/* a mail client's save: no From_ line */
		"From: A <a@example.org>\nSubject: [PATCH] x: y\n"
		"Message-ID: <r1@x>\n\n" DIFF;
	static const char quilt[] = "Fix the frob.\n\nSigned-off-by: A <a@x>\n---\n"
		"--- a/x.c\n+++ b/x.c\n@@ -1 +1,2 @@\n a\n+\tBUG_ON(x);\n";
	static const char reply[] = "From: B <b@x>\nSubject: Re: [PATCH] x: y\n"
		"In-Reply-To: <r1@x>\n\n> +\tBUG_ON(x);\n\nNo.\n";

	is(read_str(&s, " \n\t\r\n"), WW_EINPUT, "read: blank input is an error");
	is_str(error_last(), "empty input", "read: says empty");
	series_release(&s);
	is(read_str(&s, "just some prose\nand more\n"), WW_EINPUT,
	   "read: prose without a diff is an error");
	series_release(&s);
	is(read_str(&s, DIFF), 0, "read: a git diff");
	ok(s.nr == 1 && s.patches[0].index == 0, "read: a diff is one patch, index 0");
	is_str(s.subject, "in.patch", "read: named after the input");
	series_release(&s);
	{
		/* The series keeps its own copy: the caller's bytes may go. */
		char *heap = xstrdup(DIFF);

		is(series_read(&s, heap, strlen(heap), "heap.patch"), 0, "read: from a buffer");
		memset(heap, 'x', strlen(heap));
		free(heap);
		ok(s.nr == 1 && s.patches[0].diff_len == strlen(DIFF) &&
		   !memcmp(s.patches[0].diff, DIFF, strlen(DIFF)),
		   "read: the series owns the bytes its patch points into");
		series_release(&s);
		ok(s.raw.len == 0 && s.mails.nr == 0 && s.version == 1 && !s.nr,
		   "read: released, it is SERIES_INIT again");
	}
	is(read_str(&s, quilt), 0, "read: prose then a diff (quilt)");
	is(s.nr, 1, "read: quilt patch is one patch");
	series_release(&s);
	is(read_str(&s, saved), 0, "read: a saved message without a From_ line");
	ok(s.nr == 1 && s.patches[0].mail, "read: it is a mail patch");
	is_str(s.patches[0].message_id, "r1@x", "read: its Message-ID");
	series_release(&s);
	is(read_str(&s, reply), WW_ENOTFOUND, "read: a reply quoting a patch holds none");
	series_release(&s);
	error_clear();
}

/* series_source_of(): what an argument names, decided in one place. */
static void test_source(void)
{
	static const struct {
		const char *arg;
		enum series_source want;
	} table[] = {
		{ "-", SERIES_SOURCE_STDIN },
		{ "series.mbx", SERIES_SOURCE_FILE },
		{ "0001-x-fix.patch", SERIES_SOURCE_FILE },
		{ "20260105100000.1234-1-ada@example.org", SERIES_SOURCE_MSGID },
		{ "<20260105100000.1234-1-ada@example.org>", SERIES_SOURCE_MSGID },
		/* a path with an '@' is a path (a lore URL is not sniffed) */
		{ "mail/ada@example.org", SERIES_SOURCE_FILE },
		{ "https://lore.kernel.org/all/x@y/", SERIES_SOURCE_FILE },
		{ "--", SERIES_SOURCE_FILE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		is(series_source_of(table[i].arg), table[i].want, "source of '%s'",
		   table[i].arg);
}

struct fetched {
	int calls;
	const char *text;	/* b4 am's .mbx */
	const char *cover;	/* its cover letter, or NULL */
};

static int fake_fetch(struct mail_list *out, const char *msgid, void *data)
{
	struct fetched *f = data;

	f->calls++;
	if (!f->text)
		return error_code(WW_ENET, "cannot reach the archive for '%s'", msgid);
	if (mbox_parse(out, f->text, strlen(f->text)) < 0)
		return -1;
	return f->cover ? mbox_parse(out, f->cover, strlen(f->cover)) : 0;
}

static int load(struct series *s, const char *arg, unsigned flags, struct fetched *f)
{
	struct series init = SERIES_INIT;

	*s = init;
	return series_load(s, arg, flags, f ? fake_fetch : NULL, f);
}

/* series_load(): argument -> bytes -> series, errors naming the argument. */
static void test_load(void)
{
	static const char reply[] = "From: B <b@x>\nSubject: Re: [PATCH] x: y\n"
		"In-Reply-To: <r1@x>\n\n> +\tBUG_ON(x);\n\nNo.\n";
	char dir[] = "/tmp/t-series.XXXXXX";
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct fetched f = { 0, "From git@z Thu Jan  1 00:00:00 1970\nFrom: A <a@x>\n"
			     "Subject: [PATCH] x: y\nMessage-ID: <r1@x>\n\n" DIFF, NULL };
	struct series s;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	strbuf_addf(&path, "%s/none.mbox", dir);
	is(load(&s, path.buf, 0, &f), WW_ENOTFOUND, "load: missing file");
	ok(strstr(error_last(), "cannot open '") && strstr(error_last(), "none.mbox'"),
	   "load: the error names the file (%s)", error_last());
	series_release(&s);
	is(load(&s, dir, 0, &f), WW_EINPUT, "load: a directory");
	ok(strstr(error_last(), "is a directory") != NULL, "load: says so");
	series_release(&s);

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/x.diff", dir);
	strbuf_addstr(&text, DIFF);
	ok(strbuf_write_file(&text, path.buf) == 0, "load: wrote a diff");
	is(load(&s, path.buf, 0, &f), 0, "load: a diff file");
	ok(s.nr == 1 && s.patches[0].index == 0, "load: one bare patch");
	is(f.calls, 0, "load: a file is not fetched");
	series_release(&s);

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/reply.eml", dir);
	strbuf_reset(&text);
	strbuf_addstr(&text, reply);
	ok(strbuf_write_file(&text, path.buf) == 0, "load: wrote a reply");
	is(load(&s, path.buf, 0, &f), WW_ENOTFOUND, "load: a reply holds no patch");
	ok(strstr(error_last(), "reply.eml': no patches found") != NULL,
	   "load: that error names the file (%s)", error_last());
	series_release(&s);
	is(load(&s, path.buf, SERIES_LOAD_EMPTY_OK, &f), 0,
	   "load: EMPTY_OK: a reply is an empty series");
	is(s.nr, 0, "load: EMPTY_OK: no patches");
	is_str(error_last(), "", "load: EMPTY_OK: no error left behind");
	series_release(&s);

	is(load(&s, "r1@example.org", 0, &f), 0, "load: a Message-ID is fetched");
	is(f.calls, 1, "load: fetched once");
	is(s.nr, 1, "load: the fetched series");
	series_release(&s);
	/* b4 am's two pieces, each parsed as it is: the cover letter has no
	 * From_ line and comes after the patches, and still leads. */
	f.text = "From git@z Thu Jan  1 00:00:00 1970\nFrom: A <a@x>\n"
		 "Subject: [PATCH 1/1] x: y\nMessage-ID: <p1@x>\nIn-Reply-To: <c@x>\n\n" DIFF;
	f.cover = "From: A <a@x>\nSubject: [PATCH 0/1] x: the cover\nMessage-ID: <c@x>\n\n"
		  "Why.\n\nbase-commit: 9887b2b9cabb8b00b2279d6ebca4599bf1397101\n";
	is(load(&s, "c@example.org", 0, &f), 0, "load: b4's patches and cover letter");
	ok(s.nr == 1 && s.cover && s.mails.nr == 2, "load: one patch and the cover, owned");
	is_str(s.subject, "[PATCH 0/1] x: the cover", "load: the cover's subject");
	is_str(s.base_commit, "9887b2b9cabb8b00b2279d6ebca4599bf1397101",
	       "load: base-commit from the cover");
	is(s.raw.len, 0, "load: nothing joined into text");
	series_release(&s);
	f.cover = NULL;
	f.text = NULL;
	is(load(&s, "r1@example.org", 0, &f), WW_ENET,
	   "load: a fetch error is passed up unchanged");
	series_release(&s);
	is(load(&s, "r1@example.org", 0, NULL), WW_ENOTFOUND,
	   "load: without a fetcher a Message-ID is a file name");
	series_release(&s);
	error_clear();

	unlink(path.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/x.diff", dir);
	unlink(path.buf);
	rmdir(dir);
	strbuf_release(&path);
	strbuf_release(&text);
}

/*
 * check_result_paths(): the files as the check's parse read the headers.  An added
 * line "++ b/drivers/net/x.c" reads "+++ b/drivers/net/x.c" in the raw
 * text; it is hunk content, not a file (issue 22, the allow-paths bypass).
 */
static void test_paths(void)
{
	static const char in[] =
		"diff --git a/mm/slub.c b/mm/slub.c\n"
		"--- a/mm/slub.c\n"
		"+++ b/mm/slub.c\n"
		"@@ -1,2 +1,4 @@\n"
		" a\n"
		"+++ b/drivers/net/x.c\n"
		"+--- a/drivers/net/y.c\n"
		" b\n"
		"diff --git a/mm/old.c b/mm/old.c\n"
		"deleted file mode 100644\n"
		"--- a/mm/old.c\n"
		"+++ /dev/null\n"
		"@@ -1 +0,0 @@\n"
		"-gone\n"
		"diff --git a/mm/bad.c b/mm/bad.c\n"
		"--- a/mm/bad.c\n"
		"+++ b/mm/bad.c\n"
		"@@ -1,5 +1,5 @@\n"
		"-x\n"
		"+y\n"
		"diff --git a/mm/a.c b/mm/b.c\n"
		"similarity index 90%\n"
		"rename from mm/a.c\n"
		"rename to mm/b.c\n";
	struct series s;
	struct strvec paths = STRVEC_INIT;
	struct ruleset rs = RULESET_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts co = CHECK_OPTS_INIT;
	struct strbuf dir = STRBUF_INIT;
	const char *top = getenv("WW_TOP");
	int ret;

	strbuf_addf(&dir, "%s/rules", top && *top ? top : ".");
	ret = read_str(&s, in);
	is(ret, 0, "paths: diff read");
	is(rules_load(&rs, dir.buf), 0, "paths: rules");
	co.rules = &rs;
	is(check_series(&r, &s, &co), 0, "paths: checked");
	check_result_paths(&paths, &r);
	is(paths.nr, 4, "paths: one per file, none from hunk lines");
	if (paths.nr == 4) {
		is_str(paths.v[0], "mm/slub.c", "paths: a modified file");
		is_str(paths.v[1], "mm/old.c", "paths: a deletion by its old name");
		is_str(paths.v[2], "mm/bad.c", "paths: a damaged hunk keeps its file");
		is_str(paths.v[3], "mm/b.c", "paths: a rename by its new name");
	}
	for (size_t i = 0; i < paths.nr; i++)
		ok(strncmp(paths.v[i], "drivers/", 8), "paths: '%s' is no added line",
		   paths.v[i]);
	strvec_clear(&paths);
	check_result_clear(&r);
	ruleset_release(&rs);
	strbuf_release(&dir);
	series_release(&s);
}

/* A series the service grouped from its thread (issue 27): a PATCHSET
 * cover, patches that spell no version, disagree on the count and lack
 * 2/3 (it went to another list only). */
static void test_grouped(void)
{
	static const char mbx[] =
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: D <d@x>\nSubject: [PATCHSET v7 3/9] fuse: iomap\n"
		"Message-ID: <c@x>\n\nWith a bit of luck.\n\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: D <d@x>\nSubject: [PATCH 1/3] fuse: one\n"
		"Message-ID: <p1@x>\n\none\n---\n"
		"diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1,2 @@\n x\n+y\n\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: D <d@x>\nSubject: [PATCH 3/4] fuse: three\n"
		"Message-ID: <p3@x>\n\nthree\n---\n"
		"diff --git a/b.c b/b.c\n--- a/b.c\n+++ b/b.c\n@@ -1 +1,2 @@\n x\n+z\n";
	struct mail_list l = MAIL_LIST_INIT;
	struct series a = SERIES_INIT, b = SERIES_INIT;

	is(mbox_parse(&l, mbx, sizeof(mbx) - 1), 0, "grouped: parses");
	ok(series_from_mails(&a, &l) < 0 || a.nr != 2 || !a.cover,
	   "grouped: read strictly, it is not this series");
	error_clear();
	is(series_from_mails_flags(&b, &l, SERIES_GROUPED), 0,
	   "grouped: what is there is reviewed");
	is(b.nr, 2, "  patches 1 and 3");
	is(b.version, 7, "  v7, the cover's");
	ok(b.cover && !strcmp(b.cover->message_id, "c@x"), "  the PATCHSET is the cover");
	series_release(&a);
	series_release(&b);
	mail_list_clear(&l);
}

int main(void)
{
	test_subjects();
	test_format_patch_series();
	test_versions();
	test_b4();
	test_public_inbox();
	test_single();
	test_replies();
	test_numbers();
	test_diff_styles();
	test_bare_diff();
	test_read();
	test_source();
	test_load();
	test_paths();
	test_grouped();
	return done_testing();
}
