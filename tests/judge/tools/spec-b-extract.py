#!/usr/bin/env python3
"""Print, per corpus case, what a spec writer needs to read: the index row, the
quoted context above the call in the reviewer's reply and the reviewer's own text
under it (decoded), and optionally the patch hunk around the added call.

Usage: spec-b-extract.py CORPUS_DIR LIST [--patch] [--all-reply] [ID...]
CORPUS_DIR holds index.tsv and <list>/<NNNN>.{patch,reply}.eml.
The mails are third-party text: this only prints them, it runs nothing from them.
"""
import email, email.policy, re, sys
from pathlib import Path


def body_text(path):
    """The decoded text/plain parts of a mail (quoted-printable, base64, charsets)."""
    msg = email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)
    parts = []
    for part in msg.walk():
        if part.get_content_maintype() == 'multipart':
            continue
        if part.get_content_type() not in ('text/plain', 'text/x-patch', 'text/x-diff'):
            continue
        try:
            parts.append(part.get_content())
        except (LookupError, UnicodeError):
            raw = part.get_payload(decode=True) or b''
            parts.append(raw.decode('utf-8', 'replace'))
    return msg, '\n'.join(parts)


def squash(s):
    return re.sub(r'\s+', '', s)


def is_quoted(line):
    return line.lstrip().startswith('>')


def reply_view(text, call, before=10, after=25):
    """The quoted lines above the quoted added call and the text under it."""
    lines = text.split('\n')
    want = squash(call)
    hits = [i for i, l in enumerate(lines)
            if is_quoted(l) and want and want in squash(re.sub(r'^\s*>\s?\+?', '', l))]
    if not hits:
        hits = [i for i, l in enumerate(lines) if want[:40] and want[:40] in squash(l)]
    out = []
    for i in hits:
        # the first unquoted non-empty line after the hit
        j = i + 1
        while j < len(lines) and (is_quoted(lines[j]) or not lines[j].strip()):
            j += 1
        if j - i > 12:   # the text under it is far: probably not the commented hit
            out.append(f'  [hit at line {i}, text {j - i} lines below]')
        out.append('  ---- context ----')
        out.extend('  ' + l for l in lines[max(0, i - before):i + 1])
        out.append('  ---- under ----')
        k = i + 1
        shown = 0
        quoted_run = 0
        while k < len(lines) and shown < after:
            if is_quoted(lines[k]):
                quoted_run += 1
                # a long quote after the reviewer's text: the next comment's context
                if shown and quoted_run > 4:
                    out.append('  [...]')
                    break
            else:
                quoted_run = 0
                if lines[k].strip():
                    shown += 1
            out.append('  ' + lines[k])
            k += 1
    return '\n'.join(out) if out else '  [call not found in reply]'


def patch_view(text, call, around=18):
    lines = text.split('\n')
    want = squash(call)
    out = []
    for i, l in enumerate(lines):
        if l.startswith('+') and want and squash(l[1:]) == want:
            # the function header of the hunk and the lines around
            h = i
            while h > 0 and not lines[h].startswith('@@'):
                h -= 1
            fname = '?'
            for b in range(i, 0, -1):
                if lines[b].startswith('+++ '):
                    fname = lines[b][4:]
                    break
            out.append(f'  ==== {fname} {lines[h][:120]}')
            out.extend('  ' + x for x in lines[max(h + 1, i - around):i + around // 2])
    return '\n'.join(out) if out else '  [call not found in patch]'


def main():
    args = sys.argv[1:]
    show_patch = '--patch' in args
    all_reply = '--all-reply' in args
    args = [a for a in args if not a.startswith('--')]
    corpus, lst, ids = Path(args[0]), args[1], set(args[2:])
    rows = [l.rstrip('\n').split('\t') for l in open(corpus / 'index.tsv', encoding='utf-8')]
    head, rows = rows[0], rows[1:]
    for r in rows:
        row = dict(zip(head, r))
        if not row['id'].startswith(lst + '/'):
            continue
        num = row['id'].split('/')[1]
        if ids and num not in ids and row['id'] not in ids:
            continue
        print(f"##### {row['id']} {row['class']} tag={row['tag']} {row['year']} {row['file']}")
        print(f"  call: {row['quoted_added_line']}")
        print(f"  point: {row['reviewer_point']}")
        base = corpus / lst / num
        pmsg, ptext = body_text(f'{base}.patch.eml')
        print(f"  patch: {pmsg['subject']}")
        if row['class'] == 'point':
            rmsg, rtext = body_text(f'{base}.reply.eml')
            print(f"  reply from: {rmsg['from']}")
            if all_reply:
                print(rtext)
            else:
                print(reply_view(rtext, row['quoted_added_line']))
        if show_patch or row['class'] == 'control':
            print(patch_view(ptext, row['quoted_added_line']))
        print()


if __name__ == '__main__':
    main()
