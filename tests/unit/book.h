/*
 * The book of sentences (bot/lib/say.h) for unit tests that print what
 * the bot says: templates/ of the checkout ($WW_TOP), loaded once.  A
 * book that does not load is a TAP comment; the sentences then come out
 * empty and the test that reads them fails saying what is missing.
 */
#ifndef WW_TEST_BOOK_H
#define WW_TEST_BOOK_H

#include "say.h"

#include <stdio.h>
#include <stdlib.h>

static inline const struct say_book *test_book(void)
{
	static struct say_book book = SAY_BOOK_INIT;
	static bool tried;

	if (!tried) {
		const char *top = getenv("WW_TOP");
		struct strbuf dir = STRBUF_INIT;

		tried = true;
		strbuf_addf(&dir, "%s/templates", top && *top ? top : ".");
		if (say_book_load(&book, dir.buf) < 0) {
			printf("# the book of sentences: %s\n", error_last());
			error_clear();
		}
		strbuf_release(&dir);
	}
	return &book;
}

#endif
