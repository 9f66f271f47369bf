/*
 * libFuzzer harness for the C scanner: scan_text() on arbitrary bytes in
 * both start states must find exactly what the token-by-token
 * scan_text_slow() finds (the fast path is an optimisation, not a second
 * opinion), and scan_defines()/scan_guess_state() must not crash.
 */
#include "scan.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)fuzz_rules();
	return 0;
}

static void same(const struct scan_result *a, const struct scan_result *b,
		 enum scan_state st)
{
	FUZZ_ASSERT(a->nr == b->nr, "state %d: fast %zu hits, slow %zu", st,
		    a->nr, b->nr);
	for (size_t i = 0; i < a->nr; i++) {
		const struct scan_hit *x = &a->v[i], *y = &b->v[i];

		FUZZ_ASSERT(x->kind == y->kind && x->rule == y->rule &&
			    x->line == y->line && x->col == y->col &&
			    x->end_line == y->end_line &&
			    !strcmp(x->text, y->text) &&
			    !(x->defined && strcmp(x->defined, y->defined)),
			    "state %d: hit %zu differs: fast %s line %zu col %zu '%s', slow %s line %zu col %zu '%s'",
			    st, i, x->rule ? x->rule->macro : "?", x->line, x->col,
			    x->text, y->rule ? y->rule->macro : "?", y->line,
			    y->col, y->text);
	}
}

/*
 * A backslash-newline inside a quote: C splices lines before it reads
 * literals, and the two loops approximate that differently ("'\\\\\n#x(").
 * Not worth matching for text no compiler accepts: such inputs are still
 * scanned, just not compared.
 */
static bool splice_in_quote(const char *s, size_t len)
{
	bool quote = false;	/* a quote on this line (comments aside) */

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\'' || s[i] == '"')
			quote = true;
		else if (s[i] == '\n') {
			size_t b = i && s[i - 1] == '\r' ? i - 1 : i;	/* CRLF */

			if (b && s[b - 1] == '\\' && quote)
				return true;
			quote = false;
		}
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ruleset *rs = fuzz_rules();
	struct scan_result fast = SCAN_RESULT_INIT, slow = SCAN_RESULT_INIT;
	const char *text = (const char *)data;

	for (int st = SCAN_CODE; st <= SCAN_BLOCK_COMMENT; st++) {
		scan_text(&fast, rs, text, size, st);
		scan_text_slow(&slow, rs, text, size, st);
		if (!splice_in_quote(text, size))
			same(&fast, &slow, st);
		for (size_t i = 0; i < fast.nr; i++)
			FUZZ_ASSERT(strlen(fast.v[i].text) <= 203,
				    "hit text of %zu bytes", strlen(fast.v[i].text));
		scan_result_clear(&fast);
		scan_result_clear(&slow);
	}
	(void)scan_guess_state(text, size);
	scan_defines(&fast, rs, text, size);
	scan_result_clear(&fast);
	return 0;
}
