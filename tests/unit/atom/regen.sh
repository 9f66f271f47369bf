#!/usr/bin/env bash
# Regenerate the Atom fixtures of t-atom from a real public-inbox-httpd:
# an empty inbox, a threaded series (cover letter, a Message-ID with '/'
# and '%', an RFC 2047 author, a subject with <>&"), a reply to it, a
# feed at public-inbox's 25-entry cap and a search result (?x=A).
#   tests/unit/atom/regen.sh     (needs public-inbox; loopback only)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
export PI_CONFIG=$dir/config HOME=$dir/home
mkdir "$HOME"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
public-inbox-init -V2 -L full test "$dir/test" "http://127.0.0.1:$port/test" test@example.org
git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
public-inbox-httpd -D -P "$dir/pid" -W0 -l "http://127.0.0.1:$port" \
	-1 "$dir/out.log" -2 "$dir/err.log"
for i in $(seq 50); do [ -s "$dir/pid" ] && break; sleep 0.1; done
pid=$(cat "$dir/pid")
get() { curl -sS --max-time 10 "http://127.0.0.1:$port/test/$1"; }
deliver() { ORIGINAL_RECIPIENT=test@example.org public-inbox-mda <"$1"; }

# An empty inbox answers 404 "No feed found for thread" (kept as is).
get new.atom >"$here/empty-inbox.txt" || true
for m in cover patch1 patch2 reply; do deliver "$here/$m.eml"; done
get new.atom >"$here/series.atom"
for i in $(seq 30); do
	printf 'From: A <a@x.org>\nTo: test@example.org\nSubject: msg %d\nDate: Mon, 1 Jan 2024 11:00:%02d +0000\nMessage-ID: <m%d@x.org>\n\nhi\n' \
		"$i" "$i" "$i" >"$dir/m.eml"
	deliver "$dir/m.eml"
done
get new.atom >"$here/full25.atom"
get '?q=s:PATCH&x=A' >"$here/search.atom"
