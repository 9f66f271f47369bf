/*
 * Walking a source tree or a tarball file by file (see tarread.h).
 */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "strbuf.h"
#include "env.h"
#include "tarread.h"

struct walk {
	const char *source;
	tarread_want_fn want;
	tarread_visit_fn visit;
	void *data;
	struct tarread_stats st;
	struct strbuf content;
};

static int visit_file(struct walk *w, const char *path)
{
	struct tarread_file f = { path, w->content.buf, w->content.len };
	double t0 = monotonic_now();
	int ret = w->visit(w->data, &f);

	w->st.visit_seconds += monotonic_now() - t0;
	w->st.files++;
	w->st.bytes += w->content.len;
	return ret;
}

/* --- xz, decompressed on several threads ----------------------------- */

/*
 * libarchive decodes xz on one thread.  Debian's linux-source tarballs
 * are multi-block xz (62 blocks of 24 MiB for 6.12), which liblzma can
 * decode in parallel, so for .xz files we decompress ourselves and hand
 * libarchive the plain tar.  Single-block files still work (liblzma
 * falls back to one thread).
 */
struct xz_source {
	int fd;
	lzma_stream strm;
	bool eof;
	uint8_t in[1 << 20];
	uint8_t out[1 << 20];
};

static bool is_xz(int fd)
{
	static const unsigned char magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	unsigned char head[6];

	return pread(fd, head, sizeof(head), 0) == sizeof(head) &&
	       !memcmp(head, magic, sizeof(head));
}

static la_ssize_t xz_read(struct archive *a, void *data, const void **buf)
{
	struct xz_source *x = data;

	x->strm.next_out = x->out;
	x->strm.avail_out = sizeof(x->out);
	while (x->strm.avail_out == sizeof(x->out)) {
		lzma_ret r;

		if (!x->strm.avail_in && !x->eof) {
			ssize_t n = read(x->fd, x->in, sizeof(x->in));

			if (n < 0) {
				archive_set_error(a, errno, "read: %s", strerror(errno));
				return -1;
			}
			x->eof = !n;
			x->strm.next_in = x->in;
			x->strm.avail_in = n;
		}
		r = lzma_code(&x->strm, x->eof ? LZMA_FINISH : LZMA_RUN);
		if (r == LZMA_STREAM_END)
			break;
		if (r != LZMA_OK) {
			archive_set_error(a, EIO, "xz: %s", r == LZMA_DATA_ERROR ?
					  "corrupt data" : r == LZMA_BUF_ERROR ?
					  "truncated" : "cannot decompress");
			return -1;
		}
	}
	*buf = x->out;
	return sizeof(x->out) - x->strm.avail_out;
}

static int xz_close(struct archive *a, void *data)
{
	struct xz_source *x = data;

	lzma_end(&x->strm);
	close(x->fd);
	free(x);
	return ARCHIVE_OK;
}

/* Open `path` on `a` through the threaded xz decoder; 1 if not xz. */
static int open_xz(struct archive *a, const char *path)
{
	lzma_mt mt = { 0 };
	struct xz_source *x;
	const char *env = env_get(ENV_WARNWATCH_XZ_THREADS);
	uint32_t threads = env && *env ? (uint32_t)atoi(env) : lzma_cputhreads();
	int fd;

	/* WARNWATCH_XZ_THREADS=0: libarchive's own (single-thread) decoder. */
	if (!threads)
		return 1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;	/* libarchive reports it */
	if (!is_xz(fd)) {
		close(fd);
		return 1;
	}
	x = xcalloc(1, sizeof(*x));
	x->fd = fd;
	x->strm = (lzma_stream)LZMA_STREAM_INIT;
	mt.flags = LZMA_CONCATENATED;
	mt.threads = threads > 4 ? 4 : threads;
	mt.memlimit_threading = 1024u << 20;
	mt.memlimit_stop = UINT64_MAX;
	if (lzma_stream_decoder_mt(&x->strm, &mt) != LZMA_OK) {
		close(fd);
		free(x);
		return 1;
	}
	return archive_read_open(a, x, NULL, xz_read, xz_close) == ARCHIVE_OK ? 0 : -1;
}

/* --- archives ------------------------------------------------------- */

static int archive_fail(struct walk *w, struct archive *a, const char *entry)
{
	const char *why = archive_error_string(a);

	if (entry)
		return error_code(WW_EINPUT, "'%s': '%s': %s", w->source, entry,
				  why ? why : "read error");
	return error_code(WW_EINPUT, "'%s': %s", w->source,
			  why ? why : "cannot read archive");
}

static int read_entry_data(struct walk *w, struct archive *a,
			   const char *path, int64_t size)
{
	strbuf_reset(&w->content);
	if (size > 0)
		strbuf_grow(&w->content, (size_t)size);
	for (;;) {
		la_ssize_t n;

		strbuf_grow(&w->content, 65536);
		n = archive_read_data(a, w->content.buf + w->content.len,
				      w->content.alloc - w->content.len - 1);
		if (n < 0)
			return archive_fail(w, a, path);
		if (!n)
			break;
		strbuf_setlen(&w->content, w->content.len + n);
		if (w->content.len > TARREAD_MAX_FILE)
			return error_code(WW_ETOOBIG, "'%s': '%s': over %u MiB",
					  w->source, path, TARREAD_MAX_FILE >> 20);
	}
	return 0;
}

static int walk_archive(struct walk *w)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	struct strbuf top = STRBUF_INIT;
	bool first = true;
	int ret = 0, r;
	double t0;

	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	t0 = monotonic_now();
	r = open_xz(a, w->source);
	if (r > 0)
		r = archive_read_open_filename(a, w->source, 1 << 20) == ARCHIVE_OK ? 0 : -1;
	if (r < 0) {
		ret = archive_fail(w, a, NULL);
		goto out;
	}
	for (;;) {
		const char *path;
		int64_t size;

		r = archive_read_next_header(a, &e);

		if (r == ARCHIVE_EOF)
			break;
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			ret = archive_fail(w, a, NULL);
			goto out;
		}
		path = archive_entry_pathname(e);
		if (!path)
			continue;
		while (starts_with(path, "./"))
			path += 2;
		/* "linux-source-6.12/" as the first entry: strip it from all. */
		if (first) {
			const char *slash = strchr(path, '/');

			first = false;
			if (slash && archive_entry_filetype(e) == AE_IFDIR &&
			    !slash[1])
				strbuf_add(&top, path, slash + 1 - path);
		}
		if (top.len && !strncmp(path, top.buf, top.len))
			path += top.len;
		if (archive_entry_filetype(e) != AE_IFREG || !*path)
			continue;
		w->st.entries++;
		size = archive_entry_size(e);
		if (!w->want(w->data, path, size < 0 ? 0 : (size_t)size))
			continue;
		{
			/* The entry's path lives in `e`, which reading data keeps. */
			char *p = xstrdup(path);

			ret = read_entry_data(w, a, p, size);
			w->st.read_seconds += monotonic_now() - t0;
			if (!ret)
				ret = visit_file(w, p);
			free(p);
			t0 = monotonic_now();
			if (ret < 0)
				goto out;
		}
	}
	w->st.read_seconds += monotonic_now() - t0;
out:
	archive_read_free(a);
	strbuf_release(&top);
	return ret;
}

/* --- directories ---------------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_dir(struct walk *w, struct strbuf *rel, int depth)
{
	struct strbuf abs = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, alloc = 0, base = rel->len;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (depth > 64)
		return error_code(WW_EINPUT, "'%s': '%s': directories nested too deep",
				  w->source, rel->buf);
	strbuf_addf(&abs, "%s/%s", w->source, rel->buf);
	d = opendir(abs.buf);
	if (!d) {
		ret = error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				 "cannot open directory '%s': %s", abs.buf,
				 strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, ".git"))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_names);

	for (size_t i = 0; i < nr && !ret; i++) {
		struct stat st;
		double t0 = monotonic_now();

		strbuf_setlen(rel, base);
		strbuf_addstr(rel, names[i]);
		strbuf_reset(&abs);
		strbuf_addf(&abs, "%s/%s", w->source, rel->buf);
		if (lstat(abs.buf, &st) < 0)
			continue;	/* vanished while we walked */
		if (S_ISDIR(st.st_mode)) {
			strbuf_addch(rel, '/');
			ret = walk_dir(w, rel, depth + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		w->st.entries++;
		if (!w->want(w->data, rel->buf, (size_t)st.st_size))
			continue;
		if (st.st_size > TARREAD_MAX_FILE) {
			ret = error_code(WW_ETOOBIG, "'%s': over %u MiB", abs.buf,
					 TARREAD_MAX_FILE >> 20);
			break;
		}
		strbuf_reset(&w->content);
		ret = strbuf_read_file(&w->content, abs.buf, TARREAD_MAX_FILE);
		w->st.read_seconds += monotonic_now() - t0;
		if (!ret)
			ret = visit_file(w, rel->buf);
	}
	strbuf_setlen(rel, base);
out:
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	strbuf_release(&abs);
	return ret;
}

int tarread_walk(const char *source, tarread_want_fn want,
		 tarread_visit_fn visit, void *data,
		 struct tarread_stats *stats)
{
	struct walk w = { source, want, visit, data, { 0 }, STRBUF_INIT };
	struct stat st;
	int ret;

	if (stat(source, &st) < 0)
		return error_code(WW_ENOTFOUND, "cannot read '%s': %s", source,
				  strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		struct strbuf rel = STRBUF_INIT;

		ret = walk_dir(&w, &rel, 0);
		strbuf_release(&rel);
	} else {
		ret = walk_archive(&w);
	}
	strbuf_release(&w.content);
	if (stats) {
		stats->entries += w.st.entries;
		stats->files += w.st.files;
		stats->bytes += w.st.bytes;
		stats->read_seconds += w.st.read_seconds;
		stats->visit_seconds += w.st.visit_seconds;
	}
	return ret;
}
