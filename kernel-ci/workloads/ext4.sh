#!/bin/sh
# The ext4 workload, run INSIDE the guest by busybox sh (kernel-ci/init):
#   ext4.sh [-n] MOUNTPOINT DEVICE IMAGE
# mounts DEVICE (the virtio disk holding image IMAGE) on MOUNTPOINT and
# drives the code people change in fs/ext4: names of every length
# 1..255, a directory of thousands of entries (block splits, htree),
# write/append/truncate/fallocate, hard and symbolic links, sync,
# remount read-only and back, unmount.  Deterministic: same names, same
# sizes, same order every run.  Prints KTAP as suite workload:ext4.
# -n: no-mount test mode (host tests): MOUNTPOINT is a plain directory,
# the mount steps report SKIP.
# Not done, each reported as SKIP: punch holes (busybox fallocate has no
# --punch-hole) and xattrs (busybox has no setfattr/getfattr).
# Per-step deadlines are in ext4.json; the bound here is the loop sizes.

NOMOUNT=0
if [ "$1" = "-n" ]; then NOMOUNT=1; shift; fi
MNT=$1 DEV=$2 IMG=$3
NSTEPS=13
N=0
FAILED=0

say() { echo "$@"; }
result() {	# result STATUS NAME [SKIP-REASON]
	N=$((N + 1))
	if [ "$1" = 0 ]; then say "ok $N $2"
	elif [ "$1" = skip ]; then say "ok $N $2 # SKIP $3"
	else say "not ok $N $2"; FAILED=$((FAILED + 1)); fi
}
step() {	# step NAME FUNCTION: run, report
	if [ $NOMOUNT = 1 ] && [ "$3" = mount ]; then
		result skip "$1" "no-mount test mode"; return
	fi
	( set -e; $2 ) >/tmp/ww-step.$$ 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' /tmp/ww-step.$$
	result $rc "$1"
}

do_mount() { mount -t ext4 "$DEV" "$MNT"; }
names() {
	mkdir "$MNT/names"; cd "$MNT/names"
	# r grows with n: no "echo | tr" (three forks) per name
	n="" r="" i=0 gone=""
	while [ $i -lt 255 ]; do
		i=$((i + 1)); n="${n}n" r="${r}r"
		: >"$n"
		# a rename to another name of the same length, then unlink
		mv "$n" "$r"
		[ -f "$r" ]
		[ $((i % 2)) = 0 ] && gone="$gone $r"
	done
	# the even lengths' unlinks in one rm, not one fork each
	# shellcheck disable=SC2086 # a list of names without blanks
	rm $gone
	[ "$(ls | wc -l)" = 128 ]
	rm -f r*; cd /
	rmdir "$MNT/names"
}
bigdir() {
	mkdir "$MNT/big"; cd "$MNT/big"
	p=entry-with-a-long-name-so-that-blocks-fill-quickly-and-split
	for i in $(seq 1 3000); do : >"$p-$i"; done
	[ "$(ls | wc -l)" = 3000 ]
	for i in $(seq 1 2 3000); do mv "$p-$i" "x-$i"; done
	# the 1,500 even entries left under $p: their unlinks in one rm
	# (the shell's glob names them), not one fork each
	rm "$p"-*
	[ "$(ls | wc -l)" = 1500 ]
	[ -f x-2999 ]
	cd /
}
bigdir_rm() { rm -rf "$MNT/big"; [ ! -e "$MNT/big" ]; }
data() {
	f=$MNT/data
	dd if=/dev/zero of="$f" bs=4096 count=64 2>/dev/null
	echo append >>"$f"
	[ "$(stat -c %s "$f")" = $((64 * 4096 + 7)) ]
	truncate -s 10000 "$f"; [ "$(stat -c %s "$f")" = 10000 ]
	truncate -s 1000000 "$f"; [ "$(stat -c %s "$f")" = 1000000 ]
	truncate -s 0 "$f"; [ "$(stat -c %s "$f")" = 0 ]
	echo small >"$f"; [ "$(cat "$f")" = small ]
}
falloc() {
	fallocate -l 1048576 "$MNT/falloc"
	[ "$(stat -c %s "$MNT/falloc")" = 1048576 ]
	fallocate -o 2097152 -l 65536 "$MNT/falloc"
	[ "$(stat -c %s "$MNT/falloc")" = $((2097152 + 65536)) ]
	rm "$MNT/falloc"
}
links() {
	echo target >"$MNT/t"
	ln "$MNT/t" "$MNT/hard"; [ "$(stat -c %h "$MNT/t")" = 2 ]
	ln -s t "$MNT/sym"; [ "$(readlink "$MNT/sym")" = t ]
	[ "$(cat "$MNT/sym")" = target ]
	# a symlink longer than the inode's 60 bytes of inline space
	long=$(seq 1 40 | tr -d '\n')
	ln -s "$long" "$MNT/longsym"; [ "$(readlink "$MNT/longsym")" = "$long" ]
	rm "$MNT/hard" "$MNT/sym" "$MNT/longsym"; [ "$(stat -c %h "$MNT/t")" = 1 ]
}
do_sync() { sync; }
remount() {
	mount -o remount,ro "$MNT"
	# touch, not ': >': a failed redirection on a special builtin ends
	# the whole (set -e) shell in busybox ash, "if" or not
	if touch "$MNT/ro-write" 2>/dev/null; then exit 1; fi
	mount -o remount,rw "$MNT"
	: >"$MNT/rw-write"
}
do_umount() { cd /; umount "$MNT"; }

say "KTAP version 1"
say "# workload:ext4 image=$IMG device=$DEV"
say "1..$NSTEPS"
step mount do_mount mount
step names_1_to_255 names
step dir_3000_entries bigdir
step dir_3000_entries_remove bigdir_rm
step write_append_truncate data
step fallocate falloc
result skip punch_hole "busybox fallocate has no --punch-hole"
result skip xattrs "busybox has no setfattr/getfattr"
step hard_and_symbolic_links links
step sync do_sync
step remount_ro_and_back remount mount
step sync_after_remount do_sync
step umount do_umount mount
rm -f /tmp/ww-step.$$
[ $FAILED = 0 ]
