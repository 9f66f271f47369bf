/* fs/ext4/xattr.c: ext4_xattr_inode_get_ref() from linux-source-6.12, copied exactly (tests/review-corpus). */
static u64 ext4_xattr_inode_get_ref(struct inode *ea_inode)
{
	return ((u64) inode_get_ctime_sec(ea_inode) << 32) |
		(u32) inode_peek_iversion_raw(ea_inode);
}
