/*
 * Choosing a series from its thread as the archive has it (group.h), on
 * threads shaped like linux-ext4's: PATCHSET covers sent together in one
 * thread, an untagged cover, a patch that went to another list only,
 * counts that disagree.
 */
#include "group.h"
#include "tap.h"

/* One message of a b4 mbox thread (public-inbox mboxrd). */
static void msg(struct strbuf *t, const char *mid, const char *parent,
		const char *subject, const char *body)
{
	strbuf_addf(t, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		    "From: Dev <dev@example.org>\nSubject: %s\n"
		    "Message-ID: <%s>\n", subject, mid);
	if (*parent)
		strbuf_addf(t, "In-Reply-To: <%s>\nReferences: <%s>\n", parent, parent);
	strbuf_addf(t, "\n%s\n", body);
}

/* The Message-IDs chosen from `thread` for `seed`, "a b c"; the missing
 * patches into `missing`.  The return of group_select(). */
static int pick(struct strbuf *ids, struct strbuf *missing,
		const struct strbuf *thread, const char *seed)
{
	struct mail_list mails = MAIL_LIST_INIT, chosen = MAIL_LIST_INIT;
	struct strbuf sel = STRBUF_INIT;
	struct strvec seeds = STRVEC_INIT;
	int ret;

	strbuf_reset(ids);
	strbuf_reset(missing);
	strvec_push(&seeds, seed);
	ret = mbox_parse(&mails, thread->buf, thread->len);
	if (!ret)
		ret = group_select(&sel, missing, thread->buf, thread->len, &mails,
				   &seeds);
	if (ret >= 0 && sel.len && mbox_parse(&chosen, sel.buf, sel.len) < 0)
		ret = -1;
	for (size_t i = 0; i < chosen.nr; i++)
		strbuf_addf(ids, "%s%s", i ? " " : "", chosen.v[i].message_id);
	mail_list_clear(&mails);
	mail_list_clear(&chosen);
	strbuf_release(&sel);
	strvec_clear(&seeds);
	return ret;
}

int main(void)
{
	struct strbuf t = STRBUF_INIT, ids = STRBUF_INIT, missing = STRBUF_INIT;
	const char *diff = "---\n fs/x.c | 1 +\n\ndiff --git a/fs/x.c b/fs/x.c\n";

	/* Darrick's patchbomb: two PATCHSET v7 covers in one thread, each
	 * with its own [PATCH m/n] that spell no version. */
	msg(&t, "bomb@k", "", "[PATCHBOMB v7] fuse: iomap", "the plan");
	msg(&t, "set3@k", "bomb@k", "[PATCHSET v7 3/9] fuse: cache iomaps", "hi");
	msg(&t, "set3-1@k", "set3@k", "[PATCH 1/2] fuse: cache", diff);
	msg(&t, "set3-2@k", "set3@k", "[PATCH 2/2] fuse: invalidate", diff);
	msg(&t, "set4@k", "bomb@k", "[PATCHSET v7 4/9] fuse: direct io", "hi");
	msg(&t, "set4-1@k", "set4@k", "[PATCH 1/2] fuse: dio read", diff);
	msg(&t, "set4-2@k", "set4@k", "[PATCH 2/2] fuse: dio write", diff);
	msg(&t, "rev@k", "set3-1@k", "Re: [PATCH 1/2] fuse: cache", "> hunk\nok");
	is(pick(&ids, &missing, &t, "set3@k"), 2, "PATCHSET thread: two patches chosen");
	is_str(ids.buf, "set3@k set3-1@k set3-2@k",
	       "  set 3's cover and its two patches, not set 4's nor the review");
	is_str(missing.buf, "", "  nothing missing");
	is(pick(&ids, &missing, &t, "bomb@k"), 0, "the [PATCHBOMB] above the sets: no patch");
	is_str(ids.buf, "bomb@k", "  only itself");
	{
		struct mail_list mails = MAIL_LIST_INIT;

		mbox_parse(&mails, t.buf, t.len);
		is(group_sets_under(&mails, "bomb@k"), 2, "38.5: two sets under the PATCHBOMB");
		is(group_sets_under(&mails, "set3@k"), 0, "  none under a set");
		mail_list_clear(&mails);
	}
	/* Issue 38.5: ext4's [PATCHBLIZZARD v7], and an untagged letter whose
	 * replies are covers: covers of covers, nothing for b4. */
	strbuf_reset(&t);
	msg(&t, "bliz@k", "", "[PATCHBLIZZARD v7] fuse: iomap and more", "the plan");
	msg(&t, "bset1@k", "bliz@k", "[PATCHSET v7 1/2] fuse: cache", "hi");
	msg(&t, "bset1-1@k", "bset1@k", "[PATCH 1/1] fuse: cache", diff);
	msg(&t, "bset2@k", "bliz@k", "[PATCH v7 0/1] fuse: dio", "hi");
	msg(&t, "bset2-1@k", "bset2@k", "[PATCH v7 1/1] fuse: dio read", diff);
	is(pick(&ids, &missing, &t, "bliz@k"), 0, "38.5: the [PATCHBLIZZARD v7] letter: no patch");
	is_str(ids.buf, "bliz@k", "  only itself");
	{
		struct mail_list mails = MAIL_LIST_INIT;

		mbox_parse(&mails, t.buf, t.len);
		is(group_sets_under(&mails, "bliz@k"), 2,
		   "  a cover of two covers (a PATCHSET and a 0/1)");
		mail_list_clear(&mails);
	}
	is(pick(&ids, &missing, &t, "bset2@k"), 1, "  the 0/1 under it is a series");

	/* hch's untagged cover; patch 2/3 went to another list only. */
	strbuf_reset(&t);
	msg(&t, "hch0@l", "", "fsverity: support larger folios v4", "---\n 3 files\n");
	msg(&t, "hch1@l", "hch0@l", "[PATCH v4 1/3] fsverity: one", diff);
	msg(&t, "hch3@l", "hch0@l", "[PATCH v4 3/3] fsverity: three", diff);
	msg(&t, "hch-old@l", "hch0@l", "[PATCH v3 0/3] fsverity: the old cover", "x");
	is(pick(&ids, &missing, &t, "hch0@l"), 2, "untagged cover: two patches chosen");
	is_str(ids.buf, "hch0@l hch1@l hch3@l", "  the cover and the patches there");
	is_str(missing.buf, "[2/3]", "  says which patch is missing");

	/* Counts that disagree, chained; a pasted From line stays. */
	strbuf_reset(&t);
	msg(&t, "c1@x", "", "[PATCH 1/3] jbd2: one",
	    "see\n\n>From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
	    "From: Old <old@x>\n");
	msg(&t, "c2@x", "c1@x", "[PATCH 2/3] jbd2: two", diff);
	msg(&t, "c3@x", "c2@x", "[PATCH 3/4] jbd2: three", diff);
	msg(&t, "n1@x", "c3@x", "[PATCH v2 1/3] jbd2: a v2 in reply", diff);
	is(pick(&ids, &missing, &t, "c1@x"), 3, "chained, disagreeing counts: three chosen");
	is_str(ids.buf, "c1@x c2@x c3@x", "  1/3 2/3 3/4, not the v2 answering them");
	is_str(missing.buf, "", "  complete");

	/* A review that kept the patch's subject answers its patch. */
	msg(&t, "echo@x", "c2@x", "[PATCH 2/3] jbd2: two", "> hunk\nplease don't");
	{
		struct mail_list mails = MAIL_LIST_INIT;

		mbox_parse(&mails, t.buf, t.len);
		ok(group_echo(&mails, "echo@x") >= 0 &&
		   !strcmp(mails.v[group_echo(&mails, "echo@x")].message_id, "c2@x"),
		   "a review keeping the subject is an echo of its patch");
		is(group_echo(&mails, "c2@x"), -1, "  a patch is none");
		mail_list_clear(&mails);
	}

	is(pick(&ids, &missing, &t, "nowhere@x"), WW_ENOTFOUND,
	   "a seed not in the thread: WW_ENOTFOUND");
	error_clear();

	strbuf_release(&t);
	strbuf_release(&ids);
	strbuf_release(&missing);
	return done_testing();
}
