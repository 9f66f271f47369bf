/*
 * Building the kernel: the config (base.config + the suites near the
 * series, checked after olddefconfig), the build directory per config,
 * and make inside a bubblewrap sandbox with ccache.  See kbuild.h for the
 * sandbox and the directory scheme.
 */
#include "kbuild.h"
#include "bwrap.h"
#include "datadir.h"
#include "mkdirs.h"
#include "gitlib.h"
#include "child.h"
#include "kconfig.h"
#include "safefs.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BUILD_LOG "warnwatch-build.log"
#define CONFIG_STAMP "warnwatch-config"	/* the fragment last configured */
#define TREE_STAMP "warnwatch-tree"	/* the commit last configured */
#define ERROR_CONTEXT_LINES 3
#define COPY_TIMEOUT_S (10 * 60)

static bool file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

void kbuild_config_dir(struct strbuf *out)
{
	char buf[PATH_MAX];

	/* $WARNWATCH_KERNEL_CI, a checkout's kernel-ci/, the installed one. */
	strbuf_addstr(out, datadir_find(buf, sizeof(buf), "kernel-ci",
					ENV_WARNWATCH_KERNEL_CI, NULL));
}

/* ---- first error ---- */

static bool is_compiler_error(const char *line)
{
	return strstr(line, ": error: ") || strstr(line, ": fatal error: ");
}

static bool is_link_error(const char *line)
{
	return strstr(line, "undefined reference to") ||
	       (strstr(line, "ld: ") && (strstr(line, "error") ||
					 strstr(line, "multiple definition"))) ||
	       strstr(line, "Unexpected file size") ||
	       strstr(line, "Unsupported relocation") ||
	       starts_with(line, "objtool: ") ||
	       (strstr(line, ": warning: objtool:") && strstr(line, "error"));
}

/* /ww/src/kernel/x.c -> kernel/x.c: name files as the user knows them. */
static void add_unsandboxed(struct strbuf *out, const char *line, size_t len)
{
	/* make prints the source tree as "../src" when O= is its sibling. */
	static const char *const prefixes[] = {
		KBUILD_SRC "/", KBUILD_OBJ "/", "../src/"
	};
	size_t i = 0;

	while (i < len) {
		bool hit = false;

		for (size_t k = 0; k < ARRAY_SIZE(prefixes); k++) {
			size_t n = strlen(prefixes[k]);

			if (len - i >= n && !memcmp(line + i, prefixes[k], n)) {
				i += n;
				hit = true;
				break;
			}
		}
		if (!hit)
			strbuf_addch(out, line[i++]);
	}
}

struct line {
	const char *p;
	size_t len;
};

static size_t split_lines(struct line **out, const char *log, size_t len)
{
	struct line *v = NULL;
	size_t nr = 0, alloc = 0;

	for (const char *p = log, *end = log + len; p < end; ) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		ALLOC_GROW(v, nr + 1, alloc);
		v[nr].p = p;
		v[nr].len = n;
		nr++;
		p += n + 1;
	}
	*out = v;
	return nr;
}

static bool line_is(const struct line *l, bool (*pred)(const char *))
{
	char buf[1024];
	size_t n = l->len < sizeof(buf) - 1 ? l->len : sizeof(buf) - 1;

	memcpy(buf, l->p, n);
	buf[n] = '\0';
	return pred(buf);
}

static bool is_make_error(const char *line)
{
	return starts_with(line, "make") && strstr(line, "***");
}

void kbuild_first_error(struct strbuf *out, const char *log, size_t len)
{
	struct line *v;
	size_t nr = split_lines(&v, log, len), at = nr, from, to;

	for (size_t i = 0; i < nr && at == nr; i++)
		if (line_is(&v[i], is_compiler_error))
			at = i;
	for (size_t i = 0; i < nr && at == nr; i++)
		if (line_is(&v[i], is_link_error))
			at = i;
	if (at == nr) {
		/* Nothing recognised: the line before make's first "***". */
		for (size_t i = 0; i < nr && at == nr; i++)
			if (line_is(&v[i], is_make_error))
				at = i ? i - 1 : i;
	}
	if (at == nr)
		goto out;
	from = at;
	/* gcc's "file: In function 'foo':" just before belongs to it. */
	if (from && memmem(v[from - 1].p, v[from - 1].len, ": In function", 13))
		from--;
	to = at + 1;
	/* The quoted source line and caret: "   55 | ...", "      |  ^~~". */
	while (to < nr && to - at <= ERROR_CONTEXT_LINES && v[to].len &&
	       (v[to].p[0] == ' ') &&
	       memchr(v[to].p, '|', v[to].len))
		to++;
	for (size_t i = from; i < to; i++) {
		add_unsandboxed(out, v[i].p, v[i].len);
		strbuf_addch(out, '\n');
	}
	strbuf_rtrim(out);
out:
	free(v);
}

/* ---- sandbox ---- */

struct sandbox {
	const char *worktree;
	const char *build_dir;
	const char *ccache_dir;
	unsigned int jobs;
	unsigned int mem_mb;
};

/* The kernel build's sandbox is the shared one (bwrap.h), with ccache. */
static void sandbox_argv(struct strvec *args, const struct sandbox *sb)
{
	struct bwrap_opts o = BWRAP_OPTS_INIT;

	o.src = sb->worktree;
	o.build = sb->build_dir;
	o.ccache = sb->ccache_dir;
	o.mem_mb = sb->mem_mb;
	bwrap_argv(args, &o);
}

struct progress {
	bool on;
	const char *stage;
	double start, last;
	struct strbuf partial;	/* an unfinished line of make's output */
	struct strbuf current;	/* "CC kernel/time/timer.o" */
};

static void progress_show(struct progress *p, bool force)
{
	double t = monotonic_now();
	int secs = (int)(t - p->start);

	if (!p->on || (!force && t - p->last < 0.25))
		return;
	p->last = t;
	fprintf(stderr, "\rwarnwatch: %s %d:%02d %.60s\033[K", p->stage,
		secs / 60, secs % 60, p->current.buf);
	fflush(stderr);
}

static void progress_feed(void *data, const char *buf, size_t len)
{
	struct progress *p = data;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			if (p->partial.len < 512)
				strbuf_addch(&p->partial, buf[i]);
			continue;
		}
		/* kbuild's quiet lines: "  CC      kernel/time/timer.o" */
		if (p->partial.len > 2 && !strncmp(p->partial.buf, "  ", 2) &&
		    p->partial.buf[2] != ' ') {
			strbuf_reset(&p->current);
			add_unsandboxed(&p->current, p->partial.buf + 2,
					p->partial.len - 2);
		}
		strbuf_reset(&p->partial);
	}
	progress_show(p, false);
}

static void progress_done(struct progress *p)
{
	if (p->on)
		fprintf(stderr, "\r\033[K");
	p->on = false;
	strbuf_release(&p->partial);
	strbuf_release(&p->current);
}

/* A hint when a failure looks like the sandbox at work. */
static void sandbox_hint(struct strbuf *out, const struct strbuf *log)
{
	if (strstr(log->buf, "Read-only file system"))
		strbuf_addstr(out, "\n(the build runs in a sandbox: only the build directory is writable)");
	else if (strstr(log->buf, "Network is unreachable") ||
		 strstr(log->buf, "Connection refused") ||
		 strstr(log->buf, "Temporary failure in name resolution"))
		strbuf_addstr(out, "\n(the build runs in a sandbox without network)");
}

/*
 * The x86 boot decompressor #includes some lib/ files (kaslr.c includes
 * lib/cmdline.c): a WARN/BUG added there puts a __bug_table into it and
 * the image size check fails.  Name the file when the series touched one.
 */
static void decompressor_hint(struct strbuf *out, const char *worktree,
			      const struct strvec *touched)
{
	static const char *const includers[] = {
		"arch/x86/boot/compressed/kaslr.c",
		"arch/x86/boot/compressed/misc.c",
		"arch/x86/boot/compressed/cmdline.c",
		"arch/x86/boot/compressed/string.c",
		"arch/x86/boot/compressed/error.c",
	};
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;

	for (size_t i = 0; touched && i < touched->nr; i++) {
		const char *f = touched->v[i];

		for (size_t k = 0; k < ARRAY_SIZE(includers); k++) {
			const char *p;

			strbuf_reset(&path);
			strbuf_reset(&text);
			strbuf_addf(&path, "%s/%s", worktree, includers[k]);
			if (strbuf_read_file(&text, path.buf, 1u << 20) < 0)
				continue;
			for (p = text.buf; (p = strstr(p, "#include \"")); p++) {
				const char *q = p + strlen("#include \"");
				const char *end = strchr(q, '"');
				size_t n = strlen(f);

				if (end && (size_t)(end - q) >= n &&
				    !strncmp(end - n, f, n) &&
				    (end - n == q || end[-(long)n - 1] == '/')) {
					strbuf_addf(out,
						    "\n(%s is also compiled into the x86 boot decompressor by %s: a BUG/WARN added there breaks the bzImage)",
						    f, includers[k]);
					goto out;
				}
			}
		}
	}
out:
	strbuf_release(&text);
	strbuf_release(&path);
}

/* Run make TARGET in the sandbox; output into `log`. */
static int sandbox_make(struct child *c, const struct sandbox *sb,
			const char *target, unsigned int timeout_s,
			struct progress *prog)
{
	sandbox_argv(&c->args, sb);
	strvec_pushl(&c->args, "make", "-C", KBUILD_SRC, "O=" KBUILD_OBJ,
		     "ARCH=" KBUILD_ARCH, NULL);
	strvec_pushf(&c->args, "-j%u", sb->jobs);
	strvec_push(&c->args, target);
	bwrap_env(&c->env, true);
	c->flags = CHILD_CLEAN_ENV | CHILD_STDERR_TO_OUT;
	c->timeout_ms = timeout_s * 1000;
	if (prog && prog->on) {
		c->on_stdout = progress_feed;
		c->data = prog;
	}
	return child_run(c);
}

static int write_log(const char *build_dir, const struct strbuf *log,
		     char **path_out)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/" BUILD_LOG, build_dir);
	if (strbuf_write_file(log, path.buf) < 0) {
		int ret = error("cannot write '%s': %s", path.buf,
				strerror(errno));

		strbuf_release(&path);
		return ret;
	}
	free(*path_out);
	*path_out = strbuf_detach(&path, NULL);
	return 0;
}

/* ---- config ---- */

/* Did the tree's Kconfig files change between `from` and `to`? */
static bool kconfig_changed(struct ktree *t, const char *from_hex,
			    const git_oid *to)
{
	git_oid from;
	git_commit *a = NULL, *b = NULL;
	git_tree *ta = NULL, *tb = NULL;
	git_diff *diff = NULL;
	git_diff_options o;
	char *spec[] = { "Kconfig*", "*/Kconfig*" };
	bool changed = true;

	if (git_oid_fromstrn(&from, from_hex, strlen(from_hex)) < 0)
		return true;
	if (git_oid_equal(&from, to))
		return false;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.pathspec.strings = spec;
	o.pathspec.count = ARRAY_SIZE(spec);
	if (!git_commit_lookup(&a, t->repo, &from) &&
	    !git_commit_lookup(&b, t->repo, to) &&
	    !git_commit_tree(&ta, a) && !git_commit_tree(&tb, b) &&
	    !git_diff_tree_to_tree(&diff, t->repo, ta, tb, &o))
		changed = git_diff_num_deltas(diff) > 0;
	git_error_clear();
	git_diff_free(diff);
	git_tree_free(ta);
	git_tree_free(tb);
	git_commit_free(a);
	git_commit_free(b);
	return changed;
}

static int head_commit(git_oid *out, struct ktree *t)
{
	if (git_reference_name_to_id(out, t->repo, "HEAD") < 0)
		return error("cannot read HEAD of '%s': %s", t->gitdir,
			     gitlib_error());
	return 0;
}

/*
 * Write the fragment as O=/.config and run olddefconfig, unless this
 * directory was configured with the same fragment on a tree whose
 * Kconfig files are the same.
 */
static int configure(struct kbuild_result *out, struct ktree *t,
		     const struct sandbox *sb, const struct kconfig_frag *frag,
		     unsigned int timeout_s, struct progress *prog)
{
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf tree = STRBUF_INIT;	/* the commit last configured */
	struct child c = CHILD_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid head;
	int ret;

	if ((ret = head_commit(&head, t)) < 0)
		goto out;
	git_oid_tostr(hex, sizeof(hex), &head);
	kconfig_frag_format(&text, frag);
	if (safefs_read(&old, sb->build_dir, CONFIG_STAMP, 1u << 20,
			SAFEFS_NO_SYMLINKS) < 0 ||
	    safefs_read(&tree, sb->build_dir, TREE_STAMP, 128,
			SAFEFS_NO_SYMLINKS) < 0)
		error_clear();	/* not configured yet: configure */
	strbuf_trim(&tree);
	strbuf_addf(&path, "%s/.config", sb->build_dir);
	if (safefs_is_regular(sb->build_dir, ".config", SAFEFS_NO_SYMLINKS) &&
	    !strcmp(old.buf, text.buf) && !kconfig_changed(t, tree.buf, &head)) {
		ret = 0;
		goto out;
	}
	if (strbuf_write_file(&text, path.buf) < 0) {
		ret = error("cannot write '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	prog->stage = "config";
	ret = sandbox_make(&c, sb, "olddefconfig", timeout_s, prog);
	if (ret < 0 || c.status) {
		if (ret >= 0)
			ret = error_code(bwrap_failed(&c) ? WW_ECHILD : WW_EBUILD,
					 "make olddefconfig failed: %s",
					 c.out.len ? c.out.buf : "no output");
		write_log(sb->build_dir, &c.out, &out->log_path);
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/" CONFIG_STAMP, sb->build_dir);
	if (strbuf_write_file(&text, path.buf) < 0) {
		ret = error("cannot write '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/" TREE_STAMP, sb->build_dir);
	strbuf_reset(&tree);
	strbuf_addf(&tree, "%s\n", hex);
	if (strbuf_write_file(&tree, path.buf) < 0) {
		ret = error("cannot write '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	child_release(&c);
	strbuf_release(&tree);
	strbuf_release(&path);
	strbuf_release(&old);
	strbuf_release(&text);
	return ret;
}

/*
 * A kept build directory was writable by every earlier series' make:
 * before warnwatch reads or writes its own names there again, anything
 * that is not what warnwatch left (a symlink, a FIFO, a directory where a
 * file belongs) goes, and so do symlinks at any warnwatch-* or .config*
 * name (a planted "warnwatch-build.log.tmp.<pid>").  The files themselves
 * are then read with safefs_read(SAFEFS_NO_SYMLINKS) and written by
 * strbuf_write_file() (a random O_EXCL temp, renamed).
 */
static int check_build_dir(const char *dir)
{
	static const char *const files[] = {
		BUILD_LOG, CONFIG_STAMP, TREE_STAMP, ".config", "vmlinux",
	};
	struct dirent *e;
	struct stat st;
	int fd, ret = 0;
	DIR *d;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", dir, strerror(errno));
	if (!(d = fdopendir(fd))) {
		close(fd);
		return error("cannot read '%s': %s", dir, strerror(errno));
	}
	while ((e = readdir(d)) && !ret) {
		bool ours = starts_with(e->d_name, "warnwatch-") ||
			    starts_with(e->d_name, ".config");
		bool bad = false;

		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(files); i++)
			if (!strcmp(e->d_name, files[i]))
				bad = !S_ISREG(st.st_mode);
		if (!strcmp(e->d_name, ".tmp"))
			bad = !S_ISDIR(st.st_mode);
		if (ours && S_ISLNK(st.st_mode))
			bad = true;
		if (bad && unlinkat(fd, e->d_name,
				    S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) < 0)
			ret = error("cannot remove '%s/%s' (planted by a build?): %s",
				    dir, e->d_name, strerror(errno));
	}
	closedir(d);
	return ret;
}

/* build/<version>-<hash> (and its .tmp), created. */
static int build_dir_for(struct strbuf *out, struct ktree *t, const char *hash)
{
	struct strbuf tmp = STRBUF_INIT;
	int ret;

	strbuf_addf(out, "%s/build/%s-%s", t->cache_dir, t->version, hash);
	strbuf_addf(&tmp, "%s/.tmp", out->buf);
	ret = mkdirs(out->buf, 0755, WW_ERROR);
	if (!ret)
		ret = check_build_dir(out->buf);
	if (!ret)
		ret = mkdirs(tmp.buf, 0755, WW_ERROR);
	strbuf_release(&tmp);
	return ret;
}

/*
 * A new config starts as a copy of the base build: the sandbox paths are
 * the same, so make only rebuilds what the extra symbols change.
 */
static int seed_from(const char *dir, const char *base_dir)
{
	struct strbuf vmlinux = STRBUF_INIT, tmp = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret = 0;

	strbuf_addf(&vmlinux, "%s/vmlinux", dir);
	if (file_exists(vmlinux.buf))
		goto out;
	strbuf_reset(&vmlinux);
	strbuf_addf(&vmlinux, "%s/vmlinux", base_dir);
	if (!file_exists(vmlinux.buf))
		goto out;	/* nothing worth copying yet */
	strbuf_addf(&tmp, "%s.seed", dir);
	strvec_pushl(&c.args, "rm", "-rf", "--", tmp.buf, NULL);
	if ((ret = child_run_ok(&c)) < 0)
		goto out;
	child_release(&c);
	strvec_pushl(&c.args, "cp", "-a", "--", base_dir, tmp.buf, NULL);
	c.timeout_ms = COPY_TIMEOUT_S * 1000;
	if ((ret = child_run_ok(&c)) < 0)
		goto out;
	child_release(&c);
	/* Replace the (empty) directory with the seeded copy. */
	strvec_pushl(&c.args, "rm", "-rf", "--", dir, NULL);
	if ((ret = child_run_ok(&c)) < 0)
		goto out;
	if (rename(tmp.buf, dir) < 0)
		ret = error("cannot rename '%s' to '%s': %s", tmp.buf, dir,
			    strerror(errno));
out:
	child_release(&c);
	strbuf_release(&tmp);
	strbuf_release(&vmlinux);
	return ret;
}

/*
 * Series that need suites of their own each get a build directory (about
 * 200 MB): keep the KBUILD_KEEP_CONFIGS last built (their build log is
 * written by every build), never the base one or `keep`.  Runs under the
 * tree's lock.
 */
static void prune_build_dirs(struct ktree *t, const char *base_dir,
			     const char *keep)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, prefix = STRBUF_INIT;
	char *oldest = NULL;
	time_t oldest_t = 0;
	int n = 0;
	struct dirent *e;
	DIR *d;

	strbuf_addf(&dir, "%s/build", t->cache_dir);
	strbuf_addf(&prefix, "%s-", t->version);
	if (!(d = opendir(dir.buf)))
		goto out;
	while ((e = readdir(d))) {
		struct stat st;

		if (!starts_with(e->d_name, prefix.buf) ||
		    strchr(e->d_name, '.'))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, e->d_name);
		if (!strcmp(path.buf, base_dir) || !strcmp(path.buf, keep))
			continue;
		n++;
		strbuf_addstr(&path, "/" BUILD_LOG);
		if (lstat(path.buf, &st) < 0)
			st.st_mtime = 0;
		if (!oldest || st.st_mtime < oldest_t) {
			free(oldest);
			strbuf_setlen(&path, path.len - strlen("/" BUILD_LOG));
			oldest = xstrdup(path.buf);
			oldest_t = st.st_mtime;
		}
	}
	closedir(d);
	if (n > KBUILD_KEEP_CONFIGS && oldest) {
		struct child c = CHILD_INIT;

		strvec_pushl(&c.args, "rm", "-rf", "--", oldest, NULL);
		c.timeout_ms = COPY_TIMEOUT_S * 1000;
		child_run(&c);	/* best effort: the next run tries again */
		child_release(&c);
	}
out:
	free(oldest);
	strbuf_release(&prefix);
	strbuf_release(&path);
	strbuf_release(&dir);
}

/* O=/.config as make left it: a regular file, no symlink (safefs.h). */
static int read_dotconfig(struct kconfig_frag *out, const char *build_dir)
{
	struct strbuf text = STRBUF_INIT, name = STRBUF_INIT;
	int ret;

	ret = safefs_read(&text, build_dir, ".config", KCONFIG_FILE_CAP * 4,
			  SAFEFS_NO_SYMLINKS);
	if (!ret) {
		strbuf_addf(&name, "%s/.config", build_dir);
		ret = kconfig_frag_parse(out, text.buf, text.len, name.buf);
	}
	strbuf_release(&name);
	strbuf_release(&text);
	return ret;
}

static int read_base_config(struct kconfig_frag *out, const char *config_dir,
			    const char *extra)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/base.config", config_dir);
	ret = kconfig_frag_read(out, path.buf);
	if (!ret && extra)
		ret = kconfig_frag_parse(out, extra, strlen(extra),
					 "extra config");
	strbuf_release(&path);
	return ret;
}

static bool is_on(const struct kconfig_frag *f, const char *sym)
{
	const struct kconfig_entry *e = kconfig_frag_get(f, sym);

	return e && e->value && (!strcmp(e->value, "y") ||
				 !strcmp(e->value, "m"));
}

static unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

/*
 * Configure the base directory, then decide whether the series needs
 * more: out->build_dir and `frag` say which directory and config.
 */
static int choose_config(struct kbuild_result *out, struct ktree *t,
			 const struct kbuild_opts *opts, struct sandbox *sb,
			 struct kconfig_frag *frag, struct strbuf *dir,
			 unsigned int timeout_s, struct progress *prog)
{
	struct strbuf cfgdir = STRBUF_INIT, hash = STRBUF_INIT, path = STRBUF_INIT;
	struct kconfig_suites sel = KCONFIG_SUITES_INIT;
	struct kconfig_frag base_got = KCONFIG_FRAG_INIT;
	int ret;

	if (opts->config_dir)
		strbuf_addstr(&cfgdir, opts->config_dir);
	else
		kbuild_config_dir(&cfgdir);
	if ((ret = read_base_config(frag, cfgdir.buf, opts->extra_config)) < 0)
		goto out;
	kconfig_frag_hash(&hash, frag);
	if ((ret = build_dir_for(dir, t, hash.buf)) < 0)
		goto out;
	if (t->seed_version && !opts->plan_only) {
		/* A git base: start from the Debian tree's build it was copied
		 * from, so that only the files that differ rebuild. */
		strbuf_addf(&path, "%s/build/%s-%s", t->cache_dir, t->seed_version,
			    hash.buf);
		if ((ret = seed_from(dir->buf, path.buf)) < 0 ||
		    (ret = check_build_dir(dir->buf)) < 0)
			goto out;
	}
	sb->build_dir = dir->buf;
	if ((ret = configure(out, t, sb, frag, timeout_s, prog)) < 0)
		goto out;
	if ((ret = read_dotconfig(&base_got, dir->buf)) < 0)
		goto out;

	kconfig_select_suites(&sel, t->worktree, opts->touched);
	for (size_t i = 0; i < sel.tests.nr; i++)
		strvec_push(&out->tests, sel.tests.v[i]);
	for (size_t i = 0; i < sel.suites.nr; i++)
		strvec_push(&out->suites, sel.suites.v[i]);
	for (size_t i = 0; i < sel.symbols.nr; i++)
		if (!is_on(&base_got, sel.symbols.v[i]))
			strvec_push(&out->symbols, sel.symbols.v[i]);
	out->base_config = !out->symbols.nr;
	if (out->base_config)
		goto done;

	/* A config of its own, seeded from the base build. */
	for (size_t i = 0; i < out->symbols.nr; i++)
		kconfig_frag_set(frag, out->symbols.v[i], "y");
	strbuf_reset(&hash);
	kconfig_frag_hash(&hash, frag);
	strbuf_reset(&path);
	strbuf_addstr(&path, dir->buf);
	strbuf_reset(dir);
	if (opts->plan_only) {
		strbuf_addf(dir, "%s/build/%s-%s", t->cache_dir, t->version,
			    hash.buf);
		goto done;
	}
	if ((ret = build_dir_for(dir, t, hash.buf)) < 0 ||
	    (ret = seed_from(dir->buf, path.buf)) < 0 ||
	    (ret = check_build_dir(dir->buf)) < 0)
		goto out;
	prune_build_dirs(t, path.buf, dir->buf);
	/* The copy's stamp names the base fragment: configure() redoes it. */
	sb->build_dir = dir->buf;
	if ((ret = configure(out, t, sb, frag, timeout_s, prog)) < 0)
		goto out;
done:
	out->config_hash = strbuf_detach(&hash, NULL);
	ret = 0;
out:
	kconfig_frag_release(&base_got);
	kconfig_suites_release(&sel);
	strbuf_release(&path);
	strbuf_release(&hash);
	strbuf_release(&cfgdir);
	return ret;
}

/* What the final .config lacks of what was asked for. */
static int check_config(struct kbuild_result *out, const char *build_dir,
			const struct kconfig_frag *frag)
{
	struct kconfig_frag got = KCONFIG_FRAG_INIT;
	int ret;

	if ((ret = read_dotconfig(&got, build_dir)) < 0)
		goto out;
	strvec_clear(&out->dropped);
	kconfig_frag_missing(&out->dropped, frag, &got);
out:
	kconfig_frag_release(&got);
	return ret;
}

/* The verdict for a failed make: WW_EBUILD quoting the first error. */
static int build_failed(struct kbuild_result *out, const struct ktree *t,
			const struct kbuild_opts *opts, const struct strbuf *log)
{
	kbuild_first_error(&out->error, log->buf, log->len);
	if (!out->error.len)
		child_last_line(&out->error, log);
	if (strstr(out->error.buf, "Unexpected file size"))
		decompressor_hint(&out->error, t->worktree, opts->touched);
	sandbox_hint(&out->error, log);
	return error_code(WW_EBUILD, "linux %s does not build (log: %s):\n%s",
			  t->version, out->log_path, out->error.buf);
}

int kbuild_run(struct kbuild_result *out, struct ktree *t,
	       const struct kbuild_opts *opts)
{
	struct kconfig_frag frag = KCONFIG_FRAG_INIT;
	struct strbuf dir = STRBUF_INIT, ccache = STRBUF_INIT;
	struct strbuf path = STRBUF_INIT;
	struct progress prog = { false, "config", 0, 0, STRBUF_INIT, STRBUF_INIT };
	struct sandbox sb = { t->worktree, NULL, NULL, 0, 0 };
	struct child c = CHILD_INIT;
	unsigned int timeout_s = opts->timeout_s ? opts->timeout_s :
				 KBUILD_DEFAULT_TIMEOUT_S;
	double start = monotonic_now(), deadline = start + timeout_s, t0;
	int ret;

	prog.on = opts->progress && isatty(2);
	prog.start = start;
	sb.jobs = opts->jobs ? opts->jobs : online_cpus();
	sb.mem_mb = opts->mem_mb ? opts->mem_mb : KBUILD_DEFAULT_MEM_MB;
	strbuf_addf(&ccache, "%s/ccache", t->cache_dir);
	if ((ret = mkdirs(ccache.buf, 0755, WW_ERROR)) < 0)
		goto out;
	sb.ccache_dir = ccache.buf;

	if ((ret = choose_config(out, t, opts, &sb, &frag, &dir, timeout_s,
				 &prog)) < 0)
		goto out;
	out->build_dir = xstrdup(dir.buf);
	out->config_seconds = monotonic_now() - start;
	/* A planned new config has no .config yet: nothing to check. */
	if (opts->plan_only && !out->base_config) {
		ret = 0;
		goto out;
	}
	if ((ret = check_config(out, dir.buf, &frag)) < 0 || opts->plan_only)
		goto out;
	out->config_seconds = monotonic_now() - start;

	t0 = monotonic_now();
	prog.stage = "build";
	strbuf_addf(&path, "%s/vmlinux", dir.buf);
	if (prog.on && !file_exists(path.buf))
		fprintf(stderr, "warnwatch: first build of this config in %s (about 8 min on 2 cores; later builds are incremental)\n",
			dir.buf);
	ret = sandbox_make(&c, &sb, "bzImage",
			   deadline > t0 + 1 ? (unsigned int)(deadline - t0) : 1,
			   &prog);
	progress_done(&prog);
	out->build_seconds = monotonic_now() - t0;
	out->make_status = c.status;
	if (write_log(dir.buf, &c.out, &out->log_path) < 0 && ret >= 0)
		ret = WW_ERROR;
	if (ret == WW_ETIMEOUT) {
		error_prefix(ret, "kernel build in '%s'", dir.buf);
		goto out;
	}
	if (ret < 0)
		goto out;
	if (bwrap_failed(&c)) {
		ret = child_error(&c, "the build sandbox failed");
		goto out;
	}
	/* Kconfig edits in the series are applied by make itself: look again. */
	check_config(out, dir.buf, &frag);
	if (c.status) {
		ret = build_failed(out, t, opts, &c.out);
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/arch/x86/boot/bzImage", dir.buf);
	/* qemu and addr2line read these: files of the build, no links. */
	if (!safefs_is_regular(dir.buf, "arch/x86/boot/bzImage",
			       SAFEFS_NO_SYMLINKS)) {
		ret = error_code(WW_EBUILD, "make succeeded but there is no '%s'",
				 path.buf);
		goto out;
	}
	out->bzimage = strbuf_detach(&path, NULL);
	strbuf_addf(&path, "%s/vmlinux", dir.buf);
	if (!safefs_is_regular(dir.buf, "vmlinux", SAFEFS_NO_SYMLINKS)) {
		ret = error_code(WW_EBUILD, "make succeeded but '%s' is not a regular file",
				 path.buf);
		goto out;
	}
	out->vmlinux = strbuf_detach(&path, NULL);
	ret = 0;
out:
	if (ret < 0)
		progress_done(&prog);
	child_release(&c);
	kconfig_frag_release(&frag);
	strbuf_release(&path);
	strbuf_release(&ccache);
	strbuf_release(&dir);
	return ret;
}

void kbuild_result_release(struct kbuild_result *r)
{
	free(r->build_dir);
	free(r->bzimage);
	free(r->vmlinux);
	free(r->log_path);
	free(r->config_hash);
	strvec_clear(&r->suites);
	strvec_clear(&r->tests);
	strvec_clear(&r->symbols);
	strvec_clear(&r->dropped);
	strbuf_release(&r->error);
	*r = (struct kbuild_result)KBUILD_RESULT_INIT;
}
