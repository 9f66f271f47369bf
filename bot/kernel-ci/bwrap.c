/*
 * The build sandbox's command line (bwrap.h).
 */
#include "bwrap.h"

/* What both sandboxes share: no namespace of the host's, uid 65534, /usr
 * and the bits of /etc a compiler needs, read-only. */
static void common_argv(struct strvec *args)
{
	strvec_pushl(args, "bwrap", "--unshare-all", "--die-with-parent",
		     "--new-session", "--uid", "65534", "--gid", "65534",
		     "--hostname", "warnwatch",
		     "--ro-bind", "/usr", "/usr",
		     "--symlink", "usr/bin", "/bin",
		     "--symlink", "usr/sbin", "/sbin",
		     "--symlink", "usr/lib", "/lib",
		     "--symlink", "usr/lib64", "/lib64",
		     "--ro-bind", "/etc/alternatives", "/etc/alternatives",
		     "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
		     "--proc", "/proc", NULL);
}

void bwrap_argv(struct strvec *args, const struct bwrap_opts *o)
{
	strvec_push(args, "prlimit");
	strvec_pushf(args, "--as=%llu", (unsigned long long)o->mem_mb << 20);
	strvec_pushl(args, "--core=0", "--", NULL);
	common_argv(args);
	strvec_pushl(args, "--dev", "/dev",
		     "--ro-bind", o->src, BWRAP_SRC,
		     "--bind", o->build, BWRAP_BUILD, NULL);
	if (o->ccache)
		strvec_pushl(args, "--bind", o->ccache, BWRAP_CCACHE, NULL);
	for (size_t i = 0; o->binds && i + 1 < o->binds->nr; i += 2)
		strvec_pushl(args, "--bind", o->binds->v[i], o->binds->v[i + 1],
			     NULL);
	/* An empty, read-only /tmp: writes there fail loudly. */
	strvec_pushl(args, "--dir", "/tmp", "--remount-ro", "/",
		     "--chdir", BWRAP_BUILD, NULL);
}

void bwrap_review_argv(struct strvec *args, const struct bwrap_review_opts *o)
{
	strvec_push(args, "prlimit");
	if (o->mem_mb)
		strvec_pushf(args, "--as=%llu", (unsigned long long)o->mem_mb << 20);
	strvec_pushf(args, "--cpu=%u", o->cpu_s);
	strvec_pushl(args, "--core=0", "--", NULL);
	common_argv(args);
	/* No /dev/zero, /dev/stdin or /dev/urandom to read without end. */
	strvec_pushl(args, "--dev-bind", "/dev/null", "/dev/null", "--dir", "/tmp", NULL);
	for (size_t i = 0; o->ro && i < o->ro->nr; i++)
		strvec_pushl(args, "--ro-bind", o->ro->v[i], o->ro->v[i], NULL);
	if (o->exe)
		strvec_pushl(args, "--ro-bind", o->exe, BWRAP_EXE, NULL);
	strvec_pushl(args, "--remount-ro", "/", "--chdir", o->chdir ? o->chdir : "/", NULL);
}

void bwrap_env(struct strvec *env, bool ccache)
{
	strvec_push(env, ccache ? "PATH=/usr/lib/ccache:/usr/bin:/bin"
				: "PATH=/usr/bin:/bin");
	strvec_pushl(env,
		     "HOME=" BWRAP_TMP, "TMPDIR=" BWRAP_TMP,
		     "LANG=C.UTF-8", "LC_ALL=C.UTF-8",
		     "KBUILD_BUILD_USER=warnwatch",
		     "KBUILD_BUILD_HOST=sandbox",
		     "KBUILD_BUILD_TIMESTAMP=warnwatch",
		     "KBUILD_BUILD_VERSION=1",
		     "LOCALVERSION=", NULL);
	if (ccache)
		strvec_pushl(env, "CCACHE_DIR=" BWRAP_CCACHE,
			     "CCACHE_BASEDIR=/ww", "CCACHE_MAXSIZE=2G", NULL);
}

bool bwrap_failed(const struct child *c)
{
	return c->status && starts_with(c->out.buf, "bwrap: ");
}
