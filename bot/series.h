/*
 * A patch series: the messages of an mbox that carry patches (and the
 * cover letter), recognised by their subject tags ([PATCH v2 3/5],
 * [RFC PATCH], [PATCH net-next 0/2]) and put in order.  Review replies
 * that quote a patch are not patches.
 */
#ifndef WW_SERIES_H
#define WW_SERIES_H

#include "mbox.h"

struct series_patch {
	int index;		/* 1-based position in the series; 0 for a bare diff */
	int total;		/* n of m/n as the subject says (0 if none) */
	char *subject;		/* full decoded subject, tags included */
	char *title;		/* subject without the [..] tags */
	char *message_id;
	char *author;		/* From: as decoded ("Name <addr>") */
	char *date;
	const char *diff;	/* the diff text inside the body (borrowed from mail) */
	size_t diff_len;
	const struct mail *mail; /* borrowed from the mail_list */
};

struct series {
	char *subject;		/* the cover letter's subject, or the first patch's */
	char *message_id;	/* the cover letter's, or the first patch's */
	int version;		/* vN, 1 when absent */
	bool rfc;
	char *base_commit;	/* from "base-commit: <sha>", or NULL */
	const struct mail *cover; /* 0/n, or NULL (borrowed) */
	struct series_patch *patches;
	size_t nr;
	size_t alloc;
	/* Every vN found in the input, ascending (b4 mbox returns all
	 * versions of a series; only the newest is kept in `patches`). */
	int *versions;
	size_t versions_nr;
};

#define SERIES_INIT { NULL, NULL, 1, false, NULL, NULL, NULL, 0, 0, NULL, 0 }

/* What a subject line's tags say. */
struct subject_tags {
	bool is_patch;		/* has a [PATCH...] / [RFC...] tag */
	bool is_reply;		/* starts with Re: / Aw: */
	bool rfc;
	int version;		/* 1 when absent */
	int index;		/* -1 when absent */
	int total;		/* -1 when absent */
	size_t title_off;	/* where the title starts after the tags */
};

void series_parse_subject(struct subject_tags *out, const char *subject);

/*
 * Build the series from the messages in `mails` (which must outlive it).
 * Messages that are neither patches nor the cover letter are skipped.
 * Duplicate or missing patch numbers: WW_EINPUT naming them.  No patch at
 * all: WW_ENOTFOUND ("no patches found").
 */
int series_from_mails(struct series *out, const struct mail_list *mails);

/* A bare diff (not mail) as a one-patch series with index 0. */
void series_from_diff(struct series *out, const char *diff, size_t len,
		      const char *name);

void series_release(struct series *s);

#endif
