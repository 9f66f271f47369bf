/*
 * libFuzzer harness for kernel config fragments and .config files (a
 * series may change them): kconfig_frag_parse(), then the normal form,
 * which must parse back to the same normal form.
 */
#include "kconfig.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kconfig_frag f = KCONFIG_FRAG_INIT, g = KCONFIG_FRAG_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (kconfig_frag_parse(&f, (const char *)data, size, "fuzz.config") >= 0) {
		kconfig_frag_format(&a, &f);
		FUZZ_ASSERT(kconfig_frag_parse(&g, a.buf, a.len, "normal") >= 0,
			    "normal form does not parse: %s", error_last());
		kconfig_frag_format(&b, &g);
		FUZZ_ASSERT(a.len == b.len && !memcmp(a.buf, b.buf, a.len),
			    "normal form not stable");
		strbuf_setlen(&a, 0);
		kconfig_frag_hash(&a, &f);
	}
	kconfig_frag_release(&f);
	kconfig_frag_release(&g);
	strbuf_release(&a);
	strbuf_release(&b);
	error_clear();
	return 0;
}
