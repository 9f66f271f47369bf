#!/usr/bin/env python3
"""The length budget of a review reply (docs/review.md), as a test.

budget.py REPLY.eml DISTINCT: prints nothing and exits 0 when the reply
keeps to it, else one line per breach and exits 1.
- body lines (the kernel-ci paragraph aside; after the headers, before the "-- " signature; blank lines,
  quotes "> ...", coding-style quotes "  | ..." and "[PATCH n/m]" headings
  not counted) < 12 + 4
  per finding (DISTINCT: the calls the reply comments on, given by the test);
- no sentence of the prose twice;
- no line over 80 columns (a TAB counts 8).
"""
import re, sys

path, distinct = sys.argv[1], int(sys.argv[2])
text = open(path, encoding="utf-8").read()
body = text.split("\n\n", 1)[1].split("\n-- \n", 1)[0]
lines = body.split("\n")
bad = []
# The kernel-ci paragraph has its own rule (one paragraph) and is not
# counted: it is the same length whatever the findings.
paras = body.split("\n\n")
body_wo_ci = "\n\n".join(p for p in paras if not p.startswith("kernel-ci "))
counted = [l for l in body_wo_ci.split("\n")
           if l.strip() and not l.startswith((">", "  |", "[PATCH"))]
limit = 12 + 4 * distinct
if len(counted) >= limit:
    bad.append(f"body has {len(counted)} lines, budget is under {limit}")
for l in text.split("\n"):
    if len(l.expandtabs(8)) > 80 and not re.match(r"^[A-Za-z-]+: ", l):
        bad.append(f"over 80 columns: {l}")
prose = " ".join(l for l in counted if not l.startswith("\t"))
seen = set()
for s in re.split(r"(?<=[.!?])\s+", prose):
    s = s.strip()
    if len(s) > 20 and s in seen:
        bad.append(f"said twice: {s}")
    seen.add(s)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
