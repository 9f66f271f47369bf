#!/usr/bin/env bash
# t0105: review compiles its rewrite with the object's own kbuild command.
# A small fake tree (the review corpus' cut-down kernel header and one real
# function of linux-source-6.12 with a made-up BUG_ON, tests/review-corpus)
# whose C file compiles only with a flag its build directory's .o.cmd gives,
# and a fake configured build directory (make O=, built in the sandbox:
# `source` -> /ww/src) holding a real-looking 6.1-style .o.cmd: -Wp,-MMD, a
# gcc plugin, -c -o, and objtool after a ';'.  No kernel is built.
. "$(dirname "$0")/lib.sh"

need_cmd b4 gcc
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }

CORPUS=$WW_TOP/tests/review-corpus
case_dir=$CORPUS/cases/alloc-bug-li-info
[ -f "$case_dir/input.mbox" ] || { echo "Bail out! no review corpus case alloc-bug-li-info"; exit 1; }
export WARNWATCH_CONFIG=/nonexistent TMPDIR=$TEST_DIR

tree=$TEST_DIR/tree
build=$TEST_DIR/build
mkdir -p "$tree/fs/ext4" "$build/fs/ext4" "$build/include/generated" "$TEST_DIR/empty-cache"
cp -r "$CORPUS/include" "$tree/"
mkdir -p "$tree/Documentation/process"
cp "$WW_TOP/tests/e2e/data/serve/coding-style.rst" "$tree/Documentation/process/"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n' >"$tree/Makefile"
{
	printf '#ifndef WW_KBUILD\n#error not compiled with the kbuild command\n#endif\n'
	cat "$CORPUS/src/li-info-new.c"
} >"$tree/fs/ext4/super.c"
# The patch's hunk is at line 4: the three lines on top move it, fuzz finds it.
printf '#define WW_KBUILD 1\n' >"$build/include/generated/ww.h"
ln -s /ww/src "$build/source"
cat >"$build/fs/ext4/.super.o.cmd" <<'CMD'
cmd_fs/ext4/super.o := gcc -Wp,-MMD,fs/ext4/.super.o.d  -nostdinc -I/ww/src/include -I./include -include /ww/src/include/linux/kconfig.h -include ./include/generated/ww.h -D__KERNEL__ -fplugin=./scripts/gcc-plugins/absent_plugin.so -Wall -Werror=implicit-function-declaration -std=gnu11 -DKBUILD_MODNAME='"ext4"' -DKBUILD_BASENAME='"super"'  -c -o fs/ext4/super.o /ww/src/fs/ext4/super.c ; ./tools/objtool/objtool --hacks=jump_label --orc   fs/ext4/super.o

source_fs/ext4/super.o := /ww/src/fs/ext4/super.c

deps_fs/ext4/super.o := \
  /ww/src/include/linux/kconfig.h \

fs/ext4/super.o: $(deps_fs/ext4/super.o)
CMD
before=$(cd "$build" && find . | sort)

# field FILE KEY: the first call's KEY in review --format=json output
field() {
	"$WW_PYTHON" -c 'import json,sys; c=json.load(open(sys.argv[1]))["calls"]; print(json.dumps(c[0].get(sys.argv[2])) if c else "no calls")' "$1" "$2"
}

review() {	# review OUT [ARGS...]
	local out=$1
	shift
	"$WARNWATCH" review --mbox "$case_dir/input.mbox" --tree "$tree" --format=json "$@" \
		>"$out" 2>"$out.err"
}

review "$TEST_DIR/kbuild.json" --build-dir "$build"; rc=$?
got="$(field "$TEST_DIR/kbuild.json" compile) $(field "$TEST_DIR/kbuild.json" compiled) $(field "$TEST_DIR/kbuild.json" rewrite)"
case "$rc:$got" in
'0:"kbuild" true "if (!eli)\n\treturn -ENOMEM;"') ok "--build-dir: the rewrite compiled with the object's .o.cmd command (sandbox paths mapped, plugin and -MMD dropped)" ;;
*) not_ok "--build-dir: rc $rc, compile/compiled/rewrite: $got"; sed 's/^/#   /' "$TEST_DIR/kbuild.json.err" ;;
esac
[ "$(field "$TEST_DIR/kbuild.json" facts)" = true ] && ok "facts read with the same flags" ||
	not_ok "facts: $(field "$TEST_DIR/kbuild.json" facts)"
after=$(cd "$build" && find . | sort)
[ "$before" = "$after" ] && ok "the build directory is left as it was (no .d file, nothing written)" ||
	{ not_ok "the build directory changed"; diff <(echo "$before") <(echo "$after") | sed 's/^/#   /'; }

WARNWATCH_CACHE=$TEST_DIR/empty-cache review "$TEST_DIR/minimal.json"; rc=$?
got="$(field "$TEST_DIR/minimal.json" compile) $(field "$TEST_DIR/minimal.json" compiled)"
case "$rc:$got" in
'0:"minimal" null') ok "no build directory: the minimal flags, and a file that does not compile with them is not judged (compiled null)" ;;
*) not_ok "no build directory: rc $rc, compile/compiled: $got"; sed 's/^/#   /' "$TEST_DIR/minimal.json.err" ;;
esac

# The kernel-ci cache's build of the same release, found by itself.
mkdir -p "$TEST_DIR/cache/build"
ln -s "$build" "$TEST_DIR/cache/build/6.12.118-0123456789ab"
WARNWATCH_CACHE=$TEST_DIR/cache review "$TEST_DIR/cache.json"; rc=$?
got="$(field "$TEST_DIR/cache.json" compile) $(field "$TEST_DIR/cache.json" compiled)"
case "$rc:$got" in
'0:"kbuild" true') ok "the kernel-ci cache's build/6.12.118-<hash>/ is used without --build-dir" ;;
*) not_ok "cache build: rc $rc, compile/compiled: $got"; sed 's/^/#   /' "$TEST_DIR/cache.json.err" ;;
esac

printf '[review]\nbuild-dir = %s\n' "$build" >"$TEST_DIR/ww.conf"
WARNWATCH_CACHE=$TEST_DIR/empty-cache review "$TEST_DIR/conf.json" --config "$TEST_DIR/ww.conf"; rc=$?
got="$(field "$TEST_DIR/conf.json" compile) $(field "$TEST_DIR/conf.json" compiled)"
case "$rc:$got" in
'0:"kbuild" true') ok "[review] build-dir names it too" ;;
*) not_ok "[review] build-dir: rc $rc, compile/compiled: $got"; sed 's/^/#   /' "$TEST_DIR/conf.json.err" ;;
esac

# A .o.cmd that needs a shell is said and not run.
cp "$build/fs/ext4/.super.o.cmd" "$TEST_DIR/saved.cmd"
sed -i '1s/-D__KERNEL__/-D__KERNEL__ $$(touch pwned)/' "$build/fs/ext4/.super.o.cmd"
WARNWATCH_CACHE=$TEST_DIR/empty-cache review "$TEST_DIR/shell.json" --build-dir "$build"; rc=$?
got="$(field "$TEST_DIR/shell.json" compile)"
if [ "$rc:$got" = '0:"minimal"' ] && grep -q "needs a shell" "$TEST_DIR/shell.json.err" &&
   [ ! -e "$build/pwned" ] && [ ! -e pwned ]; then
	ok "a .o.cmd that needs a shell: said on stderr, not run (minimal flags instead)"
else
	not_ok "shell .o.cmd: rc $rc, compile $got"; sed 's/^/#   /' "$TEST_DIR/shell.json.err"
fi
cp "$TEST_DIR/saved.cmd" "$build/fs/ext4/.super.o.cmd"
done_testing
