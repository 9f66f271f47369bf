/* fs/ext4/ioctl.c: ext4_ioctl_setlabel() as a newer tree might have it, made up from linux-source-6.12's (ioctl-setlabel.c: the comment longer, sizeof(new_label) for the lengths) so that a patch written against it does not apply there (tests/review-corpus). */
static int ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)
{
	size_t len;
	int ret = 0;
	char new_label[EXT4_LABEL_MAX + 1];
	struct super_block *sb = file_inode(filp)->i_sb;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	/*
	 * Copy the maximum length allowed for ext4 label with one more to
	 * find the required terminating null byte in order to test the
	 * label length. The on disk label doesn't need to be null
	 * terminated: the superblock field is padded with zeroes, which
	 * the memset() below provides.
	 */
	if (copy_from_user(new_label, user_label, sizeof(new_label)))
		return -EFAULT;

	len = strnlen(new_label, sizeof(new_label));
	if (len > EXT4_LABEL_MAX)
		return -EINVAL;

	/*
	 * Clear the buffer after the new label
	 */
	memset(new_label + len, 0, EXT4_LABEL_MAX - len);

	ret = mnt_want_write_file(filp);
	if (ret)
		return ret;

	ret = ext4_update_superblocks_fn(sb, ext4_sb_setlabel, new_label);

	mnt_drop_write_file(filp);
	return ret;
}
