/*
 * How the service groups a list's mail into series, as b4 does
 * (b4's LoreMailbox): the thread is built from In-Reply-To, the cover
 * letter or the first patch is the root, and a series' version comes from
 * the cover or from its patches, whichever spells it.  These are the
 * rules; queue.c keeps the messages and applies them.
 *
 * Real covers come in more shapes than [PATCH 0/n]: [PATCHSET v7 3/9]
 * (one of nine sets, its patches say only [PATCH 1/2]), and covers with
 * no tag at all, whose patches answer them.  Patches may disagree on the
 * series length ([PATCH 3/4] after 1/3 and 2/3).
 */
#ifndef WW_GROUP_H
#define WW_GROUP_H

#include "series.h"
#include "mbox.h"
#include "strvec.h"

enum group_kind {
	GROUP_OTHER,	/* no tag, no Re: (a cover if patches answer it) */
	GROUP_REPLY,	/* Re:, Fwd: ... : discussion */
	GROUP_COVER,	/* [PATCH 0/n], [PATCHSET ...] */
	GROUP_PATCH,	/* [PATCH], [PATCH m/n] with m >= 1 */
};

/* What a message is, from its subject's tags. */
enum group_kind group_kind(const struct subject_tags *t);

/* A message as grouping sees it: its kind and the tags it spelled. */
struct group_msg {
	enum group_kind kind;
	int version;	/* as spelled; 1 when absent */
	int idx;	/* m of m/n; 0 for a cover; 1 for a lone patch */
	int total;	/* n of m/n; 1 for a lone patch */
};

/*
 * Whether patch `p` belongs to the series of `parent`, the message it
 * answers.  Under a cover (tagged or not) it does unless both spell
 * different versions: [PATCH 1/2] under [PATCHSET v7 3/9] is v7; under a
 * message without a tag, only a numbered patch (m/n, n > 1) does: a lone
 * [PATCH] answering a bug report is a series of its own.  Under
 * another patch it does when both spell the same version and it is not
 * a new first patch (a v2 answering v1's patch is a series of its own);
 * the counts need not agree.
 */
bool group_joins(const struct group_msg *p, const struct group_msg *parent);

/*
 * The length of a series whose patches say `min_total` (the smallest n
 * of their m/n, 0 none) and whose highest m is `max_idx`: patches that
 * disagree count as complete once 1..this are there.
 */
int group_total(int min_total, int max_idx);

/*
 * The series that `seeds` (Message-IDs: its root, and the members the
 * queue knows) belong to, chosen from `mails`, the thread parsed from
 * `raw` as the archive has it: every seed, and every patch that joins a
 * chosen message it answers (In-Reply-To, else the last of References)
 * by group_joins().  Their text, each with its From_ line, is appended
 * to `out` (an mbox for b4's offline mode); the patches missing from
 * 1..group_total() to `missing` ("[3/5]", comma separated; empty when
 * none).  The number of patches chosen (0: only covers, such as a
 * [PATCHBOMB] above its sets), or WW_ENOTFOUND when no seed is in the
 * thread.
 */
int group_select(struct strbuf *out, struct strbuf *missing, const char *raw,
		 size_t len, const struct mail_list *mails,
		 const struct strvec *seeds);

/*
 * Whether the message `mid` of `mails` answers a message with the same
 * subject (a review that kept "[PATCH 1/2] ..." without "Re:"): the
 * index of that parent, or -1.  Such a message looks like a new first
 * patch but belongs to its parent's series.
 */
long group_echo(const struct mail_list *mails, const char *mid);

/*
 * How many covers of `mails` answer the message `mid`: a [PATCHBLIZZARD]
 * or [PATCHBOMB] letter, or any cover whose replies are covers, is a
 * cover of patchsets, each of which is a series of its own.
 */
size_t group_sets_under(const struct mail_list *mails, const char *mid);

#endif
