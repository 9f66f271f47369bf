#!/usr/bin/env bash
#
# t0301: the command lines of `warnwatch serve` and `warnwatch status`
# (both read through opt.h's table): usage errors exit 2 naming what is
# wrong, --help exits 0, and both spellings of an option with a value work.
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
tmp=$TEST_DIR

t() {	# t NAME WANT_STATUS GREP_PATTERN -- ARGS...
	local name=$1 want=$2 pat=$3
	shift 4
	test_status "$name" "$want" "$pat" -- env XDG_STATE_HOME="$tmp/xdg" \
		WARNWATCH_CONFIG="$tmp/none.conf" timeout 30 "$WARNWATCH" "$@"
}

t "serve --help exits 0" 0 '^usage: warnwatch serve' -- serve --help
t "serve -h exits 0" 0 '^usage: warnwatch serve' -- serve -h
t "serve: unknown option" 2 "^warnwatch serve: unknown option '--frob'" -- serve --frob
t "serve: an argument is unknown" 2 "^warnwatch serve: unknown argument 'extra'" -- serve extra
t "serve: unknown role" 2 "unknown role 'boss'" -- serve --role=boss
t "serve: --role VALUE spelled apart" 2 "unknown role 'boss'" -- serve --role boss
t "serve: --config without a file" 2 "config" -- serve --config
t "serve: a missing configuration names it" 2 "$tmp/nope.conf" -- serve --once --config "$tmp/nope.conf"
t "serve: --config=FILE spelled together" 2 "$tmp/nope.conf" -- serve --once --config="$tmp/nope.conf"

mkdir -p "$tmp/empty"
t "status --help exits 0" 0 '^usage: warnwatch status' -- status --help
t "status: unknown option" 2 "^warnwatch: status: unknown option '--frob'" -- status --frob
t "status: --limit 0" 2 "limit.*'0'" -- status --limit=0
t "status: bad --format" 2 "format.*'xml'" -- status --format xml
t "status: an ID is a number" 2 "unknown argument 'abc'" -- status abc
t "status: no state yet" 2 "no state" -- status --state-dir "$tmp/empty"
t "status: --state-dir=DIR and --limit N" 2 "no state" -- status --state-dir="$tmp/empty" --limit 5
done_testing
