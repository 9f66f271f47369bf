/*
 * Kernel config fragments and suite selection (see kconfig.h).  Stub.
 */
#include "kconfig.h"

void kconfig_frag_release(struct kconfig_frag *f)
{
}

void kconfig_frag_set(struct kconfig_frag *f, const char *name,
		      const char *value)
{
}

const struct kconfig_entry *kconfig_frag_get(const struct kconfig_frag *f,
					     const char *name)
{
	return NULL;
}

int kconfig_frag_parse(struct kconfig_frag *f, const char *text, size_t len,
		       const char *name)
{
	return error("not implemented yet");
}

int kconfig_frag_read(struct kconfig_frag *f, const char *path)
{
	return error("not implemented yet");
}

void kconfig_frag_format(struct strbuf *out, const struct kconfig_frag *f)
{
}

void kconfig_frag_hash(struct strbuf *out, const struct kconfig_frag *f)
{
}

void kconfig_frag_missing(struct strvec *out, const struct kconfig_frag *want,
			  const struct kconfig_frag *got)
{
}

int kconfig_select_suites(struct kconfig_suites *out, const char *srctree,
			  const struct strvec *touched)
{
	return error("not implemented yet");
}

void kconfig_suites_release(struct kconfig_suites *s)
{
}
