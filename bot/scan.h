/*
 * The C-aware scanner: finds BUG/WARN-family macro *calls* in C source
 * text.  Comments, string and character literals, #define bodies and
 * BUILD_BUG_ON* are not calls; a definition whose body calls a family
 * macro is reported separately as a wrapper definition.  A call may span
 * lines; a line may hold several calls.
 */
#ifndef WW_SCAN_H
#define WW_SCAN_H

#include "rules.h"

enum scan_state {
	SCAN_CODE,
	SCAN_BLOCK_COMMENT,	/* inside a block comment at the start */
};

enum scan_hit_kind {
	HIT_CALL,		/* a call of a family macro */
	HIT_DEFINE,		/* #define NAME(...) whose body calls one */
};

struct scan_hit {
	enum scan_hit_kind kind;
	const struct rule *rule; /* the macro called (borrowed from the ruleset) */
	size_t line;		/* 0-based line index in the scanned text */
	size_t end_line;	/* line of the closing parenthesis */
	size_t col;		/* byte column of the macro name */
	char *defined;		/* HIT_DEFINE: the macro being defined */
	char *text;		/* the call as written, joined onto one line */
};

struct scan_result {
	struct scan_hit *v;
	size_t nr, alloc;
};

#define SCAN_RESULT_INIT { NULL, 0, 0 }

/*
 * Scan `len` bytes of `text` that begin in lexical state `start`.  Hits
 * are appended to `out`.  Never fails on odd input (unterminated comments
 * or strings just end the scan).
 */
void scan_text(struct scan_result *out, const struct ruleset *rs,
	       const char *text, size_t len, enum scan_state start);

/*
 * Guess the state a hunk starts in from its text alone: a "*\/" before
 * any "/\*" means the hunk began inside a block comment.
 */
enum scan_state scan_guess_state(const char *text, size_t len);

/* Wrapper definitions in a whole file (for --tree): "#define X(..) BUG_ON(..)". */
void scan_defines(struct scan_result *out, const struct ruleset *rs,
		  const char *text, size_t len);

void scan_result_clear(struct scan_result *r);

#endif
