#!/usr/bin/env bash
# t0103: `review --send` with the state in PostgreSQL ([state] url, a real
# server started here): the same exactly-once rules as t0102 on SQLite.  A
# session cut after the data (delivered, unknown to the client) leaves the
# intent in PostgreSQL; the next run sends nothing and exits 3; --force
# resends under the same Message-ID; the service's configuration (with
# [state] lease) is accepted as it is.
. "$(dirname "$0")/lib.sh"
"$WW_PYTHON" -c 'import sys' 2>/dev/null || skip_all "not-installed: python3"
. "$(dirname "$0")/fault-lib.sh"
. "$(dirname "$0")/pg-lib.sh"
pg_have || skip_all "not-installed: PostgreSQL server binaries (initdb, postgres, psql) or setpriv not installed (make deps)"
pg_start || { echo "Bail out! could not start PostgreSQL"; exit 1; }

fault_smtp_start ok,drop-after-dot || { echo "Bail out! fault-smtp.py did not start"; exit 1; }
MBOX=$TEST_DIR/series.mbox
sed -e '/^Subject: /a Message-ID: <t0103.1@example.org>\nTo: frob@lists.example.org' \
	"$WW_TOP/tests/cases/multiline-and-several/input.mbox" >"$MBOX"
cat >"$TEST_DIR/warnwatch.conf" <<EOF2
[identity]
name = warnwatch
email = warnwatch@example.org

[smtp]
url = $SMTP_URL
starttls = no
timeout = 20

[state]
dir = $TEST_DIR/state
url = $PG_URL
password-file = $PG_PWFILE
lease = 30
EOF2
send() {
	"$WARNWATCH" review --config "$TEST_DIR/warnwatch.conf" --mbox "$MBOX" --send "$@" \
		>"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
	rc=$?
}
states() {
	pg_sql "SELECT state FROM replies WHERE series = 't0103.1@example.org' ORDER BY id" |
		tr '\n' ' '
}

send
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$(maildir_count)" -eq 1 ]; then
	ok "a session cut after the data: delivered, and review fails (rc $rc)"
else
	not_ok "first send (rc $rc, $(maildir_count) mails): $(cat "$TEST_DIR/stdout" "$TEST_DIR/stderr")"
fi
first=$(mail_header "$(maildir_last)" Message-ID)
test_expect "the intent is in PostgreSQL, not in a SQLite file" \
	sh -c "[ '$(states)' = 'intent ' ] && [ ! -e '$TEST_DIR/state/warnwatch.db' ]"

send
if [ "$rc" -eq 3 ] && [ "$(maildir_count)" -eq 1 ] &&
   grep -q "^maybe answered: sending $first .* was interrupted" "$TEST_DIR/stdout"; then
	ok "the next run sends nothing: maybe sent, check the archive"
else
	not_ok "second send (rc $rc, $(maildir_count) mails): $(cat "$TEST_DIR/stdout" "$TEST_DIR/stderr")"
fi

send --force
if [ "$rc" -eq 0 ] && [ "$(maildir_count)" -eq 2 ] &&
   [ "$(mail_header "$(maildir_last)" Message-ID)" = "$first" ]; then
	ok "--force sends it again with the same Message-ID"
else
	not_ok "--force (rc $rc, $(maildir_count) mails): $(cat "$TEST_DIR/stderr")"
fi

send
if [ "$rc" -eq 3 ] && [ "$(maildir_count)" -eq 2 ] &&
   grep -q "^already answered: .* got $first" "$TEST_DIR/stdout"; then
	ok "answered: the next run sends nothing"
else
	not_ok "after the forced send (rc $rc, $(maildir_count) mails): $(cat "$TEST_DIR/stdout" "$TEST_DIR/stderr")"
fi
done_testing
