/*
 * The few kernel declarations the snippets of this directory need to be
 * read as the kernel reads them (t-cfacts passes it with -include): the
 * types and macros as linux-source-6.12 defines them, cut down.  Names
 * the snippets use and this leaves out stay unknown: libclang recovers,
 * but an unknown name inside a condition drops the condition's
 * expression, so the names the conditions use are declared here.
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
#define __GFP_NOWARN 0x2000u
#define GFP_NOWAIT (0x800u | __GFP_NOWARN)
#define ENOMEM 12
#define EFAULT 14
#define EINVAL 22
#define EPERM 1
#define ENODEV 19
#define EOPNOTSUPP 95
#define ENOSPC 28
#define EUCLEAN 117
#define EFSCORRUPTED EUCLEAN
#define EXT4_LABEL_MAX 16
#define unlikely(x) __builtin_expect(!!(x), 0)
#define le16_to_cpu(x) ((__force __u16)(__le16)(x))
#define cpu_to_le16(x) ((__force __le16)(__u16)(x))
#define BUILD_BUG_ON_INVALID(e) ((void)(sizeof((__force long)(e))))
#define WARN_ON(condition) ({ int __ret_warn_on = !!(condition); \
	if (unlikely(__ret_warn_on)) __warn(); unlikely(__ret_warn_on); })
#define WARN_ON_ONCE(condition) WARN_ON(condition)
#define VM_WARN_ON_ONCE(cond) BUILD_BUG_ON_INVALID(cond)
#define BUG() __builtin_trap()
#define BUG_ON(condition) do { if (unlikely(condition)) BUG(); } while (0)
#define J_ASSERT(assert) BUG_ON(!(assert))
void __warn(void);
void *kzalloc(size_t size, gfp_t flags);
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
size_t strnlen(const char *s, size_t n);
void *ERR_PTR(long error);

struct buffer_head { char *b_data; };
struct ext4_group_desc {
	__le16 bg_inode_bitmap_csum_lo;
	__le16 bg_inode_bitmap_csum_hi;
};
struct ext4_sb_info {
	__u32 s_csum_seed;
	unsigned int s_desc_size;
};
struct inode { long long i_size; };
struct ext4_lazy_init { unsigned long li_state; };
#define EXT4_IOC_CHECKPOINT_FLAG_VALID 0x7
/* netdev-napi-get.c */
struct nlattr;
struct genl_info { struct nlattr **attrs; };
enum { NETDEV_A_NAPI_ID = 2 };
__u32 nla_get_u32(const struct nlattr *nla);
