/*
 * The kernel-ci stage (lists with boot = yes): build and boot the series
 * (ci.h), keep its verdict (ci-json.h: the one schema the reply reads too)
 * and the console log.
 */
#include "stage.h"
#include "ci-json.h"

static bool wants_boot(const struct serve_list *l)
{
	return l->boot;
}

static int copy_file(struct serve *sv, long long id, const char *name,
		     const char *from)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = strbuf_read_file(&buf, from, 64u << 20);

	if (!ret)
		ret = stage_put_artifact(sv, id, name, buf.buf, buf.len);
	strbuf_release(&buf);
	return ret;
}

static int run_ci(struct serve *sv, const struct queue_series *s,
		  const struct serve_list *l, time_t now)
{
	const struct stage_series *k;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct ci_opts co = CI_OPTS_INIT;
	json_t *json = NULL;
	char *text = NULL;
	int ret;

	ret = stage_checked(sv, s->id, &k);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	co.tree = *l->tree ? l->tree : NULL;
	/* [ci] repo: the git kernel repository the operator keeps fetched. */
	co.repo = sv->cfg->settings->ci.repo;
	co.keep_bases = sv->cfg->settings->ci.keep_bases;
	co.keep_logs = sv->cfg->settings->ci.keep_logs;
	co.rules = &sv->rules;
	co.checked = &k->r;
	ret = ci_run(&v, &k->s, &co);
	if (!ret && v.kind == CI_ERROR)
		ret = error("kernel-ci: %s", v.reason ? v.reason : "no verdict");
	if (ret < 0) {
		/* No verdict: our machinery failed, not the series. */
		ret = serve_fail(sv, s->id, error_last(), false);
		goto out;
	}
	json = ci_verdict_to_json(&v);
	text = json ? json_dumps(json, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
	ret = text ? stage_put_artifact(sv, s->id, QUEUE_CI, text, strlen(text)) :
		     error("cannot encode the verdict of series %lld", s->id);
	if (!ret && v.console)
		ret = copy_file(sv, s->id, QUEUE_CONSOLE, v.console);
	if (!ret)
		ret = queue_set_verdict(&sv->q, s->id, ci_verdict_name(v.kind),
					s->findings);
	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_BOOTED, now);
	serve_say(sv, "series %lld booted: %s", s->id, ci_verdict_name(v.kind));
out:
	free(text);
	json_decref(json);
	ci_verdict_release(&v);
	return ret;
}

const struct stage stage_ci = {
	.name = "ci",
	.from = STAGE_FROM(QS_CHECKED),
	.wanted = wants_boot,
	.run = run_ci,
};
