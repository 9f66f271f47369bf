/*
 * Command-line options from a table: see opt.h for the accepted forms.
 */
#include "opt.h"
#include "strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct opt *find_long(const struct opt *opts, const char *name,
				   size_t len)
{
	for (; opts->kind != OPT_KIND_END; opts++)
		if (opts->long_name && strlen(opts->long_name) == len &&
		    !memcmp(opts->long_name, name, len))
			return opts;
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	for (; opts->kind != OPT_KIND_END; opts++)
		if (opts->short_name == c)
			return opts;
	return NULL;
}

static bool takes_value(const struct opt *o)
{
	return o->kind == OPT_KIND_STRING || o->kind == OPT_KIND_ULONG ||
	       o->kind == OPT_KIND_CHOICE || o->kind == OPT_KIND_LIST;
}

/* How the option was written, for messages: "--tree" or "-C". */
static void opt_name(struct strbuf *out, const struct opt *o, bool as_long)
{
	if (as_long && o->long_name)
		strbuf_addf(out, "--%s", o->long_name);
	else
		strbuf_addf(out, "-%c", o->short_name);
}

static int bad_choice(const struct opt *o, const char *name, const char *v)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	int ret;

	while (o->choices[n])
		n++;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
			    o->choices[i]);
	ret = error_code(WW_EUSAGE, "%s wants %s, not '%s'", name, sb.buf, v);
	strbuf_release(&sb);
	return ret;
}

static int set_value(const struct opt *o, const char *name, const char *v)
{
	char *end;
	unsigned long n;

	switch (o->kind) {
	case OPT_KIND_FLAG:
		*(bool *)o->value = true;
		return 0;
	case OPT_KIND_BIT:
		*(unsigned *)o->value |= o->bit;
		return 0;
	case OPT_KIND_STRING:
		*(const char **)o->value = v;
		return 0;
	case OPT_KIND_LIST:
		strvec_push(o->value, v);
		return 0;
	case OPT_KIND_ULONG:
		errno = 0;
		n = strtoul(v, &end, 10);
		if (!*v || *end || errno || n < 1 || *v == '-')
			return error_code(WW_EUSAGE, "%s: '%s' is not a positive number",
					  name, v);
		*(unsigned long *)o->value = n;
		return 0;
	case OPT_KIND_CHOICE:
		for (int i = 0; o->choices[i]; i++)
			if (!strcmp(o->choices[i], v)) {
				*(int *)o->value = i;
				return 0;
			}
		return bad_choice(o, name, v);
	case OPT_KIND_END:
		break;
	}
	BUG("option kind %d", (int)o->kind);
}

/*
 * One option at argv[*i]: `o` as found, `inline_v` the value written in
 * the same word (after '=' or the short letter), or NULL.
 */
static int take(const struct opt *o, bool as_long, const char *inline_v,
		int argc, const char **argv, int *i)
{
	struct strbuf name = STRBUF_INIT;
	int ret;

	opt_name(&name, o, as_long);
	if (!takes_value(o)) {
		ret = inline_v ? error_code(WW_EUSAGE, "%s takes no value", name.buf)
			       : set_value(o, name.buf, NULL);
	} else if (inline_v) {
		ret = set_value(o, name.buf, inline_v);
	} else if (*i + 1 < argc) {
		ret = set_value(o, name.buf, argv[++*i]);
	} else {
		ret = error_code(WW_EUSAGE, "%s needs %s", name.buf,
				 o->argh ? o->argh : "a value");
	}
	strbuf_release(&name);
	return ret;
}

static int parse_long(const struct opt *opts, int argc, const char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt *o = find_long(opts, arg, len);

	if (!o)
		return error_code(WW_EUSAGE, "unknown option '%s'", argv[*i]);
	return take(o, true, eq ? eq + 1 : NULL, argc, argv, i);
}

/* "-q", "-xVALUE", "-x VALUE"; flags do not bundle ("-qv" is unknown). */
static int parse_short(const struct opt *opts, int argc, const char **argv, int *i)
{
	const char *arg = argv[*i];
	const struct opt *o = find_short(opts, arg[1]);

	if (!o || (arg[2] && !takes_value(o)))
		return error_code(WW_EUSAGE, "unknown option '%s'", arg);
	return take(o, false, arg[2] ? arg + 2 : NULL, argc, argv, i);
}

int opt_parse(struct strvec *rest, int argc, const char **argv,
	      const struct opt *opts, unsigned flags)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int ret;

		if (arg[0] != '-' || !arg[1]) {
			if (flags & OPT_STOP_AT_ARG)
				break;
			strvec_push(rest, arg);
			continue;
		}
		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			return OPT_HELP;
		ret = arg[1] == '-' ? parse_long(opts, argc, argv, &i)
				    : parse_short(opts, argc, argv, &i);
		if (ret < 0)
			return ret;
	}
	for (; i < argc; i++)
		strvec_push(rest, argv[i]);
	return 0;
}

int opt_ids(const struct strvec *args)
{
	for (size_t i = 0; i < args->nr; i++) {
		const char *a = args->v[i];

		if (!*a || strspn(a, "0123456789") != strlen(a))
			return error_code(WW_EUSAGE, "unknown argument '%s'", a);
	}
	return 0;
}
