/*
 * The fetch stage: the series' thread from the list's archive (b4 mbox),
 * the series chosen from it the way b4 groups a thread (group_select():
 * untagged and PATCHSET covers, counts that disagree), and b4 am, offline,
 * on exactly those messages, into the series' mbox and thread artifacts.
 * The thread b4 wrote, the messages given to b4 am and what it wrote back
 * are held to intake.h's caps (in b4.c); a series over one fails for good
 * with the cap in its reason, its thread kept as received.
 *
 * It runs once per series: the queue makes a series due when it is
 * complete or has waited max-wait for the rest (queue.h), never to ask
 * b4 again whether the rest came.  A patch still missing then (it went to
 * another list only) is said, and the rest is reviewed.
 */
#include "stage.h"
#include "b4.h"
#include "group.h"

/* `s` is the series that `msgid` was grouped into, if another: set
 * aside (1), or 0 when not. */
static int same_as(struct serve *sv, const struct queue_series *s,
		   const char *msgid, time_t now)
{
	struct strbuf why = STRBUF_INIT;
	long long other = 0;
	int ret = queue_series_of(&other, &sv->q, s->inbox, msgid);

	if (ret == 1 && other != s->id) {
		strbuf_addf(&why, "the same series as #%lld", other);
		ret = queue_skip(&sv->q, s->id, why.buf, now);
		ret = ret < 0 ? ret : 1;
	} else if (ret == 1) {
		ret = 0;
	}
	strbuf_release(&why);
	return ret;
}

/*
 * b4 may find that a "series" we grouped is one we already have: its
 * first message is another series' member.  1 when `s` was set aside.
 */
static int same_as_known(struct serve *sv, const struct queue_series *s,
			 const struct b4_series *bs, time_t now)
{
	const struct strbuf *first = bs->cover.len ? &bs->cover : &bs->mbx;
	struct strbuf mid = STRBUF_INIT;
	int ret = 0;

	if (!b4_first_msgid(&mid, first->buf, first->len) &&
	    strcmp(mid.buf, s->root_msgid))
		ret = same_as(sv, s, mid.buf, now);
	strbuf_release(&mid);
	return ret;
}

/* Record and say the patches the series is reviewed without. */
static int say_missing(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, const char *missing)
{
	if (!*missing)
		return 0;
	queue_log(&sv->q, s->id, l->name, QL_WARN, "reviewed without %s: not "
		  "in the list's archive", missing);
	serve_say(sv, "series %lld: reviewed without %s", s->id, missing);
	return queue_set_missing(&sv->q, s->id, missing);
}

/*
 * Choose series `s` from its thread (b4 mbox of a member) into the
 * artifacts: the thread as archived and the chosen messages, whose path
 * is left in `selected` for b4 am.
 */
static int choose(struct strbuf *selected, struct strbuf *missing,
		  struct serve *sv, const struct queue_series *s,
		  const struct b4_opts *o, double *seconds, time_t now)
{
	long echo;
	struct strvec members = STRVEC_INIT;
	struct mail_list mails = MAIL_LIST_INIT;
	struct strbuf thread = STRBUF_INIT, sel = STRBUF_INIT;
	int ret;

	ret = queue_members(&members, &sv->q, s->id);
	if (ret < 0)
		goto out;
	strvec_push(&members, s->root_msgid);	/* a cover keyed, not arrived */
	ret = b4_thread(&thread, members.v[0], o, seconds);
	if (ret == WW_ETOOBIG && thread.len) {
		/* over intake.h's caps: kept as received, then refused */
		struct error_state st;

		error_state_capture(&st, ret);
		ret = stage_put_artifact(sv, s->id, QUEUE_THREAD, thread.buf, thread.len);
		if (!ret)
			ret = error_state_restore(&st);
		goto out;
	}
	if (!ret) {
		ret = mbox_parse(&mails, thread.buf, thread.len);
		if (ret < 0)
			ret = error_prefix(ret, "the thread of <%s>", members.v[0]);
	}
	/* A review that kept the patch's subject: its parent's series. */
	if (!ret && (echo = group_echo(&mails, s->root_msgid)) >= 0) {
		ret = same_as(sv, s, mails.v[echo].message_id, now);
		if (ret)
			goto out;
	}
	if (!ret)
		ret = group_select(&sel, missing, thread.buf, thread.len, &mails,
				   &members);
	if (!ret) {
		/* Covers only: nothing for b4, and nothing an operator can do;
		 * said once, as skipped (issue 38.5). */
		size_t sets = group_sets_under(&mails, s->root_msgid);
		struct strbuf why = STRBUF_INIT;

		/* The sets may not all have arrived yet: no count. */
		if (sets)
			strbuf_addf(&why, "a cover of patchsets (<%s>): each set under "
				    "it is a series of its own", s->root_msgid);
		else
			strbuf_addf(&why, "no patches in the thread of <%s>",
				    s->root_msgid);
		ret = queue_skip(&sv->q, s->id, why.buf, now);
		ret = ret < 0 ? ret : 1;
		strbuf_release(&why);
		goto out;
	}
	if (ret > 0)
		ret = stage_put_artifact(sv, s->id, QUEUE_THREAD, thread.buf,
					 thread.len);
	if (!ret)
		ret = stage_put_artifact(sv, s->id, QUEUE_SELECTED, sel.buf, sel.len);
	if (!ret)
		queue_artifact(selected, &sv->q, s->id, QUEUE_SELECTED);
out:
	strvec_clear(&members);
	mail_list_clear(&mails);
	strbuf_release(&thread);
	strbuf_release(&sel);
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
	struct strbuf selected = STRBUF_INIT, missing = STRBUF_INIT;
	double seconds = 0;
	int ret;

	strbuf_addf(&mask, "%s/%s/%%s", l->archive, l->inbox);
	o.midmask = mask.buf;
	o.linkmask = NULL;
	o.searchmask = NULL;
	ret = queue_count_b4(&sv->q, s->id);
	if (ret < 0)
		goto out;
	ret = choose(&selected, &missing, sv, s, &o, &seconds, now);
	if (ret > 0) {
		ret = 0;	/* set aside: the same series as another */
		goto out;
	}
	if (!ret) {
		/* Only this series is in the file: b4 takes its version,
		 * whichever of the cover or the patches spells it. */
		o.mbox = selected.buf;
		o.version = 0;
		ret = b4_fetch(&bs, NULL, &o);
	}
	if (ret == WW_ESTATE)
		goto out;
	if (ret == WW_ENOPATCH) {
		/* b4 found no patch in exactly these messages: so it will
		 * again.  Set aside once, b4 not run again (issue 38.5). */
		ret = queue_skip(&sv->q, s->id, error_last(), now);
		error_clear();
		goto out;
	}
	if (ret < 0) {
		/* a series over warnwatch's caps stays so: not retried */
		bool permanent = ret == WW_EINPUT || ret == WW_ETOOBIG;

		ret = serve_fail(sv, s->id, error_last(), permanent);
		goto out;
	}
	ret = same_as_known(sv, s, &bs, now);
	if (ret) {
		ret = ret > 0 ? 0 : ret;	/* set aside, or a failure */
		goto out;
	}
	/* b4's pieces as b4 wrote them, each parsed on its own as
	 * `warnwatch review` parses them (no From_ line made up for the
	 * cover letter to glue it to the patches). */
	ret = stage_put_artifact(sv, s->id, QUEUE_MBOX, bs.mbx.buf, bs.mbx.len);
	if (!ret && bs.cover.len)
		ret = stage_put_artifact(sv, s->id, QUEUE_COVER, bs.cover.buf,
					 bs.cover.len);
	if (!ret)
		ret = say_missing(sv, s, l, missing.buf);
	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_FETCHED, now);
	serve_say(sv, "series %lld fetched (%.1f s in b4)", s->id,
		  seconds + bs.seconds);
out:
	b4_series_release(&bs);
	strbuf_release(&mask);
	strbuf_release(&selected);
	strbuf_release(&missing);
	return ret;
}

const struct stage stage_fetch = {
	.name = "fetch",
	.from = STAGE_FROM(QS_RECEIVED),
	.wanted = NULL,
	.run = run_fetch,
};
