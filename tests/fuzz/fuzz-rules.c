/*
 * libFuzzer harness for the rule loader: rules_load_buf() on arbitrary
 * JSON must load or give WW_EINPUT with a message; then lookups,
 * severities and wrappers on whatever it loaded.
 */
#include "rules.h"
#include "advice.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset rs = RULESET_INIT;
	static const char *const paths[] = {
		"drivers/net/foo.c", "tools/x.c", "Documentation/a.rst", "",
	};

	int ret;

	rules_own_part("review", advice_check_buf);	/* as main() does */
	ret = rules_load_buf(&rs, (const char *)data, size, "fuzz.json");

	FUZZ_ASSERT(ret == 0 || (ret == WW_EINPUT && *error_last()),
		    "rules_load_buf() gave %d '%s'", ret, error_last());
	if (ret == 0) {
		for (size_t i = 0; i < rs.nr; i++) {
			const struct rule *r = &rs.rules[i];

			FUZZ_ASSERT(r->macro, "rule %zu without a macro", i);
			FUZZ_ASSERT(rules_lookup(&rs, r->macro, strlen(r->macro)),
				    "rule '%s' not found by lookup", r->macro);
			for (size_t p = 0; p < sizeof(paths) / sizeof(*paths); p++)
				(void)rules_severity(&rs, r, paths[p]);
		}
		for (size_t p = 0; p < sizeof(paths) / sizeof(*paths); p++)
			(void)rules_path_scanned(&rs, paths[p]);
		(void)rules_lookup(&rs, (const char *)data, size < 64 ? size : 64);
		if (rs.nr)
			(void)rules_add_wrapper(&rs, "FUZZ_BUG_ON", &rs.rules[0]);
	}
	ruleset_release(&rs);
	error_clear();
	return 0;
}
