/*
 * What warnwatch accepts before it hands mail to another program.
 *
 * b4 is Python: a 15 MB mail of 5 million diff lines, one of 100,000
 * MIME parts or a patch of 100,000 files keeps it busy for minutes and
 * half a gigabyte until its deadline, where warnwatch's own parser
 * refuses or reads the same in a fraction of a second.  So every mbox is
 * held to these caps before b4 (or a kernel build) is given it, and what
 * b4 writes back is held to them before warnwatch reads further: `review
 * --mbox` and `review MSGID`, `ci`, and serve's fetch stage (b4.c checks
 * its input and each file b4 writes; ci checks a series read from a
 * file).  `check` hands nothing to another program and keeps its own,
 * wider caps (mbox.h, check.h).
 *
 * The caps (docs/limits.md): check's per message and per part (mbox.h:
 * messages in one input, one header block and line, MIME nesting and
 * parts), and these, sized so that b4 gets through the largest input
 * allowed in seconds (about 30 s for a million lines on the 2-core test
 * machine), far above any real series:
 */
#ifndef WW_INTAKE_H
#define WW_INTAKE_H

#include "strbuf.h"

#define INTAKE_MAX_BYTES (64u << 20)	/* one input (b4's files are read
					 * back to the same size) */
#define INTAKE_MAX_MAIL (16u << 20)	/* one message (as in an archive:
					 * EPOCH_MAX_MAIL) */
#define INTAKE_MAX_LINES 1000000	/* lines of one input, as written
					 * or as decoded (base64) */
#define INTAKE_MAX_FILES 10000		/* file headers in its diffs */

struct intake_counts {
	size_t messages;
	size_t lines;		/* the larger of written and decoded */
	size_t files;		/* diff file headers, all messages */
};

/*
 * Hold `buf` (an mbox, or one message without a From_ line) to the caps
 * above, cheapest first: 0, or WW_ETOOBIG for a cap passed (WW_EINPUT for
 * input mbox_parse() refuses), with one line saying which and where:
 * "message 2 (byte 1234): more than 1000 MIME parts", "more than 1000000
 * lines".  The message starts with "`name`: " unless `name` is NULL.
 * Linear in `len`; parses the mail once and keeps nothing.  `out` (may be
 * NULL) gets the counts when 0 is returned.
 */
int intake_check(struct intake_counts *out, const char *buf, size_t len,
		 const char *name);

struct mail_list;

/*
 * The same for input already parsed, as series_load() reads a file:
 * `buf` as it was read (an mbox, a message or a bare diff) and `mails`,
 * what mbox_parse() made of it under check's caps (empty for a diff:
 * `buf` is then counted as one body).
 */
int intake_check_parsed(struct intake_counts *out, const char *buf, size_t len,
			const struct mail_list *mails, const char *name);

#endif
