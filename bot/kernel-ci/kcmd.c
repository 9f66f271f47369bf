/*
 * A kernel object's own compile command from its .o.cmd (kcmd.h): make's
 * quoting, then sh's word splitting without a shell, then only the
 * options that make the compiler read.
 */
#include "kcmd.h"
#include "bwrap.h"
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

/* Options whose argument is the next word (dropped with it when refused). */
static bool takes_arg(const char *w)
{
	static const char *const v[] = { "-o", "-I", "-D", "-U", "-include", "-imacros",
		"-isystem", "-iquote", "-idirafter", "-x", "-MF", "-MT", "-MQ",
		"-Xpreprocessor", "-Xassembler", "-Xlinker", "-Xclang", "-wrapper", "-B",
		"-specs", "--param", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
		"-isysroot", "--sysroot", "-imultilib", "-dumpbase", "-dumpdir", "-aux-info",
		"-L", "-l", "-T", "-u", "-e", "-z" };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (!strcmp(w, v[i]))
			return true;
	return false;
}

/*
 * The -f options kept (after "-f"; "name=value" keeps any value): those
 * the kernel's builds give (x86-64, arm64, gcc and clang) that change
 * what the front end accepts or only what code would be generated.
 * Everything else is dropped: -fplugin, -fmodule-mapper, -fmodules-ts,
 * -fdump-*, -fprofile-*, -ftest-coverage (it writes a .gcno even with
 * -fsyntax-only), -fstack-usage, -fcallgraph-info, -fdiagnostics-*,
 * -fsanitize-*list, -fdebug-prefix-map, -frecord-gcc-switches, -flto...
 */
static const char *const f_kept[] = {
	"no-strict-aliasing", "no-common", "short-wchar", "no-PIE", "no-pie", "PIE", "pie",
	"no-PIC", "no-pic", "PIC", "pic", "cf-protection", "align-jumps", "align-loops",
	"align-functions", "align-labels", "no-asynchronous-unwind-tables",
	"asynchronous-unwind-tables", "no-unwind-tables", "unwind-tables", "no-jump-tables",
	"no-delete-null-pointer-checks", "no-allow-store-data-races", "stack-protector",
	"stack-protector-strong", "stack-protector-all", "no-stack-protector",
	"omit-frame-pointer", "no-omit-frame-pointer", "optimize-sibling-calls",
	"no-optimize-sibling-calls", "trivial-auto-var-init", "no-stack-clash-protection",
	"stack-clash-protection", "no-strict-overflow", "no-stack-check", "stack-check",
	"conserve-stack", "no-builtin", "freestanding", "function-sections",
	"no-function-sections", "data-sections", "no-data-sections", "no-tree-loop-im",
	"zero-call-used-regs", "patchable-function-entry", "min-function-alignment",
	"strict-flex-arrays", "no-ipa-sra", "no-inline-functions-called-once",
	"no-var-tracking", "no-var-tracking-assignments", "macro-prefix-map",
	"ms-extensions", "plan9-extensions", "unsigned-char", "signed-char",
	"gnu89-inline", "no-semantic-interposition", "no-partial-inlining",
	"no-reorder-blocks", "no-ipa-cp-clone", "no-ipa-bit-cp", "no-gcse",
	"no-tree-vectorize", "no-exceptions", "no-pcc-struct-return",
	"split-lto-unit", "no-sanitize", "sanitize", "sanitize-coverage",
	"no-sanitize-recover", "sanitize-recover", "no-tree-switch-conversion",
	"no-inline-small-functions", "no-toplevel-reorder", "no-code-hoisting",
	"no-schedule-insns", "no-schedule-insns2", "integrated-as", "no-integrated-as",
	"no-merge-all-constants", "merge-all-constants",
	"no-dwarf2-cfi-asm", "no-ident", "no-lto", "no-strict-volatile-bitfields",
};

/* The -m options kept (after "-m"; "name=value" keeps any value). */
static const char *const m_kept[] = {
	"64", "32", "16", "x32", "no-sse", "no-mmx", "no-sse2", "no-sse3", "no-3dnow",
	"no-avx", "no-avx2", "no-80387", "no-fp-ret-in-387", "preferred-stack-boundary",
	"stack-alignment", "skip-rax-setup", "tune", "arch", "cpu", "no-red-zone",
	"cmodel", "indirect-branch", "indirect-branch-register",
	"indirect-branch-cs-prefix", "function-return", "harden-sls", "record-mcount",
	"fentry", "nop-mcount", "regparm", "rtd", "stack-protector-guard",
	"stack-protector-guard-reg", "stack-protector-guard-symbol",
	"stack-protector-guard-offset", "retpoline-external-thunk", "soft-float",
	"general-regs-only", "abi", "no-outline-atomics", "branch-protection",
	"no-global-merge", "red-zone", "sse", "sse2", "mmx", "avx",
};

/* Is "name[=value]" `w` one of `v`? */
static bool listed(const char *w, const char *const *v, size_t n)
{
	size_t len = strcspn(w, "=");

	for (size_t i = 0; i < n; i++)
		if (strlen(v[i]) == len && !strncmp(w, v[i], len))
			return true;
	return false;
}

/* Is all of `s` (possibly empty) made of `set`? */
static bool only(const char *s, const char *set)
{
	return strspn(s, set) == strlen(s);
}

/* The options whose argument is a path the compiler reads. */
static const char *const with_path[] = { "-include", "-imacros", "-isystem",
	"-iquote", "-idirafter", "-I" };

enum kept_as {
	KEPT_NOT,	/* dropped */
	KEPT_PLAIN,
	KEPT_PATH,	/* a path beneath the tree or the build */
	KEPT_SYS_PATH,	/* ... or beneath the compiler's own directories */
};

/*
 * Options kept: an allowlist (kcmd.h) of those that only change how the
 * compiler reads and checks the file.  Everything else is dropped.
 */
static enum kept_as kept(const char *w)
{
	if (!strcmp(w, "-isystem") || starts_with(w, "-isystem"))
		return KEPT_SYS_PATH;
	for (size_t i = 0; i < ARRAY_SIZE(with_path); i++)
		if (starts_with(w, with_path[i]))
			return KEPT_PATH;
	if (starts_with(w, "-D") || starts_with(w, "-U"))
		return KEPT_PLAIN;
	if (starts_with(w, "-std="))
		return w[5] && only(w + 5, "abcdefghijklmnopqrstuvwxyz0123456789+") ?
		       KEPT_PLAIN : KEPT_NOT;
	if (starts_with(w, "-W"))
		return starts_with(w, "-Wp,") || starts_with(w, "-Wl,") ||
		       starts_with(w, "-Wa,") || starts_with(w, "-W,") ? KEPT_NOT : KEPT_PLAIN;
	if (starts_with(w, "-O"))
		return only(w + 2, "abcdefghijklmnopqrstuvwxyz0123456789") ? KEPT_PLAIN : KEPT_NOT;
	if (starts_with(w, "-g"))
		return only(w + 2, "abcdefghijklmnopqrstuvwxyz0123456789-=") ? KEPT_PLAIN : KEPT_NOT;
	if (starts_with(w, "-m"))
		return listed(w + 2, m_kept, ARRAY_SIZE(m_kept)) ? KEPT_PLAIN : KEPT_NOT;
	if (starts_with(w, "-fno-builtin-") && w[13] && only(w + 13, "abcdefghijklmnopqrstuvwxyz0123456789_"))
		return KEPT_PLAIN;
	if (starts_with(w, "-f"))
		return listed(w + 2, f_kept, ARRAY_SIZE(f_kept)) ? KEPT_PLAIN : KEPT_NOT;
	if (!strcmp(w, "-nostdinc") || !strcmp(w, "-ansi"))
		return KEPT_PLAIN;
	return KEPT_NOT;
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

/* `path` of the build: the sandbox's source prefix `src` (and BWRAP_BUILD)
 * made `tree` (the build's), a relative one made the build's. */
static void fix_path(struct strbuf *out, const char *path, const char *src,
		     const struct kcmd *k, const char *tree)
{
	size_t n = src ? strlen(src) : 0, b = strlen(BWRAP_BUILD);

	if (n && starts_with(path, src) && (path[n] == '/' || !path[n]))
		strbuf_addf(out, "%s%s", tree, path + n);
	else if (starts_with(path, BWRAP_BUILD) && (path[b] == '/' || !path[b]))
		strbuf_addf(out, "%s%s", k->build, path + b);
	else if (path[0] != '/')
		strbuf_addf(out, "%s/%s", k->build, starts_with(path, "./") ? path + 2 : path);
	else
		strbuf_addstr(out, path);
}

/*
 * Is absolute `path`, with its "." and ".." taken as written, `root` or
 * beneath it?  Lexical: a symbolic link beneath the root that points out
 * of it is the sandbox's to stop (it binds only the trees).
 */
static bool beneath(const char *path, const char *root)
{
	struct strbuf norm = STRBUF_INIT;
	size_t n = strlen(root);
	bool ok = path[0] == '/';

	for (const char *p = path; ok && *p;) {
		size_t len;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		if (!len)
			break;
		if (len == 2 && !strncmp(p, "..", 2)) {
			char *slash = strrchr(norm.buf, '/');

			if (slash)
				strbuf_setlen(&norm, slash - norm.buf);
			else
				ok = false;	/* above "/" */
		} else if (!(len == 1 && *p == '.')) {
			strbuf_addch(&norm, '/');
			strbuf_add(&norm, p, len);
		}
		p += len;
	}
	while (n > 1 && root[n - 1] == '/')
		n--;
	ok = ok && !strncmp(norm.buf, root, n) && (norm.buf[n] == '/' || !norm.buf[n]);
	strbuf_release(&norm);
	return ok;
}

/* The compiler's own header directories: what -isystem may name besides the trees. */
static const char *const compiler_dirs[] = { "/usr/lib/gcc", "/usr/lib/llvm-", "/usr/include" };

static bool compiler_dir(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(compiler_dirs); i++) {
		size_t n = strlen(compiler_dirs[i]);

		/* "/usr/lib/llvm-" names a family: /usr/lib/llvm-14/... */
		if (compiler_dirs[i][n - 1] == '-' ? starts_with(path, compiler_dirs[i]) &&
		    beneath(path, "/usr/lib") : beneath(path, compiler_dirs[i]))
			return !strstr(path, "/../") && !ends_with(path, "/..");
	}
	return false;
}

/*
 * The option `opt` (allowed as `as`), with its argument `arg` (or NULL:
 * joined): pushed with its path made the host's, when that path is
 * beneath the tree or the build (or, `as` KEPT_SYS_PATH, the compiler's
 * directories); else false, nothing pushed.
 */
static bool push_option(struct kcmd *out, const char *opt, const char *arg,
			enum kept_as as, const char *src, const char *tree)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	bool ok = true;

	if (as == KEPT_PLAIN) {
		strvec_push(&out->argv, opt);
		if (arg)
			strvec_push(&out->argv, arg);
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(with_path); i++) {
		size_t n = strlen(with_path[i]);

		if (!starts_with(opt, with_path[i]))
			continue;
		if (!arg && !opt[n])
			return false;
		fix_path(&path, arg ? arg : opt + n, src, out, tree);
		ok = beneath(path.buf, tree) || beneath(path.buf, out->build) ||
		     (as == KEPT_SYS_PATH && compiler_dir(path.buf));
		if (ok && arg) {
			strvec_pushl(&out->argv, opt, path.buf, NULL);
		} else if (ok) {
			strbuf_add(&sb, opt, n);
			strbuf_addbuf(&sb, &path);
			strvec_push(&out->argv, sb.buf);
		}
		break;
	}
	strbuf_release(&sb);
	strbuf_release(&path);
	return ok;
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

		enum kept_as as = kept(w);

		if (takes_arg(w)) {
			if (i + 1 == words.nr)
				break;
			arg = words.v[++i];
		}
		if (as != KEPT_NOT && push_option(out, w, arg, as, src, tree))
			continue;
		/* The source, -c and -o are every command's: not worth a note. */
		if ((w[0] == '-' || w[0] == '@') && strcmp(w, "-c") && strcmp(w, "-o"))
			strvec_pushf(&out->dropped, "%s%s%s", w, arg ? " " : "", arg ? arg : "");
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
		/* Absolute: the build is bound at its own path in the review box. */
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
	if (ret) {
		strvec_clear(&out->argv);
		strvec_clear(&out->dropped);
	}
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
	strvec_clear(&k->dropped);
	free(k->build);
	k->build = NULL;
}
