#!/usr/bin/env bash
# slow
#
# t0107: what rules/advice.json says of the kernel's own headers ("holds":
# rcu_read_lock_held() is 1 without CONFIG_DEBUG_LOCK_ALLOC, in_interrupt()
# is on preempt.h's deprecated list, ...) is true of Debian's 6.1 and 6.12
# sources, file by file; and review --tree checks it in the tree under
# review: a tree whose rcupdate.h says otherwise gets no rcu-held sentence.
# Only the headers named are taken out of the tarballs (some 10 s each).
. "$(dirname "$0")/lib.sh"

[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }
export WARNWATCH_CONFIG=/nonexistent TMPDIR=$TEST_DIR
rules=$WW_TOP/rules/advice.json

# The files the entries' "holds" name, one per line.
files=$("$WW_PYTHON" -c 'import json,sys
d = json.load(open(sys.argv[1]))["review"]["advice"]
print("\n".join(sorted({h["file"] for e in d for h in e.get("holds", [])})))' "$rules")
[ -n "$files" ] || { echo "Bail out! no entry of $rules has \"holds\""; exit 1; }

# holds TREE: one line per entry, "ok ID" or "bad ID FILE".
holds() {
	"$WW_PYTHON" -c 'import json,os,sys
d = json.load(open(sys.argv[1]))["review"]["advice"]
for e in d:
    bad = [h["file"] for h in e.get("holds", [])
           if not os.path.isfile(os.path.join(sys.argv[2], h["file"])) or
           h["text"] not in open(os.path.join(sys.argv[2], h["file"]), errors="replace").read()]
    if e.get("holds"):
        print("bad %s %s" % (e["id"], bad[0]) if bad else "ok %s" % e["id"])' "$rules" "$1"
}

for v in 6.1 6.12; do
	tarball=/usr/src/linux-source-$v.tar.xz
	if [ ! -f "$tarball" ]; then
		skip "linux-source-$v: the headers hold what the advice says" "not-installed: linux-source-$v (make deps)"
		continue
	fi
	mkdir -p "$TEST_DIR/$v"
	pats=()
	for f in $files Documentation/process/coding-style.rst; do pats+=("*/$f"); done
	tar -xJf "$tarball" -C "$TEST_DIR/$v" --strip-components=1 --wildcards "${pats[@]}" ||
		{ not_ok "linux-source-$v: tar could not take out $files"; continue; }
	while read -r st id file; do
		[ "$st" = ok ] && ok "linux-source-$v holds what $id says of its headers" ||
			not_ok "linux-source-$v: $file lacks what $id says of it"
	done < <(holds "$TEST_DIR/$v")
done

# review --tree reads the tree's own header: a one-line series adding
# WARN_ON_ONCE(!rcu_read_lock_held()) to a tree of the 6.12 headers.
tree=$TEST_DIR/6.12
if [ -f "$tree/include/linux/rcupdate.h" ]; then
	mkdir -p "$tree/drivers/x"
	printf 'int y_fn(int a)\n{\n\tint b = a;\n\n\treturn b;\n}\n' >"$tree/drivers/x/y.c"
	cat >"$TEST_DIR/rcu.mbox" <<'EOF'
From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: A Dev <a@example.org>
Date: Mon, 7 Dec 2026 10:00:00 +0000
Subject: [PATCH] x: check the RCU read lock
Message-Id: <t0107-rcu@example.org>

Signed-off-by: A Dev <a@example.org>
---
 drivers/x/y.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/drivers/x/y.c b/drivers/x/y.c
--- a/drivers/x/y.c
+++ b/drivers/x/y.c
@@ -1,6 +1,7 @@
 int y_fn(int a)
 {
 	int b = a;
 
+	WARN_ON_ONCE(!rcu_read_lock_held());
 	return b;
 }
-- 
2.39.5
EOF
	"$WARNWATCH" review --mbox "$TEST_DIR/rcu.mbox" --tree "$tree" --format=mail \
		>"$TEST_DIR/real.out" 2>&1
	grep -q 'RCU_LOCKDEP_WARN(!rcu_read_lock_held()' "$TEST_DIR/real.out" &&
		ok "review --tree 6.12: WARN_ON_ONCE(!rcu_read_lock_held()) gets RCU_LOCKDEP_WARN()" ||
		{ not_ok "review --tree 6.12: no RCU_LOCKDEP_WARN() sentence"; sed 's/^/#   /' "$TEST_DIR/real.out"; }
	sed -i 's/^\treturn 1;$/\treturn 0;/' "$tree/include/linux/rcupdate.h"
	"$WARNWATCH" review --mbox "$TEST_DIR/rcu.mbox" --tree "$tree" --format=mail \
		>"$TEST_DIR/other.out" 2>&1
	grep -q 'RCU_LOCKDEP_WARN\|always 1' "$TEST_DIR/other.out" &&
		{ not_ok "review --tree: said rcu_read_lock_held() is 1 of a tree whose header returns 0"; sed 's/^/#   /' "$TEST_DIR/other.out"; } ||
		ok "review --tree: a tree whose rcupdate.h returns 0 gets no rcu-held sentence"
else
	skip "review --tree reads the tree's rcupdate.h" "not-installed: linux-source-6.12"
fi
done_testing
