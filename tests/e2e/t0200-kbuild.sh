#!/usr/bin/env bash
# slow
#
# t0200: `warnwatch kbuild` on the real linux-source-6.1: import the tarball
# into the cache (once), build the base, rebuild after no change and after a
# one-file patch (incrementally), and the failures that are verdicts: a
# patch that does not apply, a compiler error, the WARN_ON that breaks the
# x86 boot decompressor, and a Makefile that tries the network or writes
# outside the build directory (the sandbox must stop both, and say so).
# The first run on a fresh machine pays the import and a full build (about
# 8-10 minutes on 2 cores); t0210 reuses the warm build directory.
set -u
top=${WW_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 2
: "${WARNWATCH:=$top/build/warnwatch}"
cache=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}
export WARNWATCH_CACHE=$cache
out=$top/tests/out/kbuild
mkdir -p "$out"
tmp=$(mktemp -d /tmp/t0200.XXXXXX)
listener=
n=0

cleanup() {
	[ -n "$listener" ] && kill "$listener" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); echo "not ok $n - $1"; shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() {	# check NAME COND-EXIT-STATUS [DIAGNOSTIC...]
	local name=$1 st=$2; shift 2
	if [ "$st" -eq 0 ]; then ok "$name"; else not_ok "$name" "$@"; fi
}

skip_all=
if [ ! -f /usr/src/linux-source-6.1.tar.xz ]; then
	skip_all="not-installed: linux-source-6.1"
elif ! command -v bwrap >/dev/null; then
	skip_all="not-installed: bubblewrap"
elif ! bwrap --unshare-all --ro-bind / / true 2>"$tmp/bwrap.err"; then
	skip_all="no-namespaces: bwrap cannot create a sandbox here: $(head -1 "$tmp/bwrap.err")"
fi
if [ -n "$skip_all" ]; then
	echo "1..1"
	echo "ok 1 - kbuild # SKIP $skip_all"
	exit 0
fi

# kbuild NAME [ARGS...]: run with --format=json, keep the JSON, stderr and
# status in $out/NAME.*; NAME.out gets the bzImage path, NAME.err the error.
# The seconds are warnwatch's own (apply + config + build), not the time
# spent waiting for another run's lock on the tree.
kbuild() {
	local name=$1; shift
	"$WARNWATCH" kbuild --format=json "$@" >"$out/$name.json" 2>"$out/$name.stderr"
	echo $? >"$out/$name.status"
	python3 - "$out/$name" <<'EOF'
import json, sys
base = sys.argv[1]
try:
    j = json.load(open(base + ".json"))
except Exception:
    j = {}
open(base + ".out", "w").write((j.get("bzimage") or "") + "\n")
open(base + ".err", "w").write((j.get("error") or "") + "\n" + open(base + ".stderr").read())
t = sum(j.get(k) or 0 for k in ("apply_seconds", "config_seconds", "build_seconds"))
open(base + ".seconds", "w").write("%.1f\n" % t)
EOF
}
status() { cat "$out/$1.status"; }
secs() { cat "$out/$1.seconds"; }
err() { head -c 2000 "$out/$1.err"; }
# faster_than NAME SECONDS: did NAME take less?
faster_than() { awk -v s="$(secs "$1")" -v m="$2" 'BEGIN { exit !(s + 0 < m + 0) }'; }

# A unified diff of FILE (path in the tree) from base to NEWFILE.
base_file() {
	git --git-dir="$cache/git/linux-6.1.192.git" show "v6.1.192:$1"
}
mkpatch() {
	local path=$1 new=$2
	base_file "$path" >"$tmp/old"
	diff -u --label "a/$path" --label "b/$path" "$tmp/old" "$new"
}

# 1. The base: the first build on a fresh machine.
kbuild base
bz=$(head -1 "$out/base.out")
[ "$(status base)" = 0 ] && [ -f "$bz" ]
check "the base builds: $bz" $? "status $(status base)" "$(err base)"
echo "# base build (import and first build when the cache is cold): $(secs base) s"

# 2. Nothing changed: make walks the tree and relinks nothing.
kbuild noop
[ "$(status noop)" = 0 ] && [ "$(head -1 "$out/noop.out")" = "$bz" ]
check "a rebuild without changes succeeds in the same directory" $? "$(err noop)"
faster_than noop 150; st=$?	# (before a $(...) resets $?) a full rebuild takes 7+ min
check "... incrementally ($(secs noop) s)" $st "$(cat "$out/noop.json")"

# 3. A one-file patch: the WARN_ON of tests/kernel/01-warn-fires.
base_file kernel/time/timeconv.c >"$tmp/timeconv.c"
sed -i 's/^\tint remainder;$/\tint remainder;\n\n\tWARN_ON(totalsecs < 0);/' "$tmp/timeconv.c"
mkpatch kernel/time/timeconv.c "$tmp/timeconv.c" >"$tmp/warn.patch"
before=$(stat -c %Y "$bz")
sleep 1
kbuild onefile "$tmp/warn.patch"
[ "$(status onefile)" = 0 ] && [ "$(stat -c %Y "$bz")" -gt "$before" ]
check "a one-file patch (a plain diff -u) builds a new bzImage" $? "$(err onefile)"
faster_than onefile 240; st=$?
check "... incrementally ($(secs onefile) s)" $st "$(cat "$out/onefile.json")"
"$WARNWATCH" kbuild --dry-run --format=json "$tmp/warn.patch" >"$out/plan.json" 2>"$out/plan.err"
python3 - "$out/plan.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
ok = (j["verdict"] == "planned" and "time_test_cases" in j["suites"]
      and j["base_config"] and j["touched"] == ["kernel/time/timeconv.c"])
sys.exit(0 if ok else 1)
EOF
check "--dry-run --format=json names the suites near the patch (time_test_cases)" $? \
	"$(head -c 600 "$out/plan.json")"

# 4. Apply failures are verdicts, with patch, file and hunk.
sed 's/^ \tint remainder;$/ \tint remainder_changed;/' "$tmp/warn.patch" >"$tmp/noapply.patch"
kbuild noapply "$tmp/noapply.patch"
[ "$(status noapply)" = 1 ] && grep -q "the patch does not apply to linux 6.1.192: kernel/time/timeconv.c: hunk 1 (@@ -52,6 +52,8 @@): context does not match" "$out/noapply.err"
check "a patch that does not apply: exit 1, file and hunk named" $? "status $(status noapply)" "$(err noapply)"

cat >"$tmp/symlink.patch" <<'EOF'
diff --git a/kernel/time/evil b/kernel/time/evil
new file mode 120000
--- /dev/null
+++ b/kernel/time/evil
@@ -0,0 +1 @@
+../../../../../../etc/shadow
\ No newline at end of file
EOF
kbuild symlink "$tmp/symlink.patch"
[ "$(status symlink)" = 1 ] && grep -q "symlink 'kernel/time/evil' points outside the tree" "$out/symlink.err"
check "a symlink out of the tree is refused" $? "$(err symlink)"

# 5. A compiler error is quoted as file:line:col.
sed 's/WARN_ON(totalsecs < 0);/WARN_ON(totalsecs < no_such_variable);/' "$tmp/timeconv.c" >"$tmp/syntax.c"
mkpatch kernel/time/timeconv.c "$tmp/syntax.c" >"$tmp/syntax.patch"
kbuild syntax "$tmp/syntax.patch"
# One line on stderr: the compiler's lines come from the patch, so they
# are quoted C-style (\n between them) like every patch-controlled text.
[ "$(status syntax)" = 1 ] && [ "$(wc -l <"$out/syntax.err")" -le 1 ] &&
	grep -q "kernel/time/timeconv.c:55:[0-9]*: error: .*no_such_variable.* undeclared" "$out/syntax.err"
check "a compiler error: exit 1, 'kernel/time/timeconv.c:55:N: error: ...' quoted" $? "$(err syntax)"

# 6. The real 6.1 failure: a WARN_ON in code the boot decompressor includes.
base_file lib/cmdline.c >"$tmp/cmdline.c"
python3 - "$tmp/cmdline.c" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
old = "char *get_options(const char *str, int nints, int *ints)\n{\n"
assert old in s
i = s.index(old)
j = s.index("\n\n", i) + 1	# after the declarations
s = s[:j] + "\tif (WARN_ON(nints < 0))\n\t\treturn (char *)str;\n\n" + s[j:]
open(p, "w").write(s)
EOF
mkpatch lib/cmdline.c "$tmp/cmdline.c" >"$tmp/cmdline.patch"
kbuild decompressor "$tmp/cmdline.patch"
[ "$(status decompressor)" = 1 ] &&
	grep -q "Unexpected file size" "$out/decompressor.err" &&
	grep -q "lib/cmdline.c is also compiled into the x86 boot decompressor" "$out/decompressor.err"
check "WARN_ON in lib/cmdline.c: build-failed, the decompressor named" $? "$(err decompressor)"

# 7. The sandbox: no network, nothing writable outside the build directory.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$port" "$tmp/connections" <<'EOF' &
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(5)
open(sys.argv[2] + ".ready", "w").close()
s.settimeout(1)
deadline = time.time() + 900
while time.time() < deadline:
    try:
        c, a = s.accept()
    except socket.timeout:
        continue
    open(sys.argv[2], "a").write("connection from %s\n" % (a,))
    c.close()
EOF
listener=$!
# Listening (the kernel queues connections from then on), not a sleep:
# then no connection from the sandbox means it could not connect.
for ((i = 0; i < 150; i++)); do
	[ -e "$tmp/connections.ready" ] && break
	sleep 0.2
done
base_file kernel/time/Makefile >"$tmp/Makefile.net"
cat >>"$tmp/Makefile.net" <<EOF

\$(obj)/timeconv.o: \$(obj)/ww-net-probe
\$(obj)/ww-net-probe: FORCE
	bash -c 'exec 3<>/dev/tcp/127.0.0.1/$port' && touch \$@
EOF
mkpatch kernel/time/Makefile "$tmp/Makefile.net" >"$tmp/net.patch"
kbuild net "$tmp/net.patch"
# Our own connection, accepted after any the build made (one listener,
# first come first accepted): once it is logged, the log is complete.
bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null
for ((i = 0; i < 150; i++)); do
	[ -s "$tmp/connections" ] && break
	sleep 0.2
done
[ "$(status net)" = 1 ] && grep -q "without network" "$out/net.err" &&
	[ "$(wc -l <"$tmp/connections" 2>/dev/null)" = 1 ]
check "a Makefile rule connecting to 127.0.0.1:$port fails in the sandbox, and says so" $? \
	"status $(status net)" "$(err net)" "listener: $(cat "$tmp/connections" 2>/dev/null)"

rm -f /tmp/ww-t0200-outside
base_file kernel/time/Makefile >"$tmp/Makefile.write"
cat >>"$tmp/Makefile.write" <<'EOF'

$(obj)/timeconv.o: $(obj)/ww-write-probe
$(obj)/ww-write-probe: FORCE
	echo owned > /tmp/ww-t0200-outside && touch $@
EOF
mkpatch kernel/time/Makefile "$tmp/Makefile.write" >"$tmp/write.patch"
kbuild write "$tmp/write.patch"
[ "$(status write)" = 1 ] && grep -q "Read-only file system" "$out/write.err" &&
	grep -q "only the build directory is writable" "$out/write.err" &&
	[ ! -e /tmp/ww-t0200-outside ]
check "a Makefile rule writing /tmp/ww-t0200-outside fails in the sandbox, and says so" $? \
	"status $(status write)" "$(err write)"

base_file kernel/time/Makefile >"$tmp/Makefile.src"
cat >>"$tmp/Makefile.src" <<'EOF'

$(obj)/timeconv.o: $(obj)/ww-src-probe
$(obj)/ww-src-probe: FORCE
	touch $(srctree)/ww-written && touch $@
EOF
mkpatch kernel/time/Makefile "$tmp/Makefile.src" >"$tmp/src.patch"
kbuild src "$tmp/src.patch"
[ "$(status src)" = 1 ] && grep -q "Read-only file system" "$out/src.err" &&
	[ ! -e "$cache/work/6.1.192/ww-written" ]
check "... and writing into the source tree fails too" $? "$(err src)"

# Leave the tree and the build at the base for whoever comes next.
kbuild restore
check "back to the base" "$(status restore)" "$(err restore)"

echo "# timings: base $(secs base) s, no-op $(secs noop) s, one file $(secs onefile) s"
echo "1..$n"
