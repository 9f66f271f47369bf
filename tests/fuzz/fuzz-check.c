/*
 * libFuzzer harness for the whole check pipeline on one input, as
 * `warnwatch check` reads it: a diff or a mail/mbox, the series built
 * from it, every patch checked, and both reports written.  Findings must
 * name a file and a line inside what the diff says.
 */
#include "check.h"
#include "diff.h"
#include "report.h"
#include "fuzz.h"

#include <jansson.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)fuzz_rules();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_opts opts = CHECK_OPTS_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct report_opts ro = REPORT_OPTS_INIT;
	struct mail_list l = MAIL_LIST_INIT;
	struct series s = SERIES_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *buf = (const char *)data;
	int ret;

	opts.rules = fuzz_rules();
	if (diff_looks_like(buf, size)) {
		series_from_diff(&s, buf, size, "fuzz.diff");
	} else {
		if (mbox_parse(&l, buf, size) < 0)
			goto out;
		if (series_from_mails(&s, &l) < 0)
			goto out;
	}
	ret = check_series(&r, &s, &opts);
	/* Strangers' diffs: an error is the input's fault and says why. */
	FUZZ_ASSERT(ret >= 0 || ((ret == WW_EINPUT || ret == WW_ETOOBIG) && *error_last()),
		    "check_series() gave %d '%s'", ret, error_last());
	if (ret >= 0) {
		FILE *null = fopen("/dev/null", "w");
		json_t *j;

		for (size_t i = 0; i < r.nr; i++) {
			const struct finding *f = &r.v[i];

			FUZZ_ASSERT(f->file && f->line >= 0 && f->rule,
				    "finding %zu without file:line", i);
			/* Every finding points into a hunk line that exists. */
			FUZZ_ASSERT(f->hunk && f->hunk_line >= 0 && f->source_lines >= 1,
				    "finding %zu without its hunk", i);
			strbuf_setlen(&sb, 0);
			check_finding_title(&sb, &r.v[i]);
		}
		j = report_json("fuzz", &s, &r, opts.rules);
		free(json_dumps(j, 0));
		json_decref(j);
		if (null) {
			report_text(null, "fuzz", &s, &r, &ro);
			fclose(null);
		}
	}
out:
	check_result_clear(&r);
	series_release(&s);
	mail_list_clear(&l);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
