/*
 * Unit tests for bot/check/linemap.c: a line of one patch's post-image
 * followed through a later diff (shifted by hunks above it, kept inside
 * a hunk when it is context, gone when removed, renamed with its file)
 * and through the patches of a series.
 */
#include "linemap.h"
#include "tap.h"

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

/* Patch `patch` of `m` as diff_parse() delivers `diff` with `anchors`. */
static int record(struct linemap *m, size_t patch, const char *diff,
		  const char *const *anchors)
{
	struct recording r = { m, patch };
	struct diff_opts o = DIFF_OPTS_INIT;

	o.anchors = anchors;
	o.every_file = true;
	return diff_parse(diff, strlen(diff), &o, record_file, &r);
}

/* What line `line` of `path` becomes through `diff` (its hunks with one
 * of `anchors` parsed, NULL: all); -2 on an error. */
static int through_some(const char *diff, const char *const *anchors,
			const char *path, int line, struct strbuf *out_path)
{
	struct linemap m = LINEMAP_INIT;
	int out = -1;

	linemap_init(&m, 2);	/* patch 0: where the line is; 1: the diff */
	if (record(&m, 1, diff, anchors) < 0 ||
	    linemap_follow(&m, &out, out_path, 0, path, line) < 0) {
		error_clear();
		out = -2;
	}
	linemap_release(&m);
	return out;
}

static int through(const char *diff, const char *path, int line, struct strbuf *out_path)
{
	return through_some(diff, NULL, path, line, out_path);
}

int main(void)
{
	struct strbuf path = STRBUF_INIT;
	/* Inserts two lines after line 1, changes line 5 (removes it, adds
	 * two), leaves the rest. */
	const char *d =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,2 +1,4 @@\n"
		" one\n"
		"+new1\n"
		"+new2\n"
		" two\n"
		"@@ -4,3 +6,4 @@ f\n"
		" four\n"
		"-five\n"
		"+FIVE\n"
		"+FIVE.5\n"
		" six\n";
	const char *ins =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -3,0 +4,2 @@\n"
		"+x\n"
		"+y\n";
	const char *ren =
		"diff --git a/mm/a.c b/mm/b.c\n"
		"similarity index 90%\n"
		"rename from mm/a.c\n"
		"rename to mm/b.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/b.c\n"
		"@@ -1,1 +1,2 @@\n"
		"+top\n"
		" one\n";
	const char *del =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"deleted file mode 100644\n"
		"--- a/mm/a.c\n"
		"+++ /dev/null\n"
		"@@ -1,1 +0,0 @@\n"
		"-one\n";
	struct series s = SERIES_INIT;
	struct series_patch p[3];
	struct linemap m = LINEMAP_INIT;
	int line;

	is(through(d, "mm/a.c", 1, &path), 1, "a line above every hunk stays");
	is(through(d, "mm/a.c", 2, &path), 4, "a context line inside a hunk moves with it");
	is(through(d, "mm/a.c", 3, &path), 5, "a line between hunks shifts by the first hunk");
	is(through(d, "mm/a.c", 5, &path), 0, "a removed line is gone");
	is(through(d, "mm/a.c", 6, &path), 9, "context after a growing change");
	is(through(d, "mm/a.c", 40, &path), 43, "a line below every hunk shifts by all of them");
	is(through(d, "mm/other.c", 5, &path), 5, "another file: unchanged");
	is_str(path.buf, "mm/other.c", "... and its path too");
	is(through(ins, "mm/a.c", 3, &path), 3, "a pure insertion after line 3 leaves line 3");
	is(through(ins, "mm/a.c", 4, &path), 6, "... and shifts line 4");
	is(through(ren, "mm/a.c", 1, &path), 2, "a renamed file: the line follows");
	is_str(path.buf, "mm/b.c", "... to the new path");
	is(through(del, "mm/a.c", 1, &path), 0, "a deleted file: gone");
	is(through("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n one\n",
		   "x", 1, &path), -2, "a damaged later diff is an error");

	/*
	 * check_series() parses only the hunks that hold a call: the map
	 * still knows every hunk's lines, from the file's shape.  "FIVE"
	 * selects d's second hunk; lines of its first are followed all the
	 * same.
	 */
	{
		static const char *const five[] = { "FIVE", NULL };

		is(through_some(d, five, "mm/a.c", 2, &path), 4,
		   "a hunk the parse skipped: its context line moves with it");
		is(through_some(d, five, "mm/a.c", 3, &path), 5,
		   "... a line after it shifts");
		is(through_some(d, five, "mm/a.c", 5, &path), 0,
		   "... the parsed hunk's removed line is gone");
		is(through_some(ren, five, "mm/a.c", 1, &path), 2,
		   "a renamed file none of whose hunks is parsed: the line follows");
	}

	/* Through a series: patch 1's line 3, then d, then ins. */
	memset(p, 0, sizeof(p));
	p[0].index = 1;
	p[1].index = 2;
	p[2].index = 3;
	s.patches = p;
	s.nr = 3;
	linemap_init(&m, 3);
	is(record(&m, 1, d, NULL) | record(&m, 2, ins, NULL), 0, "series: recorded");
	is(linemap_final(&line, &path, &m, &s, 0, "mm/a.c", 3), 0, "series: no error");
	is(line, 7, "series: line 3 -> 5 (patch 2) -> 7 (patch 3)");
	is(linemap_final(&line, &path, &m, &s, 2, "mm/a.c", 3), 0, "after the last patch");
	is(line, 3, "... nothing to follow");
	is(linemap_final(&line, &path, &m, &s, 0, "mm/a.c", 5), 0, "series: removed by patch 2");
	is(line, 0, "... is 0");
	linemap_set_damaged(&m, 2);
	is(linemap_final(&line, &path, &m, &s, 0, "mm/a.c", 3), WW_EINPUT,
	   "series: a damaged patch is not followed through");
	error_clear();
	is(linemap_final(&line, &path, NULL, &s, 0, "mm/a.c", 3), WW_ENOTFOUND,
	   "series: without its map, a line with patches after it is not known");
	error_clear();
	is(line, 3, "... and stays where it was");
	is(linemap_final(&line, &path, NULL, &s, 2, "mm/a.c", 3), 0,
	   "series: without a map, the last patch's line needs none");
	linemap_release(&m);
	strbuf_release(&path);
	return done_testing();
}
