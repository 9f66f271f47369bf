/*
 * What to flag, loaded from the JSON files in rules/ (jansson).  A rule
 * names a macro, its class, a severity, a message and the coding-style
 * section it cites.  Path overrides lower the severity in places such as
 * tools/ or samples/.  Changing what warnwatch flags is editing rules/, not C.
 * The file format is documented in docs/rules.md.
 */
#ifndef WW_RULES_H
#define WW_RULES_H

#include "ww.h"

enum rule_class {
	RC_BUG,		/* BUG, BUG_ON, VM_BUG_ON... */
	RC_PANIC,	/* panic() */
	RC_WARN,	/* WARN, WARN_ON, WARN_TAINT, VM_WARN_ON... */
	RC_WARN_ONCE,	/* WARN_ONCE, WARN_ON_ONCE... */
	RC_DEBUG_ONLY,	/* compiled out without a debug option (GEM_BUG_ON) */
	RC_WARN_LIKE,	/* wrappers that are WARNs (snd_BUG_ON) */
	RC__NR
};

enum severity {
	SEV_INFO,
	SEV_CREDIT,	/* removals and conversions: thank the author */
	SEV_WARNING,
	SEV_ERROR,
	SEV__NR
};

struct rule {
	char *macro;		/* "BUG_ON" */
	enum rule_class class;
	enum severity severity;	/* for an added call */
	char *id;		/* "new-bug-on": stable name for JSON and opt-outs */
	char *message;		/* "new BUG_ON() crashes the machine; ..." */
	char *section;		/* coding-style heading it cites */
	char *suggest;		/* concrete suggestion for the reply */
	char *wraps;		/* for a tree-resolved wrapper: the macro it wraps */
	char *credit;		/* thanks for removing one: "removing BUG_ON()..." */
	char *replacement;	/* the gentler macro to use instead, or NULL */
};

/*
 * Overrides are tried in file order and the first whose pattern matches
 * wins, so an exception ("net/bpf/test_run.c" stays at "error") is listed
 * before the rule it excepts ("*\/test_*.c" is "info").  Patterns are
 * fnmatch() globs without FNM_PATHNAME ('*' also matches '/') on the
 * repository-relative path ("drivers/foo/bar.c", no "a/" or "b/").
 */
struct rule_override {
	char *pattern;		/* fnmatch() glob on the file path */
	enum severity max;	/* severity is lowered to at most this */
};

struct ruleset {
	struct rule *rules;
	size_t nr, alloc;
	struct rule_override *overrides;
	size_t nr_overrides, alloc_overrides;
	char *guidance_file;	/* "Documentation/process/coding-style.rst" */
	char *wrappers_tree;	/* the tree whose include/ wrappers are in */
	void *index;		/* private lookup table */
};

#define RULESET_INIT { 0 }

/*
 * Load every *.json file of `dir` (sorted by name) into `out`, adding to
 * what it already holds.  Errors are WW_EINPUT naming file and key
 * ("rules/foo.json: families[2].class: unknown class 'bugz'"), or
 * WW_ENOTFOUND for a missing directory or one without rule files.  After
 * an error `out` is partly filled: ruleset_release() it.
 */
int rules_load(struct ruleset *out, const char *dir);
/* Load one JSON document from memory (tests, fuzzing); `name` is for errors. */
int rules_load_buf(struct ruleset *out, const char *buf, size_t len,
		   const char *name);

/*
 * A part of the rule files that a floor above check owns and reads (the
 * reply's "review" object: advice.h).  rules_load_buf() hands every file
 * with the top-level `key` to `fn` as well, so that `check` and a rules
 * change fail on a broken part, naming the file, while check includes
 * nothing of the reply.  main() registers review's before anything loads
 * rules; a second call replaces the first; unregistered, the part is not
 * read here.
 */
typedef int rules_part_fn(const char *buf, size_t len, const char *name);
void rules_own_part(const char *key, rules_part_fn *fn);
/*
 * The rule for identifier `name` (`len` bytes, not NUL-terminated), or
 * NULL.  O(1): a hash table built when loading.  Borrowed; valid until
 * the next rules_add_wrapper()/rules_load*() (they may move rs->rules).
 */
const struct rule *rules_lookup(const struct ruleset *rs, const char *name,
				size_t len);
/*
 * Whether some macro ends with byte `c`: a scanner that finds names from
 * their end (the '(' after them) skips most identifiers with it.  O(1).
 */
bool rules_may_end_with(const struct ruleset *rs, unsigned char c);
/*
 * Add a wrapper found in a tree: `macro` behaves like rule `like` (which
 * may point into rs->rules).  The new rule gets like's class, severity,
 * id and texts, its message says what it wraps, and `wraps` is set.
 * Returns 0 when added, 1 when `macro` already has a rule or is one the
 * rules say never to flag (lockdep_assert_held, BUILD_BUG_ON*...), and
 * WW_EINPUT when `macro` is not an identifier.  Pointers returned by
 * rules_lookup() before the call are invalid after it: resolve wrappers
 * before scanning.
 */
int rules_add_wrapper(struct ruleset *rs, const char *macro,
		      const struct rule *like);
/* Severity after the path overrides for `path` (first matching override). */
enum severity rules_severity(const struct ruleset *rs, const struct rule *r,
			     const char *path);
/*
 * Whether a changed file is scanned at all: it matches one of the "scan"
 * globs (*.c, *.h) and none of the "skip" globs (Documentation/...).
 * With no paths section loaded every path is scanned.
 */
bool rules_path_scanned(const struct ruleset *rs, const char *path);
/*
 * Whether `name` is one the rules list as never flagged (never a rule,
 * never a tree wrapper): BUILD_BUG_ON*, lockdep_assert*, pr_warn*...
 */
bool rules_ignored(const struct ruleset *rs, const char *name);
/*
 * The default rules directory: $WARNWATCH_RULES, else rules/ in the
 * directory above the binary's (bot/warnwatch and build/warnwatch both sit
 * one level below the checkout), else WW_DATADIR "/rules".  Borrowed.
 */
const char *rules_default_dir(void);

/* "bug", "panic", "warn", "warn-once", "debug-only", "warn-like". */
const char *rule_class_name(enum rule_class c);
/* "info", "credit", "warning", "error". */
const char *severity_name(enum severity s);
/* Parse the names above: 0, or WW_EINPUT with "unknown class 'x'". */
int rule_class_parse(enum rule_class *out, const char *name);
int severity_parse(enum severity *out, const char *name);

void ruleset_release(struct ruleset *rs);

#endif
