drivers/misc/frob/frob-core.c | 8 +++++++-
1 file changed, 7 insertions(+), 1 deletion(-)

static int frob_queue_len;

#define FROB_CHECK_REQ(req) BUG_ON(!(req)->buf)

/*
 * Queue @req on @dev.  The caller holds dev->lock.
 */
static int frob_queue(struct frob_dev *dev, struct frob_req *req)
{
	if (!req->buf)
	/* Callers checked req->buf, so no BUG_ON(!req->buf) here. */
	if (!req->buf) {
		pr_err("frob: BUG_ON(!req->buf) would have fired\n");
		return -EINVAL;
	}
	BUILD_BUG_ON(sizeof(*req) > 64);

	list_add_tail(&req->node, &dev->queue);
	frob_queue_len++;
- 
