/*
 * The rules: which macros warnwatch flags and what it says about them,
 * read from the JSON files in rules/ with jansson (format: docs/rules.md).
 *
 * rules_lookup() runs for every identifier of every scanned hunk, so the
 * macros sit in an open-addressing hash table kept at most a quarter
 * full, behind two cheap filters (name length; a bitmap over first byte,
 * last byte and length) that turn away almost every ordinary identifier
 * before it is hashed.
 */
#include "rules.h"
#include "env.h"
#include "datadir.h"
#include "strbuf.h"
#include "strvec.h"

#include <dirent.h>
#include <fnmatch.h>
#include <jansson.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rule files are ours, but a cap keeps a stray file from eating memory. */
#define RULES_FILE_MAX (1024 * 1024)
#define RULE_NAME_MAX 128

static const char *const class_names[RC__NR] = {
	[RC_BUG] = "bug",
	[RC_PANIC] = "panic",
	[RC_WARN] = "warn",
	[RC_WARN_ONCE] = "warn-once",
	[RC_DEBUG_ONLY] = "debug-only",
	[RC_WARN_LIKE] = "warn-like",
};

static const char *const severity_names[SEV__NR] = {
	[SEV_INFO] = "info",
	[SEV_CREDIT] = "credit",
	[SEV_WARNING] = "warning",
	[SEV_ERROR] = "error",
};

/* The unexpanded texts of a family, kept to describe tree wrappers later. */
struct family {
	char *message;
	char *suggest;
	char *credit;
};

#define SIG_BITS 8192

static inline unsigned name_sig(const char *s, size_t len)
{
	return ((unsigned char)s[0] * 131u + (unsigned char)s[len - 1] * 31u +
		(unsigned)len) & (SIG_BITS - 1);
}

struct slot {
	uint32_t hash;
	uint32_t idx;		/* rule index + 1; 0 is an empty slot */
};

struct rules_index {
	struct slot *slots;
	uint32_t mask;
	size_t minlen, maxlen;
	/* Bitmap over (first byte, last byte, length) of the macros: one
	 * test turns away almost every identifier before it is hashed. */
	uint64_t sig[SIG_BITS / 64];
	uint64_t last[4];	/* bitmap of the last bytes of the macros */

	struct family *fams;
	size_t nr_fams, alloc_fams;
	size_t *fam_of;		/* family of each rule */
	size_t *origin_of;	/* index into `origins` of each rule */
	size_t alloc_of;
	struct strvec origins;	/* names of the files loaded */

	struct strvec ignore;	/* fnmatch globs on macro names */
	struct strvec scan;	/* globs of the paths scanned */
	struct strvec skip;	/* globs of the paths never scanned */
	char *guidance_origin;
};

/* Where we are in a document, for "file: families[2].class: ..." errors. */
struct ctx {
	struct ruleset *rs;
	struct rules_index *ix;
	const char *file;
	size_t origin;
};

static struct rules_index *index_of(struct ruleset *rs)
{
	if (!rs->index) {
		struct rules_index *ix = xcalloc(1, sizeof(*ix));

		strvec_init(&ix->origins);
		strvec_init(&ix->ignore);
		strvec_init(&ix->scan);
		strvec_init(&ix->skip);
		rs->index = ix;
	}
	return rs->index;
}

const char *rule_class_name(enum rule_class c)
{
	return (unsigned)c < RC__NR ? class_names[c] : "unknown";
}

const char *severity_name(enum severity s)
{
	return (unsigned)s < SEV__NR ? severity_names[s] : "unknown";
}

int rule_class_parse(enum rule_class *out, const char *name)
{
	int i;

	if (!name)
		return error_code(WW_EINPUT, "missing class");
	for (i = 0; i < RC__NR; i++)
		if (!strcmp(name, class_names[i])) {
			*out = i;
			return 0;
		}
	return error_code(WW_EINPUT, "unknown class '%s'", name);
}

int severity_parse(enum severity *out, const char *name)
{
	int i;

	if (!name)
		return error_code(WW_EINPUT, "missing severity");
	for (i = 0; i < SEV__NR; i++)
		if (!strcmp(name, severity_names[i])) {
			*out = i;
			return 0;
		}
	return error_code(WW_EINPUT, "unknown severity '%s'", name);
}

/* FNV-1a: short keys, no setup, good enough spread for ~200 names. */
static inline uint32_t name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static bool is_ident_start(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_identifier(const char *s)
{
	size_t i;

	if (!is_ident_start((unsigned char)s[0]))
		return false;
	for (i = 1; s[i]; i++)
		if (!is_ident_start((unsigned char)s[i]) &&
		    !(s[i] >= '0' && s[i] <= '9'))
			return false;
	return i <= RULE_NAME_MAX;
}

static void index_rebuild(struct ruleset *rs)
{
	struct rules_index *ix = index_of(rs);
	size_t cap = 64, i;

	while (cap < rs->nr * 4)
		cap *= 2;
	free(ix->slots);
	ix->slots = xcalloc(cap, sizeof(*ix->slots));
	ix->mask = cap - 1;
	ix->minlen = SIZE_MAX;
	ix->maxlen = 0;
	memset(ix->sig, 0, sizeof(ix->sig));
	memset(ix->last, 0, sizeof(ix->last));
	for (i = 0; i < rs->nr; i++) {
		const char *m = rs->rules[i].macro;
		size_t len = strlen(m);
		uint32_t h = name_hash(m, len), pos = h & ix->mask;
		unsigned sig = name_sig(m, len);

		while (ix->slots[pos].idx)
			pos = (pos + 1) & ix->mask;
		ix->slots[pos].hash = h;
		ix->slots[pos].idx = i + 1;
		if (len < ix->minlen)
			ix->minlen = len;
		if (len > ix->maxlen)
			ix->maxlen = len;
		ix->sig[sig >> 6] |= 1ull << (sig & 63);
		ix->last[(unsigned char)m[len - 1] >> 6] |=
			1ull << ((unsigned char)m[len - 1] & 63);
	}
}

const struct rule *rules_lookup(const struct ruleset *rs, const char *name,
				size_t len)
{
	const struct rules_index *ix = rs->index;
	uint32_t h, pos;
	unsigned sig;

	if (!ix || !ix->slots || len < ix->minlen || len > ix->maxlen)
		return NULL;
	sig = name_sig(name, len);
	if (!(ix->sig[sig >> 6] & (1ull << (sig & 63))))
		return NULL;
	h = name_hash(name, len);
	for (pos = h & ix->mask; ix->slots[pos].idx; pos = (pos + 1) & ix->mask) {
		const struct rule *r = &rs->rules[ix->slots[pos].idx - 1];

		if (ix->slots[pos].hash == h && !strncmp(r->macro, name, len) &&
		    !r->macro[len])
			return r;
	}
	return NULL;
}

bool rules_may_end_with(const struct ruleset *rs, unsigned char c)
{
	const struct rules_index *ix = rs->index;

	return ix && (ix->last[c >> 6] & (1ull << (c & 63)));
}

static const struct rule *lookup_str(const struct ruleset *rs, const char *name)
{
	return rules_lookup(rs, name, strlen(name));
}

bool rules_ignored(const struct ruleset *rs, const char *name)
{
	const struct rules_index *ix = rs->index;
	size_t i;

	if (!ix)
		return false;
	for (i = 0; i < ix->ignore.nr; i++)
		if (!fnmatch(ix->ignore.v[i], name, 0))
			return true;
	return false;
}

static bool match_any(const struct strvec *globs, const char *path)
{
	size_t i;

	for (i = 0; i < globs->nr; i++)
		if (!fnmatch(globs->v[i], path, 0))
			return true;
	return false;
}

bool rules_path_scanned(const struct ruleset *rs, const char *path)
{
	const struct rules_index *ix = rs->index;

	if (!ix)
		return true;
	if (match_any(&ix->skip, path))
		return false;
	return !ix->scan.nr || match_any(&ix->scan, path);
}

enum severity rules_severity(const struct ruleset *rs, const struct rule *r,
			     const char *path)
{
	size_t i;

	for (i = 0; path && i < rs->nr_overrides; i++)
		if (!fnmatch(rs->overrides[i].pattern, path, 0))
			return r->severity < rs->overrides[i].max ?
			       r->severity : rs->overrides[i].max;
	return r->severity;
}

/*
 * Expand {macro} and {replacement} in a family text.  The caller has
 * checked the template with check_template(), so every {word} is known.
 */
static char *expand(const char *tmpl, const char *macro, const char *repl)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = tmpl;

	if (!tmpl)
		return NULL;
	while (*p) {
		if (skip_prefix(p, "{macro}", &p)) {
			strbuf_addstr(&sb, macro);
		} else if (skip_prefix(p, "{replacement}", &p)) {
			strbuf_addstr(&sb, repl ? repl : "");
		} else {
			strbuf_addch(&sb, *p);
			p++;
		}
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * A placeholder is "{" lower-case letters "}"; anything else in braces is
 * text (suggestions quote C code: "if (...) { ... }").
 */
static int check_template(const struct ctx *c, const char *key,
			  const char *tmpl, bool *uses_repl)
{
	const char *p;

	if (!tmpl)		/* an optional key that is absent */
		return 0;
	for (p = tmpl; (p = strchr(p, '{')); p++) {
		size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz");

		if (!n || p[1 + n] != '}')
			continue;
		if (n == 5 && !strncmp(p + 1, "macro", 5))
			continue;
		if (n == 11 && !strncmp(p + 1, "replacement", 11)) {
			*uses_repl = true;
			continue;
		}
		return error_code(WW_EINPUT, "%s: %s: unknown placeholder '%.*s'",
				  c->file, key, (int)n + 2, p);
	}
	return 0;
}

static int bad(const struct ctx *c, const char *key, const char *what)
{
	return error_code(WW_EINPUT, "%s: %s: %s", c->file, key, what);
}

/* Every key of `obj` must be one of the NULL-terminated `known`. */
static int check_keys(const struct ctx *c, const char *where, json_t *obj,
		      const char *const *known)
{
	const char *key;
	json_t *val;

	json_object_foreach(obj, key, val) {
		const char *const *k;

		for (k = known; *k; k++)
			if (!strcmp(*k, key))
				break;
		if (!*k)
			return error_code(WW_EINPUT, "%s: %s%s%s: unknown key",
					  c->file, where, *where ? "." : "",
					  key);
	}
	return 0;
}

/* A string member: required (NULL is an error) or optional (NULL is fine). */
static int get_string(const struct ctx *c, const char *where, json_t *obj,
		      const char *name, bool required, const char **out)
{
	json_t *v = json_object_get(obj, name);
	char key[256];

	snprintf(key, sizeof(key), "%s%s%s", where, *where ? "." : "", name);
	*out = NULL;
	if (!v)
		return required ? bad(c, key, "missing") : 0;
	if (!json_is_string(v))
		return bad(c, key, "not a string");
	if (!*json_string_value(v))
		return bad(c, key, "empty");
	*out = json_string_value(v);
	return 0;
}

static void grow_of(struct ruleset *rs, struct rules_index *ix)
{
	/* Called after ALLOC_GROW(rs->rules...): keep room for the same. */
	if (rs->alloc > ix->alloc_of) {
		ix->alloc_of = rs->alloc;
		ix->fam_of = xrealloc(ix->fam_of,
				      ix->alloc_of * sizeof(*ix->fam_of));
		ix->origin_of = xrealloc(ix->origin_of,
					 ix->alloc_of * sizeof(*ix->origin_of));
	}
}

/* A new macro must be an identifier, not already a rule, not ignored. */
static int check_new_macro(const struct ctx *c, const char *key,
			   const char *name)
{
	const struct rule *old;

	if (!is_identifier(name))
		return error_code(WW_EINPUT, "%s: %s: '%s' is not a C identifier",
				  c->file, key, name);
	if (rules_ignored(c->rs, name))
		return error_code(WW_EINPUT,
				  "%s: %s: '%s' is listed as never flagged",
				  c->file, key, name);
	old = lookup_str(c->rs, name);
	if (old)
		return error_code(WW_EINPUT, "%s: %s: '%s' already defined in %s",
				  c->file, key, name,
				  c->ix->origins.v[c->ix->origin_of[old - c->rs->rules]]);
	return 0;
}

struct family_def {
	enum rule_class class;
	enum severity severity;
	const char *id, *section, *replacement;
	size_t fam;
};

static int add_macro(struct ctx *c, const struct family_def *fd,
		     const char *key, json_t *m, bool uses_repl)
{
	static const char *const keys[] = { "name", "replacement", "comment",
					    NULL };
	struct family *f = &c->ix->fams[fd->fam];
	const char *name, *repl = fd->replacement;
	struct rule *r;
	int ret;

	if (json_is_string(m)) {
		name = json_string_value(m);
	} else if (json_is_object(m)) {
		if ((ret = check_keys(c, key, m, keys)) < 0 ||
		    (ret = get_string(c, key, m, "name", true, &name)) < 0 ||
		    (ret = get_string(c, key, m, "replacement", false, &repl)) < 0)
			return ret;
		if (!repl)
			repl = fd->replacement;
	} else {
		return bad(c, key, "not a string or an object");
	}
	if ((ret = check_new_macro(c, key, name)) < 0)
		return ret;
	if (uses_repl && !repl)
		return error_code(WW_EINPUT,
				  "%s: %s: '%s' has no replacement for {replacement}",
				  c->file, key, name);
	if (repl && !is_identifier(repl))
		return error_code(WW_EINPUT, "%s: %s: replacement '%s' is not a C identifier",
				  c->file, key, repl);

	ALLOC_GROW(c->rs->rules, c->rs->nr + 1, c->rs->alloc);
	grow_of(c->rs, c->ix);
	r = &c->rs->rules[c->rs->nr];
	memset(r, 0, sizeof(*r));
	r->macro = xstrdup(name);
	r->class = fd->class;
	r->severity = fd->severity;
	r->id = xstrdup(fd->id);
	r->section = xstrdup(fd->section);
	r->replacement = repl ? xstrdup(repl) : NULL;
	r->message = expand(f->message, name, repl);
	r->suggest = expand(f->suggest, name, repl);
	r->credit = expand(f->credit, name, repl);
	c->ix->fam_of[c->rs->nr] = fd->fam;
	c->ix->origin_of[c->rs->nr] = c->origin;
	c->rs->nr++;
	/* Keep lookups (and the duplicate check above) current. */
	index_rebuild(c->rs);
	return 0;
}

static int load_family(struct ctx *c, size_t i, json_t *fam)
{
	static const char *const keys[] = {
		"id", "class", "severity", "section", "message", "suggest",
		"credit", "replacement", "macros", "comment", NULL
	};
	struct family_def fd = { 0 };
	const char *class, *sev, *message, *suggest, *credit;
	bool uses_repl = false;
	char where[64], key[128];
	struct family *f;
	json_t *macros, *m;
	size_t j;
	int ret;

	snprintf(where, sizeof(where), "families[%zu]", i);
	if (!json_is_object(fam))
		return bad(c, where, "not an object");
	if ((ret = check_keys(c, where, fam, keys)) < 0 ||
	    (ret = get_string(c, where, fam, "id", true, &fd.id)) < 0 ||
	    (ret = get_string(c, where, fam, "class", true, &class)) < 0 ||
	    (ret = get_string(c, where, fam, "severity", true, &sev)) < 0 ||
	    (ret = get_string(c, where, fam, "section", true, &fd.section)) < 0 ||
	    (ret = get_string(c, where, fam, "message", true, &message)) < 0 ||
	    (ret = get_string(c, where, fam, "suggest", true, &suggest)) < 0 ||
	    (ret = get_string(c, where, fam, "credit", true, &credit)) < 0 ||
	    (ret = get_string(c, where, fam, "replacement", false,
			      &fd.replacement)) < 0)
		return ret;
	snprintf(key, sizeof(key), "%s.class", where);
	if ((ret = rule_class_parse(&fd.class, class)) < 0)
		return error_prefix(ret, "%s: %s", c->file, key);
	snprintf(key, sizeof(key), "%s.severity", where);
	if ((ret = severity_parse(&fd.severity, sev)) < 0)
		return error_prefix(ret, "%s: %s", c->file, key);
	if (fd.severity == SEV_CREDIT)
		return bad(c, key, "'credit' is for removals, "
			   "not a severity for added calls");
	if (fd.replacement && !is_identifier(fd.replacement))
		return bad(c, where, "replacement is not a C identifier");
	snprintf(key, sizeof(key), "%s.message", where);
	if ((ret = check_template(c, key, message, &uses_repl)) < 0)
		return ret;
	snprintf(key, sizeof(key), "%s.suggest", where);
	if ((ret = check_template(c, key, suggest, &uses_repl)) < 0)
		return ret;
	snprintf(key, sizeof(key), "%s.credit", where);
	if ((ret = check_template(c, key, credit, &uses_repl)) < 0)
		return ret;

	snprintf(key, sizeof(key), "%s.macros", where);
	macros = json_object_get(fam, "macros");
	if (!macros)
		return bad(c, key, "missing");
	if (!json_is_array(macros) || !json_array_size(macros))
		return bad(c, key, "not a non-empty array");

	ALLOC_GROW(c->ix->fams, c->ix->nr_fams + 1, c->ix->alloc_fams);
	fd.fam = c->ix->nr_fams++;
	f = &c->ix->fams[fd.fam];
	f->message = xstrdup(message);
	f->suggest = xstrdup(suggest);
	f->credit = xstrdup(credit);

	json_array_foreach(macros, j, m) {
		snprintf(key, sizeof(key), "%s.macros[%zu]", where, j);
		if ((ret = add_macro(c, &fd, key, m, uses_repl)) < 0)
			return ret;
	}
	return 0;
}

/* An array of non-empty strings, appended to `out`. */
static int load_strings(const struct ctx *c, const char *key, json_t *arr,
			struct strvec *out)
{
	json_t *v;
	size_t i;

	if (!json_is_array(arr))
		return bad(c, key, "not an array");
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v) || !*json_string_value(v))
			return error_code(WW_EINPUT, "%s: %s[%zu]: not a non-empty string",
					  c->file, key, i);
		strvec_push(out, json_string_value(v));
	}
	return 0;
}

static int load_ignore(struct ctx *c, json_t *arr)
{
	static const char *const keys[] = { "names", "reason", "comment", NULL };
	char where[64], key[80];
	const char *reason;
	json_t *e;
	size_t i, j, first;
	int ret;

	if (!json_is_array(arr))
		return bad(c, "ignore", "not an array");
	json_array_foreach(arr, i, e) {
		snprintf(where, sizeof(where), "ignore[%zu]", i);
		if (!json_is_object(e))
			return bad(c, where, "not an object");
		snprintf(key, sizeof(key), "%s.names", where);
		first = c->ix->ignore.nr;
		if ((ret = check_keys(c, where, e, keys)) < 0 ||
		    (ret = get_string(c, where, e, "reason", true, &reason)) < 0)
			return ret;
		if (!json_object_get(e, "names"))
			return bad(c, key, "missing");
		if ((ret = load_strings(c, key, json_object_get(e, "names"),
					&c->ix->ignore)) < 0)
			return ret;
		/* A name both flagged and never flagged is a contradiction. */
		for (j = 0; j < c->rs->nr; j++) {
			const char *m = c->rs->rules[j].macro;
			size_t k;

			for (k = first; k < c->ix->ignore.nr; k++)
				if (!fnmatch(c->ix->ignore.v[k], m, 0))
					return error_code(WW_EINPUT,
							  "%s: %s: '%s' ignores '%s', a rule in %s",
							  c->file, key,
							  c->ix->ignore.v[k], m,
							  c->ix->origins.v[c->ix->origin_of[j]]);
		}
	}
	return 0;
}

static int load_overrides(struct ctx *c, json_t *arr)
{
	static const char *const keys[] = { "pattern", "max", "reason",
					    "comment", NULL };
	char where[64], key[80];
	const char *pattern, *max, *reason;
	enum severity sev = SEV_INFO;
	json_t *e;
	size_t i;
	int ret;

	if (!json_is_array(arr))
		return bad(c, "paths.overrides", "not an array");
	json_array_foreach(arr, i, e) {
		snprintf(where, sizeof(where), "paths.overrides[%zu]", i);
		if (!json_is_object(e))
			return bad(c, where, "not an object");
		if ((ret = check_keys(c, where, e, keys)) < 0 ||
		    (ret = get_string(c, where, e, "pattern", true, &pattern)) < 0 ||
		    (ret = get_string(c, where, e, "max", true, &max)) < 0 ||
		    (ret = get_string(c, where, e, "reason", true, &reason)) < 0)
			return ret;
		snprintf(key, sizeof(key), "%s.max", where);
		if ((ret = severity_parse(&sev, max)) < 0)
			return error_prefix(ret, "%s: %s", c->file, key);
		ALLOC_GROW(c->rs->overrides, c->rs->nr_overrides + 1,
			   c->rs->alloc_overrides);
		c->rs->overrides[c->rs->nr_overrides].pattern = xstrdup(pattern);
		c->rs->overrides[c->rs->nr_overrides].max = sev;
		c->rs->nr_overrides++;
	}
	return 0;
}

static int load_paths(struct ctx *c, json_t *paths)
{
	static const char *const keys[] = { "scan", "skip", "overrides",
					    "comment", NULL };
	json_t *v;
	int ret;

	if (!json_is_object(paths))
		return bad(c, "paths", "not an object");
	if ((ret = check_keys(c, "paths", paths, keys)) < 0)
		return ret;
	if ((v = json_object_get(paths, "scan")) &&
	    (ret = load_strings(c, "paths.scan", v, &c->ix->scan)) < 0)
		return ret;
	if ((v = json_object_get(paths, "skip")) &&
	    (ret = load_strings(c, "paths.skip", v, &c->ix->skip)) < 0)
		return ret;
	if ((v = json_object_get(paths, "overrides")) &&
	    (ret = load_overrides(c, v)) < 0)
		return ret;
	return 0;
}

static int load_guidance(struct ctx *c, json_t *g)
{
	static const char *const keys[] = { "file", "chapter", "comment", NULL };
	const char *file, *chapter;
	int ret;

	if (!json_is_object(g))
		return bad(c, "guidance", "not an object");
	if ((ret = check_keys(c, "guidance", g, keys)) < 0 ||
	    (ret = get_string(c, "guidance", g, "file", true, &file)) < 0 ||
	    (ret = get_string(c, "guidance", g, "chapter", false, &chapter)) < 0)
		return ret;
	if (c->ix->guidance_origin)
		return error_code(WW_EINPUT, "%s: guidance: already set in %s",
				  c->file, c->ix->guidance_origin);
	c->rs->guidance_file = xstrdup(file);
	c->ix->guidance_origin = xstrdup(c->file);
	return 0;
}

static int load_doc(struct ctx *c, json_t *doc)
{
	/* "review" is the reply's advice (advice.h), not rules of check. */
	static const char *const keys[] = { "guidance", "families", "ignore",
					    "paths", "comment", "review", NULL };
	json_t *v;
	size_t i;
	int ret;

	if (!json_is_object(doc))
		return error_code(WW_EINPUT, "%s: not a JSON object", c->file);
	if ((ret = check_keys(c, "", doc, keys)) < 0)
		return ret;
	/* Ignore lists first, so that families are checked against them. */
	if ((v = json_object_get(doc, "ignore")) && (ret = load_ignore(c, v)) < 0)
		return ret;
	if ((v = json_object_get(doc, "guidance")) &&
	    (ret = load_guidance(c, v)) < 0)
		return ret;
	if ((v = json_object_get(doc, "paths")) && (ret = load_paths(c, v)) < 0)
		return ret;
	if ((v = json_object_get(doc, "families"))) {
		json_t *fam;

		if (!json_is_array(v))
			return bad(c, "families", "not an array");
		json_array_foreach(v, i, fam)
			if ((ret = load_family(c, i, fam)) < 0)
				return ret;
	}
	return 0;
}

/* rules_own_part(): set once in main(), before any thread starts. */
static struct {
	const char *key;
	rules_part_fn *fn;
} owned_part;

void rules_own_part(const char *key, rules_part_fn *fn)
{
	owned_part.key = key;
	owned_part.fn = fn;
}

int rules_load_buf(struct ruleset *out, const char *buf, size_t len,
		   const char *name)
{
	struct ctx c = { out, index_of(out), name, 0 };
	json_error_t jerr;
	json_t *doc;
	int ret;

	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc)
		return error_code(WW_EINPUT, "%s:%d:%d: %s", name, jerr.line,
				  jerr.column, jerr.text);
	c.origin = c.ix->origins.nr;
	strvec_push(&c.ix->origins, name);
	ret = load_doc(&c, doc);
	/* The part a floor above owns (the reply's advice) is checked here
	 * too, so that `check` and a rules change fail on it, naming the file. */
	if (!ret && owned_part.fn && json_is_object(doc) &&
	    json_object_get(doc, owned_part.key))
		ret = owned_part.fn(buf, len, name);
	json_decref(doc);
	return ret;
}

int rules_load(struct ruleset *out, const char *dir)
{
	struct strvec names = STRVEC_INIT;
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	size_t i;
	int ret = 0;

	d = opendir(dir);
	if (!d)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot open rules directory '%s': %s", dir,
				  strerror(errno));
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && ends_with(de->d_name, ".json"))
			strvec_push(&names, de->d_name);
	closedir(d);
	if (!names.nr) {
		ret = error_code(WW_ENOTFOUND, "no rule files (*.json) in '%s'",
				 dir);
		goto out;
	}
	strvec_sort(&names);
	for (i = 0; i < names.nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, names.v[i]);
		strbuf_reset(&buf);
		if ((ret = strbuf_read_file(&buf, path.buf, RULES_FILE_MAX)) < 0)
			goto out;
		if ((ret = rules_load_buf(out, buf.buf, buf.len, path.buf)) < 0)
			goto out;
	}
out:
	strbuf_release(&buf);
	strbuf_release(&path);
	strvec_clear(&names);
	return ret;
}

int rules_add_wrapper(struct ruleset *rs, const char *macro,
		      const struct rule *like)
{
	struct rules_index *ix = index_of(rs);
	size_t li = like - rs->rules;
	struct family *f;
	struct strbuf msg = STRBUF_INIT;
	char *base;
	struct rule *r;

	if (!is_identifier(macro))
		return error_code(WW_EINPUT, "wrapper '%s' is not a C identifier",
				  macro);
	if (lookup_str(rs, macro) || rules_ignored(rs, macro))
		return 1;
	if (li >= rs->nr)
		BUG("rules_add_wrapper: 'like' is not a rule of this ruleset");

	/* Growing may move `like`: use its index from here on. */
	ALLOC_GROW(rs->rules, rs->nr + 1, rs->alloc);
	grow_of(rs, ix);
	like = &rs->rules[li];
	f = &ix->fams[ix->fam_of[li]];
	r = &rs->rules[rs->nr];
	memset(r, 0, sizeof(*r));
	r->macro = xstrdup(macro);
	r->class = like->class;
	r->severity = like->severity;
	r->id = xstrdup(like->id);
	r->section = xstrdup(like->section);
	r->replacement = like->replacement ? xstrdup(like->replacement) : NULL;
	r->wraps = xstrdup(like->macro);
	base = expand(f->message, macro, like->replacement);
	strbuf_addf(&msg, "%s (%s() wraps %s())", base, macro, like->macro);
	free(base);
	r->message = strbuf_detach(&msg, NULL);
	r->suggest = expand(f->suggest, macro, like->replacement);
	r->credit = expand(f->credit, macro, like->replacement);
	ix->fam_of[rs->nr] = ix->fam_of[li];
	ix->origin_of[rs->nr] = ix->origin_of[li];
	rs->nr++;
	index_rebuild(rs);
	return 0;
}

const char *rules_default_dir(void)
{
	static char buf[PATH_MAX + 16];
	const char *env = env_get(ENV_WARNWATCH_RULES);

	/* $WARNWATCH_RULES is the rules directory itself. */
	if (env && *env)
		return env;
	return datadir_find(buf, sizeof(buf), "rules", ENV_NONE, NULL);
}

static void rule_release(struct rule *r)
{
	free(r->macro);
	free(r->id);
	free(r->message);
	free(r->section);
	free(r->suggest);
	free(r->wraps);
	free(r->credit);
	free(r->replacement);
}

void ruleset_release(struct ruleset *rs)
{
	struct rules_index *ix = rs->index;
	size_t i;

	for (i = 0; i < rs->nr; i++)
		rule_release(&rs->rules[i]);
	free(rs->rules);
	for (i = 0; i < rs->nr_overrides; i++)
		free(rs->overrides[i].pattern);
	free(rs->overrides);
	free(rs->guidance_file);
	free(rs->wrappers_tree);
	if (ix) {
		for (i = 0; i < ix->nr_fams; i++) {
			free(ix->fams[i].message);
			free(ix->fams[i].suggest);
			free(ix->fams[i].credit);
		}
		free(ix->fams);
		free(ix->slots);
		free(ix->fam_of);
		free(ix->origin_of);
		strvec_clear(&ix->origins);
		strvec_clear(&ix->ignore);
		strvec_clear(&ix->scan);
		strvec_clear(&ix->skip);
		free(ix->guidance_origin);
		free(ix);
	}
	memset(rs, 0, sizeof(*rs));
}
