#!/usr/bin/env bash
# Build a bare git repository REPO holding Debian's linux-source-6.1 and
# linux-source-6.12 trees as two commits tagged v6.1 and v6.12 (the second
# the child of the first), for t0310's `census --git`.  Each tree is
# extracted into a scratch directory next to REPO (1.5 GB, removed after);
# the repository is only moved into place once complete.  The tarballs
# ship a .gitignore whose first rule is "/*": hence `git add -f`.
set -eu
repo=$1
work=$(mktemp -d "$(dirname "$repo")/import.XXXXXX")
trap 'rm -rf "$work" "$repo.tmp"' EXIT
git init -q --bare "$repo.tmp"
export GIT_DIR="$repo.tmp" GIT_AUTHOR_NAME=warnwatch GIT_COMMITTER_NAME=warnwatch \
	GIT_AUTHOR_EMAIL=census@warnwatch.invalid GIT_COMMITTER_EMAIL=census@warnwatch.invalid \
	GIT_AUTHOR_DATE="2025-01-01T00:00:00Z" GIT_COMMITTER_DATE="2025-01-01T00:00:00Z" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
for v in 6.1 6.12; do
	rm -rf "$work/tree"
	mkdir -p "$work/tree"
	tar -xJf "/usr/src/linux-source-$v.tar.xz" -C "$work/tree" --strip-components=1
	GIT_WORK_TREE="$work/tree" git add -A -f .
	GIT_WORK_TREE="$work/tree" git commit -q -m "Debian linux-source-$v"
	git tag "v$v"
done
mv "$repo.tmp" "$repo"
