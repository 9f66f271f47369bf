#!/usr/bin/env python3
"""Is warnwatch's output free of lines a series put there?

hostile-text-check.py reply FILE   a drafted reply (headers, blank line, body)
hostile-text-check.py lines FILE   check's text, gcc or b4 output

Fails (exit 1, the reason on stdout) when a line outside the "> " quotes
carries a control character other than TAB, when a line is one that b4
would take for a trailer (b4's own find_trailers(), as `b4 am` reads a
follow-up; b4's regex by hand for check's output), or when the bait
appears at the start of a line."""
import re
import sys

sys.path.insert(0, "/usr/lib/python3/dist-packages")
BAIT = "Reviewed-by: warnwatch <bot@example.org>"
TRAILER = re.compile(r"^\s*(\w\S+):\s+(\S.*)", re.I)
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\x80-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def fail(why):
    print(why)
    sys.exit(1)


def check_lines(lines, quoted_ok):
    for n, line in enumerate(lines, 1):
        if CONTROL.search(line):
            fail(f"line {n} holds a control character: {line!r}")
        if quoted_ok and line.startswith(">"):
            continue
        if line.lstrip().startswith(BAIT.split(":")[0] + ":"):
            fail(f"line {n} starts with the bait: {line!r}")
        if TRAILER.match(line) and "@" in line:
            fail(f"line {n} is trailer-shaped: {line!r}")


mode, path = sys.argv[1], sys.argv[2]
text = open(path, "rb").read().decode("utf-8")
if "\r" in text:
    fail("a CR in the output")
if mode == "reply":
    body = text.split("\n\n", 1)[1]
    check_lines(body.rsplit("\n-- \n", 1)[0].split("\n"), True)
    try:
        import b4
        trailers, _ = b4.LoreMessage.find_trailers(body, followup=True)
    except ImportError:
        trailers = []
    if trailers:
        fail(f"b4 finds trailers in the reply: {trailers!r}")
else:
    check_lines(text.split("\n"), False)
