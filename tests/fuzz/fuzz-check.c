/*
 * libFuzzer harness for the check pipeline: check_diff() (diff.c's
 * normalisation and hunk checks, libgit2's parser, the scanner and the
 * pairing of findings) on arbitrary bytes, as a diff in a mail would
 * reach it.  The input is copied into a buffer of exactly its size, so a
 * read past `len` is an ASan report.  Diffs come from strangers: nothing
 * may crash, leak or hang, and an error must be WW_EINPUT or WW_ETOOBIG
 * with a message.
 *
 *   clang -g -fsanitize=fuzzer,address,undefined -Ibot $(pkg-config --cflags
 *     libgit2 jansson) tests/fuzz/fuzz-check.c bot/{check,diff,scan,rules,
 *     strbuf,strvec,error,wrapper}.c $(pkg-config --libs libgit2 jansson)
 *   WW_TOP=. ./a.out tests/fuzz/corpus/check
 */
#include "check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ruleset rs = RULESET_INIT;

static void load_rules(void)
{
	const char *top = getenv("WW_TOP");
	struct strbuf dir = STRBUF_INIT;

	strbuf_addf(&dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, dir.buf) < 0) {
		fprintf(stderr, "fuzz-check: %s\n", error_last());
		abort();
	}
	strbuf_release(&dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts opts = CHECK_OPTS_INIT;
	char *text = malloc(size ? size : 1);
	int ret;

	if (!rs.nr)
		load_rules();
	memcpy(text, data, size);
	opts.rules = &rs;
	error_clear();
	ret = check_diff(&r, text, size, 1, &opts);
	if (ret < 0 && ((ret != WW_EINPUT && ret != WW_ETOOBIG) || !*error_last()))
		abort();
	for (size_t i = 0; i < r.nr; i++) {
		const struct finding *f = &r.v[i];

		/* Every finding points into a hunk line that exists. */
		if (!f->rule || f->line < 0 || !f->hunk || f->hunk_line < 0 ||
		    f->source_lines < 1)
			abort();
	}
	check_result_clear(&r);
	free(text);
	return 0;
}
