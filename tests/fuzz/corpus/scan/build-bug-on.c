drivers/misc/frob/frob-core.c | 1 +
1 file changed, 1 insertion(+)
	if (!req->buf)
		return -EINVAL;

	BUILD_BUG_ON(FROB_CTRL & 3);
	list_add_tail(&req->node, &dev->queue);
	frob_queue_len++;
	return 0;
- 
