#!/usr/bin/env bash
#
# t0032: `warnwatch check --suggest`.  Without a tree it is a usage error
# saying what it needs (the diff shows neither the return type nor the
# function's exits).  With --tree (the base the series applies to) it prints the
# review's rewrite of each new call -- from the facts of the function as the
# series leaves it, mirroring its own failure exit, compiled there -- as a
# patch that applies (`git apply --check`, then `git apply`) on top of the
# series' result: a series made here with real git whose second patch
# shifts the lines of the first, read both with -g and as a format-patch
# mbox.  The lean `warnwatch` runs --suggest --tree in warnwatch-all.
set -u
. "$(dirname "$0")/lib.sh"
need_cmd git gcc

export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org
export GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$TEST_DIR WARNWATCH_CACHE=$TEST_DIR/cache TMPDIR=$TEST_DIR
export WARNWATCH_RULES="$WW_TOP/rules"
r=$TEST_DIR/repo
git init -q -b main "$r" || { echo "Bail out! git init failed"; exit 1; }
mkdir -p "$r/lib" "$r/include/linux"
# A cut-down kernel: the minimal flags force-include include/linux/kconfig.h.
cat >"$r/include/linux/kconfig.h" <<'C'
#define NULL ((void *)0)
#define ENODEV 19
#define EINVAL 22
#define unlikely(x) __builtin_expect(!!(x), 0)
void __warn(void);
#define WARN_ON(c) ({ int __w = !!(c); if (unlikely(__w)) __warn(); unlikely(__w); })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define BUG() __builtin_trap()
#define BUG_ON(c) do { if (unlikely(c)) BUG(); } while (0)
C
: >"$r/include/linux/bug.h"
mkdir -p "$r/Documentation/process"	# review --tree quotes it
cp "$WW_TOP/tests/e2e/data/serve/coding-style.rst" "$r/Documentation/process/"
: >"$r/include/linux/err.h"
cat >"$r/lib/a.c" <<'C'
#include <linux/bug.h>

struct foo { int a, b, c; };

int f(struct foo *p, int x)
{
	int y;

	if (!p)
		return -ENODEV;
	y = x * 2;
	y += p->a;
	return y;
}

void g(struct foo *p)
{
	p->a = 1;
	p->b = 2;
}

static void v(struct foo *p, int n)
{
	if (n > 3)
		return;
	p->c = n;
	p->a = p->c + 1;
}

int k(int x)
{
	int y = x * 2;

	y += 1;
	return y;
}
C
git -C "$r" add . && git -C "$r" commit -q -m base
"$WW_PYTHON" - "$r/lib/a.c" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace("\ty = x * 2;\n", "\tBUG_ON(x > 100);\n\ty = x * 2;\n")
s = s.replace("\ty += 1;\n", "\tBUG_ON(x < 0 ||\n\t       x > 100);\n\ty += 1;\n")
s = s.replace("\tp->b = 2;\n", "\tp->b = 2;\n\tWARN_ON(!p->a);\n")
s = s.replace("\tp->c = n;\n", "\tBUG_ON(n < 0);\n\tp->c = n;\n")
open(p, "w").write(s)
PY
git -C "$r" commit -q -am "lib: assert things"
sed -i 's|^#include <linux/bug.h>|#include <linux/bug.h>\n#include <linux/err.h>\n|' "$r/lib/a.c"
git -C "$r" commit -q -am "lib: include err.h"
git -C "$r" worktree add -q "$TEST_DIR/base" main~2 || { echo "Bail out! git worktree add failed"; exit 1; }

out=$(cd "$r" && "$WARNWATCH" check --suggest -g main~2..main 2>"$TEST_DIR/err"); rc=$?
if [ "$rc" = 2 ] && [ -z "$out" ] && grep -q -- "--suggest needs --tree DIR, a kernel tree the series applies to" "$TEST_DIR/err"; then
	ok "no tree: a usage error (status 2) that says what --suggest needs"
else
	not_ok "no tree: rc $rc"; printf '%s\n' "$out" | sed 's/^/#   /'; sed 's/^/#   /' "$TEST_DIR/err"
fi

out=$(cd "$r" && "$WARNWATCH" check --suggest --tree "$TEST_DIR/base" -g main~2..main 2>"$TEST_DIR/err"); rc=$?
printf '%s\n' "$out" >"$TEST_DIR/suggest.diff"
[ "$rc" = 1 ] && ok "--suggest --tree keeps check's exit status (1: errors)" || not_ok "--suggest --tree status $rc"
case "$out" in
*"-	BUG_ON(x > 100);"$'\n'"+	if (WARN_ON_ONCE(x > 100))"$'\n'"+		return -ENODEV;"*) ok "BUG_ON() -> if (WARN_ON_ONCE(cond)) and the function's own failure exit (return -ENODEV;), not a guessed -EINVAL" ;;
*) not_ok "BUG_ON rewrite"; printf '%s\n' "$out" | sed 's/^/#   /'; sed 's/^/#   /' "$TEST_DIR/err" ;;
esac
case "$out" in
*"-	WARN_ON(!p->a);"$'\n'"+	WARN_ON_ONCE(!p->a);"*) ok "WARN_ON() as the last statement -> WARN_ON_ONCE(), no way out" ;;
*) not_ok "WARN_ON rewrite"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
case "$(cat "$TEST_DIR/err")" in
*"lib/a.c:"*": BUG_ON(): no rewrite the facts support"*) ok "a call the facts give no rewrite for: left out, said on stderr" ;;
*) not_ok "left-out call"; sed 's/^/#   /' "$TEST_DIR/err" ;;
esac
case "$out" in
*"x < 0 ||"*) not_ok "the || BUG_ON() got a rewrite" ;;
*) ok "... and nothing for it in the patch" ;;
esac
out=$(git -C "$r" apply --check -v "$TEST_DIR/suggest.diff" 2>&1) &&
	ok "git apply --check: the suggestion applies on the series' result (lines shifted by patch 2)" ||
	{ not_ok "git apply --check"; printf '%s\n' "$out" | sed 's/^/#   /'; }
git -C "$r" apply "$TEST_DIR/suggest.diff" 2>/dev/null
out=$(cd "$r" && git add -A && git commit -q -m "lib: gentler" && "$WARNWATCH" check -g HEAD 2>&1); rc=$?
case "$rc:$out" in
0:*"0 errors, 0 warnings"*) ok "after applying it, the fix-up commit adds nothing at warning or error level" ;;
*) not_ok "after applying (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
git -C "$r" reset -q --hard HEAD~1

# the same series as mail: the same patch
git -C "$r" format-patch -q --stdout --thread --to=list@example.org main~2..main >"$TEST_DIR/series.mbox"
"$WARNWATCH" check --suggest --tree "$TEST_DIR/base" "$TEST_DIR/series.mbox" >"$TEST_DIR/mbox.diff" 2>/dev/null
[ "$(sed 1d "$TEST_DIR/mbox.diff")" = "$(sed 1d "$TEST_DIR/suggest.diff")" ] &&
	ok "from an mbox: the same patch" ||
	{ not_ok "mbox suggestion differs"; diff "$TEST_DIR/suggest.diff" "$TEST_DIR/mbox.diff" | sed 's/^/#   /'; }

# Each rewrite is the review reply's (one path, not a second guess).
if command -v b4 >/dev/null; then
	WARNWATCH_CONFIG=/nonexistent "$WARNWATCH" review --mbox "$TEST_DIR/series.mbox" \
		--tree "$TEST_DIR/base" --format=json >"$TEST_DIR/review.json" 2>"$TEST_DIR/review.err"
	if "$WW_PYTHON" - "$TEST_DIR/review.json" "$TEST_DIR/suggest.diff" <<'PY'
import json, sys
calls = json.load(open(sys.argv[1]))["calls"]
plus = "\n".join(l[1:].strip() for l in open(sys.argv[2]).read().splitlines() if l.startswith("+") and not l.startswith("+++"))
offered = [c["rewrite"] for c in calls if c["rewrite"] and c["compiled"]]
missing = [r for r in offered if "\n".join(x.strip() for x in r.splitlines()) not in plus]
print("# review offers %d compiled rewrites; %d missing from the patch: %r" % (len(offered), len(missing), missing))
sys.exit(0 if len(offered) == 3 and not missing else 1)
PY
	then ok "the patch holds exactly the review's compiled rewrites"
	else not_ok "review's rewrites vs the patch"; sed 's/^/#   /' "$TEST_DIR/review.err"; fi
else
	skip "the review's rewrites" "not-installed: b4"
fi

# The lean warnwatch runs --suggest --tree in warnwatch-all (libclang);
# plain check never needs it.
case "$WARNWATCH" in
*/warnwatch)
	out=$(cd "$r" && WARNWATCH_EXEC_PATH=/nonexistent "$WARNWATCH" check --suggest --tree "$TEST_DIR/base" -g main~2..main 2>&1); rc=$?
	out2=$(cd "$r" && WARNWATCH_EXEC_PATH=/nonexistent "$WARNWATCH" check -g main~2..main 2>&1); rc2=$?
	case "$rc:$rc2:$out" in
	2:1:*"runs in"*"warnwatch-all"*) ok "lean warnwatch: --suggest --tree execs warnwatch-all, plain check does not" ;;
	*) not_ok "lean exec: rc $rc/$rc2"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
	esac ;;
*) skip "lean exec" "not-selected: WARNWATCH is not the lean binary" ;;
esac
done_testing
