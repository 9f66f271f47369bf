#!/usr/bin/env bash
# tests/run's skip guard (issue 36): a skip names a reason of tests/skips
# before a colon, or its suite fails; with WW_EXPECT_SKIPS (make check-ci)
# a suite skipping more than tests/skips expects on CI's machine fails the
# run.  tests/run, tapcount and tests/skips are copied into a scratch
# checkout whose only suites are stand-in unit tests, so that nothing here
# touches the real run's tests/out.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
mkdir -p "$tmp/tests" "$tmp/build/unit"
cp "$top/tests/run" "$top/tests/tapcount" "$tmp/tests/"
cat >"$tmp/tests/skips" <<'EOF'
reason not-installed   a program is missing
reason root            cannot run as root
expect plain    unit/t-a  not-installed  1
EOF

# suite TAP-TEXT: the stand-in unit/t-a prints TAP-TEXT
suite() {
	printf '#!/bin/sh\nprintf '"'%%b'"' "%s"\n' "$1" >"$tmp/build/unit/t-a"
	chmod +x "$tmp/build/unit/t-a"
}

# run NAME WANT-RC GREP [ENV...]: tests/run exits WANT-RC (0 or 1) and
# says GREP
run() {
	local name=$1 want=$2 re=$3 rc
	shift 3
	n=$((n + 1))
	env BUILD="$tmp/build" WARNWATCH=/bin/false WW_SKIP_SUITES= WW_SKIP_SLOW= \
		WW_EXPECT_SKIPS= "$@" "$tmp/tests/run" unit/t-a >"$tmp/out" 2>&1
	rc=$?
	[ "$rc" -ne 0 ] && rc=1
	if [ "$rc" = "$want" ] && grep -qE -- "$re" "$tmp/out"; then
		echo "ok $n - $name"
	else
		bad=$((bad + 1))
		echo "not ok $n - $name"
		echo "#   exit $rc, want $want and /$re/ in:"
		sed 's/^/#     /' "$tmp/out"
	fi
}

suite 'ok 1 - a\nok 2 - vim # SKIP not-installed: vim (make deps)\n1..2\n'
run "a skip for a reason of tests/skips passes" 0 '^1 passed, 0 failed, 1 skipped'
suite 'ok 1 - a\nok 2 - vim # SKIP vim is not installed\n1..2\n'
run "a skip naming no reason fails its suite" 1 "unit/t-a: a skip naming no reason"
suite 'ok 1 - a\nok 2 - vim # SKIP vim: not installed\n1..2\n'
run "a skip for no reason of tests/skips fails its suite" 1 \
	"unit/t-a: a skip for 'vim', not a reason of tests/skips"
suite 'ok 1 - a\nok 2 - b # SKIP root removes it anyway\n1..2\n'
run "a reason's word without its colon is no reason" 1 '1 failed, 1 skipped'
suite '1..0 # SKIP setup: mkdtemp failed\n'
run "a whole suite skipped for another reason fails" 1 "a skip for 'setup'"
suite 'ok 1 - a # skip not-installed: b4\n1..1\n'
run "lower-case skip is read too" 0 '^0 passed, 0 failed, 1 skipped'

suite 'ok 1 - a\nok 2 - vim # SKIP not-installed: vim\n1..2\n'
run "check-ci: as many skips as CI's machine expects pass" 0 \
	"skips: 1 skipped, 0 more than CI's machine expects" WW_EXPECT_SKIPS=plain
suite 'ok 1 - vim # SKIP not-installed: vim\nok 2 - emacs # SKIP not-installed: emacs\n1..2\n'
run "check-ci: one skip more than expected fails the run" 1 \
	"unit/t-a not-installed: 2 skipped, CI expects at most 1" WW_EXPECT_SKIPS=plain
suite 'ok 1 - a\nok 2 - b # SKIP root: root may\n1..2\n'
run "check-ci: a declared reason CI's machine does not skip for fails" 1 \
	"unit/t-a root: 1 skipped, CI expects at most 0" WW_EXPECT_SKIPS=plain
run "check-ci: the other pass's expectations are not this one's" 1 \
	"unit/t-a root: 1 skipped, CI expects at most 0" WW_EXPECT_SKIPS=sanitize

echo "1..$n"
[ "$bad" -eq 0 ]
