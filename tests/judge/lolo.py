"""Leave-one-list-out: a copy of rules/ without the entries written while looking at a list.

Any JSON object anywhere in rules/*.json may carry "from": [lists] (JUDGE-SPEC.md): an
advice entry or a filesystem of advice.json's "review", a family of core.json, mm.json or
subsystems.json or one of its macros, an ignore entry, a path override, ... .  Rather than
name those places (and miss the next one), the whole document is walked: every object
whose "from" holds the list is taken out of the array or object that holds it.  Files
without such an entry are copied byte for byte, so a list whose copy is unchanged is
known to score as with all rules."""
import hashlib, json, os, shutil


class RulesError(Exception):
    pass


_GONE = object()


def _prune(node, lst, where, removed):
    if isinstance(node, dict):
        if "from" in node:
            frm = node["from"]
            if not isinstance(frm, list) or not all(isinstance(x, str) and x for x in frm):
                raise RulesError("%s: \"from\" is not a list of list names" % where)
            if lst in frm:
                removed.append({"where": where, "id": node.get("id") or node.get("name") or
                                node.get("pattern") or node.get("path")})
                return _GONE
        out, changed = {}, False
        for k, v in node.items():
            nv = _prune(v, lst, "%s.%s" % (where, k), removed)
            if nv is _GONE:
                changed = True
                continue
            changed |= nv is not v
            out[k] = nv
        return out if changed else node
    if isinstance(node, list):
        out, changed = [], False
        for i, v in enumerate(node):
            nv = _prune(v, lst, "%s[%d]" % (where, i), removed)
            if nv is _GONE:
                changed = True
                continue
            changed |= nv is not v
            out.append(nv)
        return out if changed else node
    return node


def lists_named(rules_dir):
    """Every list any "from" in rules_dir names."""
    names = set()

    def walk(n):
        if isinstance(n, dict):
            if isinstance(n.get("from"), list):
                names.update(x for x in n["from"] if isinstance(x, str))
            for v in n.values():
                walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)
    for name in sorted(os.listdir(rules_dir)):
        if name.endswith(".json"):
            with open(os.path.join(rules_dir, name), encoding="utf-8") as f:
                walk(json.load(f))
    return names


def filter_rules(src, dst, lst):
    """Write src's rules into dst (made or emptied) without the entries whose "from" holds
    lst.  Returns [{"file", "where", "id"}] of the entries left out."""
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    removed = []
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if not os.path.isfile(path):
            continue
        if not name.endswith(".json"):
            shutil.copyfile(path, os.path.join(dst, name))
            continue
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        try:
            doc = json.loads(raw)
        except ValueError as e:
            raise RulesError("%s: %s" % (path, e))
        here = []
        new = _prune(doc, lst, name, here)
        for r in here:
            r["file"] = name
        removed.extend(here)
        if new is _GONE:
            continue
        with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
            if new is doc:
                f.write(raw)
            else:
                json.dump(new, f, indent=1, ensure_ascii=False)
                f.write("\n")
    return removed


def digest(rules_dir, salt=""):
    """One hash of every file of a rules directory (names and bytes), and salt."""
    h = hashlib.sha256(salt.encode())
    for name in sorted(os.listdir(rules_dir)):
        path = os.path.join(rules_dir, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()
