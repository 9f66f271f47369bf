#!/usr/bin/env bash
#
# t0033: what scripts written for checkpatch.pl pass to warnwatch check:
# -f FILE (every call in a source file, as checkpatch -f), and checkpatch's
# spellings mapped to warnwatch's formats or refused with what to do
# instead (docs/check.md, "checkpatch.pl's options").
set -u
. "$(dirname "$0")/lib.sh"

d=$TEST_DIR/src
mkdir -p "$d/fs/ext4"
printf '#include <linux/bug.h>\n\nstatic int f(int x)\n{\n\tBUG_ON(x < 0);\n\t/* WARN_ON(x) in a comment */\n\tWARN_ON(x > 5);\n\treturn x;\n}\n' >"$d/fs/ext4/a.c"
printf 'int g(int x)\n{\n\treturn x;\n}\n' >"$d/fs/ext4/clean.c"

# -f: every call of the file, at the file's own line numbers, none "new"
out=$(cd "$d" && "$WARNWATCH" check -f fs/ext4/a.c 2>&1); rc=$?
case "$rc:$out" in
1:"fs/ext4/a.c:5: ERROR: BUG_ON() in f(): BUG_ON() crashes"*$'\n+\tBUG_ON(x < 0);\n'"fs/ext4/a.c:7: WARNING: WARN_ON() in f(): "*"total: 1 errors, 1 warnings, 0 credits, 0 accepted (2 calls) in 1 files")
	ok "-f: both calls of the file at their lines, the comment skipped, counted as calls in files, status 1" ;;
*) not_ok "-f (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$d" && "$WARNWATCH" check -f fs/ext4/clean.c 2>&1); rc=$?
case "$rc:$out" in
0:"total: 0 errors, 0 warnings, 0 credits, 0 accepted (0 calls) in 1 files") ok "-f: a file without calls, status 0" ;;
*) not_ok "-f clean file (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# gcc: the path as given, from the current directory, for the editor
out=$(cd "$d/fs" && "$WARNWATCH" check -f --format=gcc ext4/a.c 2>&1); rc=$?
case "$rc:$out" in
1:"ext4/a.c:5:9: error: BUG_ON() in f(): BUG_ON() crashes"*"[new-bug]"$'\n'"ext4/a.c:7:9: warning: WARN_ON() in f(): "*) ok "-f --format=gcc: FILE as given, line and column of the file" ;;
*) not_ok "-f gcc (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
n=$(cd "$d" && "$WARNWATCH" check -f --format=json fs/ext4/a.c | "$WW_PYTHON" -c 'import json,sys; d=json.load(sys.stdin); print([(f["file"], f["line"], f.get("whole_file")) for f in d["findings"]])')
[ "$n" = "[('fs/ext4/a.c', 5, True), ('fs/ext4/a.c', 7, True)]" ] && ok "-f --format=json: whole_file set" || not_ok "-f json: $n"
out=$(cd "$d" && "$WARNWATCH" check -f fs/ext4/nothere.c 2>&1); rc=$?
case "$rc:$out" in 2:*"fs/ext4/nothere.c"*) ok "-f: a missing file is status 2, named" ;; *) not_ok "-f missing (rc $rc): $out" ;; esac
out=$("$WARNWATCH" check -f - </dev/null 2>&1); rc=$?
[ "$rc" = 2 ] && ok "-f -: refused (the name says which rules apply)" || not_ok "-f - (rc $rc): $out"

# checkpatch's spellings
out=$(cd "$d" && "$WARNWATCH" check --terse --showfile --emacs --no-tree -f fs/ext4/a.c 2>&1); rc=$?
case "$rc:$out" in
1:"fs/ext4/a.c:5: ERROR: BUG_ON() in f(): BUG_ON() crashes"*$'\n'"fs/ext4/a.c:7: WARNING: WARN_ON() in f(): "*$'\n'"total: "*)
	case "$out" in *$'\n+'*) not_ok "--terse still prints the call's lines" ;; *) ok "--terse --showfile --emacs --no-tree: one line per finding, FILE:LINE: first" ;; esac ;;
*) not_ok "--terse (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$d" && "$WARNWATCH" check --no-summary --terse -f fs/ext4/a.c 2>&1)
case "$out" in *total:*) not_ok "--no-summary printed a total" ;; *) ok "--no-summary: no total" ;; esac
out=$(cd "$d" && "$WARNWATCH" check --mailback -f fs/ext4/clean.c 2>&1); rc=$?
[ "$rc:$out" = "0:" ] && ok "--mailback: nothing at all when clean" || not_ok "--mailback clean (rc $rc): $out"
# --strict (--subjective): warnings make the exit status 1
printf 'int h(int x)\n{\n\tWARN_ON(x);\n\treturn x;\n}\n' >"$d/fs/ext4/warn.c"
(cd "$d" && "$WARNWATCH" check -q -f fs/ext4/warn.c >/dev/null 2>&1); a=$?
(cd "$d" && "$WARNWATCH" check -q --strict -f fs/ext4/warn.c >/dev/null 2>&1); b=$?
(cd "$d" && "$WARNWATCH" check -q --subjective -f fs/ext4/warn.c >/dev/null 2>&1); c=$?
[ "$a:$b:$c" = "0:1:1" ] && ok "--strict and --subjective: a warning is status 1 (0 without)" || not_ok "--strict: $a:$b:$c"
out=$(cd "$d" && "$WARNWATCH" check --ignore LONG_LINE,SPDX_LICENSE_TAG -q -f fs/ext4/a.c 2>&1); rc=$?
[ "$rc" = 1 ] && ok "--ignore of checkpatch's own types: accepted, the BUG_ON still an error" || not_ok "--ignore LONG_LINE (rc $rc): $out"
for t in AVOID_BUG LONG_LINE,avoid_bug new-bug; do
	out=$(cd "$d" && "$WARNWATCH" check --ignore "$t" -f fs/ext4/a.c 2>&1); rc=$?
	case "$rc:$out" in 2:*"Warnwatch-accepted: FILE:FUNCTION REASON"*) ok "--ignore $t: refused, pointing at the trailer" ;;
	*) not_ok "--ignore $t (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;; esac
done
out=$(cd "$d" && "$WARNWATCH" check --types AVOID_BUG -f fs/ext4/a.c 2>&1); rc=$?
case "$rc:$out" in 2:*"--types means nothing here"*) ok "--types: refused with what to do instead" ;; *) not_ok "--types (rc $rc): $out" ;; esac
out=$(cd "$d" && "$WARNWATCH" check --fix -f fs/ext4/a.c 2>&1); rc=$?
case "$rc:$out" in 2:*"--suggest --tree DIR"*) ok "--fix: refused, naming --suggest" ;; *) not_ok "--fix (rc $rc): $out" ;; esac
out=$(cd "$d" && "$WARNWATCH" check --color=always -f fs/ext4/a.c 2>&1); rc=$?
[ "$rc" = 2 ] && ok "--color=always refused" || not_ok "--color=always (rc $rc)"
# checkpatch's --git REV is -g when REV is not a directory
git_test_repo "$TEST_DIR/repo"
printf 'int f(int x)\n{\n\tBUG_ON(x);\n\treturn x;\n}\n' >"$TEST_DIR/repo/mm/a.c"
git -C "$TEST_DIR/repo" add mm/a.c && git -C "$TEST_DIR/repo" commit -q -m "mm: a"
out=$(cd "$TEST_DIR/repo" && "$WARNWATCH" check --git HEAD 2>&1); rc=$?
case "$rc:$out" in 1:*"mm/a.c:3: ERROR: new BUG_ON() in f()"*) ok "--git REV (no such directory): checkpatch's --git, as -g" ;; *) not_ok "--git REV (rc $rc): $out" ;; esac
done_testing
