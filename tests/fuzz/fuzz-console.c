/*
 * libFuzzer harness for serial console logs (KTAP/KUnit results,
 * WARNING/BUG/Oops blocks, panics): console_parse() never fails, so it
 * must not crash either, whatever a dying kernel printed.
 */
#include "console.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct console_result r = CONSOLE_RESULT_INIT;

	console_parse(&r, (const char *)data, size);
	for (size_t i = 0; i < r.nr_suites; i++) {
		const struct ktap_suite *s = &r.suites[i];

		FUZZ_ASSERT(s->name, "suite without a name");
		FUZZ_ASSERT(console_find_suite(&r, s->name), "suite '%s' not found",
			    s->name);
		(void)ktap_result_name(s->result);
	}
	for (size_t i = 0; i < r.nr_fired; i++)
		(void)fired_kind_name(r.fired[i].kind);
	console_result_release(&r);
	return 0;
}
