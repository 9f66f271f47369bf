"""Scoring one draft of `warnwatch review --format=json` against one case's spec.

Pure functions over text: no warnwatch, no files.  tests/judge/README.md says what each
check is and why; tests/judge/selftest/ proves them."""
import collections, email, email.policy, re

# The call regex of the corpus method (human-reviews README, Method step 2).
CALL_RE = re.compile(r"(?<![A-Za-z0-9_])(BUG|BUG_ON|VM_BUG_ON\w*|WARN|WARN_ON|WARN_ON_ONCE|"
                     r"WARN_ONCE|WARN_ON_SMP|VM_WARN\w*|WARN_RATELIMIT|WARN_ON_RATELIMIT|"
                     r"DEBUG_WARN|panic|ASSERT|J_ASSERT\w*|f2fs_bug_on|xfs_assert)\s*\(")
# Macros that take exactly one argument, and those that take a condition and a format.
ONE_ARG = {"BUG_ON", "WARN_ON", "WARN_ON_ONCE", "WARN_ON_SMP", "VM_BUG_ON", "VM_WARN_ON",
           "VM_WARN_ON_ONCE", "BUILD_BUG_ON", "ASSERT"}
COND_FMT = {"WARN", "WARN_ONCE", "VM_WARN_ONCE", "WARN_RATELIMIT"}
# The placeholders of rules/advice.json (docs/review.md) and the template's own syntax.
PLACEHOLDER = re.compile(r"\{(macro|function|cond|ret|repl|arg|fs)(:[^}]*)?\}|\{\{|\}\}")
SENTENCE_START = r"(The|This|That|It|As|Any|One|When|If|Instead|Leave|Return|Use|Thanks)"
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "both": 2}
CREDIT_RE = re.compile(r"^Thanks for (removing|turning) the ")
DAMAGED_RE = re.compile(r"^Part of the patch did not arrive intact")


def squash(s):
    """Whitespace-insensitive form of a line: no whitespace at all."""
    return re.sub(r"\s+", "", s or "")


def flat(s):
    return re.sub(r"\s+", " ", s or "").strip()


# ---- the reply ----------------------------------------------------------------------

class Block:
    """One quote block of the reply and what warnwatch wrote under it."""

    def __init__(self, file=None):
        self.file = file    # the file of the patch it quotes (its '> +++ b/' line, or before)
        self.quote = []     # the quoted lines, '>' and all
        self.prose = []     # its own sentences (paragraphs, flattened)
        self.guide = []     # coding-style lines it quoted ('  | ' taken off)
        self.code = []      # rewrites: groups of code lines (TAB taken off)
        self.parts = []     # all of them as text, in the reply's order

    def added_lines(self):
        """The patch's added lines this block quotes ('+' lines, '> +' taken off)."""
        out = []
        for q in self.quote:
            m = re.match(r">\s?\+(?!\+\+)(.*)$", q)
            if m:
                out.append(m.group(1))
        return out

    def words(self):
        return flat(" ".join(self.parts))

    def has_words(self):
        return bool(self.prose or self.guide or self.code)


class Reply:
    def __init__(self, text):
        self.text = text or ""
        self.opening = ""
        self.opening_raw = []
        self.blocks = []
        self.credits = []
        self.tail = []        # paragraphs after the blocks that are not credits
        self.parse()

    def body(self):
        t = self.text
        if re.match(r"[A-Za-z-]+:", t):     # headers first, as review prints the mail
            i = t.find("\n\n")
            t = t[i + 2:] if i >= 0 else ""
        lines = t.split("\n")
        if "-- " in lines:
            lines = lines[:lines.index("-- ")]
        return lines

    def parse(self):
        lines = self.body()
        i = 0
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i < len(lines) and re.match(r"Hi\b.*,$", lines[i]):
            i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        while i < len(lines) and lines[i].strip() and not lines[i].startswith(">"):
            self.opening_raw.append(lines[i])
            i += 1
        self.opening = flat(" ".join(self.opening_raw))
        block, para, code = None, [], []

        def block_end():
            nonlocal block
            block = None

        def end_para():
            if para:
                text = flat(" ".join(para))
                if CREDIT_RE.match(text):
                    self.credits.append(text)
                    block_end()
                elif DAMAGED_RE.match(text):
                    self.tail.append(text)
                    block_end()
                elif block is not None:
                    block.prose.append(text)
                    block.parts.append(text)
                else:
                    self.tail.append(text)
                para.clear()

        def end_code():
            if code:
                if block is not None:
                    block.code.append(list(code))
                    block.parts.append(" ".join(code))
                else:
                    self.tail.append(flat(" ".join(code)))
                code.clear()

        prev_quote = False
        for line in lines[i:]:
            quote = line.startswith(">")
            if quote:
                end_para()
                end_code()
                if not prev_quote:
                    block = Block(self.blocks[-1].file if self.blocks else None)
                    self.blocks.append(block)
                m = re.match(r">\s?\+\+\+ (?:b/)?(\S+)", line)
                if m:
                    block.file = m.group(1)
                block.quote.append(line)
            prev_quote = quote
            if quote:
                continue
            if not line.strip():
                end_para()
                end_code()
            elif re.match(r"Thanks,\s*$", line):
                end_para()
                end_code()
                break
            elif line.startswith("\t"):
                end_para()
                code.append(line[1:])
            elif line.startswith("  | ") or line == "  |":
                end_para()
                if block is not None:
                    block.guide.append(line[4:])
                    block.parts.append(line[4:])
            else:
                end_code()
                para.append(line)
        end_para()
        end_code()

    def code_groups(self):
        return [g for b in self.blocks for g in b.code]

    def own_text(self):
        """Everything warnwatch wrote itself (no '>' lines)."""
        return flat(" ".join([self.opening] + [b.words() for b in self.blocks] +
                             self.credits + self.tail))


# ---- the patch ----------------------------------------------------------------------

def patch_text(raw):
    """The decoded text parts of a patch mail (quoted-printable, base64, charsets)."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    parts = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        if ctype.startswith("text/") or ctype == "application/octet-stream":
            try:
                parts.append(part.get_content())
            except (LookupError, ValueError, AssertionError):
                payload = part.get_payload(decode=True) or b""
                parts.append(payload.decode("utf-8", "replace"))
    return "\n".join(p if isinstance(p, str) else p.decode("utf-8", "replace") for p in parts)


class Patch:
    """The +/- lines of a patch mail, and the calls it moves."""

    def __init__(self, text):
        self.added, self.removed = [], []
        in_diff = False
        for line in text.split("\n"):
            if line.startswith("diff --git ") or line.startswith("--- "):
                in_diff = True
            if not in_diff or line.startswith("+++") or line.startswith("---"):
                continue
            if line.startswith("+"):
                self.added.append(line[1:])
            elif line.startswith("-"):
                self.removed.append(line[1:])
        self.n_added = collections.Counter(squash(x) for x in self.added if squash(x))
        self.n_removed = collections.Counter(squash(x) for x in self.removed if squash(x))
        # A call line the patch removes at least as often as it adds: every copy added is
        # one moved (or re-indented), none is new.
        self.moved = {x for x in self.n_added if CALL_RE.search(x) and
                      self.n_removed[x] >= self.n_added[x]}

    def added_calls(self, macro):
        """Added lines calling `macro` that are not moved lines."""
        pat = re.compile(r"(?<![A-Za-z0-9_])%s\s*\(" % re.escape(macro))
        n = 0
        for x, k in self.n_added.items():
            calls = len(pat.findall(x))
            if calls:
                n += calls * max(0, k - self.n_removed[x])
        return n

    def removed_count(self, macro):
        """Calls of `macro` on removed lines, moved or not."""
        pat = re.compile(r"(?<![A-Za-z0-9_])%s\s*\(" % re.escape(macro))
        return sum(len(pat.findall(x)) * k for x, k in self.n_removed.items())

    def removed_calls(self, macro):
        """Removed lines calling `macro` that the patch does not add back as often."""
        pat = re.compile(r"(?<![A-Za-z0-9_])%s\s*\(" % re.escape(macro))
        return [x for x, k in self.n_removed.items() if pat.search(x) and k > self.n_added[x]]


# ---- checks every draft gets ----------------------------------------------------------

def removes_said(first, macro):
    """How many calls of `macro` the opening's first clause says the patch removes."""
    n = len(re.findall(r"\bremoves (?:the|a) %s\(\)" % re.escape(macro), first))
    m = re.search(r"\bremoves (\w+) of the same calls", first)
    if m:
        n += NUMBERS.get(m.group(1).lower()) or (int(m.group(1)) if m.group(1).isdigit() else 0)
    return n


def claim(check, detail):
    return {"check": check, "detail": detail}


def call_args(code, start):
    """The top-level arguments of the call whose '(' is at code[start]; None if unclosed."""
    depth, args, cur, i = 0, [], "", start
    while i < len(code):
        ch = code[i]
        if ch in "\"'":
            j = i + 1
            while j < len(code) and code[j] != ch:
                j += 2 if code[j] == "\\" else 1
            cur += code[i:j + 1]
            i = j + 1
            continue
        if ch in "([{":
            depth += 1
            if depth == 1:
                i += 1
                continue
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return [a for a in (x.strip() for x in args)] if any(
                    a.strip() for a in args) or len(args) > 1 else []
        elif ch == "," and depth == 1:
            args.append(cur)
            cur = ""
            i += 1
            continue
        cur += ch
        i += 1
    return None


def rewrite_records(reply, calls):
    """Per JSON record with a rewrite: shown in the reply or not, and the code groups of the
    reply that no record accounts for."""
    groups = [squash("".join(g)) for g in reply.code_groups()]
    used = set()
    recs = []
    for c in calls:
        rw = c.get("rewrite")
        if not rw:
            continue
        key = squash(rw)
        shown = False
        for k, g in enumerate(groups):
            if key and (g == key or key in g):
                shown = True
                used.add(k)
        recs.append((c, shown))
    orphans = [reply.code_groups()[k] for k in range(len(groups)) if k not in used]
    return recs, orphans


def generic_checks(reply, calls, patch):
    """False claims any draft can make, whatever the case (tests/judge/README.md)."""
    out = []
    if reply is None or not reply.text:
        return out
    opening = reply.opening
    groups = reply.code_groups()
    # An opening that promises rewrites the body does not hold.
    if re.search(r"rewrites? (is |are )?(shown )?below|gets? its rewrite", opening, re.I):
        # "one point covers all three, ..., and each gets its rewrite below": three.
        m = re.search(r"covers (both|all (\w+))", opening)
        want = 1
        if m and re.search(r"\beach gets its rewrite", opening):
            want = 2 if m.group(1) == "both" else NUMBERS.get(m.group(2)) or \
                (int(m.group(2)) if m.group(2).isdigit() else 1)
        if len(groups) < want:
            out.append(claim("promised-rewrite", "the opening promises %s; %d shown" % (
                "a rewrite for each of %d calls" % want if want > 1 else "rewrites",
                len(groups))))
    # "comments inline" above no comment.
    if re.search(r"comments inline|see the notes? inline", opening) and \
            not any(b.has_words() for b in reply.blocks):
        out.append(claim("promised-comments", "the opening says comments follow inline; "
                         "no quote has a comment under it"))
    if re.search(r"found nothing to comment on", reply.own_text()) and \
            any(b.has_words() for b in reply.blocks):
        out.append(claim("nothing-to-comment", "says it found nothing to comment on above "
                         "a comment"))
    # Rewrites shown without having compiled.
    recs, orphans = rewrite_records(reply, calls)
    for c, shown in recs:
        if shown and c.get("compiled") is not True:
            out.append(claim("uncompiled-rewrite", "the rewrite of %s at %s:%s is shown with "
                             "\"compiled\": %s" % (c.get("macro"), c.get("file"), c.get("line"),
                                                   str(c.get("compiled")).lower()
                                                   if c.get("compiled") is not None else "null")))
    for g in orphans:
        out.append(claim("unaccounted-rewrite", "code shown that no JSON record offers, so "
                         "not known to compile: %s" % flat(" ".join(g))[:120]))
    # A rewrite calling a macro with the wrong number of arguments.
    for g in groups:
        code = "\n".join(g)
        for m in re.finditer(r"(?<![A-Za-z0-9_])([A-Z_][A-Z0-9_]*)\s*\(", code):
            name = m.group(1)
            if name not in ONE_ARG and name not in COND_FMT:
                continue
            args = call_args(code, m.end() - 1)
            if args is None:
                continue
            if name in ONE_ARG and len(args) != 1 or name in COND_FMT and len(args) < 2:
                out.append(claim("rewrite-arity", "%s() takes %s argument%s; the rewrite "
                                 "passes %d" % (name, "one" if name in ONE_ARG else "a "
                                                "condition and a format", "" if name in
                                                ONE_ARG else "s", len(args))))
    # Moved calls: called new, or thanked as removed.
    if patch is not None:
        first = re.split(r"[;:]\s|\.\s", opening)[0]
        adds = re.search(r"\badds\b(.*)", first)
        said_added = set(re.findall(r"(\w+)\(\)", adds.group(1))) if adds else set()
        for b in reply.blocks:
            for line in b.added_lines():
                m = CALL_RE.search(line)
                if squash(line) in patch.moved and b.has_words() and m and \
                        m.group(1) in said_added:
                    out.append(claim("moved-call-new", "says the patch adds the %s() it only "
                                     "moves, and comments on it: %s" % (m.group(1), flat(line))))
        for text in reply.credits:
            m = re.match(r"Thanks for (removing|turning) the (\w+)\(\)", text)
            if m:
                gone = patch.removed_calls(m.group(2))
                if not gone:
                    out.append(claim("moved-call-removed", "\"%s\": every %s() the patch "
                                     "removes, it adds back" % (text[:80], m.group(2))))
        # The opening's count of added calls.
        # Its first clause: "This patch adds a BUG_ON() and two WARN_ON() calls to f()".
        for m in re.finditer(r"\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+) "
                             r"(?:new )?([A-Za-z_][A-Za-z0-9_]*)\(\)( calls)?", first):
            if not adds or m.start() < adds.start(1):
                continue
            said = NUMBERS.get(m.group(1).lower()) or (int(m.group(1)) if m.group(1).isdigit()
                                                       else 0)
            # "... and removes the BUG() in f()": the count is of added lines, the
            # removal it names nets it (when the patch does remove one).
            have = patch.added_calls(m.group(2)) + \
                min(removes_said(first, m.group(2)), patch.removed_count(m.group(2)))
            if said > have:
                out.append(claim("opening-count", "the opening says it adds %s %s(); the patch "
                                 "adds %d that it does not move" % (m.group(1), m.group(2), have)))
    # Sentences a template left broken.
    prose = [reply.opening] + [p for b in reply.blocks for p in b.prose] + reply.credits + \
        reply.tail
    code = ["\n".join(g) for g in groups]
    for t in prose + code:
        m = PLACEHOLDER.search(t)
        if m:
            out.append(claim("placeholder", "an unfilled placeholder %s: %s" %
                             (m.group(0), flat(t)[:100])))
        if "(null)" in t:
            out.append(claim("placeholder", "a null string printed: %s" % flat(t)[:100]))
    for t in prose:
        checks = [
            ("empty-name", r"(?<![\w)\]])\(\)", "an empty name before ()"),
            ("sentence-joined", r"(?<=[a-z\)])[.!?](?=[A-Z][a-z])",
             "two sentences joined without a space"),
            ("sentence-no-stop", r"[a-z)] %s [a-z]" % SENTENCE_START,
             "two sentences joined without a full stop"),
            ("punctuation", r"(?<!\.)\.\.(?!\.)|[,;:]\.|\s[.,;:](\s|$)", "broken punctuation"),
        ]
        for check, pat, what in checks:
            m = re.search(pat, t)
            if m:
                out.append(claim(check, "%s: ...%s..." %
                                 (what, t[max(0, m.start() - 40):m.end() + 30])))
        if t and not re.search(r"[.:!?][\"')`]*$", t):
            out.append(claim("sentence-unended", "a paragraph without a full stop: ...%s" %
                             t[-60:]))
    return out


# ---- one case -------------------------------------------------------------------------

def call_blocks(reply, call, file=None):
    """The quote blocks whose '+' lines hold the case's call (whitespace-insensitive): the
    same line exactly, else a line holding it or held by it; only those of `file` (the
    index's `+++` path) when some are.  Two hunks of one file adding the same line cannot
    be told apart: both blocks count."""
    key = squash(call)
    found = [b for b in reply.blocks if any(squash(x) == key for x in b.added_lines())]
    if not found and key:
        found = [b for b in reply.blocks
                 if any(key in squash(x) or (squash(x) and squash(x) in key and
                                             CALL_RE.search(x)) for x in b.added_lines())]
    if file:
        path = re.sub(r"^b/", "", file.strip())
        same = [b for b in found if b.file == path]
        if same:
            found = same
    return found


def covered_by_opening(reply):
    """The opening makes one point for every call ("one point covers all three")."""
    return bool(re.search(r"one point covers", reply.opening))


def covering_words(reply, call):
    """The words of the first block with words that quotes an added call of `call`'s macro,
    else of the first block with words: where an opening's "one point covers all N, made at
    the first" makes its point (a BUG() covered by the point made at a BUG_ON())."""
    m = CALL_RE.search(call)
    if not m:
        return ""
    pat = re.compile(r"(?<![A-Za-z0-9_])%s\s*\(" % re.escape(m.group(1)))
    for b in reply.blocks:
        if b.has_words() and any(pat.search(x) for x in b.added_lines()):
            return b.words()
    for b in reply.blocks:
        if b.has_words():
            return b.words()
    return ""


def score_case(spec, draft, patch, lookup=None):
    """The outcome of one case: spec (JUDGE-SPEC.md), draft (review's JSON, or None when it
    could not be drafted), patch (a Patch, or None).  Returns a dict (README: report.json)."""
    res = {"drafted": False, "commented": False, "quoted": False, "outcome": None,
           "say": [], "not": [], "false_claims": [], "words": "", "rewrites": []}
    calls = (draft or {}).get("calls") or []
    text = (draft or {}).get("reply")
    reply = Reply(text) if text else None
    res["drafted"] = reply is not None
    blocks = call_blocks(reply, spec["call"], spec.get("file")) if reply else []
    res["quoted"] = bool(blocks)
    commented = any(b.has_words() for b in blocks) or (bool(blocks) and covered_by_opening(reply))
    res["commented"] = commented
    res["objected_any"] = bool(reply) and (any(b.has_words() for b in reply.blocks))
    said = [b.words() for b in blocks]
    if commented and not any(b.has_words() for b in blocks):
        # "one point covers all three, made at the first": that point is made for this
        # call too, in the first block quoting a call of the same macro.
        said = [covering_words(reply, spec["call"])]
    words = flat(" ".join([reply.opening] + said)) if commented else ""
    res["words"] = words
    for group in spec.get("say", []):
        res["say"].append(any(re.search(p, words, re.I) for p in group))
    if commented:
        for p in spec.get("not", []):
            m = re.search(p, words, re.I)
            if m:
                res["not"].append(p)
                res["false_claims"].append(claim("spec-not", "says %r (the spec: %s)" %
                                                 (m.group(0), p)))
    if reply:
        res["false_claims"].extend(generic_checks(reply, calls, patch))
    if spec["expect"] == "point":
        if not commented:
            res["outcome"] = "silent"
        elif all(res["say"]):
            res["outcome"] = "made"
        else:
            res["outcome"] = "missed"
    else:
        res["outcome"] = "objected" if commented else "kept-silent"
    # The rewrites of the draft, for the rewrite figures.
    recs, _ = rewrite_records(reply, calls) if reply else ([], [])
    for c, shown in recs:
        body = lookup(c.get("file"), c.get("function")) if lookup else None
        res["rewrites"].append(rewrite_facts(c, shown, body))
    # A consistency check of the scorer itself: review's JSON names the case's call and a
    # reply quotes it, but no quote block holding it was found.
    key = squash(spec["call"])
    res["json_has_call"] = any(squash(c.get("added", "")) == key for c in calls)
    res["scorer_lost_call"] = bool(reply) and res["json_has_call"] and not blocks and \
        any(key and key in squash(q) for b in reply.blocks for q in b.quote)
    return res


def rewrite_facts(c, shown, body=None):
    """What can be checked of one rewrite: shown, compiled, whether it holds the exit the
    JSON says it took (`exit`), and, given the body of the call's function in the base tree,
    whether its goto labels and errnos are that function's own."""
    rw = c.get("rewrite") or ""
    exit_ = c.get("exit")
    leaves = bool(re.search(r"\b(return|goto)\b", rw))
    if exit_:
        errno_free = lambda s: re.sub(r"-E[A-Z0-9]+", "-E*", squash(s))  # noqa: E731
        ex = exit_ if isinstance(exit_, str) else " ".join(str(v) for v in (
            exit_.values() if isinstance(exit_, dict) else exit_))
        mirrors = errno_free(ex) in errno_free(rw) or all(
            errno_free(part) in errno_free(rw) for part in re.split(r"(?<=;)", ex) if part.strip())
        mirror = "yes" if mirrors else "no"
    else:
        mirror = "no-exit-fact-leaves" if leaves else "stays"
    own = {"labels": None, "errnos": None}
    if body is not None:
        labels = re.findall(r"\bgoto\s+(\w+)\s*;", rw)
        errnos = set(re.findall(r"-E[A-Z0-9]+\b", rw))
        if labels:
            own["labels"] = all(re.search(r"(?m)^\s*%s:" % re.escape(x), body) for x in labels)
        if errnos:
            own["errnos"] = all(re.search(re.escape(e) + r"\b", body) for e in errnos)
    return {"file": c.get("file"), "line": c.get("line"), "macro": c.get("macro"),
            "function": c.get("function"), "shown": shown, "compiled": c.get("compiled"),
            "compile": c.get("compile"), "exit": exit_, "leaves": leaves, "mirror": mirror,
            "base_function_found": body is not None, "own_labels": own["labels"],
            "own_errnos": own["errnos"], "rewrite": rw}


def function_body(text, name):
    """The text of function `name`'s definition in a C file: from the line at column 0
    that names it (not a prototype) to the next line that is a lone '}'.  None if absent."""
    if not name:
        return None
    lines = text.split("\n")
    pat = re.compile(r"^[A-Za-z_].*(?<![A-Za-z0-9_])%s\s*\(" % re.escape(name))
    for i, line in enumerate(lines):
        if not pat.match(line) or line.rstrip().endswith(";"):
            continue
        for j in range(i + 1, min(len(lines), i + 3000)):
            if lines[j].rstrip().endswith(";") and j <= i + 8 and "{" not in "".join(lines[i:j + 1]):
                break           # a prototype over several lines
            if lines[j].rstrip() == "}":
                return "\n".join(lines[i:j + 1])
    return None
