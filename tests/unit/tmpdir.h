/*
 * Scratch directories for unit tests: tmp_remove() takes one away with
 * everything in it (nftw, depth first, not following links).
 */
#ifndef WW_TEST_TMPDIR_H
#define WW_TEST_TMPDIR_H

#include <ftw.h>
#include <stdio.h>

static int tmp_remove_one(const char *path, const struct stat *st, int flag,
			  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static inline void tmp_remove(const char *dir)
{
	nftw(dir, tmp_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
