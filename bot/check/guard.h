/*
 * What guards a BUG/WARN a patch adds, read from the hunk: a wrapper
 * whose WARN only happens in a debug build (an enclosing #if on a debug
 * option such as CONFIG_FUSE_IOMAP_DEBUG) or only while a runtime debug
 * switch is on (an `if` on a debug variable inside the macro body), and
 * a WARN_ON(1) that marks a `default:` the code never reaches.
 * docs/rules.md, "Guards and unreachable markers", says why each is
 * read the way it is.
 */
#ifndef WW_GUARD_H
#define WW_GUARD_H

#include "diff.h"
#include "strbuf.h"

enum guard_kind {
	GUARD_NONE,
	GUARD_CONFIG,	/* only in a debug build: `out` names the option */
	GUARD_RUNTIME,	/* only while a debug switch is on: `out` names it */
};

/*
 * The debug guard of the #define at line `at` of hunk `h` (to `last`,
 * the directive's last line) whose body calls `macro`: an #if/#ifdef on
 * a debug option open above it in the hunk (its post-image), else an
 * `if` naming a debug variable around every `macro(` of the body.  The
 * option or variable is appended to `out`.  An #if above the hunk is
 * not seen.
 */
enum guard_kind guard_of_define(struct strbuf *out, const struct diff_hunk *h,
				size_t at, size_t last, const char *macro);

/*
 * Whether the call `call` (as written, "WARN_ON(IS_ENABLED(CONFIG_X_DEBUG))")
 * fires only in a debug build: its condition (first argument) is
 * IS_ENABLED() of a debug option, alone or joined to the rest by &&
 * only.  The option is appended to `out`.  The condition's other names
 * are not read for "debug": `dev->debug_count > 4` is no guard.
 */
bool guard_of_call(struct strbuf *out, const char *call);

enum guard_marker {
	GUARD_MARKER_NONE,
	GUARD_MARKER_DEFAULT,	/* first after a switch's `default:` */
	GUARD_MARKER_ELSE,	/* first in the last else of an if/else-if chain */
	GUARD_MARKER_END,	/* just before the function's final return,
				   after a block that returns */
};

/*
 * Whether the call `call` (as written, "WARN_ON(1)") at line `at` of
 * hunk `h`, starting at byte `col` of that line, is an unreachable
 * marker: a WARN with a constant true condition that is the first
 * statement after a `default:` label, or in the final `else` of an
 * if/else-if chain (the hunk shows the `else if` above it), the same
 * thing written without a switch, or at the end of the function's body,
 * after a block that returns and before the function's final return
 * (the search or dispatch above it found nothing: "cannot get here").
 */
enum guard_marker guard_unreachable(const struct diff_hunk *h, size_t at, size_t col,
				    const char *call);

#endif
