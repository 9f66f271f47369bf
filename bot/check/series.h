/*
 * A patch series: the messages of an mbox that carry patches (and the
 * cover letter), recognised by their subject tags ([PATCH v2 3/5],
 * [RFC PATCH], [PATCH net-next 0/2]) and put in order.  Review replies
 * that quote a patch are not patches.
 */
#ifndef WW_SERIES_H
#define WW_SERIES_H

#include "mbox.h"
#include "strbuf.h"
#include "strvec.h"

struct series_patch {
	/* 1-based position in the series; 0 for a bare diff.  Patches
	 * without n/m ("[PATCH] a", "[PATCH] b") are numbered in mail order. */
	int index;
	int total;		/* n of m/n as the subject says (0 if none) */
	char *subject;		/* full decoded subject, tags included */
	char *title;		/* subject without the [..] tags */
	char *message_id;
	/* From: as decoded ("Name <addr>"), or the "From:" line format-patch
	 * puts first in the body when the author is not the sender. */
	char *author;
	char *date;		/* Date:, or the in-body "Date:" line */
	/* The diff text inside the body (borrowed from mail): from the first
	 * "diff --git " / "--- "+"+++ " / quilt "Index: " line to the "-- "
	 * signature.  Never NULL; diff_len 0 for a patch without a diff. */
	const char *diff;
	size_t diff_len;
	const struct mail *mail; /* borrowed from the mail_list */
	/* A commit's message (check --git, -g; borrowed), where its trailers
	 * are (accept.h); NULL for mail (its body holds the message). */
	const char *log;
	size_t log_len;
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
	/*
	 * What the patches borrow, when the series owns it: the bytes read
	 * (series_load(), series_read(); a bare diff points into them) and
	 * the mails parsed from them.  Empty when series_from_mails() made
	 * the series of a caller's list.  One object, so that the three
	 * live and die together: series_release() frees all of it.
	 */
	struct mail_list mails;
	struct strbuf raw;
};

#define SERIES_INIT { .version = 1, .mails = MAIL_LIST_INIT, .raw = STRBUF_INIT }

/* What a subject line's tags say. */
struct subject_tags {
	bool is_patch;		/* has a [PATCH...] / [RFC...] tag, and is no reply */
	bool is_reply;		/* starts with Re: / Aw: / Fwd: (also after a [list]
				 * tag); the other fields still say what the
				 * replied-to patch was */
	bool rfc;
	bool patchset;		/* [PATCHSET ...], [PATCHBOMB ...], any
				 * [PATCH<word> ...] (PATCHBLIZZARD): a cover
				 * letter, whatever its m/n (one of several
				 * sets sent together, or the letter above
				 * them) */
	int version;		/* 1 when absent */
	int index;		/* -1 when absent */
	int total;		/* -1 when absent */
	size_t title_off;	/* where the title starts after the tags */
};

void series_parse_subject(struct subject_tags *out, const char *subject);

/*
 * Build the series from the messages in `mails` (which must outlive it;
 * it may be out->mails, which the series then owns).
 * Messages that are neither patches nor the cover letter are skipped
 * (replies, discussion); when no message has a [PATCH] tag, a non-reply
 * message with a diff counts.  Of several versions, the newest is kept
 * (all seen are in out->versions).  The same Message-ID twice counts once.
 * Duplicate or missing patch numbers: WW_EINPUT naming them ("duplicate
 * patch 2/3", "series incomplete: missing patch 2/3"); one numbered patch
 * alone is fine.  No patch at all: WW_ENOTFOUND ("no patches found").
 * `out` must be SERIES_INIT; series_release() it on success and failure.
 */
int series_from_mails(struct series *out, const struct mail_list *mails);

enum series_flags {
	/*
	 * `mails` are one series already grouped from its thread (the
	 * service's group.h): a [PATCHSET] is its cover, members that spell
	 * no version are the series' version, and counts that disagree or
	 * patches missing (another list had them) are not errors.
	 */
	SERIES_GROUPED = 1 << 0,
};

/* series_from_mails() with `flags` (enum series_flags). */
int series_from_mails_flags(struct series *out, const struct mail_list *mails,
			    unsigned int flags);

/* A bare diff (not mail) as a one-patch series with index 0. */
void series_from_diff(struct series *out, const char *diff, size_t len,
		      const char *name);

/*
 * The one way into a series from bytes (a file, stdin, b4's output): an
 * mbox, a single saved message (no From_ line: a mail client's "save",
 * public-inbox's /raw), or a diff (git, quilt with prose in front,
 * diff -u).  `name` names the input in the series of a bare diff.
 * Empty input or prose without a diff: WW_EINPUT.  Mail that carries no
 * patch (a review reply): WW_ENOTFOUND ("no patches found"), which a
 * caller that only looks for problems may take as nothing to report.
 * The series keeps a copy of `buf` and the mails it borrows (out->raw,
 * out->mails); series_release() it, on success and failure.
 */
int series_read(struct series *out, const char *buf, size_t len, const char *name);

/* What a command-line argument naming a series is. */
enum series_source {
	SERIES_SOURCE_STDIN,	/* "-" */
	SERIES_SOURCE_FILE,	/* a path: an mbox, a saved message, a diff */
	SERIES_SOURCE_MSGID,	/* "id@host" or "<id@host>": an '@', no '/',
				 * and no file of that name */
};

enum series_source series_source_of(const char *arg);

/*
 * Fetch the series a Message-ID belongs to (b4, for `ci`): its messages
 * appended to `out`, each piece the fetcher got parsed on its own
 * (mbox_parse()), never joined into one text to be split again.
 * Returns 0 or a negative WW_E* code.
 */
typedef int (*series_fetch_fn)(struct mail_list *out, const char *msgid, void *data);

/* series_load() flags */
enum series_load_flags {
	/* Mail that carries no patch (a review reply) is an empty series,
	 * not WW_ENOTFOUND: for a caller that only looks for problems. */
	SERIES_LOAD_EMPTY_OK = 1u << 0,
	/* out->raw holds the bytes of `arg` already (stdin the caller had
	 * to look at first, moved in with strbuf_swap()): not read again. */
	SERIES_LOAD_HAVE_BUF = 1u << 1,
};

/*
 * The one way from a command-line argument to a series: series_source_of()
 * says what `arg` names; stdin and files are read into out->raw (capped
 * at MBOX_MAX_BYTES) and made a series as series_read() makes it, a
 * Message-ID is fetched with `fetch` (NULL: read as a file name) into
 * out->mails; the series owns the bytes and the mails.  Errors name `arg`: "cannot open
 * 'x': No such file or directory" (WW_ENOTFOUND), "'x': is a directory",
 * "'x': no patches found" (WW_ENOTFOUND).  The caller series_release()s
 * `out` (SERIES_INIT), on success and failure.
 */
int series_load(struct series *out, const char *arg, unsigned flags,
		series_fetch_fn fetch, void *data);

/* The "base-commit: <hex>" trailer of a mail body (a cover letter's), as
 * a new string, or NULL. */
char *series_base_commit(const char *body, size_t len);


void series_release(struct series *s);

#endif
