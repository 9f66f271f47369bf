/*
 * Unit tests for bot/kernel-ci/kblame.c: a build log naming a helper the
 * base tree lacks makes the verdict "untestable" on a base that is not the
 * series' own, and the failure stays the series' on its own base; an apply
 * failure elsewhere is untestable too.  The symbols are looked up with
 * grep in a small tree, not counting the files the series changes.
 */
#include "ci-words.h"
#include "kblame.h"
#include "tap.h"
#include "book.h"
#include "tmpdir.h"
#include "mkdirs.h"

#include <sys/stat.h>
#include <unistd.h>

static char tmp[] = "/tmp/t-kblame.XXXXXX";


/* gcc's words as a real ext4 series got them on 6.12 (issue 28). */
static const char build_log[] =
	"  CC      fs/ext4/inode.o\n"
	"fs/ext4/inode.c: In function 'ext4_evict_inode':\n"
	"fs/ext4/inode.c:180:13: error: implicit declaration of function "
	"'ext4_emergency_state' [-Werror=implicit-function-declaration]\n"
	"  180 |         if (ext4_emergency_state(inode->i_sb))\n"
	"fs/ext4/inode.c:181:20: error: 'EXT4_MF_NEW_FLAG' undeclared (first use in this function)\n"
	"fs/ext4/inode.c:190:9: error: implicit declaration of function "
	"\xe2\x80\x98" "ext4_old_helper" "\xe2\x80\x99" "\n"
	"make[3]: *** [scripts/Makefile.build:229: fs/ext4/inode.o] Error 1\n";

static void test_missing(void)
{
	struct strvec touched = STRVEC_INIT, out = STRVEC_INIT;

	tmp_put(tmp, "fs/ext4/super.c", "int ext4_old_helper(void) { return 0; }\n");
	/* The series' own use: the patched file does not count. */
	tmp_put(tmp, "fs/ext4/inode.c", "if (ext4_emergency_state(inode->i_sb) && EXT4_MF_NEW_FLAG)\n");
	/* A longer name holding the symbol is not the symbol. */
	tmp_put(tmp, "fs/ext4/ext4.h", "int ext4_emergency_state_old(void);\n");
	tmp_put(tmp, "fs/ext4/notes.txt", "ext4_emergency_state is not C\n");
	strvec_push(&touched, "fs/ext4/inode.c");
	is(kblame_missing_symbols(&out, NULL, build_log, tmp, &touched, NULL, NULL), 0,
	   "grep runs");
	is(out.nr, 2, "two symbols the base lacks");
	is_str(out.nr > 0 ? out.v[0] : "", "ext4_emergency_state",
	       "the implicit declaration, first");
	is_str(out.nr > 1 ? out.v[1] : "", "EXT4_MF_NEW_FLAG", "the undeclared name");
	ok(!strvec_has(&out, "ext4_old_helper"),
	   "a helper the base defines (gcc's UTF-8 quotes) is not missing");
	strvec_clear(&out);
	is(kblame_missing_symbols(&out, NULL, build_log, tmp, NULL, NULL, NULL), 0,
	   "without the touched list");
	is(out.nr, 0, "the patched file counts, so nothing is missing");
	strvec_clear(&out);
	is(kblame_missing_symbols(&out, NULL, "kernel/x.c:1:1: error: expected ';'\n",
				  tmp, &touched, NULL, NULL), 0, "a syntax error");
	is(out.nr, 0, "names no symbol");
	strvec_clear(&out);
	strvec_clear(&touched);
}


/*
 * Issue 39: every kind of name gcc and ld report, as they report it
 * (fs/ext4's "rotating block allocation" series used a struct member only
 * a newer tree has).  One error per kind about a name nobody knows, and
 * one per kind about a name the series itself defines or declares in a
 * file it changes, or that the base has: those stay the series' fault.
 */
static const char kinds_log[] =
	"fs/ext4/mballoc.c: In function 'ext4_mb_regular_allocator':\n"
	"fs/ext4/mballoc.c:2178:22: error: 'struct ext4_sb_info' has no member named "
	"'s_mb_nr_global_goals'\n"
	"fs/ext4/mballoc.c:2180:9: error: unknown type name \xe2\x80\x98" "ext4_goal_t"
	"\xe2\x80\x99\n"
	"fs/ext4/mballoc.c:2181:20: error: invalid use of undefined type 'struct ext4_goal_ctx'\n"
	"fs/ext4/mballoc.c:2182:13: error: 'CONFIG_EXT4_GOALS_MAX' undeclared (first use in "
	"this function)\n"
	"fs/ext4/mballoc.c:2183:13: error: 'EXT4_MB_GOAL_ROTATE' undeclared (first use in "
	"this function); did you mean 'EXT4_MB_HINT_GOAL_ONLY'?\n"
	"fs/ext4/mballoc.c:5:10: fatal error: linux/ext4_goals.h: No such file or directory\n"
	"    5 | #include <linux/ext4_goals.h>\n"
	"ld: fs/ext4/mballoc.o: in function `ext4_mb_regular_allocator':\n"
	"mballoc.c:(.text+0x1a2b): undefined reference to `ext4_goal_next'\n"
	/* The same kinds, about names the series adds itself. */
	"fs/ext4/super.c:10:5: error: 'struct ext4_sb_info' has no member named 's_own_member'\n"
	"fs/ext4/super.c:11:5: error: unknown type name 'ext4_own_t'\n"
	"fs/ext4/super.c:12:5: error: dereferencing pointer to incomplete type 'struct ext4_own_ctx'\n"
	"fs/ext4/super.c:13:5: error: 'CONFIG_EXT4_OWN' undeclared (first use in this function)\n"
	"fs/ext4/super.c:14:5: error: 'EXT4_OWN_STATE' undeclared (first use in this function)\n"
	"fs/ext4/super.c:15:5: error: implicit declaration of function 'ext4_own_fn'\n"
	"fs/ext4/super.c:16:5: error: 'EXT4_OWN_FLAG' undeclared here (not in a function)\n"
	"fs/ext4/super.c:3:10: fatal error: linux/ext4_own.h: No such file or directory\n";

static void test_kinds(void)
{
	struct strvec touched = STRVEC_INIT, out = STRVEC_INIT, whats = STRVEC_INIT;
	char dir[] = "/tmp/t-kblame-kinds.XXXXXX";

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	/* The series' uses: the file it changes. */
	tmp_put(dir, "fs/ext4/mballoc.c",
		"#include <linux/ext4_goals.h>\n"
		"static int f(struct ext4_sb_info *sbi)\n{\n"
		"\text4_goal_t g = sbi->s_mb_nr_global_goals;\n"
		"\tstruct ext4_goal_ctx *ctx = NULL;\n"
		"\tif (g > CONFIG_EXT4_GOALS_MAX || ctx->x == EXT4_MB_GOAL_ROTATE)\n"
		"\t\treturn ext4_goal_next(sbi);\n"
		"\treturn s_own_member;\n}\n");
	/* What the series declares itself, in the files it changes. */
	tmp_put(dir, "fs/ext4/ext4.h",
		"struct ext4_sb_info {\n\tunsigned int s_own_member;\n};\n"
		"typedef u64 ext4_own_t;\n"
		"struct ext4_own_ctx;\n"
		"enum {\n\tEXT4_OWN_STATE = 3,\n};\n"
		"int ext4_own_fn(struct super_block *sb);\n"
		"#define EXT4_OWN_FLAG 0x4\n");
	tmp_put(dir, "fs/ext4/Kconfig", "config EXT4_OWN\n\tint \"own\"\n");
	tmp_put(dir, "include/linux/ext4_own.h", "/* new */\n");
	/* The base: a longer name is not the name. */
	tmp_put(dir, "fs/ext4/ext4_base.h", "#define EXT4_MB_HINT_GOAL_ONLY 0x200\n"
		"int s_mb_nr_global_goals_old;\n");
	strvec_pushl(&touched, "fs/ext4/mballoc.c", "fs/ext4/ext4.h", "fs/ext4/Kconfig",
		     "include/linux/ext4_own.h", NULL);
	is(kblame_missing_symbols(&out, &whats, kinds_log, dir, &touched, NULL, NULL), 0,
	   "grep and find run");
	is(out.nr, 7, "seven names nobody knows (the cap is 8)");
	is_str(out.nr > 0 ? out.v[0] : "", "s_mb_nr_global_goals", "a struct member");
	is_str(whats.nr > 0 ? whats.v[0] : "", "the struct member", "said as one");
	is_str(out.nr > 1 ? out.v[1] : "", "ext4_goal_t", "a type (gcc's UTF-8 quotes)");
	is_str(whats.nr > 1 ? whats.v[1] : "", "the type", "said as one");
	is_str(out.nr > 2 ? out.v[2] : "", "ext4_goal_ctx", "a struct tag, without 'struct'");
	is_str(out.nr > 3 ? out.v[3] : "", "CONFIG_EXT4_GOALS_MAX", "a Kconfig symbol");
	is_str(whats.nr > 3 ? whats.v[3] : "", "the Kconfig symbol", "said as one");
	is_str(out.nr > 4 ? out.v[4] : "", "EXT4_MB_GOAL_ROTATE",
	       "an undeclared constant, not gcc's suggestion");
	is_str(out.nr > 5 ? out.v[5] : "", "linux/ext4_goals.h", "a header");
	is_str(whats.nr > 5 ? whats.v[5] : "", "the header", "said as one");
	is_str(out.nr > 6 ? out.v[6] : "", "ext4_goal_next", "ld's undefined reference");
	ok(!strvec_has(&out, "s_own_member") && !strvec_has(&out, "ext4_own_t") &&
	   !strvec_has(&out, "ext4_own_ctx") && !strvec_has(&out, "CONFIG_EXT4_OWN") &&
	   !strvec_has(&out, "EXT4_OWN_STATE") && !strvec_has(&out, "ext4_own_fn") &&
	   !strvec_has(&out, "EXT4_OWN_FLAG") && !strvec_has(&out, "linux/ext4_own.h"),
	   "what the series declares itself (member, typedef, tag, Kconfig entry, enum "
	   "constant, prototype, macro, header) is the series' fault");
	ok(!strvec_has(&out, "EXT4_MB_HINT_GOAL_ONLY"), "gcc's 'did you mean' is no name");
	strvec_clear(&out);
	strvec_clear(&whats);

	/* The same names known to the base (an untouched file): the series'. */
	tmp_put(dir, "fs/ext4/newer.h", "struct ext4_sb_info { int s_mb_nr_global_goals; };\n"
		"typedef int ext4_goal_t;\nstruct ext4_goal_ctx { int x; };\n"
		"#define EXT4_MB_GOAL_ROTATE 1\nint ext4_goal_next(void *);\n");
	tmp_put(dir, "fs/ext4/Kconfig.goals", "config EXT4_GOALS_MAX\n\tint\n");
	tmp_put(dir, "include/linux/ext4_goals.h", "\n");
	is(kblame_missing_symbols(&out, &whats, kinds_log, dir, &touched, NULL, NULL), 0,
	   "grep and find run again");
	is(out.nr, 0, "every name the base knows stays the series' fault");
	for (size_t i = 0; i < out.nr; i++)
		printf("# still missing: %s\n", out.v[i]);
	strvec_clear(&out);
	strvec_clear(&whats);
	strvec_clear(&touched);
	tmp_remove(dir);
}

static void verdict(struct ci_verdict *v, enum ci_verdict_kind k, bool own)
{
	ci_verdict_release(v);
	v->kind = k;
	v->own_base = own;
	v->base = xstrdup("6.12.118");
	v->base_why = xstrdup("base-commit 1a2b3c4d5e6f is not in any base we have: newest first");
	v->reason = xstrdup("the patched kernel does not build");
	v->build_error = xstrdup("fs/ext4/inode.c:180:13: error: implicit declaration");
}

static void test_classify(void)
{
	struct ci_verdict v = CI_VERDICT_INIT;
	struct strvec missing = STRVEC_INIT, whats = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;

	strvec_pushl(&missing, "ext4_emergency_state", "s_mb_nr_global_goals", NULL);
	strvec_pushl(&whats, "the function", "the struct member", NULL);
	verdict(&v, CI_BUILD_FAILED, false);
	kblame_classify(&v, &missing, &whats);
	is(v.kind, CI_UNTESTABLE, "a missing helper on another base: untestable");
	is_str(v.reason, "linux 6.12.118 lacks the function 'ext4_emergency_state' and "
	       "the struct member 's_mb_nr_global_goals', which the series uses and does "
	       "not add: it was written for a newer tree (base-commit 1a2b3c4d5e6f is not "
	       "in any base we have: newest first)", "the reason says what the base lacks");
	is(v.missing.nr, 2, "and the verdict keeps each, with its kind");
	ci_verdict_text(&text, &v, NULL, test_book());
	ok(!strstr(text.buf, "does not build") && !strstr(text.buf, "booted") &&
	   starts_with(text.buf, "Could not test this series: "),
	   "the text blames nobody: %s", text.buf);
	strbuf_reset(&text);

	verdict(&v, CI_BUILD_FAILED, true);
	kblame_classify(&v, &missing, &whats);
	is(v.kind, CI_BUILD_FAILED, "on the series' own base it is the series'");

	verdict(&v, CI_BUILD_FAILED, false);
	kblame_classify(&v, NULL, NULL);
	is(v.kind, CI_BUILD_FAILED, "a build error naming nothing missing stays the series'");

	verdict(&v, CI_APPLY_FAILED, false);
	kblame_classify(&v, NULL, NULL);
	is(v.kind, CI_UNTESTABLE, "an apply failure on another base: untestable");
	ok(starts_with(v.reason, "it does not apply to linux 6.12.118, which is not the "
		       "tree it was written for"), "and why: %s", v.reason);

	verdict(&v, CI_APPLY_FAILED, true);
	kblame_classify(&v, NULL, NULL);
	is(v.kind, CI_APPLY_FAILED, "on its own base an apply failure is the series'");
	ci_verdict_release(&v);
	strvec_clear(&missing);
	strvec_clear(&whats);
	strbuf_release(&text);
}

int main(void)
{
	if (!mkdtemp(tmp))
		return 1;
	test_missing();
	test_kinds();
	test_classify();
	tmp_remove(tmp);
	return done_testing();
}
