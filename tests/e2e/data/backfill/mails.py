#!/usr/bin/env python3
"""Generate the mails of the backfill fixture (t0330) as .eml files.

usage: mails.py OUTDIR

Files are named NN-what.eml; the test delivers them in name order, the
ones under epoch1/ through public-inbox's V2Writable with a tiny epoch
size so that they start git/1.git.  What each mail is, and what the
report must count for it, is in expected.json's comments (t0330).
"""
import os
import sys


def hunk(path, start, func, lines):
    old = sum(1 for l in lines if l[0] in " -")
    new = sum(1 for l in lines if l[0] in " +")
    return ("diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n"
            "@@ -%d,%d +%d,%d @@ %s\n%s\n" % (path, path, path, path, start, old, start,
                                             new, func, "\n".join(lines)))


def mail(mid, subject, date, body, frm="Jane Doe <jane@example.org>", irt=None,
         refs=None, headers=""):
    h = ["From: %s" % frm, "To: linux-mm@example.org", "Subject: %s" % subject,
         "Date: %s" % date, "Message-ID: <%s>" % mid]
    if irt:
        h.append("In-Reply-To: <%s>" % irt)
        h.append("References: %s" % " ".join("<%s>" % r for r in (refs or [irt])))
    if headers:
        h.append(headers)
    else:
        h += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8"]
    return "\n".join(h) + "\n\n" + body


SLAB_V1 = hunk("mm/slub.c", 10, "static void slab_free(struct kmem_cache *s)", [
    " \tstruct slab *slab = virt_to_slab(s);",
    "+\tBUG_ON(!slab);",
    "+\tWARN_ON(s->size > PAGE_SIZE);",
    " \tdo_slab_free(s, slab);"])
SLAB_V2 = hunk("mm/slub.c", 10, "static void slab_free(struct kmem_cache *s)", [
    " \tstruct slab *slab = virt_to_slab(s);",
    "+\tif (WARN_ON_ONCE(!slab))",
    "+\t\treturn;",
    "+\tWARN_ON(s->size > PAGE_SIZE);",
    " \tdo_slab_free(s, slab);"])
PAGE = hunk("mm/page_alloc.c", 40, "static void free_one_page(struct page *page)", [
    " \tunsigned long pfn = page_to_pfn(page);",
    "+\tVM_BUG_ON_PAGE(PageTail(page), page);",
    " \t__free_one_page(page, pfn);"])
CONVERT = hunk("mm/vmscan.c", 100, "static int shrink_one(struct lruvec *lruvec)", [
    " \tint nr = lruvec->nr;",
    "-\tBUG_ON(nr < 0);",
    "+\tif (WARN_ON_ONCE(nr < 0))",
    "+\t\treturn 0;",
    " \treturn shrink(lruvec, nr);"])
DROP = hunk("lib/list_debug.c", 20, "bool __list_del_entry_valid(struct list_head *e)", [
    " \tstruct list_head *prev = e->prev;",
    "-\tBUG();",
    " \treturn true;"])
NET = hunk("net/core/dev.c", 300, "int dev_open(struct net_device *dev)", [
    " \tint ret = 0;",
    "+\tWARN_ON_ONCE(!dev);",
    " \treturn ret;"])
PANIC = hunk("kernel/reboot.c", 50, "void kernel_halt(void)", [
    " \tsystem_state = SYSTEM_HALT;",
    "+\tpanic(\"halt\");",
    " \tmachine_halt();"])

SIG = "-- \n2.47.0\n"


def patch_body(text, diff):
    return "%s\n\nSigned-off-by: Jane Doe <jane@example.org>\n---\n%s%s" % (text, diff, SIG)


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "epoch1"), exist_ok=True)
    mails = {}
    # Cycle v6.13 (posted between v6.11 and v6.12): a series, v1 and v2.
    mails["01-v1-cover"] = mail("v1-0@example.org", "[PATCH 0/2] mm: check slab pointers",
                                "Tue, 01 Oct 2024 10:00:00 +0000",
                                "Two checks.\n\nbase-commit: 0123456789abcdef0123456789abcdef01234567\n")
    mails["02-v1-p1"] = mail("v1-1@example.org", "[PATCH 1/2] mm/slub: check the slab",
                             "Tue, 01 Oct 2024 10:00:01 +0000",
                             patch_body("Check it.", SLAB_V1), irt="v1-0@example.org")
    mails["03-v1-p2"] = mail("v1-2@example.org", "[PATCH 2/2] mm/page_alloc: check tails",
                             "Tue, 01 Oct 2024 10:00:02 +0000",
                             patch_body("Check tails.", PAGE), irt="v1-0@example.org")
    # A review quoting the patch: no patch, no calls.
    mails["04-review"] = mail("review-1@example.org", "Re: [PATCH 1/2] mm/slub: check the slab",
                              "Wed, 02 Oct 2024 08:00:00 +0000",
                              "On Tue, Jane Doe wrote:\n> +\tBUG_ON(!slab);\n\nPlease do not crash "
                              "the kernel: WARN_ON_ONCE() and return.\n",
                              frm="Reviewer <rev@example.org>", irt="v1-1@example.org",
                              refs=["v1-0@example.org", "v1-1@example.org"])
    # v2, posted in reply to v1's cover: the BUG_ON became WARN_ON_ONCE.
    mails["05-v2-cover"] = mail("v2-0@example.org", "[PATCH v2 0/2] mm: check slab pointers",
                                "Tue, 08 Oct 2024 10:00:00 +0000", "v2: WARN instead of BUG.\n",
                                irt="v1-0@example.org")
    mails["06-v2-p1"] = mail("v2-1@example.org", "[PATCH v2 1/2] mm/slub: check the slab",
                             "Tue, 08 Oct 2024 10:00:01 +0000",
                             patch_body("Check it.", SLAB_V2), irt="v2-0@example.org",
                             refs=["v1-0@example.org", "v2-0@example.org"])
    mails["07-v2-p2"] = mail("v2-2@example.org", "[PATCH v2 2/2] mm/page_alloc: check tails",
                             "Tue, 08 Oct 2024 10:00:02 +0000",
                             patch_body("Check tails.", PAGE), irt="v2-0@example.org",
                             refs=["v1-0@example.org", "v2-0@example.org"])
    # Cycle v6.14: a conversion inside one patch, and a removal in a mail
    # whose charset is not one iconv knows (its bytes are Latin-1).
    mails["epoch1/08-convert"] = mail("conv@example.org", "[PATCH] mm/vmscan: do not crash on a bad count",
                               "Sun, 05 Jan 2025 12:00:00 +0100",
                               patch_body("Warn instead.", CONVERT), frm="Bob <bob@example.org>")
    broken = mail("latin@example.org", "[PATCH] lib: drop a BUG()",
                  "Mon, 06 Jan 2025 12:00:00 +0000",
                  patch_body("Gr\xfc\xdfe, Jos\xe9.", DROP),
                  frm="=?x-no-such-charset?q?Jos=E9?= <jose@example.org>",
                  headers="MIME-Version: 1.0\nContent-Type: text/plain; charset=x-no-such-charset\n"
                          "Content-Transfer-Encoding: 8bit")
    # Epoch 1 starts here.
    mails["epoch1/09-latin"] = broken
    # Cycle v6.19, but based on v6.12 (the test's releases.json names
    # that commit): base-commit wins, cycle v6.14.
    mails["epoch1/10-net"] = mail("net@example.org", "[PATCH net-next] net: warn on a NULL device",
                                  "Mon, 20 Oct 2025 09:00:00 +0000",
                                  patch_body("Warn.", NET) + "\nbase-commit: "
                                  "adc218676eef25575469234709c2d87185ca223a\n",
                                  frm="Carol <carol@example.org>")
    # A discussion with no tags, and a patch whose Date: is not a date.
    mails["epoch1/11-question"] = mail("q@example.org", "mm: is BUG_ON ever right?",
                                       "Tue, 21 Oct 2025 09:00:00 +0000",
                                       "Asking for a friend.\n", frm="Dave <dave@example.org>")
    mails["epoch1/12-nodate"] = mail("nodate@example.org", "[RFC PATCH] reboot: panic on halt",
                                     "sometime last week",
                                     patch_body("Halt harder.", PANIC), frm="Eve <eve@example.org>")
    for name, text in mails.items():
        with open(os.path.join(out, name + ".eml"), "wb") as f:
            f.write(text.encode("latin-1" if name.endswith("latin") else "utf-8"))


if __name__ == "__main__":
    main()
