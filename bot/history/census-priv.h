/*
 * What census.c and census-git.c share and nobody else needs: the
 * bookkeeping behind struct census (macro and wrapper tables, per-file
 * counts waiting for MAINTAINERS).
 */
#ifndef WW_CENSUS_PRIV_H
#define WW_CENSUS_PRIV_H

#include "census.h"
#include "maintainers.h"
#include "strbuf.h"

#define CENSUS_NO_SECTION "(no MAINTAINERS section)"

struct strmap_slot {
	char *key;
	size_t val;
};

/* String -> index, open addressing; keys are copied. */
struct strmap {
	struct strmap_slot *slots;
	size_t cap, nr;
};

size_t strmap_get(const struct strmap *m, const char *key);
void strmap_put(struct strmap *m, const char *key, size_t val);
void strmap_clear(struct strmap *m);

/* Most specific first: the order decides which definition is visible. */
enum def_scope {
	SCOPE_FILE,
	SCOPE_DIR,
	SCOPE_GLOBAL,
};

struct wrapper_def {
	char *name;
	char *scope;		/* the file, the directory ("fs/btrfs/"), or "" */
	enum def_scope kind;
	enum rule_class class;
	char *root;		/* the family macro it ends in */
	size_t next;		/* next definition of the same name, or -1 */
};

/* One file's calls: pairs[first .. first+nr). */
struct file_rec {
	char *path;
	size_t first, nr;
};

struct count_pair {
	uint32_t macro;
	uint8_t class;
	long n;
};

/* census --git: one added or removed call, waiting for the final macro table. */
struct change_rec {
	uint32_t macro;
	uint32_t subsystem;
	bool added;
};

struct census_priv {
	struct strmap macro_ix;		/* name -> census.macros index */
	struct strmap def_ix;		/* name -> first wrapper_def */
	struct strmap subsys_ix;	/* name -> census.subsystems index */
	struct strmap dir_ix;		/* name -> census.dirs index */
	size_t alloc_dirs;
	size_t alloc_subsystems;
	struct wrapper_def *defs;
	size_t nr_defs, alloc_defs;
	struct file_rec *recs;
	size_t nr_recs, alloc_recs;
	struct count_pair *pairs;
	size_t nr_pairs, alloc_pairs;
	struct change_rec *changes;
	size_t nr_changes, alloc_changes;
	struct strbuf maintainers;	/* MAINTAINERS text, once seen */
	bool have_maintainers;
	struct strbuf makefile;		/* the top Makefile, for the release */
};

struct census_family {
	long bug_on, bug_on_family, bug, bug_wrappers;
	long bug_on_family_added, bug_on_family_removed;
};

void census_priv_init(struct census *c, const char *source);
size_t census_macro_index(struct census *c, const char *name,
			  enum rule_class class, const char *wraps);
/* No definition visible: what census_visible_def() returns. */
#define CENSUS_NO_DEF ((size_t)-1)
/* An index in p->defs, not a pointer: census_add_def() grows p->defs. */
size_t census_visible_def(const struct census_priv *p, const char *name,
			  const char *path);
bool census_add_def(struct census *c, struct ruleset *rs, const char *name,
		    const char *like_name, const char *path);
struct census_subsystem *census_subsystem_get(struct census *c,
					      const char *name);
void census_subsystems_finish(struct census *c);
void census_count_dir(struct census *c, const char *path,
		      const struct count_pair *pairs, size_t nr);
int census_load_maintainers(struct census *c, struct maintainers *m,
			    const struct strbuf *text, unsigned int flags);
const char *census_section_of(const struct maintainers *m, const char *path);
const struct census_macro **census_sorted_macros(const struct census *c);
void census_family_totals(const struct census *c, struct census_family *out);
const char *census_num(char *buf, size_t size, long n);
/* The release ("6.12.118") from the top Makefile's VERSION, PATCHLEVEL... */
void census_parse_release(struct census *c, const struct strbuf *mk);

#endif
