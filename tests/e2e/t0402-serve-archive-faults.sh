#!/usr/bin/env bash
# slow
#
# t0402: the public-inbox archive answers 500, 503 with Retry-After,
# garbage where the Atom feed should be, half a feed, a feed that declares
# entities (a billion laughs), or hangs up -- on the feed and on what b4
# fetches (tests/e2e/fault-http.py in front of a real public-inbox-httpd).
# Every failure must be recorded with its reason, the polls and the
# fetches retried after doubling delays, the entity bomb refused without
# expanding it, and in the end every series answered once and none lost.
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"
. "$(dirname "$0")/fault-lib.sh"

SERIES=6
lists_start
# The first feed request primes the list (an empty inbox); then it fails.
fault_http_start feed:ok,feed:500,feed:garbage,feed:503,feed:truncated,feed:dtd,feed:hangup,thread:500,thread:garbage,thread:hangup,thread:truncated ||
	{ echo "Bail out! fault-http.py did not start"; exit 1; }
make_series "$SERIES" 2
write_conf "$FAULT_URL" "$SMTP_URL"

start_serve
wait_for 30 primed && ok "the list is primed through the stand-in" || not_ok "the list is primed"
pi_deliver test "$SERIES_DIR"/[0-9]*.eml

if wait_for 240 all_settled "$SERIES"; then
	ok "every series replied or failed within 240 s"
else
	not_ok "series still pending: $(pending)"
fi
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
stop_serve
relay_stop

events=$TEST_DIR/events
db "SELECT series_id, message FROM queue_events ORDER BY id" >"$events"
sed 's/^/#   /' "$events" | cut -c1-200 | head -n 40
expect_event "the feed's 500" "^0\|.*new\.atom': HTTP 500"
expect_event "the 503" "^0\|.*new\.atom': HTTP 503"
expect_event "the error page instead of a feed" "^0\|.*new\.atom': line [0-9]+:[0-9]+: not an Atom feed"
expect_event "half a feed" "^0\|.*new\.atom': line [0-9]+:[0-9]+: (not well-formed|unclosed token|no element found)"
expect_event "the entity bomb, refused unexpanded" "^0\|.*new\.atom': line [0-9]+:[0-9]+: DTDs are not accepted"
expect_event "the hang-up" "^0\|.*new\.atom': .*(Empty reply|reset|closed)"
expect_event "the fetch failures" "^[1-9][0-9]*\|attempt [0-9]+ at received failed, retry in [0-9]+ s: ..+"
if grep -qE '^[1-9][0-9]*\|attempt [0-9]+ at [a-z]+ failed, retry in [0-9]+ s: *$' "$events"; then
	not_ok "a failure without its reason"
else
	ok "no failure without its reason"
fi

# Polls of a failing archive back off: the gaps between feed requests
# while it fails double (1, 2, 4 s with backoff-max 4), and a
# Retry-After is honoured.
if "$WW_PYTHON" - "$HTTP_LOG" <<'PY'
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
feed = [r for r in reqs if r["kind"] == "feed"]
bad, gaps = [], []
fails = 0
for k in range(1, len(feed)):
    gap = feed[k]["t"] - feed[k - 1]["t"]
    prev = feed[k - 1]["did"]
    if prev == "forward":
        fails = 0
        continue
    fails += 1
    want = 2 if prev == "503" else min(1 << (fails - 1), 4)
    gaps.append("%s->%.1fs" % (prev, gap))
    if gap < want - 0.5:
        bad.append("after %s (failure %d) the next poll came %.1f s later, want >= %d" % (prev, fails, gap, want))
print("# feed gaps after failures: " + " ".join(gaps))
for b in bad:
    print("#   " + b)
sys.exit(1 if bad or not gaps else 0)
PY
then
	ok "a failing archive is polled again after doubling delays, Retry-After honoured"
else
	not_ok "a failing archive is polled again after doubling delays"
fi
inbox=$(db "SELECT failures || '|' || last_ok FROM queue_inboxes WHERE name = 'test'")
test_expect "the list recovered (failures back to 0): $inbox" test "${inbox%%|*}" = 0
check_outcome
done_testing
