/*
 * Applying a series to the base tree (see kapply.h).  Stub: being implemented.
 */
#include "kapply.h"

int kapply_series(struct kapply_result *out, struct ktree *t,
		  const struct series *s)
{
	return error("kapply_series: not implemented yet");
}

int kapply_diff(git_oid *out, struct ktree *t, const git_oid *parent,
		const char *diff, size_t len, const char *what,
		const char *subject, struct strvec *touched)
{
	return error("kapply_diff: not implemented yet");
}

void kapply_result_release(struct kapply_result *r)
{
}
