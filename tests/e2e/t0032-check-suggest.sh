#!/usr/bin/env bash
#
# t0032: `warnwatch check --suggest` prints a patch that turns each new
# BUG_ON()/BUG()/WARN_ON() into its gentler form, with the return the
# review reply would suggest, and that patch applies (`git apply --check`,
# then `git apply`) on top of the series' result: a series made here with
# real git whose second patch shifts the lines of the first, read both
# with -g and as a format-patch mbox.
set -u
. "$(dirname "$0")/lib.sh"
need_cmd git

export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org
export GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$TEST_DIR
export WARNWATCH_RULES="$WW_TOP/rules"
r=$TEST_DIR/repo
git init -q -b main "$r" || skip_all "git init failed"
mkdir -p "$r/mm"
cat >"$r/mm/a.c" <<'C'
#include <linux/bug.h>

int f(int x)
{
	int y = x * 2;

	y += 1;
	return y;
}

void g(struct foo *p)
{
	p->a = 1;
	p->b = 2;
}

static struct foo *h(int n)
{
	switch (n) {
	case 1:
		return NULL;
	default:
		break;
	}
	return NULL;
}

static void v(struct foo *p)
{
	p->c = 0;
}
C
git -C "$r" add . && git -C "$r" commit -q -m base
"$WW_PYTHON" - "$r/mm/a.c" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("\ty += 1;\n", "\tBUG_ON(x < 0 ||\n\t       x > 100);\n\ty += 1;\n")
s = s.replace("\tp->b = 2;\n", "\tp->b = 2;\n\tWARN_ON(!p->a);\n")
s = s.replace("\tdefault:\n\t\tbreak;", "\tdefault:\n\t\tBUG();")
s = s.replace("\tp->c = 0;\n", "\tBUG_ON(!p);\n\tBUG_ON(p->c > 3);\n\tp->c = 0;\n")
open(p, "w").write(s)
PY
git -C "$r" commit -q -am "mm: assert things"
sed -i 's|^#include <linux/bug.h>|#include <linux/bug.h>\n#include <linux/err.h>\n|' "$r/mm/a.c"
git -C "$r" commit -q -am "mm: include err.h"

out=$(cd "$r" && "$WARNWATCH" check --suggest -g main~2..main 2>"$TEST_DIR/err"); rc=$?
printf '%s\n' "$out" >"$TEST_DIR/suggest.diff"
[ "$rc" = 1 ] && ok "--suggest keeps check's exit status (1: errors)" || not_ok "--suggest status $rc"
case "$out" in
*"-	BUG_ON(x < 0 ||"*"+	if (WARN_ON_ONCE(x < 0 ||"*"+	                 x > 100))"*"+		return -EINVAL;"*) ok "BUG_ON(cond); -> if (WARN_ON_ONCE(cond)) return -EINVAL; (int function, continuation aligned)" ;;
*) not_ok "BUG_ON rewrite"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
case "$out" in
*"-	WARN_ON(!p->a);"$'\n'"+	WARN_ON_ONCE(!p->a);"*) ok "WARN_ON() -> WARN_ON_ONCE()" ;;
*) not_ok "WARN_ON rewrite"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
case "$out" in
*"-		BUG();"$'\n'"+		WARN_ON_ONCE(1);"$'\n'"+		return NULL;"*) ok "BUG() after a label -> WARN_ON_ONCE(1); return NULL; (pointer function)" ;;
*) not_ok "BUG() rewrite"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
case "$out" in
*"-	BUG_ON(!p);"$'\n'"+	if (WARN_ON_ONCE(!p))"$'\n'"+		return;"$'\n'"-	BUG_ON(p->c > 3);"$'\n'"+	if (WARN_ON_ONCE(p->c > 3))"$'\n'"+		return;"*) ok "two neighbouring BUG_ONs in a void function: one hunk, return;" ;;
*) not_ok "void return"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(git -C "$r" apply --check -v "$TEST_DIR/suggest.diff" 2>&1) &&
	ok "git apply --check: the suggestion applies on the series' result (lines shifted by patch 2)" ||
	{ not_ok "git apply --check"; printf '%s\n' "$out" | sed 's/^/#   /'; }
git -C "$r" apply "$TEST_DIR/suggest.diff" 2>/dev/null
out=$(cd "$r" && git add -A && git commit -q -m "mm: gentler" && "$WARNWATCH" check -g HEAD 2>&1); rc=$?
case "$rc:$out" in
0:*"0 errors, 0 warnings"*) ok "after applying it, the fix-up commit adds nothing at warning or error level" ;;
*) not_ok "after applying (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
git -C "$r" reset -q --hard HEAD~1

# the same series as mail: no tree needed, same patch
git -C "$r" format-patch -q --stdout main~2..main >"$TEST_DIR/series.mbox"
out=$("$WARNWATCH" check --suggest "$TEST_DIR/series.mbox" 2>/dev/null)
printf '%s\n' "$out" >"$TEST_DIR/mbox.diff"
out=$(git -C "$r" apply --check "$TEST_DIR/mbox.diff" 2>&1) &&
	ok "from an mbox: git apply --check on the series' result" ||
	{ not_ok "mbox suggestion"; printf '%s\n' "$out" | sed 's/^/#   /'; }

# a BUG() as the body of an unbraced if has no mechanical form: said, not patched
git -C "$r" checkout -q -b unbraced main
printf 'int k(int x)\n{\n\tif (x)\n\t\tBUG();\n\treturn x;\n}\n' >"$r/mm/k.c"
git -C "$r" add mm/k.c && git -C "$r" commit -q -m "mm: k"
out=$(cd "$r" && "$WARNWATCH" check --suggest -g HEAD 2>&1 >/dev/null)
case "$out" in
*"warnwatch: suggest: mm/k.c:4: BUG(): no mechanical gentler form here"*) ok "BUG() under an unbraced if: left out, said on stderr" ;;
*) not_ok "unbraced BUG()"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
done_testing
