#!/usr/bin/env bash
# slow
#
# t0410: many machines' worth of warnwatch on one PostgreSQL queue.  Two
# pollers (--role=poller: one active by advisory lock, one standing by)
# and three workers (--role=worker: claims with SKIP LOCKED and a lease)
# share a real PostgreSQL started by the test, a real public-inbox-httpd
# and a real SMTP server, while 60 series arrive in three waves.  Seeded
# chaos (WW_FAULT_SEED): 20 SIGKILLs of random workers (some at the two
# worst moments for exactly-once sending) and of the active poller, each
# restarted; one PostgreSQL restart mid-run; one worker's connection cut
# by the server.  Then: no series lost, none answered twice, every reply
# recorded once, failures recorded with their reason and finished by
# `retry --force`, the standby poller took over within seconds, and
# `warnwatch status` shows the workers.
#
# WW_STORM_BACKEND=sqlite runs the same storm against SQLite with one
# `--role=all` process (killed and restarted the same way; no database
# restart or cut connection there).
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"
. "$(dirname "$0")/fault-lib.sh"
. "$(dirname "$0")/pg-lib.sh"
export TMPDIR=$TEST_DIR/tmp
mkdir -p "$TMPDIR"

BACKEND=${WW_STORM_BACKEND:-postgresql}
# WW_STORM_SIZE=reduced (the sanitized pass of make check-ci): 20 series,
# 6 kills, the same events at the same fractions of the run.
# WW_STORM_SERIES and WW_STORM_KILLS set each number by hand.
case ${WW_STORM_SIZE:-full} in
full) SERIES=${WW_STORM_SERIES:-60} KILLS=${WW_STORM_KILLS:-20} ;;
reduced) SERIES=${WW_STORM_SERIES:-20} KILLS=${WW_STORM_KILLS:-6} ;;
*) echo "Bail out! WW_STORM_SIZE is full or reduced, not '$WW_STORM_SIZE'"; exit 1 ;;
esac
# Where the run's events fall, by kill number (20 kills: waves before
# kills 1, 7 and 13, PostgreSQL restarted at 10, a connection cut at 15).
WAVE2_AT=$((1 + KILLS * 6 / 20))
WAVE3_AT=$((1 + KILLS * 12 / 20))
RESTART_AT=$((KILLS / 2 > 0 ? KILLS / 2 : 1))
CUT_AT=$((KILLS * 3 / 4 > 0 ? KILLS * 3 / 4 : 1))
WAVE_SIZE=$(((SERIES + 2) / 3))
# A standby poller takes over at its next turn (max-sleep, 1 s) and says so
# at its next heartbeat (lease / 3, 2 s): 10 s at most, 30 s under the
# sanitizers, whose processes are several times slower (12 s was seen
# there on a 2-core machine at load 25).
if [ -n "${WW_SANITIZE:-}" ]; then TAKEOVER_MS=30000; else TAKEOVER_MS=10000; fi
# In the TAP names, so that a reduced run is never taken for the full one.
STORM="${WW_STORM_SIZE:-full} storm: $SERIES series, $KILLS kills, $BACKEND"
NR_WORKERS=3
NR_POLLERS=2
LEASE=6

if [ "$BACKEND" = postgresql ]; then
	pg_have || skip_all "not-installed: PostgreSQL server binaries (/usr/lib/postgresql/*/bin) or setpriv not installed (make deps)"
	pg_start || { echo "Bail out! PostgreSQL did not start"; exit 1; }
	# db SQL: rows "a|b" as fault-lib.sh's SQLite one prints them.
	db() { pg_sql "$1"; }
fi

lists_start
make_series "$SERIES" 3
write_conf "$PI_URL" "$SMTP_URL"
if [ "$BACKEND" = postgresql ]; then
	sed -i "s|^dir = $STATE\$|dir = $STATE\nurl = $PG_URL\npassword-file = $PG_PWFILE\nlease = $LEASE|" "$CONF"
fi

# Processes by slot: w0..w2 workers, p0..p1 pollers (or a0: --role=all).
declare -A PID ROLE
proc_start() {	# proc_start SLOT ROLE [ENV=VALUE...]
	local slot=$1 role=$2
	shift 2
	env "$@" "$WARNWATCH" serve --config "$CONF" --role="$role" --verbose \
		>>"$TEST_DIR/serve-$slot.log" 2>&1 &
	PID[$slot]=$!
	ROLE[$slot]=$role
	ww_track "${PID[$slot]}" "warnwatch-$slot"
}
proc_kill9() {
	kill -KILL "${PID[$1]}" 2>/dev/null
	wait "${PID[$1]}" 2>/dev/null
}
slots=()
if [ "$BACKEND" = postgresql ]; then
	for ((i = 0; i < NR_POLLERS; i++)); do proc_start "p$i" poller; slots+=("p$i"); done
	for ((i = 0; i < NR_WORKERS; i++)); do proc_start "w$i" worker; slots+=("w$i"); done
else
	proc_start a0 all
	slots=(a0)
fi

if wait_for 30 primed; then
	ok "the list was primed ($STORM)"
else
	not_ok "the list was primed ($STORM)"
	tail -n 20 "$TEST_DIR"/serve-*.log | sed 's/^/#   /'
fi

# The active poller's slot, from the heartbeats.
active_poller() {
	local pid s
	pid=$(db "SELECT pid FROM queue_workers WHERE stage = 'polling' ORDER BY heartbeat DESC LIMIT 1")
	for s in "${slots[@]}"; do
		[ "${PID[$s]}" = "$pid" ] && kill -0 "$pid" 2>/dev/null && { echo "$s"; return; }
	done
}

wave() {
	local from=$1 i
	for ((i = from; i < from + WAVE_SIZE && i < SERIES; i++)); do
		pi_deliver test "$(printf '%s/%03d.eml' "$SERIES_DIR" "$i")"
	done
}

RANDOM=$FAULT_SEED
kills=0 poller_kills=0 takeover_max=0 restarted=0 cut=0
for ((k = 1; k <= KILLS; k++)); do
	# Two events may fall on one kill number in a short run.
	[ "$k" -eq 1 ] && wave 0
	[ "$k" -eq "$WAVE2_AT" ] && wave "$WAVE_SIZE"
	[ "$k" -eq "$WAVE3_AT" ] && wave $((2 * WAVE_SIZE))
	ms=$((500 + RANDOM % 2500))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
	if [ "$BACKEND" = postgresql ] && [ "$k" -eq "$RESTART_AT" ]; then
		t0=$(date +%s)
		pg_restart || { echo "Bail out! PostgreSQL did not restart"; exit 1; }
		restarted=1
		diag "PostgreSQL restarted in $(( $(date +%s) - t0 )) s"
	fi
	if [ "$BACKEND" = postgresql ] && [ "$k" -eq "$CUT_AT" ]; then
		n=$(pg_sql "SELECT count(pg_terminate_backend(pid)) FROM (SELECT pid FROM pg_stat_activity WHERE datname = 'warnwatch' AND application_name = 'warnwatch' AND pid <> pg_backend_pid() ORDER BY random() LIMIT 1) x")
		cut=$((cut + ${n:-0}))
	fi
	r=$((RANDOM % 100))
	# The second kill is the active poller's, whatever the seed: the
	# takeover is measured in every run, never left to chance.
	if [ "$BACKEND" = postgresql ] && { [ "$r" -lt 20 ] || [ "$k" -eq 2 ]; }; then
		slot=$(active_poller)
		[ -n "$slot" ] || slot=p$((RANDOM % NR_POLLERS))
	elif [ "$BACKEND" = postgresql ]; then
		slot=w$((RANDOM % NR_WORKERS))
	else
		slot=a0
	fi
	proc_kill9 "$slot"
	kills=$((kills + 1))
	if [ "${ROLE[$slot]}" = poller ]; then
		poller_kills=$((poller_kills + 1))
		# A standby takes the lock: measure until another live
		# poller says it polls (its next heartbeat, lease/3 s).
		# Bounded by time, not by tries: each look is a psql run,
		# which takes long on a loaded machine.
		t0=$(date +%s%N)
		while :; do
			dt=$(( ($(date +%s%N) - t0) / 1000000 ))
			s=$(active_poller)
			[ -n "$s" ] && [ "$s" != "$slot" ] && break
			[ "$dt" -gt $((TAKEOVER_MS + 5000)) ] && break
			sleep 0.1
		done
		[ "$dt" -gt "$takeover_max" ] && takeover_max=$dt
	fi
	# Back up, sometimes set to die at the worst moments of a send.
	r=$((RANDOM % 100))
	if [ "${ROLE[$slot]}" != poller ] && [ "$r" -lt 15 ]; then
		proc_start "$slot" "${ROLE[$slot]}" WARNWATCH_TEST_KILL_AT=before-smtp
	elif [ "${ROLE[$slot]}" != poller ] && [ "$r" -lt 30 ]; then
		proc_start "$slot" "${ROLE[$slot]}" WARNWATCH_TEST_KILL_AT=after-smtp
	else
		proc_start "$slot" "${ROLE[$slot]}"
	fi
	# A process that died at a kill point comes back plainly.
	for s in "${slots[@]}"; do
		if ! kill -0 "${PID[$s]}" 2>/dev/null; then
			wait "${PID[$s]}" 2>/dev/null
			proc_start "$s" "${ROLE[$s]}"
			kills=$((kills + 1))
		fi
	done
done
diag "seed $FAULT_SEED: $kills SIGKILLs ($poller_kills of the active poller), replies so far: $(maildir_count)"
if [ "$kills" -ge "$KILLS" ]; then ok "$kills processes killed by SIGKILL and restarted ($STORM)"; else not_ok "only $kills kills ($STORM)"; fi
if [ "$BACKEND" = postgresql ]; then
	if [ "$restarted" = 1 ]; then ok "PostgreSQL restarted once mid-run"; else not_ok "PostgreSQL restart"; fi
	if [ "$cut" -ge 1 ]; then ok "a connection was cut by the server"; else not_ok "no connection cut"; fi
	if [ "$poller_kills" -ge 1 ] && [ "$takeover_max" -le "$TAKEOVER_MS" ]; then
		ok "the standby poller took over within $takeover_max ms at worst ($poller_kills kills, limit $TAKEOVER_MS ms)"
	elif [ "$poller_kills" -eq 0 ]; then
		not_ok "the active poller was killed (the second kill is its)"
	else
		not_ok "a poller takeover took $takeover_max ms (limit $TAKEOVER_MS ms)"
	fi
fi

# Whatever is still running finishes the work; stragglers at kill points
# are restarted plainly.
for s in "${slots[@]}"; do
	if ! kill -0 "${PID[$s]}" 2>/dev/null; then
		wait "${PID[$s]}" 2>/dev/null
		proc_start "$s" "${ROLE[$s]}"
	fi
done
# settle_wait STALL CAP: until every series settled, as long as some
# series moves on a stage at least every STALL seconds, CAP seconds at
# most.  A machine several times slower than usual (b4 took 32 s a fetch
# at load 25 on 2 cores, and SQLite's single process fetches 60 in a row)
# still finishes; a queue that stopped moving fails after STALL seconds.
settle_wait() {
	local stall=$1 cap=$2 t0=$SECONDS last= last_t=$SECONDS now
	while [ $((SECONDS - t0)) -lt "$cap" ]; do
		all_settled "$SERIES" && return 0
		now=$(db "SELECT state, count(*) FROM queue_series GROUP BY state ORDER BY state" 2>/dev/null | tr '\n' ' ')
		if [ "$now" != "$last" ]; then
			last=$now last_t=$SECONDS
		elif [ $((SECONDS - last_t)) -ge "$stall" ]; then
			diag "no series moved for $stall s: $last"
			return 1
		fi
		sleep 1
	done
	diag "still not settled after $cap s: $last"
	return 1
}
t0=$SECONDS
if settle_wait 300 2400; then
	ok "every series finished in $((SECONDS - t0)) s after the kills (pending: $(pending); $STORM)"
else
	not_ok "series still pending after $((SECONDS - t0)) s: $(pending)"
	db "SELECT root_msgid, state, attempts, lease_owner, error FROM queue_series WHERE state NOT IN ('replied','skipped','failed')" | sed 's/^/#   /' | head -n 20
fi
failed=$(db "SELECT id FROM queue_series WHERE state = 'failed'")
if [ -n "$failed" ]; then
	nf=$(echo "$failed" | wc -l)
	noreason=$(db "SELECT count(*) FROM queue_series WHERE state = 'failed' AND error = ''")
	if [ "$noreason" -eq 0 ]; then ok "$nf series failed, each with its reason"; else not_ok "$noreason failed series without a reason"; fi
	db "SELECT id || ': ' || failed_in || ': ' || error FROM queue_series WHERE state = 'failed'" | cut -c1-200 | sed 's/^/#   /'
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

if [ "$BACKEND" = postgresql ]; then
	"$WARNWATCH" status --config "$CONF" >"$TEST_DIR/status.txt" 2>&1
	if grep -q '^workers:' "$TEST_DIR/status.txt" && grep -qE 'worker +pid' "$TEST_DIR/status.txt" &&
	   grep -qE 'poller +pid .*polling' "$TEST_DIR/status.txt"; then
		ok "status shows the workers and the active poller"
	else
		not_ok "status shows the workers and the active poller"
		sed 's/^/#   /' "$TEST_DIR/status.txt" | head -n 20
	fi
	diag "$(sed -n '/^workers:/,/^in progress:/p' "$TEST_DIR/status.txt")"
	# The pages serve draws come from the shared tables too.
	if "$WW_PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert sum(len(l["series"]) for l in d["lists"] if l["name"] == "test") > 0
' "$STATE/dashboard/dashboard.json" 2>/dev/null; then
		ok "serve's dashboard has the list's series from PostgreSQL"
	else
		not_ok "serve's dashboard has the list's series from PostgreSQL"
		ls -R "$STATE/dashboard" 2>&1 | head -n 10 | sed 's/^/#   /'
	fi
	# A poller killed in the last 3 leases still has a fresh heartbeat
	# in its row (SIGKILL leaves no goodbye); on a fast run the storm
	# settles before it ages out.  Wait that long: what must remain is
	# one poller that keeps beating.
	active_pollers() {
		db "SELECT count(*) FROM queue_workers WHERE stage = 'polling' AND heartbeat > $(( $(date +%s) - 3 * LEASE ))"
	}
	one_active_poller() { [ "$(active_pollers)" -eq 1 ]; }
	if wait_for $((3 * LEASE + 10)) one_active_poller; then
		ok "one active poller at the end"
	else
		not_ok "$(active_pollers) active pollers at the end"
		db "SELECT pid, stage, heartbeat FROM queue_workers" | sed 's/^/#   /'
	fi
fi
for s in "${slots[@]}"; do ww_stop_pid "${PID[$s]}"; done
relay_stop
check_outcome
diag "series states: $(db "SELECT state || '=' || count(*) FROM queue_series GROUP BY state" | tr '\n' ' ')"
diag "claims taken over after a lease expired: $(grep -h -c 'taken over' "$TEST_DIR"/serve-*.log 2>/dev/null | paste -sd+ | bc)"
done_testing
