/*
 * byname: a hunk GNU patch refuses, placed in the base's function of the
 * name it gives (the signature checked, the context matched with drift),
 * and the facts read there with cfacts (issue 23 item 1).  The base is
 * ext4_ioctl_setlabel() of linux-source-6.12 (fs/ext4/ioctl.c); the
 * hunks are written against a made-up newer version of it.
 */
#include "byname.h"
#include "cfacts.h"
#include "tap.h"

/* fs/ext4/ioctl.c of 6.12, cut down: a prototype, then the definition. */
static const char base[] =
	"static int ext4_ioctl_setlabel(struct file *filp, const char __user *user_label);\n"
	"\n"
	"static int\n"
	"ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)\n"
	"{\n"
	"\tsize_t len;\n"
	"\tint ret = 0;\n"
	"\tchar new_label[EXT4_LABEL_MAX + 1];\n"
	"\tstruct super_block *sb = file_inode(filp)->i_sb;\n"
	"\n"
	"\tif (!capable(CAP_SYS_ADMIN))\n"
	"\t\treturn -EPERM;\n"
	"\n"
	"\t/*\n"
	"\t * Copy the maximum length allowed for ext4 label with one more to\n"
	"\t * find the required terminating null byte in order to test the\n"
	"\t * label length. The on disk label doesn't need to be null terminated.\n"
	"\t */\n"
	"\tif (copy_from_user(new_label, user_label, EXT4_LABEL_MAX + 1))\n"
	"\t\treturn -EFAULT;\n"
	"\n"
	"\tlen = strnlen(new_label, EXT4_LABEL_MAX + 1);\n"
	"\tif (len > EXT4_LABEL_MAX)\n"
	"\t\treturn -EINVAL;\n"
	"\n"
	"\t/*\n"
	"\t * Clear the buffer after the new label\n"
	"\t */\n"
	"\tmemset(new_label + len, 0, EXT4_LABEL_MAX - len);\n"
	"\n"
	"\tret = mnt_want_write_file(filp);\n"
	"\tif (ret)\n"
	"\t\treturn ret;\n"
	"\n"
	"\tret = ext4_update_superblocks_fn(sb, ext4_sb_setlabel, new_label);\n"
	"\n"
	"\tmnt_drop_write_file(filp);\n"
	"\treturn ret;\n"
	"}\n";

#define HEADER "diff --git a/fs/ext4/ioctl.c b/fs/ext4/ioctl.c\n" \
	"--- a/fs/ext4/ioctl.c\n+++ b/fs/ext4/ioctl.c\n"

/* The newer tree's strnlen() line is replaced: patch finds no such line. */
static const char modified[] = HEADER
	"@@ -21,7 +21,8 @@ static int ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)\n"
	" \tif (copy_from_user(new_label, user_label, sizeof(new_label)))\n"
	" \t\treturn -EFAULT;\n"
	" \n"
	"-\tlen = strnlen(new_label, sizeof(new_label));\n"
	"+\tlen = strnlen(new_label, EXT4_LABEL_MAX + 1);\n"
	"+\tWARN_ON(len > EXT4_LABEL_MAX);\n"
	" \tif (len > EXT4_LABEL_MAX)\n"
	" \t\treturn -EINVAL;\n"
	" \n";

/* A pure addition whose nearest line before the call changed, no signature shown. */
static const char drifted[] = HEADER
	"@@ -24,12 +24,13 @@\n"
	" \t\treturn -EFAULT;\n"
	" \n"
	" \tlen = strnlen(new_label, sizeof(new_label));\n"
	"+\tWARN_ON(len > EXT4_LABEL_MAX);\n"
	" \tif (len > EXT4_LABEL_MAX)\n"
	" \t\treturn -EINVAL;\n"
	" \n"
	" \t/*\n"
	" \t * Clear the buffer after the new label\n"
	" \t */\n"
	" \tmemset(new_label + len, 0, EXT4_LABEL_MAX - len);\n"
	" \n"
	" \tret = mnt_want_write_file(filp);\n";

/* Another signature: the newer function takes the label's length. */
static const char other_sig[] = HEADER
	"@@ -21,7 +21,8 @@ static int ext4_ioctl_setlabel(struct file *filp, const char __user *user_label, size_t size)\n"
	" \tif (copy_from_user(new_label, user_label, sizeof(new_label)))\n"
	" \t\treturn -EFAULT;\n"
	" \n"
	"-\tlen = strnlen(new_label, sizeof(new_label));\n"
	"+\tlen = strnlen(new_label, EXT4_LABEL_MAX + 1);\n"
	"+\tWARN_ON(len > EXT4_LABEL_MAX);\n"
	" \tif (len > EXT4_LABEL_MAX)\n"
	" \t\treturn -EINVAL;\n"
	" \n";

/* No signature shown and a context the base function does not have. */
static const char unrelated[] = HEADER
	"@@ -24,6 +24,7 @@\n"
	" \tspin_lock(&sbi->s_md_lock);\n"
	" \tlen = sbi->s_label_len;\n"
	" \tspin_unlock(&sbi->s_md_lock);\n"
	"+\tWARN_ON(len > EXT4_LABEL_MAX);\n"
	" \tif (len > EXT4_LABEL_MAX)\n"
	" \t\treturn -EINVAL;\n"
	" \tret = ext4_journal_start(sb);\n";

/* The declaration matches, but only lines far above the call are in the base. */
static const char far[] = HEADER
	"@@ -9,9 +9,10 @@ static int ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)\n"
	" \tif (!capable(CAP_SYS_ADMIN))\n"
	" \t\treturn -EPERM;\n"
	" \tlabel_lock(sb);\n"
	" \tlabel_check(sb);\n"
	" \tlabel_more(sb);\n"
	" \tlabel_unlock(sb);\n"
	"+\tWARN_ON(len > EXT4_LABEL_MAX);\n"
	" \tfoo();\n"
	" \tbar();\n"
	" \tbaz();\n";

/* More lines match far above (the declarations) than near the call (one). */
static const char near_only[] = HEADER
	"@@ -6,7 +6,8 @@ static int ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)\n"
	" \tsize_t len;\n"
	" \tint ret = 0;\n"
	" \tchar new_label[EXT4_LABEL_MAX + 1];\n"
	" \tlabel_x(sb);\n"
	" \tlabel_y(sb);\n"
	" \tmnt_drop_write_file(filp);\n"
	"+\tWARN_ON(len > EXT4_LABEL_MAX);\n"
	" \treturn ret;\n";


/* A new function, added whole after the base's function. */
static const char added_whole[] = HEADER
	"@@ -50,3 +50,12 @@ ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)\n"
	" \tmnt_drop_write_file(filp);\n"
	" \treturn ret;\n"
	" }\n"
	"+\n"
	"+static int\n"
	"+ext4_label_len(const char *label)\n"
	"+{\n"
	"+\tsize_t len = strnlen(label, EXT4_LABEL_MAX + 1);\n"
	"+\n"
	"+\tBUG_ON(len > EXT4_LABEL_MAX);\n"
	"+\treturn len;\n"
	"+}\n";

/* ext4_ioctl_setlabel() added whole, as a newer tree has it, under
 * context the base does not have: it replaces the base's. */
static const char readded[] = HEADER
	"@@ -3,2 +3,8 @@ struct frob {\n"
	" \tint a;\n"
	" };\n"
	"+static int\n"
	"+ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)\n"
	"+{\n"
	"+\tWARN_ON(!filp);\n"
	"+\treturn 0;\n"
	"+}\n";

/* Only the head and the call are added: the rest of the body is context. */
static const char partial[] = HEADER
	"@@ -50,3 +50,7 @@ ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)\n"
	" }\n"
	"+static int\n"
	"+ext4_label_len(const char *label)\n"
	"+{\n"
	"+\tBUG_ON(!label);\n"
	" \treturn 0;\n"
	" }\n";

struct want {
	int line;
	const char *function;
	struct byname_hunk *out;
	bool found;
};

static int take(const struct diff_file *f, void *data)
{
	struct want *w = data;

	for (size_t i = 0; i < f->nr && !w->found; i++)
		w->found = !byname_hunk_read(w->out, &f->hunks[i], w->line, w->function);
	return 0;
}

typedef int (*placer)(struct strbuf *out, int *line, const char *text, size_t len,
		      const struct byname_hunk *h);

/* `how` (byname_place(), byname_append()) of the hunk of `patch` with
 * added line `line` in `base`. */
static int put(placer how, struct strbuf *out, int *at, struct byname_hunk *h,
	       const char *patch, int line, const char *function)
{
	struct want w = { line, function, h, false };

	byname_hunk_release(h);
	strbuf_reset(out);
	*at = 0;
	if (diff_parse(patch, strlen(patch), NULL, take, &w) || !w.found) {
		printf("# no hunk with line %d: %s\n", line, error_last());
		return -1;
	}
	return how(out, at, base, strlen(base), h);
}

static int place(struct strbuf *out, int *at, struct byname_hunk *h, const char *patch,
		 int line, const char *function)
{
	return put(byname_place, out, at, h, patch, line, function);
}

/* Line `n` (1-based) of `text`, trimmed. */
static const char *line_of(struct strbuf *sb, const char *text, int n)
{
	const char *p = text;

	for (int i = 1; i < n && p; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	strbuf_reset(sb);
	if (p)
		strbuf_add(sb, p, strcspn(p, "\n"));
	strbuf_trim(sb);
	return sb->buf;
}

static size_t count(const char *text, const char *s)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, s)); p += strlen(s))
		n++;
	return n;
}

static int append(struct strbuf *out, int *at, struct byname_hunk *h, const char *patch,
		  int line, const char *function)
{
	return put(byname_append, out, at, h, patch, line, function);
}

static void test_append(void)
{
	struct byname_hunk h = BYNAME_HUNK_INIT;
	struct strbuf out = STRBUF_INIT, sb = STRBUF_INIT;
	size_t base_lines = count(base, "\n");
	int at;

	is(append(&out, &at, &h, added_whole, 59, "ext4_label_len"), 0, "added whole: placed");
	is(at, (int)base_lines + 7, "  after the base and a blank line, at the call's line");
	is_str(line_of(&sb, out.buf, at), "BUG_ON(len > EXT4_LABEL_MAX);", "  the call is there");
	is_str(line_of(&sb, out.buf, at - 5), "static int", "  the return type's line comes along");
	ok(!strncmp(out.buf, base, strlen(base)), "  the base is kept whole before it");
	is((int)count(out.buf, "ext4_ioctl_setlabel(struct file"), 2,
	   "  the base's prototype and definition are still there");
	ok(byname_place(&sb, &at, base, strlen(base), &h) != 0,
	   "  byname_place() cannot: no such function in the base");
	error_clear();

	is(append(&out, &at, &h, readded, 8, "ext4_ioctl_setlabel"), 0, "re-added: placed");
	is_str(line_of(&sb, out.buf, at), "WARN_ON(!filp);", "  the call is there");
	is((int)count(out.buf, "\next4_ioctl_setlabel("), 1, "  the base's definition is replaced");
	ok(!strstr(out.buf, "mnt_want_write_file"), "  none of the base's body is left");
	ok(strstr(out.buf, "const char __user *user_label);\n") != NULL,
	   "  the prototype above it stays");

	ok(append(&out, &at, &h, partial, 54, "ext4_label_len") != 0,
	   "a body not added whole: not placed");
	error_clear();
	ok(append(&out, &at, &h, added_whole, 59, "ext4_other") != 0,
	   "the hunk does not define the function named: not placed");
	error_clear();
	byname_hunk_release(&h);
	strbuf_release(&out);
	strbuf_release(&sb);
}

static void test_hunk_read(void)
{
	struct byname_hunk h = BYNAME_HUNK_INIT;
	struct want w = { 25, "ext4_ioctl_setlabel", &h, false };

	is(diff_parse(modified, strlen(modified), NULL, take, &w), 0, "hunk: parsed");
	ok(w.found, "hunk: the added line 25 found");
	is((int)h.before.nr, 3, "three pre-image lines before the block");
	is((int)h.removed.nr, 1, "the block removes one line");
	is((int)h.added.nr, 2, "and adds two");
	is((int)h.call, 1, "the call is the block's second added line");
	is((int)h.after.nr, 3, "three lines after");
	is(h.old_line, 24, "the block starts at old line 24");
	is_str(h.shown ? h.shown : "(null)",
	       "static int ext4_ioctl_setlabel(struct file *filp, const char __user *user_label)",
	       "the declaration shown: the @@ header's context");
	byname_hunk_release(&h);
	w.found = false;
	w.line = 99;
	diff_parse(modified, strlen(modified), NULL, take, &w);
	ok(!w.found, "hunk: no added line 99");
	error_clear();
	byname_hunk_release(&h);
}

static void test_place(void)
{
	struct byname_hunk h = BYNAME_HUNK_INIT;
	struct strbuf out = STRBUF_INIT, sb = STRBUF_INIT;
	int at;

	/* The removed line changed in the base: the one where the context after follows goes. */
	is(place(&out, &at, &h, modified, 25, "ext4_ioctl_setlabel"), 0, "modified: placed");
	is(at, 23, "the call after the replaced strnlen() line");
	is_str(line_of(&sb, out.buf, at), "WARN_ON(len > EXT4_LABEL_MAX);", "  the call is there");
	is_str(line_of(&sb, out.buf, at - 1), "len = strnlen(new_label, EXT4_LABEL_MAX + 1);",
	       "  the added line before it");
	is_str(line_of(&sb, out.buf, at + 1), "if (len > EXT4_LABEL_MAX)", "  the context after it");
	is((int)count(out.buf, "len = strnlen("), 1, "  the base's own strnlen() line replaced");
	is((int)count(out.buf, "ext4_update_superblocks_fn"), 1, "  the rest kept");

	/* Pure addition, the nearest context line changed, the signature not shown. */
	is(place(&out, &at, &h, drifted, 27, "ext4_ioctl_setlabel"), 0, "drifted: placed");
	ok(!h.shown, "  no declaration shown: the context decides");
	is_str(line_of(&sb, out.buf, at), "WARN_ON(len > EXT4_LABEL_MAX);", "  the call is there");
	is_str(line_of(&sb, out.buf, at - 1), "len = strnlen(new_label, EXT4_LABEL_MAX + 1);",
	       "  after the changed line, not before it");
	is_str(line_of(&sb, out.buf, at + 1), "if (len > EXT4_LABEL_MAX)", "  before the if");
	is((int)count(out.buf, "len = strnlen("), 1, "  nothing dropped");

	/* What cfacts reads there: the facts of the base function. */
	{
		const char *top = getenv("WW_TOP");
		struct strvec flags = STRVEC_INIT;
		struct cfacts_opts o = CFACTS_OPTS_INIT;
		struct cfacts f = CFACTS_INIT;

		strvec_pushf(&flags, "-include%s/tests/unit/data/cfacts/kernel.h",
			     top && *top ? top : ".");
		o.macro = "WARN_ON";
		o.flags = &flags;
		is(cfacts_read(&f, "fs/ext4/ioctl.c", out.buf, out.len, at, &o), 0,
		   "drifted: cfacts read the placed call");
		ok(f.found && f.function && !strcmp(f.function, "ext4_ioctl_setlabel"),
		   "  in the function named");
		is(f.ret, CF_RET_INT, "  which returns int");
		is_str(f.user ? f.user : "(null)", "len", "  len comes from user space");
		cfacts_release(&f);
		strvec_clear(&flags);
	}

	ok(place(&out, &at, &h, other_sig, 25, "ext4_ioctl_setlabel") == WW_ENOTFOUND,
	   "another signature shown: not placed");
	error_clear();
	is(place(&out, &at, &h, near_only, 12, "ext4_ioctl_setlabel"), 0,
	   "three lines match far above, one right above the call: placed");
	is_str(line_of(&sb, out.buf, at - 1), "mnt_drop_write_file(filp);",
	       "  after the one near the call, not the far ones");
	ok(place(&out, &at, &h, far, 15, "ext4_ioctl_setlabel") == WW_ENOTFOUND,
	   "the declaration shown, but none of the three lines above the call: not placed");
	error_clear();
	ok(place(&out, &at, &h, unrelated, 27, "ext4_ioctl_setlabel") == WW_ENOTFOUND,
	   "no signature, context not in the function: not placed");
	error_clear();
	ok(place(&out, &at, &h, modified, 25, "ext4_ioctl_getlabel") == WW_ENOTFOUND,
	   "no function of that name: not placed");
	error_clear();
	ok(place(&out, &at, &h, modified, 25, "") == WW_ENOTFOUND, "no name: not placed");
	error_clear();
	ok(!out.len && !at, "  and nothing written");
	byname_hunk_release(&h);
	strbuf_release(&out);
	strbuf_release(&sb);
}

/* Fuzz put the drifted hunk's call after the function's end: taken out again. */
static void test_unplace(void)
{
	struct byname_hunk h = BYNAME_HUNK_INIT;
	struct strbuf blind = STRBUF_INIT, out = STRBUF_INIT, placed = STRBUF_INIT;
	int at, end = 0;

	is(place(&placed, &at, &h, drifted, 27, "ext4_ioctl_setlabel"), 0, "unplace: the hunk");
	strbuf_addf(&blind, "%s%s\n", base, h.added.v[0]);
	for (const char *p = blind.buf; *p; p++)
		end += *p == '\n';
	is(byname_unplace(&out, blind.buf, blind.len, &h, end), 0, "unplace: the call on the last line");
	is_str(out.buf, base, "  the base as it was");
	strbuf_reset(&out);
	ok(byname_unplace(&out, blind.buf, blind.len, &h, end - 1) == WW_ENOTFOUND,
	   "  not where the lines are not the hunk's");
	error_clear();
	ok(byname_unplace(&out, blind.buf, blind.len, &h, end + 5) == WW_ENOTFOUND,
	   "  not past the end");
	error_clear();
	ok(!out.len, "  and nothing written");
	byname_hunk_release(&h);
	strbuf_release(&blind);
	strbuf_release(&out);
	strbuf_release(&placed);
}

/*
 * A function whose head is a macro: libclang names it after the
 * expansion, the hunk after the macro; byname_defines() tells that the
 * definition libclang found is the one the hunk names.
 */
static void test_macro_head(void)
{
	static const char text[] =
		"#define SYSCALL_DEFINE1(name, t, a) long __do_sys_##name(t a)\n"
		"SYSCALL_DEFINE1(frob, int, x)\n"
		"{\n"
		"\tWARN_ON(x < 0);\n"
		"\treturn 0;\n"
		"}\n"
		"\n"
		"static int\n"
		"frob_more(int x)\n"
		"{\n"
		"\treturn x;\n"
		"}\n";
	const char *top = getenv("WW_TOP");
	struct strvec flags = STRVEC_INIT;
	struct cfacts_opts o = CFACTS_OPTS_INIT;
	struct cfacts f = CFACTS_INIT;

	strvec_pushf(&flags, "-include%s/tests/unit/data/cfacts/kernel.h", top && *top ? top : ".");
	o.macro = "WARN_ON";
	o.flags = &flags;
	is(cfacts_read(&f, "kernel/frob.c", text, strlen(text), 4, &o), 0, "macro head: read");
	is_str(f.function ? f.function : "(null)", "__do_sys_frob", "  libclang's name: the expansion's");
	is(f.def_line, 2, "  the definition starts on the macro's line");
	ok(byname_defines(text, strlen(text), f.def_line, "SYSCALL_DEFINE1"),
	   "  which defines what the hunk names");
	ok(!byname_defines(text, strlen(text), f.def_line, "frob_more"), "  not the next function");
	ok(byname_defines(text, strlen(text), 8, "frob_more"), "a return type on its own line");
	ok(!byname_defines(text, strlen(text), 0, "SYSCALL_DEFINE1"), "line 0: unknown, no");
	cfacts_release(&f);
	strvec_clear(&flags);
}

int main(void)
{
	test_hunk_read();
	test_place();
	test_unplace();
	test_append();
	test_macro_head();
	return done_testing();
}
