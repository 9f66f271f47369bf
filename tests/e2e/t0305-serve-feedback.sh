#!/usr/bin/env bash
# warnwatch serve listens (issue 27), end to end on loopback: a real
# public-inbox-httpd, aiosmtpd relaying the replies back into the inbox, and
# the service.  Three threads:
#   - foo v1 gets a reply with a BUG_ON() and a WARN_ON(); the author
#     answers it "false positive" and "warnwatch: wrong" quoting the
#     WARN_ON(); v2 keeps both calls: its reply objects to the BUG_ON()
#     only (issue 40 has the keyword count, not the words; t0308 the rest);
#   - bar: a maintainer quoted the BUG_ON() line and objected before the
#     service fetched the thread: the point is made, no mail;
#   - baz v1 gets a reply; the author answers it "warnwatch: mute"; v2
#     gets no mail.
# And the dashboard counts the rule that was called wrong.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

DATA=$WW_TOP/tests/e2e/data/serve-feedback
CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache


# deliver_answer FILE MSGID WHO BODY: a reply to MSGID from WHO into the inbox.
deliver_answer() {
	local subj
	subj=$(mail_header "$(reply_file_by_id "$2")" Subject)
	{
		printf 'From: %s\nDate: %s\nSubject: %s\nTo: warnwatch test bot <bot@example.org>\n' \
			"$3" "$(date -R)" "$subj"
		printf 'Cc: test@example.org\nMessage-ID: <%s>\nIn-Reply-To: <%s>\n' "$1" "$2"
		printf 'References: <%s>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n\n' "$2"
		printf '%s\n' "$4"
	} >"$TEST_DIR/$1.eml"
	pi_deliver test "$TEST_DIR/$1.eml"
}
reply_file_by_id() { grep -l -i "^Message-ID: <$1>" "$MAILDIR"/new/* 2>/dev/null | head -n 1; }

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
relay_start

serve_test_conf "settle = 3"
serve_test_start

A1=20240601100000.1-1-jane@example.org
A2=20240601120000.5-1-jane@example.org
B=20240601101000.2-1-jane@example.org
C1=20240601103000.4-1-jane@example.org
C2=20240601130000.7-1-jane@example.org

# ---- a human made the point first: no mail -------------------------------------
pi_deliver test "$DATA/02-b.eml" "$DATA/03-b-review.eml"
# ---- two series answered ----------------------------------------------------------
pi_deliver test "$DATA/01-a-v1.eml" "$DATA/04-c-v1.eml"
test_expect "foo v1 answered" wait_for 90 has_reply_to "$A1"
test_expect "baz v1 answered" wait_for 60 has_reply_to "$C1"
test_expect "bar is done" wait_for 60 series_is "$B" replied
test_expect "  without a reply: the maintainer quoted the line already" \
	test "$(series_field "$B" reply)" = "none: every point was made in the thread already or called wrong before"
a1=$(reply_file "$A1")
test_expect "foo v1's reply objects to the WARN_ON()" grep -q "WARN_ON(b < 0)" "$a1"
test_expect "  and to the BUG_ON()" grep -q "BUG_ON(!a)" "$a1"

# ---- people answer warnwatch ------------------------------------------------------
a1_id=$(mail_header "$a1" Message-ID | tr -d '<>')
c1_id=$(mail_header "$(reply_file "$C1")" Message-ID | tr -d '<>')
test_expect "the replies reached the archive" \
	wait_for 30 sh -c "curl -sf '$PI_URL/test/$a1_id/raw' >/dev/null && curl -sf '$PI_URL/test/$c1_id/raw' >/dev/null"
deliver_answer jane-a1@example.org "$a1_id" "Jane Hacker <jane@example.org>" \
"On Sat, warnwatch wrote:
> > +	WARN_ON(b < 0);
> This WARN_ON() warns every time

That is a false positive: b comes from a u8.

warnwatch: wrong

Jane"
deliver_answer jane-c1@example.org "$c1_id" "Jane Hacker <jane@example.org>" \
"Thanks, but this driver is mine to break.

warnwatch: mute"

# ---- v2 of both ------------------------------------------------------------------
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
pi_deliver test "$DATA/05-a-v2.eml" "$DATA/07-c-v2.eml"
test_expect "foo v2 answered" wait_for 90 has_reply_to "$A2"
a2=$(reply_file "$A2")
test_expect "foo v2's reply still objects to the BUG_ON()" grep -q "BUG_ON(!a)" "$a2"
# The WARN_ON() may stand in the quoted context of the BUG_ON(); no word of
# warnwatch's own (a line not quoted) may be about it.
test_expect "  but not to the WARN_ON() called a false positive" sh -c "! grep -v '^>' '$a2' | grep -Eq 'WARN_ON\((\)|b)'"
test_expect "baz v2 is done" wait_for 60 series_is "$C2" replied
case $(series_field "$C2" reply) in
"none: jane@example.org (the author) muted warnwatch on this series"*) ok "  without a reply: muted by the author" ;;
*) not_ok "  without a reply: muted by the author: $(series_field "$C2" reply)" ;;
esac
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
test_expect "no reply to baz v2" test "$(replies_to "$C2")" -eq 0
test_expect "no reply to bar" test "$(replies_to "$B")" -eq 0
test_expect "three replies in all" test "$(maildir_files | xargs grep -l '^From: warnwatch test bot' | wc -l)" -eq 3

# ---- the dashboard ------------------------------------------------------------------
"$WARNWATCH" dashboard --config "$CONF" --out "$TEST_DIR/site" >/dev/null 2>&1
test_expect "the dashboard counts the rule called wrong" \
	grep -q '<tr><th scope="row">new-warn[^<]*</th><td class="n">1</td><td class="n">1</td></tr>' "$TEST_DIR/site/index.html"

kill -TERM "$SERVE_PID"
wait_for 15 sh -c "! kill -0 $SERVE_PID"
relay_stop
grep -E 'warnwatch serve: (series|test)|left out|feedback' "$TEST_DIR/serve.log" | sed 's/^/# /' | head -n 40
done_testing
