/*
 * Opening files where someone else may have put something: a build
 * directory the sandbox wrote, a kernel tree a series patched, a directory
 * served to the world.  One rule for all of them (docs/security.md):
 *
 *  - a path named by untrusted data (a console line, a URL, a gcov file
 *    name) is opened relative to a directory fd with openat2() and
 *    RESOLVE_BENEATH, so neither ".." nor a symlink can lead out of it;
 *    SAFEFS_NO_SYMLINKS refuses symlinks altogether.  On kernels without
 *    openat2 the path is walked one component at a time with O_NOFOLLOW
 *    (symlinks refused outright, ".." too);
 *  - only regular files are read (a FIFO would block, a device would not
 *    end);
 *  - new files are created with O_CREAT|O_EXCL|O_NOFOLLOW under a random
 *    name in the target's own directory and renamed over it
 *    (strbuf_write_file() does this for every caller).
 */
#ifndef WW_SAFEFS_H
#define WW_SAFEFS_H

#include "ww.h"
#include "strbuf.h"

enum safefs_flags {
	SAFEFS_NO_SYMLINKS = 1 << 0,	/* refuse every symlink, even inside */
};

/*
 * Open `rel` beneath the directory `dirfd` (open(2) `flags`, O_CLOEXEC
 * and O_NOCTTY added).  Returns the fd, or -1 with errno set (EXDEV or
 * ELOOP when the path would leave the directory or meets a refused
 * symlink).  No error message: callers name what they were opening.
 */
int safefs_openat(int dirfd, const char *rel, int flags, unsigned int how);

/*
 * Read the regular file `rel` beneath the directory `root` into `sb`
 * (appending; at most `cap` bytes, 0 for no cap).  WW_ENOTFOUND when it
 * does not exist, WW_EINPUT when the path leaves `root`, meets a refused
 * symlink or is not a regular file; the message names root/rel.
 */
int safefs_read(struct strbuf *sb, const char *root, const char *rel,
		size_t cap, unsigned int how);

/*
 * Is `rel` beneath `root` a regular file reached without leaving `root`
 * (and, with SAFEFS_NO_SYMLINKS, without any symlink)?  For paths handed
 * to other programs (qemu's -kernel, gcov's notes).
 */
bool safefs_is_regular(const char *root, const char *rel, unsigned int how);

/*
 * Create a new file in the directory `dirfd` named "<base>.tmp.<random>"
 * with O_CREAT|O_EXCL|O_NOFOLLOW (mode & ~umask), its name into `name`.
 * Returns the fd open for writing, or a negative WW_E* code.
 */
int safefs_create_temp(struct strbuf *name, int dirfd, const char *base,
		       mode_t mode);

/*
 * Read a password file ([smtp] password-file, [state] password-file):
 * its first line, without the newline, into `out`.  A file that is not
 * regular, or that group or others can read, is refused (WW_EINPUT), as
 * ssh refuses such keys; WW_ENOTFOUND when it does not exist.
 */
int safefs_read_secret(struct strbuf *out, const char *path);

#endif
