/*
 * The file headers of a unified diff, for diff.c's parser: "diff --git"
 * and its extended lines, a plain diff's "--- "/"+++ " pair, binary
 * files, and the quoted paths in all of them.  Each is rewritten into
 * git's dialect in the parser's segment (diff-priv.h).
 */
#include "diff-priv.h"

/*
 * Undo C-style quoting as git and GNU diff write it ("a/x\tb").  Returns
 * the number of bytes of `s` consumed.
 */
static size_t unquote(struct strbuf *out, const char *s, size_t len)
{
	size_t i = 1;

	while (i < len && s[i] != '"') {
		char c = s[i++];

		if (c == '\\' && i < len) {
			c = s[i++];
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'v': c = '\v'; break;
			default:
				if (c >= '0' && c <= '3' && i + 1 < len &&
				    s[i] >= '0' && s[i] <= '7' &&
				    s[i + 1] >= '0' && s[i + 1] <= '7') {
					c = (char)(((c - '0') << 6) |
						   ((s[i] - '0') << 3) |
						   (s[i + 1] - '0'));
					i += 2;
				}
				break;
			}
		}
		strbuf_addch(out, c);
	}
	return i < len ? i + 1 : i;
}

/* Append `path` to `out` quoted the way git quotes it, if it needs it. */
static void add_quoted(struct strbuf *out, const char *prefix, const char *path)
{
	bool need = false;

	for (const char *c = path; *c; c++)
		if (*c == '"' || *c == '\\' || *c == '\n' || *c == '\t' ||
		    (unsigned char)*c < ' ')
			need = true;
	if (!need) {
		strbuf_addstr(out, prefix);
		strbuf_addstr(out, path);
		return;
	}
	strbuf_addch(out, '"');
	strbuf_addstr(out, prefix);
	for (const char *c = path; *c; c++) {
		switch (*c) {
		case '"': strbuf_addstr(out, "\\\""); break;
		case '\\': strbuf_addstr(out, "\\\\"); break;
		case '\n': strbuf_addstr(out, "\\n"); break;
		case '\t': strbuf_addstr(out, "\\t"); break;
		default:
			if ((unsigned char)*c < ' ')
				strbuf_addf(out, "\\%03o", (unsigned char)*c);
			else
				strbuf_addch(out, *c);
		}
	}
	strbuf_addch(out, '"');
}

/*
 * The path of a "--- "/"+++ " line of a plain diff: quoted or not, cut
 * at the tab before GNU diff's timestamp.
 */
static void plain_path(struct strbuf *out, const char *s, size_t len)
{
	const char *tab;

	strbuf_reset(out);
	if (len && s[0] == '"') {
		unquote(out, s, len);
		return;
	}
	tab = memchr(s, '\t', len);
	if (tab)
		len = tab - s;
	strbuf_add(out, s, len);
	strbuf_rtrim(out);
}

/* Drop the first path component ("a/mm/x.c" -> "mm/x.c"), if any. */
static void strip_component(struct strbuf *sb)
{
	char *slash = strchr(sb->buf, '/');

	if (slash && slash[1]) {
		size_t skip = slash + 1 - sb->buf;

		memmove(sb->buf, sb->buf + skip, sb->len - skip);
		strbuf_setlen(sb, sb->len - skip);
	}
}

static bool first_components_differ(const char *a, const char *b)
{
	const char *sa = strchr(a, '/'), *sb = strchr(b, '/');

	if (!sa || !sb)
		return false;
	return sa - a != sb - b || memcmp(a, b, sa - a);
}

/*
 * A "diff --git X Y" line: remember the paths (for messages and the
 * file filter, until libgit2 says better) and whether it lacks prefixes.
 */
void diff_header_git_start(struct parser *p)
{
	const char *s = p->line + strlen("diff --git "), *end = p->line + p->line_len;
	size_t n = end - s;

	diff_parser_file_reset(&p->f);
	p->f.git = true;
	p->state = S_GIT_HEADER;
	strbuf_reset(&p->seg);
	if (n && *s == '"') {
		size_t used = unquote(&p->f.old_path, s, n);

		s += used;
		while (s < end && *s == ' ')
			s++;
		if (s < end && *s == '"')
			unquote(&p->f.new_path, s, end - s);
		else
			strbuf_add(&p->f.new_path, s, end - s);
		strip_component(&p->f.old_path);
		strip_component(&p->f.new_path);
	} else if (n % 2 == 1 && s[n / 2] == ' ' && !memcmp(s, s + n / 2 + 1, n / 2)) {
		/* The same path twice: "a/x b/x" cannot be that, so no prefix. */
		p->f.noprefix = true;
		strbuf_add(&p->f.old_path, s, n / 2);
		strbuf_addbuf(&p->f.new_path, &p->f.old_path);
	} else {
		const char *b = n > 4 ? memmem(s, n, " b/", 3) : NULL;

		if (b) {
			strbuf_add(&p->f.old_path, s, b - s);
			strbuf_add(&p->f.new_path, b + 1, end - b - 1);
			strip_component(&p->f.old_path);
			strip_component(&p->f.new_path);
		}
	}
	if (p->f.noprefix) {
		strbuf_addstr(&p->seg, "diff --git ");
		add_quoted(&p->seg, "a/", p->f.old_path.buf);
		strbuf_addch(&p->seg, ' ');
		add_quoted(&p->seg, "b/", p->f.new_path.buf);
		strbuf_addch(&p->seg, '\n');
	} else {
		diff_parser_seg_add_line(p);
	}
}

/* "--- X" / "+++ X" inside a git header: note the path, fix prefixes. */
static void git_file_line(struct parser *p, struct strbuf *path, const char *prefix)
{
	const char *s = p->line + 4;
	size_t n = p->line_len - 4;
	bool devnull = n >= 9 && !memcmp(s, "/dev/null", 9);

	if (!devnull) {
		plain_path(path, s, n);
		if (!p->f.noprefix)
			strip_component(path);
	}
	if (!p->f.have_index) {
		/* libgit2 1.5 wants an index line before "---" after renames. */
		strbuf_addstr(&p->seg, "index 0000000..0000000\n");
		p->f.have_index = true;
	}
	if (p->f.noprefix && !devnull) {
		strbuf_add(&p->seg, p->line, 4);
		add_quoted(&p->seg, prefix, path->buf);
		strbuf_addch(&p->seg, '\n');
	} else {
		diff_parser_seg_add_line(p);
	}
}

static void set_path_from(struct strbuf *path, const char *s, size_t n)
{
	strbuf_reset(path);
	if (n && *s == '"')
		unquote(path, s, n);
	else
		strbuf_add(path, s, n);
}

/* One line of a git header; 1 if it is not a header line (file ends). */
/* The extended header lines of git, each allowed once, before "--- ". */
static const char *const git_header_lines[] = {
	"old mode ", "new mode ", "deleted file mode ", "new file mode ",
	"copy from ", "copy to ", "rename from ", "rename to ",
	"similarity index ", "dissimilarity index ", "index ",
};

/*
 * One line of a git header; 1 if it is not a header line (file ends).
 * git's order is enforced: extended lines once each, then "--- ", then
 * "+++ ", then hunks.  (libgit2 leaks memory when it refuses a header, so
 * it is only ever handed well-formed ones.)
 */
int diff_header_git_line(struct parser *p)
{
	const char *v;
	size_t kind;

	if (diff_parser_line_is(p, "@@ -")) {
		p->f.want = diff_parser_want_path(p, diff_parser_path(p));
		return diff_parser_begin_hunk(p);
	}
	if (diff_parser_line_is(p, "GIT binary patch") || diff_parser_line_is(p, "Binary files ")) {
		p->f.binary = true;
		p->state = S_BINARY;
		return 0;
	}
	if (diff_parser_line_is(p, "--- ") && !p->f.header_seen[ARRAY_SIZE(git_header_lines)]) {
		p->f.header_seen[ARRAY_SIZE(git_header_lines)] = true;
		git_file_line(p, &p->f.old_path, "a/");
		return 0;
	}
	if (diff_parser_line_is(p, "+++ ") && p->f.header_seen[ARRAY_SIZE(git_header_lines)] &&
	    !p->f.header_seen[ARRAY_SIZE(git_header_lines) + 1]) {
		p->f.header_seen[ARRAY_SIZE(git_header_lines) + 1] = true;
		git_file_line(p, &p->f.new_path, "b/");
		return 0;
	}
	for (kind = 0; kind < ARRAY_SIZE(git_header_lines); kind++)
		if (diff_parser_line_is(p, git_header_lines[kind]))
			break;
	if (kind == ARRAY_SIZE(git_header_lines) ||
	    p->f.header_seen[ARRAY_SIZE(git_header_lines)])
		return 1;	/* not a header line, or one after "--- " */
	if (p->f.header_seen[kind])
		return diff_parser_damage(p, 0, ": the file header has '%.*s' twice",
			      (int)strlen(git_header_lines[kind]) - 1,
			      git_header_lines[kind]);
	p->f.header_seen[kind] = true;
	if (diff_parser_line_is(p, "new file mode ")) {
		p->f.status = DIFF_ADDED;
	} else if (diff_parser_line_is(p, "deleted file mode ")) {
		p->f.status = DIFF_DELETED;
	} else if (diff_parser_line_is(p, "rename from ") || diff_parser_line_is(p, "copy from ")) {
		bool rename = diff_parser_line_is(p, "rename");

		p->f.status = rename ? DIFF_RENAMED : DIFF_COPIED;
		v = p->line + strlen(rename ? "rename from " : "copy from ");
		set_path_from(&p->f.old_path, v, p->line + p->line_len - v);
	} else if (diff_parser_line_is(p, "rename to ") || diff_parser_line_is(p, "copy to ")) {
		v = p->line + strlen(diff_parser_line_is(p, "rename") ? "rename to " : "copy to ");
		set_path_from(&p->f.new_path, v, p->line + p->line_len - v);
	} else if (diff_parser_line_is(p, "index ")) {
		p->f.have_index = true;
	}
	diff_parser_seg_add_line(p);
	return 0;
}

/*
 * A "--- X"/"+++ Y" pair outside a git header (quilt, diff -u, diff -ruN):
 * work out the file's name, -p1 as patch(1) would.  The header proper is
 * written at its first hunk, which says whether the file is new.
 */
void diff_header_plain_start(struct parser *p, const char *plus, size_t plus_len)
{
	struct cur_file *f = &p->f;
	bool old_null, new_null;

	diff_parser_file_reset(f);
	p->state = S_PLAIN_HEADER;
	strbuf_reset(&p->seg);
	plain_path(&f->old_path, p->line + 4, p->line_len - 4);
	plain_path(&f->new_path, plus + 4, plus_len - 4);
	old_null = !strcmp(f->old_path.buf, "/dev/null");
	new_null = !strcmp(f->new_path.buf, "/dev/null");
	if (old_null || new_null) {
		struct strbuf *real = old_null ? &f->new_path : &f->old_path;

		strip_component(real);
		f->status = old_null ? DIFF_ADDED : DIFF_DELETED;
		strbuf_reset(old_null ? &f->old_path : &f->new_path);
		strbuf_addbuf(old_null ? &f->old_path : &f->new_path, real);
	} else {
		if (first_components_differ(f->old_path.buf, f->new_path.buf))
			strip_component(&f->new_path);
		/* No renames in plain diffs: "x.c.orig" is x.c. */
		strbuf_reset(&f->old_path);
		strbuf_addbuf(&f->old_path, &f->new_path);
	}
}

/* The git header of a plain diff's file, written at its first hunk. */
int diff_header_plain_first_hunk(struct parser *p)
{
	struct cur_file *f = &p->f;
	const char *path = f->new_path.buf;

	if (!diff_parser_hunk_header(p))
		return 1;
	/* diff -N writes new and deleted files against an empty one. */
	if (f->status == DIFF_MODIFIED && p->old_start == 0 && p->old_count == 0)
		f->status = DIFF_ADDED;
	else if (f->status == DIFF_MODIFIED && p->new_start == 0 && p->new_count == 0)
		f->status = DIFF_DELETED;
	strbuf_addstr(&p->seg, "diff --git ");
	add_quoted(&p->seg, "a/", path);
	strbuf_addch(&p->seg, ' ');
	add_quoted(&p->seg, "b/", path);
	strbuf_addch(&p->seg, '\n');
	if (f->status == DIFF_ADDED)
		strbuf_addstr(&p->seg, "new file mode 100644\n");
	else if (f->status == DIFF_DELETED)
		strbuf_addstr(&p->seg, "deleted file mode 100644\n");
	strbuf_addstr(&p->seg, "index 0000000..0000000\n--- ");
	if (f->status == DIFF_ADDED)
		strbuf_addstr(&p->seg, "/dev/null");
	else
		add_quoted(&p->seg, "a/", path);
	strbuf_addstr(&p->seg, "\n+++ ");
	if (f->status == DIFF_DELETED)
		strbuf_addstr(&p->seg, "/dev/null");
	else
		add_quoted(&p->seg, "b/", path);
	strbuf_addch(&p->seg, '\n');
	f->want = diff_parser_want_path(p, path);
	return diff_parser_begin_hunk(p);
}

/* "Binary files A and B differ" from diff -r: a binary file, no header. */
int diff_header_plain_binary(struct parser *p)
{
	const char *s = p->line + strlen("Binary files "), *end = p->line + p->line_len;
	const char *and = memmem(s, end - s, " and ", 5);
	int ret;

	if (!and || end - and < 12 || memcmp(end - 7, " differ", 7))
		return 0;
	diff_parser_file_reset(&p->f);
	strbuf_add(&p->f.old_path, s, and - s);
	strbuf_add(&p->f.new_path, and + 5, end - 7 - (and + 5));
	if (first_components_differ(p->f.old_path.buf, p->f.new_path.buf))
		strip_component(&p->f.new_path);
	strbuf_reset(&p->f.old_path);
	strbuf_addbuf(&p->f.old_path, &p->f.new_path);
	p->f.binary = true;
	p->state = S_BINARY;
	ret = diff_parser_finish_file(p);
	return ret;
}
