#!/usr/bin/env bash
# warnwatch serve on month-shaped traffic (issue 27, "Done when"), end to
# end on loopback: a real public-inbox-httpd -> `warnwatch serve` (reply =
# send, boot = no) -> aiosmtpd, which relays what goes to the list back
# into the archive as a list does.  The mails are
# tests/e2e/data/serve-replay/*.eml (made by gen.py there, which says what
# each is): a 40-patch series between two polls (new.atom holds 25), a
# cover without a tag, a [PATCHSET v7 0/2] over [PATCH 1/2], a To: of 120
# addresses with the list only in Cc:, format strings edited inside
# WARN()s, a lone WARN_ON_ONCE(), a clean patch, a conversion only, syzbot
# and the kernel test robot, a maintainer who objects while the series is
# held, and a v1 whose answer is called "wrong" before v2 comes.  Asserted:
#   - every series is found (status), b4 ran once for each reviewed;
#   - each answered message gets exactly one reply (by In-Reply-To), and
#     only the series with something to say are answered: no thank-you
#     mail, none to the format-string edits, none to a bot, none for a
#     point a human made already;
#   - To: the author, the watched list in Cc: of every reply (also behind
#     120 addresses in To:), and the other list the patch went to;
#   - v2 does not repeat the finding called wrong on v1;
#   - on a second list with embargo = 45s, a maintainer's objection
#     (quoting the added line) that arrives while the series is held, after
#     the fetch, is not repeated;
#   - the dashboard counts each series once.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

DATA=$WW_TOP/tests/e2e/data/serve-replay
CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache

# series_done MSGID...: each series is replied or skipped (nothing left to do)
series_done() {
	local m s
	for m in "$@"; do
		s=$(series_field "$m" state)
		[ "$s" = replied ] || [ "$s" = skipped ] || return 1
	done
}
# our_replies: the Maildir files warnwatch sent
our_replies() { grep -l '^From: warnwatch test bot' "$MAILDIR"/new/* 2>/dev/null; }
# thread_replies PREFIX: warnwatch's replies to any mail PREFIX-*@example.org
thread_replies() {
	local f n=0
	for f in $(our_replies); do
		grep -qi "^In-Reply-To: <$1-[0-9]*@example.org>" "$f" && n=$((n + 1))
	done
	echo "$n"
}

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_init slow || { echo "Bail out! public-inbox-init failed"; exit 1; }
# The month is delivered under a busy server: a worker that dies is replaced.
PI_HTTPD_WORKERS=1 pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
relay_start

{
	conf_serve_head "$STATE" "$SMTP_URL"
	cat <<EOF
[review]
lists = test@example.org *@vger.kernel.org

[serve]
listen = off
poll-interval = 1
max-wait = 30
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
reply-to = both

# The same traffic's quieter neighbour: people first for 45 s.
[list.slow]
archive = $PI_URL
inbox = slow
address = slow@example.org
boot = no
reply = send
# Pacing (one mail per author per hour) is t0309's: not what this measures.
pace = 0
reply-to = both
embargo = 45s
EOF
} >"$CONF"

start=$(date +%s)
"$WARNWATCH" serve --config "$CONF" --verbose >"$TEST_DIR/serve.log" 2>&1 &
SERVE_PID=$!
ww_track "$SERVE_PID" warnwatch-serve
# The empty inbox is read once (primed): what comes next is new.
wait_for 20 polled_once
"$WARNWATCH" dashboard --config "$CONF" --out "$TEST_DIR/site0" >/dev/null 2>&1
test_expect "before any mail, the dashboard shows the watched list" \
	sh -c "grep -q 'id=\"list-test\"' '$TEST_DIR/site0/index.html' && ! grep -q 'No list is watched' '$TEST_DIR/site0/index.html'"

# ---- the month, in the order it came -------------------------------------------
# The 40-patch series in one go, between two polls; the rest as the list
# would deliver it, a few days' worth at a time.
pi_import test 0 "$DATA"/bomb-*.eml || { echo "Bail out! cannot deliver the series"; exit 1; }
test_expect "new.atom shows 25 of the 41 mails" \
	[ "$(curl -s "$PI_URL/test/new.atom" | grep -c '<entry>')" = 25 ]
pi_import test 0 "$DATA"/tagless-*.eml "$DATA"/pset-*.eml "$DATA"/wide-*.eml \
	"$DATA"/fmt-*.eml "$DATA"/once-*.eml "$DATA"/clean-*.eml "$DATA"/credit-*.eml || { echo "Bail out! cannot deliver"; exit 1; }
pi_import test 0 "$DATA"/bot-*.eml "$DATA"/fb1-*.eml ||
	{ echo "Bail out! cannot deliver"; exit 1; }

REVIEWED="bomb-0@example.org tagless-0@example.org pset-0@example.org wide-0@example.org
fmt-0@example.org once-0@example.org clean-0@example.org credit-0@example.org fb1-0@example.org"
BOTS="bot-1@example.org bot-2@example.org"
# shellcheck disable=SC2086
test_expect "every series of the month is done" wait_for 180 series_done $REVIEWED $BOTS

# ---- "wrong" on v1's answer, then v2 ------------------------------------------------
# The author's keyword line counts; the free text beside it alone would be
# discussion (issue 40).
fb1=$(reply_file fb1-0@example.org)
if [ -n "$fb1" ]; then
	fb1_id=$(mail_header "$fb1" Message-ID | tr -d '<>')
	test_expect "v1's answer reached the archive" \
		wait_for 30 curl -sf "$PI_URL/test/$fb1_id/raw" -o /dev/null
	{
		printf 'From: Jan Kara <jack@example.org>\nDate: Thu, 27 Jun 2024 09:00:00 +0000\n'
		printf 'Subject: Re: [PATCH] jbd2: check the handle\n'
		printf 'To: warnwatch test bot <bot@example.org>\nCc: test@example.org\n'
		printf 'Message-ID: <fb1-answer@example.org>\nIn-Reply-To: <%s>\n' "$fb1_id"
		printf 'References: <fb1-0@example.org> <%s>\n' "$fb1_id"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n\n'
		printf 'On Mon, warnwatch wrote:\n> > +\tWARN_ON(handle->h_credits < 0);\n'
		printf '> This WARN_ON() warns every time\n\nThat is wrong: h_credits never goes below zero.\n\n'
		printf 'warnwatch: wrong\n\nJan\n'
	} >"$TEST_DIR/fb1-answer.eml"
	pi_deliver test "$TEST_DIR/fb1-answer.eml"
else
	not_ok "v1 of the feedback series was answered"
fi
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
pi_deliver test "$DATA"/fb2-0.eml
pi_deliver slow "$DATA"/human-0.eml
# The maintainer objects while the series is held (embargo = 45s): after
# the service fetched and checked it, before it answers.
embargoed() { case $(series_field human-0@example.org reply) in *embargo*) return 0 ;; esac; return 1; }
test_expect "a checked series is held by the embargo" wait_for 60 embargoed
pi_deliver slow "$DATA"/human-1.eml
test_expect "  and is done once the embargo is over" wait_for 120 series_done human-0@example.org
test_expect "v2 is done" wait_for 90 series_done fb2-0@example.org
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
took=$(($(date +%s) - start))

# ---- every series found ------------------------------------------------------------
roots=$(status_json | "$WW_PYTHON" -c '
import json, sys
print(" ".join(sorted(s["root_msgid"] for s in json.load(sys.stdin)["series"])))')
for m in $REVIEWED $BOTS fb2-0@example.org human-0@example.org; do
	case " $roots " in
	*" $m "*) ok "status lists the series <$m>" ;;
	*) not_ok "status lists the series <$m>: $roots" ;;
	esac
done
for m in bomb-17@example.org tagless-1@example.org pset-1@example.org clean-1@example.org \
	human-1@example.org bot-0@example.org fb1-answer@example.org; do
	case " $roots " in
	*" $m "*) not_ok "<$m> is not a series of its own" ;;
	*) ok "<$m> is not a series of its own" ;;
	esac
done
is_field() {	# is_field MSGID FIELD WANT NAME
	local got
	got=$(series_field "$1" "$2")
	if [ "$got" = "$3" ]; then ok "$4"; else not_ok "$4: got '$got'"; fi
}
is_field bomb-0@example.org total 40 "the 40-patch series is one series of 40"
is_field bomb-0@example.org b4_runs 1 "  b4 ran once for it"
is_field tagless-0@example.org version 4 "the untagged cover's series is v4"
is_field pset-0@example.org version 7 "the PATCHSET's series is v7"
is_field pset-0@example.org total 2 "  of two patches"
for m in $REVIEWED fb2-0@example.org human-0@example.org; do
	is_field "$m" b4_runs 1 "  b4 ran once for <$m>"
done
for m in $BOTS; do
	is_field "$m" reply "none: the author is in ignore-senders" "the bot's <$m> is not answered"
done

# ---- who is answered, once ------------------------------------------------------------
irt=$(for f in $(our_replies); do mail_header "$f" In-Reply-To; done | sort)
dups=$(printf '%s\n' "$irt" | uniq -d)
test_expect "no message is answered twice" [ -z "$dups" ]
for t in bomb tagless pset wide fb1 fb2; do
	is_n=$(thread_replies "$t")
	[ "$is_n" = 1 ] && ok "one reply to the $t series" || not_ok "one reply to the $t series: $is_n"
done
for t in fmt once clean credit bot human; do
	is_n=$(thread_replies "$t")
	[ "$is_n" = 0 ] && ok "no reply to the $t series" || not_ok "no reply to the $t series: $is_n"
done
n=$(our_replies | wc -l)
test_expect "six replies in all, nothing else sent ($n)" [ "$n" = 6 ]
is_field fmt-0@example.org reply \
	"none: only info-level notes, with no evidence (min-level = warning)" \
	"  the format-string edits: their changed-arguments notes are info, left out"
is_field clean-0@example.org reply "none: nothing to say" "  the clean patch: nothing to say"
is_field credit-0@example.org reply "none: no issue, only thanks (positive = no)" \
	"  the conversion: no thank-you-only mail"
is_field once-0@example.org reply \
	"none: only info-level notes, with no evidence (min-level = warning)" \
	"  the lone WARN_ON_ONCE(): info level, no evidence"
is_field human-0@example.org reply \
	"none: every point was made in the thread already or called wrong before" \
	"  the maintainer made the point while it was held: nothing left to say"

# ---- the right people -------------------------------------------------------------------
for f in $(our_replies); do
	cc=$(mail_header "$f" Cc)
	case $cc in
	*test@example.org*) ok "the list is in Cc: of $(basename "$f")" ;;
	*) not_ok "the list is in Cc: of $(basename "$f"): '$cc'" ;;
	esac
	grep -qi '^X-RcptTo:.*test@example\.org' "$f" || not_ok "  and in its envelope"
done
w=$(reply_file wide-0@example.org)
if [ -n "$w" ]; then
	test_expect "the 120-address patch: To: the author" \
		[ "$(mail_header "$w" To)" = "Jeff Layton <jlayton@example.org>" ]
	test_expect "  Cc: the list and the other list it went to" \
		[ "$(mail_header "$w" Cc)" = "test@example.org, linux-fsdevel@vger.kernel.org" ]
else
	not_ok "the 120-address patch is answered"
fi
p=$(reply_file pset-1@example.org)
test_expect "the PATCHSET's patch with the WARN_ON() is the one answered" [ -n "$p" ]

# ---- feedback sticks -----------------------------------------------------------------------
f2=$(reply_file fb2-0@example.org)
if [ -n "$f2" ]; then
	test_expect "v2's reply still objects to the BUG_ON()" grep -q 'BUG_ON(!handle->h_transaction)' "$f2"
	test_expect "  but says nothing of the WARN_ON() called wrong" \
		sh -c "! grep -v '^>' '$f2' | grep -q 'WARN_ON(handle->h_credits'"
else
	not_ok "v2 is answered (its BUG_ON() was not called wrong)"
fi

# ---- the dashboard ---------------------------------------------------------------------------
"$WARNWATCH" dashboard --config "$CONF" --out "$TEST_DIR/site" >/dev/null 2>&1
# Each version chain once: v2 of the jbd2 series is not a second one;
# the embargoed series is on the other list.
nseries=$(($(echo "$roots" | wc -w) - 2))
test_expect "the dashboard counts each series once ($nseries)" \
	grep -A1 -F 'Series reviewed' "$TEST_DIR/site/index.html" | grep -q "data-value=\"$nseries\""
test_expect "  its boot column says not booted for every one" \
	[ "$(grep -c '<span class="badge not-booted">not booted</span>' "$TEST_DIR/site/index.html")" = "$(echo "$roots" | wc -w)" ]

# serve's own CPU and its children's (b4, git) it waited for, from /proc
cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15 + $16 + $17) / hz }' \
	"/proc/$SERVE_PID/stat" 2>/dev/null)
diag "the replay took ${took} s; serve and its children used ${cpu:-?} CPU s"
if [ "$tap_failed" -gt 0 ]; then
	grep -E 'warnwatch serve: ' "$TEST_DIR/serve.log" | tail -n 60 | sed 's/^/#   /'
fi
kill -TERM "$SERVE_PID"
wait_for 20 sh -c "! kill -0 $SERVE_PID"
relay_stop
done_testing
