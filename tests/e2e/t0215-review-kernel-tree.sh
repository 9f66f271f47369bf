#!/usr/bin/env bash
# slow
#
# t0215: review of a one-patch series against the real linux 6.12 tree of the
# kernel-ci cache (work/VERSION, VERSION as Debian's linux-source-6.12 gave it,
# which t0210 extracts and builds before this runs): the facts come from the
# patched fs/ext4/super.c and the rewrite is compiled with kbuild's own
# command for fs/ext4/super.o, from the configured build directory
# build/VERSION-<hash>/ (its .o.cmd).  Reads the cache only: nothing is
# built, nothing in the tree or the build directory is written.
. "$(dirname "$0")/lib.sh"

need_cmd b4 gcc
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }
[ -f /usr/src/linux-source-6.12.tar.xz ] || skip_all "not-installed: linux-source-6.12 (make deps)"
cache=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}
# Which 6.12 the tarball gave: ktree's stamp says (never a point release here).
version=$(sed -n 's/^version //p' "$cache/work/linux-source-6.12.base" 2>/dev/null)
tree=$cache/work/$version
build=
for d in "$cache"/build/"$version"-*/; do
	[ -n "$version" ] && [ -f "$d/fs/ext4/.super.o.cmd" ] && { build=${d%/}; break; }
done
# t0210 (its 6.12 cases) runs first and leaves them: without them this is
# a failure of the order, not a skip.
if [ ! -f "$tree/fs/ext4/super.c" ] || [ -z "$build" ]; then
	echo "Bail out! no warm linux-source-6.12 tree (${version:-none}) and build directory in $cache: t0210 makes them"
	exit 1
fi
export WARNWATCH_CONFIG=/nonexistent WARNWATCH_CACHE=$cache TMPDIR=$TEST_DIR

"$WW_PYTHON" "$WW_TOP/tests/e2e/data/kernel-one-patch.py" "$tree" >"$TEST_DIR/series.mbox" ||
	{ echo "Bail out! fs/ext4/super.c of $tree has no ext4_li_info_new() to patch"; exit 1; }
touch "$TEST_DIR/start"

# field FILE KEY: the first call's KEY
field() {
	"$WW_PYTHON" -c 'import json,sys; c=json.load(open(sys.argv[1]))["calls"]; print(json.dumps(c[0].get(sys.argv[2])) if c else "no calls")' "$1" "$2"
}

for how in auto explicit; do
	args=()
	[ $how = explicit ] && args=(--build-dir "$build")
	"$WARNWATCH" review --mbox "$TEST_DIR/series.mbox" --tree "$tree" --format=json "${args[@]}" \
		>"$TEST_DIR/$how.json" 2>"$TEST_DIR/$how.err"; rc=$?
	got="$(field "$TEST_DIR/$how.json" facts) $(field "$TEST_DIR/$how.json" compile) $(field "$TEST_DIR/$how.json" compiled) $(field "$TEST_DIR/$how.json" rewrite)"
	case "$rc:$got" in
	'0:true "kbuild" true "if (!eli)\n\treturn -ENOMEM;"')
		ok "$how build directory: facts from the patched tree, the rewrite compiled with kbuild's command for fs/ext4/super.o" ;;
	*) not_ok "$how build directory: rc $rc, facts/compile/compiled/rewrite: $got"
	   sed 's/^/#   /' "$TEST_DIR/$how.err" ;;
	esac
done
newer=$(find "$build/fs/ext4" -newer "$TEST_DIR/start" | head -3)
[ -z "$newer" ] && ok "the build directory is only read (nothing in fs/ext4/ newer)" ||
	not_ok "the build directory changed: $newer"
done_testing
