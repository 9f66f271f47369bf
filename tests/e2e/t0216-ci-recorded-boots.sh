#!/usr/bin/env bash
#
# t0216: `warnwatch ci` end to end on recorded consoles (issue 36): the
# verdict of each way a boot ends, through the whole pipeline, without
# building or booting a kernel.  A tiny fake kernel tree (its Makefile
# "builds" a bzImage) in a private cache, and a stand-in
# qemu-system-x86_64 first on PATH that records its arguments and prints a
# console recorded from a real boot of linux 6.1.192
# (tests/unit/data/console/), its "Command line:" the one it was given:
#   - the decisive boot runs with panic_on_warn=1 oops=panic (the clean
#     verdict's "no WARNING or BUG fired" rests on it);
#   - the pristine kernel's console: clean;
#   - a WARNING and the panic_on_warn panic: panicked;
#   - /init exited ("Attempted to kill init") with no report before it:
#     our guest setup, an error, never the series' panic.
# The mutants of tests/mutants/ that need a boot use this test.
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
need_cmd bwrap tar xz make
tmp=$TEST_DIR
export WARNWATCH_CACHE=$tmp/cache
export XDG_CACHE_HOME=$tmp/xdg-cache
consoles=$WW_TOP/tests/unit/data/console

fake_kernel_tree "$tmp" || { echo "Bail out! cannot make the fake kernel tarball"; exit 1; }

# The stand-in QEMU: its argv, one word a line, to qemu.N; then the
# console named by $tmp/console, with the command line it was given.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<QEMU
#!/bin/sh
case "\$1" in --version) echo "QEMU emulator version 0.0.0 (stand-in)"; exit 0 ;; esac
n=\$(ls "$tmp"/qemu.* 2>/dev/null | wc -l)
append=
for a in "\$@"; do
	printf '%s\n' "\$a" >>"$tmp/qemu.\$n"
	[ "\$prev" = -append ] && append=\$a
	prev=\$a
done
sed "s|^Command line: .*|Command line: \$append|" "\$(cat "$tmp/console")"
exit 0
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
export PATH=$tmp/bin:$PATH

cat >"$tmp/foo.mbox" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Dev <dev@example.org>
To: linux-kernel@vger.kernel.org
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: [PATCH] foo: one more local
Message-ID: <foo@example.org>

---
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

# The guest's /init exits: the recorded boot up to its last suite, then
# the panic the kernel prints when init is gone.
sed '/^reboot: /d' "$consoles/clean-6.1.192.log" >"$tmp/init-exits.log"
printf 'Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100\r\n' \
	>>"$tmp/init-exits.log"

ci() {	# ci NAME CONSOLE: text on NAME.out, JSON in NAME.json
	rm -f "$tmp"/qemu.*
	echo "$2" >"$tmp/console"
	timeout 600 "$WARNWATCH" ci --tree "$tmp/linux-source-9.9.tar.xz" --accel tcg \
		--no-user-space --no-base-boot --no-second-boot --timeout 60 \
		--json-out "$tmp/$1.json" "$tmp/foo.mbox" >"$tmp/$1.out" 2>"$tmp/$1.err"
}

verdict() {	# verdict NAME: the "verdict" of NAME.json
	"$WW_PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["verdict"])' \
		"$tmp/$1.json" 2>/dev/null
}

expect_verdict() {	# expect_verdict NAME WANT RC WHAT
	local got
	got=$(verdict "$1")
	if [ "$got" = "$2" ] && [ "$rc" -eq "$3" ]; then
		ok "$4: $2 (exit $rc)"
	else
		not_ok "$4: $2, exit $3 (got '$got', exit $rc)"
		sed 's/^/#   /' "$tmp/$1.out" "$tmp/$1.err" | tail -n 15
	fi
}

ci clean "$consoles/clean-6.1.192.log"
rc=$?
expect_verdict clean clean 0 "the pristine kernel's recorded console"
if [ -f "$tmp/qemu.0" ] && [ ! -f "$tmp/qemu.1" ] &&
   grep -A1 -x -- -append "$tmp/qemu.0" | grep -q 'panic_on_warn=1 oops=panic'; then
	ok "  one boot, with panic_on_warn=1 oops=panic on its command line"
else
	not_ok "  one boot, with panic_on_warn=1 oops=panic on its command line"
	cat "$tmp"/qemu.* 2>/dev/null | sed 's/^/#   /' | head -n 30
fi
test_expect "  the reason says nothing fired" \
	grep -q 'no WARNING or BUG fired' "$tmp/clean.json"

ci warn "$consoles/warn-panic-6.1.192.log"
rc=$?
expect_verdict warn panicked 1 "a WARNING, then the panic_on_warn panic"

ci init "$tmp/init-exits.log"
rc=$?
expect_verdict init error 1 "/init exited with no report before it: our setup"
test_expect "  the reason says the guest's /init exited" \
	grep -q "the guest's /init exited instead of rebooting" "$tmp/init.json"
done_testing
