/*
 * NULL-terminated arrays of owned strings, for argv and env vectors
 * (after git's strvec.h).  `v` is never NULL.
 */
#ifndef WW_STRVEC_H
#define WW_STRVEC_H

#include "ww.h"

struct strvec {
	const char **v;
	size_t nr;
	size_t alloc;
};

extern const char *empty_strvec[];
#define STRVEC_INIT { .v = empty_strvec }

void strvec_init(struct strvec *sv);
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) WW_PRINTF(2, 3);
/* Push each argument up to a terminating NULL. */
void strvec_pushl(struct strvec *sv, ...);
void strvec_pushv(struct strvec *sv, const char **v);
/* Drop the last string (nothing when empty). */
void strvec_pop(struct strvec *sv);
void strvec_clear(struct strvec *sv);
/* Sort the strings in strcmp() order. */
void strvec_sort(struct strvec *sv);
/* Is `s` one of the strings (a linear search: for short vectors)? */
bool strvec_has(const struct strvec *sv, const char *s);

#endif
