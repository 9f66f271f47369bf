/*
 * The check's output: see report.h.
 *
 * Text follows checkpatch, which kernel developers read every day:
 * "file:line: SEVERITY: what: why", then the source line as it appears in
 * the patch, and a one-line total.  JSON carries the same findings with
 * every field a program may want.
 */
#include "report.h"
#include "quote.h"
#include "jsonval.h"
#include "linemap.h"
#include "accept.h"

#include <ctype.h>

const char *report_severity_label(enum severity s)
{
	switch (s) {
	case SEV_ERROR: return "ERROR";
	case SEV_WARNING: return "WARNING";
	case SEV_CREDIT: return "CREDIT";
	default: return "INFO";
	}
}

static const char *kind_name(enum finding_kind k)
{
	switch (k) {
	case FINDING_ADDED: return "added";
	case FINDING_REMOVED: return "removed";
	default: return "define";
	}
}

/* Kept (escaped, jsonval.h) when not UTF-8, never a lost key. */
static json_t *str_or_null(const char *s)
{
	return jsonval_text(s);
}

/* A JSON string even from bytes that are not UTF-8 (mail is mail). */
static json_t *jstr(const char *s)
{
	json_t *j;

	if (!s)
		return json_string("");
	j = json_string(s);
	if (!j) {
		struct strbuf sb = STRBUF_INIT;

		for (const unsigned char *c = (const unsigned char *)s; *c; c++)
			strbuf_addch(&sb, *c < 0x80 ? *c : '?');
		j = json_string(sb.buf);
		strbuf_release(&sb);
	}
	return j;
}

static json_t *series_json(const struct series *s, const char *const *commits)
{
	json_t *patches = json_array();

	for (size_t i = 0; i < s->nr; i++) {
		const struct series_patch *p = &s->patches[i];
		json_t *o = json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}",
			"index", p->index,
			"subject", jstr(p->subject),
			"message_id", jstr(p->message_id),
			"author", jstr(p->author),
			"title", jstr(p->title),
			"date", jstr(p->date));

		if (commits && commits[i])
			json_object_set_new(o, "commit", jstr(commits[i]));
		json_array_append_new(patches, o);
	}
	return json_pack("{s:o, s:o, s:i, s:b, s:o, s:o}",
			 "subject", jstr(s->subject),
			 "message_id", jstr(s->message_id),
			 "version", s->version,
			 "rfc", s->rfc,
			 "base_commit", str_or_null(s->base_commit),
			 "patches", patches);
}

json_t *report_finding_json(const struct finding *f, const char *guidance_file)
{
	const struct rule *r = f->rule;
	/* A guarded wrapper is reported under its debug-only family. */
	json_t *o = json_pack("{s:i, s:s, s:o, s:i, s:o, s:s, s:s, s:s, s:o, s:o}",
		"patch", f->patch,
		"kind", kind_name(f->kind),
		"file", jstr(f->file),
		"line", f->line,
		"function", jstr(f->function),
		"macro", r->macro,
		"class", rule_class_name(f->guard ? RC_DEBUG_ONLY : r->class),
		"severity", severity_name(f->severity),
		"rule", str_or_null(f->debug ? f->debug->id : r->id),
		"message", jstr(f->message));

	json_object_set_new(o, "guidance", json_pack("{s:o, s:o}",
		"file", str_or_null(guidance_file),
		"section", str_or_null(r->section)));
	json_object_set_new(o, "source", jstr(f->source));
	json_object_set_new(o, "conversion", json_boolean(f->conversion));
	json_object_set_new(o, "moved", json_boolean(f->moved));
	if (f->modified)
		json_object_set_new(o, "modified", json_true());
	json_object_set_new(o, "defined", str_or_null(f->defined));
	if (f->kind == FINDING_DEFINE)
		json_object_set_new(o, "in_body", json_boolean(f->in_body));
	json_object_set_new(o, "wraps", str_or_null(r->wraps));
	json_object_set_new(o, "removed_by", json_integer(f->removed_by));
	if (f->accepted)
		json_object_set_new(o, "accepted", json_pack("{s:o, s:s}",
			"reason", jstr(f->accepted),
			"severity", severity_name(f->accepted_severity)));
	if (f->whole_file)
		json_object_set_new(o, "whole_file", json_true());
	if (f->guard)
		json_object_set_new(o, "guard", json_pack("{s:s, s:s}",
			"kind", f->guard_runtime ? "runtime" : "config",
			"name", f->guard));
	if (f->unreachable)
		json_object_set_new(o, "unreachable", json_true());
	if (f->other)
		json_object_set_new(o, "other", json_pack("{s:s, s:i}",
			"macro", f->other->macro, "line", f->other_line));
	return o;
}

static json_t *classes_json(const int *counts)
{
	json_t *o = json_object();

	for (int c = 0; c < RC__NR; c++)
		json_object_set_new(o, rule_class_name(c), json_integer(counts[c]));
	return o;
}

static json_t *notes_json(const struct check_result *r)
{
	json_t *notes = json_array();

	for (size_t i = 0; i < r->nr_notes; i++)
		json_array_append_new(notes, json_pack("{s:i, s:o, s:o}",
			"patch", r->notes[i].patch,
			"file", jstr(r->notes[i].file),
			"message", jstr(r->notes[i].message)));
	return notes;
}

json_t *report_damaged_json(const struct check_result *r)
{
	json_t *v = json_array();

	for (size_t i = 0; i < r->nr_damaged; i++)
		json_array_append_new(v, json_pack("{s:i, s:o, s:i, s:o}",
			"patch", r->damaged[i].patch,
			"file", jstr(r->damaged[i].file),
			"hunk", r->damaged[i].hunk,
			"reason", jstr(r->damaged[i].reason)));
	return v;
}

/* The trailers that accept nothing (accept.h), as a JSON array. */
static json_t *stale_json(const struct check_result *r)
{
	json_t *v = json_array();

	for (size_t i = 0; i < r->nr_stale; i++)
		json_array_append_new(v, json_pack("{s:i, s:o, s:o, s:o, s:o}",
			"patch", r->stale[i].patch,
			"file", jstr(r->stale[i].file),
			"function", jstr(r->stale[i].function),
			"reason", jstr(r->stale[i].reason),
			"message", jstr(r->stale[i].why)));
	return v;
}

static json_t *summary_json(const struct series *s, const struct check_result *r)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
		"added", classes_json(r->added),
		"removed", classes_json(r->removed),
		"moved", classes_json(r->moved),
		"converted", classes_json(r->converted),
		"errors", r->by_severity[SEV_ERROR],
		"warnings", r->by_severity[SEV_WARNING],
		"credits", r->by_severity[SEV_CREDIT],
		"info", r->by_severity[SEV_INFO],
		"accepted", r->accepted,
		"stale_accepted", (int)r->nr_stale,
		"patches", (int)s->nr);
}

json_t *report_json(const char *input, const struct series *s,
		    const struct check_result *r, const struct ruleset *rs)
{
	json_t *findings = json_array(), *doc;

	for (size_t i = 0; i < r->nr; i++)
		json_array_append_new(findings, report_finding_json(&r->v[i], rs->guidance_file));
	doc = json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"input", jstr(input),
			"series", series_json(s, NULL),
			"findings", findings,
			"summary", summary_json(s, r),
			"notes", notes_json(r));
	/* The keys are left out when nothing is damaged or stale. */
	if (r->nr_damaged)
		json_object_set_new(doc, "damaged", report_damaged_json(r));
	if (r->nr_stale)
		json_object_set_new(doc, "stale_accepted", stale_json(r));
	return doc;
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY)

/* Write `v` (a new reference, released) as if nested `depth` levels deep. */
static void write_value(FILE *out, json_t *v, int depth)
{
	char *text = json_dumps(v, DUMP_FLAGS);

	if (!text)
		die("out of memory writing JSON");
	for (const char *c = text; *c; c++) {
		fputc(*c, out);
		if (*c == '\n')
			fprintf(out, "%*s", 2 * depth, "");
	}
	free(text);
	json_decref(v);
}

void report_json_write(FILE *out, const char *input, const struct series *s,
		       const struct check_result *r, const struct ruleset *rs,
		       const char *const *commits, int depth)
{
	const char *pad = "";

	fprintf(out, "{\n%*s\"input\": ", 2 * depth + 2, pad);
	write_value(out, jstr(input), depth + 1);
	fprintf(out, ",\n%*s\"series\": ", 2 * depth + 2, pad);
	write_value(out, series_json(s, commits), depth + 1);
	fprintf(out, ",\n%*s\"findings\": [", 2 * depth + 2, pad);
	/* One finding at a time: the document never sits whole in memory. */
	for (size_t i = 0; i < r->nr; i++) {
		fprintf(out, "%s\n%*s", i ? "," : "", 2 * depth + 4, pad);
		write_value(out, report_finding_json(&r->v[i], rs->guidance_file), depth + 2);
	}
	if (r->nr)
		fprintf(out, "\n%*s", 2 * depth + 2, pad);
	fprintf(out, "],\n%*s\"summary\": ", 2 * depth + 2, pad);
	write_value(out, summary_json(s, r), depth + 1);
	fprintf(out, ",\n%*s\"notes\": ", 2 * depth + 2, pad);
	write_value(out, notes_json(r), depth + 1);
	if (r->nr_damaged) {
		fprintf(out, ",\n%*s\"damaged\": ", 2 * depth + 2, pad);
		write_value(out, report_damaged_json(r), depth + 1);
	}
	if (r->nr_stale) {
		fprintf(out, ",\n%*s\"stale_accepted\": ", 2 * depth + 2, pad);
		write_value(out, stale_json(r), depth + 1);
	}
	fprintf(out, "\n%*s}", 2 * depth, pad);
}

/* The patch's lines of the call, as they appear in the patch. */
static void print_source(FILE *out, const struct finding *f)
{
	const char *s = f->hunk;
	char origin = f->kind == FINDING_REMOVED ? '-' : '+';

	for (int i = 0; s && *s && i < f->hunk_line + f->source_lines; i++) {
		const char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);

		if (i >= f->hunk_line && (*s == origin || *s == ' ')) {
			struct strbuf sb = STRBUF_INIT;

			quote_lines(&sb, "", s, n);
			fputs(sb.buf, out);
			strbuf_release(&sb);
		}
		s = nl ? nl + 1 : s + n;
	}
}

/* What every format says of a call a later patch removes again. */
static void add_later(struct strbuf *out, const struct finding *f)
{
	if (f->removed_by)
		strbuf_addf(out, " (patch %d of the series removes it again: each patch "
			    "must stand on its own, fold that change into this patch)",
			    f->removed_by);
}

/*
 * The message of a finding in every format: the rule's, or for an
 * accepted call the trailer's reason and what the call would be without it.
 */
static void add_message(struct strbuf *out, const struct finding *f)
{
	if (f->accepted) {
		strbuf_addstr(out, "accepted (" ACCEPT_KEY ": ");
		quote_c_style_n(out, f->accepted, strlen(f->accepted), 0);
		strbuf_addf(out, "); %s %s without the trailer",
			    f->accepted_severity == SEV_ERROR ? "an" : "a",
			    severity_name(f->accepted_severity));
		return;
	}
	quote_c_style_n(out, f->message, strlen(f->message), 0);
	add_later(out, f);
}

/*
 * "FILE:LINE: LABEL: TITLE: MESSAGE" with the patch's strings escaped
 * (quote.h): a file name holding a newline stays on its line.  Appends:
 * callers reset `out` when they want the line alone.
 */
static void finding_line(struct strbuf *out, const struct finding *f, const char *file,
			 int line, const char *label)
{
	struct strbuf title = STRBUF_INIT;

	quote_c_style(out, file);
	strbuf_addf(out, ":%d", line);
	if (label)
		strbuf_addf(out, ": %s", label);
	strbuf_addstr(out, ": ");
	check_finding_title(&title, f);
	quote_c_style_n(out, title.buf, title.len, 0);
	strbuf_addstr(out, ": ");
	add_message(out, f);
	strbuf_release(&title);
}

/* The label of a finding in text and b4's lines: ACCEPTED for an accepted call. */
static const char *text_label(const struct finding *f)
{
	return f->accepted ? "ACCEPTED" : report_severity_label(f->severity);
}

/*
 * A trailer that accepts nothing, as one line in every format:
 * "FILE: LABEL: Warnwatch-accepted: FILE:FUNCTION names no call ...", or
 * "patch N: ..." when it names no file.
 */
static void stale_line(struct strbuf *out, const struct check_stale *st, const char *file,
		       const char *label)
{
	if (*st->file)
		quote_c_style(out, file);
	else
		strbuf_addf(out, "patch %d", st->patch);
	strbuf_addf(out, ": %s: " ACCEPT_KEY ": ", label);
	if (*st->file) {
		quote_c_style(out, st->file);
		strbuf_addch(out, ':');
		quote_c_style_n(out, st->function, strlen(st->function), 0);
	} else {
		strbuf_addch(out, '\'');
		quote_c_style_n(out, st->reason, strlen(st->reason), 0);
		strbuf_addch(out, '\'');
	}
	strbuf_addf(out, " %s", st->why);
}

static size_t patch_pos(const struct series *s, int index);

/*
 * The text names the call at its own patch's line (as checkpatch.pl,
 * patch by patch); where later patches move it, the line after the
 * series too, the one --format=gcc gives: one call, never two numbers
 * without saying why.
 */
static void add_final_line(struct strbuf *sb, const struct series *s, const struct linemap *map,
			   const struct finding *f)
{
	struct strbuf path = STRBUF_INIT;
	size_t pos = patch_pos(s, f->patch);
	int line = 0;

	if (f->kind != FINDING_REMOVED && pos + 1 < s->nr &&
	    linemap_final(&line, &path, map, s, pos, f->file, f->line) == 0 && line &&
	    (line != f->line || strcmp(path.buf, f->file))) {
		strbuf_addstr(sb, " (");
		if (strcmp(path.buf, f->file)) {
			quote_c_style(sb, path.buf);
			strbuf_addch(sb, ':');
		} else {
			strbuf_addstr(sb, "line ");
		}
		strbuf_addf(sb, "%d after the series)", line);
	}
	error_clear();
	strbuf_release(&path);
}

static void print_finding(FILE *out, const struct series *s, const struct linemap *map,
			  const struct finding *f, const struct report_opts *opts,
			  struct strbuf *sb)
{
	strbuf_reset(sb);
	finding_line(sb, f, f->file, f->line, text_label(f));
	add_final_line(sb, s, map, f);
	fprintf(out, "%s\n", sb->buf);
	if (!opts->terse)
		print_source(out, f);
}

static void print_patch_header(FILE *out, const struct series_patch *p)
{
	struct strbuf title = STRBUF_INIT;

	quote_c_style(&title, p->title);
	if (p->total > 0)
		fprintf(out, "patch %d/%d: %s\n", p->index, p->total, title.buf);
	else
		fprintf(out, "patch %d: %s\n", p->index, title.buf);
	strbuf_release(&title);
}

/*
 * -q prints warnings and errors, and accepted calls that would be one
 * without their trailer (an acceptance is never out of sight).
 */
static bool shown(const struct finding *f, const struct report_opts *opts)
{
	return !opts->quiet || f->severity >= SEV_WARNING ||
	       (f->accepted && f->accepted_severity >= SEV_WARNING);
}

/* Does patch `index` have a finding to print at r->v[next] on, or a stale trailer? */
static bool has_findings(const struct check_result *r, size_t next, int index,
			 const struct report_opts *opts)
{
	for (; next < r->nr && r->v[next].patch == index; next++)
		if (shown(&r->v[next], opts))
			return true;
	for (size_t i = 0; i < r->nr_stale; i++)
		if (r->stale[i].patch == index)
			return true;
	return false;
}

static void print_findings(FILE *out, const struct series *s, const struct check_result *r,
			   size_t *next, const int *patch, const struct report_opts *opts,
			   struct strbuf *sb)
{
	for (; *next < r->nr && (!patch || r->v[*next].patch == *patch); (*next)++) {
		const struct finding *f = &r->v[*next];

		if (shown(f, opts))
			print_finding(out, s, r->map, f, opts, sb);
	}
}

/* The stale trailers of patch `index` (every patch's when `all`). */
static void print_stale(FILE *out, const struct check_result *r, int index, bool all,
			struct strbuf *sb)
{
	for (size_t i = 0; i < r->nr_stale; i++) {
		if (!all && r->stale[i].patch != index)
			continue;
		strbuf_reset(sb);
		stale_line(sb, &r->stale[i], r->stale[i].file, "WARNING");
		fprintf(out, "%s\n", sb->buf);
	}
}

void report_text(FILE *out, const char *input, const struct series *s,
		 const struct check_result *r, const struct report_opts *opts)
{
	struct strbuf sb = STRBUF_INIT;
	bool headers = !opts->quiet && !opts->terse &&
		       (s->nr > 1 || (s->nr && s->patches[0].total > 1));
	bool any = false;
	size_t next = 0;
	int added = 0, removed = 0, converted = 0;

	/* checkpatch's --mailback: nothing at all unless something is wrong */
	if (opts->mailback && !r->by_severity[SEV_ERROR] && !r->by_severity[SEV_WARNING])
		return;
	if (opts->name_input && !opts->quiet)
		fprintf(out, "%s:\n", quote_str(&sb, input));
	/* Findings come in series order (check_series()). */
	/* A patch without findings gets no header: nothing follows it. */
	for (size_t i = 0; i < s->nr; i++) {
		if (headers && has_findings(r, next, s->patches[i].index, opts)) {
			if (any)
				fputc('\n', out);
			print_patch_header(out, &s->patches[i]);
			any = true;
		}
		print_findings(out, s, r, &next, &s->patches[i].index, opts, &sb);
		print_stale(out, r, s->patches[i].index, false, &sb);
	}
	print_findings(out, s, r, &next, NULL, opts, &sb);
	if (!s->nr)
		print_stale(out, r, 0, true, &sb);
	/* A conversion is one thing done, not a call added and one removed. */
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->moved || f->kind == FINDING_DEFINE)
			continue;
		if (f->conversion)
			converted += f->kind == FINDING_ADDED;
		else if (f->kind == FINDING_ADDED)
			added++;
		else
			removed++;
	}
	if (opts->quiet || opts->no_summary)
		goto out;
	if (any)
		fputc('\n', out);
	fprintf(out, "total: %d errors, %d warnings, %d credits, %d accepted ",
		r->by_severity[SEV_ERROR], r->by_severity[SEV_WARNING],
		r->by_severity[SEV_CREDIT], r->accepted);
	/* -f: a file's calls are there, not added */
	if (opts->files)
		fprintf(out, "(%d calls) in %zu files\n", added, s->nr);
	else
		fprintf(out, "(%d added, %d removed, %d converted) in %zu patches\n",
			added, removed, converted, s->nr);
out:
	strbuf_release(&sb);
}

/* --format=gcc: see report.h. */

static const char *gcc_label(enum severity s)
{
	switch (s) {
	case SEV_ERROR: return "error";
	case SEV_WARNING: return "warning";
	default: return "note";
	}
}

/*
 * 1-based column of the macro's name on the finding's line, or 1: as gcc
 * counts by default (-fdiagnostics-column-unit=display): a tab to the
 * next multiple of 8, a UTF-8 character one; or in bytes.
 */
static int finding_column(const struct finding *f, bool bytes)
{
	const char *s = f->hunk, *nl, *at;
	size_t n;

	for (int i = 0; s && *s && i < f->hunk_line; i++) {
		nl = strchr(s, '\n');
		if (!nl)
			return 1;
		s = nl + 1;
	}
	if (!s || !*s)
		return 1;
	nl = strchr(s, '\n');
	n = nl ? (size_t)(nl - s) : strlen(s);
	at = memmem(s + 1, n ? n - 1 : 0, f->rule->macro, strlen(f->rule->macro));
	if (!at)
		return 1;
	if (bytes)
		return (int)(at - (s + 1)) + 1;
	n = 0;
	for (const char *c = s + 1; c < at; c++) {
		if (*c == '\t')
			n = (n / 8 + 1) * 8;
		else if (((unsigned char)*c & 0xc0) != 0x80)
			n++;
	}
	return (int)n + 1;
}

/*
 * `path` (from the top of the repository) as seen from `prefix`, the
 * current directory below the top ("mm/damon/"), as git prints paths:
 * "../a.c", "core.c".
 */
static void relative_to(struct strbuf *out, const char *path, const char *prefix)
{
	const char *p = path, *q = prefix;

	strbuf_reset(out);
	if (!prefix || !*prefix) {
		strbuf_addstr(out, path);
		return;
	}
	/* skip the directories they share */
	for (;;) {
		const char *ps = strchr(p, '/'), *qs = strchr(q, '/');

		if (!ps || !qs || ps - p != qs - q || memcmp(p, q, ps - p))
			break;
		p = ps + 1;
		q = qs + 1;
	}
	for (; *q; q++)
		if (*q == '/')
			strbuf_addstr(out, "../");
	strbuf_addstr(out, p);
}

/* Index in s->patches of patch number `index`, or s->nr. */
static size_t patch_pos(const struct series *s, int index)
{
	size_t i;

	for (i = 0; i < s->nr && s->patches[i].index != index; i++)
		;
	return i;
}

static void print_gcc(FILE *out, const struct series *s, const struct linemap *map,
		      const struct finding *f, const struct report_opts *opts,
		      struct strbuf *title, struct strbuf *path)
{
	size_t pos = patch_pos(s, f->patch);
	enum severity sev = f->severity;
	int line = f->line;
	const char *where = "";
	struct strbuf tmp = STRBUF_INIT;

	strbuf_reset(path);
	strbuf_addstr(path, f->file);
	if (f->kind == FINDING_REMOVED) {
		where = " (removed: the line before the patch)";
	} else if (pos < s->nr &&
		   linemap_final(&line, path, map, s, pos, f->file, f->line) < 0) {
		error_clear();
		line = f->line;
	}
	if (!line)	/* gone by the end of the series: its own patch's line */
		line = f->line;
	if (!shown(f, opts))
		return;
	strbuf_reset(title);
	relative_to(&tmp, path->buf, opts->prefix);
	quote_c_style(title, tmp.buf);
	strbuf_addf(title, ":%d:%d: %s: ", line, finding_column(f, opts->byte_columns), gcc_label(sev));
	strbuf_reset(path);
	check_finding_title(path, f);
	quote_c_style_n(title, path->buf, path->len, 0);
	strbuf_addf(title, "%s: ", where);
	add_message(title, f);
	/* A removal is no finding of the rule that flags additions. */
	if (f->kind == FINDING_REMOVED)
		fprintf(out, "%s [removed-%s", title->buf, rule_class_name(f->rule->class));
	else
		fprintf(out, "%s [%s%s", title->buf, f->rule->id ? f->rule->id : f->rule->macro,
			f->accepted ? ", accepted" : "");
	if (f->patch && s->nr > 1)
		fprintf(out, ", patch %d/%zu", f->patch, s->nr);
	fputs("]\n", out);
	strbuf_release(&tmp);
}

void report_gcc(FILE *out, const struct series *s, const struct check_result *r,
		const struct report_opts *opts)
{
	struct strbuf title = STRBUF_INIT, path = STRBUF_INIT;

	for (size_t i = 0; i < r->nr; i++)
		print_gcc(out, s, r->map, &r->v[i], opts, &title, &path);
	/* a stale trailer has no line: "FILE: warning: ..." as gcc says "cc1: warning:" */
	for (size_t i = 0; i < r->nr_stale; i++) {
		const struct check_stale *st = &r->stale[i];

		relative_to(&path, st->file, opts->prefix);
		strbuf_reset(&title);
		stale_line(&title, st, path.buf, "warning");
		fprintf(out, "%s [stale-accepted", title.buf);
		if (st->patch && s->nr > 1)
			fprintf(out, ", patch %d/%zu", st->patch, s->nr);
		fputs("]\n", out);
	}
	strbuf_release(&title);
	strbuf_release(&path);
}

/* --format=b4: see report.h. */
void report_b4(FILE *out, const struct check_result *r)
{
	struct strbuf title = STRBUF_INIT;

	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->kind == FINDING_REMOVED || f->severity < SEV_WARNING)
			continue;
		strbuf_reset(&title);
		finding_line(&title, f, f->file, f->line, report_severity_label(f->severity));
		fprintf(out, "%s [%s]\n", title.buf, f->rule->id ? f->rule->id : f->rule->macro);
	}
	/* b4 has no neutral item: an accepted call prints nothing, a stale trailer warns */
	for (size_t i = 0; i < r->nr_stale; i++) {
		strbuf_reset(&title);
		stale_line(&title, &r->stale[i], r->stale[i].file, "WARNING");
		fprintf(out, "%s [stale-accepted]\n", title.buf);
	}
	strbuf_release(&title);
}

/* --format=b4-review: see report.h. */

/* The web page of a Documentation/ file, at the anchor Sphinx gives a
 * section title ("Use WARN() rather than BUG()": #use-warn-rather-than-bug). */
static void doc_url(struct strbuf *out, const char *file, const char *section)
{
	const char *rest;
	size_t len;

	if (!file || !skip_prefix(file, "Documentation/", &rest))
		return;
	len = strlen(rest);
	if (len > 4 && !strcmp(rest + len - 4, ".rst"))
		len -= 4;
	strbuf_addf(out, "https://docs.kernel.org/%.*s.html", (int)len, rest);
	if (!section)
		return;
	strbuf_addch(out, '#');
	for (const char *c = section; *c; c++) {
		if (isalnum((unsigned char)*c))
			strbuf_addch(out, tolower((unsigned char)*c));
		else if (out->len && out->buf[out->len - 1] != '-' && out->buf[out->len - 1] != '#')
			strbuf_addch(out, '-');
	}
	while (out->buf[out->len - 1] == '-')
		strbuf_setlen(out, out->len - 1);
}

/* "1 error", ", 2 warnings": one count of b4-review's summary, when not 0. */
static void add_count(struct strbuf *out, int n, const char *what, bool plural_s)
{
	if (!n)
		return;
	strbuf_addf(out, "%s%d %s%s", out->len ? ", " : "", n, what,
		    plural_s && n != 1 ? "s" : "");
}

void report_b4_review(FILE *out, const struct series *s, const struct check_result *r,
		      const struct ruleset *rs)
{
	struct strbuf summary = STRBUF_INIT, details = STRBUF_INIT, url = STRBUF_INIT;
	const struct finding *worst = NULL, *one = NULL;
	int errors = 0, warnings = (int)r->nr_stale, accepted = 0;
	json_t *o, *v = json_array();
	char *text;

	if (!s->nr) {		/* a cover letter, a reply: nothing to say */
		fputs("[]\n", out);
		json_decref(v);
		return;
	}
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->kind == FINDING_REMOVED || (f->severity < SEV_WARNING && !f->accepted))
			continue;
		if (f->accepted)
			accepted++;
		else if (f->severity == SEV_ERROR)
			errors++;
		else
			warnings++;
		if (!f->accepted && (!worst || f->severity > worst->severity))
			worst = f;
		one = f;
		finding_line(&details, f, f->file, f->line, text_label(f));
		strbuf_addf(&details, " [%s]\n", f->rule->id ? f->rule->id : f->rule->macro);
	}
	for (size_t i = 0; i < r->nr_stale; i++) {
		stale_line(&details, &r->stale[i], r->stale[i].file, "WARNING");
		strbuf_addstr(&details, " [stale-accepted]\n");
	}
	add_count(&summary, errors, "error", true);
	add_count(&summary, warnings, "warning", true);
	add_count(&summary, accepted, "accepted", false);
	if (errors + warnings + accepted == 1 && one) {
		strbuf_addstr(&summary, ": ");
		check_finding_title(&summary, one);
	}
	doc_url(&url, rs->guidance_file, worst ? worst->rule->section : NULL);
	o = json_pack("{s:s, s:s, s:o, s:o, s:o}",
		      "tool", "warnwatch",
		      "status", errors ? "fail" : warnings ? "warn" : "pass",
		      "summary", jstr(summary.buf),
		      "url", jstr(worst ? url.buf : ""),
		      "details", jstr(details.buf));
	json_array_append_new(v, o);
	text = json_dumps(v, JSON_PRESERVE_ORDER | JSON_COMPACT);
	if (!text)
		die("out of memory writing JSON");
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(v);
	strbuf_release(&summary);
	strbuf_release(&details);
	strbuf_release(&url);
}
