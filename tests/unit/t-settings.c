/*
 * Unit tests for settings.c's [ci] keys as `ci` and the service read
 * them: keep-logs (the run directories kept in the cache), its default,
 * and a bad value refused naming file:line.  The other sections' keys are
 * t-serve's.
 */
#include "settings.h"
#include "ci.h"
#include "tap.h"

static int load(struct settings *c, const char *text)
{
	settings_release(c);
	*c = (struct settings)SETTINGS_INIT;
	if (config_parse(&c->config, text, strlen(text), "test.conf"))
		return -100;
	return settings_apply(c, 0);
}

static void test_keep_logs(void)
{
	struct settings c = SETTINGS_INIT;

	is(load(&c, "[ci]\nrepo = /srv/linux\n"), 0, "[ci] without keep-logs");
	is(c.ci.keep_logs, CI_KEEP_LOGS, "  keeps CI_KEEP_LOGS run directories");
	is(load(&c, "[ci]\nkeep-bases = 2\nkeep-logs = 5\n"), 0,
	   "[ci] keep-logs is a known key");
	is(c.ci.keep_logs, 5, "  typed: 5");
	is(c.ci.keep_bases, 2, "  beside keep-bases");
	is(load(&c, "[ci]\nkeep-logs = 1\n"), 0, "keep-logs = 1: this run's alone");
	is(c.ci.keep_logs, 1, "  typed: 1");

	is(load(&c, "[ci]\nrepo = /srv/linux\nkeep-logs = many\n"), WW_EINPUT,
	   "keep-logs = many is refused");
	ok(starts_with(error_last(), "test.conf:3: ") &&
	   strstr(error_last(), "ci.keep-logs") != NULL,
	   "  naming file:line and the key: %s", error_last());
	is(load(&c, "[ci]\nkeep-logs = 0\n"), WW_EINPUT,
	   "keep-logs = 0 is refused, not read as the default");
	ok(starts_with(error_last(), "test.conf:2: ") &&
	   strstr(error_last(), "from 1 to") != NULL,
	   "  saying what it takes: %s", error_last());
	is(load(&c, "[ci]\nkeep-logs = -3\n"), WW_EINPUT, "a negative keep-logs too");
	is(load(&c, "[ci]\nkeep-log = 3\n"), WW_EINPUT, "a typo of the key: %s",
	   error_last());
	settings_release(&c);
}

int main(void)
{
	test_keep_logs();
	return done_testing();
}
