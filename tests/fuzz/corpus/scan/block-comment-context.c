drivers/misc/frob/frob-core.c | 3 +++
1 file changed, 3 insertions(+)

/*
 * Queue @req on @dev.  The caller holds dev->lock.
 *
 * We used to BUG_ON(!dev) here; callers now check, and
 * WARN_ON(list_empty(&dev->queue)) would be noise.
 */
static int frob_queue(struct frob_dev *dev, struct frob_req *req)
{
- 
