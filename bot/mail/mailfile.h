/*
 * A saved mail file, whatever its shape, as an mbox: what `review --mbox`
 * hands to b4, which wants From_ lines.  Accepted: an mbox (git
 * format-patch, b4 .mbx, mboxrd or mboxo), a single saved message without
 * a From_ line (a mail client's .eml, public-inbox's /raw), and either of
 * them gzipped (public-inbox's t.mbox.gz).  Anything else is WW_EINPUT
 * with one line naming the file.
 */
#ifndef WW_MAILFILE_H
#define WW_MAILFILE_H

#include "strbuf.h"

enum mailfile_shape {
	MAILFILE_MBOX,		/* had From_ lines already */
	MAILFILE_MESSAGE,	/* one message: a From_ line was added */
};

struct mailfile {
	struct strbuf mbox;	/* the text as an mbox */
	enum mailfile_shape shape;
	bool gzipped;
};

#define MAILFILE_INIT { .mbox = STRBUF_INIT, .shape = MAILFILE_MBOX }

/* Read `path` (capped at MBOX_MAX_BYTES after decompression) into out. */
int mailfile_read(struct mailfile *out, const char *path);
/* The same for bytes in memory; `name` is for messages. */
int mailfile_parse(struct mailfile *out, const char *buf, size_t len, const char *name);
/* Whether out->mbox differs from the file's bytes (then b4 needs a copy). */
static inline bool mailfile_rewritten(const struct mailfile *m)
{
	return m->gzipped || m->shape != MAILFILE_MBOX;
}
void mailfile_release(struct mailfile *m);

#endif
