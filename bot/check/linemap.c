/*
 * Following a line through later patches: see linemap.h.
 */
#include "linemap.h"

void linemap_init(struct linemap *m, size_t patches)
{
	m->patches = xcalloc(patches ? patches : 1, sizeof(*m->patches));
	m->nr = patches;
}

static void add_line(struct linemap_file *lf, int old_line, int new_line)
{
	ALLOC_GROW(lf->lines, lf->lines_nr + 1, lf->lines_alloc);
	lf->lines[lf->lines_nr].old_line = old_line;
	lf->lines[lf->lines_nr++].new_line = new_line;
}

/*
 * The pre-image lines of every hunk, from the file's shape: a hunk's
 * lines count from its header's starts.  A shape cut short (a damaged
 * hunk) leaves the file partial.
 */
static void add_shape(struct linemap_file *lf, const struct diff_file *f)
{
	size_t at = 0;

	for (size_t h = 0; h < f->ranges_nr; h++) {
		const struct diff_range *r = &f->ranges[h];
		int o = 0, n = 0;
		/* a count of 0 names the line before the hunk */
		int old_at = r->old_lines ? r->old_start : r->old_start + 1;
		int new_at = r->new_lines ? r->new_start : r->new_start + 1;

		while ((o < r->old_lines || n < r->new_lines) && at < f->shape_len) {
			char c = f->shape[at++];

			if (c == '+') {
				n++;
				continue;
			}
			add_line(lf, old_at + o, c == ' ' ? new_at + n : 0);
			o++;
			n += c == ' ';
		}
		if (o < r->old_lines || n < r->new_lines) {
			lf->partial = true;
			return;
		}
	}
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
	add_shape(lf, f);
}

void linemap_set_damaged(struct linemap *m, size_t patch)
{
	if (patch < m->nr)
		m->patches[patch].damaged = true;
}

/* The line `line` of a file's pre-image becomes in its post-image; -1
 * when it is inside a hunk whose lines the map does not know. */
static int through_hunks(const struct linemap_file *f, int line)
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
			return f->partial ? -1 : 0;	/* past a damaged hunk's end */
		}
		delta += r->new_lines - r->old_lines;
	}
	return line + delta;
}

/* Through one patch: `*line` (0 once removed, -1 not known) of the file
 * named `path`. */
static void follow_patch(const struct linemap_patch *p, struct strbuf *path, int *line)
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
			*line = through_hunks(f, *line);
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
		follow_patch(&m->patches[i], out_path, out_line);
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

int linemap_final(int *out_line, struct strbuf *out_path, const struct linemap *m,
		  const struct series *s, size_t after, const char *path, int line)
{
	if (m && m->nr == s->nr)
		return linemap_follow(m, out_line, out_path, after, path, line);
	if (out_path->buf != path) {
		strbuf_reset(out_path);
		strbuf_addstr(out_path, path);
	}
	*out_line = line;
	if (after + 1 >= s->nr)
		return 0;	/* nothing after it */
	return error_code(WW_ENOTFOUND, "no line map of the series to follow '%s' by", path);
}
