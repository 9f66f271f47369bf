/*
 * The code a reply shows: an added line as quoted, advice texts with
 * their placeholders filled for one call, the default rewrite of a call
 * from the facts about it, and code wrapped as the kernel wraps it.
 * See rewrite.h.
 */
#include "rewrite.h"
#include "quote.h"
#include "suggest.h"

/* The added line of the finding, without its '+' and indentation. */
void rewrite_finding_line(struct strbuf *out, const struct finding *f)
{
	const char *p = f->hunk ? f->hunk : "";

	for (int i = 0; i < f->hunk_line && *p; i++)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	if (*p)
		p++;	/* the '+', '-' or ' ' */
	strbuf_add(out, p, strcspn(p, "\n"));
	strbuf_trim(out);
}

/* Replace {name} placeholders of `text` from `keys`/`vals`. */
static void expand(struct strbuf *out, const char *text, const char *const *keys,
		   const char *const *vals, size_t n)
{
	for (const char *p = text ? text : ""; *p;) {
		const char *close = *p == '{' ? strchr(p, '}') : NULL;
		size_t k = n;

		if (close)
			for (k = 0; k < n; k++)
				if (strlen(keys[k]) == (size_t)(close - p - 1) &&
				    !strncmp(p + 1, keys[k], close - p - 1))
					break;
		if (k < n) {
			strbuf_addstr(out, vals[k] ? vals[k] : "");
			p = close + 1;
		} else {
			strbuf_addch(out, *p++);
		}
	}
}

/* Where "-EXXX" starts in `s`, and its length, or NULL. */
static const char *find_errno(const char *s, size_t *len)
{
	for (const char *p = strstr(s, "-E"); p; p = strstr(p + 1, "-E")) {
		size_t n = strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

		if (n > 1) {
			*len = n + 1;
			return p;
		}
	}
	return NULL;
}

bool rewrite_may_leave(const struct cfacts *cf)
{
	return cf && cf->loop == INLOOP_NO && (cf->exit || !cf->locked);
}

/* May a way out of the call report an error: leaving is right, and the
 * function has an error return (an errno int, an ERR_PTR() or a NULL
 * pointer, or its own failure exit sets an errno).  A void function, a
 * bool or a struct does not. */
static bool may_fail_with_errno(const struct cfacts *cf)
{
	size_t n;

	return rewrite_may_leave(cf) &&
	       (cf->ret == CF_RET_INT || cf->ret == CF_RET_ERR_PTR || cf->ret == CF_RET_PTR ||
		(cf->exit && find_errno(cf->exit, &n)));
}

/*
 * The alternative of "{TAG:A|B|...}" the facts pick, appended to `out`
 * (nothing when there are fewer alternatives than `pick`).
 */
static void add_alternative(struct strbuf *out, const char *alts, size_t len, int pick)
{
	for (; pick > 0; pick--) {
		const char *bar = memchr(alts, '|', len);

		if (!bar)
			return;
		len -= bar + 1 - alts;
		alts = bar + 1;
	}
	strbuf_add(out, alts, strcspn(alts, "|") < len ? strcspn(alts, "|") : len);
}

/*
 * "{leave:YES|NO}" of `text` as YES when the facts say the call may
 * leave its function (rewrite_may_leave()), else as NO (or nothing);
 * "{fail:ERR|LEAVE|NO}" as ERR when it may also return an error
 * (may_fail_with_errno()), LEAVE when it may only leave and statements
 * follow the call, else NO.
 */
static void expand_leave(struct strbuf *out, const char *text, const struct cfacts *cf)
{
	const char *p = text, *at;
	bool leave = rewrite_may_leave(cf), err = may_fail_with_errno(cf);
	/* Leaving without an error says something only where statements
	 * follow the call: a WARN at the end of a void function leaves. */
	bool lv = leave && cf->follows;

	for (;;) {
		const char *l = strstr(p, "{leave:"), *f = strstr(p, "{fail:");
		size_t tag, n;

		at = l && (!f || l < f) ? l : f;
		if (!at)
			break;
		tag = at == l ? 7 : 6;
		n = strcspn(at + tag, "}");
		if (!at[tag + n])
			break;
		strbuf_add(out, p, at - p);
		add_alternative(out, at + tag, n, at == l ? !leave : (err ? 0 : lv ? 1 : 2));
		p = at + tag + n + 1;
	}
	strbuf_addstr(out, p);
}

/*
 * The way out of the call's function that the facts support, into
 * `out`, with errno `want` when given: the function's own nearest
 * failure exit mirrored (so its cleanup labels and unlocks come with
 * it), else what its return type allows.  Without `want`, the errno is
 * the function's own corruption errno when it has one (cf->corrupt).  False when there is none (a
 * void function without a failure exit of its own, a hash, a struct):
 * there the fix is a WARN that lets the function run to its end.
 */
static bool fact_return(struct strbuf *out, const struct cfacts *cf, const char *want)
{
	const char *err;
	size_t n;

	/* In a loop a way out skips the later iterations: none unless the
	 * facts say the call is in no loop (issue 34). */
	if (!rewrite_may_leave(cf))
		return false;
	/* The function's own word for a broken state, not the errno of
	 * whichever other failure is nearest (issue 35). */
	if (!want)
		want = cf->corrupt;
	if (cf->exit) {
		if (cf->exit_var)
			strbuf_addf(out, "%s = %s;\n", cf->exit_var, want ? want : "-EINVAL");
		err = want && !cf->exit_var ? find_errno(cf->exit, &n) : NULL;
		if (err)
			strbuf_addf(out, "%.*s%s%s", (int)(err - cf->exit), cf->exit, want,
				    err + n);
		else
			strbuf_addstr(out, cf->exit);
		return true;
	}
	/* A lock held and no exit that drops it: no way out. */
	if (cf->locked)
		return false;
	switch (cf->ret) {
	case CF_RET_INT:
		strbuf_addf(out, "return %s;", want ? want : "-EINVAL");
		return true;
	case CF_RET_BOOL:
		/* An int that carries a truth value (a verifier) returns 0. */
		strbuf_addstr(out, cf->ret_type && strstr(cf->ret_type, "bool") ?
			      "return false;" : "return 0;");
		return true;
	case CF_RET_PTR:
		strbuf_addstr(out, "return NULL;");
		return true;
	case CF_RET_ERR_PTR:
		strbuf_addf(out, "return ERR_PTR(%s);", want ? want : "-EINVAL");
		return true;
	default:
		return false;
	}
}

/* What must hold, turned into what must not: "!p" -> "p", "a < b" -> "!(a < b)". */
static void negate(struct strbuf *cond)
{
	struct strbuf sb = STRBUF_INIT;
	const char *id = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_->.";

	if (cond->buf[0] == '!' && cond->buf[1] != '(' && strspn(cond->buf + 1, id) == cond->len - 1)
		strbuf_addstr(&sb, cond->buf + 1);
	else if (strspn(cond->buf, id) == cond->len)
		strbuf_addf(&sb, "!%s", cond->buf);
	else
		strbuf_addf(&sb, "!(%s)", cond->buf);
	strbuf_reset(cond);
	strbuf_addbuf(cond, &sb);
	strbuf_release(&sb);
}

/*
 * Way out `way` where a rewrite's "{ret:...}" stands, at the end of
 * `out`: its later lines ("err = -EIO;\ngoto out;") indented as the
 * first, and an if whose body it is ("if (x)\n\t{ret:...}") given braces,
 * or only the first line would be the if's.
 */
static void add_exit(struct strbuf *out, const char *way)
{
	size_t bol = out->len, if_bol, indent;
	struct strbuf pre = STRBUF_INIT, if_pre = STRBUF_INIT;
	bool brace;

	while (bol && out->buf[bol - 1] != '\n')
		bol--;
	indent = out->len - bol;
	strbuf_add(&pre, out->buf + bol, indent);
	brace = strchr(way, '\n') && indent && strspn(pre.buf, " \t") == indent &&
		bol >= 2 && out->buf[bol - 2] == ')';
	if (brace) {
		/* "if (x)\n\t" -> "if (x) {\n\t", the "}" under the if */
		for (if_bol = bol - 1; if_bol && out->buf[if_bol - 1] != '\n'; if_bol--)
			;
		strbuf_add(&if_pre, out->buf + if_bol, strspn(out->buf + if_bol, " \t"));
		strbuf_setlen(out, bol - 1);
		strbuf_addf(out, " {\n%s", pre.buf);
	}
	for (const char *p = way; *p;) {
		size_t n = strcspn(p, "\n");

		if (p != way)
			strbuf_addf(out, "\n%s", pre.buf);
		strbuf_add(out, p, n);
		p += n + (p[n] == '\n');
	}
	if (brace)
		strbuf_addf(out, "\n%s}", if_pre.buf);
	strbuf_release(&pre);
	strbuf_release(&if_pre);
}

/*
 * expand() with the call's placeholders, and "{ret:-EXXX}": the way out
 * of the call's function with that errno where it returns one ("return
 * ERR_PTR(-EXXX);" when the code around uses ERR_PTR(), "return;" in a
 * void function).
 */
void rewrite_expand(struct strbuf *out, const char *text, struct rewrite_subst *x)
{
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT, left = STRBUF_INIT;
	const char *p, *at;

	expand_leave(&left, text ? text : "", x->cf);
	p = left.buf;
	while ((at = strstr(p, "{ret:"))) {
		size_t n = strcspn(at + 5, "}");

		if (!at[5 + n])
			break;
		strbuf_add(&sb, p, at - p);
		strbuf_reset(&err);
		strbuf_add(&err, at + 5, n);
		if (!x->cf) {
			/* The diff does not show whether the call is in a loop. */
			x->no_exit = true;
		} else {
			struct strbuf way = STRBUF_INIT;

			if (fact_return(&way, x->cf, err.buf)) {
				strbuf_reset(&x->exit);
				strbuf_addbuf(&x->exit, &way);
				add_exit(&sb, way.buf);
			} else {
				x->no_exit = true;
			}
			strbuf_release(&way);
		}
		p = at + 5 + n + 1;
	}
	strbuf_addstr(&sb, p);
	expand(out, sb.buf, x->keys, x->vals, ARRAY_SIZE(x->keys));
	strbuf_release(&sb);
	strbuf_release(&err);
	strbuf_release(&left);
}

void rewrite_subst_init(struct rewrite_subst *x, const struct series *s, const struct finding *f,
			const struct advice_hit *h, const struct cfacts *cf)
{
	static const char *const keys[] = { "macro", "function", "cond", "ret", "repl",
					    "arg", "fs" };

	memcpy(x->keys, keys, sizeof(keys));
	x->s = s;
	x->f = f;
	x->cf = cf;
	x->no_exit = false;
	strbuf_init(&x->cond, 0);
	strbuf_init(&x->ret, 0);
	strbuf_init(&x->fn, 0);
	strbuf_init(&x->exit, 0);
	advice_call_args(&x->cond, f->source);
	/* An assertion states what must hold: a rewrite tests the opposite. */
	if (cf && cf->assertion && x->cond.len)
		negate(&x->cond);
	quote_buf(&x->cond, QUOTE_KEEP_TAB);
	if (cf)
		fact_return(&x->ret, cf, NULL);
	strbuf_addstr(&x->fn, *f->function ? f->function : "this function");
	x->vals[0] = f->kind == FINDING_DEFINE ? f->defined : f->rule->macro;
	x->vals[1] = x->fn.buf;
	x->vals[2] = x->cond.buf;
	x->vals[3] = x->ret.buf;
	x->vals[4] = f->rule->replacement ? f->rule->replacement : "WARN_ON_ONCE";
	x->vals[5] = h ? h->arg : NULL;
	x->vals[6] = h && h->fs ? h->fs->name : NULL;
}

void rewrite_subst_release(struct rewrite_subst *x)
{
	strbuf_release(&x->cond);
	strbuf_release(&x->ret);
	strbuf_release(&x->fn);
	strbuf_release(&x->exit);
}

/* The column after `len` bytes of `s` (TABs to the next multiple of 8). */
static size_t column(const char *s, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++)
		col = s[i] == '\t' ? (col + 8) & ~(size_t)7 : col + 1;
	return col;
}

/*
 * One code line of a rewrite, as the kernel wraps it: over REWRITE_COLS
 * columns, break after the last "|| ", "&& " or ", " that fits and
 * align the rest under the first character inside the open parenthesis.
 * A line with no such place stays long.
 */
#define REWRITE_COLS 80

static void code_line(struct strbuf *out, const char *line, size_t len)
{
	struct strbuf l = STRBUF_INIT;

	strbuf_add(&l, line, len);
	while (column(l.buf, l.len) > REWRITE_COLS) {
		size_t cut = 0, align = 0, opens[32], depth = 0;

		for (size_t i = 0; i + 1 < l.len; i++) {
			if (l.buf[i] == '(' && depth < ARRAY_SIZE(opens))
				opens[depth++] = i;
			else if (l.buf[i] == ')' && depth)
				depth--;
			if (!depth || l.buf[i + 1] != ' ' ||
			    column(l.buf, i + 1) > REWRITE_COLS)
				continue;
			if (l.buf[i] == ',' || (i && ((l.buf[i] == '|' && l.buf[i - 1] == '|') ||
						     (l.buf[i] == '&' && l.buf[i - 1] == '&')))) {
				cut = i + 1;
				align = column(l.buf, opens[depth - 1] + 1);
			}
		}
		if (!cut)
			break;
		strbuf_add(out, l.buf, cut);
		strbuf_addch(out, '\n');
		{
			struct strbuf rest = STRBUF_INIT;

			for (size_t t = 0; t < align / 8; t++)
				strbuf_addch(&rest, '\t');
			for (size_t t = 0; t < align % 8; t++)
				strbuf_addch(&rest, ' ');
			strbuf_addstr(&rest, l.buf + cut + 1);
			strbuf_reset(&l);
			strbuf_addbuf(&l, &rest);
			strbuf_release(&rest);
		}
	}
	strbuf_addbuf(out, &l);
	strbuf_addch(out, '\n');
	strbuf_release(&l);
}

/* Code lines into a mail block: each line starts with a TAB. */
void rewrite_code_block(struct strbuf *out, const char *code)
{
	struct strbuf l = STRBUF_INIT;

	for (const char *p = code; *p;) {
		size_t n = strcspn(p, "\n");

		strbuf_reset(&l);
		strbuf_addch(&l, '\t');
		quote_c_style_n(&l, p, n, QUOTE_KEEP_TAB);
		code_line(out, l.buf, l.len);
		p += n + (p[n] == '\n');
	}
	strbuf_release(&l);
}

/*
 * The default rewrite of an added BUG/WARN, from the facts about it
 * (never without them: the diff alone does not show the function's
 * return type or its exits): the rule's gentler macro, inside an if
 * that leaves the way the function's own nearest failure exit does
 * (`exit` gets that way out) when code that would use the bad state
 * follows; the gentler macro alone when nothing follows, the next
 * statement recovers, or the function has no way out.  An assertion's
 * condition is negated; a statement macro (VM_WARN_ON_ONCE) is never
 * made a condition.  Empty when the rule has no replacement.
 */
void rewrite_example(struct strbuf *out, struct strbuf *exit, const struct finding *f,
		     const struct cfacts *cf)
{
	const char *repl = f->rule->replacement;
	struct strbuf args = STRBUF_INIT, line = STRBUF_INIT, ret = STRBUF_INIT;
	const char *macro = f->rule->macro;
	bool statement = repl && starts_with(repl, "VM_");

	if (!cf || !repl || f->kind != FINDING_ADDED || !f->source ||
	    (f->rule->class != RC_BUG && f->rule->class != RC_WARN))
		goto out;
	if (!advice_call_args(&args, f->source))
		goto out;
	if (cf->assertion && args.len)
		negate(&args);
	rewrite_finding_line(&line, f);
	if (!starts_with(line.buf, macro) || f->source_lines > 1 ||
	    line.buf[strlen(macro)] != '(') {
		/* Already a condition: only the macro changes. */
		const char *at = strstr(line.buf, macro);

		if (at && f->source_lines <= 1 && !cf->assertion && !statement)
			strbuf_addf(out, "%.*s%s%s", (int)(at - line.buf), line.buf,
				    repl, at + strlen(macro));
		goto out;
	}
	if (!args.len) {
		strbuf_addf(out, "%s(1);", repl);
		goto out;
	}
	/* A void function with no failure exit runs to its end, unless what
	 * follows would dereference the NULL the call reports. */
	if (!statement && cf->follows && !cf->recovers && !fact_return(&ret, cf, NULL) &&
	    cf->ret == CF_RET_VOID && cf->deref && rewrite_may_leave(cf))
		strbuf_addstr(&ret, "return;");
	if (statement || !cf->follows || cf->recovers || !ret.len) {
		strbuf_addf(out, "%s(%s);", repl, args.buf);
		goto out;
	}
	strbuf_addbuf(exit, &ret);
	if (!strchr(ret.buf, '\n')) {
		strbuf_addf(out, "if (%s(%s))\n\t%s", repl, args.buf, ret.buf);
		goto out;
	}
	strbuf_addf(out, "if (%s(%s)) {\n", repl, args.buf);
	for (const char *u = ret.buf; *u; u += strcspn(u, "\n") + (u[strcspn(u, "\n")] == '\n'))
		strbuf_addf(out, "\t%.*s\n", (int)strcspn(u, "\n"), u);
	strbuf_addch(out, '}');
out:
	strbuf_release(&args);
	strbuf_release(&line);
	strbuf_release(&ret);
}

