#!/usr/bin/env bash
# slow
#
# t0310: `warnwatch census` on a small tree and a small git history (fast,
# exact numbers), then on Debian's real linux-source-6.1 and 6.12 tarballs
# (read without extracting; figures and timings kept in tests/out/census/
# for the dashboard test and docs/census.md), then `census --git` between
# the two releases in a git repository holding both trees as two tagged
# commits.  That repository is built once with git in $WARNWATCH_CACHE
# (never in the checkout) and reused; building it takes a few minutes.
set -u
. "$(dirname "$0")/lib.sh"

need_cmd git python3
out=$WW_TOP/tests/out/census
mkdir -p "$out"
cache=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}/census

# py EXPR FILE: evaluate a Python expression over the JSON document `d`.
py() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[2])); print(eval(sys.argv[1]))' "$1" "$2"
}

# --- a small tree, exact numbers -------------------------------------------
t=$TEST_DIR/linux
mkdir -p "$t/include/linux" "$t/drivers/a" "$t/mm" "$t/Documentation"
printf 'VERSION = 6\nPATCHLEVEL = 9\nSUBLEVEL = 0\nEXTRAVERSION = -rc1\n' >"$t/Makefile"
printf 'MEMORY MANAGEMENT\nF:\tmm/\n\nDRIVER A\nF:\tdrivers/a/\n\nTHE REST\nF:\t*\nF:\t*/\n' >"$t/MAINTAINERS"
printf '#define MM_BUG_ON(x) BUG_ON(x)\n' >"$t/include/linux/mmbug.h"
cat >"$t/mm/slab.c" <<'EOF'
/* BUG_ON(x) in a comment */
void f(int x)
{
	BUG_ON(x);
	MM_BUG_ON(x > 1);
	if (WARN_ON_ONCE(x > 2))
		return;
	pr_warn("BUG_ON(in a string)\n");
}
EOF
printf 'void g(void)\n{\n\tpanic("oops");\n\tWARN(1, "x");\n}\n' >"$t/drivers/a/a.c"
printf 'void d(void) { BUG_ON(1); }\n' >"$t/Documentation/ex.c"

if "$WARNWATCH" census --format=json --output="$TEST_DIR/small.json" "$t" 2>"$TEST_DIR/err"; then
	ok "census of a small tree"
else
	not_ok "census of a small tree"; sed 's/^#*/#   /' "$TEST_DIR/err"
fi
test_expect "JSON: release, files, per macro, class and subsystem" python3 - "$TEST_DIR/small.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
want = {"release": "6.9-rc1", "files": 3}
for k, v in want.items():
    assert d[k] == v, (k, d[k])
assert d["calls"] == {"BUG_ON": 1, "MM_BUG_ON": 1, "WARN_ON_ONCE": 1, "panic": 1, "WARN": 1}, d["calls"]
assert d["classes"]["bug"] == 2 and d["classes"]["warn"] == 1 and d["classes"]["warn-once"] == 1 \
    and d["classes"]["panic"] == 1, d["classes"]
subs = {s["name"]: s for s in d["subsystems"]}
assert subs["MEMORY MANAGEMENT"]["calls"] == {"BUG_ON": 1, "MM_BUG_ON": 1, "WARN_ON_ONCE": 1}, subs
assert subs["DRIVER A"]["total"] == 2, subs
assert d["totals"]["bug_on_family"] == 2 and d["totals"]["calls"] == 5, d["totals"]
assert d["wrappers"][0]["name"] == "MM_BUG_ON" and d["wrappers"][0]["wraps"] == "BUG_ON"
EOF
"$WARNWATCH" census "$t" >"$TEST_DIR/small.txt" 2>&1
test_expect "table names the BUG_ON family, classes and subsystems" \
	grep -q -e 'BUG_ON family (not BUILD_BUG_ON): 2' -e 'MEMORY MANAGEMENT' "$TEST_DIR/small.txt"
"$WARNWATCH" census /nonexistent/linux.tar.xz >/dev/null 2>"$TEST_DIR/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "'/nonexistent/linux.tar.xz'" "$TEST_DIR/err"; then
	ok "a missing tree: exit 2 and a message naming it"
else
	not_ok "a missing tree: exit 2 and a message naming it (rc=$rc)"; sed 's/^/#   /' "$TEST_DIR/err"
fi

# --- a small history, census --git ------------------------------------------
g=$TEST_DIR/repo
git init -q "$g" && cp -r "$t/." "$g/" && rm -rf "$g/Documentation"
gitc() { git -C "$g" -c user.name=t -c user.email=t@example.org "$@"; }
gitc add -A && gitc commit -qm base && gitc tag v1
# Convert the BUG_ON, add a BUG() to the driver, rename a file untouched.
sed -i 's/\tBUG_ON(x);/\tif (WARN_ON_ONCE(x))\n\t\treturn;/' "$g/mm/slab.c"
gitc commit -qam "mm: no BUG_ON"
sed -i 's/\tpanic("oops");/\tpanic("oops");\n\tBUG();/' "$g/drivers/a/a.c"
gitc mv drivers/a/a.c drivers/a/core.c
gitc commit -qam "a: BUG and a rename"
gitc tag v2
if "$WARNWATCH" census --format=json --output="$TEST_DIR/git.json" --git "$g" v1..v2 2>"$TEST_DIR/err"; then
	ok "census --git on a small history"
else
	not_ok "census --git on a small history"; sed 's/^/#   /' "$TEST_DIR/err"
fi
test_expect "--git: commits, added and removed per macro, class and subsystem" python3 - "$TEST_DIR/git.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["commits"] == 2 and d["from"] == "v1" and d["to"] == "v2", d
assert d["added"] == {"WARN_ON_ONCE": 1, "BUG": 1}, d["added"]
assert d["removed"] == {"BUG_ON": 1}, d["removed"]
assert d["classes_added"]["bug"] == 1 and d["classes_removed"]["bug"] == 1
subs = {s["name"]: s for s in d["subsystems"]}
assert subs["MEMORY MANAGEMENT"]["total_added"] == 1 and subs["MEMORY MANAGEMENT"]["total_removed"] == 1
# The rename carries panic() along: neither added nor removed.
assert subs["DRIVER A"]["added"] == {"BUG": 1} and subs["DRIVER A"]["total_removed"] == 0, subs
EOF
"$WARNWATCH" census --git "$g" v2 >/dev/null 2>"$TEST_DIR/err"
if [ $? -eq 2 ] && grep -q "A..B" "$TEST_DIR/err"; then
	ok "--git without a range: usage error"
else
	not_ok "--git without a range: usage error"; sed 's/^/#   /' "$TEST_DIR/err"
fi

# --- Debian's tarballs ----------------------------------------------------------
for v in 6.1 6.12; do
	tarball=/usr/src/linux-source-$v.tar.xz
	if [ ! -f "$tarball" ]; then
		skip "census of linux-source-$v" "not-installed: $tarball (make deps)"
		continue
	fi
	start=$(date +%s.%N)
	if "$WARNWATCH" census -q --format=json --output="$out/linux-$v.json" "$tarball" 2>"$TEST_DIR/err"; then
		ok "census of linux-source-$v.tar.xz in $(python3 -c "import sys; print('%.0f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$(date +%s.%N)") s"
	else
		not_ok "census of linux-source-$v.tar.xz"; sed 's/^/#   /' "$TEST_DIR/err"
		continue
	fi
	diag "$v: $(py '"release %s: %d files, %d calls, BUG_ON family %d (BUG_ON %d), %d wrappers; time %.1f s (wrapper pass read %.1f s + scan %.1f s, count pass read %.1f s + scan %.1f s)" % (d["release"], d["files"], d["totals"]["calls"], d["totals"]["bug_on_family"], d["totals"]["bug_on"], d["wrapper_definitions"], d["timing"]["total"], d["timing"]["defines_read"], d["timing"]["defines_scan"], d["timing"]["count_read"], d["timing"]["count_scan"])' "$out/linux-$v.json")"
	test_expect "linux-source-$v: plausible totals" python3 - "$out/linux-$v.json" "$v" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
v = sys.argv[2]
assert d["release"].startswith(v + "."), d["release"]
assert d["files"] > 50000, d["files"]
t = d["totals"]
# Between grep's word count of BUG_ON( (7,524 in 6.12) minus comments and
# #define bodies, and the article's "something like 12,000" lines.
assert 6500 < t["bug_on"] < 8000, t
assert 8000 < t["bug_on_family"] < 10000, t
assert 30000 < t["calls"] < 50000, t
subs = {s["name"]: s for s in d["subsystems"]}
assert subs["MEMORY MANAGEMENT"]["total"] > 300, subs.get("MEMORY MANAGEMENT")
assert d["calls"]["WARN_ON"] > 10000 and "BUILD_BUG_ON" not in d["calls"]
EOF
done

# --- census --git between the two releases -------------------------------------
repo=$cache/linux-debian-6.1-6.12.git
if [ ! -f /usr/src/linux-source-6.1.tar.xz ] || [ ! -f /usr/src/linux-source-6.12.tar.xz ]; then
	skip "census --git v6.1..v6.12" "not-installed: a linux-source tarball (make deps)"
else
	if [ ! -d "$repo" ]; then
		start=$(date +%s)
		mkdir -p "$cache"
		if bash "$WW_TOP/tests/e2e/data/census-import.sh" "$repo" >"$TEST_DIR/import.log" 2>&1; then
			ok "git repository of both trees built in $(( $(date +%s) - start )) s ($repo)"
		else
			not_ok "git repository of both trees"; tail -n 20 "$TEST_DIR/import.log" | sed 's/^/#   /'
		fi
	else
		ok "git repository of both trees (cached: $repo)"
	fi
	start=$(date +%s)
	if "$WARNWATCH" census -q --format=json --output="$out/linux-6.1..6.12.json" \
		--git "$repo" v6.1..v6.12 2>"$TEST_DIR/err"; then
		ok "census --git v6.1..v6.12 in $(( $(date +%s) - start )) s"
		diag "$(py '"v6.1..v6.12: %d files changed, %d calls added, %d removed, BUG_ON family +%d -%d; time %.1f s" % (d["files"], d["totals"]["added"], d["totals"]["removed"], d["totals"]["bug_on_family_added"], d["totals"]["bug_on_family_removed"], d["timing"]["total"])' "$out/linux-6.1..6.12.json")"
	else
		not_ok "census --git v6.1..v6.12"; sed 's/^/#   /' "$TEST_DIR/err"
	fi
	if [ -f "$out/linux-6.1.json" ] && [ -f "$out/linux-6.12.json" ] && [ -f "$out/linux-6.1..6.12.json" ]; then
		# The diff's net change must agree with the two tree counts (up to
		# wrappers whose definitions differ between the trees, renames of
		# dissimilar files, and Documentation/ .c files the diff skips).
		test_expect "--git net change agrees with the two tree censuses" python3 - \
			"$out/linux-6.1.json" "$out/linux-6.12.json" "$out/linux-6.1..6.12.json" <<'EOF'
import json, sys
a, b, g = (json.load(open(f)) for f in sys.argv[1:4])
tree = b["totals"]["calls"] - a["totals"]["calls"]
diff = g["totals"]["added"] - g["totals"]["removed"]
print("# tree difference %+d, diff net %+d (added %d, removed %d)" % (tree, diff, g["totals"]["added"], g["totals"]["removed"]))
assert g["commits"] == 1, g["commits"]
assert abs(tree - diff) <= 0.03 * a["totals"]["calls"], (tree, diff)
EOF
	fi
fi

done_testing
