/*
 * Typed reads of one key of a JSON object (jansson), for the schemas
 * warnwatch writes and reads back (ci-json.h, report.h's findings).
 *
 * Each reads `key` of object `o` into `out`.  A missing key or JSON null
 * leaves the default (NULL, `dflt`, nothing pushed): older documents
 * lack newer keys.  A value of the wrong type is WW_EINPUT, "WHAT: "KEY"
 * is not a string", where `what` names the document and the object in it
 * ("kernel-ci verdict 'ci.json' fired[2]").
 */
#ifndef WW_JSONVAL_H
#define WW_JSONVAL_H

#include "strvec.h"

#include <jansson.h>

/* A string (a new copy: the caller's to free), or NULL. */
int jsonval_str(char **out, const json_t *o, const char *key, const char *what);
/* An integer that fits an int. */
int jsonval_int(int *out, const json_t *o, const char *key, int dflt, const char *what);
int jsonval_llong(long long *out, const json_t *o, const char *key, long long dflt,
		  const char *what);
/* A number (an integer is read as a double too). */
int jsonval_real(double *out, const json_t *o, const char *key, double dflt,
		 const char *what);
int jsonval_bool(bool *out, const json_t *o, const char *key, bool dflt, const char *what);
/* An array of strings, each pushed onto `out`. */
int jsonval_strv(struct strvec *out, const json_t *o, const char *key, const char *what);
/* An array (borrowed) or an object (borrowed), or NULL when missing. */
int jsonval_array(const json_t **out, const json_t *o, const char *key, const char *what);
int jsonval_object(const json_t **out, const json_t *o, const char *key, const char *what);

/*
 * The other way: a JSON string for `len` bytes of `s` (a new reference),
 * never NULL.  jansson refuses bytes that are not valid UTF-8 (and NUL),
 * and a console line, a file name or a test name from a series may hold
 * them: such a string is kept, escaped as quote.h does (invalid bytes
 * and controls in C-style octal), instead of losing its key.  Valid text
 * is as it was.  jsonval_text() of NULL is JSON null.
 */
json_t *jsonval_textn(const char *s, size_t len);
json_t *jsonval_text(const char *s);

#endif
