#!/bin/sh
# git send-email's sendemail-validate hook, written by `warnwatch hook
# install`: each mail is checked for new BUG()/BUG_ON()/WARN*() calls
# before anything is sent.  `warnwatch hook uninstall` removes it (and
# puts back the hook it chained); `git send-email --no-validate` skips it.
# Only findings block a send: when warnwatch is gone or fails, the hook
# says so and lets the mail go.
# warnwatch-hook 1
{{#made_dir}}
# warnwatch-made-dir
{{/made_dir}}
{{#chained}}
# The hook that was here before runs first; if it refuses, so do we.  It
# sits beside this one, wherever the repository has moved since.
chained="$(dirname -- "$0")/{{chained_name}}"
if [ -x "$chained" ]; then
	"$chained" "$@" || exit
else
	echo "warnwatch: hook: the hook it chained, '$chained', is gone: it did not run ('warnwatch hook install --force' stops looking for it)" >&2
fi
{{/chained}}
recorded={{warnwatch}}
ww=$recorded
if ! [ -x "$ww" ]; then
	ww=$(command -v warnwatch) || {
		echo "warnwatch: hook: '$recorded' is gone and no warnwatch is on PATH: '$1' not checked, not blocked (warnwatch hook install --force records the new path)" >&2
		exit 0
	}
fi
"$ww" hook run{{#strict}} --strict{{/strict}} -- "$1"
status=$?
[ "$status" = 1 ] && exit 1
[ "$status" = 0 ] || echo "warnwatch: hook: '$ww' failed (status $status): '$1' not checked, not blocked" >&2
exit 0
