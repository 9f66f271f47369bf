/*
 * Unit tests for bot/lib/config.c: the configuration file format.
 */
#include "config.h"
#include "env.h"
#include "tap.h"

#include <unistd.h>

static int parse(struct config *c, const char *text)
{
	return config_parse(c, text, strlen(text), "test.conf");
}

static void bad(const char *text, const char *msg, const char *name)
{
	struct config c = CONFIG_INIT;

	is(parse(&c, text), WW_EINPUT, "rejects %s", name);
	ok(strstr(error_last(), msg) != NULL, "%s: '%s'", name, error_last());
	config_release(&c);
}

int main(void)
{
	static const char *const policies[] = { "author", "list", "both", NULL };
	static const char *const known[] = { "name", "email", NULL };
	struct config c = CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;
	unsigned long n;
	bool b;
	int e;
	char path[] = "/tmp/t-config.XXXXXX";
	int fd;

	is(parse(&c,
		 "# warnwatch\n"
		 "; another comment\n"
		 "[identity]\n"
		 "name = warnwatch bot\n"
		 "email=bot@example.org\n"
		 "\n"
		 "  [smtp]  \n"
		 "url = smtps://mail.example.org:465 # not a comment\n"
		 "starttls = yes\n"
		 "timeout = 30\n"
		 "password-file = secret\n"
		 "[review]\n"
		 "reply-to = list\n"
		 "signature = \"  two spaces \\\"quoted\\\"  \"\n"
		 "templates = ~/tpl\n"
		 "[identity]\n"
		 "name = later wins\n"), 0, "parses a full file");
	is_str(config_get(&c, "identity", "name"), "later wins", "the last value wins");
	is_str(config_get(&c, "identity", "email"), "bot@example.org", "no spaces needed");
	is_str(config_get(&c, "smtp", "url"), "smtps://mail.example.org:465 # not a comment",
	       "'#' inside a value is data");
	is_str(config_get(&c, "review", "signature"), "  two spaces \"quoted\"  ",
	       "quoted values keep spaces and unescape");
	ok(config_get(&c, "smtp", "nope") == NULL, "unset is NULL");
	ok(config_get(&c, "nope", "url") == NULL, "keys belong to their section");

	is(config_get_bool(&b, &c, "smtp", "starttls", false), 0, "bool parses");
	ok(b, "bool is true");
	is(config_get_bool(&b, &c, "smtp", "unset", true), 0, "unset bool");
	ok(b, "unset bool takes the default");
	is(config_get_uint(&n, &c, "smtp", "timeout", 60, 1, 3600), 0, "number parses");
	is(n, 30, "number value");
	is(config_get_uint(&n, &c, "smtp", "timeout", 60, 100, 3600), WW_EINPUT,
	   "number out of range");
	ok(strstr(error_last(), "a number from 100 to 3600, not '30'") != NULL,
	   "number error says the range: %s", error_last());
	is(config_get_enum(&e, &c, "review", "reply-to", policies, 2), 0, "enum parses");
	is(e, 1, "enum index");
	is(config_get_bool(&b, &c, "review", "reply-to", false), WW_EINPUT,
	   "a word is not a bool");
	ok(strstr(error_last(), "'review.reply-to' must be yes or no, not 'list'") != NULL,
	   "bool error says what it wants: %s", error_last());
	config_set(&c, "review", "reply-to", "everyone");
	is(config_get_enum(&e, &c, "review", "reply-to", policies, 2), WW_EINPUT,
	   "config_set overrides, and bad enums are errors");
	ok(strstr(error_last(), "one of 'author', 'list', 'both'") != NULL, "%s", error_last());

	setenv("HOME", "/home/me", 1);
	env_reload();
	is(config_get_path(&sb, &c, "review", "templates"), 0, "path");
	is_str(sb.buf, "/home/me/tpl", "~/ expands to $HOME");
	is(config_get_path(&sb, &c, "review", "nope"), WW_ENOTFOUND, "unset path");

	is(config_check(&c, "identity", known), 0, "known keys pass the check");
	is(config_check(&c, "smtp", known), WW_EINPUT, "unknown keys fail the check");
	ok(strstr(error_last(), "unknown key 'smtp.url'") != NULL, "%s", error_last());
	config_release(&c);

	/* From a file: relative paths are relative to it. */
	fd = mkstemp(path);
	ok(fd >= 0, "temp file");
	if (fd >= 0) {
		const char *text = "[smtp]\npassword-file = pw\n";

		if (write(fd, text, strlen(text)) < 0)
			ok(0, "write");
		close(fd);
		is(config_load(&c, path), 0, "loads a file");
		config_get_path(&sb, &c, "smtp", "password-file");
		is_str(sb.buf, "/tmp/pw", "relative path is relative to the file");
		unlink(path);
		config_release(&c);
	}
	is(config_load(&c, "/nonexistent/warnwatch.conf"), WW_ENOTFOUND, "missing file");

	bad("key = v\n", "test.conf:1: key outside a [section]", "a key before any section");
	bad("[s]\n\nnovalue\n", "test.conf:3: expected 'key = value'", "a line without '='");
	bad("[S p]\n", "bad section name", "a bad section name");
	bad("[s\n", "bad section header", "an unclosed section header");
	bad("[s]\nKey Name = 1\n", "bad key name", "a bad key name");
	bad("[s]\nk = \"open\n", "bad quoting", "an unterminated quote");
	bad("[s]\nk = \"a\\nb\"\n", "bad quoting", "an unknown escape");

	/* A UTF-8 byte order mark (Notepad writes one) opens the file, and
	 * only there: anywhere else it is a stray character. */
	is(parse(&c, "\xef\xbb\xbf[identity]\nname = bom\n"), 0,
	   "a file that starts with a UTF-8 BOM parses: %s", error_last());
	is_str(config_get(&c, "identity", "name"), "bom", "  and its first section is read");
	config_release(&c);
	is(parse(&c, "\xef\xbb\xbf# comment first\n[s]\nk = v\n"), 0,
	   "a BOM before a comment");
	is_str(config_get(&c, "s", "k"), "v", "  the key after it is read");
	config_release(&c);
	bad("[s]\n\xef\xbb\xbfk = v\n", "test.conf:2: bad key name", "a BOM past the start");

	setenv("WARNWATCH_CONFIG", "/etc/ww.conf", 1);
	env_reload();
	{
		char *p = config_default_path();

		is_str(p, "/etc/ww.conf", "WARNWATCH_CONFIG names the default file");
		free(p);
	}
	unsetenv("WARNWATCH_CONFIG");
	env_reload();
	setenv("XDG_CONFIG_HOME", "/xdg", 1);
	env_reload();
	{
		char *p = config_default_path();

		is_str(p, "/xdg/warnwatch/warnwatch.conf", "XDG_CONFIG_HOME is honoured");
		free(p);
	}
	strbuf_release(&sb);
	return done_testing();
}
