/*
 * warnwatch census: how many BUG/WARN-family calls a kernel tree holds,
 * per macro, per class and per subsystem (MAINTAINERS section), counted
 * by the same scanner and rules as `check`; and, with --git, how many the
 * commits between two revisions added and removed.
 *
 * Wrappers ("#define ASSERT(x) BUG_ON(!(x))") are resolved with their
 * C scope approximated: a definition in include/ or arch/ARCH/include/
 * is seen everywhere, one in another header by the files of its
 * directory and below, one in a .c file by that file only.  Without
 * scoping, fs/btrfs's ASSERT() would make every ASSERT() in the tree a
 * BUG_ON.
 */
#ifndef WW_CENSUS_H
#define WW_CENSUS_H

#include "rules.h"

#include <jansson.h>

enum census_flags {
	CENSUS_NO_WRAPPERS = 1 << 0,	/* one pass, no wrapper resolution */
	CENSUS_NO_REGEX = 1 << 1,	/* ignore MAINTAINERS N: patterns */
};

struct census_opts {
	unsigned int flags;		/* enum census_flags */
	/* Progress for people ("pass 1: 12000 files"); may be NULL. */
	void (*progress)(void *data, const char *what, size_t files);
	void *data;
};

#define CENSUS_OPTS_INIT { 0 }

/* Added/removed (census --git) or present (census TREE) calls. */
struct census_macro {
	char *name;
	enum rule_class class;
	char *wraps;		/* the family macro a wrapper ends in, or NULL */
	long calls;		/* census TREE */
	long added, removed;	/* census --git */
};

struct census_subsystem {
	char *name;		/* MAINTAINERS section, or "(no MAINTAINERS)" */
	long *calls;		/* per census.macros index */
	long *added, *removed;	/* per census.macros index (--git) */
	long classes[RC__NR];
	long classes_added[RC__NR], classes_removed[RC__NR];
	long total, total_added, total_removed;
	size_t files;		/* files with at least one call / change */
};

struct census_dir {
	char *name;		/* top-level directory: "drivers", "tools" */
	long calls;
};

struct census_timing {
	double defines_read, defines_scan;	/* pass 1: wrapper definitions */
	double count_read, count_scan;		/* pass 2: calls */
	double attribute;			/* MAINTAINERS and subsystems */
	double total;
};

struct census {
	/* What was counted. */
	char *source;		/* the TREE argument, or REPO */
	char *release;		/* "6.12.118" from the top Makefile; "" unknown */
	char *from, *to;	/* --git: the revisions as given */
	char *from_oid, *to_oid;
	size_t commits;		/* --git: non-merge commits walked */
	size_t exact_renames;	/* --git: commits with too many files for
				 * similarity renames (only identical ones) */

	size_t files;		/* .c/.h files scanned (changed files for --git) */
	size_t files_with_calls;
	uint64_t bytes;
	size_t wrappers;	/* wrapper definitions resolved */
	size_t out_of_scope;	/* wrapper-named calls where no definition is visible */

	struct census_macro *macros;
	size_t nr_macros, alloc_macros;
	long classes[RC__NR];
	long classes_added[RC__NR], classes_removed[RC__NR];
	long total, total_added, total_removed;

	/* Sorted by total (or added+removed), largest first. */
	struct census_subsystem *subsystems;
	size_t nr_subsystems;
	/* census TREE: calls per top-level directory, in tree order. */
	struct census_dir *dirs;
	size_t nr_dirs;

	struct census_timing timing;
	void *priv;
};

#define CENSUS_INIT { 0 }

/*
 * Count the calls in `tree`, a directory or a tarball read in memory.
 * `rs` gains the wrappers found (rules_add_wrapper), so it must not be
 * shared with a concurrent scan.  Errors name the tree and the file.
 */
int census_tree(struct census *out, const char *tree, struct ruleset *rs,
		const struct census_opts *opts);

/*
 * Calls added and removed by the non-merge commits in `range` ("A..B",
 * tags or commits) of the git repository `repo`, each commit diffed
 * against its first parent and scanned as `check` scans a patch.
 * Subsystems come from B's MAINTAINERS.
 */
int census_git(struct census *out, const char *repo, const char *range,
	       struct ruleset *rs, const struct census_opts *opts);

/*
 * The "BUG_ON family": calls of BUG-class macros whose name, or for a
 * wrapper the macro it ends in, contains "BUG_ON": BUG_ON, VM_BUG_ON,
 * VM_BUG_ON_PAGE, PCPU_SETUP_BUG_ON... but not BUG(), and not the
 * debug-only GEM_BUG_ON or the WARN-like snd_BUG_ON (other classes).
 */
bool census_is_bug_on_family(const struct census_macro *m);

/* The census as JSON (see docs/census.md for the schema): a new reference. */
json_t *census_to_json(const struct census *c);

/* A readable table: classes, the `top` macros and subsystems. */
void census_print(FILE *f, const struct census *c, size_t top);

void census_release(struct census *c);

#endif
