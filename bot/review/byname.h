/*
 * Where a hunk that GNU patch refused would have put its call: the
 * function the hunk names, found by that name in the base file, its
 * signature checked against what the hunk shows, and the hunk's added
 * lines placed where the context before the call matches best.  Most
 * real patches are written against newer trees than the one under
 * review, so even `patch --fuzz=3` refuses some; the facts about a call
 * (cfacts.h) can still come from the function as the base tree has it
 * (patched.c marks them "base-by-name").  Text only: no libclang here.
 */
#ifndef WW_BYNAME_H
#define WW_BYNAME_H

#include "diff.h"
#include "strbuf.h"
#include "strvec.h"

/* What a hunk shows around one added call. */
struct byname_hunk {
	char *function;		/* the name the hunk gives (finding.function) */
	/*
	 * The function's declaration as the hunk shows it: a context or
	 * removed line that defines it, else the @@ header's context when
	 * it names the function; NULL when the hunk shows neither.
	 */
	char *shown;
	struct strvec before;	/* pre-image lines (' ', '-') before the call's change block */
	struct strvec removed;	/* the block's '-' lines */
	struct strvec added;	/* the block's '+' lines */
	struct strvec after;	/* pre-image lines after the block */
	size_t call;		/* added.v[call] is the call's first line */
	int old_line;		/* the pre-image line where the block starts (a tie-break) */
};

#define BYNAME_HUNK_INIT { .before = STRVEC_INIT, .removed = STRVEC_INIT, \
			   .added = STRVEC_INIT, .after = STRVEC_INIT }

/*
 * Fill `out` from hunk `h` around its added line with post-image number
 * `line` (the call's first line), for the function named `function`.
 * WW_ENOTFOUND when no added line of `h` has that number.
 */
int byname_hunk_read(struct byname_hunk *out, const struct diff_hunk *h, int line,
		     const char *function);

/*
 * Base file `text` with h's block placed in the function of that name:
 * its definition found by name (column 0, body braces in column 0, as
 * kernel style has it); its signature must hold h->shown when the hunk
 * shows one, else the hunk's context lines must occur in its body in
 * order (at least half of those that are more than braces, and two),
 * lines in between allowed; the block goes after the body line that
 * matches the context line nearest the call with the most context
 * before it matching too (one of the three nearest that are more than
 * braces among them), the block's removed lines dropped when they
 * follow there.  `out` gets the text, *line the call's line (1-based).
 * WW_ENOTFOUND: no such function, another signature, or the context
 * does not match.
 */
int byname_place(struct strbuf *out, int *line, const char *text, size_t len,
		 const struct byname_hunk *h);

/*
 * Base file `text` with the definition of h->function that the hunk
 * adds whole (its head, and its body's braces in column 0, the call
 * between them, all among the block's added lines): a new function,
 * which patch refused with the rest of its hunk, read as the patch
 * writes it.  It replaces the base's definition of that name, when the
 * base has one (merged since, its context another), else it is appended
 * at the end.  `out` gets the text, *line the call's line (1-based).
 * WW_ENOTFOUND: the hunk does not add all of it.
 */
int byname_append(struct strbuf *out, int *line, const char *text, size_t len,
		  const struct byname_hunk *h);

/*
 * `text` without h's added lines where fuzz put them, the call's first
 * line being `line` (1-based): what the base had there, for
 * byname_place() when fuzz placed the hunk blind, outside the function
 * it names.  WW_ENOTFOUND when those lines are not there as added.
 */
int byname_unplace(struct strbuf *out, const char *text, size_t len,
		   const struct byname_hunk *h, int line);

/*
 * Does the definition that starts on line `line` (1-based) of `text`
 * name `fn` before its body's brace, as the text has it (a macro head,
 * SYSCALL_DEFINE3(ioctl, ...), names SYSCALL_DEFINE3 there)?
 */
bool byname_defines(const char *text, size_t len, int line, const char *fn);

void byname_hunk_release(struct byname_hunk *h);

#endif
