/*
 * The kernel's coding-style guide as the tree under review has it:
 * Documentation/process/coding-style.rst, split into its reStructuredText
 * sections so that a reply can quote the section a rule cites, verbatim,
 * found by its heading.  Quoting the tree's own text (not a copy inside
 * warnwatch) means the reply says what that tree says: after the 2024
 * "don't encourage WARN*()" change, the new panic_on_warn paragraph.
 *
 * Where the tree comes from, in order: --tree DIR (or [review] tree),
 * an extracted tree in warnwatch's cache, or the one file extracted from
 * Debian's /usr/src/linux-source-6.1.tar.xz into the cache (once, about
 * 15 s).
 */
#ifndef WW_GUIDE_H
#define WW_GUIDE_H

#include "strbuf.h"

#define GUIDE_PATH "Documentation/process/coding-style.rst"
#define GUIDE_MAX_BYTES (4u << 20)
#define GUIDE_QUOTE_LINES 30		/* longer sections are cut with [...] */
#define GUIDE_DEFAULT_SOURCE "/usr/src/linux-source-6.1.tar.xz"

struct guide_section {
	char *heading;		/* "Use WARN() rather than BUG()" */
	int level;		/* 0 for the title, 1 for "22) ...", ... */
	size_t start;		/* offset of the heading line */
	size_t end;		/* offset where the next heading starts */
};

struct guide {
	char *path;		/* the file read */
	char *text;
	size_t len;
	struct guide_section *v;
	size_t nr, alloc;
};

#define GUIDE_INIT { 0 }

/* Parse reStructuredText `text` (copied) into sections. */
int guide_parse(struct guide *out, const char *text, size_t len, const char *name);
/* Read `tree`/Documentation/process/coding-style.rst. */
int guide_load_tree(struct guide *out, const char *tree);
int guide_load_file(struct guide *out, const char *path);

/*
 * The section whose heading is `heading`: compared without "22)" style
 * numbers, case and punctuation; failing that, the heading that shares
 * the most identifiers (panic_on_warn, WARN_ON_ONCE(), BUG()) with it, so
 * a reworded heading is still found.  NULL if none.  Borrowed.
 */
const struct guide_section *guide_find(const struct guide *g, const char *heading);
/* Only the exact (normalised) heading: for text that must be the tree's
 * own words on a point, not a neighbour with a similar title. */
const struct guide_section *guide_find_exact(const struct guide *g, const char *heading);

/* Append the section, heading and underline included, each line prefixed
 * with `prefix` (trailing spaces trimmed), at most GUIDE_QUOTE_LINES. */
void guide_quote(struct strbuf *out, const struct guide *g,
		 const struct guide_section *s, const char *prefix);

/*
 * Find a coding-style.rst to use: `tree` if given (WW_ENOTFOUND when it
 * has none), else a tree under `cache` ($WARNWATCH_CACHE), else extract
 * it from `source` (a Debian linux-source tarball; NULL: the default) into
 * `cache`/guide/.  On success `out` is the file's path.
 */
int guide_locate(struct strbuf *out, const char *tree, const char *cache,
		 const char *source);

/* $WARNWATCH_CACHE or ${XDG_CACHE_HOME:-~/.cache}/warnwatch; caller frees. */
char *guide_cache_dir(void);

void guide_release(struct guide *g);

#endif
