#!/usr/bin/env bash
# Recipients an attacker writes into From:/To:/Cc: (issue 22), end to end
# on loopback: a real public-inbox-httpd serving a test inbox, a real SMTP
# server (aiosmtpd, Maildir, which records every envelope recipient as
# X-RcptTo) and `warnwatch serve` with reply = send, reply-to = all.
#   - Three hostile From: shapes -- a second mailbox, an address inside a
#     comment, an encoded display name holding '<victim@...>,' -- get mail
#     to the one real author (the first mailbox) and the list, nobody else.
#   - A mailbox inside an encoded word RFC 2047 forbids in a phrase
#     (issue 33.6: "=?UTF-8?Q?Jane_<victim3@gmail.com>,_Bob?= <jane@...>",
#     one spread over two words, one in Cc:) is text of a display name:
#     the reply goes to the real mailboxes only.
#   - [review] skip-authors holds for every recipient: a Cc'd opted-out
#     address is left out, the others still get the reply.
#   - allow-senders holds for every recipient: a Cc: outside it keeps the
#     reply a draft, although the author is allowed.
#   - Only the configured list is the list: on a list with no address
#     configured (reply-to = both), a Cc'd x@lists.evil.example is neither
#     Cc'd as "the list" nor exempt from allow-senders; the author alone
#     gets the reply.
. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache


# rcpt_of MSGID: the envelope recipients of the reply to MSGID, sorted,
# one line ("" when there is no reply).
rcpt_of() {
	local f
	f=$(grep -l -i "^In-Reply-To: <$1>" "$MAILDIR"/new/* 2>/dev/null | head -1)
	[ -n "$f" ] || return 0
	"$WW_PYTHON" - "$f" <<'PY'
import sys, email
m = email.message_from_binary_file(open(sys.argv[1], "rb"))
rcpt = []
for v in m.get_all("X-RcptTo") or []:
    rcpt += [a.strip().lower() for a in v.split(",") if a.strip()]
print(" ".join(sorted(rcpt)))
PY
}

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_init test2 || { echo "Bail out! public-inbox-init test2 failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"

HTTP_PORT=$(free_port)
{
	conf_serve_head "$STATE" "$SMTP_URL"
	cat <<EOF
[review]
contact = Test Maintainer <maint@example.org>
skip-authors = *@opted-out.example

[serve]
listen = 127.0.0.1:$HTTP_PORT
poll-interval = 1
settle = 2
max-sleep = 1
retry-base = 1

[list.test]
archive = $PI_URL
inbox = test
address = test@example.org
boot = no
reply = send
# Pacing (one mail per author per hour) is t0309's: not what this measures.
pace = 0
reply-to = all
allow-senders = *@example.org

[list.test2]
archive = $PI_URL
inbox = test2
boot = no
reply = send
# Pacing (one mail per author per hour) is t0309's: not what this measures.
pace = 0
reply-to = both
allow-senders = *@example.org
EOF
} >"$CONF"

# patch_mail N FROM CC [TO]: one patch adding a BUG_ON(), as the list has it.
patch_mail() {
	local n=$1 from=$2 cc=$3 to=${4:-test@example.org}
	cat <<EOF
From: $from
Date: Mon, 06 May 2024 1$n:00:01 +0000
Subject: [PATCH] klist: check node $n in klist_del$n()
To: $to
${cc:+Cc: $cc
}Message-ID: <hostile-$n@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8

Catch a NULL node early.

Signed-off-by: Jane Developer <jane@example.org>
---
diff --git a/lib/klist$n.c b/lib/klist$n.c
index 332a4fbf18ff..5c2e8d1a0b77 100644
--- a/lib/klist$n.c
+++ b/lib/klist$n.c
@@ -230,6 +230,7 @@ static void klist_put(struct klist_node *n, bool kill)
  */
 void klist_del$n(struct klist_node *n)
 {
+	BUG_ON(!n);
 	klist_put(n, true);
 }
 EXPORT_SYMBOL_GPL(klist_del$n);
-- 
2.39.2
EOF
}

mkdir -p "$TEST_DIR/mail"
patch_mail 1 'Jane Developer <jane@example.org>, Victim <victim1@elsewhere.example>' '' >"$TEST_DIR/mail/1.eml"
patch_mail 2 'jane@example.org (Jane Developer <victim2@elsewhere.example>)' '' >"$TEST_DIR/mail/2.eml"
patch_mail 3 '=?UTF-8?q?Jane_=3Cvictim3=40elsewhere=2Eexample=3E=2C?= <jane@example.org>' '' >"$TEST_DIR/mail/3.eml"
patch_mail 4 'Jane Developer <jane@example.org>' \
	'Otto Optout <otto@opted-out.example>, Sam Reviewer <sam@example.org>' >"$TEST_DIR/mail/4.eml"
patch_mail 5 'Jane Developer <jane@example.org>' 'Eve <eve@elsewhere.example>' >"$TEST_DIR/mail/5.eml"
patch_mail 8 '=?UTF-8?Q?Jane_<victim3@gmail.com>,_Bob?= <jane@example.org>' '' >"$TEST_DIR/mail/8.eml"
patch_mail 9 '=?UTF-8?Q?Jane_<victim8@?= =?UTF-8?Q?elsewhere.example>,?= <jane@example.org>' \
	'=?UTF-8?Q?Sam_<victim9@elsewhere.example>,_R?= <sam@example.org>' >"$TEST_DIR/mail/9.eml"
patch_mail 0 'Jane Developer <jane@example.org>' '' >"$TEST_DIR/mail/0.eml"
patch_mail 7 'Jane Developer <jane@example.org>' '' test2@example.org >"$TEST_DIR/mail/7.eml"
patch_mail 6 'Jane Developer <jane@example.org>' 'X <x@lists.evil.example>' \
	test2@example.org >"$TEST_DIR/mail/6.eml"

# What was there before the service watched is left alone: its first poll
# is done when mail 0 is skipped.
pi_deliver test "$TEST_DIR/mail/0.eml" || { echo "Bail out! public-inbox-mda failed"; exit 1; }
pi_deliver test2 "$TEST_DIR/mail/7.eml" || { echo "Bail out! public-inbox-mda failed"; exit 1; }
"$WARNWATCH" serve --config "$CONF" --verbose >>"$TEST_DIR/serve.log" 2>&1 &
SERVE_PID=$!
ww_track "$SERVE_PID" warnwatch-serve
if wait_port "$HTTP_PORT" 100; then
	ok "the service starts"
else
	not_ok "the service starts"
	sed 's/^/#   /' "$TEST_DIR/serve.log"
fi
test_expect "the list is polled once" wait_for 30 series_is hostile-0@example.org skipped
test_expect "the second list is polled once" wait_for 30 series_is hostile-7@example.org skipped

for n in 1 2 3 4 5 8 9; do
	pi_deliver test "$TEST_DIR/mail/$n.eml" || { echo "Bail out! public-inbox-mda refused mail $n"; exit 1; }
done
pi_deliver test2 "$TEST_DIR/mail/6.eml" || { echo "Bail out! public-inbox-mda refused mail 6"; exit 1; }
for n in 1 2 3 4 5 6 8 9; do
	if ! wait_for 90 series_is "hostile-$n@example.org" replied; then
		not_ok "series $n done within 90 s ($(series_field "hostile-$n@example.org" state))"
		tail -n 20 "$TEST_DIR/serve.log" | sed 's/^/#   /'
	fi
done

want="jane@example.org test@example.org"
for n in 1 2 3 8; do
	got=$(rcpt_of "hostile-$n@example.org")
	desc=$(sed -n 's/^From: //p' "$TEST_DIR/mail/$n.eml" | head -1)
	if [ "$got" = "$want" ]; then
		ok "From: $desc -> mailed to the author and the list only"
	else
		not_ok "From: $desc -> mailed to the author and the list only"
		diag "got: '$got'" "want: '$want'"
	fi
done
got=$(rcpt_of hostile-9@example.org)
test_expect "mailboxes in encoded words spread over two, and in Cc:: the real ones only ($got)" \
	test "$got" = "jane@example.org sam@example.org test@example.org"
got=$(rcpt_of hostile-4@example.org)
test_expect "skip-authors holds for a Cc'd address, the others still get it ($got)" \
	test "$got" = "jane@example.org sam@example.org test@example.org"
got=$(rcpt_of hostile-5@example.org)
test_expect "a Cc: outside allow-senders: nothing sent although the author is allowed ($got)" \
	test -z "$got"
test_expect "  drafted, saying why" \
	test "$(series_field hostile-5@example.org reply)" = "drafted, not sent: a recipient is not in allow-senders"
got=$(rcpt_of hostile-6@example.org)
test_expect "a Cc'd x@lists.evil.example is not the list: the author alone ($got)" \
	test "$got" = "jane@example.org"
test_expect "nobody at elsewhere.example, opted-out.example, lists.evil.example or gmail.com got anything" \
	sh -c "! grep -qi '^X-RcptTo:.*\(\(elsewhere\|opted-out\|lists\.evil\)\.example\|gmail\.com\)' '$MAILDIR'/new/*"
test_expect "seven replies in all" test "$(maildir_count)" -eq 7

done_testing
