/*
 * Following a line through later patches: see linemap.h.
 */
#include "linemap.h"

void linemap_init(struct linemap *m, size_t patches)
{
	m->patches = xcalloc(patches ? patches : 1, sizeof(*m->patches));
	m->nr = patches;
	m->partial = false;
}

void linemap_add_file(struct linemap *m, size_t patch, const struct diff_file *f)
{
	struct linemap_patch *p;
	struct linemap_file *lf;

	if (patch >= m->nr)
		BUG("linemap patch %zu of %zu", patch, m->nr);
	p = &m->patches[patch];
	ALLOC_GROW(p->files, p->nr + 1, p->alloc);
	lf = &p->files[p->nr++];
	memset(lf, 0, sizeof(*lf));
	lf->old_path = xstrdup(f->old_path);
	lf->new_path = xstrdup(f->new_path);
	lf->status = f->status;
	lf->binary = f->binary;
	if (f->ranges_nr) {
		lf->ranges = xcalloc(f->ranges_nr, sizeof(*lf->ranges));
		memcpy(lf->ranges, f->ranges, f->ranges_nr * sizeof(*lf->ranges));
		lf->ranges_nr = f->ranges_nr;
	}
	for (size_t h = 0; h < f->nr; h++)
		for (size_t i = 0; i < f->hunks[h].nr; i++) {
			const struct diff_line *l = &f->hunks[h].lines[i];

			if (l->origin == '+')
				continue;
			ALLOC_GROW(lf->lines, lf->lines_nr + 1, lf->lines_alloc);
			lf->lines[lf->lines_nr].old_line = l->old_lineno;
			lf->lines[lf->lines_nr++].new_line =
				l->origin == ' ' ? l->new_lineno : 0;
		}
}

void linemap_set_damaged(struct linemap *m, size_t patch)
{
	if (patch < m->nr)
		m->patches[patch].damaged = true;
}

/* The line `line` of a file's pre-image becomes in its post-image; -1
 * when it is inside a hunk whose lines a partial map did not keep. */
static int through_hunks(const struct linemap_file *f, int line, bool partial)
{
	int delta = 0;

	for (size_t h = 0; h < f->ranges_nr; h++) {
		const struct diff_range *r = &f->ranges[h];

		/* A pure insertion (-N,0) goes after line N. */
		if (line < r->old_start || (!r->old_lines && line <= r->old_start))
			break;
		if (r->old_lines && line < r->old_start + r->old_lines) {
			for (size_t i = 0; i < f->lines_nr; i++)
				if (f->lines[i].old_line == line)
					return f->lines[i].new_line;
			return partial ? -1 : 0;	/* counted but not parsed */
		}
		delta += r->new_lines - r->old_lines;
	}
	return line + delta;
}

/* Through one patch: `*line` (0 once removed, -1 not known) of the file
 * named `path`. */
static void follow_patch(const struct linemap_patch *p, struct strbuf *path, int *line,
			 bool partial)
{
	for (size_t i = 0; i < p->nr && *line > 0; i++) {
		const struct linemap_file *f = &p->files[i];

		if (strcmp(f->old_path, path->buf) || f->status == DIFF_ADDED)
			continue;
		if (f->status == DIFF_DELETED) {
			*line = 0;
			continue;
		}
		if (!f->binary)
			*line = through_hunks(f, *line, partial);
		if (f->status == DIFF_RENAMED) {
			strbuf_reset(path);
			strbuf_addstr(path, f->new_path);
		}
	}
}

int linemap_follow(const struct linemap *m, int *out_line, struct strbuf *out_path,
		   size_t after, const char *path, int line)
{
	if (out_path->buf != path) {
		strbuf_reset(out_path);
		strbuf_addstr(out_path, path);
	}
	*out_line = line;
	for (size_t i = after + 1; i < m->nr && *out_line; i++) {
		if (m->patches[i].damaged)
			return error_code(WW_EINPUT, "patch %zu of the series is damaged", i + 1);
		follow_patch(&m->patches[i], out_path, out_line, m->partial);
		if (*out_line < 0)
			return error_code(WW_ENOTFOUND, "line not known after patch %zu", i + 1);
	}
	return 0;
}

void linemap_release(struct linemap *m)
{
	for (size_t p = 0; p < m->nr; p++) {
		struct linemap_patch *lp = &m->patches[p];

		for (size_t i = 0; i < lp->nr; i++) {
			free(lp->files[i].old_path);
			free(lp->files[i].new_path);
			free(lp->files[i].ranges);
			free(lp->files[i].lines);
		}
		free(lp->files);
	}
	free(m->patches);
	m->patches = NULL;
	m->nr = 0;
}

struct recording {
	struct linemap *map;
	size_t patch;
};

static int record_file(const struct diff_file *f, void *data)
{
	struct recording *r = data;

	linemap_add_file(r->map, r->patch, f);
	return 0;
}

/* Parse patch `patch`'s diff into `m` (every file, every hunk). */
static int record_diff(struct linemap *m, size_t patch, const char *diff, size_t len)
{
	struct recording r = { m, patch };

	return diff_parse(diff, len, NULL, record_file, &r);
}

int linemap_through_diff(int *out_line, struct strbuf *out_path,
			 const char *diff, size_t len,
			 const char *path, int line)
{
	struct linemap m = LINEMAP_INIT;
	struct strbuf cur = STRBUF_INIT;
	int ret;

	linemap_init(&m, 2);	/* patch 0: where the line is; 1: the diff */
	strbuf_addstr(&cur, path);
	ret = record_diff(&m, 1, diff, len);
	if (ret >= 0)
		ret = linemap_follow(&m, out_line, out_path, 0, cur.buf, line);
	else
		*out_line = line;
	if (ret < 0 && out_path->buf != path) {
		strbuf_reset(out_path);
		strbuf_addstr(out_path, path);
	}
	linemap_release(&m);
	strbuf_release(&cur);
	return ret < 0 ? ret : 0;
}

int linemap_to_result(int *out_line, struct strbuf *out_path,
		      const struct series *s, size_t after,
		      const char *path, int line)
{
	struct linemap m = LINEMAP_INIT;
	struct strbuf cur = STRBUF_INIT;
	int ret = 0;

	linemap_init(&m, s->nr);
	/* A damaged patch stops the line where it is: parse up to it. */
	for (size_t i = after + 1; i < s->nr; i++)
		if (record_diff(&m, i, s->patches[i].diff, s->patches[i].diff_len) < 0) {
			error_clear();
			linemap_set_damaged(&m, i);
			break;
		}
	strbuf_addstr(&cur, path);
	ret = linemap_follow(&m, out_line, out_path, after, cur.buf, line);
	linemap_release(&m);
	strbuf_release(&cur);
	return ret;
}

int linemap_final(int *out_line, struct strbuf *out_path, const struct linemap *m,
		  const struct series *s, size_t after, const char *path, int line)
{
	if (m && m->nr == s->nr) {
		int ret = linemap_follow(m, out_line, out_path, after, path, line);

		if (ret != WW_ENOTFOUND)
			return ret;
		error_clear();
	}
	return linemap_to_result(out_line, out_path, s, after, path, line);
}
