#!/usr/bin/env bash
# slow
#
# t0442: a password written in the configuration is never printed,
# stored or served (docs/security.md, "Secrets in the configuration").
# A canary password sits in every URL the configuration can hold: the
# lists' archive URLs (one working, one refused, one answering 500 and
# 404), [archive] url (review's b4), [smtp] url (a server that refuses
# twice, then one nobody listens on), backfill's --url and, where a
# PostgreSQL server can be started (tests/e2e/pg-lib.sh), [state] url
# with the password in it (the right one and a wrong one).  Every command
# runs with errors forced: serve (polling, b4, SMTP, the dashboard served
# over HTTP), status, status --format=json, status ID, dashboard,
# backfill, review --send, serve --once on PostgreSQL.  Then stdout and
# stderr of each, the service's log, the state directory (the SQLite file
# included, byte for byte), the sites written, the pages served, the
# replies mailed and a pg_dump of the database are searched for the
# canary: not one hit.  The service must still have worked through the
# passwords (replies sent, the list read), or the test proves nothing.
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"
. "$(dirname "$0")/fault-lib.sh"
. "$(dirname "$0")/pg-lib.sh"

CANARY=S3cretCanary
OUT=$TEST_DIR/out		# every command's stdout and stderr
mkdir -p "$OUT"

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
# Sessions refused: a 451 after the data, a 554 greeting (wait_port's probe
# may take the first).
fault_smtp_start data-451,greet-554 || { echo "Bail out! fault-smtp.py did not start"; exit 1; }
# In front of the archive: the first two feeds a 500; git epochs a 404.
fault_http_start feed:500,feed:500 || { echo "Bail out! fault-http.py did not start"; exit 1; }
make_series 2 1

HTTP_PORT=$(free_port)
PI_HOSTPORT=${PI_URL#http://}
write_conf "http://archiver:${CANARY}List@$PI_HOSTPORT" \
	"smtp://bot:${CANARY}Smtp@127.0.0.1:$SMTP_PORT"
sed -i "s|^listen = off\$|listen = 127.0.0.1:$HTTP_PORT|" "$CONF"
cat >>"$CONF" <<EOF

[archive]
url = http://reader:${CANARY}Review@$PI_HOSTPORT/test

[list.dead]
archive = https://dead:${CANARY}Dead@127.0.0.1:1/?token=${CANARY}Token
inbox = dead
reply = draft

[list.flaky]
archive = http://flaky:${CANARY}Flaky@${FAULT_URL#http://}
inbox = test
reply = none
EOF

# ---- the service, through every failure ---------------------------------------
start_serve
test_expect "the dashboard is served" wait_port "$HTTP_PORT" 100
test_expect "the list is read through its archive URL's credentials" wait_for 30 primed
pi_deliver test "$SERIES_DIR"/[0-9]*.eml
replied() { [ "$(db "SELECT count(*) FROM replies WHERE state = 'sent'")" -ge 2 ]; }
test_expect "both series answered through the SMTP URL's credentials" wait_for 120 replied
dead_failed() {
	[ -n "$(db "SELECT last_error FROM queue_inboxes WHERE name = 'dead' AND last_error <> ''")" ]
}
test_expect "the refused archive is recorded as failing" wait_for 30 dead_failed
smtp_refusals=$(db "SELECT count(*) FROM queue_events WHERE message LIKE '%SMTP server%'")
if [ "${smtp_refusals:-0}" -ge 1 ]; then
	ok "the SMTP server's refusals are recorded ($smtp_refusals)"
else
	not_ok "the SMTP server's refusals are recorded ($smtp_refusals)"
fi
if grep -q '" 500 \|"500"\|500' "$HTTP_LOG" 2>/dev/null; then
	ok "the flaky archive answered 500"
else
	not_ok "the flaky archive answered 500"
fi

# Every page the service serves, over HTTP.
served=$OUT/served.html
: >"$served"
curl -s "http://127.0.0.1:$HTTP_PORT/" >>"$served"
curl -s "http://127.0.0.1:$HTTP_PORT/status.json" >>"$served"
npages=0
while IFS= read -r f; do
	curl -s "http://127.0.0.1:$HTTP_PORT/${f#"$STATE/dashboard/"}" >>"$served"
	npages=$((npages + 1))
done < <(find "$STATE/dashboard" -type f)
if [ "$npages" -ge 5 ] && grep -qF "href=\"$PI_URL/test/\"" "$served"; then
	ok "$npages pages served, the list's archive link among them"
else
	not_ok "$npages pages served, the list's archive link among them"
fi
stop_serve

# ---- the other commands, each with an error forced where it can have one -------
run() {	# run NAME COMMAND...: stdout and stderr into $OUT/NAME.{out,err}
	local name=$1
	shift
	"$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	echo "$?" >"$OUT/$name.rc"
}
run status "$WARNWATCH" status --config "$CONF"
run status-json "$WARNWATCH" status --config "$CONF" --format=json
sid=$(db "SELECT min(id) FROM queue_series")
run status-one "$WARNWATCH" status --config "$CONF" "$sid"
run status-one-json "$WARNWATCH" status --config "$CONF" --format=json "$sid"
if [ "$(cat "$OUT/status.rc")" = 1 ] && grep -q 'dead' "$OUT/status.out"; then
	ok "status says the dead list cannot be polled"
else
	not_ok "status says the dead list cannot be polled (exit $(cat "$OUT/status.rc"))"
fi
run dashboard "$WARNWATCH" dashboard --config "$CONF" --out "$TEST_DIR/site"
run backfill "$WARNWATCH" backfill --config "$CONF" --list test \
	--url "https://lore:${CANARY}Backfill@127.0.0.1:1/test/" "$PI_DIR/test"
run backfill-json "$WARNWATCH" backfill --config "$CONF" --format=json
run dashboard2 "$WARNWATCH" dashboard --config "$CONF" --out "$TEST_DIR/site2"
if grep -rqF 'https://127.0.0.1:1/test/' "$TEST_DIR/site2"; then
	ok "backfill's archive link reaches the dashboard"
else
	not_ok "backfill's archive link reaches the dashboard"
fi
mid1=$(head -n 1 "$SERIES_DIR/list" | cut -d' ' -f1)
# Fetched through [archive] url's credentials, refused by a server nobody runs.
sed "s|^url = smtp://.*|url = smtp://bot:${CANARY}Smtp@127.0.0.1:1|" "$CONF" >"$TEST_DIR/nosmtp.conf"
run review-nosmtp "$WARNWATCH" review --config "$TEST_DIR/nosmtp.conf" --send --force "$mid1"
if grep -q 'cannot talk to SMTP server' "$OUT/review-nosmtp.err"; then
	ok "review: the refused SMTP server is named"
else
	not_ok "review: the refused SMTP server is named"
	sed 's/^/#   /' "$OUT/review-nosmtp.err" | head -n 5
fi
sed "s|^url = http://reader:.*|url = http://reader:${CANARY}Review@127.0.0.1:1/test|" "$CONF" >"$TEST_DIR/noarchive.conf"
run review-noarchive "$WARNWATCH" review --config "$TEST_DIR/noarchive.conf" "$mid1"
if [ "$(cat "$OUT/review-noarchive.rc")" = 2 ]; then
	ok "review: the unreachable archive is an error"
else
	not_ok "review: the unreachable archive is an error (exit $(cat "$OUT/review-noarchive.rc"))"
fi
run serve-once "$WARNWATCH" serve --config "$CONF" --once

# ---- PostgreSQL: the password in [state] url ----------------------------------
pg=
if pg_have && pg_start; then
	pg=1
	pg_sql "ALTER ROLE $PG_USER PASSWORD '${CANARY}Pg'" >/dev/null
	pgurl="postgresql://$PG_USER:${CANARY}Pg@127.0.0.1:$PG_PORT/warnwatch"
	sed "s|^dir = $STATE\$|dir = $STATE\nurl = $pgurl|" "$CONF" >"$TEST_DIR/pg.conf"
	sed "s|${CANARY}Pg@|${CANARY}Wrong@|" "$TEST_DIR/pg.conf" >"$TEST_DIR/pg-wrong.conf"
	run pg-serve-once "$WARNWATCH" serve --config "$TEST_DIR/pg.conf" --once --verbose
	# A worker names its state: the URL, said without the password.
	run pg-worker-once "$WARNWATCH" serve --config "$TEST_DIR/pg.conf" --role=worker --once
	if grep -qF "state in postgresql://$PG_USER:***@127.0.0.1:$PG_PORT/warnwatch" "$OUT/pg-worker-once.err"; then
		ok "PostgreSQL: a worker names its state's URL, without the password"
	else
		not_ok "PostgreSQL: a worker names its state's URL, without the password"
		sed 's/^/#   /' "$OUT/pg-worker-once.err" | head -n 5
	fi
	run pg-status "$WARNWATCH" status --config "$TEST_DIR/pg.conf"
	run pg-status-json "$WARNWATCH" status --config "$TEST_DIR/pg.conf" --format=json
	run pg-dashboard "$WARNWATCH" dashboard --config "$TEST_DIR/pg.conf" --out "$TEST_DIR/site-pg"
	run pg-backfill "$WARNWATCH" backfill --config "$TEST_DIR/pg.conf" --list test \
		--url "https://lore:${CANARY}Backfill@127.0.0.1:1/test/" "$PI_DIR/test"
	run pg-wrong "$WARNWATCH" status --config "$TEST_DIR/pg-wrong.conf"
	if grep -q 'dead' "$OUT/pg-status.out" && grep -q '"backend": "postgresql"' "$OUT/pg-status-json.out"; then
		ok "PostgreSQL: the state opened through the URL's password, the lists polled"
	else
		not_ok "PostgreSQL: the state opened through the URL's password, the lists polled"
		sed 's/^/#   /' "$OUT/pg-serve-once.err" | head -n 5
	fi
	if [ "$(cat "$OUT/pg-wrong.rc")" = 2 ] && grep -q 'password' "$OUT/pg-wrong.err"; then
		ok "PostgreSQL: a wrong password in the URL is refused, and said"
	else
		not_ok "PostgreSQL: a wrong password in the URL is refused, and said"
		sed 's/^/#   /' "$OUT/pg-wrong.err" | head -n 5
	fi
	"$PG_BIN/pg_dump" -h "$PG_DIR/sock" -p "$PG_PORT" -U "$PG_USER" warnwatch \
		>"$OUT/pg.dump" 2>"$OUT/pg-dump.err"
	if grep -q 'queue_events' "$OUT/pg.dump"; then
		ok "PostgreSQL: the database dumped"
	else
		not_ok "PostgreSQL: the database dumped"
	fi
else
	skip "PostgreSQL: the password in [state] url" "not-installed: PostgreSQL server binaries (make deps)"
fi

# ---- the search ------------------------------------------------------------------
# What warnwatch wrote: the commands' output, the service's log, the state
# (the database file as bytes), the sites, the replies mailed, the cache.
hits=$TEST_DIR/hits
: >"$hits"
for where in "$OUT" "$SERVE_LOG" "$STATE" "$TEST_DIR/site" "$TEST_DIR/site2" \
	     "$TEST_DIR/site-pg" "$MAILDIR" "$WARNWATCH_CACHE"; do
	[ -e "$where" ] || continue
	grep -r -a -o -n -H "[^ ]\{0,60\}$CANARY[A-Za-z]*" "$where" >>"$hits" 2>/dev/null
done
nfiles=$(find "$OUT" "$STATE" "$TEST_DIR/site" "$TEST_DIR/site2" "$MAILDIR" -type f | wc -l)
if [ ! -s "$hits" ]; then
	ok "the canary is nowhere in $nfiles files${pg:+ and the PostgreSQL dump}"
else
	not_ok "the canary is in $(cut -d: -f1 "$hits" | sort -u | wc -l) files"
	# (a hit in the database file comes with its binary neighbours)
	LC_ALL=C tr -c '[:print:]\n' '?' <"$hits" | sed "s|$TEST_DIR/||; s/^/#   /" |
		sort -u | head -n 40
fi
# The search finds what it looks for: the configuration holds the canary.
if grep -q "$CANARY" "$CONF"; then
	ok "the search would find the canary (it is in the configuration)"
else
	not_ok "the search would find the canary (it is in the configuration)"
fi

done_testing
