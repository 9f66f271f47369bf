/*
 * kcmd: a kernel object's compile command from a .o.cmd (make's quoting,
 * sh's words without a shell, only the options that make gcc read), and
 * the kernel-ci cache's build directories of a tree's release.  The build
 * directories here are small fakes with real-looking .o.cmd lines (6.12's
 * savedcmd_, 6.1's cmd_ with objtool after a ';').
 */
#include "kcmd.h"
#include "child.h"
#include "mkdirs.h"
#include "tap.h"
#include "tmpdir.h"

#include <unistd.h>

static char top[] = "/tmp/ww-t-kcmd-XXXXXX";


static char *joined(const struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", v->v[i]);
	return strbuf_detach(&sb, NULL);
}

static void split_ok(const char *line, const char *want, const char *what)
{
	struct strvec v = STRVEC_INIT;
	int ret = kcmd_split(&v, line);
	char *got = joined(&v);

	if (!ok(!ret && !strcmp(got, want), "split: %s", what))
		printf("# ret %d, got [%s], want [%s]\n", ret, got, want);
	free(got);
	strvec_clear(&v);
}

static void split_refused(const char *line, const char *what)
{
	struct strvec v = STRVEC_INIT;

	ok(kcmd_split(&v, line) == WW_EINPUT, "split refuses %s", what);
	error_clear();
	strvec_clear(&v);
}

static void test_split(void)
{
	split_ok("gcc -c  -o a.o\ta.c\nnext line", "gcc -c -o a.o a.c", "blanks, one line");
	split_ok("gcc -DKBUILD_MODNAME='\"ext4\"' a.c", "gcc -DKBUILD_MODNAME=\"ext4\" a.c",
		 "single quotes keep the double ones");
	split_ok("gcc \"-DX=\\\"a b\\\"\" a.c", "gcc -DX=\"a b\" a.c", "double quotes, escapes");
	split_ok("gcc -DX='$$y' -DH='$(pound)' a.c", "gcc -DX=$y -DH=# a.c",
		 "make's $$ and $(pound)");
	split_ok("gcc -c a.c; ./tools/objtool/objtool --orc a.o", "gcc -c a.c",
		 "the first command only (6.1's objtool)");
	split_ok("gcc a\\ b.c # comment", "gcc a b.c", "a backslash, a comment");
	split_refused("gcc `id` a.c", "a backquote");
	split_refused("gcc $(shell id) a.c", "an expansion");
	split_refused("gcc -c a.c | tee x", "a pipe");
	split_refused("gcc -c a.c > x", "a redirection");
	split_refused("gcc -c *.c", "a glob");
	split_refused("gcc -DX='a", "an unterminated quote");
	split_refused("gcc \"$HOME\"", "an expansion in double quotes");
}

static void test_read(void)
{
	struct strvec builds = STRVEC_INIT;
	struct kcmd k = KCMD_INIT;
	struct strbuf b1 = STRBUF_INIT, b2 = STRBUF_INIT, want = STRBUF_INIT, link = STRBUF_INIT;
	char *got;
	int ret;

	strbuf_addf(&b1, "%s/empty-build", top);
	strbuf_addf(&b2, "%s/build", top);
	tmp_put(top, "empty-build/Makefile", "");
	tmp_put(top, "build/fs/ext4/.super.o.cmd",
	    "savedcmd_fs/ext4/super.o := gcc -Wp,-MMD,fs/ext4/.super.o.d -nostdinc "
	    "-I/ww/src/include -I./include -include /ww/src/include/linux/kconfig.h "
	    "-D__KERNEL__ -fplugin=./scripts/gcc-plugins/x.so -fplugin-arg-x-y=1 "
	    "-B/tmp/evil -specs=/tmp/evil.specs @/tmp/evil.rsp -wrapper /bin/sh "
	    "-fdump-tree-all -save-temps -MD -MF x.d -Wall -Werror=implicit-int "
	    "-std=gnu11 -O2 -mcmodel=kernel -DKBUILD_MODNAME='\"ext4\"' "
	    "-c -o fs/ext4/super.o /ww/src/fs/ext4/super.c; ./tools/objtool/objtool "
	    "--orc fs/ext4/super.o\n\nsource_fs/ext4/super.o := ../src/fs/ext4/super.c\n");
	strbuf_addf(&link, "%s/source", b2.buf);
	if (symlink("/ww/src", link.buf))
		printf("# symlink: %s\n", strerror(errno));
	strvec_pushl(&builds, b1.buf, b2.buf, NULL);

	ret = kcmd_read(&k, &builds, "/src/linux", "fs/ext4/super.c");
	got = joined(&k.argv);
	strbuf_addf(&want, "gcc -nostdinc -I/src/linux/include -I%s/include -include "
		    "/src/linux/include/linux/kconfig.h -D__KERNEL__ -Wall -Werror=implicit-int "
		    "-std=gnu11 -O2 -mcmodel=kernel -DKBUILD_MODNAME=\"ext4\"", b2.buf);
	if (!ok(!ret && !strcmp(got, want.buf),
		"the first build holding the .o.cmd: read flags only, sandbox paths mapped, "
		"relative ones the build's"))
		printf("# ret %d %s\n# got  %s\n# want %s\n", ret, ret ? error_last() : "",
		       got, want.buf);
	is_str(k.build, b2.buf, "its build directory is the command's");
	free(got);
	kcmd_release(&k);

	ret = kcmd_read(&k, &builds, "/src/linux", "fs/ext4/inode.c");
	ok(ret == WW_ENOTFOUND && !k.argv.nr, "an object no build has: WW_ENOTFOUND");
	error_clear();

	tmp_put(top, "build/fs/ext4/.inode.o.cmd",
	    "cmd_fs/ext4/inode.o := /tmp/evil/gcc -c -o fs/ext4/inode.o fs/ext4/inode.c\n");
	ret = kcmd_read(&k, &builds, "/src/linux", "fs/ext4/inode.c");
	ok(ret == WW_EINPUT && !k.argv.nr, "a compiler given as a path: refused");
	error_clear();
	tmp_put(top, "build/fs/ext4/.inode.o.cmd",
	    "cmd_fs/ext4/inode.o := gcc $(shell id) -c -o fs/ext4/inode.o fs/ext4/inode.c\n");
	ret = kcmd_read(&k, &builds, "/src/linux", "fs/ext4/inode.c");
	ok(ret == WW_EINPUT && strstr(error_last(), ".inode.o.cmd"),
	   "a command that needs a shell: refused, naming the file");
	error_clear();
	kcmd_release(&k);

	strvec_clear(&builds);
	strbuf_release(&b1);
	strbuf_release(&b2);
	strbuf_release(&want);
	strbuf_release(&link);
}

/*
 * The allowlist (kcmd.h): each class kept, each refused; `cmd` is the
 * words after "gcc" of a 6.12-style .o.cmd in build `b` of tree
 * "/src/linux" (sandbox paths /ww/src and /ww/build, relative paths the
 * build's).  `want` is what is kept after "gcc", `dropped` what is
 * refused, both joined by blanks ("@B@" is the build directory).
 */
static void allow(const char *cmd, const char *want, const char *dropped, const char *what)
{
	struct strvec builds = STRVEC_INIT;
	struct kcmd k = KCMD_INIT;
	struct strbuf b = STRBUF_INIT, text = STRBUF_INIT, w = STRBUF_INIT, d = STRBUF_INIT;
	char *got, *got_dropped;
	int ret;

	strbuf_addf(&b, "%s/allow", top);
	strbuf_addf(&text, "savedcmd_drivers/misc/frob.o := gcc %s -c -o drivers/misc/frob.o "
		    "/ww/src/drivers/misc/frob.c\n", cmd);
	tmp_put(top, "allow/drivers/misc/.frob.o.cmd", text.buf);
	strvec_push(&builds, b.buf);
	ret = kcmd_read(&k, &builds, "/src/linux", "drivers/misc/frob.c");
	for (const char *p = want; *p; p++)
		starts_with(p, "@B@") ? (strbuf_addbuf(&w, &b), p += 2) : strbuf_addch(&w, *p);
	for (const char *p = dropped; *p; p++)
		starts_with(p, "@B@") ? (strbuf_addbuf(&d, &b), p += 2) : strbuf_addch(&d, *p);
	got = joined(&k.argv);
	got_dropped = joined(&k.dropped);
	if (!ok(!ret && k.argv.nr && !strcmp(k.argv.v[0], "gcc") && !strcmp(got + 3 + !!*(got + 3), w.buf) &&
		!strcmp(got_dropped, d.buf), "allowlist: %s", what))
		printf("# ret %d %s\n# kept    [%s]\n# want    [gcc %s]\n# dropped [%s]\n# want    [%s]\n",
		       ret, ret ? error_last() : "", got, w.buf, got_dropped, d.buf);
	error_clear();
	free(got);
	free(got_dropped);
	kcmd_release(&k);
	strvec_clear(&builds);
	strbuf_release(&b);
	strbuf_release(&text);
	strbuf_release(&w);
	strbuf_release(&d);
}

static void test_allowlist(void)
{
	struct strbuf link = STRBUF_INIT;

	tmp_put(top, "allow/Makefile", "");
	strbuf_addf(&link, "%s/allow/source", top);
	if (symlink("/ww/src", link.buf))
		printf("# symlink: %s\n", strerror(errno));
	strbuf_release(&link);

	/* Kept. */
	allow("-D__KERNEL__ -DKBUILD_MODNAME='\"frob\"' -D X=1 -UFOO -U BAR",
	      "-D__KERNEL__ -DKBUILD_MODNAME=\"frob\" -D X=1 -UFOO -U BAR", "", "-D and -U");
	allow("-I/ww/src/include -I ./include -I/ww/build/arch/x86/include/generated "
	      "-iquote /ww/src/drivers/misc -idirafter include",
	      "-I/src/linux/include -I @B@/include -I@B@/arch/x86/include/generated "
	      "-iquote /src/linux/drivers/misc -idirafter @B@/include", "",
	      "-I, -iquote, -idirafter beneath the tree or the build, made the host's");
	allow("-include /ww/src/include/linux/kconfig.h -include ./include/generated/autoconf.h "
	      "-imacros /ww/src/include/linux/compiler-version.h",
	      "-include /src/linux/include/linux/kconfig.h -include @B@/include/generated/autoconf.h "
	      "-imacros /src/linux/include/linux/compiler-version.h", "",
	      "-include, -imacros beneath the tree or the build");
	allow("-isystem /usr/lib/gcc/x86_64-linux-gnu/12/include -isystem/ww/src/include/uapi",
	      "-isystem /usr/lib/gcc/x86_64-linux-gnu/12/include -isystem/src/linux/include/uapi", "",
	      "-isystem beneath the tree or the compiler's own directory");
	allow("-std=gnu11 -std=c99 -O2 -Os -O -g -gdwarf-5 -nostdinc -ansi",
	      "-std=gnu11 -std=c99 -O2 -Os -O -g -gdwarf-5 -nostdinc -ansi", "",
	      "-std=, -O*, -g*, -nostdinc, -ansi");
	allow("-Wall -Wno-trigraphs -Werror=implicit-int -Wframe-larger-than=2048 -Wimplicit-fallthrough=5",
	      "-Wall -Wno-trigraphs -Werror=implicit-int -Wframe-larger-than=2048 "
	      "-Wimplicit-fallthrough=5", "", "-W* warnings");
	allow("-m64 -mno-red-zone -mcmodel=kernel -mpreferred-stack-boundary=3 "
	      "-mindirect-branch=thunk-extern -mharden-sls=all -mtune=generic",
	      "-m64 -mno-red-zone -mcmodel=kernel -mpreferred-stack-boundary=3 "
	      "-mindirect-branch=thunk-extern -mharden-sls=all -mtune=generic", "",
	      "-m* from the list");
	allow("-fno-strict-aliasing -fno-common -fshort-wchar -fcf-protection=none "
	      "-fmacro-prefix-map=/ww/src/= -fno-builtin-wcslen -ftrivial-auto-var-init=zero "
	      "-fstack-protector-strong",
	      "-fno-strict-aliasing -fno-common -fshort-wchar -fcf-protection=none "
	      "-fmacro-prefix-map=/ww/src/= -fno-builtin-wcslen -ftrivial-auto-var-init=zero "
	      "-fstack-protector-strong", "", "-f* from the list");

	/* Refused: each class, the rest of the command kept. */
	allow("-x c++ -xc++ -D__KERNEL__", "-D__KERNEL__", "-x c++ -xc++", "-x (the language)");
	allow("-fmodules-ts '-fmodule-mapper=|./evil' -fmodule-mapper=./m.map -D__KERNEL__",
	      "-D__KERNEL__", "-fmodules-ts -fmodule-mapper=|./evil -fmodule-mapper=./m.map",
	      "-fmodule-mapper, -fmodules-ts (issue 33: cc1plus runs the mapper)");
	allow("-fplugin=./scripts/gcc-plugins/x.so -fplugin-arg-x-y=1 -Wall",
	      "-Wall", "-fplugin=./scripts/gcc-plugins/x.so -fplugin-arg-x-y=1", "-fplugin*");
	allow("-B/tmp/evil -B /tmp/evil -specs=/tmp/evil.specs -specs /tmp/s @/tmp/evil.rsp "
	      "-wrapper /bin/sh,-c -Wall",
	      "-Wall", "-B/tmp/evil -B /tmp/evil -specs=/tmp/evil.specs -specs /tmp/s "
	      "@/tmp/evil.rsp -wrapper /bin/sh,-c",
	      "programs run: -B, -specs, @file, -wrapper");
	allow("-Wp,-MMD,drivers/misc/.frob.o.d -MD -MF x.d -MT x -Wa,-adhln=/tmp/x "
	      "-Wl,-T,x -W,x -Wall",
	      "-Wall", "-Wp,-MMD,drivers/misc/.frob.o.d -MD -MF x.d -MT x -Wa,-adhln=/tmp/x "
	      "-Wl,-T,x -W,x", "files written or words passed on: -Wp, -M*, -Wa, -Wl, -W,");
	allow("-save-temps -fdump-tree-all -ftest-coverage -fprofile-arcs -fstack-usage "
	      "-fcallgraph-info -fdiagnostics-format=json -fdebug-prefix-map=/a=/b -O2",
	      "-O2", "-save-temps -fdump-tree-all -ftest-coverage -fprofile-arcs -fstack-usage "
	      "-fcallgraph-info -fdiagnostics-format=json -fdebug-prefix-map=/a=/b",
	      "-save-temps, -fdump*, coverage and other output files");
	allow("--param=allow-store-data-races=0 --param asan-stack=1 -Xclang -load -pg -O2",
	      "-O2", "--param=allow-store-data-races=0 --param asan-stack=1 -Xclang -load -pg",
	      "--param, -Xclang, -pg (decided: nothing a syntax check needs)");
	allow("-mno-such-thing -mfoo=bar -m -fno-such-thing -std=gnu11,x -O2.x -Dok",
	      "-Dok", "-mno-such-thing -mfoo=bar -m -fno-such-thing -std=gnu11,x -O2.x",
	      "-m, -f not on the lists, odd -std= and -O");
	allow("-I/etc -I/ww/src/../../etc -I../../etc -iquote /root/.ssh -include /etc/passwd "
	      "-include ../../../etc/shadow -imacros /dev/zero -isystem /etc -isystem "
	      "/usr/lib/gcc/../../../etc -I/usr/include -Dok",
	      "-Dok", "-I/etc -I/ww/src/../../etc -I../../etc -iquote /root/.ssh -include /etc/passwd "
	      "-include ../../../etc/shadow -imacros /dev/zero -isystem /etc -isystem "
	      "/usr/lib/gcc/../../../etc -I/usr/include",
	      "paths leaving the tree and the build (absolute, .., the host's)");
}

static void test_cache_builds(void)
{
	struct strvec v = STRVEC_INIT;
	struct strbuf tree = STRBUF_INIT, cache = STRBUF_INIT;
	char *got;

	tmp_put(top, "tree/Makefile", "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n");
	tmp_put(top, "cache/build/6.12.118-e3d48e04cf65/Makefile", "");
	tmp_put(top, "cache/build/6.12.118-0123456789ab/Makefile", "");
	tmp_put(top, "cache/build/6.1.192-e3d48e04cf65/Makefile", "");
	tmp_put(top, "cache/build/6.12.118-g0123456789ab-e3d48e04cf65/Makefile", "");
	tmp_put(top, "cache/build/6.12.1180-e3d48e04cf65/Makefile", "");
	strbuf_addf(&tree, "%s/tree", top);
	strbuf_addf(&cache, "%s/cache", top);
	kcmd_cache_builds(&v, cache.buf, tree.buf);
	got = joined(&v);
	strbuf_reset(&tree);
	strbuf_addf(&tree, "%s/build/6.12.118-0123456789ab %s/build/6.12.118-e3d48e04cf65",
		    cache.buf, cache.buf);
	if (!ok(!strcmp(got, tree.buf), "the cache's builds of the tree's release, sorted"))
		printf("# got %s\n", got);
	free(got);
	strvec_clear(&v);
	kcmd_cache_builds(&v, cache.buf, "/nonexistent");
	ok(!v.nr && !*error_last(), "a tree without a version: none, no error left");
	strvec_clear(&v);
	strbuf_release(&tree);
	strbuf_release(&cache);
}

int main(void)
{
	struct child rm = CHILD_INIT;

	if (!mkdtemp(top)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_split();
	test_read();
	test_allowlist();
	test_cache_builds();
	strvec_pushl(&rm.args, "rm", "-rf", "--", top, NULL);
	child_run(&rm);
	child_release(&rm);
	return done_testing();
}
