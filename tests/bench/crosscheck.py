#!/usr/bin/env python3
"""An independent reading of a `diff -ruN OLD NEW` for the BUG/WARN calls it
adds and removes, to check `warnwatch check` against.

It shares no code and no method with warnwatch's C scanner: instead of
scanning each hunk on its own (which is all warnwatch has when it reads a
mail), it tokenizes the *whole* old and new files, so comments, strings and
#define bodies are known exactly, and then keeps the calls whose macro name
sits on a line the diff removes (old file) or adds (new file).

    crosscheck.py OLD_DIR NEW_DIR DIFF RULES_DIR WARNWATCH_JSON

Prints the counts, every difference, and exits 1 if there is any.
"""
import fnmatch
import glob
import json
import os
import re
import sys


def load_rules(rules_dir):
    macros, scan, skip = {}, ["*.c", "*.h"], []
    for path in sorted(glob.glob(os.path.join(rules_dir, "*.json"))):
        doc = json.load(open(path))
        for fam in doc.get("families", []):
            for m in fam["macros"]:
                macros[m if isinstance(m, str) else m["name"]] = fam["class"]
        paths = doc.get("paths")
        if paths:
            scan, skip = paths.get("scan", scan), paths.get("skip", skip)
    return macros, scan, skip


def scanned(path, scan, skip):
    if any(fnmatch.fnmatch(path, g) for g in skip):
        return False
    return any(fnmatch.fnmatch(path, g) for g in scan)


IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def calls(text, macros):
    """(line, macro) of every call of a family macro in C source `text`,
    outside comments, string/char literals and preprocessor directives
    (a #define body is a definition, not a call)."""
    out = []
    i, n, line = 0, len(text), 1
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                # a backslash-newline continues a // comment
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    line += 1
                    i += 1
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            continue
        if c == "#" and at_line_start:
            # A directive runs to the end of its logical line; comments
            # inside it may span lines.
            while i < n and text[i] != "\n":
                if text.startswith("/*", i):
                    end = text.find("*/", i + 2)
                    end = n if end < 0 else end + 2
                    line += text.count("\n", i, end)
                    i = end
                    continue
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    line += 1
                    i += 2
                    continue
                if text[i] == "\\" and text.startswith("\\\r\n", i):
                    line += 1
                    i += 3
                    continue
                i += 1
            continue
        at_line_start = False
        if c in "\"'":
            i += 1
            while i < n and text[i] != c and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n:
                    if text[i + 1] == "\n":
                        line += 1
                    i += 1
                i += 1
            i += 1
            continue
        m = IDENT.match(text, i)
        if m:
            name = m.group(0)
            j = m.end()
            if name in macros:
                k = j
                while k < n and text[k] in " \t\n\r":
                    k += 1
                prev = text[:i].rstrip()[-2:]
                member = prev.endswith(".") or prev.endswith("->")
                if k < n and text[k] == "(" and not member:
                    out.append((line, name))
            i = j
            continue
        if c.isdigit():
            m = re.compile(r"[0-9A-Za-z_.]+").match(text, i)
            i = m.end()
            continue
        i += 1
    return out


def changed_lines(diff_path):
    """{path: (removed old line numbers, added new line numbers)} of a diff -ruN."""
    files = {}
    cur = None
    old = new = 0
    left_old = left_new = 0
    for raw in open(diff_path, encoding="utf-8", errors="surrogateescape"):
        l = raw.rstrip("\n")
        if left_old or left_new:
            tag = l[:1]
            if tag == "-":
                cur[0].add(old)
                old += 1
                left_old -= 1
            elif tag == "+":
                cur[1].add(new)
                new += 1
                left_new -= 1
            elif tag in (" ", ""):
                old += 1
                new += 1
                left_old -= 1
                left_new -= 1
            continue
        if l.startswith("+++ "):
            path = l[4:].split("\t")[0]
            path = path.split("/", 1)[1]          # -p1
            cur = files.setdefault(path, (set(), set()))
            continue
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", l)
        if m and cur is not None:
            old, left_old = int(m.group(1)), int(m.group(2) or 1)
            new, left_new = int(m.group(3)), int(m.group(4) or 1)
    return files


def main():
    old_dir, new_dir, diff_path, rules_dir, json_path = sys.argv[1:6]
    macros, scan, skip = load_rules(rules_dir)
    want = set()
    for path, (removed, added) in changed_lines(diff_path).items():
        if not scanned(path, scan, skip):
            continue
        for root, kind, lines in ((old_dir, "removed", removed), (new_dir, "added", added)):
            full = os.path.join(root, path)
            if not lines or not os.path.exists(full):
                continue
            text = open(full, encoding="utf-8", errors="surrogateescape").read()
            for line, name in calls(text, macros):
                if line in lines:
                    want.add((kind, path, line, name))

    doc = json.load(open(json_path))
    got = set()
    defines = 0
    for f in doc["findings"]:
        if f["kind"] == "define":
            defines += 1
            continue
        got.add((f["kind"], f["file"], f["line"], f["macro"]))

    def count(s, kind):
        return sum(1 for x in s if x[0] == kind)

    print("independent reading: %d added, %d removed calls" % (count(want, "added"), count(want, "removed")))
    print("warnwatch:           %d added, %d removed calls (+%d wrapper definitions)" %
          (count(got, "added"), count(got, "removed"), defines))
    missing, extra = sorted(want - got), sorted(got - want)
    for k, p, l, m in missing:
        print("  only in the independent reading: %s %s:%d %s()" % (k, p, l, m))
    for k, p, l, m in extra:
        print("  only in warnwatch:               %s %s:%d %s()" % (k, p, l, m))
    print("differences: %d" % (len(missing) + len(extra)))
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
