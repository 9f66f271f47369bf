#!/usr/bin/env bash
#
# t0021: the man page says what --help says.  Every option that
# `warnwatch CMD --help` names is in the man page's section for CMD (the
# .SS heading or a .TP term), and every option a .TP term there defines is
# in --help: an option added, renamed or dropped on one side only fails
# here.  Then the facts the man page used to get wrong (issue 35).
set -u
. "$(dirname "$0")/lib.sh"
man1=$WW_TOP/docs/warnwatch.1

# -x / --name tokens of text, one per line, sorted; a token must start a
# word ("BUG()-class" and "a/b-c" are not options)
opt_tokens() {
	grep -oE '(^|[^A-Za-z0-9_.)/-])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[^-]*//' | sort -u
}
help_opts() {
	# "diff -u/-ruN" names diff's options, in the list of inputs check reads
	"$WARNWATCH" "$1" --help | sed 's|diff -u/-ruN|diff|' | opt_tokens
}
man_opts() {
	awk -v cmd="$1" '
		/^\.S[SH] / { inside = ($0 ~ "^\\.SS warnwatch " cmd "( |$)"); if (inside) print; next }
		inside && term { print; term = 0; next }
		inside && /^\.TP/ { term = 1 }' "$man1" |
		sed -E 's/\\f[BIRP]//g; s/\\-/-/g' | opt_tokens
}
for cmd in check hook; do
	h=$(help_opts "$cmd"); m=$(man_opts "$cmd")
	if [ -z "$h" ] || [ -z "$m" ]; then
		not_ok "$cmd: options found in --help ($(echo $h | wc -w)) and the man page ($(echo $m | wc -w))"
		continue
	fi
	only_help=$(comm -23 <(printf '%s\n' "$h") <(printf '%s\n' "$m"))
	only_man=$(comm -13 <(printf '%s\n' "$h") <(printf '%s\n' "$m"))
	[ -z "$only_help" ] && ok "$cmd: every option of --help ($(echo $h | wc -w)) is in the man page" ||
		not_ok "$cmd: in --help, not in the man page: $(echo $only_help)"
	[ -z "$only_man" ] && ok "$cmd: every option the man page defines is in --help" ||
		not_ok "$cmd: in the man page, not in --help: $(echo $only_man)"
done

# The facts (roff escapes removed)
text=$(sed -E 's/\\f[BIRP]//g; s/\\-/-/g; s/\\\(dq/"/g' "$man1")
want() {	# want DESCRIPTION FIXED-STRING
	case "$text" in *"$2"*) ok "$1" ;; *) not_ok "$1: no '$2'" ;; esac
}
wrong() {	# wrong DESCRIPTION FIXED-STRING
	case "$text" in *"$2"*) not_ok "$1: says '$2'" ;; *) ok "$1" ;; esac
}
want "vim: :compiler! gcc (plain :compiler gcc drops the error types)" ':compiler! gcc'
wrong "gcc paths are not from the repository root" 'path from the repository root'
wrong "gcc columns are not only bytes" 'byte column of the macro'
wrong "--suggest output is compiled" 'not compiled'
want "gcc paths from the current directory" 'path from the current directory'
for k in prep am; do
	want "b4.$k-perpatch-check-cmd with the binary's full path" "b4.$k-perpatch-check-cmd \"/usr/local/bin/warnwatch check --format=b4 -\""
done
want "b4.review-perpatch-check-cmd for --format=b4-review" 'b4.review-perpatch-check-cmd "/usr/local/bin/warnwatch check --format=b4-review"'
want "b4 0.12 has no check commands" 'b4 0.12 has none'
case "$text" in *"warnwatch check --suggest "*) case "$text" in *"warnwatch check --suggest --tree "*) ok "the --suggest example gives --tree" ;; *) not_ok "an example runs --suggest without --tree" ;; esac ;; *) ok "no --suggest example" ;; esac
if command -v man >/dev/null; then
	w=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$man1" 2>&1 >/dev/null)
	[ -z "$w" ] && ok "man --warnings: no roff warnings" || { not_ok "roff warnings"; printf '%s\n' "$w" | sed 's/^/#   /'; }
else
	skip "man --warnings" "man is not installed"
fi
done_testing
