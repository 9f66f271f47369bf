#!/usr/bin/env bash
# Regenerate the input files of the data-driven cases that come from real
# `git format-patch` runs on a small kernel-like tree (dates and authors are
# fixed, so the output is the same every time).  Not run by `make check`:
# the inputs are committed; run this after changing a case's source, then
# review each expected.json by hand.
#
#   tests/cases/make-inputs.sh
set -eu
cases=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

export GIT_AUTHOR_NAME="Jane Developer" GIT_AUTHOR_EMAIL="jane@example.org"
export GIT_COMMITTER_NAME="Jane Developer" GIT_COMMITTER_EMAIL="jane@example.org"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
n=0
tick() {
	n=$((n + 1))
	export GIT_AUTHOR_DATE="2024-05-0$((n % 9 + 1))T10:$((10 + n)):00+02:00"
	export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
}

repo=$tmp/linux
mkdir -p "$repo"
cd "$repo"
git init -q -b master
git config format.signature 2.39.2
printf '*.c diff=cpp\n*.h diff=cpp\n' > .gitattributes

mkdir -p drivers/misc/frob Documentation/process tools/frobctl include/linux
cat > drivers/misc/frob/frob-core.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * Frobnicator core: queues frob requests to the device.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/frob.h>

static int frob_queue_len;

/*
 * Queue @req on @dev.  The caller holds dev->lock.
 */
static int frob_queue(struct frob_dev *dev, struct frob_req *req)
{
	if (!req->buf)
		return -EINVAL;

	list_add_tail(&req->node, &dev->queue);
	frob_queue_len++;
	return 0;
}

static void frob_complete(struct frob_dev *dev, struct frob_req *req)
{
	list_del(&req->node);
	frob_queue_len--;
	kfree(req->buf);
}

int frob_ioctl(struct frob_dev *dev, unsigned int cmd, unsigned long arg)
{
	struct frob_req *req;
	int ret;

	switch (cmd) {
	case FROB_IOC_QUEUE:
		req = kzalloc(sizeof(*req), GFP_KERNEL);
		if (!req)
			return -ENOMEM;
		ret = frob_queue(dev, req);
		if (ret)
			kfree(req);
		return ret;
	default:
		return -ENOTTY;
	}
}

static int frob_reset(struct frob_dev *dev)
{
	BUG_ON(!dev->regs);
	writel(0, dev->regs + FROB_CTRL);
	return 0;
}

static void frob_teardown(struct frob_dev *dev)
{
	WARN_ON(!list_empty(&dev->queue));
	frob_reset(dev);
}
EOF
cat > drivers/misc/frob/frob-legacy.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * Frobnicator legacy interface, superseded by frob-core.c.
 */
#include <linux/kernel.h>
#include <linux/frob.h>

int frob_legacy_start(struct frob_dev *dev)
{
	BUG_ON(dev->legacy == NULL);
	return dev->legacy->start(dev);
}

void frob_legacy_stop(struct frob_dev *dev)
{
	if (WARN_ON_ONCE(!dev->legacy))
		return;
	dev->legacy->stop(dev);
}
EOF
cat > drivers/misc/frob/frob-dma.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/dma-mapping.h>
#include <linux/frob.h>

int frob_dma_map(struct frob_dev *dev, struct frob_req *req)
{
	req->dma = dma_map_single(dev->dev, req->buf, req->len, DMA_TO_DEVICE);
	if (dma_mapping_error(dev->dev, req->dma))
		return -ENOMEM;
	return 0;
}
EOF
cat > include/linux/frob.h <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FROB_H
#define _LINUX_FROB_H

#include <linux/list.h>

#define FROB_IOC_QUEUE	0x4601
#define FROB_CTRL	0x10

struct frob_req {
	struct list_head node;
	void *buf;
	size_t len;
	dma_addr_t dma;
};

struct frob_dev {
	struct device *dev;
	void __iomem *regs;
	struct list_head queue;
	const struct frob_legacy_ops *legacy;
};

#endif
EOF
cat > Documentation/process/frob.rst <<'EOF'
Frobnicator
===========

The frobnicator queues requests.  It never calls BUG_ON() on bad input.
EOF
cat > tools/frobctl/frobctl.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 1;
	printf("%s\n", argv[1]);
	return 0;
}
EOF
printf '\x7fELF\x02\x01\x01\x00firmware\x00\x01' > drivers/misc/frob/frob.fw.old
git add -A
tick; git commit -qm "frob: initial import"
base=$(git rev-parse HEAD)

# Emit the last commit as a format-patch mail into cases/<name>/input.mbox.
emit() {
	mkdir -p "$cases/$1"
	git format-patch -q --stdout --base="$base" -1 HEAD > "$cases/$1/input.mbox"
}

# documentation-only
sed -i 's/It never calls BUG_ON() on bad input./It never calls BUG_ON() or WARN_ON() on bad input;\nerrors are returned to user space./' Documentation/process/frob.rst
tick; git commit -qam "Documentation: frob: say what happens to bad input" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit documentation-only
git reset -q --hard "$base"

# new file
cat > drivers/misc/frob/frob-irq.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * Frobnicator interrupt handling.
 */
#include <linux/interrupt.h>
#include <linux/frob.h>

static irqreturn_t frob_irq(int irq, void *data)
{
	struct frob_dev *dev = data;
	u32 status = readl(dev->regs + FROB_CTRL);

	BUG_ON(!dev);
	if (WARN_ON(status & ~0xffu))
		return IRQ_NONE;
	return IRQ_HANDLED;
}

int frob_irq_init(struct frob_dev *dev, int irq)
{
	return request_irq(irq, frob_irq, 0, "frob", dev);
}
EOF
git add drivers/misc/frob/frob-irq.c
tick; git commit -qm "frob: handle the interrupt" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit new-file
git reset -q --hard "$base"

# deleted file: its calls are removed
git rm -q drivers/misc/frob/frob-legacy.c
tick; git commit -qm "frob: drop the legacy interface" -m "Nothing uses it since frob-core.c took over." -m "Signed-off-by: Jane Developer <jane@example.org>"
emit deleted-file
git reset -q --hard "$base"

# rename with a change inside
git mv drivers/misc/frob/frob-dma.c drivers/misc/frob/frob-map.c
sed -i 's/^\treq->dma = dma_map_single/\tBUG_ON(!req->len);\n&/' drivers/misc/frob/frob-map.c
tick; git commit -qam "frob: rename frob-dma.c to frob-map.c" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit rename
git reset -q --hard "$base"

# binary: a firmware blob changes, and the C file with it
printf '\x7fELF\x02\x01\x01\x00firmware\x00\x02\x03' > drivers/misc/frob/frob.fw.old
git mv drivers/misc/frob/frob.fw.old drivers/misc/frob/frob.fw
sed -i 's/^\tlist_del(&req->node);/\tWARN_ON_ONCE(list_empty(\&req->node));\n&/' drivers/misc/frob/frob-core.c
tick; git commit -qam "frob: new firmware, and catch double completion" -m "Signed-off-by: Jane Developer <jane@example.org>"
mkdir -p "$cases/binary"
git format-patch -q --stdout --binary --base="$base" -1 HEAD > "$cases/binary/input.mbox"
git reset -q --hard "$base"

# BUG_ON in a comment, a string, a #define body; BUILD_BUG_ON
python3 - drivers/misc/frob/frob-core.c <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace('''static int frob_queue_len;
''', '''static int frob_queue_len;

#define FROB_CHECK_REQ(req) BUG_ON(!(req)->buf)
''')
s = s.replace('''	if (!req->buf)
		return -EINVAL;
''', '''	/* Callers checked req->buf, so no BUG_ON(!req->buf) here. */
	if (!req->buf) {
		pr_err("frob: BUG_ON(!req->buf) would have fired\\n");
		return -EINVAL;
	}
	BUILD_BUG_ON(sizeof(*req) > 64);
''')
open(p, 'w').write(s)
EOF
tick; git commit -qam "frob: explain the request check" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit comment-string-define
git reset -q --hard "$base"

# BUILD_BUG_ON only
sed -i 's/^\tlist_add_tail(&req->node, &dev->queue);/\tBUILD_BUG_ON(FROB_CTRL \& 3);\n&/' drivers/misc/frob/frob-core.c
tick; git commit -qam "frob: the control register must be aligned" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit build-bug-on
git reset -q --hard "$base"

# block comment opened on a context line, closed on an added line
python3 - drivers/misc/frob/frob-core.c <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace(''' * Queue @req on @dev.  The caller holds dev->lock.
 */''', ''' * Queue @req on @dev.  The caller holds dev->lock.
 *
 * We used to BUG_ON(!dev) here; callers now check, and
 * WARN_ON(list_empty(&dev->queue)) would be noise.
 */''')
open(p, 'w').write(s)
EOF
tick; git commit -qam "frob: document why frob_queue() does not check dev" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit block-comment-context
git reset -q --hard "$base"

# multi-line WARN_ON_ONCE, and several calls on one line
python3 - drivers/misc/frob/frob-core.c <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace('''	list_del(&req->node);
	frob_queue_len--;''', '''	if (WARN_ON_ONCE(req->node.next == LIST_POISON1 ||
			 req->node.prev == LIST_POISON2,
			 "frob: request %p completed twice\\n", req))
		return;
	if (WARN_ON(!dev) || WARN_ON(!req->buf)) return;
	list_del(&req->node);
	frob_queue_len--;''')
open(p, 'w').write(s)
EOF
tick; git commit -qam "frob: catch requests completed twice" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit multiline-and-several
git reset -q --hard "$base"

# BUG_ON -> WARN_ON_ONCE conversion, WARN_ON -> WARN_ON_ONCE
python3 - drivers/misc/frob/frob-core.c <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace('''	BUG_ON(!dev->regs);
	writel''', '''	if (WARN_ON_ONCE(!dev->regs))
		return -ENODEV;
	writel''')
s = s.replace('''	WARN_ON(!list_empty(&dev->queue));''', '''	WARN_ON_ONCE(!list_empty(&dev->queue));''')
open(p, 'w').write(s)
EOF
tick; git commit -qam "frob: do not crash when the registers are not mapped" -m "frob_reset() is reachable from the ioctl path before probe finished
mapping the registers; return -ENODEV instead of crashing, and warn once
rather than on every teardown." -m "Signed-off-by: Jane Developer <jane@example.org>"
emit conversion
git reset -q --hard "$base"

# a function moved and re-indented: the calls are not new
python3 - drivers/misc/frob/frob-core.c <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
reset = '''static int frob_reset(struct frob_dev *dev)
{
	BUG_ON(!dev->regs);
	writel(0, dev->regs + FROB_CTRL);
	return 0;
}

'''
s = s.replace(reset, '')
s = s.replace('''static int frob_queue_len;
''', '''static int frob_queue_len;

''' + reset.rstrip('\n') + '\n')
open(p, 'w').write(s)
EOF
tick; git commit -qam "frob: move frob_reset() up, no functional change" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit moved
git reset -q --hard "$base"

# path override: tools/ is info
sed -i 's/^\tif (argc < 2)/\tBUG_ON(argv == NULL);\n&/' tools/frobctl/frobctl.c
tick; git commit -qam "tools/frobctl: assert argv" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit tools-override
git reset -q --hard "$base"

# a wrapper defined in the tree (for --tree), used by a patch
mkdir -p "$cases/tree-wrapper/tree/include/linux" "$cases/tree-wrapper/tree/drivers/misc/frob"
cat > "$cases/tree-wrapper/tree/include/linux/frob_debug.h" <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_FROB_DEBUG_H
#define _LINUX_FROB_DEBUG_H

#define FROB_BUG_ON(cond)	BUG_ON(cond)
#define FROB_ASSERT(cond) \
	do { \
		if (!(cond)) \
			FROB_BUG_ON(1); \
	} while (0)

#endif
EOF
cp drivers/misc/frob/frob-core.c "$cases/tree-wrapper/tree/drivers/misc/frob/"
sed -i 's/^\tlist_add_tail(&req->node, &dev->queue);/\tFROB_ASSERT(dev->regs);\n&/' drivers/misc/frob/frob-core.c
tick; git commit -qam "frob: assert the registers are mapped when queueing" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit tree-wrapper
git reset -q --hard "$base"

# a series of three with a cover letter
sed -i 's/^\tlist_del(&req->node);/\tWARN_ON(list_empty(\&req->node));\n&/' drivers/misc/frob/frob-core.c
tick; git commit -qam "frob: warn on double completion" -m "Signed-off-by: Jane Developer <jane@example.org>"
sed -i 's/^\tBUG_ON(dev->legacy == NULL);/\tif (!dev->legacy)\n\t\treturn -ENODEV;/' drivers/misc/frob/frob-legacy.c
tick; git commit -qam "frob: legacy: fail instead of crashing without ops" -m "Signed-off-by: Jane Developer <jane@example.org>"
sed -i 's/^\tif (dma_mapping_error(dev->dev, req->dma))/\tVM_BUG_ON(!req->buf);\n&/' drivers/misc/frob/frob-dma.c
tick; git commit -qam "frob: dma: assert a buffer" -m "Signed-off-by: Jane Developer <jane@example.org>"
mkdir -p "$tmp/series" "$cases/series-cover-letter"
git format-patch -q --cover-letter --base="$base" -o "$tmp/series" -3 HEAD \
	--subject-prefix="PATCH" --thread=shallow
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/frob: stop crashing on bad state/; s/\*\*\* BLURB HERE \*\*\*/Three small changes to the frobnicator error handling./' "$tmp/series/0000-cover-letter.patch"
cat "$tmp/series"/*.patch > "$cases/series-cover-letter/input.mbox"
# The same series as v1 (two patches) and v2 (three) in one mbox, as b4 mbox gives.
mkdir -p "$tmp/v1" "$tmp/v2" "$cases/v1-v2"
git format-patch -q -v1 --base="$base" -o "$tmp/v1" -2 HEAD~1
git format-patch -q -v2 --cover-letter --base="$base" -o "$tmp/v2" -3 HEAD
sed -i 's/\*\*\* SUBJECT HERE \*\*\*/frob: stop crashing on bad state/; s/\*\*\* BLURB HERE \*\*\*/v2: also the dma path./' "$tmp/v2/v2-0000-cover-letter.patch"
cat "$tmp/v1"/*.patch "$tmp/v2"/*.patch > "$cases/v1-v2/input.mbox"
# A review reply quoting patch 1 (no From_ line: saved from a mail client).
mkdir -p "$cases/review-reply"
{
	printf 'From: Maintainer <maint@example.org>\n'
	printf 'To: Jane Developer <jane@example.org>\n'
	printf 'Subject: Re: [PATCH 1/3] frob: warn on double completion\n'
	printf 'Date: Wed, 8 May 2024 09:00:00 +0200\n'
	printf 'Message-ID: <reply-1@example.org>\n'
	printf 'In-Reply-To: <%s>\n' "$(sed -n 's/^Message-Id: <\(.*\)>$/\1/p' "$tmp/series/0001-"*.patch)"
	printf '\n'
	printf 'On Mon, 6 May 2024, Jane Developer wrote:\n'
	sed -n '/^diff --git/,/^-- $/p' "$tmp/series/0001-"*.patch | sed '$d' | sed 's/^/> /'
	printf '\nPlease make this WARN_ON_ONCE(), a double completion can repeat.\n'
} > "$cases/review-reply/input.eml"

# the range for --git: keep the repository as a bundle the case unpacks
mkdir -p "$cases/git-range"
git bundle create -q "$cases/git-range/repo.bundle" master
echo "base=$base" > "$tmp/base"
git reset -q --hard "$base"

# a crash replaced by another crash: no conversion, the panic() is new
# (a harsher or equal call in a removal's place earns no credit)
sed -i 's/^\tBUG_ON(!dev->regs);/\tif (!dev->regs)\n\t\tpanic("frob: registers not mapped\\n");/' drivers/misc/frob/frob-core.c
tick; git commit -qam "frob: say why when the registers are not mapped" -m "Signed-off-by: Jane Developer <jane@example.org>"
emit conversion-harsher
git reset -q --hard "$base"

# quilt and diff -ruN shapes, from the same change
cp -r "$repo" "$tmp/linux-6.1"
cd "$tmp"
rm -rf linux-6.1/.git linux-6.1/.gitattributes
cp -r linux-6.1 linux-6.2
sed -i 's/^\tWARN_ON(!list_empty(&dev->queue));/\tif (WARN_ON_ONCE(!list_empty(\&dev->queue)))\n\t\treturn;/' linux-6.2/drivers/misc/frob/frob-core.c
rm linux-6.2/drivers/misc/frob/frob-legacy.c
cat > linux-6.2/drivers/misc/frob/frob-sysfs.c <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/sysfs.h>
#include <linux/frob.h>

static ssize_t queue_len_show(struct device *d, struct device_attribute *a, char *buf)
{
	struct frob_dev *dev = dev_get_drvdata(d);

	BUG_ON(!dev);
	return sysfs_emit(buf, "%d\n", frob_queue_len);
}
EOF
mkdir -p "$cases/diff-ruN" "$cases/quilt"
(diff -ruN linux-6.1 linux-6.2 || true) > "$cases/diff-ruN/input.diff"
{
	printf 'From: Jane Developer <jane@example.org>\nSubject: frob: sysfs and teardown fixes\n\n'
	printf 'Add a sysfs file for the queue length; stop tearing down a busy device.\n\n'
	printf 'Signed-off-by: Jane Developer <jane@example.org>\n---\n'
	for f in drivers/misc/frob/frob-core.c drivers/misc/frob/frob-sysfs.c; do
		printf 'Index: linux-6.2/%s\n' "$f"
		printf '===================================================================\n'
		a=linux-6.1/$f
		[ -e "$a" ] || a=/dev/null
		(diff -u --label "linux-6.2.orig/$f" --label "linux-6.2/$f" "$a" "linux-6.2/$f" || true)
	done
} > "$cases/quilt/input.diff"
echo "inputs written under $cases"
