/*
 * Reading warnwatch's configuration file (format in config.h).
 */
#include "config.h"
#include "env.h"

#include <ctype.h>

char *config_default_path(void)
{
	const char *env = env_get(ENV_WARNWATCH_CONFIG), *xdg, *home;
	struct strbuf sb = STRBUF_INIT;

	if (env && *env)
		return xstrdup(env);
	xdg = env_get(ENV_XDG_CONFIG_HOME);
	home = env_get(ENV_HOME);
	if (xdg && *xdg)
		strbuf_addf(&sb, "%s/warnwatch/warnwatch.conf", xdg);
	else
		strbuf_addf(&sb, "%s/.config/warnwatch/warnwatch.conf",
			    home && *home ? home : ".");
	return strbuf_detach(&sb, NULL);
}

static void add(struct config *c, const char *section, const char *key,
		const char *value, int line)
{
	struct config_entry *e;

	ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	e = &c->v[c->nr++];
	e->section = xstrdup(section);
	e->key = xstrdup(key);
	e->value = xstrdup(value);
	e->line = line;
}

void config_set(struct config *c, const char *section, const char *key,
		const char *value)
{
	add(c, section, key, value, 0);
}

static bool name_char(int c)
{
	return islower(c) || isdigit(c) || c == '-' || c == '_' || c == '.';
}

static int parse_value(struct strbuf *out, const char *s, size_t len)
{
	if (!len || s[0] != '"') {
		strbuf_add(out, s, len);
		return 0;
	}
	if (len < 2 || s[len - 1] != '"')
		return -1;
	for (size_t i = 1; i < len - 1; i++) {
		if (s[i] == '\\') {
			if (i + 1 >= len - 1 || (s[i + 1] != '"' && s[i + 1] != '\\'))
				return -1;
			i++;
		} else if (s[i] == '"') {
			return -1;
		}
		strbuf_addch(out, s[i]);
	}
	return 0;
}

int config_parse(struct config *out, const char *buf, size_t len,
		 const char *name)
{
	struct strbuf section = STRBUF_INIT, line = STRBUF_INIT,
		      key = STRBUF_INIT, value = STRBUF_INIT;
	size_t pos = 0;
	int lineno = 0, ret = 0;

	/* A UTF-8 byte order mark, as some editors write, opens the file. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len && !ret) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		const char *s, *eq;
		size_t i;

		strbuf_reset(&line);
		strbuf_add(&line, buf + pos, n);
		pos += n + 1;
		lineno++;
		strbuf_trim(&line);
		s = line.buf;
		if (!line.len || s[0] == '#' || s[0] == ';')
			continue;
		if (memchr(s, '\0', line.len)) {
			ret = error_code(WW_EINPUT, "%s:%d: NUL byte", name, lineno);
			break;
		}
		if (s[0] == '[') {
			if (s[line.len - 1] != ']' || line.len < 3) {
				ret = error_code(WW_EINPUT, "%s:%d: bad section header", name, lineno);
				break;
			}
			strbuf_reset(&section);
			strbuf_add(&section, s + 1, line.len - 2);
			strbuf_trim(&section);
			for (i = 0; i < section.len; i++)
				if (!name_char((unsigned char)section.buf[i]))
					break;
			if (!section.len || i < section.len) {
				ret = error_code(WW_EINPUT, "%s:%d: bad section name '%s'",
						 name, lineno, section.buf);
				continue;
			}
			ALLOC_GROW(out->sections, out->nr_sections + 1,
				   out->alloc_sections);
			out->sections[out->nr_sections].name = xstrdup(section.buf);
			out->sections[out->nr_sections++].line = lineno;
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			ret = error_code(WW_EINPUT, "%s:%d: expected 'key = value'", name, lineno);
			break;
		}
		if (!section.len) {
			ret = error_code(WW_EINPUT, "%s:%d: key outside a [section]", name, lineno);
			break;
		}
		strbuf_reset(&key);
		strbuf_add(&key, s, eq - s);
		strbuf_trim(&key);
		for (i = 0; i < key.len; i++)
			if (!name_char((unsigned char)key.buf[i]))
				break;
		if (!key.len || i < key.len) {
			ret = error_code(WW_EINPUT, "%s:%d: bad key name '%s'", name,
					 lineno, key.buf);
			break;
		}
		strbuf_reset(&value);
		eq++;
		while (*eq == ' ' || *eq == '\t')
			eq++;
		if (parse_value(&value, eq, strlen(eq)) < 0) {
			ret = error_code(WW_EINPUT, "%s:%d: bad quoting in the value of '%s'",
					 name, lineno, key.buf);
			break;
		}
		add(out, section.buf, key.buf, value.buf, lineno);
	}
	if (!ret && !out->path)
		out->path = xstrdup(name);	/* errors name it, as config_load's */
	strbuf_release(&section);
	strbuf_release(&line);
	strbuf_release(&key);
	strbuf_release(&value);
	return ret;
}

int config_load(struct config *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, CONFIG_MAX_BYTES);

	if (!ret)
		ret = config_parse(out, sb.buf, sb.len, path);
	if (!ret) {
		free(out->path);
		out->path = xstrdup(path);
	}
	strbuf_release(&sb);
	return ret;
}

static const struct config_entry *find(const struct config *c,
				       const char *section, const char *key)
{
	for (size_t i = c->nr; i-- > 0;)
		if (!strcmp(c->v[i].section, section) && !strcmp(c->v[i].key, key))
			return &c->v[i];
	return NULL;
}

const char *config_get(const struct config *c, const char *section,
		       const char *key)
{
	const struct config_entry *e = find(c, section, key);

	return e ? e->value : NULL;
}

/* "path:line: " or "" for a value set on the command line. */
static void where(struct strbuf *out, const struct config *c,
		  const struct config_entry *e)
{
	if (e->line && c->path)
		strbuf_addf(out, "%s:%d: ", c->path, e->line);
}

static int bad_value(const struct config *c, const struct config_entry *e,
		     const char *want)
{
	struct strbuf w = STRBUF_INIT;
	int ret;

	where(&w, c, e);
	ret = error_code(WW_EINPUT, "%s'%s.%s' must be %s, not '%s'", w.buf,
			 e->section, e->key, want, e->value);
	strbuf_release(&w);
	return ret;
}

int config_get_bool(bool *out, const struct config *c, const char *section,
		    const char *key, bool def)
{
	static const char *const yes[] = { "yes", "true", "on", "1", NULL };
	static const char *const no[] = { "no", "false", "off", "0", NULL };
	const struct config_entry *e = find(c, section, key);

	*out = def;
	if (!e)
		return 0;
	for (int i = 0; yes[i]; i++)
		if (!strcasecmp(e->value, yes[i]))
			return *out = true, 0;
	for (int i = 0; no[i]; i++)
		if (!strcasecmp(e->value, no[i]))
			return *out = false, 0;
	return bad_value(c, e, "yes or no");
}

int config_get_uint(unsigned long *out, const struct config *c,
		    const char *section, const char *key, unsigned long def,
		    unsigned long min, unsigned long max)
{
	const struct config_entry *e = find(c, section, key);
	char *end, want[80];
	unsigned long v;

	*out = def;
	if (!e)
		return 0;
	errno = 0;
	v = strtoul(e->value, &end, 10);
	if (!isdigit((unsigned char)e->value[0]) || *end || errno || v < min || v > max) {
		snprintf(want, sizeof(want), "a number from %lu to %lu", min, max);
		return bad_value(c, e, want);
	}
	*out = v;
	return 0;
}

int config_get_enum(int *out, const struct config *c, const char *section,
		    const char *key, const char *const *choices, int def)
{
	const struct config_entry *e = find(c, section, key);
	struct strbuf want = STRBUF_INIT;
	int ret;

	*out = def;
	if (!e)
		return 0;
	for (int i = 0; choices[i]; i++)
		if (!strcmp(e->value, choices[i]))
			return *out = i, 0;
	strbuf_addstr(&want, "one of");
	for (int i = 0; choices[i]; i++)
		strbuf_addf(&want, "%s '%s'", i ? "," : "", choices[i]);
	ret = bad_value(c, e, want.buf);
	strbuf_release(&want);
	return ret;
}

int config_get_path(struct strbuf *out, const struct config *c,
		    const char *section, const char *key)
{
	const struct config_entry *e = find(c, section, key);
	const char *v, *home, *slash;

	strbuf_reset(out);
	if (!e || !*e->value)
		return WW_ENOTFOUND;
	v = e->value;
	if (skip_prefix(v, "~/", &v)) {
		home = env_get(ENV_HOME);
		strbuf_addf(out, "%s/%s", home && *home ? home : ".", v);
	} else if (v[0] != '/' && e->line && c->path &&
		   (slash = strrchr(c->path, '/'))) {
		strbuf_add(out, c->path, slash - c->path + 1);
		strbuf_addstr(out, v);
	} else {
		strbuf_addstr(out, v);
	}
	return 0;
}

int config_check(const struct config *c, const char *section,
		 const char *const *known)
{
	for (size_t i = 0; i < c->nr; i++) {
		const struct config_entry *e = &c->v[i];
		bool found = false;
		struct strbuf w = STRBUF_INIT;
		int ret;

		if (strcmp(e->section, section) != 0)
			continue;
		for (int k = 0; known[k] && !found; k++)
			found = !strcmp(known[k], e->key);
		if (found)
			continue;
		where(&w, c, e);
		ret = error_code(WW_EINPUT, "%sunknown key '%s.%s'", w.buf,
				 e->section, e->key);
		strbuf_release(&w);
		return ret;
	}
	return 0;
}

int config_check_sections(const struct config *c,
			  bool (*known)(const char *section))
{
	const char *file = c->path ? c->path : "the configuration";

	for (size_t i = 0; i < c->nr_sections; i++)
		if (!known(c->sections[i].name))
			return error_code(WW_EINPUT, "%s:%d: unknown section '[%s]'",
					  file, c->sections[i].line,
					  c->sections[i].name);
	/* config_set() adds entries without a header */
	for (size_t i = 0; i < c->nr; i++)
		if (!known(c->v[i].section))
			return error_code(WW_EINPUT, "%s: unknown section '[%s]'",
					  file, c->v[i].section);
	return 0;
}

void config_release(struct config *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->v[i].section);
		free(c->v[i].key);
		free(c->v[i].value);
	}
	free(c->v);
	for (size_t i = 0; i < c->nr_sections; i++)
		free(c->sections[i].name);
	free(c->sections);
	free(c->path);
	c->v = NULL;
	c->sections = NULL;
	c->path = NULL;
	c->nr = c->alloc = 0;
	c->nr_sections = c->alloc_sections = 0;
}
