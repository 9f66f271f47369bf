/*
 * warnwatch ci: the pipeline from a series to a boot verdict (see ci.h).
 */
#include "ci.h"

const char *ci_verdict_name(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_CLEAN: return "clean";
	case CI_PANICKED: return "panicked";
	case CI_BUILD_FAILED: return "build-failed";
	case CI_APPLY_FAILED: return "apply-failed";
	case CI_HUNG: return "hung";
	case CI_ERROR: return "error";
	}
	return "?";
}

int ci_run(struct ci_verdict *out, const struct series *s,
	   const struct ci_opts *opts)
{
	return error("ci is not implemented yet");
}

void ci_verdict_release(struct ci_verdict *v)
{
}
