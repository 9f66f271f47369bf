/*
 * Patch series from mails: see series.h.  (Stub: being implemented.)
 */
#include "series.h"

void series_parse_subject(struct subject_tags *out, const char *subject)
{
	memset(out, 0, sizeof(*out));
	out->version = 1;
	out->index = -1;
	out->total = -1;
}

int series_from_mails(struct series *out, const struct mail_list *mails)
{
	return error_code(WW_ENOTFOUND, "no patches found");
}

void series_from_diff(struct series *out, const char *diff, size_t len,
		      const char *name)
{
	struct series_patch *p;

	ALLOC_GROW(out->patches, out->nr + 1, out->alloc);
	p = &out->patches[out->nr++];
	memset(p, 0, sizeof(*p));
	p->subject = xstrdup(name);
	p->title = xstrdup(name);
	p->message_id = xstrdup("");
	p->author = xstrdup("");
	p->date = xstrdup("");
	p->diff = diff;
	p->diff_len = len;
	if (!out->subject)
		out->subject = xstrdup(name);
	if (!out->message_id)
		out->message_id = xstrdup("");
}

void series_release(struct series *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->patches[i].subject);
		free(s->patches[i].title);
		free(s->patches[i].message_id);
		free(s->patches[i].author);
		free(s->patches[i].date);
	}
	free(s->patches);
	free(s->subject);
	free(s->message_id);
	free(s->base_commit);
	free(s->versions);
	memset(s, 0, sizeof(*s));
	s->version = 1;
}
