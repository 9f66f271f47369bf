/*
 * The C-aware scanner: finds BUG/WARN-family macro *calls* in C source
 * text.  Comments, string and character literals, #define bodies, "#if 0"
 * blocks and BUILD_BUG_ON* are not calls; a definition whose body calls a
 * family macro is reported separately as a wrapper definition.  A call
 * may span lines; a line may hold several calls.
 *
 * A call is a rule's name followed (possibly after blanks, newlines or
 * comments) by '(', and not a member ("x.BUG_ON(", "p->panic(") nor a
 * declaration: an identifier or '*' before the name that is not one of
 * return/else/do/case/sizeof/typeof... ("void panic(const char *fmt, ...)",
 * "char *panic(").  Names only match whole: BUILD_BUG_ON, MY_BUG_ON and
 * BUG_ON_FOO are not BUG_ON.
 *
 * The text need not be NUL-terminated and is never read past `len`; odd
 * input (unterminated comments, strings or calls) just ends the scan, and
 * the time is linear in `len`.
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
	/*
	 * HIT_CALL: the macro called.  HIT_DEFINE: the family macro the body
	 * uses (the most severe if several).  Borrowed from the ruleset.
	 */
	const struct rule *rule;
	/*
	 * 0-based line index in the scanned text: HIT_CALL, the line of the
	 * macro's name; HIT_DEFINE, the line of the '#' of the #define.
	 */
	size_t line;
	/* HIT_CALL: line of the closing parenthesis (or of the last token
	 * when the text ends first); HIT_DEFINE: last line of the directive. */
	size_t end_line;
	size_t col;		/* 0-based byte column of the name (HIT_DEFINE: of NAME) */
	char *defined;		/* HIT_DEFINE: the macro being defined */
	/*
	 * The call (HIT_DEFINE: the whole directive) as written, joined onto
	 * one line: comments dropped, every run of blanks one space, valid
	 * UTF-8, cut at 200 bytes with "..." added (also when the text ends
	 * before the closing parenthesis).  Owned by the result.
	 */
	char *text;
};

struct scan_result {
	struct scan_hit *v;
	size_t nr, alloc;
};

#define SCAN_RESULT_INIT { 0 }

/*
 * Scan `len` bytes of `text` that begin in lexical state `start`.  Hits
 * are appended to `out` in the order of their names in the text (an
 * outer call before the calls in its arguments).  HIT_DEFINE is reported
 * for every #define whose body calls a family macro (or is an alias of
 * one: "#define DBG_BUGON BUG_ON"), unless NAME is itself a rule or a
 * name the rules never flag.
 */
void scan_text(struct scan_result *out, const struct ruleset *rs,
	       const char *text, size_t len, enum scan_state start);

/*
 * The same results token by token, without the fast path (which finds
 * calls from their '(' and looks backwards).  For tests that check that
 * the two agree; several times slower.
 */
void scan_text_slow(struct scan_result *out, const struct ruleset *rs,
		    const char *text, size_t len, enum scan_state start);

/*
 * Guess the state a hunk starts in from its text alone: a star-slash
 * before any slash-star means the hunk began inside a block comment; so
 * does, when there is neither, a first non-blank line that looks like the
 * inside of a kernel comment (" * text", " *").
 */
enum scan_state scan_guess_state(const char *text, size_t len);

/*
 * Wrapper definitions in a whole file (for --tree): HIT_DEFINE only, and
 * only for names that say what they are -- containing BUG, WARN, ASSERT
 * or PANIC in any case, "debug" aside ("#define FOO_BUG_ON(c) BUG_ON(c)",
 * "#define J_ASSERT(a) BUG_ON(!(a))").  page_buffers() calls BUG_ON()
 * too, but using it is not adding an assertion.
 */
void scan_defines(struct scan_result *out, const struct ruleset *rs,
		  const char *text, size_t len);

/* Free the hits' strings and the array; `r` is empty and reusable. */
void scan_result_clear(struct scan_result *r);

#endif
