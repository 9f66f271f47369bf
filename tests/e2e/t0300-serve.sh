#!/usr/bin/env bash
# warnwatch serve, end to end, on loopback only: a real public-inbox-httpd
# serving a test inbox, a real SMTP server (aiosmtpd, storing into a
# Maildir that is relayed back into the inbox, as a list would archive the
# bot's replies), and the service itself, started, killed with SIGKILL
# twice and restarted:
#   - once while a series is in flight (a plain kill -9 from outside);
#   - once by itself right after the SMTP server accepted a reply and
#     before the service could record it (WARNWATCH_TEST_KILL_AT), the one
#     moment where a blind restart would send the reply twice.
# Then: every series processed once, exactly one reply per series with
# findings (counted in the Maildir), the v2 reply credits the conversion
# and names v1, a series posted before the service watched is left alone,
# and the dashboard is served over HTTP and shows the series.
# Check-only (boot = no): kernel-ci has its own tests.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

DATA=$WW_TOP/tests/e2e/data/serve
CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

# The archive's and the service's view of time: bounded waits everywhere.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }


series_known() {
	[ -n "$(series_field "$1" state)" ]
}

replies() {
	maildir_count
}

# Predicates for wait_for (evaluated at each try).
has_replies() { [ "$(replies)" -ge "$1" ]; }

# ---- servers ----------------------------------------------------------------

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
# aiosmtpd's Mailbox only creates a Maildir that does not exist yet.
mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"

# The list: whatever is sent to test@example.org reaches the archive.
relay_start

HTTP_PORT=$(free_port)
mkdir -p "$TEST_DIR/tree/Documentation/process"
cp "$DATA/coding-style.rst" "$TEST_DIR/tree/Documentation/process/"
{
	conf_serve_head "$STATE" "$SMTP_URL"
	cat <<EOF
[review]
tree = $TEST_DIR/tree
contact = Test Maintainer <maint@example.org>
skip-authors = nobody@example.com, *@opted-out.example

[serve]
listen = 127.0.0.1:$HTTP_PORT
poll-interval = 1
settle = 2
max-sleep = 1
retry-base = 1
confirm-window = 20

[list.test]
archive = $PI_URL
inbox = test
address = test@example.org
boot = no
reply = send
# Pacing (one mail per author per hour) is t0309's: not what this measures.
pace = 0
reply-to = both
# v2 only converts v1's BUG_ON(): its reply is all credits, which the
# default (positive = no) does not send; this test checks those credits.
positive = yes
EOF
} >"$CONF"

SERVE_PID=
start_serve() {
	env "$@" "$WARNWATCH" serve --config "$CONF" --verbose \
		>>"$TEST_DIR/serve.log" 2>&1 &
	SERVE_PID=$!
	ww_track "$SERVE_PID" warnwatch-serve
	wait_port "$HTTP_PORT" 100
}

V1=20240506100000.1000-0-jane@example.org
V1_P1=20240506100000.1000-1-jane@example.org
CLEAN=20240506110000.2000-1-sam@example.net
V2=20240506120000.3000-0-jane@example.org
V2_P1=20240506120000.3000-1-jane@example.org
OLD=20240505090000.999-1-old@example.org
REVIEW=greg-20240506103000@example.org
OPTOUT=20240506130000.4000-1-otto@opted-out.example

# ---- a series from before the service watched the list ---------------------

pi_deliver test "$DATA/00-before-watching.eml"
if start_serve; then
	ok "the service starts and serves the dashboard"
else
	not_ok "the service starts and serves the dashboard"
	sed 's/^/#   /' "$TEST_DIR/serve.log"
fi
test_expect "the list is polled once" wait_for 30 series_is "$OLD" skipped

# ---- v1 adds a BUG_ON: one reply ----------------------------------------------

t0=$(now)
pi_deliver test "$DATA/01-v1-cover.eml" "$DATA/02-v1-1.eml" "$DATA/03-v1-2.eml"
if wait_for 90 has_replies 1; then
	t1=$(now)
	ok "v1 answered ($(elapsed "$t0" "$t1") s from delivery to the reply in the Maildir)"
	diag "latency v1: $(elapsed "$t0" "$t1") s"
else
	not_ok "v1 answered within 90 s"
	tail -n 20 "$TEST_DIR/serve.log" | sed 's/^/#   /'
fi
test_expect "v1 is replied" wait_for 10 series_is "$V1" replied
# b4's pieces are kept as b4 wrote them: the cover letter a message of
# its own, no made-up From_ line gluing it to the patches.
v1dir=$STATE/series/$(series_field "$V1" id)
cover_id='^Message-ID: *<20240506100000.1000-0-jane@example.org>'
if [ -f "$v1dir/cover.eml" ] && grep -qi "$cover_id" "$v1dir/cover.eml" &&
   ! grep -q '^From ' "$v1dir/cover.eml" && ! grep -qi "$cover_id" "$v1dir/series.mbx"; then
	ok "the cover letter kept apart from the patches, nothing made up"
else
	not_ok "the cover letter kept apart from the patches, nothing made up"
	ls -l "$v1dir" | sed 's/^/#   /'
fi

# A review that kept the patch's subject without "Re:" looks like a new
# first patch; b4 shows it is v1 again: set aside, not answered twice.
pi_deliver test "$DATA/03b-v1-1-reply-keeps-subject.eml"
test_expect "a reply that looks like a patch is the same series" \
	wait_for 60 series_is "$REVIEW" skipped
case $(series_field "$REVIEW" error) in
"the same series as #$(series_field "$V1" id)") ok "  said so" ;;
*) not_ok "  said so: $(series_field "$REVIEW" error)" ;;
esac

# ---- the clean patch, with a kill -9 while it is in flight ----------------------

pi_deliver test "$DATA/04-clean.eml"
if wait_for 30 series_known "$CLEAN"; then
	kill -KILL "$SERVE_PID"
	wait "$SERVE_PID" 2>/dev/null
	# In flight: a state the restarted service takes on from, not one
	# where the work was already over (then the kill tested nothing).
	state=$(series_field "$CLEAN" state)
	case $state in
	received|fetched|checked|booted)
		ok "killed with SIGKILL while '$state' was its state" ;;
	*)	not_ok "killed with SIGKILL in flight: the state was '$state'" ;;
	esac
else
	not_ok "the clean patch was seen"
fi

# ---- v2, with the service dying right after SMTP accepted its reply -------------

start_serve WARNWATCH_TEST_KILL_AT=after-smtp
t0=$(now)
pi_deliver test "$DATA/05-v2-cover.eml" "$DATA/06-v2-1.eml" "$DATA/07-v2-2.eml"
if wait_for 90 has_reply_to "$V2_P1"; then
	t1=$(now)
	diag "latency v2: $(elapsed "$t0" "$t1") s"
	ok "v2 answered"
else
	not_ok "v2 answered within 90 s"
fi
test_expect "the service killed itself after the SMTP transaction" \
	wait_for 30 sh -c "! kill -0 $SERVE_PID"
wait "$SERVE_PID" 2>/dev/null
test_expect "v2's sending was left unknown (intent only)" \
	test "$(series_field "$V2" state)" = checked

t0=$(now)
start_serve
test_expect "after the restart, v2's reply is found in the archive, not resent" \
	wait_for 60 series_is "$V2" replied
diag "confirmation after restart: $(elapsed "$t0" "$(now)") s"
case $(series_field "$V2" reply) in
*"confirmed by the archive"*) ok "v2's reply confirmed by the archive" ;;
*) not_ok "v2's reply confirmed by the archive: $(series_field "$V2" reply)" ;;
esac
test_expect "the clean patch is done" wait_for 30 series_is "$CLEAN" replied

# ---- an author in [review] skip-authors: the BUG_ON is found, nobody is mailed ----

pi_deliver test "$DATA/08-opted-out.eml"
test_expect "the opted-out author's series is done" wait_for 60 series_is "$OPTOUT" replied
test_expect "  without a reply, saying why" \
	test "$(series_field "$OPTOUT" reply)" = "none: the author asked not to get these reviews ([review] skip-authors)"

# ---- what came out ----------------------------------------------------------------

test_expect "the service is idle (polled since, nothing due)" wait_idle 60
test_expect "exactly two replies in the Maildir" test "$(replies)" -eq 2
test_expect "one reply to v1's BUG_ON patch" test "$(replies_to "$V1_P1")" -eq 1
test_expect "one reply to v2's patch" test "$(replies_to "$V2_P1")" -eq 1
test_expect "no reply to the clean patch" test "$(replies_to "$CLEAN")" -eq 0
test_expect "no reply to what was posted before watching" test "$(replies_to "$OLD")" -eq 0
test_expect "no reply to the author who opted out" test "$(replies_to "$OPTOUT")" -eq 0
v2_reply=$(grep -l -i "^In-Reply-To: <$V2_P1>" "$MAILDIR"/new/* | head -1)
test_expect "the v2 reply credits the conversion and names v1" \
	grep -q "the BUG_ON() that v1 added to klist_put() is now a" "$v2_reply"
test_expect "the v2 reply names WARN_ON_ONCE()" grep -q "WARN_ON_ONCE()" "$v2_reply"
test_expect "the clean patch: no reply needed" \
	test "$(series_field "$CLEAN" reply)" = "none: nothing to say"
test_expect "v2 is linked to v1" \
	test "$(series_field "$V2" prev_id)" = "$(series_field "$V1" id)"
test_expect "no series failed" sh -c "'$WARNWATCH' status --config '$CONF' >/dev/null"
test_expect "six series, each once" test "$(status_json | "$WW_PYTHON" -c '
import json, sys; print(len(json.load(sys.stdin)["series"]))')" -eq 6
test_expect "the store recorded each reply as sent once" \
	test "$("$WW_PYTHON" -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT count(*) FROM replies WHERE state = '"'sent'"'").fetchone()[0])
' "$STATE/warnwatch.db")" -eq 2

# ---- the dashboard over HTTP --------------------------------------------------------

page=$TEST_DIR/index.html
code=$(curl -s -o "$page" -w '%{http_code} %{content_type}' "http://127.0.0.1:$HTTP_PORT/")
test_expect "the dashboard is served ($code)" test "$code" = "200 text/html; charset=utf-8"
test_expect "it shows the v1/v2 series" grep -q "klist: catch a klist_put() on a dead list" "$page"
test_expect "it shows the clean patch" grep -q "lib/klist: fix the grammar of a comment" "$page"
# ---- issue 38.6: the history by default: serve backfilled its own epochs
test_expect "it shows calls added per release cycle, with no backfill run by hand" \
	grep -q 'id="cycles"' "$page"
test_expect "  read from serve's own epochs" test -d "$STATE/epochs"
code=$(curl -s -o "$TEST_DIR/status.json" -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/status.json")
test_expect "status.json is served" test "$code" = 200
test_expect "status.json is the queue" "$WW_PYTHON" -c '
import json, sys; st = json.load(open(sys.argv[1])); assert st["counts"]["replied"] == 4
' "$TEST_DIR/status.json"
code=$(curl -s --path-as-is -o /dev/null -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/../state/warnwatch.db")
test_expect "no way out of the dashboard directory ($code)" test "$code" = 400
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$HTTP_PORT/")
test_expect "read-only ($code)" test "$code" = 405

# ---- status, retry, a clean stop -------------------------------------------------------

test_expect "status shows the verdicts" sh -c \
	"'$WARNWATCH' status --config '$CONF' | grep -q 'sent <'"
id=$(series_field "$V1" id)
"$WARNWATCH" retry --config "$CONF" "$id" >/dev/null 2>&1
test_expect "retry refuses a series that did not fail" test $? -eq 2
t0=$(now)
kill -TERM "$SERVE_PID"
if wait_for 15 sh -c "! kill -0 $SERVE_PID"; then
	wait "$SERVE_PID"
	rc=$?
	test_expect "SIGTERM: a clean exit (status $rc, $(elapsed "$t0" "$(now)") s)" test "$rc" -eq 0
else
	not_ok "SIGTERM: exits within 15 s"
fi
relay_stop
grep -E 'warnwatch serve: (series|test)' "$TEST_DIR/serve.log" | sed 's/^/# /' | head -n 40

done_testing
