/*
 * Unit tests for bot/check/hook.c's decision: hook_validate() refuses a
 * patch adding a call at error level (at warning level with --strict) and
 * lets everything else through.  The hook end to end, under a real
 * git send-email, is tests/e2e/t0040; this is the decision alone, fast
 * enough for the mutants make check runs (tests/mutants/ci.list).
 */
#include "hook.h"
#include "rules.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct ruleset rs = RULESET_INIT;
static char dir[] = "/tmp/ww-t-hook-XXXXXX";

/* A one-patch mail adding `line` to drivers/misc/h.c. */
static void write_mail(const char *path, const char *line)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fprintf(f, "From: Jane Developer <jane@example.org>\n"
		"Subject: [PATCH] h: check the device\n"
		"Date: Mon, 6 May 2024 10:00:00 +0000\n"
		"Message-ID: <h-1@example.org>\n\n"
		"Signed-off-by: Jane Developer <jane@example.org>\n---\n"
		"diff --git a/drivers/misc/h.c b/drivers/misc/h.c\n"
		"--- a/drivers/misc/h.c\n+++ b/drivers/misc/h.c\n"
		"@@ -10,3 +10,4 @@ static int h_probe(struct h_dev *dev)\n"
		" {\n+\t%s\n \treturn 0;\n }\n", line);
	fclose(f);
}

/* hook_validate() of a mail adding `line`, its messages discarded. */
static int validate(const char *line, unsigned flags)
{
	char path[64];
	FILE *err = fopen("/dev/null", "w");
	int ret;

	snprintf(path, sizeof(path), "%s/0001.patch", dir);
	write_mail(path, line);
	ret = hook_validate(err ? err : stderr, path, &rs, flags);
	if (err)
		fclose(err);
	unlink(path);
	return ret;
}

int main(void)
{
	const char *top = getenv("WW_TOP");
	char rules[4096];

	snprintf(rules, sizeof(rules), "%s/rules", top ? top : ".");
	if (rules_load(&rs, rules) < 0) {
		printf("Bail out! cannot load %s: %s\n", rules, error_last());
		return 1;
	}
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp failed\n");
		return 1;
	}
	is(validate("BUG_ON(!dev);", 0), 1, "a new BUG_ON() (error): refused");
	is(validate("WARN_ON(!dev);", 0), 0, "a new WARN_ON() (warning): sent");
	is(validate("WARN_ON(!dev);", HOOK_STRICT), 1, "  refused with --strict");
	is(validate("dev->ready = true;", HOOK_STRICT), 0,
	   "no call added: sent, --strict or not");
	rmdir(dir);
	ruleset_release(&rs);
	return done_testing();
}
