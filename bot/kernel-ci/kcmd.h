/*
 * A kernel object's own compile command, as kbuild recorded it in the
 * configured build directory: <build>/<dir>/.<obj>.o.cmd, whose first
 * line is "savedcmd_<dir>/<obj>.o := gcc ..." ("cmd_..." before 6.2).
 * The line is make-quoted ($$ for $, $(pound) for #) shell text; it is
 * split here as sh would split it, without a shell, and only up to the
 * first ';' (6.1 appends objtool's run there).  Text that needs a shell
 * (expansions, redirections, pipes, globs) is refused.
 *
 * The build directory was written by sandboxed builds of strangers'
 * series (the cache keeps no build directory that no series touched:
 * a series builds incrementally in its base's), so the .o.cmd is
 * hostile: it is read beneath the build with safefs as data, split
 * without a shell, and only options on an allowlist are kept:
 *   -D -U                   any macro
 *   -I -iquote -idirafter -include -imacros
 *                           a path beneath the tree or the build directory
 *   -isystem                the same, or beneath the compiler's own
 *                           directories (/usr/lib/gcc, /usr/lib/llvm-*,
 *                           /usr/include)
 *   -std=NAME -O* -g* -nostdinc -ansi
 *   -W*                     but not -Wp, -Wl, -Wa, (they pass words on)
 *   -m* and -f*             from fixed lists of the names kernel builds use
 * Everything else is dropped (with its argument) and listed in `dropped`:
 * -x, -fmodule-mapper, -fplugin, -B, -specs, @file, -wrapper, -o, -M*,
 * -save-temps, -fdump*, -ftest-coverage, --param, -Xclang, a path that
 * leaves the trees.  The compiler must be a program name found on PATH
 * (gcc, clang, x86_64-linux-gnu-gcc), never a path.  Whatever is kept
 * runs only in the review's sandbox (cfront.h), never on the host.
 *
 * The sandbox builds the source at /ww/src (the build's `source` link):
 * that prefix becomes the tree under review, /ww/build and paths
 * relative to the build directory become the build's, so the words work
 * from any cwd.
 */
#ifndef WW_KCMD_H
#define WW_KCMD_H

#include "strbuf.h"
#include "strvec.h"

struct kcmd {
	struct strvec argv;	/* the compiler, then its flags: no -c, -o, source */
	char *build;		/* the build directory it came from (realpath) */
	struct strvec dropped;	/* the words refused, each with its argument */
};

#define KCMD_INIT { .argv = STRVEC_INIT, .dropped = STRVEC_INIT }

/* The largest .o.cmd read (6.12's fs/ext4/inode.o.cmd is about 90 KB). */
#define KCMD_FILE_MAX (4u << 20)

/*
 * The words of one make-quoted shell command (`line`, up to its first
 * newline), appended to `out`.  WW_EINPUT for text that needs a shell
 * (an unquoted $ ` | & < > ( ) { } * ? [ ~, an unterminated quote).
 */
int kcmd_split(struct strvec *out, const char *line);

/*
 * The command kbuild used for `rel` ("fs/ext4/inode.c") of the tree
 * `tree`, from the first of `builds` (build directories, in order of
 * preference) that holds its .o.cmd, into `out` (KCMD_INIT).
 * WW_ENOTFOUND: none holds one; WW_EINPUT: the one found does not read
 * as a compile command (said which).
 */
int kcmd_read(struct kcmd *out, const struct strvec *builds, const char *tree,
	      const char *rel);

/*
 * The kernel-ci cache's build directories for the release of `tree`
 * (its Makefile's version): <cache>/build/<version>-<12 hex digits>/,
 * sorted, appended to `out`.  None when the tree has no version or the
 * cache no such directory.
 */
void kcmd_cache_builds(struct strvec *out, const char *cache, const char *tree);

void kcmd_release(struct kcmd *k);

#endif
