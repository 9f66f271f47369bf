/*
 * Unified diffs, whatever tool wrote them.  libgit2's parser
 * (git_diff_from_buffer) only takes git's dialect, with "diff --git"
 * headers; kernel-adjacent projects still post quilt and "diff -ruN"
 * output.  diff_parse() normalises every file of a diff into git's
 * dialect in one pass over the input (synthesising "diff --git" headers,
 * stripping -p1 prefixes and timestamps, skipping binary payloads and
 * "Only in" noise), checks each hunk's line counts itself (libgit2
 * silently drops lines past a hunk's counts), and hands each file's
 * hunks to libgit2, whose git_patch line API gives old/new line numbers.
 *
 * Files are delivered one at a time to a callback, so memory stays
 * bounded by the largest file, not the whole diff.
 */
#ifndef WW_DIFF_H
#define WW_DIFF_H

#include "strbuf.h"

/* Caps on input from strangers (README "Limits"). */
#define DIFF_MAX_LINE (1u << 20)	/* bytes in one line of a hunk or header */

enum diff_status {
	DIFF_MODIFIED,
	DIFF_ADDED,
	DIFF_DELETED,
	DIFF_RENAMED,
	DIFF_COPIED,
};

struct diff_line {
	char origin;		/* '+', '-' or ' ' */
	bool no_eol;		/* followed by "\ No newline at end of file" */
	int old_lineno;		/* pre-image line number, -1 on added lines */
	int new_lineno;		/* post-image line number, -1 on removed lines */
	const char *content;	/* without the newline (borrowed) */
	size_t len;
};

struct diff_hunk {
	int index;		/* 1-based position of the hunk in its file */
	int old_start, old_lines;
	int new_start, new_lines;
	const char *header;	/* "@@ -1,2 +1,3 @@ ctx", no newline (borrowed) */
	size_t header_len;
	const char *context;	/* what follows the second "@@", trimmed */
	size_t context_len;
	struct diff_line *lines;
	size_t nr;
};

/* A hunk's header: "@@ -old_start,old_lines +new_start,new_lines @@". */
struct diff_range {
	int old_start, old_lines;
	int new_start, new_lines;
};

struct diff_file {
	const char *old_path;	/* prefixes stripped; same as new_path unless */
	const char *new_path;	/* renamed or copied (borrowed) */
	enum diff_status status;
	bool binary;		/* a binary change: no hunks, payload skipped */
	bool git;		/* had a "diff --git" header of its own */
	int hunks_total;	/* hunks in the file, including skipped ones */
	struct diff_hunk *hunks; /* the hunks parsed (see diff_opts.anchors) */
	size_t nr;
	/* Every hunk whose header could be read, parsed or not, in order:
	 * what the file's diff does to line numbers (linemap.h). */
	const struct diff_range *ranges;
	size_t ranges_nr;
	/*
	 * The origin (' ', '-' or '+') of each line of those hunks, in
	 * order, hunk after hunk, parsed or not: what the file's diff does
	 * to each line (linemap.h), at a byte a line.  Shorter than the
	 * ranges' counts only after a damaged hunk.
	 */
	const char *shape;
	size_t shape_len;
	/* diff_opts.want_file took the file; false only with every_file,
	 * for a file delivered without hunks so that its ranges are known. */
	bool wanted;
};

/*
 * Called for each file the options select, and for every binary file.
 * Everything `f` points to is valid during the call only.  A negative
 * return stops the parse and is returned by diff_parse().
 */
/* The `reason` diff_opts.damaged gets for a hunk whose tabs a mail client
 * turned to spaces: its lines are read and delivered all the same. */
extern const char diff_reason_tabs[];

typedef int (*diff_file_fn)(const struct diff_file *f, void *data);

struct diff_anchors;

struct diff_opts {
	/*
	 * Files whose post-image path (pre-image for deletions) this
	 * rejects are checked for well-formedness but not parsed further
	 * and not delivered.  NULL: every file.
	 */
	bool (*want_file)(const char *path, void *data);
	void *data;
	/*
	 * NULL-terminated: only hunks whose text contains one of these
	 * strings are parsed by libgit2 and delivered (the others are only
	 * checked).  NULL: every hunk.
	 */
	const char *const *anchors;
	/*
	 * The same strings made ready once with diff_anchors_new(), for a
	 * caller that parses many diffs with one set (a series, a census):
	 * used instead of `anchors`, and left to the caller to free.
	 */
	const struct diff_anchors *anchor_set;
	/* Deliver the files want_file rejects too, with wanted false, no
	 * hunks, and their ranges (to follow lines through them). */
	bool every_file;
	/*
	 * A damaged hunk (truncated, counts that lie, a malformed header,
	 * an over-long line) or file header: with this set, it is reported
	 * here and skipped, and the parse goes on at the next hunk or file
	 * (`hunk` is 1-based, 0 for the file header; `message` is the whole
	 * error as diff_parse() would return it, `reason` its tail).  NULL:
	 * the first damage stops the parse with WW_EINPUT.
	 */
	void (*damaged)(const char *file, int hunk, const char *reason,
			const char *message, void *data);
	void *damaged_data;
};

#define DIFF_OPTS_INIT { 0 }

/*
 * Parse the unified diff in `buf` (prose before, between and after the
 * files is ignored, as "git apply" does).  A malformed diff (a hunk whose
 * counts lie, a truncated hunk, an over-long line) gives WW_EINPUT with a
 * message naming the file and the hunk, unless opts->damaged takes it.
 * `opts` may be NULL.
 */
int diff_parse(const char *buf, size_t len, const struct diff_opts *opts,
	       diff_file_fn fn, void *data);

/*
 * An owned copy of a file as diff_parse() delivered it (paths, hunks,
 * lines, ranges, shape), which outlives the parse: for what reads a
 * parsed patch later instead of parsing it again.  diff_file_free() it.
 */
struct diff_file *diff_file_dup(const struct diff_file *f);
void diff_file_free(struct diff_file *f);

/*
 * How many times this thread called diff_parse() and diff_anchors_new():
 * for tests that hold a check to one parse per patch and one anchor set
 * per series.
 */
struct diff_counts {
	unsigned long parses;
	unsigned long anchor_sets;
};
void diff_counts(struct diff_counts *out);

/*
 * The git-dialect text diff_parse() hands to libgit2, for every file and
 * hunk, appended to `out` (for tests and for debugging odd input).
 */
int diff_normalise(struct strbuf *out, const char *buf, size_t len);

/*
 * The whole of `buf` as one libgit2 diff, for git_apply() and for walking
 * its patches: git's own output is read as it is, anything else (quilt,
 * "diff -ruN") through diff_normalise() first, so that every caller reads
 * a patch the same way.  WW_EINPUT when no file is found; git_diff_free()
 * the result.
 */
struct git_diff;
int diff_to_git(struct git_diff **out, const char *buf, size_t len);

/* Does `buf` look like the start of a diff rather than a mail? */
bool diff_looks_like(const char *buf, size_t len);

/*
 * A set of strings to look for in text all at once (the hunk filter of
 * diff_opts.anchors, open for other filters): about a nanosecond a byte
 * whatever the number of strings.  The strings are copied.
 */
struct diff_anchors *diff_anchors_new(const char *const *v);
/* Does `s` (`n` bytes) contain one of the strings? */
bool diff_anchors_find(const struct diff_anchors *a, const char *s, size_t n);
void diff_anchors_free(struct diff_anchors *a);

const char *diff_status_name(enum diff_status s);

#endif
