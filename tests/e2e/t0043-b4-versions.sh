#!/usr/bin/env bash
# docs/check.md's "Which b4 does what" against the b4 installed here
# (issue 35 item 7): Debian 12's b4 0.12 has no per-patch check commands
# and no review checks, and `b4 am --check` is not a check.

. "$(dirname "$0")/lib.sh"

need_cmd b4
DOC=$WW_TOP/docs/check.md
version=$(b4 --version 2>/dev/null)
case $version in
0.12.*) ;;
*) skip_all "b4 $version is not 0.12: docs/check.md's measured line is 0.12's" ;;
esac
export HOME=$TEST_DIR XDG_CACHE_HOME=$TEST_DIR/cache GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$TEST_DIR/gitconfig

test_expect "docs/check.md has the installed b4's line ($version)" \
	grep -q "^| 0.12 (Debian 12, measured here: \`b4 --version\` $version)" "$DOC"
test_status "b4 prep --check: unrecognized arguments, as the table says" 2 "unrecognized arguments: --check" -- \
	b4 --no-stdin prep --check
test_expect "b4 am has no --check of its own: --check is --check-newer-revisions" \
	sh -c "b4 am --help 2>&1 | grep -q -- '--check-newer-revisions' && ! b4 am --help 2>&1 | grep -Eq -- '--check([ ,]|\$)'"
test_status "b4 review does not exist" 2 "invalid choice: 'review'" -- b4 --no-stdin review
test_expect "the table says so: no check commands in 0.12" \
	grep -q "^| 0.12 .*| none: \`b4 prep --check\` fails with \"unrecognized arguments\"" "$DOC"
done_testing
