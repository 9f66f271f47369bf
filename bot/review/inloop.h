/*
 * Is a line of a C function inside a loop of that function?  Advice that
 * says "leave the function" (a return, a goto to its exit) is wrong in a
 * loop body, where it skips every later iteration (an initcall's loop
 * over subsystems, say): the reply says how to leave only when this
 * answers "no".
 */
#ifndef WW_INLOOP_H
#define WW_INLOOP_H

#include "ww.h"

enum inloop {
	/* a block opened by a macro that may loop, no function, not read;
	 * zero, so that facts zeroed (released, not read) say nothing */
	INLOOP_UNKNOWN = 0,
	INLOOP_NO,
	INLOOP_YES,
};

/*
 * Whether line `line` (1-based) of C text[0..len) is inside a loop of
 * the function whose definition starts on line `def_line`: a `for`,
 * `while` or `do` body, braced or not, or the block of a macro named
 * like a loop (`list_for_each_entry()`, `xa_for_each()`, `*_each*`).
 * A block opened by any other macro (`foo(x) {`, which may expand to a
 * for) makes the answer unknown unless a loop encloses it anyway.
 * Comments, strings and preprocessor lines are skipped.
 */
enum inloop inloop_at(const char *text, size_t len, int def_line, int line);

/* "unknown", "no", "yes": the fact's word in JSON (the sandboxed child's
 * answer, the reply's record), and back; a word not known is unknown. */
const char *inloop_name(enum inloop l);
enum inloop inloop_from_name(const char *name);

#endif
