#!/usr/bin/env bash
# t0100-review: warnwatch review end to end, on loopback only, against a
# real public-inbox (Debian's public-inbox-httpd, fetched through b4) and a
# real SMTP server (python3-aiosmtpd storing into a Maildir).
#
# The inbox holds a 3-patch series with a cover letter that adds a BUG_ON()
# and a WARN_ON(), a review reply in its thread, its v2 (a new thread, as
# b4 send does it) that turns both into WARN_ON_ONCE(), and a
# documentation-only patch.
. "$(dirname "$0")/lib.sh"

need_cmd b4 git public-inbox-init public-inbox-mda public-inbox-httpd public-inbox-extindex
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }

DATA=$WW_TOP/tests/e2e/data
SEED=$WW_TOP/tests/e2e/data/coding-style-panic-on-warn.patch
V1=20240502091500.4711-%d-zoe@example.org
V2=20240509143000.5122-%d-zoe@example.org
v1() { printf "$V1" "$1"; }
v2() { printf "$V2" "$1"; }
DOC=20240414170850.148122-1-elder@linaro.org
REPLY=87le4xq0zz.ffs@tomasz.example.org
CACHE=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}
export WARNWATCH_CACHE=$CACHE
OUT=$TEST_DIR/out
mkdir -p "$OUT"

# ---- servers ---------------------------------------------------------------

if pi_init test && pi_deliver test "$DATA"/inbox/*.eml && pi_extindex &&
   pi_httpd_start >/dev/null; then
	ok "public-inbox serves the test inbox on $PI_URL"
else
	not_ok "public-inbox serves the test inbox"
	done_testing
	exit 1
fi
if smtp_start; then
	ok "aiosmtpd listens on $SMTP_URL"
else
	not_ok "aiosmtpd listens"
	done_testing
	exit 1
fi

write_config() {
	cat >"$TEST_DIR/warnwatch.conf" <<EOF
[identity]
name = warnwatch
email = warnwatch@example.org

[archive]
url = $PI_URL/all/
timeout = ${1:-60}

[smtp]
url = $SMTP_URL
starttls = no
timeout = 20

[review]
reply-to = both
lists = *@vger.kernel.org
patchwork-hint = yes
contact = Jane Maintainer <jane@example.org>

[state]
dir = $TEST_DIR/state
EOF
}
write_config
CONF=$TEST_DIR/warnwatch.conf

# review ARGS...: run warnwatch review; status in $rc, output in $TEST_DIR/{stdout,stderr}
review() {
	local t0=$SECONDS
	"$WARNWATCH" review --config "$CONF" "$@" >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
	rc=$?
	diag "review ${*@Q} -> $rc in $((SECONDS - t0)) s"
}

# guide_quoted FILE TEXT: TEXT is in the coding-style quote ("  | " lines,
# joined as one text) of FILE.
guide_quoted() {
	sed -n 's/^  | \{0,1\}//p' "$1" | tr '\n' ' ' | tr -s ' ' | grep -qF -- "$2"
}

# ---- a draft quotes the tree under review (pristine 6.1) --------------------

review -v 1 "$(v1 0)"
if [ "$rc" -eq 0 ] && grep -q '^Subject: Re: \[PATCH 0/3\] time: sanity-check' "$TEST_DIR/stdout"; then
	ok "a draft goes to stdout by default"
else
	not_ok "a draft goes to stdout by default (rc $rc)"
	sed 's/^/#   /' "$TEST_DIR/stderr"
fi
[ "$(maildir_count)" -eq 0 ] && ok "a draft sends nothing" || not_ok "a draft sends nothing"

GUIDE61=$CACHE/guide/linux-source-6.1/Documentation/process/coding-style.rst
if [ -f "$GUIDE61" ]; then
	# The reply quotes the sentences that apply, not the headings.
	if guide_quoted "$TEST_DIR/stdout" "Do not add new code that uses any of the BUG() variants" &&
	   ! grep -q 'panic_on_warn kernel option\|Do not worry about panic_on_warn' "$TEST_DIR/stdout"; then
		ok "6.1's coding-style is quoted; its 'Do not worry about panic_on_warn users' is not"
	else
		not_ok "6.1's coding-style is quoted as it is"
	fi
	# The tree under review for the rest: 6.1 with the 2024 coding-style patch.
	TREE=$TEST_DIR/tree
	mkdir -p "$TREE/Documentation/process"
	cp "$GUIDE61" "$TREE/Documentation/process/coding-style.rst"
	if (cd "$TREE" && git apply -p1 "$SEED"); then
		ok "a tree with the panic_on_warn rewording of coding-style.rst"
	else
		not_ok "applying the coding-style patch"
	fi
	TREE_ARGS=(--tree "$TREE")
else
	skip "6.1's coding-style is quoted" "not-installed: linux-source-6.1 (make deps)"
	skip "a tree with the panic_on_warn rewording" "not-installed: linux-source-6.1"
	TREE_ARGS=()
fi

# --mbox takes one message as public-inbox's /raw serves it (this httpd
# writes an mboxrd From_ line; a saved .eml without one is t0101's (a)),
# patch 2/3 alone, as `check` does: fetched from the real httpd, answered
# offline, to that patch.
if "$WW_PYTHON" - "$PI_URL/test/$(v1 2)/raw" "$TEST_DIR/raw.eml" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=20) as r, open(sys.argv[2], "wb") as f:
    f.write(r.read())
PY
then
	"$WARNWATCH" check "$TEST_DIR/raw.eml" >/dev/null 2>&1
	check_rc=$?
	review --mbox "$TEST_DIR/raw.eml"
	if [ "$check_rc" -le 1 ] && [ "$rc" -eq 0 ] &&
	   grep -q '^Subject: Re: \[PATCH 2/3\] time: warn about out-of-range offsets' "$TEST_DIR/stdout" &&
	   grep -q "^In-Reply-To: <$(v1 2)>" "$TEST_DIR/stdout"; then
		ok "review --mbox answers a public-inbox /raw message, which check reads too"
	else
		not_ok "review --mbox of a public-inbox /raw message (rc $rc)"
		sed 's/^/#   /' "$TEST_DIR/stderr"
	fi
else
	not_ok "fetching $PI_URL/test/$(v1 2)/raw"
fi

# ---- v1: one reply, to the cover letter, threaded, with the right words ---------

# A kernel-ci verdict as `warnwatch ci --format=json` writes it (abridged).
cat >"$TEST_DIR/ci.json" <<'EOF'
{"verdict": "panicked", "reason": "Kernel panic - not syncing: kernel: panic_on_warn set ...",
 "base": "6.1.192", "fired": [{"kind": "warn", "file": "kernel/time/timeconv.c", "line": 56,
 "function": "time64_to_tm", "suite": "time_test_cases",
 "source": "WARN_ON(offset <= -SECS_PER_DAY || offset >= SECS_PER_DAY)",
 "trace": ["time64_to_tm_test_date_range+0x7c/0x1b0"]}]}
EOF
review -v 1 "$(v1 2)" --send "${TREE_ARGS[@]}" --verdict "$TEST_DIR/ci.json"
if [ "$rc" -eq 0 ] && [ "$(maildir_count)" -eq 1 ]; then
	ok "review -v 1 <patch 2/3> --send sends exactly one reply"
else
	not_ok "review -v 1 --send sends exactly one reply (rc $rc, $(maildir_count) mails)"
	sed 's/^/#   /' "$TEST_DIR/stderr"
fi
MAIL1=$(maildir_last)
SENT_ID=$(sed -n 's/^sent <\([^>]*\)>.*/\1/p' "$TEST_DIR/stdout")

hdr() { mail_header "$1" "$2"; }
check_hdr() {	# check_hdr FILE NAME WANT
	local got
	got=$(hdr "$1" "$2")
	if [ "$got" = "$3" ]; then
		ok "$2: $3"
	else
		not_ok "$2: want '$3', got '$got'"
	fi
}
check_hdr "$MAIL1" From "warnwatch <warnwatch@example.org>"
check_hdr "$MAIL1" To "Zoë Ångström <zoe@example.org>"
check_hdr "$MAIL1" Cc "linux-kernel@vger.kernel.org"
check_hdr "$MAIL1" Subject "Re: [PATCH 0/3] time: sanity-check the arguments of time64_to_tm()"
check_hdr "$MAIL1" In-Reply-To "<$(v1 0)>"
check_hdr "$MAIL1" References "<$(v1 0)>"
check_hdr "$MAIL1" Message-ID "<$SENT_ID>"
grep -q '^Content-Type: text/plain; charset=UTF-8$' "$MAIL1" &&
	ok "Content-Type: text/plain; charset=UTF-8" || not_ok "Content-Type: text/plain; charset=UTF-8"
check_hdr "$MAIL1" X-Patchwork-Hint "ignore"
# aiosmtpd records the envelope: the To: and Cc: addresses, nobody else.
rcpt=$(hdr "$MAIL1" X-RcptTo | tr -d ' ' | tr ',' '\n' | sort | paste -sd,)
[ "$rcpt" = "linux-kernel@vger.kernel.org,zoe@example.org" ] &&
	ok "envelope recipients: the author and the list" || not_ok "envelope recipients: $rcpt"
grep -q '^Date: ' "$MAIL1" && ok "Date: is set" || not_ok "Date: is set"

mail_body "$MAIL1" >"$TEST_DIR/body1"
expect_body() {	# expect_body FILE NAME FIXED-STRING...: in the text, or in its filled prose
	local f=$1 name=$2 s
	shift 2
	tr '\n' ' ' <"$f" | tr -s ' ' >"$f.flat"
	for s in "$@"; do
		if ! grep -qF -- "$s" "$f" && ! grep -qF -- "$s" "$f.flat"; then
			not_ok "$name (missing: $s)"
			return
		fi
	done
	ok "$name"
}
expect_body "$TEST_DIR/body1" "body: opening paragraph says what was found, and in which function" \
	"This series adds a BUG_ON() and a WARN_ON() to time64_to_tm(); comments inline."
# Inline, as on the lists: no "file:line" lines; the file heads each
# patch's quote (the function is in the opening above).
n=$(grep -c '^> +++ b/kernel/time/timeconv.c$' "$TEST_DIR/body1")
[ "$n" -eq 2 ] && ok "body: the file of each finding heads its patch's quote" ||
	not_ok "body: the file of each finding heads its patch's quote ($n times, want 2)"
expect_body "$TEST_DIR/body1" "body: the hunks are quoted with the added lines" \
	"$(printf '> +\tBUG_ON(!result);')" \
	"$(printf '> +\tWARN_ON(offset <= -SECS_PER_DAY || offset >= SECS_PER_DAY);')" \
	"$(printf '>  \tint remainder;')"
if grep -q '^> @@\|^> diff --git\|^> index ' "$TEST_DIR/body1"; then
	not_ok "body: quotes a few lines, not the whole patch"
else
	ok "body: quotes a few lines, not the whole patch"
fi
# The sentences that apply, from the tree's own coding-style.rst, once.
if guide_quoted "$TEST_DIR/body1" "Do not add new code that uses any of the BUG() variants, such as BUG(), BUG_ON(), or VM_BUG_ON()." &&
   guide_quoted "$TEST_DIR/body1" "WARN_ON_ONCE() is generally preferred over WARN() or WARN_ON()" &&
   [ "$(grep -c 'generally preferred' "$TEST_DIR/body1")" -eq 1 ]; then
	ok "body: coding-style sentences quoted from the tree, once"
else
	not_ok "body: coding-style sentences quoted from the tree, once"
fi
if [ ${#TREE_ARGS[@]} -gt 0 ]; then
	if guide_quoted "$TEST_DIR/body1" "If it is enabled, a WARN*() call whose condition holds leads to a kernel panic." &&
	   guide_quoted "$TEST_DIR/body1" "\`\`pr_warn*()\`\` issue warnings but do **not** cause the kernel to crash." &&
	   ! grep -q 'Do not worry about panic_on_warn' "$TEST_DIR/body1"; then
		ok "body: the NEW panic_on_warn paragraph of the tree under review"
	else
		not_ok "body: the NEW panic_on_warn paragraph of the tree under review"
	fi
else
	skip "body: the NEW panic_on_warn paragraph" "not-installed: linux-source-6.1"
fi
# No rewrite: the tree given holds only Documentation/, so nothing says
# what time64_to_tm() returns or how it leaves (docs/review.md).
expect_body "$TEST_DIR/body1" "body: what to use instead, in words" "pr_warn_ratelimited()"
if ! grep -qF "$(printf '\tif (WARN_ON_ONCE(')" "$TEST_DIR/body1"; then
	ok "body: no rewrite without the function's file in the tree"
else
	not_ok "body: a rewrite without the function's file in the tree"
fi
expect_body "$TEST_DIR/body1" "body: a signature with a human and an opt-out" \
	"Replies to this mail reach a human." "Contact: Jane Maintainer <jane@example.org>" \
	"If you would rather not get these reviews, say so in a reply."
expect_body "$TEST_DIR/body1" "body: the kernel-ci verdict" \
	"kernel-ci built the series on 6.1.192 and booted it in QEMU with panic_on_warn=1, and the kernel panicked." \
	"kernel/time/timeconv.c:56 fired in KUnit suite time_test_cases." \
	"$(printf '    Kernel panic - not syncing: kernel: panic_on_warn set ...')"
long=$(grep -v '^>\|^  |\|^	' "$TEST_DIR/body1" | awk 'length > 72' | head -n 3)
[ -z "$long" ] && ok "body: prose wrapped at 72 columns" || not_ok "body: over 72 columns: $long"

# Back into the archive, as the list would deliver it: it threads under
# the cover letter when b4 fetches the thread.
if pi_deliver test "$MAIL1" && pi_extindex &&
   b4_env test b4 --no-stdin -q mbox -C -o "$TEST_DIR" -n thread.mbox "$(v1 0)" 2>/dev/null; then
	parent=$("$WW_PYTHON" - "$TEST_DIR/thread.mbox" "$SENT_ID" <<'PY'
import mailbox, sys
for m in mailbox.mbox(sys.argv[1]):
    if m["Message-ID"].strip() == "<%s>" % sys.argv[2]:
        print(m["In-Reply-To"].strip())
PY
)
	[ "$parent" = "<$(v1 0)>" ] && ok "b4 finds the reply in the thread, under the cover letter" ||
		not_ok "the reply threads under the cover letter (parent '$parent')"
else
	not_ok "delivering the reply back and fetching the thread with b4"
fi

# ---- a second run sends nothing ----------------------------------------------

review -v 1 "$(v1 0)" --send "${TREE_ARGS[@]}"
if [ "$rc" -eq 3 ] && [ "$(maildir_count)" -eq 1 ] &&
   grep -q "^already answered: .*<$SENT_ID>" "$TEST_DIR/stdout"; then
	ok "a second run sends nothing: exit 3, names the reply's Message-ID"
else
	not_ok "a second run sends nothing (rc $rc, $(maildir_count) mails)"
	sed 's/^/#   /' "$TEST_DIR/stdout" "$TEST_DIR/stderr"
fi
# Any message of the thread names the same series, a review reply too.
review -v 1 "$REPLY" --send
[ "$rc" -eq 3 ] && [ "$(maildir_count)" -eq 1 ] &&
	ok "the msgid of a reply in the thread maps to the same, answered series" ||
	not_ok "review of the reply's msgid (rc $rc)"

# ---- v2 (the newest by default): credits the conversions ----------------------

review "$(v1 0)" --send "${TREE_ARGS[@]}"
if [ "$rc" -eq 0 ] && [ "$(maildir_count)" -eq 2 ]; then
	ok "review <v1 msgid> picks v2, the newest version, and sends one reply"
else
	not_ok "review picks v2 and sends one reply (rc $rc, $(maildir_count) mails)"
	sed 's/^/#   /' "$TEST_DIR/stderr"
fi
MAIL2=$(maildir_last)
check_hdr "$MAIL2" Subject "Re: [PATCH v2 0/3] time: sanity-check the arguments of time64_to_tm()"
check_hdr "$MAIL2" In-Reply-To "<$(v2 0)>"
mail_body "$MAIL2" >"$TEST_DIR/body2"
expect_body "$TEST_DIR/body2" "v2: the reply credits the conversions of v1's calls" \
	"Thanks for v2: the BUG_ON() and the WARN_ON() that v1 added to" \
	"time64_to_tm() are now WARN_ON_ONCE() calls with recovery paths"
# Said once, in the opening: no per-call paragraph repeats it.
n=$(grep -c 'recovery path' "$TEST_DIR/body2")
[ "$n" -eq 1 ] && ok "v2: the credit is said once" || not_ok "v2: the credit is said $n times"
# No complaint: nothing quoted, no rewrite proposed.
if grep -q '^> \|comments inline\|^	if (' "$TEST_DIR/body2"; then
	not_ok "v2: no complaint about the WARN_ON_ONCE() calls it converted to"
else
	ok "v2: no complaint about the WARN_ON_ONCE() calls it converted to"
fi
review "$(v2 1)" --send
[ "$rc" -eq 3 ] && [ "$(maildir_count)" -eq 2 ] && ok "v2 is not answered twice either" ||
	not_ok "v2 answered twice (rc $rc)"

# ---- nothing to say: no mail ---------------------------------------------------

review "$DOC" --send
if [ "$rc" -eq 0 ] && [ "$(maildir_count)" -eq 2 ] && grep -q '^no reply: nothing to say' "$TEST_DIR/stdout"; then
	ok "the documentation-only patch gets no mail"
else
	not_ok "the documentation-only patch gets no mail (rc $rc, $(maildir_count) mails)"
fi

# ---- --out writes a draft file atomically ----------------------------------------

review -v 1 "$(v1 0)" --out "$OUT"
f="$OUT/reply-$(v1 0)-v1.eml"
if [ "$rc" -eq 0 ] && [ -s "$f" ] && grep -q "^draft: $f\$" "$TEST_DIR/stdout" &&
   [ "$(find "$OUT" -type f | wc -l)" -eq 1 ]; then
	ok "--out DIR writes one .eml draft, and nothing else"
else
	not_ok "--out DIR writes the draft (rc $rc)"
fi

# ---- a crash between recording the intent and sending ---------------------------
#
# An SMTP server that accepts and never answers holds warnwatch in the
# middle of sending; it is then killed (SIGKILL: no cleanup).  The intent
# row must block the next run, and --force must reuse its Message-ID.
silent_server_start holding-smtp-server
HOLD_PORT=$SILENT_PORT
sed -e "s|^url = $SMTP_URL|url = smtp://127.0.0.1:$HOLD_PORT|" \
    -e "s|^dir = .*|dir = $TEST_DIR/state-crash|" "$CONF" >"$TEST_DIR/crash.conf"
"$WARNWATCH" review --config "$TEST_DIR/crash.conf" -v 1 "$(v1 0)" --send \
	>"$TEST_DIR/crash.out" 2>&1 &
crash_pid=$!
ww_track "$crash_pid" warnwatch-to-crash
intent=
for _ in $(seq 200); do
	intent=$("$WW_PYTHON" -c '
import sqlite3, sys
try:
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True, timeout=1)
    for (mid,) in db.execute("SELECT message_id FROM replies WHERE state = \"intent\""):
        print(mid)
except Exception:
    pass' "$TEST_DIR/state-crash/warnwatch.db" 2>/dev/null)
	[ -n "$intent" ] && break
	sleep 0.1
done
{ kill -KILL "$crash_pid"; wait "$crash_pid"; } 2>/dev/null
if [ -n "$intent" ] && [ "$(maildir_count)" -eq 2 ]; then
	ok "the intent <$intent> is recorded before anything is sent"
else
	not_ok "the intent is recorded before sending ($(cat "$TEST_DIR/crash.out"))"
fi
sed -e "s|^dir = .*|dir = $TEST_DIR/state-crash|" "$CONF" >"$TEST_DIR/after.conf"
"$WARNWATCH" review --config "$TEST_DIR/after.conf" -v 1 "$(v1 0)" --send \
	>"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
rc=$?
if [ "$rc" -eq 3 ] && [ "$(maildir_count)" -eq 2 ] &&
   grep -q "^maybe answered: sending <$intent> .* was interrupted" "$TEST_DIR/stdout"; then
	ok "after a crash mid-send, the next run sends nothing and says why"
else
	not_ok "after a crash mid-send (rc $rc): $(cat "$TEST_DIR/stdout" "$TEST_DIR/stderr")"
fi
"$WARNWATCH" review --config "$TEST_DIR/after.conf" -v 1 "$(v1 0)" --send --force \
	>"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(maildir_count)" -eq 3 ] &&
   [ "$(mail_header "$(maildir_last)" Message-ID)" = "<$intent>" ]; then
	ok "--force sends it with the same Message-ID (downstream de-duplicates)"
else
	not_ok "--force after a crash (rc $rc): $(cat "$TEST_DIR/stderr")"
fi

# ---- an incomplete series is not reviewed ------------------------------------------

for n in 0 1 2; do
	sed -e 's/4711-/4712-/g' -e 's/sanity-check the arguments/validate the arguments/' \
	    -e 's/^Subject: \[PATCH \([0-9]\)\/3\] time: /Subject: [PATCH \1\/3] time64: /' \
	    "$DATA"/inbox/0$((n + 1))-v1-*.eml >"$TEST_DIR/partial-$n.eml"
done
pi_deliver test "$TEST_DIR"/partial-*.eml >/dev/null 2>&1 && pi_extindex
review -v 1 20240502091500.4712-0-zoe@example.org --send
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TEST_DIR/stderr")" -eq 1 ] &&
   grep -q "is incomplete in the archive" "$TEST_DIR/stderr" && [ "$(maildir_count)" -eq 3 ]; then
	ok "an incomplete series (3/3 missing): exit 2, one line: $(cat "$TEST_DIR/stderr")"
else
	not_ok "an incomplete series (rc $rc): $(cat "$TEST_DIR/stdout" "$TEST_DIR/stderr")"
fi

# ---- errors: one line, exit 2, nothing written -----------------------------------

one_error() {	# one_error NAME PATTERN
	local lines
	lines=$(wc -l <"$TEST_DIR/stderr")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$2" "$TEST_DIR/stderr" &&
	   [ "$(find "$OUT" -type f | wc -l)" -eq 1 ] && [ "$(maildir_count)" -eq 3 ]; then
		ok "$1: exit 2, one line: $(cat "$TEST_DIR/stderr")"
	else
		not_ok "$1 (rc $rc, $lines lines)"
		sed 's/^/#   /' "$TEST_DIR/stderr"
	fi
}
review nosuch.1234@example.org --send --out "$OUT"
one_error "unknown message-id" "message-id <nosuch.1234@example.org> is not known to"
review '../../etc/passwd@x' --send --out "$OUT"
one_error "path traversal in a message-id" "invalid message-id"
review --send -- '-oQ/tmp/x@example.org'
one_error "a message-id that looks like an option" "invalid message-id '-oQ/tmp/x@example.org': message-id starts with '-'"
review "$(printf 'a@b\r\nBcc: victim@example.org')" --send
one_error "CR/LF in a message-id" "invalid message-id 'a@b\\\\x0d\\\\x0aBcc"
WARNWATCH_B4=/nonexistent/b4 review "$(v1 0)" --send --force --out "$OUT"
one_error "b4 missing" "is b4 installed?"

# A server that accepts and never answers: b4 would wait forever.
silent_server_start stalled-server
STALL_PORT=$SILENT_PORT
sed -i "s|^url = $PI_URL/all/|url = http://127.0.0.1:$STALL_PORT/all/|; s|^timeout = 60|timeout = 2|" "$CONF"
start=$(date +%s)
review "$(v1 0)" --send --force
one_error "a stalled archive meets the deadline" "did not get the series <$(v1 0)> from .* within 2 s"
[ $(( $(date +%s) - start )) -lt 15 ] && ok "... within seconds" || not_ok "the deadline took too long"
write_config

# SMTP down: nothing is recorded as sent, and the next run may retry.
smtp_stop
review -v 1 "$(v1 0)" --send --force
one_error "SMTP server down" "cannot talk to SMTP server '$SMTP_URL'"

pi_httpd_stop
review "$(v1 0)" --send --force
one_error "archive server down" "cannot reach the archive 'http://127.0.0.1:$PI_PORT/all/'"

# ---- offline: --mbox needs no server ------------------------------------------------

review --mbox "$DATA/example-v1.mbox"
[ "$rc" -eq 0 ] && grep -q '^In-Reply-To: <20240502091500.4711-0-zoe@example.org>' "$TEST_DIR/stdout" &&
	ok "--mbox drafts the same reply without any server" ||
	not_ok "--mbox drafts without a server (rc $rc): $(cat "$TEST_DIR/stderr")"

# Issue 37.4: an operator's own templates from before the book of
# sentences (no sentences.json) still get the reply's own words, from the
# installed book; the same reply as with the shipped templates.
mkdir -p "$TEST_DIR/old-templates"
cp "$WW_TOP/templates/reply.txt" "$WW_TOP/templates/finding.txt" "$WW_TOP/templates/verdict.txt" \
	"$TEST_DIR/old-templates/"
cp "$TEST_DIR/stdout" "$TEST_DIR/shipped.out"
WARNWATCH_TEMPLATES="$TEST_DIR/old-templates" \
	"$WARNWATCH" review --config "$CONF" --mbox "$DATA/example-v1.mbox" \
	>"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
rc=$?
[ "$rc" -eq 0 ] && grep -q '^This series adds ' "$TEST_DIR/stdout" &&
	diff <(grep -v '^\(Date\|Message-ID\):' "$TEST_DIR/shipped.out") \
	     <(grep -v '^\(Date\|Message-ID\):' "$TEST_DIR/stdout") >/dev/null &&
	ok "templates without sentences.json: the installed book says the same reply" ||
	not_ok "templates without sentences.json (rc $rc): $(cat "$TEST_DIR/stderr")"

# Issue 25: one table of keys for every command: [state] start-wait (read by
# the service) is no "unknown key" to review, which shares the file.
sed "s|^dir = .*|&\nstart-wait = 30|" "$CONF" >"$TEST_DIR/start-wait.conf"
"$WARNWATCH" review --config "$TEST_DIR/start-wait.conf" --mbox "$DATA/example-v1.mbox" \
	>"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr"
rc=$?
[ "$rc" -eq 0 ] && grep -q '^In-Reply-To: ' "$TEST_DIR/stdout" &&
	ok "a valid [state] start-wait: review drafts" ||
	not_ok "a valid [state] start-wait (rc $rc): $(cat "$TEST_DIR/stderr")"

done_testing
