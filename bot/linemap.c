/*
 * Following a line through later patches: see linemap.h.
 */
#include "linemap.h"
#include "diff.h"

struct follow {
	struct strbuf *path;
	int line;		/* 0 once removed */
};

/* The line `line` of a hunked file's pre-image becomes in its post-image. */
static int through_hunks(const struct diff_file *f, int line)
{
	int delta = 0;

	for (size_t h = 0; h < f->nr; h++) {
		const struct diff_hunk *hk = &f->hunks[h];

		/* A pure insertion (-N,0) goes after line N. */
		if (line < hk->old_start ||
		    (!hk->old_lines && line <= hk->old_start))
			break;
		if (hk->old_lines && line < hk->old_start + hk->old_lines) {
			for (size_t i = 0; i < hk->nr; i++) {
				if (hk->lines[i].old_lineno != line)
					continue;
				return hk->lines[i].origin == ' ' ?
					hk->lines[i].new_lineno : 0;
			}
			return 0;	/* counted but not delivered */
		}
		delta += hk->new_lines - hk->old_lines;
	}
	return line + delta;
}

static int follow_file(const struct diff_file *f, void *data)
{
	struct follow *fw = data;

	if (!fw->line || strcmp(f->old_path, fw->path->buf))
		return 0;
	if (f->status == DIFF_ADDED)
		return 0;
	if (f->status == DIFF_DELETED) {
		fw->line = 0;
		return 0;
	}
	if (!f->binary)
		fw->line = through_hunks(f, fw->line);
	if (f->status == DIFF_RENAMED) {
		strbuf_reset(fw->path);
		strbuf_addstr(fw->path, f->new_path);
	}
	return 0;
}

int linemap_through_diff(int *out_line, struct strbuf *out_path,
			 const char *diff, size_t len,
			 const char *path, int line)
{
	struct follow fw = { out_path, line };
	int ret;

	if (out_path->buf != path) {
		strbuf_reset(out_path);
		strbuf_addstr(out_path, path);
	}
	ret = diff_parse(diff, len, NULL, follow_file, &fw);
	*out_line = fw.line;
	return ret < 0 ? ret : 0;
}

int linemap_to_result(int *out_line, struct strbuf *out_path,
		      const struct series *s, size_t after,
		      const char *path, int line)
{
	struct strbuf cur = STRBUF_INIT;
	int ret = 0;

	strbuf_reset(out_path);
	strbuf_addstr(out_path, path);
	*out_line = line;
	for (size_t i = after + 1; i < s->nr && *out_line; i++) {
		const struct series_patch *p = &s->patches[i];
		int next;

		strbuf_reset(&cur);
		strbuf_addbuf(&cur, out_path);
		ret = linemap_through_diff(&next, &cur, p->diff, p->diff_len,
					   cur.buf, *out_line);
		if (ret < 0)
			break;
		*out_line = next;
		strbuf_reset(out_path);
		strbuf_addbuf(out_path, &cur);
	}
	strbuf_release(&cur);
	return ret;
}
