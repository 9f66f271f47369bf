/*
 * The caps every mbox meets before another program is given it (see
 * intake.h).
 */
#include "intake.h"
#include "mbox.h"

static size_t count_lines(const char *p, size_t len)
{
	const char *end = p + len;
	size_t n = 0;

	while (p < end && (p = memchr(p, '\n', end - p))) {
		n++;
		p++;
	}
	return n + (len && end[-1] != '\n');
}

/*
 * File headers in a body: "diff --git" lines (renames, modes and binary
 * files have no ---/+++), or "--- "/"+++ " pairs (quilt, diff -u), which
 * ever counts more.  An over-count near the cap is harmless: it is a cap.
 */
static size_t count_files(const char *p, size_t len)
{
	const char *end = p + len;
	size_t git = 0, pairs = 0;
	bool minus = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n >= 11 && !memcmp(p, "diff --git ", 11))
			git++;
		if (minus && n >= 4 && !memcmp(p, "+++ ", 4))
			pairs++;
		minus = n >= 4 && !memcmp(p, "--- ", 4);
		p += n + 1;
	}
	return git > pairs ? git : pairs;
}

/* The caps over `buf` and the mails parsed from it (none: `buf` is one
 * body, a bare diff). */
static int check_mails(struct intake_counts *out, const char *buf, size_t len,
		       const struct mail_list *ml)
{
	size_t decoded = 0;
	int ret = 0;

	for (size_t i = 0; !ret && i < ml->nr; i++) {
		const struct mail *m = &ml->v[i];
		size_t next = i + 1 < ml->nr ? ml->v[i + 1].offset : len;

		if (next - m->offset > INTAKE_MAX_MAIL)
			ret = error_code(WW_ETOOBIG, "message %zu (byte %zu): more than %u MiB",
					 i + 1, m->offset, INTAKE_MAX_MAIL >> 20);
		decoded += count_lines(m->body, m->body_len);
		out->files += count_files(m->body, m->body_len);
	}
	if (!ml->nr)
		out->files = count_files(buf, len);
	out->messages = ml->nr;
	if (!ret && decoded > out->lines)
		out->lines = decoded;
	if (!ret && out->lines > INTAKE_MAX_LINES)
		ret = error_code(WW_ETOOBIG, "more than %d lines once decoded",
				 INTAKE_MAX_LINES);
	if (!ret && out->files > INTAKE_MAX_FILES)
		ret = error_code(WW_ETOOBIG, "its diffs touch more than %d files",
				 INTAKE_MAX_FILES);
	return ret;
}

/* What costs nothing to count, before anything is parsed. */
static int check_size(struct intake_counts *out, const char *buf, size_t len)
{
	if (len > INTAKE_MAX_BYTES)
		return error_code(WW_ETOOBIG, "%zu bytes, more than %u MiB", len,
				  INTAKE_MAX_BYTES >> 20);
	out->lines = count_lines(buf, len);
	if (out->lines > INTAKE_MAX_LINES)
		return error_code(WW_ETOOBIG, "more than %d lines", INTAKE_MAX_LINES);
	return 0;
}

static int finish(struct intake_counts *out, const struct intake_counts *counts,
		  int ret, const char *name)
{
	if (ret < 0 && name)
		return error_prefix(ret, "%s", name);
	if (!ret && out)
		*out = *counts;
	return ret;
}

int intake_check(struct intake_counts *out, const char *buf, size_t len,
		 const char *name)
{
	struct intake_counts counts = { 0 };
	struct mail_list ml = MAIL_LIST_INIT;
	int ret = check_size(&counts, buf, len);

	if (!ret)
		ret = mbox_parse(&ml, buf, len);	/* check's caps */
	if (!ret)
		ret = check_mails(&counts, buf, len, &ml);
	mail_list_clear(&ml);
	return finish(out, &counts, ret, name);
}

int intake_check_parsed(struct intake_counts *out, const char *buf, size_t len,
			const struct mail_list *mails, const char *name)
{
	struct intake_counts counts = { 0 };
	int ret = check_size(&counts, buf, len);

	if (!ret)
		ret = check_mails(&counts, buf, len, mails);
	return finish(out, &counts, ret, name);
}
