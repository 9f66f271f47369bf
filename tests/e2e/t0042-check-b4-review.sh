#!/usr/bin/env bash
#
# t0042: `warnwatch check --format=b4-review` as b4 0.15/0.16's
# b4.review-perpatch-check-cmd, set with the git config line docs/check.md
# gives.  Debian 12's b4 (0.12) has no review checks: b4-review-rules.py
# RESTATES b4 0.16's runner rules (named there) around b4 0.12's own
# message serialiser, command runner and config reader, including the
# per-message SQLite cache keyed by (message-id, tool).
set -u
. "$(dirname "$0")/lib.sh"
need_cmd git
"$WW_PYTHON" -c 'import b4' 2>/dev/null || skip_all "not-installed: b4 (make deps)"

r=$TEST_DIR/repo
git_test_repo "$r"
printf 'int f(int x)\n{\n\tBUG_ON(x < 0);\n\tWARN_ON(x > 9);\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: check x"
printf 'int g(int y)\n{\n\tWARN_ON(y > 9);\n\treturn y;\n}\n' >"$r/mm/b.c"
git -C "$r" commit -q -am "mm: warn on big y"
printf 'int g(int y)\n{\n\tWARN_ON(y > 9);\n\treturn y + 1;\n}\n' >"$r/mm/b.c"
git -C "$r" commit -q -am "mm: bump y"
git -C "$r" format-patch -q --cover-letter -o "$TEST_DIR/p" main~3..main
echo '{"series": {}}' >"$TEST_DIR/tracking.json"

git -C "$r" config b4.review-perpatch-check-cmd "$WARNWATCH check --format=b4-review"
out=$(cd "$r" && "$WW_PYTHON" "$WW_TOP/tests/e2e/b4-review-rules.py" "$TEST_DIR/tracking.json" \
	"$TEST_DIR"/p/000*.patch 2>&1); rc=$?
printf '%s\n' "$out" >"$TEST_DIR/out.txt"
case "$out" in
*strict*) not_ok "every output is exactly the contract"; grep strict "$TEST_DIR/out.txt" | sed 's/^/#   /' ;;
*) ok "every output is exactly the contract: an array of {tool, status, summary, url, details}, strings" ;;
esac
# one line per view and mail: cover letter, patch 1, 2, 3
"$WW_PYTHON" - "$TEST_DIR/out.txt" <<'PY' && ok "cover letter [], BUG_ON fail, WARN_ON warn, clean pass with empty summary; the cache gives back the same" || not_ok "b4-review verdicts"
import json, sys
rows = [l.split('\t', 1) for l in open(sys.argv[1]).read().splitlines()]
fresh = [json.loads(v) for k, v in rows if k == 'fresh']
cached = [json.loads(v) for k, v in rows if k == 'cached']
def check(cond, what):
    if not cond:
        print(f'# {what}: {fresh}')
        sys.exit(1)
check(len(fresh) == 4 and fresh == cached, 'four mails, cache round trip identical')
check(fresh[0] == [], 'cover letter: []')
bug, warn, clean = fresh[1][0], fresh[2][0], fresh[3][0]
check(len(fresh[1]) == 1 and bug['tool'] == 'warnwatch' and bug['status'] == 'fail', 'patch 1 fails')
check(bug['summary'] == '1 error, 1 warning', 'patch 1 summary')
check(bug['url'] == 'https://docs.kernel.org/process/coding-style.html#use-warn-rather-than-bug', 'url')
check(bug['details'].count('\n') == 2 and 'mm/a.c:3: ERROR: new BUG_ON() in f()' in bug['details']
      and 'mm/a.c:4: WARNING: new WARN_ON() in f()' in bug['details'], 'details: one line per call')
check(warn['status'] == 'warn' and warn['summary'].startswith('1 warning: new WARN_ON() in g()'), 'patch 2 warns')
check(clean == {'tool': 'warnwatch', 'status': 'pass', 'summary': '', 'url': '', 'details': ''}, 'patch 3 passes')
PY
# an input error: non-zero exit and no JSON, which b4 shows as a failure
out=$(printf 'hello\n' | "$WARNWATCH" check --format=b4-review 2>/dev/null); rc=$?
[ "$rc" = 2 ] && [ -z "$out" ] && ok "unreadable input: status 2, nothing on stdout (b4: fail, exited with error code 2)" ||
	{ not_ok "unreadable input (rc $rc)"; diag "$out"; }
# the rule of docs/check.md: a BUG_ON a later patch converts fails its patch
git -C "$r" checkout -q -b conv main~3
printf 'int f(int x)\n{\n\tBUG_ON(x < 0);\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: check x"
printf 'int f(int x)\n{\n\tif (WARN_ON_ONCE(x < 0))\n\t\treturn -EINVAL;\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: warn instead"
git -C "$r" format-patch -q -o "$TEST_DIR/c" main~3..conv
out=$(cd "$r" && "$WARNWATCH" check --format=b4-review <"$TEST_DIR"/c/0001-*.patch); rc=$?
case "$rc:$out" in
1:'[{"tool":"warnwatch","status":"fail","summary":"1 error: new BUG_ON() in f()"'*) ok "a BUG_ON that patch 2 converts: patch 1 fails (status 1), as in every format" ;;
*) not_ok "converted BUG_ON (rc $rc)"; diag "$out" ;;
esac
done_testing
