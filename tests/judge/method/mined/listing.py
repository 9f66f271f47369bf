#!/usr/bin/env python3
# Build the shortlist (review.json) from cands.jsonl.
import json, re, sys, hashlib
MENT = re.compile(r'WARN|BUG|ASSERT|assert|panic|once|lockdep', re.I)
MENT2 = re.compile(r'WARN|BUG|ASSERT|bug_on|panic|assert')
c = [json.loads(l) for l in open('cands.jsonl')]
seen = set(); out = []
for x in c:
    if not x['after']: continue
    if x['dist'] > 8: continue
    if x['dist'] >= 2 and not MENT2.search(x['after'][:500]): continue
    k = (x['pmid'], x['rmid'], re.sub(r'\s+', '', x['line']))
    if k in seen: continue
    seen.add(k); x['key8'] = hashlib.sha1(('%s|%s|%s' % k).encode()).hexdigest()[:8]; out.append(x)
json.dump(out, open('review.json', 'w'))
# Printing for reading is listing2.py's job: it skips the threads routed to a held-out list.
