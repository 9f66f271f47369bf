/*
 * libFuzzer harness for the MAINTAINERS parser (a patched tree's file is
 * a stranger's text): maintainers_parse() on the part before "\n====\n",
 * then each line after it looked up as a path and matched as a pattern.
 */
#include "maintainers.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct maintainers m = MAINTAINERS_INIT;
	const char *rest, *text = (const char *)data;
	size_t len, rest_len;

	fuzz_split(data, size, &len, &rest, &rest_len);
	/* Regexes are compiled by glibc, whose worst cases are its own;
	 * the harness keeps to the parts that are ours. */
	if (maintainers_parse(&m, text, len, "MAINTAINERS", MAINTAINERS_NO_REGEX) >= 0) {
		char *paths = rest ? xstrndup(rest, rest_len) : xstrdup("drivers/net/a.c");
		char *save = paths, *p;

		while ((p = strsep(&save, "\n"))) {
			int depth;
			ssize_t s = maintainers_match(&m, p, &depth);

			FUZZ_ASSERT(s < (ssize_t)m.nr, "section %zd of %zu", s, m.nr);
			(void)maintainers_pattern_match(p, "drivers/net/a.c");
			(void)maintainers_pattern_depth(p);
		}
		free(paths);
	}
	maintainers_release(&m);
	error_clear();
	return 0;
}
