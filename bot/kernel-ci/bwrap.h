/*
 * The build sandbox: bubblewrap under prlimit(1), for untrusted code built
 * from a patched kernel tree (the kernel itself, its kselftests).
 *
 * All namespaces unshared (no network), uid/gid 65534, only /usr (and the
 * /etc bits a compiler needs) visible, read-only; the source tree read-only
 * at BWRAP_SRC, the build directory writable at BWRAP_BUILD, optionally a
 * compiler cache writable at BWRAP_CCACHE; an empty read-only /tmp; the
 * root remounted read-only; --die-with-parent, a new session; RLIMIT_AS per
 * process and no core files.  The same flags as bot/kernel-ci/kbuild.c's sandbox (the
 * fixed paths are the same too, so ccache and make see one layout).
 *
 * The review's sandbox (bwrap_review_argv()) is the same box with nothing
 * writable at all: the C front end (libclang, for facts) and the compiler
 * that checks a rewrite read a patched copy of a file, its tree and the
 * build directory a series' build wrote, bound read-only where they are
 * on the host (the compiler's flags name host paths), with only /dev/null
 * of /dev, and RLIMIT_CPU besides RLIMIT_AS.
 */
#ifndef WW_BWRAP_H
#define WW_BWRAP_H

#include "child.h"
#include "strvec.h"

#define BWRAP_SRC "/ww/src"
#define BWRAP_BUILD "/ww/build"
#define BWRAP_CCACHE "/ww/ccache"
/* HOME and TMPDIR inside the sandbox: the caller creates <build>/.tmp. */
#define BWRAP_TMP BWRAP_BUILD "/.tmp"

struct bwrap_opts {
	const char *src;	/* host directory, read-only at BWRAP_SRC */
	const char *build;	/* host directory, writable at BWRAP_BUILD */
	const char *ccache;	/* host directory, writable at BWRAP_CCACHE, or NULL */
	unsigned int mem_mb;	/* RLIMIT_AS per process */
	/* More writable binds, mounted over the source: pairs of host
	 * directory and sandbox path (which must exist in the source), or
	 * NULL.  For Makefiles that write into their own directory. */
	const struct strvec *binds;
};

#define BWRAP_OPTS_INIT { .mem_mb = 4096 }

/* Push "prlimit ... -- bwrap ... --chdir BWRAP_BUILD" onto `args`; the
 * command to run in the sandbox follows. */
void bwrap_argv(struct strvec *args, const struct bwrap_opts *o);

/* Where bwrap_review_opts.exe is in the review's sandbox. */
#define BWRAP_EXE "/ww/bin/warnwatch-all"

struct bwrap_review_opts {
	/* Host paths (absolute, never "/") bound read-only at the same
	 * path, parents before children. */
	const struct strvec *ro;
	const char *exe;	/* a program bound read-only at BWRAP_EXE, or NULL */
	const char *chdir;	/* the working directory (one of `ro`) */
	unsigned int mem_mb;	/* RLIMIT_AS per process; 0: none (ASan's shadow) */
	unsigned int cpu_s;	/* RLIMIT_CPU per process */
};

#define BWRAP_REVIEW_OPTS_INIT { .mem_mb = 1024, .cpu_s = 20 }

/* Push "prlimit ... -- bwrap ... --chdir DIR" for the review's sandbox
 * onto `args`; the command to run in it follows. */
void bwrap_review_argv(struct strvec *args, const struct bwrap_review_opts *o);

/* The environment for CHILD_CLEAN_ENV: PATH (with ccache's compiler
 * wrappers first when `ccache`), HOME and TMPDIR, a C.UTF-8 locale, fixed
 * KBUILD_BUILD_* so the output does not depend on who or when. */
void bwrap_env(struct strvec *env, bool ccache);

/* Did bwrap itself fail (no user namespaces, a missing bind source...)?
 * That is a machinery error, not a build verdict.  Needs the child's
 * stderr merged into stdout (CHILD_STDERR_TO_OUT). */
bool bwrap_failed(const struct child *c);

#endif
