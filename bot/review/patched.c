/*
 * The series applied to a scratch copy of the files it touches, the
 * facts about each added call read there, and the reply's rewrites
 * compiled there (see patched.h).
 */
#include "patched.h"
#include "byname.h"
#include "cfront.h"
#include "env.h"
#include "child.h"
#include "diff.h"
#include "kapply.h"
#include "mkdirs.h"
#include "safefs.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATCHED_FILE_MAX (8u << 20)
#define PATCHED_TIMEOUT_MS (60 * 1000)

struct touched {
	struct strvec paths;
	char *bad;		/* the first path refused (a copy), or NULL */
};

static void add_path(struct touched *t, const char *path)
{
	if (strvec_has(&t->paths, path))
		return;
	if (!kapply_bad_path(path))
		strvec_push(&t->paths, path);
	else if (!t->bad)
		t->bad = xstrdup(path);
}

/* Every path the series names, old and new, from the check's line map
 * (it records every file of every patch). */
static void collect(struct touched *t, const struct linemap *m)
{
	for (size_t i = 0; m && i < m->nr; i++)
		for (size_t k = 0; k < m->patches[i].nr; k++) {
			add_path(t, m->patches[i].files[k].old_path);
			add_path(t, m->patches[i].files[k].new_path);
		}
}

/* Copy tree/rel into the scratch copy, when the tree has it. */
static int copy_in(struct patched *p, const char *rel)
{
	struct strbuf text = STRBUF_INIT, to = STRBUF_INIT;
	int ret = safefs_read(&text, p->tree, rel, PATCHED_FILE_MAX, 0);

	if (ret == WW_ENOTFOUND) {	/* a file the series creates */
		error_clear();
		ret = 0;
		goto out;
	}
	if (ret)
		goto out;
	p->copied++;
	strbuf_addf(&to, "%s/%s", p->dir.buf, rel);
	*strrchr(to.buf, '/') = '\0';
	ret = mkdirs(to.buf, 0700, WW_EINPUT);
	to.buf[strlen(to.buf)] = '/';
	if (!ret)
		ret = strbuf_write_file(&text, to.buf);
out:
	strbuf_release(&text);
	strbuf_release(&to);
	return ret;
}

/*
 * The hunks patch placed blind, from its report ("patching file X",
 * "Hunk #2 succeeded at 35 with fuzz 3 (offset -3 lines)."): with fuzz 3
 * against three lines of context it ignored all of them, and put the
 * hunk where its header says.  Noted as "PATCH:HUNK:FILE" in p->blind.
 */
static void note_blind(struct patched *p, int index, const struct strbuf *out)
{
	const char *file = NULL;
	size_t file_len = 0;

	for (const char *l = out->buf; *l;) {
		size_t n = strcspn(l, "\n");
		int hunk;

		if (starts_with(l, "patching file ")) {
			file = l + strlen("patching file ");
			file_len = n - strlen("patching file ");
			if (file_len >= 2 && file[0] == '\'' && file[file_len - 1] == '\'') {
				file++;
				file_len -= 2;	/* quoted: a name with blanks */
			}
		} else if (file && sscanf(l, "Hunk #%d succeeded at", &hunk) == 1 &&
			   memmem(l, n, " with fuzz 3", strlen(" with fuzz 3"))) {
			strvec_pushf(&p->blind, "%d:%d:%.*s", index, hunk, (int)file_len, file);
		}
		l += n + (l[n] == '\n');
	}
}

/* `patch -p1 --fuzz=3` of one patch of the series; refusals and blind placements are noted. */
static void apply_one(struct patched *p, const struct series_patch *sp)
{
	struct child c = CHILD_INIT;

	strvec_pushl(&c.args, "patch", "-p1", "--fuzz=3", "--batch", "--forward",
		     "--no-backup-if-mismatch", "--reject-file=-", "-d", p->dir.buf, NULL);
	/* note_blind() reads patch's report: in English, whatever the locale. */
	strvec_pushl(&c.env, "LC_ALL=C", "LANGUAGE", NULL);
	c.in = sp->diff;
	c.in_len = sp->diff_len;
	c.timeout_ms = PATCHED_TIMEOUT_MS;
	c.flags = CHILD_STDERR_TO_OUT;
	if (child_run(&c) || c.status) {
		struct strbuf last = STRBUF_INIT;

		child_last_line(&last, &c.out);
		strvec_pushf(&p->failed, "patch %d: %s", sp->index, last.buf);
		ALLOC_GROW(p->refused, p->refused_nr + 1, p->refused_alloc);
		p->refused[p->refused_nr++] = sp->index;
		strbuf_release(&last);
		error_clear();
	}
	note_blind(p, sp->index, &c.out);
	child_release(&c);
}

/* The line nearest `near` of `text` that reads `want` (blanks around ignored). */
static int find_line(const char *text, const char *want, int near)
{
	int line = 1, best = 0;
	size_t n = strlen(want);

	for (const char *p = text; *p; line++) {
		size_t len = strcspn(p, "\n");
		const char *l = p + strspn(p, " \t");

		if ((size_t)(p + len - l) >= n && !strncmp(l, want, n) &&
		    (!best || abs(line - near) < abs(best - near)))
			best = line;
		p += len + (p[len] == '\n');
	}
	return best;
}

/* The call's own first line as the hunk shows it, trimmed. */
static void call_line(struct strbuf *out, const struct finding *f)
{
	const char *p = f->hunk ? f->hunk : "";

	for (int i = 0; i < f->hunk_line && *p; i++)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	if (*p)
		p++;
	strbuf_add(out, p, strcspn(p, "\n"));
	strbuf_trim(out);
}

static size_t patch_pos(const struct series *s, int index)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->patches[i].index == index)
			return i;
	return s->nr;
}

static void flags_for(struct strvec *out, const struct patched *p, size_t i, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	int dir = slash ? (int)(slash - rel) : 0;

	/* A header the series touched wins over the tree's. */
	strvec_pushf(out, "-iquote%s/%.*s", p->dir.buf, dir, rel);
	strvec_pushf(out, "-iquote%s/%.*s", p->tree, dir, rel);
	cfacts_flags(out, p->tree, rel, &p->cmds[i]);
}

/* kbuild's command for the object of `rel`, when a build directory has
 * it; a .o.cmd that does not read as one is noted, and not used. */
static void read_cmd(struct patched *p, size_t i, const char *rel)
{
	int ret = kcmd_read(&p->cmds[i], &p->builds, p->tree, rel);

	if (ret && ret != WW_ENOTFOUND)
		strvec_pushf(&p->failed, "%s", error_last());
	error_clear();
}

static bool refused(const struct patched *p, int index)
{
	for (size_t i = 0; i < p->refused_nr; i++)
		if (p->refused[i] == index)
			return true;
	return false;
}

/* The hunk of finding f's patch (at `pos`) that adds its call, and its
 * index, as the check parsed it. */
static int hunk_for(struct byname_hunk *out, int *index, const struct patched *p,
		    size_t pos, const struct finding *f)
{
	const struct diff_hunk *h = check_hunk_of(p->r, pos, f->file, f->line);
	int ret;

	*index = 0;
	if (!h)
		return error_code(WW_ENOTFOUND, "no hunk adds line %d of '%s'", f->line, f->file);
	ret = byname_hunk_read(out, h, f->line, f->function);
	if (!ret)
		*index = h->index;
	return ret;
}

/* Did patch place a hunk of patch `index` in `file` blind (any, hunk 0)? */
static bool blind(const struct patched *p, int index, int hunk, const char *file)
{
	struct strbuf key = STRBUF_INIT;
	bool found = false;

	if (hunk) {
		strbuf_addf(&key, "%d:%d:%s", index, hunk, file);
		found = strvec_has(&p->blind, key.buf);
	} else {
		for (size_t i = 0; i < p->blind.nr && !found; i++) {
			const char *v = p->blind.v[i], *colon;

			if (atoi(v) != index || !(colon = strchr(v, ':')) ||
			    !(colon = strchr(colon + 1, ':')))
				continue;
			found = !strcmp(colon + 1, file);
		}
	}
	strbuf_release(&key);
	return found;
}

/*
 * Patch refused hunk `bh` of finding f, or placed it blind with its call
 * on line `landed` (else 0) of `text`: the base file (the scratch copy,
 * which holds what did apply, without the block fuzz put there) with
 * the hunk's block placed in the function it names, when that
 * function's signature and context match (byname.h).  0 with *line
 * set, else WW_ENOTFOUND.
 */
static int by_name(struct strbuf *out, int *line, const struct byname_hunk *bh,
		   const struct strbuf *text, int landed)
{
	struct strbuf base = STRBUF_INIT;
	int ret = 0;

	if (landed)
		ret = byname_unplace(&base, text->buf, text->len, bh, landed);
	else
		strbuf_addbuf(&base, text);
	if (!ret)
		ret = byname_place(out, line, base.buf, base.len, bh);
	strbuf_release(&base);
	return ret;
}

/* Are the facts read for finding i those of the function its hunk names
 * (any, when it names none)?  Fuzz ignores all of a hunk's context when
 * it has to (`--fuzz=3` against three lines), so a call can land in
 * another function, or outside any: no facts of it are true. */
static bool facts_fit(const struct patched *p, size_t i, const struct strbuf *text)
{
	const struct finding *f = &p->r->v[i];
	const struct cfacts *cf = &p->facts[i];

	return cf->found && (!*f->function ||
			     (cf->function && !strcmp(cf->function, f->function)) ||
			     byname_defines(text->buf, text->len, cf->def_line, f->function));
}

/*
 * The facts about findings idx[0..n) at lines[] of `text` (file `rel`
 * of the scratch copy as the series left it, or a text placed by name),
 * read by one sandboxed child (cfront.h): each kept when it fits
 * (facts_fit()), else left as CFACTS_INIT.  0, or the whole file's
 * failure (refused by the screen, over a limit), noted in p->failed.
 */
static int read_at(struct patched *p, const size_t *idx, const int *lines, size_t n,
		   const char *rel, const struct strbuf *text, const struct strvec *alloc_calls)
{
	struct cfront_call *calls = xcalloc(n + 1, sizeof(*calls));
	struct cfacts *facts = xcalloc(n + 1, sizeof(*facts));
	int *rets = xcalloc(n + 1, sizeof(*rets));
	struct strvec flags = STRVEC_INIT;
	struct strbuf full = STRBUF_INIT;
	const struct kcmd *k = &p->cmds[idx[0]];
	int ret;

	for (size_t j = 0; j < n; j++) {
		struct cfacts init = CFACTS_INIT;

		facts[j] = init;
		calls[j].line = lines[j];
		calls[j].macro = p->r->v[idx[j]].rule->macro;
	}
	flags_for(&flags, p, idx[0], rel);
	strbuf_addf(&full, "%s/%s", p->dir.buf, rel);
	ret = p->refused_why ? error_code(WW_EINPUT, "%s", p->refused_why) :
	      cfront_facts(facts, rets, &p->cf, rel, full.buf, text->buf, text->len, calls, n,
			   &flags, alloc_calls, k->argv.nr ? k->build : NULL);
	if (ret && !p->refused_why)
		strvec_pushf(&p->failed, "%s: not parsed: %s", rel, error_last());
	error_clear();
	for (size_t j = 0; j < n; j++) {
		struct cfacts init = CFACTS_INIT;
		size_t i = idx[j];

		cfacts_release(&p->facts[i]);
		if (ret || rets[j])
			continue;
		p->facts[i] = facts[j];
		facts[j] = init;
		if (!facts_fit(p, i, text))
			cfacts_release(&p->facts[i]);	/* found false, as CFACTS_INIT */
	}
	for (size_t j = 0; j < n; j++)
		cfacts_release(&facts[j]);
	free(calls);
	free(facts);
	free(rets);
	strvec_clear(&flags);
	strbuf_release(&full);
	return ret;
}

/* How finding i's facts are to be read (plan_one()). */
struct plan {
	bool wanted;		/* an added call in a .c file the copy has */
	struct strbuf path;	/* the file after the series */
	struct strbuf text;	/* ... as the series left it */
	int line;		/* the call's line in it; 0: not placed */
	bool named;		/* the hunk names a function */
	bool placed_blind;	/* fuzz placed it ignoring all context */
	bool gave_up;		/* the file could not be parsed: no second try */
	struct byname_hunk bh;
	int hunk;
};

static void plan_release(struct plan *pl)
{
	strbuf_release(&pl->path);
	strbuf_release(&pl->text);
	byname_hunk_release(&pl->bh);
}

/* Where finding i's call is in the scratch copy, and whether fuzz put it there blind. */
static void plan_one(struct plan *pl, struct patched *p, const struct series *s, size_t i)
{
	const struct finding *f = &p->r->v[i];
	struct strbuf want = STRBUF_INIT;
	size_t pos = patch_pos(s, f->patch);
	int line = f->line;

	if (f->kind != FINDING_ADDED || !f->rule || !ends_with(f->file, ".c"))
		return;
	strbuf_addstr(&pl->path, f->file);
	if (pos < s->nr && linemap_final(&line, &pl->path, p->r->map, s, pos, f->file, f->line) < 0) {
		error_clear();
		line = f->line;
	}
	if (!line || kapply_bad_path(pl->path.buf))
		goto out;
	if (safefs_read(&pl->text, p->dir.buf, pl->path.buf, PATCHED_FILE_MAX,
			SAFEFS_NO_SYMLINKS)) {
		error_clear();
		goto out;
	}
	pl->wanted = true;
	read_cmd(p, i, pl->path.buf);
	/* Fuzz may have moved the hunk: the call's line nearest the expected one. */
	call_line(&want, f);
	pl->line = want.len ? find_line(pl->text.buf, want.buf, line) : 0;
	pl->named = want.len && pos < s->nr && !strcmp(pl->path.buf, f->file) && *f->function;
	if (pl->named && pl->line && blind(p, f->patch, 0, f->file)) {
		if (hunk_for(&pl->bh, &pl->hunk, p, pos, f))
			error_clear();
		else
			pl->placed_blind = blind(p, f->patch, pl->hunk, f->file);
	}
out:
	strbuf_release(&want);
}

/* Is finding j's call to be read where patch placed it, with finding i's? */
static bool placed_with(const struct plan *plans, const bool *done, size_t i, size_t j)
{
	return !done[j] && plans[j].wanted && plans[j].line && !plans[j].placed_blind &&
	       !strcmp(plans[j].path.buf, plans[i].path.buf);
}

/*
 * The facts of every finding placed in the scratch copy, one child per
 * file for all of its calls: a file is parsed once.
 */
static void read_placed(struct patched *p, struct plan *plans,
			const struct strvec *alloc_calls)
{
	size_t *idx = xcalloc(p->nr + 1, sizeof(*idx));
	int *lines = xcalloc(p->nr + 1, sizeof(*lines));
	bool *done = xcalloc(p->nr + 1, sizeof(*done));

	for (size_t i = 0; i < p->nr; i++) {
		size_t n = 0;
		bool failed;

		if (!placed_with(plans, done, i, i))
			continue;
		for (size_t j = i; j < p->nr; j++) {
			if (!placed_with(plans, done, i, j))
				continue;
			done[j] = true;
			idx[n] = j;
			lines[n++] = plans[j].line;
		}
		failed = read_at(p, idx, lines, n, plans[i].path.buf, &plans[i].text,
				 alloc_calls) < 0;
		for (size_t j = 0; j < n; j++) {
			struct plan *pl = &plans[idx[j]];

			pl->gave_up = failed;
			if (p->facts[idx[j]].found) {
				p->paths[idx[j]] = xstrdup(pl->path.buf);
				p->lines[idx[j]] = pl->line;
			}
		}
	}
	free(idx);
	free(lines);
	free(done);
}

/*
 * Not even fuzz placed finding i's call (patch refused the hunk), or it
 * placed it blind (its context all ignored), or outside the function
 * the hunk names: the function by that name from the base, when it is
 * the same function (byname.h).  Not when the file as patched could not
 * be parsed at all: that would only fail again.
 */
static void read_by_name(struct patched *p, const struct series *s, size_t i, struct plan *pl,
			 const struct strvec *alloc_calls)
{
	const struct finding *f = &p->r->v[i];
	struct strbuf placed = STRBUF_INIT;
	size_t pos = patch_pos(s, f->patch);
	int line = pl->line;
	bool appended = false;

	if (!pl->wanted || p->facts[i].found || pl->gave_up || !pl->named ||
	    (!pl->line && !refused(p, f->patch)))
		goto out;
	if (!pl->bh.added.nr && hunk_for(&pl->bh, &pl->hunk, p, pos, f)) {
		error_clear();
		goto out;
	}
	if (by_name(&placed, &line, &pl->bh, &pl->text, line)) {
		error_clear();
		/* Refused, of a function the hunk adds whole: that function
		 * as the patch writes it, in place of the base's of that
		 * name or after the base's text (byname_append()). */
		if (pl->line || byname_append(&placed, &line, pl->text.buf, pl->text.len,
					      &pl->bh)) {
			error_clear();
			goto out;
		}
		appended = true;
	}
	if (read_at(p, &i, &line, 1, pl->path.buf, &placed, alloc_calls) || !p->facts[i].found)
		goto out;
	p->facts[i].by_name = true;
	p->facts[i].appended = appended;
	p->texts[i] = strbuf_detach(&placed, NULL);
	p->paths[i] = xstrdup(pl->path.buf);
	p->lines[i] = line;
out:
	strbuf_release(&placed);
}

/*
 * The scratch copy as the series left it, screened (cfront.h) before
 * anything parses it: refused, no file of it is parsed or compiled, and
 * the reason is said once.
 */
static void screen_copy(struct patched *p)
{
	int ret = cfront_init(&p->cf, p->tree, p->dir.buf);

	if (!ret)
		ret = cfront_screen_copy(&p->cf);
	if (ret) {
		p->refused_why = xstrdup(error_last());
		strvec_pushf(&p->failed, "not parsed, no rewrite compiled: %s", p->refused_why);
		error_clear();
	}
}

int patched_apply(struct patched *out, const char *tree, const struct series *s,
		  const struct check_result *r, const struct patched_opts *o)
{
	struct touched t = { STRVEC_INIT, NULL };
	const char *tmp = env_get(ENV_TMPDIR);
	struct plan *plans;
	int ret = 0;

	out->tree_real = realpath(tree, NULL);
	out->tree = out->tree_real ? out->tree_real : tree;
	tree = out->tree;
	out->r = r;
	out->nr = r->nr;
	out->facts = xcalloc(r->nr + 1, sizeof(*out->facts));
	out->paths = xcalloc(r->nr + 1, sizeof(*out->paths));
	out->texts = xcalloc(r->nr + 1, sizeof(*out->texts));
	out->lines = xcalloc(r->nr + 1, sizeof(*out->lines));
	out->base_ok = xcalloc(r->nr + 1, sizeof(*out->base_ok));
	out->cmds = xcalloc(r->nr + 1, sizeof(*out->cmds));
	for (size_t i = 0; i < r->nr; i++) {
		struct cfacts init = CFACTS_INIT;
		struct kcmd cmd = KCMD_INIT;

		out->facts[i] = init;
		out->cmds[i] = cmd;
		out->base_ok[i] = -2;	/* not tried */
	}
	if (o->build_dir) {
		strvec_push(&out->builds, o->build_dir);
	} else {
		strvec_push(&out->builds, tree);	/* built in place */
		kcmd_cache_builds(&out->builds, o->cache_dir, tree);
	}
	collect(&t, r->map);
	if (t.bad) {
		ret = error_code(WW_EINPUT, "the series names '%s': %s", t.bad,
				 kapply_bad_path(t.bad));
		goto out;
	}
	strbuf_addf(&out->dir, "%s/warnwatch-patched-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(out->dir.buf)) {
		ret = error("cannot create '%s': %s", out->dir.buf, strerror(errno));
		strbuf_reset(&out->dir);
		goto out;
	}
	/* Absolute: the sandbox binds it where it is (cfront.h). */
	{
		char *abs = realpath(out->dir.buf, NULL);

		if (abs) {
			strbuf_reset(&out->dir);
			strbuf_addstr(&out->dir, abs);
			free(abs);
		}
	}
	for (size_t i = 0; i < t.paths.nr && !ret; i++)
		ret = copy_in(out, t.paths.v[i]);
	if (ret)
		goto out;
	if (t.paths.nr && !out->copied) {
		ret = error_code(WW_ENOTFOUND, "'%s' has none of the files the series "
				 "changes", tree);
		goto out;
	}
	for (size_t i = 0; i < s->nr; i++)
		if (s->patches[i].diff_len)
			apply_one(out, &s->patches[i]);
	screen_copy(out);
	plans = xcalloc(r->nr + 1, sizeof(*plans));
	for (size_t i = 0; i < r->nr; i++) {
		strbuf_init(&plans[i].path, 0);
		strbuf_init(&plans[i].text, 0);
		plans[i].bh = (struct byname_hunk)BYNAME_HUNK_INIT;
		plan_one(&plans[i], out, s, i);
	}
	read_placed(out, plans, o->alloc_calls);
	for (size_t i = 0; i < r->nr; i++)
		read_by_name(out, s, i, &plans[i], o->alloc_calls);
	for (size_t i = 0; i < r->nr; i++)
		plan_release(&plans[i]);
	free(plans);
out:
	strvec_clear(&t.paths);
	free(t.bad);
	return ret;
}

/* `text` with lines [line, line + n) replaced by `code`, indented as `line` was. */
static void splice(struct strbuf *out, const char *text, int line, int n, const char *code)
{
	const char *p = text, *indent = NULL;
	int at = 1;

	for (; *p; at++) {
		size_t len = strcspn(p, "\n");

		if (at == line) {
			indent = p;
			strbuf_addstr(out, "");
		}
		if (at < line || at >= line + n) {
			strbuf_add(out, p, len);
			strbuf_addch(out, '\n');
		} else if (at == line) {
			size_t in = strspn(indent, " \t");

			for (const char *c = code; *c;) {
				size_t k = strcspn(c, "\n");

				strbuf_addf(out, "%.*s%.*s\n", (int)in, indent, (int)k, c);
				c += k + (c[k] == '\n');
			}
		}
		p += len + (p[len] == '\n');
	}
}

/*
 * The compiler for finding i's object, into `argv`: kbuild's command from
 * its build directory (*build set to it), else gcc with the minimal flags.
 */
static const char *compiler(struct strvec *argv, const char **build, const struct patched *p,
			    size_t i, const char *rel)
{
	const struct kcmd *k = &p->cmds[i];
	struct strvec flags = STRVEC_INIT;
	const char *slash = strrchr(rel, '/');

	*build = NULL;
	if (k->argv.nr) {
		for (size_t n = 0; n < k->argv.nr; n++)
			strvec_push(argv, k->argv.v[n]);
		/* A header the series touched wins over the tree's. */
		strvec_pushf(argv, "-iquote%s/%.*s", p->dir.buf,
			     slash ? (int)(slash - rel) : 0, rel);
		strvec_push(argv, "-fsyntax-only");
		*build = k->build;
		return "kbuild";
	}
	flags_for(&flags, p, i, rel);
	strvec_pushl(argv, "gcc", "-fsyntax-only", NULL);
	for (size_t n = 0; n < flags.nr; n++) {
		/* gcc stops at a forced include that is not there. */
		if (starts_with(flags.v[n], "-include") && flags.v[n][8] &&
		    access(flags.v[n] + 8, R_OK))
			continue;
		strvec_push(argv, flags.v[n]);
	}
	strvec_clear(&flags);
	return "minimal";
}

/* -fsyntax-only on `text` as scratch file `rel`'s twin, in the sandbox
 * (cfront_compile()): 1 clean, 0 not, negative not tried. */
static int syntax_ok(const struct patched *p, size_t i, const char *rel,
		     const struct strbuf *text, const char **how)
{
	struct strbuf name = STRBUF_INIT;
	struct strvec argv = STRVEC_INIT;
	const char *build;
	int ret;

	if (p->refused_why)
		return error_code(WW_EINPUT, "%s", p->refused_why);
	strbuf_addf(&name, "%s/%s.ww-rewrite.c", p->dir.buf, rel);
	ret = strbuf_write_file(text, name.buf);
	if (ret)
		goto out;
	*how = compiler(&argv, &build, p, i, rel);
	ret = cfront_compile(&p->cf, rel, name.buf, text, &argv, build);
	unlink(name.buf);
out:
	strvec_clear(&argv);
	strbuf_release(&name);
	return ret;
}

int patched_compile(void *data, const struct finding *f, const char *code,
		    const char **how)
{
	struct patched *p = data;
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	size_t i = f >= p->r->v && f < p->r->v + p->r->nr ? (size_t)(f - p->r->v) : p->nr;
	int ret = 0;

	if (i >= p->nr || !p->paths[i])
		return error_code(WW_ENOTFOUND, "no file after the patch for this call");
	if (p->texts[i])
		strbuf_addstr(&text, p->texts[i]);	/* placed by name */
	else
		ret = safefs_read(&text, p->dir.buf, p->paths[i], PATCHED_FILE_MAX,
				  SAFEFS_NO_SYMLINKS);
	if (ret)
		goto out;
	/* Only a file that compiles as the series left it says anything. */
	if (p->base_ok[i] == -2)
		p->base_ok[i] = syntax_ok(p, i, p->paths[i], &text, how);
	if (p->base_ok[i] != 1) {
		ret = error_code(WW_ECHILD, "'%s' does not compile as the series left it",
				 p->paths[i]);
		goto out;
	}
	splice(&out, text.buf, p->lines[i], f->source_lines > 0 ? f->source_lines : 1, code);
	ret = syntax_ok(p, i, p->paths[i], &out, how);
out:
	strbuf_release(&text);
	strbuf_release(&out);
	return ret;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void patched_release(struct patched *p)
{
	if (p->dir.len)
		nftw(p->dir.buf, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	for (size_t i = 0; i < p->nr; i++) {
		cfacts_release(&p->facts[i]);
		kcmd_release(&p->cmds[i]);
		free(p->paths[i]);
		free(p->texts[i]);
	}
	free(p->texts);
	free(p->refused);
	free(p->cmds);
	strvec_clear(&p->builds);
	free(p->facts);
	free(p->paths);
	free(p->lines);
	free(p->base_ok);
	strbuf_release(&p->dir);
	strvec_clear(&p->failed);
	strvec_clear(&p->blind);
	cfront_release(&p->cf);
	free(p->refused_why);
	free(p->tree_real);
	memset(p, 0, sizeof(*p));
}
