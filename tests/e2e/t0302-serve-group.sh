#!/usr/bin/env bash
# warnwatch serve groups series as b4 does (issue 27), end to end on
# loopback: public-inbox-httpd -> serve -> aiosmtpd.
#   - a cover letter without a [PATCH] tag (hch's fsverity covers): one
#     series, not one per patch, and one reply;
#   - a [PATCHBOMB] with [PATCHSET v3 1/2] and [PATCHSET v3 2/2] covers whose
#     patches say only [PATCH 1/2] (Darrick Wong's fuse sets): each set is
#     its own v3 series, reviewed, the one with a BUG_ON answered once;
#   - a series missing a patch (it went to another list only): reviewed
#     after max-wait, saying which patch is missing;
#   - the [PATCHBOMB] letter above the sets: set aside, no patches;
# each with b4 run once (status.json's b4_runs), answered at the right
# message.

. "$(dirname "$0")/lib.sh"

need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 curl git
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

CONF=$TEST_DIR/warnwatch.conf
STATE=$TEST_DIR/state
MAILS=$TEST_DIR/mails
export WARNWATCH_CACHE=$TEST_DIR/cache
export XDG_CACHE_HOME=$TEST_DIR/xdg-cache


mkdir -p "$MAILS"
# An untagged cover (with a diffstat, as git format-patch writes it).
list_mail t0 tagless-0@x "" "fsverity: check the merkle tree earlier v4" \
"This moves the check earlier.

Ann Dev (2):
  fsverity: stop on a bad tree
  fsverity: count the levels

 fs/verity.c | 2 ++
 2 files changed, 2 insertions(+)"
list_mail t1 tagless-1@x tagless-0@x "[PATCH v4 1/2] fsverity: stop on a bad tree" \
	"$(list_patch verity 'BUG_ON(!inode->i_verity_info);' 'Stop early.')"
list_mail t2 tagless-2@x tagless-0@x "[PATCH v4 2/2] fsverity: count the levels" \
	"$(list_patch veritylevels 'inode->i_levels++;' 'Count them.')"
# A patchbomb of two PATCHSETs; only the sets spell the version.
FROM="Darrick Wong <djwong@example.org>"
list_mail b0 bomb-0@x "" "[PATCHBOMB v3] fuse: iomap for fuse servers" "Nine sets; two here."
list_mail b1 set1-0@x bomb-0@x "[PATCHSET v3 1/2] fuse: cache iomap mappings" \
	"With a bit of luck, this should all go splendidly."
list_mail b2 set1-1@x set1-0@x "[PATCH 1/2] fuse: cache iomaps" \
	"$(list_patch fuseiomap 'BUG_ON(!inode);' 'Cache them.')"
list_mail b3 set1-2@x set1-0@x "[PATCH 2/2] fuse: drop the cache on truncate" \
	"$(list_patch fusetrunc 'inode->i_cached = 0;' 'Drop it.')"
list_mail b4 set2-0@x bomb-0@x "[PATCHSET v3 2/2] fuse: direct io" \
	"With a bit of luck, this should all go splendidly."
list_mail b5 set2-1@x set2-0@x "[PATCH 1/1] fuse: direct io reads" \
	"$(list_patch fusedio 'inode->i_dio++;' 'Read directly.')"
# A series whose patch 2/3 went to another list only.
FROM="Jan Kara <jack@example.org>"
list_mail m0 miss-0@x "" "[PATCH 0/3] jbd2: three small things" "Three; two here."
list_mail m1 miss-1@x miss-0@x "[PATCH 1/3] jbd2: one" \
	"$(list_patch jbdone 'BUG_ON(!journal);' 'One.')"
list_mail m3 miss-3@x miss-0@x "[PATCH 3/3] jbd2: three" \
	"$(list_patch jbdthree 'journal->j_three = 3;' 'Three.')"

pi_init test || { echo "Bail out! public-inbox-init failed"; exit 1; }
pi_httpd_start || { echo "Bail out! public-inbox-httpd did not start"; exit 1; }
smtp_start || { echo "Bail out! aiosmtpd did not start"; exit 1; }
mkdir -p "$MAILDIR/tmp" "$MAILDIR/new" "$MAILDIR/cur"
mkdir -p "$TEST_DIR/tree"
{
	conf_serve_head "$STATE" "$SMTP_URL"
	cat <<EOF
[review]
tree = $TEST_DIR/tree

[serve]
listen = off
poll-interval = 1
max-wait = 25
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
EOF
} >"$CONF"

"$WARNWATCH" serve --config "$CONF" --verbose >"$TEST_DIR/serve.log" 2>&1 &
SERVE_PID=$!
ww_track "$SERVE_PID" warnwatch-serve
# The empty inbox is polled once (primed): what comes next is new.
wait_for 20 polled_once
pi_deliver test "$MAILS"/t0 "$MAILS"/t1 "$MAILS"/t2 "$MAILS"/b0 "$MAILS"/b1 \
	"$MAILS"/b2 "$MAILS"/b3 "$MAILS"/b4 "$MAILS"/b5 "$MAILS"/m0 "$MAILS"/m1 \
	"$MAILS"/m3

test_expect "the untagged cover's series is answered" \
	wait_for 120 series_is tagless-0@x replied
test_expect "the first PATCHSET is answered" wait_for 60 series_is set1-0@x replied
test_expect "the second PATCHSET is reviewed" wait_for 60 series_is set2-0@x replied
test_expect "the series missing a patch is reviewed after max-wait" \
	wait_for 90 series_is miss-0@x replied
test_expect "the [PATCHBOMB] letter above the sets is set aside" \
	wait_for 30 series_is bomb-0@x skipped
test_expect "the service is idle (polled since, nothing due)" wait_idle 60

n=$(status_json | "$WW_PYTHON" -c '
import json, sys
print(sorted(s["root_msgid"] for s in json.load(sys.stdin)["series"]))')
case $n in
"['bomb-0@x', 'miss-0@x', 'set1-0@x', 'set2-0@x', 'tagless-0@x']")
	ok "five series, one per cover" ;;
*) not_ok "five series, one per cover: $n" ;;
esac
is_field() {	# is_field MSGID FIELD WANT NAME
	local got
	got=$(series_field "$1" "$2")
	if [ "$got" = "$3" ]; then ok "$4"; else not_ok "$4: got '$got'"; fi
}
is_field tagless-0@x b4_runs 1 "  b4 ran once for the untagged cover's series"
is_field tagless-0@x version 4 "  its version is the patches' v4"
is_field set1-0@x b4_runs 1 "  b4 ran once for the first PATCHSET"
is_field set1-0@x version 3 "  its version is the set's v3"
is_field set1-0@x total 2 "  two patches, not the two sets"
is_field set2-0@x b4_runs 1 "  b4 ran once for the second PATCHSET"
is_field miss-0@x b4_runs 1 "  b4 ran once for the incomplete series"
is_field miss-0@x missing "[2/3]" "  which says patch 2/3 is missing"
is_field bomb-0@x error "a cover of patchsets (<bomb-0@x>): each set under it is a series of its own" \
	"  the bomb: a cover of patchsets, no b4 am"

total=$(maildir_count)
[ "$total" = 3 ] && ok "three replies in all (no copies)" || not_ok "three replies in all: $total"
answered() {	# answered MSGID...: replies to any of them
	local m c=0
	for m in "$@"; do c=$((c + $(replies_to "$m"))); done
	echo "$c"
}
[ "$(answered tagless-0@x tagless-1@x tagless-2@x)" = 1 ] &&
	ok "  one to the untagged cover's series" ||
	not_ok "  one to the untagged cover's series: $(answered tagless-0@x tagless-1@x tagless-2@x)"
[ "$(answered set1-0@x set1-1@x set1-2@x)" = 1 ] && ok "  one to the first PATCHSET" ||
	not_ok "  one to the first PATCHSET: $(answered set1-0@x set1-1@x set1-2@x)"
[ "$(answered miss-0@x miss-1@x miss-3@x)" = 1 ] && ok "  one to the incomplete series" ||
	not_ok "  one to the incomplete series"
[ "$(answered set2-0@x set2-1@x bomb-0@x)" = 0 ] && ok "  none to the clean set or the bomb" ||
	not_ok "  none to the clean set or the bomb"
grep -q "reviewed without \[2/3\]" "$TEST_DIR/serve.log" &&
	ok "  the log says which patch is missing" || not_ok "  the log says which patch is missing"

if [ "$tap_failed" -gt 0 ]; then
	tail -n 40 "$TEST_DIR/serve.log" | sed 's/^/#   /'
fi
kill -TERM "$SERVE_PID"
wait_for 20 sh -c "! kill -0 $SERVE_PID"
done_testing
