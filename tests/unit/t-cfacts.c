/*
 * cfacts: facts about an added call from the file after the patch, on
 * real functions of linux-source-6.12 (tests/unit/data/cfacts/, each
 * with one made-up call) read with a cut-down kernel.h as the flags.
 */
#include "cfacts.h"
#include "tap.h"

static struct strvec alloc_calls = STRVEC_INIT;

/* Facts for the call of `macro` on the line of data file `name` that holds `call`. */
static int facts(struct cfacts *out, const char *name, const char *macro, const char *call)
{
	const char *top = getenv("WW_TOP");
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strvec flags = STRVEC_INIT;
	struct cfacts_opts o = CFACTS_OPTS_INIT;
	const char *at;
	int line = 1, ret;

	top = top && *top ? top : ".";
	strbuf_addf(&path, "%s/tests/unit/data/cfacts/%s", top, name);
	if (strbuf_read_file(&text, path.buf, 1 << 20)) {
		printf("# %s\n", error_last());
		ret = -1;
		goto out;
	}
	/* The call itself, indented: the comment on top names it too. */
	at = strstr(text.buf, call);
	while (at && at > text.buf && at[-1] != '\t')
		at = strstr(at + 1, call);
	for (const char *p = text.buf; at && p < at; p++)
		line += *p == '\n';
	strvec_pushf(&flags, "-include%s/tests/unit/data/cfacts/kernel.h", top);
	o.macro = macro;
	o.alloc_calls = &alloc_calls;
	o.flags = &flags;
	cfacts_release(out);
	ret = at ? cfacts_read(out, path.buf, text.buf, text.len, line, &o) : -1;
	if (ret)
		printf("# %s: %s\n", name, at ? error_last() : "call not in the file");
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strvec_clear(&flags);
	return ret;
}

static const char *str(const char *s)
{
	return s ? s : "(null)";
}

int main(void)
{
	struct cfacts f = CFACTS_INIT;

	strvec_pushl(&alloc_calls, "kmalloc(", "kzalloc(", "kvmalloc(", NULL);

	/* super.c ext4_li_info_new(): WARN_ON(!eli) right after kzalloc(). */
	is(facts(&f, "li-info-new.c", "WARN_ON", "WARN_ON(!eli)"), 0, "li-info-new: read");
	ok(f.found && !strcmp(str(f.function), "ext4_li_info_new"), "the enclosing function");
	is(f.ret, CF_RET_INT, "returns int");
	is_str(str(f.exit), "return -ENOMEM;", "nearest failure exit: the one below");
	is_str(str(f.alloc), "eli", "tests the result of kzalloc()");
	ok(f.follows && !f.recovers, "statements follow; the next one is an if, not a way out");
	ok(!f.deref, "not dereferenced before the if that tests it again");
	ok(!f.disk && !f.user && !f.impossible && !f.dup_if && !f.cond_or, "no other fact");
	ok(!f.statement_macro && !f.assertion, "WARN_ON is a value, not an assertion");

	/* The allocator warns only without __GFP_NOWARN (GFP_NOWAIT has it
	 * since 6.11), and flags passed in may hold it: no alloc fact then. */
	is(facts(&f, "alloc-nowarn.c", "WARN_ON", "WARN_ON(!a)"), 0, "alloc-nowarn: read");
	ok(f.found && !f.alloc, "__GFP_NOWARN: the allocator is silent, no alloc fact");
	is(facts(&f, "alloc-nowarn.c", "WARN_ON", "WARN_ON(!b)"), 0, "alloc-nowarn: read b");
	ok(f.found && !f.alloc, "flags from a variable: not known to warn, no alloc fact");
	is(facts(&f, "alloc-nowarn.c", "WARN_ON", "WARN_ON(!c)"), 0, "alloc-nowarn: read c");
	ok(f.found && !f.alloc, "GFP_NOWAIT: no alloc fact");
	is(facts(&f, "alloc-nowarn.c", "WARN_ON", "WARN_ON(!d)"), 0, "alloc-nowarn: read d");
	is_str(str(f.alloc), "d", "GFP_KERNEL: the allocator warns, alloc fact");

	/* super.c ext4_li_request_new(): an unsigned ext4_group_t < 0. */
	is(facts(&f, "li-request-new.c", "WARN_ON", "WARN_ON(start < 0)"), 0, "li-request-new: read");
	is(f.ret, CF_RET_PTR, "returns a pointer, no ERR_PTR() in it");
	is_str(str(f.ret_type), "struct ext4_li_request *", "the return type as written");
	is_str(str(f.impossible), "start < 0", "unsigned < 0 cannot hold");
	is_str(str(f.exit), "return NULL;", "its failure exit: return NULL");
	ok(f.follows, "statements follow");

	/* ioctl.c ext4_ioctl_setlabel(): len comes from a user copy. */
	is(facts(&f, "ioctl-setlabel.c", "WARN_ON", "WARN_ON(len > EXT4_LABEL_MAX)"), 0,
	   "ioctl-setlabel: read");
	is_str(str(f.user), "len", "len is computed from what copy_from_user() filled");
	is_str(str(f.exit), "return -EINVAL;", "the nearest exit: the check right below");
	ok(!f.disk && !f.impossible, "not disk data, not impossible");

	/* ioctl.c ext4_ioctl_checkpoint(): flags copied from the ioctl's arg. */
	is(facts(&f, "ioctl-checkpoint.c", "WARN_ON_ONCE",
		 "WARN_ON_ONCE(flags & ~EXT4_IOC_CHECKPOINT_FLAG_VALID)"), 0, "ioctl-checkpoint: read");
	is_str(str(f.user), "flags", "flags came from copy_from_user(&flags, arg)");
	is_str(str(f.exit), "return -EFAULT;", "the nearest exit, above it (a tie goes up)");

	/* bitmap.c ext4_inode_bitmap_csum_verify(): provided came from __le16. */
	is(facts(&f, "bitmap-csum-verify.c", "WARN_ON", "WARN_ON(provided != calculated)"), 0,
	   "bitmap-csum-verify: read");
	is_str(str(f.disk), "provided", "a local assigned from le16_to_cpu(gdp->...) is disk data");
	ok(!f.follows && f.recovers, "the function returns right after it");
	ok(!f.exit, "no failure exit: its returns are 1 and a comparison");
	is(f.ret, CF_RET_BOOL, "an int that returns 1 or a comparison carries a truth value");
	ok(!f.user, "not from user space");

	/* resize.c ext4_get_bitmap(): the if around tests the same. */
	is(facts(&f, "get-bitmap.c", "WARN_ON", "WARN_ON(!bh_uptodate_or_lock(bh))"), 0,
	   "get-bitmap: read");
	ok(f.dup_if, "the enclosing if tests the same condition");
	is_str(str(f.exit), "return NULL;", "its failure exit");
	is(f.ret, CF_RET_PTR, "pointer");

	/* bitmap.c ext4_inode_bitmap_csum_set(): void; sbi used right after. */
	is(facts(&f, "bitmap-csum-set.c", "WARN_ON", "WARN_ON(!sbi)"), 0, "bitmap-csum-set: read");
	is(f.ret, CF_RET_VOID, "void");
	ok(!f.deref, "the next statement is an if that leaves: not a dereference yet");
	ok(f.follows && !f.recovers, "the code carries on");

	/* namei.c ext4_init_new_dir(): "if (err) goto out;" is the way out. */
	is(facts(&f, "init-new-dir.c", "WARN_ON", "WARN_ON(inode->i_size)"), 0, "init-new-dir: read");
	is_str(str(f.exit), "goto out;", "mirrors the goto, not return PTR_ERR(dir_block)");
	is_str(str(f.exit_var), "err", "... which needs err set first");
	ok(!f.user && !f.disk, "no disk or user data");
	ok(!f.corrupt, "no corruption errno: it returns none");

	/* namei.c ext4_append(): its corruption errno is not the nearest's. */
	is(facts(&f, "ext4-append.c", "WARN_ON_ONCE", "WARN_ON_ONCE(!inode->i_sb->s_blocksize_bits)"),
	   0, "ext4-append: read");
	is_str(str(f.exit), "return ERR_PTR(-ENOSPC);", "the nearest exit: the full directory's");
	is_str(str(f.corrupt), "-EFSCORRUPTED", "... but its own corruption errno is -EFSCORRUPTED");

	/* jbd2 __jbd2_journal_drop_transaction(): an assertion. */
	is(facts(&f, "jbd2-drop-transaction.c", "J_ASSERT", "J_ASSERT(transaction->t_tid != 0)"), 0,
	   "jbd2: read");
	ok(f.assertion && f.statement_macro, "J_ASSERT states what holds, as a statement");
	is(f.ret, CF_RET_VOID, "void");

	/* mm/gup.c try_grab_folio_fast(): VM_WARN_ON_ONCE is a statement. */
	is(facts(&f, "gup-try-grab-folio-fast.c", "VM_WARN_ON_ONCE", "VM_WARN_ON_ONCE(!refs)"), 0,
	   "gup: read");
	ok(f.statement_macro && !f.assertion, "VM_WARN_ON_ONCE cannot be a condition");
	is_str(str(f.exit), "return NULL;", "its failure exit");

	/* fs/ioctl.c ioctl_file_dedupe_range(): get_user() into count; the
	 * exit above sets ret in an expression statement, which needs its ';'. */
	is(facts(&f, "dedupe-range.c", "WARN_ON", "WARN_ON(!count)"), 0, "dedupe-range: read");
	is_str(str(f.user), "count", "count was filled by get_user()");
	is_str(str(f.exit), "ret = -EFAULT;\ngoto out;", "the exit above, each statement with its ';'");

	/* A sysfs store: what kstrtoul() parses out of its buf. */
	is(facts(&f, "sysfs-readahead-store.c", "WARN_ON_ONCE", "WARN_ON_ONCE(t > 0x40000000)"), 0,
	   "sysfs-readahead-store: read");
	is_str(str(f.user), "t", "t was parsed from the buffer user space wrote");

	/* A generic netlink request: nla_get_u32() of an attribute. */
	is(facts(&f, "netdev-napi-get.c", "WARN_ON_ONCE", "WARN_ON_ONCE(!napi_id)"), 0,
	   "netdev-napi-get: read");
	is_str(str(f.user), "napi_id", "napi_id came from a netlink attribute");

	/* No call on the line; no function around it. */
	ok(facts(&f, "li-info-new.c", "BUG_ON", "WARN_ON(!eli)") == WW_ENOTFOUND,
	   "no such call on the line: WW_ENOTFOUND");

	cfacts_release(&f);
	strvec_clear(&alloc_calls);
	return done_testing();
}
