/*
 * Building the kernel's selftests (tools/testing/selftests) of a patched
 * tree as static binaries, for the guest's initramfs (initramfs.h).
 *
 * One make per target, in the build sandbox (bwrap.h: the tree read-only
 * at /ww/src, only the build directory writable, no network):
 *
 *   make -k -C /ww/src/tools/testing/selftests O=/ww/build TARGETS=cgroup
 *        LDFLAGS=-static KSFT_INSTALL_PATH=/ww/build/install -jN install
 *
 * (-k: a binary that does not build does not stop the others).  The
 * target's own directory is a writable copy mounted over the read-only
 * tree: 6.12's mm Makefile writes local_config.h there (check_config.sh),
 * and without it builds nothing but two binaries.
 *
 * The headers come from the system's /usr/include (linux-libc-dev): the
 * build does not run headers_install, because O=/ww/build/usr/include does
 * not exist the selftests fall back to it.
 *
 * A target that does not build completely is not fatal: the binaries that
 * did build are installed, the first compiler or linker error is kept
 * (6.1's timers: valid-adjtimex does not link statically, glibc's libc.a
 * defines clock_adjtime too), and the other targets go on.
 *
 * Cache: <cache>/kselftest/<base>/<target>-<hash>/ with install/ (what
 * run_kselftest.sh needs: kselftest-list.txt, kselftest/, <target>/...),
 * build.log and status.  <hash> covers everything the build reads from the
 * tree: the target's directory, the selftests' shared files (Makefile,
 * lib.mk, kselftest*.h, kselftest/) and any file the series changes under
 * tools/, include/uapi/ or arch/x86/include/uapi/.  A series that touches
 * none of these (most do not) reuses the base's build; a warm series never
 * rebuilds.  A build killed at its deadline is not cached.
 */
#ifndef WW_KSELFTEST_H
#define WW_KSELFTEST_H

#include "ww.h"
#include "strbuf.h"
#include "strvec.h"

#define KSELFTEST_DEFAULT_TIMEOUT_S 600
#define KSELFTEST_DEFAULT_MEM_MB 4096

struct kselftest_opts {
	const char *cache_dir;	/* the warnwatch cache ($WARNWATCH_CACHE) */
	const char *base;	/* the tree's version, "6.1.192" */
	const struct strvec *touched; /* tree-relative paths the series
				   changes, or NULL */
	unsigned int jobs;	/* 0: online CPUs */
	unsigned int timeout_s;	/* per target; 0: KSELFTEST_DEFAULT_TIMEOUT_S */
	unsigned int mem_mb;	/* per process; 0: KSELFTEST_DEFAULT_MEM_MB */
};

#define KSELFTEST_OPTS_INIT { 0 }

struct kselftest_target {
	char *target;		/* "cgroup", "filesystems/epoll" */
	char *hash;		/* 12 hex digits: the cache key */
	/* Host directory laid out like KSFT_INSTALL_PATH: run_kselftest.sh,
	 * kselftest/, kselftest-list.txt, <target>/<binaries>.  Always set
	 * (maybe holding no binary at all when nothing built). */
	char *install_dir;
	char *log_path;		/* make's whole output */
	bool cached;		/* built by an earlier run */
	bool complete;		/* make install succeeded */
	struct strbuf error;	/* when !complete: the first error, quoted */
	double seconds;		/* this run's build time (0 when cached) */
};

struct kselftest_result {
	struct kselftest_target *v;
	size_t nr, alloc;
	double seconds;		/* all targets, including the hashing */
};

#define KSELFTEST_RESULT_INIT { 0 }

/*
 * Build (or find in the cache) every target of `targets` from `worktree`
 * (the host path of the tree, as checked out now).  Returns 0 when every
 * target has an entry in out->v, in order (look at `complete` and `error`
 * for build failures); WW_ECHILD when the sandbox itself fails (no bwrap,
 * no user namespaces), WW_ERROR for the cache directory, WW_EINPUT for a
 * target name that is not a plain relative path.
 */
int kselftest_build(struct kselftest_result *out, const char *worktree,
		    const struct strvec *targets,
		    const struct kselftest_opts *opts);

/* The cache key of `target` in `worktree` (hex, 12 digits) into `out`.
 * Exposed for tests.  WW_ENOTFOUND when the tree has no such target. */
int kselftest_hash(struct strbuf *out, const char *worktree,
		   const char *target, const char *base,
		   const struct strvec *touched);

void kselftest_result_release(struct kselftest_result *r);

#endif
