/*
 * The scanner's C lexer: comments, blanks, line splices, string and
 * character literals, numbers, identifiers and punctuation, with line and
 * column of each token (scan-priv.h).  No preprocessor: scan.c decides
 * what a directive means.
 */
#include "scan-priv.h"

/* Filled at compile time (it was filled lazily, behind a racy "filled
 * yet?" test). */
const unsigned char scan_cclass[256] = {
	[' '] = CC_SPACE, ['\t'] = CC_SPACE, ['\r'] = CC_SPACE, ['\f'] = CC_SPACE,
	['\v'] = CC_SPACE,
	['a' ... 'z'] = CC_IDENT, ['A' ... 'Z'] = CC_IDENT, ['_'] = CC_IDENT,
	['$'] = CC_IDENT,
	['0' ... '9'] = CC_IDENT | CC_DIGIT,
};

static void lex_newline(struct lexer *lx, const char *nl)
{
	lx->line++;
	lx->lstart = nl + 1;
}

/* A backslash-newline (or backslash-CR-LF) at p: its length, else 0. */
static size_t splice_len(const struct lexer *lx, const char *p)
{
	if (*p != '\\' || p + 1 >= lx->end)
		return 0;
	if (p[1] == '\n')
		return 2;
	if (p[1] == '\r' && p + 2 < lx->end && p[2] == '\n')
		return 3;
	return 0;
}

/* Skip a block comment whose "/\*" is already consumed; newlines count. */
void scan_lex_skip_block_comment(struct lexer *lx)
{
	const char *p = lx->p;

	for (;;) {
		const char *q = memchr(p, '*', lx->end - p);
		const char *nl;

		/* Count the newlines up to the '*' (or the end). */
		while ((nl = memchr(p, '\n', (q ? q : lx->end) - p))) {
			lex_newline(lx, nl);
			p = nl + 1;
		}
		if (!q) {
			lx->p = lx->end;
			return;
		}
		p = q + 1;
		if (p < lx->end && *p == '/') {
			lx->p = p + 1;
			return;
		}
	}
}

/* Skip a line comment up to (not over) its newline; splices continue it. */
static void skip_line_comment(struct lexer *lx)
{
	const char *p = lx->p;

	for (;;) {
		const char *nl = memchr(p, '\n', lx->end - p);

		if (!nl) {
			lx->p = lx->end;
			return;
		}
		if ((nl > p && nl[-1] == '\\') ||
		    (nl - 1 > p && nl[-1] == '\r' && nl[-2] == '\\')) {
			lex_newline(lx, nl);
			p = nl + 1;
			continue;
		}
		lx->p = nl;
		return;
	}
}

/* Whitespace, newlines, splices and comments before the next token. */
static void skip_blank(struct lexer *lx)
{
	while (lx->p < lx->end) {
		unsigned char c = *lx->p;
		size_t n;

		if (scan_cclass[c] & CC_SPACE) {
			lx->p++;
			lx->ws = true;
		} else if (c == '\n') {
			lex_newline(lx, lx->p);
			lx->p++;
			lx->bol = true;
			lx->ws = true;
		} else if ((n = splice_len(lx, lx->p))) {
			lex_newline(lx, lx->p + n - 1);
			lx->p += n;
			lx->ws = true;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			lx->p += 2;
			scan_lex_skip_block_comment(lx);
			lx->ws = true;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			lx->p += 2;
			skip_line_comment(lx);
			lx->ws = true;
		} else {
			return;
		}
	}
}

/*
 * A string or character literal: escapes skip a byte, a splice continues
 * it, and an unescaped newline ends it (an unbalanced quote in a hunk
 * must not swallow the lines after it).
 */
static void lex_quoted(struct lexer *lx, char quote)
{
	const char *p = lx->p + 1;

	while (p < lx->end) {
		size_t n;

		if (*p == quote) {
			p++;
			break;
		}
		if (*p == '\n')
			break;
		if ((n = splice_len(lx, p))) {
			lex_newline(lx, p + n - 1);
			p += n;
		} else if (*p == '\\') {
			p += p + 1 < lx->end ? 2 : 1;
		} else {
			p++;
		}
	}
	lx->p = p;
}

static void lex_number(struct lexer *lx)
{
	const char *p = lx->p + 1;

	while (p < lx->end) {
		unsigned char c = *p;

		if ((c == '+' || c == '-') &&
		    (p[-1] == 'e' || p[-1] == 'E' || p[-1] == 'p' || p[-1] == 'P'))
			p++;
		else if ((scan_cclass[c] & CC_IDENT) || c == '.')
			p++;
		else
			break;
	}
	lx->p = p;
}

void scan_lex_next(struct lexer *lx, struct token *t)
{
	const char *p;
	unsigned char c;

	skip_blank(lx);
	t->bol = lx->bol;
	t->ws = lx->ws;
	t->line = lx->line;
	t->col = lx->p - lx->lstart;
	t->s = lx->p;
	lx->bol = lx->ws = false;
	if (lx->p >= lx->end) {
		t->kind = TK_EOF;
		t->len = 0;
		t->end_line = lx->line;
		return;
	}
	p = lx->p;
	c = *p;
	if ((scan_cclass[c] & (CC_IDENT | CC_DIGIT)) == CC_IDENT) {
		while (++p < lx->end && (scan_cclass[(unsigned char)*p] & CC_IDENT))
			;
		lx->p = p;
		t->kind = TK_IDENT;
	} else if ((scan_cclass[c] & CC_DIGIT) ||
		   (c == '.' && p + 1 < lx->end &&
		    (scan_cclass[(unsigned char)p[1]] & CC_DIGIT))) {
		lex_number(lx);
		t->kind = TK_NUMBER;
	} else if (c == '"' || c == '\'') {
		lex_quoted(lx, c);
		t->kind = c == '"' ? TK_STRING : TK_CHAR;
	} else {
		/* Only the two-byte tokens that matter: "->" and "##". */
		if (p + 1 < lx->end &&
		    ((c == '-' && p[1] == '>') || (c == '#' && p[1] == '#')))
			lx->p = p + 2;
		else
			lx->p = p + 1;
		t->kind = TK_PUNCT;
	}
	t->len = lx->p - t->s;
	t->end_line = lx->line;
}

/* See scan-priv.h. */
bool scan_lex_is_expr_keyword(const struct token *t)
{
	static const char *const kw[] = {
		"return", "else", "do", "case", "sizeof", "typeof",
		"__typeof__", "__typeof", "_Alignof", "__alignof__", "alignof",
		"__extension__", NULL
	};
	const char *const *k;

	for (k = kw; *k; k++)
		if (tok_is(t, *k))
			return true;
	return false;
}
