/*
 * Small English for the reply: numbers in words, lists joined with
 * "and", sentences from rule texts.  See english.h.
 */
#include "english.h"

#include <ctype.h>

const char *english_number(int n)
{
	static const char *const words[] = { "no", "one", "two", "three", "four",
		"five", "six", "seven", "eight", "nine", "ten" };
	static char buf[16];

	if (n >= 0 && n < (int)ARRAY_SIZE(words))
		return words[n];
	snprintf(buf, sizeof(buf), "%d", n);
	return buf;
}

/* Join `v` as "a", "a and b", "a, b and c". */
void english_join(struct strbuf *out, const struct strvec *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		if (i)
			strbuf_addstr(out, i + 1 == v->nr ? " and " : ", ");
		strbuf_addstr(out, v->v[i]);
	}
}

/*
 * "Sentence." from a rule text: first letter up, a full stop at the end.
 * Every sentence of the reply is added through here, so that two pieces
 * written apart (a rule's message, advice.json's guide_intro) are never
 * run together: what `out` already holds is closed first, then one space.
 */
void english_sentence(struct strbuf *out, const char *text)
{
	const char *t = text ? text : "";
	size_t len, start;

	t += strspn(t, " \t\n\r");
	len = strlen(t);
	while (len && strchr(" \t\n\r", t[len - 1]))
		len--;
	if (!len)	/* no sentence, and nothing closed */
		return;
	strbuf_rtrim(out);
	if (out->len) {
		if (!strchr(".!?:", out->buf[out->len - 1]))
			strbuf_addch(out, '.');
		strbuf_addch(out, ' ');
	}
	start = out->len;
	strbuf_add(out, t, len);
	/* "new BUG_ON()" -> "New BUG_ON()", but never "Foo_bar()". */
	if (islower((unsigned char)out->buf[start]) &&
	    strspn(out->buf + start, "abcdefghijklmnopqrstuvwxyz") ==
	    strcspn(out->buf + start, " ,:;."))
		out->buf[start] = toupper((unsigned char)out->buf[start]);
	if (!strchr(".!?:", out->buf[out->len - 1]))
		strbuf_addch(out, '.');
}
