#!/usr/bin/env python3
"""match-verdict.py EXPECTED.json VERDICT.json: does `warnwatch ci`'s JSON
verdict match a case's expectations (rules in tests/kernel/README.md)?
Prints one "#   " line per mismatch; exit status 0 when it matches, 1 not.
Used by tests/e2e/t0210-ci-kernel.sh and t0214-ci-git-base.sh."""
import json, sys

want = json.load(open(sys.argv[1]))
try:
    got = json.load(open(sys.argv[2]))
except Exception as e:
    print("# verdict is not JSON: %s" % e); sys.exit(1)
bad = []
def value_matches(v, g):
    # ">0": a positive count (calls[].reached)
    if isinstance(v, str) and v.startswith(">") and isinstance(g, int) and not isinstance(g, bool):
        return g > int(v[1:])
    return g == v
def entry_matches(w, g):
    return all(value_matches(v, g.get(k)) for k, v in w.items())
for k, v in want.items():
    if k.endswith("_contains"):
        # build_error_contains, base_why_contains, reason_contains...
        field = k[:-len("_contains")]
        if v not in (got.get(field) or ""):
            bad.append("%s %r lacks %r" % (field, got.get(field), v))
    elif k.endswith("_lacks"):
        field = k[:-len("_lacks")]
        for s in v:
            if s in (got.get(field) or ""):
                bad.append("%s %r has %r" % (field, got.get(field), s))
    elif k == "enabled_suites_include":
        for s in v:
            if s not in got.get("enabled_suites", []):
                bad.append("suite %r not enabled (enabled: %s)" % (s, got.get("enabled_suites")))
    elif isinstance(v, list):
        if v == [] and got.get(k):
            bad.append("%s: want none, got %s" % (k, json.dumps(got.get(k))[:300]))
        for w in v:
            if not any(entry_matches(w, g) for g in got.get(k) or []):
                bad.append("%s: no entry like %s in %s" % (k, json.dumps(w), json.dumps(got.get(k))[:600]))
    elif isinstance(v, dict):
        g = got.get(k) or {}
        for kk, vv in v.items():
            if g.get(kk) != vv:
                bad.append("%s.%s: want %r, got %r" % (k, kk, vv, g.get(kk)))
    elif got.get(k) != v:
        bad.append("%s: want %r, got %r" % (k, v, got.get(k)))
for b in bad:
    print("#   " + b)
sys.exit(1 if bad else 0)
