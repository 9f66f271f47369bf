/*
 * Accepting a justified call: a `Warnwatch-accepted: FILE:FUNCTION
 * REASON` trailer in the commit message of the patch that adds it, where
 * the reviewers read it (beside Signed-off-by:, Fixes:, Link:), as
 * checkpatch's --ignore never is: that flag lives on one person's command
 * line, the trailer travels with the patch to the list, into b4 and git.
 *
 * A trailer accepts every call the same patch adds in FUNCTION of FILE
 * (post-image path, as the diff names it; "foo" or "foo()").  Such a call
 * is kept and reported as accepted: its severity is lowered to SEV_INFO
 * (so no format, the hook or the review objects to it), the reason and
 * the rule's own severity are kept beside it, and it is counted in
 * check_result.accepted, never in by_severity.  A trailer that accepts
 * nothing (stale: it names no call the patch adds, sits outside the
 * trailer block, gives no FILE:FUNCTION or no reason) is a check_stale,
 * a warning in every format.
 *
 * The trailer block is the last paragraph of the commit message (git
 * interpret-trailers' rule, simplified: no 25% test), the message being
 * the commit's log (--git, -g), else the mail body (or a bare diff's
 * prose) above its "---" line or its first diff header.
 */
#ifndef WW_ACCEPT_H
#define WW_ACCEPT_H

#include "check.h"

#define ACCEPT_KEY "Warnwatch-accepted"

struct accept_trailer {
	char *file;		/* "" when the value names no FILE:FUNCTION */
	char *function;		/* without "()" */
	char *reason;		/* the rest, continuation lines joined; may be "" */
	bool in_block;		/* in the trailer block (the last paragraph) */
};

struct accept_list {
	struct accept_trailer *v;
	size_t nr, alloc;
};

#define ACCEPT_LIST_INIT { 0 }

/*
 * The Warnwatch-accepted: lines (key matched without regard to case, as
 * git does) of the commit message in `msg`, which may run on into the
 * patch (it is cut at "---" or the first diff header), appended to `out`.
 */
void accept_parse(struct accept_list *out, const char *msg, size_t len);

void accept_list_release(struct accept_list *l);

/*
 * Mark the calls of `r` that the trailers of each patch of `s` accept,
 * record the stale trailers in r->stale, and fix r's counts and worst.
 * check_series() calls it last.
 */
void accept_apply(struct check_result *r, const struct series *s);

#endif
