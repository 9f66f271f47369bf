/*
 * Unit tests for bot/history/backfill.c on a v2 epoch written here with libgit2
 * (one commit per mail, the blob "m", as public-inbox writes them):
 * what each mail is, series grouping with deep threading (patch 3
 * answers patch 2 answers patch 1), a resent version (the later counts),
 * a conversion between versions, incremental reads, and the JSON shape.
 */
#include "backfill.h"
#include "gitlib.h"
#include "strbuf.h"
#include "tap.h"
#include "pi.h"

#include <git2.h>
#include <unistd.h>

static git_repository *repo;

static void mail(const char *mid, const char *subject, const char *date, const char *refs,
		 const char *diff)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "From: Jane <jane@example.org>\nSubject: %s\nDate: %s\n"
		    "Message-ID: <%s>\n", subject, date, mid);
	if (refs)
		strbuf_addf(&sb, "In-Reply-To: <%s>\nReferences: <%s>\n", refs, refs);
	strbuf_addf(&sb, "\nText.\n---\n%s-- \n2.47.0\n", diff ? diff : "");
	pi_add_mail(repo, sb.buf);
	strbuf_release(&sb);
}

#define HUNK(file, func, body) \
	"diff --git a/" file " b/" file "\n--- a/" file "\n+++ b/" file "\n" \
	"@@ -1,2 +1,3 @@ " func "\n a;\n" body "\n b;\n"

static const json_t *cycle(const json_t *list, const char *release)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(list, "cycles"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "release")), release))
			return c;
	return NULL;
}

static long num(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(o, a);

	return json_integer_value(b ? json_object_get(v, b) : v);
}

int main(void)
{
	char dir[] = "/tmp/t-backfill.XXXXXX";
	struct strbuf path = STRBUF_INIT, rules = STRBUF_INIT, rel = STRBUF_INIT;
	struct ruleset rs = RULESET_INIT;
	struct cycles cy = CYCLES_INIT;
	struct store st = STORE_INIT;
	struct backfill_opts opts = BACKFILL_OPTS_INIT;
	struct backfill_epoch_stats s1 = { 0 }, s2 = { 0 };
	const char *top = getenv("WW_TOP");
	json_t *r = NULL, *l;
	const json_t *c;

	if (!mkdtemp(dir))
		return 1;
	gitlib_init();
	strbuf_addf(&rules, "%s/rules", top ? top : ".");
	strbuf_addf(&rel, "%s/kernel-ci/releases.json", top ? top : ".");
	ok(!rules_load(&rs, rules.buf) && !cycles_load(&cy, rel.buf), "rules and releases load");
	strbuf_addf(&path, "%s/inbox/git/0.git", dir);
	ok(!git_repository_init(&repo, path.buf, 1), "an epoch repository");

	/* v1: three patches, each answering the one before (deep threading) */
	mail("a1@x", "[PATCH 1/3] mm: a", "Tue, 1 Oct 2024 10:00:00 +0000", NULL,
	     HUNK("mm/a.c", "void f(void)", "+\tBUG_ON(x);"));
	mail("a2@x", "[PATCH 2/3] mm: b", "Tue, 1 Oct 2024 10:00:01 +0000", "a1@x",
	     HUNK("mm/b.c", "void g(void)", "+\tWARN_ON(y);"));
	mail("a3@x", "[PATCH 3/3] mm: c", "Tue, 1 Oct 2024 10:00:02 +0000", "a2@x",
	     HUNK("mm/c.c", "void h(void)", "+\tpanic(\"z\");"));
	/* v2, twice (a resend): the later counts; BUG_ON became WARN_ON_ONCE */
	mail("b1@x", "[PATCH v2 1/1] mm: a", "Tue, 8 Oct 2024 10:00:00 +0000", NULL,
	     HUNK("mm/a.c", "void f(void)", "+\tWARN_ON(x);"));
	mail("c1@x", "[PATCH v2 RESEND] mm: a", "Wed, 9 Oct 2024 10:00:00 +0000", NULL,
	     HUNK("mm/a.c", "void f(void)", "+\tWARN_ON_ONCE(x);"));
	mail("r@x", "Re: [PATCH v2 1/1] mm: a", "Wed, 9 Oct 2024 11:00:00 +0000", "b1@x",
	     "> +\tBUG_ON(x);\n");

	opts.rules = &rs;
	opts.list = "t";
	ok(!store_open(&st, dir), "state opens");
	ok(!backfill_inbox(&s1, &st, path.buf, &opts), "first read: %s", error_last());
	is(s1.commits, 6, "6 commits read");
	is(s1.patches, 5, "5 patch mails (the reply is none)");
	ok(!backfill_inbox(&s2, &st, path.buf, &opts), "second read");
	is(s2.commits, 0, "incremental: nothing read again");

	/* Issue 38: serve reads its own epochs (a directory of N.git) a
	 * batch per poll, going on where the last batch stopped. */
	{
		struct store st2 = STORE_INIT;
		struct backfill_epoch_stats b[3] = { { 0 } };
		struct strbuf d2 = STRBUF_INIT, epochs = STRBUF_INIT;

		strbuf_addf(&d2, "%s/serve-state", dir);
		strbuf_addf(&epochs, "%s/inbox/git", dir);
		opts.max_mails = 4;
		ok(!store_open(&st2, d2.buf), "38: a second state");
		for (int k = 0; k < 3; k++)
			ok(!backfill_inbox(&b[k], &st2, epochs.buf, &opts), "38: batch %d: %s",
			   k + 1, error_last());
		ok(b[0].mails == 4 && b[0].more, "38: the first batch stops at 4 mails, more to come");
		ok(b[1].mails == 2 && !b[1].more, "38: the second reads the other 2 and is done");
		ok(b[2].mails == 0 && b[2].commits == 0, "38: the third reads nothing");
		opts.max_mails = 0;
		for (int k = 0; k < 3; k++)
			backfill_epoch_stats_release(&b[k]);
		store_close(&st2);
		strbuf_addstr(&d2, "/warnwatch.db");
		unlink(d2.buf);
		strbuf_release(&d2);
		strbuf_release(&epochs);
	}

	ok(!backfill_report(&r, &st, &cy, NULL, BACKFILL_REPORT_MAILS), "report: %s", error_last());
	l = json_array_get(json_object_get(r, "lists"), 0);
	is(num(l, "mails", NULL), 6, "6 mails");
	is(num(l, "patch_mails", NULL), 5, "5 patch mails");
	c = cycle(l, "v6.13");
	ok(c != NULL, "October 2024: cycle v6.13");
	/* series "mm: a": v1 = a1..a3 (deep threading), v2 resent: c1 counts */
	is(num(c, "calls_added", "warn-once"), 1, "the resent v2 counts (WARN_ON_ONCE)");
	is(num(c, "calls_added", "warn"), 0, "... not the first v2 (WARN_ON)");
	is(num(c, "calls_added", "bug"), 0, "... nor v1's BUG_ON");
	is(num(c, "calls_added", "panic"), 0, "v1's patch 3, threaded under patch 2, is v1's");
	is(num(c, "conversions", NULL), 1, "BUG_ON in v1, WARN_ON_ONCE in v2: one conversion");
	is(num(c, "review_conversions", NULL), 1, "... made between versions");
	is(json_array_size(json_object_get(json_object_get(c, "mails"), "conversions")), 1,
	   "the mail behind it is listed");
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(
		json_object_get(c, "mails"), "conversions"), 0), "message_id")), "c1@x",
	       "... the newer version's patch");
	is(num(json_object_get(r, "totals"), "calls_added", "BUG_ON"), 1, "totals: every version as posted");
	is(num(json_object_get(r, "totals"), "calls_added", "WARN_ON"), 2, "totals: WARN_ON in a2 and b1");
	json_decref(r);

	git_repository_free(repo);
	store_close(&st);
	ruleset_release(&rs);
	cycles_release(&cy);
	strbuf_release(&path);
	strbuf_release(&rules);
	strbuf_release(&rel);
	{
		struct strbuf rm = STRBUF_INIT;

		strbuf_addf(&rm, "%s/warnwatch.db", dir);
		unlink(rm.buf);
		strbuf_release(&rm);
	}
	return done_testing();
}
