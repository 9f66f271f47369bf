/*
 * The book of sentences: see say.h.
 */
#include "say.h"
#include "datadir.h"
#include "template.h"

#include <jansson.h>
#include <limits.h>

#define SAY_MAX_BYTES (256u << 10)
static json_t *entry_of(const struct say_book *b, const char *name)
{
	json_t *all = b->doc ? json_object_get(b->doc, "sentences") : NULL;

	return all ? json_object_get(all, name) : NULL;
}

/*
 * The names `text` prints outside any section ({{name}} at depth 0),
 * and every name it prints or tests anywhere, into `bare` and `all`.
 */
static void names_in(const char *text, struct strvec *bare, struct strvec *all)
{
	int depth = 0;

	for (const char *p = strstr(text, "{{"); p; p = strstr(p, "{{")) {
		const char *end = strstr(p + 2, "}}");
		const char *n = p + 2;
		char kind = *n;

		if (!end)
			return;
		if (strchr("#^/!>", kind))
			n++;
		if (kind == '/')
			depth--;
		else if (kind == '#' || kind == '^')
			depth++;
		if (kind != '!' && kind != '>' && kind != '/') {
			char *name = xmemdupz(n, end - n);

			if (!depth && kind != '#' && kind != '^' && !strvec_has(bare, name))
				strvec_push(bare, name);
			if (!strvec_has(all, name))
				strvec_push(all, name);
			free(name);
		}
		p = end + 2;
	}
}

/* One entry: {"text": "...", "needs": {"fact": "where it comes from"}}. */
static int check_entry(const struct say_book *b, const char *name, json_t *e)
{
	json_t *text = json_object_get(e, "text"), *needs = json_object_get(e, "needs");
	struct strvec bare = STRVEC_INIT, all = STRVEC_INIT;
	const char *key;
	json_t *why;
	int ret = 0;

	if (!json_is_object(e) || !json_is_string(text) || !json_is_object(needs))
		return error_code(WW_EINPUT, "%s: sentence '%s' is not {\"text\", \"needs\"}",
				  b->path, name);
	names_in(json_string_value(text), &bare, &all);
	for (size_t i = 0; i < bare.nr && !ret; i++)
		if (!json_object_get(needs, bare.v[i]))
			ret = error_code(WW_EINPUT, "%s: sentence '%s' prints {{%s}} outside a "
					 "section but does not need it", b->path, name, bare.v[i]);
	json_object_foreach(needs, key, why) {
		if (ret)
			break;
		if (!json_is_string(why) || !*json_string_value(why))
			ret = error_code(WW_EINPUT, "%s: sentence '%s': need '%s' does not say "
					 "where the fact comes from", b->path, name, key);
		else if (!strvec_has(&all, key))
			ret = error_code(WW_EINPUT, "%s: sentence '%s' needs '%s' but never "
					 "uses it", b->path, name, key);
	}
	strvec_clear(&bare);
	strvec_clear(&all);
	return ret;
}

int say_book_load(struct say_book *b, const char *dir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	json_error_t jerr;
	json_t *all;
	const char *name;
	json_t *e;
	int ret;

	strbuf_addf(&path, "%s/%s", dir, SAY_FILE);
	b->path = strbuf_detach(&path, NULL);
	ret = strbuf_read_file(&buf, b->path, SAY_MAX_BYTES);
	if (ret < 0)
		goto out;
	b->doc = json_loadb(buf.buf, buf.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!b->doc) {
		ret = error_code(WW_EINPUT, "%s: line %d: %s", b->path, jerr.line, jerr.text);
		goto out;
	}
	all = json_object_get(b->doc, "sentences");
	if (!json_is_object(all)) {
		ret = error_code(WW_EINPUT, "%s: no \"sentences\" object", b->path);
		goto out;
	}
	json_object_foreach(all, name, e) {
		ret = check_entry(b, name, e);
		if (ret)
			break;
	}
out:
	strbuf_release(&buf);
	if (ret)
		say_book_release(b);
	return ret;
}

int say_book_load_beside(struct say_book *b, const char *dir)
{
	char buf[PATH_MAX];
	int ret = say_book_load(b, dir);

	if (ret == WW_ENOTFOUND) {
		error_clear();
		ret = say_book_load(b, datadir_find(buf, sizeof(buf), "templates", ENV_NONE, NULL));
	}
	return ret;
}

void say_book_release(struct say_book *b)
{
	json_decref(b->doc);
	b->doc = NULL;
	free(b->path);
	b->path = NULL;
}

int say_render(struct strbuf *out, const struct say_book *b, const char *name,
	       const struct tmpl_vars *v)
{
	json_t *e = entry_of(b, name);
	struct template_opts o = TEMPLATE_OPTS_INIT;
	const char *text, *key;
	json_t *why;

	if (!e)
		return error_code(WW_ENOTFOUND, "no sentence '%s' in %s", name,
				  b->path ? b->path : SAY_FILE);
	json_object_foreach(json_object_get(e, "needs"), key, why) {
		const char *val = tmpl_get(v, key);

		if (!val || !*val)
			return error_code(WW_ENOTFOUND, "sentence '%s' not said: no %s (%s)",
					  name, key, json_string_value(why));
	}
	text = json_string_value(json_object_get(e, "text"));
	o.name = name;
	o.width = 0;
	return template_render(out, text, strlen(text), v, &o);
}

int say_vsentence(struct strbuf *out, const struct say_book *b, const char *name, va_list ap)
{
	struct tmpl_vars *v = tmpl_vars_new();
	const char *key;
	int ret;

	while ((key = va_arg(ap, const char *))) {
		const char *value = va_arg(ap, const char *);

		if (value && *value)
			tmpl_set(v, key, value);
	}
	ret = say_render(out, b, name, v);
	tmpl_vars_free(v);
	return ret;
}

int say_sentence(struct strbuf *out, const struct say_book *b, const char *name, ...)
{
	va_list ap;
	int ret;

	va_start(ap, name);
	ret = say_vsentence(out, b, name, ap);
	va_end(ap);
	return ret;
}

void say_quiet(struct strbuf *out, const struct say_book *b, const char *name, ...)
{
	va_list ap;

	va_start(ap, name);
	if (say_vsentence(out, b, name, ap))
		error_clear();
	va_end(ap);
}

void say_book_names(const struct say_book *b, struct strvec *out)
{
	json_t *all = b->doc ? json_object_get(b->doc, "sentences") : NULL;
	const char *name;
	json_t *e;

	json_object_foreach(all, name, e)
		strvec_push(out, name);
}

void say_book_uses(const struct say_book *b, const char *name, struct strvec *out)
{
	json_t *e = entry_of(b, name);
	struct strvec bare = STRVEC_INIT;

	if (e)
		names_in(json_string_value(json_object_get(e, "text")), &bare, out);
	strvec_clear(&bare);
}

void say_book_needs(const struct say_book *b, const char *name, struct strvec *out)
{
	json_t *e = entry_of(b, name);
	const char *key;
	json_t *why;

	json_object_foreach(e ? json_object_get(e, "needs") : NULL, key, why)
		strvec_push(out, key);
}
