/*
 * The kernel's MAINTAINERS file: which section (subsystem) a path belongs
 * to.  Patterns follow scripts/get_maintainer.pl, so that a census agrees
 * with the kernel's own tool:
 *
 *   F: drivers/net/      a trailing '/' matches everything under the dir
 *   F: drivers/net/x*.c  '*', '?' and "[ch]" classes are globs; without a
 *                        trailing '/' the path must have as many '/' as
 *                        the pattern
 *   F: drivers/net/foo   a plain name matches that file, or that directory
 *                        and everything under it
 *   X: ...               same syntax; a match excludes the whole section
 *   N: regex             extended regex anywhere in the path (optional)
 *
 * Several sections usually match ("THE REST" matches everything): the
 * most specific wins, i.e. the one whose best pattern is deepest
 * (get_maintainer.pl's pattern depth: '/' count, +1 without a trailing
 * '/'; N: matches have depth 0 and "*" patterns -1).  Ties go to the
 * longer pattern, then to the earlier section.
 */
#ifndef WW_MAINTAINERS_H
#define WW_MAINTAINERS_H

#include "ww.h"

struct maintainers_section {
	char *name;		/* the section's title line */
	size_t line;		/* 1-based line of the title */
	size_t nr_files;	/* F: patterns */
	size_t nr_excludes;	/* X: patterns */
	size_t nr_regexes;	/* N: patterns that compiled */
};

struct maintainers {
	struct maintainers_section *sections;
	size_t nr, alloc;
	size_t nr_bad_regexes;	/* N: patterns that did not compile (ignored) */
	void *priv;		/* pattern index */
};

#define MAINTAINERS_INIT { 0 }

enum maintainers_flags {
	MAINTAINERS_NO_REGEX = 1 << 0,	/* ignore N: lines */
};

/*
 * Parse the text of a MAINTAINERS file.  `name` is used in error
 * messages.  A file with no section at all is WW_EINPUT.
 */
int maintainers_parse(struct maintainers *out, const char *text, size_t len,
		      const char *name, unsigned int flags);

/* Read and parse a MAINTAINERS file from disk. */
int maintainers_load(struct maintainers *out, const char *path,
		     unsigned int flags);

/*
 * The most specific section for `path` (relative to the tree's top, no
 * leading "./"), or -1 when none matches.  Optionally its pattern depth.
 */
ssize_t maintainers_match(const struct maintainers *m, const char *path,
			  int *depth_out);

/* Whether glob `pattern` (get_maintainer.pl semantics above) matches `path`. */
bool maintainers_pattern_match(const char *pattern, const char *path);

/* get_maintainer.pl's depth of an F: pattern. */
int maintainers_pattern_depth(const char *pattern);

void maintainers_release(struct maintainers *m);

#endif
