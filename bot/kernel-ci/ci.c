/*
 * warnwatch ci: from a series to a boot verdict (see ci.h): which lines
 * the series adds in the final tree, whose fault each fired WARNING is,
 * the verdict and its JSON and text forms, and the pipeline that applies,
 * builds and boots (ci_run, at the end).
 */
#include "ci-json.h"
#include "mkdirs.h"
#include "gitlib.h"
#include "diff.h"

#include "kapply.h"
#include "kboot.h"
#include "kbuild.h"
#include "ktree.h"
#include "gcov.h"
#include "kbase.h"
#include "kblame.h"
#include "kguest.h"
#include "quote.h"
#include "safefs.h"

#include <git2.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void ci_cache_dir(struct strbuf *out)
{
	ktree_cache_dir(out, NULL);
}

/* ---- the series' added lines, carried to the final tree ---- */

struct added_line {
	char *file;		/* path in the final tree */
	int line;		/* line in the final tree */
	char *orig_file;	/* path in its own patch's post-image */
	int orig_line;		/* line in its own patch's post-image */
	int patch;
};

struct added_set {
	struct added_line *v;
	size_t nr, alloc;
};

static void added_set_release(struct added_set *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		free(a->v[i].file);
		free(a->v[i].orig_file);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/*
 * Where pre-image line `l` of `patch`'s file ends up in its post-image:
 * shifted by the hunks before it, -1 when a hunk removes it.
 */
static int map_line(git_patch *patch, int l)
{
	size_t nh = git_patch_num_hunks(patch);
	int delta = 0;

	for (size_t h = 0; h < nh; h++) {
		const git_diff_hunk *hunk;
		size_t nlines;

		if (git_patch_get_hunk(&hunk, &nlines, patch, h) < 0)
			return -1;
		/* A pure insertion "-10,0" goes after line 10. */
		if (hunk->old_lines == 0 ? l <= hunk->old_start : l < hunk->old_start)
			return l + delta;
		if (l < hunk->old_start + hunk->old_lines) {
			for (size_t i = 0; i < nlines; i++) {
				const git_diff_line *dl;

				if (git_patch_get_line_in_hunk(&dl, patch, h, i) < 0)
					return -1;
				if (dl->old_lineno == l)
					return dl->new_lineno;	/* -1 if removed */
			}
			return -1;
		}
		delta += hunk->new_lines - hunk->old_lines;
	}
	return l + delta;
}

/* Move the lines added so far through one later patch's file. */
static void carry_through(struct added_set *a, git_patch *patch,
			  const git_diff_delta *d)
{
	const char *old = d->old_file.path, *new = d->new_file.path;

	for (size_t i = 0; i < a->nr; i++) {
		struct added_line *al = &a->v[i];

		if (al->line <= 0 || !old || strcmp(al->file, old))
			continue;
		if (d->status == GIT_DELTA_DELETED) {
			al->line = -1;
			continue;
		}
		al->line = map_line(patch, al->line);
		if (new && strcmp(new, old)) {
			free(al->file);
			al->file = xstrdup(new);
		}
	}
}

static void collect_added(struct added_set *a, git_patch *patch,
			  const char *path, int patch_index)
{
	size_t nh = git_patch_num_hunks(patch);

	for (size_t h = 0; h < nh; h++) {
		const git_diff_hunk *hunk;
		size_t nlines;

		if (git_patch_get_hunk(&hunk, &nlines, patch, h) < 0)
			return;
		for (size_t i = 0; i < nlines; i++) {
			const git_diff_line *dl;
			struct added_line *al;

			if (git_patch_get_line_in_hunk(&dl, patch, h, i) < 0)
				return;
			if (dl->origin != GIT_DIFF_LINE_ADDITION)
				continue;
			ALLOC_GROW(a->v, a->nr + 1, a->alloc);
			al = &a->v[a->nr++];
			al->file = xstrdup(path);
			al->orig_file = xstrdup(path);
			al->line = al->orig_line = dl->new_lineno;
			al->patch = patch_index;
		}
	}
}

/* One patch's diff: carry earlier lines through it, then add its own. */
static void added_from_diff(struct added_set *a, const char *diff, size_t len,
			    int patch_index)
{
	git_diff *gd = NULL;
	size_t n;

	if (!diff || !len || diff_to_git(&gd, diff, len) < 0)
		return;	/* unreadable: kapply refused it too */
	n = git_diff_num_deltas(gd);
	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(gd, i);
		git_patch *p = NULL;

		if (git_patch_from_diff(&p, gd, i) < 0 || !p)
			continue;
		carry_through(a, p, d);
		if (d->status != GIT_DELTA_DELETED && d->new_file.path)
			collect_added(a, p, d->new_file.path, patch_index);
		git_patch_free(p);
	}
	git_diff_free(gd);
}

static void added_from_series(struct added_set *a, const struct series *s)
{
	gitlib_init();
	for (size_t i = 0; s && i < s->nr; i++)
		added_from_diff(a, s->patches[i].diff, s->patches[i].diff_len,
				s->patches[i].index ? s->patches[i].index :
				(int)i + 1);
}

/* ---- where the added lines landed in the booted tree ---- */

struct ci_landed {
	struct added_set set;
};

static void ci_landed_free(struct ci_landed *l)
{
	if (!l)
		return;
	added_set_release(&l->set);
	free(l);
}

/* The set to attribute with: where the lines landed (ci_land), else the
 * patches' own numbers, computed into `own`. */
static const struct added_set *added_of(const struct ci_verdict *v,
					const struct series *s,
					struct added_set *own)
{
	if (v->landed)
		return &v->landed->set;
	added_from_series(own, s);
	return own;
}

static bool same_text(const git_diff_line *a, const git_diff_line *b)
{
	size_t la = a->content_len, lb = b->content_len;

	while (la && (a->content[la - 1] == '\n' || a->content[la - 1] == '\r'))
		la--;
	while (lb && (b->content[lb - 1] == '\n' || b->content[lb - 1] == '\r'))
		lb--;
	return la == lb && !memcmp(a->content, b->content, la);
}

/* The lines `p` adds, in order (borrowed from `p`). */
static size_t additions(const git_diff_line ***out, git_patch *p)
{
	size_t nr = 0, alloc = 0;

	*out = NULL;
	for (size_t h = 0; p && h < git_patch_num_hunks(p); h++) {
		int nlines = git_patch_num_lines_in_hunk(p, h);

		for (int i = 0; i < nlines; i++) {
			const git_diff_line *dl;

			if (git_patch_get_line_in_hunk(&dl, p, h, (size_t)i) < 0)
				break;
			if (dl->origin != GIT_DIFF_LINE_ADDITION)
				continue;
			ALLOC_GROW(*out, nr + 1, alloc);
			(*out)[nr++] = dl;
		}
	}
	return nr;
}

/*
 * The lines patch `own` adds to `path`, each matched in order and by
 * content with a line the tree's diff `tree` adds: that is where it
 * landed.  A line the tree's diff does not show as added (the patch
 * removes and adds the same text) keeps the shift of the line before.
 */
static void collect_landed(struct added_set *a, git_patch *own, git_patch *tree,
			   const char *path, int patch_index)
{
	const git_diff_line **mine, **theirs;
	size_t nm = additions(&mine, own), nt = additions(&theirs, tree), next = 0;
	int shift = 0;

	for (size_t i = 0; i < nm; i++) {
		struct added_line *al;
		int at = -1;

		for (size_t j = next; j < nt; j++) {
			if (same_text(mine[i], theirs[j])) {
				at = theirs[j]->new_lineno;
				next = j + 1;
				break;
			}
		}
		if (at > 0)
			shift = at - mine[i]->new_lineno;
		else
			at = mine[i]->new_lineno + shift;
		ALLOC_GROW(a->v, a->nr + 1, a->alloc);
		al = &a->v[a->nr++];
		al->file = xstrdup(path);
		al->orig_file = xstrdup(path);
		al->line = at;
		al->orig_line = mine[i]->new_lineno;
		al->patch = patch_index;
	}
	free(mine);
	free(theirs);
}

static int diff_commits(git_diff **out, git_repository *repo,
			const git_oid *from, const git_oid *to)
{
	git_commit *a = NULL, *b = NULL;
	git_tree *ta = NULL, *tb = NULL;
	int ret = -1;

	if (git_commit_lookup(&a, repo, from) < 0 || git_commit_tree(&ta, a) < 0 ||
	    git_commit_lookup(&b, repo, to) < 0 || git_commit_tree(&tb, b) < 0 ||
	    git_diff_tree_to_tree(out, repo, ta, tb, NULL) < 0 ||
	    git_diff_find_similar(*out, NULL) < 0) {
		ret = error("cannot diff commit %.12s against its parent: %s",
			    git_oid_tostr_s(to), gitlib_error());
		goto out;
	}
	ret = 0;
out:
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(a);
	git_commit_free(b);
	return ret;
}

/* The tree diff's patch for `path` (post-image name), or NULL. */
static git_patch *tree_patch(git_diff *td, const char *path)
{
	for (size_t k = 0; k < git_diff_num_deltas(td); k++) {
		const git_diff_delta *d = git_diff_get_delta(td, k);
		git_patch *p = NULL;

		if (d->new_file.path && !strcmp(d->new_file.path, path) &&
		    !git_patch_from_diff(&p, td, k))
			return p;
	}
	return NULL;
}

/* One patch: carry the earlier lines through its tree diff, add its own. */
static void land_patch(struct added_set *a, git_diff *td, const struct series_patch *pt,
		       int patch_index)
{
	git_diff *own = NULL;

	for (size_t k = 0; k < git_diff_num_deltas(td); k++) {
		git_patch *p = NULL;

		if (!git_patch_from_diff(&p, td, k) && p)
			carry_through(a, p, git_diff_get_delta(td, k));
		git_patch_free(p);
	}
	if (!pt->diff || !pt->diff_len ||
	    diff_to_git(&own, pt->diff, pt->diff_len) < 0) {
		error_clear();
		return;
	}
	for (size_t k = 0; k < git_diff_num_deltas(own); k++) {
		const git_diff_delta *d = git_diff_get_delta(own, k);
		git_patch *mine = NULL, *tree;

		if (d->status == GIT_DELTA_DELETED || !d->new_file.path ||
		    git_patch_from_diff(&mine, own, k) < 0 || !mine)
			continue;
		tree = tree_patch(td, d->new_file.path);
		collect_landed(a, mine, tree, d->new_file.path, patch_index);
		git_patch_free(tree);
		git_patch_free(mine);
	}
	git_diff_free(own);
}

int ci_land(struct ci_verdict *out, const struct series *s,
	    git_repository *repo, const struct kapply_result *ap)
{
	struct ci_landed *l = xcalloc(1, sizeof(*l));
	int ret = 0;

	gitlib_init();
	for (size_t i = 0; i < ap->nr && i < s->nr; i++) {
		const git_oid *parent = i ? &ap->commits[i - 1] : &ap->base;
		git_diff *td = NULL;

		ret = diff_commits(&td, repo, parent, &ap->commits[i]);
		if (ret < 0)
			break;
		land_patch(&l->set, td, &s->patches[i], s->patches[i].index ?
			   s->patches[i].index : (int)i + 1);
		git_diff_free(td);
	}
	if (ret < 0) {
		added_set_release(&l->set);
		free(l);
		return ret;
	}
	ci_landed_free(out->landed);
	out->landed = l;
	return 0;
}

/* The console names files relative to the source tree, maybe with a
 * prefix left by the build ("/ww/src/kernel/x.c"): compare by suffix. */
static bool same_file(const char *console_file, const char *tree_file)
{
	size_t a = strlen(console_file), b = strlen(tree_file);

	if (a == b)
		return !strcmp(console_file, tree_file);
	return a > b && console_file[a - b - 1] == '/' &&
	       !strcmp(console_file + a - b, tree_file);
}

static const struct added_line *find_added(const struct added_set *a,
					   const char *file, int line)
{
	for (size_t i = 0; i < a->nr; i++)
		if (a->v[i].line == line && same_file(file, a->v[i].file))
			return &a->v[i];
	return NULL;
}

/* The finding (check) that is the added call on that added line. */
static const struct finding *finding_for(const struct check_result *cr,
					 const struct added_line *al)
{
	for (size_t i = 0; cr && i < cr->nr; i++) {
		const struct finding *f = &cr->v[i];

		if (f->kind == FINDING_ADDED && f->patch == al->patch &&
		    f->line == al->orig_line && !strcmp(f->file, al->orig_file))
			return f;
	}
	return NULL;
}

/* How many lines a call may span above the line the kernel reports. */
#define CALL_SPAN 6

/*
 * The added line behind a fired FILE:LINE: the line itself, or the first
 * line of a multi-line added call above it (all lines in between added
 * by the same patch).
 */
static const struct added_line *attribute_line(const struct added_set *a,
					       const struct check_result *cr,
					       const char *file, int line,
					       const struct finding **finding,
					       int *patch_line)
{
	const struct added_line *al = find_added(a, file, line), *up;

	*finding = NULL;
	if (!al)
		return NULL;
	*patch_line = al->orig_line;
	*finding = finding_for(cr, al);
	for (int k = 1; !*finding && k <= CALL_SPAN; k++) {
		const struct finding *f;

		up = find_added(a, file, line - k);
		if (!up || up->patch != al->patch)
			break;
		f = finding_for(cr, up);
		if (f) {
			*finding = f;
			return up;
		}
	}
	return al;
}

/* The same report: kind, file and function (lines move between trees). */
static bool same_report(const struct fired *b, const struct fired *f)
{
	if (b->kind != f->kind)
		return false;
	if (f->file && b->file && !same_file(b->file, f->file) &&
	    !same_file(f->file, b->file))
		return false;
	if (f->function && b->function)
		return !strcmp(f->function, b->function);
	if (f->file && b->file)
		return f->line == b->line;
	return !f->file && f->message && b->message && !strcmp(f->message, b->message);
}

/* How many reports of boot `con` are report `f`. */
static int count_reports(const struct console_result *con, const struct fired *f)
{
	int n = 0;

	for (size_t i = 0; con && i < con->nr_fired; i++)
		n += same_report(&con->fired[i], f);
	return n;
}

static char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/*
 * The source path as the tree names it.  The sandboxed build sees the
 * source at KBUILD_SRC and builds in KBUILD_OBJ, so __FILE__ reads
 * "../src/kernel/time/timeconv.c" (or "/ww/src/..."): drop that prefix.
 */
static char *tree_path(const char *file)
{
	const char *rest;

	if (!file)
		return NULL;
	if (skip_prefix(file, KBUILD_SRC "/", &rest) ||
	    skip_prefix(file, "../src/", &rest) || skip_prefix(file, "./", &rest))
		return xstrdup(rest);
	return xstrdup(file);
}

/* The same report from the first boot, met again in the second. */
static struct ci_fired *already_listed(struct ci_verdict *v,
				       const struct fired *f)
{
	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *c = &v->fired[i];

		if (c->kind == f->kind && c->tree_line == f->line &&
		    (c->file && f->file ? same_file(f->file, c->file) :
		     c->file == f->file) &&
		    !strcmp(c->function ? c->function : "",
			    f->function ? f->function : ""))
			return c;
	}
	return NULL;
}

void ci_attribute(struct ci_verdict *out, const struct console_result *boot,
		  bool first_boot, const struct series *s,
		  const struct console_result *base)
{
	struct added_set own = { NULL, 0, 0 };
	const struct added_set *added = added_of(out, s, &own);

	for (size_t i = 0; i < boot->nr_fired; i++) {
		const struct fired *f = &boot->fired[i];
		const struct added_line *al = NULL;
		const struct finding *fd = NULL;
		struct ci_fired *c = already_listed(out, f);

		if (c) {
			int n = count_reports(boot, f);

			/* The second boot knows the test case the first could not. */
			if (!c->test && f->test)
				c->test = xstrdup(f->test);
			/* Met in another boot: the panic_on_warn=0 one reran it. */
			if (c->in_first_boot && !first_boot)
				c->reproduced = 1;
			if (n > c->patched_count)
				c->patched_count = n;
			continue;
		}
		ALLOC_GROW(out->fired, out->nr_fired + 1, out->alloc_fired);
		c = &out->fired[out->nr_fired++];
		memset(c, 0, sizeof(*c));
		c->kind = f->kind;
		c->file = tree_path(f->file);
		c->line = c->tree_line = f->line;
		c->function = xstrdup_or_null(f->function);
		c->suite = xstrdup_or_null(f->suite);
		c->test = xstrdup_or_null(f->test);
		c->trace = xstrdup_or_null(f->trace);
		c->message = xstrdup_or_null(f->message);
		c->in_first_boot = first_boot;
		c->patched_count = count_reports(boot, f);
		c->base_count = -1;
		c->reproduced = -1;
		{
			struct strbuf fp = STRBUF_INIT;

			console_fingerprint(&fp, f->kind, f->function, f->trace, f->message);
			c->fingerprint = strbuf_detach(&fp, NULL);
		}
		if (f->file && f->line > 0)
			al = attribute_line(added, &out->findings, f->file,
					    f->line, &fd, &c->line);
		if (al) {
			c->added_by_series = true;
			c->patch = al->patch;
			if (fd)
				c->source = xstrdup(fd->source);
		}
		if (c->added_by_series) {
			c->base_count = 0;	/* the base does not have the line */
		} else if (base) {
			c->base_count = count_reports(base, f);
			c->preexisting = c->base_count > 0;
		}
	}
	if (!first_boot)
		out->warn_count = boot->warn_count;
	else if (!out->warn_count)
		out->warn_count = boot->warn_count;
	added_set_release(&own);
}

/* ---- what ran in the guest, and did each added call run ---- */

static const char *utest_kind(const char *name)
{
	return starts_with(name, "workload:") ? "workload" : "kselftest";
}

/* /init's result words to the verdict's: timeout is a failure with a
 * detail, a binary that did not build a skip. */
static const char *utest_result(const struct console_utest *u, const char **detail)
{
	*detail = NULL;
	if (!u->result)
		return "crashed";
	if (!strcmp(u->result, "pass"))
		return "pass";
	if (!strcmp(u->result, "skip"))
		return "skip";
	if (!strcmp(u->result, "missing")) {
		*detail = "did not build";
		return "skip";
	}
	if (!strcmp(u->result, "timeout")) {
		*detail = "timeout";
		return "fail";
	}
	return "fail";
}

static struct ci_test *add_test(struct ci_verdict *v, const char *name,
				const char *kind, const char *result)
{
	struct ci_test *t;

	ALLOC_GROW(v->tests, v->nr_tests + 1, v->alloc_tests);
	t = &v->tests[v->nr_tests++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->kind = kind;
	t->result = result;
	return t;
}

void ci_tests_from_console(struct ci_verdict *out,
			   const struct console_result *boot)
{
	for (size_t i = 0; i < out->nr_tests; i++) {
		free(out->tests[i].name);
		free(out->tests[i].image);
		free(out->tests[i].detail);
	}
	out->nr_tests = 0;
	for (size_t i = 0; i < boot->nr_suites; i++)
		add_test(out, boot->suites[i].name, "kunit",
			 ktap_result_name(boot->suites[i].result));
	for (size_t i = 0; i < boot->nr_utests; i++) {
		const struct console_utest *u = &boot->utests[i];
		const char *detail;
		const char *res = utest_result(u, &detail);
		struct ci_test *t = add_test(out, u->name, utest_kind(u->name), res);

		t->image = xstrdup_or_null(u->image);
		t->detail = xstrdup_or_null(detail);
	}
}

/* Where the finding's call is in the final tree (later patches move it). */
static bool call_site(const struct added_set *a, const struct finding *f,
		      const char **file, int *line)
{
	for (size_t i = 0; i < a->nr; i++) {
		const struct added_line *al = &a->v[i];

		if (al->patch == f->patch && al->orig_line == f->line &&
		    !strcmp(al->orig_file, f->file)) {
			if (al->line <= 0)
				return false;	/* a later patch removed it */
			*file = al->file;
			*line = al->line;
			return true;
		}
	}
	*file = f->file;	/* not a git diff: the patch's own numbers */
	*line = f->line;
	return true;
}

static bool is_c_file(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".c");
}

/*
 * How often the call ran: gcov_statement() on the call's own lines, else
 * a line of the same basic block above it (read from the built source in
 * `src_dir`); else null with the reason.  Never a neighbour's count that
 * need not run with it.
 */
static void measure_call(struct ci_call *c, unsigned int span, const char *src_dir,
			 const char *build_dir, const char *gcda_dir,
			 const char *no_gcov)
{
	struct gcov_counts gc = GCOV_COUNTS_INIT;
	struct strbuf why = STRBUF_INIT, src = STRBUF_INIT;
	unsigned long from;

	if (no_gcov) {
		strbuf_addstr(&why, no_gcov);
	} else if (!is_c_file(c->file)) {
		strbuf_addstr(&why, "the call is in a header: its code is compiled "
			      "into the objects that include it, which are not "
			      "instrumented");
	} else if (gcov_line_counts(&gc, build_dir, gcda_dir, c->file) < 0) {
		strbuf_addstr(&why, error_last());
		error_clear();
	} else {
		if (src_dir) {
			struct strbuf path = STRBUF_INIT;

			strbuf_addf(&path, "%s/%s", src_dir, c->file);
			if (strbuf_read_file(&src, path.buf, 64u << 20) < 0)
				error_clear();	/* no fallback then */
			strbuf_release(&path);
		}
		c->reached = gcov_statement(&gc, src.len ? src.buf : NULL, src.len,
					    (unsigned long)c->tree_line, span, &from);
		if (c->reached < 0)
			strbuf_addf(&why, "gcov has no record for %s:%d, and no line "
				    "above it in the same basic block has one (a "
				    "missing record is not a zero)", c->file,
				    c->tree_line);
	}
	if (c->reached < 0)
		c->reached_why = strbuf_detach(&why, NULL);
	strbuf_release(&why);
	strbuf_release(&src);
	gcov_counts_release(&gc);
}

void ci_calls(struct ci_verdict *out, const struct series *s, const char *src_dir,
	      const char *build_dir, const char *gcda_dir, const char *no_gcov)
{
	struct added_set own = { NULL, 0, 0 };
	const struct added_set *added = added_of(out, s, &own);

	for (size_t i = 0; i < out->findings.nr; i++) {
		const struct finding *f = &out->findings.v[i];
		const char *file;
		struct ci_call *c;
		int line;

		if (f->kind != FINDING_ADDED || !call_site(added, f, &file, &line))
			continue;
		ALLOC_GROW(out->calls, out->nr_calls + 1, out->alloc_calls);
		c = &out->calls[out->nr_calls++];
		memset(c, 0, sizeof(*c));
		c->file = xstrdup(file);
		c->line = f->line;
		c->tree_line = line;
		c->macro = xstrdup(f->rule && f->rule->macro ? f->rule->macro : "?");
		c->patch = f->patch;
		c->reached = -1;
		for (size_t j = 0; j < out->nr_fired; j++) {
			const struct ci_fired *fd = &out->fired[j];

			if (!fd->added_by_series || fd->patch != f->patch ||
			    !fd->file || strcmp(fd->file, file) ||
			    fd->tree_line < line || fd->tree_line > line + CALL_SPAN)
				continue;
			c->fired = true;
			if (!c->suite && fd->suite)
				c->suite = xstrdup(fd->suite);
		}
		measure_call(c, f->source_lines > 0 ? (unsigned int)f->source_lines : 1,
			     src_dir, build_dir, gcda_dir, no_gcov);
	}
	added_set_release(&own);
}

/* ---- the verdict ---- */

static void set_reason(struct ci_verdict *v, const char *fmt, ...)
	WW_PRINTF(2, 3);
static void set_reason(struct ci_verdict *v, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(v->reason);
	v->reason = strbuf_detach(&sb, NULL);
}

static void copy_suites(struct ci_verdict *v, const struct console_result *boot)
{
	for (size_t i = 0; i < v->nr_suites; i++)
		free(v->suites[i].name);
	v->nr_suites = 0;
	for (size_t i = 0; i < boot->nr_suites; i++) {
		const struct ktap_suite *su = &boot->suites[i];
		struct ci_suite *c;

		ALLOC_GROW(v->suites, v->nr_suites + 1, v->alloc_suites);
		c = &v->suites[v->nr_suites++];
		c->name = xstrdup(su->name);
		c->result = su->result;
		c->pass = su->pass;
		c->fail = su->fail;
		c->skip = su->skip;
	}
}

void ci_decide(struct ci_verdict *out, const struct console_result *boot,
	       bool timed_out)
{
	bool reports = false;

	for (size_t i = 0; i < boot->nr_fired; i++)
		if (boot->fired[i].kind != FIRED_OOPS || boot->panicked)
			reports = true;
	copy_suites(out, boot);
	out->planned_suites = boot->planned_suites;
	free(out->panic_message);
	free(out->panic_suite);
	out->panic_message = xstrdup_or_null(boot->panic_message);
	out->panic_suite = xstrdup_or_null(boot->panic_suite);
	if (boot->panicked && !reports &&
	    starts_with(boot->panic_message, "VFS: Unable to mount root fs")) {
		/* The tests ended but the kernel did not reboot: our setup. */
		out->kind = CI_ERROR;
		set_reason(out, "the kernel did not reboot after its tests "
			   "(kunit_shutdown=reboot ignored?) and panicked: %s",
			   boot->panic_message);
	} else if (boot->panicked && !reports &&
		   starts_with(boot->panic_message, "Attempted to kill init")) {
		out->kind = CI_ERROR;
		set_reason(out, "the guest's /init exited instead of rebooting "
			   "(kernel-ci/init failed?); last console line: %s",
			   boot->last_line ? boot->last_line : "");
	} else if (boot->panicked) {
		out->kind = CI_PANICKED;
		set_reason(out, "Kernel panic - not syncing: %s", boot->panic_message);
	} else if (timed_out) {
		out->kind = CI_HUNG;
		set_reason(out, "the boot did not finish before the deadline%s%s",
			   boot->last_line ? "; last console line: " : "",
			   boot->last_line ? boot->last_line : "");
	} else if (!boot->booted) {
		out->kind = CI_ERROR;
		set_reason(out, "the kernel printed nothing on the console");
	} else if (!boot->tests_finished && !boot->rebooted) {
		out->kind = CI_ERROR;
		set_reason(out, "QEMU stopped before the KUnit suites finished, "
			   "without a panic message; last console line: %s",
			   boot->last_line ? boot->last_line : "");
	} else if (out->user_space && !boot->init_done) {
		out->kind = CI_ERROR;
		set_reason(out, "the guest stopped before kernel-ci/init finished "
			   "its tests, without a panic message; last console "
			   "line: %s", boot->last_line ? boot->last_line : "");
	} else if (out->user_space) {
		out->kind = CI_CLEAN;
		set_reason(out, "%zu KUnit suites and %zu user-space tests ran, no "
			   "WARNING or BUG fired", boot->nr_suites, boot->nr_utests);
	} else {
		out->kind = CI_CLEAN;
		set_reason(out, "%zu KUnit suites ran, no WARNING or BUG fired",
			   boot->nr_suites);
	}
}

/* ---- text ---- */

/*
 * Every string below came from the series or the guest (file, function
 * and suite names, console lines, the build log): names go through
 * quote_c_style() (quoted as git quotes a path when they need it), text
 * through text() (controls escaped, never wrapped), so that each item
 * stays on its own line (quote.h).
 */
static void text(struct strbuf *out, const char *s)
{
	if (s)
		quote_c_style_n(out, s, strlen(s), QUOTE_KEEP_TAB);
}

static void test_phrase(struct strbuf *out, const char *name);

static void patch_name(struct strbuf *out, const struct ci_verdict *v, int patch)
{
	strbuf_addf(out, "patch %d/%d", patch, v->nr_patches ? v->nr_patches : patch);
}

static void fired_sentence(struct strbuf *out, const struct ci_verdict *v,
			   const struct ci_fired *f)
{
	const char *what = f->kind == FIRED_WARN ? "WARNING" :
			   f->kind == FIRED_BUG ? "BUG" : "crash report";

	if (f->added_by_series && f->source) {
		strbuf_addstr(out, "the ");
		text(out, f->source);
		strbuf_addstr(out, " that ");
		patch_name(out, v, f->patch);
		strbuf_addstr(out, " adds at ");
		ci_where(out, v, f->file, f->line, f->tree_line);
		strbuf_addstr(out, " fired");
	} else if (f->added_by_series) {
		strbuf_addf(out, "a %s fired at ", what);
		ci_where(out, v, f->file, f->line, f->tree_line);
		strbuf_addstr(out, ", a line that ");
		patch_name(out, v, f->patch);
		strbuf_addstr(out, " adds");
	} else if (f->file) {
		strbuf_addf(out, "the existing %s at ", what);
		quote_c_style(out, f->file);
		strbuf_addf(out, ":%d", f->line);
		if (f->function) {
			quote_between(out, " (", f->function, ")");
		}
		strbuf_addstr(out, " fired");
		strbuf_addstr(out, f->preexisting ?
			      " (it fires on the unpatched kernel too)" :
			      " (not on the unpatched kernel)");
	} else {
		text(out, f->message ? f->message : what);
		if (f->function) {
			strbuf_addstr(out, " in ");
			quote_c_style(out, f->function);
		}
		if (f->preexisting)
			strbuf_addstr(out, " (on the unpatched kernel too)");
	}
}

/* 0-day's parent column, whether it is known, whether it came back. */
static void fired_counts(struct strbuf *out, const struct ci_verdict *v,
			 const struct ci_fired *f)
{
	if (f->base_count >= 0)
		strbuf_addf(out, " [base: %d, patched: %d]", f->base_count,
			    f->patched_count);
	else
		strbuf_addf(out, " [base: not booted, patched: %d]", f->patched_count);
	if (f->known)
		strbuf_addf(out, " (known on %s: %s)", v->base ? v->base : "this base",
			    f->known);
	if (f->reproduced == 0)
		strbuf_addstr(out, " (did not fire again when booted once more: flaky)");
}

static void indent_trace(struct strbuf *out, const char *trace)
{
	if (trace)
		quote_lines(out, "    ", trace, strlen(trace));
}

static const struct ci_fired *first_fired(const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_fired; i++)
		if (v->fired[i].in_first_boot)
			return &v->fired[i];
	return NULL;
}

static void text_panicked(struct strbuf *out, const struct ci_verdict *v)
{
	const struct ci_fired *f = first_fired(v);
	size_t others = 0;

	const char *during = v->panic_suite ? v->panic_suite : f ? f->suite : NULL;

	strbuf_addstr(out, "With panic_on_warn=1 the patched kernel panicked");
	if (during) {
		strbuf_addstr(out, " while running ");
		test_phrase(out, during);
	} else {
		strbuf_addstr(out, " during boot, outside any test");
	}
	if (f) {
		strbuf_addstr(out, ": ");
		fired_sentence(out, v, f);
		fired_counts(out, v, f);
	} else {
		strbuf_addstr(out, ": ");
		text(out, v->panic_message);
	}
	strbuf_addstr(out, ".\n");
	if (f && f->test) {
		strbuf_addstr(out, f->suite && starts_with(f->suite, "workload:") ?
			      "The workload was running on image " : "The test case was ");
		quote_c_style(out, f->test);
		strbuf_addstr(out, ".\n");
	}
	if (f && f->trace) {
		strbuf_addstr(out, "\n");
		indent_trace(out, f->trace);
	}
	for (size_t i = 0; i < v->nr_fired; i++)
		if (!v->fired[i].in_first_boot)
			others++;
	if (v->console2 && v->warn_flood) {
		strbuf_addf(out, "\nBooted again with panic_on_warn=0: WARNINGs "
			    "kept firing in a loop (%d in the first %u MB of "
			    "console output, where the boot was stopped)%s\n",
			    v->warn_count, CI_SECOND_BOOT_MAX_CONSOLE >> 20,
			    others ? "; the others:" : ".");
	} else if (v->console2) {
		strbuf_addf(out, "\nBooted again with panic_on_warn=0: %d WARNING%s "
			    "fired (counted on the console%s)%s\n",
			    v->warn_count, v->warn_count == 1 ? "" : "s",
			    v->user_space ? "" : ": without user space the "
			    "guest's /sys/kernel/warn_count cannot be read",
			    others ? "; the others:" : ".");
	}
	if (v->console2) {
		for (size_t i = 0; i < v->nr_fired; i++) {
			const struct ci_fired *o = &v->fired[i];

			if (o->in_first_boot)
				continue;
			strbuf_addstr(out, "  - ");
			fired_sentence(out, v, o);
			fired_counts(out, v, o);
			if (o->suite) {
				strbuf_addstr(out, ", in suite ");
				quote_c_style(out, o->suite);
			}
			if (o->test) {
				quote_between(out, " (test ", o->test, ")");
			}
			strbuf_addch(out, '\n');
		}
	}
}

static void text_suites(struct strbuf *out, const struct ci_verdict *v)
{
	int pass = 0, fail = 0, skip = 0;

	for (size_t i = 0; i < v->nr_suites; i++) {
		switch (v->suites[i].result) {
		case KTAP_PASS: pass++; break;
		case KTAP_FAIL: fail++; break;
		case KTAP_SKIP: skip++; break;
		case KTAP_CRASHED: break;
		}
	}
	if (!v->nr_suites)
		return;
	strbuf_addf(out, "KUnit suites: %d passed, %d failed, %d skipped",
		    pass, fail, skip);
	for (size_t i = 0; i < v->nr_suites; i++)
		if (v->suites[i].result == KTAP_CRASHED) {
			quote_between(out, ", ", v->suites[i].name, " cut short");
		}
	if (v->planned_suites > (int)v->nr_suites)
		strbuf_addf(out, ", %d of %d never ran",
			    v->planned_suites - (int)v->nr_suites, v->planned_suites);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < v->nr_suites; i++)
		if (v->suites[i].result == KTAP_FAIL) {
			quote_between(out, "  failed: ", v->suites[i].name, "\n");
		}
}

/* A clean boot says nothing about an added call but that it did not fire. */
static void text_clean_findings(struct strbuf *out, const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->findings.nr; i++) {
		const struct finding *f = &v->findings.v[i];
		const char *macro = f->rule ? f->rule->macro : "call";

		if (f->kind == FINDING_ADDED && !v->nr_calls) {
			strbuf_addf(out, "The %s() that ", macro);
			patch_name(out, v, f->patch);
			strbuf_addstr(out, " adds at ");
			quote_c_style(out, f->file);
			strbuf_addf(out, ":%d did not fire during the KUnit suites: "
				    "that finding stays static.\n", f->line);
		} else if (f->kind == FINDING_REMOVED) {
			strbuf_addf(out, "The %s() that ", macro);
			patch_name(out, v, f->patch);
			strbuf_addstr(out, " removes at ");
			quote_c_style(out, f->file);
			strbuf_addf(out, ":%d is gone%s, and the kernel still boots "
				    "clean.\n", f->line,
				    f->conversion ? " (converted to a gentler call)" : "");
		}
	}
}

static void test_phrase(struct strbuf *out, const char *name)
{
	ci_test_phrase(out, name);
}

/* What ran, for "ran N times during ...": the boot, its KUnit suites,
 * the kselftest targets and the workloads, each named once. */
static void ran_phrase(struct strbuf *out, const struct ci_verdict *v)
{
	struct strvec parts = STRVEC_INIT, seen = STRVEC_INIT;
	bool kunit = false;

	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *t = &v->tests[i];
		struct strbuf key = STRBUF_INIT;
		const char *w;
		bool dup = false;

		if (!strcmp(t->kind, "kunit")) {
			kunit = true;
			continue;
		}
		if (skip_prefix(t->name, "workload:", &w)) {
			strbuf_addstr(&key, "the ");
			quote_c_style(&key, w);
			strbuf_addstr(&key, " workload");
		} else {
			struct strbuf target = STRBUF_INIT;

			strbuf_add(&target, t->name, strcspn(t->name, ":"));
			strbuf_addstr(&key, "the ");
			quote_c_style(&key, target.buf);
			strbuf_addstr(&key, " kselftests");
			strbuf_release(&target);
		}
		for (size_t j = 0; j < seen.nr; j++)
			dup = dup || !strcmp(seen.v[j], key.buf);
		if (!dup)
			strvec_push(&seen, key.buf);
		strbuf_release(&key);
	}
	strvec_push(&parts, "the boot");
	if (kunit)
		strvec_push(&parts, "its KUnit suites");
	for (size_t i = 0; i < seen.nr; i++)
		strvec_push(&parts, seen.v[i]);
	for (size_t i = 0; i < parts.nr; i++)
		strbuf_addf(out, "%s%s", i == 0 ? "" : i + 1 == parts.nr ?
			    " and " : ", ", parts.v[i]);
	strvec_clear(&parts);
	strvec_clear(&seen);
}

/* Per added call, in words: did it run, how often, did it fire. */
static void text_calls(struct strbuf *out, const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_calls; i++) {
		const struct ci_call *c = &v->calls[i];
		const char *suite;

		if (ci_call_fired(v, c, &suite)) {
			strbuf_addstr(out, "The ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addstr(out, ") fired");
			if (suite) {
				strbuf_addstr(out, " during ");
				test_phrase(out, suite);
			}
			if (c->reached > 0)
				strbuf_addf(out, "; it ran %lld time%s in the boot with "
					    "panic_on_warn=0", c->reached,
					    c->reached == 1 ? "" : "s");
			strbuf_addstr(out, ".\n");
		} else if (c->reached > 0) {
			strbuf_addstr(out, "The ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addf(out, ") ran %lld time%s during ", c->reached,
				    c->reached == 1 ? "" : "s");
			ran_phrase(out, v);
			strbuf_addstr(out, ", and never fired.\n");
		} else if (c->reached == 0) {
			strbuf_addstr(out, "No test reached the ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addstr(out, "), so this boot says nothing about it: "
				      "the line never ran during ");
			ran_phrase(out, v);
			strbuf_addstr(out, ".\n");
		} else {
			strbuf_addstr(out, "Whether the ");
			text(out, c->macro);
			strbuf_addstr(out, "() at ");
			ci_where(out, v, c->file, c->line, c->tree_line);
			strbuf_addstr(out, " (");
			patch_name(out, v, c->patch);
			strbuf_addstr(out, ") ran could not be measured (");
			text(out, c->reached_why ? c->reached_why : "?");
			strbuf_addstr(out, "); it did not fire.\n");
		}
	}
}

/* The user-space tests and the images, briefly. */
static void text_tests(struct strbuf *out, const struct ci_verdict *v)
{
	size_t bad = 0;

	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *t = &v->tests[i];

		if (!strcmp(t->kind, "kunit"))
			continue;
		text(out, t->kind);
		strbuf_addch(out, ' ');
		quote_c_style(out, t->name);
		if (t->image) {
			quote_between(out, " (image ", t->image, ")");
		}
		strbuf_addstr(out, ": ");
		text(out, t->result);
		if (t->detail) {
			strbuf_addstr(out, " (");
			text(out, t->detail);
			strbuf_addch(out, ')');
		}
		if (t->rerun_result && !strcmp(t->rerun_result, "pass"))
			strbuf_addstr(out, "; passed when run again (flaky)");
		else if (t->rerun_result) {
			strbuf_addstr(out, "; run again: ");
			text(out, t->rerun_result);
		}
		if (t->base_result && !strcmp(t->result, "fail"))
			strbuf_addstr(out, !strcmp(t->base_result, "fail") ?
				      "; fails on the unpatched kernel too (not the "
				      "series' fault)" : "; passes on the unpatched kernel");
		strbuf_addch(out, '\n');
	}
	for (size_t i = 0; i < v->not_built.nr; i++) {
		quote_between(out, "kselftests not (all) built: ", v->not_built.v[i], "\n");
	}
	for (size_t i = 0; i < v->nr_images; i++)
		if (!v->images[i].clean)
			bad++;
	if (v->nr_images && !bad)
		strbuf_addf(out, "e2fsck -fn after the workload: all %zu images clean.\n",
			    v->nr_images);
	for (size_t i = 0; i < v->nr_images; i++) {
		const struct ci_image *im = &v->images[i];

		if (im->clean)
			continue;
		quote_between(out, "e2fsck -fn after the workload: image ", im->name, " (");
		text(out, im->features);
		strbuf_addstr(out, ") is corrupted:\n");
		indent_trace(out, im->fsck_output);
	}
}

void ci_verdict_text(struct strbuf *out, const struct ci_verdict *v,
		     const struct series *s)
{
	const char *base = v->base ? v->base : "?";

	switch (v->kind) {
	case CI_PANICKED:
		text_panicked(out, v);
		break;
	case CI_CLEAN:
		strbuf_addstr(out, "With panic_on_warn=1 the patched kernel (linux ");
		text(out, base);
		strbuf_addf(out, ") booted and ran its %s without any WARNING "
			    "or BUG firing.\n", v->user_space ? "tests" : "KUnit suites");
		text_clean_findings(out, v);
		break;
	case CI_FS_CORRUPTED:
		strbuf_addstr(out, "With panic_on_warn=1 the patched kernel (linux ");
		text(out, base);
		strbuf_addstr(out, ") ran its tests without any WARNING or BUG firing, "
			      "but afterwards e2fsck -fn finds a file system the "
			      "workload used corrupted: ");
		text(out, v->reason);
		strbuf_addch(out, '\n');
		break;
	case CI_BUILD_FAILED:
		strbuf_addstr(out, "The patched kernel (linux ");
		text(out, base);
		strbuf_addstr(out, ") does not build");
		if (v->build_error) {
			strbuf_addstr(out, ":\n    ");
			text(out, v->build_error);
			strbuf_addch(out, '\n');
		} else {
			strbuf_addstr(out, ".\n");
		}
		break;
	case CI_APPLY_FAILED:
		text(out, v->reason ? v->reason : "the series does not apply");
		strbuf_addch(out, '\n');
		if (s && v->failed_patch > 0 && (size_t)v->failed_patch <= s->nr) {
			strbuf_addf(out, "(patch %d/%zu is \"", v->failed_patch, s->nr);
			text(out, s->patches[v->failed_patch - 1].title);
			strbuf_addstr(out, "\")\n");
		}
		break;
	case CI_UNTESTABLE:
		strbuf_addstr(out, "Could not test this series: ");
		text(out, v->reason ? v->reason : "?");
		strbuf_addch(out, '\n');
		break;
	case CI_HUNG:
	case CI_ERROR:
		strbuf_addstr(out, v->kind == CI_HUNG ? "The patched kernel hung: " :
			      "No verdict: ");
		text(out, v->reason);
		strbuf_addch(out, '\n');
		break;
	}
	if (v->kind == CI_PANICKED || v->kind == CI_CLEAN ||
	    v->kind == CI_FS_CORRUPTED) {
		text_calls(out, v);
		text_suites(out, v);
		text_tests(out, v);
	}
	if (v->base_why) {
		strbuf_addstr(out, "Base: linux ");
		text(out, base);
		strbuf_addstr(out, " (");
		text(out, v->base_why);
		strbuf_addstr(out, ").\n");
	}
	if (v->enabled.nr) {
		strbuf_addstr(out, "Suites enabled for the files the series touches:");
		for (size_t i = 0; i < v->enabled.nr; i++) {
			strbuf_addch(out, ' ');
			quote_c_style(out, v->enabled.v[i]);
		}
		strbuf_addch(out, '\n');
	}
	if (v->base_error) {
		strbuf_addstr(out, "The unpatched kernel could not be booted for comparison (");
		text(out, v->base_error);
		strbuf_addstr(out, "): whether a report is pre-existing is unknown.\n");
	}
	if (v->applied && strcmp(v->applied, "applied")) {
		strbuf_addstr(out, "The series ");
		text(out, v->applied);
		strbuf_addstr(out, ".\n");
	}
	if (v->apply_note) {
		strbuf_addstr(out, "Note: ");
		text(out, v->apply_note);
		strbuf_addch(out, '\n');
	}
	if (v->console) {
		strbuf_addstr(out, "Console log: ");
		text(out, v->console);
		strbuf_addch(out, '\n');
	}
	if (v->console2) {
		strbuf_addstr(out, "Console log (panic_on_warn=0): ");
		text(out, v->console2);
		strbuf_addch(out, '\n');
	}
}

void ci_verdict_release(struct ci_verdict *v)
{
	struct ci_verdict blank = CI_VERDICT_INIT;

	free(v->base);
	free(v->reason);
	free(v->accel);
	free(v->console);
	free(v->console2);
	free(v->panic_message);
	free(v->panic_suite);
	for (size_t i = 0; i < v->nr_suites; i++)
		free(v->suites[i].name);
	free(v->suites);
	strvec_clear(&v->enabled);
	strvec_clear(&v->config_added);
	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];

		free(f->file);
		free(f->function);
		free(f->suite);
		free(f->test);
		free(f->trace);
		free(f->message);
		free(f->source);
		free(f->fingerprint);
		free(f->known);
	}
	free(v->fired);
	free(v->build_error);
	free(v->apply_note);
	free(v->applied);
	free(v->git_why);
	free(v->base_error);
	free(v->failed_file);
	free(v->base_why);
	for (size_t i = 0; i < v->nr_tests; i++) {
		free(v->tests[i].name);
		free(v->tests[i].image);
		free(v->tests[i].detail);
	}
	free(v->tests);
	for (size_t i = 0; i < v->nr_calls; i++) {
		free(v->calls[i].file);
		free(v->calls[i].macro);
		free(v->calls[i].reached_why);
		free(v->calls[i].suite);
	}
	free(v->calls);
	for (size_t i = 0; i < v->nr_images; i++) {
		free(v->images[i].name);
		free(v->images[i].features);
		free(v->images[i].fsck_output);
	}
	free(v->images);
	strvec_clear(&v->not_built);
	free(v->guest_error);
	check_result_clear(&v->findings);
	ci_landed_free(v->landed);
	if (v->own_rules) {
		ruleset_release(v->own_rules);
		free(v->own_rules);
	}
	*v = blank;
}

/* ---- the pipeline ---- */

struct ci_ctx {
	const struct ci_opts *opts;
	struct strbuf cache;
	struct strbuf logdir;	/* where this run's console logs go */
	double start;
	enum kboot_accel accel;
	struct kguest *guest;	/* the user space, or NULL: KUnit only */
	struct strbuf no_gcov;	/* why the counters are missing; "" when read */
	bool collected;		/* counters and fsck done after a boot */
};

static void progress(const struct ci_ctx *c, const char *fmt, ...)
	WW_PRINTF(2, 3);
static void progress(const struct ci_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!(c->opts->flags & CI_PROGRESS))
		return;
	fprintf(stderr, "warnwatch ci: [%4.0fs] ", monotonic_now() - c->start);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "<cache>/ci/logs/20260103-081500-1234": one per run, kept. */
static int make_logdir(struct ci_ctx *c)
{
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	strbuf_addf(&c->logdir, "%s/ci/logs/%s-%ld", c->cache.buf, stamp,
		    (long)getpid());
	return mkdirs(c->logdir.buf, 0755, WW_ERROR);
}

/* "6.1" -> Debian's tarball; a path is taken as it is. */
static void tarball_for(struct strbuf *out, const char *tree)
{
	if (!tree)
		return;
	if (strchr(tree, '/'))
		strbuf_addstr(out, tree);
	else
		strbuf_addf(out, "/usr/src/linux-source-%s.tar.xz", tree);
}

/*
 * "patch 2/4 does not apply to linux 6.1.192: drivers/foo.c: hunk 3 (...)":
 * the file and the hunk, for the JSON.
 */
static void parse_apply_error(struct ci_verdict *v, const char *msg)
{
	const char *p = strstr(msg, " does not apply to ");
	const char *hunk, *colon;

	if (!p || !(p = strstr(p, ": ")))
		return;
	p += 2;
	hunk = strstr(p, ": hunk ");
	colon = strchr(p, ':');
	if (hunk && colon == hunk) {
		v->failed_file = xstrndup(p, hunk - p);
		v->failed_hunk = atoi(hunk + 7);
	} else if (colon && colon > p && !memchr(p, ' ', colon - p)) {
		v->failed_file = xstrndup(p, colon - p);
	}
}

static int boot(struct ci_ctx *c, struct kboot_result *res, const char *kernel,
		const char *console, bool panic_on_warn)
{
	struct kboot_opts ko = KBOOT_OPTS_INIT;
	int ret;

	if (!panic_on_warn)
		ko.max_console = CI_SECOND_BOOT_MAX_CONSOLE;
	if (c->guest) {
		ko.initrd = c->guest->initrd;
		kguest_drives(&ko.drives, c->guest);
		ko.timeout_s = c->opts->boot_timeout_s ? c->opts->boot_timeout_s :
			       KGUEST_KUNIT_S + c->guest->deadline_s;
	}

	ko.kernel = kernel;
	ko.console_path = console;
	ko.accel = c->accel;
	ko.cache_dir = c->cache.buf;
	ko.panic_on_warn = panic_on_warn;
	if (!ko.timeout_s)
		ko.timeout_s = c->opts->boot_timeout_s;
	progress(c, "booting with panic_on_warn=%d (%s), console: %s",
		 panic_on_warn, kboot_accel_name(c->accel), console);
	ret = kboot_run(res, &ko);
	kboot_opts_release(&ko);
	return ret;
}

static enum kboot_accel accel_option(const char *s)
{
	if (s && !strcmp(s, "kvm"))
		return KBOOT_ACCEL_KVM;
	if (s && !strcmp(s, "tcg"))
		return KBOOT_ACCEL_TCG;
	return KBOOT_ACCEL_AUTO;
}

static int pick_accel(struct ci_ctx *c, struct ci_verdict *out, const char *kernel)
{
	struct kboot_opts ko = KBOOT_OPTS_INIT;
	struct strbuf why = STRBUF_INIT;
	int ret;

	ko.kernel = kernel;
	ko.accel = accel_option(c->opts->accel);
	ko.cache_dir = c->cache.buf;
	ret = kboot_probe_accel(&c->accel, &why, &ko);
	if (!ret) {
		progress(c, "accelerator: %s (%s)", kboot_accel_name(c->accel), why.buf);
		out->accel = xstrdup(kboot_accel_name(c->accel));
	}
	strbuf_release(&why);
	kboot_opts_release(&ko);
	return ret;
}

/* The added call as it reads in the final tree, when check had none
 * (f->file is named by the console: read beneath the tree, safefs.h). */
static void read_sources(struct ci_verdict *v, const char *worktree)
{
	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];
		struct strbuf text = STRBUF_INIT;
		const char *p;
		int line = 1;

		if (!f->added_by_series || f->source || !f->file)
			continue;
		/* f->file comes from the console: beneath the tree only,
		 * whatever links the series left there. */
		if (safefs_read(&text, worktree, f->file, 8u << 20, 0) < 0) {
			error_clear();
			goto next;
		}
		for (p = text.buf; *p && line < f->tree_line; p++)
			if (*p == '\n')
				line++;
		if (line == f->tree_line) {
			size_t n = strcspn(p, "\n");

			while (n && (p[n - 1] == ';' || p[n - 1] == ' ' ||
				     p[n - 1] == '{' || p[n - 1] == '\t'))
				n--;
			while (n && (*p == ' ' || *p == '\t')) {
				p++;
				n--;
			}
			if (n && n < 200)
				f->source = xstrndup(p, n);
		}
next:
		strbuf_release(&text);
	}
}

/*
 * What the guest runs, as a key for the base boot's cache: the KUnit-only
 * boot is "kunit"; else a hash of the kselftests, workloads and images.
 */
static void test_set_key(struct strbuf *out, const struct kguest *g)
{
	struct strbuf text = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	if (!g) {
		strbuf_addstr(out, "kunit");
		return;
	}
	for (size_t i = 0; i < g->sel.test_names.nr; i++)
		strbuf_addf(&text, "test %s\n", g->sel.test_names.v[i]);
	for (size_t i = 0; i < g->sel.workloads.nr; i++)
		strbuf_addf(&text, "workload %s\n", g->sel.workloads.v[i]);
	for (size_t i = 0; i < g->nr_images; i++)
		strbuf_addf(&text, "image %s %s\n", g->images[i].name,
			    g->images[i].features ? g->images[i].features : "");
	gitlib_init();
	if (git_odb_hash(&oid, text.buf, text.len, GIT_OBJECT_BLOB) < 0)
		BUG("git_odb_hash failed");
	git_oid_tostr(hex, sizeof(hex), &oid);
	strbuf_add(out, hex, 12);
	strbuf_release(&text);
}

/*
 * The unpatched kernel's boot (panic_on_warn=0) with the same config and
 * the same KUnit suites, kselftests and workloads as the patched one:
 * cached as <cache>/ci/base-<version>-<confighash>-<tests>.log, so it is
 * built and booted once per base and test set.  Leaves the worktree at
 * the base.
 */
static int base_boot(struct ci_ctx *c, struct console_result *out,
		     struct ktree *t, const struct kapply_result *ap,
		     const struct kbuild_result *kb, struct ci_verdict *v)
{
	struct strbuf log = STRBUF_INIT, tmp = STRBUF_INIT;
	struct kbuild_opts bo = KBUILD_OPTS_INIT;
	struct kbuild_result base = KBUILD_RESULT_INIT;
	struct kboot_result res = KBOOT_RESULT_INIT;
	double t0 = monotonic_now();
	int ret;

	strbuf_addf(&log, "%s/ci/base-%s-%s-", c->cache.buf, t->version,
		    kb->config_hash ? kb->config_hash : "none");
	test_set_key(&log, c->guest);
	strbuf_addstr(&log, ".log");
	if (!access(log.buf, R_OK)) {
		progress(c, "base boot: cached in %s", log.buf);
		ret = console_parse_file(out, log.buf);
		goto out;
	}
	progress(c, "building the unpatched base with the same config");
	ret = ktree_checkout(t, &t->base);
	if (ret < 0)
		goto out;
	bo.touched = &ap->touched;
	bo.progress = c->opts->flags & CI_PROGRESS;
	ret = kbuild_run(&base, t, &bo);
	if (ret < 0) {
		ret = error_prefix(ret, "building the unpatched base");
		goto out;
	}
	strbuf_addf(&tmp, "%s.tmp", log.buf);
	if (c->guest) {
		/* Fresh images and gcov disk: the same tests as the patched boot. */
		ret = kguest_reset_disks(c->guest);
		if (ret < 0)
			goto out;
	}
	ret = boot(c, &res, base.bzimage, tmp.buf, false);
	if (ret < 0)
		goto out;
	if (rename(tmp.buf, log.buf) < 0) {
		ret = error("cannot rename '%s': %s", tmp.buf, strerror(errno));
		goto out;
	}
	ret = console_parse_file(out, log.buf);
out:
	v->t.base_boot = monotonic_now() - t0;
	unlink(tmp.buf);
	strbuf_release(&log);
	strbuf_release(&tmp);
	kbuild_result_release(&base);
	kboot_result_release(&res);
	return ret;
}

/* fired[i] as a console report, to compare with another boot's. */
static void probe_of(struct fired *probe, const struct ci_fired *f)
{
	memset(probe, 0, sizeof(*probe));
	probe->kind = f->kind;
	probe->file = f->file;
	probe->line = f->tree_line;
	probe->function = f->function;
	probe->message = f->message;
}

static bool test_failed(const struct ci_test *t)
{
	return !strcmp(t->result, "fail");
}

/* The test of `tests` that is `t` (name and image), or NULL. */
static const struct ci_test *same_test(const struct ci_verdict *tests,
				       const struct ci_test *t)
{
	for (size_t i = 0; i < tests->nr_tests; i++) {
		const struct ci_test *o = &tests->tests[i];

		if (!strcmp(o->name, t->name) &&
		    !strcmp(o->image ? o->image : "", t->image ? t->image : ""))
			return o;
	}
	return NULL;
}

void ci_compare_base(struct ci_verdict *v, const struct console_result *base)
{
	struct ci_verdict bt = CI_VERDICT_INIT;

	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];
		struct fired probe;

		if (f->added_by_series) {
			f->base_count = 0;
			continue;
		}
		probe_of(&probe, f);
		f->base_count = count_reports(base, &probe);
		f->preexisting = f->base_count > 0;
	}
	ci_tests_from_console(&bt, base);
	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *o = same_test(&bt, &v->tests[i]);

		v->tests[i].base_result = o ? o->result : NULL;
	}
	v->base_compared = true;
	ci_verdict_release(&bt);
}

void ci_compare_rerun(struct ci_verdict *v, const struct console_result *rerun)
{
	struct ci_verdict rt = CI_VERDICT_INIT;

	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];
		struct fired probe;

		if (f->added_by_series)
			continue;	/* proof already: never rerun to doubt it */
		probe_of(&probe, f);
		f->reproduced = count_reports(rerun, &probe) > 0;
	}
	ci_tests_from_console(&rt, rerun);
	for (size_t i = 0; i < v->nr_tests; i++) {
		const struct ci_test *o;

		if (!test_failed(&v->tests[i]))
			continue;
		o = same_test(&rt, &v->tests[i]);
		v->tests[i].rerun_result = o ? o->result : "missing";
	}
	v->rerun = true;
	ci_verdict_release(&rt);
}

bool ci_needs_rerun(const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_fired; i++)
		if (!v->fired[i].added_by_series && v->fired[i].reproduced < 0)
			return true;
	for (size_t i = 0; i < v->nr_tests; i++)
		if (test_failed(&v->tests[i]))
			return true;
	return false;
}

bool ci_needs_base(const struct ci_verdict *v)
{
	for (size_t i = 0; i < v->nr_fired; i++)
		if (!v->fired[i].added_by_series)
			return true;
	for (size_t i = 0; i < v->nr_tests; i++)
		if (test_failed(&v->tests[i]))
			return true;
	return false;
}

/* Does known.json's key `key` name base `base` ("6.12" names 6.12.118)? */
static bool known_base(const char *key, const char *base)
{
	const char *rest;

	return base && skip_prefix(base, key, &rest) && (!*rest || *rest == '.');
}

int ci_mark_known(struct ci_verdict *v, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	json_error_t jerr;
	json_t *root = NULL, *list;
	const char *key;
	int ret = 0;

	if (access(path, F_OK))
		return 0;
	if (strbuf_read_file(&text, path, 1u << 20) < 0) {
		ret = error_code(WW_EINPUT, "%s", error_last());
		goto out;
	}
	root = json_loadb(text.buf, text.len, 0, &jerr);
	if (!root || !json_is_object(root)) {
		ret = error_code(WW_EINPUT, "'%s' line %d: %s", path, jerr.line,
				 root ? "not an object" : jerr.text);
		goto out;
	}
	json_object_foreach(root, key, list) {
		size_t k;
		json_t *e;

		if (!strcmp(key, "comment") || !known_base(key, v->base))
			continue;
		if (!json_is_array(list)) {
			ret = error_code(WW_EINPUT, "'%s': \"%s\" is not an array", path, key);
			goto out;
		}
		json_array_foreach(list, k, e) {
			const char *fp = json_string_value(json_object_get(e, "fingerprint"));
			const char *note = json_string_value(json_object_get(e, "note"));

			if (!fp) {
				ret = error_code(WW_EINPUT, "'%s': \"%s\"[%zu] has no "
						 "\"fingerprint\" string", path, key, k);
				goto out;
			}
			for (size_t i = 0; i < v->nr_fired; i++) {
				struct ci_fired *f = &v->fired[i];

				if (f->known || !f->fingerprint || strcmp(f->fingerprint, fp))
					continue;
				f->known = xstrdup(note ? note : "known");
			}
		}
	}
out:
	json_decref(root);
	strbuf_release(&text);
	return ret;
}

/*
 * Boot the patched kernel once more (panic_on_warn=0, fresh disks) to
 * tell a flaky report or test failure from a real one.
 */
static int rerun_boot(struct ci_ctx *c, struct ci_verdict *v, const char *kernel)
{
	struct kboot_result res = KBOOT_RESULT_INIT;
	struct console_result con = CONSOLE_RESULT_INIT;
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (c->guest)
		ret = kguest_reset_disks(c->guest);
	strbuf_addf(&path, "%s/boot-rerun.log", c->logdir.buf);
	progress(c, "booting again: a report or a failed test the series did "
		 "not add (flaky?)");
	if (!ret)
		ret = boot(c, &res, kernel, path.buf, false);
	v->t.rerun = res.seconds;
	if (!ret)
		ret = console_parse_file(&con, path.buf);
	if (!ret)
		ci_compare_rerun(v, &con);
	strbuf_release(&path);
	console_result_release(&con);
	kboot_result_release(&res);
	return ret;
}

/*
 * GCOV_PROFILE for the .c files the series adds calls to (kguest.h), as
 * a commit on top of the series, checked out for the build.
 */
static int gcov_lines(struct ci_ctx *c, struct ci_verdict *out, struct ktree *t,
		      const struct kapply_result *ap)
{
	struct strvec files = STRVEC_INIT;
	git_oid head;
	int ret;

	for (size_t i = 0; i < out->findings.nr; i++)
		if (out->findings.v[i].kind == FINDING_ADDED)
			strvec_push(&files, out->findings.v[i].file);
	ret = kguest_gcov_commit(&head, t, &ap->head, &files);
	if (!ret && !git_oid_equal(&head, &ap->head)) {
		progress(c, "gcov for the touched objects");
		ret = ktree_checkout(t, &head);
	}
	strvec_clear(&files);
	return ret;
}

/* Apply, build: a verdict when either fails (returns 1), else 0. */
static int apply_and_build(struct ci_ctx *c, struct ci_verdict *out,
			   struct ktree *t, const struct series *s,
			   struct kapply_result *ap, struct kbuild_result *kb)
{
	struct kbuild_opts bo = KBUILD_OPTS_INIT;
	double t0 = monotonic_now();
	int ret;

	progress(c, "applying %zu patch%s to linux %s", s->nr,
		 s->nr == 1 ? "" : "es", t->version);
	ret = kapply_series(ap, t, s);
	out->t.apply = monotonic_now() - t0;
	if (ret == WW_EAPPLY) {
		out->kind = CI_APPLY_FAILED;
		out->failed_patch = ap->failed;
		set_reason(out, "%s", error_last());
		parse_apply_error(out, error_last());
		error_clear();
		return 1;
	}
	if (ret < 0)
		return ret;
	if (ap->note.len)
		out->apply_note = xstrdup(ap->note.buf);
	free(out->applied);
	out->applied = xstrdup(ap->three_way ? "applied 3-way" : "applied");
	ret = ci_land(out, s, t->repo, ap);
	if (ret < 0)
		return ret;
	ret = gcov_lines(c, out, t, ap);
	if (ret < 0)
		return ret;
	progress(c, "building");
	t0 = monotonic_now();
	bo.touched = &ap->touched;
	bo.progress = c->opts->flags & CI_PROGRESS;
	ret = kbuild_run(kb, t, &bo);
	out->t.build = monotonic_now() - t0;
	for (size_t i = 0; i < kb->suites.nr; i++)
		strvec_push(&out->enabled, kb->suites.v[i]);
	for (size_t i = 0; i < kb->symbols.nr; i++)
		strvec_push(&out->config_added, kb->symbols.v[i]);
	if (ret == WW_EBUILD) {
		out->kind = CI_BUILD_FAILED;
		out->build_error = xstrdup(kb->error.len ? kb->error.buf : error_last());
		set_reason(out, "the patched kernel does not build");
		error_clear();
		return 1;
	}
	if (ret == WW_ETIMEOUT) {
		out->kind = CI_ERROR;
		set_reason(out, "%s", error_last());
		error_clear();
		return 1;
	}
	return ret;
}

static void images_to_verdict(struct ci_verdict *out, const struct kguest *g)
{
	for (size_t i = 0; i < g->nr_images; i++) {
		const struct kguest_image *im = &g->images[i];
		struct ci_image *ci;

		ALLOC_GROW(out->images, out->nr_images + 1, out->alloc_images);
		ci = &out->images[out->nr_images++];
		ci->name = xstrdup(im->name);
		ci->features = xstrdup_or_null(im->features);
		ci->clean = im->clean;
		ci->fsck_output = im->clean ? NULL : xstrdup(im->fsck_output.buf);
		if (!im->clean && out->kind == CI_CLEAN) {
			out->kind = CI_FS_CORRUPTED;
			set_reason(out, "e2fsck -fn finds image %s (%s) corrupted: %.*s",
				   im->name, im->features ? im->features : "",
				   (int)strcspn(im->fsck_output.buf, "\n"),
				   im->fsck_output.buf);
		}
	}
}

/*
 * After a boot whose /init finished: the .gcda files off the gcov disk,
 * e2fsck on every image.  Only once: the first boot that finished.
 */
static int collect(struct ci_ctx *c, struct ci_verdict *out,
		   const struct console_result *con)
{
	size_t nr = 0;
	int ret;

	if (!c->guest || c->collected || !con->init_done)
		return 0;
	c->collected = true;
	strbuf_reset(&c->no_gcov);
	if (!con->gcov_result || strcmp(con->gcov_result, "ok")) {
		strbuf_addf(&c->no_gcov, "kernel-ci/init copied no gcov counters "
			    "out of the guest (result=%s)",
			    con->gcov_result ? con->gcov_result : "missing");
	} else if (kguest_read_gcda(c->guest, &nr) < 0) {
		strbuf_addstr(&c->no_gcov, error_last());
		error_clear();
	}
	progress(c, "read %zu gcov counter file%s", nr, nr == 1 ? "" : "s");
	ret = kguest_fsck(c->guest);
	out->t.fsck = c->guest->fsck_seconds;
	if (ret < 0)
		return ret;
	images_to_verdict(out, c->guest);
	return 0;
}

/* Boot with panic_on_warn=1, and again with 0 when that panicked. */
static int boot_and_judge(struct ci_ctx *c, struct ci_verdict *out,
			  const struct series *s, const char *kernel)
{
	struct kboot_result res = KBOOT_RESULT_INIT, res2 = KBOOT_RESULT_INIT;
	struct console_result con = CONSOLE_RESULT_INIT, con2 = CONSOLE_RESULT_INIT;
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = pick_accel(c, out, kernel);
	if (ret < 0)
		goto out;
	strbuf_addf(&path, "%s/boot.log", c->logdir.buf);
	out->console = xstrdup(path.buf);
	ret = boot(c, &res, kernel, path.buf, true);
	out->t.boot = res.seconds;
	if (ret < 0) {
		out->kind = CI_ERROR;
		set_reason(out, "%s", error_last());
		error_clear();
		ret = 0;
		goto out;
	}
	ret = console_parse_file(&con, path.buf);
	if (ret < 0)
		goto out;
	ci_decide(out, &con, res.timed_out);
	if (res.flooded && out->kind != CI_PANICKED) {
		out->kind = CI_ERROR;
		set_reason(out, "the kernel printed more than %u MB on its console "
			   "(a message in a loop?) and was stopped; last line: %s",
			   KBOOT_DEFAULT_MAX_CONSOLE >> 20,
			   con.last_line ? con.last_line : "");
	}
	ci_attribute(out, &con, true, s, NULL);
	ci_tests_from_console(out, &con);
	progress(c, "%s after %.1f s", ci_verdict_name(out->kind), res.seconds);
	ret = collect(c, out, &con);
	if (ret < 0)
		goto out;
	if (out->kind != CI_PANICKED || (c->opts->flags & CI_NO_SECOND_BOOT))
		goto out;
	if (c->guest) {
		ret = kguest_reset_disks(c->guest);
		if (ret < 0)
			goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/boot-panic_on_warn-0.log", c->logdir.buf);
	out->console2 = xstrdup(path.buf);
	ret = boot(c, &res2, kernel, path.buf, false);
	out->t.boot2 = res2.seconds;
	if (ret < 0) {
		/* The verdict stands; the list of every WARNING is lost. */
		warning("second boot: %s", error_last());
		error_clear();
		ret = 0;
		goto out;
	}
	ret = console_parse_file(&con2, path.buf);
	if (ret < 0)
		goto out;
	ci_attribute(out, &con2, false, s, NULL);
	out->warn_flood = res2.flooded;
	if (res2.flooded && c->guest && !c->collected) {
		strbuf_reset(&c->no_gcov);
		strbuf_addf(&c->no_gcov, "the boot with panic_on_warn=0 was stopped "
			    "after %u MB of console output (WARNINGs in a loop) "
			    "before kernel-ci/init could copy the counters out",
			    CI_SECOND_BOOT_MAX_CONSOLE >> 20);
	}
	ret = collect(c, out, &con2);
out:
	strbuf_release(&path);
	console_result_release(&con);
	console_result_release(&con2);
	kboot_result_release(&res);
	kboot_result_release(&res2);
	return ret;
}

static int static_findings(struct ci_verdict *out, const struct series *s,
			   const struct ci_opts *opts)
{
	struct check_opts co = CHECK_OPTS_INIT;
	int ret;

	co.rules = opts->rules;
	out->rules = co.rules;
	if (!co.rules) {
		/* The findings borrow their rules: the verdict keeps them. */
		out->own_rules = xcalloc(1, sizeof(*out->own_rules));
		ret = rules_load(out->own_rules, rules_default_dir());
		if (ret < 0)
			return ret;
		co.rules = out->own_rules;
		out->rules = out->own_rules;
	}
	return check_series(&out->findings, s, &co);
}

/* The Debian source tarballs we have: "6.1", "6.12" (sorted by kbase). */
static void available_bases(struct strvec *out)
{
	DIR *d = opendir("/usr/src");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		const char *v;
		size_t n;

		if (!skip_prefix(e->d_name, "linux-source-", &v))
			continue;
		n = strlen(v);
		if (n <= 7 || strcmp(v + n - 7, ".tar.xz"))
			continue;
		n -= 7;
		if (strspn(v, "0123456789.") >= n)
			strvec_pushf(out, "%.*s", (int)n, v);
	}
	if (d)
		closedir(d);
}

/* "v6.1.192" / "6.12-rc3" -> "6.1" / "6.12"; "" when not a release. */
static void release_of(struct strbuf *out, const char *base_commit)
{
	const char *p = base_commit;
	size_t n;

	if (!p)
		return;
	if (*p == 'v')
		p++;
	n = strspn(p, "0123456789");
	if (!n || p[n] != '.' || !strspn(p + n + 1, "0123456789"))
		return;
	n += 1 + strspn(p + n + 1, "0123456789");
	strbuf_add(out, p, n);
}

/* The tree --tree or $WARNWATCH_BASE_TARBALL names, or NULL. */
static const char *named_tree(const struct ci_opts *opts, const char **why)
{
	const char *env = getenv("WARNWATCH_BASE_TARBALL");

	const char *tree = opts->tree && !starts_with(opts->tree, "git:") ?
			   opts->tree : NULL;	/* "git:" is git_base()'s */

	*why = tree ? "--tree" : "$WARNWATCH_BASE_TARBALL";
	return tree ? tree : env && *env ? env : NULL;
}

/* The installed releases in the order to try them (kbase.h); `out` stays
 * empty when no linux-source tarball is installed. */
static int release_order(struct strvec *out, struct strbuf *why,
			 const struct series *s)
{
	struct strvec avail = STRVEC_INIT;
	int ret = 0;

	available_bases(&avail);
	if (avail.nr)
		ret = kbase_order(out, s->base_commit, &avail, why);
	strvec_clear(&avail);
	return ret;
}

/*
 * The trees to try, in order (kbase.h), and whether only the first counts:
 * --tree or $WARNWATCH_BASE_TARBALL name one; a base-commit: naming a
 * release we have names one too (a series written for v6.1 that does not
 * apply there is not tried on 6.12); otherwise newest first until one
 * applies.
 */
static int pick_bases(struct strvec *out, bool *only_first, struct ci_verdict *v,
		      const struct series *s, const struct ci_opts *opts)
{
	struct strbuf why = STRBUF_INIT, rel = STRBUF_INIT;
	const char *named_why, *named = named_tree(opts, &named_why);
	int ret = 0;

	*only_first = true;
	if (named) {
		strvec_push(out, named);
		v->base_why = xstrdup(named_why);
		goto out;
	}
	ret = release_order(out, &why, s);
	if (ret < 0)
		goto out;
	if (!out->nr) {
		strvec_push(out, "6.1");	/* ktree says what is missing */
		v->base_why = xstrdup("no /usr/src/linux-source-*.tar.xz found");
		goto out;
	}
	release_of(&rel, s->base_commit);
	*only_first = rel.len && !strcmp(out->v[0], rel.buf);
	v->own_base = *only_first;	/* the release base-commit: names */
	v->base_why = strbuf_detach(&why, NULL);
out:
	strbuf_release(&why);
	strbuf_release(&rel);
	return ret;
}

void ci_first_base(struct strbuf *out, const struct series *s,
		   const struct ci_opts *opts)
{
	struct strvec bases = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *named_why;

	if (!named_tree(opts, &named_why) && release_order(&bases, &why, s) >= 0 &&
	    bases.nr)
		strbuf_addstr(out, bases.v[0]);
	strvec_clear(&bases);
	strbuf_release(&why);
}

/* "6.1.192-3f56d44cddd9" -> "6.1"; false when not a build directory. */
static bool build_release(struct strbuf *out, const char *name)
{
	size_t a = strspn(name, "0123456789"), b;

	if (!a || name[a] != '.')
		return false;
	b = strspn(name + a + 1, "0123456789");
	if (!b || (name[a + 1 + b] != '.' && name[a + 1 + b] != '-'))
		return false;
	strbuf_reset(out);
	strbuf_add(out, name, a + 1 + b);
	return true;
}

void ci_warm_bases(struct strbuf *out, const char *cache)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, rel = STRBUF_INIT;
	struct strvec seen = STRVEC_INIT;
	struct dirent *e;
	DIR *d;

	strbuf_addf(&dir, "%s/build", cache);
	d = opendir(dir.buf);
	while (d && (e = readdir(d))) {
		if (!build_release(&rel, e->d_name) || strvec_has(&seen, rel.buf))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/arch/x86/boot/bzImage", dir.buf, e->d_name);
		if (!access(path.buf, R_OK))
			strvec_push(&seen, rel.buf);
	}
	if (d)
		closedir(d);
	/* Sorted: the same set is the same string in every heartbeat. */
	strvec_sort(&seen);
	for (size_t i = 0; i < seen.nr; i++)
		strbuf_addf(out, "%s%s,", i ? "" : ",", seen.v[i]);
	strvec_clear(&seen);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&rel);
}

/* kernel-ci/known.json: a broken file is said, not a failed verdict. */
static void known_reports(struct ci_verdict *v)
{
	struct strbuf path = STRBUF_INIT;

	kbuild_config_dir(&path);
	strbuf_addstr(&path, "/known.json");
	if (ci_mark_known(v, path.buf) < 0) {
		warning("%s", error_last());
		error_clear();
	}
	strbuf_release(&path);
}

/*
 * An apply or build failure on a base that is not the series' own: the
 * series' fault, or the base's (kblame.h)?  A build failure is the base's
 * when its log names symbols the base tree lacks.
 */
static void blame(struct ci_verdict *out, struct ktree *t,
		  const struct kapply_result *ap, const struct kbuild_result *kb)
{
	struct strvec missing = STRVEC_INIT;
	struct strbuf log = STRBUF_INIT;

	/* A refused series is refused on every base: it stays the series'. */
	if (out->own_base || ap->refused)
		return;
	if (out->kind == CI_BUILD_FAILED) {
		if (!kb->log_path ||
		    strbuf_read_file(&log, kb->log_path, 16u << 20) < 0)
			strbuf_addstr(&log, out->build_error ? out->build_error : "");
		if (kblame_missing_symbols(&missing, log.buf, t->worktree,
					   &ap->touched, t->repo, &ap->base) < 0)
			error_clear();	/* then the error stays the series' */
	}
	kblame_classify(out, &missing);
	strvec_clear(&missing);
	strbuf_release(&log);
}

/* Forget an apply failure before trying the next tree. */
static void clear_apply_failure(struct ci_verdict *v, const char *base,
				struct strbuf *tried)
{
	strbuf_addf(tried, "%sdoes not apply to linux %s (%s)",
		    tried->len ? "; " : "", base, v->reason ? v->reason : "");
	v->kind = CI_ERROR;
	free(v->failed_file);
	v->failed_file = NULL;
	v->failed_patch = v->failed_hunk = 0;
}

/* The guest's user space, or a note why there is none. */
static void prepare_guest(struct ci_ctx *c, struct ci_verdict *out,
			  struct kguest *g, struct ktree *t,
			  const struct kapply_result *ap,
			  const struct kbuild_result *kb)
{
	struct kguest_opts go = KGUEST_OPTS_INIT;
	struct strbuf dotconfig = STRBUF_INIT;

	if (c->opts->flags & CI_NO_USER_SPACE) {
		strbuf_addstr(&c->no_gcov, "booted without user space "
			      "(--no-user-space): nothing copied the counters out");
		return;
	}
	progress(c, "the guest's user space: kselftests, images, initramfs");
	strbuf_addf(&dotconfig, "%s/.config", kb->build_dir);
	go.cache_dir = c->cache.buf;
	go.dotconfig = dotconfig.buf;
	if (kguest_prepare(g, t, &ap->touched, c->logdir.buf, &go) < 0) {
		out->guest_error = xstrdup(error_last());
		strbuf_addf(&c->no_gcov, "the guest had no user space to copy the "
			    "counters out (%s)", error_last());
		error_clear();
	} else {
		c->guest = g;
		out->user_space = true;
		for (size_t i = 0; i < g->not_built.nr; i++)
			strvec_push(&out->not_built, g->not_built.v[i]);
		strbuf_addstr(&c->no_gcov, "the guest did not finish kernel-ci/init, "
			      "so its gcov counters were not copied out");
	}
	out->t.kselftests = g->kselftest_seconds;
	out->t.images = g->image_seconds;
	out->t.initramfs = g->initramfs_seconds;
	strbuf_release(&dotconfig);
}

/*
 * The git repository as the base (kbase_git()): --repo/[ci] repo, or a
 * tree "git:PATH#BRANCH".  1 with `t` open, 0 to go on with the Debian
 * trees (out->git_why says why), or an error.
 */
static int git_base(struct ci_ctx *c, struct ci_verdict *out, struct ktree *t,
		    const struct series *s, const struct ci_opts *opts)
{
	struct ktree_opts ko = KTREE_OPTS_INIT;
	struct strbuf repo = STRBUF_INIT, branch = STRBUF_INIT, why = STRBUF_INIT;
	const char *p;
	git_oid commit;
	bool own;
	int ret = 0;

	if (opts->tree && skip_prefix(opts->tree, "git:", &p)) {
		strbuf_add(&repo, p, strcspn(p, "#"));
		if (p[repo.len] == '#')
			strbuf_addstr(&branch, p + repo.len + 1);
	} else if (opts->repo && *opts->repo) {
		strbuf_addstr(&repo, opts->repo);
	}
	if (!repo.len)
		goto out;
	if (!branch.len && opts->branch)
		strbuf_addstr(&branch, opts->branch);
	ret = kbase_git(&commit, &own, &why, repo.buf, branch.buf, s->base_commit);
	if (ret <= 0) {
		out->git_why = strbuf_detach(&why, NULL);
		goto out;
	}
	ko.cache_dir = c->cache.buf;
	ko.repo = repo.buf;
	ko.keep_bases = opts->keep_bases;
	ko.progress = opts->flags & CI_PROGRESS;
	progress(c, "opening the base %.12s of %s", git_oid_tostr_s(&commit), repo.buf);
	ret = ktree_open_git(t, &ko, &commit);
	if (ret < 0)
		goto out;
	out->own_base = own;
	free(out->base_why);
	out->base_why = strbuf_detach(&why, NULL);
	ret = 1;
out:
	strbuf_release(&why);
	strbuf_release(&branch);
	strbuf_release(&repo);
	return ret;
}

int ci_run(struct ci_verdict *out, const struct series *s,
	   const struct ci_opts *opts)
{
	struct ci_ctx c = { opts, STRBUF_INIT, STRBUF_INIT, monotonic_now(), KBOOT_ACCEL_AUTO,
			     NULL, STRBUF_INIT, false };
	struct ktree_opts ko = KTREE_OPTS_INIT;
	struct ktree t = KTREE_INIT;
	struct kapply_result ap = KAPPLY_RESULT_INIT;
	struct kbuild_result kb = KBUILD_RESULT_INIT;
	struct console_result base = CONSOLE_RESULT_INIT;
	struct kguest guest = KGUEST_INIT;
	struct strbuf tarball = STRBUF_INIT, tried = STRBUF_INIT;
	struct strvec bases = STRVEC_INIT;
	bool only_first;
	double t0;
	int ret;

	out->nr_patches = (int)s->nr;
	ret = static_findings(out, s, opts);
	out->t.check = monotonic_now() - c.start;
	if (ret < 0)
		goto out;
	ktree_cache_dir(&c.cache, opts->cache_dir);
	ret = make_logdir(&c);
	if (ret < 0)
		goto out;
	ret = git_base(&c, out, &t, s, opts);
	if (ret < 0)
		goto out;
	if (ret > 0) {
		/* The git base: the one tree to try. */
		free(out->base);
		out->base = xstrdup(t.version);
		ret = apply_and_build(&c, out, &t, s, &ap, &kb);
		goto built;
	}
	ret = pick_bases(&bases, &only_first, out, s, opts);
	if (ret < 0)
		goto out;
	if (out->git_why) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%s%s", out->git_why, out->base_why);
		free(out->base_why);
		out->base_why = strbuf_detach(&why, NULL);
	}
	for (size_t i = 0; i < bases.nr; i++) {
		bool last = only_first || i + 1 == bases.nr;

		strbuf_reset(&tarball);
		tarball_for(&tarball, bases.v[i]);
		ko.cache_dir = c.cache.buf;
		ko.tarball = tarball.buf;
		ko.progress = opts->flags & CI_PROGRESS;
		progress(&c, "opening the base tree %s (waits while another run "
			 "uses it)", bases.v[i]);
		t0 = monotonic_now();
		ret = ktree_open(&t, &ko);
		out->t.tree += monotonic_now() - t0;
		if (ret < 0)
			goto out;
		free(out->base);
		out->base = xstrdup(t.version);
		ret = apply_and_build(&c, out, &t, s, &ap, &kb);
		if (ret <= 0 || out->kind != CI_APPLY_FAILED || last)
			break;
		clear_apply_failure(out, t.version, &tried);
		kapply_result_release(&ap);
		kbuild_result_release(&kb);
		ktree_release(&t);
	}
built:
	if (ret > 0)
		blame(out, &t, &ap, &kb);
	if (tried.len) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%s; %s", out->base_why, tried.buf);
		free(out->base_why);
		out->base_why = strbuf_detach(&why, NULL);
	}
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		strbuf_addstr(&c.no_gcov, out->kind == CI_UNTESTABLE ?
			      "the series could not be tested on this base: nothing ran" :
			      out->kind == CI_APPLY_FAILED ?
			      "the series does not apply: nothing ran" :
			      out->kind == CI_BUILD_FAILED ?
			      "the patched kernel does not build: nothing ran" :
			      "the build did not finish: nothing ran");
		goto calls;
	}
	prepare_guest(&c, out, &guest, &t, &ap, &kb);
	ret = boot_and_judge(&c, out, s, kb.bzimage);
	if (ret < 0)
		goto out;
	read_sources(out, t.worktree);
	/* While the worktree is the patched tree (the base boot checks out the base). */
	ci_calls(out, s, t.worktree, kb.build_dir ? kb.build_dir : "",
		 guest.gcda_dir ? guest.gcda_dir : "",
		 c.no_gcov.len ? c.no_gcov.buf : NULL);
	if (ci_needs_rerun(out) && !(opts->flags & CI_NO_RERUN) &&
	    rerun_boot(&c, out, kb.bzimage) < 0) {
		warning("booting again: %s", error_last());
		error_clear();
	}
	if ((ci_needs_base(out) || (opts->flags & CI_BASE_BOOT)) &&
	    !(opts->flags & CI_NO_BASE_BOOT)) {
		/* Without the base, the verdict stands; "preexisting" is unknown. */
		if (base_boot(&c, &base, &t, &ap, &kb, out) < 0) {
			out->base_error = xstrdup(error_last());
			error_clear();
		} else {
			ci_compare_base(out, &base);
		}
	}
	known_reports(out);
	ret = 0;
	goto out;
calls:
	ci_calls(out, s, t.worktree, kb.build_dir ? kb.build_dir : "",
		 guest.gcda_dir ? guest.gcda_dir : "",
		 c.no_gcov.len ? c.no_gcov.buf : NULL);
	ret = 0;
out:
	out->t.total = monotonic_now() - c.start;
	console_result_release(&base);
	kbuild_result_release(&kb);
	kapply_result_release(&ap);
	kguest_release(&guest);
	ktree_release(&t);
	strbuf_release(&tarball);
	strbuf_release(&tried);
	strvec_clear(&bases);
	strbuf_release(&c.cache);
	strbuf_release(&c.logdir);
	strbuf_release(&c.no_gcov);
	return ret;
}
