/*
 * Scratch directories for unit tests: tmp_remove() takes one away with
 * everything in it (nftw, depth first, not following links);
 * tmp_exists() says whether an entry (a link too) is there.
 */
#ifndef WW_TEST_TMPDIR_H
#define WW_TEST_TMPDIR_H

#include "strbuf.h"

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

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

/* Whether `dir`/`rel` exists; a link counts, whatever it points to. */
static inline bool tmp_exists(const char *dir, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	bool ret;

	strbuf_addf(&p, "%s/%s", dir, rel);
	ret = !lstat(p.buf, &st);
	strbuf_release(&p);
	return ret;
}

#endif
