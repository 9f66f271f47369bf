/*
 * rm -rf without a child process: see rmtree.h.  Kept caches (the ci run
 * logs, b4's scratch directories) are removed with it; a kernel tree is
 * still removed by `rm -rf` under a deadline (ktree.c, kselftest.c).
 */
#include "rmtree.h"
#include "strbuf.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_at(int dirfd, const char *name, struct strbuf *path,
		     unsigned int depth);

/* Everything in the directory open as `fd` (closed here); `path` names it. */
static int empty_dir(int fd, struct strbuf *path, unsigned int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		ret = error("cannot read '%s': %s", path->buf, strerror(errno));
		close(fd);
		return ret;
	}
	for (;;) {
		int r;

		errno = 0;
		e = readdir(d);
		if (!e)
			break;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		r = remove_at(dirfd(d), e->d_name, path, depth + 1);
		if (r < 0 && !ret)
			ret = r;
	}
	if (errno && !ret)
		ret = error("cannot read '%s': %s", path->buf, strerror(errno));
	closedir(d);
	return ret;
}

static int remove_at(int dirfd, const char *name, struct strbuf *path,
		     unsigned int depth)
{
	size_t len = path->len;
	struct stat st;
	int fd, ret = 0;

	strbuf_addf(path, "%s%s", len ? "/" : "", name);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			ret = error("cannot remove '%s': %s", path->buf,
				    strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
			ret = error("cannot remove '%s': %s", path->buf,
				    strerror(errno));
		goto out;
	}
	if (depth > RMTREE_MAX_DEPTH) {
		ret = error("cannot remove '%s': more than %d directories deep",
			    path->buf, RMTREE_MAX_DEPTH);
		goto out;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = error("cannot remove '%s': %s", path->buf, strerror(errno));
		goto out;
	}
	ret = empty_dir(fd, path, depth);
	if (!ret && unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		ret = error("cannot remove '%s': %s", path->buf, strerror(errno));
out:
	strbuf_setlen(path, len);
	return ret;
}

int rmtree(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = remove_at(AT_FDCWD, path, &sb, 0);

	strbuf_release(&sb);
	return ret;
}
