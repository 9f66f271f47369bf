#!/bin/sh
# git send-email's sendemail-validate hook, written by `warnwatch hook
# install`: each mail is checked for new BUG()/BUG_ON()/WARN*() calls
# before anything is sent.  `warnwatch hook uninstall` removes it (and
# puts back the hook it chained); `git send-email --no-validate` skips it.
# warnwatch-hook 1
{{#chained}}
# The hook that was here before runs first; if it refuses, so do we.
{{chained}} "$@" || exit
{{/chained}}
exec {{warnwatch}} hook run{{#strict}} --strict{{/strict}} -- "$1"
