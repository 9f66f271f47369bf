/*
 * The reply stage: draft the reply once, then send it exactly once
 * (review.h) within the list's allow-lists and quiet hours, or find
 * that it was sent before.
 */
#include "stage.h"
#include "ci-json.h"
#include "archive.h"
#include "feedback.h"
#include "mailfile.h"
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

/* Held until `until`, saying `what` in the series' reply field. */
static int hold(struct serve *sv, const struct queue_series *s, const char *what,
		time_t until)
{
	int ret = queue_set_reply(&sv->q, s->id, what);

	return ret ? ret : queue_defer(&sv->q, s->id, until);
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
		ret = hold(sv, s, what.buf,
			   now + (l->poll_interval < 30 ? l->poll_interval : 30));
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
 * (id 0: the list); `warned` the list's causes said already, or NULL. */
struct log_to {
	struct serve *sv;
	long long id;
	const char *list;
	struct strvec *warned;
};

#define WARNED_MAX 256	/* causes remembered per list */

/* One warning per cause, not per series (issue 38.5): a text this list
 * warned of already is logged again only as info, for the series. */
static void log_warning(void *data, const char *msg)
{
	struct log_to *to = data;
	bool again = false;

	for (size_t i = 0; to->warned && i < to->warned->nr && !again; i++)
		again = !strcmp(to->warned->v[i], msg);
	if (!again && to->warned && to->warned->nr < WARNED_MAX)
		strvec_push(to->warned, msg);
	queue_log(&to->sv->q, to->id, to->list, again ? QL_INFO : QL_WARN, "%s%s",
		  again ? "again: " : "", msg);
}

/* Something true of the list, said once per run as info. */
static void log_info_once(struct log_to *to, const char *fmt, ...) WW_PRINTF(2, 3);
static void log_info_once(struct log_to *to, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < to->warned->nr; i++)
		if (!strcmp(to->warned->v[i], msg.buf))
			goto out;
	strvec_push(to->warned, msg.buf);
	queue_log(&to->sv->q, to->id, to->list, QL_INFO, "%s", msg.buf);
out:
	strbuf_release(&msg);
}

/* The list's log_to for series `id`. */
static struct log_to log_to_list(struct serve *sv, const struct serve_list *l,
				 long long id)
{
	struct log_to to = { sv, id, l->name, &sv->inboxes[l - sv->cfg->lists].warned };

	return to;
}

/* The list's coding-style guide, loaded on first use; NULL if none. */
static const struct guide *list_guide(struct serve *sv,
				      const struct serve_list *l)
{
	struct serve_inbox *in = &sv->inboxes[l - sv->cfg->lists];
	const struct settings *set = sv->cfg->settings;
	const char *tree = set->review_tree, *source = set->review_source;
	struct log_to to = log_to_list(sv, l, 0);
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
	const struct feedback_key *key;	/* whose suppressions apply */
	const struct serve_list *l;
	time_t now;
	int said;		/* findings drop_finding() left out */
};

/* A point a human made in the thread (quoting its added line), or a
 * finding the people it concerns called wrong for this series, its
 * author or the list (its fingerprint; feedback_suppressed()). */
static bool drop_finding(void *data, const struct finding *f)
{
	struct drop_ctx *d = data;
	struct strbuf line = STRBUF_INIT, norm = STRBUF_INIT, fp = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	bool drop = false;

	plan_added_line(&line, f);
	feedback_norm(&norm, line.buf, line.len);
	plan_fingerprint(&fp, f);
	if (feedback_quoted(&d->fb->human_quoted, norm.buf)) {
		drop = true;
		queue_log(&d->sv->q, d->s->id, d->s->inbox, QL_INFO, "left out %s() at "
			  "%s:%d: a reviewer in the thread quoted it already",
			  f->rule->macro, f->file, f->line);
	} else if (feedback_suppressed(&why, &d->sv->store, fp.buf, d->key, d->now) > 0) {
		drop = true;
		queue_log(&d->sv->q, d->s->id, d->s->inbox, QL_INFO, "left out %s() at "
			  "%s:%d (%s): %s", f->rule->macro, f->file, f->line, fp.buf,
			  why.buf);
	}
	d->said += drop;
	error_clear();
	strbuf_release(&why);
	strbuf_release(&line);
	strbuf_release(&norm);
	strbuf_release(&fp);
	return drop;
}

/*
 * reply_opts.earlier: the version whose review warnwatch sent made the
 * point about `f` (the same fingerprint: file, function, call), with a
 * link to that mail in the list's archive; 0 when none did, or when a
 * human asked about the call since (a question under its quoted line,
 * in this thread or the previous version's): then it is said again.
 */
static int earlier_point(void *data, const struct finding *f, struct strbuf *where)
{
	struct drop_ctx *d = data;
	struct strbuf fp = STRBUF_INIT, line = STRBUF_INIT, norm = STRBUF_INIT;
	struct strbuf id = STRBUF_INIT;
	struct strvec earlier = STRVEC_INIT;
	int version = 0, ret = 0;

	plan_added_line(&line, f);
	feedback_norm(&norm, line.buf, line.len);
	plan_fingerprint(&fp, f);
	for (size_t i = 1; i < d->key->family->nr; i++)
		strvec_push(&earlier, d->key->family->v[i]);
	if (!feedback_quoted(&d->fb->human_asked, norm.buf))
		ret = feedback_said_before(&id, &version, &d->sv->store, fp.buf, &earlier);
	if (ret > 0) {
		strbuf_addf(where, "%s/%s/", d->l->archive, d->l->inbox);
		archive_escape_msgid(where, id.buf);
		strbuf_addch(where, '/');
		queue_log(&d->sv->q, d->s->id, d->s->inbox, QL_INFO, "%s() at %s:%d: "
			  "unchanged since v%d's review <%s>, named in one line",
			  f->rule->macro, f->file, f->line, version, id.buf);
	} else if (ret < 0) {
		queue_log(&d->sv->q, d->s->id, d->s->inbox, QL_WARN, "%s", error_last());
	}
	error_clear();
	strvec_clear(&earlier);
	strbuf_release(&id);
	strbuf_release(&fp);
	strbuf_release(&line);
	strbuf_release(&norm);
	return ret > 0 ? version : 0;
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
 * review` does.  REVIEW_NOTHING or REVIEW_SKIPPED when it writes none,
 * or a DRAFT_*.
 */
static int draft_reply(struct serve *sv, const struct queue_series *s,
		       const struct serve_list *l, const struct stage_series *k,
		       const struct feedback *fb, const struct feedback_key *key,
		       time_t now)
{
	struct drop_ctx drop = { sv, s, fb, key, l, now, 0 };
	struct review_run_opts o = REVIEW_RUN_OPTS_INIT;
	struct reply r = REPLY_INIT;
	struct ci_verdict v = CI_VERDICT_INIT;
	struct series prev = SERIES_INIT;
	struct strbuf path = STRBUF_INIT;
	long long pid = queue_prev_version(&sv->q, s->id);
	struct log_to to = log_to_list(sv, l, s->id);
	struct stat st;
	int ret;

	review_reply_from(&o.reply, &sv->cfg->settings->reply);
	o.rules = &sv->rules;
	o.checked = &k->r;	/* the check stage's, when this process ran it */
	o.positive = true;	/* the list's `positive` decides (DRAFT_POSITIVE) */
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
	/* Facts from the list's tree, as review --tree reads them: a source
	 * directory.  A tarball gives the quotes (list_guide()) and
	 * kernel-ci's base, not facts: said once, not per series. */
	if (*l->tree && strncmp(l->tree, "git:", 4) && !stat(l->tree, &st) &&
	    S_ISDIR(st.st_mode)) {
		o.facts_tree = l->tree;
		o.cache_dir = sv->cfg->settings->cache_dir.buf;
	} else if (*l->tree && !stat(l->tree, &st) && S_ISREG(st.st_mode)) {
		struct log_to once = to;

		once.id = 0;
		log_info_once(&once, "tree '%s' is a tarball: replies quote its "
			      "coding-style.rst; facts about each call (the function's "
			      "exits, user input) need a source directory", l->tree);
	}
	/* The list's policy: min-level, and what people said back. */
	o.reply.need_evidence = l->policy.min_level == POLICY_LEVEL_WARNING;
	o.reply.bots = l->policy.ignore_senders;
	o.reply.drop = drop_finding;
	o.reply.drop_data = &drop;
	o.reply.earlier = earlier_point;
	o.reply.earlier_data = &drop;
	ret = review_run(&r, &k->s, &o);
	/* Why nothing is left, truthfully: status shows it per series. */
	if (ret == REVIEW_NOTHING && r.dropped)
		ret = drop.said + r.unchanged >= r.dropped ? DRAFT_DROPPED :
		      drop.said + r.unchanged ? DRAFT_DROPPED_MIXED : DRAFT_BELOW_LEVEL;
	else if (ret == REVIEW_DRAFTED && !r.issues && !r.unchanged && !l->policy.positive)
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

/* The root Message-IDs of series `s` and of its earlier versions, newest
 * first: its family, whose suppressions apply to it. */
static void family_of(struct strvec *out, struct serve *sv, const struct queue_series *s)
{
	long long id = s->id;

	strvec_push(out, s->root_msgid);
	for (int n = 0; n < FEEDBACK_FAMILY_MAX; n++) {
		struct queue_series p = QUEUE_SERIES_INIT;
		long long pid = queue_prev_version(&sv->q, id);

		if (pid <= 0 || queue_load(&p, &sv->q, pid) < 0) {
			queue_series_release(&p);
			break;
		}
		strvec_push(out, p.root_msgid);
		queue_series_release(&p);
		id = pid;
	}
	error_clear();
}

/* What feedback_record() refused, or read as discussion: to the log. */
static void log_info(void *data, const char *msg)
{
	struct log_to *to = data;

	queue_log(&to->sv->q, to->id, to->list, QL_INFO, "%s", msg);
}

/*
 * Read thread `text`, rooted at `root` (a version of series `s`), for
 * feedback, record it for the people it concerns, keep it in `fb`.
 */
static void read_feedback(struct feedback *fb, struct serve *sv,
			  const struct queue_series *s, const struct serve_list *l,
			  const char *root, const struct strbuf *text,
			  const struct mail_list *mails, time_t now)
{
	struct mail_list thread = MAIL_LIST_INIT;
	const char *self = sv->cfg->settings->email;
	struct log_to to = { sv, s->id, s->inbox, NULL };
	struct feedback_scan_opts so = { self, feedback_ours, &sv->store,
					 l->policy.authserv_id };
	struct feedback_ctx ctx = { s->inbox, root, s->author_email, mails,
				    l->policy.owners, self, now, log_info, &to };
	int ret;

	if (!self || mbox_parse(&thread, text->buf, text->len)) {
		error_clear();
		return;
	}
	feedback_scan(fb, &thread, &so);
	ret = feedback_record(&sv->store, fb, &ctx);
	if (ret > 0)
		queue_log(&sv->q, s->id, s->inbox, QL_INFO, "%d new feedback record%s "
			  "from the thread of <%s>", ret, ret == 1 ? "" : "s", root);
	else if (ret < 0)
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "%s", error_last());
	error_clear();
	mail_list_clear(&thread);
}

/*
 * Thread `root` as public-inbox threads it (ARCHIVE/INBOX/ROOT/t.mbox.gz,
 * by References as well as In-Reply-To), into `out`.  Not b4: Debian's b4
 * threads by In-Reply-To alone (its References go through a getaddresses()
 * that the strict parsing of Python's security fix reads as empty), and a
 * confirmation answers a request the archive never saw.
 */
static int archive_thread(struct strbuf *out, struct serve *sv,
			  const struct serve_list *l, const char *root)
{
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT;
	struct mailfile mf = MAILFILE_INIT;
	long status = 0;
	int ret;

	strbuf_addf(&url, "%s/%s/", l->archive, l->inbox);
	archive_escape_msgid(&url, root);
	strbuf_addstr(&url, "/t.mbox.gz");
	ret = archive_get(&body, &status, url.buf, &sv->http);
	if (!ret)
		ret = mailfile_parse(&mf, body.buf, body.len, url.buf);
	if (!ret) {
		strbuf_reset(out);
		strbuf_addbuf(out, &mf.mbox);
	}
	mailfile_release(&mf);
	strbuf_release(&url);
	strbuf_release(&body);
	return ret;
}

/*
 * A mute-me of this author waits for its confirmation: read the thread
 * it was said in again (the address answers the request there, through
 * the list).
 */
static void read_confirmations(struct serve *sv, const struct queue_series *s,
			       const struct serve_list *l, const struct series *ss,
			       time_t now)
{
	struct strvec threads = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;

	if (feedback_pending(&threads, &sv->store, s->inbox, s->author_email, now) < 0)
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "%s", error_last());
	for (size_t i = 0; i < threads.nr; i++) {
		struct feedback fb = FEEDBACK_INIT;

		strbuf_reset(&text);
		if (archive_thread(&text, sv, l, threads.v[i]) < 0) {
			queue_log(&sv->q, s->id, s->inbox, QL_WARN, "the thread of <%s> "
				  "not read for a confirmation: %s", threads.v[i],
				  error_last());
			continue;
		}
		read_feedback(&fb, sv, s, l, threads.v[i], &text, &ss->mails, now);
		feedback_release(&fb);
	}
	error_clear();
	strvec_clear(&threads);
	strbuf_release(&text);
}

/*
 * Mail each pending mute-me's confirmation request of the list, once:
 * to the address to mute only (never the list: the token in it is the
 * proof that whoever confirms reads that mailbox).  Only where the list
 * sends (reply = send), allow-senders lets mail reach the address, and
 * no stop file holds sending.
 */
static void send_requests(struct serve *sv, const struct queue_series *s,
			  const struct serve_list *l, time_t now)
{
	const struct settings *set = sv->cfg->settings;
	struct feedback_request *r = NULL;
	const char *lists = *l->address ? l->address : set->reply.lists;
	const char *list = *l->address && !strpbrk(l->address, "*?[ ,") ?
			   l->address : NULL;
	int n;

	if (l->reply != SERVE_REPLY_SEND || !set->sending ||
	    (*sv->cfg->send.stop_file && !access(sv->cfg->send.stop_file, F_OK)))
		return;
	n = feedback_unrequested(&r, &sv->store, s->inbox, 8, now);
	for (int i = 0; i < n; i++) {
		struct mail_addr_list rcpt = MAIL_ADDR_LIST_INIT;
		struct strbuf text = STRBUF_INIT;
		const char *why = NULL;
		int ret;

		mail_addr_add(&rcpt, NULL, r[i].addr);
		if (!serve_rcpt_allowed(l, &rcpt, lists, &why)) {
			queue_log(&sv->q, s->id, s->inbox, QL_INFO, "confirmation "
				  "request to %s not sent: %s", r[i].addr, why);
			mail_addr_list_clear(&rcpt);
			continue;
		}
		feedback_request_text(&text, &r[i], set->name ? set->name : "warnwatch",
				      set->email, list, now);
		ret = smtp_send(&set->smtp, set->email, &rcpt, text.buf, text.len);
		if (!ret)
			ret = feedback_requested(&sv->store, r[i].id, now);
		if (ret < 0)
			queue_log(&sv->q, s->id, s->inbox, QL_WARN, "confirmation request "
				  "to %s: %s", r[i].addr, error_last());
		else
			queue_log(&sv->q, s->id, s->inbox, QL_INFO, "sent <%s> to %s: a "
				  "confirmation request for the mute-me in <%s>",
				  r[i].request_id, r[i].addr, r[i].message_id);
		error_clear();
		mail_addr_list_clear(&rcpt);
		strbuf_release(&text);
	}
	if (n < 0)
		queue_log(&sv->q, s->id, s->inbox, QL_WARN, "%s", error_last());
	error_clear();
	feedback_requests_release(r, n > 0 ? (size_t)n : 0);
}

/*
 * What people said: in this series' thread (read again from the archive
 * after an embargo, when humans had time to speak), in the previous
 * version's when warnwatch answered it (a "wrong" or a mute there holds
 * for this version), and in the threads where a mute-me of this author
 * waits for its confirmation.  Then whether mail is muted: 1 with `why`
 * set.
 */
static int take_feedback(struct feedback *fb, struct strbuf *why, struct serve *sv,
			 const struct queue_series *s, const struct serve_list *l,
			 const struct series *ss, const struct feedback_key *key,
			 bool drafted, time_t now)
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
	read_feedback(fb, sv, s, l, s->root_msgid, text.len ? &text : &ss->raw,
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
			read_feedback(&pfb, sv, s, l, prev.root_msgid, &text, &ss->mails, now);
		/* A question asked there adds to the point made there. */
		for (size_t i = 0; i < pfb.human_asked.nr; i++)
			strvec_push(&fb->human_asked, pfb.human_asked.v[i]);
		feedback_release(&pfb);
	}
	error_clear();
	read_confirmations(sv, s, l, ss, now);
	send_requests(sv, s, l, now);
	ret = feedback_muted(why, &sv->store, key, now);
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

/* "held for 2 hours after the newest mail (embargo: people first)" */
static void embargo_words(struct strbuf *what, unsigned int e)
{
	if (e % 3600 == 0)
		strbuf_addf(what, "held for %u hours", e / 3600);
	else if (e % 60 == 0)
		strbuf_addf(what, "held for %u minutes", e / 60);
	else
		strbuf_addf(what, "held for %u s", e);
	strbuf_addstr(what, " after the newest mail (embargo: people first)");
}

/*
 * Send the drafted reply `o` of `s` (checked as `r`) unless the list keeps
 * it: paths or recipients it does not allow (drafted, not sent), quiet
 * hours or the send policy (held, deferred).
 */
static int send_unless_held(struct serve *sv, const struct queue_series *s,
			    const struct serve_list *l, const struct check_result *r,
			    const struct review_outgoing *o, time_t now)
{
	struct strbuf what = STRBUF_INIT;
	struct strvec paths = STRVEC_INIT;
	const char *why = NULL;
	time_t until;
	int ret = 0;

	check_result_paths(&paths, r);
	if (!serve_allowed(l, s->author_email, paths.v, &why) ||
	    !serve_rcpt_allowed(l, &o->rcpt, sv->cfg->settings->reply.lists, &why)) {
		strbuf_addf(&what, "drafted, not sent: %s", why);
		ret = finish(sv, s, what.buf, now);
	} else if (serve_quiet(l, now, &until)) {
		struct tm tm;

		localtime_r(&until, &tm);
		strbuf_addf(&what, "held until %02d:%02d (quiet hours)", tm.tm_hour, tm.tm_min);
		ret = hold(sv, s, what.buf, until);
	} else if ((ret = policy_hold(&until, &what, &sv->store, &sv->cfg->send, &l->policy,
				      &(struct policy_series){ s->inbox, s->author_email,
							       s->root_msgid }, now)) > 0) {
		/* In the event log too: the reply field is overwritten
		 * once it is sent, the hold should stay on record. */
		queue_log(&sv->q, s->id, s->inbox, QL_INFO, "%s", what.buf);
		ret = hold(sv, s, what.buf, until);
	} else if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), false);
	} else {
		ret = send_reply(sv, s, l, o, now);
	}
	strvec_clear(&paths);
	strbuf_release(&what);
	return ret;
}

static int run_reply(struct serve *sv, const struct queue_series *s,
		     const struct serve_list *l, time_t now)
{
	struct store_reply rec = STORE_REPLY_INIT;
	const struct stage_series *k;
	struct strbuf path = STRBUF_INIT, what = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	struct review_outgoing o = REVIEW_OUTGOING_INIT;
	struct feedback fb = FEEDBACK_INIT;
	struct strvec family = STRVEC_INIT;
	struct feedback_key key = { s->inbox, s->author_email, &family };
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

	ret = stage_checked(sv, s->id, &k);
	if (ret < 0) {
		ret = serve_fail(sv, s->id, error_last(), true);
		goto out;
	}
	/* Drafted once: a later attempt sends the same text and Message-ID. */
	queue_artifact(&path, &sv->q, s->id, QUEUE_REPLY);
	drafted = !access(path.buf, F_OK);
	until = policy_embargo_until(&l->policy, s->last_seen);
	if (!drafted && until > now && l->reply != SERVE_REPLY_DRAFT) {
		embargo_words(&what, l->policy.embargo);
		ret = hold(sv, s, what.buf, until);
		goto out;
	}
	strbuf_addstr(&what, "none: ");
	family_of(&family, sv, s);
	ret = take_feedback(&fb, &what, sv, s, l, &k->s, &key, drafted, now);
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
		ret = draft_reply(sv, s, l, k, &fb, &key, now);
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
	ret = send_unless_held(sv, s, l, &k->r, &o, now);
out:
	feedback_release(&fb);
	strvec_clear(&family);
	review_outgoing_release(&o);
	strbuf_release(&text);
	store_reply_release(&rec);
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
