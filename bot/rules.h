/*
 * What to flag, loaded from the JSON files in rules/ (jansson).  A rule
 * names a macro, its class, a severity, a message and the coding-style
 * section it cites.  Path overrides lower the severity in places such as
 * tools/ or samples/.  Changing what warnwatch flags is editing rules/, not C.
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
};

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
	void *index;		/* private lookup table */
};

#define RULESET_INIT { 0 }

/* Load every *.json file of `dir` (sorted).  Errors name file and key. */
int rules_load(struct ruleset *out, const char *dir);
/* Load one JSON document from memory (tests, fuzzing). */
int rules_load_buf(struct ruleset *out, const char *buf, size_t len,
		   const char *name);
/* The rule for identifier `name` (not NUL-terminated), or NULL.  Borrowed. */
const struct rule *rules_lookup(const struct ruleset *rs, const char *name,
				size_t len);
/* Add a wrapper found in a tree: `macro` behaves like rule `like`. */
int rules_add_wrapper(struct ruleset *rs, const char *macro,
		      const struct rule *like);
/* Severity after the path overrides for `path`. */
enum severity rules_severity(const struct ruleset *rs, const struct rule *r,
			     const char *path);
/* The default rules directory (installed path, or ./rules next to the binary). */
const char *rules_default_dir(void);

const char *rule_class_name(enum rule_class c);
const char *severity_name(enum severity s);
int rule_class_parse(enum rule_class *out, const char *name);
int severity_parse(enum severity *out, const char *name);

void ruleset_release(struct ruleset *rs);

#endif
