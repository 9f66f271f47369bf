/* fs/ext4/super.c: ext4_remove_li_request() from linux-source-6.12, copied exactly (tests/review-corpus). */
static void ext4_remove_li_request(struct ext4_li_request *elr)
{
	if (!elr)
		return;

	list_del(&elr->lr_request);
	EXT4_SB(elr->lr_super)->s_li_request = NULL;
	kfree(elr);
}
