#!/usr/bin/env python3
"""Inputs that keep b4 busy for minutes (issue 33.4), for the review-mbox-*
and ci-* cases: warnwatch must refuse each before b4 or a build is given it.

    b4-bait.py KIND OUT [TMP]

KIND: parts (one mail of 100,000 MIME parts, 3 MB), lines (one patch of
5 million diff lines, 15 MB), files (one patch of 100,000 files, 11 MB).
With TMP, also writes TMP/b4: a stand-in b4 that records being run.
"""
import os
import sys

kind, out = sys.argv[1], sys.argv[2]
HDR = (b"From 474778f2bad72ad6dd222f899bb411e7884a6b56 Mon Sep 17 00:00:00 2001\n"
       b"From: Jane Developer <jane@example.org>\n"
       b"Date: Thu, 9 May 2024 10:18:00 +0200\n"
       b"Subject: [PATCH] frob: %s\nMessage-ID: <bait@example.org>\n")
with open(out, "wb") as f:
    if kind == "parts":
        f.write(HDR % b"many parts")
        f.write(b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b\"\n\n")
        for i in range(100000):
            f.write(b"--b\nContent-Type: text/plain\n\nx\n")
        f.write(b"--b--\n")
    elif kind == "lines":
        n = 5000000
        f.write(HDR % b"many lines" + b"\n---\n")
        f.write(b"diff --git a/d/f.c b/d/f.c\n--- a/d/f.c\n+++ b/d/f.c\n"
                b"@@ -1,1 +1,%d @@\n \tctx();\n" % (n + 1))
        f.write(b"+a\n" * (n - 1))
        f.write(b"+\tBUG_ON(x);\n-- \n2.39.2\n")
    elif kind == "files":
        f.write(HDR % b"many files" + b"\n---\n")
        for i in range(100000):
            f.write(b"diff --git a/d/f%d.c b/d/f%d.c\n--- a/d/f%d.c\n+++ b/d/f%d.c\n"
                    b"@@ -1,1 +1,2 @@\n \tctx();\n+\tBUG_ON(%d);\n" % (i, i, i, i, i))
        f.write(b"-- \n2.39.2\n")
    else:
        sys.exit("unknown kind " + kind)
if len(sys.argv) > 3:
    b4 = os.path.join(sys.argv[3], "b4")
    with open(b4, "w") as f:
        f.write('#!/bin/sh\necho "$@" >> "${0%/*}/b4-called"\nsleep 60\n')
    os.chmod(b4, 0o755)
