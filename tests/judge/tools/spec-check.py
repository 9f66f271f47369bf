#!/usr/bin/env python3
"""Check tests/judge/specs/<list>.jsonl against the corpus index (JUDGE-SPEC.md):
valid JSON per line, the keys and values the format allows, id/class/tag/call
copied from the index, ids in order, one line per case, every regex compiles,
controls silent.

Usage: spec-check.py INDEX.tsv SPECS.jsonl...
"""
import json, re, sys

KEYS = ['id', 'class', 'tag', 'call', 'expect', 'say', 'not', 'needs', 'why']
NEEDS = {'diff', 'tree', 'boot', 'human'}


def check(index, path):
    lst = path.rsplit('/', 1)[-1][:-len('.jsonl')]
    rows = [r for r in index if r['id'].startswith(lst + '/')]
    errs = []
    lines = open(path, encoding='utf-8').read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    if len(lines) != len(rows):
        errs.append(f'{len(lines)} lines, index has {len(rows)} cases')
    for n, (line, row) in enumerate(zip(lines, rows), 1):
        where = f'{path}:{n}'
        try:
            s = json.loads(line)
        except ValueError as e:
            errs.append(f'{where}: not JSON: {e}')
            continue
        if list(s) != KEYS:
            errs.append(f'{where}: keys {list(s)}')
            continue
        for k in ('id', 'class', 'tag'):
            if s[k] != row[k]:
                errs.append(f'{where}: {k} {s[k]!r} != index {row[k]!r}')
        if s['call'] != row['quoted_added_line']:
            errs.append(f'{where}: call differs from the index')
        if s['expect'] not in ('point', 'silent'):
            errs.append(f'{where}: expect {s["expect"]!r}')
        if s['class'] == 'control' and (s['expect'] != 'silent' or s['say']):
            errs.append(f'{where}: a control must be silent with say []')
        if s['expect'] == 'point' and not s['say']:
            errs.append(f'{where}: a point needs say groups')
        if s['expect'] == 'silent' and s['say']:
            errs.append(f'{where}: silent with say groups')
        if s['needs'] not in NEEDS:
            errs.append(f'{where}: needs {s["needs"]!r}')
        if not isinstance(s['why'], str) or not s['why']:
            errs.append(f'{where}: why missing')
        groups = s['say'] if isinstance(s['say'], list) else [None]
        for g in groups:
            if not isinstance(g, list) or not g:
                errs.append(f'{where}: say group {g!r} is not a non-empty list')
                continue
            for rx in g:
                try:
                    re.compile(rx, re.I)
                except (re.error, TypeError) as e:
                    errs.append(f'{where}: say regex {rx!r}: {e}')
        for rx in s['not'] if isinstance(s['not'], list) else [None]:
            try:
                re.compile(rx, re.I)
            except (re.error, TypeError) as e:
                errs.append(f'{where}: not regex {rx!r}: {e}')
    return errs


def main():
    head, *rest = [l.rstrip('\n').split('\t') for l in open(sys.argv[1], encoding='utf-8')]
    index = [dict(zip(head, r)) for r in rest]
    bad = 0
    for path in sys.argv[2:]:
        errs = check(index, path)
        for e in errs:
            print(e)
        bad += len(errs)
        print(f'{path}: {"ok" if not errs else f"{len(errs)} errors"}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
