/*
 * Static kselftest binaries from the patched tree, built in the sandbox
 * and cached by what the build reads (kselftest.h).
 */
#include "kselftest.h"
#include "bwrap.h"
#include "child.h"
#include "gitlib.h"
#include "kbuild.h"
#include "mkdirs.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#define SELFTESTS "tools/testing/selftests"
/* Bounds on what the hash walks: a selftest directory is small. */
#define HASH_MAX_FILES 20000
#define HASH_MAX_DEPTH 12
#define HASH_MAX_FILE (64u << 20)
/* Changing how targets are built changes every key. */
#define BUILD_RECIPE "v3 make -k install LDFLAGS=-static, writable target dir"

enum build_state { STATE_COMPLETE, STATE_PARTIAL, STATE_TIMEOUT };
static const char *const state_names[] = { "complete", "partial", "timeout" };

static void blob_hex(struct strbuf *out, const void *buf, size_t len)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	gitlib_init();
	if (git_odb_hash(&oid, buf, len, GIT_OBJECT_BLOB) < 0)
		BUG("git_odb_hash failed");
	git_oid_tostr(hex, sizeof(hex), &oid);
	strbuf_addstr(out, hex);
}

/* "rel\0<blob hash>\n" for one path (file, symlink or absent) */
static int add_path(struct strbuf *manifest, const char *top, const char *rel)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	strbuf_addf(&path, "%s/%s", top, rel);
	strbuf_addstr(manifest, rel);
	strbuf_addch(manifest, '\0');
	if (lstat(path.buf, &st) < 0) {
		strbuf_addstr(manifest, "absent");
	} else if (S_ISLNK(st.st_mode)) {
		char link[4096];
		ssize_t n = readlink(path.buf, link, sizeof(link));

		if (n < 0) {
			ret = error("cannot read link '%s': %s", path.buf,
				    strerror(errno));
			goto out;
		}
		strbuf_addstr(manifest, "link ");
		blob_hex(manifest, link, (size_t)n);
	} else if (S_ISREG(st.st_mode)) {
		if (strbuf_read_file(&data, path.buf, HASH_MAX_FILE) < 0) {
			ret = error("cannot read '%s': %s", path.buf,
				    strerror(errno));
			goto out;
		}
		strbuf_addstr(manifest, (st.st_mode & S_IXUSR) ? "x " : "f ");
		blob_hex(manifest, data.buf, data.len);
	} else {
		strbuf_addstr(manifest, "other");
	}
out:
	strbuf_addch(manifest, '\n');
	strbuf_release(&data);
	strbuf_release(&path);
	return ret;
}

/* Every file under top/rel, sorted, recursively (or only the plain files
 * directly in it when !deep). */
static int add_dir(struct strbuf *manifest, const char *top, const char *rel,
		   bool deep, int depth, size_t *files)
{
	struct strbuf path = STRBUF_INIT, sub = STRBUF_INIT;
	struct dirent **ents = NULL;
	int n, ret = 0;

	if (depth > HASH_MAX_DEPTH)
		return error("'%s/%s' is nested too deep", top, rel);
	strbuf_addf(&path, "%s/%s", top, rel);
	n = scandir(path.buf, &ents, NULL, alphasort);
	if (n < 0) {
		ret = error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				 "cannot read directory '%s': %s", path.buf,
				 strerror(errno));
		goto out;
	}
	for (int i = 0; i < n && !ret; i++) {
		const char *name = ents[i]->d_name;
		struct stat st;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (++*files > HASH_MAX_FILES) {
			ret = error("more than %d files under '%s'",
				    HASH_MAX_FILES, path.buf);
			break;
		}
		strbuf_reset(&sub);
		strbuf_addf(&sub, "%s/%s", rel, name);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", top, sub.buf);
		if (lstat(path.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (deep)
				ret = add_dir(manifest, top, sub.buf, true,
					      depth + 1, files);
		} else {
			ret = add_path(manifest, top, sub.buf);
		}
	}
out:
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	strbuf_release(&sub);
	strbuf_release(&path);
	return ret;
}

/* Paths whose change can change a selftest binary. */
static bool build_input(const char *path)
{
	return starts_with(path, "tools/") ||
	       starts_with(path, "include/uapi/") ||
	       starts_with(path, "arch/x86/include/uapi/");
}

static bool plain_relative(const char *p)
{
	if (!*p || *p == '/' || strstr(p, "//") || ends_with(p, "/"))
		return false;
	for (const char *s = p; *s; s++)
		if (!(isalnum((unsigned char)*s) || strchr("._-/", *s)))
			return false;
	return strcmp(p, "..") && !starts_with(p, "../") &&
	       !strstr(p, "/../") && !ends_with(p, "/..");
}

int kselftest_hash(struct strbuf *out, const char *worktree,
		   const char *target, const char *base,
		   const struct strvec *touched)
{
	struct strbuf manifest = STRBUF_INIT, rel = STRBUF_INIT;
	size_t files = 0;
	int ret;

	if (!plain_relative(target))
		return error_code(WW_EINPUT, "bad kselftest target '%s'",
				  target);
	strbuf_addf(&manifest, "%s\nbase %s\ntarget %s\n", BUILD_RECIPE,
		    base ? base : "", target);
	strbuf_addf(&rel, SELFTESTS "/%s", target);
	ret = add_dir(&manifest, worktree, rel.buf, true, 0, &files);
	if (ret == WW_ENOTFOUND) {
		error_clear();
		ret = error_code(WW_ENOTFOUND,
				 "the tree has no kselftest target '%s'",
				 target);
	}
	if (ret < 0)
		goto out;
	ret = add_dir(&manifest, worktree, SELFTESTS, false, 0, &files);
	if (!ret)
		ret = add_dir(&manifest, worktree, SELFTESTS "/kselftest",
			      true, 0, &files);
	for (size_t i = 0; !ret && touched && i < touched->nr; i++)
		if (build_input(touched->v[i]))
			ret = add_path(&manifest, worktree, touched->v[i]);
	if (ret < 0)
		goto out;
	strbuf_reset(&rel);
	blob_hex(&rel, manifest.buf, manifest.len);
	strbuf_add(out, rel.buf, 12);
out:
	strbuf_release(&rel);
	strbuf_release(&manifest);
	return ret;
}

static char *path_join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", dir, name);
	return strbuf_detach(&sb, NULL);
}

/* A directory itself, not a symlink to one (the sandbox made it). */
static bool is_real_dir(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

static int rm_rf(const char *path)
{
	struct child c = CHILD_INIT;
	int ret;

	strvec_pushl(&c.args, "rm", "-rf", "--", path, NULL);
	c.timeout_ms = 120 * 1000;
	ret = child_run_ok(&c);
	child_release(&c);
	return ret;
}

static unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	struct strbuf data = STRBUF_INIT;
	int fd = -1, ret = -1;

	if (strbuf_read_file(&data, from, HASH_MAX_FILE) < 0) {
		ret = error("cannot read '%s': %s", from, strerror(errno));
		goto out;
	}
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, data.buf, data.len) != (ssize_t)data.len) {
		ret = error("cannot write '%s': %s", to, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0 && close(fd) < 0 && !ret)
		ret = error("cannot write '%s': %s", to, strerror(errno));
	strbuf_release(&data);
	return ret;
}

/*
 * make install did not finish: install what did build (the executables
 * make left in build/kselftest/<target>/) and list them in
 * kselftest-list.txt the way make's emit_tests would.
 */
static int install_partial(const char *tmp, const char *target)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	struct strbuf list = STRBUF_INIT;
	struct dirent **ents = NULL;
	int n = 0, ret;

	strbuf_addf(&to, "%s/install/%s", tmp, target);
	ret = mkdirs(to.buf, 0755, WW_ERROR);
	if (ret < 0)
		goto out;
	strbuf_reset(&from);
	strbuf_addf(&from, "%s/build/kselftest/%s", tmp, target);
	n = scandir(from.buf, &ents, NULL, alphasort);
	for (int i = 0; i < n && !ret; i++) {
		const char *name = ents[i]->d_name;
		struct stat st;

		strbuf_reset(&from);
		strbuf_addf(&from, "%s/build/kselftest/%s/%s", tmp, target,
			    name);
		if (name[0] == '.' || lstat(from.buf, &st) < 0 ||
		    !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR))
			continue;
		strbuf_reset(&to);
		strbuf_addf(&to, "%s/install/%s/%s", tmp, target, name);
		ret = copy_file(from.buf, to.buf, 0755);
		strbuf_addf(&list, "%s:%s\n", target, name);
	}
	if (ret < 0)
		goto out;
	strbuf_reset(&to);
	strbuf_addf(&to, "%s/install/kselftest-list.txt", tmp);
	if (strbuf_write_file(&list, to.buf) < 0)
		ret = error("cannot write '%s': %s", to.buf, strerror(errno));
out:
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	strbuf_release(&list);
	strbuf_release(&to);
	strbuf_release(&from);
	return ret;
}

/*
 * A writable copy of the target's directory, mounted over it in the
 * sandbox: 6.12's mm Makefile runs check_config.sh, which writes
 * local_config.h and local_config.mk next to it; with the directory
 * read-only nothing but two binaries builds.  Pushes the bind pair.
 */
static int writable_copy(struct strvec *binds, const char *worktree,
			 const char *tmp, const char *target)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret;

	strbuf_addf(&from, "%s/" SELFTESTS "/%s/.", worktree, target);
	strbuf_addf(&to, "%s/build/.src/%s", tmp, target);
	ret = mkdirs(to.buf, 0755, WW_ERROR);
	if (ret < 0)
		goto out;
	strvec_pushl(&c.args, "cp", "-a", "--", from.buf, to.buf, NULL);
	c.timeout_ms = 120 * 1000;
	ret = child_run_ok(&c);
	if (ret < 0)
		goto out;
	strvec_push(binds, to.buf);
	strvec_pushf(binds, BWRAP_SRC "/" SELFTESTS "/%s", target);
out:
	child_release(&c);
	strbuf_release(&to);
	strbuf_release(&from);
	return ret;
}

static int run_make(struct child *c, const char *worktree, const char *tmp,
		    const char *target, const struct kselftest_opts *o)
{
	struct bwrap_opts bo = BWRAP_OPTS_INIT;
	struct strbuf build = STRBUF_INIT;
	struct strvec binds = STRVEC_INIT;
	int ret;

	strbuf_addf(&build, "%s/build/.tmp", tmp);
	ret = mkdirs(build.buf, 0755, WW_ERROR);
	if (!ret)
		ret = writable_copy(&binds, worktree, tmp, target);
	if (ret < 0)
		goto out;
	strbuf_setlen(&build, build.len - strlen("/.tmp"));
	bo.src = worktree;
	bo.build = build.buf;
	bo.binds = &binds;
	bo.mem_mb = o->mem_mb ? o->mem_mb : KSELFTEST_DEFAULT_MEM_MB;
	bwrap_argv(&c->args, &bo);
	/* -k: one binary that does not build must not stop the others */
	strvec_pushl(&c->args, "make", "-k", "-C", BWRAP_SRC "/" SELFTESTS,
		     "O=" BWRAP_BUILD, "LDFLAGS=-static",
		     "KSFT_INSTALL_PATH=" BWRAP_BUILD "/install", NULL);
	strvec_pushf(&c->args, "TARGETS=%s", target);
	strvec_pushf(&c->args, "-j%u", o->jobs ? o->jobs : online_cpus());
	strvec_push(&c->args, "install");
	bwrap_env(&c->env, false);
	c->flags = CHILD_CLEAN_ENV | CHILD_STDERR_TO_OUT;
	c->timeout_ms = (o->timeout_s ? o->timeout_s
				      : KSELFTEST_DEFAULT_TIMEOUT_S) * 1000;
	ret = child_run(c);
	if (ret == WW_ETIMEOUT) {
		error_clear();
		ret = 0;
	} else if (ret < 0) {
		ret = error_prefix(WW_ECHILD, "cannot run the selftest build");
	} else if (bwrap_failed(c)) {
		ret = child_error(c, "the build sandbox failed");
	}
out:
	strvec_clear(&binds);
	strbuf_release(&build);
	return ret;
}

/* The lines from the first "/usr/bin/ld: " up to collect2's verdict:
 * what a link error says (kbuild_first_error() quotes only the last). */
static void link_error(struct strbuf *out, const char *log)
{
	const char *from = strstr(log, "\n/usr/bin/ld: ");
	const char *to = strstr(log, "\ncollect2: error");

	if (!from || !to || to < from)
		return;
	from++;
	for (int lines = 0; from < to && lines < 4; lines++) {
		const char *nl = strchr(from, '\n');

		strbuf_add(out, from, (size_t)(nl - from + 1));
		from = nl + 1;
	}
	strbuf_rtrim(out);
}

/* "make[1]: *** [../lib.mk:155: /ww/build/kselftest/timers/x] Error 1":
 * the binaries that did not build, as "timers/x", into `out`. */
static void failed_binaries(struct strbuf *out, const char *log)
{
	const char *key = ": " BWRAP_BUILD "/kselftest/";
	int n = 0;

	for (const char *p = log; (p = strstr(p, key)) && n < 8; ) {
		const char *name = p + strlen(key), *end = strchr(name, ']');
		const char *nl = strchr(name, '\n');

		p = name;
		if (!end || (nl && nl < end) || !strstr(end, "] Error"))
			continue;
		strbuf_addstr(out, n++ ? ", " : "");
		strbuf_add(out, name, (size_t)(end - name));
	}
}

static void build_error(struct strbuf *out, const struct strbuf *log)
{
	struct strbuf quote = STRBUF_INIT, names = STRBUF_INIT;

	kbuild_first_error(&quote, log->buf, log->len);
	if (starts_with(quote.buf, "collect2:")) {
		strbuf_reset(&quote);
		link_error(&quote, log->buf);
	}
	failed_binaries(&names, log->buf);
	if (names.len)
		strbuf_addf(out, "did not build: %s\n", names.buf);
	strbuf_addbuf(out, &quote);
	strbuf_rtrim(out);
	strbuf_release(&names);
	strbuf_release(&quote);
}

/* Build `t` into `tmp` (which ends up as the cache entry). */
static int build_into(struct kselftest_target *t, const char *worktree,
		      const char *tmp, const struct kselftest_opts *o)
{
	struct child c = CHILD_INIT;
	struct strbuf p = STRBUF_INIT, q = STRBUF_INIT, status = STRBUF_INIT;
	enum build_state state;
	double start = monotonic_now();
	int ret;

	ret = run_make(&c, worktree, tmp, t->target, o);
	if (ret < 0)
		goto out;
	strbuf_addf(&p, "%s/build.log", tmp);
	if (strbuf_write_file(&c.out, p.buf) < 0) {
		ret = error("cannot write '%s': %s", p.buf, strerror(errno));
		goto out;
	}
	if (c.timed_out) {
		state = STATE_TIMEOUT;
		strbuf_addf(&t->error, "the build of kselftest target '%s' took longer than %u s",
			    t->target, c.timeout_ms / 1000);
	} else if (c.status) {
		state = STATE_PARTIAL;
		build_error(&t->error, &c.out);
		if (!t->error.len)
			strbuf_addf(&t->error, "make exited with status %d",
				    c.status);
	} else {
		state = STATE_COMPLETE;
	}
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/build/install", tmp);
	strbuf_addf(&q, "%s/install", tmp);
	/* make's install/ is the sandbox's: a directory, not a link out. */
	if (state == STATE_COMPLETE && !is_real_dir(p.buf)) {
		state = STATE_PARTIAL;
		strbuf_addstr(&t->error, "make install left no install directory");
	}
	if (state == STATE_COMPLETE) {
		if (rename(p.buf, q.buf) < 0) {
			ret = error("cannot rename '%s': %s", p.buf,
				    strerror(errno));
			goto out;
		}
	} else {
		ret = install_partial(tmp, t->target);
		if (ret < 0)
			goto out;
	}
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/build", tmp);
	ret = rm_rf(p.buf);
	if (ret < 0)
		goto out;
	strbuf_addf(&status, "%s\n%s\n", state_names[state], t->error.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/status", tmp);
	if (strbuf_write_file(&status, p.buf) < 0)
		ret = error("cannot write '%s': %s", p.buf, strerror(errno));
	t->complete = state == STATE_COMPLETE;
	t->seconds = monotonic_now() - start;
out:
	strbuf_release(&status);
	strbuf_release(&q);
	strbuf_release(&p);
	child_release(&c);
	return ret;
}

/* Read a cache entry's status; false when there is none worth using. */
static bool read_status(struct kselftest_target *t, const char *dir)
{
	struct strbuf p = STRBUF_INIT, s = STRBUF_INIT;
	bool usable = false;
	char *nl;

	strbuf_addf(&p, "%s/status", dir);
	if (strbuf_read_file(&s, p.buf, 1u << 16) < 0)
		goto out;
	nl = strchr(s.buf, '\n');
	if (!nl)
		goto out;
	*nl = '\0';
	if (!strcmp(s.buf, state_names[STATE_TIMEOUT]))
		goto out;
	t->complete = !strcmp(s.buf, state_names[STATE_COMPLETE]);
	strbuf_reset(&t->error);
	strbuf_addstr(&t->error, nl + 1);
	strbuf_rtrim(&t->error);
	usable = true;
out:
	strbuf_release(&s);
	strbuf_release(&p);
	return usable;
}

static int one_target(struct kselftest_target *t, const char *worktree,
		      const char *top, const struct kselftest_opts *o)
{
	struct strbuf dir = STRBUF_INIT, tmp = STRBUF_INIT;
	int ret;

	ret = kselftest_hash(&dir, worktree, t->target, o->base, o->touched);
	if (ret < 0)
		goto out;
	t->hash = xstrdup(dir.buf);
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/", top);
	for (const char *s = t->target; *s; s++)
		strbuf_addch(&dir, *s == '/' ? '-' : *s);
	strbuf_addf(&dir, "-%s", t->hash);
	if (read_status(t, dir.buf)) {
		t->cached = true;
	} else {
		strbuf_addf(&tmp, "%s.tmp-%ld", dir.buf, (long)getpid());
		ret = rm_rf(tmp.buf);
		if (!ret)
			ret = build_into(t, worktree, tmp.buf, o);
		if (!ret)
			ret = rm_rf(dir.buf);	/* a timed-out entry */
		if (!ret && rename(tmp.buf, dir.buf) < 0) {
			/* Another run finished the same build first. */
			if (errno != EEXIST && errno != ENOTEMPTY)
				ret = error("cannot rename '%s': %s", tmp.buf,
					    strerror(errno));
			else
				ret = rm_rf(tmp.buf);
		}
		if (ret < 0) {
			rm_rf(tmp.buf);
			goto out;
		}
	}
	t->install_dir = path_join(dir.buf, "install");
	t->log_path = path_join(dir.buf, "build.log");
out:
	strbuf_release(&tmp);
	strbuf_release(&dir);
	return ret;
}

int kselftest_build(struct kselftest_result *out, const char *worktree,
		    const struct strvec *targets,
		    const struct kselftest_opts *o)
{
	struct strbuf top = STRBUF_INIT;
	double start = monotonic_now();
	int ret = 0;

	strbuf_addf(&top, "%s/kselftest/%s", o->cache_dir,
		    o->base ? o->base : "unknown");
	if (targets->nr)
		ret = mkdirs(top.buf, 0755, WW_ERROR);
	for (size_t i = 0; !ret && i < targets->nr; i++) {
		struct kselftest_target *t;

		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		t = &out->v[out->nr++];
		memset(t, 0, sizeof(*t));
		strbuf_init(&t->error, 0);
		t->target = xstrdup(targets->v[i]);
		ret = one_target(t, worktree, top.buf, o);
		if (ret < 0)
			ret = error_prefix(ret, "kselftest target '%s'",
					   t->target);
	}
	out->seconds = monotonic_now() - start;
	strbuf_release(&top);
	return ret;
}

void kselftest_result_release(struct kselftest_result *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		struct kselftest_target *t = &r->v[i];

		free(t->target);
		free(t->hash);
		free(t->install_dir);
		free(t->log_path);
		strbuf_release(&t->error);
	}
	free(r->v);
	r->v = NULL;
	r->nr = r->alloc = 0;
	r->seconds = 0;
}
