/*
 * Release cycles: which mainline merge window a mail was posted towards,
 * from kernel-ci/releases.json (mainline release dates, v4.0 on).
 *
 * The merge window of release N+1 runs from the release of N to N+1-rc1.
 * A mail posted between the releases of N-1 and N aims at the first merge
 * window that opens after it, N+1's: its cycle is "N+1", from N-1's
 * release date to N's.  So, with v6.17 out on 2025-09-28 and v6.18 on
 * 2025-11-30, a patch posted on 2025-10-15 is in cycle v6.19.  The cycle
 * whose release is not in the table yet is named by "upcoming", the one
 * after it "unreleased"; mails older than the first release are "older",
 * mails without a date (and no base-commit naming a release) "unknown".
 *
 * A "base-commit:" that names a release -- its tag ("v6.1", "v6.12-rc3")
 * or a commit listed in the table -- wins over the date (Date: headers
 * lie): based on release N means posted after N, so cycle N+2; based on
 * an N-rcK, posted before N, so N+1.
 */
#ifndef WW_CYCLE_H
#define WW_CYCLE_H

#include "ww.h"

#include <time.h>

#define CYCLE_MAX_FILE (1u << 20)
#define CYCLE_MAX_RELEASES 1000

struct cycle_release {
	char *name;		/* "v6.18" */
	time_t date;		/* 00:00 UTC of the release day */
	time_t rc1;		/* its -rc1, or 0 when not given */
	char *commit;		/* the tag's commit, or NULL */
	char *rc1_commit;	/* -rc1's commit, or NULL */
};

/* One bucket of the report.  from/to are 0 when open. */
struct cycle {
	char *name;		/* "v6.19", "older", "unknown"... */
	time_t from, to;	/* [from, to) */
};

struct cycles {
	struct cycle_release *releases;	/* oldest first */
	size_t nr_releases;
	/*
	 * Every bucket, in time order: "older", one per release from the
	 * table's third on, `upcoming`, "unreleased", then "unknown".
	 */
	struct cycle *v;
	size_t nr;
};

#define CYCLES_INIT { 0 }

/* The releases file: $WARNWATCH_KERNEL_CI/releases.json, a checkout's
 * kernel-ci/releases.json, or the installed one.  Into `buf`. */
const char *cycles_default_path(char *buf, size_t size);

/*
 * Load the table (see kernel-ci/releases.json).  Errors are WW_EINPUT
 * naming the file and the entry ("releases.json: releases[3].date: not
 * a YYYY-MM-DD date"); releases must be in date order.
 */
int cycles_load(struct cycles *out, const char *path);
int cycles_load_buf(struct cycles *out, const char *buf, size_t len,
		    const char *name);

/*
 * The bucket (index into c->v) of a mail posted at `date` (0: unknown)
 * whose series names `base_commit` (NULL or "" when none).
 */
size_t cycles_find(const struct cycles *c, time_t date, const char *base_commit);

/* Parse "YYYY-MM-DD" as 00:00 UTC; false when it is not one. */
bool cycles_parse_day(time_t *out, const char *s);

/*
 * Parse a mail's Date: header ("Tue, 3 Dec 2024 10:00:00 +0100", the day
 * name and the seconds optional, a two-digit year as RFC 5322 reads it,
 * a zone name taken as UTC).  False when it is not a date.
 */
bool cycles_mail_date(time_t *out, const char *s);

void cycles_release(struct cycles *c);

#endif
