#!/usr/bin/env python3
"""Month-shaped list traffic for t0307-serve-replay.sh (issue 27).

Writes one .eml per mail next to this script, deterministically (no clock,
no randomness): `python3 gen.py` again gives the same bytes, so the mails
are kept in the repository and a change here shows as a diff of them.
The shapes are the ones a replay of six weeks of linux-ext4 showed:

  bomb-*      a 40-patch series (more than new.atom's 25), one BUG_ON()
  tagless-*   a cover letter with no [PATCH] tag, v4 only on the patches
  pset-*      [PATCHSET v7 0/2] whose patches say [PATCH 1/2]
  wide-*      a To: of 120 addresses; the watched list only in Cc:
  fmt-*       a series that only edits format strings inside WARN()s
  once-*      a lone WARN_ON_ONCE() (info level, no evidence: no mail)
  clean-*     a patch with nothing to say, and a human "applied" reply
  credit-*    a BUG_ON() made an error return: only thanks to say
  bot-*       syzbot and the kernel test robot, patches included
  human-*     a maintainer quotes the added BUG_ON() and objects (t0307
              delivers it while an embargo holds the series)
  fb1-*/fb2-* v1 (answered), then v2; the "wrong" reply between them is
              written by the test, which needs the answer's Message-ID

Every mail carries a Received: line dated as it is (public-inbox orders
new.atom by the first Received:; docs/serve.md, "Replaying an archive").
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
LIST = "test@example.org"
DAY = 0


def date(day, sec):
    """A Date: in June 2024: day 1..30, seconds into that day."""
    days = ["Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"]
    return "%s, %02d Jun 2024 %02d:%02d:%02d +0000" % (
        days[(day - 1) % 7], day, sec // 3600 % 24, sec // 60 % 60, sec % 60)


def mail(name, frm, subject, msgid, body, day, sec, to=None, cc=LIST,
         parent=None, root=None):
    hdr = ["Received: from mail.example.org by lists.example.org; %s" % date(day, sec),
           "From: %s" % frm,
           "Date: %s" % date(day, sec),
           "Subject: %s" % subject]
    hdr.append("To: %s" % (to or "Ted Tso <tytso@example.org>"))
    if cc:
        hdr.append("Cc: %s" % cc)
    hdr.append("Message-ID: <%s>" % msgid)
    if parent:
        hdr.append("In-Reply-To: <%s>" % parent)
        refs = [root, parent] if root and root != parent else [parent]
        hdr.append("References: %s" % " ".join("<%s>" % r for r in refs))
    hdr += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8"]
    with open(os.path.join(HERE, name + ".eml"), "w") as f:
        f.write("\n".join(hdr) + "\n\n" + body.rstrip("\n") + "\n")


def patch(author, path, func, minus, plus, msg):
    """A one-hunk patch of PATH inside FUNC: MINUS lines out, PLUS in."""
    ctx_before = ["\tint err;", "", "\terr = %s_validate(inode);" % func]
    ctx_after = ["\tif (err)", "\t\treturn err;", "\treturn 0;"]
    old = len(ctx_before) + len(minus) + len(ctx_after)
    new = len(ctx_before) + len(plus) + len(ctx_after)
    lines = [msg, "", "Signed-off-by: %s" % author, "---",
             " %s | %d %s" % (path, len(minus) + len(plus),
                              "+" * len(plus) + "-" * len(minus)),
             " 1 file changed", "",
             "diff --git a/%s b/%s" % (path, path),
             "index 1111111..2222222 100644",
             "--- a/%s" % path, "+++ b/%s" % path,
             "@@ -40,%d +40,%d @@ static int %s(struct inode *inode)" % (old, new, func)]
    lines += [" " + l for l in ctx_before]
    lines += ["-" + l for l in minus]
    lines += ["+" + l for l in plus]
    lines += [" " + l for l in ctx_after]
    lines += ["-- ", "2.39.2"]
    return "\n".join(lines)


def main():
    for f in os.listdir(HERE):
        if f.endswith(".eml"):
            os.unlink(os.path.join(HERE, f))

    # ---- a 40-patch series, all of it between two polls ----------------
    ritesh = "Ritesh Harjani <ritesh@example.org>"
    mail("bomb-00", ritesh, "[PATCH 00/40] ext4: walk the extent tree once",
         "bomb-0@example.org", "Forty small steps.\n\nRitesh Harjani (40):\n", 3, 36000)
    for i in range(1, 41):
        plus = ["\tBUG_ON(!inode->i_sb);"] if i == 17 else ["\tinode->i_walk%d++;" % i]
        mail("bomb-%02d" % i, ritesh, "[PATCH %02d/40] ext4: walk step %d" % (i, i),
             "bomb-%d@example.org" % i,
             patch(ritesh, "fs/ext4/walk%d.c" % i, "ext4_walk%d" % i, [], plus,
                   "Step %d." % i),
             3, 36000 + i, parent="bomb-0@example.org", root="bomb-0@example.org")

    # ---- a cover without a tag (hch's fsverity covers) -------------------
    hch = "Christoph Hellwig <hch@example.org>"
    mail("tagless-0", hch, "fsverity: check the merkle tree earlier v4",
         "tagless-0@example.org",
         "This moves the check earlier.\n\nChristoph Hellwig (2):\n"
         "  fsverity: stop on a bad tree\n  fsverity: count the levels\n", 5, 50000)
    mail("tagless-1", hch, "[PATCH v4 1/2] fsverity: stop on a bad tree",
         "tagless-1@example.org",
         patch(hch, "fs/verity/verify.c", "fsverity_stop", [],
               ["\tBUG_ON(!inode->i_verity_info);"], "Stop early."),
         5, 50001, parent="tagless-0@example.org", root="tagless-0@example.org")
    mail("tagless-2", hch, "[PATCH v4 2/2] fsverity: count the levels",
         "tagless-2@example.org",
         patch(hch, "fs/verity/levels.c", "fsverity_levels", [],
               ["\tinode->i_levels++;"], "Count them."),
         5, 50002, parent="tagless-0@example.org", root="tagless-0@example.org")

    # ---- [PATCHSET v7 0/2] over [PATCH 1/2] (Darrick Wong's fuse sets) ----
    djw = "Darrick J. Wong <djwong@example.org>"
    mail("pset-0", djw, "[PATCHSET v7 0/2] fuse: cache iomap mappings",
         "pset-0@example.org", "With a bit of luck, this should all go splendidly.",
         8, 20000)
    mail("pset-1", djw, "[PATCH 1/2] fuse: cache iomaps", "pset-1@example.org",
         patch(djw, "fs/fuse/iomap.c", "fuse_iomap_cache", [],
               ["\tWARN_ON(inode->i_blkbits > 16);"], "Cache them."),
         8, 20001, parent="pset-0@example.org", root="pset-0@example.org")
    mail("pset-2", djw, "[PATCH 2/2] fuse: drop the cache on truncate",
         "pset-2@example.org",
         patch(djw, "fs/fuse/trunc.c", "fuse_iomap_trunc", [],
               ["\tinode->i_cached = 0;"], "Drop it."),
         8, 20002, parent="pset-0@example.org", root="pset-0@example.org")

    # ---- 120 addresses in To:, the list only in Cc: (Jeff Layton's i_ino) --
    jlayton = "Jeff Layton <jlayton@example.org>"
    to = ",\n\t".join("Developer %03d <dev%03d@example.net>" % (i, i) for i in range(120))
    mail("wide-0", jlayton, "[PATCH] ext4: check the journal before the commit",
         "wide-0@example.org",
         patch(jlayton, "fs/ext4/commit.c", "ext4_commit_check", [],
               ["\tBUG_ON(!EXT4_SB(inode->i_sb)->s_journal);"], "Check it."),
         10, 30000, to=to, cc="%s, linux-fsdevel@vger.kernel.org" % LIST)

    # ---- only format strings inside existing WARN()s change -----------------
    mail("fmt-0", jlayton, "[PATCH 0/2] vfs: print i_ino as u64", "fmt-0@example.org",
         "i_ino becomes u64: print it so.", 12, 40000)
    mail("fmt-1", jlayton, "[PATCH 1/2] ext4: print i_ino as u64", "fmt-1@example.org",
         patch(jlayton, "fs/ext4/inode.c", "ext4_iget_check",
               ['\tWARN(err, "bad inode %lu\\n", inode->i_ino);'],
               ['\tWARN(err, "bad inode %llu\\n", inode->i_ino);'], "Print u64."),
         12, 40001, parent="fmt-0@example.org", root="fmt-0@example.org")
    mail("fmt-2", jlayton, "[PATCH 2/2] ext2: print i_ino as u64", "fmt-2@example.org",
         patch(jlayton, "fs/ext2/inode.c", "ext2_iget_check",
               ['\tWARN_ONCE(err, "ext2: inode %lu is bad\\n",',
                '\t\t  inode->i_ino);'],
               ['\tWARN_ONCE(err, "ext2: inode %llu is bad\\n",',
                '\t\t  inode->i_ino);'], "Print u64."),
         12, 40002, parent="fmt-0@example.org", root="fmt-0@example.org")

    # ---- a lone WARN_ON_ONCE(): info level, nothing shows it reachable ------
    jack = "Jan Kara <jack@example.org>"
    mail("once-0", jack, "[PATCH] ext4: warn once on an empty extent", "once-0@example.org",
         patch(jack, "fs/ext4/extents.c", "ext4_ext_check", [],
               ["\tWARN_ON_ONCE(inode->i_size == 0);"], "Warn once."),
         14, 10000)

    # ---- nothing to say, and a human discussion -----------------------------
    mail("clean-0", jack, "[PATCH] ext4: count the orphans", "clean-0@example.org",
         patch(jack, "fs/ext4/orphan.c", "ext4_orphan_count", [],
               ["\tinode->i_orphans++;"], "Count them."),
         15, 10000)
    mail("clean-1", "Ted Tso <tytso@example.org>", "Re: [PATCH] ext4: count the orphans",
         "clean-1@example.org", "On Sat, Jan Kara wrote:\n> Count them.\n\nApplied, thanks.\n",
         15, 20000, to=jack, parent="clean-0@example.org")

    # a conversion and nothing else: only thanks to say (positive = no)
    mail("credit-0", jack, "[PATCH] ext4: return an error for a missing inode",
         "credit-0@example.org",
         patch(jack, "fs/ext4/namei.c", "ext4_lookup_check", ["\tBUG_ON(!inode);"],
               ["\tif (WARN_ON_ONCE(!inode))", "\t\treturn -EFSCORRUPTED;"],
               "Return an error instead of crashing."),
         16, 10000)

    # ---- bots: never answered ------------------------------------------------
    mail("bot-0", "syzbot <syzbot+5f2c3a@syzkaller.appspotmail.com>",
         "[syzbot] [ext4?] WARNING in ext4_walk17", "bot-0@example.org",
         "Hello,\n\nsyzbot found the following issue on:\n\n"
         "WARNING: CPU: 0 PID: 5080 at fs/ext4/walk17.c:42 ext4_walk17+0x1c/0x40\n", 17, 1000)
    mail("bot-1", "kernel test robot <lkp@intel.com>",
         "[PATCH] ext4: fix returnvar.cocci warnings", "bot-1@example.org",
         patch("kernel test robot <lkp@intel.com>", "fs/ext4/robot.c", "ext4_robot", [],
               ["\tBUG_ON(!inode);"], "Found by coccinelle."),
         17, 2000)
    mail("bot-2", "syzbot ci <syzbot+ci0ab1@syzkaller.appspotmail.com>",
         "[PATCH] ext4: syz-ci test fix", "bot-2@example.org",
         patch("syzbot ci <syzbot+ci0ab1@syzkaller.appspotmail.com>", "fs/ext4/syz.c",
               "ext4_syz", [], ["\tBUG_ON(!inode->i_mapping);"], "A test fix."),
         17, 3000)

    # ---- a maintainer objects, quoting the added line -----------------------
    mail("human-0", jack, "[PATCH] ext4: check the inode on eviction", "human-0@example.org",
         patch(jack, "fs/ext4/evict.c", "ext4_evict_check", [],
               ["\tBUG_ON(!inode->i_nlink);"], "Check it."),
         20, 10000)
    mail("human-1", "Ted Tso <tytso@example.org>",
         "Re: [PATCH] ext4: check the inode on eviction", "human-1@example.org",
         "On Thu, Jan Kara wrote:\n> +\tBUG_ON(!inode->i_nlink);\n\n"
         "No BUG_ON() on eviction, please: warn and return.\n\nTed\n",
         20, 10600, to=jack, parent="human-0@example.org")

    # ---- feedback: v1 answered, called wrong, then v2 ------------------------
    for v, day in ((1, 24), (2, 27)):
        tag = "PATCH" if v == 1 else "PATCH v2"
        mail("fb%d-0" % v, jack, "[%s] jbd2: check the handle" % tag,
             "fb%d-0@example.org" % v,
             patch(jack, "fs/jbd2/transaction.c", "jbd2_check_handle", [],
                   ["\tBUG_ON(!handle->h_transaction);",
                    "\tWARN_ON(handle->h_credits < 0);"],
                   "Check it." if v == 1 else "Check it (v2: commit message)."),
             day, 10000)


if __name__ == "__main__":
    main()
