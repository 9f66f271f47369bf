#!/usr/bin/env bash
#
# t0106: one rule for check, the send-email hook and review (issue 34,
# item 6; docs/rules.md, "__init code, changed conditions and moves").
# The same mail goes to `warnwatch check`, `warnwatch hook run` and
# `warnwatch review --mbox --format=json`: a BUG_ON() added in an __init
# function, a changed condition of an existing WARN_ON(), and a BUG_ON()
# moved into a helper by a later patch are info for check (status 0),
# let through by the hook and no reason for review to write; with
# --always the review says check's own reason as its note.  The same
# BUG_ON() outside __init is the control: an error, refused, replied to.
# serve runs check and then review's code (t0300), so it follows.
set -u
. "$(dirname "$0")/lib.sh"

export HOME=$TEST_DIR WARNWATCH_CONFIG=/nonexistent WARNWATCH_CACHE=$TEST_DIR/cache
export SOURCE_DATE_EPOCH=1715270400 TMPDIR=$TEST_DIR
export WARNWATCH_RULES="$WW_TOP/rules"

mail() {	# mail FILE SUBJECT MSGID: a patch mail, its diff on stdin
	{
		printf 'From a@example.org Thu Jan  1 00:00:00 1970\n'
		printf 'From: Dev <dev@example.org>\nTo: list@example.org\n'
		printf 'Subject: %s\nMessage-ID: <%s>\n\nWhy.\n---\n' "$2" "$3"
		cat
	} >>"$1"
}

mail "$TEST_DIR/init.eml" "[PATCH] foo: check at init" init@x <<'D'
diff --git a/drivers/foo.c b/drivers/foo.c
--- a/drivers/foo.c
+++ b/drivers/foo.c
@@ -10,6 +10,7 @@ static int foo_table[4];
 
 static int __init foo_init(void)
 {
+	BUG_ON(!foo_table[0]);
 	foo_table[1] = 1;
 	return 0;
 }
D
sed -e 's/__init foo_init/foo_setup/' -e 's/init@x/plain@x/' "$TEST_DIR/init.eml" \
	>"$TEST_DIR/plain.eml"
mail "$TEST_DIR/changed.eml" "[PATCH] foo: a tighter check" changed@x <<'D'
diff --git a/drivers/foo.c b/drivers/foo.c
--- a/drivers/foo.c
+++ b/drivers/foo.c
@@ -20,4 +20,4 @@ static int foo_get(int id)
 {
-	WARN_ON(id < 0);
+	WARN_ON(id < 0 || id > 3);
 	return foo_table[id];
 }
D
mail "$TEST_DIR/moved.mbox" "[PATCH 1/2] foo: drop the check from foo_put" m1@x <<'D'
diff --git a/drivers/foo.c b/drivers/foo.c
--- a/drivers/foo.c
+++ b/drivers/foo.c
@@ -30,4 +30,3 @@ static void foo_put(int id)
 {
-	BUG_ON(!foo_table[id]);
 	foo_table[id]--;
 }
D
printf '\n' >>"$TEST_DIR/moved.mbox"
mail "$TEST_DIR/moved.mbox" "[PATCH 2/2] foo: the check in the helper" m2@x <<'D'
diff --git a/drivers/bar.c b/drivers/bar.c
--- a/drivers/bar.c
+++ b/drivers/bar.c
@@ -40,3 +40,4 @@ static void bar_check(int id)
 {
+	BUG_ON(!foo_table[id]);
 	bar();
 }
D

# review --format=json's reply: "null" or the text.
reply_of() {	# reply_of FILE [OPTION...]
	local f=$1
	shift
	"$WARNWATCH" review --mbox "$f" --format=json "$@" 2>"$TEST_DIR/review.err" |
		"$WW_PYTHON" -c 'import json, sys; r = json.load(sys.stdin)["reply"]; print("null" if r is None else r)'
}

for t in init changed moved; do
	f=$TEST_DIR/$t.eml
	[ -f "$f" ] || f=$TEST_DIR/$t.mbox
	test_status "$t: check says info, status 0" 0 'INFO' -- "$WARNWATCH" check "$f"
	if [ "$t" != moved ]; then
		test_expect "$t: the hook lets it go" "$WARNWATCH" hook run "$f"
	fi
	out=$(reply_of "$f")
	if [ "$out" = null ]; then
		ok "$t: review writes nothing"
	else
		not_ok "$t: review writes nothing"
		printf '%s\n' "$out" | sed 's/^/#   /' | head -n 20
		sed 's/^/#   /' "$TEST_DIR/review.err" | head -n 5
	fi
done

# --always: check's reason, word for word, and no advice against it.
why=$("$WARNWATCH" check --format=json "$TEST_DIR/init.eml" |
	"$WW_PYTHON" -c 'import json, sys; d = json.load(sys.stdin); d = d[0] if isinstance(d, list) else d
print(d["findings"][0]["message"])' 2>&1)
out=$(reply_of "$TEST_DIR/init.eml" --always | tr '\n' ' ' | tr -s ' ')
case $out in
*"This $why."*)
	case $out in
	*"takes the machine down"*|*"WARN_ON_ONCE"*) not_ok "init --always: no advice against it" ;;
	*) ok "init --always: the note is check's reason ($why), nothing against it" ;;
	esac ;;
*) not_ok "init --always: the note is check's reason"; diag "why: $why" "reply: $out" ;;
esac
out=$(reply_of "$TEST_DIR/changed.eml" --always | tr '\n' ' ' | tr -s ' ')
case $out in
*"This changes the condition of the WARN_ON() that was at line 21 before the patch; the call itself is not new."*)
	case $out in
	*" adds "*|*"nothing needs a change"*) not_ok "changed --always: not called new, not judged"; diag "$out" ;;
	*) ok "changed --always: a changed condition, not a new call, not judged" ;;
	esac ;;
*) not_ok "changed --always: the note says what changed"; diag "$out" ;;
esac

# The control: the same call outside __init.
test_status "control: check says error, status 1" 1 'ERROR' -- "$WARNWATCH" check "$TEST_DIR/plain.eml"
test_status "control: the hook refuses it" 1 'BUG_ON' -- "$WARNWATCH" hook run "$TEST_DIR/plain.eml"
out=$(reply_of "$TEST_DIR/plain.eml")
case $out in
null) not_ok "control: review replies" ;;
*"takes the machine down"*) ok "control: review replies with the BUG_ON() point" ;;
*) not_ok "control: review replies with the BUG_ON() point"; diag "$out" ;;
esac

# --rules DIR is the rules of the reply too, without a tree (the judge's
# leave-one-list-out copies): its advice.json, not the installed one.
cp -r "$WW_TOP/rules" "$TEST_DIR/own-rules"
sed -i 's/takes the machine down to report one bad state/stops the box (own rules)/' \
	"$TEST_DIR/own-rules/advice.json"
out=$(reply_of "$TEST_DIR/plain.eml" --rules "$TEST_DIR/own-rules")
case $out in
*"stops the box (own rules)"*) ok "review --rules DIR: the reply's advice is DIR's" ;;
*) not_ok "review --rules DIR: the reply's advice is DIR's"; diag "$out" ;;
esac

done_testing
