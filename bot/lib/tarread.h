/*
 * Reading a kernel source tree file by file, whether it is a directory or
 * a tarball (/usr/src/linux-source-6.12.tar.xz), without extracting it to
 * disk: libarchive decompresses and untars in memory.  The census walks a
 * 1.5 GB tree twice this way, so the walker also measures where the time
 * goes (decompressing and reading vs the caller's work).
 */
#ifndef WW_TARREAD_H
#define WW_TARREAD_H

#include "ww.h"

/* Largest single file handed to a visitor (the kernel's largest .h is ~20 MB). */
#define TARREAD_MAX_FILE (256u << 20)

struct tarread_file {
	const char *path;	/* relative to the tree's top ("mm/slub.c") */
	const char *data;	/* contents (borrowed, valid during the call) */
	size_t len;
};

/* Whether to read a file's contents: called with its path and size. */
typedef bool (*tarread_want_fn)(void *data, const char *path, size_t size);
/* Called for every wanted file; a negative return stops the walk with it. */
typedef int (*tarread_visit_fn)(void *data, const struct tarread_file *f);

struct tarread_stats {
	size_t entries;		/* regular files seen */
	size_t files;		/* files read (wanted) */
	uint64_t bytes;		/* bytes read from them */
	double read_seconds;	/* in libarchive / read(): decompressing, untarring */
	double visit_seconds;	/* in the visitor */
};

/*
 * Visit the regular files of `source`: a directory (walked in sorted
 * order, ".git" skipped, symlinks not followed) or an archive libarchive
 * can read (tar with xz/gz/bz2/zstd, in archive order).  A single leading
 * directory common to the archive ("linux-source-6.12/") is stripped
 * from the paths.  Stats are added to `stats` (may be NULL).  Errors name
 * `source` and, when it applies, the entry.
 */
int tarread_walk(const char *source, tarread_want_fn want,
		 tarread_visit_fn visit, void *data,
		 struct tarread_stats *stats);

#endif
