/* fs/ext4/page-io.c: ext4_get_io_end() from linux-source-6.12, copied exactly (tests/review-corpus). */
ext4_io_end_t *ext4_get_io_end(ext4_io_end_t *io_end)
{
	refcount_inc(&io_end->count);
	return io_end;
}
