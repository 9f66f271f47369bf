/*
 * Whose fault a failed apply or build is (kblame.h): the symbols a build
 * error names that the base tree lacks (grep over the tree), and the
 * verdict "untestable" for failures on a base that is not the series' own.
 */
#include "kblame.h"
#include "child.h"
#include "gitlib.h"

#include <ctype.h>

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

/* The identifier after "implicit declaration of function " at `p`. */
static void ident_after(struct strvec *out, const char *p)
{
	size_t q = open_quote(p), n;

	if (!q)
		return;
	p += q;
	n = 0;
	while (is_ident((unsigned char)p[n]))
		n++;
	if (n && !isdigit((unsigned char)*p))
		strvec_pushf(out, "%.*s", (int)n, p);
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

static void symbols_in_log(struct strvec *out, const char *log)
{
	static const char implicit[] = "implicit declaration of function ";
	struct strvec all = STRVEC_INIT;

	for (const char *line = log; *line; ) {
		size_t len = strcspn(line, "\n");
		const char *p = memmem(line, len, implicit, strlen(implicit));
		const char *u = memmem(line, len, " undeclared", 11);

		if (p)
			ident_after(&all, p + strlen(implicit));
		if (u)
			ident_before(&all, line, u);
		line += len + (line[len] == '\n');
	}
	for (size_t i = 0; i < all.nr && out->nr < KBLAME_SYMBOLS_MAX; i++)
		if (!strvec_has(out, all.v[i]))
			strvec_push(out, all.v[i]);
	strvec_clear(&all);
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

/* Does the base's version of `path` (commit `base`) hold `w`? */
static bool base_file_has(git_repository *repo, const git_oid *base,
			  const char *path, const char *w)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	bool found = false;

	if (!git_commit_lookup(&c, repo, base) && !git_commit_tree(&tree, c) &&
	    !git_tree_entry_bypath(&e, tree, path) &&
	    !git_blob_lookup(&blob, repo, git_tree_entry_id(e)))
		found = has_word(git_blob_rawcontent(blob),
				 (size_t)git_blob_rawsize(blob), w);
	git_error_clear();
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	return found;
}

/* Is `w` a word anywhere in the base tree (see kblame.h)? */
static int in_base(bool *out, const char *w, const char *src_dir,
		   const struct strvec *touched, git_repository *repo,
		   const git_oid *base)
{
	struct child c = CHILD_INIT;
	size_t dir_len = strlen(src_dir);
	int ret;

	*out = false;
	strvec_pushl(&c.args, "grep", "-rlwF", "--include=*.c", "--include=*.h",
		     "-e", w, "--", src_dir, NULL);
	c.timeout_ms = GREP_TIMEOUT_S * 1000;
	c.flags = CHILD_CLEAN_ENV;
	strvec_push(&c.env, "LC_ALL=C");
	ret = child_run(&c);
	if (ret < 0 || c.status > 1) {
		ret = error("cannot grep '%s' for '%s'%s%s", src_dir, w,
			    c.err.len ? ": " : "", c.err.buf);
		goto out;
	}
	for (const char *l = c.out.buf; *l && !*out; ) {
		size_t len = strcspn(l, "\n");
		char *rel = xstrndup(l, len);
		const char *r = rel;

		if (!strncmp(r, src_dir, dir_len) && r[dir_len] == '/')
			r += dir_len + 1;
		if (!touched || !strvec_has(touched, r))
			*out = true;
		else if (repo && base)
			*out = base_file_has(repo, base, r, w);
		free(rel);
		l += len + (l[len] == '\n');
	}
	ret = 0;
out:
	child_release(&c);
	return ret;
}

int kblame_missing_symbols(struct strvec *out, const char *log, const char *src_dir,
			   const struct strvec *touched, git_repository *repo,
			   const git_oid *base)
{
	struct strvec syms = STRVEC_INIT;
	int ret = 0;

	symbols_in_log(&syms, log ? log : "");
	for (size_t i = 0; i < syms.nr; i++) {
		bool present;

		if ((ret = in_base(&present, syms.v[i], src_dir, touched, repo,
				   base)) < 0)
			break;
		if (!present)
			strvec_push(out, syms.v[i]);
	}
	strvec_clear(&syms);
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

void kblame_classify(struct ci_verdict *v, const struct strvec *missing)
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
		strbuf_addf(&why, "linux %s lacks ", base);
		for (size_t i = 0; i < missing->nr; i++)
			strbuf_addf(&why, "%s'%s'", i ? (i + 1 == missing->nr ?
				    " and " : ", ") : "", missing->v[i]);
		strbuf_addstr(&why, ", which the series uses: it was written for "
			      "a newer tree");
		set_untestable(v, &why);
	}
	strbuf_release(&why);
}
