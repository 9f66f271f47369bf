/*
 * Is a line inside a loop of its function (see inloop.h)?  A small C
 * lexer over the function's text from its definition line: a stack of
 * the blocks open at the line, each known to be a loop, not a loop, or
 * opened by a macro that may be one.
 */
#include "inloop.h"

#include <ctype.h>

enum frame_kind { FR_NONE, FR_FUNC, FR_OTHER, FR_LOOP, FR_UNKNOWN };

#define INLOOP_DEPTH 64

struct frame {
	enum frame_kind kind;
	bool braced;		/* a { } block; else one statement (for (;;) x;) */
};

struct lexer {
	const char *p, *end;
	int line;		/* of *p, 1-based */
	bool bol;		/* only blanks since the line began */
};

static bool ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Skip blanks, comments, preprocessor lines, and literals' insides. */
static void skip_space(struct lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == '\n') {
			lx->line++;
			lx->bol = true;
			lx->p++;
		} else if (isspace((unsigned char)c)) {
			lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			for (lx->p += 2; lx->p < lx->end; lx->p++) {
				if (*lx->p == '\n')
					lx->line++;
				else if (*lx->p == '*' && lx->p + 1 < lx->end && lx->p[1] == '/')
					break;
			}
			lx->p += lx->p < lx->end ? 2 : 0;
		} else if (c == '#' && lx->bol) {
			/* A directive, with its backslash continuations. */
			while (lx->p < lx->end && *lx->p != '\n') {
				if (*lx->p == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n') {
					lx->line++;
					lx->p++;
				}
				lx->p++;
			}
		} else {
			return;
		}
	}
}

/* The next token: an identifier into `id` (true), or one character. */
static int next_token(struct lexer *lx, char *id, size_t idlen)
{
	const char *s;

	*id = '\0';
	skip_space(lx);
	if (lx->p >= lx->end)
		return 0;
	lx->bol = false;
	s = lx->p;
	if (ident_start((unsigned char)*s)) {
		size_t n = 0;

		while (lx->p < lx->end && ident_char((unsigned char)*lx->p))
			lx->p++;
		n = (size_t)(lx->p - s) < idlen - 1 ? (size_t)(lx->p - s) : idlen - 1;
		memcpy(id, s, n);
		id[n] = '\0';
		return 'a';
	}
	if (isdigit((unsigned char)*s)) {
		while (lx->p < lx->end && (ident_char((unsigned char)*lx->p) || *lx->p == '.'))
			lx->p++;
		return '0';
	}
	if (*s == '"' || *s == '\'') {
		for (lx->p++; lx->p < lx->end && *lx->p != *s && *lx->p != '\n'; lx->p++)
			if (*lx->p == '\\' && lx->p + 1 < lx->end)
				lx->p++;
		lx->p += lx->p < lx->end && *lx->p == *s;
		return '"';
	}
	lx->p++;
	return (unsigned char)*s;
}

/* What a block opened after `name (...)` is. */
static enum frame_kind head_kind(const char *name)
{
	static const char *const other[] = { "if", "switch", "scoped_guard",
		"scoped_cond_guard", "sizeof", "typeof", "__typeof__", "return" };

	if (!strcmp(name, "for") || !strcmp(name, "while"))
		return FR_LOOP;
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (!strcmp(name, other[i]))
			return FR_OTHER;
	/* list_for_each_entry(), xa_for_each(), do_each_thread() */
	if (strstr(name, "each") || starts_with(name, "for_") || starts_with(name, "while_"))
		return FR_LOOP;
	return FR_UNKNOWN;
}

struct state {
	struct frame st[INLOOP_DEPTH];
	int nr;
	bool overflow, entered;
	int paren;
	enum frame_kind paren_head;	/* of the outermost open '(' */
	enum frame_kind pending;	/* a head whose ')' just closed */
	bool after_do, after_else;
};

static void push(struct state *s, enum frame_kind k, bool braced)
{
	if (s->nr == INLOOP_DEPTH) {
		s->overflow = true;
		return;
	}
	s->st[s->nr].kind = k;
	s->st[s->nr++].braced = braced;
}

/* The statement that was an unbraced body has ended. */
static void pop_unbraced(struct state *s)
{
	while (s->nr && !s->st[s->nr - 1].braced)
		s->nr--;
}

/* The first token of a statement after a head: its body starts. */
static void body_starts(struct state *s, int tok)
{
	enum frame_kind k = s->after_do ? FR_LOOP : s->pending;

	if (tok == '{') {
		if (!s->entered && !s->nr) {
			k = FR_FUNC;
			s->entered = true;
		} else if (k == FR_NONE) {
			k = FR_OTHER;
		}
		push(s, k, true);
	} else if (tok == 'a' && (k == FR_LOOP || k == FR_UNKNOWN) && s->entered) {
		push(s, k, false);
	}
	s->pending = FR_NONE;
	s->after_do = s->after_else = false;
}

static void token(struct state *s, int tok, const char *id, enum frame_kind *last_ident)
{
	if (s->paren) {
		if (tok == '(')
			s->paren++;
		else if (tok == ')' && !--s->paren)
			s->pending = s->paren_head;
		return;
	}
	if (tok == '(') {
		s->paren = 1;
		s->paren_head = *last_ident;
		s->pending = FR_NONE;
		*last_ident = FR_NONE;
		return;
	}
	if (tok == '{' || (tok == 'a' && (s->pending != FR_NONE || s->after_do))) {
		body_starts(s, tok);
	} else if (tok == '}') {
		s->pending = FR_NONE;
		if (s->nr && s->st[s->nr - 1].braced)
			s->nr--;
		pop_unbraced(s);
	} else if (tok == ';') {
		s->pending = FR_NONE;
		pop_unbraced(s);
	} else {
		s->pending = FR_NONE;
	}
	if (tok == 'a') {
		s->after_do = !strcmp(id, "do");
		s->after_else = !strcmp(id, "else");
		*last_ident = head_kind(id);
	} else {
		*last_ident = FR_NONE;
	}
}

enum inloop inloop_at(const char *text, size_t len, int def_line, int line)
{
	struct lexer lx;
	struct state s = { .pending = FR_NONE, .paren_head = FR_NONE };
	enum frame_kind last = FR_NONE;
	char id[64];
	bool unknown = false;
	int tok;

	if (!text || def_line < 1 || line < def_line)
		return INLOOP_UNKNOWN;
	lx = (struct lexer){ text, text + len, 1, true };
	/* To the definition line. */
	while (lx.p < lx.end && lx.line < def_line) {
		if (*lx.p++ == '\n')
			lx.line++;
	}
	if (lx.line != def_line)
		return INLOOP_UNKNOWN;
	while ((tok = next_token(&lx, id, sizeof(id)))) {
		if (lx.line >= line) {
			/* The line's first token: the body of a head above? */
			if (tok == 'a' && (s.pending != FR_NONE || s.after_do))
				body_starts(&s, tok);
			break;
		}
		token(&s, tok, id, &last);
		if (s.entered && !s.nr)
			return INLOOP_UNKNOWN;	/* the function ended above the line */
	}
	if (s.overflow || !s.entered || !s.nr || lx.line < line)
		return INLOOP_UNKNOWN;
	for (int i = 0; i < s.nr; i++) {
		if (s.st[i].kind == FR_LOOP)
			return INLOOP_YES;
		unknown |= s.st[i].kind == FR_UNKNOWN;
	}
	return unknown ? INLOOP_UNKNOWN : INLOOP_NO;
}

static const char *const names[] = {
	[INLOOP_UNKNOWN] = "unknown", [INLOOP_NO] = "no", [INLOOP_YES] = "yes",
};

const char *inloop_name(enum inloop l)
{
	return (size_t)l < ARRAY_SIZE(names) ? names[l] : names[INLOOP_UNKNOWN];
}

enum inloop inloop_from_name(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return (enum inloop)i;
	return INLOOP_UNKNOWN;
}
