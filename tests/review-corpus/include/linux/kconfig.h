/*
 * tests/review-corpus: the kernel declarations the excerpts of src/ need,
 * as linux-source-6.12 defines them, cut down (from tests/unit/data/cfacts/
 * kernel.h, plus what gcc -fsyntax-only needs).  It sits where the minimal
 * flags (cfacts_flags() without a .o.cmd) force-include kconfig.h, so
 * both libclang and the rewrite's compile read it.  Every excerpt of
 * src/ compiles with it (gcc -fsyntax-only), so that every rewrite the
 * corpus offers is compiled: none is "compiled": null.
 */
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __u16 __le16;
typedef __u32 __le32;
typedef __u64 __le64;
typedef unsigned long size_t;
typedef unsigned int ext4_group_t;
typedef __u32 ext4_lblk_t;
typedef unsigned int gfp_t;
#define __user
#define __force
#define GFP_KERNEL 0u
#define ENOMEM 12
#define EFAULT 14
#define EINVAL 22
#define EPERM 1
#define ENODEV 19
#define EOPNOTSUPP 95
#define ENOSPC 28
#define EXT4_LABEL_MAX 16
#define unlikely(x) __builtin_expect(!!(x), 0)
#define le16_to_cpu(x) ((__force __u16)(__le16)(x))
#define cpu_to_le16(x) ((__force __le16)(__u16)(x))
#define BUILD_BUG_ON_INVALID(e) ((void)(sizeof((__force long)(e))))
#define WARN_ON(condition) ({ int __ret_warn_on = !!(condition); \
	if (unlikely(__ret_warn_on)) __warn(); unlikely(__ret_warn_on); })
#define WARN_ON_ONCE(condition) WARN_ON(condition)
#define VM_WARN_ON_ONCE(cond) BUILD_BUG_ON_INVALID(cond)
#define VM_BUG_ON(cond) BUILD_BUG_ON_INVALID(cond)
#define BUG() __builtin_trap()
#define BUG_ON(condition) do { if (unlikely(condition)) BUG(); } while (0)
#define J_ASSERT(assert) BUG_ON(!(assert))
void __warn(void);
void *kzalloc(size_t size, gfp_t flags);
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
size_t strnlen(const char *s, size_t n);

struct buffer_head { char *b_data; };
struct ext4_group_desc {
	__le16 bg_inode_bitmap_csum_lo;
	__le16 bg_inode_bitmap_csum_hi;
};
struct ext4_super_block { __le32 s_blocks_count_lo; __le32 s_creator_os; };
struct ext4_li_request;
struct ext4_sb_info {
	__u32 s_csum_seed;
	unsigned int s_desc_size;
	struct ext4_super_block *s_es;
	unsigned long s_max_dir_size_kb;
	struct ext4_li_request *s_li_request;
	unsigned long s_inode_readahead_blks;
	int s_inode_size;
};


#define EXT4_IOC_CHECKPOINT_FLAG_VALID 0x7

/* Added for tests/review-corpus: enough for gcc -fsyntax-only too. */
#define EXT4_BG_INODE_BITMAP_CSUM_HI_END 0x1c
struct list_head { struct list_head *next, *prev; };
struct mutex { int m; };
typedef struct { int s; } spinlock_t;
typedef struct { int counter; } atomic_t;
int atomic_read(const atomic_t *v);
void INIT_LIST_HEAD(struct list_head *l);
void mutex_init(struct mutex *m);
void assert_spin_locked(spinlock_t *l);
void *memset(void *s, int c, size_t n);
#define EXT4_LAZYINIT_QUIT 0x1
struct ext4_lazy_init { unsigned long li_state; struct list_head li_request_list;
	struct mutex li_list_mtx; };
extern struct ext4_lazy_init *ext4_li_info;
#define CAP_SYS_ADMIN 21
bool capable(int cap);
#define ENOSPC 28
#define MAX_ERRNO 4095
#define IS_ERR(p) ((unsigned long)(p) >= (unsigned long)-MAX_ERRNO)
#define PTR_ERR(p) ((long)(p))
struct super_block { unsigned long s_blocksize; void *s_fs_info; unsigned char s_blocksize_bits;
	char s_id[32]; };
struct inode { long long i_size; struct super_block *i_sb; unsigned long i_ino; };
struct file;
struct inode *file_inode(const struct file *f);
int mnt_want_write_file(struct file *f);
void mnt_drop_write_file(struct file *f);
int ext4_update_superblocks_fn(struct super_block *sb, void (*fn)(void *, const void *),
			       const void *arg);
void ext4_sb_setlabel(void *es, const void *arg);
typedef struct handle_s handle_t;
struct ext4_dir_entry_2 { __le32 inode; __le16 rec_len; };
struct ext4_dir_entry_tail { __le32 det_reserved_zero1; };
#define EXT4_STATE_MAY_INLINE_DATA 1
bool ext4_has_metadata_csum(struct super_block *sb);
int ext4_test_inode_state(struct inode *inode, int bit);
int ext4_try_create_inline_dir(handle_t *h, struct inode *dir, struct inode *inode);
static struct buffer_head *ext4_append(handle_t *h, struct inode *inode, ext4_lblk_t *block);
void ext4_init_dot_dotdot(struct inode *inode, struct ext4_dir_entry_2 *de,
			  unsigned int blocksize, int csum_size, unsigned long pino, int dotdot);
void set_nlink(struct inode *inode, unsigned int n);
void ext4_initialize_dirent_tail(struct buffer_head *bh, unsigned int blocksize);
#define BUFFER_TRACE(bh, s) do { } while (0)
int ext4_handle_dirty_dirblock(handle_t *h, struct inode *inode, struct buffer_head *bh);
void set_buffer_verified(struct buffer_head *bh);
void brelse(struct buffer_head *bh);
#define T_FINISHED 8
typedef struct transaction_s transaction_t;
typedef struct journal_s journal_t;
struct transaction_s { int t_state; unsigned int t_tid; void *t_buffers, *t_forget,
	*t_shadow_list, *t_checkpoint_list; atomic_t t_updates;
	transaction_t *t_cpnext, *t_cpprev; };
struct journal_s { spinlock_t j_list_lock; transaction_t *j_shrink_transaction,
	*j_checkpoint_transactions, *j_committing_transaction, *j_running_transaction; };
void trace_jbd2_drop_transaction(journal_t *j, transaction_t *t);
#define jbd2_debug(n, fmt, ...) do { } while (0)

struct ext4_li_request { struct super_block *lr_super; long lr_mode; ext4_group_t lr_first_not_zeroed;
	ext4_group_t lr_next_group; unsigned long lr_next_sched; struct list_head lr_request; };
#define NO_PREFETCH_BLOCK_BITMAPS 0x1
#define test_opt(sb, opt) ((sb)->s_blocksize & (opt))
#define EXT4_LI_MODE_PREFETCH_BBITMAP 0
#define EXT4_LI_MODE_ITABLE 1
#define EXT4_DEF_LI_MAX_START_DELAY 5
#define HZ 250
extern unsigned long volatile jiffies;
__u32 get_random_u32_below(__u32 ceil);

/* mm/gup.c: try_grab_folio_fast() (include/linux/mm_types.h, mm.h, mmzone.h). */
struct page;
struct folio { atomic_t _pincount; };
enum {
	FOLL_GET = 1 << 1,
	FOLL_LONGTERM = 1 << 8,
	FOLL_PCI_P2PDMA = 1 << 10,
	FOLL_PIN = 1 << 19,	/* mm/internal.h */
};
enum node_stat_item { NR_FOLL_PIN_ACQUIRED };
#define GUP_PIN_COUNTING_BIAS (1U << 10)
bool irqs_disabled(void);
bool is_pci_p2pdma_page(const struct page *page);
struct folio *try_get_folio(struct page *page, int refs);
bool is_zero_page(const struct page *page);
struct folio *page_folio(const struct page *page);
bool folio_is_longterm_pinnable(struct folio *folio);
bool put_devmap_managed_folio_refs(struct folio *folio, int refs);
void folio_put_refs(struct folio *folio, int refs);
bool folio_test_large(const struct folio *folio);
void atomic_add(int i, atomic_t *v);
void folio_ref_add(struct folio *folio, int nr);
void smp_mb__after_atomic(void);
void node_stat_mod_folio(struct folio *folio, enum node_stat_item item, int nr);

/* The excerpts added for issue 23 (fs/ioctl.c, fs/ext4/{namei,inode,page-io,
 * super,sysfs,xattr,ioctl}.c, net/core/netdev-genl.c). */
typedef long ssize_t;
typedef __u64 sector_t;
typedef long long s64;
typedef long long time64_t;
#define INT_MAX ((int)(~0U >> 1))
#define ENOENT 2
#define ERANGE 34
#define EFSCORRUPTED 117
#define CAP_SYS_RAWIO 17
#define PAGE_SIZE 4096UL
#define offsetof(t, m) __builtin_offsetof(t, m)
#define get_user(x, ptr) ({ (x) = *(ptr); 0; })
#define put_user(x, ptr) ({ *(ptr) = (x); 0; })
#define ERR_PTR(e) ((void *)(long)(e))
#define EXT4_SB(sb) ((struct ext4_sb_info *)(sb)->s_fs_info)
#define cpu_to_le32(x) ((__force __le32)(__u32)(x))
#define le32_to_cpu(x) ((__force __u32)(__le32)(x))
struct task_struct { char comm[16]; };
struct task_struct *get_current(void);
#define current get_current()
int task_pid_nr(struct task_struct *t);
int printk(const char *fmt, ...);
#define pr_warn_ratelimited(fmt, ...) printk(fmt, ##__VA_ARGS__)
int bmap(struct inode *inode, sector_t *block);
void kfree(const void *p);
void *memdup_user(const void __user *src, size_t len);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
struct file_dedupe_range_info { long long dest_fd; };
struct file_dedupe_range { __u64 src_offset; __u64 src_length; __u16 dest_count;
	__u16 reserved1; __u32 reserved2; struct file_dedupe_range_info info[]; };
int vfs_dedupe_file_range(struct file *file, struct file_dedupe_range *same);
struct ext4_map_blocks { __u64 m_pblk; ext4_lblk_t m_lblk; unsigned int m_len; };
int ext4_map_blocks(handle_t *h, struct inode *inode, struct ext4_map_blocks *map, int flags);
void __ext4_error_inode(struct inode *inode, const char *func, unsigned int line,
			__u64 block, const char *fmt, ...);
#define EXT4_ERROR_INODE(inode, fmt, a...) \
	__ext4_error_inode(inode, __func__, __LINE__, 0, fmt, ## a)
#define EXT4_GET_BLOCKS_CREATE 0x0001
struct buffer_head *ext4_bread(handle_t *h, struct inode *inode, ext4_lblk_t block, int flags);
struct ext4_inode_info { long long i_disksize; __u16 i_extra_isize; };
#define EXT4_I(inode) ((struct ext4_inode_info *)(inode))
int ext4_mark_inode_dirty(handle_t *h, struct inode *inode);
enum { EXT4_JTR_NONE };
int ext4_journal_get_write_access(handle_t *h, struct super_block *sb, struct buffer_head *bh,
				  int trigger_type);
void ext4_std_error(struct super_block *sb, int errno);
struct ext4_inode { __le16 i_extra_isize; __le16 i_checksum_hi; __le16 i_checksum_lo; };
#define EXT4_OS_LINUX 0
#define EXT4_GOOD_OLD_INODE_SIZE 128
#define EXT4_INODE_SIZE(s) (EXT4_SB(s)->s_inode_size)
#define EXT4_FITS_IN_INODE(ext4_inode, einode, field) \
	((offsetof(typeof(*ext4_inode), field) + sizeof((ext4_inode)->field)) \
	 <= (EXT4_GOOD_OLD_INODE_SIZE + (einode)->i_extra_isize))
__u32 ext4_inode_csum(struct inode *inode, struct ext4_inode *raw, struct ext4_inode_info *ei);
typedef struct { int refs; } refcount_t;
typedef struct ext4_io_end { handle_t *handle; unsigned int flag; refcount_t count; } ext4_io_end_t;
void refcount_inc(refcount_t *r);
bool refcount_dec_and_test(refcount_t *r);
unsigned int refcount_read(const refcount_t *r);
#define EXT4_IO_END_UNWRITTEN 0x0001
int ext4_convert_unwritten_io_end_vec(handle_t *handle, ext4_io_end_t *io_end);
void ext4_clear_io_unwritten_flag(ext4_io_end_t *io_end);
void ext4_release_io_end(ext4_io_end_t *io_end);
#define EXT4_GOING_FLAGS_NOLOGFLUSH 0x2
int ext4_force_shutdown(struct super_block *sb, u32 flags);
struct nlattr;
struct net;
struct napi_struct;
struct netlink_ext_ack;
struct sk_buff { unsigned int len; };
struct genl_info { struct nlattr **attrs; struct netlink_ext_ack *extack; };
enum { NETDEV_A_NAPI_IFINDEX = 1, NETDEV_A_NAPI_ID };
#define GENL_REQ_ATTR_CHECK(info, attr) (!(info)->attrs[attr])
__u32 nla_get_u32(const struct nlattr *nla);
#define GENLMSG_DEFAULT_SIZE 3776
struct sk_buff *genlmsg_new(size_t payload, gfp_t flags);
void rtnl_lock(void);
void rtnl_unlock(void);
void rcu_read_lock(void);
void rcu_read_unlock(void);
struct net *genl_info_net(const struct genl_info *info);
struct napi_struct *netdev_napi_by_id(struct net *net, unsigned int napi_id);
int netdev_nl_napi_fill_one(struct sk_buff *rsp, struct napi_struct *napi,
			    const struct genl_info *info);
#define NL_SET_BAD_ATTR(extack, attr) do { (void)(extack); (void)(attr); } while (0)
int genlmsg_reply(struct sk_buff *skb, struct genl_info *info);
void nlmsg_free(struct sk_buff *skb);
void list_del(struct list_head *e);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
extern struct mutex ext4_li_mtx;
static void ext4_remove_li_request(struct ext4_li_request *elr);
bool mutex_is_locked(struct mutex *m);
bool spin_is_locked(spinlock_t *l);
#define lockdep_assert_held(l) do { (void)(l); } while (0)
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
char *skip_spaces(const char *s);
bool is_power_of_2(unsigned long n);
time64_t inode_get_ctime_sec(const struct inode *inode);
u64 inode_peek_iversion_raw(const struct inode *inode);
#define EXT4_INODES_PER_GROUP(s) (EXT4_SB(s)->s_inode_size)
__u32 ext4_chksum(struct ext4_sb_info *sbi, __u32 crc, const void *address, unsigned int length);
struct buffer_head *sb_getblk(struct super_block *sb, __u64 block);
int bh_uptodate_or_lock(struct buffer_head *bh);
int ext4_read_bh(struct buffer_head *bh, int op_flags, void *end_io, bool simu_fail);
