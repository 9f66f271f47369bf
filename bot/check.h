/*
 * warnwatch check: the findings of a series.  Each patch's diff is parsed
 * with libgit2, each hunk's pre- and post-image is run through the
 * scanner, and calls on added/removed lines become findings with exact
 * file:line.  Everything later (review, ci, serve, census) consumes these.
 */
#ifndef WW_CHECK_H
#define WW_CHECK_H

#include "rules.h"
#include "series.h"

enum finding_kind {
	FINDING_ADDED,
	FINDING_REMOVED,
	FINDING_DEFINE,		/* adds a #define wrapping a family macro */
};

struct finding {
	int patch;		/* 1-based patch index; 0 for a bare diff */
	enum finding_kind kind;
	char *file;		/* post-image path (pre-image for removals) */
	int line;		/* post-image line if added, pre-image if removed */
	char *function;		/* enclosing function from the hunk header, or "" */
	const struct rule *rule; /* macro, class, message, section (borrowed) */
	enum severity severity;	/* after path overrides; SEV_CREDIT for removals */
	bool conversion;	/* a removal replaced by a gentler call, or vice versa */
	char *source;		/* the call as written (joined on one line) */
	char *defined;		/* FINDING_DEFINE: the wrapper's name */
	/* Hunk context for quoting in a reply: the hunk's lines with
	 * their '+', '-', ' ' prefixes, and which of them is this finding. */
	char *hunk;
	int hunk_line;		/* 0-based line in `hunk` of the finding */
};

struct check_result {
	struct finding *v;
	size_t nr, alloc;
	int added[RC__NR];
	int removed[RC__NR];
	enum severity worst;	/* highest severity of an added call */
};

#define CHECK_RESULT_INIT { NULL, 0, 0, { 0 }, { 0 }, SEV_INFO }

struct check_opts {
	const struct ruleset *rules;
	const char *tree;	/* kernel tree for wrapper resolution, or NULL */
};

#define CHECK_OPTS_INIT { NULL, NULL }

/* Findings of every patch of `s`, in series order. */
int check_series(struct check_result *out, const struct series *s,
		 const struct check_opts *opts);

/* Findings of one diff text (`patch` is the index to record). */
int check_diff(struct check_result *out, const char *diff, size_t len,
	       int patch, const struct check_opts *opts);

void check_result_clear(struct check_result *r);

#endif
