/*
 * libFuzzer harness for diffs: diff_parse() on arbitrary bytes, with and
 * without anchors, diff_normalise() and diff_looks_like().  Every line
 * delivered must lie in its hunk's counts and carry a sane origin, its
 * shape hold only origins, and diff_file_dup() copy it byte for byte.
 */
#include "diff.h"
#include "fuzz.h"

/* What the check keeps of a file (diff_file_dup()) is what it was handed. */
static void copy_agrees(const struct diff_file *f)
{
	struct diff_file *d = diff_file_dup(f);

	FUZZ_ASSERT(!strcmp(d->old_path, f->old_path) && !strcmp(d->new_path, f->new_path) &&
		    d->nr == f->nr && d->shape_len == f->shape_len &&
		    !memcmp(d->shape, f->shape ? f->shape : "", f->shape_len) &&
		    d->ranges_nr == f->ranges_nr, "copy differs");
	for (size_t h = 0; h < f->nr; h++) {
		const struct diff_hunk *a = &f->hunks[h], *b = &d->hunks[h];

		FUZZ_ASSERT(a->nr == b->nr && a->header_len == b->header_len &&
			    !memcmp(a->header, b->header, a->header_len) &&
			    a->context_len == b->context_len &&
			    !memcmp(a->context, b->context, a->context_len),
			    "hunk %zu copied wrong", h);
		for (size_t i = 0; i < a->nr; i++)
			FUZZ_ASSERT(a->lines[i].len == b->lines[i].len &&
				    !memcmp(a->lines[i].content, b->lines[i].content, a->lines[i].len) &&
				    a->lines[i].new_lineno == b->lines[i].new_lineno,
				    "line %zu of hunk %zu copied wrong", i, h);
	}
	diff_file_free(d);
}

static int walk(const struct diff_file *f, void *data)
{
	size_t *lines = data;

	FUZZ_ASSERT(f->old_path && f->new_path, "file without paths");
	for (size_t h = 0; h < f->nr; h++) {
		const struct diff_hunk *hk = &f->hunks[h];
		int old = 0, new = 0;

		for (size_t i = 0; i < hk->nr; i++) {
			const struct diff_line *l = &hk->lines[i];

			FUZZ_ASSERT(l->origin == '+' || l->origin == '-' ||
				    l->origin == ' ', "origin %d", l->origin);
			if (l->len)	/* touch every byte: ASan checks the bounds */
				FUZZ_ASSERT(memchr(l->content, '\n', l->len) == NULL,
					    "newline inside a line");
			old += l->origin != '+';
			new += l->origin != '-';
		}
		FUZZ_ASSERT(old <= hk->old_lines && new <= hk->new_lines,
			    "hunk %d: %d/%d lines for counts %d/%d", hk->index,
			    old, new, hk->old_lines, hk->new_lines);
		*lines += hk->nr;
	}
	for (size_t i = 0; i < f->shape_len; i++)
		FUZZ_ASSERT(f->shape[i] == '+' || f->shape[i] == '-' || f->shape[i] == ' ',
			    "shape byte %d", f->shape[i]);
	copy_agrees(f);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const anchors[] = { "BUG", "WARN", NULL };
	struct diff_opts opts = DIFF_OPTS_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *buf = (const char *)data;
	size_t lines = 0;

	(void)diff_looks_like(buf, size);
	(void)diff_parse(buf, size, NULL, walk, &lines);
	opts.anchors = anchors;
	(void)diff_parse(buf, size, &opts, walk, &lines);
	(void)diff_normalise(&sb, buf, size);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
