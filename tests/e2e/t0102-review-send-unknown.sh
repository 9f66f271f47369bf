#!/usr/bin/env bash
# t0102: `review --send` when the SMTP session ends after the whole
# message went out but before the server's final reply (fault-smtp.py
# drop-after-dot: delivered, and the client cannot know).  That is a
# "maybe sent", as serve treats it: the next `review --send` must not
# send it again without --force, and --force reuses the Message-ID.
. "$(dirname "$0")/lib.sh"
"$WW_PYTHON" -c 'import sys' 2>/dev/null || skip_all "not-installed: python3"
. "$(dirname "$0")/fault-lib.sh"

# wait_port's probe is connection 1.
fault_smtp_start ok,drop-after-dot || { echo "Bail out! fault-smtp.py did not start"; exit 1; }
# A one-patch series with a new BUG_ON, as a list delivers it.
MBOX=$TEST_DIR/series.mbox
sed -e '/^Subject: /a Message-ID: <t0102.1@example.org>\nTo: frob@lists.example.org' \
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
EOF2
send() {
	"$WARNWATCH" review --config "$TEST_DIR/warnwatch.conf" --mbox "$MBOX" --send "$@" \
		>"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
	rc=$?
}

send
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ] && [ "$(maildir_count)" -eq 1 ]; then
	ok "a session cut after the data: delivered, and review fails (rc $rc)"
else
	not_ok "first send (rc $rc, $(maildir_count) mails): $(cat "$TEST_DIR/stdout" "$TEST_DIR/stderr")"
fi
first=$(mail_header "$(maildir_last)" Message-ID)

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
done_testing
