/*
 * Removing a directory and everything in it (rm -rf), in-process and
 * without following symbolic links.
 */
#ifndef WW_RMTREE_H
#define WW_RMTREE_H

#include "ww.h"

/* Directories deeper than this below the top are refused, not walked. */
#define RMTREE_MAX_DEPTH 256

/*
 * Remove `path` and, when it is a directory, everything beneath it.  A
 * symbolic link (at the top or anywhere below) is removed itself, never
 * what it points to; each directory is opened relative to its parent with
 * O_NOFOLLOW, so a directory swapped for a link during the walk is not
 * followed either.  A `path` that does not exist is not an error.  Goes on
 * past an entry it cannot remove and returns the first failure (WW_ERROR,
 * "cannot remove '<entry>': <reason>"), else 0.
 */
int rmtree(const char *path);

#endif
