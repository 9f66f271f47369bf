#!/usr/bin/env bash
# What a list owner reads on later versions and guarded calls (issue 38:
# items 1, 2 and 4), end to end on loopback: public-inbox-httpd, aiosmtpd
# relaying the replies back into the inbox, and the service.
#   - foo v1 adds two WARN_ON()s and is answered; a reviewer then asks a
#     question under one of them; v2 keeps both and adds a BUG_ON(): its
#     reply objects to the BUG_ON(), quotes the other WARN_ON()'s one line
#     and names it with a link to v1's review, and says the questioned one
#     again; v3 changes nothing: a short mail, each call's line and one
#     sentence (a reply calling it wrong quotes it there);
#   - a fuse patch whose BAD_DATA() only WARNs under CONFIG_FUSE_IOMAP_DEBUG
#     and a WARN_ON(1) in a default: nothing to say, no mail;
#   - bar: a maintainer quotes the whole patch to discuss the design: that
#     is no point about its BUG_ON(), which is objected to.
# Data: tests/e2e/data/serve-versions/.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "python3-aiosmtpd is not installed (make deps)"

DATA=$WW_TOP/tests/e2e/data/serve-versions
CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

F1=20240601100000.1-1-jane@example.org
F2=20240601120000.1-1-jane@example.org
F3=20240601140000.1-1-jane@example.org
FUSE=20240601102000.3-1-darrick@example.org
BAR=20240601103000.4-1-jane@example.org

# ---- check alone: the guard and the marker in findings.json -------------------------
"$WARNWATCH" check --format=json "$DATA/05-fuse.eml" >"$TEST_DIR/fuse.json" 2>/dev/null
test_expect "check: BAD_DATA() is debug-only under CONFIG_FUSE_IOMAP_DEBUG, WARN_ON(1) a marker" \
	"$WW_PYTHON" -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
d = [x for x in f if x["kind"] == "define"]
u = [x for x in f if x["kind"] == "added"]
assert len(d) == 1 and d[0]["class"] == "debug-only" and d[0]["severity"] == "info", d
assert d[0]["guard"] == {"kind": "config", "name": "CONFIG_FUSE_IOMAP_DEBUG"}, d
assert "every use" not in d[0]["message"].lower(), d
assert len(u) == 1 and u[0].get("unreachable") and u[0]["severity"] == "info", u
' "$TEST_DIR/fuse.json"

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
relay_start

serve_test_conf
serve_test_start

# ---- v1, the fuse patch, bar with the maintainer's whole-patch quote ------------------
pi_deliver test "$DATA/01-foo-v1.eml" "$DATA/05-fuse.eml" "$DATA/06-bar.eml" "$DATA/07-bar-design.eml"
test_expect "foo v1 answered" wait_for 90 has_reply_to "$F1"
f1=$(reply_file "$F1")
f1_id=$(mail_header "$f1" Message-ID | tr -d '<>')
test_expect "  on both WARN_ON()s" sh -c "grep -q 'WARN_ON(a->len > 4096)' '$f1' && grep -q 'WARN_ON(!a->buf)' '$f1'"
test_expect "bar answered: a whole patch quoted for the design is no point made" wait_for 60 has_reply_to "$BAR"
test_expect "  its reply objects to the BUG_ON()" grep -q 'BUG_ON(!bd->bus)' "$(reply_file "$BAR")"
test_expect "the fuse patch is done" wait_for 60 series_is "$FUSE" replied
test_expect "  with nothing to say: debug-only BAD_DATA(), WARN_ON(1) in a default:" \
	test "$(series_field "$FUSE" reply)" = "none: nothing to say"

# ---- a question under one WARN_ON() of v1, then v2 -----------------------------------
test_expect "v1's review reached the archive" wait_for 30 curl -sf "$PI_URL/test/$f1_id/raw" -o /dev/null
pi_deliver test "$DATA/02-foo-v1-question.eml"
sleep 1
pi_deliver test "$DATA/03-foo-v2.eml"
test_expect "foo v2 answered" wait_for 90 has_reply_to "$F2"
f2=$(reply_file "$F2")
test_expect "  on the new BUG_ON()" grep -q 'BUG_ON(!a)' "$f2"
test_expect "  naming the unchanged WARN_ON() in one line with v1's review" \
	grep -qF "The WARN_ON() at drivers/foo/foo.c:102 in foo_read() that v1's review commented on is unchanged ($PI_URL/test/$f1_id/)." \
	<(tr '\n' ' ' <"$f2" | sed 's/  */ /g')
test_expect "  quoting its one added line, not its hunk again" \
	sh -c "[ \$(grep -c 'WARN_ON(a->len > 4096)' '$f2') = 1 ] && grep -qxF '> +	WARN_ON(a->len > 4096);' '$f2'"
test_expect "  and saying again the one a reviewer asked about" grep -q 'WARN_ON(!a->buf)' "$f2"

# ---- v3 changes nothing: one line per point, no comment made again -----------------
f2_id=$(mail_header "$f2" Message-ID | tr -d '<>')
test_expect "v2's review reached the archive" wait_for 30 curl -sf "$PI_URL/test/$f2_id/raw" -o /dev/null
pi_deliver test "$DATA/04-foo-v3.eml"
test_expect "foo v3 answered" wait_for 90 has_reply_to "$F3"
f3=$(reply_file "$F3")
test_expect "  saying nothing is new" \
	grep -qF "leaves unchanged what the review of its earlier version commented on:" \
	<(tr '\n' ' ' <"$f3" | sed 's/  */ /g')
test_expect "  naming the BUG_ON() in one line with v2's review" \
	grep -qF "The BUG_ON() at drivers/foo/foo.c:144 in foo_write() that v2's review commented on is unchanged ($PI_URL/test/$f2_id/)." \
	<(tr '\n' ' ' <"$f3" | sed 's/  */ /g')
test_expect "  quoting each call's one added line, no hunk again" \
	sh -c "[ \$(grep -cE '^> .*(BUG_ON|WARN_ON)\\(' '$f3') = 3 ] && ! grep -qE '^> .*foo_(lock|put)' '$f3'"
test_expect "no reply to the fuse patch" test "$(replies_to "$FUSE")" = 0
test_expect "four replies in all" test "$(maildir_files | xargs grep -l '^From: warnwatch test bot' | wc -l)" -eq 4

kill -TERM "$SERVE_PID"
wait_for 15 sh -c "! kill -0 $SERVE_PID"
relay_stop
grep -E 'warnwatch serve: (series|test)|left out|unchanged|feedback' "$TEST_DIR/serve.log" | sed 's/^/# /' | head -n 40
done_testing
