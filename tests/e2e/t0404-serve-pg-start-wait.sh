#!/usr/bin/env bash
#
# t0404: a worker that starts before its PostgreSQL server.  Machines of a
# fleet come up in any order: the worker waits for the server ([state]
# start-wait), saying why on one line each time, and works once it
# answers; a server that is still down when start-wait runs out ends the
# start with status 3 and one line; a server that answers and refuses
# (a wrong password) is not waited for.  Its heartbeat carries the
# releases its cache has built (status shows them), and once killed it
# shows as silent past its lease.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg-lib.sh"
pg_have || skip_all "not-installed: PostgreSQL server binaries (/usr/lib/postgresql/*/bin) or setpriv not installed (make deps)"

# The cluster and the database exist; then the server goes down.
pg_start || { echo "Bail out! PostgreSQL did not start"; exit 1; }
pg_stop
STATE=$TEST_DIR/state
CONF=$TEST_DIR/warnwatch.conf
LOG=$TEST_DIR/serve.log
write_conf() {	# write_conf START_WAIT PASSWORD_FILE
	cat >"$CONF" <<EOC
[identity]
name = warnwatch test bot
email = bot@example.org

[state]
dir = $STATE
url = $PG_URL
password-file = $2
lease = 6
start-wait = $1

[serve]
max-sleep = 1

[list.test]
archive = http://127.0.0.1:9/
inbox = test
boot = no
reply = draft
EOC
}
worker_beats() {
	[ "$(pg_sql "SELECT count(*) FROM queue_workers WHERE role = 'worker'")" = 1 ]
}
said() { grep -q -- "$1" "$LOG"; }

# ---- the server comes up while the worker waits -----------------------------

write_conf 120 "$PG_PWFILE"
# A cache with linux 6.1 built: the heartbeat says so (steering builds).
mkdir -p "$TEST_DIR/cache/build/6.1.192-0123456789ab/arch/x86/boot"
: >"$TEST_DIR/cache/build/6.1.192-0123456789ab/arch/x86/boot/bzImage"
export WARNWATCH_CACHE=$TEST_DIR/cache
"$WARNWATCH" serve --config "$CONF" --role=worker >"$LOG" 2>&1 &
pid=$!
ww_track "$pid" warnwatch-worker
test_expect "the worker waits for the server, saying why" \
	wait_for 20 said "cannot connect.*; trying again in"
test_expect "  on one line each time" sh -c "! grep -q '^[[:space:]]' '$LOG'"
test_expect "  and is still running" kill -0 "$pid"
pg_start || { echo "Bail out! PostgreSQL did not restart"; exit 1; }
test_expect "once the server answers, the worker starts and beats" wait_for 60 worker_beats
"$WARNWATCH" status --config "$CONF" >"$TEST_DIR/status.txt" 2>&1
test_expect "status shows the worker and the release it has built" \
	grep -q "worker.*idle (built: 6.1)" "$TEST_DIR/status.txt"
kill -TERM "$pid"
wait_for 15 sh -c "! kill -0 $pid"
wait "$pid"
test_expect "SIGTERM: a clean stop" test $? -eq 0

# A worker killed without a word: silent past its lease (6 s) in status.
"$WARNWATCH" serve --config "$CONF" --role=worker >"$LOG" 2>&1 &
pid=$!
ww_track "$pid" warnwatch-worker
wait_for 30 worker_beats
kill -KILL "$pid"
wait "$pid" 2>/dev/null
silent() {
	"$WARNWATCH" status --config "$CONF" 2>&1 | grep -q "silent past its 6s lease: stopped or killed"
}
test_expect "a killed worker shows as silent once its lease has passed" wait_for 20 silent

# ---- a wrong password is not waited for ------------------------------------------

printf 'not-the-password\n' >"$TEST_DIR/bad-pw"
chmod 600 "$TEST_DIR/bad-pw"
write_conf 120 "$TEST_DIR/bad-pw"
t0=$(date +%s)
timeout 60 "$WARNWATCH" serve --config "$CONF" --role=worker >"$LOG" 2>&1
rc=$?
test_expect "a refused login ends the start at once with status 3 ($rc, $(( $(date +%s) - t0 )) s)" \
	sh -c "[ $rc -eq 3 ] && [ $(( $(date +%s) - t0 )) -lt 30 ]"
test_expect "  naming the refusal" said "password authentication failed"
test_expect "  not waiting" sh -c "! grep -q 'trying again' '$LOG'"

# ---- the server stays down: start-wait bounds the wait ----------------------------

pg_stop
write_conf 3 "$PG_PWFILE"
t0=$(date +%s)
timeout 60 "$WARNWATCH" serve --config "$CONF" --role=worker >"$LOG" 2>&1
rc=$?
took=$(( $(date +%s) - t0 ))
test_expect "still down after start-wait: status 3 ($rc) within bounds ($took s)" \
	sh -c "[ $rc -eq 3 ] && [ $took -ge 3 ] && [ $took -lt 30 ]"
test_expect "  the last line names the server" sh -c "tail -n 1 '$LOG' | grep -q 'cannot connect'"

# --once (cron, tests) does not wait at all.
write_conf 120 "$PG_PWFILE"
t0=$(date +%s)
timeout 60 "$WARNWATCH" serve --config "$CONF" --once >"$LOG" 2>&1
rc=$?
test_expect "--once: no wait, status 3 ($rc, $(( $(date +%s) - t0 )) s)" \
	sh -c "[ $rc -eq 3 ] && [ $(( $(date +%s) - t0 )) -lt 20 ]"

done_testing
