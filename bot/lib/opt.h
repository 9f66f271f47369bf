/*
 * Command-line options, from a table (git's parse-options, much smaller).
 *
 * Every command describes its options as an array of struct opt ending in
 * OPT_END() and calls opt_parse() once; the non-option arguments come back
 * in order in a strvec.  The forms accepted are the same for every
 * command, so that users need not learn them per command:
 *
 *   --name VALUE, --name=VALUE, -x VALUE, -xVALUE   (options with a value)
 *   --name, -x                                      (flags)
 *   --                                              (the rest are arguments)
 *   -                                               (an argument: stdin)
 *
 * Options and arguments may be mixed unless OPT_STOP_AT_ARG is given (for
 * a command that passes what follows its first argument to something
 * else).  "-h" and "--help" are always known: opt_parse() returns
 * OPT_HELP and the command prints its usage text.
 */
#ifndef WW_OPT_H
#define WW_OPT_H

#include "strvec.h"

#include <stdbool.h>
#include <stdint.h>

enum opt_kind {
	OPT_KIND_END = 0,
	OPT_KIND_FLAG,		/* bool *: set to true */
	OPT_KIND_BIT,		/* unsigned *: |= bit */
	OPT_KIND_STRING,	/* const char **: the value (borrowed from argv) */
	OPT_KIND_ULONG,		/* unsigned long *: a decimal number >= 1 */
	OPT_KIND_CHOICE,	/* int *: index of the value in a NULL-ended list */
	OPT_KIND_LIST,		/* struct strvec *: each value, in order (repeatable) */
};

struct opt {
	enum opt_kind kind;
	char short_name;	/* 0: none */
	const char *long_name;	/* without "--"; NULL: none */
	void *value;
	const char *argh;	/* what the value is ("DIR"), for messages */
	unsigned bit;		/* OPT_KIND_BIT */
	const char *const *choices;	/* OPT_KIND_CHOICE */
};

#define OPT_FLAG(s, l, v) { OPT_KIND_FLAG, (s), (l), (v), NULL, 0, NULL }
#define OPT_BIT(s, l, v, b) { OPT_KIND_BIT, (s), (l), (v), NULL, (b), NULL }
#define OPT_STRING(s, l, v, a) { OPT_KIND_STRING, (s), (l), (v), (a), 0, NULL }
#define OPT_ULONG(s, l, v, a) { OPT_KIND_ULONG, (s), (l), (v), (a), 0, NULL }
#define OPT_CHOICE(s, l, v, c) { OPT_KIND_CHOICE, (s), (l), (v), NULL, 0, (c) }
#define OPT_LIST(s, l, v, a) { OPT_KIND_LIST, (s), (l), (v), (a), 0, NULL }
#define OPT_END() { OPT_KIND_END, 0, NULL, NULL, NULL, 0, NULL }

/* opt_parse() flags */
#define OPT_STOP_AT_ARG 1u	/* the first argument ends the options */

/* opt_parse() returns this (> 0) when -h or --help was given. */
#define OPT_HELP 1

/*
 * Parse argv[1..argc-1] against `opts`; the arguments that are not
 * options are appended to `rest`.  Returns 0, OPT_HELP, or WW_EUSAGE with
 * a message naming the option ("unknown option '--frob'", "--tree needs
 * DIR", "--format wants text, json or gcc, not 'xml'").
 */
int opt_parse(struct strvec *rest, int argc, const char **argv,
	      const struct opt *opts, unsigned flags);

/*
 * Every argument in `args` is a row number of the state (digits only):
 * 0, or WW_EUSAGE naming the first that is not ("unknown argument 'x'").
 * Commands that act on rows `status` lists (retry, lift) take them so.
 */
int opt_ids(const struct strvec *args);

#endif
