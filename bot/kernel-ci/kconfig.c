/*
 * Kernel config fragments (merge, normal form, hash, what olddefconfig
 * dropped) and suite selection: which KUnit tests sit next to the files a
 * series touches, and which Kconfig symbols they need.  The Kconfig
 * reading here is deliberately shallow (symbols, "depends on", enclosing
 * "if" and "menu" blocks, prompts): enough to turn a test on, with
 * olddefconfig and kconfig_frag_missing() as the judge of the result.
 */
#include "kconfig.h"
#include "gitlib.h"

#include <dirent.h>
#include <git2.h>
#include <sys/stat.h>

void kconfig_frag_release(struct kconfig_frag *f)
{
	for (size_t i = 0; i < f->nr; i++) {
		free(f->v[i].name);
		free(f->v[i].value);
	}
	free(f->v);
	*f = (struct kconfig_frag)KCONFIG_FRAG_INIT;
}

const struct kconfig_entry *kconfig_frag_get(const struct kconfig_frag *f,
					     const char *name)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

void kconfig_frag_set(struct kconfig_frag *f, const char *name,
		      const char *value)
{
	struct kconfig_entry *e = (struct kconfig_entry *)kconfig_frag_get(f, name);

	if (!e) {
		ALLOC_GROW(f->v, f->nr + 1, f->alloc);
		e = &f->v[f->nr++];
		e->name = xstrdup(name);
	} else {
		free(e->value);
	}
	e->value = value ? xstrdup(value) : NULL;
}

static bool is_sym_char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static size_t sym_len(const char *s)
{
	size_t n = 0;

	while (is_sym_char((unsigned char)s[n]))
		n++;
	return n;
}

/* One line of a fragment; false when it is not a config line. */
static bool parse_line(struct kconfig_frag *f, const char *line)
{
	struct strbuf name = STRBUF_INIT;
	const char *p;
	size_t n;
	bool ok = false;

	if (skip_prefix(line, "CONFIG_", &p)) {
		n = sym_len(p);
		if (n && p[n] == '=') {
			strbuf_add(&name, p, n);
			kconfig_frag_set(f, name.buf, p + n + 1);
			ok = true;
		}
	} else if (skip_prefix(line, "# CONFIG_", &p)) {
		n = sym_len(p);
		if (n && !strcmp(p + n, " is not set")) {
			strbuf_add(&name, p, n);
			kconfig_frag_set(f, name.buf, NULL);
		}
		ok = true;	/* any other comment is just a comment */
	} else if (!*line || *line == '#') {
		ok = true;
	}
	strbuf_release(&name);
	return ok;
}

int kconfig_frag_parse(struct kconfig_frag *f, const char *text, size_t len,
		       const char *name)
{
	struct strbuf line = STRBUF_INIT;
	const char *p = text, *end = text + len;
	int lineno = 0, ret = 0;

	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, p, n);
		strbuf_trim(&line);
		/* A NUL would cut the value short here but not in the file. */
		if (memchr(line.buf, '\0', line.len) || !parse_line(f, line.buf))
			ret = error_code(WW_EINPUT,
					 "'%s' line %d: not a config line: '%.60s'",
					 name, lineno, line.buf);
		p += n + 1;
	}
	strbuf_release(&line);
	return ret;
}

int kconfig_frag_read(struct kconfig_frag *f, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&text, path, KCONFIG_FILE_CAP * 4) < 0) {
		ret = error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				 "cannot read '%s': %s", path,
				 strerror(errno));
		strbuf_release(&text);
		return ret;
	}
	ret = kconfig_frag_parse(f, text.buf, text.len, path);
	strbuf_release(&text);
	return ret;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct kconfig_entry *)a)->name,
		      ((const struct kconfig_entry *)b)->name);
}

void kconfig_frag_format(struct strbuf *out, const struct kconfig_frag *f)
{
	struct kconfig_entry *v = xcalloc(f->nr ? f->nr : 1, sizeof(*v));

	if (f->nr) {	/* an empty fragment has no array at all */
		memcpy(v, f->v, f->nr * sizeof(*v));
		qsort(v, f->nr, sizeof(*v), cmp_entry);
	}
	for (size_t i = 0; i < f->nr; i++) {
		if (v[i].value)
			strbuf_addf(out, "CONFIG_%s=%s\n", v[i].name,
				    v[i].value);
		else
			strbuf_addf(out, "# CONFIG_%s is not set\n",
				    v[i].name);
	}
	free(v);
}

void kconfig_frag_hash(struct strbuf *out, const struct kconfig_frag *f)
{
	struct strbuf text = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	kconfig_frag_format(&text, f);
	gitlib_init();
	if (git_odb_hash(&oid, text.buf, text.len, GIT_OBJECT_BLOB) < 0)
		BUG("git_odb_hash failed");
	git_oid_tostr(hex, sizeof(hex), &oid);
	strbuf_add(out, hex, 12);
	strbuf_release(&text);
}

void kconfig_frag_missing(struct strvec *out, const struct kconfig_frag *want,
			  const struct kconfig_frag *got)
{
	for (size_t i = 0; i < want->nr; i++) {
		const struct kconfig_entry *w = &want->v[i];
		const struct kconfig_entry *g = kconfig_frag_get(got, w->name);
		const char *gv = g && g->value && strcmp(g->value, "n") ?
				 g->value : NULL;

		if (!w->value || !strcmp(w->value, "n")) {
			if (gv)
				strvec_pushf(out, "# CONFIG_%s is not set (got: %s)",
					     w->name, gv);
		} else if (!gv || strcmp(gv, w->value)) {
			strvec_pushf(out, "CONFIG_%s=%s (got: %s)", w->name,
				     w->value, gv ? gv : "not set");
		}
	}
}

/* The directory of `file` ("" for a top-level file), into `out`. */
static void dir_of(struct strbuf *out, const char *file)
{
	const char *slash = strrchr(file, '/');

	strbuf_reset(out);
	if (slash)
		strbuf_add(out, file, slash - file);
}

/* ---- Kconfig index ---- */

static void add_cond(struct strbuf *deps, const char *cond);

struct ksym {
	char *name;
	char *file;		/* relative to the tree, for messages */
	struct strbuf deps;	/* "depends on" and enclosing conditions, joined by && */
	bool prompt;		/* user-settable (has a prompt) */
	bool choice;		/* inside a choice block: leave alone */
};

/* `source "fs/ext4/Kconfig"` inside `if BLOCK`: the file inherits it. */
struct ksource {
	char *file;		/* the sourced file, relative to the tree */
	char *from;		/* the file with the source line */
	char *conds;		/* the conditions around that line */
};

struct kindex {
	struct ksym *v;
	size_t nr, alloc;
	struct ksource *src;
	size_t src_nr, src_alloc;
};

static void kindex_release(struct kindex *ix)
{
	for (size_t i = 0; i < ix->nr; i++) {
		free(ix->v[i].name);
		free(ix->v[i].file);
		strbuf_release(&ix->v[i].deps);
	}
	free(ix->v);
	for (size_t i = 0; i < ix->src_nr; i++) {
		free(ix->src[i].file);
		free(ix->src[i].from);
		free(ix->src[i].conds);
	}
	free(ix->src);
}

/* "source "arch/$(SRCARCH)/Kconfig"" -> record where and under what. */
static void kindex_add_source(struct kindex *ix, const char *from,
			      const char *arg, const struct strbuf *conds)
{
	struct strbuf file = STRBUF_INIT;
	const char *q = strchr(arg, '"'), *end = q ? strchr(q + 1, '"') : NULL;
	struct ksource *k;

	if (!end || !conds->len)
		return;
	for (const char *p = q + 1; p < end; ) {
		if (starts_with(p, "$(SRCARCH)")) {
			strbuf_addstr(&file, "x86");
			p += strlen("$(SRCARCH)");
		} else {
			strbuf_addch(&file, *p++);
		}
	}
	ALLOC_GROW(ix->src, ix->src_nr + 1, ix->src_alloc);
	k = &ix->src[ix->src_nr++];
	k->file = strbuf_detach(&file, NULL);
	k->from = xstrdup(from);
	k->conds = xstrdup(conds->buf);
}

/* The conditions a file inherits from where it is sourced (bounded). */
static void kindex_file_conds(struct strbuf *out, const struct kindex *ix,
			      const char *file, int depth)
{
	if (depth > 8)
		return;
	for (size_t i = 0; i < ix->src_nr; i++)
		if (!strcmp(ix->src[i].file, file)) {
			add_cond(out, ix->src[i].conds);
			kindex_file_conds(out, ix, ix->src[i].from, depth + 1);
			return;
		}
}

/* Definitions repeat across arch/ Kconfigs: prefer x86's or a generic one. */
static struct ksym *kindex_find(struct kindex *ix, const char *name)
{
	struct ksym *found = NULL;

	for (size_t i = 0; i < ix->nr; i++) {
		struct ksym *s = &ix->v[i];

		if (strcmp(s->name, name))
			continue;
		if (!starts_with(s->file, "arch/") ||
		    starts_with(s->file, "arch/x86/"))
			return s;
		if (!found)
			found = s;
	}
	return found;
}

static void add_cond(struct strbuf *deps, const char *cond)
{
	if (!*cond)
		return;
	if (deps->len)
		strbuf_addstr(deps, " && ");
	strbuf_addf(deps, "(%s)", cond);
}

#define KCONFIG_NEST_MAX 32

struct kparse {
	char *conds[KCONFIG_NEST_MAX];	/* enclosing "if" and "menu" conditions */
	bool is_menu[KCONFIG_NEST_MAX];
	int depth;
	struct ksym *cur;		/* the entry being read, or NULL */
	bool menu_head;			/* just after "menu": depends on is the menu's */
	int in_choice;
};

static void kparse_push(struct kparse *ps, const char *cond, bool menu)
{
	if (ps->depth < KCONFIG_NEST_MAX) {
		ps->conds[ps->depth] = xstrdup(cond);
		ps->is_menu[ps->depth] = menu;
	}
	ps->depth++;
}

static void kparse_pop(struct kparse *ps)
{
	if (ps->depth <= 0)
		return;
	ps->depth--;
	if (ps->depth < KCONFIG_NEST_MAX) {
		free(ps->conds[ps->depth]);
		ps->conds[ps->depth] = NULL;
	}
}

static void kparse_line(struct kindex *ix, struct kparse *ps,
			const char *file, const char *line)
{
	const char *s = line + strspn(line, " \t"), *p;
	bool top = s == line;

	if (top && (skip_prefix(s, "config ", &p) ||
		    skip_prefix(s, "menuconfig ", &p))) {
		struct strbuf name = STRBUF_INIT;

		p += strspn(p, " \t");
		strbuf_add(&name, p, sym_len(p));
		ALLOC_GROW(ix->v, ix->nr + 1, ix->alloc);
		ps->cur = &ix->v[ix->nr++];
		ps->cur->name = strbuf_detach(&name, NULL);
		ps->cur->file = xstrdup(file);
		strbuf_init(&ps->cur->deps, 0);
		ps->cur->prompt = false;
		ps->cur->choice = ps->in_choice > 0;
		for (int i = 0; i < ps->depth && i < KCONFIG_NEST_MAX; i++)
			add_cond(&ps->cur->deps, ps->conds[i]);
		ps->menu_head = false;
		return;
	}
	if (top && *s && *s != '#') {
		ps->cur = NULL;
		ps->menu_head = false;
		if (skip_prefix(s, "if ", &p)) {
			kparse_push(ps, p + strspn(p, " \t"), false);
		} else if (!strncmp(s, "endif", 5) || !strncmp(s, "endmenu", 7)) {
			kparse_pop(ps);
		} else if (skip_prefix(s, "menu ", &p)) {
			kparse_push(ps, "", true);
			ps->menu_head = true;
		} else if (!strncmp(s, "choice", 6)) {
			ps->in_choice++;
		} else if (!strncmp(s, "endchoice", 9) && ps->in_choice) {
			ps->in_choice--;
		} else if (skip_prefix(s, "source ", &p)) {
			struct strbuf c = STRBUF_INIT;

			for (int i = 0; i < ps->depth && i < KCONFIG_NEST_MAX; i++)
				add_cond(&c, ps->conds[i]);
			kindex_add_source(ix, file, p, &c);
			strbuf_release(&c);
		}
		return;
	}
	if (skip_prefix(s, "depends on ", &p)) {
		p += strspn(p, " \t");
		if (ps->cur) {
			add_cond(&ps->cur->deps, p);
		} else if (ps->menu_head && ps->depth > 0 &&
			   ps->depth <= KCONFIG_NEST_MAX) {
			struct strbuf c = STRBUF_INIT;

			strbuf_addstr(&c, ps->conds[ps->depth - 1]);
			add_cond(&c, p);
			free(ps->conds[ps->depth - 1]);
			ps->conds[ps->depth - 1] = strbuf_detach(&c, NULL);
		}
		return;
	}
	if (ps->cur && (skip_prefix(s, "bool", &p) ||
			skip_prefix(s, "tristate", &p) ||
			skip_prefix(s, "prompt", &p)) &&
	    strchr(p, '"'))
		ps->cur->prompt = true;
}

static void kindex_parse_file(struct kindex *ix, const char *path,
			      const char *rel)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
	struct kparse ps;
	char *p, *nl;

	memset(&ps, 0, sizeof(ps));
	if (strbuf_read_file(&text, path, KCONFIG_FILE_CAP) < 0)
		goto out;
	for (p = text.buf; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		strbuf_add(&line, p, nl ? (size_t)(nl - p) : strlen(p));
		strbuf_rtrim(&line);
		/* Continuation lines end in a backslash. */
		if (line.len && line.buf[line.len - 1] == '\\') {
			strbuf_setlen(&line, line.len - 1);
			if (nl)
				continue;
		}
		kparse_line(ix, &ps, rel, line.buf);
		strbuf_reset(&line);
		if (!nl)
			break;
	}
out:
	while (ps.depth > 0)
		kparse_pop(&ps);
	strbuf_release(&line);
	strbuf_release(&text);
}

/* Every Kconfig* file under `dir` (Documentation and tools skipped). */
static void kindex_walk(struct kindex *ix, struct strbuf *path, size_t root_len,
			int depth)
{
	DIR *d;
	struct dirent *e;
	size_t len = path->len;

	if (depth > 16 || !(d = opendir(path->buf)))
		return;
	while ((e = readdir(d))) {
		const char *rel;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		strbuf_setlen(path, len);
		strbuf_addf(path, "/%s", e->d_name);
		rel = path->buf + root_len + 1;
		if (lstat(path->buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!strcmp(rel, "Documentation") ||
			    !strcmp(rel, "tools") || !strcmp(rel, "scripts") ||
			    !strcmp(rel, "samples") || !strcmp(rel, "LICENSES"))
				continue;
			kindex_walk(ix, path, root_len, depth + 1);
		} else if (S_ISREG(st.st_mode) &&
			   starts_with(e->d_name, "Kconfig")) {
			kindex_parse_file(ix, path->buf, rel);
		}
	}
	strbuf_setlen(path, len);
	closedir(d);
}

/* ---- Makefiles: which test objects live in a directory ---- */

static bool testish_symbol(const char *sym)
{
	return strstr(sym, "TEST") || strstr(sym, "KUNIT");
}

static bool testish_object(const char *obj)
{
	return ends_with(obj, ".o") && (strstr(obj, "test") ||
					strstr(obj, "kunit"));
}

/*
 * "obj-$(CONFIG_FOO_KUNIT_TEST) += foo_test.o" and the composite form
 * "ext4-$(CONFIG_EXT4_KUNIT_TESTS) += inode-test.o": call `fn` for each
 * test-looking object with its symbol.
 */
static void scan_makefile(const char *srctree, const char *dir,
			  void (*fn)(void *, const char *, const char *),
			  void *data)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf sym = STRBUF_INIT, obj = STRBUF_INIT;
	static const char *const names[] = { "Makefile", "Kbuild" };
	char *p, *nl;

	for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s%s%s", srctree, dir, *dir ? "/" : "",
			    names[k]);
		if (strbuf_read_file(&text, path.buf, KCONFIG_FILE_CAP) < 0)
			continue;
		/* Join continuation lines. */
		for (p = text.buf; (p = strchr(p, '\\')); p++)
			if (p[1] == '\n')
				p[0] = p[1] = ' ';
		for (p = text.buf; *p; p = nl ? nl + 1 : p + strlen(p)) {
			const char *q = strstr(p, "$(CONFIG_");
			const char *eq;

			nl = strchr(p, '\n');
			if (nl)
				*nl = '\0';
			if (*p == '#' || !q || !(eq = strstr(q, "+=")))
				goto next;
			q += strlen("$(CONFIG_");
			strbuf_reset(&sym);
			strbuf_add(&sym, q, sym_len(q));
			if (q[sym.len] != ')' || !testish_symbol(sym.buf))
				goto next;
			for (q = eq + 2; *q; ) {
				q += strspn(q, " \t");
				strbuf_reset(&obj);
				strbuf_add(&obj, q, strcspn(q, " \t#"));
				if (!obj.len || *q == '#')
					break;
				q += obj.len;
				if (testish_object(obj.buf))
					fn(data, sym.buf, obj.buf);
			}
next:
			if (!nl)
				break;
		}
	}
	strbuf_release(&obj);
	strbuf_release(&sym);
	strbuf_release(&text);
	strbuf_release(&path);
}

/* ---- Selection ---- */

struct cands;

struct select_ctx {
	struct kconfig_suites *out;
	struct kindex *ix;
	const char *srctree;
	const char *dir;	/* the directory being scanned */
	struct cands *cands;	/* what scanning found */
};

/* Does the expression mention symbol `name` (as a whole word)? */
static bool mentions(const char *expr, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = expr; (p = strstr(p, name)); p += n)
		if ((p == expr || !is_sym_char((unsigned char)p[-1])) &&
		    !is_sym_char((unsigned char)p[n]))
			return true;
	return false;
}

/* `struct kunit_suite foo = { .name = "bar", ...}` in one test source. */
static bool suite_names_in(struct strvec *out, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	const char *p;

	if (strbuf_read_file(&text, path, KCONFIG_FILE_CAP) < 0) {
		strbuf_release(&text);
		return false;
	}
	for (p = text.buf; (p = strstr(p, "struct kunit_suite ")); ) {
		const char *brace, *name, *q, *end;

		p += strlen("struct kunit_suite ");
		brace = strchr(p, '{');
		if (!brace || memchr(p, ';', brace - p))
			continue;	/* a declaration, not a definition */
		end = strstr(brace, "};");
		name = strstr(brace, ".name");
		if (!name || (end && name > end))
			continue;
		q = name + strlen(".name");
		q += strspn(q, " \t");
		if (*q++ != '=')
			continue;
		q += strspn(q, " \t");
		if (*q++ != '"')
			continue;
		end = strchr(q, '"');
		if (end && end - q < 128) {
			struct strbuf s = STRBUF_INIT;

			strbuf_add(&s, q, end - q);
			if (!strvec_has(out, s.buf))
				strvec_push(out, s.buf);
			strbuf_release(&s);
		}
	}
	strbuf_release(&text);
	return true;
}

/* The parts of composite object `base` ("ext4-inode-test-objs +=
 * inode-test.o" or "foo-y += a.o") in `makefile`'s text. */
static void composite_parts(struct strvec *out, const char *makefile,
			    const char *base)
{
	struct strbuf text = STRBUF_INIT, obj = STRBUF_INIT;
	size_t n = strlen(base);

	if (strbuf_read_file(&text, makefile, KCONFIG_FILE_CAP) < 0)
		goto out;
	for (const char *p = text.buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p;

		if (strncmp(q, base, n) || q[n] != '-')
			continue;
		q += n + 1;
		if (!skip_prefix(q, "objs", &q) && !skip_prefix(q, "y", &q))
			continue;
		q += strspn(q, " \t");
		if (!skip_prefix(q, "+=", &q) && !skip_prefix(q, ":=", &q))
			continue;
		while (*q && *q != '\n') {
			q += strspn(q, " \t");
			strbuf_reset(&obj);
			strbuf_add(&obj, q, strcspn(q, " \t\n#"));
			if (!obj.len || *q == '#')
				break;
			q += obj.len;
			if (ends_with(obj.buf, ".o") && out->nr < 16)
				strvec_push(out, obj.buf);
		}
	}
out:
	strbuf_release(&obj);
	strbuf_release(&text);
}

static void suite_names(struct strvec *out, const char *srctree,
			const char *dir, const char *obj)
{
	struct strbuf path = STRBUF_INIT, base = STRBUF_INIT;
	struct strvec parts = STRVEC_INIT;
	const char *sep = *dir ? "/" : "";

	strbuf_add(&base, obj, strlen(obj) - 2);
	strbuf_addf(&path, "%s/%s%s%s.c", srctree, dir, sep, base.buf);
	if (suite_names_in(out, path.buf))
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s%sMakefile", srctree, dir, sep);
	composite_parts(&parts, path.buf, base.buf);
	for (size_t i = 0; i < parts.nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s%s%.*s.c", srctree, dir, sep,
			    (int)strlen(parts.v[i]) - 2, parts.v[i]);
		suite_names_in(out, path.buf);
	}
out:
	strvec_clear(&parts);
	strbuf_release(&base);
	strbuf_release(&path);
}

/* A KUnit test object found next to a touched file. */
struct cand {
	char *sym;
	char *dir;
	char *obj;
};

struct cands {
	struct cand *v;
	size_t nr, alloc;
};

static void cands_clear(struct cands *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->v[i].sym);
		free(c->v[i].dir);
		free(c->v[i].obj);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static void on_test_object(void *data, const char *sym, const char *obj)
{
	struct select_ctx *ctx = data;
	struct ksym *s = kindex_find(ctx->ix, sym);
	struct cand *c;

	if (!s || !mentions(s->deps.buf, "KUNIT"))
		return;		/* not a KUnit test (e.g. a boot-time self test) */
	ALLOC_GROW(ctx->cands->v, ctx->cands->nr + 1, ctx->cands->alloc);
	c = &ctx->cands->v[ctx->cands->nr++];
	c->sym = xstrdup(sym);
	c->dir = xstrdup(ctx->dir);
	c->obj = xstrdup(obj);
}

/*
 * Does test object `obj` name the touched file's stem as a word?
 * cmdline.c: cmdline_kunit.o; inode.c: ext4-inode-test.o.
 */
static bool names_stem(const char *obj, const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n;

	base = base ? base + 1 : file;
	n = strcspn(base, ".");
	if (!n)
		return false;
	for (const char *p = obj; *p; p++) {
		if (strncmp(p, base, n))
			continue;
		if ((p == obj || p[-1] == '_' || p[-1] == '-') &&
		    (p[n] == '_' || p[n] == '-' || p[n] == '.'))
			return true;
	}
	return false;
}

static void take_cand(struct select_ctx *ctx, const struct cand *c)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s%s%s", c->dir, *c->dir ? "/" : "", c->obj);
	if (!strvec_has(&ctx->out->objects, path.buf)) {
		strvec_push(&ctx->out->objects, path.buf);
		suite_names(&ctx->out->suites, ctx->srctree, c->dir, c->obj);
	}
	if (!strvec_has(&ctx->out->tests, c->sym))
		strvec_push(&ctx->out->tests, c->sym);
	strbuf_release(&path);
}

/* Symbols an expression needs: every positive one in an && chain, the
 * first positive one of an || group. */
static void needed_symbols(struct strvec *out, const char *expr)
{
	const char *p = expr;
	bool negated = false, in_or_done = false;
	int paren = 0;

	while (*p) {
		size_t n;

		if (*p == '!' && p[1] != '=') {
			negated = true;
			p++;
			continue;
		}
		if (*p == '(') {
			paren++;
			p++;
			continue;
		}
		if (*p == ')') {
			paren--;
			negated = false;
			p++;
			continue;
		}
		if (!strncmp(p, "&&", 2)) {
			in_or_done = false;
			negated = false;
			p += 2;
			continue;
		}
		if (!strncmp(p, "||", 2)) {
			negated = false;
			p += 2;
			continue;
		}
		n = sym_len(p);
		if (!n) {
			p++;
			continue;
		}
		{
			struct strbuf sym = STRBUF_INIT;
			const char *after = p + n;

			strbuf_add(&sym, p, n);
			after += strspn(after, " \t");
			/* FOO=n / FOO!=y ask for it off: leave it. */
			if ((!strncmp(after, "=n", 2) || !strncmp(after, "= n", 3) ||
			     !strncmp(after, "!=y", 3) || !strncmp(after, "!= y", 4)))
				negated = true;
			if (!negated && !in_or_done &&
			    strcmp(sym.buf, "y") && strcmp(sym.buf, "m") &&
			    strcmp(sym.buf, "n") && !strvec_has(out, sym.buf)) {
				strvec_push(out, sym.buf);
				/* Inside an || group one alternative is enough. */
				if (strstr(after, "||") == after)
					in_or_done = true;
			}
			negated = false;
			strbuf_release(&sym);
		}
		p += n;
		/* Skip "=y"/"!=n" comparisons. */
		p += strspn(p, " \t");
		if (*p == '=' || (*p == '!' && p[1] == '=')) {
			p += *p == '=' ? 1 : 2;
			p += strspn(p, " \t");
			p += sym_len(p);
		}
	}
	(void)paren;
}

/*
 * Never switched on for a test: they change how every file is compiled
 * (tracing, sanitizers, hardening, debug info...), so the build would
 * start from scratch and the kernel would no longer be the base.
 */
static bool never_enable(const char *sym)
{
	static const char *const global[] = {
		"COMPILE_TEST", "UML", "MODULES", "SMP", "EXPERT",
		"KASAN", "KCSAN", "KMSAN", "UBSAN", "KCOV", "GCOV_KERNEL",
		"FTRACE", "FUNCTION_TRACER", "FUNCTION_GRAPH_TRACER",
		"DYNAMIC_FTRACE", "KPROBES", "KPROBE_EVENTS", "FPROBE",
		"TRACING", "PROFILING", "FORTIFY_SOURCE", "STACKPROTECTOR",
		"STACKPROTECTOR_STRONG", "FRAME_POINTER", "DEBUG_INFO",
		"LOCKDEP", "PROVE_LOCKING", "DEBUG_LOCK_ALLOC", "PREEMPT",
		"PREEMPT_RT", "LTO", "RETPOLINE", "GCC_PLUGINS", "KALLSYMS_ALL",
	};

	for (size_t i = 0; i < ARRAY_SIZE(global); i++)
		if (!strcmp(sym, global[i]))
			return true;
	return starts_with(sym, "ARCH_") || starts_with(sym, "HAVE_") ||
	       starts_with(sym, "CC_") || starts_with(sym, "DEBUG_INFO") ||
	       starts_with(sym, "INIT_STACK_") || starts_with(sym, "KASAN_") ||
	       starts_with(sym, "UBSAN_") || starts_with(sym, "LTO_");
}

/* "fs/ext4/Kconfig" -> "fs/ext4"; counts its components. */
static size_t kconfig_dir(struct strbuf *out, const char *file)
{
	size_t n = 0;

	dir_of(out, file);
	for (size_t i = 0; i < out->len; i++)
		n += out->buf[i] == '/';
	return out->len ? n + 1 : 0;
}

/*
 * Is `dep` (needed by `test`) part of the test's own subsystem: defined
 * in the same directory, or in one inside the other at least two levels
 * deep (drivers/clk and drivers/clk/foo, not fs and fs/ext4)?
 */
static bool same_subsystem(const struct ksym *test, const struct ksym *dep)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t na = kconfig_dir(&a, test->file), nb = kconfig_dir(&b, dep->file);
	const struct strbuf *lo = na <= nb ? &a : &b, *hi = na <= nb ? &b : &a;
	bool same;

	same = !strcmp(a.buf, b.buf) ||
	       ((na < nb ? na : nb) >= 2 && !strncmp(hi->buf, lo->buf, lo->len) &&
		hi->buf[lo->len] == '/');
	strbuf_release(&b);
	strbuf_release(&a);
	return same;
}

/* What `s` needs: its own "depends on", the "if"/"menu" blocks around it,
 * and those around the places its file is sourced from. */
static void symbol_deps(struct strvec *out, const struct kindex *ix,
			const struct ksym *s)
{
	struct strbuf all = STRBUF_INIT;

	strbuf_addbuf(&all, &s->deps);
	kindex_file_conds(&all, ix, s->file, 0);
	needed_symbols(out, all.buf);
	strbuf_release(&all);
}

static void add_with_deps(struct kconfig_suites *out, struct kindex *ix,
			  const char *test, const char *sym, int depth)
{
	struct strvec deps = STRVEC_INIT;
	struct ksym *s, *t;

	if (strvec_has(&out->symbols, sym) || never_enable(sym) ||
	    out->symbols.nr >= KCONFIG_SYMBOLS_MAX)
		return;
	s = kindex_find(ix, sym);
	t = kindex_find(ix, test);
	if (!s || !t || s->choice)
		return;
	/* Outside the test's subsystem: what the base has is what it gets. */
	if (depth && !same_subsystem(t, s))
		return;
	/* Prompt-less symbols follow from others: only those are set. */
	if (s->prompt || depth == 0)
		strvec_push(&out->symbols, sym);
	if (depth >= KCONFIG_DEPTH_MAX)
		return;
	symbol_deps(&deps, ix, s);
	for (size_t i = 0; i < deps.nr; i++)
		add_with_deps(out, ix, test, deps.v[i], depth + 1);
	strvec_clear(&deps);
}

static void scan_dir(struct select_ctx *ctx, const char *dir)
{
	ctx->dir = dir;
	scan_makefile(ctx->srctree, dir, on_test_object, ctx);
}

/*
 * The tests covering one touched file: those in its directory (and its
 * tests/ or kunit/ subdirectory), else those of the parent directory;
 * when some of them are named after the file, only those.
 */
static void select_for_file(struct select_ctx *ctx, const char *file)
{
	struct strbuf dir = STRBUF_INIT, sub = STRBUF_INIT;
	struct cands found;
	bool named = false;

	memset(&found, 0, sizeof(found));
	ctx->cands = &found;
	dir_of(&dir, file);
	if (!dir.len)
		goto out;	/* top-level files: no tests next to them */
	scan_dir(ctx, dir.buf);
	strbuf_addf(&sub, "%s/tests", dir.buf);
	scan_dir(ctx, sub.buf);
	strbuf_reset(&sub);
	strbuf_addf(&sub, "%s/kunit", dir.buf);
	scan_dir(ctx, sub.buf);
	if (!found.nr) {
		dir_of(&sub, dir.buf);
		if (sub.len)
			scan_dir(ctx, sub.buf);
	}
	for (size_t i = 0; i < found.nr; i++)
		named |= names_stem(found.v[i].obj, file);
	for (size_t i = 0; i < found.nr; i++)
		if (!named || names_stem(found.v[i].obj, file))
			take_cand(ctx, &found.v[i]);
out:
	cands_clear(&found);
	ctx->cands = NULL;
	strbuf_release(&sub);
	strbuf_release(&dir);
}

int kconfig_select_suites(struct kconfig_suites *out, const char *srctree,
			  const struct strvec *touched)
{
	struct kindex ix;
	struct strbuf path = STRBUF_INIT;
	struct select_ctx ctx = { out, &ix, srctree, NULL, NULL };

	memset(&ix, 0, sizeof(ix));
	if (!touched || !touched->nr)
		goto out;
	strbuf_addstr(&path, srctree);
	kindex_walk(&ix, &path, strlen(srctree), 0);
	for (size_t i = 0; i < touched->nr; i++)
		select_for_file(&ctx, touched->v[i]);
	for (size_t i = 0; i < out->tests.nr; i++)
		add_with_deps(out, &ix, out->tests.v[i], out->tests.v[i], 0);
	strvec_sort(&out->tests);
	strvec_sort(&out->symbols);
	strvec_sort(&out->suites);
	strvec_sort(&out->objects);
out:
	kindex_release(&ix);
	strbuf_release(&path);
	return 0;
}

void kconfig_suites_release(struct kconfig_suites *s)
{
	strvec_clear(&s->tests);
	strvec_clear(&s->symbols);
	strvec_clear(&s->suites);
	strvec_clear(&s->objects);
}
