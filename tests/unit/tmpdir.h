/*
 * Scratch directories for unit tests: tmp_remove() takes one away with
 * everything in it (nftw, depth first, not following links);
 * tmp_exists() says whether an entry (a link too) is there; tmp_put()
 * writes a file, making the directories above it.
 */
#ifndef WW_TEST_TMPDIR_H
#define WW_TEST_TMPDIR_H

#include "mkdirs.h"
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

/* `dir`/`rel` holding `text`, its directories made; a failure is a TAP
 * comment (the test that reads the file then fails and says what). */
static inline void tmp_put(const char *dir, const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	char *slash;

	strbuf_addf(&p, "%s/%s", dir, rel);
	slash = strrchr(p.buf, '/');
	*slash = '\0';
	if (mkdirs(p.buf, 0755, WW_ERROR) < 0)
		printf("# cannot make %s\n", p.buf);
	*slash = '/';
	strbuf_addstr(&t, text);
	if (strbuf_write_file(&t, p.buf) < 0)
		printf("# cannot write %s\n", p.buf);
	strbuf_release(&p);
	strbuf_release(&t);
}

#endif
