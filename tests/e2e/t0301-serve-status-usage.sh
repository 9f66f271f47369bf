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

# Issue 25: the configuration is checked whole at start, with the keys and
# values review reads.  A list that sends needs an [identity] email (no
# warnwatch@localhost on a list) and a usable [smtp]; [review] rules is the
# service's rules too.
conf() {	# conf NAME [SECTION-TEXT]: a one-list configuration, sending
	{
		printf '[state]\ndir = %s\n' "$tmp/state-$1"
		printf '[serve]\nlisten = off\n'
		printf '[list.t]\narchive = http://127.0.0.1:1\nreply = send\n'
		printf '%b' "${2:-}"
	} >"$tmp/$1.conf"
}
conf noident '[smtp]\nurl = smtp://127.0.0.1:1\n'
t "serve: a sending list without [identity] email is refused at start" 2 \
	"no \[identity\] email" -- serve --once --config "$tmp/noident.conf"
conf nosmtp '[identity]\nemail = bot@example.org\n'
t "serve: a sending list without [smtp] url is refused at start" 2 \
	"no \[smtp\] url" -- serve --once --config "$tmp/nosmtp.conf"
conf badsmtp '[identity]\nemail = bot@example.org\n[smtp]\nurl = smtp://127.0.0.1:1\nuser = bot\npassword-file = '"$tmp"'/no-such-password\n'
t "serve: an [smtp] password file that does not read is refused at start" 2 \
	"no-such-password" -- serve --once --config "$tmp/badsmtp.conf"
conf smtpkey '[identity]\nemail = bot@example.org\n[smtp]\nurl = smtp://127.0.0.1:1\nport = 25\n'
t "serve: an unknown [smtp] key is refused" 2 "unknown key 'smtp.port'" -- \
	serve --once --config "$tmp/smtpkey.conf"
conf rules '[identity]\nemail = bot@example.org\n[smtp]\nurl = smtp://127.0.0.1:1\n[review]\nrules = '"$tmp"'/no-such-rules\n'
t "serve: [review] rules is the service's rules (a missing one stops it)" 3 \
	"no-such-rules" -- serve --once --config "$tmp/rules.conf"

mkdir -p "$tmp/empty"
t "status --help exits 0" 0 '^usage: warnwatch status' -- status --help
t "status: unknown option" 2 "^warnwatch: status: unknown option '--frob'" -- status --frob
t "status: --limit 0" 2 "limit.*'0'" -- status --limit=0
t "status: bad --format" 2 "format.*'xml'" -- status --format xml
t "status: an ID is a number" 2 "unknown argument 'abc'" -- status abc
t "status: no state yet" 2 "no state" -- status --state-dir "$tmp/empty"
t "status: --state-dir=DIR and --limit N" 2 "no state" -- status --state-dir="$tmp/empty" --limit 5
done_testing
