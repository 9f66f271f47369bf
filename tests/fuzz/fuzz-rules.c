/*
 * libFuzzer harness for rule files: rules_load_buf() on arbitrary bytes
 * must return 0 or WW_EINPUT with a message, never crash or leak; what
 * loads must answer lookups, overrides and wrappers.
 */
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset rs = RULESET_INIT;
	int ret = rules_load_buf(&rs, (const char *)data, size, "fuzz.json");

	if (ret < 0 && (ret != WW_EINPUT || !*error_last()))
		abort();
	for (size_t i = 0; ret == 0 && i < rs.nr; i++) {
		const struct rule *r = &rs.rules[i];

		if (rules_lookup(&rs, r->macro, strlen(r->macro)) != r)
			abort();
		(void)rules_severity(&rs, r, "tools/x.c");
		(void)rules_add_wrapper(&rs, "FUZZ_BUG_ON", r);
		break;
	}
	(void)rules_path_scanned(&rs, "drivers/a.c");
	(void)rules_ignored(&rs, "BUILD_BUG_ON");
	ruleset_release(&rs);
	return 0;
}
