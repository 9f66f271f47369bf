/*
 * Reading a kernel's serial console log: the KTAP/KUnit results, every
 * WARNING and BUG that fired (with the KUnit suite that was running and a
 * trimmed call trace), panics and the other crash reports, and how far
 * the boot got.  The verdict of a boot comes from here alone: QEMU exits
 * with status 0 after a panic and after a clean run alike.
 *
 * Only the kernel's own formats count, anchored at the start of the
 * message (after the optional "[    1.234567] " timestamp): a printk or
 * a test name that merely contains "WARNING:" is not a warning.
 */
#ifndef WW_CONSOLE_H
#define WW_CONSOLE_H

#include "strbuf.h"

/* A console log bigger than this is cut (stated in README "Limits"). */
#define CONSOLE_MAX_BYTES (64u << 20)
/* Frames kept of a call trace. */
#define CONSOLE_TRACE_FRAMES 12

enum ktap_result {
	KTAP_PASS,
	KTAP_FAIL,
	KTAP_SKIP,
	KTAP_CRASHED,		/* started, no result line (the kernel died) */
};

enum fired_kind {
	FIRED_WARN,		/* WARN*(): "WARNING: CPU: 0 PID: 1 at f.c:12 fn+0x1/0x2" */
	FIRED_BUG,		/* BUG*(): "kernel BUG at f.c:12!" */
	FIRED_OOPS,		/* other crash reports: "BUG: kernel NULL pointer ..." */
};

struct ktap_case {
	char *name;
	enum ktap_result result;
};

struct ktap_suite {
	char *name;
	enum ktap_result result;
	int planned;		/* its "1..N", -1 when absent */
	int pass, fail, skip;	/* of its cases */
	struct ktap_case *cases;
	size_t nr_cases, alloc_cases;
	size_t line;		/* 1-based console line of "# Subtest:" */
};

struct fired {
	enum fired_kind kind;
	char *file;		/* "kernel/time/timeconv.c", or NULL when unknown */
	int line;		/* 0 when unknown */
	char *function;		/* "time64_to_tm" (no +0x offsets), or NULL */
	char *message;		/* WARN()'s own text, or the BUG:/Oops line */
	char *suite;		/* KUnit suite or user-space test ("cgroup:test_core",
				   "workload:ext4") running when it fired, or NULL */
	char *test;		/* its test case (a workload's image) when known, or NULL */
	char *trace;		/* trimmed call trace, one frame a line */
	size_t console_line;	/* 1-based line of the WARNING/BUG line */
};

/*
 * A user-space test run by kernel-ci/init, framed by its console markers
 * (written to /dev/kmsg, so ordered with the kernel's reports):
 *   warnwatch: begin cgroup:test_core
 *   warnwatch: end cgroup:test_core result=pass rc=0
 *   warnwatch: begin workload:ext4 image=ext4-4k-default dev=/dev/vdb
 *   warnwatch: end workload:ext4 image=ext4-4k-default result=fail rc=1
 */
struct console_utest {
	char *name;		/* "cgroup:test_core", "workload:ext4" */
	char *image;		/* a workload's image, or NULL */
	char *result;		/* "pass", "fail", "skip", "timeout", "missing";
				   NULL: no end marker (the kernel died in it) */
	int rc;			/* exit status, -1 when unknown */
	size_t line;		/* 1-based console line of its begin marker */
};

struct console_result {
	bool booted;		/* "Linux version" seen */
	bool tests_started;	/* top-level "KTAP version 1" seen */
	bool tests_finished;	/* every planned suite reported */
	bool rebooted;		/* "reboot: Restarting system" (kunit_shutdown) */
	bool panicked;
	char *panic_message;	/* text after "Kernel panic - not syncing: " */
	char *panic_suite;	/* KUnit suite or user-space test running at the
				   panic, or NULL */
	int planned_suites;	/* top-level "1..N", -1 when absent */
	struct ktap_suite *suites;
	size_t nr_suites, alloc_suites;
	struct fired *fired;	/* in console order */
	size_t nr_fired, alloc_fired;
	int warn_count;		/* WARNING blocks seen (the guest's warn_count) */
	/* kernel-ci/init: "warnwatch: init start" ... "warnwatch: init done" */
	bool init_started, init_done;
	struct console_utest *utests; /* in console order */
	size_t nr_utests, alloc_utests;
	/* "warnwatch: gcov files=N dev=/dev/vda result=ok|none|fail" */
	char *gcov_result;	/* NULL: no such line */
	int gcov_files;
	size_t nr_lines;
	char *last_line;	/* the last non-empty message, for "printed nothing" */
};

#define CONSOLE_RESULT_INIT { 0 }

/* Parse `len` bytes of console output.  Never fails: odd input is skipped. */
void console_parse(struct console_result *out, const char *buf, size_t len);

/* Read and parse a console log file (capped at CONSOLE_MAX_BYTES). */
int console_parse_file(struct console_result *out, const char *path);

/* The suite named `name`, or NULL (borrowed). */
const struct ktap_suite *console_find_suite(const struct console_result *r,
					    const char *name);

const char *ktap_result_name(enum ktap_result r);	/* "pass", "crashed"... */
const char *fired_kind_name(enum fired_kind k);		/* "warn", "bug", "oops" */

/* Frames of the call trace a fingerprint takes after the function. */
#define CONSOLE_FINGERPRINT_FRAMES 3

/*
 * A report's fingerprint, as syzbot and NIPA group crashes: the kind, the
 * function and the next CONSOLE_FINGERPRINT_FRAMES frames of `trace`
 * below it, without offsets or compiler suffixes (".isra.0", ".cold"):
 * "warn:cgroup_mkdir/kernfs_iop_mkdir/vfs_mkdir/do_mkdirat".  Without a
 * function: the first frame, else the message.  Appended to `out`.
 */
void console_fingerprint(struct strbuf *out, enum fired_kind kind,
			 const char *function, const char *trace,
			 const char *message);

/*
 * Is trace frame `frame` ("__x64_sys_mkdir+0x21/0x30") a system call's
 * entry (__x64_sys_*, __arm64_sys_*, __do_sys_*, their compat forms)?
 * The symbol ("__x64_sys_mkdir") into `entry` and the call ("mkdir")
 * into `name`, when given.  ksys_*() is not one: boot code calls those.
 */
bool console_syscall_entry(struct strbuf *entry, struct strbuf *name, const char *frame);

/* The first frame of `trace` (one a line) that console_syscall_entry()
 * takes, as it does; false when none. */
bool console_trace_syscall(struct strbuf *entry, struct strbuf *name, const char *trace);

void console_result_release(struct console_result *r);

#endif
