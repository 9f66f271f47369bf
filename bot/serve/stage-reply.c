/*
 * The reply stage: draft the reply once, then send it exactly once
 * (review.h) within the list's allow-lists and quiet hours, or find
 * that it was sent before.
 */
#include "stage.h"
#include "ci-json.h"
#include "feedback.h"
#include "mailhdr.h"
#include "plan.h"
#include "review.h"
#include "smtp.h"
#include <sys/stat.h>
#include <unistd.h>

/*
 * Read back a drafted reply: everything about sending it comes from the
 * file itself (review_outgoing_parse()), so a restarted service sends
 * exactly what it drafted, under the same Message-ID.  `text` holds what
 * `o` points into.
 */
static int outgoing_load(struct review_outgoing *o, struct strbuf *text,
			 struct serve *sv, long long id)
{
	int ret = stage_read_artifact(text, sv, id, QUEUE_REPLY);

	if (!ret)
		ret = review_outgoing_parse(o, text->buf, text->len);
	return ret ? error_prefix(ret, "series %lld: %s", id, QUEUE_REPLY) : 0;
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

/* Where the review's warnings go: the service's log, for a series
 * (id 0: the list). */
struct log_to {
	struct serve *sv;
	long long id;
	const char *list;
};

static void log_warning(void *data, const char *msg)
{
	struct log_to *to = data;

	queue_log(&to->sv->q, to->id, to->list, QL_WARN, "%s", msg);
}

/* The list's coding-style guide, loaded on first use; NULL if none. */
static const struct guide *list_guide(struct serve *sv,
				      const struct serve_list *l)
{
	struct serve_inbox *in = &sv->inboxes[l - sv->cfg->lists];
	const struct settings *set = sv->cfg->settings;
	const char *tree = set->review_tree, *source = set->review_source;
	struct log_to to = { sv, 0, l->name };
	struct review_warn w = { log_warning, &to };
	struct stat st;

	if (in->guide_state)
		return in->guide_state > 0 ? &in->guide : NULL;
	/* A list's own tree: a source directory, or a linux-source tarball. */
	if (*l->tree && !stat(l->tree, &st)) {
		tree = S_ISDIR(st.st_mode) ? l->tree : NULL;
		source = S_ISDIR(st.st_mode) ? source : l->tree;
	}
	in->guide_state = review_load_guide(&in->guide, NULL, tree, source,
					    set->cache_dir.buf, 0, &w) > 0 ? 1 : -1;
	return in->guide_state > 0 ? &in->guide : NULL;
}

/* draft_reply() wrote nothing, beside REVIEW_NOTHING and REVIEW_SKIPPED: */
enum {
	DRAFT_POSITIVE = 100,	/* only credits, and the list says positive = no */
	DRAFT_DROPPED,		/* every point made already, or called wrong */
	DRAFT_BELOW_LEVEL,	/* only info-level notes without evidence (min-level) */
	DRAFT_DROPPED_MIXED,	/* some of each of the two above */
};

/* What the reply leaves out: reply_opts.drop's data. */
struct drop_ctx {
	struct serve *sv;
	const struct queue_series *s;
	const struct feedback *fb;
	int said;		/* findings drop_finding() left out */
};

/* A point a human made in the thread (quoting its added line), or a
 * finding recipients called wrong before (its fingerprint). */
static bool drop_finding(void *data, const struct finding *f)
{
	struct drop_ctx *d = data;
	struct strbuf line = STRBUF_INIT, norm = STRBUF_INIT, fp = STRBUF_INIT;
	bool drop = false;

	plan_added_line(&line, f);
	feedback_norm(&norm, line.buf, line.len);
	plan_fingerprint(&fp, f);
	if (feedback_quoted(&d->fb->human_quoted, norm.buf)) {
		drop = true;
		queue_log(&d->sv->q, d->s->id, d->s->inbox, QL_INFO, "left out %s() at "
			  "%s:%d: a reviewer in the thread quoted it already",
			  f->rule->macro, f->file, f->line);
	} else if (feedback_called_wrong(&d->sv->store, fp.buf) > 0) {
		drop = true;
		queue_log(&d->sv->q, d->s->id, d->s->inbox, QL_INFO, "left out %s() at "
			  "%s:%d: recipients called it wrong before (%s)",
			  f->rule->macro, f->file, f->line, fp.buf);
	}
	d->said += drop;
	error_clear();
	strbuf_release(&line);
	strbuf_release(&norm);
	strbuf_release(&fp);
	return drop;
}

/* Remember which findings reply `r` says, for feedback on it later. */
static void note_said(struct serve *sv, const struct queue_series *s,
		      const struct reply *r)
{
	struct strbuf norm = STRBUF_INIT;
	size_t i;
	json_t *rec;

	json_array_foreach(r->record, i, rec) {
		const char *added = json_string_value(json_object_get(rec, "added"));

		strbuf_reset(&norm);
		feedback_norm(&norm, added ? added : "", added ? strlen(added) : 0);
		if (feedback_note_said(&sv->store, r->message_id,
				       json_string_value(json_object_get(rec, "fingerprint")),
				       json_string_value(json_object_get(rec, "rule")),
				       norm.buf) < 0) {
			queue_log(&sv->q, s->id, s->inbox, QL_WARN, "%s", error_last());
			error_clear();
		}
	}
	strbuf_release(&norm);
}

/*
 * Draft the reply of series `s` into reply.eml with review_run(),
 * comparing with the previous version when there is one, as `warnwatch
 * review` does.  REVIEW_NOTHING or REVIEW_SKIPPED when it writes none.
 */
static int draft_reply(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, const struct series *series,
		       const struct feedback *fb)
{
	struct drop_ctx drop = { sv, s, fb, 0 };
	struct review_run_opts o = REVIEW_RUN_OPTS_INIT;
	struct reply r = REPLY_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct series prev = SERIES_INIT;
	struct strbuf path = STRBUF_INIT;
	long long pid = queue_prev_version(&sv->q, s->id);
	struct log_to to = { sv, s->id, s->inbox };
	int ret;

	o.reply = sv->cfg->settings->reply;
	o.rules = &sv->rules;
	o.warn.fn = log_warning;
	o.warn.data = &to;
	/* ci.json: a state written before verdict.json went away has it too. */
	queue_artifact(&path, &sv->q, s->id, QUEUE_CI);
	if (!access(path.buf, F_OK) && ci_verdict_load(&v, path.buf) == 0)
		o.reply.verdict = &v;
	if (pid && stage_load_series(&prev, sv, pid) < 0)
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "v%d (series %lld) "
			  "not compared: %s", s->version - 1, pid, error_last());
	else if (pid)
		o.prev = &prev;
	/* The list's own policy; its address always, beside the lists the
	 * patch went to ([review] lists). */
	o.reply.policy = l->reply_to;
	if (*l->address)
		o.reply.watched = l->address;
	o.reply.guide = list_guide(sv, l);
	o.reply.tree_name = *l->tree ? l->tree : NULL;
	/* Facts from the list's tree, as review --tree reads them. */
	if (*l->tree && strncmp(l->tree, "git:", 4)) {
		o.facts_tree = l->tree;
		o.cache_dir = sv->cfg->settings->cache_dir.buf;
	}
	/* The list's policy: min-level, and what people said back. */
	o.reply.need_evidence = l->policy.min_level == POLICY_LEVEL_WARNING;
	o.reply.bots = l->policy.ignore_senders;
	o.reply.drop = drop_finding;
	o.reply.drop_data = &drop;
	ret = review_run(&r, series, &o);
	/* Why nothing is left, truthfully: status shows it per series. */
	if (ret == REVIEW_NOTHING && r.dropped)
		ret = drop.said >= r.dropped ? DRAFT_DROPPED :
		      drop.said ? DRAFT_DROPPED_MIXED : DRAFT_BELOW_LEVEL;
	else if (ret == REVIEW_DRAFTED && !r.issues && !l->policy.positive)
		ret = DRAFT_POSITIVE;
	else if (ret == REVIEW_DRAFTED)
		ret = stage_put_artifact(sv, s->id, QUEUE_REPLY, r.text.buf, r.text.len);
	if (!ret)
		note_said(sv, s, &r);
	reply_release(&r);
	ci_verdict_release(&v);
	series_release(&prev);
	strbuf_release(&path);
	return ret;
}

/* Send the drafted reply `o`: [smtp] was found usable at start. */
static int send_reply(struct serve *sv, const struct queue_series *s,
		      const struct serve_list *l, const struct review_outgoing *o,
		      time_t now)
{
	struct store_reply old = STORE_REPLY_INIT;
	struct strbuf what = STRBUF_INIT;
	int ret;

	ret = review_deliver(&old, &sv->store, &sv->cfg->settings->smtp, o,
			     s->root_msgid, s->version, s->force_reply);
	if (ret == REVIEW_ANSWERED && (strcmp(old.series, s->root_msgid) ||
				       old.version != s->version)) {
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
	store_reply_release(&old);
	strbuf_release(&what);
	return ret < 0 ? ret : 0;
}

/* May `sender` mute the thread: the author, or someone the series was
 * addressed to (the maintainers get_maintainer.pl put in To: or Cc:). */
static bool may_mute_thread(void *data, const char *sender)
{
	const struct mail_list *mails = data;
	bool yes = false;

	for (size_t i = 0; !yes && i < mails->nr; i++) {
		struct mail_addr_list a = MAIL_ADDR_LIST_INIT;
		const struct mail *m = &mails->v[i];

		a.max = MAILHDR_MAX_SEEN;
		mail_addr_parse(&a, m->from_raw);
		mail_addr_parse(&a, m->to_raw);
		mail_addr_parse(&a, m->cc_raw);
		for (size_t j = 0; !yes && j < a.nr; j++)
			yes = !strcasecmp(a.v[j].addr, sender);
		mail_addr_list_clear(&a);
	}
	return yes;
}

/* Read thread `text` of `root` for feedback, record it, keep it in `fb`. */
static void read_feedback(struct feedback *fb, struct serve *sv,
			  const struct queue_series *s, const char *root,
			  const struct strbuf *text, const struct mail_list *mails,
			  time_t now)
{
	struct mail_list thread = MAIL_LIST_INIT;
	const char *self = sv->cfg->settings->email;
	int ret;

	if (!self || mbox_parse(&thread, text->buf, text->len)) {
		error_clear();
		return;
	}
	feedback_scan(fb, &thread, self);
	ret = feedback_record(&sv->store, fb, root, may_mute_thread, (void *)mails, now);
	if (ret > 0)
		queue_log(&sv->q, s->id, s->inbox, QL_INFO, "%d new feedback record%s "
			  "from the thread of <%s>", ret, ret == 1 ? "" : "s", root);
	else if (ret < 0)
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "%s", error_last());
	error_clear();
	mail_list_clear(&thread);
}

/*
 * What people said: in this series' thread (read again from the archive
 * after an embargo, when humans had time to speak), and in the previous
 * version's when warnwatch answered it (a "wrong" or a mute there holds
 * for this version).  Then whether mail is muted: 1 with `why` set.
 */
static int take_feedback(struct feedback *fb, struct strbuf *why, struct serve *sv,
			 const struct queue_series *s, const struct serve_list *l,
			 const struct series *ss, bool drafted, time_t now)
{
	struct queue_series prev = QUEUE_SERIES_INIT;
	struct store_reply rec = STORE_REPLY_INIT;
	struct strbuf text = STRBUF_INIT;
	long long pid = drafted ? 0 : queue_prev_version(&sv->q, s->id);
	int ret;

	if (!drafted && l->policy.embargo &&
	    stage_fetch_thread(&text, sv, l, s->root_msgid) < 0) {
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "the thread as fetched is "
			  "read for what people said: %s", error_last());
		error_clear();
	}
	read_feedback(fb, sv, s, s->root_msgid, text.len ? &text : &ss->raw,
		      &ss->mails, now);
	if (pid > 0 && queue_load(&prev, &sv->q, pid) >= 0 &&
	    review_known(&rec, &sv->store, prev.root_msgid, prev.version) == REVIEW_ANSWERED) {
		struct feedback pfb = FEEDBACK_INIT;

		if (stage_fetch_thread(&text, sv, l, prev.root_msgid) < 0) {
			queue_log(&sv->q, s->id, s->inbox, QL_WARN, "v%d's thread not read "
				  "for feedback: %s", prev.version, error_last());
			strbuf_reset(&text);
		}
		if (text.len)
			read_feedback(&pfb, sv, s, prev.root_msgid, &text, &ss->mails, now);
		feedback_release(&pfb);
	}
	error_clear();
	ret = feedback_muted(why, &sv->store, s->root_msgid, s->author_email);
	if (!ret && prev.root_msgid)
		ret = feedback_muted(why, &sv->store, prev.root_msgid, s->author_email);
	queue_series_release(&prev);
	store_reply_release(&rec);
	strbuf_release(&text);
	return ret;
}

/* The status of a series draft_reply() wrote no reply for. */
static const char *draft_none_why(int ret)
{
	switch (ret) {
	case REVIEW_NOTHING:
		return "none: nothing to say";
	case DRAFT_POSITIVE:
		return "none: no issue, only thanks (positive = no)";
	case DRAFT_DROPPED:
		return "none: every point was made in the thread already or called wrong before";
	case DRAFT_BELOW_LEVEL:
		return "none: only info-level notes, with no evidence (min-level = warning)";
	case DRAFT_DROPPED_MIXED:
		return "none: every point was made in the thread already, called wrong "
		       "before, or info-level with no evidence (min-level = warning)";
	default:
		return "none: the author asked not to get these reviews ([review] skip-authors)";
	}
}

static int run_reply(struct serve *sv, const struct queue_series *s,
		     const struct serve_list *l, time_t now)
{
	struct store_reply rec = STORE_REPLY_INIT;
	struct series ss = SERIES_INIT;
	struct strbuf path = STRBUF_INIT, what = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	struct strvec paths = STRVEC_INIT;
	struct review_outgoing o = REVIEW_OUTGOING_INIT;
	struct feedback fb = FEEDBACK_INIT;
	const char *why = NULL;
	time_t until;
	bool drafted;
	int ret;

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

	ret = stage_load_series(&ss, sv, s->id);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	/* Drafted once: a later attempt sends the same text and Message-ID. */
	queue_artifact(&path, &sv->q, s->id, QUEUE_REPLY);
	drafted = !access(path.buf, F_OK);
	until = policy_embargo_until(&l->policy, s->last_seen);
	if (!drafted && until > now && l->reply != SERVE_REPLY_DRAFT) {
		unsigned int e = l->policy.embargo;

		if (e % 3600 == 0)
			strbuf_addf(&what, "held for %u hours", e / 3600);
		else if (e % 60 == 0)
			strbuf_addf(&what, "held for %u minutes", e / 60);
		else
			strbuf_addf(&what, "held for %u s", e);
		strbuf_addstr(&what, " after the newest mail (embargo: people first)");
		ret = queue_set_reply(&sv->q, s->id, what.buf);
		if (!ret)
			ret = queue_defer(&sv->q, s->id, until);
		goto out;
	}
	strbuf_addstr(&what, "none: ");
	ret = take_feedback(&fb, &what, sv, s, l, &ss, drafted, now);
	if (ret > 0) {
		ret = finish(sv, s, what.buf, now);
		goto out;
	}
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), false);
		goto out;
	}
	strbuf_reset(&what);
	if (!drafted) {
		ret = draft_reply(sv, s, l, &ss, &fb);
		if (ret == REVIEW_NOTHING || ret == REVIEW_SKIPPED || ret >= DRAFT_POSITIVE) {
			ret = finish(sv, s, draft_none_why(ret), now);
			goto out;
		}
		if (ret < 0) {
			ret = serve_fail(sv, s->id, error_last(), false);
			goto out;
		}
	}
	ret = outgoing_load(&o, &text, sv, s->id);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	if (l->reply == SERVE_REPLY_DRAFT) {
		ret = finish(sv, s, "drafted", now);
		goto out;
	}
	ret = series_paths(&paths, &ss);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	if (!serve_allowed(l, s->author_email, paths.v, &why) ||
	    !serve_rcpt_allowed(l, &o.rcpt, sv->cfg->settings->reply.lists, &why)) {
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
	feedback_release(&fb);
	review_outgoing_release(&o);
	strbuf_release(&text);
	store_reply_release(&rec);
	series_release(&ss);
	strvec_clear(&paths);
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
