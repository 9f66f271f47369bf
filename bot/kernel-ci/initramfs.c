/*
 * Packing the guest's initramfs with libarchive (initramfs.h).
 */
#include "initramfs.h"
#include "child.h"
#include "kbuild.h"
#include "mkdirs.h"

#include <archive.h>
#include <archive_entry.h>
#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define FILE_CAP (256u << 20)
#define MAX_DEPTH 8
#define MAX_ENTRIES 50000
#define WORD_MAX 200

struct cpio {
	struct archive *a;
	const char *path;	/* for messages */
	unsigned int ino;
	size_t entries;
};

static int cpio_error(struct cpio *c)
{
	return error("cannot write initramfs '%s': %s", c->path,
		     archive_error_string(c->a));
}

/* One entry; `data` for regular files, `link` for symlinks. */
static int cpio_add(struct cpio *c, const char *name, mode_t mode,
		    dev_t rdev, const void *data, size_t len, const char *link)
{
	struct archive_entry *e;
	int ret = 0;

	if (++c->entries > MAX_ENTRIES)
		return error("initramfs: more than %d entries", MAX_ENTRIES);
	e = archive_entry_new();
	archive_entry_set_pathname(e, name);
	archive_entry_set_mode(e, mode);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_mtime(e, 0, 0);
	archive_entry_set_nlink(e, S_ISDIR(mode) ? 2 : 1);
	archive_entry_set_ino(e, ++c->ino);
	archive_entry_set_dev(e, 0);
	if (S_ISCHR(mode))
		archive_entry_set_rdev(e, rdev);
	if (S_ISLNK(mode))
		archive_entry_set_symlink(e, link);
	archive_entry_set_size(e, S_ISREG(mode) ? (la_int64_t)len : 0);
	if (archive_write_header(c->a, e) != ARCHIVE_OK ||
	    (S_ISREG(mode) && len &&
	     archive_write_data(c->a, data, len) != (la_ssize_t)len))
		ret = cpio_error(c);
	archive_entry_free(e);
	return ret;
}

static int cpio_dir(struct cpio *c, const char *name)
{
	return cpio_add(c, name, S_IFDIR | 0755, 0, NULL, 0, NULL);
}

static int cpio_file(struct cpio *c, const char *name, const char *host,
		     mode_t perm)
{
	struct strbuf data = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&data, host, FILE_CAP) < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot read '%s': %s", host,
				  strerror(errno));
	ret = cpio_add(c, name, S_IFREG | perm, 0, data.buf, data.len, NULL);
	strbuf_release(&data);
	return ret;
}

/* host_dir's tree under `name`, sorted: directories, regular files (mode
 * 0755 if executable, else 0644) and symlinks as they are. */
static int cpio_tree(struct cpio *c, const char *name, const char *host_dir,
		     int depth)
{
	struct strbuf h = STRBUF_INIT, n = STRBUF_INIT;
	struct dirent **ents = NULL;
	int nr, ret;

	if (depth > MAX_DEPTH)
		return error("'%s' is nested too deep", host_dir);
	nr = scandir(host_dir, &ents, NULL, alphasort);
	if (nr < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot read directory '%s': %s", host_dir,
				  strerror(errno));
	ret = cpio_dir(c, name);
	for (int i = 0; i < nr && !ret; i++) {
		const char *d = ents[i]->d_name;
		struct stat st;

		if (!strcmp(d, ".") || !strcmp(d, ".."))
			continue;
		strbuf_reset(&h);
		strbuf_addf(&h, "%s/%s", host_dir, d);
		strbuf_reset(&n);
		strbuf_addf(&n, "%s/%s", name, d);
		if (lstat(h.buf, &st) < 0) {
			ret = error("cannot stat '%s': %s", h.buf,
				    strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			ret = cpio_tree(c, n.buf, h.buf, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			ret = cpio_file(c, n.buf, h.buf,
					(st.st_mode & S_IXUSR) ? 0755 : 0644);
		} else if (S_ISLNK(st.st_mode)) {
			char link[4096];
			ssize_t len = readlink(h.buf, link, sizeof(link) - 1);

			if (len < 0)
				ret = error("cannot read link '%s': %s",
					    h.buf, strerror(errno));
			else {
				link[len] = '\0';
				ret = cpio_add(c, n.buf, S_IFLNK | 0777, 0,
					       NULL, 0, link);
			}
		}
	}
	for (int i = 0; i < nr; i++)
		free(ents[i]);
	free(ents);
	strbuf_release(&n);
	strbuf_release(&h);
	return ret;
}

/* An applet path from busybox --list-full: relative, plain, no "..". */
static bool applet_path(const char *p)
{
	if (!*p || *p == '/' || strstr(p, "..") || strstr(p, "//"))
		return false;
	for (; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr("._-/[", *p)))
			return false;
	return true;
}

static int add_busybox(struct cpio *c, const char *busybox)
{
	struct child ch = CHILD_INIT;
	struct strvec applets = STRVEC_INIT;
	int ret;

	strvec_pushl(&ch.args, busybox, "--list-full", NULL);
	ch.timeout_ms = 10000;
	ret = child_run_ok(&ch);
	if (ret < 0) {
		ret = error_prefix(ret == WW_ENOTFOUND ? WW_ENOTFOUND : WW_ECHILD,
				   "busybox (install busybox-static)");
		goto out;
	}
	for (char *line = ch.out.buf, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (applet_path(line) && strcmp(line, "bin/busybox"))
			strvec_push(&applets, line);
		if (!nl[1])
			break;
	}
	strvec_sort(&applets);
	ret = cpio_file(c, "bin/busybox", busybox, 0755);
	for (size_t i = 0; !ret && i < applets.nr; i++)
		ret = cpio_add(c, applets.v[i], S_IFLNK | 0777, 0, NULL, 0,
			       "/bin/busybox");
out:
	strvec_clear(&applets);
	child_release(&ch);
	return ret;
}

/* A run-config field: /init splits lines on spaces and passes fields to
 * sh unquoted in places, so only plain characters. */
static bool word_ok(const char *s)
{
	size_t n = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++, n++)
		if (!(isalnum((unsigned char)*s) || strchr("._:/+-", *s)))
			return false;
	return n <= WORD_MAX && !strstr(s - n, "..");
}

static int check_words(const char *what, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!word_ok(words[i]))
			return error_code(WW_EINPUT,
					  "%s: '%s' cannot go into the guest's run-config",
					  what, words[i] ? words[i] : "");
	return 0;
}

/* The install directory holding DIR/BIN, or NULL. */
static const char *find_binary(const struct kselftest_result *k,
			       const char *dir, const char *bin)
{
	struct strbuf p = STRBUF_INIT;
	const char *found = NULL;

	for (size_t i = 0; k && i < k->nr && !found; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s/%s", k->v[i].install_dir, dir, bin);
		if (k->v[i].install_dir && access(p.buf, X_OK) == 0)
			found = k->v[i].install_dir;
	}
	strbuf_release(&p);
	return found;
}

int initramfs_conf(struct strbuf *out, const struct initramfs_opts *o)
{
	const struct testmap_sel *sel = o->sel;
	int ret = 0;

	if (o->nr_images > INITRAMFS_MAX_IMAGES)
		return error_code(WW_EINPUT, "%zu images, at most %d disks",
				  o->nr_images, INITRAMFS_MAX_IMAGES);
	strbuf_addstr(out, "# warnwatch run-config, read by /init (bot/kernel-ci/initramfs.c)\n");
	if (o->gcov_prefix) {
		ret = check_words("gcov prefix", &o->gcov_prefix, 1);
		if (ret < 0)
			return ret;
		strbuf_addf(out, "out %s\ngcov %s\n", INITRAMFS_OUT_DEV,
			    o->gcov_prefix);
	}
	for (size_t i = 0; sel && i < sel->nr_tests; i++) {
		const struct testmap_test *t = &sel->tests[i];
		const char *name = sel->test_names.v[i];
		const char *words[] = { name, t->target, t->name };

		ret = check_words("kselftest", words, ARRAY_SIZE(words));
		if (ret < 0)
			return ret;
		if (find_binary(o->kselftests, t->target, t->name))
			strbuf_addf(out, "kselftest %s %s %s %u\n", name,
				    t->target, t->name,
				    t->timeout_s ? t->timeout_s
					       : INITRAMFS_DEFAULT_TEST_S);
		else
			strbuf_addf(out, "missing %s\n", name);
	}
	for (size_t i = 0; i < o->nr_images; i++) {
		const struct initramfs_image *im = &o->images[i];
		const char *words[] = { im->workload, im->name };

		ret = check_words("image", words, ARRAY_SIZE(words));
		if (ret < 0)
			return ret;
		strbuf_addf(out, "workload workload:%s %s.sh /dev/vd%c %s %u\n",
			    im->workload, im->workload, (char)('b' + i),
			    im->name, im->timeout_s ? im->timeout_s
						    : INITRAMFS_DEFAULT_WORKLOAD_S);
	}
	return 0;
}

static int add_workloads(struct cpio *c, const char *kernel_ci)
{
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT, n = STRBUF_INIT;
	struct dirent **ents = NULL;
	int nr, ret;

	strbuf_addf(&dir, "%s/workloads", kernel_ci);
	ret = cpio_dir(c, "workloads");
	nr = scandir(dir.buf, &ents, NULL, alphasort);
	for (int i = 0; i < nr && !ret; i++) {
		const char *d = ents[i]->d_name;

		if (!ends_with(d, ".sh") || d[0] == '.')
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir.buf, d);
		strbuf_reset(&n);
		strbuf_addf(&n, "workloads/%s", d);
		ret = cpio_file(c, n.buf, p.buf, 0755);
	}
	for (int i = 0; i < nr; i++)
		free(ents[i]);
	free(ents);
	strbuf_release(&n);
	strbuf_release(&p);
	strbuf_release(&dir);
	return ret;
}

/* /kselftest/<target>/ of every built target that has one. */
static int add_kselftests(struct cpio *c, const struct kselftest_result *k)
{
	struct strbuf h = STRBUF_INIT, n = STRBUF_INIT;
	int ret = cpio_dir(c, "kselftest");

	for (size_t i = 0; !ret && k && i < k->nr; i++) {
		const struct kselftest_target *t = &k->v[i];
		struct stat st;

		if (!t->install_dir || !word_ok(t->target))
			continue;
		strbuf_reset(&h);
		strbuf_addf(&h, "%s/%s", t->install_dir, t->target);
		/* lstat: the sandbox made this directory; a link is skipped */
		if (lstat(h.buf, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		/* the parents of a nested target: filesystems/epoll */
		for (const char *s = t->target; !ret && (s = strchr(s, '/')); s++) {
			strbuf_reset(&n);
			strbuf_addstr(&n, "kselftest/");
			strbuf_add(&n, t->target, (size_t)(s - t->target));
			ret = cpio_dir(c, n.buf);
		}
		strbuf_reset(&n);
		strbuf_addf(&n, "kselftest/%s", t->target);
		if (!ret)
			ret = cpio_tree(c, n.buf, h.buf, 0);
	}
	strbuf_release(&n);
	strbuf_release(&h);
	return ret;
}

static int add_all(struct cpio *c, const struct initramfs_opts *o,
		   const char *kernel_ci, const struct strbuf *conf)
{
	static const char *const dirs[] = {
		"bin", "dev", "etc", "mnt", "proc", "root", "sbin", "sys",
		"tmp", "usr", "usr/bin", "usr/sbin",
	};
	struct strbuf p = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; !ret && i < ARRAY_SIZE(dirs); i++)
		ret = cpio_dir(c, dirs[i]);
	if (!ret)
		ret = cpio_add(c, "dev/console", S_IFCHR | 0600,
			       makedev(5, 1), NULL, 0, NULL);
	if (!ret)
		ret = cpio_add(c, "dev/null", S_IFCHR | 0666, makedev(1, 3),
			       NULL, 0, NULL);
	if (!ret)
		ret = add_busybox(c, o->busybox ? o->busybox : "/bin/busybox");
	strbuf_addf(&p, "%s/init", kernel_ci);
	if (!ret)
		ret = cpio_file(c, "init", p.buf, 0755);
	if (!ret)
		ret = cpio_add(c, "etc/warnwatch.conf", S_IFREG | 0644, 0,
			       conf->buf, conf->len, NULL);
	if (!ret)
		ret = add_workloads(c, kernel_ci);
	if (!ret)
		ret = add_kselftests(c, o->kselftests);
	strbuf_release(&p);
	return ret;
}

int initramfs_write(const char *path, const struct initramfs_opts *o)
{
	struct strbuf conf = STRBUF_INIT, kci = STRBUF_INIT, tmp = STRBUF_INIT;
	struct cpio c = { NULL, path, 0, 0 };
	int ret;

	ret = initramfs_conf(&conf, o);
	if (ret < 0)
		goto out;
	if (o->kernel_ci)
		strbuf_addstr(&kci, o->kernel_ci);
	else
		kbuild_config_dir(&kci);
	strbuf_addf(&tmp, "%s.tmp", path);
	c.a = archive_write_new();
	if (archive_write_set_format_cpio_newc(c.a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(c.a, 1) != ARCHIVE_OK ||
	    (o->compress == INITRAMFS_GZIP &&
	     (archive_write_add_filter_gzip(c.a) != ARCHIVE_OK ||
	      /* no mtime in the gzip header: the same bytes every time */
	      archive_write_set_filter_option(c.a, "gzip", "timestamp",
					      NULL) != ARCHIVE_OK)) ||
	    archive_write_open_filename(c.a, tmp.buf) != ARCHIVE_OK) {
		ret = cpio_error(&c);
		goto out;
	}
	ret = add_all(&c, o, kci.buf, &conf);
	if (archive_write_close(c.a) != ARCHIVE_OK && !ret)
		ret = cpio_error(&c);
	if (!ret && rename(tmp.buf, path) < 0)
		ret = error("cannot rename '%s': %s", tmp.buf, strerror(errno));
	if (ret < 0)
		unlink(tmp.buf);
out:
	if (c.a)
		archive_write_free(c.a);
	strbuf_release(&tmp);
	strbuf_release(&kci);
	strbuf_release(&conf);
	return ret;
}

enum initramfs_compress initramfs_compress_for(const char *dotconfig)
{
	struct strbuf s = STRBUF_INIT;
	enum initramfs_compress ret = INITRAMFS_NONE;

	if (strbuf_read_file(&s, dotconfig, 16u << 20) >= 0 &&
	    (starts_with(s.buf, "CONFIG_RD_GZIP=y\n") ||
	     strstr(s.buf, "\nCONFIG_RD_GZIP=y\n")))
		ret = INITRAMFS_GZIP;
	strbuf_release(&s);
	return ret;
}

unsigned int initramfs_deadline_s(const struct initramfs_opts *o)
{
	unsigned int s = INITRAMFS_FIXED_S;

	for (size_t i = 0; o->sel && i < o->sel->nr_tests; i++)
		s += (o->sel->tests[i].timeout_s ? o->sel->tests[i].timeout_s
						  : INITRAMFS_DEFAULT_TEST_S) +
		     INITRAMFS_KILL_GRACE_S;
	for (size_t i = 0; i < o->nr_images; i++)
		s += (o->images[i].timeout_s ? o->images[i].timeout_s
					     : INITRAMFS_DEFAULT_WORKLOAD_S) +
		     INITRAMFS_KILL_GRACE_S;
	return s;
}

/* A path from the guest's tar that may be written under our directory. */
static bool gcda_path(const char *p)
{
	if (!*p || *p == '/' || strstr(p, "..") || strstr(p, "//") ||
	    !ends_with(p, ".gcda") || strlen(p) > 1024)
		return false;
	for (; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr("._+-/", *p)))
			return false;
	return true;
}

static int gcda_write(struct archive *a, const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	char buf[65536];
	la_ssize_t n;
	char *slash;
	int ret = 0;

	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
		strbuf_add(&data, buf, (size_t)n);
	if (n < 0) {
		ret = error("gcov archive: '%s': %s", name,
			    archive_error_string(a));
		goto out;
	}
	strbuf_addf(&path, "%s/%s", dir, name);
	slash = strrchr(path.buf, '/');
	*slash = '\0';
	ret = mkdirs(path.buf, 0755, WW_ERROR);
	*slash = '/';
	if (!ret && strbuf_write_file(&data, path.buf) < 0)
		ret = error("cannot write '%s': %s", path.buf, strerror(errno));
out:
	strbuf_release(&data);
	strbuf_release(&path);
	return ret;
}

int initramfs_gcda_unpack(size_t *nr, size_t *refused, const char *disk,
			  const char *dir)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int ret = 0, r;

	*nr = *refused = 0;
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, disk, 10240) != ARCHIVE_OK) {
		ret = error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				 "cannot read '%s': %s", disk,
				 archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);

		if (AE_IFDIR == archive_entry_filetype(e))
			continue;
		if (archive_entry_filetype(e) != AE_IFREG || !name ||
		    !gcda_path(name) ||
		    archive_entry_size(e) > (la_int64_t)INITRAMFS_GCDA_MAX_SIZE ||
		    *nr >= INITRAMFS_GCDA_MAX_FILES) {
			++*refused;
			continue;
		}
		ret = gcda_write(a, dir, name);
		if (ret < 0)
			goto out;
		++*nr;
	}
	/* A disk of zeros is an empty archive or no archive at all. */
	if (!*nr && !*refused)
		ret = error_code(WW_ENOTFOUND, "no gcov archive on '%s'", disk);
	else if (r != ARCHIVE_EOF)
		ret = error("gcov archive on '%s': %s", disk,
			    archive_error_string(a));
out:
	archive_read_free(a);
	return ret;
}
