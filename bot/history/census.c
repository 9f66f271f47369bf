/*
 * warnwatch census of a tree (see census.h): two passes over the tree or
 * tarball.  Pass 1 reads the headers and collects wrapper definitions
 * with scan_defines(); pass 2 scans every .c/.h file with scan_text()
 * and counts each call in its file.  A tarball cannot be read backwards,
 * and keeping 1.3 GB of sources in memory to avoid the second
 * decompression is not worth it, so the archive is simply read twice.
 * Subsystems are attributed at the end, once MAINTAINERS has been seen
 * (a tarball may list it anywhere).
 */
#include "census.h"
#include "census-priv.h"
#include "maintainers.h"
#include "scan.h"
#include "strbuf.h"
#include "strvec.h"
#include "tarread.h"

/* --- a small string -> index map ----------------------------------- */

static size_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

static void strmap_grow(struct strmap *m)
{
	struct strmap_slot *old = m->slots;
	size_t old_cap = m->cap;

	m->cap = m->cap ? m->cap * 2 : 256;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old_cap; i++) {
		size_t pos;

		if (!old[i].key)
			continue;
		pos = str_hash(old[i].key) & (m->cap - 1);
		while (m->slots[pos].key)
			pos = (pos + 1) & (m->cap - 1);
		m->slots[pos] = old[i];
	}
	free(old);
}

/* The value for `key`, or (size_t)-1. */
size_t strmap_get(const struct strmap *m, const char *key)
{
	size_t pos;

	if (!m->cap)
		return (size_t)-1;
	for (pos = str_hash(key) & (m->cap - 1); m->slots[pos].key;
	     pos = (pos + 1) & (m->cap - 1))
		if (!strcmp(m->slots[pos].key, key))
			return m->slots[pos].val;
	return (size_t)-1;
}

/* Set `key` (copied) to `val`. */
void strmap_put(struct strmap *m, const char *key, size_t val)
{
	size_t pos;

	if ((m->nr + 1) * 2 > m->cap)
		strmap_grow(m);
	for (pos = str_hash(key) & (m->cap - 1); m->slots[pos].key;
	     pos = (pos + 1) & (m->cap - 1))
		if (!strcmp(m->slots[pos].key, key)) {
			m->slots[pos].val = val;
			return;
		}
	m->slots[pos].key = xstrdup(key);
	m->slots[pos].val = val;
	m->nr++;
}

void strmap_clear(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* --- macros and wrapper definitions --------------------------------- */

size_t census_macro_index(struct census *c, const char *name,
			  enum rule_class class, const char *wraps)
{
	struct census_priv *p = c->priv;
	size_t i = strmap_get(&p->macro_ix, name);
	struct census_macro *m;

	if (i != (size_t)-1)
		return i;
	ALLOC_GROW(c->macros, c->nr_macros + 1, c->alloc_macros);
	m = &c->macros[c->nr_macros];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->class = class;
	m->wraps = wraps ? xstrdup(wraps) : NULL;
	strmap_put(&p->macro_ix, name, c->nr_macros);
	return c->nr_macros++;
}

/*
 * Where a definition in `path` is visible: "" (everywhere) for the
 * kernel's include directories, the directory for other headers, the
 * file itself for a .c file.
 */
static void define_scope(struct strbuf *out, enum def_scope *kind,
			 const char *path)
{
	const char *rest, *slash;

	strbuf_reset(out);
	if (!ends_with(path, ".h")) {
		*kind = SCOPE_FILE;
		strbuf_addstr(out, path);
		return;
	}
	if (starts_with(path, "include/") ||
	    (skip_prefix(path, "arch/", &rest) && (slash = strchr(rest, '/')) &&
	     starts_with(slash, "/include/"))) {
		*kind = SCOPE_GLOBAL;
		return;
	}
	*kind = SCOPE_DIR;
	slash = strrchr(path, '/');
	if (slash)
		strbuf_add(out, path, slash + 1 - path);
}

/*
 * The index in p->defs of the definition of wrapper `name` visible from
 * `path` (most specific), or CENSUS_NO_DEF.  An index, not a pointer:
 * census_add_def() grows p->defs.
 */
size_t census_visible_def(const struct census_priv *p, const char *name,
			  const char *path)
{
	size_t i = strmap_get(&p->def_ix, name);
	size_t best_i = CENSUS_NO_DEF;
	const struct wrapper_def *best = NULL;

	for (; i != (size_t)-1; i = p->defs[i].next) {
		const struct wrapper_def *d = &p->defs[i];
		bool visible;

		switch (d->kind) {
		case SCOPE_FILE:
			visible = !strcmp(d->scope, path);
			break;
		case SCOPE_DIR:
			visible = starts_with(path, d->scope);
			break;
		default:
			visible = true;
		}
		if (!visible)
			continue;
		if (!best || d->kind < best->kind ||
		    (d->kind == best->kind && strlen(d->scope) > strlen(best->scope))) {
			best = d;
			best_i = i;
		}
	}
	return best_i;
}

/*
 * Record that `name`, defined in `path`, wraps rule macro `like_name`.
 * Returns true when the ruleset gained a rule (a rescan may find more).
 */
bool census_add_def(struct census *c, struct ruleset *rs, const char *name,
		    const char *like_name, const char *path)
{
	struct census_priv *p = c->priv;
	const struct rule *like = rules_lookup(rs, like_name, strlen(like_name));
	size_t like_ix;
	struct wrapper_def *d;
	struct strbuf scope = STRBUF_INIT;
	enum def_scope kind;
	size_t head;
	int added;

	if (!like)
		return false;
	/* A family macro's own definition (asm-generic/bug.h) is no wrapper. */
	{
		const struct rule *self = rules_lookup(rs, name, strlen(name));

		if (self && !self->wraps)
			return false;
	}
	/* A wrapper of a wrapper ends in what the inner one wraps, if the
	 * inner definition is visible here at all (a .c file's DUMP_REG()
	 * means nothing in another file). */
	like_ix = like->wraps ? census_visible_def(p, like_name, path) :
				CENSUS_NO_DEF;
	if (like->wraps && like_ix == CENSUS_NO_DEF)
		return false;
	define_scope(&scope, &kind, path);
	head = strmap_get(&p->def_ix, name);
	for (size_t i = head; i != (size_t)-1; i = p->defs[i].next)
		if (p->defs[i].kind == kind && !strcmp(p->defs[i].scope, scope.buf)) {
			strbuf_release(&scope);
			return false;	/* #ifdef'd alternatives of one definition */
		}

	/* Moves p->defs: the inner definition is read by index below. */
	ALLOC_GROW(p->defs, p->nr_defs + 1, p->alloc_defs);
	d = &p->defs[p->nr_defs];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->scope = strbuf_detach(&scope, NULL);
	d->kind = kind;
	d->class = like->class;
	if (like_ix != CENSUS_NO_DEF) {
		d->root = xstrdup(p->defs[like_ix].root);
		d->class = p->defs[like_ix].class;
	} else {
		d->root = xstrdup(like->wraps ? like->wraps : like->macro);
	}
	d->next = head;
	strmap_put(&p->def_ix, name, p->nr_defs);
	p->nr_defs++;
	c->wrappers++;

	added = rules_add_wrapper(rs, name, like);
	return added == 0;
}

/* --- pass 1: wrapper definitions ------------------------------------ */

static bool is_source(const char *path)
{
	return ends_with(path, ".c") || ends_with(path, ".h");
}

static void keep_top_file(struct census_priv *p, const struct tarread_file *f)
{
	if (!strcmp(f->path, "MAINTAINERS")) {
		strbuf_reset(&p->maintainers);
		strbuf_add(&p->maintainers, f->data, f->len);
		p->have_maintainers = true;
	} else if (!strcmp(f->path, "Makefile")) {
		strbuf_reset(&p->makefile);
		strbuf_add(&p->makefile, f->data, f->len);
	}
}

static bool want_top_file(const char *path)
{
	return !strcmp(path, "MAINTAINERS") || !strcmp(path, "Makefile");
}

struct walk_ctx {
	struct census *c;
	struct ruleset *rs;
	const struct census_opts *opts;
	struct scan_result res;
	struct strvec pending;	/* name, wrapped, name, wrapped... */
	size_t seen;
};

static void progress(struct walk_ctx *w, const char *what)
{
	if (w->opts->progress && !(++w->seen % 5000))
		w->opts->progress(w->opts->data, what, w->seen);
}

static bool want_headers(void *data, const char *path, size_t size)
{
	return ends_with(path, ".h") || want_top_file(path);
}

/* Collect the defines of the current result as name/wrapped pairs. */
static void collect_defines(struct walk_ctx *w)
{
	strvec_clear(&w->pending);
	for (size_t i = 0; i < w->res.nr; i++) {
		const struct scan_hit *h = &w->res.v[i];

		if (h->kind == HIT_DEFINE && h->defined && h->rule)
		{
			strvec_push(&w->pending, h->defined);
			strvec_push(&w->pending, h->rule->macro);
		}
	}
}

static int visit_header(void *data, const struct tarread_file *f)
{
	struct walk_ctx *w = data;

	if (want_top_file(f->path)) {
		keep_top_file(w->c->priv, f);
		return 0;
	}
	progress(w, "pass 1 (wrapper definitions)");
	scan_result_clear(&w->res);
	scan_defines(&w->res, w->rs, f->data, f->len);
	/* rules_add_wrapper() moves the rules the hits point to: copy first. */
	collect_defines(w);
	scan_result_clear(&w->res);
	for (size_t i = 0; i + 1 < w->pending.nr; i += 2)
		census_add_def(w->c, w->rs, w->pending.v[i], w->pending.v[i + 1],
			       f->path);
	return 0;
}

/* --- pass 2: calls --------------------------------------------------- */

static bool want_sources(void *data, const char *path, size_t size)
{
	struct walk_ctx *w = data;
	struct census_priv *p = w->c->priv;

	if (want_top_file(path))
		return !p->have_maintainers || !p->makefile.len;
	/* The rules' "paths" decide, as for check (Documentation/ is skipped). */
	return is_source(path) && rules_path_scanned(w->rs, path);
}

/* Count the calls of one file's scan result into a file record. */
static void count_hits(struct walk_ctx *w, const char *path)
{
	struct census *c = w->c;
	struct census_priv *p = c->priv;
	size_t first = p->nr_pairs;

	for (size_t i = 0; i < w->res.nr; i++) {
		const struct scan_hit *h = &w->res.v[i];
		const struct wrapper_def *d = NULL;
		enum rule_class class;
		size_t mi, j, di;

		if (h->kind != HIT_CALL || !h->rule)
			continue;
		class = h->rule->class;
		if (h->rule->wraps) {
			di = census_visible_def(p, h->rule->macro, path);
			if (di == CENSUS_NO_DEF) {
				c->out_of_scope++;
				continue;
			}
			d = &p->defs[di];	/* p->defs does not grow in pass 2's count */
			class = d->class;
		}
		mi = census_macro_index(c, h->rule->macro, class,
					d ? d->root : NULL);
		for (j = first; j < p->nr_pairs; j++)
			if (p->pairs[j].macro == mi && p->pairs[j].class == class)
				break;
		if (j == p->nr_pairs) {
			ALLOC_GROW(p->pairs, p->nr_pairs + 1, p->alloc_pairs);
			p->pairs[j].macro = mi;
			p->pairs[j].class = class;
			p->pairs[j].n = 0;
			p->nr_pairs++;
		}
		p->pairs[j].n++;
		c->macros[mi].calls++;
		c->classes[class]++;
		c->total++;
	}
	if (p->nr_pairs > first) {
		struct file_rec *r;

		ALLOC_GROW(p->recs, p->nr_recs + 1, p->alloc_recs);
		r = &p->recs[p->nr_recs++];
		r->path = xstrdup(path);
		r->first = first;
		r->nr = p->nr_pairs - first;
		c->files_with_calls++;
	}
}

static int visit_source(void *data, const struct tarread_file *f)
{
	struct walk_ctx *w = data;
	bool local = !(w->opts->flags & CENSUS_NO_WRAPPERS) &&
		     ends_with(f->path, ".c");
	bool added = false;

	if (want_top_file(f->path)) {
		keep_top_file(w->c->priv, f);
		return 0;
	}
	progress(w, "pass 2 (calls)");
	w->c->files++;
	w->c->bytes += f->len;
	scan_result_clear(&w->res);
	scan_text(&w->res, w->rs, f->data, f->len, SCAN_CODE);
	if (local) {
		collect_defines(w);
		for (size_t i = 0; i + 1 < w->pending.nr; i += 2)
			if (census_add_def(w->c, w->rs, w->pending.v[i],
					   w->pending.v[i + 1], f->path))
				added = true;
		if (added) {
			/* Its own wrappers are used below their definition. */
			scan_result_clear(&w->res);
			scan_text(&w->res, w->rs, f->data, f->len, SCAN_CODE);
		}
	}
	count_hits(w, f->path);
	return 0;
}

/* --- attribution ------------------------------------------------------ */

/* Calls per top-level directory ("drivers", "fs"; "." for top files). */
void census_count_dir(struct census *c, const char *path,
		      const struct count_pair *pairs, size_t nr)
{
	struct census_priv *p = c->priv;
	const char *slash = strchr(path, '/');
	char *dir = slash ? xstrndup(path, slash - path) : xstrdup(".");
	size_t i = strmap_get(&p->dir_ix, dir);

	if (i == (size_t)-1) {
		ALLOC_GROW(c->dirs, c->nr_dirs + 1, p->alloc_dirs);
		c->dirs[c->nr_dirs].name = dir;
		c->dirs[c->nr_dirs].calls = 0;
		strmap_put(&p->dir_ix, dir, c->nr_dirs);
		i = c->nr_dirs++;
	} else {
		free(dir);
	}
	for (size_t j = 0; j < nr; j++)
		c->dirs[i].calls += pairs[j].n;
}

void census_parse_release(struct census *c, const struct strbuf *mk)
{
	static const char *const keys[] = { "VERSION", "PATCHLEVEL", "SUBLEVEL",
					    "EXTRAVERSION" };
	char vals[4][32] = { "", "", "", "" };
	struct strbuf out = STRBUF_INIT;
	const char *p = mk->buf;

	for (int line = 0; *p && line < 20; line++) {
		const char *nl = strchrnul(p, '\n');

		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			const char *v;

			if (!skip_prefix(p, keys[k], &v))
				continue;
			v += strspn(v, " \t");
			if (*v != '=')
				continue;
			v++;
			v += strspn(v, " \t");
			snprintf(vals[k], sizeof(vals[k]), "%.*s",
				 (int)(nl - v), v);
		}
		p = *nl ? nl + 1 : nl;
	}
	if (*vals[0] && *vals[1]) {
		strbuf_addf(&out, "%s.%s", vals[0], vals[1]);
		if (*vals[2] && strcmp(vals[2], "0") != 0)
			strbuf_addf(&out, ".%s", vals[2]);
		strbuf_addstr(&out, vals[3]);
	}
	strbuf_trim(&out);
	free(c->release);
	c->release = strbuf_detach(&out, NULL);
}

static int cmp_subsystems(const void *a, const void *b)
{
	const struct census_subsystem *x = a, *y = b;
	long tx = x->total + x->total_added + x->total_removed;
	long ty = y->total + y->total_added + y->total_removed;

	if (tx != ty)
		return tx < ty ? 1 : -1;
	return strcmp(x->name, y->name);
}

struct census_subsystem *census_subsystem_get(struct census *c,
					      const char *name)
{
	struct census_priv *p = c->priv;
	size_t i = strmap_get(&p->subsys_ix, name);
	struct census_subsystem *s;

	if (i != (size_t)-1)
		return &c->subsystems[i];
	ALLOC_GROW(c->subsystems, c->nr_subsystems + 1, p->alloc_subsystems);
	s = &c->subsystems[c->nr_subsystems];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	strmap_put(&p->subsys_ix, name, c->nr_subsystems++);
	return s;
}

/* Grow every subsystem's per-macro arrays to the final macro count. */
void census_subsystems_finish(struct census *c)
{
	for (size_t i = 0; i < c->nr_subsystems; i++) {
		struct census_subsystem *s = &c->subsystems[i];

		if (!s->calls)
			s->calls = xcalloc(c->nr_macros, sizeof(long));
		if (!s->added)
			s->added = xcalloc(c->nr_macros, sizeof(long));
		if (!s->removed)
			s->removed = xcalloc(c->nr_macros, sizeof(long));
	}
	qsort(c->subsystems, c->nr_subsystems, sizeof(*c->subsystems),
	      cmp_subsystems);
}

int census_load_maintainers(struct census *c, struct maintainers *m,
			    const struct strbuf *text, unsigned int flags)
{
	if (!text->len)
		return 0;
	return maintainers_parse(m, text->buf, text->len, "MAINTAINERS",
				 (flags & CENSUS_NO_REGEX) ? MAINTAINERS_NO_REGEX : 0);
}

const char *census_section_of(const struct maintainers *m, const char *path)
{
	ssize_t i = m->nr ? maintainers_match(m, path, NULL) : -1;

	return i < 0 ? CENSUS_NO_SECTION : m->sections[i].name;
}

static int attribute(struct census *c, unsigned int flags)
{
	struct census_priv *p = c->priv;
	struct maintainers m = MAINTAINERS_INIT;
	int ret;

	ret = census_load_maintainers(c, &m, &p->maintainers, flags);
	if (ret < 0)
		return error_prefix(ret, "'%s'", c->source);
	for (size_t i = 0; i < p->nr_recs; i++) {
		const struct file_rec *r = &p->recs[i];
		struct census_subsystem *s;

		census_count_dir(c, r->path, p->pairs + r->first, r->nr);
		s = census_subsystem_get(c, census_section_of(&m, r->path));
		if (!s->calls)
			s->calls = xcalloc(c->nr_macros, sizeof(long));
		s->files++;
		for (size_t j = r->first; j < r->first + r->nr; j++) {
			s->calls[p->pairs[j].macro] += p->pairs[j].n;
			s->classes[p->pairs[j].class] += p->pairs[j].n;
			s->total += p->pairs[j].n;
		}
	}
	census_subsystems_finish(c);
	maintainers_release(&m);
	return 0;
}

/* --- the whole census ------------------------------------------------ */

void census_priv_init(struct census *c, const char *source)
{
	struct census_priv *p = xcalloc(1, sizeof(*p));

	strbuf_init(&p->maintainers, 0);
	strbuf_init(&p->makefile, 0);
	c->priv = p;
	c->source = xstrdup(source);
	c->release = xstrdup("");
}

int census_tree(struct census *out, const char *tree, struct ruleset *rs,
		const struct census_opts *opts)
{
	struct census_opts defaults = CENSUS_OPTS_INIT;
	struct walk_ctx w = { 0 };
	struct tarread_stats st = { 0 };
	double t0 = monotonic_now(), t1;
	int ret;

	if (!opts)
		opts = &defaults;
	census_priv_init(out, tree);
	w.c = out;
	w.rs = rs;
	w.opts = opts;
	strvec_init(&w.pending);

	if (!(opts->flags & CENSUS_NO_WRAPPERS)) {
		ret = tarread_walk(tree, want_headers, visit_header, &w, &st);
		if (ret < 0)
			goto out;
		out->timing.defines_read = st.read_seconds;
		out->timing.defines_scan = st.visit_seconds;
		memset(&st, 0, sizeof(st));
	}
	w.seen = 0;
	ret = tarread_walk(tree, want_sources, visit_source, &w, &st);
	if (ret < 0)
		goto out;
	out->timing.count_read = st.read_seconds;
	out->timing.count_scan = st.visit_seconds;

	census_parse_release(out, &((struct census_priv *)out->priv)->makefile);
	t1 = monotonic_now();
	ret = attribute(out, opts->flags);
	out->timing.attribute = monotonic_now() - t1;
out:
	out->timing.total = monotonic_now() - t0;
	scan_result_clear(&w.res);
	strvec_clear(&w.pending);
	return ret;
}

/* --- output ------------------------------------------------------------ */

bool census_is_bug_on_family(const struct census_macro *m)
{
	return m->class == RC_BUG && (strstr(m->name, "BUG_ON") ||
				      (m->wraps && strstr(m->wraps, "BUG_ON")));
}

static int cmp_macro_ptr(const void *a, const void *b)
{
	const struct census_macro *x = *(const struct census_macro *const *)a;
	const struct census_macro *y = *(const struct census_macro *const *)b;
	long tx = x->calls + x->added + x->removed;
	long ty = y->calls + y->added + y->removed;

	if (tx != ty)
		return tx < ty ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The macros sorted by count, largest first (array of borrowed pointers). */
const struct census_macro **census_sorted_macros(const struct census *c)
{
	/* An array of pointers: its element is a pointer, on purpose. */
	size_t elem = sizeof(const struct census_macro *);
	const struct census_macro **v = xcalloc(c->nr_macros + 1, elem);

	for (size_t i = 0; i < c->nr_macros; i++)
		v[i] = &c->macros[i];
	if (c->nr_macros)
		qsort(v, c->nr_macros, elem, cmp_macro_ptr);
	return v;
}

void census_family_totals(const struct census *c, struct census_family *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->nr_macros; i++) {
		const struct census_macro *m = &c->macros[i];

		if (census_is_bug_on_family(m)) {
			out->bug_on_family += m->calls;
			out->bug_on_family_added += m->added;
			out->bug_on_family_removed += m->removed;
		}
		if (!strcmp(m->name, "BUG_ON"))
			out->bug_on += m->calls;
		if (!strcmp(m->name, "BUG"))
			out->bug += m->calls;
		if (m->wraps && m->class == RC_BUG)
			out->bug_wrappers += m->calls;
	}
}

static json_t *class_object(const long *v)
{
	json_t *o = json_object();

	for (int k = 0; k < RC__NR; k++)
		json_object_set_new(o, rule_class_name(k), json_integer(v[k]));
	return o;
}

static json_t *macro_object(const struct census *c, const long *v,
			    const struct census_macro **sorted)
{
	json_t *o = json_object();

	for (size_t i = 0; i < c->nr_macros; i++) {
		size_t k = sorted[i] - c->macros;

		if (v[k])
			json_object_set_new(o, sorted[i]->name, json_integer(v[k]));
	}
	return o;
}

static json_t *timing_object(const struct census_timing *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "defines_read", json_real(t->defines_read));
	json_object_set_new(o, "defines_scan", json_real(t->defines_scan));
	json_object_set_new(o, "count_read", json_real(t->count_read));
	json_object_set_new(o, "count_scan", json_real(t->count_scan));
	json_object_set_new(o, "attribute", json_real(t->attribute));
	json_object_set_new(o, "total", json_real(t->total));
	return o;
}

/* The wrapper macros the census counted, with what they wrap. */
static json_t *wrappers_json(const struct census *c, const struct census_macro **sorted)
{
	json_t *wr = json_array();

	for (size_t i = 0; i < c->nr_macros; i++) {
		const struct census_macro *m = sorted[i];
		json_t *w;

		if (!m->wraps)
			continue;
		w = json_object();
		json_object_set_new(w, "name", json_string(m->name));
		json_object_set_new(w, "wraps", json_string(m->wraps));
		json_object_set_new(w, "class", json_string(rule_class_name(m->class)));
		if (c->from) {
			json_object_set_new(w, "added", json_integer(m->added));
			json_object_set_new(w, "removed", json_integer(m->removed));
		} else {
			json_object_set_new(w, "calls", json_integer(m->calls));
		}
		json_array_append_new(wr, w);
	}
	return wr;
}

/* Per subsystem: a tree's calls, or a git range's additions and removals. */
static json_t *subsystems_json(const struct census *c, const struct census_macro **sorted)
{
	json_t *subs = json_array();

	for (size_t i = 0; i < c->nr_subsystems; i++) {
		const struct census_subsystem *s = &c->subsystems[i];
		json_t *so = json_object();

		json_object_set_new(so, "name", json_string(s->name));
		json_object_set_new(so, "files", json_integer(s->files));
		if (c->from) {
			json_object_set_new(so, "added", macro_object(c, s->added, sorted));
			json_object_set_new(so, "removed", macro_object(c, s->removed, sorted));
			json_object_set_new(so, "classes_added", class_object(s->classes_added));
			json_object_set_new(so, "classes_removed", class_object(s->classes_removed));
			json_object_set_new(so, "total_added", json_integer(s->total_added));
			json_object_set_new(so, "total_removed", json_integer(s->total_removed));
		} else {
			json_object_set_new(so, "calls", macro_object(c, s->calls, sorted));
			json_object_set_new(so, "classes", class_object(s->classes));
			json_object_set_new(so, "total", json_integer(s->total));
		}
		json_array_append_new(subs, so);
	}
	return subs;
}

json_t *census_to_json(const struct census *c)
{
	const struct census_macro **sorted = census_sorted_macros(c);
	bool git = c->from != NULL;
	struct census_family fam;
	json_t *o = json_object(), *calls = json_object();
	json_t *tot = json_object(), *added, *removed;
	long *v = xcalloc(c->nr_macros + 1, sizeof(long));

	census_family_totals(c, &fam);
	json_object_set_new(o, "source", json_string(c->source));
	json_object_set_new(o, "release", json_string(c->release ? c->release : ""));
	if (git) {
		json_object_set_new(o, "from", json_string(c->from));
		json_object_set_new(o, "to", json_string(c->to));
		json_object_set_new(o, "from_oid", json_string(c->from_oid ? c->from_oid : ""));
		json_object_set_new(o, "to_oid", json_string(c->to_oid ? c->to_oid : ""));
		json_object_set_new(o, "commits", json_integer(c->commits));
		json_object_set_new(o, "commits_exact_renames_only",
				    json_integer(c->exact_renames));
	}
	json_object_set_new(o, "files", json_integer(c->files));
	json_object_set_new(o, "files_with_calls", json_integer(c->files_with_calls));
	json_object_set_new(o, "bytes", json_integer(c->bytes));

	if (git) {
		for (size_t i = 0; i < c->nr_macros; i++)
			v[i] = c->macros[i].added;
		added = macro_object(c, v, sorted);
		for (size_t i = 0; i < c->nr_macros; i++)
			v[i] = c->macros[i].removed;
		removed = macro_object(c, v, sorted);
		json_object_set_new(o, "added", added);
		json_object_set_new(o, "removed", removed);
		json_object_set_new(o, "classes_added", class_object(c->classes_added));
		json_object_set_new(o, "classes_removed", class_object(c->classes_removed));
		json_object_set_new(tot, "added", json_integer(c->total_added));
		json_object_set_new(tot, "removed", json_integer(c->total_removed));
		json_object_set_new(tot, "bug_on_family_added",
				    json_integer(fam.bug_on_family_added));
		json_object_set_new(tot, "bug_on_family_removed",
				    json_integer(fam.bug_on_family_removed));
		json_decref(calls);
	} else {
		for (size_t i = 0; i < c->nr_macros; i++)
			v[i] = c->macros[i].calls;
		json_decref(calls);
		calls = macro_object(c, v, sorted);
		json_object_set_new(o, "calls", calls);
		json_object_set_new(o, "classes", class_object(c->classes));
		json_object_set_new(tot, "calls", json_integer(c->total));
		json_object_set_new(tot, "bug_on", json_integer(fam.bug_on));
		json_object_set_new(tot, "bug_on_family", json_integer(fam.bug_on_family));
		json_object_set_new(tot, "bug", json_integer(fam.bug));
		json_object_set_new(tot, "bug_via_wrappers", json_integer(fam.bug_wrappers));
	}
	json_object_set_new(o, "totals", tot);

	json_object_set_new(o, "wrappers", wrappers_json(c, sorted));
	json_object_set_new(o, "wrapper_definitions", json_integer(c->wrappers));
	json_object_set_new(o, "out_of_scope_wrapper_calls", json_integer(c->out_of_scope));

	json_object_set_new(o, "subsystems", subsystems_json(c, sorted));
	if (!git) {
		json_t *dirs = json_object();

		for (size_t i = 0; i < c->nr_dirs; i++)
			json_object_set_new(dirs, c->dirs[i].name,
					    json_integer(c->dirs[i].calls));
		json_object_set_new(o, "dirs", dirs);
	}
	json_object_set_new(o, "timing", timing_object(&c->timing));
	free(v);
	free(sorted);
	return o;
}

/* 12345678 -> "12,345,678" */
const char *census_num(char *buf, size_t size, long n)
{
	char tmp[32];
	size_t len, j = 0;
	int neg = n < 0;

	snprintf(tmp, sizeof(tmp), "%ld", neg ? -n : n);
	len = strlen(tmp);
	if (neg && j + 1 < size)
		buf[j++] = '-';
	for (size_t i = 0; i < len && j + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = '\0';
	return buf;
}

static void print_tree(FILE *f, const struct census *c, size_t top)
{
	const struct census_macro **sorted = census_sorted_macros(c);
	struct census_family fam;
	char a[32], b[32], d[32];

	census_family_totals(c, &fam);
	fprintf(f, "census of %s%s%s%s\n", c->source, *c->release ? " (release " : "",
		c->release, *c->release ? ")" : "");
	fprintf(f, "%s .c/.h files (%.0f MB), %s calls in %s files, %zu wrapper definitions\n\n",
		census_num(a, sizeof(a), c->files), c->bytes / 1e6,
		census_num(b, sizeof(b), c->total),
		census_num(d, sizeof(d), c->files_with_calls), c->wrappers);
	fprintf(f, "BUG_ON family (not BUILD_BUG_ON): %s  (BUG_ON itself: %s; BUG(): %s)\n\n",
		census_num(a, sizeof(a), fam.bug_on_family),
		census_num(b, sizeof(b), fam.bug_on),
		census_num(d, sizeof(d), fam.bug));

	fprintf(f, "%-12s %10s\n", "class", "calls");
	for (int k = 0; k < RC__NR; k++)
		fprintf(f, "%-12s %10s\n", rule_class_name(k),
			census_num(a, sizeof(a), c->classes[k]));
	fprintf(f, "%-12s %10s\n\n", "total", census_num(a, sizeof(a), c->total));

	fprintf(f, "%-28s %-11s %10s\n", "macro", "class", "calls");
	for (size_t i = 0; i < c->nr_macros && i < top; i++) {
		struct strbuf name = STRBUF_INIT;

		if (!sorted[i]->calls)
			break;
		strbuf_addstr(&name, sorted[i]->name);
		if (sorted[i]->wraps)
			strbuf_addf(&name, " (%s)", sorted[i]->wraps);
		fprintf(f, "%-28s %-11s %10s\n", name.buf,
			rule_class_name(sorted[i]->class),
			census_num(a, sizeof(a), sorted[i]->calls));
		strbuf_release(&name);
	}
	if (c->nr_macros > top)
		fprintf(f, "... %zu more macros (--top=N, or --format=json)\n",
			c->nr_macros - top);

	fprintf(f, "\n%-44s %6s %6s %6s %6s %6s %7s\n", "subsystem (MAINTAINERS)",
		"bug", "panic", "warn", "once", "debug", "total");
	for (size_t i = 0; i < c->nr_subsystems && i < top; i++) {
		const struct census_subsystem *s = &c->subsystems[i];

		fprintf(f, "%-44.44s %6ld %6ld %6ld %6ld %6ld %7ld\n", s->name,
			s->classes[RC_BUG], s->classes[RC_PANIC],
			s->classes[RC_WARN] + s->classes[RC_WARN_LIKE],
			s->classes[RC_WARN_ONCE], s->classes[RC_DEBUG_ONLY],
			s->total);
	}
	if (c->nr_subsystems > top)
		fprintf(f, "... %zu more subsystems\n", c->nr_subsystems - top);
	fprintf(f, "(warn includes warn-like; debug: compiled out without a debug option)\n");
	fprintf(f, "\ntime: %.1f s (wrapper pass: read %.1f s, scan %.1f s; "
		"count pass: read %.1f s, scan %.1f s; subsystems %.1f s)\n",
		c->timing.total, c->timing.defines_read, c->timing.defines_scan,
		c->timing.count_read, c->timing.count_scan, c->timing.attribute);
	free(sorted);
}

static void print_git(FILE *f, const struct census *c, size_t top)
{
	const struct census_macro **sorted = census_sorted_macros(c);
	struct census_family fam;
	char a[32], b[32];

	census_family_totals(c, &fam);
	fprintf(f, "census of %s %s..%s: %zu commits, %zu changed .c/.h files\n",
		c->source, c->from, c->to, c->commits, c->files);
	if (c->exact_renames)
		fprintf(f, "(%zu commits with too many added and deleted files to pair "
			"similar ones as renames: their renamed-and-edited files count as "
			"removed and added)\n", c->exact_renames);
	fprintf(f, "calls added %s, removed %s; BUG_ON family added %ld, removed %ld\n\n",
		census_num(a, sizeof(a), c->total_added),
		census_num(b, sizeof(b), c->total_removed),
		fam.bug_on_family_added, fam.bug_on_family_removed);
	fprintf(f, "%-12s %9s %9s %9s\n", "class", "added", "removed", "net");
	for (int k = 0; k < RC__NR; k++)
		fprintf(f, "%-12s %9ld %9ld %+9ld\n", rule_class_name(k),
			c->classes_added[k], c->classes_removed[k],
			c->classes_added[k] - c->classes_removed[k]);
	fprintf(f, "\n%-28s %-11s %9s %9s %9s\n", "macro", "class", "added",
		"removed", "net");
	for (size_t i = 0; i < c->nr_macros && i < top; i++) {
		const struct census_macro *m = sorted[i];

		if (!m->added && !m->removed)
			break;
		fprintf(f, "%-28s %-11s %9ld %9ld %+9ld\n", m->name,
			rule_class_name(m->class), m->added, m->removed,
			m->added - m->removed);
	}
	fprintf(f, "\n%-44s %9s %9s %9s\n", "subsystem (MAINTAINERS)", "added",
		"removed", "net");
	for (size_t i = 0; i < c->nr_subsystems && i < top; i++) {
		const struct census_subsystem *s = &c->subsystems[i];

		fprintf(f, "%-44.44s %9ld %9ld %+9ld\n", s->name, s->total_added,
			s->total_removed, s->total_added - s->total_removed);
	}
	if (c->nr_subsystems > top)
		fprintf(f, "... %zu more subsystems\n", c->nr_subsystems - top);
	fprintf(f, "\ntime: %.1f s (wrapper definitions %.1f s, diffs and scans %.1f s)\n",
		c->timing.total, c->timing.defines_read + c->timing.defines_scan,
		c->timing.count_read + c->timing.count_scan);
	free(sorted);
}

void census_print(FILE *f, const struct census *c, size_t top)
{
	if (c->from)
		print_git(f, c, top);
	else
		print_tree(f, c, top);
}

void census_release(struct census *c)
{
	struct census_priv *p = c->priv;

	if (p) {
		for (size_t i = 0; i < p->nr_defs; i++) {
			free(p->defs[i].name);
			free(p->defs[i].scope);
			free(p->defs[i].root);
		}
		free(p->defs);
		for (size_t i = 0; i < p->nr_recs; i++)
			free(p->recs[i].path);
		free(p->recs);
		free(p->pairs);
		free(p->changes);
		strmap_clear(&p->macro_ix);
		strmap_clear(&p->def_ix);
		strmap_clear(&p->subsys_ix);
		strmap_clear(&p->dir_ix);
		strbuf_release(&p->maintainers);
		strbuf_release(&p->makefile);
		free(p);
	}
	for (size_t i = 0; i < c->nr_macros; i++) {
		free(c->macros[i].name);
		free(c->macros[i].wraps);
	}
	free(c->macros);
	for (size_t i = 0; i < c->nr_subsystems; i++) {
		free(c->subsystems[i].name);
		free(c->subsystems[i].calls);
		free(c->subsystems[i].added);
		free(c->subsystems[i].removed);
	}
	free(c->subsystems);
	for (size_t i = 0; i < c->nr_dirs; i++)
		free(c->dirs[i].name);
	free(c->dirs);
	free(c->source);
	free(c->release);
	free(c->from);
	free(c->to);
	free(c->from_oid);
	free(c->to_oid);
	memset(c, 0, sizeof(*c));
}
