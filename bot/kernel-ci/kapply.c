/*
 * Applying a patch series to the base tree with libgit2: each patch is
 * parsed with diff_to_git() (diff.h), checked for paths that would leave the
 * tree, applied to the previous commit's tree with git_apply_to_tree and
 * committed; the last commit is then checked out (ktree_checkout).
 *
 * libgit2's own failure messages ("hunk at line 55 did not apply") name
 * neither the file nor the hunk, so the apply callbacks keep track of
 * where we are and the message is rebuilt from that.
 */
#include "kapply.h"
#include "diff.h"
#include "gitlib.h"

#include <time.h>

struct apply_state {
	const char *file;	/* the delta being applied (borrowed) */
	int hunk;		/* 1-based hunk of that delta */
	char header[128];	/* its "@@ -a,b +c,d @@" */
};

static int on_delta(const git_diff_delta *delta, void *payload)
{
	struct apply_state *st = payload;

	st->file = delta->new_file.path ? delta->new_file.path :
		   delta->old_file.path;
	st->hunk = 0;
	st->header[0] = '\0';
	return 0;
}

static int on_hunk(const git_diff_hunk *hunk, void *payload)
{
	struct apply_state *st = payload;
	size_t n = hunk->header_len;

	st->hunk++;
	/* The header ends "@@ function context\n": keep the @@ part. */
	for (size_t i = 2; i + 1 < hunk->header_len; i++)
		if (hunk->header[i] == '@' && hunk->header[i + 1] == '@') {
			n = i + 2;
			break;
		}
	if (n >= sizeof(st->header))
		n = sizeof(st->header) - 1;
	memcpy(st->header, hunk->header, n);
	st->header[n] = '\0';
	while (n && (st->header[n - 1] == '\n' || st->header[n - 1] == '\r'))
		st->header[--n] = '\0';
	return 0;
}

/*
 * Record why a patch failed in `f` (file and hunk may be NULL and 0) and
 * return WW_EAPPLY with the message `fmt` in the words callers print.
 */
WW_PRINTF(6, 7)
static int failed(struct kapply_failure *f, bool refused, const char *file,
		  int hunk, const char *reason, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	int ret;

	free(f->file);
	free(f->reason);
	f->file = file ? xstrdup(file) : NULL;
	f->hunk = hunk;
	f->reason = xstrdup(reason);
	f->refused = refused;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ret = error_code(WW_EAPPLY, "%s", msg.buf);
	strbuf_release(&msg);
	return ret;
}

static void failure_clear(struct kapply_failure *f)
{
	free(f->file);
	free(f->reason);
	memset(f, 0, sizeof(*f));
}

const char *kapply_bad_path(const char *path)
{
	const char *p = path;

	if (!*path)
		return "an empty path";
	if (*path == '/')
		return "an absolute path";
	while (*p) {
		size_t n = strcspn(p, "/");

		if (!n)
			return "an empty path component";
		if (n == 2 && !strncmp(p, "..", 2))
			return "a path that leaves the tree";
		if (n == 1 && *p == '.')
			return "a '.' path component";
		if (n >= 4 && !strncasecmp(p, ".git", 4) &&
		    strspn(p + 4, ". ") >= n - 4)
			return "a path inside .git";
		p += n;
		if (*p == '/')
			p++;
	}
	return NULL;
}

/* Does symlink `link` -> `target` stay inside the tree? */
static bool link_stays_inside(const char *link, const char *target)
{
	int depth = 0;
	const char *p;

	if (!*target || *target == '/')
		return false;
	for (p = link; (p = strchr(p, '/')); p++)
		depth++;		/* directories above the link */
	for (p = target; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2)) {
			if (--depth < 0)
				return false;
		} else if (n && !(n == 1 && *p == '.')) {
			depth++;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return true;
}

#define LINK_HOPS_MAX 40	/* the kernel's MAXSYMLINKS */

/*
 * Walk `path` from the directory `dir` (components, innermost last) in
 * `tree` the way the kernel's path walk would: every symlink met is
 * followed, chains included.  False when the walk leaves the tree (an
 * absolute target, a ".." above the top) or loops.
 */
static bool walk_stays_inside(git_tree *tree, struct strvec *dir,
			      const char *path, int *hops)
{
	for (const char *p = path; *p; ) {
		size_t n = strcspn(p, "/");
		struct strbuf at = STRBUF_INIT;
		git_tree_entry *e = NULL;
		bool inside = true;

		if (n == 2 && !strncmp(p, "..", 2)) {
			if (!dir->nr)
				return false;
			strvec_pop(dir);
		} else if (n && !(n == 1 && *p == '.')) {
			strvec_pushf(dir, "%.*s", (int)n, p);
			for (size_t i = 0; i < dir->nr; i++)
				strbuf_addf(&at, "%s%s", i ? "/" : "", dir->v[i]);
			if (!git_tree_entry_bypath(&e, tree, at.buf) &&
			    git_tree_entry_filemode(e) == GIT_FILEMODE_LINK) {
				git_blob *blob = NULL;
				struct strbuf target = STRBUF_INIT;

				strvec_pop(dir);
				if (++*hops > LINK_HOPS_MAX ||
				    git_blob_lookup(&blob, git_tree_owner(tree),
						    git_tree_entry_id(e)) < 0) {
					inside = false;
				} else {
					strbuf_add(&target, git_blob_rawcontent(blob),
						   (size_t)git_blob_rawsize(blob));
					inside = target.len && target.buf[0] != '/' &&
						 !memchr(target.buf, '\0', target.len) &&
						 walk_stays_inside(tree, dir, target.buf, hops);
				}
				git_blob_free(blob);
				strbuf_release(&target);
			}
			git_error_clear();
		}
		git_tree_entry_free(e);
		strbuf_release(&at);
		if (!inside)
			return false;
		p += n;
		if (*p == '/')
			p++;
	}
	return true;
}

/*
 * Does the symlink at `link` in `tree` (the tree as patched) resolve
 * inside it?  Links it passes through count: two links that each look
 * harmless ("s -> ../../../..", "l -> s/../../../etc") can lead out.
 */
static bool link_resolves_inside(git_tree *tree, const char *link)
{
	struct strvec dir = STRVEC_INIT;
	int hops = 0;
	bool inside;

	inside = walk_stays_inside(tree, &dir, link, &hops);
	strvec_clear(&dir);
	return inside;
}

/* The target a symlink delta gives (its added lines), into `out`. */
static int link_target(struct strbuf *out, git_diff *diff, size_t i)
{
	git_patch *patch = NULL;
	int ret = -1;

	if (git_patch_from_diff(&patch, diff, i) < 0)
		return error("%s", gitlib_error());
	for (size_t h = 0; h < git_patch_num_hunks(patch); h++) {
		int lines = git_patch_num_lines_in_hunk(patch, h);

		for (int l = 0; l < lines; l++) {
			const git_diff_line *line;

			if (git_patch_get_line_in_hunk(&line, patch, h, l) < 0)
				goto out;
			if (line->origin == GIT_DIFF_LINE_ADDITION)
				strbuf_add(out, line->content,
					   line->content_len);
		}
	}
	strbuf_rtrim(out);
	ret = 0;
out:
	git_patch_free(patch);
	return ret;
}

static bool ok_mode(uint32_t mode)
{
	return !mode || mode == GIT_FILEMODE_BLOB ||
	       mode == GIT_FILEMODE_BLOB_EXECUTABLE ||
	       mode == GIT_FILEMODE_LINK;
}

static int refuse_link(struct kapply_failure *f, const char *what,
		       const char *path, const char *target)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	strbuf_addf(&why, "symlink '%s' points outside the tree ('%s')", path, target);
	ret = failed(f, true, path, 0, why.buf, "%s is refused: %s", what, why.buf);
	strbuf_release(&why);
	return ret;
}

/*
 * Refuse what must not reach the worktree; also catch a "new file" that
 * already exists, which libgit2 would silently prepend to.
 */
static int check_deltas(git_diff *diff, git_tree *parent, const char *what,
			const char *version, struct strvec *touched,
			struct kapply_failure *f)
{
	struct strbuf target = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < git_diff_num_deltas(diff) && !ret; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *paths[2] = { d->old_file.path, d->new_file.path };
		git_tree_entry *e = NULL;

		for (int k = 0; k < 2 && !ret; k++) {
			const char *bad = paths[k] ? kapply_bad_path(paths[k]) : NULL;

			if (!bad)
				continue;
			strbuf_reset(&why);
			strbuf_addf(&why, "'%s' is %s", paths[k], bad);
			ret = failed(f, true, paths[k], 0, why.buf,
				     "%s is refused: %s", what, why.buf);
		}
		if (ret)
			break;
		if (!ok_mode(d->old_file.mode) || !ok_mode(d->new_file.mode)) {
			strbuf_reset(&why);
			strbuf_addf(&why, "'%s' would become a submodule or a directory",
				    d->new_file.path);
			ret = failed(f, true, d->new_file.path, 0, why.buf,
				     "%s is refused: %s", what, why.buf);
			break;
		}
		if (d->status != GIT_DELTA_DELETED &&
		    d->new_file.mode == GIT_FILEMODE_LINK) {
			strbuf_reset(&target);
			if ((ret = link_target(&target, diff, i)) < 0)
				break;
			if (!link_stays_inside(d->new_file.path, target.buf)) {
				ret = refuse_link(f, what, d->new_file.path, target.buf);
				break;
			}
		}
		if (d->status == GIT_DELTA_ADDED &&
		    !git_tree_entry_bypath(&e, parent, d->new_file.path)) {
			git_tree_entry_free(e);
			ret = failed(f, false, d->new_file.path, 0, "already exists",
				     "%s does not apply to linux %s: %s: already exists",
				     what, version, d->new_file.path);
			break;
		}
		git_error_clear();
		for (int k = 0; k < 2; k++)
			if (touched && paths[k] && (!k || !paths[0] ||
			    strcmp(paths[0], paths[1])))
				strvec_push(touched, paths[k]);
	}
	strbuf_release(&target);
	strbuf_release(&why);
	return ret;
}

/*
 * Every symlink the patch adds or changes, resolved in the patched tree
 * (check_deltas() has read each target as text; this follows chains).
 */
static int check_links(git_diff *diff, git_tree *tree, const char *what,
		       struct kapply_failure *f)
{
	struct strbuf target = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < git_diff_num_deltas(diff) && !ret; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_DELETED ||
		    d->new_file.mode != GIT_FILEMODE_LINK ||
		    link_resolves_inside(tree, d->new_file.path))
			continue;
		strbuf_reset(&target);
		if ((ret = link_target(&target, diff, i)) < 0)
			break;
		ret = refuse_link(f, what, d->new_file.path, target.buf);
	}
	strbuf_release(&target);
	return ret;
}

/* Hunks libgit2 could not place and we moved: bounded per patch. */
#define KAPPLY_RELOCATE_MAX 64

/* A blob's lines (borrowed pointers into `text`), without newlines. */
static size_t blob_lines(const char ***out, size_t **lens, const char *text,
			 size_t len)
{
	const char **v = NULL;
	size_t *l = NULL, nr = 0, alloc = 0, lalloc = 0;

	for (const char *p = text, *end = text + len; p < end; ) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		ALLOC_GROW(v, nr + 1, alloc);
		ALLOC_GROW(l, nr + 1, lalloc);
		v[nr] = p;
		l[nr] = n;
		nr++;
		p += n + 1;
	}
	*out = v;
	*lens = l;
	return nr;
}

/* The hunk's pre-image (context and removed lines), without newlines. */
static size_t hunk_preimage(const char ***out, size_t **lens, git_patch *patch,
			    size_t h)
{
	const char **v = NULL;
	size_t *l = NULL, nr = 0, alloc = 0, lalloc = 0;
	int lines = git_patch_num_lines_in_hunk(patch, h);

	for (int i = 0; i < lines; i++) {
		const git_diff_line *dl;
		size_t n;

		if (git_patch_get_line_in_hunk(&dl, patch, h, i) < 0 ||
		    (dl->origin != GIT_DIFF_LINE_CONTEXT &&
		     dl->origin != GIT_DIFF_LINE_DELETION))
			continue;
		n = dl->content_len;
		if (n && dl->content[n - 1] == '\n')
			n--;
		ALLOC_GROW(v, nr + 1, alloc);
		ALLOC_GROW(l, nr + 1, lalloc);
		v[nr] = dl->content;
		l[nr] = n;
		nr++;
	}
	*out = v;
	*lens = l;
	return nr;
}

static bool lines_match_at(const char **file, const size_t *flen, size_t fnr,
			   const char **pre, const size_t *plen, size_t pnr,
			   size_t at)
{
	if (at + pnr > fnr)
		return false;
	for (size_t i = 0; i < pnr; i++)
		if (flen[at + i] != plen[i] || memcmp(file[at + i], pre[i], plen[i]))
			return false;
	return true;
}

/*
 * Where the pre-image of hunk `h` of `file` really is in the parent's
 * blob, nearest to where the hunk says (git apply's offset search, no
 * fuzz): the offset in lines, or false when it is nowhere.
 */
static bool find_offset(long *out, git_tree *parent, git_diff *diff,
			const char *file, size_t h)
{
	const char **fl = NULL, **pl = NULL;
	size_t *flen = NULL, *plen = NULL, fnr = 0, pnr = 0;
	git_patch *patch = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	const git_diff_hunk *hunk;
	size_t lines, idx = SIZE_MAX;
	bool found = false;
	long start;

	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->new_file.path && !strcmp(d->new_file.path, file)) {
			idx = i;
			break;
		}
	}
	if (idx == SIZE_MAX || git_patch_from_diff(&patch, diff, idx) < 0 ||
	    git_patch_get_hunk(&hunk, &lines, patch, h) < 0 ||
	    git_tree_entry_bypath(&e, parent,
				  git_patch_get_delta(patch)->old_file.path) < 0 ||
	    git_blob_lookup(&blob, git_tree_owner(parent),
			    git_tree_entry_id(e)) < 0)
		goto out;
	fnr = blob_lines(&fl, &flen, git_blob_rawcontent(blob),
			 (size_t)git_blob_rawsize(blob));
	pnr = hunk_preimage(&pl, &plen, patch, h);
	if (!pnr)
		goto out;	/* nothing to anchor on */
	start = hunk->old_start > 0 ? hunk->old_start - 1 : 0;
	for (long k = 0; k <= (long)fnr && !found; k++) {
		if (start - k >= 0 &&
		    lines_match_at(fl, flen, fnr, pl, plen, pnr, start - k)) {
			*out = -k;
			found = true;
		} else if (k && start + k <= (long)fnr &&
			   lines_match_at(fl, flen, fnr, pl, plen, pnr, start + k)) {
			*out = k;
			found = true;
		}
	}
	/* At offset 0 libgit2 already failed: an earlier hunk is in the way. */
	if (found && !*out)
		found = false;
out:
	git_error_clear();
	free(fl);
	free(flen);
	free(pl);
	free(plen);
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_patch_free(patch);
	return found;
}

/* Parse "@@ -a[,b] +c[,d] @@": the numbers, and where a and c end. */
static bool parse_hunk_header(const char *p, long *a, long *b, long *c,
			      long *d, const char **rest)
{
	char *end;

	if (!skip_prefix(p, "@@ -", &p))
		return false;
	*a = strtol(p, &end, 10);
	*b = 1;
	if (*end == ',')
		*b = strtol(end + 1, &end, 10);
	if (strncmp(end, " +", 2))
		return false;
	*c = strtol(end + 2, &end, 10);
	*d = 1;
	if (*end == ',')
		*d = strtol(end + 1, &end, 10);
	if (!starts_with(end, " @@"))
		return false;
	*rest = end;
	return true;
}

/*
 * Rewrite the header of hunk `h` (0-based) of `file` in `text`, moving it
 * by `offset` lines.  Files are found by their "+++ b/<file>" line.
 */
static bool move_hunk(struct strbuf *text, const char *file, size_t h,
		      long offset)
{
	struct strbuf needle = STRBUF_INIT, out = STRBUF_INIT;
	const char *p, *line, *rest;
	long a, b, c, d;
	size_t n = 0;
	bool done = false;

	strbuf_addf(&needle, "\n+++ b/%s\n", file);
	p = strstr(text->buf, needle.buf);
	if (!p)
		goto out;
	for (line = p + 1; (line = strchr(line, '\n')); ) {
		line++;
		if (starts_with(line, "diff --git ") || starts_with(line, "--- "))
			break;
		if (!starts_with(line, "@@ -") || n++ != h)
			continue;
		if (!parse_hunk_header(line, &a, &b, &c, &d, &rest))
			break;
		strbuf_add(&out, text->buf, line - text->buf);
		strbuf_addf(&out, "@@ -%ld,%ld +%ld,%ld", a + offset, b,
			    c + offset, d);
		strbuf_addstr(&out, rest);
		strbuf_reset(text);
		strbuf_addbuf(text, &out);
		done = true;
		break;
	}
out:
	strbuf_release(&out);
	strbuf_release(&needle);
	return done;
}

static int apply_failed(struct kapply_failure *f, const struct apply_state *st,
			const char *what, const char *version, const char *why)
{
	const char *p;

	if (!st->file)
		return failed(f, false, NULL, 0, why,
			      "%s does not apply to linux %s: %s", what,
			      version, why);
	if (!st->hunk) {
		/* The file itself was missing (or renamed/deleted before). */
		if (strstr(why, "does not exist") || strstr(why, "not found") ||
		    !*why || !strcmp(why, "unknown libgit2 error"))
			why = "no such file";
		return failed(f, false, st->file, 0, why,
			      "%s does not apply to linux %s: %s: %s",
			      what, version, st->file, why);
	}
	/* "hunk at line 55 did not apply": the hunk is named instead. */
	if (skip_prefix(why, "hunk at line ", &p))
		why = "context does not match";
	return failed(f, false, st->file, st->hunk, why,
		      "%s does not apply to linux %s: %s: hunk %d (%s): %s",
		      what, version, st->file, st->hunk, st->header, why);
}

/* Parse `text` into `diff` as every reader of a patch does (diff_to_git). */
static int parse_diff(git_diff **diff, const struct strbuf *text,
		      const char *what)
{
	if (diff_to_git(diff, text->buf, text->len) < 0)
		return error_code(WW_EAPPLY, "%s: cannot parse its diff: %s",
				  what, error_last());
	return 0;
}

/*
 * git_apply_to_tree, moving hunks whose context sits at another line
 * (as git apply does; libgit2 only tries the line the header names).
 * The moves are described in `notes`.
 */
static int apply_moving_hunks(git_index **index, struct ktree *t,
			      git_tree *ptree, git_diff **diff,
			      struct strbuf *text, const char *what,
			      struct strbuf *notes, struct kapply_failure *f)
{
	for (int tries = 0; ; tries++) {
		struct apply_state st = { NULL, 0, "" };
		git_apply_options ao;
		char why[256];
		long offset = 0;
		int ret;

		git_apply_options_init(&ao, GIT_APPLY_OPTIONS_VERSION);
		ao.delta_cb = on_delta;
		ao.hunk_cb = on_hunk;
		ao.payload = &st;
		git_error_clear();
		if (!git_apply_to_tree(index, t->repo, ptree, *diff, &ao))
			return 0;
		snprintf(why, sizeof(why), "%s", gitlib_error());
		if (tries >= KAPPLY_RELOCATE_MAX || !st.file || !st.hunk ||
		    !starts_with(why, "hunk at line ") ||
		    !find_offset(&offset, ptree, *diff, st.file, st.hunk - 1) ||
		    !move_hunk(text, st.file, st.hunk - 1, offset))
			return apply_failed(f, &st, what, t->version, why);
		if (notes)
			strbuf_addf(notes, "%s%s: %s: hunk %d applied at offset %+ld line%s",
				    notes->len ? "; " : "", what, st.file,
				    st.hunk, offset, labs(offset) == 1 ? "" : "s");
		git_diff_free(*diff);
		*diff = NULL;
		if ((ret = parse_diff(diff, text, what)) < 0)
			return ret;
	}
}

/* ---- 3-way: as git am -3, from the blob ids of the patch's index lines ---- */

/* Apply only delta `only` of the diff (the others are skipped). */
static int only_delta(const git_diff_delta *delta, void *payload)
{
	const git_diff_delta *only = payload;

	return delta == only ? 0 : 1;
}

/* The full id of an abbreviated blob id, when the repository has it. */
static bool expand_blob(git_oid *out, git_repository *repo, const git_diff_file *f)
{
	git_odb *odb = NULL;
	bool found;

	if (!f->id_abbrev || git_oid_is_zero(&f->id))
		return false;
	found = !git_repository_odb(&odb, repo) &&
		!git_odb_exists_prefix(out, odb, &f->id, f->id_abbrev);
	git_error_clear();
	git_odb_free(odb);
	return found;
}

/*
 * The post-image of delta `i`: the patch applied to its pre-image blob
 * alone (a tree holding just that file), as the author's tree had it.
 */
static int postimage(git_oid *out, git_repository *repo, git_diff *diff, size_t i,
		     const git_oid *pre)
{
	const git_diff_delta *d = git_diff_get_delta(diff, i);
	git_treebuilder *tb = NULL;
	git_tree *empty = NULL, *one = NULL;
	git_index *index = NULL;
	git_tree_update upd;
	git_apply_options ao;
	const git_index_entry *e;
	git_oid id;
	int ret = -1;

	if (git_treebuilder_new(&tb, repo, NULL) < 0 ||
	    git_treebuilder_write(&id, tb) < 0 ||
	    git_tree_lookup(&empty, repo, &id) < 0)
		goto out;
	memset(&upd, 0, sizeof(upd));
	upd.action = GIT_TREE_UPDATE_UPSERT;
	upd.filemode = GIT_FILEMODE_BLOB;
	upd.path = d->old_file.path;
	git_oid_cpy(&upd.id, pre);
	if (git_tree_create_updated(&id, repo, empty, 1, &upd) < 0 ||
	    git_tree_lookup(&one, repo, &id) < 0)
		goto out;
	git_apply_options_init(&ao, GIT_APPLY_OPTIONS_VERSION);
	ao.delta_cb = only_delta;
	ao.payload = (void *)d;
	if (git_apply_to_tree(&index, repo, one, diff, &ao) < 0 ||
	    !(e = git_index_get_bypath(index, d->new_file.path, 0)))
		goto out;
	git_oid_cpy(out, &e->id);
	ret = 0;
out:
	git_index_free(index);
	git_tree_free(one);
	git_tree_free(empty);
	git_treebuilder_free(tb);
	return ret;
}

static void merge_input(git_merge_file_input *in, git_blob *b, const char *path)
{
	git_merge_file_input_init(in, GIT_MERGE_FILE_INPUT_VERSION);
	in->ptr = git_blob_rawcontent(b);
	in->size = (size_t)git_blob_rawsize(b);
	in->path = path;
	in->mode = GIT_FILEMODE_BLOB;
}

/*
 * Merge the author's change (pre -> post) into the file as the parent
 * tree has it (git_merge_file); the merged blob into `out`.  WW_EAPPLY
 * with `why` set when the change conflicts with the parent's file.
 */
static int merge_one(git_oid *out, git_repository *repo, git_tree *ptree,
		     const char *path, const git_oid *pre, const git_oid *post,
		     struct strbuf *why)
{
	git_blob *anc = NULL, *ours = NULL, *theirs = NULL;
	git_tree_entry *e = NULL;
	git_merge_file_input a, o, th;
	git_merge_file_result r = { 0 };
	int ret = -1;

	if (git_tree_entry_bypath(&e, ptree, path) < 0) {
		strbuf_addf(why, "%s: no such file", path);
		ret = WW_EAPPLY;
		goto out;
	}
	if (git_oid_equal(git_tree_entry_id(e), pre)) {
		git_oid_cpy(out, post);		/* the context only moved */
		ret = 0;
		goto out;
	}
	if (git_blob_lookup(&anc, repo, pre) < 0 ||
	    git_blob_lookup(&ours, repo, git_tree_entry_id(e)) < 0 ||
	    git_blob_lookup(&theirs, repo, post) < 0)
		goto out;
	merge_input(&a, anc, path);
	merge_input(&o, ours, path);
	merge_input(&th, theirs, path);
	if (git_merge_file(&r, &a, &o, &th, NULL) < 0)
		goto out;
	if (!r.automergeable) {
		strbuf_addf(why, "%s conflicts with the change", path);
		ret = WW_EAPPLY;
		goto out;
	}
	if (git_blob_create_from_buffer(out, repo, r.ptr, r.len) < 0)
		goto out;
	ret = 0;
out:
	if (ret == -1)
		ret = error("3-way merge of '%s': %s", path, gitlib_error());
	git_merge_file_result_free(&r);
	git_blob_free(anc);
	git_blob_free(ours);
	git_blob_free(theirs);
	git_tree_entry_free(e);
	return ret;
}

/* Does the patch name blobs (index lines), as git format-patch writes? */
static bool has_blob_ids(git_diff *diff)
{
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++)
		if (git_diff_get_delta(diff, i)->old_file.id_abbrev)
			return true;
	return false;
}

/*
 * git am -3: every delta that modifies a file carries the pre-image's
 * blob id in its index line; when the repository has that blob, the
 * patch is applied to it and the result merged into the parent's file.
 * The merged tree into `out`; WW_EAPPLY with `why` set when a blob is
 * missing, a delta is not a modification, or a merge conflicts.
 */
static int apply_3way(git_oid *out, git_repository *repo, git_tree *ptree,
		      git_diff *diff, struct strbuf *why)
{
	size_t n = git_diff_num_deltas(diff);
	git_tree_update *upd = xcalloc(n ? n : 1, sizeof(*upd));
	git_oid *ids = xcalloc(n ? n : 1, sizeof(*ids));
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		git_oid pre, post;

		if (d->status != GIT_DELTA_MODIFIED ||
		    strcmp(d->old_file.path, d->new_file.path)) {
			strbuf_addf(why, "%s is not a plain modification", d->new_file.path);
			ret = WW_EAPPLY;
		} else if (!expand_blob(&pre, repo, &d->old_file)) {
			strbuf_addf(why, "the repository does not have %s's pre-image blob %s",
				    d->old_file.path, git_oid_is_zero(&d->old_file.id) ?
				    "(no index line)" : git_oid_tostr_s(&d->old_file.id));
			ret = WW_EAPPLY;
		} else if (postimage(&post, repo, diff, i, &pre) < 0) {
			strbuf_addf(why, "%s does not apply to its own pre-image", d->old_file.path);
			git_error_clear();
			ret = WW_EAPPLY;
		} else if (!(ret = merge_one(&ids[i], repo, ptree, d->old_file.path,
					     &pre, &post, why))) {
			upd[i].action = GIT_TREE_UPDATE_UPSERT;
			upd[i].filemode = d->new_file.mode ? d->new_file.mode :
					  GIT_FILEMODE_BLOB;
			upd[i].path = d->new_file.path;
			git_oid_cpy(&upd[i].id, &ids[i]);
		}
	}
	if (!ret && git_tree_create_updated(out, repo, ptree, n, upd) < 0)
		ret = error("3-way: cannot write the tree: %s", gitlib_error());
	free(ids);
	free(upd);
	return ret;
}

int kapply_diff(git_oid *out, struct kapply_result *res, struct ktree *t,
		const git_oid *parent, const char *diff_text, size_t len,
		const char *what, const char *subject, const char *author)
{
	struct strbuf msg = STRBUF_INIT, text = STRBUF_INIT;
	struct kapply_failure scratch = { 0 };
	struct kapply_failure *f = res ? &res->fail : &scratch;
	git_diff *diff = NULL;
	git_commit *pc = NULL;
	git_tree *ptree = NULL, *tree = NULL;
	git_index *index = NULL;
	git_oid tree_id;
	int ret = -1;

	failure_clear(f);
	if (!len) {
		ret = failed(f, false, NULL, 0, "no diff", "%s has no diff", what);
		goto out;
	}
	strbuf_add(&text, diff_text, len);
	if ((ret = parse_diff(&diff, &text, what)) < 0) {
		f->reason = xstrdup(error_last());
		goto out;
	}
	if (git_commit_lookup(&pc, t->repo, parent) < 0 ||
	    git_commit_tree(&ptree, pc) < 0) {
		ret = error("cannot read commit %.12s: %s",
			    git_oid_tostr_s(parent), gitlib_error());
		goto out;
	}
	if ((ret = check_deltas(diff, ptree, what, t->version,
				res ? &res->touched : NULL, f)) < 0)
		goto out;
	ret = apply_moving_hunks(&index, t, ptree, &diff, &text, what,
				 res ? &res->note : NULL, f);
	if (ret == WW_EAPPLY && has_blob_ids(diff)) {
		/* Strictly it does not apply: as git am -3 would. */
		struct strbuf strict = STRBUF_INIT, why = STRBUF_INIT;

		strbuf_addstr(&strict, error_last());
		error_clear();
		ret = apply_3way(&tree_id, t->repo, ptree, diff, &why);
		if (ret == WW_EAPPLY) {
			/* the strict failure's file and hunk, both reasons */
			struct strbuf both = STRBUF_INIT;

			strbuf_addf(&both, "%s; 3-way: %s",
				    f->reason ? f->reason : "", why.buf);
			free(f->reason);
			f->reason = strbuf_detach(&both, NULL);
			error_code(WW_EAPPLY, "%s; 3-way: %s", strict.buf, why.buf);
		} else if (!ret) {
			failure_clear(f);
			if (res)
				res->three_way++;
		}
		strbuf_release(&strict);
		strbuf_release(&why);
	} else if (!ret && git_index_write_tree_to(&tree_id, index, t->repo) < 0) {
		ret = error("%s: cannot write its tree: %s", what, gitlib_error());
	}
	if (ret < 0)
		goto out;
	if (git_tree_lookup(&tree, t->repo, &tree_id) < 0) {
		ret = error("%s: cannot write its tree: %s", what,
			    gitlib_error());
		goto out;
	}
	if ((ret = check_links(diff, tree, what, f)) < 0)
		goto out;
	/* Dated like the parent: the same series gives the same commits. */
	strbuf_addf(&msg, "%s\n\nwarnwatch: %s\n", subject && *subject ?
		    subject : what, what);
	ret = gitlib_commit(out, t->repo, NULL, author ? author : "", git_commit_time(pc),
			    msg.buf, tree, pc);
	if (ret == WW_EINPUT)
		goto out;	/* "bad author ..." as before */
	if (ret < 0) {
		ret = error_prefix(ret, "%s: cannot commit", what);
		goto out;
	}
	ret = 0;
out:
	failure_clear(&scratch);
	git_index_free(index);
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(pc);
	git_diff_free(diff);
	strbuf_release(&text);
	strbuf_release(&msg);
	return ret;
}

static bool is_hex(const char *s, size_t min, size_t max)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return n == strlen(s) && n >= min && n <= max;
}

/* The commit to apply to: base-commit: if we have it, else the tag. */
static void pick_base(struct kapply_result *out, struct ktree *t,
		      const struct series *s)
{
	git_object *obj = NULL;
	struct strbuf spec = STRBUF_INIT;

	git_oid_cpy(&out->base, &t->base);
	if (!s->base_commit || !*s->base_commit)
		return;
	if (is_hex(s->base_commit, 7, GIT_OID_HEXSZ)) {
		strbuf_addf(&spec, "%s^{commit}", s->base_commit);
		if (!git_revparse_single(&obj, t->repo, spec.buf)) {
			git_oid_cpy(&out->base, git_object_id(obj));
			git_object_free(obj);
			strbuf_release(&spec);
			return;
		}
		git_error_clear();
	}
	strbuf_addf(&out->note,
		    "base-commit %.12s is not in the linux %s import; applied to %s",
		    s->base_commit, t->version, t->tag);
	strbuf_release(&spec);
}

static void sort_unique(struct strvec *sv)
{
	size_t j = 0;

	if (!sv->nr)
		return;
	strvec_sort(sv);
	for (size_t i = 1; i < sv->nr; i++) {
		if (!strcmp(sv->v[i], sv->v[j]))
			free((char *)sv->v[i]);
		else
			sv->v[++j] = sv->v[i];
	}
	sv->nr = j + 1;
	sv->v[sv->nr] = NULL;
}

int kapply_series(struct kapply_result *out, struct ktree *t,
		  const struct series *s)
{
	struct strbuf what = STRBUF_INIT;
	git_oid parent;
	int ret = 0;

	pick_base(out, t, s);
	git_oid_cpy(&parent, &out->base);
	out->commits = xcalloc(s->nr ? s->nr : 1, sizeof(*out->commits));
	for (size_t i = 0; i < s->nr; i++) {
		const struct series_patch *p = &s->patches[i];

		strbuf_reset(&what);
		if (p->index > 0 && p->total > 0)
			strbuf_addf(&what, "patch %d/%d", p->index, p->total);
		else if (s->nr > 1)
			strbuf_addf(&what, "patch %zu/%zu", i + 1, s->nr);
		else
			strbuf_addstr(&what, "the patch");
		ret = kapply_diff(&out->commits[i], out, t, &parent, p->diff,
				  p->diff_len, what.buf,
				  p->title ? p->title : p->subject, p->author);
		if (ret < 0) {
			out->fail.patch = (int)i + 1;
			goto out;
		}
		git_oid_cpy(&parent, &out->commits[i]);
		out->nr++;
	}
	git_oid_cpy(&out->head, &parent);
	sort_unique(&out->touched);
	ret = ktree_checkout(t, &out->head);
out:
	strbuf_release(&what);
	return ret;
}

void kapply_result_release(struct kapply_result *r)
{
	free(r->commits);
	strvec_clear(&r->touched);
	strbuf_release(&r->note);
	failure_clear(&r->fail);
	*r = (struct kapply_result)KAPPLY_RESULT_INIT;
}
