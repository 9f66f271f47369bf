#!/usr/bin/env bash
#
# t0040: `warnwatch hook install` as git send-email's sendemail-validate
# hook, with real git send-email (git 2.39) sending to the test's real
# aiosmtpd on 127.0.0.1: a series with a new BUG_ON is refused with
# warnwatch's message and nothing reaches the server; a clean series, a
# series with only warnings go through with their cover letters; a BUG_ON
# that a later patch converts is refused, sent alone (another file of the
# series beside it never counts) or with the rest; a hook already there
# is chained (it runs, it is never lost) and `hook uninstall` restores it
# byte for byte; core.hooksPath is honoured; a hooks directory install
# made goes with uninstall; a binary moved away never blocks a send.
set -u
. "$(dirname "$0")/lib.sh"
need_cmd git
git send-email -h >/dev/null 2>&1
[ $? -le 129 ] && git send-email -h 2>&1 | grep -q -- --smtp-server ||
	skip_all "not-installed: git send-email (git-email, make deps)"
"$WW_PYTHON" -c 'import aiosmtpd' 2>/dev/null || skip_all "not-installed: python3-aiosmtpd (make deps)"

smtp_start

r=$TEST_DIR/repo
git_test_repo "$r"
# bug: patch 1 adds a BUG_ON, patch 2 is clean
git -C "$r" checkout -q -b bug main
printf 'int f(int x)\n{\n\tBUG_ON(x < 0);\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: check x"
printf 'int g(int y)\n{\n\treturn y + 1;\n}\n' >"$r/mm/b.c"
git -C "$r" commit -q -am "mm: bump y"
# conv: patch 1 adds the BUG_ON, patch 2 converts it
git -C "$r" checkout -q -b conv bug~1
printf 'int f(int x)\n{\n\tif (WARN_ON_ONCE(x < 0))\n\t\treturn -EINVAL;\n\treturn x;\n}\n' >"$r/mm/a.c"
git -C "$r" commit -q -am "mm: warn instead of crashing"
# clean, and warn (a WARN_ON: a warning only)
git -C "$r" checkout -q -b clean main
printf 'int g(int y)\n{\n\treturn y + 2;\n}\n' >"$r/mm/b.c"
git -C "$r" commit -q -am "mm: add two"
git -C "$r" checkout -q -b warn main
printf 'int g(int y)\n{\n\tWARN_ON(y > 9);\n\treturn y;\n}\n' >"$r/mm/b.c"
git -C "$r" commit -q -am "mm: warn on big y"

# A hook already there: it logs each call and lets the mail go.
hooks=$r/.git/hooks
mkdir -p "$hooks"
printf '#!/bin/sh\necho "old hook: $1" >>"%s"\nexit 0\n' "$TEST_DIR/old.log" >"$hooks/sendemail-validate"
chmod +x "$hooks/sendemail-validate"
cp -p "$hooks/sendemail-validate" "$TEST_DIR/old-hook"

out=$(cd "$r" && "$WARNWATCH" hook install 2>&1); rc=$?
case "$rc:$out" in
0:*"installed '$hooks/sendemail-validate'; the hook that was there is now"*) ok "install over an existing hook chains it, says so" ;;
*) not_ok "install (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
cmp -s "$TEST_DIR/old-hook" "$hooks/sendemail-validate.warnwatch-chained" &&
	ok "the old hook is kept, byte for byte" || not_ok "the old hook is kept"

# send ARGS...: git send-email to the test's SMTP server (--force only gets
# past git's own refusal of the cover letter's "*** SUBJECT HERE ***")
send() {
	(cd "$r" && timeout 120 git send-email --confirm=never --quiet \
		--from="Dev <dev@example.org>" --to=list@example.org --suppress-cc=all \
		--smtp-server=127.0.0.1 --smtp-server-port="$SMTP_PORT" \
		"$@" </dev/null 2>&1)
}

before=$(maildir_count)
out=$(send --cover-letter main..bug); rc=$?
case "$rc:$out" in
0:*) not_ok "a series with a new BUG_ON is refused"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
*"[PATCH 1/2] mm: check x: 1 new call at error level; nothing is sent"*"mm/a.c:3: ERROR: new BUG_ON() in f()"*"rejected by sendemail-validate hook"*)
	ok "a series with a new BUG_ON is refused with warnwatch's message (status $rc)" ;;
*) not_ok "refusal message (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
[ "$(maildir_count)" = "$before" ] && ok "nothing reached the SMTP server" ||
	not_ok "mail was sent: $(maildir_count) messages"
grep -q "old hook: .*0000-cover-letter.patch" "$TEST_DIR/old.log" 2>/dev/null &&
	ok "the chained hook ran first" || not_ok "the chained hook did not run"

out=$(send --force --cover-letter main..clean); rc=$?
[ "$rc" = 0 ] && [ "$(maildir_count)" = $((before + 2)) ] && [ -z "$(printf '%s' "$out" | grep warnwatch)" ] &&
	ok "a clean series and its cover letter go through, silently" ||
	{ not_ok "clean series (rc $rc, $(maildir_count) mails)"; printf '%s\n' "$out" | sed 's/^/#   /'; }

before=$(maildir_count)
out=$(send main..warn); rc=$?
case "$rc:$out" in
0:*"1 warning (not blocking"*"new WARN_ON() in g()"*) [ "$(maildir_count)" = $((before + 1)) ] &&
	ok "a WARN_ON is printed but sent" || not_ok "WARN_ON series not sent" ;;
*) not_ok "warning series (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac

# A BUG_ON that patch 2 converts: patch 1 is a kernel someone may bisect
# to, so it is refused as every format fails it (docs/check.md), sent in
# one run with patch 2 or not.
before=$(maildir_count)
out=$(send --force --cover-letter main..conv); rc=$?
case "$rc:$out" in
0:*) not_ok "a BUG_ON that patch 2 converts is refused"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
*"[PATCH 1/2] mm: check x: 1 new call at error level; nothing is sent"*"fold that change into this patch"*)
	[ "$(maildir_count)" = "$before" ] &&
	ok "a BUG_ON that patch 2 converts is refused, the message says to fold the conversion" ||
	not_ok "conv series: $(maildir_count) mails" ;;
*) not_ok "conv series (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# The contributor's case: format-patch wrote both, only 0001 is sent;
# 0002, lying beside it and never sent, must not count.
mkdir -p "$TEST_DIR/cl"
git -C "$r" format-patch -q -o "$TEST_DIR/cl" main..conv
before=$(maildir_count)
out=$(send "$TEST_DIR"/cl/0001-*.patch); rc=$?
case "$rc:$out" in
0:*) not_ok "0001 sent alone, 0002 beside it: refused"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
*"new BUG_ON() in f()"*"rejected by sendemail-validate hook"*) [ "$(maildir_count)" = "$before" ] &&
	ok "0001 sent alone with 0002 beside it: refused (a file not sent never counts)" || not_ok "sent anyway" ;;
*) not_ok "0001 alone (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# The refusal's hint is a command that runs as printed, DIR being a
# tree the patch applies to (issue 35.3: it once named a bare --suggest,
# which only said "no code without the tree" and exited 1).
hint=$(printf '%s\n' "$out" | sed -n "s/.*(\`\(warnwatch check --suggest --tree DIR '[^']*'\)\`.*/\1/p")
git -C "$r" worktree add -q "$TEST_DIR/hint-base" main
if [ -n "$hint" ]; then
	cmd=${hint#warnwatch }
	cmd=${cmd/--tree DIR/--tree $TEST_DIR/hint-base}
	# shellcheck disable=SC2086 # the hint's words, the path has no spaces
	hout=$(eval "\"\$WARNWATCH\" $cmd" 2>&1); hrc=$?
	case "$hrc:$hout" in
	1:*"rewrites of the calls"*|1:*"suggest:"*) ok "the refusal's --suggest hint runs as printed (status 1: the error is still there)" ;;
	*) not_ok "the hint's command (rc $hrc): $cmd"; printf '%s\n' "$hout" | sed 's/^/#   /' ;;
	esac
else
	not_ok "the refusal names a --suggest command"; printf '%s\n' "$out" | sed 's/^/#   /'
fi
git -C "$r" worktree remove --force "$TEST_DIR/hint-base"

out=$(cd "$r" && "$WARNWATCH" hook install 2>&1); rc=$?
case "$rc:$out" in
2:*"already warnwatch's hook (--force writes it again)"*) ok "install twice: status 2, --force named" ;;
*) not_ok "install twice (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
out=$(cd "$r" && "$WARNWATCH" hook install --strict --force 2>&1); rc=$?
before=$(maildir_count)
out=$(send main..warn); rc=$?
case "$rc:$out" in
0:*) not_ok "--strict: a WARN_ON blocks" ;;
*"new call at warning or error level; nothing is sent"*) [ "$(maildir_count)" = "$before" ] &&
	ok "--strict (--force reinstall): a WARN_ON blocks" || not_ok "--strict sent anyway" ;;
*) not_ok "--strict (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
cmp -s "$TEST_DIR/old-hook" "$hooks/sendemail-validate.warnwatch-chained" &&
	ok "--force kept the chained hook" || not_ok "--force lost the chained hook"

out=$(cd "$r" && "$WARNWATCH" hook uninstall 2>&1); rc=$?
[ "$rc" = 0 ] && cmp -s "$TEST_DIR/old-hook" "$hooks/sendemail-validate" &&
	[ -x "$hooks/sendemail-validate" ] && [ ! -e "$hooks/sendemail-validate.warnwatch-chained" ] &&
	ok "uninstall restores the old hook exactly, executable, nothing left behind" ||
	{ not_ok "uninstall (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /'; ls -la "$hooks" | sed 's/^/#   /'; }
out=$(cd "$r" && "$WARNWATCH" hook uninstall 2>&1); rc=$?
case "$rc:$out" in
2:*"is not warnwatch's hook: left alone"*) ok "uninstall leaves a foreign hook alone (status 2)" ;;
*) not_ok "uninstall foreign (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
before=$(maildir_count)
out=$(send main..bug); rc=$?
[ "$rc" = 0 ] && [ "$(maildir_count)" = $((before + 2)) ] && ok "after uninstall, the BUG_ON series is sent again" ||
	not_ok "after uninstall (rc $rc)"

# a foreign hook with a chained one already beside it: refused, both kept
cp -p "$TEST_DIR/old-hook" "$hooks/sendemail-validate.warnwatch-chained"
out=$(cd "$r" && "$WARNWATCH" hook install --force 2>&1); rc=$?
case "$rc:$out" in
2:*"is already taken: move one of them away first"*) cmp -s "$TEST_DIR/old-hook" "$hooks/sendemail-validate" &&
	ok "install refuses when the chained name is taken, even with --force" || not_ok "hook changed" ;;
*) not_ok "taken chained name (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
rm -f "$hooks/sendemail-validate.warnwatch-chained" "$hooks/sendemail-validate"

# core.hooksPath (relative: to the work tree's top), --repo from elsewhere
git -C "$r" config core.hooksPath .githooks
out=$("$WARNWATCH" hook install --repo "$r" 2>&1); rc=$?
case "$rc:$out" in
0:*"installed '$r/.githooks/sendemail-validate'"*) ok "core.hooksPath is honoured (--repo)" ;;
*) not_ok "core.hooksPath (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
before=$(maildir_count)
out=$(send main..bug); rc=$?
[ "$rc" != 0 ] && [ "$(maildir_count)" = "$before" ] && ok "git send-email runs the hook from core.hooksPath" ||
	not_ok "hook in core.hooksPath not run (rc $rc)"
out=$("$WARNWATCH" hook uninstall --repo "$r" 2>&1); rc=$?
[ "$rc" = 0 ] && [ ! -e "$r/.githooks" ] && ok "uninstall from core.hooksPath removes the .githooks/ install made" ||
	not_ok "uninstall core.hooksPath (rc $rc)"
# The binary moves away after install: the hook says so and lets the mail
# go (it blocks only on findings; never exit 127).
mv_dir=$TEST_DIR/movebin
mkdir -p "$mv_dir"
cp "$WARNWATCH" "$mv_dir/warnwatch"
git -C "$r" config --unset core.hooksPath
out=$(cd "$r" && WARNWATCH_TEMPLATES=$WW_TOP/templates "$mv_dir/warnwatch" hook install 2>&1) || { not_ok "install from $mv_dir"; diag "$out"; }
rm -f "$mv_dir/warnwatch"
before=$(maildir_count)
out=$(PATH=/usr/bin:/bin send --force --cover-letter main..bug); rc=$?
case "$rc:$out" in
0:*"hook: '$mv_dir/warnwatch' is gone and no warnwatch is on PATH"*) [ "$(maildir_count)" = $((before + 3)) ] &&
	ok "binary moved away: the hook says so and the series goes (status 0, not 127)" ||
	not_ok "moved binary: $(maildir_count) mails" ;;
*) not_ok "moved binary (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
# ... and with a warnwatch on PATH, that one checks the mail
mkdir -p "$TEST_DIR/pathbin"
ln -s "$WARNWATCH" "$TEST_DIR/pathbin/warnwatch"
before=$(maildir_count)
out=$(PATH=$TEST_DIR/pathbin:/usr/bin:/bin send --cover-letter main..bug); rc=$?
[ "$rc" != 0 ] && [ "$(maildir_count)" = "$before" ] &&
	ok "binary moved, another warnwatch on PATH: that one checks and refuses the BUG_ON" ||
	{ not_ok "moved binary, warnwatch on PATH (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /'; }
(cd "$r" && "$WARNWATCH" hook uninstall >/dev/null 2>&1)

# A hooks directory install made goes with uninstall; one it found stays.
git -C "$r" config core.hooksPath .made-hooks
out=$(cd "$r" && "$WARNWATCH" hook install 2>&1 && "$WARNWATCH" hook uninstall 2>&1); rc=$?
case "$rc:$out" in
0:*"removed the directory '$r/.made-hooks' install made"*) [ ! -e "$r/.made-hooks" ] &&
	ok "uninstall removes the empty hooks directory install made" || not_ok "directory left behind" ;;
*) not_ok "made directory (rc $rc)"; printf '%s\n' "$out" | sed 's/^/#   /' ;;
esac
mkdir -p "$r/.own-hooks"
git -C "$r" config core.hooksPath .own-hooks
out=$(cd "$r" && "$WARNWATCH" hook install 2>&1 && "$WARNWATCH" hook uninstall 2>&1); rc=$?
[ "$rc" = 0 ] && [ -d "$r/.own-hooks" ] && ok "a hooks directory that was there stays" ||
	not_ok "own directory (rc $rc)"
git -C "$r" config --unset core.hooksPath

# --force with no earlier hook (the README's way to add --strict, the
# moved-binary advice's way to record a new path): nothing is chained, so
# a clean mail goes and the BUG_ON is still refused (issue 35: it used to
# run a chained hook that was never there, exit 127, for every mail).
rm -f "$hooks/sendemail-validate" "$hooks/sendemail-validate.warnwatch-chained"
out=$(cd "$r" && "$WARNWATCH" hook install 2>&1 && "$WARNWATCH" hook install --force 2>&1); rc=$?
[ "$rc" = 0 ] && [ ! -e "$hooks/sendemail-validate.warnwatch-chained" ] &&
	ok "install --force over our own hook with nothing chained: status 0" ||
	{ not_ok "install --force, nothing chained (rc $rc)"; diag "$out"; }
before=$(maildir_count)
out=$(send --force --cover-letter main..clean); rc=$?
[ "$rc" = 0 ] && [ "$(maildir_count)" = $((before + 2)) ] &&
	ok "install --force with no earlier hook: a clean series goes" ||
	{ not_ok "--force, no earlier hook: clean series (rc $rc)"; diag "$out"; }
out=$(send main..bug); rc=$?
case "$rc:$out" in
0:*) not_ok "--force, no earlier hook: the BUG_ON goes" ;;
*"new BUG_ON() in f()"*) ok "install --force with no earlier hook: the BUG_ON is still refused" ;;
*) not_ok "--force, no earlier hook: BUG_ON (rc $rc)"; diag "$out" ;;
esac
(cd "$r" && "$WARNWATCH" hook uninstall >/dev/null 2>&1)

# A chained hook is found beside the hook, not by the path it had when
# install ran: moving the repository keeps both working.
printf '#!/bin/sh\necho "old hook: $1" >>"%s"\nexit 0\n' "$TEST_DIR/moved-old.log" >"$hooks/sendemail-validate"
chmod +x "$hooks/sendemail-validate"
(cd "$r" && "$WARNWATCH" hook install >/dev/null 2>&1) || not_ok "install before the move"
mv "$r" "$TEST_DIR/moved-repo"
r=$TEST_DIR/moved-repo
hooks=$r/.git/hooks
before=$(maildir_count)
out=$(send --force --cover-letter main..clean); rc=$?
[ "$rc" = 0 ] && [ "$(maildir_count)" = $((before + 2)) ] &&
	grep -q "old hook: .*0001-" "$TEST_DIR/moved-old.log" 2>/dev/null &&
	ok "repository moved: the chained hook still runs and a clean series goes" ||
	{ not_ok "repository moved (rc $rc)"; diag "$out"; }
out=$(send main..bug); rc=$?
case "$rc:$out" in
0:*) not_ok "repository moved: the BUG_ON goes" ;;
*"new BUG_ON() in f()"*) ok "repository moved: the BUG_ON is still refused" ;;
*) not_ok "repository moved: BUG_ON (rc $rc)"; diag "$out" ;;
esac
(cd "$r" && "$WARNWATCH" hook uninstall >/dev/null 2>&1)
done_testing
