/*
 * MAINTAINERS parsing and path -> section lookup (see maintainers.h).
 *
 * A kernel MAINTAINERS has ~3,000 sections and ~20,000 F: patterns, and a
 * census asks about ~60,000 paths, so patterns are indexed by their
 * literal directory prefix ("drivers/net/" for "drivers/net/x*.c"): a path
 * is only tried against the patterns filed under one of its ancestor
 * directories.  N: regexes can only win over "*" patterns (depth 0 vs
 * -1), so they are only tried when nothing deeper matched.
 */
#include <limits.h>
#include <regex.h>

#include "maintainers.h"
#include "strbuf.h"

struct pattern {
	char *glob;
	size_t section;
	int depth;
	size_t len;
};

struct pattern_list {
	struct pattern *v;
	size_t nr, alloc;
};

struct bucket {
	char *key;		/* literal directory prefix, "" or ending in '/' */
	size_t keylen;
	struct pattern_list files;
	struct bucket *next;
};

struct section_priv {
	struct pattern_list excludes;
	regex_t *regexes;
	size_t nr_regexes, alloc_regexes;
};

struct index {
	struct bucket **buckets;
	size_t nr_buckets;
	struct section_priv *sections;	/* parallel to maintainers.sections */
	size_t alloc_sections;
	bool any_regex;
};

#define INDEX_BUCKETS 8192

static size_t hash_key(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

static struct bucket *bucket_find(const struct index *ix, const char *key,
				  size_t len)
{
	struct bucket *b = ix->buckets[hash_key(key, len) % ix->nr_buckets];

	for (; b; b = b->next)
		if (b->keylen == len && !memcmp(b->key, key, len))
			return b;
	return NULL;
}

static struct bucket *bucket_get(struct index *ix, const char *key, size_t len)
{
	struct bucket *b = bucket_find(ix, key, len);
	size_t h;

	if (b)
		return b;
	h = hash_key(key, len) % ix->nr_buckets;
	b = xcalloc(1, sizeof(*b));
	b->key = xstrndup(key, len);
	b->keylen = len;
	b->next = ix->buckets[h];
	ix->buckets[h] = b;
	return b;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * A "[ch]" / "[^0-9]" / "[a-z]" class at `p` (which points at '['):
 * whether `c` is in it; *end is set past the ']'.  An unclosed '[' is a
 * literal, as in a broken regex nothing would match anyway.
 */
static bool class_match(const char *p, char c, const char **end)
{
	const char *q = p + 1;
	bool negate = false, found = false;

	if (*q == '^' || *q == '!') {
		negate = true;
		q++;
	}
	for (const char *first = q; *q && (*q != ']' || q == first); q++) {
		if (q[1] == '-' && q[2] && q[2] != ']') {
			if (c >= q[0] && c <= q[2])
				found = true;
			q += 2;
		} else if (*q == c) {
			found = true;
		}
	}
	if (*q != ']') {
		*end = p + 1;
		return c == '[';
	}
	*end = q + 1;
	return found != negate;
}

static size_t count_slashes(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '/';
	return n;
}

/* Does glob `p` match a prefix of `s`?  '*' may cross '/', as the
 * regex get_maintainer.pl builds from it does. */
static bool glob_prefix(const char *p, const char *s)
{
	while (*p) {
		const char *next = p + 1;

		if (*p == '*') {
			while (*p == '*')
				p++;
			if (!*p)
				return true;
			for (;; s++) {
				if (glob_prefix(p, s))
					return true;
				if (!*s)
					return false;
			}
		}
		if (!*s)
			return false;
		if (*p == '[') {
			if (!class_match(p, *s, &next))
				return false;
		} else if (*p != '?' && *p != *s) {
			return false;
		}
		p = next;
		s++;
	}
	return true;
}

bool maintainers_pattern_match(const char *pattern, const char *path)
{
	size_t len = strlen(pattern);

	if (!len)
		return false;
	if (pattern[len - 1] == '/')
		return glob_prefix(pattern, path);
	if (glob_prefix(pattern, path) &&
	    count_slashes(pattern) == count_slashes(path))
		return true;
	/* get_maintainer.pl appends '/' to a pattern naming a directory. */
	return !has_glob(pattern) && !strncmp(pattern, path, len) &&
	       path[len] == '/';
}

int maintainers_pattern_depth(const char *pattern)
{
	size_t len = strlen(pattern);

	if (pattern[0] == '*')
		return -1;
	return (int)count_slashes(pattern) +
	       (len && pattern[len - 1] != '/' ? 1 : 0);
}

static void pattern_push(struct pattern_list *l, const char *glob,
			 size_t section)
{
	struct pattern *p;

	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	p = &l->v[l->nr++];
	p->glob = xstrdup(glob);
	p->section = section;
	p->depth = maintainers_pattern_depth(glob);
	p->len = strlen(glob);
}

static void pattern_list_clear(struct pattern_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].glob);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The directory part of the literal prefix of `glob`: the index key. */
static size_t index_key_len(const char *glob)
{
	size_t lit = strcspn(glob, "*?[");
	size_t key = 0;

	for (size_t i = 0; i < lit; i++)
		if (glob[i] == '/')
			key = i + 1;
	return key;
}

static struct section_priv *section_priv(struct maintainers *m, size_t i)
{
	struct index *ix = m->priv;

	ALLOC_GROW(ix->sections, i + 1, ix->alloc_sections);
	return &ix->sections[i];
}

static void add_section(struct maintainers *m, const char *title, size_t line)
{
	struct maintainers_section *s;

	ALLOC_GROW(m->sections, m->nr + 1, m->alloc);
	s = &m->sections[m->nr];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(title);
	s->line = line;
	memset(section_priv(m, m->nr), 0, sizeof(struct section_priv));
	m->nr++;
}

static void add_entry(struct maintainers *m, char type, const char *value,
		      unsigned int flags)
{
	struct index *ix = m->priv;
	size_t i = m->nr - 1;
	struct maintainers_section *s = &m->sections[i];
	struct section_priv *sp = &ix->sections[i];

	if (!*value)
		return;
	if (type == 'F') {
		struct bucket *b = bucket_get(ix, value, index_key_len(value));

		pattern_push(&b->files, value, i);
		s->nr_files++;
	} else if (type == 'X') {
		pattern_push(&sp->excludes, value, i);
		s->nr_excludes++;
	} else if (type == 'N' && !(flags & MAINTAINERS_NO_REGEX)) {
		ALLOC_GROW(sp->regexes, sp->nr_regexes + 1, sp->alloc_regexes);
		if (regcomp(&sp->regexes[sp->nr_regexes], value,
			    REG_EXTENDED | REG_NOSUB)) {
			m->nr_bad_regexes++;
			return;
		}
		sp->nr_regexes++;
		s->nr_regexes++;
		ix->any_regex = true;
	}
}

/* "F:\tdrivers/net/" -> type 'F', value "drivers/net/". */
static bool typed_line(const char *line, char *type, const char **value)
{
	if (line[0] < 'A' || line[0] > 'Z' || line[1] != ':')
		return false;
	*type = line[0];
	line += 2;
	while (*line == ' ' || *line == '\t')
		line++;
	*value = line;
	return true;
}

int maintainers_parse(struct maintainers *out, const char *text, size_t len,
		      const char *name, unsigned int flags)
{
	struct index *ix;
	struct strbuf line = STRBUF_INIT;
	const char *p = text, *end = text + len;
	const char *title = NULL;
	size_t lineno = 0, title_line = 0;
	char *title_copy = NULL;

	ix = xcalloc(1, sizeof(*ix));
	ix->nr_buckets = INDEX_BUCKETS;
	ix->buckets = xcalloc(ix->nr_buckets, sizeof(struct bucket *));
	out->priv = ix;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *value;
		char type;

		if (!nl)
			nl = end;
		lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, p, nl - p);
		strbuf_rtrim(&line);
		p = nl + 1;

		if (!line.len) {
			title = NULL;
			continue;
		}
		if (typed_line(line.buf, &type, &value)) {
			if (title) {
				add_section(out, title, title_line);
				title = NULL;
			}
			/* Typed lines before any title (the preamble) belong nowhere. */
			if (out->nr && title_line == out->sections[out->nr - 1].line)
				add_entry(out, type, value, flags);
			continue;
		}
		if (line.buf[0] == ' ' || line.buf[0] == '\t' || line.buf[0] == '#')
			continue;
		/* An untyped line: the title of the section whose entries follow. */
		free(title_copy);
		title_copy = xstrdup(line.buf);
		title = title_copy;
		title_line = lineno;
	}
	free(title_copy);
	strbuf_release(&line);
	if (!out->nr)
		return error_code(WW_EINPUT, "'%s': no MAINTAINERS sections", name);
	return 0;
}

int maintainers_load(struct maintainers *out, const char *path,
		     unsigned int flags)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, 64u << 20);

	if (!ret)
		ret = maintainers_parse(out, sb.buf, sb.len, path, flags);
	strbuf_release(&sb);
	return ret;
}

static bool excluded(const struct index *ix, size_t section, const char *path)
{
	const struct pattern_list *x = &ix->sections[section].excludes;

	for (size_t i = 0; i < x->nr; i++)
		if (maintainers_pattern_match(x->v[i].glob, path))
			return true;
	return false;
}

static bool regex_matches(const struct index *ix, size_t section,
			  const char *path)
{
	const struct section_priv *sp = &ix->sections[section];

	for (size_t i = 0; i < sp->nr_regexes; i++)
		if (!regexec(&sp->regexes[i], path, 0, NULL, 0))
			return true;
	return false;
}

ssize_t maintainers_match(const struct maintainers *m, const char *path,
			  int *depth_out)
{
	const struct index *ix = m->priv;
	ssize_t best = -1;
	int best_depth = INT_MIN;
	size_t best_len = 0;

	if (!ix)
		return -1;
	/* Keys "", "drivers/", "drivers/net/"...: every ancestor directory. */
	for (size_t keylen = 0;;) {
		const struct bucket *b = bucket_find(ix, path, keylen);
		const char *slash = strchr(path + keylen, '/');

		for (size_t i = 0; b && i < b->files.nr; i++) {
			const struct pattern *p = &b->files.v[i];
			bool better;

			better = p->depth > best_depth ||
				 (p->depth == best_depth &&
				  (p->len > best_len ||
				   (p->len == best_len && (ssize_t)p->section < best)));
			if (!better || !maintainers_pattern_match(p->glob, path) ||
			    excluded(ix, p->section, path))
				continue;
			best = p->section;
			best_depth = p->depth;
			best_len = p->len;
		}
		if (!slash)
			break;
		keylen = slash + 1 - path;
	}
	if (best_depth < 0 && ix->any_regex) {
		for (size_t i = 0; i < m->nr; i++) {
			if (!ix->sections[i].nr_regexes ||
			    !regex_matches(ix, i, path) || excluded(ix, i, path))
				continue;
			best = i;
			best_depth = 0;
			break;
		}
	}
	if (depth_out)
		*depth_out = best_depth;
	return best;
}

void maintainers_release(struct maintainers *m)
{
	struct index *ix = m->priv;

	if (ix) {
		for (size_t i = 0; i < ix->nr_buckets; i++) {
			struct bucket *b = ix->buckets[i];

			while (b) {
				struct bucket *next = b->next;

				pattern_list_clear(&b->files);
				free(b->key);
				free(b);
				b = next;
			}
		}
		for (size_t i = 0; i < m->nr; i++) {
			struct section_priv *sp = &ix->sections[i];

			pattern_list_clear(&sp->excludes);
			for (size_t j = 0; j < sp->nr_regexes; j++)
				regfree(&sp->regexes[j]);
			free(sp->regexes);
		}
		free(ix->sections);
		free(ix->buckets);
		free(ix);
	}
	for (size_t i = 0; i < m->nr; i++)
		free(m->sections[i].name);
	free(m->sections);
	memset(m, 0, sizeof(*m));
}
