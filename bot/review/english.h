/*
 * Small English for the reply's sentences.
 */
#ifndef WW_ENGLISH_H
#define WW_ENGLISH_H

#include "strbuf.h"
#include "strvec.h"

/* "no", "one" ... "ten", then digits (a static buffer: not thread-safe
 * beyond ten). */
const char *english_number(int n);

/* `v` as "a", "a and b", "a, b and c". */
void english_join(struct strbuf *out, const struct strvec *v);

/* `text` appended as a sentence: first letter up when it is a plain
 * word, a full stop at the end unless it ends in one of ".!?:".  When
 * `out` holds text already, that is closed the same way and one space
 * separates the two: the one way the reply joins two sentences.  An
 * empty `text` adds nothing. */
void english_sentence(struct strbuf *out, const char *text);

#endif
