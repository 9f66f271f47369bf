#!/usr/bin/env bash
# slow
#
# t0212: `warnwatch ci MSGID` fetches the series with b4 from a real
# public-inbox-httpd on 127.0.0.1 (the archive named in the config, as for
# `warnwatch review`) and gives the verdict.  The series is
# tests/kernel/06-does-not-apply, so the verdict (apply-failed, naming
# patch 2) comes without a kernel build; it needs the imported base tree
# that t0200/t0210 leave in the cache, and imports it itself on a fresh one.
. "$(dirname "$0")/lib.sh"

need_cmd b4 git public-inbox-init public-inbox-mda public-inbox-httpd
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }
[ -f /usr/src/linux-source-6.1.tar.xz ] || skip_all "not-installed: linux-source-6.1 (make deps)"

# The list archives each mail with the list in To:.
mails=$TEST_DIR/mails
mkdir -p "$mails"
"$WW_PYTHON" - "$WW_TOP/tests/kernel/06-does-not-apply/series.mbox" "$mails" <<'PY'
import mailbox, sys
for i, m in enumerate(mailbox.mbox(sys.argv[1])):
    if not m["To"]:
        m["To"] = "test@example.org"
    open("%s/%02d.eml" % (sys.argv[2], i), "wb").write(m.as_bytes())
PY
msgid=$(sed -n 's/^Message-Id: <\(.*\)>$/\1/p' "$WW_TOP/tests/kernel/06-does-not-apply/series.mbox" | head -n 1)

if pi_init test && pi_deliver test "$mails"/*.eml && pi_httpd_start >/dev/null; then
	ok "public-inbox serves the series on $PI_URL"
else
	not_ok "public-inbox serves the series"
	done_testing
	exit 1
fi
cat >"$TEST_DIR/warnwatch.conf" <<CONF
[identity]
name = warnwatch
email = warnwatch@example.org

[archive]
url = $PI_URL/test/
timeout = 60
CONF

"$WARNWATCH" ci "$msgid" --config "$TEST_DIR/warnwatch.conf" --format=json \
	>"$TEST_DIR/verdict.json" 2>"$TEST_DIR/err"
rc=$?
verdict=$("$WW_PYTHON" -c 'import json,sys
try:
    v = json.load(open(sys.argv[1])); print(v["verdict"], v.get("reason", ""))
except Exception: print("none")' "$TEST_DIR/verdict.json")
test_expect "ci <msgid> fetches through b4 and gives apply-failed (exit $rc: $verdict)" \
	test "$rc" -eq 1 -a "${verdict%% *}" = apply-failed
case $verdict in
*"patch 2/2"*) ok "the verdict names patch 2/2" ;;
*) not_ok "the verdict names patch 2/2: $verdict" ;;
esac

"$WARNWATCH" ci "unknown-$$@example.org" --config "$TEST_DIR/warnwatch.conf" \
	>/dev/null 2>"$TEST_DIR/err2"
rc=$?
test_expect "an unknown message-id is exit 2 with one line ($(head -c 120 "$TEST_DIR/err2"))" \
	test "$rc" -eq 2 -a "$(wc -l <"$TEST_DIR/err2")" -eq 1
done_testing
