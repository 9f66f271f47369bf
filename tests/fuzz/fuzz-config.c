/*
 * libFuzzer harness for the configuration file parser: config_parse() on
 * arbitrary bytes, then every getter on every key it produced.  Keys and
 * sections must keep the documented character set.
 */
#include "config.h"
#include "fuzz.h"

static bool name_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const choices[] = { "both", "author", "list", NULL };
	static const char *const known[] = { "from", "to", NULL };
	struct config c = CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (config_parse(&c, (const char *)data, size, "fuzz.conf") >= 0) {
		for (size_t i = 0; i < c.nr; i++) {
			const struct config_entry *e = &c.v[i];
			unsigned long n;
			bool b;
			int k;

			FUZZ_ASSERT(name_ok(e->section) && name_ok(e->key),
				    "entry %zu: section '%s' key '%s'", i,
				    e->section, e->key);
			FUZZ_ASSERT(config_get(&c, e->section, e->key),
				    "%s.%s not found", e->section, e->key);
			(void)config_get_bool(&b, &c, e->section, e->key, false);
			(void)config_get_uint(&n, &c, e->section, e->key, 1, 0, 1000);
			(void)config_get_enum(&k, &c, e->section, e->key, choices, 0);
			strbuf_setlen(&sb, 0);
			(void)config_get_path(&sb, &c, e->section, e->key);
			(void)config_check(&c, e->section, known);
		}
	}
	config_set(&c, "smtp", "server", "localhost");
	config_release(&c);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
