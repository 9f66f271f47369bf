/*
 * The environment warnwatch reads: every variable is a line in the one
 * table in env.c (and in docs/HACKING.md, "Environment"), read once at
 * start (main() calls env_init(); env_get() does on first use) and handed
 * out from there.  Nothing else reads a variable (tests/checksrc fails any
 * other call of getenv).
 * What a child process inherits is child.c's business (environ), not this.
 */
#ifndef WW_ENV_H
#define WW_ENV_H

#include "ww.h"

enum env_var {
	/* conventions of the system */
	ENV_HOME,
	ENV_TMPDIR,
	ENV_XDG_CONFIG_HOME,
	ENV_XDG_CACHE_HOME,
	ENV_XDG_STATE_HOME,
	ENV_SOURCE_DATE_EPOCH,
	/* warnwatch's own: where things are */
	ENV_WARNWATCH_CONFIG,
	ENV_WARNWATCH_CACHE,
	ENV_WARNWATCH_RULES,
	ENV_WARNWATCH_TEMPLATES,
	ENV_WARNWATCH_KERNEL_CI,
	ENV_WARNWATCH_EXEC_PATH,
	ENV_WARNWATCH_BASE_TARBALL,
	ENV_WARNWATCH_B4,
	/* warnwatch's own: test and debugging switches */
	ENV_WARNWATCH_SMTP_DEBUG,
	ENV_WARNWATCH_TEST_KILL_AT,
	ENV_WARNWATCH_XZ_THREADS,
	ENV_NR,
	ENV_NONE = -1,		/* "no variable", for datadir_find() */
};

/* Read the whole table once per process (pthread_once). */
void env_init(void);

/* The value of `v` as read at start (borrowed), or NULL when unset. */
const char *env_get(enum env_var v);

/* The value when set and not empty, else NULL. */
const char *env_get_nonempty(enum env_var v);

/* The variable's name ("WARNWATCH_CACHE"). */
const char *env_name(enum env_var v);

/*
 * Read the table again: for unit tests after setenv()/unsetenv() only,
 * never while another thread may hold a value (they are freed).
 */
void env_reload(void);

#endif
