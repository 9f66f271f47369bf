/*
 * kernel-ci attribution (see ci.h): which lines the series adds in the
 * final tree and where they landed in the booted tree (ci_land), whose
 * fault each fired WARNING is (ci_attribute), what ran in the guest
 * (ci_tests_from_console) and whether each added call ran and fired
 * (ci_calls).
 */
#include "ci-priv.h"
#include "diff.h"
#include "gcov.h"
#include "gitlib.h"
#include "kbuild.h"
#include "quote.h"
#include "safefs.h"

#include <git2.h>

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

void ci_landed_free(struct ci_landed *l)
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
			/* an array of pointers: sizeof(*x) is a pointer's, as meant */
			ALLOC_GROW(*out, nr + 1, alloc); /* NOLINT(bugprone-sizeof-expression) */
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

/* How many lines a call may span above the line the kernel reports: the
 * same span the text and the reply match a fired report with. */
#define CALL_SPAN CI_CALL_LINES

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
int ci_count_reports(const struct console_result *con, const struct fired *f)
{
	int n = 0;

	for (size_t i = 0; con && i < con->nr_fired; i++)
		n += same_report(&con->fired[i], f);
	return n;
}

char *ci_xstrdup_or_null(const char *s)
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
			int n = ci_count_reports(boot, f);

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
		c->function = ci_xstrdup_or_null(f->function);
		c->suite = ci_xstrdup_or_null(f->suite);
		c->test = ci_xstrdup_or_null(f->test);
		c->trace = ci_xstrdup_or_null(f->trace);
		c->message = ci_xstrdup_or_null(f->message);
		c->in_first_boot = first_boot;
		c->patched_count = ci_count_reports(boot, f);
		c->base_count = -1;
		c->reproduced = -1;
		{
			struct strbuf fp = STRBUF_INIT;

			console_fingerprint(&fp, f->kind, f->function, f->trace, f->message);
			c->fingerprint = strbuf_detach(&fp, NULL);
		}
		if (f->file && f->line > 0)
			al = attribute_line(added, ci_verdict_findings(out), f->file,
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
			c->base_count = ci_count_reports(base, f);
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

		t->image = ci_xstrdup_or_null(u->image);
		t->detail = ci_xstrdup_or_null(detail);
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
	const struct check_result *r = ci_verdict_findings(out);

	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];
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

