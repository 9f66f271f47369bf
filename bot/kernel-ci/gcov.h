/*
 * How many times given source lines ran, from gcc's coverage data: the
 * .gcno notes file of an instrumented object (written at compile time,
 * next to the object) and its .gcda counters (written by the running
 * program, or for a kernel copied out of /sys/kernel/debug/gcov), read by
 * gcc 12's `gcov --json-format --stdout` and parsed with jansson.
 *
 * The kernel case (CONFIG_GCOV_KERNEL=y, GCOV_PROFILE for the touched
 * objects, out-of-tree build in BUILD):
 *   BUILD/fs/ext4/namei.gcno     written by the compiler next to namei.o;
 *   /sys/kernel/debug/gcov/B/fs/ext4/namei.gcda  in the guest, where B is
 *                                the absolute build directory as the
 *                                compiler saw it (inside the build sandbox
 *                                when there is one), the object's path
 *                                under it unchanged;
 *   GCDA/fs/ext4/namei.gcda      on the host: the guest's copy of
 *                                /sys/kernel/debug/gcov/B with the prefix
 *                                /sys/kernel/debug/gcov/B stripped.
 * So gcda_dir keeps the build directory's relative layout; the guest side
 * only has to strip one prefix (debugfs also holds symlinks to the .gcno
 * files there: they need not be copied, the host has them).
 */
#ifndef WW_GCOV_H
#define WW_GCOV_H

#include "ww.h"

/* The count of a line gcov has nothing for: blank, comment, declaration,
 * or code the compiler removed.  Distinct from 0 ("could run, did not"). */
#define GCOV_NO_DATA (-1LL)

struct gcov_counts {
	/* The source file as the .gcno names it ("../fs/ext4/namei.c",
	 * "/usr/src/linux/fs/ext4/namei.c"); NULL when released. */
	char *file;
	/* count[n] for line n (1-based; count[0] unused), GCOV_NO_DATA or
	 * >= 0; nr is one past the last line gcov reported. */
	long long *count;
	size_t nr;
};

#define GCOV_COUNTS_INIT { 0 }

/*
 * Read the counts of `srcfile` (tree-relative, "fs/ext4/namei.c") from
 * BUILDDIR/fs/ext4/namei.gcno and GCDA_DIR/fs/ext4/namei.gcda: the object
 * is the source file with ".c" replaced, so a header's inline code is not
 * found this way (use gcov_object_counts() with the object that includes
 * it).  `out` must be GCOV_COUNTS_INIT or released; it is the caller's to
 * gcov_counts_release().  Errors (message names the file):
 *   WW_ENOTFOUND  no .gcno (object not instrumented or not built) or no
 *                 .gcda (not copied out of the guest: nothing measured);
 *   WW_EINPUT     gcov's JSON has no entry for srcfile, or is malformed;
 *   WW_ECHILD / WW_ETIMEOUT  gcov failed or passed its 60 s deadline.
 */
int gcov_line_counts(struct gcov_counts *out, const char *builddir,
		     const char *gcda_dir, const char *srcfile);

/*
 * The same for any object: `gcno` and `gcda` are the two files' paths,
 * `srcfile` the source (or header) to report; it matches a gcov file name
 * equal to it or ending in "/" + srcfile.
 */
int gcov_object_counts(struct gcov_counts *out, const char *gcno,
		       const char *gcda, const char *srcfile);

/* Parse gcov's JSON output (exposed for tests); same matching. */
int gcov_parse_json(struct gcov_counts *out, const char *json, size_t len,
		    const char *srcfile);

/* The count of `line`, or GCOV_NO_DATA. */
long long gcov_line(const struct gcov_counts *c, unsigned long line);

/*
 * How many times the statement at lines [line, line + span) ran.  gcc
 * 12's JSON has one record per line (the count of the line's first
 * block, `unexecuted_block`, branches with -b) and no block ids, and a
 * line can have no record although its code ran: `if (WARN_ON_ONCE(x))`
 * had its condition's code put on a neighbouring line.  So: the count of
 * the statement's first line with a record; else of the nearest line
 * above with a record that runs whenever the statement runs (the same
 * basic block: every line from it down is a simple statement ending in
 * ';', a blank or a comment; no brace, label, #if or control statement),
 * read from `src` (`len` bytes, the file as built; NULL: no fallback).
 * Never a line below: a `return` under an `if` says nothing about the
 * condition.  *from is the line whose record was used, 0 with
 * GCOV_NO_DATA when nothing fits (a missing record is not a zero).
 */
long long gcov_statement(const struct gcov_counts *c, const char *src,
			 size_t len, unsigned long line, unsigned int span,
			 unsigned long *from);

void gcov_counts_release(struct gcov_counts *c);

#endif
