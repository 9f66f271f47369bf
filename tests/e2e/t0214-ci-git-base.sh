#!/usr/bin/env bash
# slow
#
# t0214: a git kernel repository as the base (issue 28, docs/kernel-ci.md
# "A git kernel repository as the base"), end to end on the real 6.12 tree.
# The repository stands in for a tree newer than Debian's: the 6.12.118
# import plus a commit adding a helper (tests/kernel/14-git-base-helper/
# make-repo.sh; kept in the cache, keyed by the tarball).  Its series
# names that commit in base-commit: and calls the helper in a WARN_ON that
# the time KUnit suite fires.
#   1. --repo: the series is built on that commit (incrementally, from a
#      copy of the warm Debian 6.12 build) and booted: panicked at its line,
#      the base and review's reply naming the commit.
#   2. Debian's trees alone: untestable (the helper is missing), and the
#      reply `review --verdict` drafts from it blames nothing on the patch.
#   3. drift.mbox, written on a tree whose context differs, applies 3-way
#      from the blobs in the repository (--branch: no base-commit:).
#   4. The cache keeps no more than keep-bases git bases (default 3).
# Verdicts and texts are kept under tests/out/ci-git/.
. "$(dirname "$0")/lib.sh"

case_dir=$WW_TOP/tests/kernel/14-git-base-helper
out=$WW_TOP/tests/out/ci-git
tarball=/usr/src/linux-source-6.12.tar.xz
# The same requirements as t0210's case 10 (the 6.12 base).
command -v qemu-system-x86_64 >/dev/null || skip_all "not-installed: qemu-system-x86_64"
command -v bwrap >/dev/null || skip_all "not-installed: bubblewrap"
[ -f "$tarball" ] || skip_all "not-installed: linux-source-6.12"
need_cmd git
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }
CACHE=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}
mkdir -p "$out"

# verdict FILE KEY...: the JSON verdict's values (one line, "none" if none)
field() {
	"$WW_PYTHON" -c 'import json,sys
try:
    v = json.load(open(sys.argv[1]))
    for k in sys.argv[2:]:
        v = v[int(k)] if isinstance(v, list) else v[k]
    print(v)
except Exception: print("none")' "$@"
}
# ci NAME ARGS...: warnwatch ci, bounded like a t0210 case (a cold build
# fits in 60 min), the JSON in $out/NAME.json, the text in NAME.txt.
ci() {
	local name=$1 start
	shift
	start=$(date +%s)
	timeout -k 10 4000 "$WARNWATCH" ci "$@" --no-rerun --json-out "$out/$name.json" \
		>"$out/$name.txt" 2>"$out/$name.err"
	rc=$?
	secs=$(( $(date +%s) - start ))
}
# match NAME EXPECTED WANT_RC DESCRIPTION
match() {
	local msg
	if msg=$(python3 "$WW_TOP/tests/kernel/match-verdict.py" "$2" "$out/$1.json") &&
	   [ "$rc" -eq "$3" ]; then
		ok "$4 ($(field "$out/$1.json" verdict) in ${secs}s)"
	else
		not_ok "$4 ($(field "$out/$1.json" verdict), exit $rc, ${secs}s)"
		[ -n "$msg" ] && echo "$msg"
		sed 's/^/#   stderr: /' "$out/$1.err" | tail -n 5
	fi
}

# The warm Debian 6.12 build the git base's build directory starts from
# (t0210's case 10 leaves it; a no-op then).
start=$(date +%s)
timeout -k 10 4000 "$WARNWATCH" kbuild --base-tarball "$tarball" -q \
	>"$out/debian-base.txt" 2>"$out/debian-base.err"
rc=$?
test_expect "the Debian 6.12 base is built ($(( $(date +%s) - start ))s)" test "$rc" -eq 0
version=$(sed -n 's/^version //p' "$CACHE/work/linux-source-6.12.base" 2>/dev/null)
import=$CACHE/git/linux-$version.git

# The repository, made once per tarball (size and mtime) from the import.
key=$(stat -c 'linux-source-6.12-%s-%Y' "$tarball")
repo=$CACHE/test-repos/$key.git
want=$(sed -n 's/^base-commit: //p' "$case_dir/series.mbox")
if [ "$(git --git-dir="$repo" rev-parse -q --verify next 2>/dev/null)" != "$want" ]; then
	start=$(date +%s)
	mkdir -p "$CACHE/test-repos"
	rm -rf "$CACHE"/test-repos/linux-source-6.12-*.git
	"$case_dir/make-repo.sh" "$repo" "$import" >"$out/make-repo.err" 2>&1
	diag "made $repo in $(( $(date +%s) - start ))s"
fi
next=$(git --git-dir="$repo" rev-parse -q --verify next 2>/dev/null)
if [ -n "$next" ] && [ "$next" = "$want" ]; then
	ok "the repository's helper commit is the series' base-commit ${want:0:12}"
else
	not_ok "the repository's helper commit '$next' is the series' base-commit $want (another linux-source-6.12 than 6.12.118?)"
	sed 's/^/#   /' "$out/make-repo.err" 2>/dev/null | tail -n 5
	done_testing
	exit 1
fi

# Stale git bases, older than any real one: the run must evict down to 3.
fakes=()
for i in 1 2 3; do
	hex=$(printf 'dead%036d' "$i")
	mkdir -p "$CACHE/work/$hex" "$CACHE/git/base-$hex.git"
	touch -d "2000-01-0$i" "$CACHE/git/base-$hex.git/warnwatch-used"
	fakes+=("$hex")
done

# 1. The git base: the series' own, built incrementally and booted.
ci git "$case_dir/series.mbox" --repo "$repo"
match git "$case_dir/expected-git.json" 1 "--repo: panicked at the helper's WARN_ON on the git base"
build=$(field "$out/git.json" seconds build)
diag "git base: $(field "$out/git.json" seconds tree | cut -c1-5)s to open (seeding it the first time), build ${build%%.*}s, total ${secs}s"
# A cold 6.12 build takes about 15 minutes here; the copy of the Debian
# build directory leaves timeconv.o and whatever the Debian tree's last
# series touched.
test_expect "  the build was incremental (${build%%.*}s)" \
	"$WW_PYTHON" -c 'import sys; sys.exit(not float(sys.argv[1]) < 600)' "$build"
tree=$(field "$out/git.json" seconds tree)
test_expect "  opening the git base is timed (seconds.tree $tree)" \
	"$WW_PYTHON" -c 'import sys; sys.exit(not float(sys.argv[1]) > 0)' "$tree"
test_expect "  the text names the base commit" \
	grep -qF "Base: linux $version-g${want:0:12} (base-commit ${want:0:12} found in $repo)" "$out/git.txt"
"$WARNWATCH" review --always --config "$WW_TOP/tests/e2e/data/example.conf" \
	--mbox "$case_dir/series.mbox" --verdict "$out/git.json" \
	>"$out/git-reply.eml" 2>"$out/git-reply.err"
rc=$?
test_expect "  review --verdict: the reply says which commit was booted (exit $rc)" \
	grep -qzE "kernel-ci built the series on[[:space:]]+$version-g${want:0:12}[[:space:]]+and[[:space:]]+booted" \
	"$out/git-reply.eml"

# 2. Debian's trees alone: the helper is missing, nothing is the patch's.
ci debian "$case_dir/series.mbox"
match debian "$case_dir/expected-debian.json" 1 "Debian trees only: untestable, the helper named"
"$WARNWATCH" review --always --config "$WW_TOP/tests/e2e/data/example.conf" \
	--mbox "$case_dir/series.mbox" --verdict "$out/debian.json" \
	>"$out/debian-reply.eml" 2>"$out/debian-reply.err"
rc=$?
if [ "$rc" -le 1 ] && grep -q "kernel-ci could not test this series" "$out/debian-reply.eml"; then
	ok "review --verdict: one line says the series could not be tested"
else
	not_ok "review --verdict: one line says the series could not be tested (exit $rc)"
	sed 's/^/#   /' "$out/debian-reply.err" "$out/debian-reply.eml" | head -n 30
fi
blames=$(grep -niE "does not build|did not build|fails to build|does not apply|booted" \
	"$out/debian-reply.eml" "$out/debian.txt")
test_expect "  neither the reply nor ci's text says it does not build, or booted" \
	test -z "$blames"
[ -z "$blames" ] || printf '%s\n' "$blames" | sed 's/^/#   /'

# 3. Drifted context: strictly it does not apply, 3-way from the blobs.
ci drift "$case_dir/drift.mbox" --repo "$repo" --branch next
match drift "$case_dir/expected-drift.json" 1 "--branch: the drifted series applies 3-way"

# 4. The bound on git bases.
n=0
for d in "$CACHE"/work/*; do
	case ${d##*/} in
	*[!0-9a-f]*) ;;
	????????????????????????????????????????) n=$((n + 1)) ;;
	esac
done
test_expect "the cache keeps at most 3 git bases ($n), the oldest evicted" \
	test "$n" -le 3 -a ! -e "$CACHE/work/${fakes[0]}" -a -d "$CACHE/work/$want"
for hex in "${fakes[@]}"; do
	rm -rf "${CACHE:?}/work/$hex" "${CACHE:?}/git/base-$hex.git"
done
done_testing
