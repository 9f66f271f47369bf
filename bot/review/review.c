/*
 * The review path both `warnwatch review` and the service's reply stage
 * take (see review.h): the series' messages as archived, the reply
 * options, the state, and the send recorded exactly once.
 */
#include "review.h"

#include <signal.h>

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

void review_conf_release(struct review_conf *k)
{
	strbuf_release(&k->from);
	strbuf_release(&k->templates);
}

int review_reply_opts(struct reply_opts *out, struct review_conf *keep,
		      const struct config *c, unsigned flags)
{
	const char *name = config_get(c, "identity", "name");
	const char *email = config_get(c, "identity", "email");
	int policy, ret;
	bool hint;

	if (!email || !*email) {
		if (flags & REVIEW_SENDING)
			return error_code(WW_EINPUT, "no [identity] email in the "
					  "configuration: who is sending this?");
		email = "warnwatch@localhost";
	}
	if (!mail_addr_valid(email))
		return error_code(WW_EINPUT, "[identity] email '%s' is not an "
				  "address", email);
	ret = config_get_enum(&policy, c, "review", "reply-to",
			      reply_policy_names, REPLY_TO_BOTH);
	if (!ret)
		ret = config_get_bool(&hint, c, "review", "patchwork-hint", false);
	if (ret)
		return ret;
	strbuf_reset(&keep->from);
	/* Quoted as RFC 5322 wants: "Doe, Jane" is one name, not two
	 * mailboxes. */
	mail_addr_format(&keep->from, name && *name ? name : "warnwatch", email);
	strbuf_reset(&keep->templates);
	if (config_get_path(&keep->templates, c, "review", "templates"))
		strbuf_addstr(&keep->templates, reply_default_templates());
	out->from = keep->from.buf;
	out->policy = policy;
	out->lists = config_get(c, "review", "lists");
	out->skip = config_get(c, "review", "skip-authors");
	out->patchwork_hint = hint;
	out->template_dir = keep->templates.buf;
	out->contact = config_get(c, "review", "contact");
	return 0;
}

int review_state_open(struct store *out, const struct config *c)
{
	struct strbuf dir = STRBUF_INIT, pw = STRBUF_INIT;
	const char *url = config_get(c, "state", "url");
	int ret;

	if (url && *url) {
		bool have_pw = !config_get_path(&pw, c, "state", "password-file");

		ret = store_open_url(out, url, have_pw ? pw.buf : NULL);
		goto out;
	}
	if (config_get_path(&dir, c, "state", "dir")) {
		char *d = store_default_dir();

		strbuf_addstr(&dir, d);
		free(d);
	}
	ret = store_open(out, dir.buf);
out:
	strbuf_release(&dir);
	strbuf_release(&pw);
	return ret;
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

/* Test-only crash points (WARNWATCH_TEST_KILL_AT=NAME): die as kill -9
 * would, at the worst moments for exactly-once sending. */
static void test_kill_point(const char *name)
{
	const char *at = getenv("WARNWATCH_TEST_KILL_AT");

	if (at && !strcmp(at, name))
		raise(SIGKILL);
}

int review_send(struct store_reply *existing, struct store *st,
		const struct smtp_opts *so, const struct store_reply *rec,
		const char *from, const struct mail_addr_list *rcpt,
		const char *text, size_t len)
{
	struct strbuf why = STRBUF_INIT;
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
	/* Refused, or no connection: certainly not delivered. */
	strbuf_addstr(&why, error_last());
	store_mark_failed(st, rec->message_id, why.buf);
	ret = error_code(ret, "%s", why.buf);
	strbuf_release(&why);
	return ret;
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

bool review_author_skipped(const struct config *c, const struct reply *r,
			   const struct series *s)
{
	const char *skip = config_get(c, "review", "skip-authors");
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
