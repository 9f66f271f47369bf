/*
 * Tests for kboot.c that need no kernel build: the QEMU command line, an
 * early QEMU failure (a file that is no kernel) reported with QEMU's own
 * words, the accelerator answer taken from the cache and asked-for
 * accelerators.  The real boots are in tests/e2e/t0210-ci-kernel.sh.
 */
#include "kboot.h"
#include "tap.h"

#include <unistd.h>

static bool have_qemu(void)
{
	return !access("/usr/bin/qemu-system-x86_64", X_OK) ||
	       !access("/usr/local/bin/qemu-system-x86_64", X_OK);
}

static bool has(const struct strvec *v, const char *a, const char *b)
{
	for (size_t i = 0; i + 1 < v->nr; i++)
		if (!strcmp(v->v[i], a) && (!b || !strcmp(v->v[i + 1], b)))
			return true;
	return false;
}

static void test_argv(void)
{
	struct kboot_opts o = KBOOT_OPTS_INIT;
	struct strvec argv = STRVEC_INIT;
	struct strbuf cmdline = STRBUF_INIT;

	o.kernel = "/k/bzImage";
	o.filter_glob = "time_test*";
	strvec_push(&o.append, "slub_debug=FZ");
	kboot_argv(&argv, &cmdline, &o, KBOOT_ACCEL_TCG);
	is_str(argv.v[0], "qemu-system-x86_64", "QEMU from PATH");
	ok(has(&argv, "-accel", "tcg") && has(&argv, "-kernel", "/k/bzImage") &&
	   has(&argv, "-serial", "stdio") && has(&argv, "-no-reboot", NULL) &&
	   has(&argv, "-nodefaults", NULL) && has(&argv, "-m", "1024"),
	   "the QEMU options the notes measured");
	is_str(cmdline.buf, "console=ttyS0 panic=-1 kunit_shutdown=reboot "
	       "panic_on_warn=1 oops=panic no_timer_check "
	       "kunit.filter_glob=time_test* slub_debug=FZ",
	       "kernel command line: panic_on_warn=1, no timer check, filter, rule options");
	ok(has(&argv, "-append", cmdline.buf), "passed as one argv word (no shell)");
	strvec_clear(&argv);
	o.panic_on_warn = false;
	o.filter_glob = NULL;
	kboot_argv(&argv, &cmdline, &o, KBOOT_ACCEL_KVM);
	ok(has(&argv, "-accel", "kvm"), "kvm when asked");
	ok(strstr(cmdline.buf, "panic_on_warn=0") && !strstr(cmdline.buf, "oops=panic"),
	   "second boot: panic_on_warn=0, no oops=panic");
	strvec_clear(&argv);
	o.initrd = "/l/initramfs.cpio.gz";
	strvec_push(&o.drives, "/l/gcov.raw");
	strvec_push(&o.drives, "/l/images/ext4-4k-default.img");
	kboot_argv(&argv, &cmdline, &o, KBOOT_ACCEL_TCG);
	ok(has(&argv, "-initrd", "/l/initramfs.cpio.gz"), "user space: -initrd");
	ok(starts_with(cmdline.buf, "console=ttyS0 panic=-1 rdinit=/init printk.devkmsg=on ") &&
	   !strstr(cmdline.buf, "kunit_shutdown") && strstr(cmdline.buf, " no_timer_check"),
	   "user space: rdinit=/init, /dev/kmsg markers, no kunit_shutdown, no timer check");
	ok(has(&argv, "-drive", "file=/l/gcov.raw,format=raw,if=virtio") &&
	   has(&argv, "-drive", "file=/l/images/ext4-4k-default.img,format=raw,if=virtio"),
	   "disks: gcov first (vda), then the images");
	strvec_clear(&argv);
	strbuf_release(&cmdline);
	kboot_opts_release(&o);
}

static void test_early_exit(const char *dir)
{
	struct kboot_opts o = KBOOT_OPTS_INIT;
	struct kboot_result r = KBOOT_RESULT_INIT;
	char kernel[4200], console[4200];
	FILE *f;
	int ret;

	snprintf(kernel, sizeof(kernel), "%s/not-a-kernel", dir);
	snprintf(console, sizeof(console), "%s/console.log", dir);
	f = fopen(kernel, "w");
	fputs("this is not a bzImage\n", f);
	fclose(f);
	o.kernel = kernel;
	o.console_path = console;
	o.accel = KBOOT_ACCEL_TCG;
	o.timeout_s = 30;
	ret = kboot_run(&r, &o);
	is(ret, WW_ECHILD, "a file that is no kernel: QEMU fails early");
	ok(strstr(error_last(), "qemu exited with status") != NULL,
	   "the error says QEMU failed: %s", error_last());
	ok(!r.timed_out && r.seconds < 30, "no hang");
	error_clear();
	o.kernel = "/nonexistent/bzImage";
	is(kboot_run(&r, &o), WW_ENOTFOUND, "missing kernel: not found");
	error_clear();
	kboot_result_release(&r);
	kboot_opts_release(&o);
}

static void test_accel(const char *dir)
{
	struct kboot_opts o = KBOOT_OPTS_INIT;
	struct strbuf why = STRBUF_INIT;
	enum kboot_accel a = KBOOT_ACCEL_AUTO;

	o.accel = KBOOT_ACCEL_TCG;
	ok(!kboot_probe_accel(&a, &why, &o) && a == KBOOT_ACCEL_TCG,
	   "an asked-for accelerator is used as it is");
	if (access("/dev/kvm", R_OK | W_OK)) {
		strbuf_reset(&why);
		o.accel = KBOOT_ACCEL_AUTO;
		o.cache_dir = dir;
		ok(!kboot_probe_accel(&a, &why, &o) && a == KBOOT_ACCEL_TCG &&
		   strstr(why.buf, "/dev/kvm"), "no usable /dev/kvm: tcg (%s)", why.buf);
	} else {
		skip("kvm-works: /dev/kvm is usable here, the probe needs a kernel (t0210)",
		     "no usable /dev/kvm: tcg");
	}
	strbuf_release(&why);
	kboot_opts_release(&o);
}

int main(void)
{
	char dir[] = "/tmp/t-kboot.XXXXXX";

	test_argv();
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return done_testing();
	}
	if (have_qemu()) {
		test_early_exit(dir);
	} else {
		skip("not-installed: qemu-system-x86_64", "a QEMU that exits early");
	}
	test_accel(dir);
	{
		char cmd[64];
		/* Only our own files: the fake kernel and its console. */
		snprintf(cmd, sizeof(cmd), "%s/not-a-kernel", dir);
		unlink(cmd);
		snprintf(cmd, sizeof(cmd), "%s/console.log", dir);
		unlink(cmd);
		rmdir(dir);
	}
	return done_testing();
}
