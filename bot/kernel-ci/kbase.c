/*
 * The order of base trees to try: base-commit's release first, else newest
 * first.
 */
#include "kbase.h"
#include "gitlib.h"

#include <ctype.h>

#define KBASE_PARTS 3

/* "6.12.57" -> {6, 12, 57}; "6.1" -> {6, 1, -1}.  Stops at the first
 * character that is not a digit or '.', which goes to *end. */
static int parse_version(long v[KBASE_PARTS], const char *s, const char **end)
{
	int n = 0;

	for (int i = 0; i < KBASE_PARTS; i++)
		v[i] = -1;
	while (n < KBASE_PARTS && isdigit((unsigned char)*s)) {
		char *e;

		v[n++] = strtol(s, &e, 10);
		s = e;
		if (*s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	*end = s;
	return n;
}

static int cmp_newest(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	long vx[KBASE_PARTS], vy[KBASE_PARTS];
	const char *e;

	parse_version(vx, x, &e);
	parse_version(vy, y, &e);
	for (int i = 0; i < KBASE_PARTS; i++)
		if (vx[i] != vy[i])
			return vx[i] < vy[i] ? 1 : -1;
	return strcmp(x, y);
}

static bool is_hash(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return n >= 7 && n <= 64 && !s[n];
}

int kbase_order(struct strvec *out, const char *base_commit,
		const struct strvec *available, struct strbuf *why)
{
	const char **sorted;
	const char *first = NULL;
	long want[KBASE_PARTS];
	int nwant = 0;

	if (!available->nr)
		return error_code(WW_EINPUT, "no kernel source tree is available");
	for (size_t i = 0; i < available->nr; i++) {
		long v[KBASE_PARTS];
		const char *e;

		if (parse_version(v, available->v[i], &e) < 2 || *e)
			return error_code(WW_EINPUT, "'%s' is not a release version",
					  available->v[i]);
	}
	sorted = xmalloc(available->nr * sizeof(*sorted));
	for (size_t i = 0; i < available->nr; i++)
		sorted[i] = available->v[i];
	qsort(sorted, available->nr, sizeof(*sorted), cmp_newest);

	if (base_commit) {
		const char *s = base_commit, *e;

		while (isspace((unsigned char)*s))
			s++;
		if (*s == 'v')
			s++;
		nwant = parse_version(want, s, &e);
		if (nwant < 2 || (*e && *e != '-' && !isspace((unsigned char)*e)))
			nwant = 0;
	}
	for (size_t i = 0; nwant && i < available->nr; i++) {
		long v[KBASE_PARTS];
		const char *e;

		parse_version(v, sorted[i], &e);
		if (v[0] == want[0] && v[1] == want[1]) {
			first = sorted[i];
			break;
		}
	}

	if (first) {
		strbuf_addf(why, "base-commit names %s", base_commit);
		strvec_push(out, first);
	} else if (nwant) {
		strbuf_addf(why, "base-commit names %s, which is not available: newest first",
			    base_commit);
	} else if (base_commit && is_hash(base_commit)) {
		strbuf_addf(why, "base-commit %.12s is a commit hash that cannot be mapped to a release here: newest first",
			    base_commit);
	} else if (base_commit && *base_commit) {
		strbuf_addf(why, "base-commit '%s' names no release: newest first",
			    base_commit);
	} else {
		strbuf_addstr(why, "no base-commit: newest first");
	}
	for (size_t i = 0; i < available->nr; i++)
		if (sorted[i] != first)
			strvec_push(out, sorted[i]);
	free(sorted);
	return 0;
}

/* `spec` as a commit of `r`. */
static bool resolve(git_oid *out, git_repository *r, const char *spec)
{
	struct strbuf sb = STRBUF_INIT;
	git_object *obj = NULL;
	bool ok;

	strbuf_addf(&sb, "%s^{commit}", spec);
	ok = !git_revparse_single(&obj, r, sb.buf);
	if (ok)
		git_oid_cpy(out, git_object_id(obj));
	git_error_clear();
	git_object_free(obj);
	strbuf_release(&sb);
	return ok;
}

int kbase_git(git_oid *out, bool *own, struct strbuf *why, const char *repo,
	      const char *branch, const char *base_commit)
{
	git_repository *r = NULL;
	int ret = 0;

	*own = false;
	gitlib_init();
	if (git_repository_open_ext(&r, repo, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
		return error_code(WW_ENOTFOUND, "cannot open the kernel repository '%s': %s",
				  repo, gitlib_error());
	if (base_commit && is_hash(base_commit) && resolve(out, r, base_commit)) {
		*own = true;
		strbuf_addf(why, "base-commit %.12s found in %s", base_commit, repo);
		ret = 1;
		goto out;
	}
	if (base_commit && *base_commit)
		strbuf_addf(why, "base-commit %.12s is not in %s", base_commit, repo);
	else
		strbuf_addf(why, "no base-commit");
	if (branch && *branch) {
		if (resolve(out, r, branch)) {
			strbuf_addf(why, ": branch %s (%.12s)", branch,
				    git_oid_tostr_s(out));
			ret = 1;
			goto out;
		}
		strbuf_addf(why, ", nor is branch %s", branch);
	}
	strbuf_addstr(why, ": the Debian trees; ");
out:
	git_repository_free(r);
	return ret;
}
