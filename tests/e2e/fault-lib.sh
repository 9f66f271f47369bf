# Helpers of the fault-injection tests (t04xx), on top of lib.sh: a list of
# generated patch series, the service's configuration, starting and
# killing it, and reading its state database.  Source after lib.sh.

FAULT_SEED=${WW_FAULT_SEED:-4242}
CONF=$TEST_DIR/warnwatch.conf
STATE=${STATE:-$TEST_DIR/state}
SERIES_DIR=$TEST_DIR/series
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

# make_series N FINDINGS_EVERY: N single-patch series in $SERIES_DIR/NNN.eml;
# every FINDINGS_EVERY-th one adds a BUG_ON (it gets a reply), the others
# fix a comment (nothing to say).  $SERIES_DIR/list holds "msgid findings".
make_series() {
	mkdir -p "$SERIES_DIR"
	"$WW_PYTHON" - "$SERIES_DIR" "$1" "$2" <<'PY'
import os, sys
out, n, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lst = open(os.path.join(out, "list"), "w")
for i in range(n):
    bug = i % every == 0
    mid = "20240601%06d.%d-1-dev%d@example.org" % (i, 5000 + i, i)
    body = "+\tBUG_ON(!k->k_list.next);\n" if bug else "+\t/* the list is not empty here (%d) */\n" % i
    what = "catch a dead list in klist_put() (%d)" % i if bug else "comment the list state (%d)" % i
    open(os.path.join(out, "%03d.eml" % i), "w").write(f"""From: Dev Number{i} <dev{i}@example.org>
Date: Sat, 01 Jun 2024 10:{i // 60:02d}:{i % 60:02d} +0000
Subject: [PATCH] klist{i}: {what}
To: Greg Maintainer <greg@example.org>
Cc: test@example.org
Message-ID: <{mid}>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8

Change number {i} of the fault-injection run.

Signed-off-by: Dev Number{i} <dev{i}@example.org>
---
 lib/klist{i}.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/lib/klist{i}.c b/lib/klist{i}.c
index 332a4fbf18ff..4b1d3a7e2c55 100644
--- a/lib/klist{i}.c
+++ b/lib/klist{i}.c
@@ -212,6 +212,7 @@ static void klist_put(struct klist_node *n, bool kill)
 	void (*put)(struct klist_node *) = k->put;
 
 	spin_lock(&k->k_lock);
{body} 	if (kill)
 		knode_kill(n);
 	if (!klist_dec_and_del(n))
-- 
2.39.2
""")
    lst.write("%s %d\n" % (mid, 1 if bug else 0))
PY
}

# write_conf ARCHIVE_URL SMTP_URL [EXTRA-SERVE-LINES]: the service's
# configuration, with short timers so that a test stays short.
write_conf() {
	mkdir -p "$TEST_DIR/tree/Documentation/process"
	cp "$WW_TOP/tests/e2e/data/serve/coding-style.rst" "$TEST_DIR/tree/Documentation/process/"
	cat >"$CONF" <<EOF
[identity]
name = warnwatch test bot
email = bot@example.org

[state]
dir = $STATE

[smtp]
url = $2
starttls = no
timeout = 10

[review]
tree = $TEST_DIR/tree
contact = Test Maintainer <maint@example.org>

[serve]
listen = off
poll-interval = 1
settle = 1
max-sleep = 1
retry-base = 1
retry-max = 4
max-attempts = 30
confirm-window = 15
http-timeout = 5
backoff-max = 4
# The fault tests answer more series than the default caps allow a day.
daily-cap = 0
${3:-}

[list.test]
archive = $1
inbox = test
address = test@example.org
boot = no
reply = send
# Pacing (one mail per author per hour) is t0309's: not what this measures.
pace = 0
reply-to = both
daily-cap = 0
EOF
}

SERVE_PID=
SERVE_LOG=$TEST_DIR/serve.log
# start_serve [ENV=VALUE...]: the service in the background, its pid kept.
start_serve() {
	env "$@" "$WARNWATCH" serve --config "$CONF" --verbose >>"$SERVE_LOG" 2>&1 &
	SERVE_PID=$!
	ww_track "$SERVE_PID" warnwatch-serve
}

kill9_serve() {
	kill -KILL "$SERVE_PID" 2>/dev/null
	wait "$SERVE_PID" 2>/dev/null
}

stop_serve() {
	ww_stop_pid "$SERVE_PID"
}

# db SQL: one query on the state database, rows on stdout ("|" between columns).
db() {
	"$WW_PYTHON" - "$STATE/warnwatch.db" "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=10)
for row in db.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
PY
}

# expect_event WHAT PATTERN: a line of $events (queue events, "series|message")
# matches PATTERN: WHAT was recorded, with its reason.
expect_event() {
	if grep -qE "$2" "$events"; then
		ok "$1 recorded: $(grep -m1 -oE "$2" "$events" | cut -c1-120)"
	else
		not_ok "$1 recorded"
	fi
}

# The series still moving (not replied, skipped or failed).
pending() {
	db "SELECT count(*) FROM queue_series WHERE state NOT IN ('replied','skipped','failed')"
}
all_settled() {
	local want=$1 have
	have=$(db "SELECT count(*) FROM queue_series WHERE state IN ('replied','skipped','failed')" 2>/dev/null)
	[ "${have:-0}" -ge "$want" ]
}

# primed: the service has read the list's first feed (nothing before it is new).
primed() { [ "$(db "SELECT primed FROM queue_inboxes WHERE name = 'test'" 2>/dev/null)" = 1 ]; }

# check_outcome: every generated series known and replied exactly as it
# should be -- one reply for a finding, none otherwise -- and the store's
# record agrees.  Prints TAP lines.
check_outcome() {
	local mid f n=0 lost=0 twice=0 missing=0 extra=0 state bad=0 want=0
	while read -r mid f; do
		n=$((n + 1))
		state=$(db "SELECT state FROM queue_series WHERE root_msgid = '$mid'")
		if [ -z "$state" ]; then
			lost=$((lost + 1)); diag "lost: $mid"
			continue
		fi
		if [ "$state" != replied ]; then
			bad=$((bad + 1))
			diag "$mid: $state ($(db "SELECT failed_in || ': ' || error FROM queue_series WHERE root_msgid = '$mid'"))"
		fi
		r=$(replies_to "$mid")
		if [ "$f" = 1 ]; then
			want=$((want + 1))
			[ "$r" -eq 0 ] && { missing=$((missing + 1)); diag "no reply: $mid"; }
			[ "$r" -gt 1 ] && { twice=$((twice + 1)); diag "$r replies: $mid"; }
		elif [ "$r" -ne 0 ]; then
			extra=$((extra + 1)); diag "a reply to a clean patch: $mid"
		fi
	done <"$SERIES_DIR/list"
	if [ "$lost" -eq 0 ]; then ok "no series lost ($n delivered, $n known)"; else not_ok "$lost of $n series lost"; fi
	if [ "$twice" -eq 0 ]; then ok "none answered twice"; else not_ok "$twice series answered more than once"; fi
	if [ "$missing" -eq 0 ] && [ "$extra" -eq 0 ]; then
		ok "one reply per series with a finding ($want), none for the $((n - want)) clean ones"
	else
		not_ok "$missing series without their reply, $extra clean ones answered"
	fi
	if [ "$bad" -eq 0 ]; then ok "every series reached 'replied'"; else not_ok "$bad series did not reach 'replied'"; fi
	local sent
	sent=$(db "SELECT count(*) FROM replies WHERE state = 'sent'")
	if [ "$sent" -eq "$want" ]; then
		ok "the store records $sent replies sent, each once"
	else
		not_ok "the store records $sent replies sent, want $want"
	fi
}

# lists_start: inbox `test` behind public-inbox-httpd, aiosmtpd storing
# into $MAILDIR and the relay between them -- what every t04xx starts.
lists_start() {
	pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
	pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
	smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
	mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
	relay_start
}

# fault_smtp_start MODE,...: tests/e2e/fault-smtp.py on a free port, storing
# into $MAILDIR; sets SMTP_PORT, SMTP_URL, SMTP_LOG.
fault_smtp_start() {
	SMTP_PORT=$(free_port)
	SMTP_URL=smtp://127.0.0.1:$SMTP_PORT
	SMTP_LOG=$TEST_DIR/smtp-faults.jsonl
	mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
	"$WW_PYTHON" "$WW_TOP/tests/e2e/fault-smtp.py" "$SMTP_PORT" "$MAILDIR" \
		"$SMTP_LOG" "$1" >"$TEST_DIR/smtp.log" 2>&1 &
	ww_track $! fault-smtp
	wait_port "$SMTP_PORT"
}

# fault_http_start KIND:FAULT,...: tests/e2e/fault-http.py in front of
# $PI_URL; sets FAULT_URL (what the service is told the archive is) and
# HTTP_LOG.
fault_http_start() {
	local port
	port=$(free_port)
	FAULT_URL=http://127.0.0.1:$port
	HTTP_LOG=$TEST_DIR/http-faults.jsonl
	"$WW_PYTHON" "$WW_TOP/tests/e2e/fault-http.py" "$port" "$PI_URL" "$HTTP_LOG" "$1" \
		>"$TEST_DIR/fault-http.log" 2>&1 &
	ww_track $! fault-http
	wait_port "$port"
}
