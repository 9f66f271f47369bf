/*
 * Unit tests for bot/check/linemap.c: a line of one patch's post-image
 * followed through a later diff (shifted by hunks above it, kept inside
 * a hunk when it is context, gone when removed, renamed with its file)
 * and through the patches of a series.
 */
#include "linemap.h"
#include "tap.h"

static int through(const char *diff, const char *path, int line, struct strbuf *out_path)
{
	int out = -1;

	strbuf_reset(out_path);
	if (linemap_through_diff(&out, out_path, diff, strlen(diff), path, line) < 0)
		return -2;
	return out;
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

	/* Through a series: patch 1's line 3, then d, then ins. */
	memset(p, 0, sizeof(p));
	p[0].index = 1;
	p[0].diff = "";
	p[1].index = 2;
	p[1].diff = d;
	p[1].diff_len = strlen(d);
	p[2].index = 3;
	p[2].diff = ins;
	p[2].diff_len = strlen(ins);
	s.patches = p;
	s.nr = 3;
	is(linemap_to_result(&line, &path, &s, 0, "mm/a.c", 3), 0, "series: no error");
	is(line, 7, "series: line 3 -> 5 (patch 2) -> 7 (patch 3)");
	is(linemap_to_result(&line, &path, &s, 2, "mm/a.c", 3), 0, "after the last patch");
	is(line, 3, "... nothing to follow");
	is(linemap_to_result(&line, &path, &s, 0, "mm/a.c", 5), 0, "series: removed by patch 2");
	is(line, 0, "... is 0");
	strbuf_release(&path);
	return done_testing();
}
