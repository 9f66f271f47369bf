#!/usr/bin/env bash
# What a list lets the service mail, through the reply stage that must
# ask (issue 36: quiet hours had tests of the predicate only, and the
# other brakes only a 4-minute test).  One service, one public-inbox-httpd
# with an inbox per list, aiosmtpd as the SMTP server, reply = send:
#   loud     no policy: a patch with a finding is answered at once (the
#            lists below are not simply mute);
#   quiet    quiet-hours around now: drafted, held until they end;
#   embargo  embargo = 2 hours: held for 2 hours after the newest mail;
#   test     the defaults: a conversion alone (positive = no), a lone
#            WARN_ON_ONCE() (min-level = warning) and the kernel test
#            robot's patch (ignore-senders) get no mail, each saying why;
#   none     reply = none, and draft, reply = draft: no mail.
# Exactly one mail goes out; the negative checks come after wait_idle.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
REPLAY=$WW_TOP/tests/e2e/data/serve-replay
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

for l in loud quiet embargo test none draft; do
	pi_init "$l" || { echo "Bail out! public-inbox-init $l failed"; exit 1; }
done
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }

# Quiet from an hour ago to two hours from now, in the service's local time.
# The quiet hours end at the minute `to` names: `end`, in epoch seconds
# (what the service must hold the reply until, however long the run takes).
hhmm() { date -d "@$1" +%H:%M; }
now=$(date +%s)
from=$(hhmm $((now - 3600)))
to=$(hhmm $((now + 7200)))
end=$((now + 7200 - (now + 7200) % 60))

list() {	# list NAME [KEY = VALUE...]: a [list.NAME] replying to its own address
	local n=$1
	shift
	printf '\n[list.%s]\narchive = %s\ninbox = %s\naddress = %s@example.org\n' \
		"$n" "$PI_URL" "$n" "$n"
	printf 'boot = no\nreply = send\nreply-to = both\n'
	printf '%s\n' "$@"
}
{
	conf_serve_head "$STATE" "$SMTP_URL"
	cat <<EOC
[review]
contact = Test Maintainer <maint@example.org>

[serve]
listen = off
poll-interval = 1
settle = 1
max-sleep = 1
retry-base = 1
EOC
	list loud
	list quiet "quiet-hours = $from-$to"
	list embargo "embargo = 2"
	list test
	list none "reply = none"
	list draft "reply = draft"
} >"$CONF"

"$WARNWATCH" serve --config "$CONF" --verbose >"$TEST_DIR/serve.log" 2>&1 &
SERVE_PID=$!
ww_track "$SERVE_PID" warnwatch-serve
test_expect "the service polls the six lists" wait_for 60 polled_once

# The same patch (a BUG_ON(), one finding) to each list, its own Message-ID.
net() {	# net LIST: the patch, Cc: LIST, as <LIST-net@example.org>
	sed -e "s/^Cc: test@example.org/Cc: $1@example.org/" \
	    -e "s/^Message-ID: <.*>/Message-ID: <$1-net@example.org>/" \
		"$WW_TOP/tests/e2e/data/allow-paths/02-net.eml" >"$TEST_DIR/$1.eml"
	pi_deliver "$1" "$TEST_DIR/$1.eml"
}
for l in loud quiet embargo none draft; do
	net "$l"
done
pi_deliver test "$REPLAY/credit-0.eml" "$REPLAY/once-0.eml" "$REPLAY/bot-1.eml"

# Settled: replied, skipped, or held by a policy (then a check that fails
# fails at once, not after the longest wait).
settled() {
	local m
	for m in "$@"; do
		case $(series_field "$m" state):$(series_field "$m" reply) in
		replied:*|skipped:*|*:held*) ;;
		*) return 1 ;;
		esac
	done
}
ALL="loud-net@example.org quiet-net@example.org embargo-net@example.org none-net@example.org
draft-net@example.org credit-0@example.org once-0@example.org bot-1@example.org"
# shellcheck disable=SC2086
test_expect "every series is answered, held or done" wait_for 180 settled $ALL
test_expect "the service is idle (polled since, nothing due but the held)" wait_idle 60

is_reply() {	# is_reply MSGID WANT NAME
	local got
	got=$(series_field "$1" reply)
	case $got in
	$2) ok "$3" ;;
	*) not_ok "$3: '$got'" ;;
	esac
}
is_reply loud-net@example.org "sent <*> to nora@example.org, loud@example.org" \
	"loud: answered"
test_expect "  one mail to it" test "$(replies_to loud-net@example.org)" -eq 1
is_reply quiet-net@example.org "held until $to (quiet hours)" "quiet: held until $to"
next_at=$(series_field quiet-net@example.org next_at)
test_expect "  due when the quiet hours end, not before" \
	test "${next_at:-0}" -ge "$end" -a "${next_at:-0}" -le "$((end + 60))"
is_reply embargo-net@example.org "held for 2 hours after the newest mail (embargo: people first)" \
	"embargo: held for 2 hours"
is_reply credit-0@example.org "none: no issue, only thanks (positive = no)" \
	"positive = no: a conversion alone gets no thank-you mail"
is_reply once-0@example.org "none: only info-level notes, with no evidence (min-level = warning)" \
	"min-level = warning: a lone WARN_ON_ONCE() gets no mail"
is_reply bot-1@example.org "none: the author is in ignore-senders" \
	"ignore-senders: the kernel test robot's patch is not answered"
is_reply none-net@example.org "none: replies are off for this list" "reply = none: no mail"
is_reply draft-net@example.org "drafted" "reply = draft: drafted"
test_expect "  its draft is kept" test -s "$STATE/series/$(series_field draft-net@example.org id)/reply.eml"
test_expect "one mail in all" test "$(maildir_count)" -eq 1

grep -E 'warnwatch serve: series' "$TEST_DIR/serve.log" | sed 's/^/# /' | head -n 30
done_testing
