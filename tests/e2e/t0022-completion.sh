#!/usr/bin/env bash
#
# t0022: docs/warnwatch.bash-completion, as bash runs it when TAB is
# pressed: COMP_WORDS/COMP_CWORD set, _warnwatch called, COMPREPLY read.
# Commands, options and values come from the program's own --help.
set -u
. "$(dirname "$0")/lib.sh"
. "$WW_TOP/docs/warnwatch.bash-completion"
mkdir -p "$TEST_DIR/w/linux" && : >"$TEST_DIR/w/series.mbox"
cd "$TEST_DIR/w" || exit 1

# complete WORD...: the last word is the one being completed
complete_words() {
	COMP_WORDS=("$WARNWATCH" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_warnwatch
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() {	# expect DESCRIPTION WANT WORD...
	local what=$1 want=$2 got
	shift 2
	got=$(complete_words "$@")
	[ "$got" = "$want" ] && ok "$what" || not_ok "$what: got '$got', want '$want'"
}
expect "commands: ch -> check" "check" ch
expect "commands: c -> census check ci" "census check ci" c
expect "check options from its --help: --ter -> --terse" "--terse" check --ter
expect "--file offered, checkpatch's refused --fix and --fix-inplace not" "--file" check --fi
expect "--format's choices, b4-review among them" "b4 b4-review" check --format b4
expect "--format=VALUE, as bash splits it" "gcc" check --format = g
expect "--column-unit's choices" "byte display" check --column-unit ""
expect "--tree DIR: directories" "linux" check --tree l
expect "hook's verbs from its usage lines" "install run uninstall" hook ""
expect "hook install's options" "--force" hook install --fo
expect "INPUT: files" "series.mbox" check se
done_testing
