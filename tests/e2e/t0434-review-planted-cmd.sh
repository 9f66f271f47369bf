#!/usr/bin/env bash
#
# t0434: a series' Makefile, run in the build sandbox, plants a compile
# command for review in the kept build directory (issue 33, part 1):
# fs/ext4/.super.o.cmd naming `gcc -x c++ -fmodules-ts
# '-fmodule-mapper=|./evil'`, and an executable ./evil beside it that
# touches a file outside the cache.  A later, innocent `review --tree` of
# a series touching fs/ext4/super.c finds that build directory in the same
# cache (build/<release>-<hash>) and compiles its rewrite with the
# object's .o.cmd: cc1plus would start ./evil as the service user.  It
# must not: the flags go through the allowlist (kcmd.h) and the compiler
# runs in the review's sandbox (cfront.h); the rewrite is still judged.
#
# A tiny fake kernel tree (fake_kernel_tree, with the review corpus'
# cut-down headers and one real function of linux 6.12 as
# fs/ext4/super.c) in a private cache: no kernel is built.
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
need_cmd bwrap tar xz make gcc b4
# Without g++'s cc1plus the planted command could not run ./evil even
# before the fix: the test would prove nothing.
ls /usr/lib/gcc/*/*/cc1plus >/dev/null 2>&1 ||
	skip_all "no cc1plus (g++): the planted mapper could not run anyway"
tmp=$TEST_DIR
export WARNWATCH_CONFIG=/nonexistent TMPDIR=$tmp

fake_kernel_tree "$tmp" || skip_all "cannot make the fake tarball"
src=$tmp/src/linux-source-9.9
corpus=tests/review-corpus
mkdir -p "$src/fs/ext4" "$src/Documentation/process"
cp -r "$corpus/include" "$src/"
cp "$corpus/src/li-info-new.c" "$src/fs/ext4/super.c"
cp tests/e2e/data/serve/coding-style.rst "$src/Documentation/process/"
tar -cJf "$tmp/linux-source-9.9.tar.xz" -C "$tmp/src" linux-source-9.9
marker=$tmp/outside/PWNED
mkdir -p "$tmp/outside"

# The attack: two new files and a Makefile that copies them into $(O),
# with the `source` link a real O= build makes.
cat >"$tmp/evil.mbox" <<MBOX
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Mallory <mallory@example.org>
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: [PATCH] kbuild: cache the ext4 command
Message-ID: <evil-cmd@example.org>

---
diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -11,3 +11,7 @@ bzImage:
 	mkdir -p \$(O)/arch/x86/boot
 	echo image >\$(O)/arch/x86/boot/bzImage
 	echo elf >\$(O)/vmlinux
+	mkdir -p \$(O)/fs/ext4
+	cp scripts/ww-cmd \$(O)/fs/ext4/.super.o.cmd
+	cp scripts/ww-evil \$(O)/evil && chmod 755 \$(O)/evil
+	ln -sfn /ww/src \$(O)/source
diff --git a/scripts/ww-cmd b/scripts/ww-cmd
new file mode 100644
--- /dev/null
+++ b/scripts/ww-cmd
@@ -0,0 +1 @@
+savedcmd_fs/ext4/super.o := gcc -x c++ -fmodules-ts '-fmodule-mapper=|./evil' -nostdinc -I/ww/src/include -include /ww/src/include/linux/kconfig.h -D__KERNEL__ -c -o fs/ext4/super.o /ww/src/fs/ext4/super.c
diff --git a/scripts/ww-evil b/scripts/ww-evil
new file mode 100644
--- /dev/null
+++ b/scripts/ww-evil
@@ -0,0 +1,2 @@
+#!/bin/sh
+touch $marker
-- 
2.39.2
MBOX

timeout 300 env WARNWATCH_CACHE="$tmp/cache" "$WARNWATCH" kbuild -q --jobs 1 --timeout 120 \
	--base-tarball "$tmp/linux-source-9.9.tar.xz" "$tmp/evil.mbox" >"$tmp/kbuild.out" 2>&1
rc=$?
build=$(ls -d "$tmp"/cache/build/9.9.1-* 2>/dev/null | grep -E '/9\.9\.1-[0-9a-f]{12}$' | head -n 1)
if [ "$rc" -eq 0 ] && [ -x "$build/evil" ] && [ -f "$build/fs/ext4/.super.o.cmd" ]; then
	ok "the planting series builds and leaves .super.o.cmd and ./evil in $(basename "$build")"
else
	not_ok "the planting series builds (exit $rc, build '$build')"
	sed 's/^/#   /' "$tmp/kbuild.out" | tail -n 20
	done_testing
	exit
fi
[ ! -e "$marker" ] && ok "the build itself (sandboxed) could not write outside" ||
	not_ok "the build wrote $marker"

# An innocent review of the same release: its cache build is found by itself.
case_dir=$corpus/cases/alloc-bug-li-info
touch "$tmp/stamp"
timeout 300 env WARNWATCH_CACHE="$tmp/cache" "$WARNWATCH" review --mbox "$case_dir/input.mbox" \
	--tree "$src" --format=json >"$tmp/review.json" 2>"$tmp/review.err"
rc=$?
if [ ! -e "$marker" ]; then
	ok "review --tree did not run the planted ./evil"
else
	not_ok "review --tree ran the planted ./evil (it wrote $marker)"
fi
got=$("$WW_PYTHON" -c 'import json,sys; c=json.load(open(sys.argv[1]))["calls"][0]; print(json.dumps([c.get("facts"), c.get("compile"), c.get("compiled")]))' "$tmp/review.json" 2>&1)
case "$rc:$got" in
'0:[true, "kbuild", true]'|'0:[true, "kbuild", false]')
	ok "the rewrite is still judged with the .o.cmd's allowed flags (facts/compile/compiled: $got)" ;;
*)	not_ok "review: exit $rc, facts/compile/compiled: $got"
	sed 's/^/#   /' "$tmp/review.err" | head -n 10 ;;
esac
changed=$(find "$build" -newer "$tmp/stamp" -o -name '*.gcno' | head -n 3)
[ -z "$changed" ] && ok "nothing was written into the build directory" ||
	not_ok "the build directory changed: $changed"
done_testing
