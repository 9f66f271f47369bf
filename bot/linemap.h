/*
 * Where a line lands after the rest of a series: a finding's line is in
 * the post-image of its own patch, but a contributor's editor (and a
 * suggested fix) sees the file after the last patch.  The later patches'
 * hunks shift the line, rename its file, or remove it.
 */
#ifndef WW_LINEMAP_H
#define WW_LINEMAP_H

#include "series.h"
#include "strbuf.h"

/*
 * Follow `line` of `path` as it stands after patch s->patches[after]
 * through the patches after it.  *out_line is its line at the end of the
 * series, 0 when a later patch removes the line or the file; `out_path`
 * gets the file's final path.  A later diff that cannot be parsed:
 * WW_EINPUT (the outputs then hold the input unchanged).
 */
int linemap_to_result(int *out_line, struct strbuf *out_path,
		      const struct series *s, size_t after,
		      const char *path, int line);

/* The same through one diff: 0, or the line that `line` becomes. */
int linemap_through_diff(int *out_line, struct strbuf *out_path,
			 const char *diff, size_t len,
			 const char *path, int line);

#endif
