#!/usr/bin/env bash
# Feedback trusts Authentication-Results only from the list's configured
# authserv-id (issue 40), end to end on loopback: a real public-inbox,
# aiosmtpd relaying list mail back into it, and the service with
# `authserv-id = mx.test.example`.
#   - kim's foo v1 gets a reply objecting to a BUG_ON() and a WARN_ON();
#   - three mails with kim's From: say "warnwatch: wrong" quoting the
#     BUG_ON(), each with a forged pass: only another authserv-id's; another
#     authserv-id's pass above the trusted MTA's fail; the trusted MTA's
#     fail above a pass claiming its name (the sender's own header, below);
#     and a forged mute-me with another authserv-id's pass;
#   - kim, with the trusted MTA's dkim=pass on top, says "warnwatch: wrong"
#     quoting the WARN_ON();
#   - foo v2: its reply still objects to the BUG_ON() and not to the
#     WARN_ON(); the forged ones are logged as unverified; only kim's
#     suppression is in status, with the MTA's words as its trust; no
#     confirmation request went out.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "python3-aiosmtpd is not installed (make deps)"

CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
MX=mx.test.example
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

# patch_mail FILE MSGID SUBJECT: kim's one-patch series adding a BUG_ON()
# and a WARN_ON() to foo_run(), DKIM-passed by the list's MTA.
patch_mail() {
	cat >"$TEST_DIR/$1" <<EOF
Authentication-Results: $MX; dkim=pass header.d=example.org
From: Kim Hacker <kim@example.org>
Date: $(date -R)
Subject: $3
To: Greg Maintainer <greg@example.org>
Cc: test@example.org
Message-ID: <$2>
MIME-Version: 1.0
Content-Type: text/plain; charset=UTF-8

Check what the callers pass in before using it.

Signed-off-by: Kim Hacker <kim@example.org>
---
 drivers/foo/foo.c | 2 ++
 1 file changed, 2 insertions(+)

diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c
index 332a4fbf18ff..4b1d3a7e2c55 100644
--- a/drivers/foo/foo.c
+++ b/drivers/foo/foo.c
@@ -100,5 +100,7 @@ static int foo_run(struct foo *a, int b)
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

# answer MSGID IN-REPLY-TO AUTH-RESULTS BODY: a mail with kim's From:
# and the Authentication-Results: lines AUTH-RESULTS (top first).
answer() {
	{
		printf '%s' "$3"
		printf 'From: Kim Hacker <kim@example.org>\nDate: %s\nSubject: Re: feedback\n' "$(date -R)"
		printf 'To: test@example.org\nMessage-ID: <%s>\nIn-Reply-To: <%s>\n' "$1" "$2"
		printf 'References: <%s>\nMIME-Version: 1.0\n' "$2"
		printf 'Content-Type: text/plain; charset=UTF-8\n\n%s\n' "$4"
	} >"$TEST_DIR/$1.eml"
	pi_deliver test "$TEST_DIR/$1.eml"
}

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
relay_start

serve_test_conf "" "authserv-id = $MX"
serve_test_start

K1=20240801100000.1-1-kim@example.org
K2=20240801120000.2-1-kim@example.org
TITLE="foo: check the arguments of foo_run()"
BUG=$(printf '> > +\tBUG_ON(!a);\n\nwarnwatch: wrong')
PASS_OTHER="Authentication-Results: mx.evil.example; dkim=pass header.d=example.org
"
FAIL_OURS="Authentication-Results: $MX; dkim=fail header.d=example.org
"
PASS_OURS="Authentication-Results: $MX; dkim=pass header.d=example.org
"

patch_mail k1.eml "$K1" "[PATCH] $TITLE"
test_expect "foo v1 answered" wait_for 90 has_reply_to "$K1"
r1=$(reply_id "$K1")
test_expect "  its reply reached the archive" wait_for 30 in_archive "$r1"
answer other-id@evil.example "$r1" "$PASS_OTHER" "$BUG"
answer other-above@evil.example "$r1" "$PASS_OTHER$FAIL_OURS" "$BUG"
answer ours-below@evil.example "$r1" "$FAIL_OURS${PASS_OURS}Received: from evil.example
" "$BUG"
answer muteme@evil.example "$r1" "$PASS_OTHER" "warnwatch: mute-me"
answer kim@example.org "$r1" "$PASS_OURS" \
"$(printf '> > +\tWARN_ON(b < 0);\n\nb comes from a u8.\n\nwarnwatch: wrong\n\nKim')"

sleep 2
patch_mail k2.eml "$K2" "[PATCH v2] $TITLE"
test_expect "foo v2 answered" wait_for 90 has_reply_to "$K2"
test_expect "  its reply still objects to the BUG_ON() the forged mails called wrong" \
	sh -c "grep -v '^>' '$(reply_file "$K2")' | grep -q 'BUG_ON()'"
test_expect "  not to the WARN_ON() kim (trusted MTA's pass) called wrong" \
	sh -c "[ -s '$(reply_file "$K2")' ] && ! grep -v '^>' '$(reply_file "$K2")' | grep -Eq 'WARN_ON\\((\\)|b)'"
test_expect "another authserv-id's pass alone: not verified" \
	logged "<other-id@evil.example>\\) not recorded: its From: is not verified \\(no Authentication-Results by $MX\\)"
test_expect "another authserv-id's pass above the trusted MTA's fail: not verified" \
	logged "<other-above@evil.example>\\) not recorded: its From: is not verified \\(no DKIM or DMARC pass for example.org by $MX\\)"
test_expect "a pass in the MTA's name below its own fail: not verified" \
	logged "<ours-below@evil.example>\\) not recorded: its From: is not verified \\(no DKIM or DMARC pass"
test_expect "the forged mute-me: not verified" \
	logged "'warnwatch: mute-me' from kim@example.org \\(<muteme@evil.example>\\) not recorded: its From: is not verified"
test_expect "only kim's own keyword is a suppression, trusted for the MTA's pass" \
	test "$(supp "[(x['what'], x['message_id'], x['trust']) for x in s]")" \
	= "[('finding', 'kim@example.org', 'dkim=pass header.d=example.org by $MX')]"
test_expect "no confirmation request went out" \
	sh -c "! grep -l '^Subject: warnwatch: did you ask not to be reviewed' '$MAILDIR'/new/* 2>/dev/null | grep -q ."

kill -TERM "$SERVE_PID"
wait_for 15 sh -c "! kill -0 $SERVE_PID"
relay_stop
grep -E 'not recorded|feedback' "$TEST_DIR/serve.log" | sed 's/^/# /' | head -n 20
done_testing
