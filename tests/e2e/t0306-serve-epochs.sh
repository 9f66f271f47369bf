#!/usr/bin/env bash
# warnwatch serve follows a list through its public-inbox git epochs, on
# loopback only: a real public-inbox-httpd, the service as a poller
# (--role=poller --once: one poll each run, no stages).
#   - a 200-mail patchbomb (a cover and 199 patches) arrives between two
#     polls: all 200 are read (new.atom would have shown 25), one series;
#   - the poll reading them is killed with SIGKILL after the 120th
#     (WARNWATCH_TEST_KILL_AT=follow-120): the next poll reads on from the
#     121st, nothing lost, nothing read twice into a second series;
#   - an epoch with nothing new makes the service ask for the next one,
#     which the real server answers 404 for; once public-inbox starts
#     git/1.git (forced with a tiny rotate_bytes), its mail is read;
#   - a second list reads the same inbox through tests/e2e/fault-http.py,
#     which serves no git: it falls back to new.atom, sees 25 entries all
#     new after the patchbomb, and fills the gap from the thread;
#   - an epoch whose newest mail is a 600 MiB blob of zeros (a
#     compression bomb, 600 KB served) is read by a poller held to
#     500 MiB: the mail is skipped with its reason in the events, the
#     position moves past it, the mail before it is read.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fault-lib.sh"

need_cmd public-inbox-init public-inbox-httpd curl git sqlite3 perl

CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
DB=$STATE/warnwatch.db
MAILS=$TEST_DIR/mails
mkdir -p "$MAILS"

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_init bomb || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
fault_http_start "" || { echo "Bail out! fault-http.py did not start"; exit 1; }

{
	conf_serve_head "$STATE" "smtp://127.0.0.1:1"
	cat <<EOF
[serve]
listen = off
poll-interval = 1

[list.test]
archive = $PI_URL
inbox = test
address = test@example.org
boot = no
reply = none

[list.nogit]
archive = $FAULT_URL
inbox = test
address = test@example.org
boot = no
reply = none
EOF
} >"$CONF"

# mail FILE MSGID SUBJECT [PARENT]
mail() {
	{
		printf 'From: Jane Doe <jane@example.org>\nTo: test@example.org\n'
		printf 'Subject: %s\nMessage-ID: <%s>\n' "$3" "$2"
		[ -z "${4:-}" ] || printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$4" "$4"
		printf 'Date: Mon, 6 May 2024 10:00:00 +0000\n\nmail %s\n' "$2"
	} >"$1"
}

# one poll of each list (--once polls only the lists due: 1 s apart)
poll() {
	sleep 1
	env "$@" "$WARNWATCH" serve --config "$CONF" --role=poller --once \
		>>"$TEST_DIR/serve.log" 2>&1
}

sql() { sqlite3 "$DB" "$1"; }
head_of() { git --git-dir="$PI_DIR/test/git/$1.git" rev-parse HEAD; }
# the n-th commit of epoch 0, oldest first
nth_commit() { git --git-dir="$PI_DIR/test/git/0.git" rev-list --reverse HEAD | sed -n "${1}p"; }
show_log() { sed 's/^/#   /' "$TEST_DIR/serve.log"; }

# ---- the first poll: what was there before ---------------------------------

mail "$MAILS/old.eml" old-1@example.org "[PATCH] mm: an old patch"
pi_import test 0 "$MAILS/old.eml" || { echo "Bail out! cannot deliver"; exit 1; }
poll
test_expect "the first poll reads epoch 0 up to its head" \
	[ "$(sql "SELECT epoch || ' ' || last_commit FROM queue_epochs")" = "0 $(head_of 0)" ]
test_expect "what was there before is recorded, not acted on" \
	[ "$(sql "SELECT group_concat(state) FROM queue_series WHERE root_msgid = 'old-1@example.org'")" = skipped,skipped ]
test_expect "the list without git epochs says it reads the feed" \
	[ "$(sql "SELECT count(*) FROM queue_events WHERE inbox = 'nogit' AND message LIKE '%serves no git epoch; reading its new.atom%'")" = 1 ]

# ---- a patchbomb between two polls, and a kill in the middle -----------------

mail "$MAILS/b000.eml" bomb-0@example.org "[PATCH 0/199] fs: a patchbomb"
for ((i = 1; i <= 199; i++)); do
	mail "$MAILS/b$(printf %03d $i).eml" "bomb-$i@example.org" \
		"[PATCH $i/199] fs: part $i" bomb-0@example.org
done
pi_import test 0 "$MAILS"/b*.eml || { echo "Bail out! cannot deliver the patchbomb"; exit 1; }
test_expect "the archive got all 200 mails" \
	[ "$(git --git-dir="$PI_DIR/test/git/0.git" rev-list --count HEAD)" = 201 ]
feed=$(curl -s "$PI_URL/test/new.atom" | grep -c '<entry>')
test_expect "its new.atom shows only 25 of them ($feed)" [ "$feed" = 25 ]

poll WARNWATCH_TEST_KILL_AT=follow-120
rc=$?
test_expect "the poll is killed with SIGKILL mid-epoch (rc $rc)" [ "$rc" = 137 ]
test_expect "the position saved is the 120th mail of the patchbomb" \
	[ "$(sql "SELECT last_commit FROM queue_epochs WHERE epoch = 0")" = "$(nth_commit 121)" ]
test_expect "the 120 mails read are in the queue" \
	[ "$(sql "SELECT count(*) FROM queue_messages WHERE inbox = 'test' AND msgid LIKE 'bomb-%'")" = 120 ]

poll
for list in test nogit; do
	test_expect "$list: all 200 mails are in the queue" \
		[ "$(sql "SELECT count(DISTINCT msgid) FROM queue_messages WHERE inbox = '$list' AND msgid LIKE 'bomb-%'")" = 200 ]
	test_expect "$list: as one series of 199 patches and a cover" \
		[ "$(sql "SELECT count(*) || ' ' || min(total) || ' ' || min(has_cover) || ' ' || min(state) FROM queue_series WHERE inbox = '$list' AND root_msgid LIKE 'bomb-%'")" = "1 199 1 received" ]
	test_expect "$list: every patch joined it" \
		[ "$(sql "SELECT count(DISTINCT m.idx) FROM queue_messages m JOIN queue_series s ON m.series_id = s.id WHERE s.inbox = '$list' AND s.root_msgid = 'bomb-0@example.org' AND m.idx BETWEEN 1 AND 199")" = 199 ]
done
test_expect "nogit: the gap is said in status, with what the thread gave" \
	[ "$(sql "SELECT count(*) FROM queue_events WHERE inbox = 'nogit' AND message LIKE 'all 25 feed entries were new%175 more found in the thread of%'")" = 1 ]
test_expect "the position is the epoch's head" \
	[ "$(sql "SELECT last_commit FROM queue_epochs WHERE epoch = 0")" = "$(head_of 0)" ]
test_expect "nothing was read twice" \
	[ "$(sql "SELECT commits FROM queue_epochs WHERE epoch = 0")" = 201 ]

# ---- the next epoch ----------------------------------------------------------

code=$(curl -s -o /dev/null -w '%{http_code}' "$PI_URL/test/git/1.git/info/refs?service=git-upload-pack")
test_expect "the real server says 404 for git/1.git ($code)" [ "$code" = 404 ]
poll
test_expect "a quiet epoch 0 and no epoch 1: nothing begun" \
	[ "$(sql "SELECT count(*) FROM queue_epochs")" = 1 ]
mail "$MAILS/last0.eml" last-0@example.org "[PATCH] net: the last in epoch 0"
mail "$MAILS/first1.eml" first-1@example.org "[PATCH] net: the first in epoch 1"
pi_import test 1 "$MAILS/last0.eml" "$MAILS/first1.eml" ||
	{ echo "Bail out! cannot start epoch 1"; exit 1; }
test_expect "public-inbox started git/1.git" [ -n "$(head_of 1 2>/dev/null)" ]
for ((i = 0; i < 3; i++)); do poll; done
test_expect "the rest of epoch 0 is read" \
	[ "$(sql "SELECT count(*) FROM queue_messages WHERE inbox = 'test' AND msgid = 'last-0@example.org'")" = 1 ]
test_expect "epoch 1 is noticed and read to its head" \
	[ "$(sql "SELECT last_commit FROM queue_epochs WHERE epoch = 1")" = "$(head_of 1)" ]
test_expect "its mail is a new series, to act on" \
	[ "$(sql "SELECT state FROM queue_series WHERE inbox = 'test' AND root_msgid = 'first-1@example.org'")" = received ]
test_expect "status says the epoch was begun" \
	grep -q "reading epoch 1 of" <("$WARNWATCH" status --config "$CONF" --format=json 2>/dev/null)
# ---- a compression bomb --------------------------------------------------------

mail "$MAILS/before-bomb.eml" before-bomb@example.org "[PATCH] mm: before the bomb"
pi_import bomb 0 "$MAILS/before-bomb.eml" || { echo "Bail out! cannot deliver"; exit 1; }
bomb_git=$PI_DIR/bomb/git/0.git
bomb_commit=$(python3 "$WW_TOP/tests/e2e/data/epoch-bomb.py" "$bomb_git" 600 zeros@example.org) &&
	git --git-dir="$bomb_git" repack -adq
test_expect "a 600 MiB mail in a $(du -sk "$bomb_git/objects" | cut -f1) KiB epoch" \
	[ "$(git --git-dir="$bomb_git" cat-file -s HEAD:m)" = 629145600 ]
{
	conf_serve_head "$TEST_DIR/state-bomb" "smtp://127.0.0.1:1"
	cat <<EOF
[serve]
listen = off
poll-interval = 1

[list.bomb]
archive = $PI_URL
inbox = bomb
address = bomb@example.org
boot = no
reply = none
EOF
} >"$TEST_DIR/bomb.conf"
t0=$(date +%s)
mem_capped 500 "$WARNWATCH" serve --config "$TEST_DIR/bomb.conf" --role=poller --once \
	>"$TEST_DIR/bomb.log" 2>&1
rc=$?
BOMB_DB=$TEST_DIR/state-bomb/warnwatch.db
test_expect "the poller reads the epoch in 500 MiB (rc $rc, $(($(date +%s) - t0)) s)" [ "$rc" = 0 ]
test_expect "... without an error" \
	[ "$(sqlite3 "$BOMB_DB" "SELECT count(*) FROM queue_events WHERE inbox = 'bomb' AND level = 'error'")" = 0 ]
test_expect "the bomb is skipped, its reason in the events" \
	[ "$(sqlite3 "$BOMB_DB" "SELECT message FROM queue_events WHERE inbox = 'bomb' AND level = 'warn'")" = "epoch 0: skipped: commit $bomb_commit: its mail is 629145600 bytes, over the 16 MiB cap: not read" ]
test_expect "the position is past it" \
	[ "$(sqlite3 "$BOMB_DB" "SELECT last_commit FROM queue_epochs WHERE inbox = 'bomb'")" = "$bomb_commit" ]
test_expect "the mail before it is in the queue, the bomb is not" \
	[ "$(sqlite3 "$BOMB_DB" "SELECT group_concat(msgid) FROM queue_messages WHERE inbox = 'bomb'")" = before-bomb@example.org ]
[ "$rc" = 0 ] || sed 's/^/#   /' "$TEST_DIR/bomb.log"

[ "$tap_failed" = 0 ] || show_log

done_testing
