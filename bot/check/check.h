/*
 * warnwatch check: the findings of a series.  Each patch's diff is parsed
 * with libgit2, each hunk's pre- and post-image is run through the
 * scanner, and calls on added/removed lines become findings with exact
 * file:line.  Everything later (review, ci, serve, census) consumes these.
 */
#ifndef WW_CHECK_H
#define WW_CHECK_H

#include "linemap.h"
#include "rules.h"
#include "series.h"
#include "strbuf.h"

#define CHECK_HUNK_CONTEXT 10
#define CHECK_HUNK_MAX 4096
/*
 * Findings and notes per result: about 1 KB each with their hunk quotes,
 * so at most ~100 MB.  More is WW_ETOOBIG (the whole mm/ diff between
 * 6.1 and 6.12 has under a thousand).
 */
#define CHECK_MAX_FINDINGS 100000

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
	/* Hunk context for quoting in a reply: the hunk's lines around the
	 * finding (at most CHECK_HUNK_CONTEXT before and after, and
	 * CHECK_HUNK_MAX bytes) with their '+', '-', ' ' prefixes, one per
	 * line, and which of them is this finding. */
	char *hunk;
	int hunk_line;		/* 0-based line in `hunk` of the finding */
	int source_lines;	/* lines of `hunk` the call spans (>= 1) */
	/* The same call removed here and added there (code moved or
	 * re-indented): not new, not a credit; severity info. */
	bool moved;
	/* ... and, with `moved`, the same call with changed arguments in
	 * place (a -/+ pair of one change block, same macro class, the way
	 * git's word diff pairs lines): a modification, neither credited
	 * nor objected to. */
	bool modified;
	/* ... and, with `modified`, the first argument (the condition, for
	 * every macro but panic()) is the same: only the others changed
	 * (a WARN()'s message).  Else the condition changed. */
	bool same_cond;
	/* FINDING_REMOVED: its very call is added elsewhere in the same
	 * patch, unpaired (a default: BUG() moved into a new helper that
	 * gets a second one): not thanked, and a reply counting the added
	 * calls says this one went. */
	bool readded;
	char *message;		/* what to tell the author (owned) */
	const struct rule *other; /* conversion/move: the other side's rule */
	int other_line;		/* ... and its line (0 if none) */
	/* FINDING_DEFINE: the #define line is old, an added line of its
	 * body calls the macro (`defined` is "" when the #define line is
	 * above the hunk and its name unknown). */
	bool in_body;
	/* FINDING_ADDED, check_series(): the index of the later patch of the
	 * series that removes (or converts) the call's line again, 0 when
	 * none does.  It does not lower the severity: each patch of a series
	 * is a kernel someone may build or bisect to (docs/check.md). */
	int removed_by;
	/* The enclosing function is marked `__init` (the token on its
	 * definition line or the line above it in the hunk, or in the hunk
	 * header's context): early boot, where panic() and BUG() are
	 * accepted practice (reply.c objects to neither there). */
	bool in_init;
	/*
	 * A `Warnwatch-accepted: FILE:FUNCTION REASON` trailer of the
	 * patch names this call's file and function (accept.h): the reason
	 * (owned), and the severity the rule gave before it was lowered to
	 * SEV_INFO.  NULL when not accepted.
	 */
	char *accepted;
	enum severity accepted_severity;
	/* `check -f`: a call of a source file read whole, not one a patch
	 * adds (the title and message say "BUG_ON()", not "new BUG_ON()"). */
	bool whole_file;
	/*
	 * FINDING_DEFINE whose WARN/BUG happens only in a debug build or
	 * while a debug switch is on (guard.h): the option or switch
	 * (owned), `guard_runtime` for a switch, and `debug` the ruleset's
	 * debug-only family rule it is reported under (debug-only-bug,
	 * debug-only-warn; NULL when the rules have none).  Severity info.
	 */
	char *guard;
	bool guard_runtime;
	const struct rule *debug;
	/* FINDING_ADDED: a WARN with a constant true condition first in a
	 * `default:`: an unreachable marker, the kernel's own practice
	 * (docs/rules.md).  Severity info, never objected to. */
	bool unreachable;
};

/* Something worth knowing that is not a finding (a binary file skipped). */
struct check_note {
	int patch;
	char *file;
	char *message;
};

/*
 * A hunk (or file header, hunk 0) of a patch that is damaged (cut short,
 * wrapped, counts that lie: see diff_opts.damaged): skipped, the rest of
 * the patch checked.
 */
struct check_damage {
	int patch;		/* 1-based patch index; 0 for a bare diff */
	char *file;
	int hunk;		/* 1-based hunk in the file; 0: its header */
	char *reason;		/* "is truncated at its line 47: ..." */
	char *message;		/* the error line: "'FILE' hunk N ..." */
};

/*
 * A Warnwatch-accepted: trailer that accepts nothing (accept.h): it names
 * no call its patch adds, sits outside the trailer block, or gives no
 * reason.  Reported as a warning, never dropped.
 */
struct check_stale {
	int patch;
	char *file;		/* as the trailer names it ("" when it names none) */
	char *function;
	char *reason;		/* what the trailer says after FILE:FUNCTION */
	char *why;		/* "names no call this patch adds" */
};

struct check_result {
	struct finding *v;
	size_t nr, alloc;
	int added[RC__NR];
	int removed[RC__NR];
	enum severity worst;	/* highest severity of an added call */
	int moved[RC__NR];	/* calls moved, not counted in added/removed */
	/* conversions (a gentler call replacing a removed one), by the added
	 * call's class; counted in added and removed too */
	int converted[RC__NR];
	/* findings per severity (an accepted call in none: in `accepted`),
	 * and stale acceptances as warnings */
	int by_severity[SEV__NR];
	int accepted;		/* calls a Warnwatch-accepted: trailer accepts */
	struct check_stale *stale;	/* trailers that accept nothing */
	size_t nr_stale, alloc_stale;
	struct check_note *notes;
	size_t nr_notes, alloc_notes;
	struct check_damage *damaged;	/* damaged hunks, in patch order */
	size_t nr_damaged, alloc_damaged;
	/* check_series(): what each patch does to line numbers, recorded
	 * from the same parse (linemap_follow()); NULL from check_diff(). */
	struct linemap *map;
	/*
	 * check_series(): each file it scanned (C, with a hunk that holds a
	 * call), an owned copy, with the position of its patch in the
	 * series: what later stages read instead of parsing a patch again
	 * (check_hunk_of(); every file's paths are in `map`).
	 */
	struct check_file *files;
	size_t nr_files, alloc_files;
};

struct check_file {
	size_t pos;		/* the patch's position in the series */
	struct diff_file *f;
};

#define CHECK_RESULT_INIT { .worst = SEV_INFO }

struct check_opts {
	/*
	 * What to flag.  Not const: with `tree`, the wrappers found there
	 * are added to it (rules_add_wrapper), and stay for later checks.
	 */
	struct ruleset *rules;
	const char *tree;	/* kernel tree for wrapper resolution, or NULL */
	/*
	 * For a caller that checks many diffs against one ruleset (census):
	 * the ruleset's hunk filter, kept here and rebuilt only when the
	 * ruleset has gained rules.  NULL: built per call.
	 */
	struct check_filter *filter;
};

#define CHECK_OPTS_INIT { 0 }

struct check_filter {
	struct diff_anchors *anchors;
	const struct ruleset *rules;	/* what it was built from */
	size_t nr_rules;		/* ...when it had this many rules */
};

#define CHECK_FILTER_INIT { 0 }
void check_filter_release(struct check_filter *f);

/*
 * Findings of every patch of `s`, in series order.  A damaged hunk does
 * not stop the check: it lands in out->damaged, and the intact files and
 * hunks of the patch are checked.
 */
int check_series(struct check_result *out, const struct series *s,
		 const struct check_opts *opts);

/*
 * The files the checked series touches, appended to `out` once each in
 * patch order: each file's post-image path (the pre-image one for a
 * deletion) as the check's one parse read the file headers (r->map),
 * never a line that merely looks like one -- an added line "++ b/x" is
 * hunk content, whatever it says.  A file whose header is damaged is
 * left out (the check reports it).  For what must know the paths after
 * the check (a list's allow-paths).
 */
void check_result_paths(struct strvec *out, const struct check_result *r);

/*
 * The hunk, as check_series() parsed it, in which the patch at position
 * `pos` of the series adds line `line` of `file` (a finding's patch,
 * file and line); NULL when it has none.
 */
const struct diff_hunk *check_hunk_of(const struct check_result *r, size_t pos,
				      const char *file, int line);

/* Findings of one diff text (`patch` is the index to record). */
int check_diff(struct check_result *out, const char *diff, size_t len,
	       int patch, const struct check_opts *opts);

/*
 * Resolve the wrappers defined in kernel tree `tree`: every #define in
 * include/ and in the directories of `paths` (files the series touches,
 * NULL-terminated, may be NULL) whose body calls a family macro, and
 * wrappers of those, are added to `rs` classed like what they wrap.
 * check_series() does this itself when opts->tree is set.  include/ is
 * read once per ruleset and tree, each directory and file once per call
 * (check_tree_reads() counts the files read, for tests).  Adding rules
 * moves rs->rules: the `rule` pointers of findings made before are then
 * stale (see rules_add_wrapper()).
 */
unsigned long check_tree_reads(void);
int check_resolve_wrappers(struct ruleset *rs, const char *tree,
			   const char *const *paths);

/* "new BUG_ON() in foo_ioctl()": the finding in a few words, into `out`. */
void check_finding_title(struct strbuf *out, const struct finding *f);

void check_result_clear(struct check_result *r);

#endif
