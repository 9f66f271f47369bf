/*
 * libFuzzer harness for kernel-ci verdicts as review, serve and the
 * dashboard read them (JSON, possibly from another machine):
 * ci_verdict_from_json(), and the JSON again from what it read, whose
 * "findings" and "damaged" are the input's unchanged (a read verdict keeps
 * them as JSON, ci-json.h) and whose findings made no rules.
 */
#include "ci-json.h"
#include "fuzz.h"

/* Array `key` of `out` is that of `in` (an empty one when `in` has none). */
static bool kept(const json_t *in, const json_t *out, const char *key)
{
	const json_t *was = json_object_get(in, key), *now = json_object_get(out, key);

	if (!was || json_is_null(was))
		return json_is_array(now) && !json_array_size(now);
	return json_equal(was, now);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ci_verdict v = CI_VERDICT_INIT;

	if (!ci_verdict_from_json(&v, (const char *)data, size, "ci.json")) {
		json_t *in = json_loadb((const char *)data, size, 0, NULL);
		json_t *out = ci_verdict_to_json(&v);

		FUZZ_ASSERT(in && kept(in, out, "findings") && kept(in, out, "damaged"),
			    "findings or damaged not written again as read");
		FUZZ_ASSERT(!v.rules && !v.own_rules && !v.findings && !v.own_findings,
			    "a read verdict made findings or rules");
		json_decref(out);
		json_decref(in);
	}
	ci_verdict_release(&v);
	error_clear();
	return 0;
}
