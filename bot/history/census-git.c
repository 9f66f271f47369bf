/*
 * warnwatch census --git REPO A..B: the calls each non-merge commit of
 * the range adds and removes, summed per macro, class and subsystem.
 *
 * A commit is diffed against its first parent with libgit2, one file at
 * a time (a release-to-release diff is gigabytes of text: never held
 * whole), and each file's patch goes through check_diff(), so a call
 * counts as added or removed exactly when `check` would report it
 * (moved code is neither).  Wrappers are resolved over B's headers
 * first, and over each changed .c file's new version, with the scoping
 * described in census.h.
 */
#include <git2.h>

#include "census-priv.h"
#include "gitlib.h"
#include "check.h"
#include "scan.h"
#include "strvec.h"
#include "tarread.h"

/* One file of the repository: bigger is not read (the tarball's cap). */
#define CENSUS_GIT_MAX_BLOB TARREAD_MAX_FILE

static int git_fail(const char *what, const char *subject)
{
	return error_code(WW_EINPUT, "%s '%s': %s", what, subject, gitlib_error());
}

static bool is_source(const char *path)
{
	return ends_with(path, ".c") || ends_with(path, ".h");
}

struct git_ctx {
	struct census *c;
	struct ruleset *rs;
	const struct census_opts *opts;
	git_repository *repo;
	struct maintainers maint;
	struct scan_result res;
	struct strvec pending;
	struct strbuf path;
	struct check_filter filter;	/* one hunk filter for every file */
	size_t seen;
	int error;
};

/* Wrapper definitions of one blob (`path` decides their scope). */
/*
 * A blob of the repository, when it is at most CENSUS_GIT_MAX_BLOB: its
 * size comes from the object's header first (gitlib_blob_read()), so a
 * blob that inflates to gigabytes is never loaded.  false when it is not
 * read.
 */
static bool read_blob(git_blob **out, struct git_ctx *g, const git_oid *oid)
{
	size_t size;
	int ret = gitlib_blob_read(out, &size, g->repo, oid, CENSUS_GIT_MAX_BLOB);

	error_clear();
	return !ret;
}

static void blob_defines(struct git_ctx *g, const git_oid *oid, const char *path)
{
	git_blob *blob;

	if (!read_blob(&blob, g, oid))
		return;
	scan_result_clear(&g->res);
	if (!git_blob_is_binary(blob))
		scan_defines(&g->res, g->rs, git_blob_rawcontent(blob),
			     (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	/* rules_add_wrapper() moves the rules the hits point to: copy first. */
	strvec_clear(&g->pending);
	for (size_t i = 0; i < g->res.nr; i++)
		if (g->res.v[i].kind == HIT_DEFINE && g->res.v[i].defined &&
		    g->res.v[i].rule)
		{
			strvec_push(&g->pending, g->res.v[i].defined);
			strvec_push(&g->pending, g->res.v[i].rule->macro);
		}
	scan_result_clear(&g->res);
	for (size_t i = 0; i + 1 < g->pending.nr; i += 2)
		census_add_def(g->c, g->rs, g->pending.v[i], g->pending.v[i + 1],
			       path);
}

static int header_cb(const char *root, const git_tree_entry *e, void *data)
{
	struct git_ctx *g = data;
	const char *name = git_tree_entry_name(e);

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB || !ends_with(name, ".h"))
		return 0;
	strbuf_reset(&g->path);
	strbuf_addf(&g->path, "%s%s", root, name);
	if (g->opts->progress && !(++g->seen % 5000))
		g->opts->progress(g->opts->data, "wrapper definitions", g->seen);
	blob_defines(g, git_tree_entry_id(e), g->path.buf);
	return 0;
}

static int read_top_blob(struct strbuf *out, git_repository *repo,
			 git_tree *tree, const char *name)
{
	const git_tree_entry *e = git_tree_entry_byname(tree, name);
	git_blob *blob;
	size_t size;

	if (!e || gitlib_blob_read(&blob, &size, repo, git_tree_entry_id(e),
				   CENSUS_GIT_MAX_BLOB) < 0) {
		error_clear();
		return WW_ENOTFOUND;
	}
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

/* Count the findings of one file's patch. */
static void count_findings(struct git_ctx *g, const struct check_result *r)
{
	struct census *c = g->c;
	struct census_priv *p = c->priv;

	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];
		const struct wrapper_def *d = NULL;
		struct census_subsystem *s;
		enum rule_class class;
		bool add = f->kind == FINDING_ADDED;
		size_t mi;

		if ((f->kind != FINDING_ADDED && f->kind != FINDING_REMOVED) ||
		    f->moved || !f->rule)
			continue;
		class = f->rule->class;
		if (f->rule->wraps) {
			size_t di = census_visible_def(p, f->rule->macro, f->file);

			if (di == CENSUS_NO_DEF) {
				c->out_of_scope++;
				continue;
			}
			d = &p->defs[di];
			class = d->class;
		}
		mi = census_macro_index(c, f->rule->macro, class, d ? d->root : NULL);
		s = census_subsystem_get(c, census_section_of(&g->maint, f->file));
		/* Per-macro arrays are sized once the macro table is final. */
		ALLOC_GROW(p->changes, p->nr_changes + 1, p->alloc_changes);
		p->changes[p->nr_changes].macro = mi;
		p->changes[p->nr_changes].subsystem = s - c->subsystems;
		p->changes[p->nr_changes].added = add;
		p->nr_changes++;
		if (add) {
			c->macros[mi].added++;
			c->classes_added[class]++;
			s->classes_added[class]++;
			s->total_added++;
			c->total_added++;
		} else {
			c->macros[mi].removed++;
			c->classes_removed[class]++;
			s->classes_removed[class]++;
			s->total_removed++;
			c->total_removed++;
		}
	}
}

/* The calls in a blob as sorted "MACRO\tcall text" lines (empty if none). */
static void blob_calls(struct git_ctx *g, struct strvec *out, const git_oid *oid)
{
	git_blob *blob;

	if (git_oid_is_zero(oid) || !read_blob(&blob, g, oid))
		return;
	scan_result_clear(&g->res);
	if (!git_blob_is_binary(blob))
		scan_text(&g->res, g->rs, git_blob_rawcontent(blob),
			  (size_t)git_blob_rawsize(blob), SCAN_CODE);
	git_blob_free(blob);
	for (size_t i = 0; i < g->res.nr; i++)
		if (g->res.v[i].kind == HIT_CALL && g->res.v[i].rule)
			strvec_pushf(out, "%s\t%s", g->res.v[i].rule->macro,
				     g->res.v[i].text ? g->res.v[i].text : "");
	scan_result_clear(&g->res);
	strvec_sort(out);
}

/*
 * Whether both sides of a change hold the same calls.  Then the diff
 * can only move calls around, which check does not count, so the (much
 * dearer) textual diff is skipped: of the ~40,000 .c/.h files that
 * change between two releases, most hold no call at all.
 */
static bool same_calls(struct git_ctx *g, const git_diff_delta *d)
{
	struct strvec a = STRVEC_INIT, b = STRVEC_INIT;
	bool same;

	blob_calls(g, &a, &d->old_file.id);
	blob_calls(g, &b, &d->new_file.id);
	same = a.nr == b.nr;
	for (size_t i = 0; same && i < a.nr; i++)
		same = !strcmp(a.v[i], b.v[i]);
	strvec_clear(&a);
	strvec_clear(&b);
	return same;
}

static int scan_delta(struct git_ctx *g, git_diff *diff, size_t i)
{
	const git_diff_delta *d = git_diff_get_delta(diff, i);
	struct check_opts copts = CHECK_OPTS_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	git_patch *patch = NULL;
	git_buf buf = GIT_BUF_INIT;
	const char *path = d->new_file.path ? d->new_file.path : d->old_file.path;
	double t0 = monotonic_now();
	int ret = 0;

	if (!is_source(path) && !(d->old_file.path && is_source(d->old_file.path)))
		return 0;
	if ((d->flags & GIT_DIFF_FLAG_BINARY) || !rules_path_scanned(g->rs, path))
		return 0;
	/* A .c file's own wrappers, from its new version. */
	if (ends_with(path, ".c") && d->status != GIT_DELTA_DELETED &&
	    !(g->opts->flags & CENSUS_NO_WRAPPERS))
		blob_defines(g, &d->new_file.id, path);
	g->c->files++;
	if (same_calls(g, d)) {
		g->c->timing.count_scan += monotonic_now() - t0;
		return 0;
	}
	if (git_patch_from_diff(&patch, diff, i) < 0 || !patch ||
	    git_patch_to_buf(&buf, patch) < 0) {
		ret = git_fail("cannot diff", path);
		goto out;
	}
	g->c->timing.count_read += monotonic_now() - t0;
	t0 = monotonic_now();
	copts.rules = g->rs;
	copts.filter = &g->filter;
	g->c->bytes += buf.size;
	ret = check_diff(&r, buf.ptr, buf.size, 0, &copts);
	if (ret < 0) {
		ret = error_prefix(ret, "'%s'", path);
		goto out;
	}
	count_findings(g, &r);
	g->c->timing.count_scan += monotonic_now() - t0;
out:
	check_result_clear(&r);
	git_buf_dispose(&buf);
	git_patch_free(patch);
	return ret;
}

#define CENSUS_RENAME_LIMIT 1000	/* git's default diff.renameLimit */

static bool too_many_for_renames(git_diff *diff)
{
	size_t added = 0, deleted = 0;

	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		git_delta_t st = git_diff_get_delta(diff, i)->status;

		added += st == GIT_DELTA_ADDED;
		deleted += st == GIT_DELTA_DELETED;
	}
	return added > CENSUS_RENAME_LIMIT && deleted > CENSUS_RENAME_LIMIT;
}

static int scan_commit(struct git_ctx *g, git_commit *commit)
{
	git_tree *tree = NULL, *parent_tree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	git_diff_options dopts;
	git_diff_find_options fopts;
	char *specs[] = { "*.c", "*.h" };
	char hex[GIT_OID_HEXSZ + 1];
	double t0 = monotonic_now();
	int ret = 0;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(commit));
	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	git_diff_find_options_init(&fopts, GIT_DIFF_FIND_OPTIONS_VERSION);
	dopts.pathspec.strings = specs;
	dopts.pathspec.count = ARRAY_SIZE(specs);
	/* bigger is binary, its size read from the object's header first:
	 * never inflated (scan_delta() skips binary files) */
	dopts.max_size = CENSUS_GIT_MAX_BLOB;
	if (git_commit_tree(&tree, commit) < 0 ||
	    (git_commit_parentcount(commit) > 0 &&
	     (git_commit_parent(&parent, commit, 0) < 0 ||
	      git_commit_tree(&parent_tree, parent) < 0)) ||
	    git_diff_tree_to_tree(&diff, g->repo, parent_tree, tree, &dopts) < 0) {
		ret = git_fail("cannot diff commit", hex);
		goto out;
	}
	/*
	 * A renamed file's calls are neither added nor removed.  Like git
	 * (diff.renameLimit), give up on similarity matching when too many
	 * files come and go: a release-to-release diff has ~7,000 of each
	 * and pairing them takes libgit2 six minutes; renames of identical
	 * files are still found.
	 */
	fopts.flags = GIT_DIFF_FIND_RENAMES;
	if (too_many_for_renames(diff)) {
		fopts.flags |= GIT_DIFF_FIND_EXACT_MATCH_ONLY;
		g->c->exact_renames++;
	}
	if (git_diff_find_similar(diff, &fopts) < 0) {
		ret = git_fail("cannot find renames in", hex);
		goto out;
	}
	g->c->timing.count_read += monotonic_now() - t0;
	for (size_t i = 0; i < git_diff_num_deltas(diff) && !ret; i++) {
		ret = scan_delta(g, diff, i);
		if (g->opts->progress && !(++g->seen % 500))
			g->opts->progress(g->opts->data, "changed files", g->seen);
	}
out:
	git_diff_free(diff);
	git_tree_free(parent_tree);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}

/* Resolve A..B into commits; the tips' ids are kept for the report. */
static int resolve_range(struct git_ctx *g, git_revwalk *walk, const char *range)
{
	git_revspec spec;
	git_object *from = NULL, *to = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int ret = 0;

	if (!strstr(range, "..") || strstr(range, "..."))
		return error_code(WW_EUSAGE, "'%s': want a range A..B", range);
	if (git_revparse(&spec, g->repo, range) < 0)
		return git_fail("bad range", range);
	if (!spec.from || !spec.to) {
		ret = error_code(WW_EUSAGE, "'%s': want a range A..B", range);
		goto out;
	}
	if (git_object_peel(&from, spec.from, GIT_OBJECT_COMMIT) < 0 ||
	    git_object_peel(&to, spec.to, GIT_OBJECT_COMMIT) < 0) {
		ret = git_fail("not a commit", range);
		goto out;
	}
	g->c->from_oid = xstrdup(git_oid_tostr(hex, sizeof(hex), git_object_id(from)));
	g->c->to_oid = xstrdup(git_oid_tostr(hex, sizeof(hex), git_object_id(to)));
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push(walk, git_object_id(to)) < 0 ||
	    git_revwalk_hide(walk, git_object_id(from)) < 0)
		ret = git_fail("cannot walk", range);
out:
	git_object_free(from);
	git_object_free(to);
	git_object_free(spec.from);
	git_object_free(spec.to);
	return ret;
}

/* B's MAINTAINERS, Makefile and header wrappers. */
static int read_target_tree(struct git_ctx *g)
{
	struct census_priv *p = g->c->priv;
	git_commit *to = NULL;
	git_tree *tree = NULL;
	git_oid oid;
	double t0 = monotonic_now();
	int ret = 0;

	if (git_oid_fromstr(&oid, g->c->to_oid) < 0 ||
	    git_commit_lookup(&to, g->repo, &oid) < 0 ||
	    git_commit_tree(&tree, to) < 0) {
		ret = git_fail("cannot read", g->c->to);
		goto out;
	}
	if (!read_top_blob(&p->maintainers, g->repo, tree, "MAINTAINERS")) {
		ret = census_load_maintainers(g->c, &g->maint, &p->maintainers,
					      g->opts->flags);
		if (ret < 0)
			goto out;
	}
	read_top_blob(&p->makefile, g->repo, tree, "Makefile");
	if (!(g->opts->flags & CENSUS_NO_WRAPPERS) &&
	    git_tree_walk(tree, GIT_TREEWALK_PRE, header_cb, g) < 0) {
		ret = git_fail("cannot walk the tree of", g->c->to);
		goto out;
	}
out:
	g->c->timing.defines_scan = monotonic_now() - t0;
	git_tree_free(tree);
	git_commit_free(to);
	return ret;
}

/* Spread the per-finding records over the subsystems' per-macro arrays. */
static void finish_subsystems(struct census *c)
{
	struct census_priv *p = c->priv;
	struct census_subsystem *unsorted = c->subsystems;

	for (size_t i = 0; i < c->nr_subsystems; i++) {
		unsorted[i].added = xcalloc(c->nr_macros + 1, sizeof(long));
		unsorted[i].removed = xcalloc(c->nr_macros + 1, sizeof(long));
		unsorted[i].calls = xcalloc(c->nr_macros + 1, sizeof(long));
	}
	for (size_t i = 0; i < p->nr_changes; i++) {
		struct census_subsystem *s = &unsorted[p->changes[i].subsystem];

		if (p->changes[i].added)
			s->added[p->changes[i].macro]++;
		else
			s->removed[p->changes[i].macro]++;
	}
	census_subsystems_finish(c);
}

int census_git(struct census *out, const char *repo, const char *range,
	       struct ruleset *rs, const struct census_opts *opts)
{
	struct census_opts defaults = CENSUS_OPTS_INIT;
	struct git_ctx g = { 0 };
	git_revwalk *walk = NULL;
	git_oid oid;
	const char *dots;
	double t0 = monotonic_now();
	int ret;

	if (!opts)
		opts = &defaults;
	census_priv_init(out, repo);
	dots = strstr(range, "..");
	out->from = dots ? xstrndup(range, dots - range) : xstrdup(range);
	out->to = xstrdup(dots ? dots + 2 : "");
	g.c = out;
	g.rs = rs;
	g.opts = opts;
	strvec_init(&g.pending);
	strbuf_init(&g.path, 0);

	gitlib_init();
	if (git_repository_open_ext(&g.repo, repo, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0) {
		ret = git_fail("not a git repository", repo);
		goto out;
	}
	if (git_revwalk_new(&walk, g.repo) < 0) {
		ret = git_fail("cannot walk", repo);
		goto out;
	}
	ret = resolve_range(&g, walk, range);
	if (ret < 0)
		goto out;
	ret = read_target_tree(&g);
	if (ret < 0)
		goto out;
	census_parse_release(out, &((struct census_priv *)out->priv)->makefile);

	while (!(ret = git_revwalk_next(&oid, walk))) {
		git_commit *commit;

		if (git_commit_lookup(&commit, g.repo, &oid) < 0) {
			ret = git_fail("cannot read commit in", range);
			goto out;
		}
		if (git_commit_parentcount(commit) <= 1) {
			out->commits++;
			ret = scan_commit(&g, commit);
		}
		git_commit_free(commit);
		if (ret < 0)
			goto out;
	}
	ret = ret == GIT_ITEROVER ? 0 : git_fail("cannot walk", range);
	if (!ret)
		finish_subsystems(out);
out:
	if (ret < 0)
		ret = error_prefix(ret, "'%s'", repo);
	out->timing.total = monotonic_now() - t0;
	git_revwalk_free(walk);
	maintainers_release(&g.maint);
	scan_result_clear(&g.res);
	strvec_clear(&g.pending);
	check_filter_release(&g.filter);
	strbuf_release(&g.path);
	git_repository_free(g.repo);
	return ret;
}
