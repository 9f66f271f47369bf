/*
 * What a list lets the service mail, beyond what the review finds: the
 * per-list noise policy (positive, ignore-senders, daily-cap) and the
 * service-wide brakes ([serve] daily-cap, stop-file).  docs/serve.md
 * documents each key with its default; the defaults are the safe side.
 */
#ifndef WW_POLICY_H
#define WW_POLICY_H

#include "config.h"
#include "store.h"

/* Authors whose series are never answered, unless a list says otherwise:
 * syzbot, the kernel test robot, other robots. */
#define POLICY_DEFAULT_IGNORE "syzbot* *@syzkaller.appspotmail.com lkp@intel.com " \
	"oliver.sang@intel.com *-robot@* *-bot@* noreply@* no-reply@*"
#define POLICY_DEFAULT_LIST_CAP 20	/* replies per list per 24 h */
#define POLICY_DEFAULT_CAP 100		/* replies in all per 24 h */
#define POLICY_DEFAULT_PACE 3600		/* seconds between two mails to one author on a list */
#define POLICY_PACE_MAX (24 * 3600)
#define POLICY_STOP_FILE "stop"		/* in the state directory */
#define POLICY_STOP_RECHECK 60		/* seconds between looks at it */

/* min-level: the least an added call must be to be mailed without
 * evidence (reply_opts.need_evidence). */
enum policy_level {
	POLICY_LEVEL_INFO,	/* every note, as `warnwatch review` says them */
	POLICY_LEVEL_WARNING,	/* info-level calls only with evidence (default) */
};

/* "info", "warning", NULL: for config_get_enum(). */
extern const char *const policy_level_names[];

/* [list.NAME] keys. */
struct policy_list {
	bool positive;		/* positive: mail a reply with no issue */
	enum policy_level min_level; /* min-level */
	unsigned int embargo;	/* embargo: seconds after the series' newest mail
				 * (written in hours, or with s/m/h) */
	char *ignore_senders;	/* ignore-senders: globs, blank/comma separated */
	unsigned int daily_cap;	/* daily-cap: replies per 24 h; 0: none */
	unsigned int pace;	/* pace: seconds between two mails to one
				 * author on this list; 0: none */
	/* What people say back (feedback.h): who owns the list, and whose
	 * Authentication-Results to believe of a sender. */
	char *owners;		/* owners: addresses (globs), blank/comma separated; "" */
	char *authserv_id;	/* authserv-id: the list MTA's; NULL: From: as archived */
};

/* [serve] keys. */
struct policy_global {
	unsigned int daily_cap;	/* daily-cap: replies in all per 24 h; 0: none */
	char *stop_file;	/* stop-file: while it exists nothing is sent; "" none */
};

#define POLICY_EMBARGO_MAX (30 * 24 * 3600)	/* a month */

/*
 * An embargo as written: a number of hours ("12"), or a number with a
 * unit, s, m or h ("90m", "20s": a short one, for a test or a quiet
 * list), into seconds; at most POLICY_EMBARGO_MAX.  WW_EINPUT otherwise.
 */
int policy_parse_embargo(unsigned int *out, const char *text);
/* A pace as written: minutes ("60"), or with s, m or h ("20s", "2h"),
 * up to POLICY_PACE_MAX.  WW_EINPUT otherwise. */
int policy_parse_pace(unsigned int *out, const char *text);

/* The [list.NAME] keys `section` holds: WW_EINPUT naming a bad value. */
int policy_list_load(struct policy_list *out, const struct config *c,
		     const char *section);
void policy_list_release(struct policy_list *p);
/* The [serve] keys; stop-file defaults to STATE_DIR/stop. */
int policy_global_load(struct policy_global *out, const struct config *c,
		       const char *state_dir);
void policy_global_release(struct policy_global *g);

/*
 * When the list's embargo on a series whose newest mail is dated
 * `newest` ends: `newest` + the embargo (0 or `newest` 0: no wait).
 */
time_t policy_embargo_until(const struct policy_list *p, time_t newest);

/* Whether `addr` is one of the list's owners. */
bool policy_owner(const struct policy_list *p, const char *addr);

/* Whether `author_email` is in the list's ignore-senders. */
bool policy_ignored(const struct policy_list *p, const char *author_email);

/* The series a reply is for, as policy_hold() weighs it. */
struct policy_series {
	const char *inbox;	/* the list */
	const char *author;	/* its author's address, or NULL */
	const char *root;	/* its root Message-ID (its replies' `series`) */
};

/*
 * Whether sending a reply on list `s->inbox` must wait: the stop file
 * exists, the list's pace holds (a mail in flight or sent to the same
 * author on this list, for another series, less than `pace` seconds
 * ago), or the list's or the service's daily cap is reached (replies in
 * flight or sent in the 24 hours before `now`, as the store has them, so
 * several workers share one count; two racing may pass one over).
 * 1 with *out_until (when to look again) and `why` set; 0 go on;
 * negative when the store fails.
 */
int policy_hold(time_t *out_until, struct strbuf *why, struct store *st,
		const struct policy_global *g, const struct policy_list *p,
		const struct policy_series *s, time_t now);

#endif
