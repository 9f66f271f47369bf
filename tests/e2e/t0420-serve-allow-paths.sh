#!/usr/bin/env bash
# [list] allow-paths against a patch that tries to look like it touches an
# allowed directory (issue 22, finding 6), end to end on loopback: a real
# public-inbox-httpd archive, aiosmtpd as the SMTP server, and the service
# with `allow-paths = drivers/net/` and `reply = send`.
#   - an mm/ patch whose hunk adds the line "++ b/drivers/net/x.c" (with the
#     diff's '+' in front: "+++ b/drivers/net/x.c") is drafted, not sent,
#     and its state says why;
#   - a real drivers/net/ patch is sent, so the list is not simply mute.
# Touched paths come from the parsed diff, not from lines that look like
# file headers.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

DATA=$WW_TOP/tests/e2e/data/allow-paths
CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

MM=20240507100000.5000-1-mallory@example.org
NET=20240507110000.6000-1-nora@example.org


pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }

HTTP_PORT=$(free_port)
{
	conf_serve_head "$STATE" "$SMTP_URL"
	cat <<EOC
[review]
contact = Test Maintainer <maint@example.org>

[serve]
listen = 127.0.0.1:$HTTP_PORT
poll-interval = 1
settle = 1
max-sleep = 1
retry-base = 1

[list.test]
archive = $PI_URL
inbox = test
address = test@example.org
boot = no
reply = send
# Pacing (one mail per author per hour) is t0309's: not what this measures.
pace = 0
reply-to = both
allow-paths = drivers/net/
EOC
} >"$CONF"

# The serve poll starts at the newest message: deliver after it watches.
"$WARNWATCH" serve --config "$CONF" --verbose >"$TEST_DIR/serve.log" 2>&1 &
SERVE_PID=$!
ww_track "$SERVE_PID" warnwatch-serve
if wait_port "$HTTP_PORT" 100 && wait_for 30 grep -q 'watching' "$TEST_DIR/serve.log"; then
	ok "the service starts"
else
	not_ok "the service starts"
	sed 's/^/#   /' "$TEST_DIR/serve.log"
fi
wait_for 30 polled_once

pi_deliver test "$DATA/01-mm-smuggled.eml" "$DATA/02-net.eml"

test_expect "the mm/ patch is done" wait_for 90 series_is "$MM" replied
test_expect "the drivers/net/ patch is done" wait_for 60 series_is "$NET" replied
reply=$(series_field "$MM" reply)
test_expect "the mm/ patch: drafted, not sent, and why ($reply)" \
	test "$reply" = "drafted, not sent: the series touches nothing in allow-paths"
case $(series_field "$NET" reply) in
sent*) ok "the drivers/net/ patch: sent" ;;
*) not_ok "the drivers/net/ patch: sent ($(series_field "$NET" reply))" ;;
esac
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
test_expect "no mail answers the mm/ patch" test "$(replies_to "$MM")" -eq 0
test_expect "one mail answers the drivers/net/ patch" test "$(replies_to "$NET")" -eq 1
test_expect "one mail in all" test "$(maildir_count)" -eq 1

grep -E 'warnwatch serve: series' "$TEST_DIR/serve.log" | sed 's/^/# /' | head -n 20
done_testing
