/*
 * The review reply: from a series, its findings (check.h), optionally
 * the findings of the previous version and a kernel-ci boot verdict, to
 * one complete mail that reads like a careful human reviewer wrote it.
 *
 * Which message it answers: the patch with the findings, or the cover
 * letter when several patches have some (the first patch with findings
 * when there is no cover letter).  Nothing at all for a series with
 * nothing to say, unless `always`.
 *
 * The body comes from templates/reply.txt (see docs/review.md for the
 * variables); headers are built here with mailhdr.h, never from the
 * template, so nothing in a series can inject one.
 */
#ifndef WW_REPLY_H
#define WW_REPLY_H

#include "advice.h"
#include "cfacts.h"
#include "check.h"
#include "guide.h"
#include "mailhdr.h"
#include "reply-headers.h"
#include "settings.h"	/* enum reply_policy: a configured value */
#include "strvec.h"

#include <jansson.h>

/* The coding-style section quoted next to the panic_on_warn note. */
#define REPLY_PANIC_ON_WARN_SECTION "The panic_on_warn kernel option"

struct ci_verdict;

struct reply_opts {
	const char *from;		/* "warnwatch <bot@example.org>" */
	enum reply_policy policy;
	/* The configured list address(es) (globs): the only addresses
	 * that are "the list".  NULL: none, so reply-to = both mails the
	 * author alone.  No built-in pattern stands in for it: anybody can
	 * own an address that looks like a list (x@lists.evil.example). */
	const char *lists;
	const char *watched;		/* the list being answered on ("a@x, b@y"):
					 * first in Cc: (To: for reply-to = list)
					 * unless reply-to = author; or NULL */
	const char *skip;		/* [review] skip-authors globs, or NULL */
	/* Addresses never copied with reply-to = all (globs; the service's
	 * list ignore-senders: syzbot, the kernel test robot), or NULL. */
	const char *bots;
	bool patchwork_hint;		/* X-Patchwork-Hint: ignore */
	bool always;			/* a reply even with nothing found */
	const char *template_dir;
	const char *template_name;	/* NULL: "reply.txt" */
	const struct guide *guide;	/* the tree's coding-style, or NULL */
	const char *tree_name;		/* "linux-source-6.1", for the text */
	const struct ci_verdict *verdict;	/* kernel-ci's (ci.h), or NULL */
	const struct advice *advice;	/* rules/advice.json; NULL: the default dir's */
	const struct series *prev;	/* the previous version, or NULL */
	const struct check_result *prev_result;
	const char *contact;		/* how to reach a human */
	const char *message_id;		/* ours (no brackets); NULL: a new one */
	time_t date;			/* 0: mailhdr_now() */
	/*
	 * The facts about each finding of `r` (r->nr of them, in order) from
	 * the tree after the patch (cfacts.h, read by the caller: this module
	 * never calls libclang), or NULL.  Without facts the reply says only
	 * what the diff proves and shows no rewrite; with them each advice
	 * fires only when its fact holds, and a rewrite mirrors the
	 * function's own nearest failure exit.
	 */
	const struct cfacts *facts;
	/*
	 * Compile rewrite `code` of finding `f` in the tree after the patch:
	 * 1 it compiles, 0 it does not (the rewrite is dropped), negative
	 * when it could not be tried; *how names the command ("kbuild",
	 * "minimal": the record's "compile").  NULL: rewrites are not
	 * compiled ("compiled": null).
	 */
	int (*compile)(void *data, const struct finding *f, const char *code,
		       const char **how);
	void *compile_data;
	/*
	 * min-level = warning (the service's [list.NAME], docs/serve.md): an
	 * info-level call (a lone WARN_ON_ONCE()) is said only with evidence
	 * beyond the diff: a boot reached it or saw it fire, or an advice
	 * fired on a fact of the patched tree (user-input, on-disk).
	 */
	bool need_evidence;
	/*
	 * Leave finding `f` out (a point a human made already in the thread,
	 * one recipients called wrong): true drops it.  NULL keeps all.
	 */
	bool (*drop)(void *data, const struct finding *f);
	void *drop_data;
	/*
	 * A point made on an earlier version of the series (the service: a
	 * reply it sent to that version said finding `f`): the version's
	 * number, with where that reply is (a link, or its <Message-ID>)
	 * appended to `where`; 0 when it was not made before, or when
	 * something new adds to it (a reviewer's question).  Such a point is
	 * named in one line, not made again, unless this version's boot
	 * reached the call or saw it fire.  NULL: every point in full.
	 */
	int (*earlier)(void *data, const struct finding *f, struct strbuf *where);
	void *earlier_data;
};

#define REPLY_OPTS_INIT { .policy = REPLY_TO_BOTH }

struct reply {
	bool empty;			/* nothing to say: no mail */
	bool author_skipped;		/* the author is in opts.skip: no mail */
	struct strbuf text;		/* the whole message, LF line ends */
	char *message_id;		/* ours, without brackets */
	char *in_reply_to;		/* the message answered */
	char *subject;
	char *from_addr;		/* envelope sender */
	struct mail_addr_list to, cc;
	struct mail_addr_list rcpt;	/* envelope recipients: to + cc */
	int answered;			/* patch index; 0: the cover letter */
	int issues, credits, notes;	/* what it says, counted */
	int fixed;			/* ... of the credits, calls an earlier
					   version added and this one fixed */
	/* Issues and notes left out by need_evidence or drop; when that
	 * leaves no issue and no note, the reply is empty. */
	int dropped;
	/* ... of which named in one line as unchanged since an earlier
	 * version's review (reply_opts.earlier) */
	int unchanged;
	/*
	 * One object per call commented on: patch, file, line, function,
	 * macro, "facts" (whether the tree's were used), "facts_from"
	 * ("patched", "base-by-name": cfacts.by_name, "hunk-added":
	 * cfacts.appended, or null), "return_type",
	 * "rules" ([{id, fact, evidence}]: each advice said and the fact it
	 * rests on), "rewrite" (or null), "compiled" (true, false, null:
	 * not tried), "compile" (the command: "kbuild", "minimal", or null)
	 * and "exit" (the failure exit the rewrite mirrored, or
	 * null).  Format: docs/review.md.
	 */
	json_t *record;
};

#define REPLY_INIT { .text = STRBUF_INIT, .to = MAIL_ADDR_LIST_INIT, .cc = MAIL_ADDR_LIST_INIT, \
			.rcpt = MAIL_ADDR_LIST_INIT }

/*
 * Build the reply to series `s` with findings `r`.  out->empty is set
 * (and nothing else) when there is nothing to say; out->author_skipped
 * (and no recipients) when the answered mail's author is in o->skip.  Errors: WW_EINPUT
 * (no valid author or list address to send to, an invalid From:),
 * template errors as template.h says.
 */
int reply_build(struct reply *out, const struct series *s,
		const struct check_result *r, const struct reply_opts *o);

void reply_release(struct reply *r);

/*
 * The rewrite the reply gives for added call `f` of series `s`, from its
 * facts `cf` and the advice of `a` that fires on them (advice.json's own
 * rewrite first, else the gentler form mirroring the function's nearest
 * failure exit), appended to `code` (one statement per line, unindented;
 * nothing when the facts support none, and always nothing without
 * facts), and the exit it mirrored to `exit`.  Not compiled: the caller's
 * compiler decides (reply_opts.compile, patched_compile()).  For
 * `check --suggest --tree` (fixup.h), so that it offers what the reply would.
 */
void reply_rewrite(struct strbuf *code, struct strbuf *exit, const struct series *s,
		   const struct finding *f, const struct cfacts *cf, const struct advice *a);

/* The default templates directory: $WARNWATCH_TEMPLATES, else templates/
 * in the checkout the binary was built in, else WW_DATADIR/templates.
 * Borrowed. */
const char *reply_default_templates(void);


#endif
