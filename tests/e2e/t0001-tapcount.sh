#!/usr/bin/env bash
# tests/tapcount, which tests/run counts every suite with: skips show,
# a missing or wrong plan fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
count() {	# count NAME WANT TAP-TEXT
	local got
	n=$((n + 1))
	printf '%b' "$3" >"$tmp/log"
	got=$("$top/tests/tapcount" "$tmp/log" | tail -n 1)
	if [ "$got" = "$2" ]; then
		echo "ok $n - $1"
	else
		bad=$((bad + 1))
		echo "not ok $n - $1"
		echo "#   got '$got', want '$2'"
	fi
}
count "passes and a failure" "2 1 0" "1..3\nok 1 - a\nnot ok 2 - b\nok 3 - c\n"
count "a skipped test is a skip, not a pass" "1 0 1" "ok 1 - a\nok 2 - b # SKIP no vim\n1..2\n"
count "a whole script skipped is one skip" "0 0 1" "1..0 # SKIP no QEMU here\n"
count "no plan: stopped early, a failure" "2 1 0" "ok 1 - a\nok 2 - b\n"
count "fewer tests than planned: a failure" "2 1 0" "1..3\nok 1 - a\nok 2 - b\n"
count "more tests than planned: a failure" "2 1 0" "1..1\nok 1 - a\nok 2 - b\n"
count "plans of sub-scripts add up" "3 0 0" "1..2\nok 1 - a\nok 2 - b\n1..1\nok 1 - c\n"
count "one script skipped whole does not excuse another's short run" "1 1 1" \
	"1..0 # SKIP no QEMU here\n1..3\nok 1 - a\n"
count "nor a run with no plan" "1 1 1" "1..0 # SKIP no QEMU here\nok 1 - a\n"
echo "1..$n"
[ "$bad" -eq 0 ]
