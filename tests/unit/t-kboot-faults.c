/*
 * Boots that go wrong, with the real QEMU and no kernel build: a bogus
 * bzImage (QEMU refuses it at once), a "kernel" that never boots (a
 * multiboot image that spins: the deadline must stop it), a QEMU that
 * dies mid-boot (SIGKILL), and a QEMU that is not there.  Each must end
 * in bounded time with the verdict or the one error ci reports.  Without
 * qemu-system-x86_64 every test is a SKIP.
 */
#include "ci-json.h"
#include "console.h"
#include "kboot.h"
#include "tap.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/t-kboot-faults.XXXXXX";

static bool have_qemu(void)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	bool found = false;

	while (path && *path && !found) {
		size_t n = strcspn(path, ":");

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*s/qemu-system-x86_64", (int)n, path);
		found = !access(sb.buf, X_OK);
		path += n + (path[n] == ':');
	}
	strbuf_release(&sb);
	return found;
}

static void write_file(const char *name, const void *data, size_t len, int mode)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", dir, name);
	strbuf_add(&sb, data, len);
	if (strbuf_write_file(&sb, path.buf) < 0 || chmod(path.buf, mode) < 0)
		BUG("cannot write '%s'", path.buf);
	strbuf_release(&path);
	strbuf_release(&sb);
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* A multiboot (a.out kludge) image whose entry point is "jmp $". */
static void spin_kernel(const char *name)
{
	unsigned char img[4096] = { 0 };
	const uint32_t magic = 0x1BADB002, flags = 1u << 16, base = 0x100000;

	put32(img, magic);
	put32(img + 4, flags);
	put32(img + 8, -(magic + flags));
	put32(img + 12, base);		/* header_addr */
	put32(img + 16, base);		/* load_addr */
	put32(img + 20, 0);		/* load_end_addr: the whole file */
	put32(img + 24, 0);		/* bss_end_addr: none */
	put32(img + 28, base + 32);	/* entry_addr */
	img[32] = 0xeb;			/* jmp $ */
	img[33] = 0xfe;
	write_file(name, img, sizeof(img), 0644);
}

struct boot {
	int ret;
	struct kboot_result res;
	struct ci_verdict v;
	double wall;
	char *error;
};

static void boot(struct boot *b, const char *kernel, const char *qemu,
		 unsigned int timeout_s)
{
	struct kboot_opts ko = KBOOT_OPTS_INIT;
	struct console_result cr = CONSOLE_RESULT_INIT;
	struct strbuf k = STRBUF_INIT, con = STRBUF_INIT;
	struct timespec t0, t1;

	struct kboot_result res = KBOOT_RESULT_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;

	memset(b, 0, sizeof(*b));
	b->res = res;
	b->v = v;
	strbuf_addf(&k, "%s/%s", dir, kernel);
	strbuf_addf(&con, "%s/%s.console", dir, kernel);
	ko.kernel = k.buf;
	ko.console_path = con.buf;
	ko.qemu = qemu;
	ko.accel = KBOOT_ACCEL_TCG;
	ko.timeout_s = timeout_s;
	ko.mem_mb = 128;
	error_clear();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	b->ret = kboot_run(&b->res, &ko);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	b->wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	b->error = xstrdup(error_last());
	if (!b->ret) {
		console_parse_file(&cr, con.buf);
		ci_decide(&b->v, &cr, b->res.timed_out);
	}
	console_result_release(&cr);
	kboot_opts_release(&ko);
	strbuf_release(&k);
	strbuf_release(&con);
}

static void boot_release(struct boot *b)
{
	kboot_result_release(&b->res);
	ci_verdict_release(&b->v);
	free(b->error);
}

static void test_bogus_bzimage(void)
{
	/* 1 KB of junk whose "setup_sects" (0x1f1) claims 128 KB of setup. */
	unsigned char junk[1024];
	struct boot b;

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 131 + 7);
	junk[0x1f1] = 0xff;
	write_file("bogus-bzImage", junk, sizeof(junk), 0644);
	boot(&b, "bogus-bzImage", NULL, 60);
	ok(b.ret == WW_ECHILD, "bogus bzImage: QEMU refuses it (%d: %s)", b.ret, b.error);
	ok(starts_with(b.error, "qemu exited with status 1: "),
	   "bogus bzImage: the error quotes QEMU: %s", b.error);
	ok(b.wall < 20, "bogus bzImage: fails fast (%.1f s)", b.wall);
	boot_release(&b);
}

static void test_never_boots(void)
{
	struct boot b;

	spin_kernel("spin-kernel");
	boot(&b, "spin-kernel", NULL, 3);
	ok(b.ret == 0 && b.res.timed_out, "kernel that never boots: the 3 s deadline stops QEMU (%d: %s)",
	   b.ret, b.error);
	ok(b.wall >= 3 && b.wall < 15, "kernel that never boots: stopped in %.1f s", b.wall);
	ok(b.v.kind == CI_HUNG, "kernel that never boots: verdict %s", ci_verdict_name(b.v.kind));
	is_str(b.v.reason, "the boot did not finish before the deadline",
	       "kernel that never boots: the reason says so");
	boot_release(&b);
}

static void test_qemu_dies(void)
{
	static const char fake[] =
		"#!/bin/sh\n"
		"# A QEMU that starts booting and is then killed.\n"
		"echo '[    0.000000] Linux version 6.1.192 (fake)'\n"
		"echo '[    0.100000] KTAP version 1'\n"
		"kill -9 $$\n";
	struct strbuf qemu = STRBUF_INIT;
	struct boot b;

	write_file("dying-qemu", fake, sizeof(fake) - 1, 0755);
	spin_kernel("kernel-for-dying-qemu");
	strbuf_addf(&qemu, "%s/dying-qemu", dir);
	boot(&b, "kernel-for-dying-qemu", qemu.buf, 30);
	ok(b.ret == WW_ECHILD, "QEMU killed mid-boot: an error, not a verdict (%d)", b.ret);
	is_str(b.error, "qemu exited with status 137", "QEMU killed mid-boot: the status says SIGKILL");
	ok(b.wall < 10, "QEMU killed mid-boot: noticed at once (%.1f s)", b.wall);
	boot_release(&b);
	strbuf_release(&qemu);
}

static void test_no_qemu(void)
{
	struct boot b;

	spin_kernel("kernel-no-qemu");
	boot(&b, "kernel-no-qemu", "/nonexistent/qemu-system-x86_64", 30);
	ok(b.ret < 0 && strstr(b.error, "/nonexistent/qemu-system-x86_64"),
	   "QEMU missing: the error names it (%d: %s)", b.ret, b.error);
	boot_release(&b);
}

static void test_no_kernel(void)
{
	struct boot b;

	boot(&b, "no-such-bzImage", NULL, 30);
	ok(b.ret == WW_ENOTFOUND && strstr(b.error, "no-such-bzImage"),
	   "kernel missing: WW_ENOTFOUND naming it (%s)", b.error);
	boot_release(&b);
}

int main(void)
{
	if (!have_qemu()) {
		printf("1..0 # SKIP not-installed: qemu-system-x86_64\n");
		return 0;
	}
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot create %s\n", dir);
		return 1;
	}
	test_bogus_bzimage();
	test_never_boots();
	test_qemu_dies();
	test_no_qemu();
	test_no_kernel();
	{
		/* Clean up the scratch directory (files only, no recursion). */
		static const char *const names[] = {
			"bogus-bzImage", "bogus-bzImage.console", "spin-kernel",
			"spin-kernel.console", "dying-qemu", "kernel-for-dying-qemu",
			"kernel-for-dying-qemu.console", "kernel-no-qemu",
			"kernel-no-qemu.console", "no-such-bzImage.console",
		};

		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			struct strbuf p = STRBUF_INIT;

			strbuf_addf(&p, "%s/%s", dir, names[i]);
			unlink(p.buf);
			strbuf_release(&p);
		}
		rmdir(dir);
	}
	return done_testing();
}
