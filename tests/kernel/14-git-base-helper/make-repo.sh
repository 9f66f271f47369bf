#!/usr/bin/env bash
# make-repo.sh REPO IMPORT_GITDIR: the git kernel repository of
# tests/e2e/t0214-ci-git-base.sh, standing in for a tree newer than
# Debian's 6.12 that an operator keeps fetched ([ci] repo):
#
#   (import)  linux 6.12.118, the tree of warnwatch's own import of
#             linux-source-6.12 (IMPORT_GITDIR, tag v6.12.118), committed
#             again with a fixed identity and date;
#   next      + kernel/time/timeconv.c: the helper time64_before_epoch(),
#             which Debian's tree does not have (the series' base-commit:);
#   series    + the series of series.mbox on next (format-patch source);
#   author    next with a reworded context line in time64_to_tm(): the tree
#             the drifted series was written on;
#   drift     + the same change on author (drift.mbox: no base-commit:).
#
# Every identity and date is fixed, so the commit ids depend only on the
# tarball's contents: series.mbox's base-commit: names `next` on every
# machine.  Objects are hard-linked from IMPORT_GITDIR (git clone --local),
# so this takes seconds.  Prints nothing; `git --git-dir=REPO rev-parse next`.
set -eu
repo=$1 src=$2
tmp=$repo.tmp
here=$(cd "$(dirname "$0")" && pwd)
export GIT_AUTHOR_NAME="Ada Tester" GIT_AUTHOR_EMAIL=ada@example.org
export GIT_COMMITTER_NAME="Ada Tester" GIT_COMMITTER_EMAIL=ada@example.org
export GIT_AUTHOR_DATE="2026-01-05T10:00:00+0000" GIT_COMMITTER_DATE="2026-01-05T10:00:00+0000"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
rm -rf "$tmp"
git clone -q --bare --local --no-tags "$src" "$tmp"
export GIT_DIR=$tmp GIT_INDEX_FILE=$tmp/test-index
tag=$(git --git-dir="$src" tag -l 'v*' | head -n 1)
[ -n "$tag" ] || { echo "make-repo.sh: no v* tag in $src" >&2; exit 1; }
git for-each-ref --format='%(refname)' | while read -r ref; do git update-ref -d "$ref"; done
import=$(git commit-tree "$(git rev-parse "$(git --git-dir="$src" rev-parse "$tag^{tree}")")" \
	-m "linux ${tag#v} from linux-source" </dev/null)

f=kernel/time/timeconv.c
work=$tmp/files
mkdir -p "$work"
# commit_file PARENT FILE MESSAGE: PARENT with $f replaced by FILE
commit_file() {
	git read-tree "$1"
	git update-index --cacheinfo "100644,$(git hash-object -w "$2"),$f"
	git commit-tree "$(git write-tree)" -p "$1" -m "$3" </dev/null
}
git cat-file blob "$import:$f" >"$work/base.c"
# next: the helper, after the SECS_PER_DAY define
sed '/^#define SECS_PER_DAY/r '"$here/helper.txt" "$work/base.c" >"$work/next.c"
next=$(commit_file "$import" "$work/next.c" "time: add time64_before_epoch()

A newer tree's helper, which Debian's linux 6.12 does not have.")
# author: the line three above the change reworded
sed 's|^\tlong days, rem;$|\tlong days, rem;\t/* rem: seconds into the day */|' \
	"$work/next.c" >"$work/author.c"
author=$(commit_file "$next" "$work/author.c" "time: say what rem holds in time64_to_tm()")
# the change itself, after the declarations of time64_to_tm()
warn() {
	awk '{ print } /^\tint remainder;$/ { getline; print; print "\tWARN_ON(time64_before_epoch(totalsecs));"; print "" }' "$1"
}
msg="time: warn on times before the epoch in time64_to_tm()

Callers are not expected to convert times before 1970: a negative
totalsecs most likely comes from an overflow in the caller.  Warn about
it, with the helper the tree now has.

Signed-off-by: Ada Tester <ada@example.org>"
warn "$work/next.c" >"$work/series.c"
series=$(commit_file "$next" "$work/series.c" "$msg")
warn "$work/author.c" >"$work/drift.c"
drift=$(commit_file "$author" "$work/drift.c" "$msg")
git update-ref refs/heads/next "$next"
git update-ref refs/heads/series "$series"
git update-ref refs/heads/author "$author"
git update-ref refs/heads/drift "$drift"
git symbolic-ref HEAD refs/heads/next
rm -rf "$work" "$GIT_INDEX_FILE"
rm -rf "$repo"
mv "$tmp" "$repo"
