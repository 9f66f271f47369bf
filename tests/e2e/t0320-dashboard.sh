#!/usr/bin/env bash
#
# t0320: `warnwatch dashboard` from two census files (6.1 and 6.12, real
# figures trimmed to their top subsystems) and a lists document with
# series artifacts, then the page as a browser renders it: headless
# Chromium (Debian's, no network, a fresh profile) dumps the DOM, where
# the charts and the numbers must be, and takes a screenshot (kept in
# tests/out/dashboard/).  Also: mail text is escaped, artifact links
# cannot leave the lists' directory, the site has no script and needs no
# network.  Then the history pages (backfill's tables): a public-inbox v2
# archive of the backfill fixture (t0330's mails) served by a real
# public-inbox-httpd, `backfill --url` on it, `dashboard --state`: the
# numbers, the links resolve to the mails on the archive, a screenshot
# (tests/out/dashboard/history.png, shown in the README).
set -u
. "$(dirname "$0")/lib.sh"

need_cmd python3
data=$WW_TOP/tests/e2e/data/dashboard
out=$WW_TOP/tests/out/dashboard
mkdir -p "$out"
in=$TEST_DIR/in
site=$TEST_DIR/site

# --- the lists document and its artifacts --------------------------------
mkdir -p "$in/series/41" "$in/series/42" "$in/series/43"
python3 - "$in" <<'EOF'
import json, os, sys
d = sys.argv[1]
def w(path, text):
    open(os.path.join(d, path), "w").write(text)
series = [
 {"id": 43, "subject": "[PATCH v2 0/2] mm: turn a VM_BUG_ON into a warning <script>alert(1)</script>",
  "version": 2, "author": "Jane Doe <jane@example.org>", "date": "2026-12-03T09:10:00Z",
  "state": "replied", "findings": 2, "added": {"warn-once": 1}, "removed": {"bug": 1},
  "conversions": 1, "verdict": "clean", "previous": 42,
  "links": {"findings": "series/43/findings.json", "console": "series/43/console.log",
            "reply": "series/43/reply.eml"}},
 {"id": 42, "subject": "[PATCH] mm: add a VM_BUG_ON", "version": 1,
  "author": "Jane Doe <jane@example.org>", "date": "2026-12-03T08:00:00Z", "state": "replied",
  "findings": 1, "added": {"bug": 1}, "removed": {}, "conversions": 0, "verdict": "panicked",
  "reason": "kernel BUG at mm/slub.c:42 (added by patch 1)",
  "links": {"findings": "series/42/findings.json", "console": "series/42/console.log",
            "reply": "series/42/reply.eml"}},
 {"id": 41, "subject": "[PATCH] mm: fix a comment", "author": "Bob <bob@example.org>",
  "date": "2026-12-02T18:00:00Z", "state": "replied", "findings": 0, "verdict": "clean",
  "links": {"console": "series/41/console.log"}},
 {"id": 40, "subject": "[PATCH] lib: WARN_ON in cmdline parsing", "author": "Eve <eve@example.org>",
  "date": "2026-12-02T12:00:00Z", "state": "replied", "findings": 1, "added": {"warn": 1},
  "verdict": "build-failed", "links": {}},
 {"id": "../../x", "subject": "[PATCH] x: stale base", "author": "Mallory <m@example.org>",
  "date": "2026-12-01T12:00:00Z", "state": "replied", "findings": 0, "verdict": "apply-failed",
  "links": {"findings": "../../../etc/passwd", "console": "/etc/passwd"}},
]
json.dump({"lists": [{"name": "linux-mm", "url": "http://127.0.0.1:8080/linux-mm/",
                      "series": series}]}, open(os.path.join(d, "lists.json"), "w"), indent=1)
f42 = {"findings": [{"patch": 1, "kind": "added", "file": "mm/slub.c", "line": 42,
        "function": "slab_free", "macro": "VM_BUG_ON", "class": "bug", "severity": "error",
        "message": "new VM_BUG_ON() crashes the machine", "source": "VM_BUG_ON(!s);",
        "conversion": False, "moved": False}], "summary": {"added": {"bug": 1}, "removed": {}}}
json.dump(f42, open(os.path.join(d, "series/42/findings.json"), "w"))
f43 = {"findings": [
        {"patch": 1, "kind": "removed", "file": "mm/slub.c", "line": 42, "function": "slab_free",
         "macro": "VM_BUG_ON", "class": "bug", "severity": "credit",
         "message": "thanks for removing VM_BUG_ON()", "source": "VM_BUG_ON(!s);",
         "conversion": True, "moved": False},
        {"patch": 1, "kind": "added", "file": "mm/slub.c", "line": 42, "function": "slab_free",
         "macro": "VM_WARN_ON_ONCE", "class": "warn-once", "severity": "info",
         "message": "new VM_WARN_ON_ONCE() <b>is</b> fine", "source": "if (VM_WARN_ON_ONCE(!s))",
         "conversion": True, "moved": False}],
       "summary": {"added": {"warn-once": 1}, "removed": {"bug": 1}}}
json.dump(f43, open(os.path.join(d, "series/43/findings.json"), "w"))
for i in (41, 42, 43):
    w("series/%d/console.log" % i, "Linux version 6.1.192\nKTAP version 1\n")
w("series/42/reply.eml", "Subject: Re: [PATCH] mm: add a VM_BUG_ON\n\nHi Jane,\n\n> +\tVM_BUG_ON(!s);\n\nThis crashes the machine <b>now</b>.\n")
w("series/43/reply.eml", "Subject: Re: [PATCH v2 0/2]\n\nThanks for converting it.\n")
EOF

if "$WARNWATCH" dashboard --out "$site" --lists "$in/lists.json" --title "warnwatch test" \
	--census "$data/census-6.12.json" --census "$data/census-6.1.json" \
	--census "$data/census-6.1..6.12.json" 2>"$TEST_DIR/err"; then
	ok "dashboard written"
else
	not_ok "dashboard written"; sed 's/^/#   /' "$TEST_DIR/err"
fi
missing=
for f in index.html style.css dashboard.json series/42/index.html series/42/findings.json \
	 series/42/console.log series/42/reply.eml series/43/index.html; do
	[ -s "$site/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then
	ok "site files present (pages, stylesheet, JSON, copied artifacts)"
else
	not_ok "site files present: missing$missing"
fi

test_expect "dashboard.json is the model: releases oldest first, lists" python3 - "$site/dashboard.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["release"] for r in d["releases"]] == ["6.1.192", "6.12.118"], d["releases"]
assert d["lists"][0]["name"] == "linux-mm" and len(d["lists"][0]["series"]) == 5
EOF
test_expect "no script, no remote resource" python3 - "$site" <<'EOF'
import os, re, sys
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        if not f.endswith(".html"):
            continue
        t = open(os.path.join(root, f)).read()
        assert "<script" not in t, f
        # The only absolute URL allowed is the list archive's link.
        for m in re.finditer(r'(?:src|href)="(https?:[^"]*)"', t):
            assert m.group(1).startswith("http://127.0.0.1:8080/"), (f, m.group(1))
        assert not re.search(r'(?:src)="(https?:|//)', t), f
EOF
test_expect "mail text is escaped" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$site/index.html"
test_expect "findings message escaped on the series page" \
	grep -q 'new VM_WARN_ON_ONCE() &lt;b&gt;is&lt;/b&gt; fine' "$site/series/43/index.html"
test_expect "the reply is on the series page, escaped" \
	grep -q 'This crashes the machine &lt;b&gt;now&lt;/b&gt;' "$site/series/42/index.html"
if [ ! -e "$site/series/______x/passwd" ] && ! grep -rq 'root:' "$site" &&
   [ -z "$(find "$site" -name passwd)" ]; then
	ok "artifact links outside the lists' directory are not followed"
else
	not_ok "artifact links outside the lists' directory are not followed"
fi
test_expect "a series id cannot name a path outside series/" \
	test "$(ls "$site/series" | sort | tr '\n' ' ')" = "40 41 42 43 _._.._x "

"$WARNWATCH" dashboard --lists "$in/lists.json" >/dev/null 2>"$TEST_DIR/err"
if [ $? -eq 2 ] && grep -q -- '--out' "$TEST_DIR/err"; then
	ok "--out is required (exit 2)"
else
	not_ok "--out is required (exit 2)"
fi
printf '{"files": 3}' >"$TEST_DIR/bad.json"
"$WARNWATCH" dashboard --out "$TEST_DIR/bad" --census "$TEST_DIR/bad.json" >/dev/null 2>"$TEST_DIR/err"
if [ $? -eq 2 ] && grep -q "bad.json': not a warnwatch census" "$TEST_DIR/err"; then
	ok "a JSON file that is no census: exit 2 naming it"
else
	not_ok "a JSON file that is no census: exit 2 naming it"; sed 's/^/#   /' "$TEST_DIR/err"
fi

# --- the history pages (backfill) ----------------------------------------------
hsite=$TEST_DIR/hsite
hstate=$TEST_DIR/hstate
history= why="the backfill archive could not be set up"
if ! command -v public-inbox-init >/dev/null || ! command -v perl >/dev/null; then
	why=not-installed
elif python3 "$WW_TOP/tests/e2e/data/backfill/mails.py" "$TEST_DIR/hmails" && pi_init linux-mm &&
   _pi_env perl "$WW_TOP/tests/e2e/data/backfill/v2-import.pl" linux-mm \
	"$TEST_DIR"/hmails/0*.eml "$TEST_DIR"/hmails/epoch1/*.eml && pi_httpd_start; then
	history=1
fi
# The archive is set up: from here a failure is warnwatch's, not a SKIP.
if [ -n "$history" ] &&
   ! "$WARNWATCH" backfill -q --state="$hstate" --url="$PI_URL/linux-mm/" "$PI_DIR/linux-mm" \
	>/dev/null 2>"$TEST_DIR/err"; then
	not_ok "backfill reads the public-inbox archive"; sed 's/^/#   /' "$TEST_DIR/err"
	history= why="backfill failed (above)"
fi
if [ "$why" = not-installed ]; then
	skip "history pages" "not-installed: public-inbox (make deps)"
elif [ -z "$history" ]; then
	not_ok "history pages: $why"
else
	if "$WARNWATCH" dashboard --out "$hsite" --state "$hstate" --title "warnwatch test" \
		--census "$data/census-6.12.json" --census "$data/census-6.1.json" 2>"$TEST_DIR/err" &&
	   [ -s "$hsite/history/index.html" ] && [ -s "$hsite/history/linux-mm.html" ]; then
		ok "dashboard --state writes history/index.html and history/linux-mm.html"
	else
		not_ok "dashboard --state writes the history pages"; sed 's/^/#   /' "$TEST_DIR/err"
	fi
	test_expect "the front page links the history" grep -q 'href="history/index.html"' "$hsite/index.html"
	# issue 38.6: the per-cycle numbers are on the page opened first
	test_expect "the front page shows calls added per release cycle" \
		grep -q 'id="cycles"' "$hsite/index.html"
	test_expect "history pages: no script, no remote resource but the archive, no author named" \
		python3 - "$hsite/history" "$PI_URL" <<'EOF'
import os, re, sys
for f in os.listdir(sys.argv[1]):
    t = open(os.path.join(sys.argv[1], f)).read()
    assert "<script" not in t, f
    for m in re.finditer(r'(?:src|href)="(https?:[^"]*)"', t):
        assert m.group(1).startswith(sys.argv[2] + "/linux-mm/"), (f, m.group(1))
    assert not re.search(r'src="(https?:|//)', t), f
    # no ranking of people: no author appears
    for who in ("Jane Doe", "Bob <", "Carol <", "Eve <", "jane@example.org", "Reviewer"):
        assert who not in t, (f, who)
EOF
	test_expect "every link to a mail resolves on the real public-inbox-httpd" \
		python3 - "$hsite/history/linux-mm.html" "$PI_URL" <<'EOF'
import re, sys, urllib.request
t = open(sys.argv[1]).read()
links = sorted(set(re.findall(r'href="(%s/linux-mm/[^"]+/)"' % re.escape(sys.argv[2]), t)))
assert len(links) == 6, links
for u in links:
    body = urllib.request.urlopen(u, timeout=20).read().decode("utf-8", "replace")
    mid = u.rstrip("/").rsplit("/", 1)[1]
    assert mid in body, u
EOF
fi

# --- the rendered page ---------------------------------------------------------
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	skip "rendered page" "not-installed: chromium (make deps)"
	done_testing
	exit
fi
chrome() {
	local profile
	profile=$(mktemp -d "$TEST_DIR/profile.XXXXXX")
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --disable-extensions --user-data-dir="$profile" \
		--hide-scrollbars "$@" 2>>"$TEST_DIR/chrome.log"
}
chrome --dump-dom "file://$site/index.html" >"$out/index.dom.html"
test_expect "Chromium renders the page" test -s "$out/index.dom.html"
test_expect "rendered: the charts are accessible SVG images" python3 - "$out/index.dom.html" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
svgs = re.findall(r'<svg[^>]*role="img"[^>]*>', t)
assert len(svgs) >= 5, len(svgs)
for sid in ("releases-chart", "classes-chart", "movers-chart", "top-chart", "verdicts-linux-mm"):
    assert 'aria-labelledby="%s-t %s-d"' % (sid, sid) in t, sid
    assert '<title id="%s-t">' % sid in t, sid
assert t.count('class="bar ') > 40, t.count('class="bar ')
EOF
test_expect "rendered: the release numbers (42,082 calls in 6.12, +4,143 since 6.1; BUG_ON family 9,070)" \
	python3 - "$out/index.dom.html" <<'EOF'
import sys
t = open(sys.argv[1]).read()
for s in ("42,082", "37,939", "+4,143 (+10.9%) since 6.1.192", "9,070", "8,628",
          "Added and removed from v6.1 to v6.12", "8,369 calls added, 4,177 removed",
          "<title>6.12.118, bug: 11,599 calls</title>", "MEMORY MANAGEMENT"):
    assert s in t, s
EOF
test_expect "rendered: the list's numbers and verdicts" python3 - "$out/index.dom.html" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
cards = dict(re.findall(r'<div class="card-label">([^<]*)</div>\s*<div class="card-value" data-value="([^"]*)"', t))
assert cards["Series reviewed"] == "4", cards  # 43 is v2 of 42: one series
assert cards["Conversions credited"] == "1", cards
# v2 (43) turned 42's VM_BUG_ON into a warning: the series, counted in its
# newest version, adds none.
assert cards["BUG() / BUG_ON() added"] == "0", cards
for v in ("panicked", "clean", "build failed", "did not apply"):
    assert '>%s</span>' % v in t, v
assert "panicked (1)" in t and "clean (2)" in t
assert 'href="series/42/console.log"' in t and 'href="series/42/reply.eml"' in t
EOF
chrome --window-size=1200,3000 --screenshot="$out/dashboard.png" "file://$site/index.html" >/dev/null
if [ -s "$out/dashboard.png" ] && [ "$(stat -c %s "$out/dashboard.png")" -gt 50000 ]; then
	ok "screenshot taken ($out/dashboard.png, $(stat -c %s "$out/dashboard.png") bytes)"
else
	not_ok "screenshot taken"; tail -n 5 "$TEST_DIR/chrome.log" | sed 's/^/#   /'
fi
chrome --dump-dom "file://$site/series/43/index.html" >"$out/series-43.dom.html"
test_expect "rendered series page: findings, conversion, verdict" python3 - "$out/series-43.dom.html" <<'EOF'
import sys
t = open(sys.argv[1]).read()
for s in ("mm/slub.c:42", "VM_WARN_ON_ONCE", "<em>conversion</em>", '>clean</span>',
          "Thanks for converting it.", 'href="../42/index.html"'):
    assert s in t, s
EOF

if [ -n "$history" ]; then
	chrome --dump-dom "file://$hsite/history/linux-mm.html" >"$out/history.dom.html"
	test_expect "rendered history page: charts, the cycle table, links to each mail" \
		python3 - "$out/history.dom.html" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
for sid in ("added-chart", "removed-chart"):
    assert 'aria-labelledby="%s-t %s-d"' % (sid, sid) in t, sid
rows = re.findall(r'<tr><th scope="row">([^<]*)</th><td class="date">([^<]*)</td>(.*?)</tr>', t)
got = {r[0]: (r[1], re.findall(r'<td>(?:<a href="([^"]*)">)?([0-9,]+)', r[2])) for r in rows}
assert list(got) == ["v6.13", "v6.14", "v6.19", "unknown"], list(got)
# v6.13: bug 1, panic 0, warn 1, warn-once 1, debug-only 0, warn-like 0; added 3, removed 0, conversions 1
assert [n for _, n in got["v6.13"][1]] == ["1", "0", "1", "1", "0", "0", "3", "0", "1"], got["v6.13"]
assert got["v6.13"][0] == "2024-09-15 to 2024-11-17", got["v6.13"][0]
assert [n for _, n in got["v6.14"][1]][-2:] == ["2", "1"], got["v6.14"]
assert got["unknown"][0] == "no date"
href = got["v6.13"][1][8][0]
assert href.startswith("#m0-conversions"), href
sec = t[t.index('id="%s"' % href[1:]):]
sec = sec[:sec.index("</section>")]
assert "[PATCH v2 1/2] mm/slub: check the slab" in sec, sec
EOF
	chrome --window-size=1200,1500 --screenshot="$out/history.png" "file://$hsite/history/linux-mm.html" >/dev/null
	if [ -s "$out/history.png" ] && [ "$(stat -c %s "$out/history.png")" -gt 30000 ]; then
		ok "history screenshot taken ($out/history.png, $(stat -c %s "$out/history.png") bytes)"
	else
		not_ok "history screenshot taken"; tail -n 5 "$TEST_DIR/chrome.log" | sed 's/^/#   /'
	fi
	chrome --dump-dom "file://$hsite/history/index.html" >"$out/history-index.dom.html"
	test_expect "rendered overview: every list summed, a row per list linking its page" \
		grep -q '<a href="linux-mm.html">linux-mm</a></th><td>12</td><td>8</td><td>6</td><td>2</td><td>2</td>' \
		"$out/history-index.dom.html"
fi

done_testing
