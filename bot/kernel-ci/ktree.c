/*
 * The base kernel tree: extract Debian's linux-source tarball once, import
 * it into git with libgit2, and hand out a locked, checked-out tree.  The
 * cache layout is described in ktree.h.
 */
#include "ktree.h"
#include "env.h"
#include "datadir.h"
#include "mkdirs.h"
#include "gitlib.h"
#include "child.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Makefile lines we look at: VERSION etc. are in the first few. */
#define MAKEFILE_HEAD_CAP (64u << 10)

void ktree_cache_dir(struct strbuf *out, const char *option)
{
	datadir_cache(out, option);
}

/* "VERSION = 6" -> "6"; false when `line` is not `key`'s assignment. */
static bool makefile_value(const char *line, const char *key,
			   struct strbuf *out)
{
	const char *p;

	if (!skip_prefix(line, key, &p))
		return false;
	p += strspn(p, " \t");
	if (*p != '=')
		return false;
	p++;
	p += strspn(p, " \t");
	strbuf_reset(out);
	strbuf_add(out, p, strcspn(p, " \t\r\n#"));
	return true;
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int version_from_text(struct strbuf *out, struct strbuf *text,
			     const char *makefile);

int ktree_read_version(struct strbuf *out, const char *makefile)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&text, makefile, MAKEFILE_HEAD_CAP) < 0 &&
	    !text.len) {
		ret = error_code(WW_ENOTFOUND, "cannot read '%s': %s",
				 makefile, strerror(errno));
		goto out;
	}
	ret = version_from_text(out, &text, makefile);
out:
	strbuf_release(&text);
	return ret;
}

/* The version from a top Makefile's text (`text` is cut into lines). */
static int version_from_text(struct strbuf *out, struct strbuf *text,
			     const char *makefile)
{
	struct strbuf val = STRBUF_INIT;
	char *part[4] = { NULL, NULL, NULL, NULL };
	static const char *const keys[] = {
		"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"
	};
	char *line, *next;
	int ret = -1;

	for (line = text->buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (!part[i] && makefile_value(line, keys[i], &val))
				part[i] = xstrdup(val.buf);
	}
	if (!part[0] || !part[1] || !part[2] || !all_digits(part[0]) ||
	    !all_digits(part[1]) || !all_digits(part[2])) {
		ret = error_code(WW_EINPUT,
				 "'%s': no VERSION/PATCHLEVEL/SUBLEVEL lines",
				 makefile);
		goto out;
	}
	if (part[3] && strspn(part[3], "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_+") !=
	    strlen(part[3])) {
		ret = error_code(WW_EINPUT, "'%s': odd EXTRAVERSION '%s'",
				 makefile, part[3]);
		goto out;
	}
	strbuf_addf(out, "%s.%s.%s%s", part[0], part[1], part[2],
		    part[3] ? part[3] : "");
	ret = 0;
out:
	for (size_t i = 0; i < ARRAY_SIZE(part); i++)
		free(part[i]);
	strbuf_release(&val);
	return ret;
}

/* "linux-source-6.1.tar.xz" -> "linux-source-6.1" */
static void tarball_name(struct strbuf *out, const char *tarball)
{
	static const char *const exts[] = {
		".tar.xz", ".tar.gz", ".tar.bz2", ".tar.zst", ".tgz", ".tar"
	};
	const char *base = strrchr(tarball, '/');

	base = base ? base + 1 : tarball;
	strbuf_addstr(out, base);
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++)
		if (ends_with(out->buf, exts[i]) &&
		    out->len > strlen(exts[i])) {
			strbuf_setlen(out, out->len - strlen(exts[i]));
			break;
		}
}

static int take_lock(struct ktree *t, const char *name, unsigned int timeout_s,
		     bool progress)
{
	struct strbuf path = STRBUF_INIT;
	double deadline = monotonic_now() + timeout_s;
	bool said = false;
	int ret = -1;

	strbuf_addf(&path, "%s/locks", t->cache_dir);
	if (mkdirs(path.buf, 0755, WW_ERROR) < 0)
		goto out;
	strbuf_addf(&path, "/%s.lock", name);
	t->lock_fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (t->lock_fd < 0) {
		ret = error("cannot open '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	while (flock(t->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			ret = error("cannot lock '%s': %s", path.buf,
				    strerror(errno));
			goto out;
		}
		if (monotonic_now() >= deadline) {
			ret = error_code(WW_ETIMEOUT,
					 "'%s' is still locked by another warnwatch run after %u s",
					 path.buf, timeout_s);
			goto out;
		}
		if (progress && !said) {
			fprintf(stderr, "warnwatch: waiting for another run using %s (%s)\n",
				name, path.buf);
			said = true;
		}
		usleep(250 * 1000);
	}
	ret = 0;
out:
	if (ret < 0 && t->lock_fd >= 0) {
		close(t->lock_fd);
		t->lock_fd = -1;
	}
	strbuf_release(&path);
	return ret;
}

static int run_quiet(struct child *c, unsigned int timeout_s)
{
	c->timeout_ms = timeout_s * 1000;
	return child_run_ok(c);
}

static int remove_tree(const char *path)
{
	struct child c = CHILD_INIT;
	int ret;

	if (access(path, F_OK) < 0)
		return 0;
	strvec_pushl(&c.args, "rm", "-rf", "--", path, NULL);
	ret = run_quiet(&c, KTREE_EXTRACT_TIMEOUT_S);
	child_release(&c);
	return ret;
}

/* The one directory a kernel tarball extracts to (its name in `out`). */
static int single_subdir(struct strbuf *out, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return error("cannot read '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		strbuf_reset(out);
		strbuf_addf(out, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n != 1)
		return error_code(WW_EINPUT,
				  "expected one top-level directory in the tarball, found %d",
				  n);
	return 0;
}

/* The stamp saying which version a tarball (of this size/mtime) gave. */
static void stamp_text(struct strbuf *out, const char *version,
		       const struct stat *st)
{
	strbuf_addf(out, "version %s\nsize %lld\nmtime %lld\n", version,
		    (long long)st->st_size, (long long)st->st_mtime);
}

/* The version the stamp names if it matches the tarball, else "". */
static void read_stamp(struct strbuf *out, const char *stamp,
		       const struct stat *st)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	const char *p;

	if (strbuf_read_file(&text, stamp, 4096) < 0 ||
	    !skip_prefix(text.buf, "version ", &p))
		goto out;
	strbuf_add(out, p, strcspn(p, "\n"));
	stamp_text(&want, out->buf, st);
	if (strcmp(want.buf, text.buf))
		strbuf_reset(out);
out:
	strbuf_release(&want);
	strbuf_release(&text);
}

static void set_paths(struct ktree *t, const char *version)
{
	struct strbuf sb = STRBUF_INIT;

	free(t->version);
	free(t->tag);
	free(t->worktree);
	free(t->gitdir);
	t->version = xstrdup(version);
	strbuf_addf(&sb, "v%s", version);
	t->tag = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s/work/%s", t->cache_dir, version);
	t->worktree = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s/git/linux-%s.git", t->cache_dir, version);
	t->gitdir = strbuf_detach(&sb, NULL);
}

/* Open the repository and find the tag; WW_ENOTFOUND if not there. */
static int open_repo(struct ktree *t)
{
	struct strbuf ref = STRBUF_INIT;
	git_object *obj = NULL;
	int ret = -1;

	if (access(t->worktree, F_OK) < 0 || access(t->gitdir, F_OK) < 0)
		return WW_ENOTFOUND;
	ret = git_repository_open_bare(&t->repo, t->gitdir);
	if (ret == GIT_ENOTFOUND) {
		ret = WW_ENOTFOUND;	/* half-made by an interrupted import */
		goto out;
	}
	if (ret < 0 || git_repository_set_workdir(t->repo, t->worktree, 0) < 0) {
		ret = error("cannot open '%s': %s", t->gitdir,
			    gitlib_error());
		goto out;
	}
	strbuf_addf(&ref, "refs/tags/%s^{commit}", t->tag);
	if (git_revparse_single(&obj, t->repo, ref.buf) < 0) {
		ret = WW_ENOTFOUND;
		goto out;
	}
	git_oid_cpy(&t->base, git_object_id(obj));
	ret = 0;
out:
	if (ret < 0 && t->repo) {
		git_repository_free(t->repo);
		t->repo = NULL;
	}
	git_object_free(obj);
	strbuf_release(&ref);
	return ret;
}

/*
 * Every file under the worktree into the index.  Not git_index_add_all():
 * the tarball's .gitignore ignores everything (its first rule is a slash
 * and a star) and libgit2 1.5 then fails on the ignored directories even
 * with GIT_INDEX_ADD_FORCE; git_index_add_bypath() does not look at
 * ignore rules at all.
 */
static int add_dir(git_index *index, struct strbuf *abs, struct strbuf *rel,
		   int depth)
{
	size_t abs_len = abs->len, rel_len = rel->len;
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (depth > 64)
		return error("'%s': directories nested too deep", abs->buf);
	d = opendir(abs->buf);
	if (!d)
		return error("cannot read '%s': %s", abs->buf, strerror(errno));
	while (!ret && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (!depth && !strcmp(e->d_name, ".git")))
			continue;
		strbuf_setlen(abs, abs_len);
		strbuf_setlen(rel, rel_len);
		strbuf_addf(abs, "/%s", e->d_name);
		strbuf_addf(rel, "%s%s", rel_len ? "/" : "", e->d_name);
		if (lstat(abs->buf, &st) < 0)
			ret = error("cannot stat '%s': %s", abs->buf,
				    strerror(errno));
		else if (S_ISDIR(st.st_mode))
			ret = add_dir(index, abs, rel, depth + 1);
		else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
			 git_index_add_bypath(index, rel->buf) < 0)
			ret = error("cannot add '%s': %s", rel->buf,
				    gitlib_error());
	}
	closedir(d);
	strbuf_setlen(abs, abs_len);
	strbuf_setlen(rel, rel_len);
	return ret;
}

/*
 * One commit of the whole tree.  Author and date are fixed (the
 * tarball's mtime), so every machine gets the same commit id.
 */
static int import_tree(struct ktree *t, const char *tarname,
		       const struct stat *st)
{
	git_repository_init_options init;
	struct strbuf msg = STRBUF_INIT, abs = STRBUF_INIT, rel = STRBUF_INIT;
	git_index *index = NULL;
	git_tree *tree = NULL;
	git_commit *commit = NULL;
	git_oid tree_id, tag_id;
	int ret = -1;

	git_repository_init_options_init(&init, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	init.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_NO_DOTGIT_DIR;
	init.workdir_path = t->worktree;
	if (git_repository_init_ext(&t->repo, t->gitdir, &init) < 0 ||
	    git_repository_index(&index, t->repo) < 0) {
		ret = error("cannot create '%s': %s", t->gitdir,
			    gitlib_error());
		goto out;
	}
	strbuf_addstr(&abs, t->worktree);
	if ((ret = add_dir(index, &abs, &rel, 0)) < 0)
		goto out;
	if (git_index_write(index) < 0 ||
	    git_index_write_tree(&tree_id, index) < 0 ||
	    git_tree_lookup(&tree, t->repo, &tree_id) < 0) {
		ret = error("cannot import '%s' into '%s': %s", t->worktree,
			    t->gitdir, gitlib_error());
		goto out;
	}
	strbuf_addf(&msg, "linux %s from %s\n", t->version, tarname);
	if (gitlib_commit(&t->base, t->repo, "HEAD", NULL, st->st_mtime,
			  msg.buf, tree, NULL) < 0 ||
	    git_commit_lookup(&commit, t->repo, &t->base) < 0 ||
	    git_tag_create_lightweight(&tag_id, t->repo, t->tag,
				       (git_object *)commit, 1) < 0) {
		ret = error("cannot commit the import of '%s': %s",
			    t->worktree, gitlib_error());
		goto out;
	}
	ret = 0;
out:
	git_commit_free(commit);
	git_tree_free(tree);
	git_index_free(index);
	strbuf_release(&rel);
	strbuf_release(&abs);
	strbuf_release(&msg);
	return ret;
}

/* Extract the tarball into work/.extract-<name>/, learn its version. */
static int extract(struct ktree *t, const char *tarname, struct strbuf *top,
		   struct strbuf *version, bool progress)
{
	struct strbuf tmp = STRBUF_INIT, makefile = STRBUF_INIT;
	struct child c = CHILD_INIT;
	double start = monotonic_now();
	int ret = -1;

	strbuf_addf(&tmp, "%s/work/.extract-%s", t->cache_dir, tarname);
	if (remove_tree(tmp.buf) < 0 || mkdirs(tmp.buf, 0755, WW_ERROR) < 0)
		goto out;
	if (progress)
		fprintf(stderr, "warnwatch: extracting %s (once; about 20 s)\n",
			t->tarball);
	strvec_pushl(&c.args, "tar", "-xf", t->tarball, "-C", tmp.buf,
		     "--no-same-owner", NULL);
	if ((ret = run_quiet(&c, KTREE_EXTRACT_TIMEOUT_S)) < 0) {
		error_prefix(ret, "cannot extract '%s'", t->tarball);
		goto out;
	}
	if ((ret = single_subdir(top, tmp.buf)) < 0) {
		error_prefix(ret, "'%s'", t->tarball);
		goto out;
	}
	strbuf_addf(&makefile, "%s/Makefile", top->buf);
	if ((ret = ktree_read_version(version, makefile.buf)) < 0)
		goto out;
	t->extract_seconds = monotonic_now() - start;
	ret = 0;
out:
	child_release(&c);
	strbuf_release(&makefile);
	strbuf_release(&tmp);
	return ret;
}

/* Extract and import; reuse an existing import of the same version. */
static int create_tree(struct ktree *t, const char *tarname,
		       const char *stamp, const struct stat *st, bool progress)
{
	struct strbuf top = STRBUF_INIT, version = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, tmpdir = STRBUF_INIT;
	double start;
	int ret;

	if ((ret = extract(t, tarname, &top, &version, progress)) < 0)
		goto out;
	set_paths(t, version.buf);
	strbuf_add(&tmpdir, top.buf, strrchr(top.buf, '/') - top.buf);
	ret = open_repo(t);
	if (ret == WW_ENOTFOUND) {
		/* Half-made by an interrupted run, or never made. */
		if ((ret = remove_tree(t->worktree)) < 0 ||
		    (ret = remove_tree(t->gitdir)) < 0)
			goto out;
		if (rename(top.buf, t->worktree) < 0) {
			ret = error("cannot rename '%s' to '%s': %s", top.buf,
				    t->worktree, strerror(errno));
			goto out;
		}
		if (progress)
			fprintf(stderr, "warnwatch: importing linux %s into git (once; about 40 s)\n",
				t->version);
		start = monotonic_now();
		if ((ret = import_tree(t, tarname, st)) < 0)
			goto out;
		t->import_seconds = monotonic_now() - start;
	} else if (ret < 0) {
		goto out;
	}
	if ((ret = remove_tree(tmpdir.buf)) < 0)
		goto out;
	stamp_text(&text, t->version, st);
	if (strbuf_write_file(&text, stamp) < 0) {
		ret = error("cannot write '%s': %s", stamp, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&tmpdir);
	strbuf_release(&text);
	strbuf_release(&version);
	strbuf_release(&top);
	return ret;
}

static int resolve_cache(struct ktree *t, const char *option)
{
	struct strbuf dir = STRBUF_INIT;
	char real[PATH_MAX];
	int ret = -1;

	ktree_cache_dir(&dir, option);
	if (mkdirs(dir.buf, 0755, WW_ERROR) < 0)
		goto out;
	if (!realpath(dir.buf, real)) {
		ret = error("cannot resolve '%s': %s", dir.buf,
			    strerror(errno));
		goto out;
	}
	t->cache_dir = xstrdup(real);
	ret = 0;
out:
	strbuf_release(&dir);
	return ret;
}

int ktree_open(struct ktree *out, const struct ktree_opts *opts)
{
	const char *env = env_get(ENV_WARNWATCH_BASE_TARBALL);
	struct strbuf name = STRBUF_INIT, stamp = STRBUF_INIT;
	struct strbuf version = STRBUF_INIT;
	struct stat st;
	int ret;

	*out = (struct ktree)KTREE_INIT;
	gitlib_init();
	if (opts->tarball && *opts->tarball)
		out->tarball = xstrdup(opts->tarball);
	else
		out->tarball = xstrdup(env && *env ? env :
				       KTREE_DEFAULT_TARBALL);
	if (stat(out->tarball, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = error_code(WW_ENOTFOUND,
				 "no kernel tarball '%s' (apt-get install linux-source-6.1, or --base-tarball PATH)",
				 out->tarball);
		goto fail;
	}
	if ((ret = resolve_cache(out, opts->cache_dir)) < 0)
		goto fail;
	tarball_name(&name, out->tarball);
	if ((ret = take_lock(out, name.buf, opts->lock_timeout_s ?
			     opts->lock_timeout_s :
			     KTREE_DEFAULT_LOCK_TIMEOUT_S,
			     opts->progress)) < 0)
		goto fail;
	strbuf_addf(&stamp, "%s/work/%s.base", out->cache_dir, name.buf);
	read_stamp(&version, stamp.buf, &st);
	if (version.len) {
		set_paths(out, version.buf);
		ret = open_repo(out);
		if (ret == WW_ENOTFOUND)
			ret = create_tree(out, name.buf, stamp.buf, &st,
					  opts->progress);
	} else {
		ret = create_tree(out, name.buf, stamp.buf, &st,
				  opts->progress);
	}
	if (ret < 0)
		goto fail;
	strbuf_release(&version);
	strbuf_release(&stamp);
	strbuf_release(&name);
	return 0;
fail:
	strbuf_release(&version);
	strbuf_release(&stamp);
	strbuf_release(&name);
	ktree_release(out);
	return ret;
}

int ktree_checkout(struct ktree *t, const git_oid *commit)
{
	git_checkout_options co;
	git_commit *c = NULL;
	int ret = -1;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	/*
	 * FORCE: whatever a previous series left is overwritten; the
	 * baseline is HEAD (the previous series' last commit), so files it
	 * added and this commit lacks are removed.  Unchanged files are not
	 * rewritten, which keeps their mtimes and the build incremental.
	 */
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	if (git_commit_lookup(&c, t->repo, commit) < 0 ||
	    git_checkout_tree(t->repo, (git_object *)c, &co) < 0 ||
	    git_repository_set_head_detached(t->repo, commit) < 0) {
		ret = error("cannot check out %.12s in '%s': %s",
			    git_oid_tostr_s(commit), t->worktree,
			    gitlib_error());
		goto out;
	}
	ret = 0;
out:
	git_commit_free(c);
	return ret;
}

int ktree_commit_files(git_oid *out, struct ktree *t, const git_oid *parent,
		       const struct strvec *files, const struct strvec *contents,
		       const char *message)
{
	git_tree_update *upd = xcalloc(files->nr ? files->nr : 1, sizeof(*upd));
	git_commit *pc = NULL;
	git_tree *ptree = NULL, *tree = NULL;
	git_oid tree_id;
	int ret = -1;

	if (files->nr != contents->nr)
		BUG("ktree_commit_files: %zu files, %zu contents", files->nr,
		    contents->nr);
	if (git_commit_lookup(&pc, t->repo, parent) < 0 ||
	    git_commit_tree(&ptree, pc) < 0)
		goto out_git;
	for (size_t i = 0; i < files->nr; i++) {
		upd[i].action = GIT_TREE_UPDATE_UPSERT;
		upd[i].filemode = GIT_FILEMODE_BLOB;
		upd[i].path = files->v[i];
		if (git_blob_create_from_buffer(&upd[i].id, t->repo, contents->v[i],
						strlen(contents->v[i])) < 0)
			goto out_git;
	}
	/* Dated like the parent: the same change gives the same commit. */
	if (git_tree_create_updated(&tree_id, t->repo, ptree, files->nr, upd) < 0 ||
	    git_tree_lookup(&tree, t->repo, &tree_id) < 0 ||
	    gitlib_commit(out, t->repo, NULL, NULL, git_commit_time(pc), message,
			  tree, pc) < 0)
		goto out_git;
	ret = 0;
	goto out;
out_git:
	ret = error("cannot commit %s in '%s': %s", message, t->gitdir,
		    gitlib_error());
out:
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(pc);
	free(upd);
	return ret;
}

void ktree_release(struct ktree *t)
{
	if (t->repo)
		git_repository_free(t->repo);
	if (t->lock_fd >= 0)
		close(t->lock_fd);	/* drops the flock */
	free(t->cache_dir);
	free(t->tarball);
	free(t->version);
	free(t->tag);
	free(t->worktree);
	free(t->gitdir);
	free(t->seed_version);
	*t = (struct ktree)KTREE_INIT;
}

/* ---- a commit of the operator's git repository as the base ---- */

#define BASE_USED "warnwatch-used"	/* in the gitdir: touched on each open */

/* "<repo>/objects" of the operator's repository (bare or not). */
static int operator_objects(struct strbuf *out, const char *path)
{
	git_repository *r = NULL;

	if (git_repository_open_ext(&r, path, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0)
		return error_code(WW_ENOTFOUND, "cannot open the kernel repository '%s': %s",
				  path, gitlib_error());
	strbuf_addf(out, "%sobjects", git_repository_path(r));
	git_repository_free(r);
	return 0;
}

/* The Debian tree of release `rel` ("6.12") in the cache: its version
 * ("6.12.118") and lock name ("linux-source-6.12"), or false. */
static bool debian_seed(struct strbuf *version, struct strbuf *lock,
			const char *cache, const char *rel)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct dirent *e;
	bool found = false;
	DIR *d;

	strbuf_addf(&dir, "%s/work", cache);
	d = opendir(dir.buf);
	while (d && !found && (e = readdir(d))) {
		const char *v;
		size_t n = strlen(e->d_name);

		if (n <= 5 || strcmp(e->d_name + n - 5, ".base"))
			continue;
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s", dir.buf, e->d_name);
		if (strbuf_read_file(&text, path.buf, 4096) < 0 ||
		    !skip_prefix(text.buf, "version ", &v) ||
		    strncmp(v, rel, strlen(rel)) || v[strlen(rel)] != '.')
			continue;
		strbuf_add(version, v, strcspn(v, "\n"));
		strbuf_add(lock, e->d_name, n - 5);
		found = true;
	}
	if (d)
		closedir(d);
	strbuf_release(&text);
	strbuf_release(&path);
	strbuf_release(&dir);
	return found;
}

static int run_cmd(unsigned int timeout_s, ...)
{
	struct child c = CHILD_INIT;
	const char *arg;
	va_list ap;
	int ret;

	va_start(ap, timeout_s);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	ret = run_quiet(&c, timeout_s);
	child_release(&c);
	return ret;
}

/*
 * Start the worktree as a copy of the Debian tree `seed` (mtimes kept),
 * with its index and HEAD, so that ktree_checkout() writes only what
 * differs.  Under the seed's lock: no run checks it out meanwhile.
 */
static int seed_worktree(struct ktree *t, const char *seed, const char *lock,
			 struct strbuf *alternates, unsigned int lock_timeout_s)
{
	struct ktree s = KTREE_INIT;
	struct strbuf src = STRBUF_INIT, gitdir = STRBUF_INIT, path = STRBUF_INIT;
	git_oid head;
	int ret;

	s.cache_dir = xstrdup(t->cache_dir);
	if ((ret = take_lock(&s, lock, lock_timeout_s, false)) < 0)
		goto out;
	set_paths(&s, seed);
	if (open_repo(&s) < 0) {
		ret = WW_ENOTFOUND;
		goto out;
	}
	if (git_reference_name_to_id(&head, s.repo, "HEAD") < 0) {
		ret = error("cannot read HEAD of '%s': %s", s.gitdir, gitlib_error());
		goto out;
	}
	strbuf_addf(alternates, "%s/objects\n", s.gitdir);
	strbuf_addf(&path, "%s.seed", t->worktree);
	strbuf_addf(&src, "%s/index", s.gitdir);
	strbuf_addf(&gitdir, "%s/index", t->gitdir);
	if ((ret = remove_tree(path.buf)) < 0 ||
	    (ret = run_cmd(KTREE_EXTRACT_TIMEOUT_S, "cp", "-a", "--", s.worktree,
			   path.buf, NULL)) < 0 ||
	    (ret = run_cmd(60, "cp", "--", src.buf, gitdir.buf, NULL)) < 0)
		goto out;
	if (rename(path.buf, t->worktree) < 0) {
		ret = error("cannot rename '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	git_oid_cpy(&t->base, &head);	/* what the copy holds */
	t->seed_version = xstrdup(seed);
	ret = 0;
out:
	ktree_release(&s);
	strbuf_release(&path);
	strbuf_release(&src);
	strbuf_release(&gitdir);
	return ret;
}

/* "6.12.118" of `commit`'s top Makefile. */
static int commit_version(struct strbuf *out, git_repository *repo,
			  const git_oid *commit)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *b = NULL;
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (git_commit_lookup(&c, repo, commit) < 0 ||
	    git_commit_tree(&tree, c) < 0 ||
	    git_tree_entry_bypath(&e, tree, "Makefile") < 0 ||
	    git_blob_lookup(&b, repo, git_tree_entry_id(e)) < 0) {
		ret = error_code(WW_ENOTFOUND, "commit %s: no top Makefile: %s",
				 git_oid_tostr_s(commit), gitlib_error());
		goto out;
	}
	strbuf_add(&text, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
	ret = version_from_text(out, &text, "Makefile");
out:
	strbuf_release(&text);
	git_blob_free(b);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}

static bool is_commit_dir(const char *name)
{
	return strlen(name) == GIT_OID_HEXSZ &&
	       strspn(name, "0123456789abcdef") == GIT_OID_HEXSZ;
}

/* Remove one git base: worktree, repository, build directories. */
static void remove_base(const char *cache, const char *hex)
{
	struct strbuf path = STRBUF_INIT, suffix = STRBUF_INIT;
	struct dirent *e;
	DIR *d;

	strbuf_addf(&path, "%s/work/%s", cache, hex);
	remove_tree(path.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/git/base-%s.git", cache, hex);
	remove_tree(path.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/build", cache);
	strbuf_addf(&suffix, "-g%.12s-", hex);
	d = opendir(path.buf);
	while (d && (e = readdir(d))) {
		struct strbuf dir = STRBUF_INIT;

		if (!strstr(e->d_name, suffix.buf))
			continue;
		strbuf_addf(&dir, "%s/%s", path.buf, e->d_name);
		remove_tree(dir.buf);
		strbuf_release(&dir);
	}
	if (d)
		closedir(d);
	strbuf_release(&suffix);
	strbuf_release(&path);
}

/* Keep the `keep` most recently opened git bases (never `current`, nor one
 * whose lock another run holds). */
static void evict_bases(const char *cache, const char *current, unsigned int keep)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct strvec hexes = STRVEC_INIT;
	double *used = NULL;	/* when last opened (ns matter: a test opens several a second) */
	size_t alloc = 0;
	struct dirent *e;
	DIR *d;

	strbuf_addf(&dir, "%s/work", cache);
	d = opendir(dir.buf);
	while (d && (e = readdir(d))) {
		struct stat st;

		if (!is_commit_dir(e->d_name))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/git/base-%s.git/" BASE_USED, cache, e->d_name);
		ALLOC_GROW(used, hexes.nr + 1, alloc);
		used[hexes.nr] = stat(path.buf, &st) < 0 ? 0 :
				 st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
		strvec_push(&hexes, e->d_name);
	}
	if (d)
		closedir(d);
	for (size_t alive = hexes.nr; alive > keep; alive--) {
		size_t old = SIZE_MAX;
		struct ktree probe = KTREE_INIT;
		struct strbuf name = STRBUF_INIT;

		for (size_t i = 0; i < hexes.nr; i++)
			if (used[i] >= 0 && strcmp(hexes.v[i], current) &&
			    (old == SIZE_MAX || used[i] < used[old]))
				old = i;
		if (old == SIZE_MAX)
			break;
		probe.cache_dir = xstrdup(cache);
		strbuf_addf(&name, "base-%.12s", hexes.v[old]);
		if (!take_lock(&probe, name.buf, 0, false))
			remove_base(cache, hexes.v[old]);
		else
			error_clear();	/* in use: the next run tries again */
		ktree_release(&probe);
		strbuf_release(&name);
		used[old] = -1;		/* gone, or busy: not waited for */
	}
	free(used);
	strvec_clear(&hexes);
	strbuf_release(&path);
	strbuf_release(&dir);
}

/* Create git/base-<hex>.git and work/<hex>/ for `commit`. */
static int create_base(struct ktree *t, const char *objects, const git_oid *commit,
		       const char *release, unsigned int lock_timeout_s, bool progress)
{
	git_repository_init_options init;
	struct strbuf alt = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf seed = STRBUF_INIT, lock = STRBUF_INIT;
	int ret;

	if ((ret = remove_tree(t->worktree)) < 0 || (ret = remove_tree(t->gitdir)) < 0)
		goto out;
	git_repository_init_options_init(&init, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	init.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_NO_DOTGIT_DIR |
		     GIT_REPOSITORY_INIT_BARE;
	if (git_repository_init_ext(&t->repo, t->gitdir, &init) < 0) {
		ret = error("cannot create '%s': %s", t->gitdir, gitlib_error());
		goto out;
	}
	strbuf_addf(&alt, "%s\n", objects);
	if (release && debian_seed(&seed, &lock, t->cache_dir, release)) {
		if (progress)
			fprintf(stderr, "warnwatch: copying linux %s to start %.12s from it\n",
				seed.buf, git_oid_tostr_s(commit));
		ret = seed_worktree(t, seed.buf, lock.buf, &alt, lock_timeout_s);
		if (ret == WW_ENOTFOUND)
			ret = 0;	/* no usable seed after all: full checkout */
		if (ret < 0)
			goto out;
	}
	strbuf_addf(&path, "%s/objects/info/alternates", t->gitdir);
	if (strbuf_write_file(&alt, path.buf) < 0) {
		ret = error("cannot write '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	if (mkdirs(t->worktree, 0755, WW_ERROR) < 0) {
		ret = -1;
		goto out;
	}
	/* Reopen: the alternates are read when the repository is opened. */
	git_repository_free(t->repo);
	t->repo = NULL;
	if (git_repository_open_bare(&t->repo, t->gitdir) < 0 ||
	    git_repository_set_workdir(t->repo, t->worktree, 0) < 0 ||
	    (t->seed_version &&
	     git_repository_set_head_detached(t->repo, &t->base) < 0)) {
		ret = error("cannot open '%s': %s", t->gitdir, gitlib_error());
		goto out;
	}
	ret = ktree_checkout(t, commit);
out:
	strbuf_release(&lock);
	strbuf_release(&seed);
	strbuf_release(&path);
	strbuf_release(&alt);
	return ret;
}

int ktree_open_git(struct ktree *out, const struct ktree_opts *opts,
		   const git_oid *commit)
{
	struct strbuf objects = STRBUF_INIT, sb = STRBUF_INIT, ver = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_repository *op = NULL;
	unsigned int lock_timeout = opts->lock_timeout_s ? opts->lock_timeout_s :
				    KTREE_DEFAULT_LOCK_TIMEOUT_S;
	int ret;

	*out = (struct ktree)KTREE_INIT;
	gitlib_init();
	git_oid_tostr(hex, sizeof(hex), commit);
	if ((ret = operator_objects(&objects, opts->repo)) < 0 ||
	    (ret = resolve_cache(out, opts->cache_dir)) < 0)
		goto fail;
	out->tarball = xstrdup(opts->repo);
	strbuf_addf(&sb, "base-%.12s", hex);
	if ((ret = take_lock(out, sb.buf, lock_timeout, opts->progress)) < 0)
		goto fail;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/work/%s", out->cache_dir, hex);
	out->worktree = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%s/git/base-%s.git", out->cache_dir, hex);
	out->gitdir = strbuf_detach(&sb, NULL);
	if (git_repository_open_ext(&op, opts->repo, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL) < 0 ||
	    (ret = commit_version(&ver, op, commit)) < 0) {
		ret = ret < 0 ? ret : error("cannot open '%s': %s", opts->repo,
					    gitlib_error());
		goto fail;
	}
	strbuf_addf(&sb, "%s-g%.12s", ver.buf, hex);
	out->version = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "%.12s", hex);
	out->tag = strbuf_detach(&sb, NULL);
	if (!git_repository_open_bare(&out->repo, out->gitdir) &&
	    !git_repository_set_workdir(out->repo, out->worktree, 0) &&
	    access(out->worktree, F_OK) == 0) {
		git_oid head;

		/* Made before: checked out unless interrupted; redo if not. */
		if (git_reference_name_to_id(&head, out->repo, "HEAD") < 0 &&
		    (ret = ktree_checkout(out, commit)) < 0)
			goto fail;
	} else {
		char *dot = strchr(ver.buf, '.');

		git_error_clear();
		if (out->repo)
			git_repository_free(out->repo);
		out->repo = NULL;
		/* The release: "6.12" of "6.12.118". */
		if (dot)
			strbuf_setlen(&ver, dot - ver.buf + 1 + strspn(dot + 1, "0123456789"));
		ret = create_base(out, objects.buf, commit, dot ? ver.buf : NULL,
				  lock_timeout, opts->progress);
		if (ret < 0)
			goto fail;
	}
	git_oid_cpy(&out->base, commit);
	strbuf_addf(&sb, "%s/" BASE_USED, out->gitdir);
	strbuf_write_file(&sb, sb.buf);	/* its mtime: when last used */
	evict_bases(out->cache_dir, hex, opts->keep_bases ? opts->keep_bases :
		    KTREE_KEEP_BASES);
	ret = 0;
	goto out;
fail:
	ktree_release(out);
out:
	if (op)
		git_repository_free(op);
	strbuf_release(&ver);
	strbuf_release(&sb);
	strbuf_release(&objects);
	return ret;
}
