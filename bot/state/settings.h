/*
 * warnwatch's settings: the configuration file (config.h) read once,
 * every section checked against one table of keys at load, and what the
 * commands need from it as typed values -- the identity, the reply
 * options, b4's archive options, the rules, SMTP and the state.
 * `review`, `serve`, `status`, `retry`, `dashboard`, `backfill` and `ci`
 * read their configuration here and nowhere else; a command-line option
 * that overrides a key overrides the typed value after settings_load().
 *
 * Sections and their keys (docs/review.md, docs/serve.md,
 * docs/kernel-ci.md): [identity], [archive], [smtp], [review], [state],
 * [serve], [ci] and every [list.NAME].  Any other section is WW_EINPUT
 * "file:line: unknown section", an unknown key in one of them
 * "file:line: unknown key".
 */
#ifndef WW_SETTINGS_H
#define WW_SETTINGS_H

#include "b4.h"
#include "config.h"
#include "smtp.h"
#include "store.h"

/* [review] reply-to: whom a reply goes to (reply-headers.c acts on it). */
enum reply_policy {
	REPLY_TO_BOTH,		/* To: the author, Cc: the lists (default) */
	REPLY_TO_AUTHOR,	/* To: the author only */
	REPLY_TO_LIST,		/* To: the lists only */
	REPLY_TO_ALL,		/* To: the author, Cc: everyone the patch went to */
};

/* "both", "author", "list", "all", NULL: for config_get_enum(). */
extern const char *const reply_policy_names[];

/*
 * [identity] + [review]: what the reply takes from the configuration,
 * checked at load.  review_reply_from() (review.h) makes the reply's
 * options of it; the state floor knows nothing of struct reply_opts.
 */
struct settings_reply {
	struct strbuf from;		/* "Name <addr>", quoted as RFC 5322 wants */
	struct strbuf templates;	/* [review] templates, else the default */
	enum reply_policy policy;	/* [review] reply-to */
	const char *lists;		/* [review] lists (borrowed), or NULL */
	const char *skip;		/* [review] skip-authors (borrowed), or NULL */
	const char *contact;		/* [review] contact (borrowed), or NULL */
	bool patchwork_hint;		/* [review] patchwork-hint */
};

#define SETTINGS_REPLY_INIT { .from = STRBUF_INIT, .templates = STRBUF_INIT }

/*
 * Fill `out` from [identity] (name, email) and [review] of `c` (borrowed
 * strings point into `c`).  WW_EINPUT for an [identity] email that is not
 * an address, or none when `sending`; bad [review] values as
 * config_get_enum() says.
 */
int settings_reply_load(struct settings_reply *out, const struct config *c,
			bool sending);
void settings_reply_release(struct settings_reply *r);

/* [state]: where the state database (and the service's artifacts) live. */
struct settings_state {
	char *dir;		/* [state] dir, else store_default_dir() */
	char *url;		/* [state] url (postgresql://...), or NULL */
	char *password_file;	/* [state] password-file, or NULL */
	unsigned int lease;	/* [state] lease: seconds a claim holds unrenewed */
	unsigned int start_wait; /* [state] start-wait: seconds to wait at start */
};

/* [ci]: kernel-ci's options that are not per list. */
struct settings_ci {
	const char *repo;	/* [ci] repo (borrowed from config), or NULL */
	unsigned int keep_bases; /* [ci] keep-bases; 0: KTREE_KEEP_BASES */
	unsigned int keep_logs;	/* [ci] keep-logs (1..100000; CI_KEEP_LOGS) */
};

struct settings {
	struct config config;	/* the file as read (for [serve], [list.NAME]) */
	/* [identity] (borrowed from config; NULL when unset) */
	const char *name;
	const char *email;
	/* [identity] + [review]: the reply's options (review_reply_from()) */
	struct settings_reply reply;
	const char *review_tree;	/* [review] tree, or NULL */
	const char *review_build_dir;	/* [review] build-dir: its make O=, or NULL */
	const char *review_source;	/* [review] source, or NULL */
	struct strbuf rules_dir;	/* [review] rules, else rules_default_dir() */
	/* [archive] + [identity]: b4's options (b4_opts_from_config()) */
	struct b4_opts b4;
	struct strbuf midmask;		/* what b4.midmask points to */
	/* [smtp]: valid only after settings_need_sending() */
	struct smtp_opts smtp;
	struct strbuf smtp_password, smtp_ca_file;
	bool sending;
	struct settings_state state;
	struct settings_ci ci;
	/* the cache ($WARNWATCH_CACHE, else $XDG_CACHE_HOME/warnwatch) */
	struct strbuf cache_dir;
};

#define SETTINGS_INIT { \
	.config = CONFIG_INIT, .reply = SETTINGS_REPLY_INIT, \
	.rules_dir = STRBUF_INIT, \
	.b4 = B4_OPTS_INIT, .midmask = STRBUF_INIT, .smtp = SMTP_OPTS_INIT, \
	.smtp_password = STRBUF_INIT, .smtp_ca_file = STRBUF_INIT, \
	.cache_dir = STRBUF_INIT, \
}

enum settings_flags {
	/* `path` NULL and no file at the default place: the defaults */
	SETTINGS_OPTIONAL = 1 << 0,
	/* mail goes out: settings_need_sending() at load */
	SETTINGS_SENDING = 1 << 1,
};

/*
 * Read the configuration `path` (NULL: config_default_path()) into `out`
 * and settings_apply() it.  A missing file is WW_ENOTFOUND unless
 * SETTINGS_OPTIONAL and `path` is NULL.
 */
int settings_load(struct settings *out, const char *path, unsigned flags);

/*
 * Check every key of out->config against the one table and fill the
 * typed values from it.  WW_EINPUT for an unknown key or a bad value
 * (naming it); with SETTINGS_SENDING whatever settings_need_sending()
 * says.  For settings_load() and tests that build the config in memory.
 */
int settings_apply(struct settings *out, unsigned flags);

/*
 * Mail will be sent: an [identity] email is required and [smtp] must be
 * usable (a url, a readable password file when a user is set, valid
 * starttls and timeout).  Fills out->smtp.  Said at start, not at the
 * first send.
 */
int settings_need_sending(struct settings *s);

/*
 * Open the state: [state] url (PostgreSQL, with [state] password-file)
 * if set, else [state] dir, else the default directory.  The one way
 * every command opens the state database.
 */
int settings_state_open(struct store *out, const struct settings *s);

void settings_release(struct settings *s);

#endif
