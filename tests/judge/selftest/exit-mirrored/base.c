static int bio_chain_endio_helper(struct bio *bio);

static int bio_chain_endio(struct bio *bio)
{
	int err;
	void *buf = kmalloc(16, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	err = bio_chain_endio_helper(bio);
	if (err)
		goto out_free;
	err = 0;
out_free:
	kfree(buf);
	return err;
}
