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
