/*
 * A review reply's headers and who gets it: From:, To: and Cc: as
 * kernel etiquette has it, Subject:, Date:, Message-ID:, In-Reply-To:,
 * References:, and the envelope.  See reply-headers.h.
 */
#include "reply.h"
#include "msgid.h"

#include <fnmatch.h>

bool reply_addr_matches(const char *addr, const char *globs)
{
	struct strbuf pat = STRBUF_INIT;
	const char *p = globs ? globs : "";
	bool match = false;

	while (*p && !match) {
		size_t n = strcspn(p, " ,\t");

		if (n) {
			strbuf_reset(&pat);
			strbuf_add(&pat, p, n);
			match = !fnmatch(pat.buf, addr, FNM_CASEFOLD);
		}
		p += n;
		p += strspn(p, " ,\t");
	}
	strbuf_release(&pat);
	return match;
}

/* Only the configured lists count (reply_opts.lists): NULL matches none. */
static bool is_list(const char *addr, const char *patterns)
{
	return patterns && reply_addr_matches(addr, patterns);
}

/* `in` into `out`, but ourselves and whoever asked for no reviews (or
 * is a bot: `bots`, NULL for none). */
static void add_all(struct mail_addr_list *out, const struct mail_addr_list *in,
		    const char *self, const char *skip, const char *bots)
{
	for (size_t i = 0; i < in->nr; i++)
		if (strcasecmp(in->v[i].addr, self) != 0 &&
		    !reply_addr_matches(in->v[i].addr, skip) &&
		    !(bots && reply_addr_matches(in->v[i].addr, bots)))
			mail_addr_add(out, in->v[i].name, in->v[i].addr);
}

/*
 * Who gets the reply, as kernel etiquette has it: To: the author; Cc: the
 * watched list first (o->watched, whether or not the patch named it, so
 * that no cap drops it), then the lists the patch went to (o->lists
 * globs), or with reply-to = all everyone it went to.  The addresses come
 * from the raw headers parsed as RFC 5322 lists (mail_addr_parse()), so
 * nothing inside a display name or a comment is one; To: and Cc: are read
 * up to MAILHDR_MAX_SEEN addresses, so a list after the 64th address of a
 * 200-address To: is still found, and only what the reply writes is
 * capped (MAILHDR_MAX_ADDRS per header); reply-to = all leaves out the
 * robots (o->bots).  The author is exactly one
 * address, the first mailbox of From:, whatever else From: lists;
 * [review] skip-authors (o->skip) holds for every recipient, and a
 * skipped author means no reply at all.
 */
static int recipients(struct reply *out, const struct mail *m, const struct reply_opts *o,
		      const char *self)
{
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT, author = MAIL_ADDR_LIST_INIT,
			      others = MAIL_ADDR_LIST_INIT, lists = MAIL_ADDR_LIST_INIT;
	int ret = 0;

	mail_addr_parse(&from, m->from_raw);
	if (from.nr)
		mail_addr_add(&author, from.v[0].name, from.v[0].addr);
	if (author.nr && reply_addr_matches(author.v[0].addr, o->skip)) {
		out->author_skipped = true;
		goto out;
	}
	others.max = lists.max = MAILHDR_MAX_SEEN;
	if (o->watched && o->policy != REPLY_TO_AUTHOR)
		mail_addr_parse(&lists, o->watched);
	mail_addr_parse(&others, m->to_raw);
	mail_addr_parse(&others, m->cc_raw);
	for (size_t i = 0; i < others.nr; i++)
		if (is_list(others.v[i].addr, o->lists))
			mail_addr_add(&lists, others.v[i].name, others.v[i].addr);
	switch (o->policy) {
	case REPLY_TO_AUTHOR:
		add_all(&out->to, &author, self, o->skip, NULL);
		break;
	case REPLY_TO_LIST:
		add_all(&out->to, &lists, self, o->skip, NULL);
		break;
	case REPLY_TO_ALL:
		add_all(&out->to, &author, self, o->skip, NULL);
		add_all(&out->cc, &lists, self, o->skip, NULL);
		/* Everyone it went to but robots: a reply to syzbot or the
		 * kernel test robot is noise in their queues. */
		add_all(&out->cc, &others, self, o->skip, o->bots);
		break;
	case REPLY_TO_BOTH:
		add_all(&out->to, &author, self, o->skip, NULL);
		add_all(&out->cc, &lists, self, o->skip, NULL);
		break;
	}
	/* Nobody in To: is odd; Cc: alone works but reads badly. */
	if (!out->to.nr && out->cc.nr) {
		mail_addr_list_clear(&out->to);
		out->to = out->cc;
		memset(&out->cc, 0, sizeof(out->cc));
	}
	out->rcpt.max = 2 * MAILHDR_MAX_ADDRS;
	for (size_t i = 0; i < out->to.nr; i++)
		mail_addr_add(&out->rcpt, "", out->to.v[i].addr);
	for (size_t i = 0; i < out->cc.nr; i++)
		mail_addr_add(&out->rcpt, "", out->cc.v[i].addr);
	if (!out->rcpt.nr)
		ret = error_code(WW_EINPUT, "no %s address to send the reply to (reply-to = %s)",
				 o->policy == REPLY_TO_LIST ? "mailing list" : "valid",
				 reply_policy_names[o->policy]);
out:
	mail_addr_list_clear(&from);
	mail_addr_list_clear(&author);
	mail_addr_list_clear(&others);
	mail_addr_list_clear(&lists);
	return ret;
}

/* References: the answered message's (valid ones, the first and the
 * last few if there are many), then its own id. */
static void references(struct strvec *out, const struct mail *m)
{
	struct strvec all = STRVEC_INIT;
	const char *p = m->references ? m->references : "";

	while ((p = strchr(p, '<'))) {
		const char *end = strchr(p, '>');
		char *id;

		if (!end)
			break;
		id = xstrndup(p + 1, end - p - 1);
		if (msgid_valid(id))
			strvec_push(&all, id);
		free(id);
		p = end + 1;
	}
	for (size_t i = 0; i < all.nr; i++)
		if (i == 0 || i + 8 >= all.nr)
			strvec_push(out, all.v[i]);
	strvec_push(out, m->message_id);
	strvec_clear(&all);
}

int reply_headers(struct reply *out, struct strbuf *h, const struct mail *m,
		  const struct reply_opts *o)
{
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	struct strvec refs = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *self;
	int ret;

	if (mail_addr_parse(&from, o->from ? o->from : "") || from.nr != 1) {
		ret = error_code(WW_EINPUT, "the From: identity '%s' is not one valid address",
				 o->from ? o->from : "");
		goto out;
	}
	self = from.v[0].addr;
	out->from_addr = xstrdup(self);
	ret = recipients(out, m, o, self);
	if (ret || out->author_skipped)
		goto out;
	mailhdr_add_addrs(h, "From", &from);
	mailhdr_add_addrs(h, "To", &out->to);
	if (out->cc.nr)
		mailhdr_add_addrs(h, "Cc", &out->cc);
	strbuf_addstr(&sb, m->subject);
	strbuf_trim(&sb);
	if (strncasecmp(sb.buf, "Re:", 3) != 0) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "Re: %s", m->subject);
	}
	mailhdr_add_text(h, "Subject", sb.buf);
	/* The subject as it went out, for the state database. */
	{
		struct strbuf subj = STRBUF_INIT;

		mailhdr_clean(&subj, sb.buf, MAILHDR_MAX_TEXT);
		out->subject = strbuf_detach(&subj, NULL);
	}
	strbuf_reset(&sb);
	mailhdr_date(&sb, o->date ? o->date : mailhdr_now());
	strbuf_addf(h, "Date: %s\n", sb.buf);
	{
		const char *id = out->message_id;

		mailhdr_add_ids(h, "Message-ID", &id, 1);
		id = m->message_id;
		mailhdr_add_ids(h, "In-Reply-To", &id, 1);
	}
	references(&refs, m);
	mailhdr_add_ids(h, "References", refs.v, refs.nr);
	if (o->patchwork_hint)
		strbuf_addstr(h, "X-Patchwork-Hint: ignore\n");
	strbuf_addstr(h, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n");
out:
	mail_addr_list_clear(&from);
	strvec_clear(&refs);
	strbuf_release(&sb);
	return ret;
}

