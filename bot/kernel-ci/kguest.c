/*
 * The guest's user space for one ci run (see kguest.h): tests, images,
 * initramfs and gcov disk before the boot; .gcda files and fsck after.
 */
#include "kguest.h"
#include "initramfs.h"
#include "kbuild.h"
#include "mkdirs.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- gcov for the touched objects ---- */

static bool is_c(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".c");
}

/* The Kbuild file of `dir` as checked out: "Kbuild" wins over "Makefile". */
static int kbuild_file(struct strbuf *rel, struct strbuf *text,
		       const struct ktree *t, const char *dir)
{
	static const char *const names[] = { "Kbuild", "Makefile" };
	struct strbuf abs = STRBUF_INIT;
	int ret = WW_ENOTFOUND;

	for (size_t i = 0; i < ARRAY_SIZE(names) && ret == WW_ENOTFOUND; i++) {
		strbuf_reset(&abs);
		strbuf_reset(rel);
		strbuf_addf(rel, "%s/%s", dir, names[i]);
		strbuf_addf(&abs, "%s/%s", t->worktree, rel->buf);
		if (access(abs.buf, R_OK))
			continue;
		strbuf_reset(text);
		ret = strbuf_read_file(text, abs.buf, 4u << 20);
	}
	strbuf_release(&abs);
	return ret;
}

int kguest_gcov_commit(git_oid *out, struct ktree *t, const git_oid *head,
		       const struct strvec *files)
{
	struct strvec paths = STRVEC_INIT, contents = STRVEC_INIT;
	struct strbuf rel = STRBUF_INIT, text = STRBUF_INIT, dir = STRBUF_INIT;
	struct strbuf line = STRBUF_INIT;
	int ret = 0;

	git_oid_cpy(out, head);
	for (size_t i = 0; i < files->nr; i++) {
		const char *f = files->v[i], *slash = strrchr(f, '/');
		size_t idx;

		if (!is_c(f) || !slash)
			continue;
		strbuf_reset(&dir);
		strbuf_add(&dir, f, slash - f);
		ret = kbuild_file(&rel, &text, t, dir.buf);
		if (ret == WW_ENOTFOUND) {
			error_clear();	/* no Makefile: the object stays as it is */
			ret = 0;
			continue;
		}
		if (ret < 0)
			goto out;
		for (idx = 0; idx < paths.nr; idx++)
			if (!strcmp(paths.v[idx], rel.buf))
				break;
		if (idx == paths.nr) {
			strbuf_addstr(&text, "\n# warnwatch: gcov for the objects the "
				      "series adds BUG/WARN calls to\n");
			strvec_push(&paths, rel.buf);
			strvec_push(&contents, text.buf);
		}
		strbuf_reset(&line);
		strbuf_addf(&line, "GCOV_PROFILE_%.*s.o := y\n",
			    (int)(strlen(slash + 1) - 2), slash + 1);
		if (strstr(contents.v[idx], line.buf))
			continue;
		strbuf_reset(&text);
		strbuf_addstr(&text, contents.v[idx]);
		strbuf_addbuf(&text, &line);
		free((char *)contents.v[idx]);
		contents.v[idx] = strbuf_detach(&text, NULL);
	}
	if (paths.nr)
		ret = ktree_commit_files(out, t, head, &paths, &contents,
					 "warnwatch: gcov for the touched objects");
out:
	strvec_clear(&paths);
	strvec_clear(&contents);
	strbuf_release(&rel);
	strbuf_release(&text);
	strbuf_release(&dir);
	strbuf_release(&line);
	return ret;
}

/* ---- before the boot ---- */

static int make_gcov_disk(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		      0644);
	int ret = 0;

	if (fd < 0)
		return error("cannot create '%s': %s", path, strerror(errno));
	if (ftruncate(fd, (off_t)KGUEST_GCOV_DISK_MB << 20) < 0)
		ret = error("cannot size '%s': %s", path, strerror(errno));
	close(fd);
	return ret;
}

/* The workload's whole deadline from its JSON ("timeout_s"). */
static unsigned int workload_timeout(const char *json_path)
{
	json_error_t jerr;
	json_t *j = json_load_file(json_path, 0, &jerr);
	unsigned int t = 0;

	if (j && json_is_integer(json_object_get(j, "timeout_s")))
		t = (unsigned int)json_integer_value(json_object_get(j, "timeout_s"));
	json_decref(j);
	return t;
}

static int add_workload_images(struct kguest *g, const char *kernel_ci,
			       const char *workload)
{
	struct strbuf path = STRBUF_INIT;
	struct fsimage_set set = FSIMAGE_SET_INIT;
	unsigned int timeout;
	int ret;

	strbuf_addf(&path, "%s/workloads/%s.json", kernel_ci, workload);
	ret = fsimage_load(&set, path.buf);
	if (ret < 0)
		goto out;
	timeout = workload_timeout(path.buf);
	for (size_t i = 0; i < set.nr; i++) {
		struct kguest_image *im;

		ALLOC_GROW(g->images, g->nr_images + 1, g->alloc_images);
		im = &g->images[g->nr_images++];
		memset(im, 0, sizeof(*im));
		strbuf_init(&im->fsck_output, 0);
		im->workload = xstrdup(workload);
		im->name = xstrdup(set.specs[i].name);
		im->features = xstrdup(set.specs[i].features);
		im->timeout_s = timeout;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/images/%s.img", g->dir, im->name);
		im->path = xstrdup(path.buf);
	}
out:
	fsimage_set_release(&set);
	strbuf_release(&path);
	return ret;
}

/* mke2fs every image (again) and zero the gcov disk. */
int kguest_reset_disks(struct kguest *g)
{
	struct strbuf dir = STRBUF_INIT, kci = STRBUF_INIT, path = STRBUF_INIT;
	double t0 = monotonic_now();
	int ret;

	ret = make_gcov_disk(g->gcov_disk);
	if (ret < 0)
		goto out;
	strbuf_addf(&dir, "%s/images", g->dir);
	if (g->nr_images && (ret = mkdirs(dir.buf, 0755, WW_ERROR)) < 0)
		goto out;
	kbuild_config_dir(&kci);
	for (size_t i = 0; i < g->nr_images; i++) {
		struct kguest_image *im = &g->images[i];
		struct fsimage_set set = FSIMAGE_SET_INIT;
		struct strbuf img = STRBUF_INIT;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/workloads/%s.json", kci.buf, im->workload);
		unlink(im->path);
		ret = fsimage_load(&set, path.buf);
		for (size_t j = 0; !ret && j < set.nr; j++)
			if (!strcmp(set.specs[j].name, im->name))
				ret = fsimage_make(&img, &set, &set.specs[j], dir.buf, NULL);
		fsimage_set_release(&set);
		strbuf_release(&img);
		if (ret < 0)
			goto out;
	}
out:
	g->image_seconds += monotonic_now() - t0;
	strbuf_release(&dir);
	strbuf_release(&kci);
	strbuf_release(&path);
	return ret;
}

static void note_not_built(struct kguest *g)
{
	for (size_t i = 0; i < g->kselftests.nr; i++) {
		const struct kselftest_target *k = &g->kselftests.v[i];

		if (!k->complete)
			strvec_pushf(&g->not_built, "%s: %s", k->target,
				     k->error.len ? k->error.buf : "make failed");
	}
}

int kguest_prepare(struct kguest *g, struct ktree *t, const struct strvec *touched,
		   const char *dir, const struct kguest_opts *o)
{
	struct initramfs_opts io = INITRAMFS_OPTS_INIT;
	struct kselftest_opts ko = KSELFTEST_OPTS_INIT;
	struct initramfs_image *ii = NULL;
	struct strbuf kci = STRBUF_INIT, path = STRBUF_INIT;
	struct testmap *m = NULL;
	double t0;
	int ret;

	if (o->kernel_ci)
		strbuf_addstr(&kci, o->kernel_ci);
	else
		kbuild_config_dir(&kci);
	g->dir = xstrdup(dir);
	g->kernel_ci = xstrdup(kci.buf);
	strbuf_addf(&path, "%s/gcov.raw", dir);
	g->gcov_disk = strbuf_detach(&path, NULL);
	strbuf_addf(&path, "%s/gcda", dir);
	g->gcda_dir = strbuf_detach(&path, NULL);

	strbuf_addf(&path, "%s/tests.json", kci.buf);
	ret = testmap_load(&m, path.buf);
	if (ret < 0)
		goto out;
	ret = testmap_select(&g->sel, m, touched, t->version);
	if (ret < 0)
		goto out;

	t0 = monotonic_now();
	if (g->sel.kselftests.nr) {
		ko.cache_dir = o->cache_dir;
		ko.base = t->version;
		ko.touched = touched;
		ko.jobs = o->jobs;
		ret = kselftest_build(&g->kselftests, t->worktree,
				      &g->sel.kselftests, &ko);
		if (ret < 0)
			goto out;
		note_not_built(g);
	}
	g->kselftest_seconds = monotonic_now() - t0;

	for (size_t i = 0; i < g->sel.workloads.nr; i++) {
		ret = add_workload_images(g, kci.buf, g->sel.workloads.v[i]);
		if (ret < 0)
			goto out;
	}
	if (g->nr_images > INITRAMFS_MAX_IMAGES) {
		ret = error_code(WW_EINPUT, "%zu workload images, at most %d disks",
				 g->nr_images, INITRAMFS_MAX_IMAGES);
		goto out;
	}
	ret = kguest_reset_disks(g);
	if (ret < 0)
		goto out;

	t0 = monotonic_now();
	ii = xcalloc(g->nr_images ? g->nr_images : 1, sizeof(*ii));
	for (size_t i = 0; i < g->nr_images; i++) {
		ii[i].workload = g->images[i].workload;
		ii[i].name = g->images[i].name;
		ii[i].timeout_s = g->images[i].timeout_s;
	}
	io.kernel_ci = kci.buf;
	io.kselftests = &g->kselftests;
	io.sel = &g->sel;
	io.images = ii;
	io.nr_images = g->nr_images;
	io.gcov_prefix = KBUILD_OBJ;
	io.compress = initramfs_compress_for(o->dotconfig);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/initramfs.cpio%s", dir,
		    io.compress == INITRAMFS_GZIP ? ".gz" : "");
	g->initrd = xstrdup(path.buf);
	ret = initramfs_write(g->initrd, &io);
	g->deadline_s = initramfs_deadline_s(&io);
	g->initramfs_seconds = monotonic_now() - t0;
out:
	free(ii);
	testmap_free(m);
	strbuf_release(&kci);
	strbuf_release(&path);
	return ret;
}

/* "file NAME SIZE\n" and the contents of kernel_ci/NAME. */
static int add_file_text(struct strbuf *out, const char *kernel_ci, const char *name)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", kernel_ci, name);
	ret = strbuf_read_file(&text, path.buf, 1u << 20);
	if (!ret) {
		strbuf_addf(out, "file %s %zu\n", name, text.len);
		strbuf_addbuf(out, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

int kguest_test_set(struct strbuf *out, const struct kguest *g)
{
	struct strbuf name = STRBUF_INIT;
	int ret;

	for (size_t i = 0; i < g->sel.test_names.nr; i++)
		strbuf_addf(out, "test %s\n", g->sel.test_names.v[i]);
	for (size_t i = 0; i < g->sel.workloads.nr; i++)
		strbuf_addf(out, "workload %s\n", g->sel.workloads.v[i]);
	for (size_t i = 0; i < g->nr_images; i++)
		strbuf_addf(out, "image %s %s\n", g->images[i].name,
			    g->images[i].features ? g->images[i].features : "");
	if (!g->kernel_ci)
		BUG("kguest_test_set() before kguest_prepare()");
	ret = add_file_text(out, g->kernel_ci, "init");
	for (size_t i = 0; !ret && i < g->sel.workloads.nr; i++) {
		strbuf_reset(&name);
		strbuf_addf(&name, "workloads/%s.sh", g->sel.workloads.v[i]);
		ret = add_file_text(out, g->kernel_ci, name.buf);
		strbuf_reset(&name);
		strbuf_addf(&name, "workloads/%s.json", g->sel.workloads.v[i]);
		if (!ret)
			ret = add_file_text(out, g->kernel_ci, name.buf);
	}
	strbuf_release(&name);
	return ret;
}

void kguest_drives(struct strvec *out, const struct kguest *g)
{
	strvec_push(out, g->gcov_disk);
	for (size_t i = 0; i < g->nr_images; i++)
		strvec_push(out, g->images[i].path);
}

/* ---- after the boot ---- */

/* "./fs/ext4/namei.gcda" -> "fs/ext4/namei.gcda"; NULL when unsafe. */
static const char *safe_gcda_path(const char *p)
{
	size_t n;

	while (starts_with(p, "./"))
		p += 2;
	while (*p == '/')
		p++;
	n = strlen(p);
	if (!n || n < 6 || strcmp(p + n - 5, ".gcda") || !strcmp(p, "..") ||
	    starts_with(p, "../") || strstr(p, "/../"))
		return NULL;
	return p;
}

static int write_entry(struct archive *a, const char *dir, const char *rel)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	const char *slash;
	char buf[16384];
	la_ssize_t n;
	int ret;

	strbuf_addf(&path, "%s/%s", dir, rel);
	slash = strrchr(path.buf, '/');
	strbuf_setlen(&path, slash - path.buf);
	ret = mkdirs(path.buf, 0755, WW_ERROR);
	strbuf_addf(&path, "/%s", slash + 1);
	while (!ret && (n = archive_read_data(a, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			ret = error("gcov disk: %s: %s", rel, archive_error_string(a));
			break;
		}
		if (data.len + (size_t)n > (16u << 20)) {
			ret = error("gcov disk: %s is larger than 16 MB", rel);
			break;
		}
		strbuf_add(&data, buf, (size_t)n);
	}
	if (!ret)
		ret = strbuf_write_file(&data, path.buf);
	strbuf_release(&path);
	strbuf_release(&data);
	return ret;
}

int kguest_read_gcda(struct kguest *g, size_t *nr)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int ret = 0, r;

	*nr = 0;
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, g->gcov_disk, 1 << 16) != ARCHIVE_OK) {
		ret = error_code(WW_ENOTFOUND, "gcov disk '%s': %s", g->gcov_disk,
				 archive_error_string(a));
		goto out;
	}
	ret = mkdirs(g->gcda_dir, 0755, WW_ERROR);
	while (!ret && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *p = safe_gcda_path(archive_entry_pathname(e));

		if (!p || archive_entry_filetype(e) != AE_IFREG)
			continue;
		ret = write_entry(a, g->gcda_dir, p);
		if (!ret)
			(*nr)++;
	}
	if (!ret && r != ARCHIVE_EOF)
		ret = error_code(*nr ? WW_EINPUT : WW_ENOTFOUND,
				 "gcov disk '%s' holds no readable tar: %s",
				 g->gcov_disk, archive_error_string(a));
	else if (!ret && !*nr)
		ret = error_code(WW_ENOTFOUND, "gcov disk '%s' holds no .gcda file",
				 g->gcov_disk);
out:
	archive_read_free(a);
	return ret;
}

int kguest_fsck(struct kguest *g)
{
	double t0 = monotonic_now();
	int ret = 0;

	for (size_t i = 0; i < g->nr_images && !ret; i++) {
		struct kguest_image *im = &g->images[i];
		struct fsimage_fsck f = FSIMAGE_FSCK_INIT;

		ret = fsimage_check(&f, im->path);
		if (!ret) {
			im->clean = f.clean;
			strbuf_reset(&im->fsck_output);
			strbuf_addbuf(&im->fsck_output, &f.output);
			if (im->clean)
				unlink(im->path);
		}
		fsimage_fsck_release(&f);
	}
	g->fsck_seconds += monotonic_now() - t0;
	return ret;
}

void kguest_release(struct kguest *g)
{
	struct kguest blank = KGUEST_INIT;

	free(g->dir);
	free(g->kernel_ci);
	free(g->initrd);
	if (g->gcov_disk)
		unlink(g->gcov_disk);
	free(g->gcov_disk);
	free(g->gcda_dir);
	testmap_sel_release(&g->sel);
	kselftest_result_release(&g->kselftests);
	for (size_t i = 0; i < g->nr_images; i++) {
		free(g->images[i].workload);
		free(g->images[i].name);
		free(g->images[i].features);
		free(g->images[i].path);
		strbuf_release(&g->images[i].fsck_output);
	}
	free(g->images);
	strvec_clear(&g->not_built);
	*g = blank;
}
