/*
 * The rules that group a list's mail into series (group.h).
 */
#include "group.h"

enum group_kind group_kind(const struct subject_tags *t)
{
	if (t->is_reply)
		return GROUP_REPLY;
	if (!t->is_patch)
		return GROUP_OTHER;
	/* [PATCHSET v7 3/9] is set 3 of 9, each with its own patches. */
	if (t->patchset || t->index == 0)
		return GROUP_COVER;
	return GROUP_PATCH;
}

/* Versions agree when equal, or when one side does not spell it (v1). */
static bool versions_agree(int a, int b)
{
	return a == b || a == 1 || b == 1;
}

bool group_joins(const struct group_msg *p, const struct group_msg *parent)
{
	switch (parent->kind) {
	case GROUP_OTHER:
		if (p->total < 2)
			return false;
		/* fall through */
	case GROUP_COVER:
		return versions_agree(p->version, parent->version);
	case GROUP_PATCH:
		return p->version == parent->version && p->idx > 1;
	default:
		return false;
	}
}

int group_total(int min_total, int max_idx)
{
	int t = min_total > max_idx ? min_total : max_idx;

	return t < 1 ? 1 : t;
}

/* The message `m` answers: In-Reply-To, else the last of References. */
static void parent_id(struct strbuf *out, const struct mail *m)
{
	const char *r, *open = NULL, *close;

	strbuf_reset(out);
	if (*m->in_reply_to) {
		strbuf_addstr(out, m->in_reply_to);
		return;
	}
	for (r = m->references; (r = strchr(r, '<')); r++)
		open = r;
	if (open && (close = strchr(open, '>')))
		strbuf_add(out, open + 1, close - open - 1);
}

static long find_mail(const struct mail_list *mails, const char *mid)
{
	for (size_t i = 0; *mid && i < mails->nr; i++)
		if (!strcmp(mails->v[i].message_id, mid))
			return (long)i;
	return -1;
}

static void group_of(struct group_msg *g, const struct mail *m)
{
	struct subject_tags t;

	series_parse_subject(&t, m->subject);
	g->kind = group_kind(&t);
	g->version = t.version;
	g->idx = g->kind == GROUP_COVER ? 0 : t.index < 0 ? 1 : t.index;
	g->total = t.total < 1 ? 1 : t.total;
}

/* "[3/5], [4/5]": the patches 1..total of the chosen that are not there. */
static void say_missing(struct strbuf *out, const struct group_msg *g,
			const bool *chosen, size_t nr)
{
	int min_total = 0, max_idx = 0, total;

	for (size_t i = 0; i < nr; i++) {
		if (!chosen[i] || g[i].kind != GROUP_PATCH)
			continue;
		if (!min_total || g[i].total < min_total)
			min_total = g[i].total;
		if (g[i].idx > max_idx)
			max_idx = g[i].idx;
	}
	total = group_total(min_total, max_idx);
	for (int k = 1; max_idx && k <= total; k++) {
		bool seen = false;

		for (size_t i = 0; i < nr && !seen; i++)
			seen = chosen[i] && g[i].kind == GROUP_PATCH && g[i].idx == k;
		if (!seen)
			strbuf_addf(out, "%s[%d/%d]", out->len ? ", " : "", k, total);
	}
}

int group_select(struct strbuf *out, struct strbuf *missing, const char *raw,
		 size_t len, const struct mail_list *mails,
		 const struct strvec *seeds)
{
	size_t nr = mails->nr;
	struct group_msg *g = xcalloc(nr ? nr : 1, sizeof(*g));
	long *parent = xcalloc(nr ? nr : 1, sizeof(*parent));
	bool *chosen = xcalloc(nr ? nr : 1, sizeof(*chosen));
	struct strbuf pid = STRBUF_INIT;
	bool any = false, grew = true;
	int ret = 0;

	for (size_t i = 0; i < nr; i++) {
		group_of(&g[i], &mails->v[i]);
		parent_id(&pid, &mails->v[i]);
		parent[i] = find_mail(mails, pid.buf);
		for (size_t k = 0; k < seeds->nr && !chosen[i]; k++)
			chosen[i] = !strcmp(mails->v[i].message_id, seeds->v[k]);
		any |= chosen[i];
	}
	if (!any) {
		ret = error_code(WW_ENOTFOUND, "none of the series' messages is "
				 "in its thread");
		goto out;
	}
	/* Chained threading joins one level per pass. */
	while (grew) {
		grew = false;
		for (size_t i = 0; i < nr; i++) {
			if (chosen[i] || g[i].kind != GROUP_PATCH || parent[i] < 0 ||
			    !chosen[parent[i]] || !group_joins(&g[i], &g[parent[i]]))
				continue;
			chosen[i] = grew = true;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		size_t end = i + 1 < nr ? mails->v[i + 1].offset : len;

		if (!chosen[i])
			continue;
		strbuf_add(out, raw + mails->v[i].offset, end - mails->v[i].offset);
		ret += g[i].kind == GROUP_PATCH;
	}
	say_missing(missing, g, chosen, nr);
out:
	strbuf_release(&pid);
	free(g);
	free(parent);
	free(chosen);
	return ret;
}

long group_echo(const struct mail_list *mails, const char *mid)
{
	struct strbuf pid = STRBUF_INIT;
	long i = find_mail(mails, mid), p = -1;

	if (i >= 0) {
		parent_id(&pid, &mails->v[i]);
		p = find_mail(mails, pid.buf);
	}
	if (p >= 0 && strcmp(mails->v[i].subject, mails->v[p].subject))
		p = -1;
	strbuf_release(&pid);
	return p;
}

size_t group_sets_under(const struct mail_list *mails, const char *mid)
{
	struct strbuf pid = STRBUF_INIT;
	struct group_msg g;
	size_t n = 0;

	for (size_t i = 0; *mid && i < mails->nr; i++) {
		parent_id(&pid, &mails->v[i]);
		if (strcmp(pid.buf, mid))
			continue;
		group_of(&g, &mails->v[i]);
		n += g.kind == GROUP_COVER;
	}
	strbuf_release(&pid);
	return n;
}
