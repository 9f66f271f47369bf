/*
 * Shared bits of the libFuzzer harnesses: the entry points' prototypes
 * (-Wmissing-prototypes), the checkout's rules/templates (tests/fuzz/run
 * builds with WW_DATADIR set to the checkout), and an invariant check
 * that aborts, so libFuzzer keeps the input that broke it.
 */
#ifndef WW_FUZZ_H
#define WW_FUZZ_H

#include "ww.h"
#include "rules.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A property every input must keep: print it and abort (a finding). */
#define FUZZ_ASSERT(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz invariant broken at %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		abort(); \
	} \
} while (0)

/* The shipped rules, loaded once (harnesses that scan or check). */
static inline struct ruleset *fuzz_rules(void)
{
	static struct ruleset rs = RULESET_INIT;
	static bool loaded;

	if (!loaded) {
		if (rules_load(&rs, WW_DATADIR "/rules") < 0) {
			fprintf(stderr, "fuzz: cannot load rules: %s\n", error_last());
			exit(1);
		}
		loaded = true;
	}
	return &rs;
}

/*
 * Split the input at the first "\n====\n": harnesses that need two
 * inputs (a template and its values, a text and the paths to look up)
 * get both from one byte string.  `rest` is NULL when there is no mark.
 */
static inline void fuzz_split(const uint8_t *data, size_t size,
			      size_t *first_len, const char **rest,
			      size_t *rest_len)
{
	static const char mark[] = "\n====\n";
	const char *p = memmem(data, size, mark, sizeof(mark) - 1);

	if (!p) {
		*first_len = size;
		*rest = NULL;
		*rest_len = 0;
		return;
	}
	*first_len = (size_t)(p - (const char *)data);
	*rest = p + sizeof(mark) - 1;
	*rest_len = size - *first_len - (sizeof(mark) - 1);
}

#endif
