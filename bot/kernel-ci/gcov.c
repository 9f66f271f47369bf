/*
 * Per-line execution counts: run `gcov --json-format --stdout` on one
 * object's .gcno/.gcda pair (brought together in a private temporary
 * directory, since the two live in different trees) and keep the lines of
 * one source file.
 */
#include "gcov.h"
#include "env.h"
#include "safefs.h"
#include "child.h"
#include "strbuf.h"

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <unistd.h>

#define GCOV_TIMEOUT_MS (60 * 1000)
#define GCOV_OUT_CAP (256u << 20)
#define GCOV_LINE_MAX 10000000UL	/* no source file is longer */

static bool file_matches(const char *name, const char *srcfile)
{
	size_t n = strlen(name), s = strlen(srcfile);

	if (!strcmp(name, srcfile))
		return true;
	return n > s && name[n - s - 1] == '/' && !strcmp(name + n - s, srcfile);
}

static void counts_add(struct gcov_counts *c, unsigned long line, long long n)
{
	if (line >= c->nr) {
		size_t nr = line + 1;

		c->count = xrealloc(c->count, nr * sizeof(*c->count));
		for (size_t i = c->nr; i < nr; i++)
			c->count[i] = GCOV_NO_DATA;
		c->nr = nr;
	}
	/* A line gcov lists twice (code of one line in two functions) ran
	 * as often as both together. */
	if (c->count[line] == GCOV_NO_DATA)
		c->count[line] = n;
	else
		c->count[line] += n;
}

static int parse_lines(struct gcov_counts *out, json_t *lines, const char *name)
{
	size_t i;
	json_t *l;

	if (!json_is_array(lines))
		return error_code(WW_EINPUT, "gcov output: '%s' has no lines", name);
	json_array_foreach(lines, i, l) {
		json_t *ln = json_object_get(l, "line_number");
		json_t *cnt = json_object_get(l, "count");

		if (!json_is_integer(ln) || !json_is_integer(cnt) ||
		    json_integer_value(ln) < 1 ||
		    (unsigned long)json_integer_value(ln) > GCOV_LINE_MAX ||
		    json_integer_value(cnt) < 0)
			return error_code(WW_EINPUT,
					  "gcov output: '%s': bad lines[%zu]", name, i);
		counts_add(out, json_integer_value(ln), json_integer_value(cnt));
	}
	return 0;
}

int gcov_parse_json(struct gcov_counts *out, const char *json, size_t len,
		    const char *srcfile)
{
	json_error_t jerr;
	json_t *root, *files, *f;
	size_t i;
	int ret = WW_EINPUT;

	root = json_loadb(json, len, 0, &jerr);
	if (!root)
		return error_code(WW_EINPUT, "gcov output: line %d: %s",
				  jerr.line, jerr.text);
	files = json_object_get(root, "files");
	if (!json_is_array(files)) {
		error_code(WW_EINPUT, "gcov output has no 'files'");
		goto out_free_root;
	}
	json_array_foreach(files, i, f) {
		const char *name = json_string_value(json_object_get(f, "file"));
		int r;

		if (!name || !file_matches(name, srcfile))
			continue;
		if (!out->file)
			out->file = xstrdup(name);
		if ((r = parse_lines(out, json_object_get(f, "lines"), name)) < 0) {
			ret = r;
			goto out_release;
		}
	}
	if (!out->file) {
		error_code(WW_EINPUT, "gcov has no lines of '%s' in this object",
			   srcfile);
		goto out_free_root;
	}
	ret = 0;
	goto out_free_root;
out_release:
	gcov_counts_release(out);
out_free_root:
	json_decref(root);
	return ret;
}

static int real_path(char **out, const char *path, const char *what,
		     const char *why)
{
	*out = realpath(path, NULL);
	if (!*out)
		return error_code(WW_ENOTFOUND, "no %s '%s' (%s): %s", what, path,
				  why, strerror(errno));
	return 0;
}

static int run_gcov(struct strbuf *json, const char *gcno, const char *gcda)
{
	struct strbuf dir = STRBUF_INIT, ln = STRBUF_INIT, ld = STRBUF_INIT;
	struct child c = CHILD_INIT;
	const char *tmp = env_get(ENV_TMPDIR);
	int ret;

	strbuf_addf(&dir, "%s/ww-gcov-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf)) {
		ret = error("cannot create '%s': %s", dir.buf, strerror(errno));
		goto out_free;
	}
	strbuf_addf(&ln, "%s/o.gcno", dir.buf);
	strbuf_addf(&ld, "%s/o.gcda", dir.buf);
	if (symlink(gcno, ln.buf) < 0 || symlink(gcda, ld.buf) < 0) {
		ret = error("cannot link into '%s': %s", dir.buf, strerror(errno));
		goto out_rmdir;
	}

	strvec_pushl(&c.args, "gcov", "--json-format", "--stdout",
		     "--object-directory", dir.buf, "o.c", NULL);
	c.dir = dir.buf;
	c.timeout_ms = GCOV_TIMEOUT_MS;
	c.cap = GCOV_OUT_CAP;
	strvec_push(&c.env, "LC_ALL=C");
	if ((ret = child_run(&c)) < 0)
		goto out_rmdir;
	/* Counters from another build of the object are worthless. */
	if (strstr(c.err.buf, "stamp mismatch")) {
		ret = error_code(WW_EINPUT, "'%s' is not from the build of '%s'",
				 gcda, gcno);
		goto out_rmdir;
	}
	if (c.status) {
		ret = child_error(&c, "gcov failed on '%s' with status %d",
				  gcno, c.status);
		goto out_rmdir;
	}
	if (c.truncated) {
		ret = error_code(WW_ETOOBIG, "gcov output for '%s' over %u bytes",
				 gcno, GCOV_OUT_CAP);
		goto out_rmdir;
	}
	strbuf_addbuf(json, &c.out);
	ret = 0;
out_rmdir:
	unlink(ln.buf);
	unlink(ld.buf);
	rmdir(dir.buf);
out_free:
	child_release(&c);
	strbuf_release(&ld);
	strbuf_release(&ln);
	strbuf_release(&dir);
	return ret;
}

int gcov_object_counts(struct gcov_counts *out, const char *gcno,
		       const char *gcda, const char *srcfile)
{
	struct strbuf json = STRBUF_INIT;
	char *rno = NULL, *rda = NULL;
	int ret;

	if ((ret = real_path(&rno, gcno, "coverage notes",
			     "object not built with gcov?")) < 0 ||
	    (ret = real_path(&rda, gcda, "coverage counters",
			     "not copied out of the guest?")) < 0)
		goto out_free;
	if ((ret = run_gcov(&json, rno, rda)) < 0)
		goto out_free;
	ret = gcov_parse_json(out, json.buf, json.len, srcfile);
out_free:
	strbuf_release(&json);
	free(rda);
	free(rno);
	return ret;
}

int gcov_line_counts(struct gcov_counts *out, const char *builddir,
		     const char *gcda_dir, const char *srcfile)
{
	struct strbuf no = STRBUF_INIT, da = STRBUF_INIT;
	struct strbuf abs_no = STRBUF_INIT, abs_da = STRBUF_INIT;
	const char *dot = strrchr(srcfile, '.');
	size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - srcfile) : strlen(srcfile);
	int ret;

	if (!dot || strcmp(dot, ".c"))
		return error_code(WW_ENOTFOUND,
				  "'%s' is not compiled on its own: no object to read", srcfile);
	/*
	 * The notes are in the build directory the sandbox wrote, the
	 * counters came from the guest: both must be plain files beneath
	 * their directory, reached through no symlink (safefs.h).
	 */
	strbuf_addf(&no, "%.*s.gcno", (int)stem, srcfile);
	strbuf_addf(&da, "%.*s.gcda", (int)stem, srcfile);
	strbuf_addf(&abs_no, "%s/%s", builddir, no.buf);
	strbuf_addf(&abs_da, "%s/%s", gcda_dir, da.buf);
	if (!safefs_is_regular(builddir, no.buf, SAFEFS_NO_SYMLINKS))
		ret = error_code(WW_ENOTFOUND, "no coverage notes '%s' (object not built with gcov?)",
				 abs_no.buf);
	else if (!safefs_is_regular(gcda_dir, da.buf, SAFEFS_NO_SYMLINKS))
		ret = error_code(WW_ENOTFOUND, "no coverage counters '%s' (not copied out of the guest?)",
				 abs_da.buf);
	else
		ret = gcov_object_counts(out, abs_no.buf, abs_da.buf, srcfile);
	strbuf_release(&abs_da);
	strbuf_release(&abs_no);
	strbuf_release(&da);
	strbuf_release(&no);
	return ret;
}

long long gcov_line(const struct gcov_counts *c, unsigned long line)
{
	return line < c->nr ? c->count[line] : GCOV_NO_DATA;
}

/* Line `n` (1-based) of `src`: its start and length, or false. */
static bool source_line(const char *src, size_t len, unsigned long n,
			const char **out, size_t *out_len)
{
	const char *p = src, *end = src + len;

	for (unsigned long i = 1; i < n && p < end; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return false;
		p = nl + 1;
	}
	if (p >= end)
		return false;
	*out = p;
	*out_len = strcspn(p, "\n");
	if (*out_len > (size_t)(end - p))
		*out_len = (size_t)(end - p);
	return true;
}

/* The code of a line: no leading blanks, no trailing comment or blanks. */
static void code_of(const char **p, size_t *n)
{
	const char *c;

	while (*n && (**p == ' ' || **p == '\t')) {
		(*p)++;
		(*n)--;
	}
	for (size_t i = 0; i + 1 < *n; i++)
		if ((*p)[i] == '/' && ((*p)[i + 1] == '*' || (*p)[i + 1] == '/')) {
			*n = i;
			break;
		}
	while (*n && strchr(" \t\r", (*p)[*n - 1]))
		(*n)--;
	c = *p;
	if (*n >= 2 && c[0] == '/' && c[1] == '*')
		*n = 0;
}

/*
 * A line that cannot end a basic block nor start one: a simple statement
 * or declaration ending in ';', no brace, no label, not a control
 * statement.  Blank lines and comments (empty code) pass too.
 */
static bool straight_line(const char *p, size_t n)
{
	static const char *const control[] = {
		"if", "else", "for", "while", "do", "switch", "case", "default",
		"return", "goto", "break", "continue", "#", NULL
	};

	code_of(&p, &n);
	if (!n)
		return true;
	if (p[n - 1] != ';' || memchr(p, '{', n) || memchr(p, '}', n))
		return false;
	for (size_t i = 0; control[i]; i++) {
		size_t k = strlen(control[i]);

		if (n >= k && !strncmp(p, control[i], k) &&
		    (k == 1 || n == k ||
		     (!isalnum((unsigned char)p[k]) && p[k] != '_')))
			return false;
	}
	return true;
}

long long gcov_statement(const struct gcov_counts *c, const char *src,
			 size_t len, unsigned long line, unsigned int span,
			 unsigned long *from)
{
	const char *p;
	size_t n;

	*from = 0;
	for (unsigned int k = 0; k < (span ? span : 1); k++) {
		long long v = gcov_line(c, line + k);

		if (v != GCOV_NO_DATA) {
			*from = line + k;
			return v;
		}
	}
	/* Upwards through lines that cannot branch to the first one that
	 * has a record: it is in the same basic block. */
	for (unsigned long l = line - 1; src && l > 0 &&
	     source_line(src, len, l, &p, &n); l--) {
		if (!straight_line(p, n))
			return GCOV_NO_DATA;
		if (gcov_line(c, l) != GCOV_NO_DATA) {
			*from = l;
			return gcov_line(c, l);
		}
	}
	return GCOV_NO_DATA;
}

void gcov_counts_release(struct gcov_counts *c)
{
	free(c->file);
	free(c->count);
	c->file = NULL;
	c->count = NULL;
	c->nr = 0;
}
