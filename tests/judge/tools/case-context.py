#!/usr/bin/env python3
"""Print, per judge case, the reviewer's words about the quoted call.

For writing tests/judge/specs/<list>.jsonl by hand: the reply mail is decoded
(MIME, quoted-printable, base64, charset), the depth-1 quoted added line that
matches the index's quoted_added_line is found, and the quoted context above it
plus the reviewer's text under it are printed.  --patch also prints the patch
hunk around the added line (to see whether a condition reads on-disk data,
whether the function returns void, ...).

usage: case-context.py [--corpus DIR] [--patch] [--after N] ID|LIST...
       ID is <list>/<NNNN>; a bare LIST prints every case of that list.
The mails are third-party text: this only prints them, it never runs them.
"""
import argparse
import email
import email.policy
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import corpus as judge_corpus  # noqa: E402

# The repository's copy (tests/judge/index.tsv, mails packed in tests/judge/mail/<list>.tar.xz),
# or $JUDGE_CORPUS / --corpus: a human-reviews directory (mails beside index.tsv).
DEFAULT_CORPUS = os.environ.get('JUDGE_CORPUS',
                                os.path.normpath(os.path.join(os.path.dirname(__file__), '..')))
QUOTED_ADD = re.compile(r'^\s*>\s?\+')


def squash(s):
    return re.sub(r'\s+', '', s)


def mail_text(path):
    """The decoded text/plain parts of a mail, joined."""
    with open(path, 'rb') as f:
        msg = email.message_from_binary_file(f, policy=email.policy.compat32)
    parts = []
    for part in msg.walk():
        if part.get_content_maintype() == 'multipart':
            continue
        if part.get_content_type() not in ('text/plain', 'text/x-patch', 'text/x-diff'):
            continue
        raw = part.get_payload(decode=True) or b''
        charset = part.get_content_charset() or 'utf-8'
        try:
            parts.append(raw.decode(charset, errors='replace'))
        except LookupError:
            parts.append(raw.decode('utf-8', errors='replace'))
    hdr = 'From: %s\nSubject: %s\n' % (msg.get('From', ''), msg.get('Subject', ''))
    return hdr, '\n'.join(parts).replace('\r\n', '\n')


def read_index(corpus):
    rows = {}
    with open(os.path.join(corpus, 'index.tsv'), encoding='utf-8') as f:
        head = f.readline().rstrip('\n').split('\t')
        for line in f:
            row = dict(zip(head, line.rstrip('\n').split('\t')))
            rows[row['id']] = row
    return rows


def show_reply(text, call, after):
    lines = text.split('\n')
    want = squash(call)
    hits = [i for i, l in enumerate(lines)
            if QUOTED_ADD.match(l) and want in squash(re.sub(r'^\s*>\s?\+', '', l))]
    if not hits:
        print('  !! quoted call not found; whole reply follows')
        for l in lines[:120]:
            print('  ' + l)
        return
    for i in hits:
        print('  --- quote at line %d' % (i + 1))
        for l in lines[max(0, i - 12):i]:
            print('  ' + l)
        print('  ' + lines[i] + '   <== CALL')
        own = 0
        for l in lines[i + 1:i + 1 + 2 * after]:
            if own >= after:
                break
            print('  ' + l)
            if l.strip() and not l.lstrip().startswith('>'):
                own += 1


def show_patch(text, call):
    lines = text.split('\n')
    want = squash(call)
    for i, l in enumerate(lines):
        if l.startswith('+') and not l.startswith('+++') and want in squash(l[1:]):
            start = i
            while start > 0 and not lines[start].startswith('@@') and i - start < 30:
                start -= 1
            print('  --- patch at line %d' % (i + 1))
            for p in lines[start:i]:
                print('  ' + p)
            print('  ' + l + '   <== CALL')
            for p in lines[i + 1:i + 15]:
                print('  ' + p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--corpus', default=DEFAULT_CORPUS)
    ap.add_argument('--patch', action='store_true')
    ap.add_argument('--after', type=int, default=25,
                    help='reviewer lines to print under the call')
    ap.add_argument('ids', nargs='+')
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.corpus, 'index.tsv')):
        print("no index.tsv in '%s' (set --corpus or JUDGE_CORPUS)" % a.corpus,
              file=sys.stderr)
        return 2
    rows = read_index(a.corpus)
    ids = []
    for x in a.ids:
        ids += [x] if '/' in x else sorted(k for k in rows if k.startswith(x + '/'))
    mails = os.path.join(a.corpus, 'mail')
    unpacked = tempfile.TemporaryDirectory(prefix='case-context-')
    if os.path.isdir(mails):
        # The repository packs each list (tests/judge/README.md, Layout).
        judge_corpus.unpack(mails, sorted({c.split('/')[0] for c in ids}), unpacked.name)
        mails = unpacked.name
    for cid in ids:
        row = rows.get(cid)
        if row is None:
            print('no case %s' % cid, file=sys.stderr)
            return 1
        print('=' * 78)
        print('%s  %s  %s  %s' % (cid, row['class'], row['tag'], row['file']))
        print('call:  ' + row['quoted_added_line'])
        print('point: ' + row['reviewer_point'])
        base = os.path.join(mails if os.path.isdir(mails) else a.corpus, cid)
        if row['class'] == 'point':
            hdr, text = mail_text(base + '.reply.eml')
            print(hdr, end='')
            show_reply(text, row['quoted_added_line'], a.after)
        if a.patch or row['class'] == 'control':
            hdr, text = mail_text(base + '.patch.eml')
            print('PATCH ' + hdr, end='')
            show_patch(text, row['quoted_added_line'])
    return 0


if __name__ == '__main__':
    sys.exit(main())
