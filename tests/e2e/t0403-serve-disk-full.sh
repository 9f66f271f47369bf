#!/usr/bin/env bash
# slow
#
# t0403: the state directory on a small tmpfs that fills up while series
# arrive.  With the disk full the service must keep running, say why,
# commit nothing half-way and send nothing (the intent to send is a
# database write that must succeed first); killed with SIGKILL in that
# state and restarted once space is back, it must find an intact database
# and finish every series: none lost, none answered twice.  Mounting needs
# root (or a user namespace); the mount is undone on every exit path.
. "$(dirname "$0")/lib.sh"
need_cmd public-inbox-init public-inbox-mda public-inbox-httpd b4 git mount umount
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"
[ "$(id -u)" -eq 0 ] || skip_all "not-root: mounting a tmpfs needs root"
. "$(dirname "$0")/fault-lib.sh"

SERIES=4
MNT=$STATE
mkdir -p "$MNT"
mounted=
fault_umount() {
	[ -n "$mounted" ] || return 0
	[ -n "$SERVE_PID" ] && ww_stop_pid "$SERVE_PID"
	umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null
	mounted=
}
# Undo the mount first, then lib.sh's cleanup (which removes $TEST_DIR).
trap '_rc=$?; fault_umount; (exit $_rc); ww_cleanup' EXIT
if ! mount -t tmpfs -o size=6m,mode=0700 warnwatch-t0403 "$MNT"; then
	skip_all "not-root: cannot mount a tmpfs on $MNT (no CAP_SYS_ADMIN here)"
fi
mounted=1

lists_start
make_series "$SERIES" 1
write_conf "$PI_URL" "$SMTP_URL"

start_serve
wait_for 30 primed && ok "the service runs on a 6 MB tmpfs" || not_ok "the service primed the list"

# Fill the disk to the last block.
dd if=/dev/zero of="$MNT/filler" bs=64k 2>/dev/null
dd if=/dev/zero of="$MNT/filler2" bs=512 2>/dev/null
diag "free on the state disk: $(df -k --output=avail "$MNT" | tail -1) KB"
lines=$(wc -l <"$SERVE_LOG")
pi_deliver test "$SERIES_DIR"/[0-9]*.eml

full_said() { tail -n +"$((lines + 1))" "$SERVE_LOG" | grep -qiE 'full|No space'; }
if wait_for 30 full_said; then
	ok "a full disk is reported: $(tail -n +"$((lines + 1))" "$SERVE_LOG" | grep -iE -m1 'full|No space' | cut -c1-150)"
else
	not_ok "a full disk is reported on stderr"
	tail -n 10 "$SERVE_LOG" | sed 's/^/#   /'
fi
# Not a while: until it failed twice more and tried again (the epoch's
# fetch or the database, whichever the full disk stops first).
retried() { [ "$(tail -n +"$((lines + 1))" "$SERVE_LOG" | grep -cE 'retrying in|cannot fetch.*No space')" -ge 3 ]; }
test_expect "it tries again, and again" wait_for 60 retried || tail -n 30 "$SERVE_LOG" | sed "s/^/#   /"
if kill -0 "$SERVE_PID" 2>/dev/null; then ok "the service keeps running"; else not_ok "the service keeps running"; fi
test_expect "nothing is sent while the intent cannot be recorded" test "$(maildir_count)" -eq 0

# Killed while the disk is full, restarted when space is back.
kill9_serve
rm -f "$MNT/filler" "$MNT/filler2"
check=$(db "PRAGMA integrity_check")
test_expect "the database is intact after SIGKILL on a full disk ($check)" test "$check" = ok
start_serve
if wait_for 180 all_settled "$SERIES"; then
	ok "with space back, every series finished"
else
	not_ok "series still pending: $(pending)"
fi
test_expect "the service is idle (polled since, nothing due)" wait_idle 60
stop_serve
relay_stop
check_outcome
done_testing
