/*
 * Sections of Documentation/process/coding-style.rst, for quoting.
 * See guide.h.
 */
#include "guide.h"
#include "mkdirs.h"
#include "ktree.h"
#include "child.h"
#include "strvec.h"

#include <ctype.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_underline(const char *s, size_t n)
{
	if (n < 3 || !s[0] || !strchr("=-*~^#+`'\".:_", s[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if (s[i] != s[0])
			return false;
	return true;
}

static bool is_blank_line(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

int guide_parse(struct guide *out, const char *text, size_t len, const char *name)
{
	char levels[16] = "";		/* underline characters in order of use */
	size_t pos = 0, prev_start = 0, prev_len = 0;
	bool have_prev = false;

	out->text = xmemdupz(text, len);
	out->len = len;
	out->path = xstrdup(name);
	while (pos < len) {
		const char *line = out->text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;

		while (n && line[n - 1] == '\r')
			n--;
		/* "Title\n=====": the underline at least as long as the title
		 * (give or take the odd character, as humans write it). */
		if (have_prev && is_underline(line, n) && prev_len &&
		    !is_blank_line(out->text + prev_start, prev_len) &&
		    !is_underline(out->text + prev_start, prev_len) &&
		    n + 2 >= prev_len) {
			struct guide_section *s;
			char *lv = strchr(levels, line[0]);

			if (!lv && strlen(levels) < sizeof(levels) - 1) {
				lv = levels + strlen(levels);
				lv[0] = line[0];
			}
			if (out->nr)
				out->v[out->nr - 1].end = prev_start;
			ALLOC_GROW(out->v, out->nr + 1, out->alloc);
			s = &out->v[out->nr++];
			s->heading = xstrndup(out->text + prev_start, prev_len);
			s->level = lv ? (int)(lv - levels) : 15;
			s->start = prev_start;
			s->end = len;
		}
		prev_start = pos;
		prev_len = n;
		have_prev = true;
		pos += (nl ? (size_t)(nl - line) : len - pos) + 1;
	}
	if (!out->nr)
		return error_code(WW_EINPUT, "'%s' has no reStructuredText headings", name);
	return 0;
}

int guide_load_file(struct guide *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, GUIDE_MAX_BYTES);

	/* reStructuredText has no NUL bytes; a file with some is not one. */
	if (!ret && memchr(sb.buf, '\0', sb.len))
		ret = error_code(WW_EINPUT, "'%s' has a NUL byte", path);
	if (!ret)
		ret = guide_parse(out, sb.buf, sb.len, path);
	strbuf_release(&sb);
	return ret;
}

int guide_load_tree(struct guide *out, const char *tree)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", tree, GUIDE_PATH);
	ret = guide_load_file(out, path.buf);
	strbuf_release(&path);
	return ret;
}

/* Lower-case words without numbering ("22)") or punctuation, except the
 * characters identifiers are made of. */
static void normalize(struct strbuf *out, const char *s)
{
	const char *p = s;

	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (p > s && *p == ')')
		s = p + 1;
	for (; *s; s++) {
		unsigned char c = *s;

		if (isalnum(c) || c == '_' || c == '(' || c == ')')
			strbuf_addch(out, tolower(c));
		else if (out->len && out->buf[out->len - 1] != ' ')
			strbuf_addch(out, ' ');
	}
	strbuf_trim(out);
}

/* Identifier-like words of a normalised heading: with '_' or "()". */
static void identifiers(struct strvec *out, const char *norm)
{
	const char *p = norm;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (memchr(p, '_', n) || (n > 2 && !memcmp(p + n - 2, "()", 2)))
			strvec_pushf(out, "%.*s", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
	}
}

static const struct guide_section *find(const struct guide *g, const char *heading,
				       bool fuzzy)
{
	struct strbuf want = STRBUF_INIT, have = STRBUF_INIT;
	struct strvec want_ids = STRVEC_INIT;
	const struct guide_section *best = NULL;
	size_t best_score = 0;

	if (!heading || !*heading)
		return NULL;
	normalize(&want, heading);
	identifiers(&want_ids, want.buf);
	for (size_t i = 0; i < g->nr; i++) {
		struct strvec ids = STRVEC_INIT;
		size_t score = 0;

		strbuf_reset(&have);
		normalize(&have, g->v[i].heading);
		if (!strcmp(have.buf, want.buf)) {
			best = &g->v[i];
			break;
		}
		if (!fuzzy)
			continue;
		identifiers(&ids, have.buf);
		for (size_t a = 0; a < want_ids.nr; a++)
			for (size_t b = 0; b < ids.nr; b++)
				if (!strcmp(want_ids.v[a], ids.v[b]))
					score++;
		if (score > best_score) {
			best_score = score;
			best = &g->v[i];
		}
		strvec_clear(&ids);
	}
	strbuf_release(&want);
	strbuf_release(&have);
	strvec_clear(&want_ids);
	return best;
}

const struct guide_section *guide_find(const struct guide *g, const char *heading)
{
	return find(g, heading, true);
}

const struct guide_section *guide_find_exact(const struct guide *g, const char *heading)
{
	return find(g, heading, false);
}

void guide_quote(struct strbuf *out, const struct guide *g,
		 const struct guide_section *s, const char *prefix)
{
	const char *p = g->text + s->start, *end = g->text + s->end;
	struct strbuf line = STRBUF_INIT;
	size_t lines = 0, blank_run = 0;

	/* Drop blank lines at the end of the section. */
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		bool blank = is_blank_line(p, n);

		strbuf_reset(&line);
		strbuf_addstr(&line, prefix);
		strbuf_add(&line, p, n);
		strbuf_rtrim(&line);
		p += n + 1;
		if (blank) {
			if (blank_run++)
				continue;	/* one blank quoted line is enough */
		} else {
			blank_run = 0;
		}
		if (++lines > GUIDE_QUOTE_LINES) {
			strbuf_addstr(out, prefix);
			strbuf_addstr(out, "[...]");
			strbuf_rtrim(out);
			strbuf_addch(out, '\n');
			break;
		}
		strbuf_addbuf(out, &line);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&line);
}

char *guide_cache_dir(void)
{
	struct strbuf sb = STRBUF_INIT;

	ktree_cache_dir(&sb, NULL);
	return strbuf_detach(&sb, NULL);
}

static bool has_guide(struct strbuf *out, const char *tree)
{
	struct stat st;

	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", tree, GUIDE_PATH);
	return !stat(out->buf, &st) && S_ISREG(st.st_mode);
}

/* "/usr/src/linux-source-6.1.tar.xz" -> "linux-source-6.1" */
static void tarball_top(struct strbuf *out, const char *source)
{
	const char *base = strrchr(source, '/');
	size_t n;

	base = base ? base + 1 : source;
	n = strcspn(base, ".");
	/* keep "6.1": cut at ".tar" instead of the first dot */
	if (strstr(base, ".tar"))
		n = strstr(base, ".tar") - base;
	strbuf_add(out, base, n);
}

static int extract(struct strbuf *out, const char *cache, const char *source,
		   const char *top)
{
	struct child c = CHILD_INIT;
	struct strbuf tmp = STRBUF_INIT, from = STRBUF_INIT, to = STRBUF_INIT;
	int ret;

	strbuf_addf(&tmp, "%s/guide", cache);
	ret = mkdirs(tmp.buf, 0755, WW_ERROR);
	if (ret)
		goto out;
	strbuf_addstr(&tmp, "/.extract.XXXXXX");
	if (!mkdtemp(tmp.buf)) {
		ret = error("cannot create '%s': %s", tmp.buf, strerror(errno));
		goto out;
	}
	strvec_pushl(&c.args, "tar", "-xJf", source, "-C", tmp.buf, (char *)NULL);
	strvec_pushf(&c.args, "%s/%s", top, GUIDE_PATH);
	c.timeout_ms = 300 * 1000;
	ret = child_run_ok(&c);
	if (ret) {
		ret = error_prefix(ret, "cannot extract %s from '%s'", GUIDE_PATH, source);
		goto out_clean;
	}
	/* Publish atomically: a crash mid-extraction leaves only .extract.* */
	strbuf_addf(&from, "%s/%s", tmp.buf, top);
	strbuf_addf(&to, "%s/guide/%s", cache, top);
	if (rename(from.buf, to.buf) < 0 && errno != EEXIST && errno != ENOTEMPTY) {
		ret = error("cannot rename '%s': %s", from.buf, strerror(errno));
		goto out_clean;
	}
	has_guide(out, to.buf);
out_clean:
	/* Remove what is left of the temporary tree (nothing after a rename). */
	strbuf_reset(&from);
	strbuf_addf(&from, "%s/%s/%s", tmp.buf, top, GUIDE_PATH);
	unlink(from.buf);
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(from.buf, '/');

		if (!slash)
			break;
		*slash = 0;
		rmdir(from.buf);
	}
	strbuf_reset(&from);
	strbuf_addf(&from, "%s/%s", tmp.buf, top);
	rmdir(from.buf);
	rmdir(tmp.buf);
out:
	child_release(&c);
	strbuf_release(&tmp);
	strbuf_release(&from);
	strbuf_release(&to);
	return ret;
}

int guide_locate(struct strbuf *out, const char *tree, const char *cache,
		 const char *source)
{
	/* Our own extraction first, then where kernel-ci keeps its trees. */
	static const char *const layouts[] = { "guide/", "", "src/", "trees/" };
	struct strbuf top = STRBUF_INIT, dir = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (tree) {
		if (!has_guide(out, tree))
			ret = error_code(WW_ENOTFOUND, "tree '%s' has no %s", tree, GUIDE_PATH);
		goto out;
	}
	if (!source)
		source = GUIDE_DEFAULT_SOURCE;
	tarball_top(&top, source);
	for (size_t i = 0; cache && i < ARRAY_SIZE(layouts); i++) {
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%s%s", cache, layouts[i], top.buf);
		if (has_guide(out, dir.buf))
			goto out;
	}
	if (!cache || stat(source, &st) < 0) {
		strbuf_reset(out);
		ret = error_code(WW_ENOTFOUND, "no kernel tree to quote %s from (--tree DIR, or install linux-source-6.1)",
				 GUIDE_PATH);
		goto out;
	}
	ret = extract(out, cache, source, top.buf);
out:
	strbuf_release(&top);
	strbuf_release(&dir);
	return ret;
}

void guide_release(struct guide *g)
{
	for (size_t i = 0; i < g->nr; i++)
		free(g->v[i].heading);
	free(g->v);
	free(g->text);
	free(g->path);
	memset(g, 0, sizeof(*g));
}
