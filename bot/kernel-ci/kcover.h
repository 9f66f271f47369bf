/*
 * Evidence coverage: what a set of kernel-ci verdicts (ci.json files,
 * ci-json.h) says about the added BUG/WARN calls as a whole.  How many
 * series got a boot verdict, how many were untestable and why, and how
 * many added calls have runtime evidence (reached or fired in a boot).
 * It only reads verdicts; running kernel-ci on a series is ci.c's.
 */
#ifndef WW_KCOVER_H
#define WW_KCOVER_H

#include "ci.h"

#include <jansson.h>

/* Something counted by its words: what is missing, and for how many. */
struct kcover_tally {
	char *what;		/* "a base-commit: line", "the struct member 's_x'" */
	size_t count;
};

/* One untestable reason, the text as the verdict says it, and how often. */
struct kcover_reason {
	char *reason;		/* "linux 6.12.9 lacks 'foo', ..." */
	size_t count;
	size_t with_repo;	/* of them: base-commit found in kcover.repo */
	struct kcover_tally *missing; /* what the rest lack, most first */
	size_t nr_missing, alloc_missing;
};

struct kcover {
	/*
	 * The operator's git clone ([ci] repo), or NULL (borrowed): an
	 * untestable series whose base-commit: it has would have been built
	 * on its own tree (kbase_git()).  Looked up statically, nothing built.
	 */
	const char *repo;
	size_t series;		/* verdicts read */
	size_t kinds[CI_NR_KINDS]; /* per enum ci_verdict_kind */
	size_t booted;		/* clean, panicked, fired, hung or fs-corrupted */
	struct kcover_reason *untestable; /* most frequent first after kcover_sort() */
	size_t nr_untestable, alloc_untestable;
	size_t untestable_with_repo; /* sum of the reasons' with_repo */
	size_t calls;		/* added calls in all the verdicts */
	size_t evidence;	/* reached > 0 or fired: runtime evidence */
	size_t not_reached;	/* measured, count 0, did not fire */
	size_t unmeasured;	/* reached null (nothing ran, no gcov data) */
};

#define KCOVER_INIT { 0 }

/* Did kernel-ci boot the patched kernel for verdict kind `k`. */
bool kcover_booted(enum ci_verdict_kind k);

/*
 * Count verdict `v` in.  An untestable one is also looked up: testable
 * with `repo` when its base-commit: is there, else what it lacks -- a
 * base-commit: line, a clone, that commit in the clone -- and the names
 * neither its base nor the series defines (v->missing).
 */
void kcover_add(struct kcover *cov, const struct ci_verdict *v);

/*
 * Count in the verdict file `path`, or every `*.json` in it (sorted, not
 * recursive) when it is a directory.  Errors: WW_ENOTFOUND (no such path,
 * a directory without *.json), WW_EINPUT (a file that is not a verdict,
 * ci_verdict_load()'s message naming it).  The verdicts read before an
 * error stay counted: the caller gives up.
 */
int kcover_load(struct kcover *cov, const char *path);

/* Untestable reasons, most frequent first, then by text. */
void kcover_sort(struct kcover *cov);

/* A short table for people: series by verdict, reasons, calls. */
void kcover_text(struct strbuf *out, const struct kcover *cov);

/* The same as JSON (docs/kernel-ci.md, "Evidence coverage"): a new reference. */
json_t *kcover_to_json(const struct kcover *cov);

void kcover_release(struct kcover *cov);

#endif
