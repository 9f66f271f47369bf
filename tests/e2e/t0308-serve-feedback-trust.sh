#!/usr/bin/env bash
# Feedback and mutes count only from the people a finding concerns (issue
# 40), end to end on loopback: a real public-inbox-httpd, aiosmtpd relaying
# what goes to the list back into the inbox, and the service.
#   - kim's foo v1 gets a reply objecting to a BUG_ON() and a WARN_ON();
#     a stranger answers it "NAK." and "warnwatch: wrong"; someone forges
#     kim's From: with "warnwatch: mute-me"; greg (a recipient) agrees:
#     "this BUG_ON() is wrong";
#   - foo v2 keeps both calls: its reply still objects to both; kim is not
#     muted, and a confirmation request went to kim alone (not the list);
#   - kim answers v2's reply "warnwatch: wrong" quoting the WARN_ON(): foo
#     v3's reply objects to the BUG_ON() only; status lists the suppression
#     (family scope, who, why, 180 days) and `warnwatch lift` lifts it;
#   - jane's own series adding the same WARN_ON() is not silenced;
#   - kim confirms the mute-me from kim's address with the token: kim's
#     next series gets no mail; a confirmation with a wrong token before
#     that changed nothing.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "python3-aiosmtpd is not installed (make deps)"

CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

# patch_mail FILE MSGID FROM SUBJECT FILE_C FUNCTION: a one-patch series
# adding a BUG_ON() and a WARN_ON() to FUNCTION in FILE_C.
patch_mail() {
	cat >"$TEST_DIR/$1" <<EOF
From: $3
Date: $(date -R)
Subject: $4
To: Greg Maintainer <greg@example.org>
Cc: test@example.org
Message-ID: <$2>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8

Check what the callers pass in before using it.

Signed-off-by: $3
---
 $5 | 2 ++
 1 file changed, 2 insertions(+)

diff --git a/$5 b/$5
index 332a4fbf18ff..4b1d3a7e2c55 100644
--- a/$5
+++ b/$5
@@ -100,5 +100,7 @@ static int $6(struct foo *a, int b)
 	int ret;
 
+	BUG_ON(!a);
+	WARN_ON(b < 0);
 	ret = foo_do(a, b);
 	if (ret)
 		return ret;
-- 
2.39.2
EOF
	pi_deliver test "$TEST_DIR/$1"
}

# answer FILE MSGID FROM BODY [REFERENCES]: a reply to MSGID into the inbox.
answer() {
	{
		printf 'From: %s\nDate: %s\nSubject: Re: feedback\n' "$3" "$(date -R)"
		printf 'To: test@example.org\nMessage-ID: <%s>\nIn-Reply-To: <%s>\n' "$1" "$2"
		printf 'References: %s<%s>\nMIME-Version: 1.0\n' "${5:+$5 }" "$2"
		printf 'Content-Type: text/plain; charset=UTF-8\n\n%s\n' "$4"
	} >"$TEST_DIR/$1.eml"
	pi_deliver test "$TEST_DIR/$1.eml"
}
# The body of the reply to MSGID, without the quoted patch: warnwatch's words.
own_words() { grep -v '^>' "$(reply_file "$1")"; }
not_logged() { ! logged "$1"; }
# no_token TOKEN: status.json does not hold it.
no_token() { [ -n "$1" ] && ! status_json | grep -q "$1"; }

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
relay_start

serve_test_conf "" "owners = owner@example.org"
serve_test_start

KIM="Kim Hacker <kim@example.org>"
K1=20240701100000.1-1-kim@example.org
K2=20240701120000.2-1-kim@example.org
K3=20240701140000.3-1-kim@example.org
K4=20240701160000.4-1-kim@example.org
J1=20240701150000.5-1-jane@example.org
TITLE="foo: check the arguments of foo_run()"

# ---- v1, and what people say to warnwatch's reply ---------------------------
patch_mail k1.eml "$K1" "$KIM" "[PATCH] $TITLE" drivers/foo/foo.c foo_run
test_expect "foo v1 answered" wait_for 90 has_reply_to "$K1"
r1=$(reply_id "$K1")
test_expect "  its reply reached the archive" wait_for 30 in_archive "$r1"
answer nak@evil.example "$r1" "Mallory <mallory@evil.example>" "NAK."
answer kw@evil.example "$r1" "Mallory <mallory@evil.example>" "warnwatch: wrong"
# Sent by mallory, From: kim.
answer forged-muteme@evil.example "$r1" "$KIM" "warnwatch: mute-me"
answer greg-agrees@example.org "$r1" "Greg Maintainer <greg@example.org>" \
"$(printf '> > +\tBUG_ON(!a);\n\nthis BUG_ON() is wrong, yes: return -EINVAL.\n\nGreg')"

# ---- v2: nothing was silenced --------------------------------------------------
sleep 2
patch_mail k2.eml "$K2" "$KIM" "[PATCH v2] $TITLE" drivers/foo/foo.c foo_run
test_expect "foo v2 answered" wait_for 90 has_reply_to "$K2"
test_expect "  its reply still objects to the BUG_ON() the maintainer agreed on" \
	sh -c "grep -v '^>' '$(reply_file "$K2")' | grep -q 'BUG_ON()'"
test_expect "  and to the WARN_ON() the stranger called wrong" \
	sh -c "grep -v '^>' '$(reply_file "$K2")' | grep -Eq 'WARN_ON\\(\\)'"
test_expect "  the stranger's keyword was refused, and said so" \
	logged "from mallory@evil.example \\(<kw@evil.example>\\) not recorded: neither the author"
test_expect "  the NAK is discussion" logged 'wrote "NAK" in <nak@evil.example>, a reply to warnwatch: discussion'
test_expect "  and so is the maintainer's agreement" \
	logged 'wrote "wrong" in <greg-agrees@example.org>, a reply to warnwatch: discussion'
request=$(grep -l '^Subject: warnwatch: did you ask not to be reviewed' "$MAILDIR"/new/* 2>/dev/null | head -n 1)
test_expect "a confirmation request went out for the forged mute-me" test -n "$request"
if [ -n "$request" ]; then
	test_expect "  to kim alone" sh -c "grep -q '^X-RcptTo: kim@example.org\$' '$request' && ! grep -qi '^X-RcptTo:.*test@example' '$request'"
	req_id=$(mail_header "$request" Message-ID | tr -d '<>')
	token=$(grep -o 'warnwatch: confirm [0-9a-f]\{32\}' "$request" | awk '{print $3}')
	test_expect "  with a token" test -n "$token"
	test_expect "  the relay read it" wait_for 30 relayed "$request"
	test_expect "  never in the list's archive" sh -c "! curl -sf '$PI_URL/test/$req_id/raw' >/dev/null"
fi
test_expect "the mute-me is pending, listed in status" \
	test "$(supp "[x['state'] for x in s if x['what'] == 'mail' and x['scope'] == 'author']")" = "['pending']"
test_expect "  status.json never holds the token" no_token "$token"
test_expect "nothing else was recorded from v1's thread" test "$(supp "len(s)")" = 1

# ---- the author's keyword: v3 is silent on the WARN_ON(), and only there ---------
r2=$(reply_id "$K2")
test_expect "v2's reply reached the archive" wait_for 30 in_archive "$r2"
answer kim-wrong@example.org "$r2" "$KIM" \
"$(printf '> > +\tWARN_ON(b < 0);\n\nb comes from a u8.\n\nwarnwatch: wrong\n\nKim')"
sleep 2
patch_mail k3.eml "$K3" "$KIM" "[PATCH v3] $TITLE" drivers/foo/foo.c foo_run
test_expect "foo v3 answered" wait_for 90 has_reply_to "$K3"
test_expect "  its reply objects to the BUG_ON()" sh -c "grep -v '^>' '$(reply_file "$K3")' | grep -q 'BUG_ON()'"
test_expect "  not to the WARN_ON() its author called wrong" \
	sh -c "[ -s '$(reply_file "$K3")' ] && ! grep -v '^>' '$(reply_file "$K3")' | grep -Eq 'WARN_ON\\((\\)|b)'"
test_expect "the suppression is listed: the finding, family scope, by the author, why" \
	test "$(supp "[(x['what'], x['scope'], x['key'], x['by'], x['role'], x['why']) for x in s if x['what'] == 'finding']")" \
	= "[('finding', 'family', '$K2', 'kim@example.org', 'author', 'warnwatch: wrong')]"
test_expect "  it expires after 180 days" \
	test "$(supp "[x['expires'] - x['created'] for x in s if x['what'] == 'finding']")" = "[15552000]"
test_expect "  status shows it" sh -c "'$WARNWATCH' status --config '$CONF' | grep -q 'finding .*for the family .*by kim@example.org (author)'"

# ---- another author, the same call: not silenced ---------------------------------
patch_mail j1.eml "$J1" "Jane Doe <jane@example.org>" "[PATCH] bar: check foo_run() too" drivers/foo/foo.c foo_run
test_expect "jane's series with the same WARN_ON() answered" wait_for 90 has_reply_to "$J1"
test_expect "  and it objects to the WARN_ON()" sh -c "grep -v '^>' '$(reply_file "$J1")' | grep -Eq 'WARN_ON\\(\\)'"

# ---- lifting it ---------------------------------------------------------------------
fid=$(supp "[x['id'] for x in s if x['what'] == 'finding'][0]")
test_status "warnwatch lift ID lifts it" 0 "suppression $fid lifted" -- "$WARNWATCH" lift --config "$CONF" "$fid"
test_expect "  status no longer lists it" test "$(supp "[x['id'] for x in s if x['what'] == 'finding']")" = "[]"
test_status "  lifting it again is an error" 2 "no live suppression $fid" -- "$WARNWATCH" lift --config "$CONF" "$fid"

# ---- kim confirms, from kim's address: now kim is muted ------------------------------
m1=forged-muteme@evil.example
answer bad-confirm@evil.example "${req_id:-none}" "$KIM" "warnwatch: confirm 0123456789abcdef0123456789abcdef" "<$m1>"
answer kim-confirm@example.org "${req_id:-none}" "$KIM" \
"$(printf '> warnwatch: confirm %s\n\nYes, that was me (I forgot I had).\n' "${token:-none}")" "<$K1> <$r1> <$m1>"
sleep 2
patch_mail k4.eml "$K4" "$KIM" "[PATCH] qux: check the arguments of qux_run()" drivers/qux/qux.c qux_run
test_expect "kim's next series is done" wait_for 90 series_is "$K4" replied
case $(series_field "$K4" reply) in
"none: kim@example.org (the author) muted warnwatch for their series"*) ok "  without a reply: muted, confirmed from the address" ;;
*) not_ok "  without a reply: muted, confirmed from the address: $(series_field "$K4" reply)" ;;
esac
test_expect "  no reply to it" test "$(replies_to "$K4")" -eq 0
test_expect "  the right token confirmed it" logged 'kim@example.org confirmed their mute-me in <kim-confirm@example.org>'
test_expect "  the wrong one nothing" not_logged 'confirmed their mute-me in <bad-confirm'
test_expect "  status lists the mute as active" \
	test "$(supp "[x['state'] for x in s if x['what'] == 'mail' and x['scope'] == 'author']")" = "['active']"

kill -TERM "$SERVE_PID"
wait_for 15 sh -c "! kill -0 $SERVE_PID"
relay_stop
grep -E 'warnwatch serve: (series|test)|left out|feedback|not recorded|discussion|confirm' "$TEST_DIR/serve.log" | sed 's/^/# /' | head -n 60
done_testing
