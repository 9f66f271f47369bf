#!/usr/bin/env bash
#
# t0432: a WARN the series added that fired is never "clean" (issue 40.6).
# `warnwatch ci` for real on the tiny fake kernel tree of t0431 (no
# kernel is built), with a stand-in qemu-system-x86_64 first on PATH that
# prints a recorded console: the series' WARN_ON() fires in a KUnit suite,
# no panic follows (the console lost it, or panic_on_warn was not in
# force), the suite ends and the guest reboots.  Before the fix this was
# `"verdict": "clean"`, exit 0, "no WARNING or BUG fired", with the
# series' own WARN in `fired` and a text saying both "without any
# WARNING" and "fired".
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
need_cmd bwrap tar xz make
tmp=$TEST_DIR
export WARNWATCH_CACHE=$tmp/cache
export XDG_CACHE_HOME=$tmp/xdg-cache

fake_kernel_tree "$tmp" || skip_all "cannot make the fake tarball"

mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
case "$1" in --version) echo "QEMU emulator version 0.0.0 (stand-in)"; exit 0 ;; esac
cat <<'CONSOLE'
Linux version 9.9.1 (warnwatch@sandbox) #1 warnwatch
Command line: console=ttyS0 panic=-1 kunit_shutdown=reboot panic_on_warn=1 oops=panic
KTAP version 1
1..1
    KTAP version 1
    # Subtest: foo_test
    1..1
------------[ cut here ]------------
WARNING: CPU: 0 PID: 20 at ../src/kernel/foo.c:3 foo+0x1/0x2
CPU: 0 PID: 20 Comm: kunit_try_catch Not tainted 9.9.1 #1
RIP: 0010:foo+0x1/0x2
Call Trace:
 <TASK>
 foo_test_run+0x10/0x20
 kunit_try_run_case+0x4b/0x70
 </TASK>
---[ end trace 0000000000000000 ]---
    ok 1 foo_test_run
ok 1 foo_test
reboot: Restarting system
CONSOLE
exit 0
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
export PATH=$tmp/bin:$PATH

cat >"$tmp/foo.mbox" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Jane Hacker <jane@example.org>
To: linux-kernel@vger.kernel.org
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: [PATCH] foo: warn on a bad state
Message-ID: <foo-fired@example.org>

---
diff --git a/kernel/foo.c b/kernel/foo.c
--- a/kernel/foo.c
+++ b/kernel/foo.c
@@ -1,4 +1,5 @@
 int foo(void)
 {
+	WARN_ON(foo_state < 0);
 	return 0;
 }
-- 
2.39.2
EOF

timeout 600 "$WARNWATCH" ci --tree "$tmp/linux-source-9.9.tar.xz" --accel tcg \
	--no-user-space --no-base-boot --no-second-boot --timeout 60 \
	--json-out "$tmp/foo.json" "$tmp/foo.mbox" >"$tmp/foo.out" 2>"$tmp/foo.err"
rc=$?
verdict=$("$WW_PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/foo.json" 2>/dev/null)
if [ "$rc" -eq 1 ] && [ "$verdict" = fired ]; then
	ok "the series' WARN fired without a panic: verdict \"fired\", exit 1"
else
	not_ok "the series' WARN fired without a panic: verdict \"fired\", exit 1 (exit $rc, verdict '$verdict')"
	sed 's/^/#   /' "$tmp/foo.out" "$tmp/foo.err" | tail -n 20
fi
test_expect "  fired lists it as the series' own" "$WW_PYTHON" -c '
import json, sys
v = json.load(open(sys.argv[1]))
f = v["fired"]
assert len(f) == 1 and f[0]["added_by_series"] and f[0]["file"] == "kernel/foo.c", f
' "$tmp/foo.json"
test_expect "  the reason says what fired and that no panic followed" "$WW_PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))["reason"]
assert "no WARNING" not in r and "fired" in r and "did not panic" in r, r
' "$tmp/foo.json"
test_expect "  the text never says \"without any WARNING\"" sh -c "! grep -q 'without any WARNING' '$tmp/foo.out'"
test_expect "  the text says the added WARN_ON() fired" \
	grep -q "the WARN_ON(foo_state < 0) that patch 1/1 adds at kernel/foo.c:3 fired" "$tmp/foo.out"
"$WARNWATCH" review --always --config "$WW_TOP/tests/e2e/data/example.conf" --mbox "$tmp/foo.mbox" \
	--verdict "$tmp/foo.json" >"$tmp/reply.eml" 2>"$tmp/reply.err"
test_expect "the reply does not say that no WARN fired" sh -c "! grep -q 'no WARN or BUG fired' '$tmp/reply.eml'"
test_expect "  it says that one fired" grep -q "a WARN or BUG fired" "$tmp/reply.eml"
done_testing
