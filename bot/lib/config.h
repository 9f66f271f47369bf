/*
 * warnwatch's configuration file: one INI-like format for every command.
 *
 *   # comment (also "; comment"), on a line of its own
 *   [section]
 *   key = value            # no inline comments: '#' is data in a value
 *   key = "  quoted  "     # keeps spaces; \" and \\ are the only escapes
 *
 * Section and key names are lower-case letters, digits, '-', '_' and '.'.
 * A key given twice: the last one wins (so a command-line override can be
 * appended with config_set).  Relative paths in values are relative to
 * the file's directory; "~/" is the user's home.  docs/config.md lists
 * every key; settings.c checks every section and key against its one
 * table (config_check_sections(), config_check()): a typo fails the load.
 */
#ifndef WW_CONFIG_H
#define WW_CONFIG_H

#include "strbuf.h"

#define CONFIG_MAX_BYTES (1u << 20)

struct config_entry {
	char *section;
	char *key;
	char *value;
	int line;		/* 0 for values set by config_set */
};

/* A [section] header as read, so that an empty [typo] is seen too. */
struct config_section {
	char *name;
	int line;
};

struct config {
	struct config_entry *v;
	size_t nr, alloc;
	struct config_section *sections;	/* every header, in order */
	size_t nr_sections, alloc_sections;
	char *path;		/* the file read (or the name parsed), or NULL */
};

#define CONFIG_INIT { 0 }

/* The file to read when none is given: $WARNWATCH_CONFIG, else
 * $XDG_CONFIG_HOME/warnwatch/warnwatch.conf (~/.config/...).  Caller frees. */
char *config_default_path(void);

/*
 * Read `path` into `out`.  A missing file is WW_ENOTFOUND; a syntax error
 * WW_EINPUT naming "path:line".  `out` may already hold entries: the new
 * ones are added after them.
 */
int config_load(struct config *out, const char *path);
int config_parse(struct config *out, const char *buf, size_t len,
		 const char *name);

/* Add (override) one value, e.g. from the command line. */
void config_set(struct config *c, const char *section, const char *key,
		const char *value);

/* The value of section.key, or NULL when unset (borrowed). */
const char *config_get(const struct config *c, const char *section,
		       const char *key);
/* yes/no/true/false/on/off/1/0; unset gives `def`; junk is WW_EINPUT. */
int config_get_bool(bool *out, const struct config *c, const char *section,
		    const char *key, bool def);
/* A decimal number in [min, max]; unset gives `def`. */
int config_get_uint(unsigned long *out, const struct config *c,
		    const char *section, const char *key, unsigned long def,
		    unsigned long min, unsigned long max);
/* One of `choices` (NULL-terminated); *out is its index; unset gives `def`. */
int config_get_enum(int *out, const struct config *c, const char *section,
		    const char *key, const char *const *choices, int def);
/* A path: "~/" expanded, relative to the config file's directory.  Unset:
 * WW_ENOTFOUND and `out` left empty. */
int config_get_path(struct strbuf *out, const struct config *c,
		    const char *section, const char *key);

/* Every key of `section` must be in `known` (NULL-terminated), else
 * WW_EINPUT "path:line: unknown key 'section.key'". */
int config_check(const struct config *c, const char *section,
		 const char *const *known);

/* Every section (each header and each entry's) must be accepted by
 * `known`, else WW_EINPUT "path:line: unknown section '[name]'". */
int config_check_sections(const struct config *c,
			  bool (*known)(const char *section));

void config_release(struct config *c);

#endif
