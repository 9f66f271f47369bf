#!/usr/bin/env python3
# Build the corpus directory from judged candidates (judge_*.tsv next to this script) and control
# patches.  Usage: MIRROR=<dir of fetched git dirs> EXISTING=<six-list index.tsv> assemble.py OUTDIR [CONTROLS]
# (run where review.json, cands.jsonl and controls.jsonl are).  Writes OUTDIR/<list>/NNNN.*.eml and
# OUTDIR/index.tsv.
import json, re, os, subprocess, sys, random, collections
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from heldout import held_out, original, ai_generated, held_path
OUT = sys.argv[1]
MIRROR = os.environ.get('MIRROR', '.') + '/linux-mailinglist-archives+%s/repo'
def blob(lst, commit):
    return subprocess.run(['git', '--git-dir', MIRROR % lst, 'show', commit + ':m'], capture_output=True, check=True).stdout
# (patch, reply) pairs and patches already in the six-list corpus
old_pairs = set(); old_patches = set()
if os.environ.get('EXISTING'):
    for ln in list(open(os.environ['EXISTING']))[1:]:
        f = ln.rstrip('\n').split('\t')
        old_pairs.add((f[2], f[3])); old_patches.add(f[2])
COMMENT = re.compile(r'^\s*(\*|/\*|//)')
KDIRS = ('fs/', 'include/linux/', 'include/uapi/', 'include/trace/', 'include/net/', 'include/scsi/', 'include/xen/', 'include/asm-generic/',
         'drivers/', 'block/', 'mm/', 'kernel/', 'net/', 'arch/', 'io_uring/', 'security/', 'crypto/', 'virt/', 'init/', 'ipc/', 'sound/', 'certs/')
def kernel_path(f):
    f = re.sub(r'^[ab]/', '', f.strip())
    if f.startswith('lib/') and not f.startswith('lib/libf2fs') and f.count('/') <= 2: return True
    return f.startswith(KDIRS)
# user-space tool patches (their lib/ is not the kernel's) are not controls; points were read by hand
TOOLS = re.compile(r'erofs-utils|xfsprogs|btrfs-progs|f2fs-tools|e2fsprogs|util-linux|cifs-utils|ndctl|rdma-core|iproute2|ethtool:|libnvdimm-utils', re.I)
def base_subj(s):
    return re.sub(r'^(\[[^\]]*\]\s*)+', '', s).strip().lower()
def clean(s): return re.sub(r'\s+', ' ', s).strip()
def short(lst):   # linux-usb.vger.kernel.org.0 -> linux-usb
    return re.sub(r'\.(vger\.kernel\.org|redhat\.com|lists\.[a-z0-9.-]+|googlegroups\.com)\.\d+$', '', lst)
cands = {c['key8']: c for c in json.load(open('review.json'))}
# the comment sits under a quote block; report the call line closest to the comment
allc = collections.defaultdict(list)
for l in open('cands.jsonl'):
    x = json.loads(l)
    allc[(x['pmid'], x['rmid'], x['after'])].append(x)
def closest(c):
    return min(allc.get((c['pmid'], c['rmid'], c['after']), [c]) or [c], key=lambda x: x['dist'])
judged = []
for fn in sorted(os.listdir(HERE)):
    if fn.startswith('judge_') and fn.endswith('.tsv'):
        for ln in open(os.path.join(HERE, fn)):
            if not ln.strip(): continue
            f = ln.rstrip('\n').split('\t')
            judged.append((f[0], f[1], f[2], f[3] if len(f) > 3 else None))
rows = []; seen_pr = set(); seen_p = set(); point_subj = set(); counters = collections.Counter(); skipped = []
for k, tag, summ, hint in judged:
    c = closest(cands[k])
    if hint:
        c = next(x for x in allc[(c['pmid'], c['rmid'], c['after'])] if hint in x['line'])
    if COMMENT.match(c['line']): skipped.append((k, 'comment line')); continue
    if not kernel_path(c['file']): skipped.append((k, 'not a kernel path ' + c['file'])); continue
    if held_path(c['file']): skipped.append((k, 'held-out subsystem path ' + c['file'])); continue
    if (c['pmid'], c['rmid']) in seen_pr: skipped.append((k, 'dup')); continue
    if (c['pmid'], c['rmid']) in old_pairs: skipped.append((k, 'in the six-list corpus')); continue
    praw = blob(c['list'], c['patch']); rraw = blob(c['list'], c['reply'])
    if held_out(praw) or held_out(rraw): skipped.append((k, 'held-out list in headers')); continue
    if original(praw) or original(rraw): skipped.append((k, 'routed to one of the six original lists')); continue
    if ai_generated(rraw): skipped.append((k, 'AI-generated review')); continue
    seen_pr.add((c['pmid'], c['rmid'])); seen_p.add(c['pmid']); point_subj.add(base_subj(c['psubj']))
    L = short(c['list']); counters[L] += 1; n = counters[L]
    d = os.path.join(OUT, L); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, '%04d.patch.eml' % n), 'wb').write(praw)
    open(os.path.join(d, '%04d.reply.eml' % n), 'wb').write(rraw)
    rows.append(['%s/%04d' % (L, n), 'point', c['pmid'], c['rmid'], clean(c['line']), summ, tag, str(c['year']), c['file']])
# controls: spread over lists and years, skip patches already used
ctl = [json.loads(l) for l in open('controls.jsonl')]
random.seed(7)
bylist = collections.defaultdict(list)
for c in ctl:
    if c['pmid'] in seen_p or c['pmid'] in old_patches or base_subj(c['psubj']) in point_subj: continue
    if not kernel_path(c['file']) or held_path(c['file']): continue
    if TOOLS.search(c['psubj']) or re.match(r'\s*#\s*define\b', c['line']): continue
    bylist[c['list']].append(c)
want = int(sys.argv[2]) if len(sys.argv) > 2 else 15
seen_ctl = set()
for lst, cs in bylist.items():
    # one per (year) round-robin for spread
    byyear = collections.defaultdict(list)
    for c in cs: byyear[c['year']].append(c)
    for y in byyear: random.shuffle(byyear[y])
    picked = []; seen_subj = set()
    while len(picked) < want and any(byyear.values()):
        for y in sorted(byyear):
            if byyear[y] and len(picked) < want:
                c = byyear[y].pop()
                base = base_subj(c['psubj'])
                if base in seen_subj or c['pmid'] in seen_ctl: continue   # cross-posted: one list only
                praw = blob(c['list'], c['patch'])
                if held_out(praw) or original(praw): continue
                seen_subj.add(base); seen_ctl.add(c['pmid']); picked.append(c)
                L = short(lst); counters[L] += 1; n = counters[L]
                d = os.path.join(OUT, L); os.makedirs(d, exist_ok=True)
                open(os.path.join(d, '%04d.patch.eml' % n), 'wb').write(praw)
                who = re.sub(r'\s*<.*', '', c['okfrom']).strip('" ') or 'a reviewer'
                what = 'Reviewed-by/Acked-by' if c['ack'] else 'an applied/queued note'
                rows.append(['%s/%04d' % (L, n), 'control', c['pmid'], '-', clean(c['line']),
                             'no reply comments on the added call; %s gave %s (%d repl%s in thread)' % (who, what, c['nreplies'], 'y' if c['nreplies'] == 1 else 'ies'),
                             'silent-accept', str(c['year']), c['file']])
with open(os.path.join(OUT, 'index.tsv'), 'w') as f:
    f.write('\t'.join(['id', 'class', 'patch_message_id', 'reply_message_id', 'quoted_added_line', 'reviewer_point', 'tag', 'year', 'file']) + '\n')
    for r in rows: f.write('\t'.join(x.replace('\t', ' ') for x in r) + '\n')
print('rows', len(rows), collections.Counter(r[1] for r in rows), 'skipped', skipped)
