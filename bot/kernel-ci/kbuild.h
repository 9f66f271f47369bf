/*
 * Building the (patched) base kernel: config, sandbox, make, verdict.
 *
 * The config is kernel-ci/base.config (kunit.py's minimal x86_64 config
 * plus DEBUG_VM and friends) plus the KUnit suites that cover the touched
 * files (kconfig.h).  Symbols the base build already has do not count, so
 * most series reuse the base build directory: build/<version>-<hash>/,
 * <hash> naming the config.  A new config starts from a copy of the base
 * build directory (possible because the sandbox always mounts the source at
 * /ww/src and the build at /ww/build, so no absolute path changes) and only
 * rebuilds what the new symbols change.
 *
 * make runs in bubblewrap: all namespaces unshared (no network), uid 65534,
 * /usr read-only, the worktree read-only, only the build directory and the
 * ccache directory writable, a private /tmp, --die-with-parent, a new
 * session, a wall-clock deadline (child.h), and an address-space limit per
 * process (RLIMIT_AS via prlimit(1)).
 *
 * A build failure is a verdict: WW_EBUILD with the first compiler error
 * quoted in out->error (and in the message), the whole make output kept in
 * <build>/warnwatch-build.log.
 */
#ifndef WW_KBUILD_H
#define WW_KBUILD_H

#include "ktree.h"
#include "strvec.h"

#define KBUILD_DEFAULT_TIMEOUT_S (60 * 60)
#define KBUILD_DEFAULT_MEM_MB 4096
/* Build directories of configs beyond the base kept (LRU), ~200 MB each. */
#define KBUILD_KEEP_CONFIGS 6
#define KBUILD_ARCH "x86_64"
/* Inside the sandbox. */
#define KBUILD_SRC "/ww/src"
#define KBUILD_OBJ "/ww/build"
#define KBUILD_CCACHE "/ww/ccache"

struct kbuild_opts {
	const char *config_dir;	/* holds base.config; NULL: kbuild_config_dir() */
	const struct strvec *touched; /* files the series changes, or NULL:
				   their KUnit suites get enabled */
	const char *extra_config; /* more fragment lines (e.g. a rule's), or NULL */
	unsigned int jobs;	/* 0: online CPUs */
	unsigned int timeout_s;	/* 0: KBUILD_DEFAULT_TIMEOUT_S, whole build */
	unsigned int mem_mb;	/* 0: KBUILD_DEFAULT_MEM_MB, per process */
	bool progress;		/* stage, elapsed time, make's current file on
				   stderr (only when it is a terminal) */
	bool plan_only;		/* decide config and directory, do not build
				   (the base directory still gets configured) */
};

#define KBUILD_OPTS_INIT { 0 }

struct kbuild_result {
	char *build_dir;	/* host path of the O= directory */
	char *bzimage;		/* <build_dir>/arch/x86/boot/bzImage */
	char *vmlinux;		/* <build_dir>/vmlinux (symbols, for traces) */
	char *log_path;		/* <build_dir>/warnwatch-build.log */
	char *config_hash;	/* 12 hex digits */
	bool base_config;	/* no symbols beyond base.config were needed */
	struct strvec suites;	/* KUnit suites near the touched files */
	struct strvec tests;	/* their Kconfig symbols */
	struct strvec symbols;	/* symbols enabled beyond the base build */
	struct strvec dropped;	/* requested options the .config lacks */
	struct strbuf error;	/* on WW_EBUILD: the first error, quoted */
	double config_seconds;
	double build_seconds;
	int make_status;
};

#define KBUILD_RESULT_INIT { .suites = STRVEC_INIT, .tests = STRVEC_INIT, .symbols = STRVEC_INIT, \
			.dropped = STRVEC_INIT, .error = STRBUF_INIT }

/*
 * Configure and build t->worktree as it is checked out now (kapply.h).
 * Returns 0 with out->bzimage set; WW_EBUILD when make fails (a verdict:
 * out->error quotes the first error); WW_ETIMEOUT at the deadline;
 * WW_ECHILD/WW_ERROR when the machinery fails (no bwrap, ...).
 */
int kbuild_run(struct kbuild_result *out, struct ktree *t,
	       const struct kbuild_opts *opts);

/*
 * The first error worth quoting from make's output: a compiler
 * "file:line:col: error: ...", a linker error, or the failing make line;
 * the lines around it that explain it are kept.  Exposed for tests.
 */
void kbuild_first_error(struct strbuf *out, const char *log, size_t len);

/* Where base.config lives: $WARNWATCH_KERNEL_CI, the source checkout's
 * kernel-ci/ (next to the binary), else WW_DATADIR/kernel-ci. */
void kbuild_config_dir(struct strbuf *out);

void kbuild_result_release(struct kbuild_result *r);

#endif
