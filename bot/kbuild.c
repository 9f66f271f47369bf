/*
 * Building the kernel in a sandbox (see kbuild.h).  Stub: being implemented.
 */
#include "kbuild.h"

int kbuild_run(struct kbuild_result *out, struct ktree *t,
	       const struct kbuild_opts *opts)
{
	return error("kbuild_run: not implemented yet");
}

void kbuild_first_error(struct strbuf *out, const char *log, size_t len)
{
}

void kbuild_config_dir(struct strbuf *out)
{
	strbuf_addstr(out, "kernel-ci");
}

void kbuild_result_release(struct kbuild_result *r)
{
}
