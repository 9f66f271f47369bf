/*
 * What the service's stages share (stage.h): their artifacts, the series
 * as the list archived it, the rules.
 */
#include "stage.h"
#include "review.h"
#include "b4.h"
#include "check.h"

#include <sys/stat.h>

/* Write `len` bytes to the series' artifact `name` (temp file + rename:
 * a crash leaves the old file or the new one, never half of one). */
int stage_put_artifact(struct serve *sv, long long id, const char *name,
		       const char *buf, size_t len)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	int ret;

	/* new mail for the series kept: read it again (stage_checked()) */
	if (sv->checked && sv->checked->id == id &&
	    (!strcmp(name, QUEUE_MBOX) || !strcmp(name, QUEUE_COVER) ||
	     !strcmp(name, QUEUE_THREAD)))
		stage_forget(sv);
	ret = queue_series_dir(&path, &sv->q, id, true);
	if (!ret) {
		queue_artifact(&path, &sv->q, id, name);
		strbuf_add(&data, buf, len);
		ret = strbuf_write_file(&data, path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&data);
	return ret;
}

int stage_read_artifact(struct strbuf *out, struct serve *sv, long long id,
			const char *name)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	queue_artifact(&path, &sv->q, id, name);
	ret = strbuf_read_file(out, path.buf, MBOX_MAX_BYTES);
	strbuf_release(&path);
	return ret;
}

/*
 * The series of `id` as b4 chose it, but with each message as the list
 * archived it: b4 am drops To:/Cc:/References:, which the reply needs.
 */
int stage_load_series(struct series *out, struct serve *sv, long long id)
{
	struct strbuf *raw = &out->raw;
	struct mail_list chosen = MAIL_LIST_INIT, thread = MAIL_LIST_INIT;
	struct strbuf mbx = STRBUF_INIT;
	int ret;

	ret = stage_read_artifact(&mbx, sv, id, QUEUE_MBOX);
	if (!ret)
		ret = mbox_parse(&chosen, mbx.buf, mbx.len);
	/* the cover letter, a message of its own (b4 writes no From_ line) */
	if (!ret) {
		strbuf_reset(&mbx);
		ret = stage_read_artifact(&mbx, sv, id, QUEUE_COVER);
		if (!ret)
			ret = mbox_parse(&chosen, mbx.buf, mbx.len);
		else if (ret == WW_ENOTFOUND) {
			error_clear();	/* a series without one, or fetched */
			ret = 0;	/* before the cover was kept apart */
		}
	}
	if (!ret)
		ret = stage_read_artifact(raw, sv, id, QUEUE_THREAD);
	if (!ret)
		ret = mbox_parse(&thread, raw->buf, raw->len);
	if (!ret)
		ret = review_choose_mails(&out->mails, &thread, &chosen, NULL);
	if (!ret)
		ret = series_from_mails_flags(out, &out->mails, SERIES_GROUPED);
	mail_list_clear(&thread);	/* moved entries were zeroed */
	mail_list_clear(&chosen);
	strbuf_release(&mbx);
	return ret < 0 ? error_prefix(ret, "series %lld", id) : 0;
}

/* The stored mail of `id` as stat() sees it: what a kept series was read from. */
static void mail_stamp(struct strbuf *out, struct serve *sv, long long id)
{
	static const char *const inputs[] = { QUEUE_MBOX, QUEUE_COVER, QUEUE_THREAD };
	struct strbuf path = STRBUF_INIT;
	struct stat st;

	strbuf_reset(out);
	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		queue_artifact(&path, &sv->q, id, inputs[i]);
		if (stat(path.buf, &st))
			strbuf_addstr(out, "-;");
		else
			strbuf_addf(out, "%llu:%lld:%lld.%09ld;",
				    (unsigned long long)st.st_ino, (long long)st.st_size,
				    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	}
	strbuf_release(&path);
}

void stage_forget(struct serve *sv)
{
	struct stage_series *k = sv->checked;

	if (!k)
		return;
	series_release(&k->s);
	check_result_clear(&k->r);
	strbuf_release(&k->stamp);
	free(k);
	sv->checked = NULL;
}

int stage_checked(struct serve *sv, long long id, const struct stage_series **out)
{
	struct check_opts co = CHECK_OPTS_INIT;
	struct stage_series *k = sv->checked;
	struct strbuf stamp = STRBUF_INIT;
	int ret;

	mail_stamp(&stamp, sv, id);
	if (k && k->id == id && k->nr_rules == sv->rules.nr &&
	    !strcmp(k->stamp.buf, stamp.buf)) {
		strbuf_release(&stamp);
		*out = k;
		return 0;
	}
	stage_forget(sv);
	k = xcalloc(1, sizeof(*k));
	k->id = id;
	k->s = (struct series)SERIES_INIT;
	k->r = (struct check_result)CHECK_RESULT_INIT;
	k->stamp = stamp;
	k->nr_rules = sv->rules.nr;
	ret = stage_load_series(&k->s, sv, id);
	co.rules = &sv->rules;
	if (!ret)
		ret = check_series(&k->r, &k->s, &co);
	sv->checked = k;
	if (ret < 0) {
		stage_forget(sv);
		return ret;
	}
	*out = k;
	return 0;
}

/*
 * The rules, loaded once per process.  Every stage that checks needs them,
 * not only the check stage: after a restart the first stage may be the
 * boot or the reply, which check the series again.
 */
int stage_need_rules(struct serve *sv)
{
	int ret;

	if (sv->rules_loaded)
		return 0;
	/* [review] rules, as `warnwatch review` reads them. */
	ret = rules_load(&sv->rules, sv->cfg->settings->rules_dir.buf);
	if (ret < 0)
		return ret;	/* our installation, not the series */
	sv->rules_loaded = true;
	return 0;
}

int stage_fetch_thread(struct strbuf *out, struct serve *sv,
		       const struct serve_list *l, const char *root)
{
	struct b4_opts o = sv->cfg->settings->b4;
	struct strbuf mask = STRBUF_INIT;
	int ret;

	strbuf_addf(&mask, "%s/%s/%%s", l->archive, l->inbox);
	o.midmask = mask.buf;
	o.linkmask = NULL;
	o.searchmask = NULL;
	/*
	 * `b4 mbox` of the root alone: b4_fetch()'s `b4 am -c` goes to the
	 * newest revision, and then reads *its* thread -- for a v1 whose v2
	 * came in a thread of its own, never v1's answers (issue 40).
	 */
	strbuf_reset(out);
	ret = b4_thread(out, root, &o, NULL);
	strbuf_release(&mask);
	return ret;
}
