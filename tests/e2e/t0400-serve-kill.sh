#!/usr/bin/env bash
# slow
#
# t0400: the service killed with SIGKILL at random points, over and over,
# while 30 patch series arrive and it works through them (a real public-inbox-httpd, a
# real SMTP server, both on loopback; replies relayed back into the inbox
# as a list archives them).  The kill times come from a seeded generator
# (WW_FAULT_SEED, default 4242), so a failing run can be replayed; a
# quarter of the kills land at the two worst moments for exactly-once
# sending instead (WARNWATCH_TEST_KILL_AT=before-smtp / after-smtp).
# Then one last run finishes the work, and: no series lost, none answered
# twice, one reply per series with a finding and none for the clean ones,
# the store agreeing.  Check-only (boot = no).
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"
. "$(dirname "$0")/fault-lib.sh"
# b4's working directories belong under $WARNWATCH_CACHE/b4-tmp, never in
# the system temporary directory: a private one shows any that escape.
export TMPDIR=$TEST_DIR/tmp
mkdir -p "$TMPDIR"

SERIES=30
KILLS=${WW_FAULT_KILLS:-24}

lists_start
make_series "$SERIES" 3
write_conf "$PI_URL" "$SMTP_URL"

start_serve
if wait_for 30 primed; then
	ok "the service primed the list"
else
	not_ok "the service primed the list"
	tail -n 20 "$SERVE_LOG" | sed 's/^/#   /'
fi
kill9_serve

# ---- the kills ---------------------------------------------------------------

RANDOM=$FAULT_SEED
killed=0 selfkilled=0 states=""
# Mail keeps arriving while the service crashes: three waves of ten
# (public-inbox's feed shows the newest 25; t0401 is about bursts).
wave() {
	local from=$1 i
	for ((i = from; i < from + 10 && i < SERIES; i++)); do
		pi_deliver test "$(printf '%s/%03d.eml' "$SERIES_DIR" "$i")"
	done
}
for ((k = 1; k <= KILLS; k++)); do
	case $k in
	1) wave 0 ;;
	8) wave 10 ;;
	15) wave 20 ;;
	esac
	r=$((RANDOM % 100))
	if [ "$r" -lt 12 ]; then
		start_serve WARNWATCH_TEST_KILL_AT=before-smtp
	elif [ "$r" -lt 25 ]; then
		start_serve WARNWATCH_TEST_KILL_AT=after-smtp
	else
		start_serve
	fi
	# 0.3 to 4 s of work, then SIGKILL (if a kill point did not come first).
	ms=$((300 + RANDOM % 3700))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
	if kill -0 "$SERVE_PID" 2>/dev/null; then
		kill9_serve
		killed=$((killed + 1))
	else
		wait "$SERVE_PID" 2>/dev/null
		selfkilled=$((selfkilled + 1))
	fi
	states="$states $(db "SELECT state || ':' || count(*) FROM queue_series GROUP BY state" 2>/dev/null | tr '\n' ' ')"
done
diag "seed $FAULT_SEED: $killed kill -9 from outside, $selfkilled at a kill point"
diag "replies so far: $(maildir_count)"
# Each series' message is in the archive, as public-inbox-httpd serves it.
in_archive=0
while read -r mid _; do
	curl -sf -o /dev/null "$PI_URL/test/$mid/raw" && in_archive=$((in_archive + 1))
done <"$SERIES_DIR/list"
if [ "$in_archive" -eq "$SERIES" ]; then
	ok "$SERIES series delivered to the archive in three waves"
else
	not_ok "$in_archive of $SERIES series in the archive after the three waves"
fi
if [ $((killed + selfkilled)) -ge 20 ]; then
	ok "the service died $((killed + selfkilled)) times by SIGKILL ($killed from outside, $selfkilled at a kill point)"
else
	not_ok "only $((killed + selfkilled)) kills"
fi

# ---- one last run finishes the work ------------------------------------------

start_serve
if wait_for 300 all_settled "$SERIES"; then
	ok "after the kills, every series finished (pending: $(pending))"
else
	not_ok "series still pending after 300 s: $(pending)"
	db "SELECT root_msgid, state, attempts, error FROM queue_series WHERE state NOT IN ('replied','skipped','failed')" | sed 's/^/#   /' | head -n 20
fi
# A kill between committing the intent to send and the end of the SMTP
# session leaves the reply's fate unknown: when the archive does not show
# it, the series fails, saying so, and only `retry --force` sends again.
failed=$(db "SELECT id FROM queue_series WHERE state = 'failed'")
if [ -n "$failed" ]; then
	nf=$(echo "$failed" | wc -l)
	noreason=$(db "SELECT count(*) FROM queue_series WHERE state = 'failed' AND error = ''")
	if [ "$noreason" -eq 0 ]; then
		ok "$nf series failed, each with its reason"
	else
		not_ok "$noreason failed series without a reason"
	fi
	db "SELECT id || ': ' || failed_in || ': ' || error FROM queue_series WHERE state = 'failed'" |
		cut -c1-200 | sed 's/^/#   /'
	for id in $failed; do
		"$WARNWATCH" retry --config "$CONF" --force "$id" >/dev/null
	done
	if wait_for 120 all_settled "$SERIES" && [ "$(db "SELECT count(*) FROM queue_series WHERE state = 'failed'")" -eq 0 ]; then
		ok "retry --force finished them"
	else
		not_ok "retry --force finished them"
	fi
else
	ok "no series failed"
fi
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
stop_serve
relay_stop

# Each restart swept what the killed service before it left.
left=$(find "$WARNWATCH_CACHE/b4-tmp" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
escaped=$(find "$TMPDIR" -maxdepth 1 -name 'warnwatch-b4.*' | wc -l)
if [ "$left" -eq 0 ] && [ "$escaped" -eq 0 ]; then
	ok "no b4 working directory left after the kills"
else
	not_ok "b4 working directories left: $left in the cache, $escaped in TMPDIR"
fi

check_outcome
n_events=$(db "SELECT count(*) FROM queue_events")
diag "events recorded: $n_events; series states: $(db "SELECT state || '=' || count(*) FROM queue_series GROUP BY state" | tr '\n' ' ')"
confirmed=$(db "SELECT count(*) FROM queue_series WHERE reply LIKE '%confirmed by the archive%'")
diag "replies confirmed by the archive after a kill during SMTP: $confirmed"
done_testing
