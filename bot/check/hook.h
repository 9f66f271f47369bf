/*
 * warnwatch in git send-email: the sendemail-validate hook.  git (2.39)
 * runs it once per mail with the mail's file as its one argument, before
 * sending anything, and a non-zero exit aborts the whole send.
 *
 * Install never loses a hook that is already there: it is renamed to
 * sendemail-validate.warnwatch-chained and run first by ours; uninstall
 * removes exactly what install wrote (the hooks directory too when
 * install made it and it is empty) and renames the chained hook back.
 *
 * The hook blocks only on findings (`hook run` exit 1): warnwatch gone
 * from its recorded path (then the one on PATH runs), or failing in any
 * other way, is said on stderr and the mail goes.
 */
#ifndef WW_HOOK_H
#define WW_HOOK_H

#include "rules.h"
#include "strbuf.h"

#define HOOK_NAME "sendemail-validate"
#define HOOK_CHAINED HOOK_NAME ".warnwatch-chained"
#define HOOK_MARKER "# warnwatch-hook 1\n"
/* The hooks directory did not exist: install made it, uninstall removes
 * it when it is empty again. */
#define HOOK_MADE_DIR "# warnwatch-made-dir\n"

/*
 * The hooks directory of the repository at `repo` (NULL: the one around
 * the current directory), as `git rev-parse --git-path hooks` says it:
 * core.hooksPath when set (relative to the work tree's top, "~/"
 * expanded), else $GIT_COMMON_DIR/hooks.
 */
int hook_dir(struct strbuf *out, const char *repo);

enum hook_flags {
	HOOK_STRICT = 1 << 0,	/* warnings block too */
	HOOK_FORCE = 1 << 1,	/* rewrite our own hook */
};

/*
 * Write the hook into `dir`, running `warnwatch` (an absolute path).  An
 * existing hook of ours: WW_EDUP unless HOOK_FORCE.  A foreign hook is
 * chained (`chained` set); a foreign hook with a chained one already
 * beside it: WW_EDUP, whatever the flags.  `what` says what was done.
 */
int hook_install(struct strbuf *what, const char *dir, const char *warnwatch,
		 unsigned flags);

/* Remove our hook from `dir` and restore the chained one: WW_ENOTFOUND
 * when there is none, WW_EINPUT when the hook there is not ours. */
int hook_uninstall(struct strbuf *what, const char *dir);

/*
 * The hook's work: check the mail in `path` on its own (never the files
 * beside it: git does not tell the hook which of them it sends), and say
 * on `err` what blocks.  Returns 0 (send) or 1 (refuse); a mail that
 * cannot be read is reported and let through (2 only for a missing file,
 * which the hook script lets through too).
 */
int hook_validate(FILE *err, const char *path, struct ruleset *rules,
		  unsigned flags);

#endif
