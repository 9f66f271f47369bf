#!/usr/bin/env python3
# Show shortlisted entries for manual reading: the reply's decoded text around the quoted call.
# Usage: MIRROR=<dir> show.py [-n LINES] KEY8...   (run where review.json is)
import json, sys, os, re, subprocess, email, email.policy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import body_text
MIRROR = os.environ.get('MIRROR', '.') + '/linux-mailinglist-archives+%s/repo'
args = sys.argv[1:]; n = 25
if args[:1] == ['-n']: n = int(args[1]); args = args[2:]
c = {x['key8']: x for x in json.load(open('review.json'))}
def norm(s): return re.sub(r'\s+', '', s)
for k in args:
    x = c[k]
    print('=' * 20, k, x['list'], x['year'], x['psubj'][:100])
    print('patch from:', x['pfrom'][:60], '| reply from:', x['rfrom'][:60], '| file:', x['file'][:70])
    raw = subprocess.run(['git', '--git-dir', MIRROR % x['list'], 'show', x['reply'] + ':m'], capture_output=True, check=True).stdout
    lines = body_text(email.message_from_bytes(raw, policy=email.policy.compat32)).split('\n')
    at = next((i for i, l in enumerate(lines) if re.match(r'^\s*>\s?\+', l) and norm(x['line']) in norm(l)), 0)
    for l in lines[max(0, at - 6):at + n]:
        print('  ' + l[:160])
