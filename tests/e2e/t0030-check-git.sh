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
"warnwatch: checking origin/main..HEAD: 2 commits"*"patch 1/2: mm: check x"*"in 2 patches") ok "both commits above the upstream; the range is named on stderr" ;;
*) not_ok "both commits above the upstream, range named"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
case "$out" in
*"patch 2/2"*) not_ok "a patch without findings gets no header"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
*) ok "a patch without findings gets no header" ;;
esac
# piped input is the input, never the branch silently; an empty stdin
# (CI's /dev/null, a closed pipe) leaves the branch
printf 'int h(void)\n{\n\tpanic("x");\n}\n' >"$w/mm/c.c"
git -C "$w" add mm/c.c
out=$(cd "$w" && git diff --cached | "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
1:"mm/c.c:3: ERROR: new panic()"*"in 1 patches") ok "git diff | warnwatch check: stdin is checked, not the branch" ;;
*) not_ok "piped stdin (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
git -C "$w" rm -q --cached mm/c.c && rm -f "$w/mm/c.c"
out=$(cd "$w" && "$WARNWATCH" check </dev/null 2>&1); rc=$?
case "$rc:$out" in
1:"warnwatch: checking origin/main..HEAD: 2 commits"*) ok "stdin /dev/null: the branch, named" ;;
*) not_ok "stdin /dev/null (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$w" && : | "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
1:"warnwatch: checking origin/main..HEAD: 2 commits"*) ok "an empty closed pipe: the branch, named" ;;
*) not_ok "empty pipe (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# A...B (rev-list's symmetric difference) and X^!
out=$(cd "$w" && "$WARNWATCH" check -g origin/main...HEAD 2>&1); rc=$?
case "$rc:$out" in
1:*"new BUG_ON"*"in 2 patches") ok "-g A...B: the commits of either side, not of both" ;;
*) not_ok "-g A...B (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$w" && "$WARNWATCH" check -g HEAD~1^! 2>&1); rc=$?
case "$rc:$out" in
1:*"new BUG_ON"*"in 1 patches") ok "-g X^!: that one commit" ;;
*) not_ok "-g X^! (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
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

# a --no-track branch (git's default when branching from a local
# branch): the commits since the remote's default branch, never HEAD
# alone; the BUG_ON three commits down is read (issue 35.2)
git -C "$w" checkout -q -b topic2 --no-track topic
printf 'int g(int y)\n{\n\treturn y + 3;\n}\n' >"$w/mm/d.c"
git -C "$w" add mm/d.c && git -C "$w" commit -q -m "mm: add d"
out=$(cd "$w" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
1:"warnwatch: checking origin/main..HEAD: 4 commits (the branch has no upstream: its commits since the default branch)"*"mm/b.c:3: ERROR: new BUG_ON() in g()"*"in 4 patches")
	ok "a --no-track branch: its commits since origin's default branch, the BUG_ON below HEAD found" ;;
*) not_ok "--no-track branch (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# ... and with no remote: since the local main
git -C "$w" remote rename origin upstream-moved
git -C "$w" symbolic-ref -d refs/remotes/upstream-moved/HEAD 2>/dev/null
out=$(cd "$w" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
1:"warnwatch: checking main..HEAD: 2 commits"*"mm/b.c:3: ERROR: new BUG_ON() in g()"*) ok "no upstream, no remote HEAD: the commits since the local main" ;;
*) not_ok "no remote HEAD, local main (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
git -C "$w" remote rename upstream-moved origin
git -C "$w" remote set-head origin main
git -C "$w" checkout -q main

# no upstream on main itself: the commits since origin/main
git -C "$w" branch -q --unset-upstream
out=$(cd "$w" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
1:"warnwatch: checking origin/main..HEAD: 2 commits"*) ok "no upstream: the commits since the remote's default branch (status 1)" ;;
*) not_ok "no upstream (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
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
2:"warnwatch: check: 'nosuchrev': unknown revision"*) ok "-g with an unknown revision: status 2, one message naming it" ;;
*) not_ok "-g unknown revision (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# one call, one line: text gives its own patch's line and, where a later
# patch moves it, the line after the series that gcc gives (issue 35.3);
# a removal's tag is not the rule that flags additions
git -C "$w" checkout -q -b shift main
printf 'int s(int x)\n{\n\tBUG_ON(x < 0);\n\treturn x;\n}\n' >"$w/mm/s.c"
git -C "$w" add mm/s.c && git -C "$w" commit -q -m "mm: add s"
printf '/* one */\n/* two */\n/* three */\n/* four */\nint s(int x)\n{\n\tBUG_ON(x < 0);\n\treturn x;\n}\n' >"$w/mm/s.c"
git -C "$w" commit -q -am "mm: comment s"
text=$(cd "$w" && "$WARNWATCH" check -g HEAD~2..HEAD 2>/dev/null)
gcc=$(cd "$w" && "$WARNWATCH" check --format=gcc -g HEAD~2..HEAD 2>/dev/null)
case "$text|$gcc" in
*"mm/s.c:3: ERROR: new BUG_ON() in s()"*"(line 7 after the series)"*"|mm/s.c:7:"*) ok "text: the patch's line 3 and 'line 7 after the series', as gcc's 7" ;;
*) not_ok "text and gcc lines"; printf '%s\n%s\n' "$text" "$gcc" | sed 's/^/#   /' ;;
esac
printf '/* one */\n/* two */\n/* three */\n/* four */\nint s(int x)\n{\n\treturn x;\n}\n' >"$w/mm/s.c"
git -C "$w" commit -q -am "mm: no BUG_ON in s"
gcc=$(cd "$w" && "$WARNWATCH" check --format=gcc -g HEAD^! 2>/dev/null)
case "$gcc" in
*"note: removed BUG_ON() in s()"*"[removed-bug]") ok "gcc: a removal is tagged removed-bug, not new-bug" ;;
*) not_ok "removal tag"; printf '%s\n' "$gcc" | sed 's/^/#   /' ;;
esac
git -C "$w" checkout -q main

# a revision given without -g: the error says -g (issue 35.3)
out=$(cd "$w" && "$WARNWATCH" check HEAD~2.. 2>&1); rc=$?
case "$rc:$out" in
2:"warnwatch: cannot open 'HEAD~2..': no such file; to check commits, give them with -g: warnwatch check -g HEAD~2..") ok "a range given as a file: status 2, the -g form named" ;;
*) not_ok "range without -g (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$w" && "$WARNWATCH" check no-such.mbox 2>&1); rc=$?
case "$rc:$out" in
2:*"-g"*) not_ok "a missing file is not called a revision"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
2:*"cannot open 'no-such.mbox'"*) ok "a missing file: status 2, no -g hint" ;;
*) not_ok "missing file (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# defaults no one means to send are refused: a root commit, too many commits
i=$TEST_DIR/import
git init -q -b main "$i" && printf 'void x(void)\n{\n\tBUG();\n}\n' >"$i/x.c"
git -C "$i" add x.c && git -C "$i" -c user.name=T -c user.email=t@example.org commit -q -m import
out=$(cd "$i" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
2:"warnwatch: check: the branch has no upstream and there is no default branch"*"warnwatch check -g A..B"*) ok "no upstream, no other branch (an import): refused with a hint, never HEAD alone" ;;
*) not_ok "root commit default (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
for n in $(seq 101); do git -C "$i" -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m "e$n"; done
git -C "$i" branch -q base HEAD~101 && git -C "$i" branch -q --set-upstream-to=base main
out=$(cd "$i" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
2:"warnwatch: check: 'base..HEAD' is 101 commits, more than 100: give the range"*) ok "more than 100 commits above the upstream: refused with a hint" ;;
*) not_ok "101 commits default (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$TEST_DIR" && "$WARNWATCH" check 2>&1); rc=$?
case "$rc:$out" in
2:"warnwatch: check: no INPUT given (see --help)") ok "no INPUT outside a repository: status 2, as before" ;;
*) not_ok "no INPUT outside a repository (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
done_testing
