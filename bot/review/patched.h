/*
 * The files a series touches, as they stand after it: the series
 * applied with GNU patch's fuzz (`patch -p1 --fuzz=3`) to a scratch copy
 * of only those files of the base tree, for the facts about each added
 * call (cfacts.h) and for compiling the reply's rewrites there.  Facts
 * alone tolerate fuzz; kernel-ci applies exactly (kapply.h).
 *
 * This is the review's heavy half (libclang): `check` never links it.
 */
#ifndef WW_PATCHED_H
#define WW_PATCHED_H

#include "cfacts.h"
#include "cfront.h"
#include "check.h"
#include "series.h"

struct patched {
	const char *tree;		/* the base tree, absolute when it exists */
	char *tree_real;		/* ... its realpath (owned), or NULL */
	struct strbuf dir;		/* the scratch copy, or empty */
	const struct check_result *r;	/* borrowed */
	struct cfacts *facts;		/* one per finding of r, in order */
	char **paths;			/* ... the file after the series, or NULL */
	/* ... its text when not the scratch file's: the hunk patch refused,
	 * placed in the base's function of that name (byname.h), or NULL */
	char **texts;
	int *lines;			/* ... the call's line in it (1-based) */
	int *base_ok;			/* ... the file as is: 1 compiles, 0 not, -1 unknown */
	struct kcmd *cmds;		/* ... kbuild's command for its object, or empty */
	size_t nr;
	struct strvec builds;		/* build directories to find .o.cmd files in */
	struct strvec failed;		/* "patch 2: fs/x.c" hunks patch refused */
	int *refused;			/* ... the indexes of those patches */
	size_t refused_nr, refused_alloc;
	/* "PATCH:HUNK:FILE": hunks placed with fuzz 3, all context ignored */
	struct strvec blind;
	size_t copied;			/* files of the series the tree has */
	struct cfront cf;		/* the sandboxed front end (cfront.h) */
	/* The screen refused the scratch copy: why; then nothing is parsed
	 * or compiled. */
	char *refused_why;
};

#define PATCHED_INIT { .dir = STRBUF_INIT, .failed = STRVEC_INIT, .builds = STRVEC_INIT, \
		       .blind = STRVEC_INIT, .cf = CFRONT_INIT }

struct patched_opts {
	const struct strvec *alloc_calls;	/* advice.json's, or NULL */
	/*
	 * The configured build directory of the tree (make O=), or NULL:
	 * then the tree itself (built in place) and the kernel-ci cache's
	 * build directories of the same release (kcmd_cache_builds()).
	 */
	const char *build_dir;
	const char *cache_dir;			/* the kernel-ci cache, or NULL */
};

#define PATCHED_OPTS_INIT { 0 }

/*
 * Apply series `s` to a scratch copy of the files it touches in `tree`
 * and read the facts about each added call of `r` (its findings) there,
 * with the object's own kbuild flags when a build directory (o) has its
 * .o.cmd.  When patch refused the call's hunk, or placed it blind (fuzz
 * 3: its context all ignored), or outside the function the hunk names
 * (libclang finds the call in another function, or none), the facts
 * come from the base's function
 * of the name the hunk gives, its signature and context matching, with
 * the hunk's lines placed where its context fits best (byname.h;
 * facts.by_name, and texts[] holds that file for compiling).
 * A file patch refuses with no such function, or a call not found,
 * leaves that finding's facts empty (found false): the reply then says
 * only what the diff proves.  WW_ENOTFOUND: the tree has none of the files the
 * series changes (not the code under review: a tree that holds only the
 * coding-style guide, say).  Errors: a scratch directory that cannot be
 * made, a path that leaves the tree (WW_EINPUT).
 */
int patched_apply(struct patched *out, const char *tree, const struct series *s,
		  const struct check_result *r, const struct patched_opts *o);

/*
 * reply_opts.compile: the file of finding `f` with its call replaced by
 * `code` (indented as the call was), compiled with -fsyntax-only: with
 * kbuild's own command for the object (kcmd.h; its build directory the
 * cwd; *how "kbuild") when a build directory has it, else gcc with
 * cfacts_flags()'s minimal flags (*how "minimal").  1 compiles, 0 does
 * not, negative when it could not be tried (no facts, or the file does
 * not compile without the rewrite either).
 */
int patched_compile(void *data, const struct finding *f, const char *code,
		    const char **how);

/* Remove the scratch copy and free everything. */
void patched_release(struct patched *p);

#endif
