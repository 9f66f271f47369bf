/*
 * Opening files beneath a directory that strangers may have written into:
 * see safefs.h.
 */
#include "safefs.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TEMP_TRIES 100

/* No openat2: one component at a time, no symlink and no ".." at all. */
static int walk_nofollow(int dirfd, const char *rel, int flags)
{
	struct strbuf part = STRBUF_INIT;
	const char *p = rel;
	int fd = dup(dirfd);

	while (fd >= 0 && *p) {
		size_t n = strcspn(p, "/");
		int next;

		strbuf_reset(&part);
		strbuf_add(&part, p, n);
		p += n;
		while (*p == '/')
			p++;
		if (!strcmp(part.buf, "..")) {
			close(fd);
			fd = -1;
			errno = EXDEV;
			break;
		}
		next = openat(fd, part.buf, (*p ? O_PATH | O_DIRECTORY : flags) |
			      O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
		close(fd);
		fd = next;
	}
	strbuf_release(&part);
	return fd;
}

int safefs_openat(int dirfd, const char *rel, int flags, unsigned int how)
{
	struct open_how oh = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOCTTY),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (*rel == '/') {
		errno = EXDEV;
		return -1;
	}
	if (how & SAFEFS_NO_SYMLINKS)
		oh.resolve |= RESOLVE_NO_SYMLINKS;
	fd = syscall(SYS_openat2, dirfd, rel, &oh, sizeof(oh));
	if (fd >= 0 || errno != ENOSYS)
		return fd;
	return walk_nofollow(dirfd, rel, flags);
}

/* `rel` beneath `root`, a regular file, open for reading; or a WW_E* code. */
static int open_regular(const char *root, const char *rel, unsigned int how)
{
	struct stat st;
	int rootfd, fd;

	/* The root is warnwatch's own (a worktree, a build directory): only
	 * what lies beneath it is walked without links. */
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot open '%s': %s", root, strerror(errno));
	fd = safefs_openat(rootfd, rel, O_RDONLY | O_NONBLOCK, how);
	close(rootfd);
	if (fd < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND :
				  errno == EXDEV || errno == ELOOP ? WW_EINPUT :
				  WW_ERROR, "cannot open '%s/%s': %s", root,
				  rel, errno == EXDEV ? "it leads out of the directory" :
				  errno == ELOOP ? "a symlink is in the way" :
				  strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_code(WW_EINPUT, "'%s/%s' is not a regular file",
				  root, rel);
	}
	return fd;
}

int safefs_read(struct strbuf *sb, const char *root, const char *rel,
		size_t cap, unsigned int how)
{
	int fd = open_regular(root, rel, how), ret;

	if (fd < 0)
		return fd;
	ret = strbuf_read_fd(sb, fd, cap);
	close(fd);
	if (ret < 0)
		return error_prefix(ret, "'%s/%s'", root, rel);
	return 0;
}

bool safefs_is_regular(const char *root, const char *rel, unsigned int how)
{
	int fd = open_regular(root, rel, how);

	if (fd < 0) {
		error_clear();
		return false;
	}
	close(fd);
	return true;
}

int safefs_create_temp(struct strbuf *name, int dirfd, const char *base,
		       mode_t mode)
{
	for (int i = 0; i < TEMP_TRIES; i++) {
		unsigned char r[8];
		int fd;

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return error("cannot get random bytes: %s",
				     strerror(errno));
		strbuf_reset(name);
		strbuf_addf(name, "%s.tmp.", base);
		for (size_t k = 0; k < sizeof(r); k++)
			strbuf_addf(name, "%02x", r[k]);
		fd = openat(dirfd, name->buf, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd :
			       error("cannot create '%s': %s", name->buf,
				     strerror(errno));
	}
	return error("cannot create a temporary file for '%s'", base);
}

/* Read as ssh reads a key: refused if anyone else could read it (a
 * password others can read is no longer a secret). */
int safefs_read_secret(struct strbuf *out, const char *path)
{
	struct stat st;
	int fd, ret;

	strbuf_reset(out);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot open password file '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_code(WW_EINPUT, "password file '%s' is not a regular file", path);
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return error_code(WW_EINPUT, "password file '%s' is readable by group or others (chmod 600 it)",
				  path);
	}
	ret = strbuf_read_fd(out, fd, 4096);
	close(fd);
	if (ret)
		return error_prefix(ret, "password file '%s'", path);
	strbuf_setlen(out, strcspn(out->buf, "\r\n"));
	return 0;
}
