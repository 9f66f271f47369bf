#!/usr/bin/env bash
#
# t0030: `warnwatch check` as a contributor runs it before sending, in a
# real git repository made here: no INPUT in a work tree checks
# @{upstream}..HEAD (or HEAD with no upstream), `-g REV...` takes
# revisions as checkpatch.pl -g does.
set -u
. "$(dirname "$0")/lib.sh"
need_cmd git

r=$TEST_DIR/repo
git_test_repo "$r"
git -C "$r" clone -q "$r" "$TEST_DIR/work" 2>/dev/null
w=$TEST_DIR/work
# patch 1: a new BUG_ON; patch 2: clean
printf 'int f(int x)\n{\n\tBUG_ON(x < 0);\n\treturn x;\n}\n' >"$w/mm/a.c"
git -C "$w" commit -q -am "mm: check x"
printf 'int g(int y)\n{\n\treturn y + 1;\n}\n' >"$w/mm/b.c"
git -C "$w" commit -q -am "mm: bump y"

# no INPUT, with an upstream (origin/main): both commits, the BUG_ON found
out=$(cd "$w/mm" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
1:*"new BUG_ON"*) ok "no INPUT in a work tree: @{upstream}..HEAD checked, BUG_ON found (status 1)" ;;
*) not_ok "no INPUT in a work tree (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
case "$out" in
*"patch 1/2: mm: check x"*"patch 2/2: mm: bump y"*) ok "both commits above the upstream, oldest first" ;;
*) not_ok "both commits above the upstream, oldest first"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac

# a local upstream (branch.topic.remote = "."): topic's own commit only
git -C "$w" checkout -q -b topic
printf 'int g(int y)\n{\n\tBUG_ON(y < 0);\n\treturn y + 1;\n}\n' >"$w/mm/b.c"
git -C "$w" commit -q -am "mm: check y"
git -C "$w" branch -q --set-upstream-to=main topic
out=$(cd "$w" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
1:*"mm/b.c:3: ERROR: new BUG_ON() in g()"*"in 1 patches") ok "a local upstream (remote \".\"): main..HEAD, one commit" ;;
*) not_ok "local upstream (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
git -C "$w" checkout -q main

# no upstream: HEAD only (the clean commit) -> status 0
git -C "$w" branch -q --unset-upstream
out=$(cd "$w" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
0:*) ok "no upstream: HEAD only, which is clean (status 0)" ;;
*) not_ok "no upstream: HEAD only (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac

# -g with one revision = that commit
out=$(cd "$w" && "$WARNWATCH" check -g HEAD~1 2>&1); rc=$?
case "$rc:$out" in
1:*"new BUG_ON"*) ok "-g REV checks that one commit" ;;
*) not_ok "-g REV (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$w" && "$WARNWATCH" check -g HEAD 2>&1); rc=$?
[ "$rc" = 0 ] && ok "-g HEAD (clean commit): status 0" || { not_ok "-g HEAD: rc $rc"; printf '%s\n' "$out" | sed 's/^/#   /'; }
# -g with a range, and several revisions
out=$(cd "$w" && "$WARNWATCH" check -g origin/main..HEAD 2>&1); rc=$?
case "$rc:$out" in
1:*"new BUG_ON"*) ok "-g A..B checks the range" ;;
*) not_ok "-g A..B (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$w" && "$WARNWATCH" check -g HEAD HEAD~1 2>&1); rc=$?
[ "$rc" = 1 ] && ok "-g REV REV: both revisions checked" || { not_ok "-g REV REV: rc $rc"; printf '%s\n' "$out" | sed 's/^/#   /'; }
out=$(cd "$w" && "$WARNWATCH" check -g nosuchrev 2>&1); rc=$?
case "$rc:$out" in
2:*"unknown revision"*) ok "-g with an unknown revision: status 2, one message" ;;
*) not_ok "-g unknown revision (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$TEST_DIR" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
2:"warnwatch: check: no INPUT given (see --help)") ok "no INPUT outside a repository: status 2, as before" ;;
*) not_ok "no INPUT outside a repository (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
done_testing
