#!/usr/bin/env bash
#
# t0041: `warnwatch check --format=b4` as b4's per-patch check command
# (b4.prep-perpatch-check-cmd for `b4 prep --check`,
# b4.am-perpatch-check-cmd for `b4 am --check`), set with the two git
# config lines docs/check.md gives.  Debian 12's b4 (0.12) has no check
# commands yet, so b4 itself never runs the check here:
# tests/e2e/b4-check.py feeds each patch as b4 does, with b4 0.12's own
# message serialiser, command runner and config reader, and reads the
# output by a restatement of b4 0.14's rules (run_local_check).  The test
# names say so: they prove what warnwatch prints by those rules, not that
# a b4 with check commands accepts it.  The fixture in data/b4/ is a
# patch as b4 pipes it (headers first, no From_ line).
set -u
. "$(dirname "$0")/lib.sh"
need_cmd git
"$WW_PYTHON" -c 'import b4' 2>/dev/null || skip_all "not-installed: b4 (make deps)"

data=$WW_TOP/tests/e2e/data/b4
r=$TEST_DIR/repo
git_test_repo "$r"
printf 'int f(int x)\n{\n\tBUG_ON(x < 0);\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: check x"
printf 'int g(int y)\n{\n\tWARN_ON(y > 9);\n\treturn y;\n}\n' >"$r/mm/b.c"
git -C "$r" commit -q -am "mm: warn on big y"
printf 'int g(int y)\n{\n\tWARN_ON(y > 9);\n\treturn y + 1;\n}\n' >"$r/mm/b.c"
git -C "$r" commit -q -am "mm: bump y"
git -C "$r" format-patch -q -o "$TEST_DIR/p" main~3..main

# The two lines of git config (docs/check.md), with this build's warnwatch.
git -C "$r" config b4.prep-perpatch-check-cmd "$WARNWATCH check --format=b4 -"
git -C "$r" config b4.am-perpatch-check-cmd "$WARNWATCH check --format=b4 -"

for which in prep am; do
	out=$(cd "$r" && "$WW_PYTHON" "$WW_TOP/tests/e2e/b4-check.py" "$which" "$TEST_DIR"/p/000*.patch 2>&1); rc=$?
	name=${WARNWATCH##*/}
	exp="fail	$name: mm/a.c:3: ERROR: new BUG_ON() in f(): "
	case "$rc:$out" in
	0:"$exp"*"[new-bug]"$'\n'"warning	$name: mm/b.c:3: WARNING: new WARN_ON() in g(): "*"[new-warn]"$'\n'"success	$name: passed all checks")
		ok "b4.$which-perpatch-check-cmd, read by b4 0.14's rules restated: BUG_ON patch fails, WARN_ON patch warns, clean patch passes" ;;
	*) not_ok "b4.$which-perpatch-check-cmd, read by b4 0.14's rules restated (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
	esac
done

# the stored fixture: exactly what b4 pipes for patch 1
out=$("$WARNWATCH" check --format=b4 <"$data/bug-as-piped.eml" 2>&1); rc=$?
exp=$(cat "$data/bug-as-piped.expected")
[ "$rc" = 1 ] && [ "$out" = "$exp" ] && ok "fixture: b4's stdin gives one ERROR: line, status 1" ||
	{ not_ok "fixture (rc $rc)"; diag "got: $out" "exp: $exp"; }
# no INPUT with --format=b4 inside a work tree reads stdin, not the branch
out=$(cd "$r" && "$WARNWATCH" check --format=b4 <"$TEST_DIR"/p/0003-*.patch 2>&1); rc=$?
[ "$rc" = 0 ] && [ -z "$out" ] && ok "no INPUT in a work tree with --format=b4: stdin (clean: no output, status 0)" ||
	{ not_ok "--format=b4 no INPUT (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /'; }
# a mail without a patch (a cover letter) is silence: b4 says passed
out=$(printf 'Subject: x\n\nnot a patch\n' | "$WARNWATCH" check --format=b4 - 2>&1 >/dev/null); rc=$?
[ "$rc" = 0 ] && [ -z "$out" ] && ok "a mail without a patch: nothing (b4's rules: passed)" ||
	{ not_ok "mail without patch (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /'; }
# input warnwatch cannot read: one stderr line, which b4 shows as a failure
out=$(printf 'hello\n' | "$WARNWATCH" check --format=b4 - 2>&1 >/dev/null); rc=$?
case "$rc:$out" in
2:"warnwatch: '-': neither a mail, an mbox nor a diff") ok "unreadable input: one line on stderr (b4's rules: fail), status 2" ;;
*) not_ok "unreadable input (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
done_testing
