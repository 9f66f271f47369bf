/*
 * Booting a bzImage in QEMU (see kboot.h): the QEMU command line, the
 * accelerator probe and its cache, and the boot itself through child.h.
 */
#include "kboot.h"

#include "child.h"
#include "console.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <unistd.h>

#define QBOOT_ROM "/usr/share/qemu/qboot.rom"
#define ACCEL_CACHE_FILE "accel"
#define PROBE_LOG "accel-probe.log"

const char *kboot_accel_name(enum kboot_accel a)
{
	switch (a) {
	case KBOOT_ACCEL_AUTO: return "auto";
	case KBOOT_ACCEL_KVM: return "kvm";
	case KBOOT_ACCEL_TCG: return "tcg";
	}
	return "?";
}

static const char *qemu_prog(const struct kboot_opts *opts)
{
	return opts->qemu ? opts->qemu : "qemu-system-x86_64";
}

static void kernel_cmdline(struct strbuf *out, const struct kboot_opts *opts)
{
	if (opts->initrd)
		strbuf_addstr(out, "console=ttyS0 panic=-1 rdinit=/init printk.devkmsg=on");
	else
		strbuf_addstr(out, "console=ttyS0 panic=-1 kunit_shutdown=reboot");
	/*
	 * A fleet that panics on WARN panics on an oops too; the second boot
	 * keeps going through both so that every report gets printed.
	 */
	if (opts->panic_on_warn)
		strbuf_addstr(out, " panic_on_warn=1 oops=panic");
	else
		strbuf_addstr(out, " panic_on_warn=0");
	/*
	 * Under TCG on a loaded host the IO-APIC timer check can miss its
	 * window and panic before any test ("IO-APIC + timer doesn't
	 * work!", seen in t0210's 08 at load 15): the check proves nothing
	 * about a series, and kernels in VMs are commonly booted without it.
	 */
	strbuf_addstr(out, " no_timer_check");
	if (opts->filter_glob)
		strbuf_addf(out, " kunit.filter_glob=%s", opts->filter_glob);
	for (size_t i = 0; i < opts->append.nr; i++)
		strbuf_addf(out, " %s", opts->append.v[i]);
}

void kboot_argv(struct strvec *out, struct strbuf *cmdline,
		const struct kboot_opts *opts, enum kboot_accel accel)
{
	const char *bios = opts->bios;

	strbuf_reset(cmdline);
	kernel_cmdline(cmdline, opts);
	if (!bios && !access(QBOOT_ROM, R_OK))
		bios = QBOOT_ROM;
	strvec_pushl(out, qemu_prog(opts), "-nodefaults", "-nographic",
		     "-serial", "stdio", "-no-reboot", NULL);
	strvec_push(out, "-accel");
	strvec_push(out, accel == KBOOT_ACCEL_KVM ? "kvm" : "tcg");
	strvec_push(out, "-m");
	strvec_pushf(out, "%d", opts->mem_mb > 0 ? opts->mem_mb : 1024);
	if (bios) {
		strvec_push(out, "-bios");
		strvec_push(out, bios);
	}
	strvec_pushl(out, "-kernel", opts->kernel, "-append", cmdline->buf, NULL);
	if (opts->initrd)
		strvec_pushl(out, "-initrd", opts->initrd, NULL);
	/* Paths come from our cache (kboot_run refuses a ',' in them). */
	for (size_t i = 0; i < opts->drives.nr; i++) {
		strvec_push(out, "-drive");
		strvec_pushf(out, "file=%s,format=raw,if=virtio", opts->drives.v[i]);
	}
}

/* Counting console bytes; past the limit, "quit" on QEMU's monitor. */
struct flood {
	size_t bytes, limit;
	const char *monitor;	/* unix socket path */
	bool stopped;
};

static void send_quit(struct flood *f)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memcpy(sa.sun_path, f->monitor, strlen(f->monitor) + 1);
	if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    write(fd, "quit\n", 5) == 5) {
		/*
		 * Hanging up at once can make QEMU drop the command unread:
		 * wait (bounded) for it to close the monitor as it exits.
		 */
		struct pollfd pfd = { fd, POLLIN, 0 };
		char buf[512];

		for (int i = 0; i < 20 && poll(&pfd, 1, 100) >= 0; i++) {
			if ((pfd.revents & POLLIN) && read(fd, buf, sizeof(buf)) <= 0)
				break;
			if (pfd.revents & (POLLHUP | POLLERR))
				break;
		}
		f->stopped = true;
	}
	close(fd);
}

static void count_console(void *data, const char *buf, size_t len)
{
	struct flood *f = data;

	f->bytes += len;
	if (f->bytes > f->limit && !f->stopped)
		send_quit(f);
}

/* One QEMU run with `accel`; the caller looks at the console. */
static int boot_once(struct kboot_result *out, const struct kboot_opts *opts,
		     enum kboot_accel accel, unsigned int timeout_s)
{
	static unsigned int seq;
	struct child c = CHILD_INIT;
	struct strbuf mon = STRBUF_INIT;
	struct flood flood = { 0, 0, NULL, false };
	int ret;

	/* Short, private and unique: sun_path holds 108 bytes. */
	strbuf_addf(&mon, "/tmp/warnwatch-qemu-%ld-%u.mon", (long)getpid(), seq++);
	unlink(mon.buf);
	flood.monitor = mon.buf;
	flood.limit = opts->max_console ? opts->max_console :
		      KBOOT_DEFAULT_MAX_CONSOLE;
	strvec_clear(&out->argv);
	kboot_argv(&out->argv, &out->cmdline, opts, accel);
	/*
	 * Our deadline kills QEMU's process group; coreutils' timeout, a
	 * little later, also covers the case where warnwatch itself dies
	 * first (QEMU would outlive it: a hung guest forever).
	 * --foreground keeps QEMU in the process group child_run() kills:
	 * without it timeout makes a group of its own, and a SIGKILL to
	 * ours (which timeout cannot pass on) leaves QEMU running.
	 */
	strvec_pushl(&c.args, "timeout", "--foreground", "-k", "5", NULL);
	strvec_pushf(&c.args, "%u", timeout_s + 30);
	strvec_pushv(&c.args, out->argv.v);
	strvec_push(&c.args, "-monitor");
	strvec_pushf(&c.args, "unix:%s,server=on,wait=off", mon.buf);
	c.out_path = opts->console_path;
	c.on_stdout = count_console;
	c.data = &flood;
	c.timeout_ms = timeout_s * 1000;
	c.cap = 1u << 20;
	out->accel = accel;
	ret = child_run(&c);
	unlink(mon.buf);
	strbuf_release(&mon);
	out->flooded = flood.stopped;
	out->seconds = c.seconds;
	out->qemu_status = c.status;
	strbuf_reset(&out->qemu_err);
	strbuf_addbuf(&out->qemu_err, &c.err);
	if (ret == WW_ETIMEOUT) {
		out->timed_out = true;
		error_clear();
		ret = 0;
	} else if (!ret && c.status) {
		ret = child_error(&c, "qemu exited with status %d", c.status);
	}
	child_release(&c);
	return ret;
}

/* "QEMU emulator version 7.2.22 (...)" + host kernel: what the answer depends on. */
static int probe_key(struct strbuf *out, const struct kboot_opts *opts)
{
	struct child c = CHILD_INIT;
	struct utsname u;
	int ret;

	strvec_pushl(&c.args, qemu_prog(opts), "--version", NULL);
	c.timeout_ms = 30 * 1000;
	ret = child_run_ok(&c);
	if (!ret) {
		size_t n = strcspn(c.out.buf, "\n");

		strbuf_add(out, c.out.buf, n);
		if (!uname(&u))
			strbuf_addf(out, "; host %s %s", u.release, u.machine);
	}
	child_release(&c);
	return ret;
}

static bool read_cached(enum kboot_accel *out, struct strbuf *why,
			const char *path, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	char *nl, *nl2;
	bool found = false;

	if (strbuf_read_file(&sb, path, 4096) < 0) {
		error_clear();
		goto out;
	}
	nl = strchr(sb.buf, '\n');
	if (!nl)
		goto out;
	*nl = '\0';
	if (strcmp(sb.buf, key))
		goto out;
	nl2 = strchr(nl + 1, '\n');
	if (nl2)
		*nl2 = '\0';
	if (!strcmp(nl + 1, "kvm"))
		*out = KBOOT_ACCEL_KVM;
	else if (!strcmp(nl + 1, "tcg"))
		*out = KBOOT_ACCEL_TCG;
	else
		goto out;
	found = true;
	if (why)
		strbuf_addf(why, "cached in '%s'%s%s", path, nl2 ? ": " : "",
			    nl2 ? nl2 + 1 : "");
out:
	strbuf_release(&sb);
	return found;
}

/* A KVM guest works when it got through the kernel's boot to its end. */
static bool probe_boot(struct strbuf *why, const struct kboot_opts *opts,
		       const char *log)
{
	struct kboot_opts po = KBOOT_OPTS_INIT;
	struct kboot_result res = KBOOT_RESULT_INIT;
	struct console_result con = CONSOLE_RESULT_INIT;
	bool works = false;
	int ret;

	po.qemu = opts->qemu;
	po.bios = opts->bios;
	po.kernel = opts->kernel;
	po.console_path = log;
	po.mem_mb = opts->mem_mb;
	strvec_push(&po.append, "kunit.enable=0");
	ret = boot_once(&res, &po, KBOOT_ACCEL_KVM, KBOOT_PROBE_TIMEOUT_S);
	if (ret < 0) {
		strbuf_addf(why, "kvm probe boot failed: %s", error_last());
		error_clear();
		goto out;
	}
	if (strstr(res.qemu_err.buf, "KVM internal error")) {
		strbuf_addstr(why, "kvm probe boot: KVM internal error");
		goto out;
	}
	if (res.timed_out) {
		strbuf_addf(why, "kvm probe boot hung for %d s", KBOOT_PROBE_TIMEOUT_S);
		goto out;
	}
	if (console_parse_file(&con, log) < 0) {
		strbuf_addf(why, "kvm probe boot: %s", error_last());
		error_clear();
		goto out;
	}
	if (!con.booted || !(con.panicked || con.rebooted)) {
		strbuf_addstr(why, con.booted ? "kvm probe boot stopped early" :
			      "kvm probe boot printed nothing");
		goto out;
	}
	strbuf_addf(why, "kvm probe boot reached its end in %.1f s", res.seconds);
	works = true;
out:
	console_result_release(&con);
	kboot_result_release(&res);
	kboot_opts_release(&po);
	return works;
}

int kboot_probe_accel(enum kboot_accel *out, struct strbuf *why,
		      const struct kboot_opts *opts)
{
	struct strbuf key = STRBUF_INIT, path = STRBUF_INIT, log = STRBUF_INIT;
	struct strbuf reason = STRBUF_INIT, rec = STRBUF_INIT;
	int fd, ret;

	if (opts->accel != KBOOT_ACCEL_AUTO) {
		*out = opts->accel;
		if (why)
			strbuf_addstr(why, "asked for");
		return 0;
	}
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*out = KBOOT_ACCEL_TCG;
		if (why)
			strbuf_addf(why, "cannot open /dev/kvm: %s", strerror(errno));
		return 0;
	}
	close(fd);
	ret = probe_key(&key, opts);
	if (ret < 0)
		goto out;
	if (opts->cache_dir) {
		strbuf_addf(&path, "%s/%s", opts->cache_dir, ACCEL_CACHE_FILE);
		if (read_cached(out, why, path.buf, key.buf))
			goto out;
		strbuf_addf(&log, "%s/%s", opts->cache_dir, PROBE_LOG);
	} else {
		strbuf_addf(&log, "/tmp/warnwatch-%ld-%s", (long)getpid(), PROBE_LOG);
	}
	*out = probe_boot(&reason, opts, log.buf) ? KBOOT_ACCEL_KVM : KBOOT_ACCEL_TCG;
	if (why)
		strbuf_addbuf(why, &reason);
	if (opts->cache_dir) {
		strbuf_addf(&rec, "%s\n%s\n%s\n", key.buf, kboot_accel_name(*out),
			    reason.buf);
		ret = strbuf_write_file(&rec, path.buf);
	} else {
		unlink(log.buf);
	}
out:
	strbuf_release(&key);
	strbuf_release(&path);
	strbuf_release(&log);
	strbuf_release(&reason);
	strbuf_release(&rec);
	return ret;
}

int kboot_run(struct kboot_result *out, const struct kboot_opts *opts)
{
	enum kboot_accel accel;
	int ret;

	if (!opts->kernel || access(opts->kernel, R_OK))
		return error_code(WW_ENOTFOUND, "kernel image '%s' not found",
				  opts->kernel ? opts->kernel : "");
	if (!opts->console_path)
		BUG("kboot_run without a console path");
	for (size_t i = 0; i < opts->drives.nr; i++)
		if (strchr(opts->drives.v[i], ','))
			return error_code(WW_EINPUT, "disk image path '%s' has a ',' "
					  "(QEMU's -drive cannot take it)",
					  opts->drives.v[i]);
	if (opts->initrd && access(opts->initrd, R_OK))
		return error_code(WW_ENOTFOUND, "initramfs '%s' not found",
				  opts->initrd);
	ret = kboot_probe_accel(&accel, NULL, opts);
	if (ret < 0)
		return ret;
	return boot_once(out, opts, accel, opts->timeout_s ? opts->timeout_s :
			 KBOOT_DEFAULT_TIMEOUT_S);
}

void kboot_opts_release(struct kboot_opts *opts)
{
	strvec_clear(&opts->append);
	strvec_clear(&opts->drives);
}

void kboot_result_release(struct kboot_result *r)
{
	strbuf_release(&r->qemu_err);
	strbuf_release(&r->cmdline);
	strvec_clear(&r->argv);
}
