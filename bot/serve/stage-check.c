/*
 * The check stage: the findings of the series (check.h) as
 * findings.json, and its verdict in the queue.
 */
#include "stage.h"
#include "check.h"
#include "report.h"
#include "ci.h"

/* Findings, not counting calls that only moved. */
static int count_findings(const struct check_result *r)
{
	int n = 0;

	for (size_t i = 0; i < r->nr; i++)
		if (!r->v[i].moved)
			n++;
	return n;
}

/* The release its build will try first: workers with that kernel built
 * are given the series (queue_claim()). */
static int set_base(struct serve *sv, long long id, const struct serve_list *l,
		    const struct series *series)
{
	struct ci_opts co = CI_OPTS_INIT;
	struct strbuf base = STRBUF_INIT;
	int ret;

	co.tree = *l->tree ? l->tree : NULL;
	ci_first_base(&base, series, &co);
	ret = queue_set_base(&sv->q, id, base.buf);
	strbuf_release(&base);
	return ret;
}

static int run_check(struct serve *sv, const struct queue_series *s,
		     const struct serve_list *l, time_t now)
{
	const struct stage_series *k;
	struct strbuf path = STRBUF_INIT;
	json_t *json = NULL;
	char *text = NULL;
	int ret, n;

	ret = stage_need_rules(sv);
	if (ret < 0)
		return ret;
	/* the series' one read and check, which the later stages take up */
	ret = stage_checked(sv, s->id, &k);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	queue_artifact(&path, &sv->q, s->id, QUEUE_MBOX);
	json = report_json(path.buf, &k->s, &k->r, &sv->rules);
	text = json ? json_dumps(json, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
	if (!text) {
		ret = error("cannot encode the findings of series %lld", s->id);
		goto out;
	}
	ret = stage_put_artifact(sv, s->id, QUEUE_FINDINGS, text, strlen(text));
	if (ret < 0)
		goto out;
	n = count_findings(&k->r);
	ret = queue_set_verdict(&sv->q, s->id, n ? "findings" : "clean", n);
	if (!ret && l->boot)
		ret = set_base(sv, s->id, l, &k->s);
	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_CHECKED, now);
	serve_say(sv, "series %lld checked: %d finding(s)", s->id, n);
out:
	free(text);
	json_decref(json);
	strbuf_release(&path);
	return ret;
}

const struct stage stage_check = {
	.name = "check",
	.from = STAGE_FROM(QS_FETCHED),
	.wanted = NULL,
	.run = run_check,
};
