/*
 * public-inbox's git epochs: an archive keeps its mail in git, one commit
 * per message (v2 "git/N.git": the mail is the commit's blob "m"; v1: the
 * file the commit added).  `backfill` reads the epochs of a local inbox,
 * `serve` follows a remote one: it fetches ARCHIVE/INBOX/git/N.git over
 * HTTP into a bare repository of its own and reads what arrived since the
 * last commit it read, then looks for epoch N+1.
 */
#ifndef WW_EPOCH_H
#define WW_EPOCH_H

#include "archive.h"
#include "intake.h"
#include "strbuf.h"

#include <git2.h>

/* One mail's blob: bigger is skipped, as intake.h caps one message
 * (docs/limits.md). */
#define EPOCH_MAX_MAIL INTAKE_MAX_MAIL
/* One fetch: bytes received (a lore epoch is about 1 GiB) and seconds. */
#define EPOCH_MAX_FETCH (8ull << 30)
#define EPOCH_FETCH_SECONDS 3600

/*
 * Called for each mail, oldest first: `commit` is its commit's id (hex),
 * `buf` the raw message.  A non-zero return (an error, or the caller's
 * "stop here") stops the walk and is returned by epoch_walk().
 */
typedef int (*epoch_mail_fn)(void *data, const char *commit, const char *buf,
			     size_t len);

/*
 * Called for a mail left unread because its blob is over EPOCH_MAX_MAIL
 * (its size is read from the object's header: the blob is never
 * inflated): `commit` as above, `reason` one line naming the commit, the
 * size and the cap.  A non-zero return stops the walk as epoch_mail_fn's.
 */
typedef int (*epoch_skip_fn)(void *data, const char *commit, const char *reason);

struct epoch_walk {
	size_t commits;		/* commits read */
	size_t skipped;		/* deletions and mails over EPOCH_MAX_MAIL */
	size_t too_big;		/* of those, mails over EPOCH_MAX_MAIL */
	epoch_skip_fn on_skip;	/* may be NULL; given the walk's `data` */
};

/*
 * The mails of `repo` from the commit after `since` (NULL: from the first
 * commit; one the epoch no longer has, its history rewritten: from the
 * first commit too) to `head`, oldest first.  With `limit` > 0, only the
 * newest `limit` commits.  Counts are added to `st`.  Errors name the
 * commit; the caller adds the repository.
 */
int epoch_walk(struct epoch_walk *st, git_repository *repo, const git_oid *since,
	       const git_oid *head, size_t limit, epoch_mail_fn fn, void *data);

/*
 * Fetch the epoch at `url` (http(s)://ARCHIVE/INBOX/git/N.git, or a local
 * path) into the bare repository `dir` (created if missing), its branches
 * mirrored.  *out_repo is the caller's to free; *out_head the tip of its
 * branch (refs/heads/master, else the first branch), and *has_head false
 * for an epoch without commits yet.  Gives up past EPOCH_MAX_FETCH bytes
 * (WW_ETOOBIG) or EPOCH_FETCH_SECONDS (WW_ETIMEOUT); WW_ENET otherwise.
 */
int epoch_fetch(git_repository **out_repo, git_oid *out_head, bool *has_head,
		const char *dir, const char *url);

/*
 * Whether the epoch at `url` is served: 1 yes, 0 no (404), negative when
 * the archive cannot say (archive_get()'s codes).  One GET of its
 * info/refs, as a git client starts.
 */
int epoch_exists(const char *url, const struct archive_opts *opts);

/* "ARCHIVE/INBOX/git/N.git". */
void epoch_url(struct strbuf *out, const char *archive, const char *inbox,
	       unsigned int n);

#endif
