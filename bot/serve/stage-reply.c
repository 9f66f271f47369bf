/*
 * The reply stage: draft the reply once, then send it exactly once
 * (review.h) within the list's allow-lists and quiet hours, or find
 * that it was sent before.
 */
#include "stage.h"
#include "ci-json.h"
#include "mailhdr.h"
#include "review.h"
#include "smtp.h"
#include <sys/stat.h>
#include <unistd.h>

/* The reply as written to reply.eml, and what sending it needs. */
struct outgoing {
	struct strbuf text;
	char *message_id;
	char *in_reply_to;
	char *subject;
	struct strbuf from;		/* envelope sender */
	struct mail_addr_list rcpt;	/* To + Cc */
	struct strbuf rcpt_text;	/* "a@x, b@y" for the store */
};

static void outgoing_init(struct outgoing *o)
{
	memset(o, 0, sizeof(*o));
	strbuf_init(&o->text, 0);
	strbuf_init(&o->from, 0);
	strbuf_init(&o->rcpt_text, 0);
}

static void outgoing_release(struct outgoing *o)
{
	strbuf_release(&o->text);
	strbuf_release(&o->from);
	strbuf_release(&o->rcpt_text);
	free(o->message_id);
	free(o->in_reply_to);
	free(o->subject);
	mail_addr_list_clear(&o->rcpt);
}

/*
 * Read back a drafted reply: everything about sending it comes from the
 * file itself, so a restarted service sends exactly what it drafted,
 * under the same Message-ID.
 */
static int outgoing_load(struct outgoing *o, struct serve *sv, long long id)
{
	struct mail_list ml = MAIL_LIST_INIT;
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	int ret;

	ret = stage_read_artifact(&o->text, sv, id, QUEUE_REPLY);
	if (!ret)
		ret = mbox_parse(&ml, o->text.buf, o->text.len);
	if (!ret && ml.nr != 1)
		ret = error_code(WW_EINPUT, "not one message");
	if (!ret && !*ml.v[0].message_id)
		ret = error_code(WW_EINPUT, "no Message-ID");
	if (ret) {
		ret = error_prefix(ret, "series %lld: %s", id, QUEUE_REPLY);
		goto out;
	}
	o->message_id = xstrdup(ml.v[0].message_id);
	o->in_reply_to = xstrdup(ml.v[0].in_reply_to);
	o->subject = xstrdup(ml.v[0].subject);
	o->rcpt.max = 2 * MAILHDR_MAX_ADDRS;	/* To: and Cc:, each capped */
	mail_addr_parse(&o->rcpt, ml.v[0].to_raw);
	mail_addr_parse(&o->rcpt, ml.v[0].cc_raw);
	mail_addr_parse(&from, ml.v[0].from_raw);
	if (!from.nr || !o->rcpt.nr) {
		ret = error_code(WW_EINPUT, "series %lld: %s has no %s", id,
				 QUEUE_REPLY, from.nr ? "recipient" : "sender");
		goto out;
	}
	strbuf_addstr(&o->from, from.v[0].addr);
	for (size_t i = 0; i < o->rcpt.nr; i++)
		strbuf_addf(&o->rcpt_text, "%s%s", i ? ", " : "", o->rcpt.v[i].addr);
out:
	mail_addr_list_clear(&from);
	mail_list_clear(&ml);
	return ret;
}

/* Nothing more to do for `s` but what the reply step recorded. */
static int finish(struct serve *sv, const struct queue_series *s,
		  const char *what, time_t now)
{
	int ret = queue_set_reply(&sv->q, s->id, what);

	if (!ret)
		ret = queue_advance(&sv->q, s->id, QS_REPLIED, now);
	serve_say(sv, "series %lld done: %s", s->id, what);
	return ret;
}

/*
 * The reply's fate is unknown: the intent was recorded, the result was
 * not (the service died during the SMTP session, or it timed out).  Look
 * for its Message-ID in the list archive rather than send it again.
 */
static int confirm_unknown(struct serve *sv, const struct queue_series *s,
			   const struct serve_list *l,
			   const struct store_reply *rec, time_t now)
{
	struct strbuf what = STRBUF_INIT;
	int ret;

	ret = review_archived(l->archive, l->inbox, rec->message_id, &sv->http);
	if (ret == 1) {
		queue_log(&sv->q, s->id, l->name, QL_INFO, "reply <%s> found in the "
			  "archive: it was sent", rec->message_id);
		ret = store_mark_sent(&sv->store, rec->message_id);
		strbuf_addf(&what, "sent <%s> (confirmed by the archive)",
			    rec->message_id);
		if (!ret)
			ret = finish(sv, s, what.buf, now);
	} else if (!ret && l->reply_to != REPLY_TO_AUTHOR &&
		   now < rec->updated + (time_t)sv->cfg->confirm_window) {
		/* The list may simply not have archived it yet. */
		strbuf_addf(&what, "outcome unknown: looking for <%s> in the archive",
			    rec->message_id);
		ret = queue_set_reply(&sv->q, s->id, what.buf);
		if (!ret)
			ret = queue_defer(&sv->q, s->id, now +
					  (l->poll_interval < 30 ? l->poll_interval : 30));
	} else if (!ret) {
		strbuf_addf(&what, "the reply <%s> may have been sent (the SMTP "
			    "session did not finish) and %s; check, then 'warnwatch "
			    "retry --force %lld' sends it again under the same "
			    "Message-ID", rec->message_id,
			    l->reply_to != REPLY_TO_AUTHOR ?
			    "is not in the archive" : "was not copied to the list",
			    s->id);
		ret = serve_fail(sv, s->id, what.buf, true);
	} else {
		ret = serve_fail(sv, s->id, error_last(), false);
	}
	strbuf_release(&what);
	return ret < 0 ? ret : 0;
}

/* The list's coding-style guide, loaded on first use; NULL if none. */
static const struct guide *list_guide(struct serve *sv,
				      const struct serve_list *l)
{
	struct serve_inbox *in = &sv->inboxes[l - sv->cfg->lists];
	const struct config *c = sv->cfg->config;
	const char *tree = config_get(c, "review", "tree");
	const char *source = config_get(c, "review", "source");
	struct strbuf path = STRBUF_INIT;
	char *cache;
	struct stat st;

	if (in->guide_state)
		return in->guide_state > 0 ? &in->guide : NULL;
	/* A list's own tree: a source directory, or a linux-source tarball. */
	if (*l->tree && !stat(l->tree, &st)) {
		tree = S_ISDIR(st.st_mode) ? l->tree : NULL;
		source = S_ISDIR(st.st_mode) ? source : l->tree;
	}
	cache = guide_cache_dir();
	in->guide_state = -1;
	if (!guide_locate(&path, tree, cache, source) &&
	    !guide_load_file(&in->guide, path.buf))
		in->guide_state = 1;
	else
		queue_log(&sv->q, 0, l->name, QL_WARN, "replies will cite "
			  "coding-style sections without quoting them: %s",
			  error_last());
	free(cache);
	strbuf_release(&path);
	return in->guide_state > 0 ? &in->guide : NULL;
}

/* The previous version of `s`, checked, for the reply's credits. */
static bool load_prev(struct series *prev, struct check_result *res,
		      struct mail_list *mails, struct strbuf *raw,
		      struct serve *sv, const struct queue_series *s)
{
	struct check_opts co = CHECK_OPTS_INIT;
	long long pid = queue_prev_version(&sv->q, s->id);

	if (!pid)
		return false;
	co.rules = &sv->rules;
	if (stage_load_series(mails, prev, raw, sv, pid) < 0 ||
	    check_series(res, prev, &co) < 0) {
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "v%d (series %lld) "
			  "not compared: %s", s->version - 1, pid, error_last());
		return false;
	}
	return true;
}

/* draft_reply() wrote nothing: */
enum {
	DRAFT_NOTHING = 1,	/* nothing to say */
	DRAFT_SKIPPED = 2,	/* the author asked not to get reviews */
	DRAFT_POSITIVE = 3,	/* only credits, and the list says positive = no */
};

/*
 * Draft the reply of series `s` into reply.eml with the review module,
 * comparing with the previous version when there is one, as `warnwatch
 * review` does (a DRAFT_* when it writes none).
 */
static int draft_reply(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, const struct series *series)
{
	const struct config *c = sv->cfg->config;
	struct reply_opts ro = REPLY_OPTS_INIT;
	struct review_conf keep = REVIEW_CONF_INIT;
	struct reply r = REPLY_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct check_result cur = CHECK_RESULT_INIT, prev_res = CHECK_RESULT_INIT;
	struct check_opts co = CHECK_OPTS_INIT;
	struct series prev = SERIES_INIT;
	struct mail_list prev_mails = MAIL_LIST_INIT;
	struct strbuf prev_raw = STRBUF_INIT, path = STRBUF_INIT;
	int ret;

	co.rules = &sv->rules;
	ret = check_series(&cur, series, &co);
	if (ret < 0)
		goto out;
	ret = review_reply_opts(&ro, &keep, c, 0);
	if (ret < 0)
		goto out;
	/* ci.json: a state written before verdict.json went away has it too. */
	queue_artifact(&path, &sv->q, s->id, QUEUE_CI);
	if (!access(path.buf, F_OK) && ci_verdict_load(&v, path.buf) == 0)
		ro.verdict = &v;
	if (load_prev(&prev, &prev_res, &prev_mails, &prev_raw, sv, s)) {
		ro.prev = &prev;
		ro.prev_result = &prev_res;
	}
	/* The list's own policy; its address always, beside the lists the
	 * patch went to ([review] lists). */
	ro.policy = l->reply_to;
	if (*l->address)
		ro.watched = l->address;
	ro.guide = list_guide(sv, l);
	ro.tree_name = *l->tree ? l->tree : NULL;
	ret = reply_build(&r, series, &cur, &ro);
	if (!ret && r.empty)
		ret = DRAFT_NOTHING;
	else if (!ret && review_author_skipped(c, &r, series))
		ret = DRAFT_SKIPPED;
	else if (!ret && !r.issues && !l->policy.positive)
		ret = DRAFT_POSITIVE;
	else if (!ret)
		ret = stage_put_artifact(sv, s->id, QUEUE_REPLY, r.text.buf, r.text.len);
out:
	reply_release(&r);
	ci_verdict_release(&v);
	check_result_clear(&cur);
	check_result_clear(&prev_res);
	series_release(&prev);
	mail_list_clear(&prev_mails);
	strbuf_release(&prev_raw);
	review_conf_release(&keep);
	strbuf_release(&path);
	return ret;
}

static int send_reply(struct serve *sv, const struct queue_series *s,
		      const struct serve_list *l, struct outgoing *o,
		      time_t now)
{
	struct store_reply r = STORE_REPLY_INIT, old = STORE_REPLY_INIT;
	struct smtp_opts so = SMTP_OPTS_INIT;
	struct strbuf password = STRBUF_INIT, ca_file = STRBUF_INIT, what = STRBUF_INIT;
	int ret;

	ret = smtp_opts_from_config(&so, &password, &ca_file, sv->cfg->config);
	if (ret) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	r.series = s->root_msgid;
	r.version = s->version;
	r.message_id = o->message_id;
	r.in_reply_to = o->in_reply_to;
	r.subject = o->subject;
	r.recipients = o->rcpt_text.buf;
	r.forced = s->force_reply;
	ret = review_send(&old, &sv->store, &so, &r, o->from.buf, &o->rcpt,
			  o->text.buf, o->text.len);
	if (ret == REVIEW_ANSWERED && (strcmp(old.series, r.series) ||
				       old.version != r.version)) {
		/* Another queue entry took the same thread and answered. */
		strbuf_addf(&what, "none: <%s> was answered already by <%s> "
			    "(series <%s> v%d)", old.in_reply_to, old.message_id,
			    old.series, old.version);
		ret = finish(sv, s, what.buf, now);
	} else if (ret == REVIEW_ANSWERED) {
		strbuf_addf(&what, "sent <%s>", old.message_id);
		ret = finish(sv, s, what.buf, now);
	} else if (ret == REVIEW_MAYBE_SENT) {
		ret = confirm_unknown(sv, s, l, &old, now);
	} else if (ret == REVIEW_UNRECORDED) {
		/* Sent; the intent left reads as "maybe sent" next time. */
		ret = WW_ESTATE;
	} else if (!ret) {
		strbuf_addf(&what, "sent <%s> to %s", o->message_id, o->rcpt_text.buf);
		ret = finish(sv, s, what.buf, now);
	} else if (ret == WW_ETIMEOUT) {
		/* Maybe delivered: leave the intent for confirm_unknown(). */
		ret = serve_fail(sv, s->id, error_last(), false);
	} else if (ret != WW_ESTATE) {
		/* Refused, or no connection: certainly not delivered. */
		ret = serve_fail(sv, s->id, error_last(), ret == WW_EINPUT);
	}
out:
	store_reply_release(&old);
	strbuf_release(&password);
	strbuf_release(&ca_file);
	strbuf_release(&what);
	return ret < 0 ? ret : 0;
}

static int run_reply(struct serve *sv, const struct queue_series *s,
		     const struct serve_list *l, time_t now)
{
	struct store_reply rec = STORE_REPLY_INIT;
	struct mail_list mails = MAIL_LIST_INIT;
	struct series series = SERIES_INIT;
	struct strbuf raw = STRBUF_INIT, path = STRBUF_INIT, what = STRBUF_INIT;
	struct strvec paths = STRVEC_INIT;
	struct outgoing o;
	const char *why = NULL;
	time_t until;
	int ret;

	outgoing_init(&o);
	if (l->reply == SERVE_REPLY_NONE) {
		ret = finish(sv, s, "none: replies are off for this list", now);
		goto out;
	}
	if (policy_ignored(&l->policy, s->author_email)) {
		ret = finish(sv, s, "none: the author is in ignore-senders", now);
		goto out;
	}
	/* Answered already: by us before a crash, or by `warnwatch review`. */
	ret = review_known(&rec, &sv->store, s->root_msgid, s->version);
	if (ret == REVIEW_ANSWERED) {
		strbuf_addf(&what, "sent <%s>", rec.message_id);
		ret = finish(sv, s, what.buf, now);
		goto out;
	}
	if (ret == REVIEW_MAYBE_SENT && !s->force_reply) {
		ret = confirm_unknown(sv, s, l, &rec, now);
		goto out;
	}
	if (ret < 0)
		goto out;

	ret = stage_load_series(&mails, &series, &raw, sv, s->id);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	/* Drafted once: a later attempt sends the same text and Message-ID. */
	queue_artifact(&path, &sv->q, s->id, QUEUE_REPLY);
	if (access(path.buf, F_OK)) {
		ret = draft_reply(sv, s, l, &series);
		if (ret == DRAFT_NOTHING || ret == DRAFT_SKIPPED || ret == DRAFT_POSITIVE) {
			ret = finish(sv, s, ret == DRAFT_NOTHING ? "none: nothing to say" :
				     ret == DRAFT_POSITIVE ? "none: no issue, only thanks "
				     "(positive = no)" :
				     "none: the author asked not to get these reviews "
				     "([review] skip-authors)", now);
			goto out;
		}
		if (ret < 0) {
			ret = serve_fail(sv, s->id, error_last(), false);
			goto out;
		}
	}
	ret = outgoing_load(&o, sv, s->id);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	if (l->reply == SERVE_REPLY_DRAFT) {
		ret = finish(sv, s, "drafted", now);
		goto out;
	}
	ret = series_paths(&paths, &series);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	if (!serve_allowed(l, s->author_email, paths.v, &why) ||
	    !serve_rcpt_allowed(l, &o.rcpt, config_get(sv->cfg->config,
						       "review", "lists"), &why)) {
		strbuf_addf(&what, "drafted, not sent: %s", why);
		ret = finish(sv, s, what.buf, now);
		goto out;
	}
	if (serve_quiet(l, now, &until)) {
		struct tm tm;

		localtime_r(&until, &tm);
		strbuf_addf(&what, "held until %02d:%02d (quiet hours)",
			    tm.tm_hour, tm.tm_min);
		ret = queue_set_reply(&sv->q, s->id, what.buf);
		if (!ret)
			ret = queue_defer(&sv->q, s->id, until);
		goto out;
	}
	ret = policy_hold(&until, &what, &sv->store, &sv->cfg->send, &l->policy,
			  s->inbox, now);
	if (ret > 0) {
		ret = queue_set_reply(&sv->q, s->id, what.buf);
		if (!ret)
			ret = queue_defer(&sv->q, s->id, until);
		goto out;
	}
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), false);
		goto out;
	}
	ret = send_reply(sv, s, l, &o, now);
out:
	outgoing_release(&o);
	store_reply_release(&rec);
	series_release(&series);
	mail_list_clear(&mails);
	strvec_clear(&paths);
	strbuf_release(&raw);
	strbuf_release(&path);
	strbuf_release(&what);
	return ret;
}

const struct stage stage_reply = {
	.name = "reply",
	.from = STAGE_FROM(QS_CHECKED) | STAGE_FROM(QS_BOOTED),
	.wanted = NULL,
	.run = run_reply,
};
