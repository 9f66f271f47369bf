drivers/misc/frob/frob-core.c | 14 +++++++-------
1 file changed, 7 insertions(+), 7 deletions(-)

static int frob_queue_len;

static int frob_reset(struct frob_dev *dev)
{
	BUG_ON(!dev->regs);
	writel(0, dev->regs + FROB_CTRL);
	return 0;
}

/*
 * Queue @req on @dev.  The caller holds dev->lock.
 */
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
- 
