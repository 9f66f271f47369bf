/*
 * A kernel object's own compile command from its .o.cmd (kcmd.h): make's
 * quoting, then sh's word splitting without a shell, then only the
 * options that make the compiler read.
 */
#include "kcmd.h"
#include "ktree.h"
#include "safefs.h"

#include <dirent.h>
#include <limits.h>
#include <unistd.h>

/* make's quoting in a .o.cmd: "$$" is "$", "$(pound)" is "#". */
static void unmake(struct strbuf *out, const char *line)
{
	for (const char *p = line; *p && *p != '\n'; p++) {
		if (p[0] == '$' && p[1] == '$') {
			strbuf_addch(out, '$');
			p++;
		} else if (starts_with(p, "$(pound)")) {
			strbuf_addch(out, '#');
			p += strlen("$(pound)") - 1;
		} else {
			strbuf_addch(out, *p);
		}
	}
}

static int needs_shell(char c)
{
	return error_code(WW_EINPUT, "an unquoted '%c' needs a shell", c);
}

/* A "..." word part at `p` (past the quote): sh's rules, no expansions. */
static const char *double_quoted(struct strbuf *w, const char *p)
{
	for (; *p && *p != '"'; p++) {
		if (*p == '$' || *p == '`')
			return NULL;
		if (*p == '\\' && p[1] && strchr("$`\"\\", p[1]))
			p++;
		strbuf_addch(w, *p);
	}
	return *p ? p : NULL;
}

int kcmd_split(struct strvec *out, const char *line)
{
	struct strbuf text = STRBUF_INIT, w = STRBUF_INIT;
	bool in_word = false;
	int ret = 0;

	unmake(&text, line);
	for (const char *p = text.buf; *p && !ret; p++) {
		const char *q;

		if (*p == ' ' || *p == '\t') {
			if (in_word)
				strvec_push(out, w.buf);
			strbuf_reset(&w);
			in_word = false;
			continue;
		}
		if (*p == ';' || (*p == '#' && !in_word))
			break;	/* the next command, a comment */
		if (*p == '\\' && p[1]) {
			strbuf_addch(&w, *++p);
		} else if (*p == '\'') {
			q = strchr(p + 1, '\'');
			if (!q)
				ret = error_code(WW_EINPUT, "a ' without its end");
			else
				strbuf_add(&w, p + 1, q - p - 1);
			p = q ? q : p;
		} else if (*p == '"') {
			q = double_quoted(&w, p + 1);
			if (!q)
				ret = error_code(WW_EINPUT, "a \"...\" that needs a shell");
			p = q ? q : p;
		} else if (strchr("\\$`|&<>(){}*?[", *p) || (*p == '~' && !in_word)) {
			ret = needs_shell(*p);
		} else {
			strbuf_addch(&w, *p);
		}
		in_word = true;
	}
	if (in_word && !ret)
		strvec_push(out, w.buf);
	strbuf_release(&text);
	strbuf_release(&w);
	return ret;
}

/* Options whose argument is the next word. */
static bool takes_arg(const char *w)
{
	static const char *const v[] = { "-o", "-I", "-D", "-U", "-include", "-imacros",
		"-isystem", "-iquote", "-idirafter", "-x", "-MF", "-MT", "-MQ" };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (!strcmp(w, v[i]))
			return true;
	return false;
}

/*
 * Options kept: those that only change how the compiler reads and
 * checks the file.  Everything else is dropped, in particular what
 * loads or runs programs (-fplugin, -B, -specs, -wrapper, @file) and
 * what writes files (-o, -M*, -Wp,, -fdump*, -save-temps).
 */
static bool kept(const char *w)
{
	static const char *const read_only[] = { "-I", "-D", "-U", "-include", "-imacros",
		"-isystem", "-iquote", "-idirafter", "-x", "-std=", "-nostdinc", "-m", "-O",
		"-g", "-ansi", "-W", "-f", "--param" };
	static const char *const writes_or_runs[] = { "-fplugin", "-fdump", "-fprofile",
		"-fstack-usage", "-fcallgraph-info", "-fopt-info", "-fsave-optimization-record",
		"-fauto-profile", "-fcreate-profile", "-Wp,", "-Wa,", "-Wl,", "-W,",
		"-fdebug-prefix-map" /* harmless, but names sandbox paths */ };
	bool ok = false;

	for (size_t i = 0; i < ARRAY_SIZE(read_only) && !ok; i++)
		ok = starts_with(w, read_only[i]);
	for (size_t i = 0; i < ARRAY_SIZE(writes_or_runs) && ok; i++)
		ok = !starts_with(w, writes_or_runs[i]);
	return ok;
}

/* A plain program name looked up on PATH: "gcc", "x86_64-linux-gnu-gcc". */
static bool compiler_name(const char *w)
{
	size_t n = strlen(w);

	if (!n || strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._+-") != n || w[0] == '-' || w[0] == '.')
		return false;
	return strstr(w, "gcc") || strstr(w, "clang") || !strcmp(w, "cc");
}

/* `path` of the build: the sandbox's source prefix `src` made `tree`,
 * a relative one made the build's. */
static void fix_path(struct strbuf *out, const char *path, const char *src,
		     const struct kcmd *k, const char *tree)
{
	size_t n = src ? strlen(src) : 0;

	if (n && starts_with(path, src) && (path[n] == '/' || !path[n]))
		strbuf_addf(out, "%s%s", tree, path + n);
	else if (path[0] != '/')
		strbuf_addf(out, "%s/%s", k->build, starts_with(path, "./") ? path + 2 : path);
	else
		strbuf_addstr(out, path);
}

/* The option `opt` (kept), with its argument `arg` (or NULL: joined). */
static void push_option(struct kcmd *out, const char *opt, const char *arg,
			const char *src, const char *tree)
{
	static const char *const with_path[] = { "-include", "-imacros", "-isystem",
		"-iquote", "-idirafter", "-I" };
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(with_path); i++) {
		size_t n = strlen(with_path[i]);

		if (!starts_with(opt, with_path[i]) || (!arg && !opt[n]))
			continue;
		if (arg) {
			strvec_push(&out->argv, opt);
			fix_path(&sb, arg, src, out, tree);
		} else {
			strbuf_add(&sb, opt, n);
			fix_path(&sb, opt + n, src, out, tree);
		}
		strvec_push(&out->argv, sb.buf);
		strbuf_release(&sb);
		return;
	}
	strvec_push(&out->argv, opt);
	if (arg)
		strvec_push(&out->argv, arg);
}

/* The compile command of .o.cmd text `text`, from build `k->build`. */
static int from_text(struct kcmd *out, const char *text, const char *src, const char *tree,
		     const char *name)
{
	struct strvec words = STRVEC_INIT;
	const char *line = text;
	int ret;

	while (*line && !starts_with(line, "savedcmd_") && !starts_with(line, "cmd_")) {
		line += strcspn(line, "\n");
		line += *line == '\n';
	}
	if (*line) {
		const char *eol = line + strcspn(line, "\n");

		line = memmem(line, eol - line, " := ", 4);
	} else {
		line = NULL;
	}
	if (!line) {
		ret = error_code(WW_EINPUT, "'%s' holds no command", name);
		goto out;
	}
	ret = kcmd_split(&words, line + 4);
	if (ret) {
		ret = error_prefix(ret, "'%s'", name);
		goto out;
	}
	if (!words.nr || !compiler_name(words.v[0])) {
		ret = error_code(WW_EINPUT, "'%s' does not start with a compiler's name", name);
		goto out;
	}
	strvec_push(&out->argv, words.v[0]);
	for (size_t i = 1; i < words.nr; i++) {
		const char *w = words.v[i], *arg = NULL;

		if (takes_arg(w)) {
			if (i + 1 == words.nr)
				break;
			arg = words.v[++i];
		}
		if (kept(w))
			push_option(out, w, arg, src, tree);
	}
out:
	strvec_clear(&words);
	return ret;
}

int kcmd_read(struct kcmd *out, const struct strvec *builds, const char *tree,
	      const char *rel)
{
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT, link = STRBUF_INIT;
	const char *base = strrchr(rel, '/');
	int dir = base ? (int)(base - rel) : 0, ret = WW_ENOTFOUND;
	char *abs_tree = realpath(tree, NULL);

	base = base ? base + 1 : rel;
	if (!ends_with(rel, ".c")) {
		free(abs_tree);
		return error_code(WW_ENOTFOUND, "'%s' is not a C file", rel);
	}
	strbuf_addf(&name, "%.*s%s.%.*s.o.cmd", dir, rel, dir ? "/" : "",
		    (int)strlen(base) - 2, base);
	for (size_t i = 0; i < builds->nr && ret == WW_ENOTFOUND; i++) {
		char src[PATH_MAX];
		ssize_t n;

		strbuf_reset(&text);
		ret = safefs_read(&text, builds->v[i], name.buf, KCMD_FILE_MAX, SAFEFS_NO_SYMLINKS);
		if (ret)
			continue;
		/* make O= links `source` to the tree it built ("/ww/src"). */
		strbuf_reset(&link);
		strbuf_addf(&link, "%s/source", builds->v[i]);
		n = readlink(link.buf, src, sizeof(src) - 1);
		src[n > 0 ? n : 0] = '\0';
		while (n > 1 && src[n - 1] == '/')
			src[--n] = '\0';
		/* Absolute: the command runs in the build directory. */
		free(out->build);
		out->build = realpath(builds->v[i], NULL);
		if (!out->build)
			out->build = xstrdup(builds->v[i]);
		strbuf_reset(&link);
		strbuf_addf(&link, "%s/%s", builds->v[i], name.buf);
		ret = from_text(out, text.buf, n > 0 ? src : NULL, abs_tree ? abs_tree : tree,
				link.buf);
	}
	if (ret == WW_ENOTFOUND)
		ret = error_code(WW_ENOTFOUND, "no build directory holds '%s'", name.buf);
	if (ret)
		strvec_clear(&out->argv);
	free(abs_tree);
	strbuf_release(&name);
	strbuf_release(&text);
	strbuf_release(&link);
	return ret;
}

/* "<version>-" and 12 hex digits: a Debian tree's build (a git base's
 * version carries "-g<commit>" and is not the same release). */
static bool build_of(const char *name, const char *version)
{
	size_t n = strlen(version);

	if (strncmp(name, version, n) || name[n] != '-')
		return false;
	name += n + 1;
	return strlen(name) == 12 && strspn(name, "0123456789abcdef") == 12;
}

void kcmd_cache_builds(struct strvec *out, const char *cache, const char *tree)
{
	struct strbuf path = STRBUF_INIT, version = STRBUF_INIT;
	struct strvec found = STRVEC_INIT;
	struct dirent *e;
	DIR *d = NULL;

	strbuf_addf(&path, "%s/Makefile", tree);
	if (!cache || ktree_read_version(&version, path.buf) < 0) {
		error_clear();
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/build", cache);
	d = opendir(path.buf);
	while (d && (e = readdir(d)))
		if (build_of(e->d_name, version.buf))
			strvec_pushf(&found, "%s/%s", path.buf, e->d_name);
	strvec_sort(&found);
	for (size_t i = 0; i < found.nr; i++)
		strvec_push(out, found.v[i]);
out:
	if (d)
		closedir(d);
	strvec_clear(&found);
	strbuf_release(&path);
	strbuf_release(&version);
}

void kcmd_release(struct kcmd *k)
{
	strvec_clear(&k->argv);
	free(k->build);
	k->build = NULL;
}
