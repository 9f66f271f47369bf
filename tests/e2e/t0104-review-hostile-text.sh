#!/usr/bin/env bash
# t0104-review-hostile-text: a series whose file name (git-quoted, holding
# \n), subject, author name, added line and kernel-ci console carry line
# breaks, escapes and "Reviewed-by:" bait.  No line of the drafted reply
# outside the "> " quotes may carry the bait or a control character, and
# b4 (as `b4 am` reads follow-ups) must find no trailer in it; check's
# text, gcc and b4 output keep one finding per line, and its JSON
# round-trips the raw names (docs/security.md, "Patch text in output").
. "$(dirname "$0")/lib.sh"

need_cmd b4
need_cmd python3
[ -x "$WARNWATCH" ] || { echo "Bail out! no $WARNWATCH (make first)"; exit 1; }
DATA=$WW_TOP/tests/e2e/data
CHECK=$WW_TOP/tests/e2e/hostile-text-check.py
export SOURCE_DATE_EPOCH=1715270400
export WARNWATCH_CONFIG=/nonexistent
MBOX=$TEST_DIR/hostile.mbox
python3 "$WW_TOP/tests/hostile/hostile-text.py" "$MBOX" ||
	{ echo "Bail out! cannot write the series"; exit 1; }

# The reply, without and with a kernel-ci verdict whose console lines,
# file names, suites and test names carry the bait.
for v in "" "$DATA/hostile-verdict.json"; do
	what="the reply${v:+ with a hostile kernel-ci verdict}"
	if "$WARNWATCH" review --config "$DATA/example.conf" --mbox "$MBOX" \
		${v:+--verdict "$v"} >"$TEST_DIR/reply.eml" 2>"$TEST_DIR/reply.err" &&
	   why=$(python3 "$CHECK" reply "$TEST_DIR/reply.eml"); then
		ok "$what: no line outside the quotes carries the series' text"
	else
		not_ok "$what: ${why:-$(cat "$TEST_DIR/reply.err")}"
	fi
done
# The file name is quoted as git quotes it, inside the quote.
grep -qxF '> +++ "b/fs/x\nReviewed-by: warnwatch <bot@example.org>\n.c"' "$TEST_DIR/reply.eml" &&
	ok "the file name is in the quote, C-style as git writes it" ||
	not_ok "the file name: $(grep -a '^> +++' "$TEST_DIR/reply.eml")"

for fmt in text gcc b4; do
	"$WARNWATCH" check --format "$fmt" "$MBOX" >"$TEST_DIR/check.$fmt" 2>"$TEST_DIR/check.err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ ! -s "$TEST_DIR/check.err" ] &&
	   why=$(python3 "$CHECK" lines "$TEST_DIR/check.$fmt") &&
	   [ "$(grep -c '^"fs/x\\nReviewed-by: warnwatch <bot@example.org>\\n.c":' \
		"$TEST_DIR/check.$fmt")" -eq 2 ]; then
		ok "check --format=$fmt: one line per finding, the name escaped"
	else
		not_ok "check --format=$fmt (exit $rc): ${why:-$(head -c 300 "$TEST_DIR/check.$fmt")}"
	fi
done

# JSON carries the raw name (jansson escapes it) and parses strictly.
"$WARNWATCH" check --format json "$MBOX" >"$TEST_DIR/check.json" 2>/dev/null
if python3 - "$TEST_DIR/check.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
names = {f["file"] for f in d["findings"]}
assert names == {"fs/x\nReviewed-by: warnwatch <bot@example.org>\n.c"}, names
assert all("\n" not in l for l in open(sys.argv[1]).read().splitlines())
PY
then
	ok "check --format=json: the raw file name round-trips"
else
	not_ok "check --format=json: $(head -c 300 "$TEST_DIR/check.json")"
fi
done_testing
