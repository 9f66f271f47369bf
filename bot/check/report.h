/*
 * What `warnwatch check` prints: checkpatch-style text for people, and
 * JSON (jansson) for programs.  The JSON shape is documented in
 * docs/check.md; later stages (review, serve) read the C structs instead.
 */
#ifndef WW_REPORT_H
#define WW_REPORT_H

#include "check.h"

#include <jansson.h>

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_GCC,		/* FILE:LINE:COL: error: ..., for editors */
	REPORT_B4,		/* b4's per-patch check command protocol */
	REPORT_B4_REVIEW,	/* b4 0.15+'s review check commands (JSON) */
};

struct report_opts {
	enum report_format format;
	bool quiet;		/* text: only warnings and errors, no summary */
	/* checkpatch's spellings (docs/check.md): text without the call's
	 * lines or patch headers (--terse), without the total (--no-summary),
	 * nothing at all when no finding is a warning or an error (--mailback) */
	bool terse, no_summary, mailback;
	bool files;		/* text: the total counts files (check -f), not patches */
	bool name_input;	/* text: start with the input's name (several inputs) */
	bool byte_columns;	/* gcc: columns in bytes, not as gcc counts them */
	/* gcc: the current directory below the repository's top ("mm/"),
	 * or NULL: paths are printed relative to it, as git does */
	const char *prefix;
};

#define REPORT_OPTS_INIT { .format = REPORT_TEXT }

/*
 * The JSON document for one checked input: series, findings, summary,
 * notes.  A new reference: the caller json_decref()s it.
 */
json_t *report_json(const char *input, const struct series *s,
		    const struct check_result *r, const struct ruleset *rs);

/*
 * The same document written to `out` finding by finding, without holding
 * it whole (a JSON tree costs about 3 KB a finding), laid out as
 * json_dumps(JSON_INDENT(2)) would lay it out `depth` levels deep.
 * `commits` (NULL, or one per patch) adds "commit" to each patch.
 */
void report_json_write(FILE *out, const char *input, const struct series *s,
		       const struct check_result *r, const struct ruleset *rs,
		       const char *const *commits, int depth);

/*
 * One finding as JSON, the one form (`check --format=json`, kernel-ci's
 * ci.json): a new reference.  `guidance_file` is the ruleset's coding
 * style document, or NULL.
 */
json_t *report_finding_json(const struct finding *f, const char *guidance_file);

/* The damaged hunks of `r` as a JSON array (a new reference). */
json_t *report_damaged_json(const struct check_result *r);

/* The text report for one checked input, on `out`. */
void report_text(FILE *out, const char *input, const struct series *s,
		 const struct check_result *r, const struct report_opts *opts);

/*
 * --format=gcc: one line per finding, "FILE:LINE:COL: error|warning|note:
 * MESSAGE [RULE]", as compilers print them, for vim's quickfix, Emacs'
 * compilation mode and VS Code's $gcc problem matcher.  FILE is relative
 * to opts->prefix (the current directory), as git prints paths; LINE is
 * the line after the whole series (a later patch's hunks followed, see
 * linemap.h; the call's own line when a later patch removes it); COL the
 * 1-based column of the macro's name as gcc counts (tabs to multiples of
 * 8), or in bytes (opts->byte_columns).  Severities are check's: credits
 * and info are notes (not printed with opts->quiet).  Nothing else is
 * printed: no headers, no total.
 */
void report_gcc(FILE *out, const struct series *s, const struct check_result *r,
		const struct report_opts *opts);

/*
 * --format=b4: what b4 (0.14 and later) reads from a
 * b4.prep-perpatch-check-cmd / b4.am-perpatch-check-cmd, which it runs
 * once per patch with the mail on stdin: each stdout line is one report
 * item, a failure when it contains "ERROR:", a warning otherwise; no
 * output at all is "passed all checks".  So: one line per added call at
 * warning or error level, "FILE:LINE: ERROR|WARNING: MESSAGE [RULE]", as
 * checkpatch --terse --showfile, and nothing else (no credits, notes,
 * headers or total, which b4 would count as warnings).
 */
void report_b4(FILE *out, const struct check_result *r);

/*
 * --format=b4-review: what b4 (0.15, 0.16) reads from a
 * b4.review-perpatch-check-cmd, run once per message with the message on
 * stdin: a JSON array of {"tool", "status", "summary", "url", "details"}.
 * One object per call (b4 caches results per message and tool, so two
 * objects with one tool name would keep only the last): "pass" with an
 * empty summary and url when no call at warning or error level is added,
 * else "fail" (an error) or "warn", a summary counting them, the
 * coding-style section of the worst as url, and one line per call as
 * details.  `[]` for a message without a patch (a cover letter).
 */
void report_b4_review(FILE *out, const struct series *s, const struct check_result *r,
		      const struct ruleset *rs);

/* "ERROR", "WARNING", "CREDIT", "INFO". */
const char *report_severity_label(enum severity s);

#endif
