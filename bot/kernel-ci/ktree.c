/*
 * The base kernel tree: extract Debian's linux-source tarball once, import
 * it into git with libgit2, and hand out a locked, checked-out tree.  The
 * cache layout is described in ktree.h.
 */
#include "ktree.h"
#include "mkdirs.h"
#include "gitlib.h"
#include "child.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Makefile lines we look at: VERSION etc. are in the first few. */
#define MAKEFILE_HEAD_CAP (64u << 10)

void ktree_cache_dir(struct strbuf *out, const char *option)
{
	const char *env = getenv("WARNWATCH_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (option && *option)
		strbuf_addstr(out, option);
	else if (env && *env)
		strbuf_addstr(out, env);
	else if (xdg && *xdg)
		strbuf_addf(out, "%s/warnwatch", xdg);
	else
		strbuf_addf(out, "%s/.cache/warnwatch",
			    home && *home ? home : "/tmp");
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

int ktree_read_version(struct strbuf *out, const char *makefile)
{
	struct strbuf text = STRBUF_INIT, val = STRBUF_INIT;
	char *part[4] = { NULL, NULL, NULL, NULL };
	static const char *const keys[] = {
		"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"
	};
	char *line, *next;
	int ret = -1;

	if (strbuf_read_file(&text, makefile, MAKEFILE_HEAD_CAP) < 0 &&
	    !text.len) {
		ret = error_code(WW_ENOTFOUND, "cannot read '%s': %s",
				 makefile, strerror(errno));
		goto out;
	}
	for (line = text.buf; line && *line; line = next) {
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
	strbuf_release(&text);
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
	const char *env = getenv("WARNWATCH_BASE_TARBALL");
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
	*t = (struct ktree)KTREE_INIT;
}
