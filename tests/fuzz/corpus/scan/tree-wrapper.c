drivers/misc/frob/frob-core.c | 1 +
1 file changed, 1 insertion(+)
	if (!req->buf)
		return -EINVAL;

	FROB_ASSERT(dev->regs);
	list_add_tail(&req->node, &dev->queue);
	frob_queue_len++;
	return 0;
- 
