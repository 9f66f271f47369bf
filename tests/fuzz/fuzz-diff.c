/*
 * libFuzzer harness for diffs: diff_parse() on arbitrary bytes, with and
 * without anchors, diff_normalise() and diff_looks_like().  Every line
 * delivered must lie in its hunk's counts and carry a sane origin.
 */
#include "diff.h"
#include "fuzz.h"

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
