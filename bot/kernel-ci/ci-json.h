/*
 * The kernel-ci verdict as JSON: the one schema (docs/ci.md) that
 * `warnwatch ci --format=json` prints, the service stores as ci.json,
 * `review --verdict` reads and the dashboard reads back.  Everything that
 * reads a verdict reads it here, into a struct ci_verdict; nobody parses
 * the JSON on their own.
 */
#ifndef WW_CI_JSON_H
#define WW_CI_JSON_H

#include "ci.h"

#include <jansson.h>

/* A verdict file is refused above this (findings and traces included). */
#define CI_VERDICT_MAX_BYTES (64u << 20)

/* The verdict's name in the JSON ("panicked", "fs-corrupted"...). */
const char *ci_verdict_name(enum ci_verdict_kind k);


/*
 * "FILE:LINE" in the patch's own numbering (what the author sees), then
 * " (line T in linux BASE)" when it landed at another line of the booted
 * tree (`tree_line`, in v->base).
 */
void ci_where(struct strbuf *out, const struct ci_verdict *v,
	      const char *file, int line, int tree_line);

/* How many lines a call may span below its first (ci-attribute.c's CALL_SPAN too). */
#define CI_CALL_LINES 6

/*
 * Did added call `c` fire in the boot: its own `fired`, or a report in
 * v->fired that the series added at its lines (a verdict whose calls[]
 * came from an older warnwatch, or whose counters were lost).  *suite
 * (may be NULL) gets the test it fired in, or NULL (borrowed).  Text and
 * reply use it so that a call that fired is never "not reached".
 */
bool ci_call_fired(const struct ci_verdict *v, const struct ci_call *c,
		   const char **suite);

/*
 * The verdict as JSON: a new reference.  Its "findings" and "damaged"
 * are v->findings in check's form (report_finding_json()), or, for a
 * verdict read from JSON, v->findings_doc's as they were read.
 */
json_t *ci_verdict_to_json(const struct ci_verdict *v);

/*
 * The reverse: `json` (`len` bytes; `name` says where it came from in
 * errors) into `out` (CI_VERDICT_INIT; ci_verdict_release() it, also
 * after an error).  ci_verdict_to_json() of the result is the document
 * again, key for key.  A key that is missing takes its default (older
 * ci.json files lack newer keys); only "verdict" is required, and it is
 * one of ci_verdict_name()'s names.  Unknown keys are ignored.
 * "findings" and "damaged" are only checked to be arrays of objects and
 * are kept as they are, in out->findings_doc: out->findings stays empty
 * and out->rules NULL (no rules are made up for findings read back).
 * Errors: WW_EINPUT ("kernel-ci verdict 'NAME' line L: ..." for bad
 * JSON, or naming the key).
 */
int ci_verdict_from_json(struct ci_verdict *out, const char *json, size_t len,
			 const char *name);

/* ci_verdict_from_json() of file `path` (at most CI_VERDICT_MAX_BYTES). */
int ci_verdict_load(struct ci_verdict *out, const char *path);

#endif
