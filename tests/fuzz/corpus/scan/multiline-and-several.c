drivers/misc/frob/frob-core.c | 5 +++++
1 file changed, 5 insertions(+)

static void frob_complete(struct frob_dev *dev, struct frob_req *req)
{
	if (WARN_ON_ONCE(req->node.next == LIST_POISON1 ||
			 req->node.prev == LIST_POISON2,
			 "frob: request %p completed twice\n", req))
		return;
	if (WARN_ON(!dev) || WARN_ON(!req->buf)) return;
	list_del(&req->node);
	frob_queue_len--;
	kfree(req->buf);
- 
