/*
 * Rule loading (stub: the real JSON loader follows shortly).
 */
#include "rules.h"

int rules_load(struct ruleset *out, const char *dir)
{
	return error_code(WW_EINPUT, "'%s': rules not implemented yet", dir);
}

int rules_load_buf(struct ruleset *out, const char *buf, size_t len,
		   const char *name)
{
	return error_code(WW_EINPUT, "'%s': rules not implemented yet", name);
}

const struct rule *rules_lookup(const struct ruleset *rs, const char *name,
				size_t len)
{
	return NULL;
}

int rules_add_wrapper(struct ruleset *rs, const char *macro,
		      const struct rule *like)
{
	return 0;
}

enum severity rules_severity(const struct ruleset *rs, const struct rule *r,
			     const char *path)
{
	return r->severity;
}

const char *rules_default_dir(void)
{
	return "rules";
}

const char *rule_class_name(enum rule_class c)
{
	return "bug";
}

const char *severity_name(enum severity s)
{
	return "error";
}

int rule_class_parse(enum rule_class *out, const char *name)
{
	return WW_EINPUT;
}

int severity_parse(enum severity *out, const char *name)
{
	return WW_EINPUT;
}

void ruleset_release(struct ruleset *rs)
{
}
