/*
 * Mail parsing: see mbox.h.  (Stub: being implemented.)
 */
#include "mbox.h"

int mbox_parse(struct mail_list *out, const char *buf, size_t len)
{
	return error_code(WW_EINPUT, "mbox parsing not implemented yet");
}

int mail_header(struct strbuf *out, const char *headers, size_t len,
		const char *name)
{
	return WW_ENOTFOUND;
}

void mail_decode_words(struct strbuf *out, const char *in, size_t len)
{
	strbuf_add(out, in, len);
}

void mail_addr_name(struct strbuf *out, const char *from)
{
	strbuf_addstr(out, from);
}

void mail_addr_email(struct strbuf *out, const char *from)
{
	strbuf_addstr(out, from);
}

void mail_release(struct mail *m)
{
	free(m->from);
	free(m->to);
	free(m->cc);
	free(m->subject);
	free(m->date);
	free(m->message_id);
	free(m->in_reply_to);
	free(m->references);
	free(m->body);
	memset(m, 0, sizeof(*m));
}

void mail_list_clear(struct mail_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		mail_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
