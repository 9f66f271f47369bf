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
 * series: the file is read beneath it with safefs, and only options
 * that make the compiler read (-I, -D, -include, -f, -m, -W, -std...)
 * are kept.  Options that load or run other programs (-fplugin, -B,
 * -specs, -wrapper, @file) or write files (-o, -M*, -Wp,-MMD, -fdump*,
 * -save-temps) are dropped, and the compiler must be a program name
 * found on PATH (gcc, clang, x86_64-linux-gnu-gcc), never a path.
 *
 * The sandbox builds the source at /ww/src (the build's `source` link):
 * that prefix becomes the tree under review; paths relative to the
 * build directory become absolute, so the words work from any cwd.
 */
#ifndef WW_KCMD_H
#define WW_KCMD_H

#include "strbuf.h"
#include "strvec.h"

struct kcmd {
	struct strvec argv;	/* the compiler, then its flags: no -c, -o, source */
	char *build;		/* the build directory it came from (its cwd) */
};

#define KCMD_INIT { .argv = STRVEC_INIT }

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
