/*
 * Unit tests for bot/check/diff.c: normalising quilt, diff -u/-ruN and git
 * diffs for libgit2, the per-file/hunk/line view, and clear errors (not
 * crashes, not hangs) on diffs whose hunks lie or are cut short.
 */
#include "diff.h"
#include "tap.h"

#include <git2.h>

/* What the callback saw, flattened to one string per file for comparing. */
struct seen {
	struct strbuf files;	/* "status old new bin hunks/total\n" per file */
	struct strbuf lines;	/* "origin old new content\n" per line */
	struct strbuf ctx;	/* each hunk's context, one per line */
	int hunk_index[64];
	size_t nr_hunks;
};

static int record(const struct diff_file *f, void *data)
{
	struct seen *s = data;

	strbuf_addf(&s->files, "%s %s %s%s %zu/%d\n", diff_status_name(f->status),
		    f->old_path, f->new_path, f->binary ? " binary" : "",
		    f->nr, f->hunks_total);
	for (size_t h = 0; h < f->nr; h++) {
		const struct diff_hunk *dh = &f->hunks[h];

		if (s->nr_hunks < 64)
			s->hunk_index[s->nr_hunks++] = dh->index;
		strbuf_addf(&s->ctx, "%.*s\n", (int)dh->context_len, dh->context);
		for (size_t l = 0; l < dh->nr; l++) {
			const struct diff_line *dl = &dh->lines[l];

			strbuf_addf(&s->lines, "%c %d %d %.*s%s\n", dl->origin,
				    dl->old_lineno, dl->new_lineno, (int)dl->len,
				    dl->content, dl->no_eol ? " [no eol]" : "");
		}
	}
	return 0;
}

static void seen_init(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	strbuf_init(&s->files, 0);
	strbuf_init(&s->lines, 0);
	strbuf_init(&s->ctx, 0);
}

static void seen_release(struct seen *s)
{
	strbuf_release(&s->files);
	strbuf_release(&s->lines);
	strbuf_release(&s->ctx);
}

static int parse(struct seen *s, const char *diff, const struct diff_opts *o)
{
	seen_init(s);
	error_clear();
	return diff_parse(diff, strlen(diff), o, record, s);
}

static const char git_text[] =
	"From 1234 Mon Sep 17 00:00:00 2001\n"
	"Subject: [PATCH] mm: frob\n"
	"\n"
	"---\n"
	" mm/frob.c | 2 +-\n"
	"\n"
	"diff --git a/mm/frob.c b/mm/frob.c\n"
	"index 1234567..89abcde 100644\n"
	"--- a/mm/frob.c\n"
	"+++ b/mm/frob.c\n"
	"@@ -10,4 +10,5 @@ static int frob(struct page *page)\n"
	" \tint ret;\n"
	"-\tBUG_ON(!page);\n"
	"+\tif (WARN_ON_ONCE(!page))\n"
	"+\t\treturn -EINVAL;\n"
	" \n"
	" \treturn 0;\n"
	"-- \n"
	"2.39.2\n";

static void test_git(void)
{
	struct seen s;

	is(parse(&s, git_text, NULL), 0, "git: parses");
	is_str(s.files.buf, "modified mm/frob.c mm/frob.c 1/1\n", "git: one modified file");
	is_str(s.lines.buf,
	       "  10 10 \tint ret;\n"
	       "- 11 -1 \tBUG_ON(!page);\n"
	       "+ -1 11 \tif (WARN_ON_ONCE(!page))\n"
	       "+ -1 12 \t\treturn -EINVAL;\n"
	       "  12 13 \n"
	       "  13 14 \treturn 0;\n",
	       "git: lines with old/new numbers; signature is not a line");
	is_str(s.ctx.buf, "static int frob(struct page *page)\n", "git: function context");
	seen_release(&s);
}

static void test_git_passthrough(void)
{
	struct strbuf out = STRBUF_INIT;
	const char *d = strstr(git_text, "diff --git");
	const char *sig = strstr(git_text, "-- \n");

	is(diff_normalise(&out, d, strlen(d)), 0, "normalise: git diff");
	ok(out.len == (size_t)(sig - d) && !memcmp(out.buf, d, out.len),
	   "normalise: a git diff passes through unchanged");
	strbuf_release(&out);
}

static const char quilt[] =
	"Fix the frobnicator.\n"
	"\n"
	"Signed-off-by: A U Thor <a@example.org>\n"
	"---\n"
	"Index: linux-6.1/mm/frob.c\n"
	"===================================================================\n"
	"--- linux-6.1.orig/mm/frob.c\t2024-01-01 10:00:00.000000000 +0100\n"
	"+++ linux-6.1/mm/frob.c\t2024-01-02 11:00:00.000000000 +0100\n"
	"@@ -1,3 +1,3 @@\n"
	" a\n"
	"-b\n"
	"+c\n"
	" d\n";

static void test_quilt(void)
{
	struct strbuf out = STRBUF_INIT;
	struct seen s;

	is(diff_normalise(&out, quilt, strlen(quilt)), 0, "quilt: normalises");
	is_str(out.buf,
	       "diff --git a/mm/frob.c b/mm/frob.c\n"
	       "index 0000000..0000000\n"
	       "--- a/mm/frob.c\n"
	       "+++ b/mm/frob.c\n"
	       "@@ -1,3 +1,3 @@\n"
	       " a\n-b\n+c\n d\n",
	       "quilt: git header synthesised, -p1 stripped, timestamps gone");
	is(parse(&s, quilt, NULL), 0, "quilt: parses");
	is_str(s.files.buf, "modified mm/frob.c mm/frob.c 1/1\n", "quilt: path");
	seen_release(&s);
	strbuf_release(&out);
}

static const char ruN[] =
	"Only in linux-6.12/mm: new-dir\n"
	"diff -ruN linux-6.1/mm/gone.c linux-6.12/mm/gone.c\n"
	"--- linux-6.1/mm/gone.c\t2024-01-01 00:00:00.000000000 +0000\n"
	"+++ linux-6.12/mm/gone.c\t1970-01-01 00:00:00.000000000 +0000\n"
	"@@ -1,2 +0,0 @@\n"
	"-x\n"
	"-\tBUG();\n"
	"diff -ruN linux-6.1/mm/new.c linux-6.12/mm/new.c\n"
	"--- linux-6.1/mm/new.c\t1970-01-01 00:00:00.000000000 +0000\n"
	"+++ linux-6.12/mm/new.c\t2024-01-01 00:00:00.000000000 +0000\n"
	"@@ -0,0 +1,2 @@\n"
	"+y\n"
	"+z\n"
	"\\ No newline at end of file\n"
	"Binary files linux-6.1/mm/blob.bin and linux-6.12/mm/blob.bin differ\n"
	"diff -ruN linux-6.1/mm/x.c linux-6.12/mm/x.c\n"
	"--- linux-6.1/mm/x.c\t2024-01-01 00:00:00.000000000 +0000\n"
	"+++ linux-6.12/mm/x.c\t2024-01-01 00:00:00.000000000 +0000\n"
	"@@ -5 +5 @@ void x(void)\n"
	"-old\n"
	"+new\n";

static void test_ruN(void)
{
	struct seen s;

	is(parse(&s, ruN, NULL), 0, "diff -ruN: parses");
	is_str(s.files.buf,
	       "deleted mm/gone.c mm/gone.c 1/1\n"
	       "added mm/new.c mm/new.c 1/1\n"
	       "modified mm/blob.bin mm/blob.bin binary 0/0\n"
	       "modified mm/x.c mm/x.c 1/1\n",
	       "diff -ruN: -N empty sides are new/deleted files, binary noted, Only in skipped");
	is_str(s.lines.buf,
	       "- 1 -1 x\n- 2 -1 \tBUG();\n"
	       "+ -1 1 y\n+ -1 2 z [no eol]\n"
	       "- 5 -1 old\n+ -1 5 new\n",
	       "diff -ruN: lines, counts omitted in '@@ -5 +5 @@', no-eol marker");
	seen_release(&s);
}

static void test_devnull_and_p0(void)
{
	struct seen s;
	static const char devnull[] =
		"--- /dev/null\n"
		"+++ b/drivers/foo/new.c\n"
		"@@ -0,0 +1 @@\n"
		"+int x;\n"
		"--- mm/frob.c.orig\n"
		"+++ mm/frob.c\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n";

	is(parse(&s, devnull, NULL), 0, "/dev/null and -p0: parse");
	is_str(s.files.buf,
	       "added drivers/foo/new.c drivers/foo/new.c 1/1\n"
	       "modified mm/frob.c mm/frob.c 1/1\n",
	       "/dev/null is a new file; same first component is -p0");
	seen_release(&s);
}

static void test_binary_and_rename(void)
{
	struct seen s;
	static const char d[] =
		"diff --git a/fw/blob.bin b/fw/blob.bin\n"
		"new file mode 100644\n"
		"index 0000000..e69de29\n"
		"GIT binary patch\n"
		"literal 12\n"
		"TcmZQzWMXDvWn*Mu00sa60RR91\n"
		"\n"
		"literal 0\n"
		"HcmV?d00001\n"
		"\n"
		"diff --git a/mm/old.c b/mm/new.c\n"
		"similarity index 90%\n"
		"rename from mm/old.c\n"
		"rename to mm/new.c\n"
		"--- a/mm/old.c\n"
		"+++ b/mm/new.c\n"
		"@@ -3,2 +3,2 @@ int f(void)\n"
		"-\tWARN_ON(1);\n"
		"+\tWARN_ON_ONCE(1);\n"
		" }\n"
		"diff --git a/mm/empty.c b/mm/empty.c\n"
		"new file mode 100644\n"
		"index 0000000..e69de29\n";

	is(parse(&s, d, NULL), 0, "binary + rename without index + empty new file: parse");
	is_str(s.files.buf,
	       "added fw/blob.bin fw/blob.bin binary 0/0\n"
	       "renamed mm/old.c mm/new.c 1/1\n"
	       "added mm/empty.c mm/empty.c 0/0\n",
	       "binary payload skipped, rename seen by libgit2, empty file kept");
	is_str(s.lines.buf, "- 3 -1 \tWARN_ON(1);\n+ -1 3 \tWARN_ON_ONCE(1);\n  4 4 }\n",
	       "rename: line numbers");
	seen_release(&s);
}

static void test_noprefix_crlf_blank(void)
{
	struct seen s;
	static const char noprefix[] =
		"diff --git mm/a.c mm/a.c\n"
		"index 1234567..89abcde 100644\n"
		"--- mm/a.c\n"
		"+++ mm/a.c\n"
		"@@ -1,3 +1,3 @@\n"
		" x\n"
		"\n"			/* a context line whose space a mailer ate */
		"-y\n"
		"+z\n";
	static const char crlf[] =
		"diff --git a/a.c b/a.c\r\n"
		"--- a/a.c\r\n"
		"+++ b/a.c\r\n"
		"@@ -1 +1 @@\r\n"
		"-y\r\n"
		"+z\r\n";

	is(parse(&s, noprefix, NULL), 0, "git --no-prefix: parses");
	is_str(s.files.buf, "modified mm/a.c mm/a.c 1/1\n", "git --no-prefix: path kept whole");
	is_str(s.lines.buf, "  1 1 x\n  2 2 \n- 3 -1 y\n+ -1 3 z\n",
	       "an empty line in a hunk is empty context");
	seen_release(&s);
	is(parse(&s, crlf, NULL), 0, "CRLF diff: parses");
	is_str(s.lines.buf, "- 1 -1 y\n+ -1 1 z\n", "CRLF diff: carriage returns dropped");
	seen_release(&s);
}

static void test_errors(void)
{
	struct seen s;
	static const char lie_more[] =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,2 +1,2 @@ f\n"
		" a\n-b\n+c\n"
		"@@ -10,2 +10,2 @@ g\n"
		" a\n-b\n+c\n+BUG();\n";
	static const char lie_less[] =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,2 +1,4 @@\n"
		" a\n-b\n-c\n+d\n";
	static const char truncated[] =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,5 +1,5 @@\n"
		" a\n-b\n+c\n";
	static const char cut[] =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,5 +1,5 @@\n"
		" a\n-b\n+c\n"
		"diff --git a/mm/b.c b/mm/b.c\n";
	static const char bad_header[] =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,x +1,5 @@\n";
	struct strbuf big = STRBUF_INIT;

	is(parse(&s, lie_more, NULL), WW_EINPUT, "counts too small: error");
	ok(strstr(error_last(), "'mm/a.c' hunk 2") != NULL,
	   "counts too small: names file and hunk (%s)", error_last());
	seen_release(&s);
	is(parse(&s, lie_less, NULL), WW_EINPUT, "more removed lines than counted: error");
	ok(strstr(error_last(), "'mm/a.c' hunk 1, line 3: more removed lines") != NULL,
	   "more removed lines: message (%s)", error_last());
	seen_release(&s);
	is(parse(&s, truncated, NULL), WW_EINPUT, "truncated at the end: error");
	ok(strstr(error_last(), "'mm/a.c' hunk 1 is truncated") != NULL,
	   "truncated: message (%s)", error_last());
	seen_release(&s);
	is(parse(&s, cut, NULL), WW_EINPUT, "hunk cut by the next file: error");
	ok(strstr(error_last(), "truncated at its line 4") != NULL,
	   "cut: message (%s)", error_last());
	seen_release(&s);
	is(parse(&s, bad_header, NULL), WW_EINPUT, "malformed hunk header: error");
	seen_release(&s);

	strbuf_addstr(&big, "diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		      "@@ -1 +1 @@\n-a\n+");
	strbuf_addchars(&big, 'x', 10u << 20);
	strbuf_addch(&big, '\n');
	seen_init(&s);
	is(diff_parse(big.buf, big.len, NULL, record, &s), WW_EINPUT, "10 MB line: error");
	ok(strstr(error_last(), "'mm/a.c' hunk 1, line 2: longer than") != NULL,
	   "10 MB line: names file, hunk and line (%s)", error_last());
	seen_release(&s);
	strbuf_reset(&big);
	strbuf_addstr(&big, "diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		      "@@ -1 +1 @@\n-a\n+WARN_ON(x");
	strbuf_addch(&big, '\0');
	strbuf_addstr(&big, "y);\n");
	seen_init(&s);
	is(diff_parse(big.buf, big.len, NULL, record, &s), WW_EINPUT, "NUL byte: error");
	ok(strstr(error_last(), "'mm/a.c' hunk 1, line 2: has a NUL byte") != NULL,
	   "NUL byte: names file, hunk and line (%s)", error_last());
	seen_release(&s);
	strbuf_release(&big);
}

/* A new file of many functions: only the piece with an anchor is parsed. */
static void note_damage(const char *file, int hunk, const char *reason,
			const char *message, void *data)
{
	strbuf_addf(data, "%s %d: %s\n", file, hunk, reason);
}

/* With opts.damaged, a damaged hunk is reported and the rest is parsed. */
static void test_damaged(void)
{
	struct seen s;
	struct diff_opts o = DIFF_OPTS_INIT;
	struct strbuf dmg = STRBUF_INIT;
	static const char diff[] =
		/* hunk 1 cut by a wrapped line, hunk 2 intact */
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,3 +1,3 @@ f\n"
		" a\n-b\n+pr_err(\"a long\n"
		"line\");\n"
		" c\n"
		"@@ -10,2 +10,3 @@ g\n"
		" x\n+BUG();\n y\n"
		/* a hunk whose counts are too small */
		"diff --git a/mm/b.c b/mm/b.c\n"
		"--- a/mm/b.c\n"
		"+++ b/mm/b.c\n"
		"@@ -1,1 +1,1 @@\n"
		"-a\n+b\n+WARN_ON(1);\n"
		/* a malformed header, then an intact hunk */
		"diff --git a/mm/c.c b/mm/c.c\n"
		"--- a/mm/c.c\n"
		"+++ b/mm/c.c\n"
		"@@ -1,x +1,2 @@\n"
		" a\n+b\n"
		"@@ -5,1 +5,2 @@\n"
		" e\n+f\n"
		/* a damaged file header, then a file cut short by the end */
		"diff --git a/mm/d.c b/mm/d.c\n"
		"index 1..2 100644\n"
		"index 1..2 100644\n"
		"--- a/mm/d.c\n"
		"+++ b/mm/d.c\n"
		"@@ -1,1 +1,2 @@\n"
		" a\n+BUG();\n"
		"diff --git a/mm/e.c b/mm/e.c\n"
		"--- a/mm/e.c\n"
		"+++ b/mm/e.c\n"
		"@@ -1,4 +1,4 @@\n"
		" a\n";

	o.damaged = note_damage;
	o.damaged_data = &dmg;
	is(parse(&s, diff, &o), 0, "damaged hunks: the parse goes on");
	is_str(dmg.buf,
	       "mm/a.c 1: is truncated at its line 4: 1 old and 1 new lines missing\n"
	       "mm/b.c 1: lines past the end its header '@@ -1,1 +1,1 @@' gives\n"
	       "mm/c.c 1: malformed hunk header '@@ -1,x +1,2 @@'\n"
	       "mm/d.c 0: the file header has 'index' twice\n"
	       "mm/e.c 1: is truncated: the diff ends with 3 old and 3 new lines missing\n",
	       "damaged hunks: one report each, file, hunk and reason");
	is_str(s.files.buf,
	       "modified mm/a.c mm/a.c 1/2\n"
	       "modified mm/b.c mm/b.c 0/1\n"
	       "modified mm/c.c mm/c.c 1/2\n"
	       "modified mm/e.c mm/e.c 0/1\n",
	       "damaged hunks: the intact hunks of each file, the damaged header's file not at all");
	is(s.nr_hunks, 2, "damaged hunks: two intact hunks delivered");
	is(s.hunk_index[0], 2, "damaged hunks: a.c's second hunk keeps its number");
	is(s.hunk_index[1], 2, "damaged hunks: c.c's second hunk keeps its number");
	ok(strstr(s.lines.buf, "+ -1 11 BUG();") != NULL,
	   "damaged hunks: the intact hunk's lines and numbers");
	is_str(error_last(), "", "damaged hunks: no error left behind");
	seen_release(&s);
	strbuf_release(&dmg);
}

static void test_split(void)
{
	struct strbuf d = STRBUF_INIT;
	struct seen all, some;
	const char *anchors[] = { "BUG", NULL };
	struct diff_opts o = DIFF_OPTS_INIT;
	int n = 0;
	const char *want;

	for (int f = 0; f < 40; f++)
		n += 5;
	strbuf_addf(&d, "diff --git a/mm/n.c b/mm/n.c\nnew file mode 100644\n"
		    "index 0000000..1234567\n--- /dev/null\n+++ b/mm/n.c\n"
		    "@@ -0,0 +1,%d @@\n", n);
	for (int f = 0; f < 40; f++) {
		strbuf_addf(&d, "+static int f%d(void)\n+{\n", f);
		strbuf_addf(&d, "+\t%s;\n", f == 23 ? "BUG_ON(x)" : "return 0");
		strbuf_addstr(&d, "+}\n+\n");
	}
	o.anchors = anchors;
	is(parse(&all, d.buf, NULL), 0, "split: whole parse");
	is(parse(&some, d.buf, &o), 0, "split: anchored parse");
	is_str(some.files.buf, "added mm/n.c mm/n.c 1/1\n", "split: one piece of one hunk");
	is_str(some.lines.buf,
	       "+ -1 116 static int f23(void)\n+ -1 117 {\n+ -1 118 \tBUG_ON(x);\n"
	       "+ -1 119 }\n+ -1 120 \n",
	       "split: the piece has the line numbers of the whole");
	want = strstr(all.lines.buf, "+ -1 116 ");
	ok(want && !strncmp(want, some.lines.buf, some.lines.len),
	   "split: same lines as the unsplit parse");
	is_str(some.ctx.buf, "static int f22(void)\n", "split: git's context for the piece");
	is(some.hunk_index[0], 1, "split: the piece keeps its hunk's index");
	seen_release(&all);
	seen_release(&some);
	strbuf_release(&d);
}

static void test_long_context(void)
{
	struct strbuf d = STRBUF_INIT;
	struct seen s;

	strbuf_addstr(&d, "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@ int f(");
	strbuf_addchars(&d, 'x', 300);
	strbuf_addstr(&d, ")\n-a\n+b\n");
	is(parse(&s, d.buf, NULL), 0, "a 300-byte function context is cut, not refused");
	is((int)strlen(s.ctx.buf), 81, "context cut at 80 bytes");
	seen_release(&s);
	strbuf_release(&d);
}

static void test_looks_like(void)
{
	ok(diff_looks_like("diff --git a/x b/x\n", 19), "looks like: diff --git");
	ok(diff_looks_like("--- a/x\n", 8), "looks like: ---");
	ok(diff_looks_like("Index: x\n", 9), "looks like: Index:");
	ok(!diff_looks_like("From 123 Mon\n", 13), "looks like: mbox is not");
	ok(!diff_looks_like("Subject: x\n", 11), "looks like: mail is not");
}

static void test_garbage(void)
{
	struct seen s;
	static const char *const inputs[] = {
		"", "\n", "@@ -1 +1 @@\n-a\n+b\n", "diff --git\n", "diff --git \"a/x\n",
		"--- \n+++ \n@@ -1 +1 @@\n-a\n+b\n", "diff --git a/x b/x\n@@ -0,0 +0,0 @@\n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -2147483647,2147483647 +1 @@\n",
		"Binary files  and  differ\n", "diff --git a/x b/x\nGIT binary patch\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		int ret = parse(&s, inputs[i], NULL);

		ok(ret == 0 || ret == WW_EINPUT, "garbage %zu: no crash (%d %s)", i, ret,
		   error_last());
		seen_release(&s);
	}
}

/* The anchor search (SIMD for a few anchors) agrees with memmem() at every
 * length and position, including hits that end exactly at the end. */
static void test_anchors(void)
{
	const char *names[] = { "BUG", "WARN", "panic", NULL };
	const char *one[] = { "BUG", NULL };
	/* Eight (the rules' own) fill every SIMD bucket; nine do not fit. */
	const char *eight[] = { "BUG", "WARN", "panic", "J_ASSERT", "f2fs_bug_on",
				"assert_spin_locked", "CHECK_DATA_CORRUPTION",
				"assert_raw_spin_locked", NULL };
	const char *nine[] = { "BUG", "WARN", "panic", "J_ASSERT", "f2fs_bug_on",
			       "assert_spin_locked", "CHECK_DATA_CORRUPTION",
			       "assert_raw_spin_locked", "pan_x", NULL };
	const char *const *sets[] = { eight, nine };
	struct diff_anchors *a = diff_anchors_new(names), *b = diff_anchors_new(one);
	char buf[96];
	unsigned int seed = 12345, bad = 0, runs = 0;

	for (size_t len = 0; len < sizeof(buf); len++) {
		for (int t = 0; t < 40; t++) {
			bool want = false, want1;

			for (size_t i = 0; i < len; i++) {
				seed = seed * 1103515245u + 12345u;
				buf[i] = "BUGWARNpanicx_ \n"[(seed >> 16) % 16];
			}
			if (t == 0 && len >= 5)
				memcpy(buf + len - 5, "panic", 5);
			for (size_t k = 0; names[k]; k++)
				want |= memmem(buf, len, names[k], strlen(names[k])) != NULL;
			want1 = memmem(buf, len, "BUG", 3) != NULL;
			bad += diff_anchors_find(a, buf, len) != want;
			bad += diff_anchors_find(b, buf, len) != want1;
			runs++;
		}
	}
	is(bad, 0, "anchors: SIMD search agrees with memmem() on %u inputs", runs);
	for (size_t set = 0; set < 2; set++) {
		struct diff_anchors *c = diff_anchors_new(sets[set]);
		static const char *const pieces[] = {
			"BU", "BUG", "WAR", "WARN", "pan", "panic", "J_ASSER", "J_ASSERT",
			"f2fs_bug_o", "f2fs_bug_on", "assert_spin_locke",
			"assert_spin_locked", "CHECK_DATA_CORRUPTION",
			"assert_raw_spin_locked", "pan_x", " ", "\n", "_", "x" };

		unsigned int hits = 0;

		bad = 0;
		runs = 0;
		for (int t = 0; t < 4000; t++) {
			size_t len = 0;
			bool want = false;

			while (len < sizeof(buf) - 24) {
				const char *p;

				seed = seed * 1103515245u + 12345u;
				p = pieces[(seed >> 16) % ARRAY_SIZE(pieces)];
				if ((seed >> 8) % 64 && strlen(p) >= 3)
					p = "zz";	/* keep real hits rare */
				memcpy(buf + len, p, strlen(p));
				len += strlen(p);
			}
			for (size_t k = 0; sets[set][k]; k++)
				want |= memmem(buf, len, sets[set][k], strlen(sets[set][k])) != NULL;
			bad += diff_anchors_find(c, buf, len) != want;
			hits += want;
			runs++;
		}
		is(bad, 0, "anchors: %zu anchors agree with memmem() on %u inputs (%u hits)",
		   set ? (size_t)9 : (size_t)8, runs, hits);
		diff_anchors_free(c);
	}
	ok(!diff_anchors_find(a, "BU", 2) && diff_anchors_find(a, "xxBUG", 5) &&
	   !diff_anchors_find(a, "BUWARBU_G panipanic", 14) &&
	   diff_anchors_find(a, "0123456789abcdefWARN", 20), "anchors: edges");
	diff_anchors_free(a);
	diff_anchors_free(b);
}

/* One libgit2 diff for kapply and ci alike, whatever tool wrote the patch. */
static void test_to_git(void)
{
	git_diff *d = NULL;
	const git_diff_delta *dd;

	is(diff_to_git(&d, git_text, strlen(git_text)), 0, "to_git: git's dialect");
	ok(d && git_diff_num_deltas(d) == 1, "to_git: git's dialect: one file");
	git_diff_free(d);
	d = NULL;
	is(diff_to_git(&d, quilt, strlen(quilt)), 0, "to_git: quilt is normalised first");
	dd = d && git_diff_num_deltas(d) == 1 ? git_diff_get_delta(d, 0) : NULL;
	is_str(dd ? dd->new_file.path : "(none)", "mm/frob.c", "to_git: quilt: -p1 stripped");
	git_diff_free(d);
	d = (git_diff *)1;
	error_clear();
	is(diff_to_git(&d, "just prose\n", 11), WW_EINPUT, "to_git: prose is WW_EINPUT");
	ok(d == NULL, "to_git: nothing to free after an error");
	is_str(error_last(), "no file in the diff", "to_git: says why");
}

int main(void)
{
	test_git();
	test_git_passthrough();
	test_quilt();
	test_ruN();
	test_devnull_and_p0();
	test_binary_and_rename();
	test_noprefix_crlf_blank();
	test_errors();
	test_damaged();
	test_split();
	test_long_context();
	test_looks_like();
	test_garbage();
	test_anchors();
	test_to_git();
	return done_testing();
}
