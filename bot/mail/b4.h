/*
 * Fetching a patch series with Debian's b4, through child.h (argv only, a
 * deadline: b4 has no HTTP timeout of its own and would wait forever on a
 * stalled server).  b4 is configured for the run only: warnwatch writes a
 * private git config file (GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM=1) with
 * b4.midmask/linkmask/searchmask from warnwatch's configuration and
 * attestation switched off, and points XDG_CACHE_HOME at warnwatch's
 * cache; the user's own git and b4 configuration are never read or
 * touched.
 *
 * b4's output is not structured, so its exit status, the files it was
 * told to write and a few known stderr lines are all checked: rc 0 with
 * no file ("No patches found", "Unable to find revision N"), "Thread
 * incomplete" (a partial series), "That message-id is not known", a
 * Python ConnectionError (server down).
 *
 * Every mbox b4 is given (--mbox) and every file b4 writes back is held
 * to intake.h's caps before b4 runs or warnwatch reads further: over one,
 * WW_ETOOBIG (WW_EINPUT for mail warnwatch cannot parse).
 */
#ifndef WW_B4_H
#define WW_B4_H

#include "intake.h"
#include "strbuf.h"

#define B4_DEFAULT_TIMEOUT_S 120
#define B4_DEFAULT_ARCHIVE "https://lore.kernel.org/all/"
#define B4_MAX_BYTES INTAKE_MAX_BYTES	/* what we read back from b4's files */

struct b4_opts {
	const char *program;	/* "b4"; $WARNWATCH_B4 overrides (tests) */
	const char *midmask;	/* "https://lore.kernel.org/all/%s" */
	const char *linkmask;	/* NULL: the midmask */
	const char *searchmask;	/* NULL: derived from the midmask */
	const char *cache_dir;	/* XDG_CACHE_HOME for b4, or NULL: a temp dir */
	const char *user_name;	/* b4 am needs a user.email to run */
	const char *user_email;
	int version;		/* 0: the newest (b4 -c), N: -v N */
	const char *mbox;	/* offline: b4 --offline-mode am -m FILE */
	unsigned int timeout_s;	/* per b4 run; 0: B4_DEFAULT_TIMEOUT_S */
};

#define B4_OPTS_INIT { 0 }

struct b4_series {
	struct strbuf mbx;	/* b4 am's patches of the chosen version */
	struct strbuf cover;	/* b4 am's cover letter, or empty */
	struct strbuf thread;	/* the raw thread (exact headers): b4 mbox,
				 * or the --mbox file itself */
	double seconds;		/* time spent in b4 */
};

#define B4_SERIES_INIT { .mbx = STRBUF_INIT, .cover = STRBUF_INIT, .thread = STRBUF_INIT }

/*
 * Fetch the series `msgid` belongs to (any message of its thread will
 * do; NULL with opts->mbox: the newest series in the file).  Errors, each
 * with one clear message: WW_ENOTFOUND (b4 not installed, unknown
 * message-id, no patches, no such version), WW_ENET (archive down),
 * WW_ETIMEOUT, WW_EINPUT (incomplete series), WW_ECHILD (b4 failed
 * otherwise: its last stderr line), WW_ETOOBIG (opts->mbox or what b4
 * wrote is over intake.h's caps: the former before b4 starts).
 */
int b4_fetch(struct b4_series *out, const char *msgid, const struct b4_opts *o);

/*
 * The whole thread of `msgid` as the archive has it (b4 mbox: exact
 * headers, bodies' From lines quoted), appended to `out`; the time b4
 * took is added to `*seconds` (or NULL).  Errors as b4_fetch(); on
 * WW_ETOOBIG `out` holds what b4 wrote (to be kept as received).
 */
int b4_thread(struct strbuf *out, const char *msgid, const struct b4_opts *o,
	      double *seconds);

/*
 * Remove the working directories (under $WARNWATCH_CACHE/b4-tmp) of
 * processes that are gone: a killed service or command leaves its own.
 * Run by the service at start and before a process's first b4 run.
 */
void b4_sweep(void);

struct config;

/*
 * b4 options from warnwatch's configuration ([archive] url or midmask,
 * linkmask, searchmask, timeout; [identity] name and email).  The built
 * mask goes into `midmask`, which must outlive `out`.  `out` keeps its
 * other fields (version, mbox, cache_dir).
 */
int b4_opts_from_config(struct b4_opts *out, struct strbuf *midmask,
			const struct config *cfg);

/* Write b4's private git config for `o` into `out` (exposed for tests). */
int b4_gitconfig(struct strbuf *out, const struct b4_opts *o);

/* The Message-Id of the first message in an mbox text (no brackets), or
 * WW_ENOTFOUND. */
int b4_first_msgid(struct strbuf *out, const char *mbox, size_t len);

void b4_series_release(struct b4_series *s);

#endif
