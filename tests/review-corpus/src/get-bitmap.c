/* fs/ext4/resize.c: ext4_get_bitmap() from linux-source-6.12, copied exactly (tests/review-corpus). */
static struct buffer_head *ext4_get_bitmap(struct super_block *sb, __u64 block)
{
	struct buffer_head *bh = sb_getblk(sb, block);
	if (unlikely(!bh))
		return NULL;
	if (!bh_uptodate_or_lock(bh)) {
		if (ext4_read_bh(bh, 0, NULL, false) < 0) {
			brelse(bh);
			return NULL;
		}
	}

	return bh;
}
