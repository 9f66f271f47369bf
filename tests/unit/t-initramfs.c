/*
 * Unit tests for bot/kernel-ci/initramfs.c and kernel-ci/init, without a kernel:
 * pack an initramfs from fake selftests (shell scripts that pass, skip,
 * fail and hang), the real busybox, init and ext4 workload; read it back
 * with libarchive (entries, modes, symlinks, device nodes, owners, mtimes,
 * the run-config); check the bytes do not depend on when it was written;
 * then unpack it and run its /init in --test mode in a bwrap fake root:
 * the markers come out in order with the right results, the workload runs
 * (in its no-mount mode), and the gcov tar carries the counters at the
 * paths gcov_line_counts() expects.
 */
#include "initramfs.h"
#include "child.h"
#include "mkdirs.h"
#include "tap.h"
#include "basetree.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>

static char tmp[] = "/tmp/t-initramfs.XXXXXX";
static const char *top = ".";

static void put(const char *rel, const char *text, mode_t mode)
{
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	char *slash;

	strbuf_addf(&p, "%s/%s", tmp, rel);
	slash = strrchr(p.buf, '/');
	*slash = '\0';
	mkdirs(p.buf, 0755, WW_ERROR);
	*slash = '/';
	strbuf_addstr(&t, text);
	if (strbuf_write_file(&t, p.buf) < 0 || chmod(p.buf, mode) < 0)
		printf("# cannot write %s\n", p.buf);
	strbuf_release(&t);
	strbuf_release(&p);
}

static void add_test(struct testmap_sel *sel, const char *target,
		     const char *name, unsigned int timeout_s)
{
	struct testmap_test *t;

	ALLOC_GROW(sel->tests, sel->nr_tests + 1, sel->alloc_tests);
	t = &sel->tests[sel->nr_tests++];
	t->target = xstrdup(target);
	t->name = xstrdup(name);
	t->timeout_s = timeout_s;
	t->runner = TESTMAP_RUNNER_KSELFTEST;
	strvec_pushf(&sel->test_names, "%s:%s", target, name);
}

/* Every line of `text` as a TAP diagnostic. */
static void diag(const char *text)
{
	while (*text) {
		const char *nl = strchrnul(text, '\n');

		printf("# %.*s\n", (int)(nl - text), text);
		text = *nl ? nl + 1 : nl;
	}
}

struct entry {
	char *name;
	mode_t mode;
	dev_t rdev;
	char *link;
	struct strbuf data;
	bool zero;		/* mtime, uid, gid all 0 */
};

struct listing {
	struct entry *v;
	size_t nr, alloc;
};

static int read_archive(struct listing *out, const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int ret = 0;

	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		ret = -1;
		goto out;
	}
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		struct entry *x;
		char buf[65536];
		la_ssize_t n;

		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		x = &out->v[out->nr++];
		x->name = xstrdup(archive_entry_pathname(e));
		x->mode = archive_entry_mode(e);
		x->rdev = archive_entry_rdev(e);
		x->link = archive_entry_symlink(e) ?
			  xstrdup(archive_entry_symlink(e)) : NULL;
		x->zero = archive_entry_mtime(e) == 0 &&
			  archive_entry_uid(e) == 0 && archive_entry_gid(e) == 0;
		strbuf_init(&x->data, 0);
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
			strbuf_add(&x->data, buf, (size_t)n);
	}
out:
	archive_read_free(a);
	return ret;
}

static const struct entry *find(const struct listing *l, const char *name,
				size_t *index)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i].name, name)) {
			if (index)
				*index = i;
			return &l->v[i];
		}
	return NULL;
}

static void listing_release(struct listing *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].name);
		free(l->v[i].link);
		strbuf_release(&l->v[i].data);
	}
	free(l->v);
}

/* Unpack everything but device nodes (the sandbox brings its own /dev). */
static int unpack(const char *cpio, const char *dir)
{
	struct archive *a = archive_read_new();
	struct archive *w = archive_write_disk_new();
	struct archive_entry *e;
	struct strbuf p = STRBUF_INIT;
	int ret = 0;

	archive_read_support_filter_all(a);
	archive_read_support_format_cpio(a);
	archive_write_disk_set_options(w, ARCHIVE_EXTRACT_PERM);
	if (archive_read_open_filename(a, cpio, 65536) != ARCHIVE_OK)
		ret = -1;
	while (!ret && archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const void *buf;
		size_t len;
		la_int64_t off;

		if (S_ISCHR(archive_entry_mode(e)))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir, archive_entry_pathname(e));
		archive_entry_set_pathname(e, p.buf);
		if (archive_write_header(w, e) != ARCHIVE_OK) {
			printf("# %s\n", archive_error_string(w));
			ret = -1;
			break;
		}
		while (archive_read_data_block(a, &buf, &len, &off) == ARCHIVE_OK)
			archive_write_data_block(w, buf, len, off);
		archive_write_finish_entry(w);
	}
	archive_write_free(w);
	archive_read_free(a);
	strbuf_release(&p);
	return ret;
}

static bool same_file(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	bool same = strbuf_read_file(&x, a, 64u << 20) >= 0 &&
		    strbuf_read_file(&y, b, 64u << 20) >= 0 &&
		    x.len == y.len && !memcmp(x.buf, y.buf, x.len);

	strbuf_release(&y);
	strbuf_release(&x);
	return same;
}

/* The lines of `out` containing `needle`, in order: true when each of
 * `want` (NULL-terminated) is found after the previous one. */
static bool in_order(const char *out, ...)
{
	va_list ap;
	const char *w;
	bool ok = true;

	va_start(ap, out);
	while ((w = va_arg(ap, const char *))) {
		const char *p = strstr(out, w);

		if (!p) {
			printf("# missing or out of order: %s\n", w);
			ok = false;
			break;
		}
		out = p + strlen(w);
	}
	va_end(ap);
	return ok;
}

/* `tar` at the start of a 1 MiB zero-filled "disk", as QEMU leaves it. */
static void make_disk(const char *disk, const char *tar)
{
	struct strbuf d = STRBUF_INIT;

	if (tar)
		strbuf_read_file(&d, tar, 1u << 20);
	if (d.len < (1u << 20))
		strbuf_addchars(&d, 0, (1u << 20) - d.len);
	strbuf_write_file(&d, disk);
	strbuf_release(&d);
}

static void evil_tar(const char *path)
{
	struct archive *a = archive_write_new();
	const char *names[] = { "../evil.gcda", "/tmp/abs.gcda", "ok/x.gcda",
				"ok/notes.gcno" };

	archive_write_set_format_ustar(a);
	archive_write_open_filename(a, path);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct archive_entry *e = archive_entry_new();

		archive_entry_set_pathname(e, names[i]);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, 2);
		archive_write_header(a, e);
		archive_write_data(a, "x\n", 2);
		archive_entry_free(e);
	}
	{
		struct archive_entry *e = archive_entry_new();

		archive_entry_set_pathname(e, "ok/link.gcda");
		archive_entry_set_filetype(e, AE_IFLNK);
		archive_entry_set_perm(e, 0777);
		archive_entry_set_symlink(e, "/etc/passwd");
		archive_write_header(a, e);
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
}

static void test_unpack(const char *tar)
{
	struct strbuf disk = STRBUF_INIT, dir = STRBUF_INIT, p = STRBUF_INIT;
	struct strbuf d = STRBUF_INIT;
	size_t nr = 0, refused = 0;
	int ret;

	strbuf_addf(&disk, "%s/vda.raw", tmp);
	strbuf_addf(&dir, "%s/gcda", tmp);
	make_disk(disk.buf, tar);
	ret = initramfs_gcda_unpack(&nr, &refused, disk.buf, dir.buf);
	strbuf_addf(&p, "%s/fs/ext4/namei.gcda", dir.buf);
	ok(ret == 0 && nr == 2 && refused == 0 &&
	   strbuf_read_file(&d, p.buf, 4096) >= 0 && !strcmp(d.buf, "namei counters\n"),
	   "the disk unpacks: %zu files, dir/fs/ext4/namei.gcda", nr);

	make_disk(disk.buf, NULL);
	ret = initramfs_gcda_unpack(&nr, &refused, disk.buf, dir.buf);
	ok(ret == WW_ENOTFOUND && nr == 0, "a disk of zeros: no archive (%s)", error_last());

	strbuf_reset(&p);
	strbuf_addf(&p, "%s/evil.tar", tmp);
	evil_tar(p.buf);
	make_disk(disk.buf, p.buf);
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/evil/in", tmp);
	ret = initramfs_gcda_unpack(&nr, &refused, disk.buf, dir.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/evil/evil.gcda", tmp);
	ok(ret == 0 && nr == 1 && refused == 4 && access(p.buf, F_OK) < 0 &&
	   access("/tmp/abs.gcda", F_OK) < 0,
	   "a hostile tar: '..', absolute, non-.gcda and symlink entries refused (%zu)", refused);
	strbuf_release(&d);
	strbuf_release(&p);
	strbuf_release(&dir);
	strbuf_release(&disk);
}

static void test_guest(const char *img)
{
	struct strbuf root = STRBUF_INIT, outdir = STRBUF_INIT, p = STRBUF_INIT;
	struct child c = CHILD_INIT;
	struct listing tar = { NULL, 0, 0 };
	const struct entry *e;
	int ret;

	strbuf_addf(&root, "%s/root", tmp);
	strbuf_addf(&outdir, "%s/out", tmp);
	mkdirs(root.buf, 0755, WW_ERROR);
	mkdirs(outdir.buf, 0755, WW_ERROR);
	if (!ok(unpack(img, root.buf) == 0, "initramfs unpacks"))
		goto out;
	put("root/gcov/ww/build/fs/ext4/namei.gcda", "namei counters\n", 0644);
	put("root/gcov/ww/build/kernel/cgroup/cgroup.gcda", "cgroup counters\n", 0644);
	put("root/gcov/ww/build/kernel/cgroup/cgroup.gcno", "not copied\n", 0644);

	strvec_pushl(&c.args, "bwrap", "--version", NULL);
	if (child_run(&c) < 0 || c.status) {
		skip("no-namespaces: bwrap cannot run here", "init in a fake root");
		goto out;
	}
	child_release(&c);
	child_init(&c);
	strvec_pushl(&c.args, "bwrap", "--unshare-all", "--die-with-parent",
		     "--bind", root.buf, "/", "--proc", "/proc",
		     "--dev", "/dev", "--tmpfs", "/tmp",
		     "--bind", outdir.buf, "/out",
		     "--setenv", "WW_GCOV_ROOT", "/gcov",
		     "--setenv", "WW_OUT", "/out/gcda.tar",
		     "--setenv", "PATH", "/bin:/sbin:/usr/bin:/usr/sbin",
		     "/init", "--test", NULL);
	c.flags = CHILD_STDERR_TO_OUT;
	c.timeout_ms = 120 * 1000;
	ret = child_run(&c);
	if (!ok(ret == 0 && c.status == 0,
		"/init --test runs to its end (%.1f s, status %d)", c.seconds,
		c.status)) {
		diag(c.out.buf);
		goto out;
	}
	ok(in_order(c.out.buf, "# mount -t proc proc", "# mount -t cgroup2 cgroup2",
		    "warnwatch: init start\n", NULL), "mounts, then init start");
	ok(in_order(c.out.buf, "warnwatch: begin cgroup:test_core\n",
		    "ok 1 fake core\n",
		    "warnwatch: end cgroup:test_core result=pass rc=0\n", NULL),
	   "a passing test: begin, its KTAP, end pass");
	ok(in_order(c.out.buf, "warnwatch: begin cgroup:test_kill\n",
		    "warnwatch: end cgroup:test_kill result=skip rc=4\n", NULL),
	   "exit 4 is skip");
	ok(in_order(c.out.buf, "warnwatch: begin cgroup:test_freezer\n",
		    "warnwatch: end cgroup:test_freezer result=fail rc=1\n", NULL),
	   "exit 1 is fail");
	ok(in_order(c.out.buf, "warnwatch: begin cgroup:test_cpu\n",
		    "warnwatch: end cgroup:test_cpu result=timeout rc=143\n", NULL),
	   "a hanging test is killed at its deadline");
	ok(in_order(c.out.buf, "warnwatch: begin cgroup:test_pids\n",
		    "warnwatch: end cgroup:test_pids result=missing rc=-\n", NULL),
	   "a test that did not build is reported missing");
	ok(in_order(c.out.buf, "warnwatch: begin filesystems/epoll:epoll_wakeup_test\n",
		    "warnwatch: end filesystems/epoll:epoll_wakeup_test result=pass", NULL),
	   "a nested target runs");
	ok(in_order(c.out.buf,
		    "warnwatch: begin workload:ext4 image=ext4-test dev=/dev/vdb\n",
		    "# args: -n /mnt/ext4-test /dev/vdb ext4-test\n", "ok 1 fake workload\n",
		    "warnwatch: end workload:ext4 image=ext4-test result=pass rc=0\n",
		    NULL), "the ext4 workload runs between its markers");
	ok(in_order(c.out.buf,
		    "warnwatch: gcov files=2 dev=/out/gcda.tar result=ok\n",
		    "warnwatch: init done\n", "# reboot -f\n", NULL),
	   "gcov copied, init done, reboot");

	strbuf_addf(&p, "%s/gcda.tar", outdir.buf);
	if (!ok(read_archive(&tar, p.buf) == 0, "the gcov tar reads back"))
		goto out;
	e = find(&tar, "fs/ext4/namei.gcda", NULL);
	ok(e && !strcmp(e->data.buf, "namei counters\n"),
	   "fs/ext4/namei.gcda, prefix stripped, content intact");
	e = find(&tar, "kernel/cgroup/cgroup.gcda", NULL);
	ok(e && !strcmp(e->data.buf, "cgroup counters\n"),
	   "kernel/cgroup/cgroup.gcda");
	ok(!find(&tar, "kernel/cgroup/cgroup.gcno", NULL), "no .gcno in the tar");
	test_unpack(p.buf);
out:
	listing_release(&tar);
	child_release(&c);
	strbuf_release(&p);
	strbuf_release(&outdir);
	strbuf_release(&root);
}

static void test_contents(const char *img, const struct initramfs_opts *o)
{
	struct listing l = { NULL, 0, 0 };
	const struct entry *e;
	size_t i_dir = 0, i_sub = 0;
	bool zero = true;

	int ret = read_archive(&l, img);

	if (!ok(ret == 0 && l.nr > 100, "the initramfs reads back (%zu entries)",
		l.nr))
		goto out;
	for (size_t i = 0; i < l.nr; i++)
		zero &= l.v[i].zero;
	ok(zero, "every entry has mtime 0, owner 0:0");
	e = find(&l, "init", NULL);
	ok(e && S_ISREG(e->mode) && (e->mode & 0777) == 0755 &&
	   starts_with(e->data.buf, "#!/bin/sh"), "/init: kernel-ci/init, mode 0755");
	e = find(&l, "bin/busybox", NULL);
	ok(e && S_ISREG(e->mode) && (e->mode & 0777) == 0755 &&
	   e->data.len > 500000, "/bin/busybox (%zu bytes)", e ? e->data.len : 0);
	e = find(&l, "bin/sh", NULL);
	ok(e && S_ISLNK(e->mode) && e->link && !strcmp(e->link, "/bin/busybox"),
	   "/bin/sh -> /bin/busybox");
	e = find(&l, "usr/bin/timeout", NULL);
	ok(e && S_ISLNK(e->mode), "applets in their --list-full directories (usr/bin/timeout)");
	e = find(&l, "dev/console", NULL);
	ok(e && S_ISCHR(e->mode) && major(e->rdev) == 5 && minor(e->rdev) == 1,
	   "/dev/console is char 5:1");
	e = find(&l, "etc/warnwatch.conf", NULL);
	ok(e && strstr(e->data.buf, "\nout /dev/vda\ngcov /ww/build\n") &&
	   strstr(e->data.buf, "\nkselftest cgroup:test_core cgroup test_core 30\n") &&
	   strstr(e->data.buf, "\nmissing cgroup:test_pids\n") &&
	   strstr(e->data.buf, "\nworkload workload:ext4 ext4.sh /dev/vdb ext4-test 120\n"),
	   "the run-config lists tests, missing ones, the workload disk, gcov");
	if (e)
		diag(e->data.buf);
	e = find(&l, "kselftest/cgroup/test_core", NULL);
	ok(e && S_ISREG(e->mode) && (e->mode & 0777) == 0755, "/kselftest/cgroup/test_core, 0755");
	e = find(&l, "kselftest/cgroup/config", NULL);
	ok(e && (e->mode & 0777) == 0644, "non-executable files stay 0644");
	ok(find(&l, "kselftest/filesystems", &i_dir) &&
	   find(&l, "kselftest/filesystems/epoll/epoll_wakeup_test", &i_sub) &&
	   i_dir < i_sub, "a nested target's parent directory comes first");
	e = find(&l, "workloads/ext4.sh", NULL);
	ok(e && (e->mode & 0777) == 0755, "/workloads/ext4.sh");
	ok(find(&l, "sys", NULL) && find(&l, "proc", NULL) && find(&l, "tmp", NULL),
	   "mount points exist");
	(void)o;
out:
	listing_release(&l);
}

static void test_conf_errors(struct initramfs_opts o)
{
	struct strbuf sb = STRBUF_INIT;
	struct initramfs_image bad = { "ext4", "two words", 10 };
	struct initramfs_image many[INITRAMFS_MAX_IMAGES + 1];

	o.images = &bad;
	o.nr_images = 1;
	ok(initramfs_conf(&sb, &o) == WW_EINPUT && strstr(error_last(), "'two words'"),
	   "an image name with a space is refused: %s", error_last());
	bad.name = "x;reboot";
	strbuf_reset(&sb);
	ok(initramfs_conf(&sb, &o) == WW_EINPUT, "a ';' is refused");
	bad.name = "../x";
	strbuf_reset(&sb);
	ok(initramfs_conf(&sb, &o) == WW_EINPUT, "'..' is refused");
	for (size_t i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = (struct initramfs_image){ "ext4", "x", 0 };
	o.images = many;
	o.nr_images = ARRAY_SIZE(many);
	strbuf_reset(&sb);
	ok(initramfs_conf(&sb, &o) == WW_EINPUT, "more images than disks is refused");
	strbuf_release(&sb);
}

static void test_plan(const char *img)
{
	struct child c = CHILD_INIT;
	struct strbuf init = STRBUF_INIT, conf = STRBUF_INIT;

	strbuf_addf(&init, "%s/kernel-ci/init", top);
	strbuf_addf(&conf, "%s/root/etc/warnwatch.conf", tmp);
	strvec_pushl(&c.args, "busybox", "sh", "-n", init.buf, NULL);
	ok(child_run(&c) == 0 && c.status == 0, "busybox sh -n: init parses");
	child_release(&c);
	child_init(&c);
	strvec_pushl(&c.args, "busybox", "sh", init.buf, "-n", conf.buf, NULL);
	ok(child_run(&c) == 0 && c.status == 0 &&
	   in_order(c.out.buf, "gcov tar to /dev/vda\n",
		    "kselftest cgroup:test_core: cd /kselftest/cgroup && timeout 30 ./test_core\n",
		    "kselftest cgroup:test_pids: missing",
		    "workload workload:ext4: timeout 120 sh /workloads/ext4.sh /mnt/ext4-test /dev/vdb ext4-test\n",
		    NULL), "init -n prints the plan");
	(void)img;
	child_release(&c);
	strbuf_release(&conf);
	strbuf_release(&init);
}

/*
 * The real thing, when this machine has the extracted 6.1 tree: cgroup's
 * selftests built statically into a temporary cache, packed, unpacked,
 * and test_core run by /init in the busybox-only fake root (no cgroup2
 * mount there, so it fails or skips: what counts is that a static binary
 * ran and its KTAP came out between the markers).
 */
static void test_real(const struct initramfs_opts *base)
{
	struct kselftest_opts ko = KSELFTEST_OPTS_INIT;
	struct kselftest_result ks = KSELFTEST_RESULT_INIT;
	struct testmap_sel sel = TESTMAP_SEL_INIT;
	struct initramfs_opts o = *base;
	struct strvec targets = STRVEC_INIT;
	struct strbuf tree = STRBUF_INIT, cache = STRBUF_INIT, img = STRBUF_INIT;
	struct strbuf root = STRBUF_INIT, d = STRBUF_INIT, version = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret;

	if (getenv("WW_SKIP_SLOW")) {
		skip("check-fast: WW_SKIP_SLOW", "real cgroup selftests in the initramfs");
		goto out;
	}
	ret = basetree_get(&tree, &version);
	if (ret == WW_ENOTFOUND) {
		skip("not-installed: linux-source-6.1", "real cgroup selftests in the initramfs");
		goto out;
	}
	if (!ok(!ret, "the 6.1 base tree (%s)", version.buf)) {
		printf("# %s\n", error_last());
		goto out;
	}
	strbuf_addf(&cache, "%s/kcache", tmp);
	ko.cache_dir = cache.buf;
	ko.base = version.buf;
	ko.jobs = 2;
	strvec_push(&targets, "cgroup");
	ret = kselftest_build(&ks, tree.buf, &targets, &ko);
	if (!ok(ret == 0 && ks.nr == 1 && ks.v[0].complete,
		"cgroup selftests build (%.1f s)", ks.seconds)) {
		printf("# %s\n", error_last());
		goto out;
	}
	add_test(&sel, "cgroup", "test_core", 30);
	o.kselftests = &ks;
	o.sel = &sel;
	o.images = NULL;
	o.nr_images = 0;
	o.gcov_prefix = NULL;
	strbuf_addf(&img, "%s/real.img", tmp);
	ret = initramfs_write(img.buf, &o);
	strbuf_reset(&d);
	strbuf_read_file(&d, img.buf, 64u << 20);
	ok(ret == 0, "initramfs with cgroup's selftests: %zu bytes gzipped", d.len);
	strbuf_addf(&root, "%s/realroot", tmp);
	mkdirs(root.buf, 0755, WW_ERROR);
	if (ret || unpack(img.buf, root.buf) < 0)
		goto out;
	strvec_pushl(&c.args, "bwrap", "--unshare-all", "--die-with-parent",
		     "--bind", root.buf, "/", "--proc", "/proc",
		     "--dev", "/dev", "--tmpfs", "/tmp",
		     "--setenv", "PATH", "/bin:/sbin:/usr/bin:/usr/sbin",
		     "/init", "--test", NULL);
	c.flags = CHILD_STDERR_TO_OUT;
	c.timeout_ms = 120 * 1000;
	ret = child_run(&c);
	ok(ret == 0 && c.status == 0 &&
	   in_order(c.out.buf, "warnwatch: begin cgroup:test_core\n", "1..",
		    "warnwatch: end cgroup:test_core result=", "warnwatch: init done\n",
		    NULL), "the static test_core runs in the busybox root, its KTAP between the markers");
	diag(c.out.buf);
out:
	child_release(&c);
	testmap_sel_release(&sel);
	kselftest_result_release(&ks);
	strvec_clear(&targets);
	strbuf_release(&d);
	strbuf_release(&version);
	strbuf_release(&root);
	strbuf_release(&img);
	strbuf_release(&cache);
	strbuf_release(&tree);
}

static void test_config(void)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/dot-config", tmp);
	put("dot-config", "CONFIG_BLK_DEV_INITRD=y\nCONFIG_RD_GZIP=y\n", 0644);
	is(initramfs_compress_for(p.buf), INITRAMFS_GZIP, "CONFIG_RD_GZIP=y: gzip");
	put("dot-config", "CONFIG_BLK_DEV_INITRD=y\n# CONFIG_RD_GZIP is not set\n", 0644);
	is(initramfs_compress_for(p.buf), INITRAMFS_NONE, "no RD_GZIP: uncompressed");
	strbuf_addstr(&p, "-missing");
	is(initramfs_compress_for(p.buf), INITRAMFS_NONE, "no .config: uncompressed");
	strbuf_release(&p);
}

int main(void)
{
	struct kselftest_result ks = KSELFTEST_RESULT_INIT;
	struct testmap_sel sel = TESTMAP_SEL_INIT;
	struct initramfs_image img = { "ext4", "ext4-test", 120 };
	struct initramfs_opts o = INITRAMFS_OPTS_INIT;
	struct strbuf kci = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct strbuf install = STRBUF_INIT, raw = STRBUF_INIT;
	int ret;

	if (getenv("WW_TOP"))
		top = getenv("WW_TOP");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	if (access("/bin/busybox", X_OK) < 0) {
		skip("not-installed: /bin/busybox (busybox-static)", "initramfs");
		goto out;
	}
	put("ks/install/cgroup/test_core",
	    "#!/bin/sh\necho 'TAP version 13'\necho 1..1\necho 'ok 1 fake core'\n", 0755);
	put("ks/install/cgroup/test_kill", "#!/bin/sh\nexit 4\n", 0755);
	put("ks/install/cgroup/test_freezer", "#!/bin/sh\necho 'not ok 1 x'\nexit 1\n", 0755);
	put("ks/install/cgroup/test_cpu", "#!/bin/sh\nsleep 60\n", 0755);
	put("ks/install/cgroup/config", "CONFIG_CGROUPS=y\n", 0644);
	put("ks/install/filesystems/epoll/epoll_wakeup_test", "#!/bin/sh\necho ok\n", 0755);
	strbuf_addf(&install, "%s/ks/install", tmp);
	ALLOC_GROW(ks.v, 2, ks.alloc);
	memset(ks.v, 0, 2 * sizeof(*ks.v));
	ks.nr = 2;
	ks.v[0].target = xstrdup("cgroup");
	ks.v[0].install_dir = xstrdup(install.buf);
	strbuf_init(&ks.v[0].error, 0);
	ks.v[1].target = xstrdup("filesystems/epoll");
	ks.v[1].install_dir = xstrdup(install.buf);
	strbuf_init(&ks.v[1].error, 0);
	add_test(&sel, "cgroup", "test_core", 30);
	add_test(&sel, "cgroup", "test_kill", 30);
	add_test(&sel, "cgroup", "test_freezer", 30);
	add_test(&sel, "cgroup", "test_cpu", 2);
	add_test(&sel, "cgroup", "test_pids", 30);
	add_test(&sel, "filesystems/epoll", "epoll_wakeup_test", 30);

	strbuf_addf(&kci, "%s/kernel-ci", top);
	o.kernel_ci = kci.buf;
	o.kselftests = &ks;
	o.sel = &sel;
	o.images = &img;
	o.nr_images = 1;
	o.gcov_prefix = "/ww/build";
	strbuf_addf(&a, "%s/a.img", tmp);
	strbuf_addf(&b, "%s/b.img", tmp);
	strbuf_addf(&raw, "%s/raw.img", tmp);
	ret = initramfs_write(a.buf, &o);
	if (!ok(ret == 0, "initramfs_write")) {
		printf("# %s\n", error_last());
		goto out;
	}
	{
		struct strbuf d = STRBUF_INIT;

		strbuf_read_file(&d, a.buf, 64u << 20);
		ok(d.len > 4 && (unsigned char)d.buf[0] == 0x1f &&
		   (unsigned char)d.buf[1] == 0x8b && !d.buf[4] && !d.buf[5] &&
		   !d.buf[6] && !d.buf[7], "gzip, without a timestamp (%zu bytes)", d.len);
		strbuf_release(&d);
	}
	{
		struct strbuf p = STRBUF_INIT;
		struct timeval old[2] = { { 1000000, 0 }, { 1000000, 0 } };

		strbuf_addf(&p, "%s/ks/install/cgroup/config", tmp);
		if (utimes(p.buf, old) < 0)
			printf("# utimes: %s\n", strerror(errno));
		strbuf_release(&p);
	}
	ret = initramfs_write(b.buf, &o);
	ok(ret == 0 && same_file(a.buf, b.buf),
	   "written again after an mtime changed: the same bytes");
	o.compress = INITRAMFS_NONE;
	ret = initramfs_write(raw.buf, &o);
	{
		struct strbuf d = STRBUF_INIT;

		strbuf_read_file(&d, raw.buf, 64u << 20);
		ok(ret == 0 && starts_with(d.buf, "070701"), "uncompressed: a newc cpio");
		strbuf_release(&d);
	}
	o.compress = INITRAMFS_GZIP;
	is(initramfs_deadline_s(&o), INITRAMFS_FIXED_S + 30 * 4 + 2 + 30 + 6 * 5 + 120 + 5,
	   "deadline: every bound plus the fixed part");

	test_contents(a.buf, &o);
	test_conf_errors(o);
	/* The guest run with a stand-in workload: the real ext4.sh takes
	 * 5 s on a quiet machine, 40 s at load 12 (its syncs); it has tests
	 * of its own. */
	{
		struct strbuf g = STRBUF_INIT, fake = STRBUF_INIT, init = STRBUF_INIT;
		struct initramfs_opts og = o;

		strbuf_addf(&init, "%s/kernel-ci/init", top);
		strbuf_read_file(&fake, init.buf, 1u << 20);
		put("kci/init", fake.buf, 0755);
		put("kci/workloads/ext4.sh",
		    "#!/bin/sh\necho \"# args: $*\"\necho 'KTAP version 1'\necho 1..1\n"
		    "echo 'ok 1 fake workload'\n", 0755);
		strbuf_reset(&fake);
		strbuf_addf(&fake, "%s/kci", tmp);
		og.kernel_ci = fake.buf;
		strbuf_addf(&g, "%s/g.img", tmp);
		ret = initramfs_write(g.buf, &og);
		if (ok(ret == 0, "initramfs with a stand-in workload"))
			test_guest(g.buf);
		strbuf_release(&init);
		strbuf_release(&fake);
		strbuf_release(&g);
	}
	test_plan(a.buf);
	test_config();
	test_real(&o);
	{
		struct initramfs_opts m = o;

		m.busybox = "/nonexistent/busybox";
		ok(initramfs_write(b.buf, &m) == WW_ENOTFOUND,
		   "no busybox: %s", error_last());
	}
out:
	{
		struct child c = CHILD_INIT;

		strvec_pushl(&c.args, "rm", "-rf", "--", tmp, NULL);
		child_run(&c);
		child_release(&c);
	}
	testmap_sel_release(&sel);
	kselftest_result_release(&ks);
	strbuf_release(&raw);
	strbuf_release(&install);
	strbuf_release(&b);
	strbuf_release(&a);
	strbuf_release(&kci);
	return done_testing();
}
