/* fs/ext4/ioctl.c: ext4_ioctl_shutdown() from linux-source-6.12, copied exactly (tests/review-corpus). */
static int ext4_ioctl_shutdown(struct super_block *sb, unsigned long arg)
{
	u32 flags;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	if (get_user(flags, (__u32 __user *)arg))
		return -EFAULT;

	return ext4_force_shutdown(sb, flags);
}
