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
struct ext4_sb_info {
	__u32 s_csum_seed;
	unsigned int s_desc_size;
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
struct super_block { unsigned long s_blocksize; void *s_fs_info; };
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
struct buffer_head *ext4_append(handle_t *h, struct inode *inode, ext4_lblk_t *block);
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
	ext4_group_t lr_next_group; unsigned long lr_next_sched; };
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
