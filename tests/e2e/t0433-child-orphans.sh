#!/usr/bin/env bash
#
# t0433: no program outlives warnwatch (issue 33.4: b4 ran on, orphaned,
# for 580 s after warnwatch was killed).  A stand-in b4 records its pid,
# its parent's (child.c's reaper), a grandchild in its process group and
# one in a session of its own, then waits for them.
#   - `warnwatch review MSGID` killed with SIGKILL while b4 runs: the
#     reaper ends the group and kills the grandchild that left it; all
#     four are gone within 5 s (b4's deadline is 120 s).
#   - the service killed with SIGKILL together with the reaper (the
#     double failure the reaper cannot see): the program dies with its
#     reaper (PR_SET_PDEATHSIG), the grandchild in its group lives on,
#     recorded under STATE/children; the service, started again, kills
#     it and says so in its events.
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda public-inbox-httpd git
. "$(dirname "$0")/fault-lib.sh"

B4=$TEST_DIR/b4
cat >"$B4" <<'EOF'
#!/bin/sh
dir=${0%/*}
sleep 300 & a=$!
setsid sleep 300 & b=$!
echo "$$ $PPID $a $b" >"$dir/pids.tmp"
mv "$dir/pids.tmp" "$dir/pids"
wait
EOF
chmod +x "$B4"

# gone PID: no such process, or a zombie no one reaped yet
gone() {
	local st
	st=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}
# none_gone PID...: every one running
none_gone() {
	local p
	for p in "$@"; do ! gone "$p" || return 1; done
}
# all_gone PID...
all_gone() {
	local p
	for p in "$@"; do gone "$p" || return 1; done
}
# Whatever a failing case leaves is not left behind.
kill_left() {
	local p
	for p in "$@"; do gone "$p" || kill -KILL "$p" 2>/dev/null; done
}
wait_pids() {
	local i
	for ((i = 0; i < 300; i++)); do
		[ -s "$TEST_DIR/pids" ] && return 0
		sleep 0.1
	done
	return 1
}

# ---- review killed while b4 runs ------------------------------------------------

rm -f "$TEST_DIR/pids"
env WARNWATCH_B4="$B4" WARNWATCH_CONFIG=/nonexistent \
	"$WARNWATCH" review series@example.org >"$TEST_DIR/review.out" 2>&1 &
REVIEW=$!
ww_track "$REVIEW" warnwatch-review
if wait_pids; then
	read -r prog reaper a b <"$TEST_DIR/pids"
	ok "review runs b4 ($prog) under a reaper ($reaper), grandchildren $a and $b"
else
	not_ok "review runs b4"
	prog=0 reaper=0 a=0 b=0
fi
test_expect "  all four alive" none_gone "$prog" "$reaper" "$a" "$b"
kill -KILL "$REVIEW"
wait "$REVIEW" 2>/dev/null
t0=$(date +%s%N)
if wait_for 5 all_gone "$prog" "$reaper" "$a" "$b"; then
	ok "review killed with SIGKILL: b4, its reaper and both grandchildren gone in $((($(date +%s%N) - t0) / 1000000)) ms (bound 5 s)"
else
	not_ok "review killed with SIGKILL: all gone within 5 s"
	for p in "$prog" "$reaper" "$a" "$b"; do gone "$p" || diag "left running: $(tr '\0' ' ' <"/proc/$p/cmdline")"; done
fi
kill_left "$prog" "$reaper" "$a" "$b"

# ---- the service and the reaper killed together ----------------------------------

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
{
	conf_serve_head "$STATE" "smtp://127.0.0.1:1"
	cat <<EOF
[serve]
listen = off
poll-interval = 1
settle = 1
max-sleep = 1
retry-base = 1

[list.test]
archive = $PI_URL
inbox = test
address = test@example.org
boot = no
reply = none
EOF
} >"$CONF"
make_series 1 1
rm -f "$TEST_DIR/pids"
start_serve WARNWATCH_B4="$B4"
wait_for 30 primed || diag "the service did not prime the list"
pi_deliver test "$SERIES_DIR/000.eml"
if wait_pids; then
	read -r prog reaper a b <"$TEST_DIR/pids"
	ok "the fetch stage runs b4 ($prog) under a reaper ($reaper)"
else
	not_ok "the fetch stage runs b4"
	tail -n 20 "$SERVE_LOG" | sed 's/^/#   /'
	prog=0 reaper=0 a=0 b=0
fi
records=$(ls "$STATE/children" 2>/dev/null | wc -l)
test_expect "  its group is recorded under STATE/children ($records)" [ "$records" = 1 ]
dead_serve=$SERVE_PID
# "At once": the reaper's PR_SET_PDEATHSIG fires the moment the service
# dies, so a reaper still running between the two kills ends the group
# (CI saw it under SANITIZE).  Stopped first, it can do nothing; SIGKILL
# still ends a stopped process.
kill -STOP "$reaper"
kill -KILL "$SERVE_PID" "$reaper"
wait "$SERVE_PID" 2>/dev/null
test_expect "the service and the reaper killed at once: the program dies with its reaper" \
	wait_for 5 gone "$prog"
sleep 1
test_expect "  the grandchild in its group lives on" none_gone "$a"
kill_left "$b"		# left the group: the reaper alone could have killed it

t0=$(date +%s%N)
start_serve WARNWATCH_B4=/bin/false
if wait_for 15 gone "$a"; then
	ok "the service, started again, kills it in $((($(date +%s%N) - t0) / 1000000)) ms"
else
	not_ok "the service, started again, kills it"
	tail -n 20 "$SERVE_LOG" | sed 's/^/#   /'
fi
test_expect "  and says so in its events" \
	wait_for 10 bash -c "[ \"\$(sqlite3 '$STATE/warnwatch.db' \"SELECT count(*) FROM queue_events WHERE message = 'killed 1 process(es) a dead warnwatch left running'\")\" = 1 ]"
test_expect "  its record is gone" [ ! -e "$STATE/children/$dead_serve.$reaper" ]
stop_serve
kill_left "$prog" "$reaper" "$a" "$b"

done_testing
