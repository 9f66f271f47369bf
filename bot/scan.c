/*
 * The C-aware scanner (stub: the real lexer follows shortly).
 */
#include "scan.h"

void scan_text(struct scan_result *out, const struct ruleset *rs,
	       const char *text, size_t len, enum scan_state start)
{
}

enum scan_state scan_guess_state(const char *text, size_t len)
{
	return SCAN_CODE;
}

void scan_defines(struct scan_result *out, const struct ruleset *rs,
		  const char *text, size_t len)
{
}

void scan_result_clear(struct scan_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->v[i].defined);
		free(r->v[i].text);
	}
	free(r->v);
	r->v = NULL;
	r->nr = r->alloc = 0;
}
