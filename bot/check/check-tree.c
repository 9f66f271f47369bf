/*
 * check --tree: the wrappers a kernel tree defines around BUG()/WARN()
 * (#define lines in include/ and beside the touched files), added to the
 * ruleset so that a call of a wrapper is flagged like a call of the macro.
 */
#include "check-priv.h"
#include "diff.h"
#include "scan.h"
#include "strvec.h"

#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>
/* --tree: wrapper resolution. */

/* Append the #define logical lines of `text` to `out`, one per line. */
/* Does a block comment opened in `s` run past its end? */
static bool ends_in_comment(const char *s, size_t n)
{
	const char *e = s + n;
	char quote = 0;

	while (s < e) {
		if (quote) {
			if (*s == '\\')
				s++;
			else if (*s == quote)
				quote = 0;
			s++;
		} else if (*s == '"' || *s == '\'') {
			quote = *s++;
		} else if (e - s > 1 && s[0] == '/' && s[1] == '/') {
			return false;
		} else if (e - s > 1 && s[0] == '/' && s[1] == '*') {
			const char *close = memmem(s + 2, e - s - 2, "*/", 2);

			if (!close)
				return true;
			s = close + 2;
		} else {
			s++;
		}
	}
	return false;
}

static void extract_defines(struct strbuf *out, const char *text, size_t len)
{
	const char *s = text, *end = text + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', end - s), *t = s;
		const char *eol = nl ? nl : end;

		while (t < eol && (*t == ' ' || *t == '\t'))
			t++;
		if (t < eol && *t == '#') {
			t++;
			while (t < eol && (*t == ' ' || *t == '\t'))
				t++;
			if (eol - t > 7 && !memcmp(t, "define", 6) &&
			    (t[6] == ' ' || t[6] == '\t')) {
				/* Through its continuation lines. */
				while (nl && eol > s && eol[-1] == '\\') {
					nl = memchr(eol + 1, '\n', end - eol - 1);
					eol = nl ? nl : end;
				}
				strbuf_add(out, s, eol - s);
				/* A block comment that goes on past the definition:
				 * close it here, or it would swallow the next ones. */
				if (memchr(s, '/', eol - s) && ends_in_comment(s, eol - s))
					strbuf_addstr(out, " */");
				strbuf_addch(out, '\n');
			}
		}
		s = nl ? nl + 1 : end;
	}
}

/* Files read for wrappers by this thread (check_tree_reads()). */
static _Thread_local unsigned long tree_reads;

unsigned long check_tree_reads(void)
{
	return tree_reads;
}

static void read_defines(struct strbuf *out, struct strbuf *tmp, const char *path)
{
	tree_reads++;
	strbuf_reset(tmp);
	if (strbuf_read_file(tmp, path, 64u << 20) < 0)
		return;		/* unreadable or gone: nothing to learn */
	extract_defines(out, tmp->buf, tmp->len);
}

/* The headers of `dir` (recursively if `deep`). Bounded by `budget` files. */
static void walk_headers(struct strbuf *out, struct strbuf *tmp, const char *dir,
			 bool deep, int depth, size_t *budget)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct strbuf path = STRBUF_INIT;

	if (!d)
		return;
	while ((e = readdir(d)) && *budget) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		if (lstat(path.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (deep && depth < 16)
				walk_headers(out, tmp, path.buf, deep, depth + 1, budget);
		} else if (S_ISREG(st.st_mode) && ends_with(e->d_name, ".h")) {
			read_defines(out, tmp, path.buf);
			(*budget)--;
		}
	}
	closedir(d);
	strbuf_release(&path);
}

/*
 * Into `out`, the definitions of `defs` (one logical line each, with its
 * backslash-newlines) that mention one of `names` (NULL-terminated).
 */
static void keep_defines_naming(struct strbuf *out, const struct strbuf *defs,
				const char *const *names)
{
	const char *s = defs->buf, *end = defs->buf + defs->len;
	struct diff_anchors *a = diff_anchors_new(names);

	strbuf_reset(out);
	while (s < end) {
		const char *e = s;

		/* The end of the logical line: a newline not escaped. */
		for (;;) {
			const char *nl = memchr(e, '\n', end - e);

			e = nl ? nl + 1 : end;
			if (!nl || nl == s || nl[-1] != '\\')
				break;
		}
		if (diff_anchors_find(a, s, e - s))
			strbuf_add(out, s, e - s);
		s = e;
	}
	diff_anchors_free(a);
}

#define TREE_MAX_FILES 100000
#define WRAPPER_ROUNDS 8

int check_resolve_wrappers(struct ruleset *rs, const char *tree,
			   const char *const *paths)
{
	struct strbuf defs = STRBUF_INIT, tmp = STRBUF_INIT, dir = STRBUF_INIT;
	struct scan_result hits = SCAN_RESULT_INIT;
	struct strvec names = STRVEC_INIT, walked = STRVEC_INIT;
	size_t budget = TREE_MAX_FILES, *like = NULL, like_alloc = 0;
	struct stat st;
	int ret = 0;

	if (stat(tree, &st) < 0 || !S_ISDIR(st.st_mode))
		return error_code(WW_ENOTFOUND, "'%s' is not a directory", tree);
	/*
	 * include/ is the same for every series checked against this tree,
	 * and its wrappers stay in `rs`: walk it once per ruleset and tree.
	 */
	if (!rs->wrappers_tree || strcmp(rs->wrappers_tree, tree)) {
		strbuf_addf(&dir, "%s/include", tree);
		walk_headers(&defs, &tmp, dir.buf, true, 0, &budget);
		free(rs->wrappers_tree);
		rs->wrappers_tree = xstrdup(tree);
	}
	for (size_t i = 0; paths && paths[i]; i++) {
		const char *slash = strrchr(paths[i], '/');

		if (strstr(paths[i], "..") || paths[i][0] == '/')
			continue;	/* only inside the tree */
		/* Five patches to one directory read its headers once. */
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%.*s", tree,
			    slash ? (int)(slash - paths[i]) : 0, paths[i]);
		if (!strvec_has(&walked, dir.buf)) {
			walk_headers(&defs, &tmp, dir.buf, false, 0, &budget);
			strvec_push(&walked, dir.buf);
		}
		if (ends_with(paths[i], ".c") && !strvec_has(&walked, paths[i])) {
			strvec_push(&walked, paths[i]);
			strbuf_reset(&dir);
			strbuf_addf(&dir, "%s/%s", tree, paths[i]);
			read_defines(&defs, &tmp, dir.buf);
		}
	}
	/* Wrappers of wrappers: repeat until nothing new turns up. */
	for (int round = 0; round < WRAPPER_ROUNDS; round++) {
		size_t added = 0;

		/*
		 * Only definitions that name a rule can be wrappers: first
		 * any rule (its anchors), then the wrappers found last round.
		 */
		if (round) {
			keep_defines_naming(&tmp, &defs, names.v);
		} else {
			const char **anchors = check_make_anchors(rs);

			keep_defines_naming(&tmp, &defs, anchors);
			free(anchors);
		}
		strvec_clear(&names);
		scan_result_clear(&hits);
		scan_defines(&hits, rs, tmp.buf, tmp.len);
		/* Adding a rule moves rs->rules: take indexes first. */
		ALLOC_GROW(like, hits.nr, like_alloc);
		for (size_t i = 0; i < hits.nr; i++)
			like[i] = hits.v[i].rule ? (size_t)(hits.v[i].rule - rs->rules) : SIZE_MAX;
		for (size_t i = 0; i < hits.nr; i++) {
			const struct scan_hit *h = &hits.v[i];

			if (h->kind != HIT_DEFINE || !h->defined || like[i] >= rs->nr)
				continue;
			ret = rules_add_wrapper(rs, h->defined, &rs->rules[like[i]]);
			if (ret < 0)
				goto out;
			if (ret == 0) {
				strvec_push(&names, h->defined);
				added++;
			}
		}
		ret = 0;
		if (!added)
			break;
	}
out:
	free(like);
	strvec_clear(&names);
	strvec_clear(&walked);
	scan_result_clear(&hits);
	strbuf_release(&defs);
	strbuf_release(&tmp);
	strbuf_release(&dir);
	return ret;
}
