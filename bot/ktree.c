/*
 * The base kernel tree (see ktree.h).  Stub: being implemented.
 */
#include "ktree.h"

int ktree_open(struct ktree *out, const struct ktree_opts *opts)
{
	return error("ktree_open: not implemented yet");
}

void ktree_release(struct ktree *t)
{
}

int ktree_checkout(struct ktree *t, const git_oid *commit)
{
	return error("ktree_checkout: not implemented yet");
}

void ktree_cache_dir(struct strbuf *out, const char *option)
{
	strbuf_addstr(out, option ? option : ".");
}

int ktree_read_version(struct strbuf *out, const char *makefile)
{
	return error("ktree_read_version: not implemented yet");
}

const char *ktree_git_error(void)
{
	return "";
}
