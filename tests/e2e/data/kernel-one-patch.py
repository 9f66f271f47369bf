#!/usr/bin/env python3
"""kernel-one-patch.py TREE: a one-patch series (an mbox, on stdout) that adds
BUG_ON(!eli) after the allocation in ext4_li_info_new() of fs/ext4/super.c
in kernel tree TREE (linux 6.12), made from the file as the tree has it, so
that it applies exactly.  For t0215 and make bench-review."""
import difflib, sys

path = "fs/ext4/super.c"
old = open("%s/%s" % (sys.argv[1], path)).read().splitlines(keepends=True)
anchor = "\teli = kzalloc(sizeof(*eli), GFP_KERNEL);\n"
at = next((i for i, l in enumerate(old) if l == anchor and
           "ext4_li_info_new" in "".join(old[max(0, i - 5):i])), None)
if at is None:
    sys.exit("kernel-one-patch: no ext4_li_info_new() allocation in %s/%s" % (sys.argv[1], path))
new = old[:at + 1] + ["\tBUG_ON(!eli);\n"] + old[at + 1:]
diff = "".join(difflib.unified_diff(old, new, "a/" + path, "b/" + path))
sys.stdout.write("""From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Bench Author <author@example.org>
To: linux-ext4@vger.kernel.org
Subject: [PATCH] ext4: crash when the lazy init info cannot be allocated
Date: Thu, 09 May 2024 12:00:00 +0000
Message-ID: <kernel-one-patch@example.org>

A made-up BUG_ON() in a real function of the tree under review.

Signed-off-by: Bench Author <author@example.org>
---
diff --git a/%s b/%s
%s-- 
2.39.2
""" % (path, path, diff))
