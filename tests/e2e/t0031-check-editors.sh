#!/usr/bin/env bash
#
# t0031: `warnwatch check --format=gcc` read by the editors a contributor
# already has: a real vim quickfix list (`:compiler gcc`, `:cgetfile`,
# `:cfirst`), Emacs' compilation mode in batch when Emacs is installed,
# and the regex of VS Code's $gcc problem matcher (docs/check.md).  The
# series is made here with real git; patch 2 moves patch 1's BUG_ON down
# two lines, so the line printed must be the one after the series.
set -u
. "$(dirname "$0")/lib.sh"
need_cmd git

r=$TEST_DIR/repo
git_test_repo "$r"
printf 'int f(int x)\n{\n\tBUG_ON(x < 0);\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: check x"
printf '/* a.c */\n\nint f(int x)\n{\n\tBUG_ON(x < 0);\n\tif (x > 5)\n\t\tWARN_ON(x > 9);\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: warn on big x"

out=$(cd "$r/mm" && "$WARNWATCH" check --format=gcc -g HEAD~2..HEAD 2>&1); rc=$?
printf '%s\n' "$out" >"$TEST_DIR/gcc.txt"
# from mm/: paths from the current directory, as git prints them; columns
# as gcc counts by default (a tab to the next multiple of 8)
exp1="a.c:5:9: error: new BUG_ON() in f(): "
exp2="a.c:7:17: warning: new WARN_ON() in f(): "
case "$rc:$out" in
1:"$exp1"*"[new-bug, patch 1/2]"$'\n'"$exp2"*"[new-warn, patch 2/2]") ok "gcc format from mm/: FILE from the current directory, COL as gcc's, lines after the series (status 1)" ;;
*) not_ok "gcc format (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac

# VS Code's $gcc problem matcher regex (documented in docs/check.md)
n=$(grep -cE '^(.*):([0-9]+):([0-9]+):[[:space:]]+(fatal[[:space:]]+)?(warning|error|note):[[:space:]]+(.*)$' "$TEST_DIR/gcc.txt")
[ "$n" = 2 ] && ok "every line matches the \$gcc problem matcher's regex" ||
	not_ok "gcc regex matched $n lines, not 2"

out=$(cd "$r" && "$WARNWATCH" check --format=gcc --column-unit=byte -g HEAD~2..HEAD 2>&1)
case "$out" in
"mm/a.c:5:2: error:"*$'\n'"mm/a.c:7:3: warning:"*) ok "--column-unit=byte from the top: mm/a.c:5:2" ;;
*) not_ok "--column-unit=byte"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac

# a BUG_ON that a later patch converts: an error at its patch, as in every
# format (docs/check.md), saying which patch removes it
git -C "$r" checkout -q -b conv HEAD~1
printf 'int f(int x)\n{\n\tif (WARN_ON_ONCE(x < 0))\n\t\treturn -EINVAL;\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: warn instead"
out=$(cd "$r" && "$WARNWATCH" check --format=gcc -g HEAD~2..HEAD 2>&1); rc=$?
case "$out" in
*"mm/a.c:3:9: error: new BUG_ON() in f(): "*"(patch 2 of the series removes it again"*) [ "$rc" = 1 ] &&
	ok "a BUG_ON converted by a later patch: error, status 1, the patch named" || not_ok "converted BUG_ON: rc $rc" ;;
*) not_ok "converted BUG_ON (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$r" && "$WARNWATCH" check -g HEAD~2..HEAD 2>&1); rc=$?
case "$rc:$out" in
1:*"mm/a.c:3: ERROR: new BUG_ON() in f(): "*"(patch 2 of the series removes it again"*"(1 added, 0 removed, 1 converted)"*) ok "text: the same error, the same hint, status 1; the conversion counted as one" ;;
*) not_ok "text, converted BUG_ON (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$r" && "$WARNWATCH" check --format=json -g HEAD~2..HEAD 2>&1); rc=$?
n=$(printf '%s' "$out" | "$WW_PYTHON" -c 'import json,sys; d=json.load(sys.stdin); print([(f["severity"], f["removed_by"]) for f in d["findings"] if f["kind"] == "added" and f["patch"] == 1], d["summary"]["converted"]["warn-once"])')
[ "$rc:$n" = "1:[('error', 2)] 1" ] && ok "json: severity error, removed_by 2, status 1" || not_ok "json converted BUG_ON: $rc:$n"
out=$(cd "$r" && "$WARNWATCH" check --format=gcc -q -g HEAD~2..HEAD 2>&1)
case "$out" in
*note:*) not_ok "-q drops notes"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
*) ok "-q drops notes" ;;
esac
git -C "$r" checkout -q main

if command -v vim >/dev/null 2>&1; then
	res=$TEST_DIR/vim.res
	# the command docs/check.md gives, from mm/: `:compiler!` (global
	# errorformat: :cexpr does not read the buffer-local one `:compiler`
	# sets, and the types were lost) and byte columns (vim's %c)
	(cd "$r/mm" && timeout 30 vim -N -es -u NONE -i NONE \
		-c "compiler! gcc | cexpr system('$WARNWATCH check --format=gcc --column-unit=byte -g HEAD~2..HEAD')" -c 'cfirst' \
		-c "call writefile([expand('%'), line('.'), col('.'), getline('.'), len(getqflist()), getqflist()[0].type, getqflist()[1].type], '$res')" \
		-c 'qa!' </dev/null >/dev/null 2>&1)
	got=$(tr '\n' '|' <"$res" 2>/dev/null)
	exp="a.c|5|2|	BUG_ON(x < 0);|2|e|w|"
	[ "$got" = "$exp" ] && ok "vim quickfix (:compiler gcc, :cfirst) lands on the BUG_ON, types e and w" ||
		{ not_ok "vim quickfix"; diag "got: $got" "exp: $exp"; }
else
	skip "vim quickfix" "not-installed: vim (make deps)"
fi

if command -v emacs >/dev/null 2>&1; then
	res=$(cd "$r" && timeout 60 emacs --batch -Q --eval "(progn (require 'compile)
	  (with-temp-buffer (insert-file-contents \"$TEST_DIR/gcc.txt\") (compilation-mode)
	    (goto-char (point-min)) (compilation-next-error 1)
	    (let* ((msg (get-text-property (point) 'compilation-message)) (loc (compilation--message->loc msg)))
	      (princ (format \"%s:%s:%s\" (caar (compilation--loc->file-struct loc)) (compilation--loc->line loc) (compilation--loc->col loc))))))" 2>/dev/null)
	[ "$res" = "a.c:5:9" ] && ok "Emacs compilation-mode parses FILE:LINE:COL" ||
		{ not_ok "Emacs compilation-mode"; diag "got: $res"; }
else
	skip "Emacs compilation-mode" "not-installed: emacs (not in DEBIAN_PACKAGES: vim covers the format)"
fi
done_testing
