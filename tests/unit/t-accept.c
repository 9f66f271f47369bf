/*
 * Unit tests for bot/check/accept.c: which Warnwatch-accepted: lines of a
 * commit message are trailers, how FILE:FUNCTION and the reason are read,
 * and what check_series() does with them: the named calls accepted (kept,
 * lowered to info, counted apart), everything else stale and a warning.
 */
#include "accept.h"
#include "check.h"
#include "series.h"
#include "tap.h"

static struct ruleset rs = RULESET_INIT;

/* The trailers of `msg` as "in|out FILE FUNCTION [REASON]" lines. */
static void parse(struct strbuf *out, const char *msg)
{
	struct accept_list l = ACCEPT_LIST_INIT;

	strbuf_reset(out);
	accept_parse(&l, msg, strlen(msg));
	for (size_t i = 0; i < l.nr; i++)
		strbuf_addf(out, "%s %s %s [%s]\n", l.v[i].in_block ? "in" : "out",
			    l.v[i].file, l.v[i].function, l.v[i].reason);
	accept_list_release(&l);
}

static void test_parse(void)
{
	struct strbuf s = STRBUF_INIT;

	parse(&s, "frob: check x\n\nWhy.\n\nSigned-off-by: A <a@b>\n"
		  "warnwatch-ACCEPTED : fs/a.c:f() the block was\n"
		  "  verified by the caller\n");
	is_str(s.buf, "in fs/a.c f [the block was verified by the caller]\n",
	       "a trailer: key in any case, blank before the colon, \"()\" dropped, "
	       "continuation joined");
	parse(&s, "Subject\n\nWarnwatch-accepted: fs/a.c:f in the prose\n\n"
		  "Signed-off-by: A <a@b>\n");
	is_str(s.buf, "out fs/a.c f [in the prose]\n",
	       "outside the last paragraph: not a trailer (kept, marked out)");
	parse(&s, "Explain.\n\nSigned-off-by: A <a@b>\nWarnwatch-accepted: fs/a.c:f ok\n"
		  "---\n fs/a.c | 1 +\n\nWarnwatch-accepted: fs/b.c:g below the cut\n"
		  "diff --git a/fs/a.c b/fs/a.c\n+Warnwatch-accepted: fs/c.c:h in the diff\n");
	is_str(s.buf, "in fs/a.c f [ok]\n",
	       "the message ends at '---': nothing below it is a trailer");
	parse(&s, "x\n\nWarnwatch-accepted: nofunction reason\nWarnwatch-accepted: fs/a.c:f\n"
		  "Warnwatch-accepted:\n\n\n");
	is_str(s.buf, "in   [nofunction reason]\nin fs/a.c f []\nin   []\n",
	       "no FILE:FUNCTION, no reason, nothing: read as such (trailing blank lines aside)");
	parse(&s, "Index: a.c\nWarnwatch-accepted: a.c:f x\n");
	is_str(s.buf, "", "a quilt patch starting with its diff has no message");
	strbuf_release(&s);
}

static const char two_patches[] =
	"From 1 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@b>\nSubject: [PATCH 1/2] mm: check x\nMessage-ID: <1@b>\n\n"
	"Corrupt page tables cannot be recovered here.\n\n"
	"Signed-off-by: A <a@b>\n"
	"Warnwatch-accepted: mm/a.c:f corrupt page tables: nothing can go on\n"
	"Warnwatch-accepted: mm/a.c:gone renamed in v2\n"
	"---\n"
	"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	"@@ -1,4 +1,6 @@\n int f(int x)\n {\n+\tBUG_ON(x < 0);\n+\tBUG_ON(x > 9);\n \treturn x;\n }\n"
	"@@ -10,3 +12,4 @@\n int g(int y)\n {\n+\tBUG_ON(y < 0);\n \treturn y;\n"
	"-- \n2.39.2\n\n"
	"From 2 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@b>\nSubject: [PATCH 2/2] mm: warn on y\nMessage-ID: <2@b>\n\n"
	"Signed-off-by: A <a@b>\n"
	"Warnwatch-accepted: mm/a.c:f this patch adds nothing in f\n"
	"---\n"
	"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	"@@ -20,3 +20,4 @@\n int h(int z)\n {\n+\tWARN_ON(z);\n \treturn z;\n"
	"-- \n2.39.2\n\n";

static void test_apply(void)
{
	struct series s = SERIES_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts o = CHECK_OPTS_INIT;
	struct strbuf got = STRBUF_INIT;

	o.rules = &rs;
	if (series_read(&s, two_patches, strlen(two_patches), "x.mbox") < 0 ||
	    check_series(&r, &s, &o) < 0) {
		printf("# %s\n", error_last());
		ok(0, "two patches: checked");
		goto out;
	}
	for (size_t i = 0; i < r.nr; i++) {
		const struct finding *f = &r.v[i];

		strbuf_addf(&got, "%d %s:%d %s %s%s%s\n", f->patch, f->function, f->line,
			    f->rule->macro, severity_name(f->severity),
			    f->accepted ? " accepted " : "",
			    f->accepted ? severity_name(f->accepted_severity) : "");
	}
	is_str(got.buf,
	       "1 f:3 BUG_ON info accepted error\n"
	       "1 f:4 BUG_ON info accepted error\n"
	       "1 g:14 BUG_ON error\n"
	       "2 h:22 WARN_ON warning\n",
	       "the trailer accepts every call its patch adds in mm/a.c:f, no other");
	is_str(r.nr && r.v[0].accepted ? r.v[0].accepted : "",
	       "corrupt page tables: nothing can go on", "the reason is kept");
	is(r.accepted, 2, "two accepted calls, counted apart");
	is(r.by_severity[SEV_ERROR], 1, "an accepted call is no error");
	is(r.worst, SEV_ERROR, "the unaccepted BUG_ON in g() still fails the series");
	strbuf_reset(&got);
	for (size_t i = 0; i < r.nr_stale; i++)
		strbuf_addf(&got, "%d %s:%s %s\n", r.stale[i].patch, r.stale[i].file,
			    r.stale[i].function, r.stale[i].why);
	is_str(got.buf,
	       "1 mm/a.c:gone names no call this patch adds\n"
	       "2 mm/a.c:f names no call this patch adds\n",
	       "a trailer naming no call of its own patch is stale (another patch's call "
	       "does not count)");
	is(r.by_severity[SEV_WARNING], 3, "a stale trailer is a warning (with patch 2's WARN_ON)");
out:
	strbuf_release(&got);
	check_result_clear(&r);
	series_release(&s);
}

/* A bare diff names no patch: nothing is accepted, nothing is stale. */
static void test_bare_diff(void)
{
	static const char diff[] =
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1,3 +1,4 @@\n int f(int x)\n {\n+\tBUG_ON(x);\n \treturn x;\n";
	struct series s = SERIES_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts o = CHECK_OPTS_INIT;

	o.rules = &rs;
	series_from_diff(&s, diff, strlen(diff), "x.diff");
	ok(check_series(&r, &s, &o) == 0 && r.nr == 1 && !r.accepted && !r.nr_stale &&
	   r.worst == SEV_ERROR, "a bare diff: the BUG_ON is an error, no trailer read");
	check_result_clear(&r);
	series_release(&s);
}

int main(void)
{
	const char *top = getenv("WW_TOP");
	struct strbuf dir = STRBUF_INIT;

	strbuf_addf(&dir, "%s/rules", top ? top : ".");
	if (rules_load(&rs, dir.buf) < 0) {
		printf("Bail out! cannot load %s: %s\n", dir.buf, error_last());
		return 1;
	}
	test_parse();
	test_apply();
	test_bare_diff();
	ruleset_release(&rs);
	strbuf_release(&dir);
	return done_testing();
}
