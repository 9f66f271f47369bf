/*
 * Unit tests for bot/kernel-ci/fsimage.c with real mke2fs and e2fsck: every feature
 * set of kernel-ci/workloads/ext4.json makes an image (filled from a
 * directory with -d) that fscks clean; a wrong link count set with
 * debugfs makes it corrupted, with e2fsck's complaint; a bad JSON names the
 * key.
 */
#include "fsimage.h"
#include "child.h"
#include "tap.h"


static char tmp[] = "/tmp/t-fsimage.XXXXXX";

static void cleanup(void)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "rm", "-rf", "--", tmp, NULL);
	child_run(&c);
	child_release(&c);
}

/* A real inconsistency e2fsck must find: the file's link count made 5
 * (debugfs -w, e2fsprogs' own editor: no root, no mount). */
static int corrupt(const char *img)
{
	struct child c = CHILD_INIT;
	int ret;

	strvec_pushl(&c.args, "debugfs", "-w", "-R",
		     "set_inode_field /hello links_count 5", img, NULL);
	ret = child_run_ok(&c);
	child_release(&c);
	return ret;
}

int main(void)
{
	const char *top = getenv("WW_TOP");
	struct fsimage_set set = FSIMAGE_SET_INIT, bad = FSIMAGE_SET_INIT;
	struct strbuf p = STRBUF_INIT, src = STRBUF_INIT, img = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret;

	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	strbuf_addf(&p, "%s/kernel-ci/workloads/ext4.json", top ? top : ".");
	ret = fsimage_load(&set, p.buf);
	if (!ok(ret == 0 && set.nr >= 6, "ext4.json loads (%zu images)", set.nr)) {
		printf("# %s\n", error_last());
		goto out;
	}
	/* small images for the test: the feature sets are what matters */
	free(set.size);
	set.size = xstrdup("8M");
	strbuf_addf(&src, "%s/src", tmp);
	strvec_pushl(&c.args, "mkdir", "-p", src.buf, NULL);
	child_run(&c);
	child_release(&c);
	strbuf_setlen(&p, 0);
	strbuf_addstr(&p, "hello\n");
	strbuf_addstr(&src, "/hello");
	strbuf_write_file(&p, src.buf);
	strbuf_setlen(&src, strlen(tmp) + 4);

	if (fsimage_make(&img, &set, &set.specs[0], tmp, src.buf) == WW_ENOTFOUND) {
		skip("not-installed: mke2fs (e2fsprogs)", "the images (%s)", error_last());
		goto out;
	}
	for (size_t i = 0; i < set.nr; i++) {
		struct fsimage_fsck f = FSIMAGE_FSCK_INIT;

		strbuf_setlen(&img, 0);
		ret = fsimage_make(&img, &set, &set.specs[i], tmp, src.buf);
		if (!ok(ret == 0, "mke2fs %s (-O %s -b %u)", set.specs[i].name,
			set.specs[i].features, set.specs[i].block_size))
			printf("# %s\n", error_last());
		ret = fsimage_check(&f, img.buf);
		ok(ret == 0 && f.clean && !f.output.len, "%s fscks clean", set.specs[i].name);
		fsimage_fsck_release(&f);
	}

	{
		struct fsimage_fsck f = FSIMAGE_FSCK_INIT;

		ok(corrupt(img.buf) == 0, "debugfs sets /hello's link count to 5");
		ret = fsimage_check(&f, img.buf);
		ok(ret == 0 && !f.clean, "the damaged image is corrupted");
		ok(f.output.len > 0 && !strstr(f.output.buf, "Pass 1"),
		   "with e2fsck's complaint, pass headers left out");
		for (const char *l = f.output.buf; *l; ) {
			size_t n = strcspn(l, "\n");

			printf("# %.*s\n", (int)n, l);
			l += n + !!l[n];
		}
		fsimage_fsck_release(&f);
	}
	{
		struct fsimage_fsck f = FSIMAGE_FSCK_INIT;

		strbuf_setlen(&p, 0);
		strbuf_addf(&p, "%s/junk.img", tmp);
		strbuf_setlen(&img, 0);
		strbuf_addstr(&img, "not a file system\n");
		strbuf_write_file(&img, p.buf);
		is(fsimage_check(&f, p.buf), WW_ECHILD, "a file that is no ext* image is WW_ECHILD");
		fsimage_fsck_release(&f);
	}
	strbuf_setlen(&p, 0);
	strbuf_addf(&p, "%s/bad.json", tmp);
	strbuf_setlen(&img, 0);
	strbuf_addstr(&img, "{\"image_size\": \"8M\", \"images\": [{\"name\": \"../x\", "
		      "\"features\": \"\", \"block_size\": 4096}]}");
	strbuf_write_file(&img, p.buf);
	is(fsimage_load(&bad, p.buf), WW_EINPUT, "a name with '/' is WW_EINPUT");
	ok(strstr(error_last(), "images[0]"), "... naming the key: %s", error_last());
	is(fsimage_load(&bad, "/nonexistent.json"), WW_ENOTFOUND, "no file: WW_ENOTFOUND");
out:
	fsimage_set_release(&set);
	strbuf_release(&img);
	strbuf_release(&src);
	strbuf_release(&p);
	cleanup();
	return done_testing();
}
