/*
 * The fetch stage: the series and its whole thread from the list's
 * archive by b4, into the series' mbox and thread artifacts.
 */
#include "stage.h"
#include "b4.h"

/*
 * b4 may find that a "series" we grouped is one we already have: a
 * message that looked like a first patch (a reply that kept the subject
 * without "Re:") keyed a series of its own.  1 when `s` was set aside.
 */
static int same_as_known(struct serve *sv, const struct queue_series *s,
			 const struct b4_series *bs, time_t now)
{
	const struct strbuf *first = bs->cover.len ? &bs->cover : &bs->mbx;
	struct strbuf mid = STRBUF_INIT, why = STRBUF_INIT;
	long long other = 0;
	int ret = 0;

	if (b4_first_msgid(&mid, first->buf, first->len) ||
	    !strcmp(mid.buf, s->root_msgid))
		goto out;
	ret = queue_find(&other, &sv->q, s->inbox, mid.buf);
	if (ret == 1 && other != s->id) {
		strbuf_addf(&why, "the same series as #%lld", other);
		ret = queue_skip(&sv->q, s->id, why.buf, now);
		ret = ret < 0 ? ret : 1;
	} else if (ret == 1) {
		ret = 0;
	}
out:
	strbuf_release(&mid);
	strbuf_release(&why);
	return ret;
}

static int run_fetch(struct serve *sv, const struct queue_series *s,
		     const struct serve_list *l, time_t now)
{
	/* [archive] and [identity] as review and ci read them, but the
	 * archive is this list's. */
	struct b4_opts o = sv->cfg->settings->b4;
	struct b4_series bs = B4_SERIES_INIT;
	struct strbuf mask = STRBUF_INIT;
	int ret;

	strbuf_addf(&mask, "%s/%s/%%s", l->archive, l->inbox);
	o.midmask = mask.buf;
	o.linkmask = NULL;
	o.searchmask = NULL;
	o.version = s->version;
	ret = b4_fetch(&bs, s->root_msgid, &o);
	if (ret == WW_EINPUT && now < s->first_seen + (time_t)sv->q.opts.max_wait) {
		/* Thread incomplete: the rest may still be on its way. */
		queue_log(&sv->q, s->id, l->name, QL_INFO, "waiting for the rest "
			  "of the series: %s", error_last());
		ret = queue_defer(&sv->q, s->id, now + sv->q.opts.settle);
		goto out;
	}
	if (ret < 0) {
		bool permanent = ret == WW_EINPUT;

		ret = serve_fail(sv, s->id, error_last(), permanent);
		goto out;
	}
	ret = same_as_known(sv, s, &bs, now);
	if (ret)
		goto out;
	/* b4's pieces as b4 wrote them, each parsed on its own as
	 * `warnwatch review` parses them (no From_ line made up for the
	 * cover letter to glue it to the patches). */
	ret = stage_put_artifact(sv, s->id, QUEUE_MBOX, bs.mbx.buf, bs.mbx.len);
	if (!ret && bs.cover.len)
		ret = stage_put_artifact(sv, s->id, QUEUE_COVER, bs.cover.buf,
					 bs.cover.len);
	if (!ret)
		ret = stage_put_artifact(sv, s->id, QUEUE_THREAD, bs.thread.buf,
				   bs.thread.len);
	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_FETCHED, now);
	serve_say(sv, "series %lld fetched (%.1f s in b4)", s->id, bs.seconds);
out:
	b4_series_release(&bs);
	strbuf_release(&mask);
	return ret;
}

const struct stage stage_fetch = {
	.name = "fetch",
	.from = STAGE_FROM(QS_RECEIVED),
	.wanted = NULL,
	.run = run_fetch,
};
