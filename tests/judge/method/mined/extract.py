#!/usr/bin/env python3
# Scan one public-inbox v2 epoch; emit per-mail header records + candidate info (JSON lines).
import sys, subprocess, re, json, email, email.policy
from email.utils import parsedate_to_datetime
CALL = r'(?<![A-Za-z0-9_])(?:BUG|BUG_ON|VM_BUG_ON\w*|WARN|WARN_ON|WARN_ON_ONCE|WARN_ONCE|WARN_ON_SMP|VM_WARN\w*|WARN_RATELIMIT|WARN_ON_RATELIMIT|DEBUG_WARN|panic|ASSERT|J_ASSERT\w*|f2fs_bug_on|xfs_assert)\s*\('
CALL_RE = re.compile(CALL)
ADDED = re.compile(r'^\+(?!\+\+ )(.*)$')
QUOTED = re.compile(r'^[ \t]*>[ \t]?\+(?!\+\+ )(.*)$')   # depth-1 quote of an added line
ANYQ = re.compile(r'^[ \t]*>')
TOKENS = re.compile(rb'BUG|WARN|ASSERT|panic|Reviewed-by|Acked-by|[Aa]pplied|[Qq]ueued|base64|quoted-printable')
OWN_MENTION = re.compile(r'BUG|WARN|ASSERT|assert|panic|crash', re.I)
ACK = re.compile(r'^\s*(Reviewed-by|Acked-by):', re.I)
APPLIED = re.compile(r'\b(applied|queued|pushed|merged|picked up)\b', re.I)

def body_text(msg):
    parts = []
    for p in msg.walk():
        if p.get_content_maintype() == 'multipart': continue
        ct = p.get_content_type()
        if ct not in ('text/plain', 'text/x-patch', 'text/x-diff', 'application/octet-stream') and not ct.startswith('text/'):
            continue
        if ct == 'text/html': continue
        try:
            pl = p.get_payload(decode=True)
        except Exception:
            continue
        if pl is None: continue
        cs = p.get_content_charset() or 'utf-8'
        try: parts.append(pl.decode(cs, 'replace'))
        except LookupError: parts.append(pl.decode('utf-8', 'replace'))
    return '\n'.join(parts)

def hdr(msg, k):
    v = msg.get(k)
    if v is None: return ''
    try: return str(v)
    except Exception: return ''

def main(gitdir, out):
    revs = subprocess.run(['git', '--git-dir', gitdir, 'rev-list', '--all'], capture_output=True, check=True).stdout.split()
    cat = subprocess.Popen(['git', '--git-dir', gitdir, 'cat-file', '--batch'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    fo = open(out, 'w')
    n = 0
    import threading
    def feeder():
        for r in revs:
            cat.stdin.write(r + b':m\n')
        cat.stdin.close()
    threading.Thread(target=feeder, daemon=True).start()
    for r in revs:
        line = cat.stdout.readline().split()
        if len(line) < 3 or line[1] == b'missing':
            continue
        size = int(line[2]); raw = cat.stdout.read(size); cat.stdout.read(1)
        n += 1
        hend = raw.find(b'\n\n')
        hb = raw[:hend if hend >= 0 else len(raw)]
        msg = email.message_from_bytes(hb + b'\n\n', policy=email.policy.compat32)
        mid = hdr(msg, 'Message-ID').strip()
        subj = re.sub(r'\s+', ' ', hdr(msg, 'Subject')).strip()
        try:
            subj = str(email.header.make_header(email.header.decode_header(subj)))
        except Exception: pass
        frm = re.sub(r'\s+', ' ', hdr(msg, 'From'))
        try: frm = str(email.header.make_header(email.header.decode_header(frm)))
        except Exception: pass
        date = hdr(msg, 'Date')
        try: year = parsedate_to_datetime(date).year
        except Exception: year = 0
        rec = {'c': r.decode(), 'mid': mid, 'irt': hdr(msg, 'In-Reply-To').strip(), 'refs': re.findall(r'<[^>]+>', hdr(msg, 'References')),
               'subj': subj, 'from': frm, 'year': year}
        if TOKENS.search(raw):
            full = email.message_from_bytes(raw, policy=email.policy.compat32)
            body = body_text(full)
            lines = body.split('\n')
            isre = bool(re.match(r'^\s*(re|aw|sv)\s*:', subj, re.I))
            # added calls in a diff (patch mails)
            if not isre and 'PATCH' in subj.upper() and ('\n+++ ' in body or 'diff --git' in body):
                adds = []
                infile = None
                for ln in lines:
                    if ln.startswith('+++ '): infile = ln[4:].strip(); continue
                    m = ADDED.match(ln)
                    if m and infile and CALL_RE.search(m.group(1)):
                        adds.append([infile, m.group(1)])
                if adds: rec['adds'] = adds
            if isre:
                own = [ln for ln in lines if not ANYQ.match(ln)]
                owntxt = '\n'.join(own)
                rec['ack'] = any(ACK.match(l) for l in own)
                rec['applied'] = bool(APPLIED.search(owntxt))
                # mention of BUG/WARN in own text (excluding tags/sig lines)
                rec['mention'] = bool(OWN_MENTION.search('\n'.join(l for l in own if not ACK.match(l))))
                rec['quotes_any'] = any(QUOTED.match(l) for l in lines)
                qs = []
                for i, ln in enumerate(lines):
                    m = QUOTED.match(ln)
                    if m and CALL_RE.search(m.group(1)):
                        # find the quote block end, then the following own text
                        j = i + 1; dist = 0
                        while j < len(lines) and (ANYQ.match(lines[j]) or lines[j].strip() == ''):
                            if ANYQ.match(lines[j]) and lines[j].strip('> \t') != '': dist += 1
                            j += 1
                        k = j; txt = []
                        while k < len(lines) and not ANYQ.match(lines[k]):
                            txt.append(lines[k]); k += 1
                        before = [l for l in lines[max(0, i-4):i]]
                        qs.append({'line': m.group(1), 'dist': dist, 'after': '\n'.join(txt).strip()[:1500],
                                   'ctx': '\n'.join(before + [ln] + lines[i+1:j])[-800:]})
                if qs: rec['quotes'] = qs
        fo.write(json.dumps(rec) + '\n')
    print(gitdir, n, file=sys.stderr)

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
