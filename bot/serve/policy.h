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

/* Whether `author_email` is in the list's ignore-senders. */
bool policy_ignored(const struct policy_list *p, const char *author_email);

/*
 * Whether sending a reply on list `inbox` must wait: the stop file
 * exists, or the list's or the service's daily cap is reached (replies
 * in flight or sent in the 24 hours before `now`, as the store has them,
 * so several workers share one count; two racing may pass one over).
 * 1 with *out_until (when to look again) and `why` set; 0 go on;
 * negative when the store fails.
 */
int policy_hold(time_t *out_until, struct strbuf *why, struct store *st,
		const struct policy_global *g, const struct policy_list *p,
		const char *inbox, time_t now);

#endif
