/*
 * warnwatch backfill: a list's history from its public-inbox archive.
 * Every epoch repository (v2 "git/N.git", or a v1 inbox) is walked with
 * libgit2, oldest commit first, and each mail (v2: the blob "m" of the
 * commit; v1: the file the commit added) is parsed and, when it is a
 * patch -- a [PATCH] subject, no reply, not the 0/n cover letter, with a
 * diff -- checked as `check` checks it.  What each mail is, and each call
 * its diff adds or removes, goes into the service's state database
 * (tables backfill_*, migration 3 of store-schema.c), with the last commit read
 * per epoch: a second run reads only what arrived since.
 *
 * backfill_report() then groups the patches into series as `review` does
 * (one posting = a cover letter or patch 1 and the patches threaded
 * under it; the versions of a series = postings by the same author with
 * the same title) and counts per release cycle (cycle.h) the newest
 * version of each series.  docs/dashboard.md says what each number is.
 */
#ifndef WW_BACKFILL_H
#define WW_BACKFILL_H

#include "cycle.h"
#include "rules.h"
#include "store.h"

#include <jansson.h>

/* Caps on what an archive may hold (README "Limits"; one mail:
 * EPOCH_MAX_MAIL, epoch.h). */
#define BACKFILL_MAX_EPOCHS 1000	/* git/N.git per inbox */

struct backfill_epoch_stats {
	char *repo;		/* the epoch repository, as opened */
	size_t commits;		/* commits read this run */
	size_t mails;		/* mails recorded (new Message-IDs) */
	size_t patches;		/* of which patch mails */
	size_t skipped;		/* deletions, duplicates, unreadable mails */
	double seconds;
	bool more;		/* stopped at max_mails: the rest is for the next run */
};

struct backfill_opts {
	const char *list;	/* the list's name; NULL: the inbox's directory name */
	const char *url;	/* the archive's web address (for links), or NULL */
	/* What to flag, as `check` (findings' rules are borrowed from it). */
	const struct ruleset *rules;
	/* Mails to read at most in this run (0: all): what serve reads per
	 * poll.  The position is saved at the last mail read, so the next
	 * run goes on from there. */
	size_t max_mails;
	/* Called after each epoch (may be NULL). */
	void (*progress)(void *data, const char *list,
			 const struct backfill_epoch_stats *st);
	/* Called for each mail left unread, over EPOCH_MAX_MAIL (may be
	 * NULL): the epoch repository and one line saying why. */
	void (*skipped)(void *data, const char *list, const char *repo,
			const char *reason);
	void *data;
};

#define BACKFILL_OPTS_INIT { 0 }

/*
 * Read the public-inbox archive at `path` (a v2 inbox directory, a
 * directory of N.git epochs as serve keeps them, a v1 inbox, or one epoch
 * repository) into `s`, from the commit after the
 * last one recorded for each epoch.  Each epoch is one transaction.
 * Totals over the epochs are added to `out`.  Errors name the repository.
 */
int backfill_inbox(struct backfill_epoch_stats *out, struct store *s,
		   const char *path, const struct backfill_opts *opts);

enum backfill_report_flags {
	/* Add, beside each number, the mails behind it (for the dashboard):
	 * cycles[].mails = { "patches_adding": {class: [mail...]},
	 * "calls_removed": [mail...], "conversions": [mail...] } with
	 * mail = { "message_id", "subject", "date" }; cycles[].review_conversions
	 * (the part of "conversions" made between versions); lists[].url, the
	 * archive's address (--url, else lore.kernel.org/NAME/). */
	BACKFILL_REPORT_MAILS = 1 << 0,
};

/*
 * The per-cycle, per-list table of what `s` holds (all lists, or only
 * `list`), as `backfill --format=json` prints it:
 * { "lists": [{ "name", "mails", "patch_mails", "cycles": [{ "release",
 * "from", "to", "patches_adding": {class: N}, "calls_added": {class: N},
 * "calls_removed": {class: N}, "conversions": N }] }],
 * "totals": { "calls_added": {MACRO: N}, "calls_removed": {MACRO: N} } }.
 * A new reference in *out.
 */
int backfill_report(json_t **out, struct store *s, const struct cycles *c,
		    const char *list, unsigned int flags);

/* Whether backfill has recorded no mail in `s` yet. */
bool backfill_is_empty(struct store *s);

void backfill_epoch_stats_release(struct backfill_epoch_stats *st);

#endif
