/*
 * The extracted base tree of the kernel-ci cache, for the unit tests that
 * read a real kernel tree (t-kconfig, t-kselftest, t-initramfs).  They run
 * before t0210 and on a fresh machine, so they get it themselves instead
 * of skipping: the tree the cache has for Debian's linux-source-6.1 when
 * its stamp (work/linux-source-6.1.base) still matches the tarball, read
 * without the tree lock (nothing here writes in it); else ktree_open()
 * extracts and imports it as warnwatch ci would (about a minute, once per
 * cache).  Which point release that is, the tarball says: none is written
 * here.  $WW_KERNEL_TREE (a tree) overrides, its version from its Makefile.
 */
#ifndef WW_TEST_BASETREE_H
#define WW_TEST_BASETREE_H

#include "ktree.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* The stamp's version when it matches the tarball `st`, else nothing. */
static void basetree_stamp(struct strbuf *version, const char *stamp,
			   const struct stat *st)
{
	char key[32], val[256];
	long long size = -1, mtime = -1;
	FILE *f = fopen(stamp, "r");

	strbuf_reset(version);
	if (!f)
		return;
	while (fscanf(f, "%31s %255s", key, val) == 2) {
		if (!strcmp(key, "version"))
			strbuf_addstr(version, val);
		else if (!strcmp(key, "size"))
			size = atoll(val);
		else if (!strcmp(key, "mtime"))
			mtime = atoll(val);
	}
	fclose(f);
	if (size != (long long)st->st_size || mtime != (long long)st->st_mtime)
		strbuf_reset(version);
}

/*
 * The tree into `out`, its version ("6.1.192") into `version`.  Negative
 * with error_last() set when there is none and none can be made: no
 * tarball (then the caller skips, "not-installed"), or extraction failed.
 */
static int basetree_get(struct strbuf *out, struct strbuf *version)
{
	const char *env = getenv("WW_KERNEL_TREE");
	struct ktree_opts o = KTREE_OPTS_INIT;
	struct ktree t = KTREE_INIT;
	struct strbuf cache = STRBUF_INIT, path = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	strbuf_reset(out);
	strbuf_reset(version);
	if (env && *env) {
		strbuf_addstr(out, env);
		strbuf_addf(&path, "%s/Makefile", env);
		return ktree_read_version(version, path.buf);
	}
	if (stat(KTREE_DEFAULT_TARBALL, &st) < 0)
		return error_code(WW_ENOTFOUND, "no '%s' (make deps)", KTREE_DEFAULT_TARBALL);
	ktree_cache_dir(&cache, NULL);
	strbuf_addf(&path, "%s/work/linux-source-6.1.base", cache.buf);
	basetree_stamp(version, path.buf, &st);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/work/%s/Makefile", cache.buf, version->buf);
	if (version->len && !access(path.buf, R_OK)) {
		strbuf_addf(out, "%s/work/%s", cache.buf, version->buf);
		goto out;
	}
	o.tarball = KTREE_DEFAULT_TARBALL;
	ret = ktree_open(&t, &o);
	if (!ret) {
		strbuf_reset(version);
		strbuf_addstr(out, t.worktree);
		strbuf_addstr(version, t.version);
	}
	ktree_release(&t);
out:
	strbuf_release(&cache);
	strbuf_release(&path);
	return ret;
}

#endif
