/*
 * Growable byte buffers: see strbuf.h.
 */
#include "strbuf.h"
#include "safefs.h"

#include <fcntl.h>
#include <unistd.h>

char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_swap(struct strbuf *a, struct strbuf *b)
{
	struct strbuf tmp = *a;

	*a = *b;
	*b = tmp;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	bool fresh = !sb->alloc;

	if (need < sb->len)
		BUG("strbuf size overflow");
	if (need <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	sb->alloc = sb->alloc ? sb->alloc * 2 : 64;
	if (sb->alloc < need)
		sb->alloc = need;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("strbuf_setlen beyond buffer");
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	strbuf_setlen(sb, sb->len + len);
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0,
		      fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed");
	if ((size_t)n >= (sb->alloc ? sb->alloc - sb->len : 0)) {
		strbuf_grow(sb, n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	strbuf_setlen(sb, sb->len + n);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == ' ' ||
			   sb->buf[sb->len - 1] == '\t' ||
			   sb->buf[sb->len - 1] == '\n' ||
			   sb->buf[sb->len - 1] == '\r'))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

bool strbuf_unwrap(struct strbuf *sb, const char *open)
{
	size_t n = strlen(open), i;
	int depth = 1;

	strbuf_trim(sb);
	if (!n || open[n - 1] != '(' || sb->len <= n || strncmp(sb->buf, open, n))
		return false;
	for (i = n; i < sb->len && depth; i++)
		depth += (sb->buf[i] == '(') - (sb->buf[i] == ')');
	if (depth || i != sb->len)
		return false;
	memmove(sb->buf, sb->buf + n, sb->len - n - 1);
	strbuf_setlen(sb, sb->len - n - 1);
	strbuf_trim(sb);
	return true;
}

void strbuf_trim(struct strbuf *sb)
{
	size_t skip = 0;

	strbuf_rtrim(sb);
	while (skip < sb->len && (sb->buf[skip] == ' ' || sb->buf[skip] == '\t' ||
				  sb->buf[skip] == '\n' || sb->buf[skip] == '\r'))
		skip++;
	if (skip) {
		memmove(sb->buf, sb->buf + skip, sb->len - skip);
		strbuf_setlen(sb, sb->len - skip);
	}
}

int strbuf_read_fd(struct strbuf *sb, int fd, size_t cap)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return error("read failed: %s", strerror(errno));
		if (n == 0)
			break;
		strbuf_setlen(sb, sb->len + n);
		if (cap && sb->len - start > cap)
			return error_code(WW_ETOOBIG, "more than %zu bytes", cap);
	}
	return 0;
}

int strbuf_read_file(struct strbuf *sb, const char *path, size_t cap)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot open '%s': %s", path, strerror(errno));
	ret = strbuf_read_fd(sb, fd, cap);
	close(fd);
	if (ret < 0)
		return error_prefix(ret, "'%s'", path);
	return 0;
}

int strbuf_write_file(const struct strbuf *sb, const char *path)
{
	struct strbuf dir = STRBUF_INIT, tmp = STRBUF_INIT;
	const char *slash = strrchr(path, '/'), *base;
	size_t off = 0;
	int dirfd, fd, ret = -1;

	/*
	 * The temp file and the rename stay in one directory, held by fd.
	 * The directory is the caller's choice and may be reached through an
	 * operator's link (~/.cache on another disk); what a stranger may
	 * have planted is the name inside it, which is never followed.
	 */
	if (slash)
		strbuf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		strbuf_addch(&dir, '.');
	base = slash ? slash + 1 : path;
	dirfd = open(dir.buf, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		ret = error("cannot create '%s': %s", path, strerror(errno));
		goto out_free;
	}
	fd = safefs_create_temp(&tmp, dirfd, base, 0644);
	if (fd < 0) {
		ret = error_prefix(fd, "cannot write '%s'", path);
		goto out_closedir;
	}
	while (off < sb->len) {
		ssize_t n = write(fd, sb->buf + off, sb->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = error("cannot write '%s': %s", path, strerror(errno));
			goto out_close;
		}
		off += n;
	}
	if (fsync(fd) < 0) {
		ret = error("cannot write '%s': %s", path, strerror(errno));
		goto out_close;
	}
	if (close(fd) < 0) {
		ret = error("cannot write '%s': %s", path, strerror(errno));
		goto out_unlink;
	}
	/* rename() replaces a symlink at `base`; it never follows one. */
	if (renameat(dirfd, tmp.buf, dirfd, base) < 0) {
		ret = error("cannot rename to '%s': %s", path, strerror(errno));
		goto out_unlink;
	}
	ret = 0;
	goto out_closedir;
out_close:
	close(fd);
out_unlink:
	unlinkat(dirfd, tmp.buf, 0);
out_closedir:
	close(dirfd);
out_free:
	strbuf_release(&tmp);
	strbuf_release(&dir);
	return ret;
}
