/*
 * libFuzzer harness for the scanner: scan_text() on arbitrary bytes from
 * both start states, checked against scan_text_slow() (the token-by-token
 * scan must find the same hits), plus scan_defines() and
 * scan_guess_state().  The input is copied into a buffer of exactly its
 * size, so a read past `len` is an ASan report.  Hunks come from
 * strangers; none of this may crash, leak, hang or disagree.
 */
#include "scan.h"
#include "strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ruleset rs = RULESET_INIT;

static void load_rules(void)
{
	const char *top = getenv("WW_TOP");
	struct strbuf dir = STRBUF_INIT;

	strbuf_addf(&dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, dir.buf) < 0) {
		fprintf(stderr, "fuzz-scan: %s\n", error_last());
		abort();
	}
	strbuf_release(&dir);
}

static bool same(const struct scan_result *a, const struct scan_result *b)
{
	size_t i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++) {
		const struct scan_hit *x = &a->v[i], *y = &b->v[i];

		if (x->kind != y->kind || x->rule != y->rule || x->line != y->line ||
		    x->end_line != y->end_line || x->col != y->col ||
		    strcmp(x->text, y->text) ||
		    (x->defined && strcmp(x->defined, y->defined)))
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scan_result fast = SCAN_RESULT_INIT, slow = SCAN_RESULT_INIT;
	char *text = malloc(size ? size : 1);
	int st;

	if (!rs.index)
		load_rules();
	memcpy(text, data, size);
	for (st = SCAN_CODE; st <= SCAN_BLOCK_COMMENT; st++) {
		scan_text(&fast, &rs, text, size, st);
		scan_text_slow(&slow, &rs, text, size, st);
		if (!same(&fast, &slow))
			abort();
		scan_result_clear(&fast);
		scan_result_clear(&slow);
	}
	(void)scan_guess_state(text, size);
	scan_defines(&fast, &rs, text, size);
	scan_result_clear(&fast);
	free(text);
	return 0;
}
