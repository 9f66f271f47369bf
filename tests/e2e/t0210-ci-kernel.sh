#!/usr/bin/env bash
# slow
#
# t0210: `warnwatch ci` on every series of tests/kernel/: apply to linux
# 6.1.192 (01-09 name base-commit: v6.1; 11 names none and applies only
# there) or 6.12.118 (10 names v6.12; 12 and 13 name none, were written
# against 6.1 and land on 6.12 with offsets), build (one warm build directory per
# tree shared by its cases), boot in QEMU with panic_on_warn=1 and the guest's
# user space (kselftests and workloads of the touched files, gcov counts of
# the added calls), and compare the JSON verdict with the case's
# expected.json (rules in tests/kernel/README.md).  The console logs and
# verdicts are kept under tests/out/ci/ as artifacts of the run.
set -u
top=${WW_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 2
: "${WARNWATCH:=$top/build/warnwatch}"
out=$top/tests/out/ci
mkdir -p "$out"
n=0

# The case's expected.json against the verdict (tests/kernel/README.md).
compare() {
	python3 tests/kernel/match-verdict.py "$1" "$2"
}

skip_all=
if ! command -v qemu-system-x86_64 >/dev/null; then
	skip_all="not-installed: qemu-system-x86_64"
elif [ ! -f /usr/src/linux-source-6.1.tar.xz ]; then
	skip_all="not-installed: linux-source-6.1"
elif ! command -v bwrap >/dev/null; then
	skip_all="not-installed: bubblewrap"
fi

# The flaky-warning rerun (a whole second boot of the patched kernel when
# a report the series did not add fired or a test failed) is tested with
# console fixtures in t-ci; here it would add a TCG boot to most cases, and
# CI's 90 minutes hold two passes of this script.  The base boot stays on:
# it is cached per base and test set.  T0210_CI_FLAGS= (empty) runs both.
ci_flags=${T0210_CI_FLAGS---no-rerun}

# T0210_CASES="07-cgroup-kselftest-fires 09-ext4-workload-reached" runs
# only those cases (and the checks that need them), the others shown as
# skipped: for development, and for the sanitized pass of make check-ci.
selected() {
	[ -z "${T0210_CASES:-}" ] && return 0
	case " $T0210_CASES " in *" $1 "*) return 0 ;; esac
	return 1
}
for dir in tests/kernel/*/; do
	name=$(basename "$dir")
	[ -f "$dir/series.mbox" ] && [ -f "$dir/expected.json" ] || continue
	n=$((n + 1))
	if ! selected "$name"; then
		echo "ok $n - ci $name # SKIP not-selected: not in T0210_CASES"
		continue
	fi
	if [ -n "$skip_all" ]; then
		echo "ok $n - ci $name # SKIP $skip_all"
		continue
	fi
	# 10, 12 and 13 boot 6.12, 11 proves that 6.12 is tried first: all need it.
	if grep -q '6\.12' "$dir/expected.json" && [ ! -f /usr/src/linux-source-6.12.tar.xz ]; then
		echo "ok $n - ci $name # SKIP not-installed: linux-source-6.12"
		continue
	fi
	start=$(date +%s)
	# Each case is bounded: a first build from scratch fits in 60 min;
	# each boot by 300 s plus the bounds of its guest's tests.
	# One run gives both forms: the text on stdout, the JSON in a file.
	# shellcheck disable=SC2086 # T0210_CI_FLAGS is a list of options
	timeout -k 10 4000 "$WARNWATCH" ci "$dir/series.mbox" $ci_flags \
		--json-out "$out/$name.json" >"$out/$name.txt" 2>"$out/$name.err"
	rc=$?
	secs=$(( $(date +%s) - start ))
	mkdir -p "$out/$name"
	for f in $(python3 -c 'import json,sys
try:
    v = json.load(open(sys.argv[1]))
    print(v.get("console") or "", v.get("console_panic_on_warn_0") or "")
except Exception: pass' "$out/$name.json"); do
		[ -f "$f" ] && cp "$f" "$out/$name/"
	done
	verdict=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["verdict"])
except Exception: print("none")' "$out/$name.json")
	want_rc=1
	[ "$verdict" = clean ] && want_rc=0
	if msg=$(compare "$dir/expected.json" "$out/$name.json") && [ "$rc" -eq "$want_rc" ]; then
		echo "ok $n - ci $name: $verdict in ${secs}s"
	else
		echo "not ok $n - ci $name: $verdict (exit $rc) in ${secs}s"
		[ -n "$msg" ] && echo "$msg"
		sed 's/^/#   stderr: /' "$out/$name.err" | tail -n 5
	fi
done

# The text form of case 01 says what fired, where, from which patch and suite.
n=$((n + 1))
if [ -n "$skip_all" ]; then
	echo "ok $n - ci text verdict # SKIP $skip_all"
elif ! selected 01-warn-fires; then
	echo "ok $n - ci text verdict # SKIP not-selected: 01 not in T0210_CASES"
else
	want="With panic_on_warn=1 the patched kernel panicked while running KUnit suite time_test_cases: the WARN_ON(totalsecs < 0) that patch 1/1 adds at kernel/time/timeconv.c:55 fired"
	if grep -qF "$want" "$out/01-warn-fires.txt" &&
	   grep -q 'time64_to_tm_test_date_range' "$out/01-warn-fires.txt"; then
		echo "ok $n - ci text verdict names the patch, the line, the suite and the trace"
	else
		echo "not ok $n - ci text verdict"
		sed 's/^/#   /' "$out/01-warn-fires.txt" | head -n 20
	fi
fi
# The text says per added call whether it ran (same runs as above).
text_case() {	# text_case N CASE WANT-TEXT DESCRIPTION
	if [ -n "$skip_all" ]; then
		echo "ok $1 - ci text $2 # SKIP $skip_all"
	elif ! selected "$2"; then
		echo "ok $1 - ci text $2 # SKIP not-selected: not in T0210_CASES"
	elif grep -qF "$3" "$out/$2.txt" 2>/dev/null; then
		echo "ok $1 - ci text $2: $4"
	else
		echo "not ok $1 - ci text $2: $4"
		sed 's/^/#   /' "$out/$2.txt" 2>/dev/null | head -n 30
	fi
}
n=$((n + 1))
text_case $n 02-warn-unreached \
	"No test reached the WARN_ON_ONCE() at kernel/time/time.c:186 (patch 1/1), so this boot says nothing about it" \
	"an unreached call is named as such"
n=$((n + 1))
text_case $n 09-ext4-workload-reached "the ext4 workload, and never fired." \
	"a reached call says how often it ran"
n=$((n + 1))
text_case $n 08-ext4-workload-fires \
	"With panic_on_warn=1 the patched kernel panicked while running the ext4 workload" \
	"a WARN in the workload is attributed to it"
n=$((n + 1))
text_case $n 07-cgroup-kselftest-fires \
	"With panic_on_warn=1 the patched kernel panicked while running kselftest cgroup:test_core" \
	"a WARN in a kselftest is attributed to it"
# On 6.12 the text names the patch's line and where it landed.
n=$((n + 1))
text_case $n 12-no-base-commit-6.12-offset-fires \
	"the WARN_ON_ONCE(strlen(name) > 6) that patch 1/1 adds at kernel/cgroup/cgroup.c:5789 (line 5895 in linux 6.12.118) fired [base: 0, patched: 1]" \
	"a WARN that landed with an offset is the series', at both lines"
# Issue 26 item 4, end to end: from the series that panicked 6.12 (its
# hunk landed 106 lines down) through ci to the reply `review --verdict`
# drafts without --always: a reply at error level naming the patch's line
# and where it landed, the kselftest by its kind and the parent column,
# and nothing that says the WARN was not the series' or that there is
# nothing to say.
n=$((n + 1))
c12=12-no-base-commit-6.12-offset-fires
if [ -n "$skip_all" ]; then
	echo "ok $n - ci to review $c12 # SKIP $skip_all"
elif ! selected $c12; then
	echo "ok $n - ci to review $c12 # SKIP not-selected: not in T0210_CASES"
else
	"$WARNWATCH" review --config tests/e2e/data/example.conf \
		--mbox tests/kernel/$c12/series.mbox --verdict "$out/$c12.json" \
		>"$out/$c12-reply.eml" 2>"$out/$c12-reply.err"
	rc=$?
	if msg=$(python3 - "$out/$c12-reply.eml" <<'PY'
import re, sys
text = " ".join(open(sys.argv[1], encoding="utf-8").read().split())
want = [
    "This is an error: kernel-ci booted the series on linux 6.12.118",
    "kernel/cgroup/cgroup.c:5789 (line 5895 in linux 6.12.118) fired in kselftest cgroup:test_core",
    "(base: 0, patched: 1)",
]
never = ["not added by the series", "nothing to comment on", "nothing to say",
         "never fired", "No test reached", "KUnit suite cgroup"]
bad = ["missing: " + w for w in want if w not in text]
bad += ["says: " + w for w in never if w.lower() in text.lower()]
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
	) && [ "$rc" -eq 0 ]; then
		echo "ok $n - ci to review $c12: an error naming both lines, the kselftest and the parent column"
	else
		echo "not ok $n - ci to review $c12 (exit $rc): $msg"
		sed 's/^/#   /' "$out/$c12-reply.err" "$out/$c12-reply.eml" | head -n 60
	fi
fi
n=$((n + 1))
text_case $n 13-no-base-commit-6.12-offset-reached \
	"The WARN_ON_ONCE() at kernel/notifier.c:75 (line 80 in linux 6.12.118) (patch 1/1) ran " \
	"a reached count that landed with an offset is the landed line's"
# KUnit alone does not reach cgroup_mkdir(): without user space 07 is
# clean, and its call is "not measured" rather than "not reached".
n=$((n + 1))
if [ -n "$skip_all" ]; then
	echo "ok $n - ci 07 KUnit only # SKIP $skip_all"
elif ! selected 07-cgroup-kselftest-fires; then
	echo "ok $n - ci 07 KUnit only # SKIP not-selected: 07 not in T0210_CASES"
else
	"$WARNWATCH" ci tests/kernel/07-cgroup-kselftest-fires/series.mbox \
		--format=json --no-user-space >"$out/07-kunit-only.json" 2>"$out/07-kunit-only.err"
	rc=$?
	got=$(python3 -c 'import json,sys
try:
    v = json.load(open(sys.argv[1])); c = v["calls"][0]
    print(v["verdict"], c["reached"], bool(c.get("reached_why")))
except Exception as e: print("none", e)' "$out/07-kunit-only.json")
	if [ "$rc" -eq 0 ] && [ "$got" = "clean None True" ]; then
		echo "ok $n - ci 07 --no-user-space: KUnit alone is clean, reached unmeasured"
	else
		echo "not ok $n - ci 07 --no-user-space: $got (exit $rc)"
	fi
fi
# A boot that passes its deadline is the verdict "hung" (the build is warm:
# 02 was just built; a TCG boot needs more than 2 s to finish its suites).
n=$((n + 1))
if [ -n "$skip_all" ]; then
	echo "ok $n - ci hung verdict # SKIP $skip_all"
elif ! selected 02-warn-unreached; then
	echo "ok $n - ci hung verdict # SKIP not-selected: 02 not in T0210_CASES"
else
	"$WARNWATCH" ci tests/kernel/02-warn-unreached/series.mbox --format=json \
		--timeout 2 >"$out/hung.json" 2>"$out/hung.err"
	rc=$?
	verdict=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["verdict"])
except Exception: print("none")' "$out/hung.json")
	if [ "$rc" -eq 1 ] && [ "$verdict" = hung ]; then
		echo "ok $n - ci: a boot past --timeout is the verdict hung"
	else
		echo "not ok $n - ci --timeout 2: verdict $verdict, exit $rc"
	fi
fi
# The parent boot is cached per base build and test set: 02 boots the
# unpatched 6.1 kernel (its timers kselftest fails), 03 has the same base,
# config and tests, so its verdict says the cache answered with 02's log.
n=$((n + 1))
if [ -n "$skip_all" ]; then
	echo "ok $n - ci base boot cached # SKIP $skip_all"
elif ! selected 02-warn-unreached || ! selected 03-bug-on-converted; then
	echo "ok $n - ci base boot cached # SKIP not-selected: 02 and 03 not both in T0210_CASES"
else
	got=$(python3 -c 'import json,sys
try:
    a, b = (json.load(open(f)) for f in sys.argv[1:3])
    print(a["base_compared"], b["base_compared"], b["base_boot_cached"],
          a["base_boot_log"] == b["base_boot_log"])
except Exception as e: print("none", e)' "$out/02-warn-unreached.json" "$out/03-bug-on-converted.json")
	if [ "$got" = "True True True True" ]; then
		echo "ok $n - ci: 03 reuses 02's base boot (same base and test set)"
	else
		echo "not ok $n - ci base boot cached: 02 compared, 03 compared, 03 cached, same log: $got"
	fi
fi
echo "1..$n"
