/*
 * Whose fault a failed apply or build is (kblame.h): the symbols a build
 * error names that the base tree lacks (grep over the tree), and the
 * verdict "untestable" for failures on a base that is not the series' own.
 */
#include "kblame.h"
#include "child.h"
#include "gitlib.h"

#include <ctype.h>
#include <regex.h>

#define GREP_TIMEOUT_S (10 * 60)
/* Symbols looked up per failure: the first errors say enough. */
#define KBLAME_SYMBOLS_MAX 8

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* An opening quote at `p`: ASCII or gcc's UTF-8 one; its length or 0. */
static size_t open_quote(const char *p)
{
	if (*p == '\'' || *p == '`')
		return 1;
	if (!strncmp(p, "\xe2\x80\x98", 3))
		return 3;
	return 0;
}

/* The quoted identifier that ends just before `end` (" undeclared"). */
static void ident_before(struct strvec *out, const char *start, const char *end)
{
	const char *p = end;
	size_t n = 0;

	if (p - start >= 1 && p[-1] == '\'')
		p--;
	else if (p - start >= 3 && !strncmp(p - 3, "\xe2\x80\x99", 3))
		p -= 3;
	else
		return;
	while (p - n > start && is_ident((unsigned char)p[-(long)n - 1]))
		n++;
	if (n && p - n > start && open_quote(p - n - 1) == 1)
		strvec_pushf(out, "%.*s", (int)n, p - n);
	else if (n && p - n - 3 >= start && open_quote(p - n - 3) == 3)
		strvec_pushf(out, "%.*s", (int)n, p - n);
}

/*
 * The kinds of name gcc (and ld) report a build error about, each with
 * the words that precede or follow the quoted name in its message and
 * what the reply calls it.
 */
static const struct kblame_kind {
	const char *needle;	/* in the line */
	bool before;		/* the name is quoted before the needle */
	const char *what;	/* "the struct member" */
} kinds[] = {
	{ "implicit declaration of function ", false, "the function" },
	{ " undeclared", true, "the name" },
	{ "has no member named ", false, "the struct member" },
	{ "unknown type name ", false, "the type" },
	{ "invalid use of undefined type ", false, "the type" },
	{ "dereferencing pointer to incomplete type ", false, "the type" },
	{ "undefined reference to ", false, "the function" },
};

/* "struct foo" in a type message: the tag, after its keyword. */
static const char *skip_tag_keyword(const char *p)
{
	static const char *const tags[] = { "struct ", "union ", "enum " };

	for (size_t i = 0; i < ARRAY_SIZE(tags); i++)
		if (starts_with(p, tags[i]))
			return p + strlen(tags[i]);
	return p;
}

/* The identifier quoted at `p` (after a type keyword), or nothing. */
static void ident_after(struct strvec *out, const char *p)
{
	size_t q = open_quote(p), n;

	if (!q)
		return;
	p = skip_tag_keyword(p + q);
	n = 0;
	while (is_ident((unsigned char)p[n]))
		n++;
	if (n && !isdigit((unsigned char)*p))
		strvec_pushf(out, "%.*s", (int)n, p);
}

/* gcc: "fs/x.c:3:10: fatal error: linux/foo.h: No such file or directory". */
static void header_in(struct strvec *out, const char *line, size_t len)
{
	static const char fatal[] = "fatal error: ", nofile[] = ": No such file or directory";
	const char *p = memmem(line, len, fatal, strlen(fatal));
	const char *e = memmem(line, len, nofile, strlen(nofile));
	size_t n;

	if (!p || !e || e < p + strlen(fatal))
		return;
	p += strlen(fatal);
	n = (size_t)(e - p);
	/* A header name as #include writes it: no spaces, no way up. */
	if (!n || strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_-./+,") < n || memmem(p, n, "..", 2) || *p == '/')
		return;
	strvec_pushf(out, "%.*s", (int)n, p);
}

/*
 * Every name the log's errors are about, once each, in log order, into
 * `names`, and what each is ("the function") into `whats`.
 */
static void symbols_in_log(struct strvec *names, struct strvec *whats, const char *log)
{
	for (const char *line = log; *line; ) {
		size_t len = strcspn(line, "\n");
		struct strvec found = STRVEC_INIT, found_what = STRVEC_INIT;

		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
			const char *p = memmem(line, len, kinds[k].needle,
					       strlen(kinds[k].needle));
			size_t before = found.nr;

			if (!p)
				continue;
			if (kinds[k].before)
				ident_before(&found, line, p);
			else
				ident_after(&found, p + strlen(kinds[k].needle));
			for (size_t i = before; i < found.nr; i++)
				strvec_push(&found_what, !strncmp(found.v[i], "CONFIG_", 7) ?
					    "the Kconfig symbol" : kinds[k].what);
		}
		if (!found.nr) {
			header_in(&found, line, len);
			if (found.nr)
				strvec_push(&found_what, "the header");
		}
		for (size_t i = 0; i < found.nr && names->nr < KBLAME_SYMBOLS_MAX; i++)
			if (!strvec_has(names, found.v[i])) {
				strvec_push(names, found.v[i]);
				strvec_push(whats, found_what.v[i]);
			}
		strvec_clear(&found);
		strvec_clear(&found_what);
		line += len + (line[len] == '\n');
	}
}

/* Does `w` occur in `text` as a whole word? */
static bool has_word(const char *text, size_t len, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = text, *end = text + len;
	     p < end && (p = memmem(p, end - p, w, n)); p++) {
		if ((p == text || !is_ident((unsigned char)p[-1])) &&
		    (p + n == end || !is_ident((unsigned char)p[n])))
			return true;
	}
	return false;
}

/* The blob of `path` in commit `base`, or NULL (the caller frees it). */
static git_blob *base_blob(git_repository *repo, const git_oid *base, const char *path)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;

	if (!repo || !base ||
	    git_commit_lookup(&c, repo, base) || git_commit_tree(&tree, c) ||
	    git_tree_entry_bypath(&e, tree, path) ||
	    git_blob_lookup(&blob, repo, git_tree_entry_id(e)))
		blob = NULL;
	git_error_clear();
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	return blob;
}

/* Does the base's version of `path` (commit `base`) hold `w`? */
static bool base_file_has(git_repository *repo, const git_oid *base,
			  const char *path, const char *w)
{
	git_blob *blob = base_blob(repo, base, path);
	bool found = blob && has_word(git_blob_rawcontent(blob),
				      (size_t)git_blob_rawsize(blob), w);

	git_blob_free(blob);
	return found;
}

/*
 * Shapes of a line that defines or declares NAME rather than uses it:
 * a macro, a struct/union/enum tag, a function at column 0 (definition
 * or prototype), a function pointer, a member/variable/typedef/parameter
 * after its type, an enum constant alone on its line, a Kconfig entry.
 * Heuristics on text, not a C parser: a false match makes a failure the
 * series' (the safe side: the verdict then quotes gcc).
 */
static const char *const decl_shapes[] = {
	"^[ \t]*#[ \t]*define[ \t]+NAME([^A-Za-z0-9_]|$)",
	"(struct|union|enum)[ \t]+NAME[ \t]*[{;]",
	"^([A-Za-z_][^;=(]*[^A-Za-z0-9_(])?NAME[ \t]*\\(",
	"\\(\\*[ \t]*NAME[ \t]*\\)[ \t]*\\(",
	"([A-Za-z0-9_]+|\\})[ \t*]+NAME[ \t]*(\\[[^]]*\\][ \t]*)*(:[^;]*)?[;,=)]",
	"^[ \t]+NAME[ \t]*(=[^;]*)?,?[ \t]*(/[*/].*)?$",
	"^[ \t]*(menu)?config[ \t]+NAME[ \t]*$",
};
/* decl_shapes[] whose first group is the word before NAME */
#define DECL_AFTER_TYPE 4

/* A keyword before a name makes it a use ("return x;"), not a declaration. */
static bool is_keyword(const char *w, size_t n)
{
	static const char *const kw[] = { "return", "case", "goto", "else", "do",
					   "sizeof", "typeof", "__typeof__" };

	for (size_t i = 0; i < ARRAY_SIZE(kw); i++)
		if (strlen(kw[i]) == n && !strncmp(w, kw[i], n))
			return true;
	return false;
}

static bool shape_matches(const regex_t *re, bool after_type, const char *text)
{
	regmatch_t m[2];

	for (const char *p = text; !regexec(re, p, 2, m, p == text ? 0 : REG_NOTBOL); ) {
		if (!after_type || !is_keyword(p + m[1].rm_so,
					       (size_t)(m[1].rm_eo - m[1].rm_so)))
			return true;
		p += m[0].rm_so + 1;
	}
	return false;
}

/* Does `text` (a file as the series left it) define or declare `name`? */
static bool declares(const char *text, const char *name)
{
	bool found = false;

	for (size_t i = 0; !found && i < ARRAY_SIZE(decl_shapes); i++) {
		struct strbuf pat = STRBUF_INIT;
		const char *s = decl_shapes[i], *n = strstr(s, "NAME");
		regex_t re;

		strbuf_add(&pat, s, (size_t)(n - s));
		strbuf_addstr(&pat, name);
		strbuf_addstr(&pat, n + 4);
		if (!regcomp(&re, pat.buf, REG_EXTENDED | REG_NEWLINE)) {
			found = shape_matches(&re, i == DECL_AFTER_TYPE, text);
			regfree(&re);
		}
		strbuf_release(&pat);
	}
	return found;
}

/* Does the series' version of `rel` (in `src_dir`) define or declare `w`? */
static bool series_declares(const char *src_dir, const char *rel, const char *w)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	bool found;

	strbuf_addf(&path, "%s/%s", src_dir, rel);
	/* Written by the series: read bounded, only matched against. */
	found = strbuf_read_file(&text, path.buf, 16u << 20) >= 0 &&
		declares(text.buf, w);
	error_clear();
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

/* Run `c`; its stdout lists paths; exit 1 (grep: none) is not an error. */
static int run_lister(struct child *c, const char *what)
{
	int ret;

	c->timeout_ms = GREP_TIMEOUT_S * 1000;
	c->flags = CHILD_CLEAN_ENV;
	strvec_push(&c->env, "LC_ALL=C");
	ret = child_run(c);
	if (ret < 0 || c->status > 1)
		return error("cannot search the tree for '%s'%s%s", what,
			     c->err.len ? ": " : "", c->err.buf);
	return 0;
}

/*
 * A header: a file of the tree (as the series left it: its own new
 * headers count) whose path ends in `name`, or a file the series removed
 * that the base has.
 */
static int header_known(bool *out, const char *name, const char *src_dir,
			const struct strvec *touched, git_repository *repo,
			const git_oid *base)
{
	struct child c = CHILD_INIT;
	struct strbuf glob = STRBUF_INIT;
	int ret;

	*out = false;
	for (size_t i = 0; touched && i < touched->nr && !*out; i++) {
		size_t tl = strlen(touched->v[i]), nl = strlen(name);
		git_blob *b;

		if (tl < nl || strcmp(touched->v[i] + tl - nl, name) ||
		    (tl > nl && touched->v[i][tl - nl - 1] != '/'))
			continue;
		b = base_blob(repo, base, touched->v[i]);
		*out = b != NULL;
		git_blob_free(b);
	}
	if (*out)
		return 0;
	strbuf_addf(&glob, "*/%s", name);
	strvec_pushl(&c.args, "find", src_dir, "-path", glob.buf, "-print", "-quit", NULL);
	ret = run_lister(&c, name);
	if (!ret)
		*out = c.out.len > 0;
	child_release(&c);
	strbuf_release(&glob);
	return ret;
}

/* Is `w` (a `what`, kblame.h) known to the base or the series? */
static int in_base(bool *out, const char *w, const char *what, const char *src_dir,
		   const struct strvec *touched, git_repository *repo,
		   const git_oid *base)
{
	struct child c = CHILD_INIT;
	size_t dir_len = strlen(src_dir);
	const char *sym = w;
	int ret;

	*out = false;
	if (!strcmp(what, "the header"))
		return header_known(out, w, src_dir, touched, repo, base);
	strvec_pushl(&c.args, "grep", "-rlwF", "--include=*.c", "--include=*.h", NULL);
	/* CONFIG_FOO is "config FOO" in a Kconfig file. */
	if (skip_prefix(w, "CONFIG_", &sym))
		strvec_pushl(&c.args, "--include=Kconfig*", "-e", sym, NULL);
	strvec_pushl(&c.args, "-e", w, "--", src_dir, NULL);
	ret = run_lister(&c, w);
	if (ret < 0)
		goto out;
	for (const char *l = c.out.buf; *l && !*out; ) {
		size_t len = strcspn(l, "\n");
		char *rel = xstrndup(l, len);
		const char *r = rel;

		if (!strncmp(r, src_dir, dir_len) && r[dir_len] == '/')
			r += dir_len + 1;
		if (!touched || !strvec_has(touched, r))
			*out = true;
		else
			/* The base has it (or the series removed it), or the
			 * series defines or declares it itself. */
			*out = (repo && base && (base_file_has(repo, base, r, w) ||
						 (sym != w && base_file_has(repo, base, r, sym)))) ||
			       series_declares(src_dir, r, w) ||
			       (sym != w && series_declares(src_dir, r, sym));
		free(rel);
		l += len + (l[len] == '\n');
	}
out:
	child_release(&c);
	return ret;
}

int kblame_missing_symbols(struct strvec *out, struct strvec *whats, const char *log,
			   const char *src_dir, const struct strvec *touched,
			   git_repository *repo, const git_oid *base)
{
	struct strvec syms = STRVEC_INIT, kinds_of = STRVEC_INIT;
	int ret = 0;

	symbols_in_log(&syms, &kinds_of, log ? log : "");
	for (size_t i = 0; i < syms.nr; i++) {
		bool present;

		if ((ret = in_base(&present, syms.v[i], kinds_of.v[i], src_dir,
				   touched, repo, base)) < 0)
			break;
		if (present)
			continue;
		strvec_push(out, syms.v[i]);
		if (whats)
			strvec_push(whats, kinds_of.v[i]);
	}
	strvec_clear(&syms);
	strvec_clear(&kinds_of);
	return ret;
}

/* The verdict is the base's: `why` says what the base lacks. */
static void set_untestable(struct ci_verdict *v, struct strbuf *why)
{
	if (v->base_why)
		strbuf_addf(why, " (%s)", v->base_why);
	free(v->reason);
	v->reason = strbuf_detach(why, NULL);
	v->kind = CI_UNTESTABLE;
}

void kblame_classify(struct ci_verdict *v, const struct strvec *missing,
		     const struct strvec *whats)
{
	struct strbuf why = STRBUF_INIT;
	const char *base = v->base ? v->base : "?";

	if (v->own_base)
		return;
	if (v->kind == CI_APPLY_FAILED) {
		strbuf_addf(&why, "it does not apply to linux %s, which is not the "
			    "tree it was written for", base);
		set_untestable(v, &why);
	} else if (v->kind == CI_BUILD_FAILED && missing && missing->nr) {
		strvec_clear(&v->missing);
		for (size_t i = 0; i < missing->nr; i++) {
			const char *what = whats && i < whats->nr ? whats->v[i] : NULL;

			strvec_pushf(&v->missing, "%s%s'%s'", what ? what : "",
				     what ? " " : "", missing->v[i]);
		}
		strbuf_addf(&why, "linux %s lacks ", base);
		for (size_t i = 0; i < v->missing.nr; i++)
			strbuf_addf(&why, "%s%s", i ? (i + 1 == v->missing.nr ?
				    " and " : ", ") : "", v->missing.v[i]);
		strbuf_addstr(&why, ", which the series uses and does not add: it "
			      "was written for a newer tree");
		set_untestable(v, &why);
	}
	strbuf_release(&why);
}
