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

/* "Sentence." from a rule text: first letter up, a full stop at the end. */
void english_sentence(struct strbuf *out, const char *text)
{
	size_t start = out->len;

	strbuf_addstr(out, text ? text : "");
	strbuf_trim(out);
	/* "new BUG_ON()" -> "New BUG_ON()", but never "Foo_bar()". */
	if (out->len > start && islower((unsigned char)out->buf[start]) &&
	    strspn(out->buf + start, "abcdefghijklmnopqrstuvwxyz") ==
	    strcspn(out->buf + start, " ,:;."))
		out->buf[start] = toupper((unsigned char)out->buf[start]);
	if (out->len > start && !strchr(".!?:", out->buf[out->len - 1]))
		strbuf_addch(out, '.');
}

