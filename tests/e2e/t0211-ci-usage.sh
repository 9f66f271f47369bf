#!/usr/bin/env bash
#
# t0211: `warnwatch ci` command line: usage errors exit 2 with one clear
# line, --help exits 0, a message-id that is invalid or whose archive is
# down and inputs that are not series are errors naming the input -- all
# before any kernel work (t0212 fetches a real series by message-id);
# --coverage sums hand-written verdicts (tests/unit/data/kcover), booting
# nothing; the configuration is read through settings ([ci] repo,
# keep-bases, keep-logs and its pruning of old run directories, unknown
# sections refused).
. "$(dirname "$0")/lib.sh"
cd "$WW_TOP" || exit 2
tmp=$TEST_DIR

t() {	# t NAME WANT_STATUS GREP_PATTERN -- ARGS...
	local name=$1 want=$2 pat=$3
	shift 4
	test_status "$name" "$want" "$pat" -- env WARNWATCH_CACHE="$tmp/cache" "$WARNWATCH" "$@"
}

printf 'hello\n' >"$tmp/notes.txt"
printf 'From x@y Thu Jan  1 00:00:00 1970\nFrom: a@b\nSubject: hi\n\nno patch\n' >"$tmp/nopatch.mbox"

t "--help exits 0 and shows the usage" 0 'usage: warnwatch ci' -- ci --help
t "no series: usage error" 2 'no series given' -- ci
t "unknown option: usage error" 2 "unknown option '--frobnicate'" -- ci --frobnicate x.mbox
t "bad --timeout: usage error" 2 "bad --timeout" -- ci --timeout 0s x.mbox
t "bad --format: usage error" 2 "unknown format 'xml'" -- ci --format=xml x.mbox
t "bad --accel: usage error" 2 "unknown accelerator 'hvf'" -- ci --accel hvf x.mbox
t "two series: usage error" 2 "more than one series" -- ci a.mbox b.mbox
printf '[archive]\nurl = http://127.0.0.1:9/all/\ntimeout = 5\n' >"$tmp/down.conf"
t "message-id, archive down: error names the archive" 2 \
	"cannot reach the archive 'http://127.0.0.1:9/all/'" \
	-- ci --config "$tmp/down.conf" 20260105100000.1234-1-ada@example.org
t "invalid message-id: refused before b4 runs" 2 \
	"message-id has a character outside the allowed set" \
	-- ci --config "$tmp/down.conf" 'x;rm -rf ~@example.org' 
t "missing mbox: error names it" 2 "cannot open '$tmp/none.mbox'" -- ci "$tmp/none.mbox"
t "mbox without patches: error names it" 2 "'$tmp/nopatch.mbox'.*no patches" -- ci "$tmp/nopatch.mbox"
t "not a mail at all: error names it" 2 "'$tmp/notes.txt'" -- ci "$tmp/notes.txt"
t "option without its value: usage error" 2 "--tree needs VERSION\|TARBALL" -- ci x.mbox --tree
t "bad -v: usage error" 2 "bad version '0'" -- ci -v 0 x.mbox
t "a flag given a value: usage error" 2 "--no-base-boot takes no value" -- ci --no-base-boot=1 x.mbox
t "--base-boot with --no-base-boot: usage error" 2 \
	"--base-boot and --no-base-boot contradict each other" -- ci --base-boot --no-base-boot x.mbox
t "every option parses: the missing input is the error" 2 "cannot open '$tmp/none.mbox'" -- \
	ci --tree 6.1 --cache "$tmp/cache" --format=json --json-out "$tmp/v.json" \
	--timeout=60 --accel tcg --rules rules --config "$tmp/down.conf" -v2 \
	--no-second-boot --no-base-boot --no-user-space -- "$tmp/none.mbox"
# The configuration goes through settings like every command's: a
# misspelt section fails with file:line before anything else, and
# [ci] repo names the base repository when --repo does not.
printf '[reveiw]\nrules = rules\n' >"$tmp/typo.conf"
t "config with an unknown section: error names file:line" 2 \
	"^warnwatch: $tmp/typo.conf:1: unknown section '\\[reveiw\\]'\$" -- \
	ci --config "$tmp/typo.conf" --tree "$tmp/none.tar.xz" tests/unit/data/mail/series-v1.mbox
printf '[ci]\nrepo = %s\nkeep-bases = 2\n' "$tmp/no-such-repo" >"$tmp/ci.conf"
t "[ci] repo is the base repository" 1 \
	"cannot open the kernel repository '$tmp/no-such-repo'" -- \
	ci --config "$tmp/ci.conf" --tree "$tmp/none.tar.xz" tests/unit/data/mail/series-v1.mbox
printf '[ci]\nkeep-bases = many\n' >"$tmp/keep.conf"
t "[ci] keep-bases must be a number: error names file:line" 2 \
	"$tmp/keep.conf:2: 'ci.keep-bases' must be a number" -- \
	ci --config "$tmp/keep.conf" --tree "$tmp/none.tar.xz" tests/unit/data/mail/series-v1.mbox
printf '[ci]\nkeep-logs = 0\n' >"$tmp/logs0.conf"
t "[ci] keep-logs = 0 is refused: error names file:line" 2 \
	"$tmp/logs0.conf:2: 'ci.keep-logs' must be a number from 1 to" -- \
	ci --config "$tmp/logs0.conf" --tree "$tmp/none.tar.xz" tests/unit/data/mail/series-v1.mbox
# Three finished runs (pids above any pid_max), a user's file: with
# keep-logs = 2 the run keeps its own directory and the newest old one.
logs=$tmp/cache/ci/logs
rm -rf "$logs"
mkdir -p "$logs/20200101-000000-5000001" "$logs/20200101-000001-5000002" \
	"$logs/20200101-000002-5000003" "$logs/mine"
printf '[ci]\nrepo = %s\nkeep-logs = 2\n' "$tmp/no-such-repo" >"$tmp/logs2.conf"
t "[ci] keep-logs: the run still fails on its own account" 1 \
	"cannot open the kernel repository" -- \
	ci --config "$tmp/logs2.conf" --tree "$tmp/none.tar.xz" tests/unit/data/mail/series-v1.mbox
left=$(cd "$logs" && ls | tr '\n' ' ')
case $left in
"20200101-000002-5000003 2"*" mine ")
	ok "[ci] keep-logs = 2: the newest old run, this run's and the user's file stay" ;;
*)	not_ok "[ci] keep-logs = 2: left '$left'" ;;
esac
cov=tests/unit/data/kcover
t "--coverage: a directory of verdicts, runtime evidence counted" 0 \
	'runtime evidence: +3 \(38%\)' -- ci --coverage "$cov"
t "--coverage: untestable reasons grouped" 0 \
	'untestable 2: it does not apply to linux 6.12.9' -- ci --coverage "$cov"
t "--coverage --format=json: the share" 0 '"evidence_coverage": 0.375' -- \
	ci --coverage --format=json "$cov"
t "--coverage: files add up" 0 '^series: +2$' -- \
	ci --coverage "$cov/01-clean.json" "$cov/02-panicked.json"
t "--coverage without verdicts: usage error" 2 "no verdicts given" -- ci --coverage
t "--coverage of a series mbox: not a verdict, named" 2 \
	"verdict '$tmp/nopatch.mbox'" -- ci --coverage "$tmp/nopatch.mbox"
mkdir -p "$tmp/empty"
t "--coverage of a directory without verdicts: error names it" 2 \
	"no verdict files .*'$tmp/empty'" -- ci --coverage "$tmp/empty"
done_testing
