/*
 * Unit tests for bot/serve/feedback.c (issue 27): keyword lines that mute,
 * replies to warnwatch's mail that call a finding wrong, the added lines a
 * human quoted, and all of it recorded in the store once, surviving a
 * reopen.
 */
#include "feedback.h"
#include "tap.h"
#include "tmpdir.h"

#define BOT "warnwatch@example.org"

static const char thread[] =
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"To: Maint Ainer <maint@example.org>\n"
	"Cc: linux-foo@vger.kernel.org\n"
	"Subject: [PATCH] foo: check\n"
	"Message-ID: <p1@example.org>\n"
	"\n"
	"Check.\n"
	"---\n"
	"--- a/drivers/foo.c\n"
	"+++ b/drivers/foo.c\n"
	"@@ -10,3 +10,5 @@ static int foo_probe(struct device *dev)\n"
	" \tint ret;\n"
	"+\tBUG_ON(!dev);\n"
	"+\tWARN_ON(dev->id < 0);\n"
	" \tret = 0;\n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Maint Ainer <Maint@example.org>\n"
	"Subject: Re: [PATCH] foo: check\n"
	"Message-ID: <human@example.org>\n"
	"In-Reply-To: <p1@example.org>\n"
	"\n"
	"> +\tBUG_ON(!dev);\n"
	"\n"
	"No BUG_ON() here please, return -EINVAL.\n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: warnwatch <" BOT ">\n"
	"Subject: Re: [PATCH] foo: check\n"
	"Message-ID: <ww1@example.org>\n"
	"In-Reply-To: <p1@example.org>\n"
	"\n"
	"> +\tBUG_ON(!dev);\n"
	"> +\tWARN_ON(dev->id < 0);\n"
	"\n"
	"Both crash.\n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"Subject: Re: [PATCH] foo: check\n"
	"Message-ID: <wrong@example.org>\n"
	"In-Reply-To: <ww1@example.org>\n"
	"\n"
	"> > +\tWARN_ON(dev->id  <  0);\n"
	"\n"
	"This is a false positive: id is never negative.\n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"Subject: Re: [PATCH] foo: check\n"
	"Message-ID: <mute@example.org>\n"
	"In-Reply-To: <ww1@example.org>\n"
	"\n"
	"> warnwatch: mute\n"
	"  Warnwatch: Mute  \n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Some One <some@example.org>\n"
	"Subject: Re: [PATCH] foo: check\n"
	"Message-ID: <nowrong@example.org>\n"
	"In-Reply-To: <p1@example.org>\n"
	"\n"
	"Nothing wrong with this patch.\n"
	"warnwatch: mute-me\n";

static bool maintainers_only(void *data, const char *sender)
{
	(void)data;
	return !strcmp(sender, "maint@example.org");
}

int main(void)
{
	char dir[] = "/tmp/t-feedback.XXXXXX";
	struct mail_list ml = MAIL_LIST_INIT;
	struct feedback fb = FEEDBACK_INIT;
	struct store st = STORE_INIT;
	struct strbuf why = STRBUF_INIT, sb = STRBUF_INIT;
	time_t now = 1700000000;
	int n_wrong = 0, n_mute = 0, n_me = 0;

	if (!mkdtemp(dir) || mbox_parse(&ml, thread, strlen(thread))) {
		printf("Bail out! setup\n");
		return 1;
	}
	feedback_norm(&sb, "+\tWARN_ON(dev->id  <\t0);  ", 25);
	is_str(sb.buf, "WARN_ON(dev->id < 0);", "an added line without '+' and spacing");

	feedback_scan(&fb, &ml, BOT);
	for (size_t i = 0; i < fb.nr; i++) {
		const struct feedback_event *e = &fb.v[i];

		if (e->kind == FEEDBACK_CALLED_WRONG) {
			n_wrong++;
			is_str(e->message_id, "wrong@example.org", "wrong: the reply to warnwatch");
			is_str(e->about, "ww1@example.org", "  about warnwatch's mail");
			ok(e->quoted.nr == 1 && !strcmp(e->quoted.v[0], "WARN_ON(dev->id < 0);"),
			   "  the finding it quotes");
		} else if (e->kind == FEEDBACK_MUTE_THREAD) {
			n_mute++;
			is_str(e->sender, "jane@example.org", "mute: by the author (a line of "
			       "her own, not the quote)");
		} else {
			n_me++;
			is_str(e->sender, "some@example.org", "mute-me: by its sender");
		}
	}
	is(n_wrong, 1, "one 'wrong' (\"Nothing wrong\" to the patch is not one)");
	is(n_mute, 1, "one thread mute");
	is(n_me, 1, "one mute-me");
	ok(feedback_quoted(&fb.human_quoted, "BUG_ON(!dev);"),
	   "the maintainer quoted the BUG_ON() line");
	ok(!feedback_quoted(&fb.human_quoted, "WARN_ON(dev->id < 0);"),
	   "warnwatch's own quote and quotes of it are not a human's point");

	is(store_open(&st, dir), 0, "a state");
	is(store_schema_version(&st), 9, "schema 9");
	is(feedback_note_said(&st, "ww1@example.org", "drivers/foo.c:foo_probe:BUG_ON:!dev",
			      "new-bug", "BUG_ON(!dev);"), 1, "said: the BUG_ON()");
	feedback_note_said(&st, "ww1@example.org", "drivers/foo.c:foo_probe:WARN_ON:dev->id<0",
			   "new-warn", "WARN_ON(dev->id < 0);");
	is(feedback_record(&st, &fb, "p1@example.org", maintainers_only, NULL, now), 2,
	   "recorded: a mute-me and one finding called wrong (the author may not "
	   "mute a thread here)");
	is(feedback_called_wrong(&st, "drivers/foo.c:foo_probe:WARN_ON:dev->id<0"), 1,
	   "the quoted finding is called wrong");
	is(feedback_called_wrong(&st, "drivers/foo.c:foo_probe:BUG_ON:!dev"), 0,
	   "the one not quoted is not");
	is(feedback_muted(&why, &st, "p1@example.org", "jane@example.org"), 0,
	   "the thread is not muted");
	is(feedback_muted(&why, &st, "other@example.org", "Some@Example.org"), 1,
	   "the sender who said mute-me is, on any thread");
	ok(strstr(why.buf, "some@example.org muted") != NULL, "  %s", why.buf);
	store_close(&st);

	is(store_open(&st, dir), 0, "reopened");
	is(feedback_record(&st, &fb, "p1@example.org", maintainers_only, NULL, now), 0,
	   "the same thread read again records nothing new");
	free(fb.v[1].sender);
	fb.v[1].sender = xstrdup("maint@example.org");
	is(feedback_record(&st, &fb, "p1@example.org", maintainers_only, NULL, now), 1,
	   "a maintainer's mute is recorded");
	strbuf_reset(&why);
	is(feedback_muted(&why, &st, "p1@example.org", "jane@example.org"), 1,
	   "the thread is muted, after a restart too");
	store_close(&st);

	feedback_release(&fb);
	mail_list_clear(&ml);
	strbuf_release(&why);
	strbuf_release(&sb);
	tmp_remove(dir);
	return done_testing();
}
