/*
 * Unit tests for opt.c: every form opt.h promises, and every error.
 */
#include "opt.h"
#include "tap.h"

static const char *const formats[] = { "text", "json", "gcc", NULL };

struct got {
	bool quiet, force;
	unsigned bits;
	const char *tree;
	unsigned long top;
	int format;
	struct strvec rest, list;
};

static int run(struct got *g, unsigned flags, ...)
{
	const char *argv[16] = { "cmd" };
	int argc = 1;
	va_list ap;
	const char *s;
	struct opt opts[] = {
		OPT_FLAG('q', "quiet", &g->quiet),
		OPT_FLAG(0, "force", &g->force),
		OPT_BIT(0, "no-regex", &g->bits, 4),
		OPT_STRING('C', "tree", &g->tree, "DIR"),
		OPT_ULONG(0, "top", &g->top, "N"),
		OPT_CHOICE(0, "format", &g->format, formats),
		OPT_LIST(0, "census", &g->list, "FILE"),
		OPT_END(),
	};

	strvec_clear(&g->rest);
	strvec_clear(&g->list);
	g->quiet = g->force = false;
	g->bits = 0;
	g->tree = NULL;
	g->top = 0;
	g->format = -1;
	va_start(ap, flags);
	while ((s = va_arg(ap, const char *)) && argc < 15)
		argv[argc++] = s;
	va_end(ap);
	error_clear();
	return opt_parse(&g->rest, argc, argv, opts, flags);
}

int main(void)
{
	struct got g = { .rest = STRVEC_INIT, .list = STRVEC_INIT };

	is(run(&g, 0, "a", "-q", "--tree", "T", "b", "--format=json", NULL), 0,
	   "options and arguments mixed");
	ok(g.quiet && !g.force, "-q sets its flag only");
	is_str(g.tree, "T", "--tree VALUE");
	is(g.format, 1, "--format=json is choice 1");
	is(g.rest.nr, 2, "two arguments");
	is_str(g.rest.v[0], "a", "first argument in order");
	is_str(g.rest.v[1], "b", "second argument in order");

	is(run(&g, 0, "--tree=X", "--top", "25", "--no-regex", "--force", NULL), 0,
	   "--name=VALUE, ulong, bit, flag");
	is_str(g.tree, "X", "--tree=VALUE");
	is(g.top, 25, "--top 25");
	is(g.bits, 4, "--no-regex sets its bit");
	ok(g.force, "--force");

	is(run(&g, 0, "-CDIR", NULL), 0, "-xVALUE");
	is_str(g.tree, "DIR", "short option with the value attached");
	is(run(&g, 0, "-C", "D2", NULL), 0, "-x VALUE");
	is_str(g.tree, "D2", "short option with the value after");

	is(run(&g, 0, "-", "--", "--tree", "-q", NULL), 0, "- and --");
	is(g.rest.nr, 3, "- is an argument; after -- all are");
	is_str(g.rest.v[1], "--tree", "an option-looking argument after --");
	ok(!g.quiet, "-q after -- is not the flag");

	is(run(&g, OPT_STOP_AT_ARG, "-q", "run", "-q", "--x", NULL), 0,
	   "OPT_STOP_AT_ARG");
	ok(g.quiet, "options before the first argument are parsed");
	is(g.rest.nr, 3, "the rest is passed on untouched");
	is_str(g.rest.v[2], "--x", "an unknown option after the argument is kept");

	is(run(&g, 0, "x", "--help", NULL), OPT_HELP, "--help anywhere");
	is(run(&g, 0, "-h", NULL), OPT_HELP, "-h");

	is(run(&g, 0, "--frob", NULL), WW_EUSAGE, "unknown long option");
	is_str(error_last(), "unknown option '--frob'", "named in the message");
	is(run(&g, 0, "-z", NULL), WW_EUSAGE, "unknown short option");
	is(run(&g, 0, "-qv", NULL), WW_EUSAGE, "flags do not bundle");
	is_str(error_last(), "unknown option '-qv'", "the whole word named");
	is(run(&g, 0, "--tree", NULL), WW_EUSAGE, "a value missing at the end");
	is_str(error_last(), "--tree needs DIR", "says what is missing");
	is(run(&g, 0, "--quiet=yes", NULL), WW_EUSAGE, "a flag with a value");
	is_str(error_last(), "--quiet takes no value", "says so");
	is(run(&g, 0, "--format", "xml", NULL), WW_EUSAGE, "not a choice");
	is_str(error_last(), "--format wants text, json or gcc, not 'xml'",
	       "lists the choices");
	is(run(&g, 0, "--top=0", NULL), WW_EUSAGE, "zero is not positive");
	is(run(&g, 0, "--top", "-3", NULL), WW_EUSAGE, "negative");
	is(run(&g, 0, "--top=12x", NULL), WW_EUSAGE, "trailing garbage");
	is_str(error_last(), "--top: '12x' is not a positive number", "named");
	is(run(&g, 0, "--top=99999999999999999999999", NULL), WW_EUSAGE, "overflow");
	is(run(&g, 0, "--tre", "x", NULL), WW_EUSAGE, "no abbreviations");

	is(run(&g, 0, "--census", "a.json", "x", "--census=b.json", NULL), 0, "a list option");
	is(g.list.nr, 2, "repeated, each value kept");
	is_str(g.list.v[1], "b.json", "in order");
	is(g.rest.nr, 1, "the argument between is an argument");

	strvec_clear(&g.rest);
	is(run(&g, 0, "12", "7", NULL), 0, "two row numbers");
	is(opt_ids(&g.rest), 0, "opt_ids: digits only are IDs");
	strvec_clear(&g.rest);
	is(run(&g, 0, "12", "7x", NULL), 0, "an ID with a letter");
	is(opt_ids(&g.rest), WW_EUSAGE, "opt_ids: refused");
	is_str(error_last(), "unknown argument '7x'", "the argument named");
	strvec_clear(&g.rest);
	is(run(&g, 0, "", NULL), 0, "an empty argument");
	is(opt_ids(&g.rest), WW_EUSAGE, "opt_ids: an empty ID is refused");

	strvec_clear(&g.rest);
	strvec_clear(&g.list);
	return done_testing();
}
