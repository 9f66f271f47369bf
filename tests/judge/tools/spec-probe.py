#!/usr/bin/env python3
"""Probe spec regexes with hand-written text, never with warnwatch's drafts.

For each point spec: a right reply written from the reviewer's words
(POSITIVES.json, {"<list>/<NNNN>": ["text", ...]}) must meet every say group
and no 'not' regex; and it reports which generic paragraphs (advice that does
not depend on the case) meet the spec, so a spec that a boilerplate paragraph
satisfies can be checked by eye: it is fine only where that advice IS the
reviewer's point (a BUG_ON the reviewer wants downgraded, a WARN_ON he wants
_ONCE).

Usage: spec-probe.py POSITIVES.json SPECS.jsonl...   (exit 1 on a miss)
"""
import json, re, sys

GENERIC = {
    'once': "WARN_ON_ONCE() is preferred to WARN_ON(): a condition that fires once will fire again, and the log fills with repeated stack traces.",
    'bug': "BUG_ON() takes the whole machine down; prefer WARN_ON_ONCE() and recover: return an error to the caller.",
    'panic-on-warn': "With panic_on_warn set, a WARN is a crash too, so the condition must never be reachable; a WARN documents a kernel bug.",
    'handle': "If this condition can happen, handle it: the code after the warning carries on as if nothing happened.",
    'assert-off': "ASSERT() is compiled out without CONFIG_BTRFS_ASSERT, so on production kernels the check does nothing.",
    'describe': "This patch adds a WARN_ON_ONCE(); it fires when the condition is true and prints a stack trace. Consider whether the condition is a kernel bug.",
    'user': "A WARN that user space can trigger is a denial of service on panic_on_warn machines; return an error instead of warning.",
}


def meets(spec, text):
    return all(any(re.search(r, text, re.I) for r in g) for g in spec['say'])


def main():
    pos = json.load(open(sys.argv[1], encoding='utf-8'))
    bad = 0
    for path in sys.argv[2:]:
        for line in open(path, encoding='utf-8'):
            s = json.loads(line)
            if s['expect'] != 'point':
                continue
            texts = pos.get(s['id'], [])
            if not texts:
                print(f"{s['id']}: no positive text")
                bad += 1
            for t in texts:
                if not meets(s, t):
                    print(f"{s['id']}: a right reply misses a say group: {t[:70]}")
                    bad += 1
                hit = [r for r in s['not'] if re.search(r, t, re.I)]
                if hit:
                    print(f"{s['id']}: a right reply hits not {hit}")
                    bad += 1
            gen = [k for k, t in GENERIC.items() if meets(s, t)]
            if gen:
                print(f"{s['id']} ({s['tag']}): generic paragraph(s) meet it: {', '.join(gen)}")
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
