#!/usr/bin/env bash
# What a list owner sees (issue 38.5, 38.7), end to end on loopback:
# public-inbox-httpd -> serve -> aiosmtpd, configured as
# docs/serve.conf.example is (the list's tree a linux-source tarball).
#   - a [PATCHBLIZZARD v7] letter above two sets (a [PATCHSET v7 1/2] and
#     a [PATCH v7 0/1]): the letter is skipped once as a cover of
#     patchsets naming its Message-ID, b4 am never run on it;
#   - a [PATCH] with no diff: skipped once, "no patches", a real
#     Message-ID;
#   - the two sets, one author, each with a BUG_ON(): with pace = 40s the
#     second reply is held ("held: pace") and sent at least 20 s after
#     the first, never lost;
#   - status: the outcomes (answered 2, skipped 2), exit 0, no warning per
#     series about the tarball, said once as info.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "python3-aiosmtpd is not installed (make deps)"
TARBALL=/usr/src/linux-source-6.1.tar.xz
[ -r "$TARBALL" ] || skip_all "no $TARBALL (the example configuration's tree)"

CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
MAILS=$TEST_DIR/mails
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache
# The coding-style.rst taken from the tarball, when the shared cache has
# it already (else extracted here, about 15 s).
[ -d "$HOME/.cache/warnwatch/guide" ] && mkdir -p "$WARNWATCH_CACHE" &&
	cp -r "$HOME/.cache/warnwatch/guide" "$WARNWATCH_CACHE/"

mkdir -p "$MAILS"
FROM="Darrick Wong <djwong@example.org>"
list_mail z0 bliz-0@x "" "[PATCHBLIZZARD v7] fuse: iomap, caching and more" "Two sets here."
list_mail z1 bset1-0@x bliz-0@x "[PATCHSET v7 1/2] fuse: cache iomap mappings" "The cache."
list_mail z2 bset1-1@x bset1-0@x "[PATCH 1/1] fuse: cache iomaps" \
	"$(list_patch fusecache 'BUG_ON(!inode);' 'Cache them.')"
list_mail z3 bset2-0@x bliz-0@x "[PATCH v7 0/1] fuse: direct io" "Direct io."
list_mail z4 bset2-1@x bset2-0@x "[PATCH v7 1/1] fuse: direct io reads" \
	"$(list_patch fusedio 'BUG_ON(!inode->i_mapping);' 'Read directly.')"
FROM="Ann Dev <ann@example.org>"
list_mail q0 nodiff-0@x "" "[PATCH] ext4: is this the right way?" "Only a question, no diff."

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
{
	conf_serve_head "$STATE" "$SMTP_URL"
	cat <<EOT
[serve]
listen = off
poll-interval = 1
max-wait = 10
max-sleep = 1
retry-base = 1

[list.test]
archive = $PI_URL
inbox = test
address = test@example.org
tree = $TARBALL
boot = no
reply = send
reply-to = both
pace = 40s
EOT
} >"$CONF"

"$WARNWATCH" serve --config "$CONF" --verbose >"$TEST_DIR/serve.log" 2>&1 &
SERVE_PID=$!
ww_track "$SERVE_PID" warnwatch-serve
wait_for 20 test -s "$STATE/warnwatch.db"
sleep 2
pi_deliver test "$MAILS"/z0 "$MAILS"/z1 "$MAILS"/z2 "$MAILS"/z3 "$MAILS"/z4 "$MAILS"/q0

# ---- 38.7: pacing -----------------------------------------------------------
test_expect "one set is answered" wait_for 120 sh -c '[ "$(ls "'"$MAILDIR"'/new" | wc -l)" -ge 1 ]'
test_expect "38.7: the other set's reply is sent when the pace allows, not lost" \
	wait_for 90 sh -c '[ "$(ls "'"$MAILDIR"'/new" | wc -l)" -ge 2 ]'
status_json | grep -q '"held: pace (one mail per author per 40 s' &&
	ok "38.7: it was held by the pace (the event log says so)" ||
	not_ok "38.7: it was held by the pace (the event log says so)"
set -- "$MAILDIR"/new/*
gap=$(( $(stat -c %Y "$2") - $(stat -c %Y "$1") ))
gap=${gap#-}
[ "$gap" -ge 39 ] && ok "38.7: 40 s apart at least ($gap s)" || not_ok "38.7: 40 s apart at least ($gap s)"
[ "$(replies_to bset1-0@x)$(replies_to bset1-1@x)" != 00 ] &&
	[ "$(replies_to bset2-0@x)$(replies_to bset2-1@x)" != 00 ] &&
	ok "  one to each set" || not_ok "  one to each set"

# ---- 38.5: covers of covers, no patches, states ------------------------------
test_expect "38.5: the [PATCHBLIZZARD] letter is set aside" wait_for 60 series_is bliz-0@x skipped
test_expect "38.5: the [PATCH] without a diff is set aside" wait_for 60 series_is nodiff-0@x skipped
sleep 2	# anything sent twice would be in by now
why=$(series_field bliz-0@x error)
case $why in
"a cover of patchsets (<bliz-0@x>): each set under it is a series of its own")
	ok "  recognised: $why" ;;
*) not_ok "  recognised as a cover of patchsets: $why" ;;
esac
[ "$(series_field bliz-0@x b4_runs)" -le 1 ] && ok "  b4 at most once for it" ||
	not_ok "  b4 at most once for it: $(series_field bliz-0@x b4_runs)"
why=$(series_field nodiff-0@x error)
case $why in
*"<nodiff-0@x>"*) ok "  no patches, naming the Message-ID: $why" ;;
*) not_ok "  no patches, naming the Message-ID: $why" ;;
esac
[ "$(series_field nodiff-0@x b4_runs)" = 1 ] && ok "  b4 once for it, not max-attempts times" ||
	not_ok "  b4 once for it: $(series_field nodiff-0@x b4_runs)"
n=$(maildir_count)
[ "$n" = 2 ] && ok "two replies in all" || not_ok "two replies in all: $n"
out=$("$WARNWATCH" status --config "$CONF" 2>&1); rc=$?
[ "$rc" = 0 ] && ok "status exits 0: nothing needs an operator" || not_ok "status exits 0: $rc"
echo "$out" | grep -q "^outcomes: answered 2, skipped 2$" && ok "status: answered 2, skipped 2" ||
	not_ok "status: the outcomes: $(echo "$out" | grep '^outcomes')"
echo "$out" | grep -q "answered: sent <" && ok "  each answered series says so" ||
	not_ok "  each answered series says so"
status_json | "$WW_PYTHON" -c '
import json, sys
st = json.load(sys.stdin)
print(st["outcomes"]["answered"], st["outcomes"]["skipped"], st["outcomes"]["failed"])' >"$TEST_DIR/oc"
[ "$(cat "$TEST_DIR/oc")" = "2 2 0" ] && ok "status.json: outcomes counted" ||
	not_ok "status.json: outcomes counted: $(cat "$TEST_DIR/oc")"
# ---- one warning per cause ----------------------------------------------------
ev=$(status_json | "$WW_PYTHON" -c '
import json, sys
ev = json.load(sys.stdin)["events"]
warn = [e for e in ev if e["level"] == "warn" and "linux-source" in e["message"]]
info = [e for e in ev if "is a tarball" in e["message"]]
print(len(warn), len(info))')
[ "$ev" = "0 1" ] && ok "the tarball tree: no warning per series, said once (info)" ||
	not_ok "the tarball tree: warnings, info: $ev"

if [ "$tap_failed" -gt 0 ]; then
	tail -n 40 "$TEST_DIR/serve.log" | sed 's/^/#   /'
fi
kill -TERM "$SERVE_PID"
wait_for 20 sh -c "! kill -0 $SERVE_PID"
done_testing
