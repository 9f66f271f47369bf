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
	is(kblame_missing_symbols(&out, build_log, tmp, &touched, NULL, NULL), 0,
	   "grep runs");
	is(out.nr, 2, "two symbols the base lacks");
	is_str(out.nr > 0 ? out.v[0] : "", "ext4_emergency_state",
	       "the implicit declaration, first");
	is_str(out.nr > 1 ? out.v[1] : "", "EXT4_MF_NEW_FLAG", "the undeclared name");
	ok(!strvec_has(&out, "ext4_old_helper"),
	   "a helper the base defines (gcc's UTF-8 quotes) is not missing");
	strvec_clear(&out);
	is(kblame_missing_symbols(&out, build_log, tmp, NULL, NULL, NULL), 0,
	   "without the touched list");
	is(out.nr, 0, "the patched file counts, so nothing is missing");
	strvec_clear(&out);
	is(kblame_missing_symbols(&out, "kernel/x.c:1:1: error: expected ';'\n", tmp,
				  &touched, NULL, NULL), 0, "a syntax error");
	is(out.nr, 0, "names no symbol");
	strvec_clear(&out);
	strvec_clear(&touched);
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
	struct strvec missing = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;

	strvec_push(&missing, "ext4_emergency_state");
	verdict(&v, CI_BUILD_FAILED, false);
	kblame_classify(&v, &missing);
	is(v.kind, CI_UNTESTABLE, "a missing helper on another base: untestable");
	is_str(v.reason, "linux 6.12.118 lacks 'ext4_emergency_state', which the series "
	       "uses: it was written for a newer tree (base-commit 1a2b3c4d5e6f is not "
	       "in any base we have: newest first)", "the reason says what the base lacks");
	ci_verdict_text(&text, &v, NULL);
	ok(!strstr(text.buf, "does not build") && !strstr(text.buf, "booted") &&
	   starts_with(text.buf, "Could not test this series: "),
	   "the text blames nobody: %s", text.buf);
	strbuf_reset(&text);

	verdict(&v, CI_BUILD_FAILED, true);
	kblame_classify(&v, &missing);
	is(v.kind, CI_BUILD_FAILED, "on the series' own base it is the series'");

	verdict(&v, CI_BUILD_FAILED, false);
	kblame_classify(&v, NULL);
	is(v.kind, CI_BUILD_FAILED, "a build error naming nothing missing stays the series'");

	verdict(&v, CI_APPLY_FAILED, false);
	kblame_classify(&v, NULL);
	is(v.kind, CI_UNTESTABLE, "an apply failure on another base: untestable");
	ok(starts_with(v.reason, "it does not apply to linux 6.12.118, which is not the "
		       "tree it was written for"), "and why: %s", v.reason);

	verdict(&v, CI_APPLY_FAILED, true);
	kblame_classify(&v, NULL);
	is(v.kind, CI_APPLY_FAILED, "on its own base an apply failure is the series'");
	ci_verdict_release(&v);
	strvec_clear(&missing);
	strbuf_release(&text);
}

int main(void)
{
	if (!mkdtemp(tmp))
		return 1;
	test_missing();
	test_classify();
	tmp_remove(tmp);
	return done_testing();
}
