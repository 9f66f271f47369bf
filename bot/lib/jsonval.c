/*
 * Typed reads of a JSON object's keys: see jsonval.h.
 */
#include "jsonval.h"
#include "quote.h"

#include <limits.h>

/* The value of `key`, or NULL when it is missing or null. */
static const json_t *get(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_null(v) ? NULL : v;
}

static int wrong(const char *what, const char *key, const char *type)
{
	return error_code(WW_EINPUT, "%s: \"%s\" is not %s", what, key, type);
}

int jsonval_str(char **out, const json_t *o, const char *key, const char *what)
{
	const json_t *v = get(o, key);

	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_string(v))
		return wrong(what, key, "a string");
	*out = xstrdup(json_string_value(v));
	return 0;
}

int jsonval_llong(long long *out, const json_t *o, const char *key, long long dflt,
		  const char *what)
{
	const json_t *v = get(o, key);

	*out = dflt;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return wrong(what, key, "an integer");
	*out = json_integer_value(v);
	return 0;
}

int jsonval_int(int *out, const json_t *o, const char *key, int dflt, const char *what)
{
	long long n;
	int ret = jsonval_llong(&n, o, key, dflt, what);

	if (ret < 0)
		return ret;
	if (n < INT_MIN || n > INT_MAX)
		return wrong(what, key, "a small integer");
	*out = (int)n;
	return 0;
}

int jsonval_real(double *out, const json_t *o, const char *key, double dflt,
		 const char *what)
{
	const json_t *v = get(o, key);

	*out = dflt;
	if (!v)
		return 0;
	if (!json_is_number(v))
		return wrong(what, key, "a number");
	*out = json_number_value(v);
	return 0;
}

int jsonval_bool(bool *out, const json_t *o, const char *key, bool dflt, const char *what)
{
	const json_t *v = get(o, key);

	*out = dflt;
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return wrong(what, key, "true or false");
	*out = json_is_true(v);
	return 0;
}

int jsonval_array(const json_t **out, const json_t *o, const char *key, const char *what)
{
	const json_t *v = get(o, key);

	*out = NULL;
	if (v && !json_is_array(v))
		return wrong(what, key, "an array");
	*out = v;
	return 0;
}

int jsonval_object(const json_t **out, const json_t *o, const char *key, const char *what)
{
	const json_t *v = get(o, key);

	*out = NULL;
	if (v && !json_is_object(v))
		return wrong(what, key, "an object");
	*out = v;
	return 0;
}

int jsonval_strv(struct strvec *out, const json_t *o, const char *key, const char *what)
{
	const json_t *a, *s;
	size_t i;
	int ret = jsonval_array(&a, o, key, what);

	if (ret < 0 || !a)
		return ret;
	json_array_foreach(a, i, s) {
		if (!json_is_string(s))
			return error_code(WW_EINPUT, "%s: \"%s\"[%zu] is not a string",
					  what, key, i);
		strvec_push(out, json_string_value(s));
	}
	return 0;
}

json_t *jsonval_textn(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j = json_stringn(s, len);

	if (j)
		return j;
	quote_c_style_n(&sb, s, len, QUOTE_KEEP_TAB);
	j = json_stringn(sb.buf, sb.len);
	strbuf_release(&sb);
	return j ? j : json_string("");
}

json_t *jsonval_text(const char *s)
{
	return s ? jsonval_textn(s, strlen(s)) : json_null();
}
