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
# Issue 35: a suggestion keeps what the call meant.  A BUG_ON() on a
# broken directory entry in a function that reports corruption as
# -EFSCORRUPTED leaves with that, not with the -ENOSPC of the full-block
# exit that happens to be nearest; a WARN_ON() on flags copied from user
# space is dropped for a plain -EINVAL (WARN_ON_ONCE() would still let
# user space trigger it).
r2=$TEST_DIR/repo2
git init -q -b main "$r2" && mkdir -p "$r2/fs/foo" "$r2/include/linux" "$r2/Documentation/process"
cat >"$r2/include/linux/kconfig.h" <<'C'
#define NULL ((void *)0)
#define ENOSPC 28
#define EINVAL 22
#define EFAULT 14
#define EUCLEAN 117
#define EFSCORRUPTED EUCLEAN
#define __user
#define unlikely(x) __builtin_expect(!!(x), 0)
void __warn(void);
#define WARN_ON(c) ({ int __w = !!(c); if (unlikely(__w)) __warn(); unlikely(__w); })
#define WARN_ON_ONCE(c) WARN_ON(c)
#define BUG() __builtin_trap()
#define BUG_ON(c) do { if (unlikely(c)) BUG(); } while (0)
static inline void *ERR_PTR(long e) { return (void *)e; }
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
C
: >"$r2/include/linux/bug.h"
cp "$WW_TOP/tests/e2e/data/serve/coding-style.rst" "$r2/Documentation/process/"
cat >"$r2/fs/foo/dir.c" <<'C'
#include <linux/bug.h>

struct dent { unsigned short rec_len; unsigned int inode; };
struct blk { struct dent *de; int nr; };
void foo_error(const char *what);

struct blk *find_entry(struct blk *b, unsigned int max, int want)
{
	struct dent *de = b->de;

	if (de->rec_len == 0) {
		foo_error("zero rec_len");
		return ERR_PTR(-EFSCORRUPTED);
	}
	b->nr++;
	if (b->nr > want)
		return ERR_PTR(-ENOSPC);
	return b;
}

struct foo_args { unsigned int flags; unsigned int len; };
#define FOO_FLAGS 3u

long foo_ioctl(void *file, unsigned int cmd, unsigned long arg)
{
	struct foo_args a;

	if (copy_from_user(&a, (void __user *)arg, sizeof(a)))
		return -EFAULT;
	a.len = 0;
	return a.flags;
}
C
git -C "$r2" add . && git -C "$r2" commit -q -m base
sed -i 's|^\tb->nr++;$|\tb->nr++;\n\tBUG_ON(de->inode > max);|; s|^\ta.len = 0;$|\tWARN_ON(a.flags \& ~FOO_FLAGS);\n\ta.len = 0;|' "$r2/fs/foo/dir.c"
git -C "$r2" commit -q -am "foo: check entries and flags"
git -C "$r2" worktree add -q "$TEST_DIR/base2" main~1
out=$(cd "$r2" && "$WARNWATCH" check --suggest --tree "$TEST_DIR/base2" -g main~1..main 2>"$TEST_DIR/err2")
case "$out" in
*"-	BUG_ON(de->inode > max);"$'\n'"+	if (WARN_ON_ONCE(de->inode > max))"$'\n'"+		return ERR_PTR(-EFSCORRUPTED);"*)
	ok "a BUG_ON() where the function reports corruption: its -EFSCORRUPTED, not the nearest exit's -ENOSPC" ;;
*) not_ok "corruption errno"; printf '%s\n' "$out" | sed 's/^/#   /'; sed 's/^/#   /' "$TEST_DIR/err2" ;;
esac
case "$out" in
*"-	WARN_ON(a.flags & ~FOO_FLAGS);"$'\n'"+	if (a.flags & ~FOO_FLAGS)"$'\n'"+		return -EINVAL;"*)
	ok "a WARN_ON() on flags from copy_from_user(): dropped for return -EINVAL, no WARN_ON_ONCE()" ;;
*) not_ok "user-input flags"; printf '%s\n' "$out" | sed 's/^/#   /'; sed 's/^/#   /' "$TEST_DIR/err2" ;;
esac
done_testing
