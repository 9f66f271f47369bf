#!/usr/bin/env bash
# t0101-review-golden: the replies to the bundled example series, rendered
# offline (--mbox) with a pinned date, compared with the committed golden
# files tests/golden/reply-v{1,2}.eml (Message-ID and Date normalised).
# After an intended change: WW_UPDATE_GOLDEN=1 make check TESTS=t0101, then
# read the new golden files as their recipient would before committing.
. "$(dirname "$0")/lib.sh"

need_cmd b4
[ -x "$WARNWATCH" ] || skip_all "no $WARNWATCH (make first)"
DATA=$WW_TOP/tests/e2e/data
GOLDEN=$WW_TOP/tests/golden
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

CACHE=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}
if [ ! -f /usr/src/linux-source-6.1.tar.xz ] &&
   [ ! -f "$CACHE/guide/linux-source-6.1/Documentation/process/coding-style.rst" ]; then
	skip "reply-v1.eml" "no linux-source-6.1 to quote coding-style.rst from"
	skip "reply-v2.eml" "no linux-source-6.1"
	done_testing
	exit
fi

normalise() {
	sed -e 's/^Message-ID: <[^>]*>$/Message-ID: <MESSAGE-ID>/' -e 's/^Date: .*/Date: DATE/'
}

golden() {	# golden NAME MBOX
	local name=$1 mbox=$2 out=$TEST_DIR/$1
	if ! "$WARNWATCH" review --config "$DATA/example.conf" --mbox "$mbox" \
		>"$out.raw" 2>"$out.err"; then
		not_ok "$name: review failed: $(cat "$out.err")"
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
}
golden reply-v1.eml "$DATA/example-v1.mbox"
golden reply-v2.eml "$DATA/example-v2.mbox"
done_testing
