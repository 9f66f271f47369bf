#!/usr/bin/env bash
#
# t0213: `warnwatch kbuild` command line: usage errors exit 2 with one
# line naming the option, --help exits 0, and inputs that are not a
# series are errors naming the input -- all before any kernel work (every
# run also names a tarball that does not exist and a scratch cache, so a
# mistake here cannot start a build; t0200 builds).
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
tmp=$TEST_DIR

t() {	# t NAME WANT_STATUS GREP_PATTERN -- ARGS...
	local name=$1 want=$2 pat=$3
	shift 4
	test_status "$name" "$want" "$pat" -- env WARNWATCH_CACHE="$tmp/cache" \
		"$WARNWATCH" kbuild --base-tarball "$tmp/no-such-linux.tar.xz" "$@"
}

printf 'hello\n' >"$tmp/notes.txt"
printf 'From x@y Thu Jan  1 00:00:00 1970\nFrom: a@b\nSubject: hi\n\nno patch\n' >"$tmp/nopatch.mbox"
: >"$tmp/empty.mbox"

t "--help exits 0 and shows the usage" 0 'usage: warnwatch kbuild' -- --help
t "-h exits 0 and shows the usage" 0 'usage: warnwatch kbuild' -- -h
t "unknown option: usage error" 2 "unknown option '--frobnicate'" -- --frobnicate
t "usage error points at --help" 2 "see 'warnwatch kbuild --help'" -- --frobnicate
t "--jobs 0: usage error" 2 "--jobs: '0' is not a positive number" -- --jobs 0
t "--jobs without a value: usage error" 2 "--jobs needs N" -- --jobs
t "--timeout not a number: usage error" 2 "--timeout: '10m' is not a positive number" -- --timeout 10m
t "--mem too large: usage error" 2 "--mem: 2000000 is more than 1000000" -- --mem=2000000
t "--format xml: usage error" 2 "--format wants text or json, not 'xml'" -- --format xml
t "-q takes no value: usage error" 2 "unknown option '-qx'" -- -qx
t "two inputs: usage error" 2 "only one MBOX or PATCH" -- a.mbox b.mbox
t "--series and an input: usage error" 2 "only one MBOX or PATCH" -- --series a.mbox b.mbox
t "every option parses: the missing input is the error" 2 "'$tmp/none.mbox'" -- \
	-n -q --dry-run --quiet --format=json --jobs 2 --timeout=60 --mem 512 \
	--cache "$tmp/cache" --series "$tmp/none.mbox"
t "missing mbox: error names it" 2 "cannot open '$tmp/none.mbox'" -- "$tmp/none.mbox"
t "empty file: error names it" 2 "'$tmp/empty.mbox'.*empty input" -- "$tmp/empty.mbox"
t "mbox without patches: error names it" 2 "'$tmp/nopatch.mbox'.*no patches" -- "$tmp/nopatch.mbox"
t "not a mail at all: error names it" 2 "'$tmp/notes.txt'.*neither a mail" -- "$tmp/notes.txt"
done_testing
