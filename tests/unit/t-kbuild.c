/*
 * Unit tests for kbuild.c's parts that need no kernel: which line of a
 * failed make is quoted, with sandbox paths turned back into tree paths,
 * and where base.config is looked for.
 */
#include "kbuild.h"
#include "env.h"
#include "tap.h"

static void first_error(struct strbuf *out, const char *log)
{
	strbuf_reset(out);
	kbuild_first_error(out, log, strlen(log));
}

static void test_first_error(void)
{
	struct strbuf sb = STRBUF_INIT;

	first_error(&sb,
		"make[1]: Entering directory '/ww/build'\n"
		"  CC      kernel/time/timer.o\n"
		"  CC      kernel/time/timeconv.o\n"
		"../src/kernel/time/timeconv.c: In function 'time64_to_tm':\n"
		"../src/kernel/time/timeconv.c:56:17: error: expected ')' before 'totalsecs'\n"
		"   56 |                 totalsecs = 0;\n"
		"      |                 ^~~~~~~~~\n"
		"../src/kernel/time/timeconv.c:99:1: error: second error\n"
		"make[3]: *** [/ww/src/scripts/Makefile.build:250: kernel/time/timeconv.o] Error 1\n");
	is_str(sb.buf,
	       "kernel/time/timeconv.c: In function 'time64_to_tm':\n"
	       "kernel/time/timeconv.c:56:17: error: expected ')' before 'totalsecs'\n"
	       "   56 |                 totalsecs = 0;\n"
	       "      |                 ^~~~~~~~~",
	       "gcc's first error with its function, source line and caret; sandbox paths gone");

	first_error(&sb,
		"  CC      a.o\n"
		"/ww/src/drivers/x.c:3:1: warning: unused\n"
		"/ww/src/drivers/x.c:9:2: fatal error: missing.h: No such file or directory\n"
		"compilation terminated.\n");
	is_str(sb.buf, "drivers/x.c:9:2: fatal error: missing.h: No such file or directory",
	       "a fatal error (an absolute /ww/src path)");

	first_error(&sb,
		"  LD      vmlinux.o\n"
		"ld: vmlinux.o: in function `foo':\n"
		"/ww/src/kernel/foo.c:12: undefined reference to `bar'\n"
		"make[1]: *** [Makefile:1234: vmlinux] Error 1\n");
	is_str(sb.buf, "kernel/foo.c:12: undefined reference to `bar'",
	       "a linker error");

	first_error(&sb,
		"  OBJCOPY arch/x86/boot/vmlinux.bin\n"
		"  BUILD   arch/x86/boot/bzImage\n"
		"Unexpected file size 'arch/x86/boot/vmlinux.bin': 2688000 != 2688012\n"
		"make[2]: *** [/ww/src/arch/x86/boot/Makefile:98: arch/x86/boot/bzImage] Error 1\n");
	is_str(sb.buf, "Unexpected file size 'arch/x86/boot/vmlinux.bin': 2688000 != 2688012",
	       "the decompressor size check of 6.1");

	first_error(&sb,
		"  CC      kernel/time/timeconv.o\n"
		"bash: connect: Connection refused\n"
		"make[3]: *** [/ww/src/kernel/time/Makefile:30: kernel/time/ww-net-probe] Error 1\n"
		"make[2]: *** [/ww/src/scripts/Makefile.build:500: kernel/time] Error 2\n");
	is_str(sb.buf, "bash: connect: Connection refused",
	       "otherwise the line before make's first ***");

	first_error(&sb, "  CC      a.o\n  LD      vmlinux\n");
	is_str(sb.buf, "", "nothing recognised: nothing quoted");
	strbuf_release(&sb);
}

static void test_config_dir(void)
{
	struct strbuf sb = STRBUF_INIT;

	setenv("WARNWATCH_KERNEL_CI", "/some/where", 1);
	env_reload();
	kbuild_config_dir(&sb);
	is_str(sb.buf, "/some/where", "$WARNWATCH_KERNEL_CI wins");
	unsetenv("WARNWATCH_KERNEL_CI");
	env_reload();
	strbuf_reset(&sb);
	kbuild_config_dir(&sb);
	ok(ends_with(sb.buf, "/kernel-ci"), "else a kernel-ci directory: %s", sb.buf);
	strbuf_release(&sb);
}

int main(void)
{
	test_first_error();
	test_config_dir();
	return done_testing();
}
