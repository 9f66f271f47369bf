/*
 * The guest's user space: a newc cpio (libarchive), gzip-compressed when
 * the kernel can unpack that, holding
 *
 *   /bin/busybox            Debian's busybox-static, and a symlink to it
 *                           for every applet (`busybox --list-full`)
 *   /init                   kernel-ci/init (busybox sh)
 *   /etc/warnwatch.conf     the run-config /init reads: which kselftests
 *                           with which deadline, which workloads on which
 *                           disk, where the gcov counters go
 *   /kselftest/<target>/    the static selftests (kselftest.h)
 *   /workloads/NAME.sh      kernel-ci/workloads/
 *   /dev/console, /dev/null and the empty mount points
 *
 * Deterministic: entries in a fixed order, mtime 0, owner 0:0, inode
 * numbers counted, no gzip timestamp; the same inputs give the same bytes,
 * so the file can be cached by its inputs' hash.
 *
 * The guest protocol (disks, markers, the gcda tar) is described in
 * docs/kernel-ci-tests.md, "The guest protocol".
 */
#ifndef WW_INITRAMFS_H
#define WW_INITRAMFS_H

#include "ww.h"
#include "kselftest.h"
#include "testmap.h"

/* The first virtio disk receives the gcov tar; images follow from vdb. */
#define INITRAMFS_OUT_DEV "/dev/vda"
#define INITRAMFS_MAX_IMAGES 25		/* vdb .. vdz */
#define INITRAMFS_DEFAULT_WORKLOAD_S 240
#define INITRAMFS_DEFAULT_TEST_S 45	/* kselftest's own default */
/* Bounds inside /init (kernel-ci/init), for initramfs_deadline_s(). */
#define INITRAMFS_KILL_GRACE_S 5
#define INITRAMFS_FIXED_S (6 * 20 + 300 + 60 + 30) /* mounts, gcov, sync, boot */

enum initramfs_compress {
	INITRAMFS_NONE,
	INITRAMFS_GZIP,
};

/* One image disk: /dev/vd(b + index), mounted by workload `workload`. */
struct initramfs_image {
	const char *workload;	/* "ext4": /workloads/ext4.sh, suite workload:ext4 */
	const char *name;	/* "ext4-4k-default" */
	unsigned int timeout_s;	/* 0: INITRAMFS_DEFAULT_WORKLOAD_S */
};

struct initramfs_opts {
	const char *busybox;	/* NULL: /bin/busybox */
	const char *kernel_ci;	/* has init and workloads/; NULL: kbuild_config_dir() */
	/* Built selftests and the selection (tests[], test_names[]); either
	 * may be NULL.  A selected test whose binary is not in `kselftests`
	 * is listed as missing: /init reports it without running it. */
	const struct kselftest_result *kselftests;
	const struct testmap_sel *sel;
	const struct initramfs_image *images;
	size_t nr_images;
	/* The build directory as the compiler saw it ("/ww/build"): /init
	 * copies /sys/kernel/debug/gcov<prefix>/ **.gcda out.  NULL: no gcov. */
	const char *gcov_prefix;
	enum initramfs_compress compress;
};

#define INITRAMFS_OPTS_INIT { .compress = INITRAMFS_GZIP }

/*
 * Write the initramfs to `path` (through path.tmp and a rename).
 * Errors: WW_ENOTFOUND (no busybox, no init), WW_EINPUT (a name that
 * cannot go into the run-config: only [A-Za-z0-9._:/+-]; too many images),
 * WW_ECHILD (busybox --list-full failed), WW_ERROR (libarchive, I/O).
 */
int initramfs_write(const char *path, const struct initramfs_opts *o);

/* The run-config /init reads (/etc/warnwatch.conf), into `out`.  Exposed
 * for tests.  Errors as initramfs_write(). */
int initramfs_conf(struct strbuf *out, const struct initramfs_opts *o);

/* GZIP when the kernel's .config has CONFIG_RD_GZIP=y, else NONE (also
 * when it cannot be read: an uncompressed cpio always unpacks). */
enum initramfs_compress initramfs_compress_for(const char *dotconfig);

/* The longest /init can take by its own bounds: every test's and
 * workload's deadline plus the kill grace, the mounts, gcov, sync and a
 * margin for the boot (INITRAMFS_FIXED_S).  For QEMU's deadline. */
unsigned int initramfs_deadline_s(const struct initramfs_opts *o);

/*
 * The other end of /init's gcov step: unpack the tar it wrote from offset
 * 0 of the raw disk image `disk` (the file behind /dev/vda) into `dir`,
 * as gcov_line_counts() wants it (dir/fs/ext4/namei.gcda).  The guest is
 * untrusted: only regular files named *.gcda with plain relative paths
 * ([A-Za-z0-9._+-/], no "..") are written, at most
 * INITRAMFS_GCDA_MAX_FILES of INITRAMFS_GCDA_MAX_SIZE bytes each; other
 * entries are counted in *refused and skipped.  WW_ENOTFOUND when the disk
 * holds no archive (still zeros: /init never got there, or had no
 * counters); WW_ERROR for I/O.
 */
#define INITRAMFS_GCDA_MAX_FILES 20000
#define INITRAMFS_GCDA_MAX_SIZE (16u << 20)
int initramfs_gcda_unpack(size_t *nr, size_t *refused, const char *disk,
			  const char *dir);

#endif
