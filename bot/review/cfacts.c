/*
 * Facts about an added BUG/WARN from the patched C file, with libclang:
 * see cfacts.h.  The AST gives the structure (the function, its
 * statements, what each name refers to and its declared type); the
 * file's text gives what a reviewer would quote.  Extents are file
 * offsets: an expression inside a macro argument maps to the argument
 * as written (clang_getFileLocation), which is where the condition is.
 */
#include "cfacts.h"
#include "jsonval.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <sys/stat.h>

/* A name in the function and the declaration it refers to. */
struct ref {
	unsigned off, end;	/* extent of the reference */
	unsigned decl;		/* clang_hashCursor() of the declaration */
	char *name;
	char *type;		/* declared type as written ("__le32") */
	bool is_unsigned;
};

/* An assignment (or an initialised declaration) in the function. */
struct assign {
	unsigned off;		/* where it starts */
	unsigned decl;		/* the variable assigned; 0: not a plain name */
	char *lhs;		/* as written: "p", "sbi->s_buf" */
	unsigned rhs, rhs_end;
};

/* A statement that leaves the function (return/goto), and its block. */
struct way_out {
	CXCursor c;
	CXCursor parent;	/* the compound statement or if around it */
};

struct reader {
	const char *text;
	size_t len;
	CXFile file;
	unsigned call, call_end;	/* the macro's name .. past its ')' */
	unsigned cond, cond_end;	/* its first argument */
	unsigned stmt, stmt_end;	/* the statement that holds the call */
	CXCursor fn;
	struct ref *refs;
	size_t nr_refs, alloc_refs;
	struct assign *as;
	size_t nr_as, alloc_as;
	struct way_out *outs;
	size_t nr_outs, alloc_outs;
	unsigned *disk, *user;		/* declarations whose values come from there */
	size_t nr_disk, alloc_disk, nr_user, alloc_user;
};

/* ---- text ---------------------------------------------------------------- */

static bool extent(const struct reader *rd, CXCursor c, unsigned *b, unsigned *e)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned o1, o2;

	clang_getFileLocation(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
	clang_getFileLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
	if (!f1 || !f2 || !clang_File_isEqual(f1, rd->file) ||
	    !clang_File_isEqual(f2, rd->file) || o2 < o1 || o2 > rd->len)
		return false;
	*b = o1;
	*e = o2;
	return true;
}

/* text[b..e) with each run of blanks that holds a newline as one space. */
static char *slice(const struct reader *rd, unsigned b, unsigned e)
{
	struct strbuf sb = STRBUF_INIT;

	for (unsigned i = b; i < e && i < rd->len; i++) {
		if (isspace((unsigned char)rd->text[i])) {
			unsigned j = i;
			bool nl = false;

			while (j < e && isspace((unsigned char)rd->text[j]))
				nl |= rd->text[j++] == '\n';
			if (nl) {
				strbuf_addch(&sb, ' ');
				i = j - 1;
				continue;
			}
		}
		strbuf_addch(&sb, rd->text[i]);
	}
	strbuf_trim(&sb);
	return strbuf_detach(&sb, NULL);
}

static char *cursor_text(const struct reader *rd, CXCursor c)
{
	unsigned b, e;

	return extent(rd, c, &b, &e) ? slice(rd, b, e) : xstrdup("");
}

static int line_of(const struct reader *rd, unsigned off)
{
	int line = 1;

	for (unsigned i = 0; i < off && i < rd->len; i++)
		line += rd->text[i] == '\n';
	return line;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Does `hay` hold `word` as a whole word, followed by `after` ("->", "")? */
static bool has_word(const char *hay, const char *word, const char *after)
{
	size_t n = strlen(word);

	for (const char *p = strstr(hay, word); p; p = strstr(p + 1, word))
		if ((p == hay || !word_char(p[-1])) && !word_char(p[n]) &&
		    starts_with(p + n, after))
			return true;
	return false;
}

/* Text without blanks and outer parentheses, for comparing conditions. */
static void squeeze(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			strbuf_addch(out, *s);
	while (out->len > 2 && out->buf[0] == '(' && out->buf[out->len - 1] == ')') {
		int depth = 0;
		bool outer = true;

		for (size_t i = 0; i + 1 < out->len && outer; i++) {
			depth += out->buf[i] == '(';
			depth -= out->buf[i] == ')';
			outer = depth > 0;
		}
		if (!outer)
			break;
		memmove(out->buf, out->buf + 1, out->len - 2);
		strbuf_setlen(out, out->len - 2);
	}
}

/*
 * The call of `macro` on line `line`: its name, the end of its
 * arguments, and its first argument.
 */
static bool find_call(struct reader *rd, const char *macro, int line)
{
	size_t n = strlen(macro), i = 0;
	int depth = 0;
	char quote = 0;

	for (int l = 1; l < line && i < rd->len; i++)
		l += rd->text[i] == '\n';
	for (; i + n < rd->len && rd->text[i] != '\n'; i++) {
		size_t k = i + n;

		if (memcmp(rd->text + i, macro, n) || (i && word_char(rd->text[i - 1])))
			continue;
		while (k < rd->len && (rd->text[k] == ' ' || rd->text[k] == '\t'))
			k++;
		if (k < rd->len && rd->text[k] == '(')
			break;
	}
	if (i + n >= rd->len || rd->text[i] == '\n')
		return false;
	rd->call = i;
	i = strchr(rd->text + i, '(') - rd->text;
	rd->cond = i + 1;
	rd->cond_end = 0;
	for (; i < rd->len; i++) {
		char c = rd->text[i];

		if (quote) {
			if (c == '\\')
				i++;
			else if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '"' || c == '\'')
			quote = c;
		else if (c == '(')
			depth++;
		else if (c == ',' && depth == 1 && !rd->cond_end)
			rd->cond_end = i;
		else if (c == ')' && !--depth)
			break;
	}
	if (i >= rd->len)
		return false;
	if (!rd->cond_end)
		rd->cond_end = i;
	rd->call_end = i + 1;
	return true;
}

/* ---- the AST ------------------------------------------------------------- */

struct kids {
	CXCursor *v;
	size_t nr, alloc;
};

static enum CXChildVisitResult push_kid(CXCursor c, CXCursor parent, CXClientData data)
{
	struct kids *k = data;

	ALLOC_GROW(k->v, k->nr + 1, k->alloc);
	k->v[k->nr++] = c;
	return CXChildVisit_Continue;
}

static void kids_of(struct kids *out, CXCursor c)
{
	out->nr = 0;
	clang_visitChildren(c, push_kid, out);
}

static bool is_unsigned_kind(enum CXTypeKind k)
{
	return k == CXType_UChar || k == CXType_Char_U || k == CXType_UShort ||
	       k == CXType_UInt || k == CXType_ULong || k == CXType_ULongLong ||
	       k == CXType_UInt128;
}

static bool is_signed_kind(enum CXTypeKind k)
{
	return k == CXType_SChar || k == CXType_Char_S || k == CXType_Short ||
	       k == CXType_Int || k == CXType_Long || k == CXType_LongLong ||
	       k == CXType_Int128;
}

static bool disk_type(const char *type)
{
	return strstr(type, "__le") || strstr(type, "__be");
}

/* Through implicit casts and parentheses to the expression below. */
static CXCursor unwrap(CXCursor c)
{
	struct kids k = { NULL, 0, 0 };

	for (;;) {
		enum CXCursorKind kind = clang_getCursorKind(c);

		if (kind != CXCursor_UnexposedExpr && kind != CXCursor_ParenExpr)
			break;
		kids_of(&k, c);
		if (k.nr != 1)
			break;
		c = k.v[0];
	}
	free(k.v);
	return c;
}

static void add_ref(struct reader *rd, CXCursor c, unsigned b, unsigned e)
{
	CXCursor d = clang_getCursorReferenced(c);
	CXType t;
	CXString s;
	struct ref *r;

	if (clang_Cursor_isNull(d))
		return;
	t = clang_getCursorType(d);
	ALLOC_GROW(rd->refs, rd->nr_refs + 1, rd->alloc_refs);
	r = &rd->refs[rd->nr_refs++];
	r->off = b;
	r->end = e;
	r->decl = clang_hashCursor(d);
	s = clang_getCursorSpelling(d);
	r->name = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	s = clang_getTypeSpelling(t);
	r->type = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	r->is_unsigned = is_unsigned_kind(clang_getCanonicalType(t).kind);
}

/* The operator of binary expression `c` with operands `l` and `r`. */
static char *binop(const struct reader *rd, CXCursor l, CXCursor r)
{
	unsigned lb, le, rb, re;

	if (!extent(rd, l, &lb, &le) || !extent(rd, r, &rb, &re) || rb < le)
		return xstrdup("");
	return slice(rd, le, rb);
}

static void add_assign(struct reader *rd, unsigned off, CXCursor lhs, unsigned decl,
		       CXCursor rhs)
{
	struct assign *a;
	unsigned b, e;

	if (!extent(rd, rhs, &b, &e))
		return;
	ALLOC_GROW(rd->as, rd->nr_as + 1, rd->alloc_as);
	a = &rd->as[rd->nr_as++];
	a->off = off;
	a->decl = decl;
	a->lhs = clang_Cursor_isNull(lhs) ? NULL : cursor_text(rd, lhs);
	a->rhs = b;
	a->rhs_end = e;
}

/* Everything below `c` in the function: references, assignments, exits. */
static void collect(struct reader *rd, CXCursor c, CXCursor parent)
{
	enum CXCursorKind kind = clang_getCursorKind(c);
	struct kids k = { NULL, 0, 0 };
	unsigned b, e;

	if (!extent(rd, c, &b, &e))
		return;
	if (kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr)
		add_ref(rd, c, b, e);
	if (kind == CXCursor_ReturnStmt || kind == CXCursor_GotoStmt) {
		ALLOC_GROW(rd->outs, rd->nr_outs + 1, rd->alloc_outs);
		rd->outs[rd->nr_outs].c = c;
		rd->outs[rd->nr_outs++].parent = parent;
	}
	kids_of(&k, c);
	if (kind == CXCursor_VarDecl && k.nr && clang_isExpression(clang_getCursorKind(k.v[k.nr - 1]))) {
		CXString s = clang_getCursorSpelling(c);
		struct assign *a;

		add_assign(rd, b, clang_getNullCursor(), clang_hashCursor(c), k.v[k.nr - 1]);
		if (rd->nr_as && rd->as[rd->nr_as - 1].off == b) {
			a = &rd->as[rd->nr_as - 1];
			a->lhs = xstrdup(clang_getCString(s));
		}
		clang_disposeString(s);
	} else if (kind == CXCursor_BinaryOperator && k.nr == 2) {
		char *op = binop(rd, k.v[0], k.v[1]);

		if (!strcmp(op, "=")) {
			CXCursor l = unwrap(k.v[0]);
			unsigned decl = clang_getCursorKind(l) == CXCursor_DeclRefExpr ?
				clang_hashCursor(clang_getCursorReferenced(l)) : 0;

			add_assign(rd, b, k.v[0], decl, k.v[1]);
		}
		free(op);
	}
	for (size_t i = 0; i < k.nr; i++)
		collect(rd, k.v[i], c);
	free(k.v);
}

static bool in_set(const unsigned *v, size_t nr, unsigned d)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == d)
			return true;
	return false;
}

/* A reference in [b, e) to a declaration of the set, or of disk type. */
static const struct ref *ref_in(const struct reader *rd, unsigned b, unsigned e,
				const unsigned *set, size_t nr, bool disk)
{
	for (size_t i = 0; i < rd->nr_refs; i++) {
		const struct ref *r = &rd->refs[i];

		if (r->off < b || r->off >= e)
			continue;
		if (in_set(set, nr, r->decl) || (disk && disk_type(r->type)))
			return r;
	}
	return NULL;
}

/* Variables assigned from a value of the set (or of disk type) join it. */
static void propagate(const struct reader *rd, unsigned **set, size_t *nr, size_t *alloc,
		      bool disk)
{
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < rd->nr_as; i++) {
			const struct assign *a = &rd->as[i];

			if (!a->decl || in_set(*set, *nr, a->decl) ||
			    !ref_in(rd, a->rhs, a->rhs_end, *set, *nr, disk))
				continue;
			ALLOC_GROW(*set, *nr + 1, *alloc);
			(*set)[(*nr)++] = a->decl;
		}
}

static void add_decl(unsigned **set, size_t *nr, size_t *alloc, unsigned d)
{
	ALLOC_GROW(*set, *nr + 1, *alloc);
	(*set)[(*nr)++] = d;
}

/* The calls that fill a variable from user space, as written in C. */
static const char *const user_copies[] = { "copy_from_user(", "__copy_from_user(",
	"_copy_from_user(", "copy_struct_from_user(", "get_user(", "__get_user(",
	"strncpy_from_user(" };
static const char *const user_dups[] = { "memdup_user(", "memdup_user_nul(",
	"vmemdup_user(", "strndup_user(", "memdup_array_user(",
	/* a netlink attribute: genl and rtnetlink requests come from user space */
	"nla_get_", "nla_data(" };
/* Parsers whose last argument gets the value of a string ("kstrtoul(buf,
 * 0, &t)"): user space's in a sysfs store, which gets its buffer. */
static const char *const user_parsers[] = { "kstrto", "sscanf(" };

/* In "f(a, b, &x)" with x at text[p..]: is f one of user_parsers? */
static bool parsed_into(const struct reader *rd, unsigned p, unsigned body)
{
	int depth = 0;

	while (p > body && (rd->text[p - 1] == '&' || rd->text[p - 1] == ' '))
		p--;
	if (p <= body || rd->text[p - 1] != ',')
		return false;
	for (p--; p > body; p--) {
		char c = rd->text[p - 1];

		if (c == ')')
			depth++;
		else if (c == '(' && depth)
			depth--;
		else if (c == '(')
			break;
	}
	if (p <= body)
		return false;
	p--;
	while (p > body && word_char(rd->text[p - 1]))
		p--;
	for (size_t k = 0; k < ARRAY_SIZE(user_parsers); k++)
		if (!strncmp(rd->text + p, user_parsers[k], strlen(user_parsers[k])))
			return true;
	return false;
}

/*
 * Seed the user set: the first argument of a copy from user space (x in
 * "copy_from_user(&x, ...)" or "get_user(x, p)"), a variable assigned
 * from memdup_user() and friends or from a netlink attribute
 * (nla_get_u32()), an ioctl's `arg`, and in a sysfs store (a function
 * named *_store) its `buf` and what kstrto*()/sscanf() parse into.
 */
static void seed_user(struct reader *rd, const char *fn_name, unsigned body)
{
	bool store = ends_with(fn_name, "_store");

	for (size_t i = 0; i < rd->nr_refs; i++) {
		const struct ref *r = &rd->refs[i];
		unsigned p = r->off;

		if (r->off >= body && ((!strcmp(r->name, "arg") && strstr(fn_name, "ioctl")) ||
				       (store && (!strcmp(r->name, "buf") ||
						  parsed_into(rd, p, body))))) {
			add_decl(&rd->user, &rd->nr_user, &rd->alloc_user, r->decl);
			continue;
		}
		/* Back over "&" and blanks to the "(" of a copy call. */
		while (p > body && (rd->text[p - 1] == '&' || rd->text[p - 1] == ' '))
			p--;
		if (p <= body || rd->text[p - 1] != '(')
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(user_copies); k++) {
			size_t n = strlen(user_copies[k]);

			if (p >= body + n && !memcmp(rd->text + p - n, user_copies[k], n) &&
			    !word_char(rd->text[p - n - 1]))
				add_decl(&rd->user, &rd->nr_user, &rd->alloc_user, r->decl);
		}
	}
	for (size_t i = 0; i < rd->nr_as; i++) {
		const struct assign *a = &rd->as[i];

		for (size_t k = 0; a->decl && k < ARRAY_SIZE(user_dups); k++)
			if (a->rhs_end - a->rhs > strlen(user_dups[k]) &&
			    !memcmp(rd->text + a->rhs, user_dups[k], strlen(user_dups[k])))
				add_decl(&rd->user, &rd->nr_user, &rd->alloc_user, a->decl);
	}
}

/* ---- what happens around the call --------------------------------------- */

/*
 * Does the function return a truth value in an int, as a verifier does
 * ("return 1;" ... "return provided == calculated;")?  Every return is
 * 0, 1, a comparison, a negation or a logical and/or, and one at least
 * is not a literal (a function that only returns 0 returns success).
 * Its callers test it with "if (!f())": an errno would read as true.
 */
static bool truth_valued(const struct reader *rd)
{
	static const char *const ops[] = { "==", "!=", "<", ">", "<=", ">=", "&&", "||" };
	struct kids k = { NULL, 0, 0 };
	bool tested = false, truth = rd->nr_outs > 0;

	for (size_t i = 0; i < rd->nr_outs && truth; i++) {
		CXCursor e;
		char *t, *op = NULL;

		if (clang_getCursorKind(rd->outs[i].c) != CXCursor_ReturnStmt)
			continue;
		kids_of(&k, rd->outs[i].c);
		if (k.nr != 1) {
			truth = false;
			break;
		}
		e = unwrap(k.v[0]);
		t = cursor_text(rd, e);
		if (!strcmp(t, "0") || !strcmp(t, "1")) {
			free(t);
			continue;
		}
		if (clang_getCursorKind(e) == CXCursor_UnaryOperator && t[0] == '!') {
			tested = true;
		} else if (clang_getCursorKind(e) == CXCursor_BinaryOperator) {
			kids_of(&k, e);
			op = k.nr == 2 ? binop(rd, k.v[0], k.v[1]) : xstrdup("");
			truth = false;
			for (size_t n = 0; n < ARRAY_SIZE(ops); n++)
				truth |= !strcmp(op, ops[n]);
			tested = truth;
		} else {
			truth = false;
		}
		free(op);
		free(t);
	}
	free(k.v);
	return truth && tested;
}

static enum cfacts_ret ret_kind(CXType t)
{
	CXType c = clang_getCanonicalType(t);

	if (c.kind == CXType_Void)
		return CF_RET_VOID;
	if (c.kind == CXType_Bool)
		return CF_RET_BOOL;
	if (c.kind == CXType_Pointer)
		return CF_RET_PTR;
	if (is_signed_kind(c.kind))
		return CF_RET_INT;
	return CF_RET_OTHER;
}

/* Is the return or goto `o` a failure exit, and what it says, into `out`. */
static bool failure_exit(struct strbuf *out, char **var, const struct reader *rd,
			 const struct way_out *o, enum cfacts_ret ret)
{
	char *self = cursor_text(rd, o->c), *v = self;
	struct kids k = { NULL, 0, 0 };
	struct strvec before = STRVEC_INIT;
	bool fail = false, errno_set = false;
	size_t at;

	if (starts_with(v, "return"))
		v += strlen("return");
	else if (starts_with(v, "goto"))
		v += strlen("goto");
	v += strspn(v, " \t(");
	/* The statements just above it in its block that set an error or
	 * undo something ("err = -EIO;", "spin_unlock(&l);"). */
	if (clang_getCursorKind(o->parent) == CXCursor_CompoundStmt) {
		kids_of(&k, o->parent);
		for (at = 0; at < k.nr && !clang_equalCursors(k.v[at], o->c); at++)
			;
		while (at-- > 0) {
			char *t = cursor_text(rd, k.v[at]);
			bool err = strstr(t, "= -E") || strstr(t, "= ERR_PTR(") ||
				   strstr(t, "= PTR_ERR(");

			if (!err && !strstr(t, "unlock") && !strstr(t, "_put(")) {
				free(t);
				break;
			}
			errno_set |= err;
			strvec_push(&before, t);
			free(t);
		}
	}
	/* Only exits that say their error themselves: "return PTR_ERR(bh);"
	 * or "return err;" belong to the failure they follow. */
	if (clang_getCursorKind(o->c) == CXCursor_ReturnStmt) {
		fail = strstr(v, "-E") || (ret == CF_RET_PTR && starts_with(v, "NULL")) ||
		       (ret == CF_RET_BOOL && starts_with(v, "false")) || errno_set;
	} else {
		fail = errno_set || starts_with(v, "err") || starts_with(v, "fail") ||
		       starts_with(v, "bad") || starts_with(v, "out_err");
		/* "if (err) goto out;": the label returns err, which the way
		 * out from the call must set first. */
		if (!fail && clang_getCursorKind(o->parent) == CXCursor_IfStmt) {
			struct strbuf c = STRBUF_INIT;
			char *t;

			kids_of(&k, o->parent);
			t = k.nr ? cursor_text(rd, k.v[0]) : xstrdup("");
			squeeze(&c, t);
			if (ends_with(c.buf, "<0"))
				strbuf_setlen(&c, c.len - 2);
			if (c.len && strspn(c.buf, "abcdefghijklmnopqrstuvwxyz_") == c.len) {
				*var = strbuf_detach(&c, NULL);
				fail = true;
			}
			strbuf_release(&c);
			free(t);
		}
	}
	if (fail) {
		/* An expression's extent ends before its ';'. */
		for (size_t i = before.nr; i-- > 0;)
			strbuf_addf(out, "%s%s\n", before.v[i],
				    ends_with(before.v[i], ";") ? "" : ";");
		strbuf_addstr(out, self);
		if (out->len && out->buf[out->len - 1] != ';')
			strbuf_addch(out, ';');
	}
	free(self);
	free(k.v);
	strvec_clear(&before);
	return fail;
}

/*
 * Lock and unlock calls in text[b..e): "spin_lock(", "rtnl_lock(",
 * "spin_lock_irqsave(" count as locks, "...unlock...(" as unlocks.
 */
static void count_locks(const struct reader *rd, unsigned b, unsigned e, int *locks,
			int *unlocks)
{
	for (unsigned i = b; i + 5 < e; i++) {
		const char *p = rd->text + i;

		if (memcmp(p, "lock", 4) || !(p[4] == '(' || !strncmp(p + 4, "_irq", 4) ||
					      !strncmp(p + 4, "_bh(", 4)))
			continue;
		/* "mutex_unlock(", not "dirblock(" */
		if (i >= b + 3 && !memcmp(p - 2, "un", 2) && !isalnum((unsigned char)p[-3]))
			(*unlocks)++;
		else if (i > b && p[-1] == '_')
			(*locks)++;
	}
}

/*
 * The nearest failure exit that leaves at the call's locking state: an
 * exit above a lock taken before the call, or below an unlock after it,
 * would return holding the lock (or drop it twice).  With a lock held
 * and no such exit, the function has no way out here (cf->locked).
 */
static void nearest_exit(struct cfacts *out, const struct reader *rd, unsigned body)
{
	int call_line = line_of(rd, rd->call), best = -1;
	struct strbuf sb = STRBUF_INIT;
	char *var;

	for (size_t i = 0; i < rd->nr_outs; i++) {
		unsigned b, e;
		int line, d;

		int locks = 0, unlocks = 0;

		if (!extent(rd, rd->outs[i].c, &b, &e) || (b >= rd->stmt && b < rd->stmt_end))
			continue;
		if (e <= rd->stmt)
			count_locks(rd, e, rd->stmt, &locks, &unlocks);
		else
			count_locks(rd, rd->stmt_end, b, &locks, &unlocks);
		if (locks || unlocks)
			continue;
		line = line_of(rd, b);
		d = line > call_line ? line - call_line : call_line - line;
		/* Above wins a tie: the code the reader has just read. */
		if (best >= 0 && (d > best || (d == best && line > call_line)))
			continue;
		strbuf_reset(&sb);
		var = NULL;
		if (!failure_exit(&sb, &var, rd, &rd->outs[i], out->ret))
			continue;
		best = d;
		free(out->exit);
		free(out->exit_var);
		out->exit = xstrdup(sb.buf);
		out->exit_var = var;
		out->exit_line = line;
	}
	strbuf_release(&sb);
	{
		int locks = 0, unlocks = 0;

		count_locks(rd, body, rd->stmt, &locks, &unlocks);
		out->locked = locks > unlocks;
	}
}

/* The corruption errno of the function's own failure exits (cf->corrupt). */
static void own_corrupt(struct cfacts *out, const struct reader *rd)
{
	static const char *const names[] = { "-EFSCORRUPTED", "-EUCLEAN" };
	struct strbuf sb = STRBUF_INIT;
	char *var;

	for (size_t i = 0; i < rd->nr_outs && !out->corrupt; i++) {
		bool fail;

		strbuf_reset(&sb);
		var = NULL;
		fail = failure_exit(&sb, &var, rd, &rd->outs[i], out->ret);
		free(var);
		for (size_t j = 0; fail && j < ARRAY_SIZE(names) && !out->corrupt; j++)
			if (has_word(sb.buf, names[j], ""))
				out->corrupt = xstrdup(names[j]);
	}
	strbuf_release(&sb);
}

/* "!p", "p == NULL", "NULL == p", "!(p)": the pointer, as written. */
static char *null_tested(const char *cond)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	size_t n;

	squeeze(&sb, cond);
	p = sb.buf;
	if (*p == '!') {
		struct strbuf in = STRBUF_INIT;

		squeeze(&in, p + 1);
		strbuf_reset(&sb);
		strbuf_addbuf(&sb, &in);
		strbuf_release(&in);
	} else if (ends_with(p, "==NULL")) {
		strbuf_setlen(&sb, sb.len - 6);
	} else if (starts_with(p, "NULL==")) {
		memmove(sb.buf, sb.buf + 6, sb.len - 5);
		strbuf_setlen(&sb, sb.len - 6);
	} else {
		strbuf_release(&sb);
		return NULL;
	}
	p = sb.buf;
	n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_->.");
	if (!n || p[n] || isdigit((unsigned char)*p)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * Walk down from the function body to the statement that holds the call
 * (a child of the innermost block around it): the enclosing ifs on the
 * way, what comes after it.
 */
static void around(struct cfacts *out, struct reader *rd, CXCursor body)
{
	struct kids k = { NULL, 0, 0 };
	CXCursor blocks[64], cur = body;
	size_t at[64], depth = 0;
	struct strbuf want = STRBUF_INIT, have = STRBUF_INIT;
	bool in_loop = false;

	squeeze(&want, out->cond ? out->cond : "");
	for (;;) {
		enum CXCursorKind kind = clang_getCursorKind(cur);
		size_t i;
		unsigned b, e;

		kids_of(&k, cur);
		for (i = 0; i < k.nr; i++)
			if (extent(rd, k.v[i], &b, &e) && b <= rd->call && rd->call < e)
				break;
		if (i == k.nr)
			break;
		if (kind == CXCursor_CompoundStmt) {
			if (depth == ARRAY_SIZE(blocks))
				break;
			blocks[depth] = cur;
			at[depth++] = i;
			rd->stmt = b;
			rd->stmt_end = e;
		} else if (kind == CXCursor_IfStmt && i > 0 && k.nr >= 2) {
			/* In the then or else branch: does the if test it? */
			strbuf_reset(&have);
			{
				char *t = cursor_text(rd, k.v[0]);

				squeeze(&have, t);
				free(t);
			}
			if (i == 1 && want.len && !strcmp(have.buf, want.buf))
				out->dup_if = true;
		} else if (kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt ||
			   kind == CXCursor_DoStmt) {
			in_loop = true;
		}
		if (clang_isExpression(clang_getCursorKind(k.v[i])))
			break;
		cur = k.v[i];
	}
	/* The next statement: after ours in its block, else after the block's
	 * own statement one level up (a loop goes round again instead). */
	out->follows = in_loop;
	for (size_t d = depth; d-- > 0 && !in_loop;) {
		kids_of(&k, blocks[d]);
		if (at[d] + 1 < k.nr) {
			CXCursor next = k.v[at[d] + 1];
			enum CXCursorKind nk = clang_getCursorKind(next);
			char *t = cursor_text(rd, next);

			out->follows = nk != CXCursor_ReturnStmt;
			out->recovers = nk == CXCursor_ReturnStmt || nk == CXCursor_GotoStmt ||
					nk == CXCursor_BreakStmt || nk == CXCursor_ContinueStmt;
			/* A fallback: the next line assigns what the condition tested. */
			for (size_t a = 0; a < rd->nr_as && !out->recovers; a++) {
				unsigned b, e;

				if (extent(rd, next, &b, &e) && rd->as[a].off == b && rd->as[a].lhs &&
				    out->cond && has_word(out->cond, rd->as[a].lhs, ""))
					out->recovers = true;
			}
			/* The pointer the call tests, used right after it. */
			if (d == depth - 1) {
				char *p = out->cond ? null_tested(out->cond) : NULL;

				for (size_t j = at[d] + 1; p && j < k.nr && j <= at[d] + 3; j++) {
					enum CXCursorKind jk = clang_getCursorKind(k.v[j]);
					char *tj = cursor_text(rd, k.v[j]);
					bool deref = has_word(tj, p, "->");

					free(tj);
					/* Leaving, or testing it again first, guards it. */
					if (jk == CXCursor_ReturnStmt || jk == CXCursor_GotoStmt ||
					    (jk == CXCursor_IfStmt && !deref))
						break;
					if (deref) {
						out->deref = xstrdup(p);
						break;
					}
				}
				free(p);
			}
			free(t);
			break;
		}
	}
	free(k.v);
	strbuf_release(&want);
	strbuf_release(&have);
}

static const char *const statement_macros[] = { "BUG_ON", "BUG", "BUILD_BUG_ON",
	"BUILD_BUG_ON_MSG", "VM_BUG_ON" };

static void operands(struct cfacts *out, struct reader *rd, CXCursor body)
{
	const struct ref *r;
	unsigned bb, be;

	if (!extent(rd, body, &bb, &be))
		return;
	propagate(rd, &rd->disk, &rd->nr_disk, &rd->alloc_disk, true);
	if ((r = ref_in(rd, rd->cond, rd->cond_end, rd->disk, rd->nr_disk, true)))
		out->disk = xstrdup(r->name);
	seed_user(rd, out->function, bb);
	propagate(rd, &rd->user, &rd->nr_user, &rd->alloc_user, false);
	if ((r = ref_in(rd, rd->cond, rd->cond_end, rd->user, rd->nr_user, false)))
		out->user = xstrdup(r->name);
}

/* "u < 0", "u >= 0", "0 > u" with u unsigned, among the condition's parts. */
static enum CXChildVisitResult find_impossible(CXCursor c, CXCursor parent, CXClientData data)
{
	struct reader *rd = ((void **)data)[0];
	struct cfacts *out = ((void **)data)[1];
	struct kids k = { NULL, 0, 0 };
	unsigned b, e;

	if (out->impossible || !extent(rd, c, &b, &e) || e <= rd->cond || b >= rd->cond_end)
		return CXChildVisit_Continue;
	if (clang_getCursorKind(c) == CXCursor_BinaryOperator && b >= rd->cond) {
		kids_of(&k, c);
		if (k.nr == 2) {
			char *op = binop(rd, k.v[0], k.v[1]);
			char *l = cursor_text(rd, k.v[0]), *rt = cursor_text(rd, k.v[1]);
			CXCursor lu = unwrap(k.v[0]), ru = unwrap(k.v[1]);
			bool lun = is_unsigned_kind(clang_getCanonicalType(clang_getCursorType(lu)).kind);
			bool run = is_unsigned_kind(clang_getCanonicalType(clang_getCursorType(ru)).kind);

			if (((!strcmp(op, "<") || !strcmp(op, ">=")) && !strcmp(rt, "0") && lun) ||
			    ((!strcmp(op, ">") || !strcmp(op, "<=")) && !strcmp(l, "0") && run))
				out->impossible = slice(rd, b, e);
			free(op);
			free(l);
			free(rt);
		}
		free(k.v);
	}
	return CXChildVisit_Recurse;
}

static void top_or(struct cfacts *out)
{
	int depth = 0;

	for (const char *p = out->cond; *p; p++) {
		depth += *p == '(';
		depth -= *p == ')';
		if (!depth && p[0] == '|' && p[1] == '|')
			out->cond_or = true;
	}
}

/*
 * Does the allocation rhs[0..n) warn when it fails, as the after-alloc
 * advice says: its flags are written out (a GFP_ constant; flags passed
 * in as a variable may hold anything) and hold neither __GFP_NOWARN nor
 * GFP_NOWAIT, which includes __GFP_NOWARN since 6.11 (gfp_types.h).
 */
static bool allocator_warns(const char *rhs, size_t n)
{
	return memmem(rhs, n, "GFP_", 4) && !memmem(rhs, n, "__GFP_NOWARN", 12) &&
	       !memmem(rhs, n, "GFP_NOWAIT", 10);
}

static void alloc_tested(struct cfacts *out, const struct reader *rd, const struct strvec *calls)
{
	char *p = null_tested(out->cond);
	const struct assign *last = NULL;

	for (size_t i = 0; p && i < rd->nr_as; i++) {
		struct strbuf lhs = STRBUF_INIT;

		if (rd->as[i].off >= rd->call || !rd->as[i].lhs)
			continue;
		squeeze(&lhs, rd->as[i].lhs);
		if (!strcmp(lhs.buf, p))
			last = &rd->as[i];
		strbuf_release(&lhs);
	}
	for (size_t k = 0; last && calls && k < calls->nr; k++) {
		size_t n = strlen(calls->v[k]);

		if (last->rhs_end - last->rhs > n && !memcmp(rd->text + last->rhs, calls->v[k], n)) {
			if (allocator_warns(rd->text + last->rhs, last->rhs_end - last->rhs))
				out->alloc = xstrdup(p);
			break;
		}
	}
	free(p);
}

static CXCursor find_function(const struct reader *rd, CXTranslationUnit tu)
{
	struct kids k = { NULL, 0, 0 };
	CXCursor fn = clang_getNullCursor();

	kids_of(&k, clang_getTranslationUnitCursor(tu));
	for (size_t i = 0; i < k.nr; i++) {
		unsigned b, e;

		if (clang_getCursorKind(k.v[i]) == CXCursor_FunctionDecl &&
		    clang_isCursorDefinition(k.v[i]) && extent(rd, k.v[i], &b, &e) &&
		    b <= rd->call && rd->call < e) {
			fn = k.v[i];
			break;
		}
	}
	free(k.v);
	return fn;
}

static void reader_release(struct reader *rd)
{
	for (size_t i = 0; i < rd->nr_refs; i++) {
		free(rd->refs[i].name);
		free(rd->refs[i].type);
	}
	for (size_t i = 0; i < rd->nr_as; i++)
		free(rd->as[i].lhs);
	free(rd->refs);
	free(rd->as);
	free(rd->outs);
	free(rd->disk);
	free(rd->user);
}

/* What kind of macro `macro` is: a statement, an assertion. */
static void macro_kind(struct cfacts *out, const char *macro)
{
	out->statement_macro = false;
	for (size_t i = 0; i < ARRAY_SIZE(statement_macros); i++)
		out->statement_macro |= !strcmp(macro, statement_macros[i]);
	out->statement_macro |= starts_with(macro, "VM_");
	out->assertion = strstr(macro, "ASSERT") != NULL;
	out->statement_macro |= out->assertion;
}

/* The facts of the call `rd` found (find_call()) in the parsed `tu`. */
static void read_call(struct cfacts *out, struct reader *rd, CXTranslationUnit tu,
		      const char *path, const struct strvec *alloc_calls)
{
	CXCursor body = clang_getNullCursor();
	struct kids k = { NULL, 0, 0 };
	CXString s;

	rd->file = clang_getFile(tu, path);
	rd->fn = find_function(rd, tu);
	if (clang_Cursor_isNull(rd->fn))
		goto out;
	kids_of(&k, rd->fn);
	for (size_t i = 0; i < k.nr; i++)
		if (clang_getCursorKind(k.v[i]) == CXCursor_CompoundStmt)
			body = k.v[i];
	if (clang_Cursor_isNull(body))
		goto out;
	out->found = true;
	s = clang_getCursorSpelling(rd->fn);
	out->function = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	{
		unsigned fb, fe;

		if (extent(rd, rd->fn, &fb, &fe))
			out->def_line = line_of(rd, fb);
	}
	{
		CXType rt = clang_getResultType(clang_getCursorType(rd->fn));

		s = clang_getTypeSpelling(rt);
		out->ret_type = xstrdup(clang_getCString(s));
		clang_disposeString(s);
		out->ret = ret_kind(rt);
	}
	collect(rd, body, rd->fn);
	if (out->ret == CF_RET_PTR)
		for (size_t i = 0; i < rd->nr_outs; i++) {
			char *t = cursor_text(rd, rd->outs[i].c);

			if (strstr(t, "ERR_PTR(") || strstr(t, "ERR_CAST("))
				out->ret = CF_RET_ERR_PTR;
			free(t);
		}
	if (out->ret == CF_RET_INT && truth_valued(rd))
		out->ret = CF_RET_BOOL;
	around(out, rd, body);
	{
		unsigned bb, be;

		if (extent(rd, body, &bb, &be))
			nearest_exit(out, rd, bb);
	}
	own_corrupt(out, rd);
	operands(out, rd, body);
	{
		void *data[2] = { rd, out };

		clang_visitChildren(body, find_impossible, data);
	}
	if (alloc_calls)
		alloc_tested(out, rd, alloc_calls);
out:
	free(k.v);
}

int cfacts_read_calls(struct cfacts *out, int *rets, const char *path, const char *text,
		      size_t len, const struct cfacts_call *calls, size_t n,
		      const struct cfacts_opts *o)
{
	struct reader *rds = xcalloc(n + 1, sizeof(*rds));
	struct strvec args = STRVEC_INIT;
	struct CXUnsavedFile unsaved = { path, text, (unsigned long)len };
	CXIndex idx = NULL;
	CXTranslationUnit tu = NULL;
	enum CXErrorCode err;
	bool any = false;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		rds[i].text = text;
		rds[i].len = len;
		macro_kind(&out[i], calls[i].macro);
		rets[i] = 0;
		if (!find_call(&rds[i], calls[i].macro, calls[i].line)) {
			rets[i] = WW_ENOTFOUND;
			continue;
		}
		out[i].cond = slice(&rds[i], rds[i].cond, rds[i].cond_end);
		top_or(&out[i]);
		any = true;
	}
	if (!any)
		goto out;
	if (o->flags)
		for (size_t i = 0; i < o->flags->nr; i++)
			strvec_push(&args, o->flags->v[i]);
	strvec_pushl(&args, "-xc", "-std=gnu11", "-Wno-everything", NULL);
	idx = clang_createIndex(0, 0);
	err = clang_parseTranslationUnit2(idx, path, args.v, (int)args.nr, &unsaved, 1,
					  CXTranslationUnit_KeepGoing, &tu);
	if (err || !tu) {
		for (size_t i = 0; i < n; i++)
			rets[i] = rets[i] ? rets[i] : WW_EINPUT;
		/* A crash is what running out of RLIMIT_AS looks like here. */
		ret = err == CXError_Crashed ? WW_ECHILD : WW_EINPUT;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (rets[i])
			continue;
		read_call(&out[i], &rds[i], tu, path, o->alloc_calls);
		/* From the text, beside libclang's facts, so that it crosses
		 * the sandbox's answer with them (cfront.h). */
		if (out[i].found)
			out[i].loop = inloop_at(text, len, out[i].def_line, calls[i].line);
	}
out:
	if (tu)
		clang_disposeTranslationUnit(tu);
	if (idx)
		clang_disposeIndex(idx);
	for (size_t i = 0; i < n; i++)
		reader_release(&rds[i]);
	free(rds);
	strvec_clear(&args);
	return any ? ret : WW_ENOTFOUND;
}

int cfacts_read(struct cfacts *out, const char *path, const char *text, size_t len,
		int line, const struct cfacts_opts *o)
{
	struct cfacts_call call = { line, o->macro };
	int ret;

	cfacts_read_calls(out, &ret, path, text, len, &call, 1, o);
	if (ret == WW_ENOTFOUND)
		return error_code(WW_ENOTFOUND, "'%s': no %s() on line %d", path, o->macro, line);
	if (ret)
		return error_code(WW_EINPUT, "'%s': libclang cannot parse it", path);
	return 0;
}

/* ---- as JSON (the sandboxed child's answer, cfront.h) --------------------- */

static const char *const ret_names[] = {
	[CF_RET_UNKNOWN] = "unknown", [CF_RET_VOID] = "void", [CF_RET_INT] = "int",
	[CF_RET_BOOL] = "bool", [CF_RET_PTR] = "ptr", [CF_RET_ERR_PTR] = "err_ptr",
	[CF_RET_OTHER] = "other",
};

/* The string fields, in one table for both directions. */
#define CF_STRS(X) X(function) X(ret_type) X(exit) X(exit_var) X(corrupt) X(cond) X(impossible) \
	X(disk) X(user) X(alloc) X(deref)
#define CF_BOOLS(X) X(found) X(follows) X(recovers) X(cond_or) X(dup_if) \
	X(statement_macro) X(assertion) X(locked) X(by_name)

json_t *cfacts_json(const struct cfacts *f)
{
	json_t *o = json_object();

#define PUT_STR(name) if (f->name) json_object_set_new(o, #name, jsonval_text(f->name));
#define PUT_BOOL(name) json_object_set_new(o, #name, json_boolean(f->name));
	CF_STRS(PUT_STR)
	CF_BOOLS(PUT_BOOL)
#undef PUT_STR
#undef PUT_BOOL
	json_object_set_new(o, "def_line", json_integer(f->def_line));
	json_object_set_new(o, "exit_line", json_integer(f->exit_line));
	json_object_set_new(o, "ret", json_string(ret_names[f->ret]));
	json_object_set_new(o, "loop", json_string(inloop_name(f->loop)));
	return o;
}

int cfacts_from_json(struct cfacts *out, const json_t *o, const char *what)
{
	char *ret = NULL;
	int err = 0;

#define GET_STR(name) if (!err) err = jsonval_str(&out->name, o, #name, what);
#define GET_BOOL(name) if (!err) err = jsonval_bool(&out->name, o, #name, false, what);
	CF_STRS(GET_STR)
	CF_BOOLS(GET_BOOL)
#undef GET_STR
#undef GET_BOOL
	if (!err)
		err = jsonval_int(&out->def_line, o, "def_line", 0, what);
	if (!err)
		err = jsonval_int(&out->exit_line, o, "exit_line", 0, what);
	if (!err)
		err = jsonval_str(&ret, o, "ret", what);
	out->ret = CF_RET_UNKNOWN;
	for (size_t i = 0; ret && i < ARRAY_SIZE(ret_names); i++)
		if (!strcmp(ret, ret_names[i]))
			out->ret = (enum cfacts_ret)i;
	free(ret);
	ret = NULL;
	/* An answer without "loop" (or with a word not known) says nothing
	 * about loops: INLOOP_UNKNOWN, so no advice on how to leave. */
	if (!err)
		err = jsonval_str(&ret, o, "loop", what);
	out->loop = inloop_from_name(ret);
	free(ret);
	if (err)
		cfacts_release(out);
	return err;
}

void cfacts_release(struct cfacts *f)
{
	free(f->function);
	free(f->ret_type);
	free(f->exit);
	free(f->exit_var);
	free(f->corrupt);
	free(f->cond);
	free(f->impossible);
	free(f->disk);
	free(f->user);
	free(f->alloc);
	free(f->deref);
	memset(f, 0, sizeof(*f));
}

/* ---- compiler flags ------------------------------------------------------- */

/* gcc flags clang rejects or that change nothing for reading. */
static bool gcc_only(const char *a)
{
	static const char *const prefixes[] = { "-fconserve-stack", "-fno-allow-store-data-races",
		"-fno-var-tracking", "-fmin-function-alignment", "-fzero-call-used-regs",
		"-mindirect-branch", "-mfunction-return", "-mrecord-mcount", "-mpreferred-stack",
		"-mskip-rax-setup", "-fsanitize", "-fplugin", "-Wp,", "-MD", "-MF", "-Wa,",
		"-fno-ipa", "-fno-tree", "-falign-jumps", "-fpatchable", "-mharden",
		"--param", "-fstack-clash", "-fcf-protection" };

	if (!starts_with(a, "-"))
		return true;	/* the source and output names */
	if (starts_with(a, "-W") && !starts_with(a, "-Wp,"))
		return true;	/* warnings: -Wno-everything reads quietly */
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (starts_with(a, prefixes[i]))
			return true;
	return !strcmp(a, "-c") || !strcmp(a, "-o") || !strcmp(a, "-pg");
}

int cfacts_flags(struct strvec *out, const char *tree, const char *rel,
		 const struct kcmd *k)
{
	static const char *const incs[] = { "arch/x86/include", "arch/x86/include/generated",
		"include", "arch/x86/include/uapi", "arch/x86/include/generated/uapi",
		"include/uapi", "include/generated/uapi" };
	static const char *const pre[] = { "include/linux/compiler-version.h",
		"include/linux/kconfig.h", "include/linux/compiler_types.h" };
	const char *base = strrchr(rel, '/');
	int dir = base ? (int)(base - rel) : 0;

	if (k && k->argv.nr) {
		/* Skip the compiler; keep what the front end knows. */
		for (size_t i = 1; i < k->argv.nr; i++) {
			const char *w = k->argv.v[i];

			if (!strcmp(w, "-x")) {
				i++;	/* -xc follows */
			} else if (w[0] == '-' && strchr("IDU", w[1]) && !w[2] && i + 1 < k->argv.nr) {
				strvec_pushl(out, w, k->argv.v[i + 1], NULL);
				i++;
			} else if ((!strcmp(w, "-include") || !strcmp(w, "-isystem") ||
				    !strcmp(w, "-imacros") || !strcmp(w, "-idirafter") ||
				    !strcmp(w, "-iquote")) && i + 1 < k->argv.nr) {
				strvec_pushl(out, w, k->argv.v[i + 1], NULL);
				i++;
			} else if (!gcc_only(w)) {
				strvec_push(out, w);
			}
		}
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(incs); i++)
		strvec_pushf(out, "-I%s/%s", tree, incs[i]);
	strvec_pushf(out, "-I%s/%.*s", tree, dir ? dir : 1, dir ? rel : ".");
	strvec_pushl(out, "-nostdinc", "-D__KERNEL__", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(pre); i++)
		strvec_pushf(out, "-include%s/%s", tree, pre[i]);
	return 0;
}
