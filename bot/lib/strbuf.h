/*
 * Growable byte buffers (after git's strbuf.h).
 *
 * `buf` is never NULL and always NUL-terminated, so a strbuf can be handed
 * to any function taking a C string.  `len` excludes the NUL.  Buffers fed
 * from outside input have a cap: strbuf_read_*() stop with WW_ETOOBIG.
 */
#ifndef WW_STRBUF_H
#define WW_STRBUF_H

#include "ww.h"

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { .buf = strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the memory; the strbuf is empty and reusable afterwards. */
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (who frees it); the strbuf is reset. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Exchange the contents of two strbufs: a hand-off without a copy. */
void strbuf_swap(struct strbuf *a, struct strbuf *b);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) WW_PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append `n` copies of `c`. */
void strbuf_addchars(struct strbuf *sb, int c, size_t n);

void strbuf_trim(struct strbuf *sb);
void strbuf_rtrim(struct strbuf *sb);

/*
 * `sb` (blanks trimmed) is "OPEN...)" with that ')' closing OPEN's '('
 * ("unlikely(a > b)", not "unlikely(a) && b"): keep only the inside,
 * trimmed, and return true.  Else leave `sb` trimmed and return false.
 */
bool strbuf_unwrap(struct strbuf *sb, const char *open);

/*
 * Read a whole file / descriptor, appending.  More than `cap` bytes (0: no
 * cap) gives WW_ETOOBIG; a missing file WW_ENOTFOUND.  The error message
 * names `path`.
 */
int strbuf_read_file(struct strbuf *sb, const char *path, size_t cap);
int strbuf_read_fd(struct strbuf *sb, int fd, size_t cap);
/*
 * Write the whole buffer to `path` (created 0644 & ~umask): a new file
 * with a random name in path's directory (O_EXCL|O_NOFOLLOW, safefs.h),
 * renamed over `path`.  A symlink planted at `path` or at any temp name is
 * replaced or avoided, never written through.
 */
int strbuf_write_file(const struct strbuf *sb, const char *path);

#endif
