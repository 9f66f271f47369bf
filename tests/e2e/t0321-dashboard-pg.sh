#!/usr/bin/env bash
#
# t0321: `warnwatch backfill --config` and `warnwatch dashboard --config`
# on a configuration whose [state] url is a real PostgreSQL (started by the
# test, tests/e2e/pg-lib.sh): backfill writes the list's archive (a real
# public-inbox inbox) into the database, not into a SQLite file in the
# state directory; its report equals the one a SQLite state gives for the
# same archive; and the dashboard made from the shared state has the
# history of that list.  (tests/unit/t-dashboard-pg.c compares whole
# dashboards built from the two backends on the same queue events.)
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda git
. "$(dirname "$0")/fault-lib.sh"
. "$(dirname "$0")/pg-lib.sh"
pg_have || skip_all "not-installed: PostgreSQL server binaries (/usr/lib/postgresql/*/bin) or setpriv not installed (make deps)"

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
make_series 6 3
pi_deliver test "$SERIES_DIR"/00*.eml || { echo "Bail out! public-inbox-mda failed"; exit 1; }
pg_start || { echo "Bail out! PostgreSQL did not start"; exit 1; }
write_conf "http://127.0.0.1:1" "smtp://127.0.0.1:1"
sed -i "s|^dir = $STATE\$|dir = $STATE\nurl = $PG_URL\npassword-file = $PG_PWFILE|" "$CONF"
export WARNWATCH_KERNEL_CI=$WW_TOP/kernel-ci

test_expect "backfill --config reads the archive into PostgreSQL" \
	"$WARNWATCH" backfill -q --config "$CONF" --list test --format=json "$PI_DIR/test"
"$WARNWATCH" backfill -q --config "$CONF" --format=json >"$TEST_DIR/pg.json" 2>"$TEST_DIR/pg.err"
n=$(pg_sql "SELECT count(*) || '/' || count(*) FILTER (WHERE kind = 'patch') FROM backfill_mails WHERE list = 'test'")
if [ "$n" = 6/6 ]; then ok "the database holds the 6 mails, 6 patches"; else not_ok "the database holds $n mails/patches, want 6/6"; fi
calls=$(pg_sql "SELECT count(*) FROM backfill_calls")
if [ "$calls" = 2 ]; then ok "and the 2 BUG_ONs they add"; else not_ok "$calls calls recorded, want 2"; fi
if [ ! -e "$STATE/warnwatch.db" ]; then
	ok "no SQLite file was made in the state directory"
else
	not_ok "a SQLite file was made in $STATE"
fi

"$WARNWATCH" backfill -q --state "$TEST_DIR/lite" --list test "$PI_DIR/test" >/dev/null 2>&1
"$WARNWATCH" backfill -q --state "$TEST_DIR/lite" --format=json >"$TEST_DIR/lite.json" 2>&1
if [ -s "$TEST_DIR/pg.json" ] && cmp -s "$TEST_DIR/lite.json" "$TEST_DIR/pg.json"; then
	ok "the report from PostgreSQL is the one SQLite gives"
else
	not_ok "the report from PostgreSQL is the one SQLite gives"
	diff "$TEST_DIR/lite.json" "$TEST_DIR/pg.json" | head -n 20 | sed 's/^/#   /'
	sed 's/^/#   /' "$TEST_DIR/pg.err"
fi

test_expect "dashboard --config writes the site from PostgreSQL" \
	"$WARNWATCH" dashboard --config "$CONF" --out "$TEST_DIR/site"
if grep -q '"history"' "$TEST_DIR/site/dashboard.json" 2>/dev/null &&
   [ -s "$TEST_DIR/site/history/test.html" ]; then
	ok "its history has the list's page"
else
	not_ok "its history has the list's page"
	ls -R "$TEST_DIR/site" 2>&1 | head -n 20 | sed 's/^/#   /'
fi
test_expect "--config and --state exclude each other" \
	sh -c '"$1" dashboard --config "$2" --state "$3" --out "$4"; test $? -eq 2' sh \
	"$WARNWATCH" "$CONF" "$STATE" "$TEST_DIR/site2"

done_testing
