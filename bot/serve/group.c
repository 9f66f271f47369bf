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
