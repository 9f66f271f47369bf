#!/usr/bin/env python3
"""Write a generated list archive as a git fast-import stream (stdout).

usage: archive-gen.py N [SEED]

The stream is one public-inbox v2 epoch: one commit per mail on
refs/heads/master, each commit's tree holding only the mail as the blob
"m", the author taken from the mail's From: and Date:, the subject as the
commit message -- the layout public-inbox's own writer (V2Writable) makes,
so public-inbox-index reads the result like any epoch it wrote (the
bench checks that on a small one).  Piped into `git fast-import` this
writes 40,000 mails in seconds, where public-inbox-mda takes about a
second per mail.

The mails: series of 1 to 6 patches (a cover letter when more than one),
some in a v2, with diffs of 20 to 120 lines that add or remove BUG_ON,
WARN_ON, WARN_ON_ONCE or nothing; reviews quoting patches; discussion.
Dates run from 2019 to 2025, so every release cycle of that span gets
mail.  Deterministic for a given SEED.
"""
import random
import sys

N = int(sys.argv[1])
rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 13)
out = sys.stdout.buffer
START = 1546300800          # 2019-01-01
SPAN = 7 * 365 * 86400
SUBSYS = ["mm", "net/core", "fs/ext4", "drivers/gpu/drm", "kernel/sched", "block",
          "drivers/net/ethernet/intel", "fs/btrfs", "sound/core", "arch/x86/kernel"]
CALLS = ["BUG_ON(!%s);", "WARN_ON(!%s);", "WARN_ON_ONCE(!%s);", "VM_BUG_ON(!%s);",
         "if (WARN_ON_ONCE(!%s))\n+\t\treturn -EINVAL;", "BUG();"]
PEOPLE = ["Jane Doe", "Bob Builder", "Carol King", "Dave Null", "Eve Moneypenny",
          "Frank Castle", "Grace Hopper", "Heidi Klum"]
WORDS = ("the of to and a in is it that for on with as was this be by are not or at from "
         "page lock slab queue device buffer count state entry list node").split()


def sentence(n):
    return " ".join(rnd.choice(WORDS) for _ in range(n)).capitalize() + "."


def diff(path, func):
    ctx = rnd.randint(8, 60)
    lines = ["\t%s = %s(%s);" % (rnd.choice(WORDS), rnd.choice(WORDS), rnd.choice(WORDS))
             for _ in range(ctx)]
    body = []
    for i, l in enumerate(lines):
        r = rnd.random()
        if r < 0.08:
            body.append("-" + l)
            body.append("+" + l.replace(";", " + 1;"))
        else:
            body.append(" " + l)
        if i == ctx // 2:
            r = rnd.random()
            if r < 0.35:
                body.append("+\t" + rnd.choice(CALLS).replace("%s", rnd.choice(WORDS)))
            elif r < 0.45:
                body.append("-\tBUG_ON(!%s);" % rnd.choice(WORDS))
    text = "\n".join(body)
    old = sum(1 for l in text.split("\n") if l[0] in " -")
    new = sum(1 for l in text.split("\n") if l[0] in " +")
    return ("diff --git a/%s b/%s\nindex 1234567..89abcde 100644\n--- a/%s\n+++ b/%s\n"
            "@@ -100,%d +100,%d @@ static int %s(void)\n%s\n" % (path, path, path, path, old, new,
                                                         func, text))


mark = 0
n = 0


def commit(msg, who, t):
    global mark, n
    mark += 1
    data = msg.encode("utf-8", "replace")
    name, email = who
    out.write(b"blob\nmark :%d\ndata %d\n" % (mark, len(data)))
    out.write(data + b"\n")
    subj = msg.split("\nSubject: ", 1)[1].split("\n", 1)[0].encode("utf-8", "replace")
    out.write(b"commit refs/heads/master\n")
    out.write(("author %s <%s> %d +0000\n" % (name, email, t)).encode())
    out.write(b"committer public-inbox <public-inbox@example.org> %d +0000\n" % t)
    out.write(b"data %d\n%s\n" % (len(subj), subj))
    out.write(b"deleteall\nM 100644 :%d m\n\n" % mark)
    n += 1


def mail(mid, subject, t, body, who, irt=None):
    h = "From: %s <%s>\nTo: list@example.org\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n" % (
        who[0], who[1], subject,
        __import__("email.utils").utils.formatdate(t, usegmt=False), mid)
    if irt:
        h += "In-Reply-To: <%s>\nReferences: <%s>\n" % (irt, irt)
    return h + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n" + body


def series(sid, t):
    who_name = rnd.choice(PEOPLE)
    who = (who_name, who_name.split()[0].lower() + "@example.org")
    sub = rnd.choice(SUBSYS)
    total = rnd.choice([1, 1, 1, 2, 3, 4, 6])
    title = "%s: %s" % (sub.split("/")[-1], sentence(4)[:-1].lower())
    versions = 2 if rnd.random() < 0.3 else 1
    for v in range(1, versions + 1):
        vt = "v%d " % v if v > 1 else ""
        cover = None
        if total > 1:
            cover = "s%d-v%d-0@example.org" % (sid, v)
            commit(mail(cover, "[PATCH %s0/%d] %s" % (vt, total, title), t,
                        sentence(30) + "\n", who), who, t)
        for i in range(1, total + 1):
            if n >= N:
                return t
            mid = "s%d-v%d-%d@example.org" % (sid, v, i)
            tag = "[PATCH %s%d/%d]" % (vt, i, total) if total > 1 else "[PATCH %s]" % vt.strip() \
                if vt else "[PATCH]"
            path = "%s/%s.c" % (sub, rnd.choice(WORDS))
            body = (sentence(20) + "\n\nSigned-off-by: %s <%s>\n---\n" % who +
                    diff(path, rnd.choice(WORDS) + "_" + rnd.choice(WORDS)) + "-- \n2.47.0\n")
            commit(mail(mid, "%s %s" % (tag, title if i == 1 else sentence(4)[:-1]), t + i, body,
                        who, cover), who, t + i)
            # reviews quote a patch
            while rnd.random() < 0.4 and n < N:
                rv = (rnd.choice(PEOPLE), "reviewer@example.org")
                commit(mail("r%d-%d@example.org" % (sid, n), "Re: %s %s" % (tag, title), t + 3600,
                            "On a day, %s wrote:\n> +\tBUG_ON(!x);\n\n%s\n" % (who[0], sentence(12)),
                            rv, mid), rv, t + 3600)
        t += rnd.randint(3, 14) * 86400
    return t


t = START
sid = 0
while n < N:
    sid += 1
    t = START + (sid * SPAN // max(N // 3, 1)) % SPAN
    series(sid, t)
    if n < N and rnd.random() < 0.1:
        who = (rnd.choice(PEOPLE), "talk@example.org")
        commit(mail("d%d@example.org" % sid, "question about %s" % rnd.choice(SUBSYS), t,
                    sentence(40) + "\n", who), who, t)
out.write(b"done\n")
