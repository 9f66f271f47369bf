/* fs/ext4/sysfs.c: inode_readahead_blks_store() from linux-source-6.12, copied exactly but for the added line "WARN_ON_ONCE(t > 0x40000000);". */
static ssize_t inode_readahead_blks_store(struct ext4_sb_info *sbi,
					  const char *buf, size_t count)
{
	unsigned long t;
	int ret;

	ret = kstrtoul(skip_spaces(buf), 0, &t);
	if (ret)
		return ret;

	WARN_ON_ONCE(t > 0x40000000);
	if (t && (!is_power_of_2(t) || t > 0x40000000))
		return -EINVAL;

	sbi->s_inode_readahead_blks = t;
	return count;
}
