/*
 * Every sentence the bot writes in its own words, as data: a book of
 * named sentences (templates/sentences.json, format in docs/review.md),
 * each a template (template.h) and the facts it needs.  C decides which
 * sentence to say and binds the facts it established; a sentence whose
 * needed fact is not bound is not said at all (better silent than
 * wrong), and the book itself refuses a sentence that could print an
 * unbound name outside a {{#section}}: what a sentence claims is listed
 * next to it, and tests/unit/t-sentences lists them all.
 */
#ifndef WW_SAY_H
#define WW_SAY_H

#include "strbuf.h"
#include "strvec.h"

#include <stdarg.h>

#define SAY_FILE "sentences.json"

struct say_book {
	void *doc;		/* the parsed book (jansson's json_t) */
	char *path;		/* where it was read, for messages */
};

#define SAY_BOOK_INIT { 0 }

/*
 * Read `dir`/sentences.json.  WW_EINPUT, naming the file and the
 * sentence, for a book that is not an object of {"text", "needs"}
 * entries, or whose text prints a name outside a section that its
 * "needs" does not list, or lists a need its text never prints.
 */
int say_book_load(struct say_book *b, const char *dir);
void say_book_release(struct say_book *b);

/*
 * The book beside the templates in `dir`; a templates directory without
 * one (an operator's own, from before the book) reads the installed
 * book (datadir.h).
 */
int say_book_load_beside(struct say_book *b, const char *dir);

/*
 * Append sentence `name`, its names bound from the pairs that follow
 * (const char *key, const char *value, ..., NULL); a NULL or empty
 * value leaves the key unbound.  When a fact the sentence needs is
 * unbound, nothing is appended and WW_ENOTFOUND says which; a name the
 * book lacks is WW_ENOTFOUND too.
 */
int say_sentence(struct strbuf *out, const struct say_book *b, const char *name, ...);
int say_vsentence(struct strbuf *out, const struct say_book *b, const char *name, va_list ap);

/*
 * The same for a caller for whom a sentence without its facts is simply
 * not said: the error is cleared.  What the replies use.
 */
void say_quiet(struct strbuf *out, const struct say_book *b, const char *name, ...);

/* The same with the names bound in `v` (template.h); an empty value is
 * unbound. */
struct tmpl_vars;
int say_render(struct strbuf *out, const struct say_book *b, const char *name,
	       const struct tmpl_vars *v);

/* The names of the book's sentences, and of each one's needs. */
void say_book_names(const struct say_book *b, struct strvec *out);
void say_book_needs(const struct say_book *b, const char *name, struct strvec *out);
/* Every name sentence `name` prints or tests, needed or not. */
void say_book_uses(const struct say_book *b, const char *name, struct strvec *out);

#endif
