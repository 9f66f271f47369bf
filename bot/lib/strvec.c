/*
 * NULL-terminated string vectors: see strvec.h.
 */
#include "strvec.h"
#include "strbuf.h"

const char *empty_strvec[] = { NULL };

void strvec_init(struct strvec *sv)
{
	sv->v = empty_strvec;
	sv->nr = sv->alloc = 0;
}

static void push_owned(struct strvec *sv, char *s)
{
	if (sv->v == empty_strvec) {
		sv->alloc = 8;
		sv->v = xmalloc(sv->alloc * sizeof(*sv->v));
	}
	ALLOC_GROW(sv->v, sv->nr + 2, sv->alloc);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	push_owned(sv, xstrdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	push_owned(sv, strbuf_detach(&sb, NULL));
}

void strvec_pushl(struct strvec *sv, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, sv);
	while ((s = va_arg(ap, const char *)))
		strvec_push(sv, s);
	va_end(ap);
}

void strvec_pushv(struct strvec *sv, const char **v)
{
	for (; *v; v++)
		strvec_push(sv, *v);
}

void strvec_pop(struct strvec *sv)
{
	if (!sv->nr)
		return;
	free((char *)sv->v[--sv->nr]);
	sv->v[sv->nr] = NULL;
}

void strvec_clear(struct strvec *sv)
{
	size_t i;

	if (sv->v != empty_strvec) {
		for (i = 0; i < sv->nr; i++)
			free((char *)sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}

bool strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void strvec_sort(struct strvec *sv)
{
	if (sv->nr > 1)
		qsort(sv->v, sv->nr, sizeof(*sv->v), cmp_str);
}
