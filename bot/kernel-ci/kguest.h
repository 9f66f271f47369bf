/*
 * The guest's user space for one `warnwatch ci` run (issue 10): which
 * tests the touched files get (testmap.h), their kselftests built from the
 * patched tree (kselftest.h), the workloads' file system images
 * (fsimage.h), the initramfs with kernel-ci/init (initramfs.h) and the
 * empty disk /init writes the gcov counters to; and after the boot, the
 * .gcda files read back from that disk and e2fsck's verdict on each image.
 *
 * Disks, in QEMU order: /dev/vda the gcov disk (raw, KGUEST_GCOV_DISK_MB,
 * zeros; /init writes a ustar of the .gcda files from offset 0), then one
 * per image, /dev/vdb onwards.  Everything lives in the run's log
 * directory: initramfs.cpio.gz, gcov.raw, images/NAME.img, gcda/.
 *
 * gcov: kguest_gcov_commit() adds "GCOV_PROFILE_namei.o := y" for every
 * touched .c file that gets a BUG/WARN-family call to its directory's
 * Kbuild file (else Makefile), as one commit of warnwatch's own on top of
 * the series, so only those objects are instrumented
 * (CONFIG_GCOV_KERNEL=y, never GCOV_PROFILE_ALL) and the next series
 * checks the Makefile out as it was.
 */
#ifndef WW_KGUEST_H
#define WW_KGUEST_H

#include "fsimage.h"
#include "kselftest.h"
#include "ktree.h"
#include "testmap.h"

#define KGUEST_GCOV_DISK_MB 64
/* Base of QEMU's deadline for a boot with user space: the KUnit suites. */
#define KGUEST_KUNIT_S 300

struct kguest_image {
	char *workload;		/* "ext4" */
	char *name;		/* "ext4-4k-default" */
	char *features;		/* mke2fs -O */
	char *path;		/* <dir>/images/NAME.img */
	unsigned int timeout_s;	/* the workload's whole deadline */
	bool clean;		/* after kguest_fsck() */
	struct strbuf fsck_output;
};

struct kguest {
	char *dir;		/* the run's log directory */
	char *kernel_ci;	/* where init and workloads/ were read from */
	char *initrd;		/* <dir>/initramfs.cpio[.gz] */
	char *gcov_disk;	/* <dir>/gcov.raw */
	char *gcda_dir;		/* <dir>/gcda: the .gcda files, build layout */
	struct testmap_sel sel;
	struct kselftest_result kselftests;
	struct kguest_image *images;
	size_t nr_images, alloc_images;
	unsigned int deadline_s; /* initramfs_deadline_s() of /init */
	struct strvec not_built; /* "target: first error" */
	double kselftest_seconds, image_seconds, initramfs_seconds, fsck_seconds;
};

#define KGUEST_INIT { .sel = TESTMAP_SEL_INIT, .kselftests = KSELFTEST_RESULT_INIT, \
			.not_built = STRVEC_INIT }

struct kguest_opts {
	const char *cache_dir;	/* kselftest cache */
	const char *kernel_ci;	/* tests.json, init, workloads/; NULL: kbuild_config_dir() */
	const char *dotconfig;	/* the kernel's .config (gzip or not) */
	unsigned int jobs;
};

#define KGUEST_OPTS_INIT { 0 }

/*
 * Commit GCOV_PROFILE lines for the .c files in `files` (tree-relative)
 * on top of `head`, into `out` (== head when there is nothing to add).
 * Not checked out.
 */
int kguest_gcov_commit(git_oid *out, struct ktree *t, const git_oid *head,
		       const struct strvec *files);

/*
 * Select the tests for `touched` on tree `t` (checked out), build the
 * kselftests, make the images, write the initramfs and the empty gcov
 * disk into `dir`.  Returns 0, or a negative code (message set) when the
 * machinery fails; a kselftest target that does not build is not an error
 * (g->not_built).
 */
int kguest_prepare(struct kguest *g, struct ktree *t, const struct strvec *touched,
		   const char *dir, const struct kguest_opts *o);

/*
 * What the guest runs, as text for the base boot's cache key: the selected
 * kselftests, workloads and images, and the contents of /init and of each
 * selected workload's script and JSON (a changed script is another test
 * set: its cached base boot ran the old one).  Appended to `out`; a file
 * that cannot be read is an error.
 */
int kguest_test_set(struct strbuf *out, const struct kguest *g);

/* The QEMU disks in order (gcov disk, then images), appended to `out`. */
void kguest_drives(struct strvec *out, const struct kguest *g);

/* Make the images and the gcov disk afresh (before another boot). */
int kguest_reset_disks(struct kguest *g);

/*
 * Read the gcov disk's ustar into g->gcda_dir (only regular *.gcda files,
 * paths without ".." or a leading "/").  *nr gets how many.  WW_ENOTFOUND
 * when the disk holds no archive or no .gcda (/init never got that far).
 */
int kguest_read_gcda(struct kguest *g, size_t *nr);

/* e2fsck -fn every image; clean images are deleted, corrupted ones kept. */
int kguest_fsck(struct kguest *g);

void kguest_release(struct kguest *g);

#endif
