/*
 * libFuzzer harness for kernel-ci verdicts as review, serve and the
 * dashboard read them (JSON, possibly from another machine):
 * ci_verdict_from_json(), and the JSON again from what it read.
 */
#include "ci-json.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ci_verdict v = CI_VERDICT_INIT;

	if (!ci_verdict_from_json(&v, (const char *)data, size, "ci.json"))
		json_decref(ci_verdict_to_json(&v));
	ci_verdict_release(&v);
	error_clear();
	return 0;
}
