#!/usr/bin/env bash
# t0110-smtp-tls: `warnwatch review --send` over TLS and with AUTH, end to
# end, against real SMTP servers (python3-aiosmtpd, tests/e2e/tls-smtp.py)
# on 127.0.0.1 and a throwaway CA made here with the openssl CLI.
#
#   starttls  STARTTLS offered and required, AUTH PLAIN/LOGIN required
#   smtps     implicit TLS (smtps://), AUTH LOGIN only
#   plain     no STARTTLS, AUTH offered in clear text (a trap)
#   badname   STARTTLS with a certificate of our CA for another host name
#
# Every server writes one JSON line per session (TLS or not, the commands
# it got before TLS, AUTH attempts, whether the password crossed in clear
# text, the Message-IDs stored), so the checks are about what the server
# saw, not only about what warnwatch says.
. "$(dirname "$0")/lib.sh"

need_cmd openssl b4 timeout
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }

DATA=$WW_TOP/tests/e2e/data
LOGIN=warnwatch-bot
export WARNWATCH_CACHE=$TEST_DIR/cache
unset WARNWATCH_SMTP_DEBUG

# ---- a throwaway CA, never committed ------------------------------------------------

PKI=$TEST_DIR/pki
mkdir -p "$PKI"
chmod 700 "$PKI"

# openssl_q ARGS...: openssl, quiet unless it fails.
openssl_q() {
	local out
	out=$(openssl "$@" 2>&1) || { printf '%s\n' "$out" | sed 's/^/#   /'; return 1; }
}

# mkca NAME: a self-signed CA certificate NAME.pem and key NAME.key.
mkca() {
	openssl_q req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$PKI/$1.key" -out "$PKI/$1.pem" -days 2 -sha256 \
		-subj "/O=warnwatch t0110/CN=$1" \
		-addext "basicConstraints=critical,CA:TRUE" \
		-addext "keyUsage=critical,keyCertSign,cRLSign"
}

# mkcert NAME CA SAN: a server certificate NAME.pem signed by CA.
mkcert() {
	printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n' \
		"$3" >"$PKI/$1.ext"
	openssl_q req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$PKI/$1.key" -out "$PKI/$1.csr" -subj "/O=warnwatch t0110/CN=$1" &&
	openssl_q x509 -req -in "$PKI/$1.csr" -CA "$PKI/$2.pem" -CAkey "$PKI/$2.key" \
		-set_serial "0x$(openssl rand -hex 8)" -days 2 -sha256 \
		-extfile "$PKI/$1.ext" -out "$PKI/$1.pem"
}

if mkca ca && mkca other-ca && mkcert server ca "IP:127.0.0.1,DNS:localhost" &&
   mkcert elsewhere ca "DNS:mail.example.org" &&
   openssl_q verify -CAfile "$PKI/ca.pem" "$PKI/server.pem" &&
   ! openssl verify -CAfile "$PKI/other-ca.pem" "$PKI/server.pem" >/dev/null 2>&1; then
	ok "openssl made a CA, an unrelated CA and server certificates for 127.0.0.1"
else
	not_ok "making the test CA and certificates with openssl"
	done_testing
	exit 1
fi

# The password: the server's copy, and the client's (0600, as required).
PASSWORD="correct horse $$ battery"
printf '%s\n' "$PASSWORD" >"$TEST_DIR/server-password"
printf '%s\n' "$PASSWORD" >"$TEST_DIR/password"
printf 'not the password\n' >"$TEST_DIR/wrong-password"
chmod 600 "$TEST_DIR/server-password" "$TEST_DIR/password" "$TEST_DIR/wrong-password"

# ---- the servers -----------------------------------------------------------------------

declare -A PORT
# tls_start NAME MODE CERT [MECHS]: start tls-smtp.py; PORT[NAME] once it listens.
tls_start() {
	local name=$1 mode=$2 cert=$3 mechs=${4:-PLAIN,LOGIN} dir=$TEST_DIR/srv-$1 pid i
	mkdir -p "$dir"
	: >"$dir/log"
	"$WW_PYTHON" "$WW_TOP/tests/e2e/tls-smtp.py" "$mode" "$dir/port" "$dir/maildir" \
		"$dir/log" "$LOGIN" "$TEST_DIR/server-password" "$PKI/$cert.pem" "$PKI/$cert.key" \
		"$mechs" >"$dir/out" 2>&1 &
	pid=$!
	ww_track "$pid" "tls-smtp-$name"
	for ((i = 0; i < 100; i++)); do
		[ -s "$dir/port" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if [ ! -s "$dir/port" ]; then
		sed 's/^/#   /' "$dir/out"
		return 1
	fi
	PORT[$name]=$(cat "$dir/port")
}

for spec in "starttls starttls server" "smtps smtps server LOGIN" "plain plain server" \
	    "badname starttls elsewhere" "deny deny server"; do
	set -- $spec
	if tls_start "$@"; then
		ok "tls-smtp.py ($2, ${4:-PLAIN,LOGIN}) listens on 127.0.0.1:${PORT[$1]}"
	else
		not_ok "tls-smtp.py $2 starts"
		done_testing
		exit 1
	fi
done
set --

# srv_mails NAME: messages stored by that server.
srv_mails() {
	find "$TEST_DIR/srv-$1/maildir/new" "$TEST_DIR/srv-$1/maildir/cur" -type f 2>/dev/null | wc -l
}

# ---- warnwatch ---------------------------------------------------------------------------

# The tree under review: a coding-style.rst of a few lines is enough here
# (the reply's words are t0100's business), and nothing else is needed.
TREE=$TEST_DIR/tree
mkdir -p "$TREE/Documentation/process"
cat >"$TREE/Documentation/process/coding-style.rst" <<'EOF'
Use WARN() rather than BUG()
****************************

Do not add new code that uses any of the BUG() variants.
EOF

# conf NAME URL STARTTLS CA-FILE PASSWORD-FILE: $TEST_DIR/NAME.conf, with
# its own state directory.  Empty CA-FILE or PASSWORD-FILE: no such key
# (no password file: no user either).
conf() {
	{
		printf '[identity]\nname = warnwatch\nemail = warnwatch@example.org\n\n'
		printf '[smtp]\nurl = %s\nstarttls = %s\ntimeout = 20\n' "$2" "$3"
		[ -n "$4" ] && printf 'ca-file = %s\n' "$4"
		[ -n "$5" ] && printf 'user = %s\npassword-file = %s\n' "$LOGIN" "$5"
		printf '\n[state]\ndir = %s\n' "$TEST_DIR/state-$1"
	} >"$TEST_DIR/$1.conf"
}

# send NAME: review --send of the example series with NAME.conf, from /
# (relative paths in the configuration are relative to the file, not to
# the current directory).  Status in $rc, output in $TEST_DIR/NAME.{out,err}.
send() {
	local t0=$SECONDS
	(cd / && timeout -k 5 60 "$WARNWATCH" review --config "$TEST_DIR/$1.conf" \
		--mbox "$DATA/example-v1.mbox" --tree "$TREE" --send \
		>"$TEST_DIR/$1.out" 2>"$TEST_DIR/$1.err")
	rc=$?
	diag "review --send with $1.conf -> $rc in $((SECONDS - t0)) s"
}

# sent_id NAME: the Message-ID that review says it sent.
sent_id() { sed -n 's/^sent <\([^>]*\)>.*/\1/p' "$TEST_DIR/$1.out"; }

# one_line NAME PATTERN: exit 2, exactly one line on stderr, matching.
one_line() {
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$TEST_DIR/$1.err")" -eq 1 ] &&
		grep -q -- "$2" "$TEST_DIR/$1.err"
}

# show NAME: what warnwatch said, as diagnostics.
show() { sed 's/^/#   /' "$TEST_DIR/$1.out" "$TEST_DIR/$1.err"; }

# sessions NAME FROM PYEXPR: PYEXPR (about `s`, the list of sessions the
# server NAME logged from line FROM on, and `pw`, `login`) holds.
sessions() {
	"$WW_PYTHON" - "$TEST_DIR/srv-$1/log" "$2" "$3" "$LOGIN" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    s = [json.loads(l) for l in f.readlines()[int(sys.argv[2]):]]
login = sys.argv[4]
if not eval("(" + sys.argv[3] + ")"):
    for x in s:
        print("#   session: " + json.dumps(x))
    sys.exit(1)
PY
}

# log_lines NAME: how many sessions the server NAME has logged so far.
log_lines() { wc -l <"$TEST_DIR/srv-$1/log"; }

# wait_log NAME N: until the server NAME has logged N sessions (it logs a
# session when the connection is closed, maybe just after warnwatch exits).
logged() { [ "$(log_lines "$1")" -ge "$2" ]; }
wait_log() { wait_for 5 logged "$1" "$2"; }

# quiet NAME N plain|tls: the server NAME has had no session since its Nth.
# A session of our own (NOOP, QUIT), opened now, after warnwatch exited,
# is accepted after any warnwatch opened (the server numbers sessions as
# it accepts them): it must be the N+1th, and the only one logged since.
# A check that warnwatch did not connect waits for this, not for the clock.
quiet() {
	"$WW_PYTHON" - "${PORT[$1]}" "$2" "$TEST_DIR/srv-$1/log" "$3" <<'PY'
import json, socket, ssl, sys, time
port, n, log, tls = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4] == "tls"
s = socket.create_connection(("127.0.0.1", port), timeout=10)
if tls:
    ctx = ssl.create_default_context()
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    s = ctx.wrap_socket(s)
f = s.makefile("rb")
f.readline()
for cmd in (b"NOOP\r\n", b"QUIT\r\n"):
    s.sendall(cmd)
    f.readline()
# A TLS close_notify back: without it the server's asyncio may wait its
# ssl_shutdown_timeout (30 s) before the session ends and is logged.
if tls:
    try:
        s = s.unwrap()
    except (OSError, ssl.SSLError):
        pass
s.close()
for _ in range(300):
    with open(log) as fh:
        rec = [json.loads(l) for l in fh]
    mine = [r for r in rec if r["commands"] == ["NOOP", "QUIT"] and r["conn"] > n]
    if mine:
        sys.exit(0 if mine[0]["conn"] == n + 1 and len(rec) == n + 1 else 1)
    time.sleep(0.1)
sys.exit(1)
PY
}

# store NAME SQL: a query on NAME's state database, one row a line, | between.
store() {
	"$WW_PYTHON" - "$TEST_DIR/state-$1/warnwatch.db" "$2" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=5)
for row in db.execute(sys.argv[2]):
    print("|".join(str(v) for v in row))
PY
}

# ---- STARTTLS required, AUTH PLAIN: delivered, once ----------------------------------------

URL_STARTTLS=smtp://127.0.0.1:${PORT[starttls]}
URL_SMTPS=smtps://127.0.0.1:${PORT[smtps]}
URL_PLAIN=smtp://127.0.0.1:${PORT[plain]}
URL_BADNAME=smtp://127.0.0.1:${PORT[badname]}
URL_DENY=smtp://127.0.0.1:${PORT[deny]}

conf starttls "$URL_STARTTLS" required "$PKI/ca.pem" "$TEST_DIR/password"
send starttls
id=$(sent_id starttls)
if [ "$rc" -eq 0 ] && [ -n "$id" ] && [ "$(srv_mails starttls)" -eq 1 ] && [ ! -s "$TEST_DIR/starttls.err" ]; then
	ok "starttls = required + AUTH: sent <$id>, one mail in the Maildir"
else
	not_ok "starttls = required + AUTH: sent (rc $rc, $(srv_mails starttls) mails)"
	show starttls
fi
wait_log starttls 1
if sessions starttls 0 "len(s) == 1 and s[0]['tls'] == 'starttls' and
   s[0]['tls_version'] in ('TLSv1.2', 'TLSv1.3') and s[0]['clear'] == ['EHLO', 'STARTTLS'] and
   s[0]['auth'] == [{'mech': 'PLAIN', 'user': login, 'ok': True}] and
   s[0]['mails'] == ['<$id>'] and not s[0]['password_in_clear']"; then
	ok "the server saw one session: EHLO, STARTTLS in clear, then AUTH PLAIN as '$LOGIN' and the mail over TLS"
else
	not_ok "the server's view of the STARTTLS session"
fi
m=$(find "$TEST_DIR/srv-starttls/maildir/new" -type f | head -n 1)
if [ -n "$m" ] && [ "$(mail_header "$m" Message-ID)" = "<$id>" ] &&
   [ "$(mail_header "$m" Subject)" = "Re: [PATCH 0/3] time: sanity-check the arguments of time64_to_tm()" ]; then
	ok "the stored mail is the reply (Message-ID, Subject)"
else
	not_ok "the stored mail is the reply"
fi
send starttls
if [ "$rc" -eq 3 ] && [ "$(srv_mails starttls)" -eq 1 ] && quiet starttls 1 plain; then
	ok "a second run sends nothing and does not even connect (exit 3)"
else
	not_ok "a second run (rc $rc, $(srv_mails starttls) mails)"
	show starttls
fi

# ---- smtps://, AUTH LOGIN ------------------------------------------------------------------

conf smtps "$URL_SMTPS" no "$PKI/ca.pem" "$TEST_DIR/password"
send smtps
id=$(sent_id smtps)
if [ "$rc" -eq 0 ] && [ -n "$id" ] && [ "$(srv_mails smtps)" -eq 1 ]; then
	ok "smtps:// + AUTH: sent <$id>, one mail in the Maildir"
else
	not_ok "smtps:// + AUTH (rc $rc, $(srv_mails smtps) mails)"
	show smtps
fi
wait_log smtps 1
if sessions smtps 0 "len(s) == 1 and s[0]['tls'] == 'implicit' and s[0]['clear'] == [] and
   s[0]['auth'] == [{'mech': 'LOGIN', 'user': login, 'ok': True}] and s[0]['mails'] == ['<$id>']"; then
	ok "the server saw TLS from the first byte, AUTH LOGIN as '$LOGIN', one mail"
else
	not_ok "the server's view of the smtps session"
fi

# A relative ca-file is relative to the configuration file, as the
# documentation says of every path in it (warnwatch runs from /).
mails=$(srv_mails smtps)
conf relca "$URL_SMTPS" no "pki/ca.pem" "$TEST_DIR/password"
send relca
if [ "$rc" -eq 0 ] && [ "$(srv_mails smtps)" -eq $((mails + 1)) ]; then
	ok "ca-file = pki/ca.pem is read next to the configuration file"
else
	not_ok "a relative ca-file (rc $rc, $(srv_mails smtps) mails)"
	show relca
fi
# The server logs a session when it ends, which can be after warnwatch
# exits: the count "quiet" below starts from must hold this one.
wait_log smtps 2

# A ca-file that holds no certificate is our mistake, not the server's.
mails=$(srv_mails smtps)
conf badca "$URL_SMTPS" no "$TEST_DIR/server-password" "$TEST_DIR/password"
send badca
if one_line badca "cannot use the CA bundle for SMTP server '$URL_SMTPS': .*$TEST_DIR/server-password" &&
   [ "$(srv_mails smtps)" -eq "$mails" ]; then
	ok "a ca-file that is no certificate: one line that blames it: $(cat "$TEST_DIR/badca.err")"
else
	not_ok "a ca-file that is no certificate (rc $rc)"
	show badca
fi

# ---- the wrong password: refused, recorded as failed, retried ---------------------------

n=$(log_lines starttls) mails=$(srv_mails starttls)
conf wrongpw "$URL_STARTTLS" required "$PKI/ca.pem" "$TEST_DIR/wrong-password"
send wrongpw
if one_line wrongpw "SMTP server '$URL_STARTTLS' refused the login: 535 " &&
   [ "$(srv_mails starttls)" -eq "$mails" ]; then
	ok "wrong password: exit 2, one line quoting the server: $(cat "$TEST_DIR/wrongpw.err")"
else
	not_ok "wrong password (rc $rc)"
	show wrongpw
fi
wait_log starttls $((n + 1))
sessions starttls "$n" "len(s) == 1 and s[0]['tls'] == 'starttls' and
   [a['ok'] for a in s[0]['auth']] == [False] and 'MAIL' not in s[0]['commands']" &&
	ok "... the server refused the AUTH and got no MAIL" ||
	not_ok "... the server's view of the wrong password"
row=$(store wrongpw "SELECT state, message_id, error FROM replies")
failed_id=$(printf '%s' "$row" | cut -d'|' -f2)
case "$row" in
"failed|"*"|"*"refused the login: 535 "*)
	ok "... the store records the failure with the server's answer: $row" ;;
*)
	not_ok "... the store records the failure (got '$row')" ;;
esac
conf wrongpw "$URL_STARTTLS" required "$PKI/ca.pem" "$TEST_DIR/password"
send wrongpw
if [ "$rc" -eq 0 ] && [ -n "$failed_id" ] && [ "$(sent_id wrongpw)" = "$failed_id" ] &&
   [ "$(srv_mails starttls)" -eq $((mails + 1)) ] &&
   [ "$(store wrongpw "SELECT state FROM replies WHERE message_id = '$failed_id'")" = sent ]; then
	ok "with the right password the next run retries it, with the same Message-ID"
else
	not_ok "retry after the wrong password (rc $rc, sent <$(sent_id wrongpw)>, failed <$failed_id>)"
	show wrongpw
fi

# ---- certificates warnwatch must not accept ------------------------------------------------

# tls_refused NAME SERVER MAILS-BEFORE: exit 2, one line, no new mail.
tls_refused() {
	one_line "$1" "cannot talk to SMTP server '[^']*': .*certificate" &&
		[ "$(srv_mails "$2")" -eq "$3" ]
}

n=$(log_lines starttls) mails=$(srv_mails starttls)
conf otherca "$URL_STARTTLS" required "$PKI/other-ca.pem" "$TEST_DIR/password"
send otherca
if tls_refused otherca starttls "$mails"; then
	ok "a certificate not signed by ca-file: refused, one line: $(cat "$TEST_DIR/otherca.err")"
else
	not_ok "a certificate not signed by ca-file (rc $rc)"
	show otherca
fi
wait_log starttls $((n + 1))
sessions starttls "$n" "len(s) == 1 and s[0]['tls'] is None and 'tls_error' in s[0] and
   s[0]['clear'] == ['EHLO', 'STARTTLS'] and s[0]['commands'] == ['EHLO', 'STARTTLS'] and
   not s[0]['password_in_clear'] and not s[0]['mails']" &&
	ok "... the server got EHLO and STARTTLS, then the handshake was dropped: no AUTH, no MAIL" ||
	not_ok "... the server's view of the refused certificate"
[ "$(store otherca "SELECT state FROM replies")" = failed ] &&
	ok "... recorded as failed (the next run retries)" ||
	not_ok "... recorded as failed (got '$(store otherca "SELECT state FROM replies")')"

n=$(log_lines smtps) mails=$(srv_mails smtps)
conf noca "$URL_SMTPS" no "" "$TEST_DIR/password"
send noca
if tls_refused noca smtps "$mails" && quiet smtps "$n" tls; then
	ok "smtps:// without ca-file (the system's CAs only): refused at TLS, one line: $(cat "$TEST_DIR/noca.err")"
else
	not_ok "smtps:// without ca-file (rc $rc; from session $n, the server logged:)"
	sed 's/^/#   /' "$TEST_DIR/srv-smtps/log"
	show noca
fi

n=$(log_lines badname)
conf badname "$URL_BADNAME" required "$PKI/ca.pem" "$TEST_DIR/password"
send badname
if one_line badname "cannot talk to SMTP server '$URL_BADNAME': .*127.0.0.1" &&
   [ "$(srv_mails badname)" -eq 0 ]; then
	ok "our CA's certificate for another host name: refused, one line: $(cat "$TEST_DIR/badname.err")"
else
	not_ok "a certificate for another host name (rc $rc)"
	show badname
fi
wait_log badname $((n + 1))
sessions badname "$n" "len(s) == 1 and s[0]['commands'] == ['EHLO', 'STARTTLS'] and
   not s[0]['password_in_clear']" &&
	ok "... no AUTH, no MAIL reached the server" ||
	not_ok "... the server's view of the wrong host name"

# ---- starttls = required, and the server does not offer it ------------------------------------

n=$(log_lines plain)
conf noffer "$URL_PLAIN" required "$PKI/ca.pem" "$TEST_DIR/password"
send noffer
if one_line noffer "SMTP server '$URL_PLAIN' does not offer STARTTLS.*: nothing sent$" && [ "$(srv_mails plain)" -eq 0 ]; then
	ok "starttls = required, not offered: exit 2, one line: $(cat "$TEST_DIR/noffer.err")"
else
	not_ok "starttls = required against a server without STARTTLS (rc $rc)"
	show noffer
fi
wait_log plain $((n + 1))
sessions plain "$n" "len(s) == 1 and s[0]['tls'] is None and
   not any(c.startswith('AUTH') or c in ('MAIL', 'RCPT', 'DATA') for c in s[0]['commands']) and
   not s[0]['auth'] and not s[0]['password_in_clear']" &&
	ok "... the server (which offers AUTH in clear text) got no AUTH and never saw the password" ||
	not_ok "... the server's view: the password must not cross in clear text"

# STARTTLS offered but refused (454): said as such, and still no AUTH.
n=$(log_lines deny)
conf deny "$URL_DENY" required "$PKI/ca.pem" "$TEST_DIR/password"
send deny
wait_log deny $((n + 1))
if one_line deny "SMTP server '$URL_DENY' refused STARTTLS (454 4.7.0 TLS not available.*), which .*: nothing sent$" &&
   [ "$(srv_mails deny)" -eq 0 ] &&
   sessions deny "$n" "len(s) == 1 and not s[0]['auth'] and not s[0]['password_in_clear']"; then
	ok "STARTTLS answered 454: one line that says so, no AUTH in clear text: $(cat "$TEST_DIR/deny.err")"
else
	not_ok "STARTTLS answered 454 (rc $rc)"
	show deny
fi

# Without a password, starttls = try goes on in clear text after the 454;
# what this server refuses next (MAIL without AUTH) is the error quoted.
conf denytry "$URL_DENY" try "$PKI/ca.pem" ""
send denytry
if one_line denytry "SMTP server '$URL_DENY' refused the message: 530 .*" &&
   [ "$(srv_mails deny)" -eq 0 ]; then
	ok "starttls = try, no password, STARTTLS refused: goes on, quotes the later refusal: $(cat "$TEST_DIR/denytry.err")"
else
	not_ok "starttls = try after a 454 (rc $rc)"
	show denytry
fi

# starttls = try (the default) with a password acts as required: the
# password never crosses in clear text either.
n=$(log_lines plain)
conf tryplain "$URL_PLAIN" try "$PKI/ca.pem" "$TEST_DIR/password"
send tryplain
wait_log plain $((n + 1))
if one_line tryplain "SMTP server '$URL_PLAIN' does not offer STARTTLS.*: nothing sent$" &&
   [ "$(srv_mails plain)" -eq 0 ] &&
   sessions plain "$n" "len(s) == 1 and not s[0]['auth'] and not s[0]['password_in_clear']"; then
	ok "starttls = try with a password: refused like required, no AUTH in clear text"
else
	not_ok "starttls = try with a password against the plain server (rc $rc)"
	show tryplain
fi

# The same with the password in [smtp] url (libcurl logs in with it): it
# acts as required too, and the message names the URL without it.
n=$(log_lines plain)
PW_URL=$("$WW_PYTHON" -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$PASSWORD")
conf tryurl "smtp://$LOGIN:$PW_URL@127.0.0.1:${PORT[plain]}" try "$PKI/ca.pem" ""
send tryurl
wait_log plain $((n + 1))
if one_line tryurl "SMTP server 'smtp://$LOGIN:\*\*\*@127.0.0.1:${PORT[plain]}' does not offer STARTTLS.*: nothing sent$" &&
   ! grep -q "$PW_URL" "$TEST_DIR/tryurl.err" && [ "$(srv_mails plain)" -eq 0 ] &&
   sessions plain "$n" "len(s) == 1 and not s[0]['auth'] and not s[0]['password_in_clear']"; then
	ok "starttls = try with a password in the URL: refused like required, the URL said without it"
else
	not_ok "starttls = try with a password in the URL against the plain server (rc $rc)"
	show tryurl
fi

# The detector does see a password in clear text: starttls = no (the
# explicit choice for a local MTA) gives it to this server.
n=$(log_lines plain)
conf noplain "$URL_PLAIN" no "$PKI/ca.pem" "$TEST_DIR/password"
send noplain
wait_log plain $((n + 1))
if [ "$rc" -eq 0 ] && [ "$(srv_mails plain)" -eq 1 ] &&
   sessions plain "$n" "len(s) == 1 and s[0]['password_in_clear'] and s[0]['auth'][0]['ok']"; then
	ok "control: with starttls = no the same server sees the password in clear text"
else
	not_ok "control: starttls = no against the plain server (rc $rc)"
	show noplain
fi

# ---- a password file others can read ---------------------------------------------------------

n=$(log_lines starttls)
cp "$TEST_DIR/password" "$TEST_DIR/open-password"
chmod 644 "$TEST_DIR/open-password"
conf openpw "$URL_STARTTLS" required "$PKI/ca.pem" "$TEST_DIR/open-password"
send openpw
if one_line openpw "password file '$TEST_DIR/open-password' is readable by group or others (chmod 600 it)" &&
   quiet starttls "$n" plain && [ ! -e "$TEST_DIR/state-openpw/warnwatch.db" ]; then
	ok "a world-readable password file: refused before connecting: $(cat "$TEST_DIR/openpw.err")"
else
	not_ok "a world-readable password file (rc $rc)"
	show openpw
fi

# ---- WARNWATCH_SMTP_DEBUG shows the dialogue, not the password ------------------------------

# no_password FILE: neither the password nor its base64 (AUTH PLAIN's
# "\0user\0password", AUTH LOGIN's lines) is in FILE.
no_password() {
	"$WW_PYTHON" - "$1" "$PASSWORD" <<'PY'
import base64, binascii, sys
data, pw = open(sys.argv[1], "rb").read(), sys.argv[2].encode()
bad = pw in data
for word in data.split():
    try:
        bad = bad or pw in base64.b64decode(word, validate=True)
    except (binascii.Error, ValueError):
        pass
sys.exit(1 if bad else 0)
PY
}

for srv in starttls:PLAIN smtps:LOGIN; do
	name=debug-${srv%%:*} mech=${srv#*:}
	if [ "$mech" = PLAIN ]; then url=$URL_STARTTLS; else url=$URL_SMTPS; fi
	conf "$name" "$url" required "$PKI/ca.pem" "$TEST_DIR/password"
	WARNWATCH_SMTP_DEBUG=1 send "$name"
	if [ "$rc" -eq 0 ] && grep -q "^> AUTH $mech" "$TEST_DIR/$name.err" &&
	   grep -q '^< 235 ' "$TEST_DIR/$name.err" && grep -q 'credentials hidden' "$TEST_DIR/$name.err" &&
	   no_password "$TEST_DIR/$name.err"; then
		ok "WARNWATCH_SMTP_DEBUG=1 with AUTH $mech: the dialogue on stderr, the credentials hidden"
	else
		not_ok "WARNWATCH_SMTP_DEBUG=1 with AUTH $mech (rc $rc)"
		grep -a '^[<>]' "$TEST_DIR/$name.err" | sed 's/^/#   /' | head -n 30
	fi
done

done_testing
