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
	if (ret >= 0) {
		FILE *null = fopen("/dev/null", "w");
		json_t *j;

		for (size_t i = 0; i < r.nr; i++) {
			FUZZ_ASSERT(r.v[i].file && r.v[i].line >= 0,
				    "finding %zu without file:line", i);
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
