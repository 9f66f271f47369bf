/*
 * Booting a bzImage in QEMU with the console captured to a file.
 *
 * The kernel runs its built-in KUnit suites and reboots (kunit_shutdown=
 * reboot with -no-reboot makes QEMU exit); with panic=-1 a panic exits
 * QEMU at once.  Either way QEMU's exit status is 0, so this module only
 * says whether QEMU ran, hung or failed: what happened inside the guest
 * is console.h's business.
 *
 * The accelerator: KVM when it really works, else TCG.  On some hosts
 * /dev/kvm opens but every guest dies ("KVM internal error") or prints
 * nothing, so KVM is trusted only after a short real boot succeeded; the
 * answer is cached per QEMU version and host kernel.
 */
#ifndef WW_KBOOT_H
#define WW_KBOOT_H

#include "strbuf.h"
#include "strvec.h"

enum kboot_accel {
	KBOOT_ACCEL_AUTO,	/* probe (cached) */
	KBOOT_ACCEL_KVM,
	KBOOT_ACCEL_TCG,
};

#define KBOOT_DEFAULT_TIMEOUT_S 300
#define KBOOT_PROBE_TIMEOUT_S 20

struct kboot_opts {
	const char *qemu;	/* NULL: "qemu-system-x86_64" */
	const char *bios;	/* NULL: qboot.rom from QEMU's data dir */
	const char *kernel;	/* the bzImage */
	const char *console_path; /* where the console log goes */
	enum kboot_accel accel;	/* AUTO needs cache_dir (or probes every time) */
	const char *cache_dir;	/* where the accelerator answer is kept */
	bool panic_on_warn;	/* panic_on_warn=1 oops=panic, else 0 */
	const char *filter_glob; /* kunit.filter_glob, or NULL for all suites */
	struct strvec append;	/* more kernel command line words (per rule) */
	unsigned int timeout_s;	/* 0: KBOOT_DEFAULT_TIMEOUT_S */
	int mem_mb;		/* 0: 1024 */
	/*
	 * Stop QEMU (through its monitor) once the console passes this many
	 * bytes: a WARN_ON() in a loop prints megabytes a second when it
	 * does not panic.  0: KBOOT_DEFAULT_MAX_CONSOLE.
	 */
	size_t max_console;
	/*
	 * A user space (kernel-ci/init, initramfs.h): with `initrd` set the
	 * kernel runs its KUnit suites and then /init (no kunit_shutdown;
	 * /init ends the guest with reboot -f), and the markers /init writes
	 * to /dev/kmsg reach the console (printk.devkmsg=on).  `drives` are
	 * raw disk images attached as virtio disks in order: /dev/vda, vdb...
	 */
	const char *initrd;
	struct strvec drives;
};

/* A whole clean 6.1 KUnit boot prints about 25 KB. */
#define KBOOT_DEFAULT_MAX_CONSOLE (32u << 20)

#define KBOOT_OPTS_INIT { .accel = KBOOT_ACCEL_AUTO, .panic_on_warn = true, \
			.append = STRVEC_INIT, .drives = STRVEC_INIT }

struct kboot_result {
	enum kboot_accel accel;	/* what was used */
	bool timed_out;		/* the deadline killed QEMU: a hang */
	bool flooded;		/* stopped at max_console bytes */
	int qemu_status;	/* QEMU's exit status */
	double seconds;		/* wall clock of the boot */
	struct strbuf qemu_err;	/* QEMU's stderr (its own complaints) */
	struct strbuf cmdline;	/* the kernel command line used */
	struct strvec argv;	/* the whole QEMU command, for the record */
};

#define KBOOT_RESULT_INIT { .accel = KBOOT_ACCEL_TCG, .qemu_err = STRBUF_INIT, \
			.cmdline = STRBUF_INIT, .argv = STRVEC_INIT }

/*
 * Boot and wait for QEMU to exit or the deadline.  Returns 0 when QEMU
 * ran (also when it hit the deadline: out->timed_out, a verdict, not an
 * error), WW_ENOTFOUND when QEMU or the kernel is missing, WW_ECHILD when
 * QEMU exited with a failure status before the guest could run (message
 * quotes QEMU's stderr).
 */
int kboot_run(struct kboot_result *out, const struct kboot_opts *opts);

/* The QEMU command line kboot_run would use, into `out` (for tests and
 * --dry-run); `accel` must be KVM or TCG. */
void kboot_argv(struct strvec *out, struct strbuf *cmdline,
		const struct kboot_opts *opts, enum kboot_accel accel);

/*
 * Decide the accelerator: TCG when /dev/kvm cannot be opened, else a
 * short probe boot of `kernel` with KVM (kunit.enable=0; a working guest
 * gets as far as its root-fs panic).  The answer is cached in
 * `cache_dir`/accel (NULL: never cached) keyed by QEMU version and host
 * kernel.  `why` (may be NULL) says how it was decided.
 */
int kboot_probe_accel(enum kboot_accel *out, struct strbuf *why,
		      const struct kboot_opts *opts);

const char *kboot_accel_name(enum kboot_accel a);	/* "kvm", "tcg" */

void kboot_opts_release(struct kboot_opts *opts);
void kboot_result_release(struct kboot_result *r);

#endif
