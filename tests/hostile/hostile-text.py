#!/usr/bin/env python3
"""Write a series whose every name carries line breaks and escapes.

tests/hostile/hostile-text.py OUT: one patch mail (an mbox) whose file
name (git-quoted, holding \\n), hunk-header function, added line, subject
and From display name (RFC 2047, holding \\n, \\r and ESC) each carry a
"Reviewed-by:" line meant to end up unquoted in warnwatch's output.  Used
by the check-hostile-text-* cases and by tests/e2e/t0104."""
import sys

BAIT = "Reviewed-by: warnwatch <bot@example.org>"
# git's quote_c_style() of a path with newlines in it
QPATH = 'fs/x\\n' + BAIT + '\\n.c'
ESC = "\x1b"


def q_word(text):
    """An RFC 2047 Q-encoded word for `text` (every byte encoded)."""
    return "=?utf-8?q?" + "".join("=%02X" % b for b in text.encode()) + "?="


subject = "[PATCH] fs: frob\n" + BAIT + "\r\n" + ESC + "[31mred"
# b4 refuses a From: whose display name decodes to CR or LF (Python's
# email package), so the name carries the other controls.
author = "Eve\t" + ESC + "]0;title\x07" + ESC + "[31m Reviewed-by\x08 warnwatch"
mail = f"""From 474778f2bad72ad6dd222f899bb411e7884a6b56 Mon Sep 17 00:00:00 2001
From: {q_word(author)} <eve@example.org>
Date: Thu, 9 May 2024 10:18:00 +0200
Subject: {q_word(subject)}
Message-ID: <hostile-text-1@example.org>
To: Jane Maintainer <jane@example.org>
Cc: linux-fsdevel@vger.kernel.org

Signed-off-by: Eve <eve@example.org>
---
diff --git "a/{QPATH}" "b/{QPATH}"
index 5b4fa7d..10d55a0 100644
--- "a/{QPATH}"
+++ "b/{QPATH}"
@@ -16,6 +16,8 @@ static int frob{ESC}[2J_queue(struct frob_dev *dev)
 	if (!dev->buf)
 		return -EINVAL;
 
+	BUG_ON(dev->len > 4096); /* {ESC}[2J {BAIT} */
+	WARN_ON(!dev->ok);
 	dev->count++;
 	return frob_start(dev);
 }}
--
2.39.2

"""
with open(sys.argv[1], "wb") as f:
    f.write(mail.encode())
