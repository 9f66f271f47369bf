/*
 * Where a line lands after the rest of a series: a finding's line is in
 * the post-image of its own patch, but a contributor's editor (and a
 * suggested fix) sees the file after the last patch.  The later patches'
 * hunks shift the line, rename its file, or remove it.
 *
 * What each patch does to line numbers is kept in a struct linemap,
 * filled from the parse that finds the findings (check_series() records
 * every file diff_parse() delivers, with the shape of every hunk, the
 * hunks it skipped too), so that following a line parses nothing again.
 */
#ifndef WW_LINEMAP_H
#define WW_LINEMAP_H

#include "diff.h"
#include "series.h"
#include "strbuf.h"

struct linemap_line {
	int old_line;
	int new_line;		/* 0: the line is removed */
};

struct linemap_file {
	char *old_path, *new_path;
	enum diff_status status;
	bool binary;
	struct diff_range *ranges;	/* every hunk's header numbers */
	size_t ranges_nr;
	/* the pre-image lines of every hunk (diff_file.shape), by old_line */
	struct linemap_line *lines;
	size_t lines_nr, lines_alloc;
	bool partial;		/* a damaged hunk's lines are not all known */
};

struct linemap_patch {
	struct linemap_file *files;
	size_t nr, alloc;
	bool damaged;		/* a hunk could not be read: not followed */
};

struct linemap {
	struct linemap_patch *patches;	/* as s->patches */
	size_t nr;
};

#define LINEMAP_INIT { 0 }

/* Room for `patches` patches, recording nothing yet. */
void linemap_init(struct linemap *m, size_t patches);

/* Record file `f` (as diff_parse() delivers it) of patch `patch`. */
void linemap_add_file(struct linemap *m, size_t patch, const struct diff_file *f);

/* Patch `patch` had a damaged hunk or header: lines are not followed
 * through it (linemap_follow() says WW_EINPUT, as a parse would). */
void linemap_set_damaged(struct linemap *m, size_t patch);

/*
 * Follow `line` of `path` as it stands after patch `after` through the
 * patches after it.  *out_line is its line at the end of the series, 0
 * when a later patch removes the line or the file; `out_path` gets the
 * file's final path.  Through a damaged patch: WW_EINPUT (the outputs
 * then hold where the line was before it).  A line the map does not
 * know (inside a damaged hunk): WW_ENOTFOUND.
 */
int linemap_follow(const struct linemap *m, int *out_line, struct strbuf *out_path,
		   size_t after, const char *path, int line);

void linemap_release(struct linemap *m);

/*
 * linemap_follow() through `m`, the map of `s` that check_series() made:
 * nothing is parsed again.  Without it (`m` NULL or of another series),
 * a line with patches after it is not known (WW_ENOTFOUND).
 */
int linemap_final(int *out_line, struct strbuf *out_path, const struct linemap *m,
		  const struct series *s, size_t after, const char *path, int line);

#endif
