/*
 * The base kernel tree: Debian's linux-source tarball, extracted once into
 * the cache and imported into a git repository with libgit2, so that a
 * series can be applied with git_apply and the tree put back exactly.
 *
 * Cache layout (under $WARNWATCH_CACHE):
 *   work/<version>/                 the extracted tarball, which is also the
 *                                   git worktree series are applied in; its
 *                                   path never changes because a kernel build
 *                                   directory records it
 *   work/<tarball-name>.base        which version that tarball gave, with
 *                                   its size and mtime (to notice an update)
 *   git/linux-<version>.git/        the git directory (core.worktree points
 *                                   at work/<version>), tag v<version>
 *   build/<version>-<confighash>/   make O= directories (kbuild.h)
 *   ccache/                         the compiler cache (kbuild.h)
 *   locks/<tarball-name>.lock       flock()ed while a run uses the tree
 *
 * One struct ktree is one locked use of the tree: ktree_open() waits for
 * the lock (bounded), extracts and imports on first use, and keeps the lock
 * until ktree_release(), so that no other warnwatch run checks out another
 * series or rebuilds underneath us while we build and boot.
 */
#ifndef WW_KTREE_H
#define WW_KTREE_H

#include "strbuf.h"
#include "strvec.h"

#include <git2.h>

#define KTREE_DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"
/* Waiting for another run to finish with the tree (it may be building). */
#define KTREE_DEFAULT_LOCK_TIMEOUT_S (60 * 60)
/* Extracting the 6.1 tarball takes about 20 s; allow for a slow disk. */
#define KTREE_EXTRACT_TIMEOUT_S (20 * 60)

/* Worktrees of git bases kept (each ~1.5 GB plus its build directories). */
#define KTREE_KEEP_BASES 3

struct ktree_opts {
	const char *cache_dir;	/* NULL: ktree_cache_dir(NULL) */
	const char *repo;	/* ktree_open_git(): the operator's kernel repository */
	unsigned int keep_bases; /* ktree_open_git(): git bases kept; 0: KTREE_KEEP_BASES */
	const char *tarball;	/* NULL: $WARNWATCH_BASE_TARBALL, else the default */
	unsigned int lock_timeout_s; /* 0: KTREE_DEFAULT_LOCK_TIMEOUT_S */
	bool progress;		/* say on stderr when extracting/importing */
};

#define KTREE_OPTS_INIT { 0 }

struct ktree {
	char *cache_dir;	/* absolute */
	char *tarball;
	char *version;		/* "6.1.192", from the top Makefile */
	char *tag;		/* "v6.1.192" */
	char *worktree;		/* <cache>/work/<version> */
	char *gitdir;		/* <cache>/git/linux-<version>.git */
	git_repository *repo;
	git_oid base;		/* the imported tarball's commit (tag target) */
	int lock_fd;
	double extract_seconds;	/* 0 when the cache already had the tree */
	double import_seconds;	/* likewise */
	char *seed_version;	/* a git base: the Debian tree (same release) its
				   worktree and build directories were seeded
				   from, or NULL */
};

#define KTREE_INIT { .lock_fd = -1 }

/*
 * Open (and on first use create) the base tree, holding its lock.
 * Errors: WW_ENOTFOUND (no tarball), WW_ETIMEOUT (lock or tar deadline),
 * WW_EINPUT (no version in the tarball's Makefile), WW_ERROR otherwise.
 */
int ktree_open(struct ktree *out, const struct ktree_opts *opts);

/*
 * A commit of the operator's git repository (opts->repo, kept fetched by
 * the operator: mainline, linux-next, a maintainer's tree) as the base:
 *   git/base-<commit>.git   warnwatch's own repository, whose objects/info/
 *                           alternates name the operator's objects (the
 *                           series' commits go here, never there)
 *   work/<commit>/          its worktree
 *   locks/base-<commit12>.lock
 * version is "<make kernelversion>-g<commit12>", tag the short commit.  A
 * new worktree starts as a copy of the Debian tree of the same
 * major.minor (keeping mtimes, so the build directory copied from it only
 * rebuilds the files that differ; t->seed_version names it), else a full
 * checkout.  The opts->keep_bases most recently opened git bases are
 * kept; older ones (worktree, repository, build directories) are removed
 * unless another run holds them.
 */
int ktree_open_git(struct ktree *out, const struct ktree_opts *opts,
		   const git_oid *commit);

/* Close the repository, drop the lock, free everything. */
void ktree_release(struct ktree *t);

/*
 * Make the worktree (and index, and HEAD) match `commit`: only files that
 * differ are written, so their mtimes alone change and make stays
 * incremental; files the current HEAD has and `commit` lacks are removed.
 */
int ktree_checkout(struct ktree *t, const git_oid *commit);

/*
 * Commit on top of `parent` a change of warnwatch's own (not the
 * series'): files[i] gets contents[i] (tree-relative paths of existing or
 * new regular files).  Not checked out: ktree_checkout() the result.
 * Used for the gcov lines kbuild's objects need (ci.c).
 */
int ktree_commit_files(git_oid *out, struct ktree *t, const git_oid *parent,
		       const struct strvec *files, const struct strvec *contents,
		       const char *message);

/*
 * The cache directory: datadir_cache() (datadir.h), kernel-ci's name for
 * it.
 */
void ktree_cache_dir(struct strbuf *out, const char *option);

/* "6.1.192" from a kernel top-level Makefile's VERSION/PATCHLEVEL/
 * SUBLEVEL/EXTRAVERSION lines; WW_EINPUT when they are missing. */
int ktree_read_version(struct strbuf *out, const char *makefile);

#endif
