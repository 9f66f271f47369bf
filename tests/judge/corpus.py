"""The judge corpus as stored in tests/judge/: index.tsv, mail/<list>.tar.xz, the specs.

Shared by tests/judge/import (which writes it) and tests/judge/run (which reads it)."""
import email, email.policy, json, os, re, tarfile

COLUMNS = ["id", "class", "patch_message_id", "reply_message_id", "quoted_added_line",
           "reviewer_point", "tag", "year", "file"]
# Held out for evaluation (JUDGE-SPEC.md): never imported, and no thread cross-posted to
# them either.
HELD_OUT = ["linux-ext4", "cgroups", "kvm", "bpf", "linux-scsi", "linux-pm"]
_HELD_ADDR = re.compile(r"(?<![\w.-])(%s)(@|\.vger\.kernel\.org)" %
                        "|".join(re.escape(x) for x in HELD_OUT), re.I)
TAGS = {"reachable", "corruption", "recover", "downgrade", "once", "redundant", "drop",
        "condition", "debug-only", "upgrade", "log-instead", "lockdep", "side-effect",
        "placement", "style", "accepted", "accepted-bug", "other", "silent-accept"}
NEEDS = ["diff", "tree", "boot", "human"]


def held_out(lst):
    return lst.lower() in HELD_OUT


def mail_held_out(raw):
    """The held-out lists a mail's To/Cc/List-Id/X-Mailing-List/Delivered-To name."""
    end = raw.find(b"\n\n")
    head = raw[:end if end >= 0 else len(raw)].decode("utf-8", "replace")
    m = email.message_from_string(head + "\n\n", policy=email.policy.compat32)
    text = " ".join(str(m.get_all(k) or "") for k in
                    ("To", "Cc", "List-Id", "X-Mailing-List", "Delivered-To"))
    return sorted({x.lower() for x, _ in _HELD_ADDR.findall(text)})


def id_key(case_id):
    lst, num = case_id.split("/", 1)
    return (lst, int(num) if num.isdigit() else 0, num)


def list_of(case_id):
    return case_id.split("/", 1)[0]


def index_files(top):
    """tests/judge/index.tsv and any index-*.tsv beside it.  Only import reads the others:
    a miner may commit a list unpacked with an index of its own (index-mined.tsv), which
    import packs and moves into index.tsv; the runner reads index.tsv alone."""
    return [os.path.join(top, n) for n in sorted(os.listdir(top))
            if n == "index.tsv" or re.fullmatch(r"index-[\w.-]+\.tsv", n)]


def load_index(top, paths=None):
    """The rows of top/index.tsv (or of paths), in id order: [{column: value}].  An id in
    two files is an error."""
    rows, seen = [], {}
    for path in paths or [os.path.join(top, "index.tsv")]:
        with open(path, encoding="utf-8", newline="") as f:
            lines = f.read().split("\n")
        if lines[0].split("\t") != COLUMNS:
            raise ValueError("%s: the columns are not %s" % (path, " ".join(COLUMNS)))
        for n, line in enumerate(lines[1:], 2):
            if not line:
                continue
            cells = line.split("\t")
            if len(cells) != len(COLUMNS):
                raise ValueError("%s:%d: %d columns" % (path, n, len(cells)))
            r = dict(zip(COLUMNS, cells))
            if r["id"] in seen:
                raise ValueError("%s:%d: %s is in %s too" % (path, n, r["id"], seen[r["id"]]))
            seen[r["id"]] = os.path.basename(path)
            rows.append(r)
    rows.sort(key=lambda r: id_key(r["id"]))
    return rows


def unpack(mail_dir, lists, dest):
    """Each list's mails under dest/<list>/, unpacked from mail/<list>.tar.xz (only regular
    members named <list>/NNNN.patch.eml and NNNN.reply.eml; anything else is an error).
    Returns {list: number of files}."""
    name_ok = re.compile(r"[0-9]{4,}\.(patch|reply)\.eml")
    counts = {}
    for lst in lists:
        out = os.path.join(dest, lst)
        os.makedirs(out, exist_ok=True)
        n = 0
        plain = os.path.join(mail_dir, lst)
        with tarfile.open(plain + ".tar.xz", "r:xz") as tar:
            for ti in tar:
                head, _, base = ti.name.partition("/")
                if not ti.isfile() or head != lst or not name_ok.fullmatch(base):
                    raise ValueError("%s.tar.xz: unexpected member '%s'" % (lst, ti.name))
                with tar.extractfile(ti) as src, open(os.path.join(out, base), "wb") as dst:
                    dst.write(src.read())
                n += 1
        counts[lst] = n
    return counts


def load_specs(spec_dir, index_ids):
    """Every tests/judge/specs/*.jsonl: ({id: spec}, [problems], [ids not in the index]).
    A problem is a line that breaks JUDGE-SPEC.md's format; it makes the run fail."""
    specs, problems, unknown = {}, [], []
    if not os.path.isdir(spec_dir):
        return specs, problems, unknown
    for name in sorted(os.listdir(spec_dir)):
        if not name.endswith(".jsonl"):
            continue
        lst = name[:-len(".jsonl")]
        path = os.path.join(spec_dir, name)
        last = None
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                where = "%s:%d" % (os.path.join("specs", name), n)
                try:
                    s = json.loads(line)
                except ValueError as e:
                    problems.append("%s: not JSON (%s)" % (where, e))
                    continue
                msg = check_spec(s, lst)
                if msg:
                    problems.append("%s: %s" % (where, msg))
                    continue
                if s["id"] in specs:
                    problems.append("%s: %s specified twice" % (where, s["id"]))
                    continue
                if last and id_key(s["id"]) < id_key(last):
                    problems.append("%s: %s after %s (not in id order)" % (where, s["id"], last))
                last = s["id"]
                if s["id"] not in index_ids:
                    unknown.append(s["id"])
                    continue
                specs[s["id"]] = s
    return specs, problems, unknown


def check_spec(s, lst):
    """What is wrong with one spec line (None: nothing)."""
    if not isinstance(s, dict):
        return "not an object"
    for k in ("id", "class", "tag", "call", "expect", "needs", "why"):
        if not isinstance(s.get(k), str):
            return "'%s' missing or not a string" % k
    extra = set(s) - {"id", "class", "tag", "call", "expect", "say", "not", "needs", "why"}
    if extra:
        return "unknown keys %s" % ", ".join(sorted(extra))
    if list_of(s["id"]) != lst:
        return "%s is not a case of %s" % (s["id"], lst)
    if s["class"] not in ("point", "control"):
        return "class '%s'" % s["class"]
    if s["tag"] not in TAGS:
        return "tag '%s' is not in the vocabulary" % s["tag"]
    if s["expect"] not in ("point", "silent"):
        return "expect '%s'" % s["expect"]
    if s["class"] == "control" and s["expect"] != "silent":
        return "a control must expect silent"
    if s["needs"] not in NEEDS:
        return "needs '%s'" % s["needs"]
    say = s.get("say", [])
    if not isinstance(say, list) or not all(
            isinstance(g, list) and g and all(isinstance(p, str) for p in g) for g in say):
        return "'say' is not a list of non-empty lists of regexes"
    if s["expect"] == "point" and not say:
        return "expect point without 'say'"
    nots = s.get("not", [])
    if not isinstance(nots, list) or not all(isinstance(p, str) for p in nots):
        return "'not' is not a list of regexes"
    for p in [p for g in say for p in g] + nots:
        try:
            re.compile(p, re.I)
        except re.error as e:
            return "regex %r: %s" % (p, e)
    return None
