#!/usr/bin/env bash
# t0101-review-golden: review replies rendered offline (--mbox) with a
# pinned date, compared with the committed golden files in tests/golden/
# (Message-ID and Date normalised), each held to the length budget of
# docs/review.md by tests/golden/budget.py.
# After an intended change: WW_UPDATE_GOLDEN=1 make check TESTS=t0101, then
# read the new golden files as their recipient would before committing.
. "$(dirname "$0")/lib.sh"

need_cmd b4
need_cmd python3
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }
DATA=$WW_TOP/tests/e2e/data
GOLDEN=$WW_TOP/tests/golden
IN=$GOLDEN/input
export SOURCE_DATE_EPOCH=1715270400	# Thu, 09 May 2024 16:00:00 +0000
export WARNWATCH_CONFIG=/nonexistent

# The example mboxes are the inbox's mails, as `git format-patch` would
# put them one after the other.
mkmbox() {
	local f
	for f in "$@"; do
		echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
		sed 's/^\(>*From \)/>\1/' "$f"
		echo
	done
}
mkmbox "$DATA"/inbox/0[1-5]*.eml | cmp -s - "$DATA/example-v1.mbox" &&
	ok "example-v1.mbox is the v1 thread of the test inbox" ||
	not_ok "example-v1.mbox differs from tests/e2e/data/inbox/0[1-5]*.eml"
mkmbox "$DATA"/inbox/0[1-9]*.eml | cmp -s - "$DATA/example-v2.mbox" &&
	ok "example-v2.mbox is v1 and v2 of the test inbox" ||
	not_ok "example-v2.mbox differs from tests/e2e/data/inbox/0[1-9]*.eml"

# (e) --mbox takes what check takes; anything else is one line naming it.
printf 'hello\n' >"$TEST_DIR/notmail.txt"
if ! "$WARNWATCH" review --config "$DATA/example.conf" --mbox "$TEST_DIR/notmail.txt" \
	>/dev/null 2>"$TEST_DIR/notmail.err" &&
   [ "$(wc -l <"$TEST_DIR/notmail.err")" -eq 1 ] &&
   grep -q "notmail.txt' is neither a saved mail" "$TEST_DIR/notmail.err"; then
	ok "--mbox with text that is no mail: one line naming the file"
else
	not_ok "--mbox with text that is no mail: $(cat "$TEST_DIR/notmail.err")"
fi

# (e) One patch of a series, saved alone by a mail client (no From_ line,
# CRLF line ends): answered as it is, like `check` reads it.
tr -d '\r' <"$DATA/inbox/03-v1-2.eml" | sed 's/$/\r/' >"$TEST_DIR/p2-crlf.eml"
if "$WARNWATCH" review --config "$DATA/example.conf" --mbox "$TEST_DIR/p2-crlf.eml" \
	>"$TEST_DIR/p2.out" 2>"$TEST_DIR/p2.err" &&
   grep -q '^In-Reply-To: <20240502091500.4711-2-zoe@example.org>$' "$TEST_DIR/p2.out" &&
   grep -q '^> +.WARN_ON(offset' "$TEST_DIR/p2.out"; then
	ok "--mbox with patch 2/3 alone, a CRLF .eml: a reply to that patch"
else
	not_ok "--mbox with patch 2/3 alone, a CRLF .eml: $(cat "$TEST_DIR/p2.err")"
fi

CACHE=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}
if [ ! -f /usr/src/linux-source-6.1.tar.xz ] &&
   [ ! -f "$CACHE/guide/linux-source-6.1/Documentation/process/coding-style.rst" ]; then
	# Tests ran already: their plan stays (tests/tapcount checks it).
	skip "the golden replies" "not-installed: linux-source-6.1, to quote coding-style.rst from"
	done_testing
	exit
fi

normalise() {
	sed -e 's/^Message-ID: <[^>]*>$/Message-ID: <MESSAGE-ID>/' -e 's/^Date: .*/Date: DATE/'
}

golden() {	# golden NAME DISTINCT-KINDS MBOX [review args...]
	local name=$1 kinds=$2 mbox=$3 out=$TEST_DIR/$1 why
	shift 3
	if ! "$WARNWATCH" review --config "$DATA/example.conf" --mbox "$mbox" "$@" \
		>"$out.raw" 2>"$out.err"; then
		not_ok "$name: review failed: $(cat "$out.err")"
		not_ok "$name: budget"
		return
	fi
	normalise <"$out.raw" >"$out"
	if [ -n "${WW_UPDATE_GOLDEN:-}" ]; then
		cp "$out" "$GOLDEN/$name"
		ok "$name updated"
	elif cmp -s "$out" "$GOLDEN/$name"; then
		ok "$name: the reply is as committed"
	else
		not_ok "$name: the reply differs from tests/golden/$name"
		diff -u "$GOLDEN/$name" "$out" | head -n 60 | sed 's/^/#   /'
	fi
	if why=$(python3 "$GOLDEN/budget.py" "$out" "$kinds"); then
		ok "$name: within the budget (12 + 4 x $kinds body lines, no sentence twice, <= 80 columns)"
	else
		not_ok "$name: over the budget: $why"
	fi
}
count() {	# count NAME FIXED-STRING WANT
	local got
	got=$(grep -cF -- "$2" "$TEST_DIR/$1")
	[ "$got" -eq "$3" ] && ok "$1: '$2' $3 time(s)" || not_ok "$1: '$2' $got times, want $3"
}

# (a) One patch, three same-kind BUG_ON()s in neighbouring functions, from
# a saved .eml without a From_ line (e).  Why each sentence is there:
# - the opening says what the patch adds and that one point covers all
#   three, so the author knows it is one thing to fix, not three;
# - the first quote gets the explanation (a BUG_ON() takes the machine
#   down; warn once and leave) and the two coding-style sentences behind
#   it, quoted from the tree's own file;
# - no rewrite: without a tree (--tree) nothing shows how the functions
#   leave, and a guessed `return;` could skip their cleanup
#   (docs/review.md); the corpus (tests/review-corpus/) checks rewrites;
# - nothing else: the later quotes say nothing the first one said.
golden reply-a-three-bug-ons.eml 3 "$IN/a-three-bug-ons.eml"
count reply-a-three-bug-ons.eml "takes the machine down" 1
count reply-a-three-bug-ons.eml "$(printf '\tif (WARN_ON_ONCE(')" 0

# (b) A BUG_ON(), a WARN_ON() on an ioctl argument and a removal, from a b4
# .mbx (e).  Why each sentence is there:
# - the WARN_ON() in gpio_sim_ioctl(): the plain-WARN explanation.  Not
#   "reached straight from user space": a handler's name proves nothing
#   about where req.num_lines comes from; only the tree's facts do;
# - the BUG_ON(): the BUG explanation and coding-style, no rewrite (no
#   tree: the function's exits are unknown);
# - the removal of the BUG_ON() from gpio_sim_release() is thanked in one
#   sentence.
golden reply-b-mixed.eml 2 "$IN/b-mixed.mbx"
count reply-b-mixed.eml "user space" 0
count reply-b-mixed.eml "Thanks for removing the BUG_ON() from gpio_sim_release()." 1

# (c) A three-patch series with findings in patches 1 and 3, from a gzipped
# public-inbox t.mbox.gz (e).  One reply to the cover letter, grouped per
# patch under the patch subjects, in patch order; patch 2 has no heading.
# Why each sentence is there:
# - the explanations of BUG_ON() and WARN_ON(); not "ext4 read this from
#   disk": next_offset and count are locals, and without the tree nothing
#   shows they hold __le data (the corpus covers that with facts);
# - patch 3 gets the || point (one WARN over two conditions cannot tell
#   which held), which the diff itself shows.
gzip -c "$IN/c-series.mbox" >"$TEST_DIR/t.mbox.gz"
golden reply-c-series.eml 2 "$TEST_DIR/t.mbox.gz"
count reply-c-series.eml "[PATCH 1/3]" 1
count reply-c-series.eml "[PATCH 2/3]" 0
count reply-c-series.eml "[PATCH 3/3]" 1
count reply-c-series.eml "In-Reply-To: <20240710000000.300-0-mei@example.org>" 1

# The bundled example (README, `make example`): v1 of time64_to_tm().
# - patch 1's BUG_ON(): the BUG explanation, coding-style;
# - patch 2's WARN_ON(): the plain-WARN explanation (log spam,
#   panic_on_warn) and the || point; no bail-out point and no rewrites:
#   without the tree nothing shows what the following lines do.
golden reply-v1.eml 2 "$DATA/example-v1.mbox"
# (d) v2 fixed what v1 added: thanks, in one paragraph, and nothing else.
golden reply-v2.eml 2 "$DATA/example-v2.mbox"
count reply-v2.eml "Thanks for v2" 1
count reply-v2.eml "> +" 0

# (f) kernel-ci ran: one paragraph, base and tests, and per added call
# whether it ran and fired, in words; an unmeasured call says why.
golden reply-verdict.eml 2 "$DATA/example-v1.mbox" --verdict "$IN/f-verdict.json"
count reply-verdict.eml "ran 41 times and never fired" 1
golden reply-verdict-fired.eml 2 "$DATA/example-v1.mbox" --verdict "$IN/f-verdict-fired.json"
# The README shows the body of reply (a) as the tool prints it now.
if python3 - "$WW_TOP/README.md" "$GOLDEN/reply-a-three-bug-ons.eml" <<'PY'
import sys
readme = open(sys.argv[1], encoding="utf-8").read()
start = readme.index("<!-- example reply:")
start = readme.index("\n", start) + 1
block = readme[start:readme.index("<!-- end of example reply -->")].strip("\n")
shown = "\n".join(l[4:] for l in block.split("\n"))
golden = open(sys.argv[2], encoding="utf-8").read()
body = golden.split("\n\n", 1)[1].split("\n-- \n", 1)[0].strip("\n")
sys.exit(0 if shown == body else 1)
PY
then
	ok "README's example reply is reply-a-three-bug-ons.eml as printed now"
else
	not_ok "README's example reply differs from tests/golden/reply-a-three-bug-ons.eml"
fi

# An old verdict without "calls": nothing about reach, nothing "clean" proves.
printf '{"verdict": "clean", "base": "6.1.192"}\n' >"$TEST_DIR/old.json"
"$WARNWATCH" review --config "$DATA/example.conf" --mbox "$DATA/example-v1.mbox" \
	--verdict "$TEST_DIR/old.json" >"$TEST_DIR/old.eml" 2>&1
if grep -q "no WARN or BUG fired" "$TEST_DIR/old.eml" &&
   ! grep -q "reached\|never fired\|says nothing" "$TEST_DIR/old.eml"; then
	ok "an old verdict without calls says nothing about reach"
else
	not_ok "an old verdict without calls: $(grep -A3 kernel-ci "$TEST_DIR/old.eml")"
fi
# No kernel-ci run: not a word about it.
count reply-v1.eml "kernel-ci" 0
done_testing
