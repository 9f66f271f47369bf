/*
 * Following a list through its public-inbox git epochs, losslessly: each
 * poll fetches the newest epoch read so far (ARCHIVE/INBOX/git/N.git,
 * libgit2 over HTTP, into STATE/epochs/LIST/N.git), reads every commit
 * after the last one read -- one message each -- into the queue, saving
 * the position after each, and once the epoch brings nothing new, asks
 * whether epoch N+1 exists (public-inbox starts one when an epoch reaches
 * its size limit) and goes on there.  An archive that serves no epoch is
 * polled through its feed instead (serve.c).
 */
#ifndef WW_FOLLOW_H
#define WW_FOLLOW_H

#include "archive.h"
#include "queue.h"

/* What the first read of a list takes: as many of its newest messages
 * as the Atom feed shows. */
#define FOLLOW_FIRST 25
/* Epochs a list may have (git/0.git .. git/999.git) */
#define FOLLOW_MAX_EPOCH 999

struct follow_opts {
	const char *list;	/* the list's name (queue rows, directory) */
	const char *archive;	/* public-inbox base URL */
	const char *inbox;	/* inbox name on the archive */
	const char *state_dir;	/* the clones go to STATE/epochs/LIST/ */
	const struct archive_opts *http; /* probing for epochs */
	bool skip;		/* a first read that is not back-filled */
	bool (*stop)(void);	/* asked after each message; NULL never */
};

struct follow_result {
	size_t read;		/* messages read this poll */
	size_t fresh;		/* of which new to the queue */
	size_t added;		/* of which patches (queue_add_message()) */
	size_t skipped;		/* not mail (deletions, unreadable, too big) */
	unsigned int epoch;	/* the epoch read last */
	bool new_epoch;		/* an epoch was begun this poll */
};

/*
 * One poll of a list through its epochs.  0 (counts in *out), WW_ENOTFOUND
 * when the archive serves no epoch (no git/0.git: use the feed), WW_ESTATE
 * when the state database failed, other negative codes for an archive that
 * cannot be read now (the position read so far is kept).
 */
int follow_list(struct follow_result *out, struct queue *q,
		const struct follow_opts *opts, time_t now);

/*
 * The feed's gap filler: every message of the thread of `msgid`
 * (ARCHIVE/INBOX/MSGID/t.mbox.gz) into the queue, known ones skipped.
 * Counts are added to *out.
 */
int follow_fill_thread(struct follow_result *out, struct queue *q,
		       const struct follow_opts *opts, const char *msgid, time_t now);

struct mail;
/* One message into the queue as the feed or an epoch shows it (the
 * parent: In-Reply-To, else the last of References); counts into *res. */
int follow_add_mail(struct follow_result *res, struct queue *q, const char *list,
		    const struct mail *m, bool skip, time_t now);

#endif
