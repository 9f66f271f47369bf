/*
 * Building a review reply: deciding what to say (issues, thanks, notes),
 * which message to answer, who gets it, and rendering it with the
 * template engine.  See reply.h.
 */
#include "reply.h"
#include "datadir.h"
#include "msgid.h"
#include "strvec.h"
#include "template.h"

#include <ctype.h>
#include <fnmatch.h>
#include <jansson.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const reply_policy_names[] = { "both", "author", "list", "all", NULL };

/* Lines of a hunk quoted around a finding: before it, and after the call. */
#define QUOTE_BEFORE 3
#define QUOTE_AFTER 2
#define QUOTE_MAX 14

/* ---- the kernel-ci verdict ---------------------------------------------- */

static char *json_str(json_t *obj, const char *const *keys)
{
	for (; *keys; keys++) {
		json_t *v = json_object_get(obj, *keys);

		if (json_is_string(v))
			return xstrdup(json_string_value(v));
	}
	return NULL;
}

/* kernel-ci's "fired" list: the first WARN/BUG, in words, and its trace. */
static void verdict_fired(struct reply_verdict *out, json_t *fired)
{
	static const char *const k_source[] = { "source", "kind", NULL };
	json_t *f = json_array_get(fired, 0), *trace, *line;
	struct strbuf sb = STRBUF_INIT;
	char *source, *file, *suite;
	json_t *lineno;
	size_t i;

	if (!json_is_object(f))
		return;
	source = json_str(f, k_source);
	file = json_str(f, (const char *const[]){ "file", NULL });
	suite = json_str(f, (const char *const[]){ "suite", NULL });
	lineno = json_object_get(f, "line");
	if (source && file) {
		/* In backquotes: the filler never breaks code apart. */
		strbuf_addf(&sb, "`%s` at %s", source, file);
		if (json_is_integer(lineno))
			strbuf_addf(&sb, ":%lld", (long long)json_integer_value(lineno));
		strbuf_addstr(&sb, " fired");
		if (suite)
			strbuf_addf(&sb, " in KUnit suite %s", suite);
		free(out->first);
		out->first = strbuf_detach(&sb, NULL);
	}
	trace = json_object_get(f, "trace");
	if (json_is_array(trace) && !out->log) {
		json_array_foreach(trace, i, line)
			if (json_is_string(line) && i < REPLY_VERDICT_LOG_LINES)
				strbuf_addf(&sb, "%s\n", json_string_value(line));
		out->log = strbuf_detach(&sb, NULL);
	}
	free(source);
	free(file);
	free(suite);
	strbuf_release(&sb);
}

int reply_verdict_parse(struct reply_verdict *out, const char *json, size_t len,
			const char *name)
{
	static const char *const k_verdict[] = { "verdict", "status", "result", NULL };
	static const char *const k_summary[] = { "summary", "message", NULL };
	static const char *const k_kernel[] = { "kernel", "kernel_version", "base", NULL };
	static const char *const k_first[] = { "first", "first_warning", "oops", NULL };
	static const char *const k_url[] = { "url", "link", NULL };
	static const char *const k_log[] = { "log", "excerpt", "log_excerpt", "build_error",
		"apply_error", NULL };
	json_error_t jerr;
	json_t *root, *v;
	int ret = 0;

	root = json_loadb(json, len, 0, &jerr);
	if (!root)
		return error_code(WW_EINPUT, "kernel-ci verdict '%s' line %d: %s", name, jerr.line, jerr.text);
	if (!json_is_object(root)) {
		ret = error_code(WW_EINPUT, "kernel-ci verdict '%s': not a JSON object", name);
		goto out;
	}
	/* It may be nested: { "verdict": { "verdict": ... } } */
	v = json_object_get(root, "verdict");
	if (json_is_object(v))
		json_object_update(root, v);
	out->verdict = json_str(root, k_verdict);
	if (!out->verdict) {
		ret = error_code(WW_EINPUT, "kernel-ci verdict '%s': no \"verdict\" string", name);
		goto out;
	}
	out->summary = json_str(root, k_summary);
	out->kernel = json_str(root, k_kernel);
	out->first = json_str(root, k_first);
	out->url = json_str(root, k_url);
	v = json_object_get(root, "panic_on_warn");
	out->panic_on_warn = !json_is_false(v);
	out->log = json_str(root, k_log);
	for (const char *const *k = k_log; !out->log && *k; k++) {
		json_t *arr = json_object_get(root, *k);
		struct strbuf sb = STRBUF_INIT;
		size_t i, n = 0;
		json_t *line;

		if (!json_is_array(arr))
			continue;
		json_array_foreach(arr, i, line) {
			if (!json_is_string(line) || n++ >= REPLY_VERDICT_LOG_LINES)
				continue;
			strbuf_addstr(&sb, json_string_value(line));
			strbuf_addch(&sb, '\n');
		}
		out->log = strbuf_detach(&sb, NULL);
	}
	v = json_object_get(root, "fired");
	if (json_is_array(v))
		verdict_fired(out, v);
	/* kernel-ci's "reason" is a console line ("Kernel panic - not
	 * syncing: ..."): it heads the quoted console lines. */
	v = json_object_get(root, "reason");
	if (json_is_string(v)) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s\n%s", json_string_value(v), out->log ? out->log : "");
		free(out->log);
		out->log = strbuf_detach(&sb, NULL);
	}
out:
	json_decref(root);
	return ret;
}

int reply_verdict_load(struct reply_verdict *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, REPLY_VERDICT_MAX_BYTES);

	if (!ret)
		ret = reply_verdict_parse(out, sb.buf, sb.len, path);
	strbuf_release(&sb);
	return ret;
}

void reply_verdict_release(struct reply_verdict *v)
{
	free(v->verdict);
	free(v->summary);
	free(v->kernel);
	free(v->first);
	free(v->log);
	free(v->url);
	memset(v, 0, sizeof(*v));
}

/* ---- what to say ------------------------------------------------------- */

enum item_type {
	IT_ISSUE,	/* an added call to fix */
	IT_CREDIT,	/* a removal or conversion in this version */
	IT_XCREDIT,	/* fixed since the previous version */
	IT_NOTE,	/* an added WARN_ON_ONCE(): worth a sentence */
};

struct item {
	enum item_type type;
	const struct finding *f;	/* this version's finding (NULL: dropped) */
	const struct finding *prev;	/* IT_XCREDIT: the previous version's */
	int patch;			/* where it is; 0: no patch */
};

struct plan {
	struct item *v;
	size_t nr, alloc;
	int issues, credits, notes;
};

static void plan_add(struct plan *p, enum item_type t, const struct finding *f,
		     const struct finding *prev)
{
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = (struct item){ t, f, prev, f ? f->patch : 0 };
	if (t == IT_ISSUE)
		p->issues++;
	else if (t == IT_NOTE)
		p->notes++;
	else
		p->credits++;
}

/* How hard a class hits: a conversion goes from higher to lower. */
static int harm(enum rule_class c)
{
	switch (c) {
	case RC_BUG:
	case RC_PANIC:
		return 3;
	case RC_WARN:
	case RC_WARN_LIKE:
		return 2;
	case RC_WARN_ONCE:
		return 1;
	default:
		return 0;
	}
}

static bool same_place(const struct finding *a, const struct finding *b)
{
	if (strcmp(a->file, b->file) != 0)
		return false;
	return !*a->function || !*b->function || !strcmp(a->function, b->function);
}

/* Previous version's issues: fixed, converted, or still there. */
static void plan_versions(struct plan *p, const struct check_result *r,
			  const struct check_result *prev, bool *used)
{
	for (size_t i = 0; prev && i < prev->nr; i++) {
		const struct finding *old = &prev->v[i], *best = NULL;
		bool still = false;

		if (old->kind != FINDING_ADDED || old->moved || old->severity < SEV_WARNING)
			continue;
		for (size_t j = 0; j < r->nr && !still; j++) {
			const struct finding *f = &r->v[j];

			if (f->kind != FINDING_ADDED || f->moved || !same_place(old, f))
				continue;
			if (!strcmp(f->rule->macro, old->rule->macro))
				still = true;
			else if (!used[j] && !best && harm(f->rule->class) < harm(old->rule->class))
				best = f;
		}
		if (still)
			continue;
		if (best)
			used[best - r->v] = true;
		plan_add(p, IT_XCREDIT, best, old);
	}
}

static void plan_build(struct plan *p, const struct check_result *r,
		       const struct check_result *prev)
{
	bool *used = xcalloc(r->nr ? r->nr : 1, sizeof(*used));

	plan_versions(p, r, prev, used);
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->moved)
			continue;
		if (f->kind == FINDING_REMOVED) {
			if (f->severity == SEV_CREDIT)
				plan_add(p, IT_CREDIT, f, NULL);
			continue;
		}
		if (f->conversion)
			continue;	/* thanked with its removal */
		if (f->severity >= SEV_WARNING) {
			plan_add(p, IT_ISSUE, f, NULL);
		} else if (!used[i] && f->kind == FINDING_ADDED &&
			   f->rule->class == RC_WARN_ONCE &&
			   f->severity == f->rule->severity) {
			/* Not where overrides lowered it (tools/, tests). */
			plan_add(p, IT_NOTE, f, NULL);
		}
	}
	free(used);
}

/* ---- small English ------------------------------------------------------ */

static const char *number(int n)
{
	static const char *const words[] = { "no", "one", "two", "three", "four",
		"five", "six", "seven", "eight", "nine", "ten" };
	static char buf[16];

	if (n >= 0 && n < (int)ARRAY_SIZE(words))
		return words[n];
	snprintf(buf, sizeof(buf), "%d", n);
	return buf;
}

/* Join `v` as "a", "a and b", "a, b and c". */
static void join(struct strbuf *out, const struct strvec *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		if (i)
			strbuf_addstr(out, i + 1 == v->nr ? " and " : ", ");
		strbuf_addstr(out, v->v[i]);
	}
}

/* "a BUG_ON()", "two WARN_ON() calls" for the issues of each macro. */
static void count_macros(struct strvec *out, const struct plan *p, enum item_type t,
			 bool prev_side)
{
	struct strvec seen = STRVEC_INIT;

	for (size_t i = 0; i < p->nr; i++) {
		const struct finding *f = prev_side ? p->v[i].prev : p->v[i].f;
		const char *macro;
		int n = 0;
		bool dup = false;

		if (p->v[i].type != t || !f)
			continue;
		macro = f->kind == FINDING_DEFINE ? f->defined : f->rule->macro;
		for (size_t k = 0; k < seen.nr; k++)
			dup |= !strcmp(seen.v[k], macro);
		if (dup)
			continue;
		strvec_push(&seen, macro);
		for (size_t j = i; j < p->nr; j++) {
			const struct finding *g = prev_side ? p->v[j].prev : p->v[j].f;

			if (p->v[j].type == t && g &&
			    !strcmp(g->kind == FINDING_DEFINE ? g->defined : g->rule->macro, macro))
				n++;
		}
		if (f->kind == FINDING_DEFINE && n == 1)
			strvec_pushf(out, "a macro %s() that wraps a BUG/WARN", macro);
		else if (f->kind == FINDING_DEFINE)
			strvec_pushf(out, "%s %s() wrapper macros", number(n), macro);
		else if (n == 1)
			strvec_pushf(out, "%s %s()", prev_side ? "the" : "a", macro);
		else
			strvec_pushf(out, "%s %s() calls", number(n), macro);
	}
	strvec_clear(&seen);
}

/* The functions the items of type `t` are in: "in foo()" / "in foo() and bar()". */
static void functions_of(struct strbuf *out, const struct plan *p, enum item_type t,
			 bool prev_side)
{
	struct strvec names = STRVEC_INIT;

	for (size_t i = 0; i < p->nr; i++) {
		const struct finding *f = prev_side ? p->v[i].prev : p->v[i].f;
		bool dup = false;

		if (p->v[i].type != t || !f || !*f->function)
			continue;
		for (size_t k = 0; k < names.nr; k++)
			dup |= !strncmp(names.v[k], f->function, strlen(f->function)) &&
			       !strcmp(names.v[k] + strlen(f->function), "()");
		if (!dup)
			strvec_pushf(&names, "%s()", f->function);
	}
	if (names.nr && names.nr <= 3) {
		strbuf_addstr(out, " to ");
		join(out, &names);
	}
	strvec_clear(&names);
}

static bool plan_has_class(const struct plan *p, enum item_type t, int harm_min,
			   int harm_max)
{
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].type == t && p->v[i].f && p->v[i].f->kind != FINDING_DEFINE &&
		    harm(p->v[i].f->rule->class) >= harm_min &&
		    harm(p->v[i].f->rule->class) <= harm_max)
			return true;
	return false;
}

/* ---- quoting ------------------------------------------------------------ */

/* The hunk lines around `f`, as "> " lines. */
static void quote_hunk(struct strbuf *out, const struct finding *f)
{
	struct strvec lines = STRVEC_INIT;
	const char *p = f->hunk ? f->hunk : "";
	size_t from, to, at = f->hunk_line, last;

	while (*p) {
		size_t n = strcspn(p, "\n");

		strvec_pushf(&lines, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (!lines.nr || at >= lines.nr)
		goto out;
	last = at + (f->source_lines > 0 ? (size_t)f->source_lines : 1) - 1;
	if (last >= lines.nr)
		last = lines.nr - 1;
	from = at > QUOTE_BEFORE ? at - QUOTE_BEFORE : 0;
	to = last + QUOTE_AFTER + 1;
	if (to > lines.nr)
		to = lines.nr;
	/* Keep a block of added lines whole, if it is short. */
	while (from > 0 && lines.v[from - 1][0] == '+' && to - from < QUOTE_MAX)
		from--;
	while (to < lines.nr && lines.v[to][0] == '+' && to - from < QUOTE_MAX)
		to++;
	/* Blank lines at the edges add nothing. */
	while (from < at && !lines.v[from][1 + strspn(lines.v[from] + 1, " \t")])
		from++;
	while (to > last + 1 && !lines.v[to - 1][1 + strspn(lines.v[to - 1] + 1, " \t")])
		to--;
	for (size_t i = from; i < to; i++) {
		struct strbuf l = STRBUF_INIT;

		strbuf_addf(&l, "> %s", lines.v[i]);
		strbuf_rtrim(&l);
		strbuf_addbuf(out, &l);
		strbuf_addch(out, '\n');
		strbuf_release(&l);
	}
out:
	strvec_clear(&lines);
}

/* The added line of the finding, without its '+' and indentation. */
static void finding_line(struct strbuf *out, const struct finding *f)
{
	const char *p = f->hunk ? f->hunk : "";

	for (int i = 0; i < f->hunk_line && *p; i++)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	if (*p)
		p++;	/* the '+', '-' or ' ' */
	strbuf_add(out, p, strcspn(p, "\n"));
	strbuf_trim(out);
}

/* ---- concrete suggestions ---------------------------------------------- */

/* The arguments of the call in `source` ("BUG_ON(!x)" -> "!x"). */
static bool call_args(struct strbuf *out, const char *source)
{
	const char *open = strchr(source, '('), *close;

	if (!open)
		return false;
	close = strrchr(open, ')');
	if (!close)
		return false;
	strbuf_add(out, open + 1, close - open - 1);
	strbuf_trim(out);
	return true;
}

/*
 * What the function returns, guessed from its definition in the patch
 * (hunk headers carry it): "return;", "return NULL;", "return false;",
 * "return -EINVAL;".
 */
static const char *guess_return(const struct series *s, const struct finding *f)
{
	const struct series_patch *sp = NULL;
	struct strbuf want = STRBUF_INIT;
	const char *ret = "return -EINVAL;";

	for (size_t i = 0; i < s->nr; i++)
		if (s->patches[i].index == f->patch)
			sp = &s->patches[i];
	if (!sp || !*f->function || !sp->diff)
		goto out;
	strbuf_addf(&want, "%s(", f->function);
	for (const char *p = sp->diff, *end = sp->diff + sp->diff_len; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p, *eol = p + n, *hit, *type;
		char *decl;

		/* Everything below stays inside [line, eol): the diff need not
		 * end in a NUL (fuzz-reply found a search running past it). */
		p = eol + 1;
		if (n >= 2 && line[0] == '@' && line[1] == '@') {
			line = n > 2 ? memmem(line + 2, n - 2, "@@", 2) : NULL;
			if (!line)
				continue;
			line += 2;
			if (line < eol && *line == ' ')
				line++;	/* "@@ ... @@ void foo(...)" */
		} else if (n && (*line == ' ' || *line == '+' || *line == '-')) {
			line++;
		} else {
			continue;
		}
		if (line < eol && (*line == ' ' || *line == '\t'))
			continue;	/* indented: not a definition */
		hit = memmem(line, eol - line, want.buf, want.len);
		if (!hit || (hit > line && (isalnum((unsigned char)hit[-1]) || hit[-1] == '_')))
			continue;
		type = line;
		while (type < hit && *type == ' ')
			type++;
		decl = xstrndup(type, hit - type);
		if (strchr(decl, '*'))
			ret = "return NULL;";
		else if (strstr(decl, "void"))
			ret = "return;";
		else if (strstr(decl, "bool"))
			ret = "return false;";
		free(decl);
		break;
	}
out:
	strbuf_release(&want);
	return ret;
}

/*
 * A code example for an added BUG/WARN: the call with the rule's gentler
 * replacement, inside an if with a recovery when it was a bare statement.
 * Lines start with a TAB (verbatim in the filled text).  Empty when the
 * rule has no replacement.
 */
static bool user_reachable(const char *fn);

static void example(struct strbuf *out, const struct series *s, const struct finding *f)
{
	const char *repl = f->rule->replacement;
	struct strbuf args = STRBUF_INIT, line = STRBUF_INIT;
	const char *macro = f->rule->macro;

	if (!repl || f->kind != FINDING_ADDED || !f->source ||
	    (f->rule->class != RC_BUG && f->rule->class != RC_WARN))
		goto out;
	if (!call_args(&args, f->source))
		goto out;
	finding_line(&line, f);
	if (starts_with(line.buf, macro) && f->source_lines <= 1 &&
	    line.buf[strlen(macro)] == '(') {
		/* A statement: make it a condition with a way out.  Where user
		 * space can get the condition true, no WARN at all: an error. */
		if (args.len && user_reachable(f->function) && !strchr(args.buf, ','))
			strbuf_addf(out, "\tif (%s)\n\t\t%s\n", args.buf, guess_return(s, f));
		else if (!args.len)
			strbuf_addf(out, "\t%s(1);\n\t%s\n", repl, guess_return(s, f));
		else
			strbuf_addf(out, "\tif (%s(%s))\n\t\t%s\n", repl, args.buf,
				    guess_return(s, f));
	} else {
		/* Already a condition: only the macro changes. */
		const char *at = strstr(line.buf, macro);

		if (!at || f->source_lines > 1)
			strbuf_addf(out, "\t%s(%s)\n", repl, args.buf);
		else
			strbuf_addf(out, "\t%.*s%s%s\n", (int)(at - line.buf), line.buf,
				    repl, at + strlen(macro));
	}
out:
	strbuf_release(&args);
	strbuf_release(&line);
}

/*
 * Handlers user space calls directly: a condition in one of these is
 * likely reachable from outside the kernel, which is not WARN material.
 */
static bool user_reachable(const char *fn)
{
	static const char *const suffixes[] = { "_ioctl", "_compat_ioctl", "_write",
		"_read", "_store", "_show", "_open", "_release", "_mmap", "_poll",
		"_setsockopt", "_getsockopt", "_sendmsg", "_recvmsg", "_write_iter",
		"_read_iter", "_unlocked_ioctl", "_fault" };
	static const char *const prefixes[] = { "sys_", "__do_sys_", "__se_sys_",
		"__x64_sys_", "do_sys_", "ksys_", "SYSCALL_DEFINE", "COMPAT_SYSCALL_DEFINE" };

	if (!fn || !*fn)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (starts_with(fn, prefixes[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(fn, suffixes[i]))
			return true;
	return false;
}

/* "Sentence." from a rule text: first letter up, a full stop at the end. */
static void sentence(struct strbuf *out, const char *text)
{
	size_t start = out->len;

	strbuf_addstr(out, text ? text : "");
	strbuf_trim(out);
	if (out->len > start && islower((unsigned char)out->buf[start]))
		out->buf[start] = toupper((unsigned char)out->buf[start]);
	if (out->len > start && !strchr(".!?", out->buf[out->len - 1]))
		strbuf_addch(out, '.');
}

/* ---- the template variables -------------------------------------------- */

/* A multi-line value, without its final newline (the template adds it). */
static void set_block(struct tmpl_vars *v, const char *name, struct strbuf *sb)
{
	while (sb->len && sb->buf[sb->len - 1] == '\n')
		strbuf_setlen(sb, sb->len - 1);
	tmpl_set(v, name, sb->len ? sb->buf : NULL);
}

struct builder {
	const struct series *s;
	const struct reply_opts *o;
	struct strvec quoted;		/* sections already quoted */
};

static const struct series_patch *patch_of(const struct series *s, int index)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->patches[i].index == index)
			return &s->patches[i];
	return NULL;
}

static void location(struct strbuf *out, const struct finding *f)
{
	strbuf_addf(out, "%s:%d", f->file, f->line);
}

/* Quote the coding-style section `heading` once; later: a pointer back. */
static void set_guide(struct tmpl_vars *v, struct builder *b, const char *heading)
{
	const struct guide_section *sec;
	struct strbuf q = STRBUF_INIT;

	if (!heading || !*heading)
		return;
	tmpl_set(v, "section", heading);
	if (!b->o->guide || !(sec = guide_find(b->o->guide, heading)))
		return;
	tmpl_set(v, "section", sec->heading);
	for (size_t i = 0; i < b->quoted.nr; i++)
		if (!strcmp(b->quoted.v[i], sec->heading)) {
			tmpl_set_bool(v, "guide_seen", true);
			return;
		}
	strvec_push(&b->quoted, sec->heading);
	guide_quote(&q, b->o->guide, sec, "  | ");
	set_block(v, "guide", &q);
	strbuf_release(&q);
}

static void add_issue(struct tmpl_vars *list, struct builder *b, const struct item *it)
{
	const struct finding *f = it->f;
	struct tmpl_vars *v = tmpl_add(list, "findings");
	struct strbuf sb = STRBUF_INIT;

	location(&sb, f);
	tmpl_set(v, "location", sb.buf);
	tmpl_set(v, "file", f->file);
	tmpl_setf(v, "line", "%d", f->line);
	tmpl_set(v, "function", *f->function ? f->function : NULL);
	tmpl_set(v, "macro", f->kind == FINDING_DEFINE ? f->defined : f->rule->macro);
	strbuf_reset(&sb);
	quote_hunk(&sb, f);
	set_block(v, "quote", &sb);
	strbuf_reset(&sb);
	{
		/* "new BUG_ON() crashes..." -> "This new BUG_ON() crashes..." */
		const char *msg = f->message ? f->message : f->rule->message;
		struct strbuf m = STRBUF_INIT;

		if (starts_with(msg, "new "))
			strbuf_addstr(&m, "this ");
		strbuf_addstr(&m, msg);
		sentence(&sb, m.buf);
		strbuf_release(&m);
	}
	tmpl_set(v, "message", sb.buf);
	set_guide(v, b, f->rule->section);
	strbuf_reset(&sb);
	sentence(&sb, f->rule->suggest);
	tmpl_set(v, "suggest", sb.len > 1 ? sb.buf : NULL);
	strbuf_reset(&sb);
	example(&sb, b->s, f);
	set_block(v, "example", &sb);
	if (f->rule->class == RC_WARN || f->rule->class == RC_BUG)
		tmpl_set_bool(v, "user_reachable", user_reachable(f->function));
	strbuf_release(&sb);
}

static void add_credit(struct tmpl_vars *top, const struct item *it, int version)
{
	const struct finding *f = it->f, *old = it->prev;
	struct tmpl_vars *v = tmpl_add(top, "credits");
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;

	if (it->type == IT_XCREDIT && f) {
		/* Converted since the previous version. */
		finding_line(&line, f);
		strbuf_addf(&sb, "%s:%d", f->file, f->line);
		if (*f->function)
			strbuf_addf(&sb, ", in %s()", f->function);
		strbuf_addf(&sb, ": %s()", f->rule->macro);
		if (strstr(line.buf, "if (") || strstr(line.buf, "if("))
			strbuf_addstr(&sb, " with a recovery path");
		strbuf_addf(&sb, " instead of the %s() of v%d.", old->rule->macro,
			    version - 1);
		strbuf_reset(&line);
		quote_hunk(&line, f);
		set_block(v, "quote", &line);
	} else if (it->type == IT_XCREDIT) {
		/* Dropped since the previous version. */
		strbuf_addf(&sb, "%s: the %s()", old->file, old->rule->macro);
		if (*old->function)
			strbuf_addf(&sb, " in %s()", old->function);
		strbuf_addstr(&sb, " is gone.");
	} else if (f->conversion && f->other) {
		strbuf_addf(&sb, "%s:%d: %s() turned into %s()", f->file, f->line,
			    f->rule->macro, f->other->macro);
		if (*f->function)
			strbuf_addf(&sb, " in %s()", f->function);
		strbuf_addch(&sb, '.');
	} else {
		strbuf_addf(&sb, "%s:%d: %s() removed", f->file, f->line, f->rule->macro);
		if (*f->function)
			strbuf_addf(&sb, " from %s()", f->function);
		strbuf_addch(&sb, '.');
	}
	tmpl_set(v, "text", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&line);
}

static void add_note(struct tmpl_vars *top, const struct item *it)
{
	const struct finding *f = it->f;
	struct tmpl_vars *v = tmpl_add(top, "notes");
	struct strbuf sb = STRBUF_INIT;

	location(&sb, f);
	tmpl_set(v, "location", sb.buf);
	tmpl_set(v, "macro", f->rule->macro);
	tmpl_set(v, "function", *f->function ? f->function : NULL);
	strbuf_reset(&sb);
	quote_hunk(&sb, f);
	set_block(v, "quote", &sb);
	strbuf_release(&sb);
}

/* The opening paragraph: what was found, in one or two sentences. */
static void opening(struct strbuf *out, const struct plan *p, const struct series *s,
		    bool single, const struct reply_opts *o)
{
	const char *what = single ? "This patch" : "This series";
	struct strvec macros = STRVEC_INIT;

	if (p->issues) {
		count_macros(&macros, p, IT_ISSUE, false);
		strbuf_addf(out, "%s adds ", what);
		join(out, &macros);
		functions_of(out, p, IT_ISSUE, false);
		strbuf_addstr(out, ".");
		if (plan_has_class(p, IT_ISSUE, 3, 3) && plan_has_class(p, IT_ISSUE, 1, 2))
			strbuf_addstr(out, " A BUG_ON() stops the machine when its condition holds, "
				      "and so does a WARN*() on the many machines booted with panic_on_warn=1.");
		else if (plan_has_class(p, IT_ISSUE, 3, 3))
			strbuf_addstr(out, " A BUG_ON() or panic() stops the machine when its condition holds.");
		else if (plan_has_class(p, IT_ISSUE, 1, 2))
			strbuf_addstr(out, " Every WARN*() that fires stops the machine where panic_on_warn=1 "
				      "is set, as it is on Android and on many cloud hosts.");
		strbuf_addstr(out, " Details below, each with what Documentation/process/coding-style.rst"
			      " says about it and a suggestion.");
	} else if (p->credits) {
		bool xc = false;

		for (size_t i = 0; i < p->nr; i++)
			xc |= p->v[i].type == IT_XCREDIT;
		if (xc && s->version > 1) {
			bool all_converted = true, all_recover = true, one;
			struct strvec now = STRVEC_INIT;

			for (size_t i = 0; i < p->nr; i++) {
				const struct finding *f = p->v[i].f;
				struct strbuf l = STRBUF_INIT;
				bool dup = false;

				if (p->v[i].type != IT_XCREDIT)
					continue;
				if (!f) {
					all_converted = false;
					continue;
				}
				finding_line(&l, f);
				all_recover &= strstr(l.buf, "if (") != NULL;
				strbuf_release(&l);
				for (size_t k = 0; k < now.nr; k++)
					dup |= !strcmp(now.v[k], f->rule->macro);
				if (!dup)
					strvec_push(&now, f->rule->macro);
			}
			count_macros(&macros, p, IT_XCREDIT, true);
			one = macros.nr == 1 && !strstr(macros.v[0], " calls");
			strbuf_addf(out, "Thanks for v%d: ", s->version);
			join(out, &macros);
			strbuf_addf(out, " that v%d added", s->version - 1);
			functions_of(out, p, IT_XCREDIT, true);
			if (all_converted && now.nr == 1) {
				strbuf_addf(out, one ? " is now a %s()" : " are now %s() calls",
					    now.v[0]);
				if (all_recover)
					strbuf_addstr(out, one ? " with a recovery path" :
						      " with recovery paths");
			} else {
				strbuf_addstr(out, one ? " is gone" : " are gone or gentler now");
			}
			strbuf_addstr(out, ", as Documentation/process/coding-style.rst asks.");
			strvec_clear(&now);
		} else {
			strbuf_addf(out, "Thanks for this %s: it removes calls that can stop the machine.",
				    single ? "patch" : "series");
		}
	} else {
		strbuf_addf(out, "I looked for BUG()/WARN() calls that %s adds or removes and "
			    "found nothing to comment on.", single ? "this patch" : "this series");
	}
	strvec_clear(&macros);
}

static void verdict_vars(struct tmpl_vars *top, const struct reply_verdict *vd)
{
	struct strbuf sb = STRBUF_INIT;
	struct tmpl_vars *v;
	const char *what;

	if (!vd || !vd->verdict)
		return;
	what = vd->verdict;
	v = tmpl_add(top, "verdict");
	tmpl_set(v, "verdict", vd->verdict);
	tmpl_set(v, "kernel", vd->kernel);
	tmpl_set(v, "url", vd->url);
	tmpl_set_bool(v, "panic_on_warn", vd->panic_on_warn);
	if (!strcmp(what, "clean") || !strcmp(what, "pass") || !strcmp(what, "ok")) {
		tmpl_set_bool(v, "clean", true);
	} else if (!strcmp(what, "skipped") || !strcmp(what, "skip") || !strcmp(what, "error")) {
		/* "error": kernel-ci itself failed; not the series' fault. */
		tmpl_set_bool(v, "skipped", true);
	} else {
		static const char *const outcomes[][2] = {
			{ "panicked", "the kernel panicked" },
			{ "panic", "the kernel panicked" },
			{ "bug", "a BUG() fired" },
			{ "warn", "a WARN fired" },
			{ "build-failed", "the kernel did not build" },
			{ "apply-failed", "the series did not apply" },
			{ "hung", "the boot did not finish in time" },
			{ "timeout", "the boot did not finish in time" },
			{ "boot-failed", "the kernel did not boot" },
		};
		const char *outcome = NULL;

		for (size_t i = 0; i < ARRAY_SIZE(outcomes); i++)
			if (!strcmp(what, outcomes[i][0]))
				outcome = outcomes[i][1];
		tmpl_set_bool(v, "failed", true);
		if (outcome)
			tmpl_set(v, "outcome", outcome);
		else
			tmpl_setf(v, "outcome", "the result was '%s'", what);
	}
	if (vd->first) {
		sentence(&sb, vd->first);
		tmpl_set(v, "first", sb.buf);
		strbuf_reset(&sb);
	}
	sentence(&sb, vd->summary);
	tmpl_set(v, "summary", sb.len > 1 ? sb.buf : NULL);
	strbuf_reset(&sb);
	if (vd->log) {
		const char *log = vd->log;

		/* Console lines, indented: verbatim in the mail. */
		for (const char *p = log; *p;) {
			size_t n = strcspn(p, "\n");

			strbuf_addstr(&sb, "    ");
			template_clean(&sb, p, n);
			strbuf_rtrim(&sb);
			strbuf_addch(&sb, '\n');
			p += n + (p[n] == '\n');
		}
		set_block(v, "log", &sb);
	}
	strbuf_release(&sb);
}

/* ---- headers ------------------------------------------------------------ */

static bool is_list(const char *addr, const char *patterns)
{
	struct strbuf pat = STRBUF_INIT;
	const char *p = patterns ? patterns : REPLY_DEFAULT_LISTS;
	bool match = false;

	while (*p && !match) {
		size_t n = strcspn(p, " ,\t");

		if (n) {
			strbuf_reset(&pat);
			strbuf_add(&pat, p, n);
			match = !fnmatch(pat.buf, addr, FNM_CASEFOLD);
		}
		p += n;
		p += strspn(p, " ,\t");
	}
	strbuf_release(&pat);
	return match;
}

static void add_all(struct mail_addr_list *out, const struct mail_addr_list *in,
		    const char *self)
{
	for (size_t i = 0; i < in->nr; i++)
		if (strcasecmp(in->v[i].addr, self) != 0)
			mail_addr_add(out, in->v[i].name, in->v[i].addr);
}

static int recipients(struct reply *out, const struct mail *m, const struct reply_opts *o,
		      const char *self)
{
	struct mail_addr_list author = MAIL_ADDR_LIST_INIT, others = MAIL_ADDR_LIST_INIT,
			      lists = MAIL_ADDR_LIST_INIT;
	int ret = 0;

	mail_addr_parse(&author, m->from);
	mail_addr_parse(&others, m->to);
	mail_addr_parse(&others, m->cc);
	for (size_t i = 0; i < others.nr; i++)
		if (is_list(others.v[i].addr, o->lists))
			mail_addr_add(&lists, others.v[i].name, others.v[i].addr);
	switch (o->policy) {
	case REPLY_TO_AUTHOR:
		add_all(&out->to, &author, self);
		break;
	case REPLY_TO_LIST:
		add_all(&out->to, &lists, self);
		break;
	case REPLY_TO_ALL:
		add_all(&out->to, &author, self);
		add_all(&out->cc, &others, self);
		break;
	case REPLY_TO_BOTH:
		add_all(&out->to, &author, self);
		add_all(&out->cc, &lists, self);
		break;
	}
	/* Nobody in To: is odd; Cc: alone works but reads badly. */
	if (!out->to.nr && out->cc.nr) {
		mail_addr_list_clear(&out->to);
		out->to = out->cc;
		memset(&out->cc, 0, sizeof(out->cc));
	}
	for (size_t i = 0; i < out->to.nr; i++)
		mail_addr_add(&out->rcpt, "", out->to.v[i].addr);
	for (size_t i = 0; i < out->cc.nr; i++)
		mail_addr_add(&out->rcpt, "", out->cc.v[i].addr);
	if (!out->rcpt.nr)
		ret = error_code(WW_EINPUT, "no %s address to send the reply to (reply-to = %s)",
				 o->policy == REPLY_TO_LIST ? "mailing list" : "valid",
				 reply_policy_names[o->policy]);
	mail_addr_list_clear(&author);
	mail_addr_list_clear(&others);
	mail_addr_list_clear(&lists);
	return ret;
}

/* References: the answered message's (valid ones, the first and the
 * last few if there are many), then its own id. */
static void references(struct strvec *out, const struct mail *m)
{
	struct strvec all = STRVEC_INIT;
	const char *p = m->references ? m->references : "";

	while ((p = strchr(p, '<'))) {
		const char *end = strchr(p, '>');
		char *id;

		if (!end)
			break;
		id = xstrndup(p + 1, end - p - 1);
		if (msgid_valid(id))
			strvec_push(&all, id);
		free(id);
		p = end + 1;
	}
	for (size_t i = 0; i < all.nr; i++)
		if (i == 0 || i + 8 >= all.nr)
			strvec_push(out, all.v[i]);
	strvec_push(out, m->message_id);
	strvec_clear(&all);
}

static int headers(struct reply *out, struct strbuf *h, const struct mail *m,
		   const struct reply_opts *o)
{
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	struct strvec refs = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *self;
	int ret;

	if (mail_addr_parse(&from, o->from ? o->from : "") || from.nr != 1) {
		ret = error_code(WW_EINPUT, "the From: identity '%s' is not one valid address",
				 o->from ? o->from : "");
		goto out;
	}
	self = from.v[0].addr;
	out->from_addr = xstrdup(self);
	ret = recipients(out, m, o, self);
	if (ret)
		goto out;
	mailhdr_add_addrs(h, "From", &from);
	mailhdr_add_addrs(h, "To", &out->to);
	if (out->cc.nr)
		mailhdr_add_addrs(h, "Cc", &out->cc);
	strbuf_addstr(&sb, m->subject);
	strbuf_trim(&sb);
	if (strncasecmp(sb.buf, "Re:", 3) != 0) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "Re: %s", m->subject);
	}
	mailhdr_add_text(h, "Subject", sb.buf);
	/* The subject as it went out, for the state database. */
	{
		struct strbuf subj = STRBUF_INIT;

		mailhdr_clean(&subj, sb.buf, MAILHDR_MAX_TEXT);
		out->subject = strbuf_detach(&subj, NULL);
	}
	strbuf_reset(&sb);
	mailhdr_date(&sb, o->date ? o->date : mailhdr_now());
	strbuf_addf(h, "Date: %s\n", sb.buf);
	{
		const char *id = out->message_id;

		mailhdr_add_ids(h, "Message-ID", &id, 1);
		id = m->message_id;
		mailhdr_add_ids(h, "In-Reply-To", &id, 1);
	}
	references(&refs, m);
	mailhdr_add_ids(h, "References", refs.v, refs.nr);
	if (o->patchwork_hint)
		strbuf_addstr(h, "X-Patchwork-Hint: ignore\n");
	strbuf_addstr(h, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n");
out:
	mail_addr_list_clear(&from);
	strvec_clear(&refs);
	strbuf_release(&sb);
	return ret;
}

/* ---- putting it together ------------------------------------------------ */

/* Which message to answer: the one patch with something to say, else the
 * cover letter, else the first patch that has something. */
static int choose_target(const struct plan *p, const struct series *s)
{
	int first = 0;
	bool several = false, nopatch = false;

	for (size_t i = 0; i < p->nr; i++) {
		int idx = p->v[i].patch;

		if (p->v[i].type == IT_NOTE)
			continue;
		if (!idx)
			nopatch = true;
		else if (!first)
			first = idx;
		else if (idx != first)
			several = true;
		if (idx && idx < first)
			first = idx;
	}
	if (first && !several && !nopatch)
		return first;
	if (s->cover)
		return 0;
	if (first)
		return first;
	return s->nr ? s->patches[0].index : 0;
}

static void greeting(struct tmpl_vars *v, const struct mail *m)
{
	struct mail_addr_list a = MAIL_ADDR_LIST_INIT;

	mail_addr_parse(&a, m->from);
	if (a.nr && *a.v[0].name)
		tmpl_set(v, "author", a.v[0].name);
	mail_addr_list_clear(&a);
}

static void body_vars(struct tmpl_vars *top, struct builder *b, const struct plan *p,
		      int target)
{
	const struct series *s = b->s;
	bool single = target != 0;
	struct strbuf sb = STRBUF_INIT;

	opening(&sb, p, s, single, b->o);
	tmpl_set(top, "opening", sb.buf);
	tmpl_set_bool(top, "single", single);
	tmpl_setf(top, "version", "%d", s->version);
	tmpl_set(top, "guide_file", GUIDE_PATH);
	tmpl_set(top, "tree", b->o->tree_name);
	tmpl_set_bool(top, "have_guide", b->o->guide != NULL);

	/* Issues, grouped by patch in series order. */
	for (size_t k = 0; k < s->nr; k++) {
		const struct series_patch *sp = &s->patches[k];
		struct tmpl_vars *pv = NULL;

		for (size_t i = 0; i < p->nr; i++) {
			if (p->v[i].type != IT_ISSUE || p->v[i].patch != sp->index)
				continue;
			if (!pv) {
				pv = tmpl_add(top, "patches");
				tmpl_set(pv, "subject", sp->subject);
				tmpl_set_bool(pv, "heading", !single);
			}
			add_issue(pv, b, &p->v[i]);
		}
	}
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].type == IT_CREDIT || p->v[i].type == IT_XCREDIT)
			add_credit(top, &p->v[i], s->version);
	tmpl_set_bool(top, "issues", p->issues > 0);
	for (size_t i = 0; i < p->nr; i++)
		if (p->v[i].type == IT_NOTE)
			add_note(top, &p->v[i]);

	/*
	 * panic_on_warn: a note when the series adds a WARN of any kind, with
	 * the tree's own section on the option when it has the one that says
	 * what the option does (since 2024).  Older trees have "Do not worry
	 * about panic_on_warn users" there, which is no support for a note
	 * asking to avoid WARNs: it is not quoted.
	 */
	if (plan_has_class(p, IT_ISSUE, 1, 2) || p->notes || plan_has_class(p, IT_XCREDIT, 1, 2)) {
		const struct guide_section *sec = b->o->guide ?
			guide_find_exact(b->o->guide, REPLY_PANIC_ON_WARN_SECTION) : NULL;
		bool seen = false;

		tmpl_set_bool(top, "panic_note", true);
		for (size_t i = 0; sec && i < b->quoted.nr; i++)
			seen |= !strcmp(b->quoted.v[i], sec->heading);
		if (sec && !seen) {
			strbuf_reset(&sb);
			guide_quote(&sb, b->o->guide, sec, "  | ");
			set_block(top, "panic_on_warn", &sb);
			strvec_push(&b->quoted, sec->heading);
		}
	}
	verdict_vars(top, b->o->verdict);
	tmpl_set(top, "contact", b->o->contact);
	strbuf_release(&sb);
}

/* "damaged": the hunks check skipped, "patch 2, mm/a.c hunk 1; ...". */
static void damaged_var(struct tmpl_vars *v, const struct check_result *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->nr_damaged; i++) {
		const struct check_damage *d = &r->damaged[i];

		if (sb.len)
			strbuf_addstr(&sb, "; ");
		if (d->patch)
			strbuf_addf(&sb, "patch %d, ", d->patch);
		if (d->hunk)
			strbuf_addf(&sb, "%s hunk %d", d->file, d->hunk);
		else
			strbuf_addf(&sb, "the header of %s", d->file);
	}
	tmpl_set(v, "damaged", sb.len ? sb.buf : NULL);
	strbuf_release(&sb);
}

int reply_build(struct reply *out, const struct series *s,
		const struct check_result *r, const struct reply_opts *o)
{
	struct plan p = { NULL, 0, 0, 0, 0, 0 };
	struct builder b = { s, o, STRVEC_INIT };
	struct strbuf body = STRBUF_INIT, id = STRBUF_INIT;
	const struct series_patch *sp;
	struct tmpl_vars *vars = NULL;
	const struct mail *m;
	int target, ret = 0;

	out->empty = false;
	plan_build(&p, r, o->prev ? o->prev_result : NULL);
	out->issues = p.issues;
	out->credits = p.credits;
	out->notes = p.notes;
	if (!p.issues && !p.credits && !o->always) {
		out->empty = true;
		goto out;
	}
	target = choose_target(&p, s);
	sp = target ? patch_of(s, target) : NULL;
	m = sp ? sp->mail : s->cover;
	if (!m) {
		ret = error_code(WW_EINPUT, "the message to answer is not in the input");
		goto out;
	}
	if (!msgid_valid(m->message_id)) {
		ret = error_code(WW_EINPUT, "the message to answer has no valid Message-ID");
		goto out;
	}
	out->answered = target;
	out->in_reply_to = xstrdup(m->message_id);
	if (o->message_id && msgid_valid(o->message_id)) {
		strbuf_addstr(&id, o->message_id);
	} else {
		const char *at = strrchr(o->from ? o->from : "", '@');
		struct strbuf dom = STRBUF_INIT;

		if (at)
			strbuf_add(&dom, at + 1, strcspn(at + 1, "> \t"));
		mailhdr_new_msgid(&id, dom.buf);
		strbuf_release(&dom);
	}
	out->message_id = strbuf_detach(&id, NULL);

	ret = headers(out, &out->text, m, o);
	if (ret)
		goto out;
	strbuf_addch(&out->text, '\n');

	vars = tmpl_vars_new();
	greeting(vars, m);
	body_vars(vars, &b, &p, target);
	damaged_var(vars, r);
	ret = template_render_file(&body, o->template_dir ? o->template_dir : "templates",
				   o->template_name ? o->template_name : "reply.txt",
				   vars, TEMPLATE_WIDTH);
	if (ret)
		goto out;
	strbuf_addbuf(&out->text, &body);
out:
	tmpl_vars_free(vars);
	strvec_clear(&b.quoted);
	strbuf_release(&body);
	strbuf_release(&id);
	free(p.v);
	return ret;
}

void reply_release(struct reply *r)
{
	strbuf_release(&r->text);
	free(r->message_id);
	free(r->in_reply_to);
	free(r->subject);
	free(r->from_addr);
	mail_addr_list_clear(&r->to);
	mail_addr_list_clear(&r->cc);
	mail_addr_list_clear(&r->rcpt);
	memset(r, 0, sizeof(*r));
}

const char *reply_default_templates(void)
{
	static char buf[PATH_MAX + 16];

	return datadir_find(buf, sizeof(buf), "templates", "WARNWATCH_TEMPLATES", NULL);
}
