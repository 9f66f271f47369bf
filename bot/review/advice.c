/*
 * The reviewer's advice on added BUG/WARN calls, read from the "review"
 * object of rules/advice.json.  The matchers are small and literal: they
 * look at the call's condition and at a few lines of the hunk around it,
 * the way a reviewer skims a patch; what to say is all in the data.
 */
#include "advice.h"
#include "rewrite.h"
#include "safefs.h"

#include <ctype.h>
#include <jansson.h>

#define ADVICE_FILE_MAX (256 * 1024)
#define CONTEXT_BEFORE 6	/* hunk lines looked at above the call */
#define CONTEXT_AFTER 3		/* ... and below it */
/* Below a NULL test, the lines looked at for a dereference: as far as a
 * reader of the hunk sees "a few lines below" (linux-rdma/0025: ten). */
#define DEREF_AFTER 10
/* Above it, the lines looked at for one: as many as check's window of
 * the hunk holds (CHECK_HUNK_CONTEXT; linux-wireless/0008: seven up). */
#define DEREF_BEFORE CHECK_HUNK_CONTEXT

static const char *const match_names[AM__NR] = {
	[AM_ON_DISK] = "on-disk",
	[AM_USER_INPUT] = "user-input",
	[AM_LOCK_HELD] = "lock-held",
	[AM_REFCOUNT] = "refcount",
	[AM_AFTER_ALLOC] = "after-alloc",
	[AM_DEREF_AFTER] = "deref-after",
	[AM_OR_CONDITIONS] = "or-conditions",
	[AM_BARE_STATEMENT] = "bare-statement",
	[AM_IMPOSSIBLE] = "impossible",
	[AM_DUP_IF] = "dup-if",
	[AM_PATH] = "path",
	[AM_FOLD_IF] = "fold-if",
	[AM_UNLIKELY] = "unlikely",
	[AM_CARRIES_ON] = "carries-on",
	[AM_REFCOUNT_DEC] = "refcount-dec",
	[AM_HAND_REFCOUNT] = "hand-refcount",
	[AM_DEBUGFS] = "debugfs",
	[AM_TEST_CALL] = "test-call",
	[AM_DEREF_BEFORE] = "deref-before",
	[AM_BUILD_TIME] = "build-time",
};

/* ---- loading ------------------------------------------------------------ */

static int bad(const char *name, const char *where, const char *what)
{
	return error_code(WW_EINPUT, "%s: review.%s: %s", name, where, what);
}

/* Keys of `obj` not in `known`: the first one is an error naming it. */
static int known_keys(json_t *obj, const char *const *known, const char *name,
		      const char *where)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		const char *const *k = known;

		while (*k && strcmp(*k, key))
			k++;
		if (!*k)
			return error_code(WW_EINPUT, "%s: review%s%s.%s: unknown key", name,
					  *where ? "." : "", where, key);
	}
	return 0;
}

/* A text's {placeholders} are ones the reply fills. */
static int known_placeholders(const char *text, const char *name, const char *where)
{
	static const char *const keys[] = { "macro", "function", "cond", "ret", "repl",
					    "arg", "fs", NULL };

	for (const char *p = text ? strchr(text, '{') : NULL; p; p = strchr(p + 1, '{')) {
		size_t n = strcspn(p + 1, "}:\n");
		const char *const *k = keys;

		/* C braces ("{\n", "{ ") are code, not placeholders. */
		if (!n || p[1 + n] == '\n' || !p[1 + n] || memchr(p + 1, ' ', n))
			continue;
		if (p[1 + n] == ':' && !strncmp(p + 1, "ret", n) && n == 3) {
			if (p[5] != '-' || p[6] != 'E')
				return error_code(WW_EINPUT, "%s: review.%s: {ret:...} takes an "
						  "errno such as -EINVAL", name, where);
			continue;
		}
		/* {leave:YES|NO}: YES only where leaving is known to be right;
		 * {fail:ERR|LEAVE|NO}: ERR only where an error return is. */
		if (p[1 + n] == ':' && ((n == 5 && !strncmp(p + 1, "leave", n)) ||
					(n == 4 && !strncmp(p + 1, "fail", n))))
			continue;
		while (*k && (strlen(*k) != n || strncmp(*k, p + 1, n)))
			k++;
		if (!*k)
			return error_code(WW_EINPUT, "%s: review.%s: unknown placeholder {%.*s}",
					  name, where, (int)n, p + 1);
	}
	return 0;
}

static int get_strs(struct strvec *out, json_t *arr, const char *name, const char *where)
{
	json_t *v;
	size_t i;

	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return bad(name, where, "not an array of strings");
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			return bad(name, where, "not an array of strings");
		strvec_push(out, json_string_value(v));
	}
	return 0;
}

static char *opt_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

/* AM_TEST_CALL's "calls" (required there, refused elsewhere) and "negated". */
static int load_test_call(struct advice_entry *ae, json_t *e, const char *name,
			  const char *where)
{
	json_t *neg = json_object_get(e, "negated");
	int ret = get_strs(&ae->calls, json_object_get(e, "calls"), name, where);

	if (ret)
		return ret;
	if ((ae->match == AM_TEST_CALL) != !!ae->calls.nr)
		return bad(name, where, "\"calls\" goes with \"match\": \"test-call\", and it needs them");
	if (neg && !json_is_boolean(neg))
		return bad(name, where, "\"negated\" is not true or false");
	ae->negated = neg ? json_is_true(neg) : -1;
	return 0;
}

/* "holds": [{"file": "include/linux/x.h", "text": "..."}, ...] */
static int load_holds(struct advice_entry *ae, json_t *arr, const char *name,
		      const char *where)
{
	json_t *v;
	size_t i;

	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return bad(name, where, "\"holds\" is not an array");
	json_array_foreach(arr, i, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		const char *text = json_string_value(json_object_get(v, "text"));

		if (!file || !text || !*text || file[0] == '/' || strstr(file, ".."))
			return bad(name, where, "each of \"holds\" needs a relative \"file\" and a \"text\"");
		strvec_push(&ae->hold_files, file);
		strvec_push(&ae->hold_texts, text);
	}
	return 0;
}

static int load_entry(struct advice *a, json_t *e, const char *name, size_t i)
{
	struct advice_entry *ae;
	struct strbuf where = STRBUF_INIT;
	const char *m;
	json_t *cl, *v;
	size_t k;
	int ret = 0;

	static const char *const keys[] = { "id", "match", "classes", "say", "again",
					    "rewrite", "replaces", "paths", "speaks", "from",
					    "calls", "negated", "holds", "comment", NULL };
	static const char *const texts[] = { "say", "again", "rewrite", NULL };

	strbuf_addf(&where, "advice[%zu]", i);
	m = json_string_value(json_object_get(e, "match"));
	if (!json_is_object(e) || !m || !json_is_string(json_object_get(e, "id")) ||
	    !json_is_string(json_object_get(e, "say"))) {
		ret = bad(name, where.buf, "needs \"id\", \"match\" and \"say\" strings");
		goto out;
	}
	if ((ret = known_keys(e, keys, name, where.buf)))
		goto out;
	for (const char *const *t = texts; *t; t++) {
		v = json_object_get(e, *t);
		if (v && !json_is_string(v)) {
			ret = error_code(WW_EINPUT, "%s: review.%s.%s: not a string", name,
					 where.buf, *t);
			goto out;
		}
		if (v && (ret = known_placeholders(json_string_value(v), name, where.buf)))
			goto out;
	}
	ALLOC_GROW(a->v, a->nr + 1, a->alloc);
	ae = &a->v[a->nr];
	memset(ae, 0, sizeof(*ae));
	strvec_init(&ae->replaces);
	strvec_init(&ae->paths);
	strvec_init(&ae->calls);
	strvec_init(&ae->hold_files);
	strvec_init(&ae->hold_texts);
	for (k = 0; k < AM__NR && strcmp(match_names[k], m); k++)
		;
	if (k == AM__NR) {
		ret = bad(name, where.buf, "unknown \"match\"");
		goto out;
	}
	ae->match = k;
	ae->id = opt_str(e, "id");
	ae->say = opt_str(e, "say");
	ae->again = opt_str(e, "again");
	ae->rewrite = opt_str(e, "rewrite");
	ae->speaks = json_is_true(json_object_get(e, "speaks"));
	a->nr++;
	v = json_object_get(e, "speaks");
	if (v && !json_is_boolean(v)) {
		ret = bad(name, where.buf, "\"speaks\" is not true or false");
		goto out;
	}
	cl = json_object_get(e, "classes");
	if (!cl) {
		ae->classes = ~0u;
	} else if (!json_is_array(cl)) {
		ret = bad(name, where.buf, "\"classes\" is not an array of class names");
		goto out;
	} else {
		json_array_foreach(cl, k, v) {
			enum rule_class c;

			if (!json_is_string(v) || rule_class_parse(&c, json_string_value(v))) {
				ret = bad(name, where.buf, "bad \"classes\"");
				goto out;
			}
			ae->classes |= 1u << c;
		}
	}
	ret = get_strs(&ae->replaces, json_object_get(e, "replaces"), name, where.buf);
	if (!ret)
		ret = get_strs(&ae->paths, json_object_get(e, "paths"), name, where.buf);
	if (!ret && ae->match == AM_PATH && !ae->paths.nr)
		ret = bad(name, where.buf, "\"match\": \"path\" needs \"paths\"");
	if (!ret)
		ret = load_test_call(ae, e, name, where.buf);
	if (!ret)
		ret = load_holds(ae, json_object_get(e, "holds"), name, where.buf);
out:
	strbuf_release(&where);
	return ret;
}

static int load_fs(struct advice *a, json_t *e, const char *name)
{
	static const char *const keys[] = { "path", "name", "rewrite", "markers", "comment",
					    NULL };
	struct advice_fs *fs;
	json_t *n;
	int ret;

	if (!json_is_object(e) || !json_is_string(json_object_get(e, "path")) ||
	    !json_is_string(json_object_get(e, "rewrite")))
		return bad(name, "filesystems", "each needs \"path\" and \"rewrite\"");
	n = json_object_get(e, "name");
	if (n && !json_is_string(n))
		return bad(name, "filesystems", "\"name\" is not a string");
	if ((ret = known_keys(e, keys, name, "filesystems")) ||
	    (ret = known_placeholders(json_string_value(json_object_get(e, "rewrite")),
				      name, "filesystems")))
		return ret;
	ALLOC_GROW(a->fs, a->nr_fs + 1, a->alloc_fs);
	fs = &a->fs[a->nr_fs++];
	fs->path = opt_str(e, "path");
	fs->name = opt_str(e, "name");
	fs->rewrite = opt_str(e, "rewrite");
	strvec_init(&fs->markers);
	return get_strs(&fs->markers, json_object_get(e, "markers"), name, "filesystems");
}

/* The review object's keys, and the type of each that is not a list of strings. */
static int check_shapes(json_t *r, const char *name)
{
	static const char *const top_keys[] = { "comment", "explain", "guide_intro", "guide",
		"guide_also", "unlocks", "advice", "filesystems", "user_entry_suffixes",
		"user_entry_prefixes", "user_markers", "alloc_calls", "lock_tests",
		"refcount_markers", "conversions", NULL };
	static const char *const object_keys[] = { "explain", "guide", "guide_also", NULL };
	static const char *const array_keys[] = { "unlocks", "advice", "filesystems",
		"conversions", NULL };
	json_t *v;
	int ret = known_keys(r, top_keys, name, "");

	if (ret)
		return ret;
	for (const char *const *k = object_keys; *k; k++)
		if ((v = json_object_get(r, *k)) && !json_is_object(v))
			return bad(name, *k, "not an object");
	for (const char *const *k = array_keys; *k; k++)
		if ((v = json_object_get(r, *k)) && !json_is_array(v))
			return bad(name, *k, "not an array");
	if ((v = json_object_get(r, "guide_intro")) && !json_is_string(v))
		return bad(name, "guide_intro", "not a string");
	return 0;
}

/* Per class: its paragraph (explain), the guide's sentences and one more section. */
static int load_classes(struct advice *a, json_t *r, const char *name)
{
	const char *key;
	json_t *e;
	int ret;

	json_object_foreach(json_object_get(r, "explain"), key, e) {
		enum rule_class c;

		if (rule_class_parse(&c, key) || !json_is_string(e))
			return bad(name, "explain", "keys are classes, values strings");
		if ((ret = known_placeholders(json_string_value(e), name, "explain")))
			return ret;
		free(a->explain[c]);
		a->explain[c] = xstrdup(json_string_value(e));
	}
	json_object_foreach(json_object_get(r, "guide"), key, e) {
		enum rule_class c;

		if (rule_class_parse(&c, key))
			return bad(name, "guide", "keys are classes");
		if ((ret = get_strs(&a->guide[c], e, name, "guide")))
			return ret;
	}
	json_object_foreach(json_object_get(r, "guide_also"), key, e) {
		enum rule_class c;
		const char *sec;
		json_t *starts;

		if (rule_class_parse(&c, key) || !json_is_object(e) || json_object_size(e) != 1)
			return bad(name, "guide_also", "keys are classes, each with one "
				   "{\"section heading\": [sentence starts]}");
		json_object_foreach(e, sec, starts) {
			free(a->also_section[c]);
			a->also_section[c] = xstrdup(sec);
			if ((ret = get_strs(&a->also[c], starts, name, "guide_also")))
				return ret;
		}
	}
	return 0;
}

/* "replaces" names "explain" or an entry: a typo would silently say both. */
static int check_replaces(const struct advice *a, const char *name)
{
	for (size_t i = 0; i < a->nr; i++)
		for (size_t k = 0; k < a->v[i].replaces.nr; k++) {
			const char *id = a->v[i].replaces.v[k];
			bool found = !strcmp(id, "explain");

			for (size_t j = 0; j < a->nr && !found; j++)
				found = !strcmp(a->v[j].id, id);
			if (!found)
				return error_code(WW_EINPUT, "%s: review.advice[%zu].replaces: no "
						  "entry '%s'", name, i, id);
		}
	return 0;
}

/* "conversions": [{"class", "when": "always"|"speaks"}], which new calls
 * of in-patch conversions get a comment besides the thanks. */
static int load_conversions(struct advice *a, json_t *r, const char *name)
{
	static const char *const keys[] = { "class", "when", "from", "comment", NULL };
	json_t *e;
	size_t i;
	int ret;

	json_array_foreach(json_object_get(r, "conversions"), i, e) {
		/* json_object_get() of a non-object is NULL: refused below. */
		const char *cls = json_string_value(json_object_get(e, "class"));
		const char *when = json_string_value(json_object_get(e, "when"));
		enum rule_class c;

		if (!cls || rule_class_parse(&c, cls) || !when ||
		    (strcmp(when, "always") && strcmp(when, "speaks")))
			return bad(name, "conversions", "each needs a known \"class\" and "
				   "\"when\": \"always\" or \"speaks\"");
		if ((ret = known_keys(e, keys, name, "conversions")))
			return ret;
		if (!strcmp(when, "always"))
			a->conv_always[c] = true;
		else
			a->conv_speaks[c] = true;
	}
	return 0;
}

/* The lists of names the facts are read with. */
static int load_names(struct advice *a, json_t *r, const char *name)
{
	const struct { const char *key; struct strvec *to; } lists[] = {
		{ "user_entry_suffixes", &a->user_suffixes },
		{ "user_entry_prefixes", &a->user_prefixes },
		{ "user_markers", &a->user_markers },
		{ "alloc_calls", &a->alloc_calls },
		{ "lock_tests", &a->lock_tests },
		{ "refcount_markers", &a->refcount_markers },
	};
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(lists) && !ret; i++)
		ret = get_strs(lists[i].to, json_object_get(r, lists[i].key), name, lists[i].key);
	return ret;
}

int advice_load_buf(struct advice *a, const char *buf, size_t len, const char *name)
{
	json_error_t jerr;
	json_t *doc, *r, *e;
	size_t i;
	int ret = 0;

	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc)
		return error_code(WW_EINPUT, "%s:%d:%d: %s", name, jerr.line, jerr.column, jerr.text);
	r = json_object_get(doc, "review");
	if (!json_is_object(r)) {
		ret = error_code(WW_EINPUT, "%s: no \"review\" object", name);
		goto out;
	}
	if ((ret = check_shapes(r, name)) || (ret = load_classes(a, r, name)))
		goto out;
	json_array_foreach(json_object_get(r, "unlocks"), i, e) {
		json_t *l = json_array_get(e, 0), *u = json_array_get(e, 1);

		if (!json_is_string(l) || !json_is_string(u)) {
			ret = bad(name, "unlocks", "pairs of strings");
			goto out;
		}
		strvec_push(&a->locks, json_string_value(l));
		strvec_push(&a->unlocks, json_string_value(u));
	}
	a->guide_intro = opt_str(r, "guide_intro");
	json_array_foreach(json_object_get(r, "advice"), i, e)
		if ((ret = load_entry(a, e, name, i)))
			goto out;
	if ((ret = check_replaces(a, name)))
		goto out;
	json_array_foreach(json_object_get(r, "filesystems"), i, e)
		if ((ret = load_fs(a, e, name)))
			goto out;
	if ((ret = load_conversions(a, r, name)))
		goto out;
	ret = load_names(a, r, name);
out:
	json_decref(doc);
	return ret;
}

int advice_load(struct advice *out, const char *dir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", dir, ADVICE_FILE);
	ret = strbuf_read_file(&buf, path.buf, ADVICE_FILE_MAX);
	if (!ret)
		ret = advice_load_buf(out, buf.buf, buf.len, path.buf);
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

/* A header advice_hold() read from the tree: several entries' "holds"
 * name the same one (lockdep.h, preempt.h), read once. */
struct held_file {
	const char *rel;
	struct strbuf text;
	bool ok;
};

/* A kernel header is well under 1 MiB; a bigger or unreadable file counts
 * as not holding. */
#define HOLD_CAP (1u << 20)
static const struct held_file *held(struct held_file **v, size_t *nr, size_t *alloc,
				    const char *tree, const char *rel)
{
	struct held_file *h;

	for (size_t i = 0; i < *nr; i++)
		if (!strcmp((*v)[i].rel, rel))
			return &(*v)[i];
	ALLOC_GROW(*v, *nr + 1, *alloc);
	h = &(*v)[(*nr)++];
	h->rel = rel;
	strbuf_init(&h->text, 0);
	h->ok = !safefs_read(&h->text, tree, rel, HOLD_CAP + 1, 0) && h->text.len <= HOLD_CAP;
	error_clear();
	return h;
}

void advice_hold(struct advice *a, const char *tree)
{
	struct held_file *files = NULL;
	size_t nr = 0, alloc = 0;

	if (!a || !tree || !*tree)
		return;
	for (size_t i = 0; i < a->nr; i++) {
		struct advice_entry *e = &a->v[i];

		for (size_t k = 0; !e->off && k < e->hold_files.nr; k++) {
			const struct held_file *f = held(&files, &nr, &alloc, tree,
							 e->hold_files.v[k]);

			e->off = !f->ok || !strstr(f->text.buf, e->hold_texts.v[k]);
		}
	}
	for (size_t i = 0; i < nr; i++)
		strbuf_release(&files[i].text);
	free(files);
}

void advice_release(struct advice *a)
{
	for (size_t i = 0; i < RC__NR; i++) {
		free(a->explain[i]);
		strvec_clear(&a->guide[i]);
		free(a->also_section[i]);
		strvec_clear(&a->also[i]);
	}
	for (size_t i = 0; i < a->nr; i++) {
		free(a->v[i].id);
		free(a->v[i].say);
		free(a->v[i].again);
		free(a->v[i].rewrite);
		strvec_clear(&a->v[i].replaces);
		strvec_clear(&a->v[i].paths);
		strvec_clear(&a->v[i].calls);
		strvec_clear(&a->v[i].hold_files);
		strvec_clear(&a->v[i].hold_texts);
	}
	free(a->v);
	for (size_t i = 0; i < a->nr_fs; i++) {
		free(a->fs[i].path);
		free(a->fs[i].name);
		free(a->fs[i].rewrite);
		strvec_clear(&a->fs[i].markers);
	}
	free(a->fs);
	strvec_clear(&a->user_suffixes);
	strvec_clear(&a->user_prefixes);
	strvec_clear(&a->user_markers);
	strvec_clear(&a->alloc_calls);
	strvec_clear(&a->lock_tests);
	strvec_clear(&a->refcount_markers);
	strvec_clear(&a->locks);
	strvec_clear(&a->unlocks);
	free(a->guide_intro);
	memset(a, 0, sizeof(*a));
}

/* ---- matching ----------------------------------------------------------- */

bool advice_call_args(struct strbuf *out, const char *source)
{
	const char *open = source ? strchr(source, '(') : NULL, *close;

	if (!open || !(close = strrchr(open, ')')))
		return false;
	strbuf_add(out, open + 1, close - open - 1);
	strbuf_trim(out);
	return true;
}

bool advice_user_entry(const struct advice *a, const char *fn)
{
	if (!fn || !*fn)
		return false;
	for (size_t i = 0; i < a->user_prefixes.nr; i++)
		if (starts_with(fn, a->user_prefixes.v[i]))
			return true;
	for (size_t i = 0; i < a->user_suffixes.nr; i++)
		if (ends_with(fn, a->user_suffixes.v[i]))
			return true;
	return false;
}

/* The hunk's lines (with their +/-/space), the call at `*at`. */
static void split_hunk(struct strvec *out, const struct finding *f)
{
	for (const char *p = f->hunk ? f->hunk : ""; *p;) {
		size_t n = strcspn(p, "\n");

		strvec_pushf(out, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static bool has_any(const char *text, const struct strvec *v)
{
	for (size_t i = 0; i < v->nr; i++)
		if (strstr(text, v->v[i]))
			return true;
	return false;
}

/* "!p" or "p == NULL" or "NULL == p": the pointer, else false. */
static bool null_test(struct strbuf *out, const char *cond)
{
	const char *p = cond;
	size_t n;

	if (*p == '!') {
		p++;
		n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_->.");
		if (!n || p[n])
			return false;
		strbuf_add(out, p, n);
		return true;
	}
	n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_->.");
	if (n && !strcmp(p + n, " == NULL")) {
		strbuf_add(out, p, n);
		return true;
	}
	return false;
}

static bool top_level_or(const char *cond)
{
	int depth = 0;

	for (const char *p = cond; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (!depth && p[0] == '|' && p[1] == '|')
			return true;
	}
	return false;
}

/* The statement form: the added line is `MACRO(...);` itself. */
static bool is_statement(const struct finding *f, const struct strvec *lines)
{
	const char *l;
	size_t n = strlen(f->rule->macro);

	if ((size_t)f->hunk_line >= lines->nr)
		return false;
	l = lines->v[f->hunk_line] + 1;
	l += strspn(l, " \t");
	return !strncmp(l, f->rule->macro, n) && l[n] == '(';
}

/* The filesystem entry for `f`'s file, or NULL. */
static const struct advice_fs *fs_of(const struct advice *a, const struct finding *f)
{
	for (size_t i = 0; i < a->nr_fs; i++)
		if (starts_with(f->file, a->fs[i].path))
			return &a->fs[i];
	return NULL;
}

static bool evidence(struct advice_hit *h, const char *fact, const char *what)
{
	h->fact = fact;
	h->evidence = xstrdup(what ? what : "");
	return true;
}

/*
 * A name of condition `cond` that the hunk's lines after the call use
 * (the state the call reported, used anyway), into `out`.
 */
static bool used_after(struct strbuf *out, const struct finding *f,
		       const struct strvec *lines, const char *cond)
{
	static const char id[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
	size_t after = f->hunk_line + (f->source_lines > 0 ? f->source_lines : 1);
	struct strbuf tok = STRBUF_INIT;
	bool used = false;

	for (const char *p = cond ? cond : ""; *p && !used;) {
		size_t n = strspn(p, id);

		/* A name, not a number or a member after "." / "->". */
		if (!n || isdigit((unsigned char)*p) || (p > cond && (p[-1] == '.' || p[-1] == '>'))) {
			p += n ? n : 1;
			continue;
		}
		strbuf_reset(&tok);
		strbuf_add(&tok, p, n);
		for (size_t i = after; i < lines->nr && i < after + CONTEXT_AFTER && !used; i++) {
			const char *l = lines->v[i] + 1;

			if (lines->v[i][0] == '-')
				continue;
			for (const char *at = strstr(l, tok.buf); at && !used; at = strstr(at + 1, tok.buf))
				used = !strchr(id, at[n]) && (at == l || !strchr(id, at[-1]));
		}
		p += n;
	}
	if (used)
		strbuf_addbuf(out, &tok);
	strbuf_release(&tok);
	return used;
}

/* The function has a way to leave on failure: its own exit, or an error value. */
static bool has_way_out(const struct cfacts *cf)
{
	/* A lock held and no exit of the function's own that drops it,
	 * or a loop whose later iterations a way out would skip. */
	if (!rewrite_may_leave(cf))
		return false;
	return cf->exit || cf->ret == CF_RET_INT || cf->ret == CF_RET_BOOL ||
	       cf->ret == CF_RET_PTR || cf->ret == CF_RET_ERR_PTR;
}

/* On-disk data, user input, ...: facts only the tree after the patch gives. */
static bool match_fact(struct advice_hit *h, const struct advice_entry *e,
		       const struct advice *a, const struct finding *f,
		       const struct strvec *lines, const char *cond, const struct cfacts *cf)
{
	struct strbuf sb = STRBUF_INIT, ev = STRBUF_INIT;

	switch (e->match) {
	case AM_ON_DISK:
		h->fs = cf->disk ? fs_of(a, f) : NULL;
		if (!h->fs)
			return false;
		h->arg = xstrdup(cf->disk);
		return evidence(h, "disk", cf->disk);
	case AM_USER_INPUT:
		if (!cf->user)
			return false;
		h->arg = xstrdup(cf->user);
		return evidence(h, "user", cf->user);
	case AM_IMPOSSIBLE:
		if (!cf->impossible)
			return false;
		h->arg = xstrdup(cf->impossible);
		return evidence(h, "impossible", cf->impossible);
	case AM_DUP_IF:
		return cf->dup_if && evidence(h, "dup_if", cf->cond);
	case AM_BARE_STATEMENT:
		/* Bail-out advice only when code follows that uses the state. */
		if (!is_statement(f, lines) || !cf->follows || cf->recovers || cf->assertion ||
		    !has_way_out(cf) || !used_after(&sb, f, lines, cond))
			return false;
		strbuf_addstr(&ev, "the next lines use ");
		strbuf_addbuf(&ev, &sb);
		strbuf_release(&sb);
		h->evidence = strbuf_detach(&ev, NULL);
		h->fact = "follows";
		return true;
	default:
		return false;
	}
}

/*
 * The macros that return their condition in every configuration, so
 * that `if (MACRO(c))` works (VM_WARN_ON*() do not without DEBUG_VM),
 * and that wrap it in unlikely() (include/asm-generic/bug.h).
 */
static bool returns_condition(const char *macro)
{
	static const char *const names[] = { "WARN", "WARN_ON", "WARN_ON_ONCE", "WARN_ONCE" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(macro, names[i]))
			return true;
	return false;
}

/* Bytes of `args` before its first top-level comma (string literals skipped). */
static size_t first_arg_len(const char *args)
{
	int depth = 0;
	const char *p;

	for (p = args; *p; p++) {
		if (*p == '"' || *p == '\'') {
			char q = *p;

			for (p++; *p && *p != q; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				break;
		} else if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if (*p == ')' || *p == ']' || *p == '}') {
			depth--;
		} else if (*p == ',' && !depth) {
			break;
		}
	}
	return p - args;
}

/* `s` (`n` bytes) without whitespace, into `out`. */
static void squashed(struct strbuf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			strbuf_addch(out, s[i]);
}

/*
 * The condition of the `if (C)`, `if (C) {`, `} else if (C) {` line `l`
 * (its diff prefix taken off), into `out`: false for any other line and
 * for a condition that assigns or steps a variable (it cannot move into
 * a WARN that is compiled in every configuration, but must run once).
 */
static bool if_condition(struct strbuf *out, const char *l)
{
	const char *open, *p;
	int depth = 0;

	l += strspn(l, " \t");
	if (starts_with(l, "} "))
		l += 2;
	if (starts_with(l, "else "))
		l += 5;
	if (!starts_with(l, "if"))
		return false;
	open = l + 2 + strspn(l + 2, " \t");
	if (*open != '(')
		return false;
	for (p = open; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && !--depth)
			break;
	}
	if (!*p)
		return false;
	for (const char *t = p + 1; *t; t++)
		if (!isspace((unsigned char)*t) && *t != '{')
			return false;
	for (const char *q = open + 1; q < p; q++) {
		bool cmp = q > open + 1 && strchr("=!<>", q[-1]);

		if ((*q == '=' && !cmp && q[1] != '=') ||
		    ((*q == '+' || *q == '-') && q[1] == *q))
			return false;
	}
	strbuf_add(out, open + 1, p - open - 1);
	strbuf_trim(out);
	return out->len > 0;
}

/*
 * AM_FOLD_IF: the call is the first statement under an if and tests
 * nothing of its own (1, true) or the if's own condition.  The hit's
 * arg is the folded form, "if (WARN_ON_ONCE(C))", "if (WARN_ONCE(C, ...))".
 */
static bool fold_if(struct advice_hit *h, const struct finding *f,
		    const struct strvec *lines, const char *args)
{
	struct strbuf c = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	size_t at = f->hunk_line, first = first_arg_len(args), k;
	bool hit = false;

	if (!returns_condition(f->rule->macro) || !is_statement(f, lines))
		goto out;
	for (k = at; k > 0 && lines->v[k - 1][0] == '-'; k--)
		;
	if (!k || !if_condition(&c, lines->v[k - 1] + 1))
		goto out;
	squashed(&a, args, first);
	squashed(&b, c.buf, c.len);
	if (strcmp(a.buf, "1") && strcmp(a.buf, "true") && strcmp(a.buf, b.buf))
		goto out;
	/* The message stays as written: ", ..." (a sentence would cut it).
	 * The if's own unlikely() goes: the macro has one (linux-wireless/0012:
	 * `if (unlikely(n > 12)) { WARN_ON(1);` folds to `if (WARN_ON(n > 12))`). */
	strbuf_unwrap(&c, "unlikely(");
	strbuf_reset(&a);
	strbuf_addf(&a, "if (%s(%s%s))", f->rule->macro, c.buf, args[first] ? ", ..." : "");
	h->arg = strbuf_detach(&a, NULL);
	hit = evidence(h, "diff", lines->v[k - 1] + 1);
out:
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	return hit;
}

/* AM_PATH: the file is under one of the entry's directories. */
static bool match_path(struct advice_hit *h, const struct advice_entry *e,
		       const struct finding *f)
{
	/* Not when the call is already what the entry would write. */
	if (e->rewrite && starts_with(e->rewrite, f->rule->macro) &&
	    e->rewrite[strlen(f->rule->macro)] == '(')
		return false;
	for (size_t i = 0; i < e->paths.nr; i++)
		if (starts_with(f->file, e->paths.v[i]))
			return evidence(h, "path", e->paths.v[i]);
	return false;
}

/* AM_LOCK_HELD: "!spin_is_locked(&x->lock)" -> arg "&x->lock". */
static bool match_lock_held(struct advice_hit *h, const struct advice *a, const char *cond)
{
	for (size_t i = 0; i < a->lock_tests.nr; i++) {
		const char *t = a->lock_tests.v[i];
		size_t n = strlen(t);

		if (cond[0] == '!' && !strncmp(cond + 1, t, n) &&
		    cond[1 + n] == '(' && cond[strlen(cond) - 1] == ')') {
			h->arg = xstrndup(cond + 2 + n, strlen(cond) - 3 - n);
			return evidence(h, "diff", cond);
		}
	}
	return false;
}

/* A hit on the facts' `value` (the pointer named by fact `fact`), if any. */
static bool fact_arg(struct advice_hit *h, const char *fact, const char *value)
{
	if (!value)
		return false;
	h->arg = xstrdup(value);
	return evidence(h, fact, value);
}

/* A hit the diff's lines show, on the pointer in `sb` (taken). */
static void diff_arg(struct advice_hit *h, struct strbuf *sb)
{
	h->arg = strbuf_detach(sb, NULL);
	evidence(h, "diff", h->arg);
}

/* AM_AFTER_ALLOC: the pointer tested for NULL was just assigned from an allocator. */
/* The condition of the `if` whose body the call on line `at` opens (the
 * line above it, removed lines skipped), into `out`. */
static bool guarding_if(struct strbuf *out, const struct strvec *lines, size_t at)
{
	size_t k = at;

	while (k > 0 && lines->v[k - 1][0] == '-')
		k--;
	return k && if_condition(out, lines->v[k - 1] + 1);
}

/*
 * For a constant true call (`cond` "1" or "true") first under
 * `if (!p)` (the line above it, removed lines skipped): p, into `out`.
 * linux-cifs/0002: `sample = kvzalloc(...); if (!sample) { WARN_ON_ONCE(1);`.
 */
static bool guarding_null_test(struct strbuf *out, const struct strvec *lines, size_t at,
			       const char *cond)
{
	struct strbuf c = STRBUF_INIT;
	size_t n = first_arg_len(cond);
	bool hit;

	while (n && isspace((unsigned char)cond[n - 1]))
		n--;
	if (!((n == 1 && *cond == '1') || (n == 4 && !strncmp(cond, "true", 4))))
		return false;
	hit = guarding_if(&c, lines, at) && null_test(out, c.buf);
	strbuf_release(&c);
	return hit;
}

/*
 * The value the nearest of the hunk's lines above line `at` (within
 * CONTEXT_BEFORE, removed lines skipped) assigns to `name` ("name = X;"
 * gives "X;"), or NULL.
 */
static const char *assigned_above(const struct strvec *lines, size_t at, const char *name)
{
	size_t from = at > CONTEXT_BEFORE ? at - CONTEXT_BEFORE : 0, n = strlen(name);

	for (size_t i = at; i-- > from;) {
		const char *l = lines->v[i] + 1;

		l += strspn(l, " \t");
		if (lines->v[i][0] != '-' && starts_with(l, name) && starts_with(l + n, " = "))
			return l + n + 3;
	}
	return NULL;
}

/* Was pointer `name` assigned from an allocator in the hunk's lines just above line `at`? */
static bool just_allocated(const struct advice *a, const struct strvec *lines, size_t at,
			   const char *name)
{
	const char *v = assigned_above(lines, at, name);

	return v && has_any(v, &a->alloc_calls);
}

static bool match_after_alloc(struct advice_hit *h, const struct advice *a,
			      const struct finding *f, const struct strvec *lines,
			      const char *cond, const struct cfacts *cf)
{
	struct strbuf sb = STRBUF_INIT;
	bool hit = false;

	if (cf)
		return fact_arg(h, "alloc", cf->alloc);
	if ((null_test(&sb, cond) || guarding_null_test(&sb, lines, f->hunk_line, cond)) &&
	    just_allocated(a, lines, f->hunk_line, sb.buf)) {
		diff_arg(h, &sb);
		hit = true;
	}
	strbuf_release(&sb);
	return hit;
}

/* WARN_ON(1) under `if (!p)` right after p's allocation: folding it into
 * the if would keep a warning the allocator already gives (after-alloc). */
static bool warns_after_alloc(const struct advice *a, const struct strvec *lines, size_t at,
			      const char *cond)
{
	struct strbuf sb = STRBUF_INIT;
	bool yes = guarding_null_test(&sb, lines, at, cond) && just_allocated(a, lines, at, sb.buf);

	strbuf_release(&sb);
	return yes;
}

/* Columns of a hunk line's leading blanks (its origin byte skipped), a tab to 8. */
static size_t indent_of(const char *line)
{
	size_t col = 0;

	for (const char *p = line + 1; *p == ' ' || *p == '\t'; p++)
		col = *p == '\t' ? (col + 8) & ~(size_t)7 : col + 1;
	return col;
}

/* Is `c`, just before a name found in a line, part of a longer one
 * ("xmm", "a->mm", "a.mm" for "mm")? */
static bool in_longer_name(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '>' || c == '.';
}

/*
 * Does line `l` (no diff sign, no indent) read `deref` ("p->"), on every
 * path through it?  Not &p->x (an address), not under sizeof/typeof, not
 * where the line may skip it (?:, &&, ||), not in a comment.
 */
static bool reads_through(const char *l, const char *deref)
{
	size_t n = strlen(deref);

	if (starts_with(l, "/*") || starts_with(l, "*") || starts_with(l, "//") ||
	    starts_with(l, "#") || strstr(l, "sizeof") || strstr(l, "typeof") ||
	    strchr(l, '?') || strstr(l, "&&") || strstr(l, "||"))
		return false;
	for (const char *p = strstr(l, deref); p; p = strstr(p + n, deref)) {
		char c = p > l ? p[-1] : ' ';

		if (in_longer_name(c) || c == '&')
			continue;
		return true;
	}
	return false;
}

/* Does line `l` give `name` a new value ("p = ", "*p = ", "&p" passed on)? */
static bool sets_name(const char *l, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(l, name); p; p = strstr(p + n, name)) {
		char c = p > l ? p[-1] : ' ', d = p[n];

		if (in_longer_name(c) || isalnum((unsigned char)d) || d == '_')
			continue;
		if (c == '&' && strncmp(p + n, "->", 2))
			return true;
		while (d == ' ')
			d = *(++p + n);
		if (d == '=' && p[n + 1] != '=')
			return true;
	}
	return false;
}

/*
 * AM_DEREF_BEFORE: a NULL test of p (WARN_ON(!p), BUG_ON(p == NULL))
 * whose function already read p->... on every path to it, within the
 * hunk's lines above: a NULL p oopses there first (smatch's "dereferenced
 * before check").  Walking up: a line deeper than the call is in a block
 * that closed (some paths only); a shallower one is the enclosing block's
 * head, whose depth then counts.  A label, a case, a new value of p or
 * the function's start ends the walk.
 */
static bool match_deref_before(struct advice_hit *h, const struct finding *f,
			       const struct strvec *lines, const char *cond)
{
	struct strbuf name = STRBUF_INIT, deref = STRBUF_INIT;
	size_t depth, at = f->hunk_line;
	bool hit = false;

	if (at >= lines->nr || !null_test(&name, cond))
		goto out;
	strbuf_addf(&deref, "%s->", name.buf);
	depth = indent_of(lines->v[at]);
	for (size_t i = at; i-- > 0 && at - i <= DEREF_BEFORE;) {
		const char *raw = lines->v[i], *l = raw + 1 + strspn(raw + 1, " \t");
		size_t in = indent_of(raw);

		if (raw[0] == '-' || !*l)
			continue;
		/* column 0: the function's head, its braces, an #ifdef
		 * (some configurations leave out what is above); a label or
		 * a case: a jump there skips what is above */
		if (!in || starts_with(l, "case ") || starts_with(l, "default:") ||
		    (strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
		     strlen(l) - 1 && l[strlen(l) - 1] == ':'))
			break;
		/* a new value, even on some paths only: not the pointer read */
		if (sets_name(l, name.buf))
			break;
		if (in > depth)
			continue;
		depth = in;
		if (reads_through(l, deref.buf)) {
			/* the line that reads it is the evidence */
			h->arg = strbuf_detach(&name, NULL);
			hit = evidence(h, "diff", l);
			break;
		}
	}
out:
	strbuf_release(&name);
	strbuf_release(&deref);
	return hit;
}

/*
 * AM_BUILD_TIME: a condition the compiler knows: numbers, operators and
 * sizeof(), ARRAY_SIZE(), offsetof(), whose arguments are types or
 * objects, never read at run time; at least one of them (a bare 1 is a
 * marker, not a check).  Any other name may be a variable or a macro
 * that reads one (TASK_SIZE reads current): not known.
 */
static bool match_build_time(struct advice_hit *h, const char *cond)
{
	static const char *const known[] = { "sizeof", "ARRAY_SIZE", "offsetof", NULL };
	size_t n = first_arg_len(cond), i = 0;
	bool any = false;

	while (i < n) {
		const char *p = cond + i;
		size_t w = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
		const char *const *k = known;
		int depth = 0;

		if (!w) {
			if (!strchr(" \t()+-*/%<>=!&|^~", *p))
				return false;
			i++;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			i += w;
			continue;
		}
		while (*k && (strlen(*k) != w || strncmp(*k, p, w)))
			k++;
		if (!*k)
			return false;
		i += w;
		i += strspn(cond + i, " ");
		if (cond[i] != '(')
			return false;
		/* its argument, whatever it names, is not evaluated */
		do {
			depth += (cond[i] == '(') - (cond[i] == ')');
			i++;
		} while (i < n && depth);
		if (depth)
			return false;
		any = true;
	}
	if (!any)
		return false;
	while (n && isspace((unsigned char)cond[n - 1]))
		n--;
	h->arg = xstrndup(cond, n);
	return evidence(h, "diff", h->arg);
}

/* AM_DEREF_AFTER: the pointer tested for NULL is dereferenced right after. */
static bool match_deref_after(struct advice_hit *h, const struct finding *f,
			      const struct strvec *lines, const char *cond,
			      const struct cfacts *cf)
{
	size_t after = f->hunk_line + (f->source_lines > 0 ? f->source_lines : 1);
	struct strbuf sb = STRBUF_INIT;
	bool hit = false;

	if (cf)
		return fact_arg(h, "deref", cf->deref);
	if (is_statement(f, lines) && null_test(&sb, cond)) {
		size_t depth = (size_t)f->hunk_line < lines->nr ?
			       indent_of(lines->v[f->hunk_line]) : 0;

		size_t name = sb.len;

		strbuf_addstr(&sb, "->");
		for (size_t i = after; i < lines->nr && i < after + DEREF_AFTER; i++) {
			const char *l = lines->v[i] + 1;

			l += strspn(l, " \t");
			if (lines->v[i][0] == '-')
				continue;
			/* given a new value: a later dereference is not of the
			 * pointer tested */
			if (!strncmp(l, sb.buf, name) && starts_with(l + name, " ="))
				break;
			/* the way out at the call's own depth; one in a
			 * block below it is taken only on some paths */
			if ((starts_with(l, "return") || starts_with(l, "goto")) &&
			    indent_of(lines->v[i]) <= depth)
				break;
			if (strstr(l, sb.buf)) {
				hit = true;
				break;
			}
		}
		strbuf_setlen(&sb, sb.len - 2);
		if (hit)
			diff_arg(h, &sb);
	}
	strbuf_release(&sb);
	return hit;
}

/*
 * The values compared by condition `c` (`n` bytes): one top-level
 * `>`, `>=`, `<`, `<=` or `!=` and nothing else at that level (no &&,
 * ||, ?:), each side that is a plain name or member chain (`len`,
 * `dev->max_segment_size`), not a CONSTANT, into `out` (up to two; of
 * `!=`, the left side only).
 */
static size_t compared_values(struct strbuf out[2], const char *c, size_t n)
{
	size_t op = 0, oplen = 0, nr = 0;
	int depth = 0;

	while (n && isspace((unsigned char)c[n - 1]))
		n--;
	while (n && isspace((unsigned char)*c))
		c++, n--;
	for (size_t i = 0; i < n; i++) {
		char x = c[i], y = i + 1 < n ? c[i + 1] : '\0';

		if (x == '(' || x == '[')
			depth++;
		else if (x == ')' || x == ']')
			depth--;
		if (depth)
			continue;
		if (x == '&' || x == '|' || x == '?' || x == '=' || (x == '!' && y != '='))
			if (!(x == '=' && i && strchr("<>!", c[i - 1])) &&
			    !(x == '&' && y != '&') && !(x == '|' && y != '|'))
				return 0;
		if ((x == '<' || x == '>') && (y == x || (i && c[i - 1] == x)))
			continue;	/* a shift */
		if (x == '>' && i && c[i - 1] == '-')
			continue;	/* -> */
		if (x == '<' || x == '>' || (x == '!' && y == '=')) {
			if (oplen)
				return 0;
			op = i;
			oplen = y == '=' ? 2 : 1;
			i += oplen - 1;
		}
	}
	if (!oplen)
		return 0;
	/* `x != want`: x is the value checked; want is what it should be
	 * (linux-rdma/0071: xa_erase(...) != e, then e freed as planned). */
	for (int side = 0; side < (c[op] == '!' ? 1 : 2); side++) {
		const char *s = side ? c + op + oplen : c;
		size_t m = side ? n - op - oplen : op, k = 0;
		bool lower = false;

		while (m && isspace((unsigned char)*s))
			s++, m--;
		while (m && isspace((unsigned char)s[m - 1]))
			m--;
		while (k < m) {
			size_t w = 0;

			if (!isalpha((unsigned char)s[k]) && s[k] != '_')
				break;
			while (k + w < m && (isalnum((unsigned char)s[k + w]) || s[k + w] == '_'))
				lower |= islower((unsigned char)s[k + w]), w++;
			k += w;
			if (k + 2 <= m && s[k] == '-' && s[k + 1] == '>')
				k += 2;
			else if (k < m && s[k] == '.')
				k++;
			else
				break;
		}
		if (k == m && m && lower && (isalpha((unsigned char)s[m - 1]) ||
					     isdigit((unsigned char)s[m - 1]) || s[m - 1] == '_'))
			strbuf_add(&out[nr++], s, m);
	}
	return nr;
}

/* Does line `l` use name `v` (a whole name: not part of a longer one,
 * not a member of something else)? */
static bool uses_name(const char *l, const char *v)
{
	size_t n = strlen(v);

	for (const char *at = strstr(l, v); at; at = strstr(at + 1, v)) {
		char before = at > l ? at[-1] : ' ';

		if (isalnum((unsigned char)at[n]) || at[n] == '_')
			continue;
		if (isalnum((unsigned char)before) || before == '_' || before == '.' ||
		    (before == '>' && at - l >= 2 && at[-2] == '-'))
			continue;
		return true;
	}
	return false;
}

/*
 * AM_CARRIES_ON: a WARN statement (not an if's condition) over a
 * comparison of a value, and the lines below it, before any way out at
 * its depth, the end of its block or a new value, use that value in
 * anything but a test of their own (an if testing it again may be the
 * handling).  linux-wireless/0035: WARN(obj->buffer.length !=
 * sizeof(*out), ...) then memcpy(out, ..., obj->buffer.length).
 */
static bool match_carries_on(struct advice_hit *h, const struct finding *f,
			     const struct strvec *lines, const char *cond)
{
	size_t after = f->hunk_line + (f->source_lines > 0 ? f->source_lines : 1), depth, nr;
	struct strbuf v[2] = { STRBUF_INIT, STRBUF_INIT };
	int hit = -1;

	if (!is_statement(f, lines) || !(nr = compared_values(v, cond, first_arg_len(cond))))
		goto out;
	depth = indent_of(lines->v[f->hunk_line]);
	for (size_t i = after; i < lines->nr && i < after + DEREF_AFTER && hit < 0; i++) {
		const char *l = lines->v[i] + 1;
		bool stop = false;

		l += strspn(l, " \t");
		if (lines->v[i][0] == '-' || !*l)
			continue;
		if ((*l == '}' && indent_of(lines->v[i]) < depth) ||
		    ((starts_with(l, "return") || starts_with(l, "goto") ||
		      starts_with(l, "break") || starts_with(l, "continue")) &&
		     indent_of(lines->v[i]) <= depth))
			break;
		for (size_t k = 0; k < nr && hit < 0 && !stop; k++) {
			const char *rest = l + v[k].len;

			if (!uses_name(l, v[k].buf))
				continue;
			rest += strspn(rest, " \t");
			/* a new value, or a test of its own: not carried on */
			if ((starts_with(l, v[k].buf) && *rest == '=' && rest[1] != '=') ||
			    starts_with(l, "if ") || starts_with(l, "if(") ||
			    starts_with(l, "} else if") || starts_with(l, "else if"))
				stop = true;
			else
				hit = (int)k;
		}
		if (stop)
			break;
	}
	if (hit >= 0) {
		struct strbuf arg = STRBUF_INIT;

		strbuf_addbuf(&arg, &v[hit]);
		diff_arg(h, &arg);
	}
out:
	strbuf_release(&v[0]);
	strbuf_release(&v[1]);
	return hit >= 0;
}

/* The length of a call's condition (its first argument), without the
 * blanks before the comma or the closing parenthesis. */
static size_t cond_len(const char *cond)
{
	size_t n = first_arg_len(cond);

	while (n && isspace((unsigned char)cond[n - 1]))
		n--;
	return n;
}

/* Is cond[0..n) one call of `fn` whose ')' closes it: nothing compared
 * to it, nothing else tested ("fn(x)", not "fn(x) && y", "fn_x(y)")? */
static bool whole_call(const char *cond, size_t n, const char *fn)
{
	size_t len = strlen(fn), i;
	int depth = 1;

	if (n <= len + 1 || strncmp(cond, fn, len) || cond[len] != '(')
		return false;
	for (i = len + 1; i < n && depth; i++)
		depth += (cond[i] == '(') - (cond[i] == ')');
	return !depth && i == n;
}

/*
 * AM_REFCOUNT_DEC: the condition is refcount_dec_and_test(R) itself:
 * the WARN fires when the count drops to zero, which refcount_dec(R)
 * reports by itself (include/linux/refcount.h: REFCOUNT_DEC_LEAK).
 * linux-nfs/0005: WARN_ON_ONCE(refcount_dec_and_test(&nf->nf_ref)).
 */
static bool match_refcount_dec(struct advice_hit *h, const char *cond)
{
	static const char fn[] = "refcount_dec_and_test";
	size_t n = cond_len(cond), k = strlen(fn) + 1;
	struct strbuf arg = STRBUF_INIT;

	if (!whole_call(cond, n, fn))
		return false;
	strbuf_add(&arg, cond + k, n - k - 1);
	strbuf_trim(&arg);
	diff_arg(h, &arg);
	return true;
}

/* Does name `s` (`n` bytes) say it counts references: "ref" as a word
 * part (refcount, refcnt, nf_ref, grp_refs), not "prefix" or "xref"? */
static bool ref_name(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (!strncmp(s + i, "ref", 3) &&
		    (!i || s[i - 1] == '_' || s[i - 1] == '>' || s[i - 1] == '.') &&
		    (i + 3 == n || s[i + 3] == 's' || s[i + 3] == '_' ||
		     s[i + 3] == 'c'))
			return true;
	return false;
}

/*
 * AM_HAND_REFCOUNT: a count of references kept by hand, tested for
 * going below zero: `X < 0`, `X <= 0` or `X - 1 < 0` with X named for
 * references (ath12k_wmi_refcount), or X assigned from
 * atomic_dec_return() / atomic_sub_return() of such a count in the
 * lines just above (linux-rdma/0053: count = atomic_dec_return(
 * uobj->refcnt); WARN_ON(count < 0)).  refcount_t does that check.
 */
static bool match_hand_refcount(struct advice_hit *h, const struct finding *f,
				const struct strvec *lines, const char *cond)
{
	static const char *const decs[] = { "atomic_dec_return(", "atomic_sub_return(",
					    "atomic_long_dec_return(" };
	size_t n = first_arg_len(cond), x = 0, at = f->hunk_line;
	struct strbuf name = STRBUF_INIT;
	const char *p;
	bool hit = false;

	while (x < n && (isalnum((unsigned char)cond[x]) || cond[x] == '_' || cond[x] == '.' ||
			 (cond[x] == '-' && cond[x + 1] == '>') || (cond[x] == '>' && x && cond[x - 1] == '-')))
		x++;
	if (!x)
		return false;
	p = cond + x;
	p += strspn(p, " \t");
	if (starts_with(p, "- 1") || starts_with(p, "-1"))
		p += *p && p[1] == '1' ? 2 : 3;
	p += strspn(p, " \t");
	if (!starts_with(p, "< 0") && !starts_with(p, "<= 0") && !starts_with(p, "<0") &&
	    !starts_with(p, "<=0"))
		return false;
	p += p[1] == '=' ? 2 : 1;
	p += strspn(p, " \t");
	if (*p != '0' || (size_t)(p + 1 - cond) != n)
		return false;
	strbuf_add(&name, cond, x);
	if (ref_name(name.buf, name.len)) {
		hit = true;
	} else {
		/* the value of an atomic decrement of a count named for references */
		const char *v = assigned_above(lines, at, name.buf), *d;

		for (size_t k = 0; v && k < ARRAY_SIZE(decs) && !hit; k++)
			if ((d = strstr(v, decs[k]))) {
				d += strlen(decs[k]);
				hit = ref_name(d, strcspn(d, ",)"));
			}
	}
	if (hit)
		diff_arg(h, &name);
	else
		strbuf_release(&name);
	return hit;
}

/* "IS_ERR(p)" or "IS_ERR_OR_NULL(p)" -> "p" into `out`. */
static bool err_test(struct strbuf *out, const char *cond)
{
	static const char *const tests[] = { "IS_ERR(", "IS_ERR_OR_NULL(" };
	size_t n = first_arg_len(cond);

	while (n && isspace((unsigned char)cond[n - 1]))
		n--;
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		size_t k = strlen(tests[i]), m;

		if (strncmp(cond, tests[i], k) || !n || cond[n - 1] != ')')
			continue;
		m = strspn(cond + k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_->.");
		if (!m || k + m + 1 != n)
			return false;
		strbuf_add(out, cond + k, m);
		return true;
	}
	return false;
}

/* The name of the first function called in `s` whose name holds
 * "debugfs" (debugfs_create_dir, blk_trace_debugfs_dir), with "()". */
static bool debugfs_call(struct strbuf *out, const char *s)
{
	for (const char *p = strstr(s, "debugfs"); p; p = strstr(p + 1, "debugfs")) {
		const char *b = p, *e = p;

		while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		if (*e != '(')
			continue;
		strbuf_add(out, b, e - b);
		strbuf_addstr(out, "()");
		return true;
	}
	return false;
}

/*
 * AM_DEBUGFS: the condition calls a debugfs function, or tests a pointer
 * (!p, IS_ERR(p), IS_ERR_OR_NULL(p)) the lines just above assigned from
 * one.  Nothing may depend on debugfs: its callers are meant to ignore
 * its failures (fs/debugfs/inode.c), never warn or die over them
 * (linux-block 2020: a panic() and a WARN_ON() on a debugfs directory).
 */
static bool debugfs_tested(struct strbuf *name, const struct finding *f,
			   const struct strvec *lines, const char *cond)
{
	struct strbuf p = STRBUF_INIT;
	size_t at = f->hunk_line;
	struct strbuf c = STRBUF_INIT;
	bool hit = debugfs_call(name, cond), tested;

	/* panic() and BUG() test nothing themselves: the if above them does */
	if (f->rule->class == RC_PANIC || !strcmp(f->rule->macro, "BUG"))
		tested = guarding_if(&c, lines, at) &&
			 (null_test(&p, c.buf) || err_test(&p, c.buf));
	else
		tested = null_test(&p, cond) || guarding_null_test(&p, lines, at, cond) ||
			 err_test(&p, cond);
	strbuf_release(&c);
	if (!hit && tested) {
		const char *v = assigned_above(lines, at, p.buf);

		hit = v && debugfs_call(name, v);
	}
	strbuf_release(&p);
	return hit;
}

static bool match_debugfs(struct advice_hit *h, const struct finding *f,
			  const struct strvec *lines, const char *cond)
{
	struct strbuf name = STRBUF_INIT;
	bool hit = debugfs_tested(&name, f, lines, cond);

	if (hit)
		diff_arg(h, &name);
	strbuf_release(&name);
	return hit;
}

/* fold-if's point would keep a WARN the facts say should go: after an
 * allocation (the allocator warns) or over a debugfs result. */
static bool fold_keeps_wrong_warn(const struct advice *a, const struct finding *f,
				  const struct strvec *lines, const char *cond)
{
	struct strbuf name = STRBUF_INIT;
	bool yes = warns_after_alloc(a, lines, f->hunk_line, cond) ||
		   debugfs_tested(&name, f, lines, cond);

	strbuf_release(&name);
	return yes;
}

/*
 * AM_TEST_CALL: the whole condition is one call of a function the entry
 * names, negated as the entry wants ("!rcu_read_lock_held()"): arg is the
 * function's name, what the entry's sentence is about.
 */
static bool match_test_call(struct advice_hit *h, const struct advice_entry *e,
			    const char *cond)
{
	size_t n = cond_len(cond);
	int neg = 0;

	while (n && *cond == '!' && neg < 2) {
		cond++;
		n--;
		neg++;
	}
	if (neg > 1 || (e->negated >= 0 && e->negated != neg))
		return false;
	for (size_t k = 0; k < e->calls.nr; k++) {
		if (whole_call(cond, n, e->calls.v[k])) {
			h->arg = xstrdup(e->calls.v[k]);
			return evidence(h, "diff", h->arg);
		}
	}
	return false;
}

static bool match_one(struct advice_hit *h, const struct advice *a,
		      const struct advice_entry *e, const struct finding *f,
		      const struct strvec *lines, const char *cond, const struct cfacts *cf)
{
	switch (e->match) {
	case AM_ON_DISK:
	case AM_USER_INPUT:
	case AM_IMPOSSIBLE:
	case AM_DUP_IF:
	case AM_BARE_STATEMENT:
		return cf && match_fact(h, e, a, f, lines, cond, cf);
	case AM_PATH:
		return match_path(h, e, f);
	case AM_LOCK_HELD:
		return match_lock_held(h, a, cond);
	case AM_REFCOUNT:
		return has_any(cond, &a->refcount_markers) && evidence(h, "diff", cond);
	case AM_AFTER_ALLOC:
		return match_after_alloc(h, a, f, lines, cond, cf);
	case AM_DEREF_AFTER:
		return match_deref_after(h, f, lines, cond, cf);
	case AM_CARRIES_ON:
		return match_carries_on(h, f, lines, cond);
	case AM_REFCOUNT_DEC:
		return match_refcount_dec(h, cond);
	case AM_HAND_REFCOUNT:
		return match_hand_refcount(h, f, lines, cond);
	case AM_DEBUGFS:
		return match_debugfs(h, f, lines, cond);
	case AM_TEST_CALL:
		return match_test_call(h, e, cond);
	case AM_DEREF_BEFORE:
		return match_deref_before(h, f, lines, cond);
	case AM_BUILD_TIME:
		return match_build_time(h, cond);
	case AM_FOLD_IF:
		/* When the tree's facts show the if repeating the test,
		 * dup-if says so instead (an entry's "replaces" could not:
		 * leave-one-list-out may take either entry out). */
		return !(cf && cf->dup_if) && !fold_keeps_wrong_warn(a, f, lines, cond) &&
		       fold_if(h, f, lines, cond);
	case AM_UNLIKELY:
		return (returns_condition(f->rule->macro) || !strcmp(f->rule->macro, "BUG_ON")) &&
		       starts_with(cond, "unlikely(") && evidence(h, "diff", cond);
	case AM_OR_CONDITIONS:
		return (cf ? cf->cond_or : top_level_or(cond)) &&
		       evidence(h, cf ? "cond_or" : "diff", cf && cf->cond ? cf->cond : cond);
	case AM__NR:
		break;
	}
	return false;
}

size_t advice_match(struct advice_hit **out, const struct advice *a, const struct finding *f,
		    const struct cfacts *cf)
{
	struct strvec lines = STRVEC_INIT;
	struct strbuf cond = STRBUF_INIT;
	struct advice_hit *v;
	size_t n = 0;

	*out = NULL;
	if (!a || !a->nr || f->kind != FINDING_ADDED || !f->rule)
		return 0;
	v = xcalloc(a->nr, sizeof(*v));
	if (cf && !cf->found)
		cf = NULL;
	split_hunk(&lines, f);
	advice_call_args(&cond, f->source);
	for (size_t i = 0; i < a->nr && (size_t)f->hunk_line < lines.nr; i++) {
		const struct advice_entry *e = &a->v[i];
		struct advice_hit h = { e, NULL, NULL, NULL, NULL };

		if (e->off || !(e->classes & (1u << f->rule->class)))
			continue;
		if (match_one(&h, a, e, f, &lines, cond.buf, cf)) {
			v[n++] = h;
		} else {
			free(h.arg);
			free(h.evidence);
		}
	}
	strvec_clear(&lines);
	strbuf_release(&cond);
	if (n)
		*out = v;
	else
		free(v);
	return n;
}

void advice_hits_free(struct advice_hit *h, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(h[i].arg);
		free(h[i].evidence);
	}
	free(h);
}

/* "spin_lock(&x->lock);" in `l` for lock k: its argument, into out. */
static bool lock_arg(struct strbuf *out, const char *l, const char *call)
{
	const char *p = strstr(l, call), *e;

	if (!p || (p > l && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
		return false;
	p += strlen(call);
	e = strrchr(p, ')');
	if (!e)
		return false;
	strbuf_reset(out);
	strbuf_add(out, p, e - p);
	return true;
}

void advice_unlocks(struct strbuf *out, const struct advice *a, const struct finding *f)
{
	struct strvec lines = STRVEC_INIT, held = STRVEC_INIT;
	struct strbuf arg = STRBUF_INIT;
	size_t start = 0;

	split_hunk(&lines, f);
	/* From the function's first line the hunk shows, to the call. */
	for (size_t i = 0; i < (size_t)f->hunk_line && i < lines.nr; i++)
		if (lines.v[i][0] != '-' && lines.v[i][1] == '{')
			start = i;
	for (size_t i = start; i < (size_t)f->hunk_line && i < lines.nr; i++) {
		if (lines.v[i][0] == '-')
			continue;
		for (size_t k = 0; k < a->locks.nr; k++) {
			if (lock_arg(&arg, lines.v[i], a->locks.v[k])) {
				strvec_pushf(&held, "%s%s);", a->unlocks.v[k], arg.buf);
			} else if (lock_arg(&arg, lines.v[i], a->unlocks.v[k])) {
				struct strbuf want = STRBUF_INIT;

				strbuf_addf(&want, "%s%s);", a->unlocks.v[k], arg.buf);
				for (size_t h = held.nr; h-- > 0;)
					if (!strcmp(held.v[h], want.buf)) {
						free((char *)held.v[h]);
						memmove(&held.v[h], &held.v[h + 1],
							(held.nr - h) * sizeof(*held.v));
						held.nr--;
						break;
					}
				strbuf_release(&want);
			}
		}
	}
	for (size_t h = held.nr; h-- > 0;)
		strbuf_addf(out, "%s\n", held.v[h]);
	strvec_clear(&lines);
	strvec_clear(&held);
	strbuf_release(&arg);
}

int advice_check_buf(const char *buf, size_t len, const char *name)
{
	struct advice a = ADVICE_INIT;
	int ret = advice_load_buf(&a, buf, len, name);

	advice_release(&a);
	return ret;
}
