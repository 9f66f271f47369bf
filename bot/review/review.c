/*
 * The review path both `warnwatch review` and the service's reply stage
 * take (see review.h): the series' messages as archived, the reply
 * options, the guide, the review and its decision, and the send recorded
 * exactly once.
 */
#include "review.h"
#include "patched.h"


static bool has_msgid(const struct mail_list *l, const char *msgid)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].message_id && !strcmp(l->v[i].message_id, msgid))
			return true;
	return false;
}

int review_choose_mails(struct mail_list *out, struct mail_list *thread,
			const struct mail_list *picked, const char *name)
{
	size_t before = out->nr;

	for (size_t i = 0; i < thread->nr; i++) {
		const char *id = thread->v[i].message_id;

		if (!id || !has_msgid(picked, id) || has_msgid(out, id))
			continue;
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr++] = thread->v[i];
		memset(&thread->v[i], 0, sizeof(thread->v[i]));
	}
	if (out->nr - before < picked->nr)
		return error_code(WW_EINPUT, "%zu of the %zu messages b4 chose%s%s "
				  "are not in the thread",
				  picked->nr - (out->nr - before), picked->nr,
				  name ? " for " : "", name ? name : "");
	return 0;
}

int review_reply_opts(struct reply_opts *out, struct settings_reply *keep,
		      const struct config *c, unsigned flags)
{
	int ret = settings_reply_load(keep, c, flags & REVIEW_SENDING);

	if (!ret)
		review_reply_from(out, keep);
	return ret;
}

void review_reply_from(struct reply_opts *out, const struct settings_reply *conf)
{
	*out = (struct reply_opts)REPLY_OPTS_INIT;
	out->from = conf->from.buf;
	out->policy = conf->policy;
	out->lists = conf->lists;
	out->skip = conf->skip;
	out->patchwork_hint = conf->patchwork_hint;
	out->template_dir = conf->templates.buf;
	out->contact = conf->contact;
}

int review_known(struct store_reply *out, struct store *st,
		 const char *series, int version)
{
	int ret = store_find_reply(out, st, series, version);

	if (ret == WW_ENOTFOUND) {
		error_clear();
		return 0;
	}
	if (ret)
		return ret;
	if (out->state == REPLY_SENT)
		return REVIEW_ANSWERED;
	return out->state == REPLY_INTENT ? REVIEW_MAYBE_SENT : 0;
}

int review_send(struct store_reply *existing, struct store *st,
		const struct smtp_opts *so, const struct store_reply *rec,
		const char *from, const struct mail_addr_list *rcpt,
		const char *text, size_t len)
{
	struct error_state why;
	int ret;

	/* The intent is committed before the first byte goes out. */
	ret = store_begin_reply(st, rec, existing);
	if (ret == WW_EDUP) {
		error_clear();
		return existing->state == REPLY_SENT ? REVIEW_ANSWERED :
						       REVIEW_MAYBE_SENT;
	}
	if (ret)
		return ret;
	test_kill_point("before-smtp");
	ret = smtp_send(so, from, rcpt, text, len);
	test_kill_point("after-smtp");
	if (!ret)
		return store_mark_sent(st, rec->message_id) ? REVIEW_UNRECORDED : 0;
	if (ret == WW_ETIMEOUT)
		return ret;	/* maybe delivered: the intent stays */
	/* Refused, or no connection: certainly not delivered.  The SMTP
	 * failure is what the caller reports, whatever recording it says. */
	error_state_capture(&why, ret);
	store_mark_failed(st, rec->message_id, why.msg);
	return error_state_restore(&why);
}

int review_archived(const char *base, const char *inbox, const char *msgid,
		    const struct archive_opts *ao)
{
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT;
	long status;
	int ret;

	strbuf_addf(&url, "%s/%s/", base, inbox);
	archive_escape_msgid(&url, msgid);
	strbuf_addstr(&url, "/raw");
	ret = archive_get(&body, &status, url.buf, ao);
	if (!ret)
		ret = 1;
	else if (ret == WW_ENOTFOUND)
		ret = 0;
	strbuf_release(&url);
	strbuf_release(&body);
	return ret;
}

bool review_author_skipped(const char *skip, const struct reply *r,
			   const struct series *s)
{
	struct mail_addr_list a = MAIL_ADDR_LIST_INIT;
	const struct mail *m = r->answered ? NULL : s->cover;
	bool hit;

	if (r->author_skipped)
		return true;
	if (!skip || !*skip)
		return false;
	for (size_t i = 0; !m && i < s->nr; i++)
		if (s->patches[i].index == r->answered)
			m = s->patches[i].mail;
	/* The author is the first mailbox of From: and nobody else. */
	if (m)
		mail_addr_parse(&a, m->from_raw);
	hit = a.nr && reply_addr_matches(a.v[0].addr, skip);
	mail_addr_list_clear(&a);
	return hit;
}

static void say(const struct review_warn *w, const char *fmt, ...) WW_PRINTF(2, 3);
static void say(const struct review_warn *w, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (w && w->fn)
		w->fn(w->data, msg.buf);
	else
		warning("%s", msg.buf);
	strbuf_release(&msg);
}

int review_load_guide(struct guide *out, struct strbuf *tree_name,
		      const char *tree, const char *source, const char *cache,
		      unsigned flags, const struct review_warn *w)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = guide_locate(&path, tree, cache, source);
	if (!ret)
		ret = guide_load_file(out, path.buf);
	strbuf_release(&path);
	if (ret) {
		/* Explicitly named trees must work; the fallback may be absent. */
		if (flags & REVIEW_GUIDE_REQUIRED)
			return ret;
		say(w, "replies will cite coding-style sections without quoting them: %s",
		    error_last());
		error_clear();
		return 0;
	}
	if (tree_name && tree) {
		const char *base = strrchr(tree, '/');

		strbuf_addstr(tree_name, base && base[1] ? base + 1 : tree);
	} else if (tree_name) {
		strbuf_addstr(tree_name, source ? source : GUIDE_DEFAULT_SOURCE);
	}
	return 1;
}

/*
 * The facts about each added call from the tree after the series: the
 * reply then mirrors the functions' own exits and compiles its rewrites.
 * When even the scratch copy fails the reply says only what the diff
 * proves, with a warning.
 */
static void use_facts(struct reply_opts *ro, struct patched *pt,
		      const struct review_run_opts *o, const struct series *s,
		      const struct check_result *cur)
{
	struct patched_opts po = PATCHED_OPTS_INIT;
	int ret;

	po.alloc_calls = ro->advice ? &ro->advice->alloc_calls : NULL;
	po.build_dir = o->build_dir;
	po.cache_dir = o->cache_dir;
	ret = patched_apply(pt, o->facts_tree, s, cur, &po);

	if (ret == WW_ENOTFOUND) {
		/* Not the code under review (a guide-only tree): nothing to say. */
		error_clear();
		return;
	}
	if (ret) {
		say(&o->warn, "no facts from '%s': %s", o->facts_tree, error_last());
		error_clear();
		return;
	}
	for (size_t i = 0; i < pt->failed.nr; i++)
		say(&o->warn, "for facts, %s", pt->failed.v[i]);
	ro->facts = pt->facts;
	ro->compile = patched_compile;
	ro->compile_data = pt;
}

int review_run(struct reply *out, const struct series *s,
	       const struct review_run_opts *o)
{
	struct check_result own = CHECK_RESULT_INIT, prev = CHECK_RESULT_INIT;
	const struct check_result *cur = &own;
	struct check_opts co = CHECK_OPTS_INIT;
	struct reply_opts ro = o->reply;
	struct patched pt = PATCHED_INIT;
	int ret = 0;

	co.rules = o->rules;
	co.tree = o->tree;
	if (o->checked && !o->tree)
		cur = o->checked;	/* the caller's check: not again */
	else
		ret = check_series(&own, s, &co);
	if (ret < 0) {
		if (o->name)
			ret = error_prefix(ret, "%s", o->name);
		goto out;
	}
	ro.prev = NULL;
	ro.prev_result = NULL;
	if (o->prev) {
		co.tree = NULL;
		if (check_series(&prev, o->prev, &co) < 0) {
			say(&o->warn, "v%d of the series not compared: %s",
			    o->prev->version, error_last());
			error_clear();
		} else {
			ro.prev = o->prev;
			ro.prev_result = &prev;
		}
	}
	if (o->facts_tree)
		use_facts(&ro, &pt, o, s, cur);
	ret = reply_build(out, s, cur, &ro);
	if (ret < 0)
		goto out;
	if (out->empty)
		ret = REVIEW_NOTHING;
	else if (!out->issues && !out->unchanged && !out->fixed && !o->positive &&
		 !o->reply.always)
		ret = REVIEW_NO_ISSUE;	/* no specific point: no mail (issue 34) */
	else if (review_author_skipped(ro.skip, out, s))
		ret = REVIEW_SKIPPED;
	else
		ret = REVIEW_DRAFTED;
out:
	patched_release(&pt);
	check_result_clear(&own);
	check_result_clear(&prev);
	return ret;
}

int review_outgoing_parse(struct review_outgoing *out, const char *text,
			  size_t len)
{
	struct mail_list ml = MAIL_LIST_INIT;
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	int ret;

	out->text = text;
	out->len = len;
	ret = mbox_parse(&ml, text, len);
	if (!ret && ml.nr != 1)
		ret = error_code(WW_EINPUT, "not one message");
	if (!ret && !*ml.v[0].message_id)
		ret = error_code(WW_EINPUT, "no Message-ID");
	if (ret)
		goto out;
	out->message_id = xstrdup(ml.v[0].message_id);
	out->in_reply_to = xstrdup(ml.v[0].in_reply_to);
	out->subject = xstrdup(ml.v[0].subject);
	out->rcpt.max = 2 * MAILHDR_MAX_ADDRS;	/* To: and Cc:, each capped */
	mail_addr_parse(&out->rcpt, ml.v[0].to_raw);
	mail_addr_parse(&out->rcpt, ml.v[0].cc_raw);
	mail_addr_parse(&from, ml.v[0].from_raw);
	if (!from.nr || !out->rcpt.nr) {
		ret = error_code(WW_EINPUT, "no %s", from.nr ? "recipient" : "sender");
		goto out;
	}
	strbuf_addstr(&out->from, from.v[0].addr);
	for (size_t i = 0; i < out->rcpt.nr; i++)
		strbuf_addf(&out->rcpt_text, "%s%s", i ? ", " : "", out->rcpt.v[i].addr);
out:
	mail_addr_list_clear(&from);
	mail_list_clear(&ml);
	return ret;
}

void review_outgoing_release(struct review_outgoing *o)
{
	strbuf_release(&o->from);
	strbuf_release(&o->rcpt_text);
	free(o->message_id);
	free(o->in_reply_to);
	free(o->subject);
	mail_addr_list_clear(&o->rcpt);
	o->message_id = o->in_reply_to = o->subject = NULL;
}

int review_deliver(struct store_reply *existing, struct store *st,
		   const struct smtp_opts *so, const struct review_outgoing *o,
		   const char *series, int version, bool forced)
{
	struct store_reply rec = STORE_REPLY_INIT;

	rec.series = (char *)series;	/* borrowed: only read */
	rec.version = version;
	rec.message_id = o->message_id;
	rec.in_reply_to = o->in_reply_to;
	rec.subject = o->subject;
	rec.recipients = o->rcpt_text.buf;
	rec.forced = forced;
	return review_send(existing, st, so, &rec, o->from.buf, &o->rcpt,
			   o->text, o->len);
}
