#!/usr/bin/env bash
#
# t0430: a series' Makefile, run in the build sandbox, plants symlinks in
# the kept build directory at the names warnwatch writes from outside it
# (issue 22, part 1): "warnwatch-build.log.tmp.<pid>" and the config
# stamps' temp names, pointing at a file that stands for the service
# user's ~/.bashrc.  Neither that build nor a later innocent build of the
# same directory may write through them, and the kept directory no longer
# holds a planted link at any warnwatch-* name after the next build.
#
# A tiny fake kernel tree (a top Makefile with olddefconfig and bzImage
# targets) in a private cache: no kernel is built.  warnwatch runs as pid
# 1 of a new pid namespace (unshare), so the attacker's pid guess is the
# right one: the pid is in every reply's Message-ID anyway.
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
need_cmd bwrap unshare tar xz make
tmp=$TEST_DIR
unshare -pf --kill-child --mount-proc true 2>/dev/null ||
	skip_all "no-namespaces: no pid namespaces here (unshare -pf)"

fake_kernel_tree "$tmp" || { echo "Bail out! cannot make the fake tarball"; exit 1; }

victim=$tmp/home/.bashrc
mkdir -p "$tmp/home"
printf 'precious\n' >"$victim"
chmod 666 "$victim"

# The attack: the recipe plants links for pid 1 at every temp name
# warnwatch used (PATH.tmp.<pid>) and at the stamps themselves.
cat >"$tmp/evil.mbox" <<MBOX
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Mallory <mallory@example.org>
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: [PATCH] kbuild: faster bzImage
Message-ID: <evil@example.org>

---
diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -11,3 +11,6 @@ bzImage:
 	mkdir -p \$(O)/arch/x86/boot
 	echo image >\$(O)/arch/x86/boot/bzImage
 	echo elf >\$(O)/vmlinux
+	for n in warnwatch-build.log warnwatch-config warnwatch-tree .config; do ln -sf $victim \$(O)/\$\$n.tmp.1; done
+	ln -sf $victim \$(O)/warnwatch-config
+	ln -sf $victim \$(O)/warnwatch-tree
-- 
2.39.2
MBOX
# An innocent series touching a C file only: the same build directory.
cat >"$tmp/good.mbox" <<'MBOX'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Jane <jane@example.org>
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: [PATCH] foo: say one
Message-ID: <good@example.org>

---
diff --git a/kernel/foo.c b/kernel/foo.c
--- a/kernel/foo.c
+++ b/kernel/foo.c
@@ -1,4 +1,4 @@
 int foo(void)
 {
-	return 0;
+	return 1;
 }
-- 
2.39.2
MBOX

kbuild() {	# kbuild MBOX: warnwatch kbuild as pid 1 of a pid namespace
	unshare -pf --kill-child --mount-proc -- timeout 300 env WARNWATCH_CACHE="$tmp/cache" \
		"$WARNWATCH" kbuild -q --jobs 1 --timeout 120 \
		--base-tarball "$tmp/linux-source-9.9.tar.xz" "$1"
}

# unshare -f makes the command pid 1; `timeout` is that pid 1 and
# warnwatch its child (pid 2), so plant for both.
sed -i 's/\$\$n\.tmp\.1; done/$$n.tmp.1; ln -sf '"${victim//\//\\/}"' $(O)\/$$n.tmp.2; done/' "$tmp/evil.mbox"

kbuild "$tmp/evil.mbox" >"$tmp/evil.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "the planting series builds (exit 0)"
else
	not_ok "the planting series builds (exit $rc)"
	sed 's/^/#   /' "$tmp/evil.out" | tail -n 20
fi
build=$(ls -d "$tmp"/cache/build/9.9.1-* 2>/dev/null | grep -E '/9\.9\.1-[0-9a-f]+$' | head -n 1)
planted=$(find "$build" -maxdepth 1 -type l -name '*.tmp.*' 2>/dev/null | wc -l)
diag "build directory: $build, planted temp links left: $planted"
if [ "$(cat "$victim")" = precious ]; then
	ok "the planted links were not written through by that build"
else
	not_ok "the planted links were not written through by that build"
	head -n 3 "$victim" | sed 's/^/#   /'
fi

kbuild "$tmp/good.mbox" >"$tmp/good.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "an innocent series then builds in the same directory"
else
	not_ok "an innocent series then builds in the same directory (exit $rc)"
	sed 's/^/#   /' "$tmp/good.out" | tail -n 20
fi
if [ "$(cat "$victim")" = precious ]; then
	ok "... and does not write through the links either"
else
	not_ok "... and does not write through the links either"
	head -n 3 "$victim" | sed 's/^/#   /'
fi
left=$(find "$build" -maxdepth 1 -type l \( -name 'warnwatch-*' -o -name '.config*' \) | wc -l)
if [ "$left" -eq 0 ]; then
	ok "no planted link at a warnwatch name survives in the kept directory"
else
	not_ok "no planted link at a warnwatch name survives in the kept directory ($left left)"
	find "$build" -maxdepth 1 -type l | sed 's/^/#   /'
fi
test_expect "the build log is a regular file with make's output" \
	sh -c "test -f '$build/warnwatch-build.log' && ! test -L '$build/warnwatch-build.log'"
done_testing
