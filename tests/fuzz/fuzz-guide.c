/*
 * libFuzzer harness for coding-style.rst parsing (the tree under review
 * is a stranger's): guide_parse() on arbitrary bytes, then each heading
 * found and a few fixed ones looked up and quoted.
 */
#include "guide.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const headings[] = {
		"Use WARN() rather than BUG()", "22) Do not crash the kernel", "",
	};
	struct guide g = GUIDE_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (guide_parse(&g, (const char *)data, size, "coding-style.rst") >= 0) {
		for (size_t i = 0; i < g.nr; i++) {
			const struct guide_section *s = &g.v[i];

			FUZZ_ASSERT(s->start <= s->end && s->end <= g.len,
				    "section %zu: %zu..%zu of %zu", i, s->start,
				    s->end, g.len);
			s = guide_find(&g, g.v[i].heading);
			if (s)
				guide_quote(&sb, &g, s, "> ");
		}
		for (size_t i = 0; i < ARRAY_SIZE(headings); i++) {
			const struct guide_section *s = guide_find(&g, headings[i]);

			if (s)
				guide_quote(&sb, &g, s, "> ");
		}
	}
	guide_release(&g);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
