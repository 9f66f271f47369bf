#!/usr/bin/env bash
#
# t0431: a host file must not reach a verdict or a reply (issue 22, part 2).
# `warnwatch ci` for real, on a tiny fake kernel tree in a private cache
# (its Makefile "builds" a bzImage and a vmlinux; no kernel is built),
# with a stand-in qemu-system-x86_64 first on PATH that prints a crafted
# console: a WARNING whose file name leads to a file standing in for a
# host secret, then the panic.
#   1. The two-link chain of the issue (s -> ../../..., l -> s/<secret>)
#      is refused at apply: no build, no boot.
#   2. An innocent-looking series (one added line in kernel/foo.c) whose
#      kernel "prints" WARNING at <../../..>/secret/kernel/foo.c:3: the
#      added line is attributed by the name's suffix, and ci reads the
#      line it quotes beneath the patched tree only (safefs), so the
#      secret's line 3 is read nowhere: not in ci's text, not in the JSON
#      verdict, not in `review --verdict`'s reply.
# What runs for real: warnwatch ci (series load, kapply, kbuild in the
# bwrap sandbox on the fake tree, kboot with a stand-in QEMU, console
# parsing, attribution, read_sources) and warnwatch review --verdict.
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
need_cmd bwrap tar xz make
tmp=$TEST_DIR
export WARNWATCH_CACHE=$tmp/cache
export XDG_CACHE_HOME=$tmp/xdg-cache

fake_kernel_tree "$tmp" || { echo "Bail out! cannot make the fake tarball"; exit 1; }

# The host secret: line 1 for the chain's l, line 3 for the console's
# foo.c (the line the series adds in the tree).
secret=SECRET-$$-hostname
mkdir -p "$tmp/secret/kernel"
printf '%s\n' "$secret" >"$tmp/secret/hostname"
printf 'int foo(void)\n{\n\tint %s = 1;\n\treturn 0;\n}\n' "$secret" >"$tmp/secret/kernel/foo.c"
up=../../../../../../../../../../../../../../../../../../../..

# The stand-in QEMU: prints the console the series' kernel would print.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<QEMU
#!/bin/sh
case "\$1" in --version) echo "QEMU emulator version 0.0.0 (stand-in)"; exit 0 ;; esac
cat <<'CONSOLE'
Linux version 9.9.1 (warnwatch@sandbox) #1 warnwatch
Command line: console=ttyS0 panic=-1 kunit_shutdown=reboot panic_on_warn=1 oops=panic
KTAP version 1
1..1
------------[ cut here ]------------
WARNING: CPU: 0 PID: 1 at $up$tmp/secret/kernel/foo.c:3 foo+0x1/0x2
CPU: 0 PID: 1 Comm: swapper/0 Not tainted 9.9.1 #1
RIP: 0010:foo+0x1/0x2
Call Trace:
 <TASK>
 foo+0x1/0x2
 </TASK>
Kernel panic - not syncing: kernel: panic_on_warn set ...
CONSOLE
exit 0
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
export PATH=$tmp/bin:$PATH

mbox_header() {	# mbox_header ID SUBJECT
	cat <<EOF
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Mallory <mallory@example.org>
To: linux-kernel@vger.kernel.org
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: [PATCH] $2
Message-ID: <$1@example.org>

---
EOF
}
{
	mbox_header chain "kernel: two links"
	cat <<EOF
diff --git a/kernel/a/s b/kernel/a/s
new file mode 120000
index 0000000..1111111
--- /dev/null
+++ b/kernel/a/s
@@ -0,0 +1 @@
+$up
\ No newline at end of file
diff --git a/kernel/a/l b/kernel/a/l
new file mode 120000
index 0000000..1111111
--- /dev/null
+++ b/kernel/a/l
@@ -0,0 +1 @@
+s$tmp/secret/hostname
\ No newline at end of file
-- 
2.39.2
EOF
} >"$tmp/chain.mbox"
{
	mbox_header foo "foo: one more local"
	cat <<'EOF'
diff --git a/kernel/foo.c b/kernel/foo.c
--- a/kernel/foo.c
+++ b/kernel/foo.c
@@ -1,4 +1,5 @@
 int foo(void)
 {
+	int x = 1;
 	return 0;
 }
-- 
2.39.2
EOF
} >"$tmp/foo.mbox"

ci() {	# ci NAME MBOX: text on NAME.out, JSON in NAME.json
	timeout 600 "$WARNWATCH" ci --tree "$tmp/linux-source-9.9.tar.xz" --accel tcg \
		--no-user-space --no-base-boot --no-second-boot --timeout 60 \
		--json-out "$tmp/$1.json" "$2" >"$tmp/$1.out" 2>"$tmp/$1.err"
}

ci chain "$tmp/chain.mbox"
rc=$?
if [ "$rc" -eq 1 ] && grep -q '"verdict": "apply-failed"' "$tmp/chain.json" &&
   grep -q "points outside the tree" "$tmp/chain.out"; then
	ok "the two-link chain is refused at apply (exit 1, apply-failed)"
else
	not_ok "the two-link chain is refused at apply (exit $rc)"
	sed 's/^/#   /' "$tmp/chain.out" "$tmp/chain.err" | tail -n 20
fi
test_expect "  nothing was built or booted for it" \
	sh -c "! ls -d '$tmp'/cache/build/9.9.1-* >/dev/null 2>&1 && ! grep -q 'booting' '$tmp/chain.err'"

ci foo "$tmp/foo.mbox"
rc=$?
if [ "$rc" -eq 1 ] && grep -q '"verdict": "panicked"' "$tmp/foo.json" &&
   grep -q '"added_by_series": true' "$tmp/foo.json"; then
	ok "the stand-in console: panicked, the WARNING attributed to the added line"
else
	not_ok "the stand-in console: panicked, attributed to the added line (exit $rc)"
	sed 's/^/#   /' "$tmp/foo.out" "$tmp/foo.err" | tail -n 20
	[ -f "$tmp/foo.json" ] && sed 's/^/#   /' "$tmp/foo.json" | head -n 60
fi
test_expect "  the secret is not in ci's text" sh -c "! grep -q '$secret' '$tmp/foo.out' '$tmp/foo.err'"
test_expect "  the secret is not in the JSON verdict" sh -c "! grep -q '$secret' '$tmp/foo.json'"
"$WARNWATCH" review --always --config "$WW_TOP/tests/e2e/data/example.conf" --mbox "$tmp/foo.mbox" \
	--verdict "$tmp/foo.json" >"$tmp/reply.eml" 2>"$tmp/reply.err"
rc=$?
if [ "$rc" -le 1 ] && grep -q '^In-Reply-To: <foo@example.org>' "$tmp/reply.eml"; then
	ok "review --verdict drafts the reply"
else
	not_ok "review --verdict drafts the reply (exit $rc)"
	sed 's/^/#   /' "$tmp/reply.err" | tail -n 10
fi
test_expect "  the secret is not in the reply" sh -c "! grep -q '$secret' '$tmp/reply.eml'"
done_testing
