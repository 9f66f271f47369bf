drivers/misc/frob/frob-core.c | 5 +++--
1 file changed, 3 insertions(+), 2 deletions(-)

static int frob_reset(struct frob_dev *dev)
{
	BUG_ON(!dev->regs);
	if (WARN_ON_ONCE(!dev->regs))
		return -ENODEV;
	writel(0, dev->regs + FROB_CTRL);
	return 0;
}

static void frob_teardown(struct frob_dev *dev)
{
	WARN_ON(!list_empty(&dev->queue));
	WARN_ON_ONCE(!list_empty(&dev->queue));
	frob_reset(dev);
}
- 
