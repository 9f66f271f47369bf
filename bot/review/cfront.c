/*
 * The C front end on hostile text (cfront.h): the include screen, and
 * libclang and the compiler run in the review's sandbox.
 */
#include "cfront.h"
#include "bwrap.h"
#include "child.h"
#include "datadir.h"
#include "env.h"
#include "jsonval.h"
#include "safefs.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALL_NAME "warnwatch-all"
/* The most files of a scratch copy screened for include cycles. */
#define CFRONT_COPY_FILES 4096

int cfront_init(struct cfront *cf, const char *tree, const char *scratch)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *env = env_get(ENV_WARNWATCH_EXEC_PATH);
	struct strbuf path = STRBUF_INIT;

	cf->tree = tree;
	cf->scratch = scratch;
	self[n > 0 ? n : 0] = '\0';
	if (n > 0 && ends_with(self, "/" ALL_NAME))
		strbuf_addstr(&path, self);
	else if (env && *env)
		strbuf_addf(&path, "%s/" ALL_NAME, env);
	else if (datadir_exe_dir(self, sizeof(self)))
		strbuf_addf(&path, "%s/" ALL_NAME, self);
	if (!path.len || access(path.buf, X_OK)) {
		int ret = error_code(WW_ENOTFOUND, "the C front end's program '%s' cannot be run",
				     path.len ? path.buf : ALL_NAME);

		strbuf_release(&path);
		return ret;
	}
	cf->exe = strbuf_detach(&path, NULL);
	return 0;
}

void cfront_release(struct cfront *cf)
{
	free(cf->exe);
	cf->exe = NULL;
}

/* ---- the screen ----------------------------------------------------------- */

/* The text as the preprocessor's first phases see it: trigraphs and the
 * %: digraph made '#' and '\', lines spliced at a backslash, comments
 * made one blank; each logical line with the line it starts on. */
struct logical {
	struct strbuf line;
	int at;			/* its first line (1-based) */
};

/* `text` with trigraphs replaced (all of them: -std=c11 turns them on). */
static void untrigraph(struct strbuf *out, const char *text, size_t len)
{
	static const char from[] = "=/'()!<>-", to[] = "#\\^[]|{}~";

	for (size_t i = 0; i < len; i++) {
		const char *k;

		if (text[i] == '?' && i + 2 < len && text[i + 1] == '?' && text[i + 2] &&
		    (k = strchr(from, text[i + 2]))) {
			strbuf_addch(out, to[k - from]);
			i += 2;
		} else if (text[i] == '%' && i + 1 < len && text[i + 1] == ':') {
			strbuf_addch(out, '#');
			i++;
		} else {
			strbuf_addch(out, text[i] ? text[i] : ' ');
		}
	}
}

/*
 * The next logical line of `t` from *pos into `l` (reset); false at the
 * end.  String and character literals are kept as written; a comment
 * becomes one blank and may join lines, as in translation phase 3.
 */
static bool next_logical(struct logical *l, const struct strbuf *t, size_t *pos, int *lineno)
{
	char quote = 0;
	size_t i = *pos;

	if (i >= t->len)
		return false;
	strbuf_reset(&l->line);
	l->at = *lineno;
	for (; i < t->len; i++) {
		char c = t->buf[i];

		if (c == '\\' && i + 1 < t->len && t->buf[i + 1] == '\n') {
			i++;
			(*lineno)++;
			continue;
		}
		if (c == '\\' && i + 2 < t->len && t->buf[i + 1] == '\r' && t->buf[i + 2] == '\n') {
			i += 2;
			(*lineno)++;
			continue;
		}
		if (c == '\n') {
			(*lineno)++;
			i++;
			break;
		}
		if (quote) {
			strbuf_addch(&l->line, c);
			if (c == '\\' && i + 1 < t->len && t->buf[i + 1] != '\n')
				strbuf_addch(&l->line, t->buf[++i]);
			else if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '"' || c == '\'') {
			quote = c;
		} else if (c == '/' && i + 1 < t->len && t->buf[i + 1] == '/') {
			/* to the end of the line (a spliced one too) */
			while (i + 1 < t->len && t->buf[i + 1] != '\n') {
				if (t->buf[i + 1] == '\\' && i + 2 < t->len && t->buf[i + 2] == '\n') {
					(*lineno)++;
					i++;
				}
				i++;
			}
			c = ' ';
		} else if (c == '/' && i + 1 < t->len && t->buf[i + 1] == '*') {
			for (i += 2; i < t->len && !(t->buf[i] == '*' && i + 1 < t->len &&
						    t->buf[i + 1] == '/'); i++)
				*lineno += t->buf[i] == '\n';
			i++;	/* on the '/' */
			c = ' ';
		}
		strbuf_addch(&l->line, c);
	}
	*pos = i;
	return true;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r')
		p++;
	return p;
}

/*
 * `dir` (a directory of the tree, "" for its top) and `path` joined
 * without "." and "..", into `out`; false when ".." climbs above the
 * top.  *ascent: how far above `dir` the path climbs at most.
 */
static bool join_rel(struct strbuf *out, const char *dir, const char *path, int *ascent)
{
	int depth = 0, low = 0;

	strbuf_reset(out);
	strbuf_addstr(out, dir);
	for (const char *p = path; *p;) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (!n)
			break;
		if (n == 2 && !strncmp(p, "..", 2)) {
			char *slash = strrchr(out->buf, '/');

			depth--;
			low = depth < low ? depth : low;
			if (!out->len) {
				*ascent = -low;
				return false;
			}
			strbuf_setlen(out, slash ? (size_t)(slash - out->buf) : 0);
		} else if (!(n == 1 && *p == '.')) {
			depth++;
			if (out->len)
				strbuf_addch(out, '/');
			strbuf_add(out, p, n);
		}
		p += n;
	}
	*ascent = -low;
	return true;
}

/* What `rel` is beneath `root`: 0 nothing, 1 a regular file reached
 * without leaving it, -1 anything else (a device, a FIFO, a directory,
 * a link out of the root or to nothing). */
static int kind_beneath(const char *root, const char *rel)
{
	struct strbuf full = STRBUF_INIT;
	struct stat st;
	int ret;

	strbuf_addf(&full, "%s/%s", root, rel);
	if (lstat(full.buf, &st) < 0)
		ret = errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	else
		ret = safefs_is_regular(root, rel, 0) ? 1 : -1;
	strbuf_release(&full);
	return ret;
}

/* Nesting of the directory of `rel`: 0 for a file at the top. */
static int depth_of(const char *rel)
{
	int n = 0;

	for (const char *p = rel; *p; p++)
		n += *p == '/';
	return n;
}

struct screen {
	const struct cfront *cf;
	const char *rel;
	struct strbuf dir;	/* rel's directory, "" at the top */
	struct strvec *quoted;	/* the files its quoted includes name, or NULL */
};

/*
 * Is `path`, named by `what` ("#include", "__has_include") in its quoted
 * ("...") or angled (<...>) form, one the front end may look up?  NULL
 * or why not.  A quoted name is looked up beside the file first, then,
 * like an angled one, in the include directories, the shallowest of
 * which (include/ of the tree and the build) is one below the top: a
 * path that climbs more than one level is only safe where it is found
 * beside the file.
 */
static const char *path_refused(struct screen *s, const char *path, bool quoted)
{
	struct strbuf rel = STRBUF_INIT;
	const char *why = NULL;
	int ascent = 0, kind = 0;
	bool inside;

	if (path[0] == '/') {
		why = "an absolute path";
		goto out;
	}
	/* An angled name climbs from include/ at best. */
	inside = join_rel(&rel, quoted ? s->dir.buf : "include", path, &ascent);
	if (!quoted) {
		if (!inside)
			why = "a path that leaves the tree";
		goto out;
	}
	if (!inside || ascent > depth_of(s->rel)) {
		why = "a path that leaves the tree";
		goto out;
	}
	if (!strcmp(rel.buf, s->rel)) {
		why = "the file itself";
		goto out;
	}
	kind = kind_beneath(s->cf->scratch, rel.buf);
	if (!kind)
		kind = kind_beneath(s->cf->tree, rel.buf);
	if (kind < 0)
		why = "not a regular file of the tree";
	else if (!kind && ascent > 1)
		why = "a path that leaves the tree from the include directories";
	else if (kind && s->quoted)
		strvec_push(s->quoted, rel.buf);
out:
	strbuf_release(&rel);
	return why;
}

/* The "..." or <...> operand at `p` into `out`; false when it is neither
 * (a macro: a computed name). */
static bool operand(struct strbuf *out, const char *p, bool *quoted)
{
	char end;
	const char *q;

	p = skip_blank(p);
	if (*p != '"' && *p != '<')
		return false;
	end = *p == '"' ? '"' : '>';
	q = strchr(p + 1, end);
	if (!q)
		return false;
	strbuf_reset(out);
	strbuf_add(out, p + 1, q - p - 1);
	*quoted = end == '"';
	return true;
}

static int refuse(const struct screen *s, int line, const char *what, const char *arg,
		  const char *why)
{
	return error_code(WW_EINPUT, "%s:%d: %s%s%s%s: %s", s->rel, line, what,
			  arg ? " \"" : "", arg ? arg : "", arg ? "\"" : "", why);
}

/* The directives that read a file, and the operators that look one up. */
static const char *const reading[] = { "include", "include_next", "import", "embed" };
static const char *const lookups[] = { "__has_include", "__has_include_next", "__has_embed" };

/*
 * The names token pasting must not be able to make: the lookups, and
 * _Pragma (it can name a dependency pragma the screen would not see).
 * A pasted identifier's leftmost piece is a token written somewhere: in
 * the screened text, or as the fixed '_' or '__' of a base-tree macro
 * that pastes its argument onto it (SYSCALL_DEFINEn's `_##name`).  So
 * the screened text may not write a proper prefix of one of these names
 * ("_", "__", "__has_", "_Pragm"), nor what follows its first or second
 * character ("_has_include", "has_include", "Pragma").
 */
static const char *const pasted[] = {
	"__has_include", "__has_include_next", "__has_embed", "_Pragma",
};

/* The name `word` is a piece of, or NULL. */
static const char *piece_of(const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i < ARRAY_SIZE(pasted); i++)
		if (!strcmp(word, pasted[i]))
			return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(pasted); i++) {
		const char *name = pasted[i];
		size_t len = strlen(name);

		if (n < len && !strncmp(name, word, n))
			return name;
		if (!strcmp(word, name + 1) || (name[1] == '_' && !strcmp(word, name + 2)))
			return name;
	}
	return NULL;
}

/* Whether `p` is a call with one plain string literal: ( "..." ). */
static bool literal_call(const char *p)
{
	p = skip_blank(p);
	if (*p++ != '(')
		return false;
	p = skip_blank(p);
	if (*p++ != '"')
		return false;
	for (; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p == '"' && *skip_blank(p + 1) == ')';
}

/* A directive of logical line `l` (its text after the '#'). */
static int screen_directive(struct screen *s, const struct logical *l, const char *p)
{
	struct strbuf name = STRBUF_INIT, arg = STRBUF_INIT;
	bool quoted;
	const char *why;
	int ret = 0;

	p = skip_blank(p);
	strbuf_addch(&name, '#');
	while (ident_char(*p))
		strbuf_addch(&name, *p++);
	for (size_t i = 0; i < ARRAY_SIZE(reading); i++) {
		if (strcmp(name.buf + 1, reading[i]))
			continue;
		if (!operand(&arg, p, &quoted))
			ret = refuse(s, l->at, name.buf, NULL, "a file name computed by a macro");
		else if ((why = path_refused(s, arg.buf, quoted)))
			ret = refuse(s, l->at, name.buf, arg.buf, why);
		goto out;
	}
	/* #pragma GCC dependency "file" opens the file to compare dates. */
	if (!strcmp(name.buf, "#pragma") && strstr(p, "dependency"))
		ret = refuse(s, l->at, "#pragma", NULL, "a dependency pragma reads a file");
out:
	strbuf_release(&name);
	strbuf_release(&arg);
	return ret;
}

/*
 * The lookup operators anywhere in logical line `l` (outside literals):
 * __has_include(...) with a name that is allowed, or the bare word where
 * only its definedness is asked (#ifdef, defined); _Pragma with a
 * dependency.
 */
static int screen_operators(struct screen *s, const struct logical *l, bool ifdef)
{
	struct strbuf word = STRBUF_INIT, arg = STRBUF_INIT, prev = STRBUF_INIT;
	const char *p = l->line.buf, *why, *piece;
	char quote = 0;
	bool quoted;
	int ret = 0;

	for (; *p && !ret; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			quote = *p;
			continue;
		}
		if (!ident_char(*p) || (p > l->line.buf && ident_char(p[-1])))
			continue;
		strbuf_reset(&word);
		while (ident_char(p[word.len]))
			strbuf_addch(&word, p[word.len]);
		if (!strcmp(word.buf, "_Pragma") && !literal_call(p + word.len)) {
			ret = refuse(s, l->at, "_Pragma", NULL, "a pragma computed by a macro");
			break;
		}
		if (!strcmp(word.buf, "_Pragma") && strstr(p, "dependency")) {
			ret = refuse(s, l->at, "_Pragma", NULL, "a dependency pragma reads a file");
			break;
		}
		if ((piece = piece_of(word.buf))) {
			strbuf_reset(&arg);
			strbuf_addf(&arg, "a piece token pasting can make %s of", piece);
			ret = refuse(s, l->at, word.buf, NULL, arg.buf);
			break;
		}
		for (size_t i = 0; i < ARRAY_SIZE(lookups); i++) {
			const char *q = skip_blank(p + word.len);

			if (strcmp(word.buf, lookups[i]))
				continue;
			if (*q != '(') {
				/* "#ifdef __has_include", "defined(__has_include)" */
				if (!ifdef && strcmp(prev.buf, "defined"))
					ret = refuse(s, l->at, lookups[i], NULL,
						     "used other than as a call");
			} else if (!operand(&arg, q + 1, &quoted)) {
				ret = refuse(s, l->at, lookups[i], NULL,
					     "a file name computed by a macro");
			} else if ((why = path_refused(s, arg.buf, quoted))) {
				ret = refuse(s, l->at, lookups[i], arg.buf, why);
			}
		}
		strbuf_swap(&prev, &word);
		p += prev.len - 1;
	}
	strbuf_release(&word);
	strbuf_release(&arg);
	strbuf_release(&prev);
	return ret;
}

/* The screen of one file; the files its quoted includes name into `quoted`. */
static int screen_text(const struct cfront *cf, const char *rel, const char *text, size_t len,
		       struct strvec *quoted)
{
	struct screen s = { cf, rel, STRBUF_INIT, quoted };
	struct logical l = { STRBUF_INIT, 0 };
	struct strbuf t = STRBUF_INIT;
	const char *slash = strrchr(rel, '/');
	size_t pos = 0;
	int lineno = 1, ret = 0;

	if (slash)
		strbuf_add(&s.dir, rel, slash - rel);
	untrigraph(&t, text, len);
	while (!ret && next_logical(&l, &t, &pos, &lineno)) {
		const char *p = skip_blank(l.line.buf);
		bool ifdef = false;

		if (*p == '#') {
			const char *d = skip_blank(p + 1);

			ifdef = (starts_with(d, "ifdef") || starts_with(d, "ifndef")) &&
				!ident_char(d[5 + (d[2] == 'n')]);
			ret = screen_directive(&s, &l, p + 1);
		}
		if (!ret)
			ret = screen_operators(&s, &l, ifdef);
	}
	strbuf_release(&t);
	strbuf_release(&l.line);
	strbuf_release(&s.dir);
	return ret;
}

int cfront_screen(const struct cfront *cf, const char *rel, const char *text, size_t len)
{
	return screen_text(cf, rel, text, len, NULL);
}

/*
 * The -D flags of `flags` (or NULL; from a .o.cmd a series' build may have
 * written) screened as a line of `rel`: a macro the command line
 * defines is expanded in that file like one it defines itself.
 */
static int screen_flags(const struct cfront *cf, const char *rel, const struct strvec *flags)
{
	struct screen s = { cf, rel, STRBUF_INIT, NULL };
	struct logical l = { STRBUF_INIT, 0 };
	const char *slash = strrchr(rel, '/');
	int ret = 0;

	if (slash)
		strbuf_add(&s.dir, rel, slash - rel);
	for (size_t i = 0; flags && i < flags->nr && !ret; i++) {
		const char *v = flags->v[i];

		if (!strcmp(v, "-D") && i + 1 < flags->nr)
			v = flags->v[++i];
		else if (starts_with(v, "-D"))
			v += 2;
		else
			continue;
		strbuf_reset(&l.line);
		strbuf_addstr(&l.line, v);
		if (screen_operators(&s, &l, false)) {
			struct strbuf why = STRBUF_INIT;
			const char *msg = error_last();

			/* "REL:0: WHAT: WHY" -> "the flag '-DV': WHAT: WHY" */
			strbuf_addstr(&why, msg + strlen(rel) + strlen(":0: "));
			error_clear();
			ret = error_code(WW_EINPUT, "the flag '-D%s': %s", v, why.buf);
			strbuf_release(&why);
		}
	}
	strbuf_release(&l.line);
	strbuf_release(&s.dir);
	return ret;
}

/* The type of entry `e` of directory `dir`: from readdir, or lstat() where
 * the filesystem does not say (DT_UNKNOWN), so no file escapes the screen. */
static unsigned char entry_type(const struct dirent *e, const struct strbuf *dir)
{
	struct strbuf full = STRBUF_INIT;
	struct stat st;
	unsigned char type = e->d_type;

	if (type != DT_UNKNOWN)
		return type;
	strbuf_addf(&full, "%s/%s", dir->buf, e->d_name);
	if (!lstat(full.buf, &st))
		type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
	strbuf_release(&full);
	return type;
}

/* The regular files of the scratch copy beneath `sub`, relative to it. */
static void list_copy(struct strvec *out, const char *root, const char *sub)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *e;
	DIR *d;

	strbuf_addf(&path, "%s%s%s", root, *sub ? "/" : "", sub);
	d = opendir(path.buf);
	while (d && (e = readdir(d)) && out->nr < CFRONT_COPY_FILES) {
		struct strbuf rel = STRBUF_INIT;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		strbuf_addf(&rel, "%s%s%s", sub, *sub ? "/" : "", e->d_name);
		switch (entry_type(e, &path)) {
		case DT_DIR:
			list_copy(out, root, rel.buf);
			break;
		case DT_REG:
			strvec_push(out, rel.buf);
			break;
		}
		strbuf_release(&rel);
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
}

/* Depth-first through the quoted includes among the copy's files:
 * 1 when file `i` is on a cycle (its path in `cycle`). */
static int on_cycle(const struct strvec *files, const struct strvec *edges, int *state, size_t i,
		    struct strbuf *cycle)
{
	state[i] = 1;	/* on the path */
	for (size_t e = 0; e < edges[i].nr; e++) {
		size_t j;

		for (j = 0; j < files->nr && strcmp(files->v[j], edges[i].v[e]); j++)
			;
		if (j == files->nr || state[j] == 2)
			continue;
		if (state[j] == 1 || on_cycle(files, edges, state, j, cycle)) {
			if (!cycle->len)
				strbuf_addf(cycle, "%s includes '%s'", files->v[i], files->v[j]);
			return 1;
		}
	}
	state[i] = 2;	/* done */
	return 0;
}

int cfront_screen_copy(const struct cfront *cf)
{
	struct strvec files = STRVEC_INIT;
	struct strvec *edges;
	struct strbuf text = STRBUF_INIT, cycle = STRBUF_INIT;
	int *state, ret = 0;

	list_copy(&files, cf->scratch, "");
	/* What the listing left out would go unscreened. */
	if (files.nr >= CFRONT_COPY_FILES)
		ret = error_code(WW_EINPUT, "the series touches %d files or more, over the "
				 "C front end's cap", CFRONT_COPY_FILES);
	edges = xcalloc(files.nr + 1, sizeof(*edges));
	state = xcalloc(files.nr + 1, sizeof(*state));
	for (size_t i = 0; i < files.nr; i++)
		strvec_init(&edges[i]);
	for (size_t i = 0; i < files.nr && !ret; i++) {
		strbuf_reset(&text);
		ret = safefs_read(&text, cf->scratch, files.v[i], CFRONT_TEXT_MAX,
				  SAFEFS_NO_SYMLINKS);
		if (!ret)
			ret = screen_text(cf, files.v[i], text.buf, text.len, &edges[i]);
	}
	for (size_t i = 0; i < files.nr && !ret; i++)
		if (!state[i] && on_cycle(&files, edges, state, i, &cycle))
			ret = error_code(WW_EINPUT, "an include cycle among the files the series "
					 "touches: %s", cycle.buf);
	for (size_t i = 0; i < files.nr; i++)
		strvec_clear(&edges[i]);
	free(edges);
	free(state);
	strvec_clear(&files);
	strbuf_release(&text);
	strbuf_release(&cycle);
	return ret;
}

/* ---- the sandbox ---------------------------------------------------------- */

/* RLIMIT_AS for a child: CFRONT_MEM_MB, never above our own hard limit
 * (prlimit could not raise it), none under ASan (its shadow memory). */
static unsigned int mem_mb(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 0;
#else
	struct rlimit rl;

	if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_max != RLIM_INFINITY &&
	    rl.rlim_max >> 20 < CFRONT_MEM_MB)
		return rl.rlim_max >> 20 ? (unsigned int)(rl.rlim_max >> 20) : 1;
	return CFRONT_MEM_MB;
#endif
}

/* The memory limit as said in messages (ASan's RSS limit when no RLIMIT_AS). */
static unsigned int shown_mb(void)
{
	return mem_mb() ? mem_mb() : CFRONT_MEM_MB;
}

/* Run the sandboxed command `argv` on stdin `in` (or none). */
static int run_boxed(struct child *c, const struct cfront *cf, const char *build,
		     bool exe, const struct strvec *argv, const char *in, size_t in_len)
{
	struct bwrap_review_opts o = BWRAP_REVIEW_OPTS_INIT;
	struct strvec ro = STRVEC_INIT;
	const char *dirs[] = { cf->tree, build, cf->scratch };
	int ret;

	/* Parents before children: a scratch copy may sit in the tree. */
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (dirs[i] && strcmp(dirs[i], "/") && !strvec_has(&ro, dirs[i]))
			strvec_push(&ro, dirs[i]);
	strvec_sort(&ro);	/* a parent sorts before what is in it */
	o.ro = &ro;
	o.exe = exe ? cf->exe : NULL;
	o.chdir = cf->scratch;
	o.mem_mb = mem_mb();
	o.cpu_s = CFRONT_CPU_S;
	bwrap_review_argv(&c->args, &o);
	for (size_t i = 0; i < argv->nr; i++)
		strvec_push(&c->args, argv->v[i]);
	strvec_pushl(&c->env, "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "HOME=/tmp",
		     "TMPDIR=/tmp", NULL);
#if defined(__SANITIZE_ADDRESS__)
	/* No RLIMIT_AS beside ASan's shadow: its own RSS limit instead. */
	strvec_pushf(&c->env, "ASAN_OPTIONS=hard_rss_limit_mb=%u:detect_leaks=1:exitcode=99",
		     CFRONT_MEM_MB);
#endif
	c->flags = CHILD_CLEAN_ENV;
	c->timeout_ms = CFRONT_TIMEOUT_MS;
	c->in = in;
	c->in_len = in_len;
	ret = child_run(c);
#if defined(__SANITIZE_ADDRESS__)
	/* A sanitizer's report from the child fails the test that ran us;
	 * its memory limit firing is no bug. */
	if ((strstr(c->err.buf, "Sanitizer") || strstr(c->err.buf, "runtime error:")) &&
	    !strstr(c->err.buf, "rss limit exhausted") && !strstr(c->err.buf, "out of memory"))
		fputs(c->err.buf, stderr);
#endif
	strvec_clear(&ro);
	return ret;
}

/* Why a sandboxed child gave no answer, as the error (one line). */
static int boxed_failure(const struct child *c, int ret, const char *what)
{
	if (ret == WW_ETIMEOUT || c->timed_out)
		return error_code(WW_ETIMEOUT, "%s: over its %d s deadline", what,
				  CFRONT_TIMEOUT_MS / 1000);
	if (ret)
		return error_prefix(ret, "%s", what);
	if (c->status == 128 + SIGXCPU || c->status == 128 + SIGKILL)
		return error_code(WW_ECHILD, "%s: killed over its limit of %d s of CPU "
				  "(signal %d)", what, CFRONT_CPU_S, c->status - 128);
	if (c->status > 128)
		return error_code(WW_ECHILD, "%s: killed by signal %d (over its %u MB of "
				  "memory?)", what, c->status - 128, shown_mb());
	if (strstr(c->err.buf, "rss limit exhausted"))	/* ASan's limit */
		return error_code(WW_ECHILD, "libclang ran out of its %u MB of memory", shown_mb());
	if (starts_with(c->err.buf, "bwrap: ") || starts_with(c->err.buf, "prlimit: "))
		return child_error(c, "%s: the sandbox cannot run", what);
	return child_error(c, "%s: exit status %d", what, c->status);
}

/* ---- facts ---------------------------------------------------------------- */

/* The request for `warnwatch-all cfacts` (its first argument). */
static char *request(const char *path, const struct cfront_call *calls, size_t n,
		     const struct strvec *flags, const struct strvec *alloc_calls)
{
	json_t *o = json_object(), *a = json_array(), *f = json_array(), *al = json_array();
	char *s;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:i, s:s}", "line", calls[i].line,
						   "macro", calls[i].macro));
	for (size_t i = 0; flags && i < flags->nr; i++)
		json_array_append_new(f, jsonval_text(flags->v[i]));
	for (size_t i = 0; alloc_calls && i < alloc_calls->nr; i++)
		json_array_append_new(al, jsonval_text(alloc_calls->v[i]));
	json_object_set_new(o, "path", jsonval_text(path));
	json_object_set_new(o, "calls", a);
	json_object_set_new(o, "flags", f);
	json_object_set_new(o, "alloc_calls", al);
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

/* The answer of child `c` into out[]/rets[] (n calls). */
static int answer(struct cfacts *out, int *rets, const struct child *c, size_t n)
{
	json_error_t jerr;
	json_t *doc = json_loads(c->out.buf, 0, &jerr), *calls;
	int ret = 0, parse;

	calls = doc ? json_object_get(doc, "calls") : NULL;
	if (!json_is_array(calls) || json_array_size(calls) != n) {
		ret = error_code(WW_ECHILD, "the C front end's answer is not %zu calls", n);
		goto out;
	}
	ret = jsonval_int(&parse, doc, "parse", 0, "the C front end's answer");
	/* libclang survives its own crash: LLVM's last words say why. */
	if (!ret && parse == WW_ECHILD && strstr(c->err.buf, "LLVM ERROR: out of memory"))
		ret = error_code(WW_ECHILD, "libclang ran out of its %u MB of memory", shown_mb());
	else if (!ret && parse == WW_ECHILD)
		ret = error_code(WW_ECHILD, "libclang crashed parsing it");
	else if (!ret && parse)
		ret = error_code(WW_EINPUT, "libclang cannot parse it");
	for (size_t i = 0; i < n && !ret; i++) {
		const json_t *call = json_array_get(calls, i), *f = json_object_get(call, "facts");

		ret = jsonval_int(&rets[i], call, "ret", WW_ECHILD, "the C front end's answer");
		if (!ret && f)
			ret = cfacts_from_json(&out[i], f, "the C front end's facts");
		if (!ret && rets[i] >= 0 && !f)
			rets[i] = WW_ECHILD;
	}
out:
	json_decref(doc);
	return ret;
}

int cfront_facts(struct cfacts *out, int *rets, const struct cfront *cf, const char *rel,
		 const char *path, const char *text, size_t len, const struct cfront_call *calls,
		 size_t n, const struct strvec *flags, const struct strvec *alloc_calls,
		 const char *build)
{
	struct child c = CHILD_INIT;
	struct strvec argv = STRVEC_INIT;
	char *req = NULL;
	int ret = cfront_screen(cf, rel, text, len);

	if (!ret)
		ret = screen_flags(cf, rel, flags);
	if (ret)
		return ret;
	if (!cf->exe)
		return error_code(WW_ENOTFOUND, "the C front end's program is not known");
	req = request(path, calls, n, flags, alloc_calls);
	strvec_pushl(&argv, BWRAP_EXE, "cfacts", req, NULL);
	ret = run_boxed(&c, cf, build, true, &argv, text, len);
	if (ret || c.status)
		ret = boxed_failure(&c, ret, "the C front end");
	else
		ret = answer(out, rets, &c, n);
	free(req);
	strvec_clear(&argv);
	child_release(&c);
	return ret;
}

int cfront_child(struct strbuf *out, const char *req, int in_fd)
{
	json_error_t jerr;
	json_t *doc = json_loads(req, 0, &jerr), *res = json_object(), *arr = json_array();
	const json_t *calls = NULL;
	struct strvec flags = STRVEC_INIT, alloc = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;
	struct cfacts_opts o = CFACTS_OPTS_INIT;
	struct cfacts_call *cv = NULL;
	struct cfacts *facts = NULL;
	char *path = NULL, *dump;
	int *rets = NULL, ret, parse;
	size_t n = 0;

	ret = doc ? 0 : error_code(WW_EINPUT, "the request is not JSON: %s", jerr.text);
	if (!ret)
		ret = jsonval_str(&path, doc, "path", "the request");
	if (!ret)
		ret = jsonval_strv(&flags, doc, "flags", "the request");
	if (!ret)
		ret = jsonval_strv(&alloc, doc, "alloc_calls", "the request");
	if (!ret)
		ret = jsonval_array(&calls, doc, "calls", "the request");
	if (!ret && (!path || !calls))
		ret = error_code(WW_EINPUT, "the request names no path or calls");
	if (!ret)
		ret = strbuf_read_fd(&text, in_fd, CFRONT_TEXT_MAX) < 0 ? -1 : 0;
	if (ret)
		goto out;
	n = json_array_size(calls);
	cv = xcalloc(n + 1, sizeof(*cv));
	facts = xcalloc(n + 1, sizeof(*facts));
	rets = xcalloc(n + 1, sizeof(*rets));
	for (size_t i = 0; i < n; i++) {
		const json_t *c = json_array_get(calls, i);
		struct cfacts init = CFACTS_INIT;

		facts[i] = init;
		cv[i].line = (int)json_integer_value(json_object_get(c, "line"));
		cv[i].macro = json_string_value(json_object_get(c, "macro"));
		if (!cv[i].macro)
			cv[i].macro = "";
	}
	o.flags = &flags;
	o.alloc_calls = &alloc;
	parse = cfacts_read_calls(facts, rets, path, text.buf, text.len, cv, n, &o);
	json_object_set_new(res, "parse", json_integer(parse == WW_ENOTFOUND ? 0 : parse));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, json_pack("{s:i, s:o}", "ret", rets[i],
						     "facts", cfacts_json(&facts[i])));
	json_object_set_new(res, "calls", arr);
	arr = NULL;
	dump = json_dumps(res, JSON_COMPACT);
	strbuf_addstr(out, dump);
	strbuf_addch(out, '\n');
	free(dump);
out:
	for (size_t i = 0; i < n; i++)
		cfacts_release(&facts[i]);
	free(facts);
	free(rets);
	free(cv);
	free(path);
	json_decref(arr);
	json_decref(res);
	json_decref(doc);
	strvec_clear(&flags);
	strvec_clear(&alloc);
	strbuf_release(&text);
	return ret;
}

/* ---- compiles ------------------------------------------------------------- */

int cfront_compile(const struct cfront *cf, const char *rel, const char *file,
		   const struct strbuf *text, const struct strvec *argv, const char *build)
{
	struct child c = CHILD_INIT;
	struct strvec args = STRVEC_INIT;
	int ret = cfront_screen(cf, rel, text->buf, text->len);

	if (!ret)
		ret = screen_flags(cf, rel, argv);
	if (ret)
		return ret;
	strvec_pushv(&args, argv->v);
	strvec_push(&args, file);
	ret = run_boxed(&c, cf, build, false, &args, NULL, 0);
	if (!ret && c.status > 0 && c.status < 128 && !starts_with(c.err.buf, "bwrap: ") &&
	    !starts_with(c.err.buf, "prlimit: "))
		ret = 0;	/* the compiler said no */
	else if (ret || c.status)
		ret = boxed_failure(&c, ret, "the compiler");
	else
		ret = 1;
	strvec_clear(&args);
	child_release(&c);
	return ret;
}
