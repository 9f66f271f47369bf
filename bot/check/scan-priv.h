/*
 * The C lexer (scan-lex.c) as the scanner (scan.c) sees it: tokens, the
 * lexer's position, the character classes.  Not an API: include scan.h.
 */
#ifndef WW_SCAN_PRIV_H
#define WW_SCAN_PRIV_H

#include "scan.h"

enum tok_kind {
	TK_EOF,
	TK_IDENT,
	TK_NUMBER,
	TK_STRING,
	TK_CHAR,
	TK_PUNCT,
};

struct token {
	enum tok_kind kind;
	const char *s;
	size_t len;
	size_t line;		/* 0-based line of the first byte */
	size_t col;		/* byte column of the first byte */
	size_t end_line;	/* line of the last byte */
	bool bol;		/* first token of a logical line */
	bool ws;		/* whitespace or a comment before it */
};

/* Character classes, so the hot loops test one table entry per byte. */
enum {
	CC_SPACE = 1,		/* ' ' \t \r \f \v */
	CC_IDENT = 2,		/* [A-Za-z0-9_$] */
	CC_DIGIT = 4,
};

/* Constant, so no thread ever sees it half filled. */
extern const unsigned char scan_cclass[256];

struct lexer {
	const char *p, *end;
	const char *lstart;	/* start of the current physical line */
	size_t line;
	bool bol, ws;
};

static inline bool tok_is(const struct token *t, const char *s)
{
	size_t n = strlen(s);

	return t->len == n && !memcmp(t->s, s, n);
}

static inline bool tok_punct(const struct token *t, char c)
{
	return t->kind == TK_PUNCT && t->len == 1 && t->s[0] == c;
}

/* The next token of `lx` into `t` (TK_EOF at the end). */
void scan_lex_next(struct lexer *lx, struct token *t);
/* Skip a block comment whose opening is already consumed; newlines count. */
void scan_lex_skip_block_comment(struct lexer *lx);
/*
 * Identifiers that may come right before a call in an expression or a
 * statement.  Any other identifier before a rule's name makes it a
 * declaration ("void panic(const char *fmt, ...)").
 */
bool scan_lex_is_expr_keyword(const struct token *t);

#endif
