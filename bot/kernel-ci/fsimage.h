/*
 * Filesystem images for a workload, made on the host without root or a
 * mount (`mke2fs -d`), one per feature set listed in the workload's JSON
 * (kernel-ci/workloads/ext4.json), and checked after the guest is done
 * with `e2fsck -fn` (read-only: never repairs).  Programs run through
 * bot/lib/child.h with deadlines.
 */
#ifndef WW_FSIMAGE_H
#define WW_FSIMAGE_H

#include "ww.h"
#include "strbuf.h"

struct fsimage_spec {
	char *name;		/* "ext4-4k-default": also the file name, NAME.img */
	char *features;		/* mke2fs -O: "has_journal,^dir_index,..." */
	unsigned int block_size; /* 1024 or 4096 */
};

struct fsimage_set {
	char *size;		/* mke2fs size argument: "64M" */
	struct fsimage_spec *specs;
	size_t nr, alloc;
};

#define FSIMAGE_SET_INIT { 0 }

/* Read "image_size" and "images" of a workload JSON.  Errors: WW_ENOTFOUND,
 * WW_EINPUT naming the key.  `out` is the caller's: fsimage_set_release(). */
int fsimage_load(struct fsimage_set *out, const char *path);
void fsimage_set_release(struct fsimage_set *set);

/* Make DIR/NAME.img for `spec` (of `set->size`), filled from `srcdir` when
 * not NULL (mke2fs -d).  The path goes to `img` (appended).  Errors:
 * WW_ECHILD with mke2fs's last line, WW_ETIMEOUT (60 s). */
int fsimage_make(struct strbuf *img, const struct fsimage_set *set,
		 const struct fsimage_spec *spec, const char *dir,
		 const char *srcdir);

#define FSIMAGE_FSCK_LINES 8

struct fsimage_fsck {
	bool clean;
	/* corrupted: the first FSIMAGE_FSCK_LINES lines of e2fsck's complaint
	 * (its banner and pass headers left out); clean: empty. */
	struct strbuf output;
};

#define FSIMAGE_FSCK_INIT { .output = STRBUF_INIT }

/* `e2fsck -fn IMG`: exit 0 is clean, 4 (errors left uncorrected: -n
 * corrects nothing) corrupted; anything else is WW_ECHILD (e.g. not an
 * ext* image at all, 8) or WW_ETIMEOUT (120 s). */
int fsimage_check(struct fsimage_fsck *out, const char *img);
void fsimage_fsck_release(struct fsimage_fsck *f);

#endif
