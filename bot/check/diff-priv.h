/*
 * The diff parser's state, shared by diff.c (lines, hunks, libgit2) and
 * diff-header.c (file headers: git's extended lines, plain "--- "/"+++ "
 * pairs, quoted paths).  Not an API: include diff.h.
 */
#ifndef WW_DIFF_PRIV_H
#define WW_DIFF_PRIV_H

#include "diff.h"

enum state {
	S_TEXT,			/* outside any file: prose, noise lines */
	S_GIT_HEADER,		/* after "diff --git", before the first hunk */
	S_PLAIN_HEADER,		/* after a "--- "/"+++ " pair */
	S_HUNK,			/* inside a hunk, counts not yet exhausted */
	S_AFTER_HUNK,		/* a hunk's counts are exhausted */
	S_BINARY,		/* skipping a "GIT binary patch" payload */
	S_SKIP,			/* skipping a damaged hunk (opts->damaged) */
};

/*
 * libgit2 rejects hunk headers over 128 bytes; git itself cuts the
 * function context at 80 bytes.
 */
#define HUNK_CONTEXT_MAX 80

/* Hunks shorter than this are kept or dropped whole, not split. */
#define SPLIT_MIN_LINES 64

/* What the parser knows about the file being read, before libgit2. */
struct cur_file {
	bool git;
	bool noprefix;		/* "diff --git X X": git diff --no-prefix */
	bool binary;
	bool want;
	bool have_index;
	bool header_seen[16];	/* git_header_lines[], then "--- ", "+++ " */
	enum diff_status status;
	struct strbuf old_path;
	struct strbuf new_path;
	int hunks_total;
	int *sel;		/* file-relative index of each hunk in `seg` */
	size_t sel_nr, sel_alloc;
	bool header_damaged;	/* skip the whole file, not only a hunk */
	struct diff_range *ranges;	/* every hunk header read */
	size_t ranges_nr, ranges_alloc;
	struct strbuf shape;	/* diff_file.shape */
};

struct parser {
	const char *buf;
	size_t len;
	size_t pos;
	const struct diff_opts *opts;
	diff_file_fn fn;
	void *data;
	struct strbuf *normalised;	/* diff_normalise(): collect, no libgit2 */
	bool crlf;

	const char *line;	/* the current line, without "\n" (or "\r\n") */
	size_t line_len;

	enum state state;
	struct cur_file f;
	struct strbuf seg;	/* git-dialect header + copied hunks */
	struct strbuf tmp;	/* scratch for splitting a hunk */
	size_t hunk_start;	/* offset of the current hunk in `seg` */
	bool copying;		/* the current hunk goes into `seg` */
	long old_left, new_left;
	int old_start, old_count, new_start, new_count;
	size_t hunk_line;	/* 1-based line within the current hunk body */
	int damaged_hunk;	/* -1, or the hunk (0: header) of the last error */
	bool hunk_tab;		/* the hunk has a tab somewhere */
	int hunk_space_indent;	/* its pre-image lines indented with 8 spaces */
	bool reparse;		/* that error's line starts what comes next */

	const struct diff_anchors *anchors;	/* ready to search, or NULL */
	struct diff_anchors *own_anchors;	/* made from opts->anchors */

	/* Reused for every file handed to the callback. */
	struct diff_hunk *hunks;
	size_t hunks_alloc;
	struct diff_line *lines;
	size_t lines_alloc;
};

/* diff.c: the parser itself. */
bool diff_parser_line_is(const struct parser *p, const char *prefix);
const char *diff_parser_path(const struct parser *p);
/* A damaged hunk (1-based) or, for hunk 0, the file header: see diff.c. */
int diff_parser_damage(struct parser *p, int hunk, const char *fmt, ...) WW_PRINTF(3, 4);
void diff_parser_file_reset(struct cur_file *f);
int diff_parser_finish_file(struct parser *p);
int diff_parser_begin_hunk(struct parser *p);
bool diff_parser_hunk_header(struct parser *p);
void diff_parser_seg_add_line(struct parser *p);
bool diff_parser_want_path(const struct parser *p, const char *path);

/* diff-header.c: the file headers. */
void diff_header_git_start(struct parser *p);
int diff_header_git_line(struct parser *p);
void diff_header_plain_start(struct parser *p, const char *plus, size_t plus_len);
int diff_header_plain_first_hunk(struct parser *p);
int diff_header_plain_binary(struct parser *p);

#endif
