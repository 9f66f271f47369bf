/*
 * libFuzzer harness for kernel-ci verdicts as review reads them (JSON,
 * possibly from another machine): reply_verdict_parse().
 */
#include "reply.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reply_verdict v = REPLY_VERDICT_INIT;

	(void)reply_verdict_parse(&v, (const char *)data, size, "verdict.json");
	reply_verdict_release(&v);
	error_clear();
	return 0;
}
