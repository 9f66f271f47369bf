/*
 * Saved mail of any usual shape into an mbox (see mailfile.h).  gzip is
 * undone with libarchive's raw format; a lone message gets the From_
 * line public-inbox itself writes, and its body lines that start with
 * ">*From " get one more '>' (mboxrd), so b4 and mbox.c read it back
 * exactly.
 */
#include "mailfile.h"
#include "mbox.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#define FROM_LINE "From mboxrd@z Thu Jan  1 00:00:00 1970\n"

static int gunzip(struct strbuf *out, const char *buf, size_t len, const char *name)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int ret = 0;

	archive_read_support_filter_gzip(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, buf, len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK) {
		ret = error_code(WW_EINPUT, "'%s': not a readable gzip file: %s", name,
				 archive_error_string(a) ? archive_error_string(a) : "?");
		goto out;
	}
	for (;;) {
		la_ssize_t n;

		strbuf_grow(out, 64 << 10);
		n = archive_read_data(a, out->buf + out->len, 64 << 10);
		if (n < 0) {
			ret = error_code(WW_EINPUT, "'%s': broken gzip data: %s", name,
					 archive_error_string(a) ? archive_error_string(a) : "?");
			goto out;
		}
		if (!n)
			break;
		strbuf_setlen(out, out->len + n);
		if (out->len > MBOX_MAX_BYTES) {
			ret = error_code(WW_ETOOBIG, "'%s': over %u MiB uncompressed", name,
					 MBOX_MAX_BYTES >> 20);
			goto out;
		}
	}
out:
	archive_read_free(a);
	return ret;
}

/* "Name: value" on the first line: a message's header block. */
static bool starts_with_header(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && (buf[i] == '-' || (buf[i] >= '0' && buf[i] <= '9') ||
			   (buf[i] >= 'A' && buf[i] <= 'Z') || (buf[i] >= 'a' && buf[i] <= 'z')))
		i++;
	return i > 0 && i < len && buf[i] == ':';
}

int mailfile_parse(struct mailfile *out, const char *buf, size_t len, const char *name)
{
	struct strbuf plain = STRBUF_INIT;
	int ret = 0;

	if (len >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b) {
		ret = gunzip(&plain, buf, len, name);
		if (ret)
			goto out;
		out->gzipped = true;
		buf = plain.buf;
		len = plain.len;
	}
	/* A mail client may save CRLF; a BOM is not a header. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	}
	if (len >= 5 && !memcmp(buf, "From ", 5)) {
		out->shape = MAILFILE_MBOX;
		strbuf_add(&out->mbox, buf, len);
	} else if (starts_with_header(buf, len)) {
		out->shape = MAILFILE_MESSAGE;
		strbuf_addstr(&out->mbox, FROM_LINE);
		for (const char *p = buf, *end = buf + len; p < end;) {
			const char *nl = memchr(p, '\n', end - p);
			size_t n = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);
			size_t q = 0;

			while (q < n && p[q] == '>')
				q++;
			if (n - q >= 5 && !memcmp(p + q, "From ", 5))
				strbuf_addch(&out->mbox, '>');
			strbuf_add(&out->mbox, p, n);
			p += n;
		}
		if (out->mbox.len && out->mbox.buf[out->mbox.len - 1] != '\n')
			strbuf_addch(&out->mbox, '\n');
	} else {
		ret = error_code(WW_EINPUT, "'%s' is neither a saved mail, an mbox nor a "
				 "gzipped mbox (it starts with no header and no From line)", name);
	}
out:
	strbuf_release(&plain);
	return ret;
}

int mailfile_read(struct mailfile *out, const char *path)
{
	struct strbuf raw = STRBUF_INIT;
	int fd, ret;

	/* One message naming the file once: strbuf_read_file() would add its own. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot read '%s': %s", path, strerror(errno));
	ret = strbuf_read_fd(&raw, fd, MBOX_MAX_BYTES);
	close(fd);
	if (ret)
		ret = error_prefix(ret, "cannot read '%s'", path);
	else
		ret = mailfile_parse(out, raw.buf, raw.len, path);
	strbuf_release(&raw);
	return ret;
}

void mailfile_release(struct mailfile *m)
{
	strbuf_release(&m->mbox);
	memset(m, 0, sizeof(*m));
}
