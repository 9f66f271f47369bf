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
# Print only through listing2.py, which skips the threads routed to a held-out list.
sys.exit(0)
lists = sys.argv[1:] or None
for i, x in enumerate(out):
    if lists and not any(x['list'].startswith(l) for l in lists): continue
    ctx = [l for l in x['ctx'].split('\n') if l.strip('> \t')][-3:]
    aft = [l for l in x['after'].split('\n') if l.strip()]
    # cut signature / tags
    cut = []
    for l in aft:
        if l.strip() in ('--', '-- ') or re.match(r'\s*(Reviewed-by|Acked-by|Thanks|Cheers|Regards)', l): break
        cut.append(l)
    print(f"### {x['key8']} {x['list'][:10]} {x['year']} {x['psubj'][:80]} | {x['rfrom'][:30]}")
    for l in ctx: print('  ' + l[:140])
    for l in cut[:7]: print('  | ' + l[:160])
