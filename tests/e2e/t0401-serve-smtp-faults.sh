#!/usr/bin/env bash
# slow
#
# t0401: an SMTP server that refuses and drops (tests/e2e/fault-smtp.py):
# no greeting (554), a recipient refused (550), "try again later" after the
# data (451), the connection closed in the middle of the message, and
# closed after the whole message was stored but before the final reply.
# Four series with a finding each go through it.  Every failure must be
# recorded with the server's reason and retried after a doubling delay; a
# message whose fate the client cannot know (the session ended after the
# whole message went out) must not be sent again blindly: the service
# looks for it in the archive.  At the end: one reply per series, never
# two, and every series replied.
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 git
. "$(dirname "$0")/fault-lib.sh"

SERIES=4
pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
fault_smtp_start greet-554,rcpt-550,data-451,drop-mid,drop-after-dot,greet-554,data-451 ||
	{ echo "Bail out! fault-smtp.py did not start"; exit 1; }
relay_start
make_series "$SERIES" 1
write_conf "$PI_URL" "$SMTP_URL"

start_serve
wait_for 30 primed || not_ok "the service primed the list"
pi_deliver test "$SERIES_DIR"/[0-9]*.eml

settled_or_failed() { all_settled "$SERIES"; }
if wait_for 180 settled_or_failed; then
	ok "every series replied or failed within 180 s"
else
	not_ok "series still pending: $(pending)"
fi

# ---- every failure recorded, with the server's reason ---------------------------
events=$TEST_DIR/events
db "SELECT series_id, message FROM queue_events WHERE message LIKE 'attempt %' ORDER BY id" >"$events"
sed 's/^/#   /' "$events" | cut -c1-220
expect_event "the refused greeting" "554[^|]*no service"
expect_event "the refused recipient" "550[^|]*no such user"
expect_event "the 451 after the data" "451[^|]*try again later"

# ---- retried with a doubling delay ------------------------------------------------
# "attempt N at checked failed, retry in D s": per series, D doubles (1, 2,
# 4) up to retry-max (4); and the server saw the attempts that far apart.
if "$WW_PYTHON" - "$events" "$SMTP_LOG" <<'PY'
import collections, json, re, sys
delays = collections.defaultdict(list)
for line in open(sys.argv[1]):
    sid, msg = line.rstrip("\n").split("|", 1)
    m = re.match(r"attempt (\d+) at \w+ failed, retry in (\d+) s", msg)
    if m:
        delays[sid].append((int(m.group(1)), int(m.group(2))))
bad = []
for sid, ds in delays.items():
    for n, d in ds:
        want = min(1 << (n - 1), 4)
        if d != want:
            bad.append("series %s attempt %d: retry in %d s, want %d" % (sid, n, d, want))
# The gaps the server saw between two attempts of one message.
tries = collections.defaultdict(list)
for line in open(sys.argv[2]):
    e = json.loads(line)
    if e.get("msgid"):
        tries[e["msgid"]].append(e["t"])
# A retry is never due sooner than its delay after the failure (whole
# seconds rounded up); 0.1 s covers the server logging a moment before the
# client reads its answer.
gaps = []
for mid, ts in tries.items():
    for k in range(1, len(ts)):
        gap, want = ts[k] - ts[k - 1], min(1 << (k - 1), 4)
        gaps.append("%.2f>=%d" % (gap, want))
        if gap < want - 0.1:
            bad.append("%s: attempt %d came %.2f s after the last, want >= %d" % (mid, k + 1, gap, want))
print("# retries: %d series retried, delays %s" % (len(delays), dict(delays)))
print("# gaps the server saw: %s" % " ".join(gaps))
for b in bad:
    print("#   " + b)
sys.exit(1 if bad or not delays else 0)
PY
then
	ok "failed sends retried after 1, 2, 4 s (doubling, capped at retry-max)"
else
	not_ok "failed sends retried with a doubling delay"
fi

# ---- unknown fate: looked up in the archive, never resent blindly --------------------
# After drop-after-dot the server has the message: the archive (through
# the relay) shows it, the service must find it there.  After drop-mid the
# server has nothing, but the client sent everything before the close: it
# cannot know either, so the series fails saying so, and retry --force
# sends it (same Message-ID).
failed=$(db "SELECT id FROM queue_series WHERE state = 'failed'")
for id in $failed; do
	why=$(db "SELECT error FROM queue_series WHERE id = $id")
	diag "series $id failed: $why"
	case $why in
	*"may have been sent"*) ok "series $id: an unknown fate is a failure that says so" ;;
	"") not_ok "series $id failed without a reason" ;;
	*) not_ok "series $id failed: $why" ;;
	esac
	"$WARNWATCH" retry --config "$CONF" --force "$id" >/dev/null
done
if [ -n "$failed" ]; then
	if wait_for 60 all_settled "$SERIES" &&
	   [ "$(db "SELECT count(*) FROM queue_series WHERE state = 'failed'")" -eq 0 ]; then
		ok "retry --force sent what was not delivered"
	else
		not_ok "retry --force sent what was not delivered"
	fi
fi
confirmed=$(db "SELECT count(*) FROM queue_series WHERE reply LIKE '%confirmed by the archive%'")
if [ "$confirmed" -ge 1 ]; then
	ok "the reply the server stored before closing was confirmed in the archive, not resent"
else
	not_ok "no reply was confirmed by the archive (drop-after-dot)"
fi
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
stop_serve
relay_stop
check_outcome
diag "SMTP sessions: $(wc -l <"$SMTP_LOG"); $(cut -d'"' -f8- "$SMTP_LOG" | grep -o '"result": "[^"]*"' | sort | uniq -c | tr '\n' ';')"
done_testing
