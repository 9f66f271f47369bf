#!/usr/bin/env bash
# make install: `warnwatch` runs check itself with libgit2 and jansson
# only, and execs warnwatch-all from the libexec directory for the other
# commands (bot/warnwatch.c says why); a missing warnwatch-all is one line.
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TEST_DIR"' EXIT
TEST_DIR=$(mktemp -d)
dest=$TEST_DIR/root

test_expect "make install DESTDIR=..." make -s -C "$WW_TOP" install DESTDIR="$dest"
bin=$(find "$dest" -path '*/bin/warnwatch' -type f | head -1)
all=$(find "$dest" -path '*/libexec/warnwatch/warnwatch-all' -type f | head -1)
if [ -n "$bin" ] && [ -x "$bin" ] && [ -n "$all" ] && [ -x "$all" ]; then
	ok "bin/warnwatch and libexec/warnwatch/warnwatch-all installed"
else
	not_ok "bin/warnwatch and libexec/warnwatch/warnwatch-all installed ($bin, $all)"
fi
comp=$dest/usr/local/share/bash-completion/completions/warnwatch
if [ -f "$comp" ] && cmp -s "$comp" "$WW_TOP/docs/warnwatch.bash-completion" &&
   [ -f "$dest/usr/local/share/man/man1/warnwatch.1" ]; then
	ok "bash completion in share/bash-completion/completions/warnwatch, the man page in man1"
else
	not_ok "bash completion and man page installed ($comp)"
fi
# the installed completion completes with the installed program
got=$(bash -c '. "$1"; COMP_WORDS=("$2" check --form); COMP_CWORD=2; _warnwatch; echo "${COMPREPLY[*]}"' - "$comp" "$bin" 2>&1)
[ "$got" = "--format" ] && ok "the installed completion completes check --form" || not_ok "installed completion: '$got'"
libs=$(ldd "$bin" 2>/dev/null)
if printf '%s\n' "$libs" | grep -q libgit2 &&
   ! printf '%s\n' "$libs" | grep -Eq 'libcurl|libsqlite3|libmicrohttpd|libarchive|libexpat'; then
	ok "warnwatch links libgit2 but none of curl, sqlite, microhttpd, archive, expat"
else
	not_ok "warnwatch links only what check needs"; printf '%s\n' "$libs" | sed 's/^/#   /'
fi
# A new BUG_ON (a changed argument of an existing one is a modification, info only).
printf 'diff --git a/mm/x.c b/mm/x.c\n--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1,2 @@ int f(void)\n \tx();\n+\tBUG_ON(2);\n' >"$TEST_DIR/p.diff"
out=$(WARNWATCH_RULES="$WW_TOP/rules" "$bin" check "$TEST_DIR/p.diff" 2>&1); rc=$?
case "$rc:$out" in
1:*"mm/x.c:2: ERROR: new BUG_ON()"*) ok "the installed warnwatch checks in-process" ;;
*) not_ok "the installed warnwatch checks in-process (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(WARNWATCH_EXEC_PATH=${all%/*} "$bin" status --help 2>&1); rc=$?
case "$rc:$out" in
0:"usage: warnwatch status"*) ok "status runs in warnwatch-all (WARNWATCH_EXEC_PATH)" ;;
*) not_ok "status runs in warnwatch-all (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(WARNWATCH_EXEC_PATH=$TEST_DIR/nowhere "$bin" review --help 2>&1); rc=$?
want="warnwatch: 'review' runs in $TEST_DIR/nowhere/warnwatch-all, which cannot be run: No such file or directory"
case "$rc:$out" in
"2:$want"*) ok "no warnwatch-all: one line, status 2" ;;
*) not_ok "no warnwatch-all: one line, status 2 (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$("$WARNWATCH" status --help 2>&1); rc=$?
case "$rc:$out" in
0:"usage: warnwatch status"*) ok "from the build tree: warnwatch-all beside the binary" ;;
*) not_ok "from the build tree (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
done_testing
