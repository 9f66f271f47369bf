#!/usr/bin/env python3
# Print the shortlist of one list for manual reading, without the threads routed to a held-out list.
# Usage: MIRROR=<dir of fetched git dirs> listing2.py LIST-PREFIX   (run where review.json is)
import json, re, sys, os, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from heldout import held_out, original, ai_generated
MIRROR = os.environ.get('MIRROR', '.') + '/linux-mailinglist-archives+%s/repo'
def blob(lst, commit):
    return subprocess.run(['git', '--git-dir', MIRROR % lst, 'show', commit + ':m'], capture_output=True, check=True).stdout
def held(lst, commit):
    raw = blob(lst, commit)
    return held_out(raw) or original(raw)
c = json.load(open('review.json'))
pref = sys.argv[1]
seen = set(); skipped = 0; ai = 0
for x in c:
    if not x['list'].startswith(pref): continue
    if (x['pmid'], x['rmid']) in seen: continue
    seen.add((x['pmid'], x['rmid']))
    if held(x['list'], x['patch']) or held(x['list'], x['reply']): skipped += 1; continue
    if ai_generated(blob(x['list'], x['reply'])): ai += 1; continue
    ctx = [l for l in x['ctx'].split('\n') if l.strip('> \t')][-2:]
    aft = [l for l in x['after'].split('\n') if l.strip()]
    cut = []
    for l in aft:
        if l.strip() in ('--', '-- ') or re.match(r'\s*(Reviewed-by|Acked-by|Thanks|Cheers|Regards|Otherwise|With that)', l): break
        cut.append(l)
    if not cut: continue
    print(f"### {x['key8']} {x['year']} {x['psubj'][:70]} | {x['rfrom'][:22]}")
    for l in ctx: print('  ' + l.strip()[:120])
    for l in cut[:5]: print('  | ' + l.strip()[:150])
print('# %d (patch, reply) pairs skipped: routed to a held-out list or to one of the six original lists; %d AI-generated reviews' % (skipped, ai), file=sys.stderr)
