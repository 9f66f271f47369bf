# Shell helpers for warnwatch's end-to-end tests (source it from tNNNN-*.sh).
#
# What it gives a test:
#   - TAP output: ok/not_ok/skip/test_expect/test_status, done_testing
#     (prints the plan)
#   - a scratch directory $TEST_DIR, removed on exit unless WW_KEEP=1
#   - real servers on 127.0.0.1 and free ports, each started with its pid
#     recorded and stopped by pid on EVERY exit path (one EXIT trap, also
#     run on INT/TERM/HUP):
#       pi_init NAME            a public-inbox v2 inbox under $TEST_DIR
#       pi_deliver NAME FILE... deliver mails with public-inbox-mda
#       pi_import NAME ROTATE FILE...  many mails in one process (ROTATE 1:
#                               each after the first in a new epoch)
#       pi_extindex             (re)build the lore-style /all/ index
#       pi_httpd_start          public-inbox-httpd; sets PI_PORT, PI_URL
#       smtp_start              an aiosmtpd SMTP server storing into a
#                               Maildir; sets SMTP_PORT, SMTP_URL, MAILDIR
#       maildir_count, maildir_files
#       replies_to MSGID        mails in $MAILDIR answering MSGID
#       wait_for SECS CMD...    poll CMD every 0.2 s, at most SECS
#       mem_capped MB CMD...    CMD with its memory bounded (a test that
#                               must not hurt the shared machine)
#       silent_server_start NAME  accepts, never answers; sets SILENT_PORT
#       relay_start, relay_stop the list: mail to test@example.org in
#                               $MAILDIR is delivered into inbox `test`
#   - b4_env: the environment that points Debian's b4 at $PI_URL without
#     touching the user's git config (for checks made with b4 itself)
#
# Every wait is bounded.  Nothing listens on anything but 127.0.0.1.

set -u

WW_TOP=${WW_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WARNWATCH=${WARNWATCH:-$WW_TOP/build/warnwatch}
# Debian's python3 (which has python3-aiosmtpd), not whatever is first in PATH.
if [ -x /usr/bin/python3 ]; then
	WW_PYTHON=${WW_PYTHON:-/usr/bin/python3}
else
	WW_PYTHON=${WW_PYTHON:-python3}
fi

tap_n=0
tap_failed=0
_ww_pids=()		# "pid:name", stopped in reverse order on exit

ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP ${2:-}"; }
diag() { printf '# %s\n' "$@"; }

# test_expect NAME COMMAND...: ok if the command succeeds; its output is
# shown as diagnostics when it does not.
test_expect() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name"
		printf '%s\n' "$out" | sed 's/^/#   /' | head -n 40
	fi
}

# test_status NAME WANT_STATUS PATTERN -- COMMAND...: ok if COMMAND exits
# with WANT_STATUS and printed PATTERN (an ERE) on stdout or stderr; what it
# printed is shown when not.  For command-line tests (usage, exit statuses).
test_status() {
	local name=$1 want=$2 pat=$3 rc out=$TEST_DIR/status.out err=$TEST_DIR/status.err
	shift 4
	"$@" >"$out" 2>"$err"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -qE -- "$pat" "$out" "$err"; then
		ok "$name"
	else
		not_ok "$name (exit $rc, want $want)"
		sed 's/^/#   /' "$out" "$err" | head -n 8
	fi
}

# Skip the whole script (prints a plan of one skipped test).
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip_all "not-installed: '$c' (make deps)"
	done
}

# A contributor's repository, made by the test with real git: a private
# identity and configuration (nothing of the machine's), then in DIR a
# "base" commit of mm/a.c (f) and mm/b.c (g) on branch main.
git_test_repo() {	# git_test_repo DIR
	export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org
	export GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org
	export GIT_CONFIG_NOSYSTEM=1 HOME=$TEST_DIR XDG_CONFIG_HOME=$TEST_DIR/.config
	export WARNWATCH_RULES="$WW_TOP/rules"
	git init -q -b main "$1" || { echo "Bail out! git init failed"; exit 1; }
	mkdir -p "$1/mm"
	printf 'int f(int x)\n{\n\treturn x;\n}\n' >"$1/mm/a.c"
	printf 'int g(int y)\n{\n\treturn y;\n}\n' >"$1/mm/b.c"
	git -C "$1" add . && git -C "$1" commit -q -m base
}

# Record a pid to stop on exit.
ww_track() { _ww_pids+=("$1:$2"); }

# Stop one process by pid: TERM, wait up to 5 s, then KILL.
ww_stop_pid() {
	local pid=$1 i
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	return 0
}

ww_cleanup() {
	local rc=$? i entry
	trap - EXIT INT TERM HUP
	for ((i = ${#_ww_pids[@]} - 1; i >= 0; i--)); do
		entry=${_ww_pids[$i]}
		ww_stop_pid "${entry%%:*}"
	done
	if [ -n "${TEST_DIR:-}" ] && [ -d "$TEST_DIR" ]; then
		if [ -n "${WW_KEEP:-}" ]; then
			echo "# kept $TEST_DIR" >&2
		else
			rm -rf "$TEST_DIR"
		fi
	fi
	exit "$rc"
}

TEST_DIR=$(mktemp -d "${TMPDIR:-/tmp}/warnwatch-e2e.XXXXXX") || exit 2
trap ww_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A free TCP port on 127.0.0.1 (the kernel picks it; the tiny race with
# another process binding it in between is acceptable for tests).
free_port() {
	"$WW_PYTHON" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# wait_port PORT [TENTHS]: wait until something accepts on 127.0.0.1:PORT.
wait_port() {
	local port=$1 tries=${2:-100} i
	for ((i = 0; i < tries; i++)); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# ---- public-inbox -------------------------------------------------------

PI_DIR=$TEST_DIR/pi
export PI_CONFIG=$PI_DIR/config
PI_PORT=
PI_URL=

_pi_env() {
	env HOME="$PI_DIR/home" PI_CONFIG="$PI_CONFIG" "$@"
}

# pi_init NAME: a v2 inbox NAME (address NAME@example.org).  The URL it
# announces is fixed up by pi_httpd_start once the port is known, so
# pi_httpd_start may be called before or after.
pi_init() {
	local name=$1
	mkdir -p "$PI_DIR/home"
	[ -n "$PI_PORT" ] || PI_PORT=$(free_port)
	PI_URL=http://127.0.0.1:$PI_PORT
	_pi_env public-inbox-init -V2 -L full "$name" "$PI_DIR/$name" \
		"$PI_URL/$name" "$name@example.org" >/dev/null || return 1
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
}

# pi_deliver NAME FILE...: deliver each mail as the list would.
pi_deliver() {
	local name=$1 f
	shift
	for f in "$@"; do
		_pi_env ORIGINAL_RECIPIENT="$name@example.org" \
			public-inbox-mda --no-precheck <"$f" || {
			echo "public-inbox-mda failed on $f" >&2
			return 1
		}
	done
}

# pi_import NAME ROTATE FILE...: deliver many mails at once, in one
# public-inbox process (public-inbox-mda starts Perl per mail: 200 mails
# take a minute).  ROTATE 0: as the list would; 1: the second mail and
# every one after it starts a new epoch (git/N+1.git), as an epoch that
# reached public-inbox's size limit (1 GiB) would.
pi_import() {
	local name=$1 rotate=$2
	shift 2
	_pi_env perl -MPublicInbox::Config -MPublicInbox::InboxWritable \
		-MPublicInbox::Eml -e '
my ($name, $rotate, @files) = @ARGV;
my $ibx = PublicInbox::Config->new->lookup_name($name) or die "no inbox $name\n";
my $w = PublicInbox::InboxWritable->new($ibx)->importer(0);
$w->{rotate_bytes} = 1 if $rotate;
for my $f (@files) {
	open my $fh, "<", $f or die "$f: $!\n";
	my $raw = do { local $/; <$fh> };
	$w->add(PublicInbox::Eml->new(\$raw)) or die "$f: not added\n";
}
$w->done;
' "$name" "$rotate" "$@" </dev/null
}

# pi_extindex: the lore-style /all/ view over every inbox (public-inbox-mda
# does not update it: call again after delivering).
pi_extindex() {
	git config -f "$PI_CONFIG" extindex.all.topdir "$PI_DIR/all"
	git config -f "$PI_CONFIG" extindex.all.url "$PI_URL/all"
	_pi_env public-inbox-extindex --all "$PI_DIR/all" >/dev/null 2>&1
}

# pi_httpd_start: public-inbox-httpd on $PI_PORT.  PI_HTTPD_WORKERS=1: a
# master that starts a new worker when one dies (public-inbox 1.9's httpd
# can abort on Xapian::DatabaseModifiedError while mail is delivered
# under it); the default 0 is one process.
pi_httpd_start() {
	[ -n "$PI_PORT" ] || PI_PORT=$(free_port)
	PI_URL=http://127.0.0.1:$PI_PORT
	_pi_env public-inbox-httpd -D -P "$PI_DIR/httpd.pid" -W"${PI_HTTPD_WORKERS:-0}" \
		-l "http://127.0.0.1:$PI_PORT" \
		-1 "$PI_DIR/httpd.out" -2 "$PI_DIR/httpd.err" || return 1
	local i
	for ((i = 0; i < 50; i++)); do
		[ -s "$PI_DIR/httpd.pid" ] && break
		sleep 0.1
	done
	[ -s "$PI_DIR/httpd.pid" ] || return 1
	ww_track "$(cat "$PI_DIR/httpd.pid")" public-inbox-httpd
	wait_port "$PI_PORT"
}

pi_httpd_stop() {
	[ -s "$PI_DIR/httpd.pid" ] && ww_stop_pid "$(cat "$PI_DIR/httpd.pid")"
	return 0
}

# b4_env CMD...: run a command (normally b4) configured for $PI_URL/$1.
b4_env() {
	local inbox=$1
	shift
	mkdir -p "$TEST_DIR/b4home"
	cat >"$TEST_DIR/b4home/gitconfig" <<EOF
[b4]
	midmask = $PI_URL/$inbox/%s
	linkmask = $PI_URL/$inbox/%s
	searchmask = $PI_URL/$inbox/?x=m&t=1&q=%s
	attestation-policy = off
	attestation-check-dkim = no
[user]
	name = warnwatch test
	email = test@example.org
EOF
	env GIT_CONFIG_GLOBAL="$TEST_DIR/b4home/gitconfig" GIT_CONFIG_NOSYSTEM=1 \
		XDG_CACHE_HOME="$TEST_DIR/b4home/cache" HOME="$TEST_DIR/b4home" "$@"
}

# ---- a fake kernel tree ----------------------------------------------------

# fake_kernel_tree DIR: DIR/src/linux-source-9.9, a tiny tree whose top
# Makefile "configures" (olddefconfig) and "builds" (bzImage: a text
# bzImage and vmlinux in $(O)), with kernel/foo.c; packed as
# DIR/linux-source-9.9.tar.xz.  No kernel is built: for tests of the
# build sandbox and of what runs around it (t0430, t0431).
fake_kernel_tree() {
	local src=$1/src/linux-source-9.9
	mkdir -p "$src/kernel"
	printf 'VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 1\nEXTRAVERSION =\nNAME = Test\n\n' >"$src/Makefile"
	cat >>"$src/Makefile" <<'MK'
olddefconfig:
	@echo configured $(O)

bzImage:
	mkdir -p $(O)/arch/x86/boot
	echo image >$(O)/arch/x86/boot/bzImage
	echo elf >$(O)/vmlinux
MK
	printf '/*\n!.gitignore\n' >"$src/.gitignore"
	printf 'int foo(void)\n{\n\treturn 0;\n}\n' >"$src/kernel/foo.c"
	tar -cJf "$1/linux-source-9.9.tar.xz" -C "$1/src" linux-source-9.9
}

# ---- SMTP ------------------------------------------------------------------

SMTP_PORT=
SMTP_URL=
MAILDIR=$TEST_DIR/maildir

# smtp_start: aiosmtpd (python3-aiosmtpd) in the foreground of a
# background job, unprivileged, storing every message in $MAILDIR.
# serve_test_conf [SERVE-LINES [LIST-LINES]]: the configuration the serve
# e2e tests share, into $CONF with $HTTP_PORT chosen: one list "test" on
# $PI_URL, replies sent through $SMTP_URL to both author and list, no
# boots, no pacing (one mail per author per hour is t0313's to measure);
# each argument adds lines to [serve] or [list.test].
serve_test_conf() {
	HTTP_PORT=$(free_port)
	{
		conf_serve_head "$STATE" "$SMTP_URL"
		printf '[serve]\nlisten = 127.0.0.1:%s\npoll-interval = 1\nmax-sleep = 1\nretry-base = 1\n' \
			"$HTTP_PORT"
		[ -n "${1:-}" ] && printf '%s\n' "$1"
		printf '\n[list.test]\narchive = %s\ninbox = test\naddress = test@example.org\n' "$PI_URL"
		printf 'boot = no\nreply = send\npace = 0\nreply-to = both\n'
		[ -n "${2:-}" ] && printf '%s\n' "$2"
		true
	} >"$CONF"
}

# serve_test_start: `warnwatch serve` on $CONF in the background, logging
# to serve.log, SERVE_PID set and tracked, until it listens on $HTTP_PORT.
serve_test_start() {
	"$WARNWATCH" serve --config "$CONF" --verbose >>"$TEST_DIR/serve.log" 2>&1 &
	SERVE_PID=$!
	ww_track "$SERVE_PID" warnwatch-serve
	wait_port "$HTTP_PORT" 100 || {
		echo "Bail out! serve did not start"
		sed 's/^/# /' "$TEST_DIR/serve.log"
		exit 1
	}
}

conf_serve_head() {	# conf_serve_head STATE SMTP_URL: [identity], [state], [smtp]
	cat <<EOF
[identity]
name = warnwatch test bot
email = bot@example.org

[state]
dir = $1

[smtp]
url = $2
starttls = no
timeout = 20

EOF
}

smtp_start() {
	SMTP_PORT=$(free_port)
	SMTP_URL=smtp://127.0.0.1:$SMTP_PORT
	mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
	"$WW_PYTHON" -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" \
		-c aiosmtpd.handlers.Mailbox "$MAILDIR" \
		>"$TEST_DIR/smtp.log" 2>&1 &
	SMTP_PID=$!
	ww_track "$SMTP_PID" aiosmtpd
	wait_port "$SMTP_PORT"
}

smtp_stop() {
	[ -n "${SMTP_PID:-}" ] && ww_stop_pid "$SMTP_PID"
	return 0
}

# Messages received so far.
maildir_files() {
	find "$MAILDIR/new" "$MAILDIR/cur" -type f 2>/dev/null | sort
}

maildir_count() {
	maildir_files | wc -l
}

# mail_header FILE NAME: the header's value, RFC 2047-decoded and unfolded
# (empty when absent).  mail_body FILE: the decoded text body.
mail_header() {
	"$WW_PYTHON" - "$1" "$2" <<'PY'
import sys, email, email.policy
with open(sys.argv[1], "rb") as f:
    m = email.message_from_binary_file(f, policy=email.policy.default)
v = m.get(sys.argv[2])
print("" if v is None else str(v))
PY
}

mail_body() {
	"$WW_PYTHON" - "$1" <<'PY'
import sys, email, email.policy
with open(sys.argv[1], "rb") as f:
    m = email.message_from_binary_file(f, policy=email.policy.default)
sys.stdout.write(m.get_content())
PY
}

# The newest message in the Maildir.
maildir_last() {
	local files
	files=$(maildir_files)
	[ -n "$files" ] && ls -t $files | head -n 1
}

# relay_start: the list -- whatever is sent to test@example.org reaches the
# archive, as a list archives its mail (and as the service confirms an
# interrupted reply).  relay_stop ends it.
relay() {
	local seen=$TEST_DIR/relayed f i
	: >"$seen"
	for ((i = 0; i < 6000; i++)); do
		[ -e "$TEST_DIR/relay.stop" ] && return 0
		for f in "$MAILDIR"/new/*; do
			[ -f "$f" ] || continue
			grep -qxF "$f" "$seen" && continue
			if grep -qi '^X-RcptTo:.*test@example\.org' "$f"; then
				pi_deliver test "$f" || return 1
			fi
			echo "$f" >>"$seen"
		done
		sleep 0.2
	done
}
relay_start() {
	relay &
	ww_track $! relay
}
relay_stop() {
	touch "$TEST_DIR/relay.stop"
}
# relayed FILE: the relay is done with FILE of $MAILDIR/new: delivered to
# the archive, or not for the list.  What is not in the archive then
# never will be (a check of absence waits for this, not for the clock).
relayed() { grep -qxF "$1" "$TEST_DIR/relayed" 2>/dev/null; }

# status_json: `warnwatch status --format=json` of the service of $CONF.
status_json() {
	"$WARNWATCH" status --config "$CONF" --format=json --limit=100 2>/dev/null
}

# reply_id MSGID: the Message-ID (no <>) of the service's reply to MSGID.
reply_id() { mail_header "$(reply_file "$1")" Message-ID | tr -d '<>'; }
# in_archive MSGID: the list's archive holds it.
in_archive() { curl -sf "$PI_URL/test/$1/raw" >/dev/null; }
# logged PATTERN: an event of the service's log (status.json) matches the ERE.
logged() {
	status_json | "$WW_PYTHON" -c '
import json, re, sys
sys.exit(0 if any(re.search(sys.argv[1], e["message"]) for e in json.load(sys.stdin)["events"]) else 1)' "$1"
}
# supp PYTHON-EXPR: evaluated over status.json's suppressions as `s`.
supp() {
	status_json | "$WW_PYTHON" -c '
import json, sys
s = json.load(sys.stdin)["suppressions"]
print(eval(sys.argv[1]))' "$1"
}

# polled_once: the service of $CONF polled each of its lists once (it
# watches them: what is delivered from now on is new to it).
polled_once() {
	status_json | "$WW_PYTHON" -c '
import json, sys
lists = json.load(sys.stdin)["lists"]
sys.exit(0 if lists and all(l["primed"] and l["last_ok"] for l in lists) else 1)'
}

# idle_since T: the service of $CONF saved a poll of every list that
# began after T (date +%s), so it has seen every mail delivered before
# T, and has nothing left to do with them: no series due, every one still
# active held by a policy (quiet hours, embargo, caps).  From status'
# "lists" (last_ok: when the last good poll began) and "queue".
idle_since() {
	status_json | "$WW_PYTHON" -c '
import json, sys
st = json.load(sys.stdin)
since, q = int(sys.argv[1]), st["queue"]
done = st["lists"] and all(l["last_ok"] > since for l in st["lists"])
sys.exit(0 if done and q["due"] == 0 and q["active"] == q["held"] else 1)' "$1"
}

# wait_idle SECS: wait, at most SECS, until the service has polled since
# the call and done all it will do (idle_since).  A check that something
# did NOT happen ("no second reply") comes after this, never after a
# sleep: on a slow machine a sleep proves nothing.
wait_idle() {
	local since
	since=$(date +%s)
	wait_for "$1" idle_since "$since"
}

# series_field MSGID FIELD: a field of the series whose root is MSGID.
series_field() {
	status_json | "$WW_PYTHON" -c '
import json, sys
for s in json.load(sys.stdin)["series"]:
    if s["root_msgid"] == sys.argv[1]:
        print(s[sys.argv[2]])
        break
' "$1" "$2"
}

# series_is MSGID STATE: the series whose root is MSGID is in STATE.
series_is() { [ "$(series_field "$1" state)" = "$2" ]; }

# has_reply_to MSGID: some reply in the sink answers MSGID.
has_reply_to() { [ "$(replies_to "$1")" -ge 1 ]; }

# reply_file MSGID: the Maildir file that answers MSGID.
reply_file() { grep -l -i "^In-Reply-To: <$1>" "$MAILDIR"/new/* 2>/dev/null | head -n 1; }

# wait_for SECONDS COMMAND...: poll every 0.2 s until COMMAND succeeds.
wait_for() {
	local limit=$1 i
	shift
	for ((i = 0; i < limit * 5; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

# mem_capped MB COMMAND...: run COMMAND (in the foreground) with its memory
# bounded to MB: its address space with prlimit, or, under WW_SANITIZE
# (ASan reserves terabytes of address space, so an address-space cap
# stops it at once), its resident size watched every 0.1 s and the
# process killed with SIGKILL past MB.  Returns COMMAND's status; 137
# when it was killed.  Child processes are not counted.
mem_capped() {
	local mb=$1 pid rss rc i
	shift
	if [ -z "${WW_SANITIZE:-}" ]; then
		prlimit --as=$((mb << 20)) -- "$@"
		return
	fi
	"$@" &
	pid=$!
	for ((i = 0; i < 6000; i++)); do	# 10 minutes at most
		kill -0 "$pid" 2>/dev/null || break
		rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		if [ -n "$rss" ] && [ "$rss" -gt $((mb << 10)) ]; then
			kill -9 "$pid" 2>/dev/null
			break
		fi
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null	# past the bound (a zombie not yet waited for is no one else's)
	wait "$pid"
	rc=$?
	return $rc
}

# replies_to MSGID: how many mails in $MAILDIR answer MSGID.
replies_to() {
	grep -l -i "^In-Reply-To: <$1>" "$MAILDIR"/new/* 2>/dev/null | wc -l
}

# silent_server_start NAME: a server on a free port that accepts
# connections and never says a word (a stalled SMTP server or archive);
# sets SILENT_PORT.
silent_server_start() {
	SILENT_PORT=$(free_port)
	"$WW_PYTHON" -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)
' "$SILENT_PORT" &
	ww_track $! "$1"
	wait_port "$SILENT_PORT"
}

# list_mail FILE MSGID PARENT SUBJECT BODY: one mail of a test list into
# $MAILS/FILE, from $FROM (Ann Dev unless set), a second after the last.
LIST_MAILNO=0
list_mail() {
	{
		printf 'From: %s\nDate: Mon, 06 May 2024 10:00:%02d +0000\n' \
			"${FROM:-Ann Dev <ann@example.org>}" "$((++LIST_MAILNO % 60))"
		printf 'Subject: %s\nTo: Ted <ted@example.org>\nCc: test@example.org\n' "$4"
		printf 'Message-ID: <%s>\n' "$2"
		[ -n "$3" ] && printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$3" "$3"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n\n%s\n' "$5"
	} >"$MAILS/$1"
}

# list_patch NAME LINE TEXT: a patch body: TEXT, then a diff of fs/NAME.c
# adding LINE, signed off by $FROM.
list_patch() {
	cat <<EOF
$3

Signed-off-by: ${FROM:-Ann Dev <ann@example.org>}
---
 fs/$1.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/fs/$1.c b/fs/$1.c
index 1111111..2222222 100644
--- a/fs/$1.c
+++ b/fs/$1.c
@@ -10,6 +10,7 @@ static int $1_check(struct inode *inode)
 	int err;
 
 	err = $1_validate(inode);
+	$2
 	if (err)
 		return err;
 	return 0;
-- 
2.39.2
EOF
}
