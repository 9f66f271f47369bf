/*
 * Unit tests for bot/serve/feedback.c (issues 27 and 40): keywords only
 * in a reply to warnwatch's own mail, free text only discussion, the
 * added lines a human quoted; and what is recorded: only from the people
 * a finding concerns, scoped, expiring, listed and lifted, a mute-me
 * pending until its address confirms it, all surviving a reopen.
 */
#include "feedback.h"
#include "tap.h"
#include "tmpdir.h"

#define BOT "warnwatch@example.org"
#define FP_BUG "drivers/foo.c:foo_probe:BUG_ON:!dev"
#define FP_WARN "drivers/foo.c:foo_probe:WARN_ON:dev->id<0"
#define DAY (24 * 3600)

#define MAIL(from, id, irt, body) \
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n" \
	"From: " from "\n" \
	"Subject: Re: [PATCH] foo: check\n" \
	"Message-ID: <" id ">\n" \
	"In-Reply-To: <" irt ">\n" \
	"\n" body "\n"

static const char patch[] =
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
	"\n";

static const char thread[] =
	MAIL("Maint Ainer <Maint@example.org>", "human@example.org", "p1@example.org",
	     "> +\tBUG_ON(!dev);\n\nNo BUG_ON() here please, return -EINVAL.\n")
	MAIL("warnwatch <" BOT ">", "ww1@example.org", "p1@example.org",
	     "> +\tBUG_ON(!dev);\n> +\tWARN_ON(dev->id < 0);\n\nBoth crash.\n")
	/* A stranger's NAK, and a stranger's keyword: neither counts. */
	MAIL("Mallory <mallory@evil.example>", "nak@example.org", "ww1@example.org",
	     "NAK.\n")
	MAIL("Mallory <mallory@evil.example>", "stranger@example.org", "ww1@example.org",
	     "warnwatch: wrong\n")
	/* The maintainer agrees with warnwatch: discussion, nothing more. */
	MAIL("Maint Ainer <maint@example.org>", "agree@example.org", "ww1@example.org",
	     "> > +\tBUG_ON(!dev);\n\nthis BUG_ON() is wrong\n")
	/* The author calls the WARN_ON() wrong, with the keyword. */
	MAIL("Jane Doe <jane@example.org>", "wrong@example.org", "ww1@example.org",
	     "> > +\tWARN_ON(dev->id  <  0);\n\nid is never negative.\n\nWarnwatch: Wrong\n")
	/* A keyword not in a reply to warnwatch's mail: nothing. */
	MAIL("Jane Doe <jane@example.org>", "notours@example.org", "p1@example.org",
	     "warnwatch: mute\n")
	/* The maintainer asks for the whole list: only an owner may. */
	MAIL("Maint Ainer <maint@example.org>", "listwide@example.org", "ww1@example.org",
	     "warnwatch: wrong list\n")
	MAIL("Jane Doe <jane@example.org>", "mute@example.org", "ww1@example.org",
	     "> warnwatch: mute\n  Warnwatch: Mute  \n")
	/* A mute-me with a forged From: (two of them), and a real-looking one. */
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"From: Mallory <mallory@evil.example>\n"
	"Subject: Re: [PATCH] foo: check\n"
	"Message-ID: <twofrom@example.org>\n"
	"In-Reply-To: <ww1@example.org>\n"
	"\n"
	"warnwatch: mute-me\n"
	"\n"
	MAIL("Jane Doe <jane@example.org>", "muteme@example.org", "ww1@example.org",
	     "warnwatch: mute-me\n");

/* Issue 38.4: a quote is not a point; the words under the call are. */
static const char quotes[] =
	/* The whole patch quoted, the design discussed below it. */
	MAIL("Maint Ainer <maint@example.org>", "whole@example.org", "p1@example.org",
	     "On Mon, Jane Doe wrote:\n> Check.\n> ---\n> --- a/drivers/foo.c\n"
	     "> +++ b/drivers/foo.c\n> @@ -10,3 +10,5 @@ static int foo_probe(struct device *dev)\n"
	     ">  \tint ret;\n> +\tBUG_ON(!dev);\n> +\tWARN_ON(dev->id < 0);\n"
	     ">  \tret = 0;\n>  \tret = foo_bus_probe(dev);\n>  \treturn ret;\n"
	     "> -- \n> 2.43.0\n>\n\nI would rather the probing moved to the bus layer "
	     "altogether; can we talk about that first?\n")
	/* A trailer under the call is no word about it. */
	MAIL("Kim <kim@example.org>", "trailer@example.org", "p1@example.org",
	     "> +\tBUG_ON(!dev);\n\nReviewed-by: Kim <kim@example.org>\n")
	/* A question right under the WARN_ON() (one quoted line after it). */
	MAIL("Kim <kim@example.org>", "asks@example.org", "p1@example.org",
	     "> +\tWARN_ON(dev->id < 0);\n>  \tret = 0;\n>\n\nCan the id really be negative?\n");

static bool ours(void *data, const char *id)
{
	const char *const *extra = data;

	return !strcmp(id, "ww1@example.org") || (*extra && !strcmp(id, *extra));
}

static int count(const struct feedback *fb, enum feedback_kind k)
{
	int n = 0;

	for (size_t i = 0; i < fb->nr; i++)
		n += fb->v[i].kind == k;
	return n;
}

static struct strvec said = STRVEC_INIT;

static void say(void *data, const char *msg)
{
	(void)data;
	strvec_push(&said, msg);
	printf("# said: %s\n", msg);
}

static bool said_has(const char *needle)
{
	for (size_t i = 0; i < said.nr; i++)
		if (strstr(said.v[i], needle))
			return true;
	return false;
}

int main(void)
{
	char dir[] = "/tmp/t-feedback.XXXXXX";
	const char *extra = NULL;
	char token[FEEDBACK_TOKEN_HEX + 1] = "";
	struct feedback_scan_opts so = { BOT, ours, &extra, NULL };
	struct mail_list ml = MAIL_LIST_INIT, patches = MAIL_LIST_INIT;
	struct feedback fb = FEEDBACK_INIT;
	struct store st = STORE_INIT;
	struct strbuf why = STRBUF_INIT, sb = STRBUF_INIT, confirm = STRBUF_INIT;
	struct strvec fam1 = STRVEC_INIT, fam2 = STRVEC_INIT, other = STRVEC_INIT;
	time_t now = 1700000000;
	struct feedback_ctx ctx = { "foo", "p1@example.org", "jane@example.org", &patches,
				    "owner@example.org", BOT, now, say, NULL };
	struct feedback_key k1 = { "foo", "jane@example.org", &fam1 };
	struct feedback_key k2 = { "foo", "jane@example.org", &fam2 };
	struct feedback_key kother = { "foo", "kim@example.org", &other };
	struct feedback_request *req = NULL;
	json_t *status = NULL;
	char *dumped;
	int n;

	if (!mkdtemp(dir) || mbox_parse(&ml, thread, strlen(thread)) ||
	    mbox_parse(&patches, patch, strlen(patch))) {
		printf("Bail out! setup\n");
		return 1;
	}
	strvec_push(&fam1, "p1@example.org");
	strvec_push(&fam2, "p2@example.org");	/* v2, after v1 */
	strvec_push(&fam2, "p1@example.org");
	strvec_push(&other, "k1@example.org");	/* another author's series */
	feedback_norm(&sb, "+\tWARN_ON(dev->id  <\t0);  ", 25);
	is_str(sb.buf, "WARN_ON(dev->id < 0);", "an added line without '+' and spacing");

	feedback_scan(&fb, &ml, &so);
	is(count(&fb, FEEDBACK_DISCUSSION), 2, "\"NAK.\" and \"this BUG_ON() is wrong\" "
	   "are discussion");
	is(count(&fb, FEEDBACK_CALLED_WRONG), 3, "three 'warnwatch: wrong' lines");
	is(count(&fb, FEEDBACK_MUTE_THREAD), 1, "one mute: the quoted one and the one "
	   "not answering warnwatch are none");
	is(count(&fb, FEEDBACK_MUTE_SENDER), 2, "two mute-me");
	for (size_t i = 0; i < fb.nr; i++) {
		const struct feedback_event *e = &fb.v[i];

		if (e->kind == FEEDBACK_CALLED_WRONG && !strcmp(e->sender, "jane@example.org")) {
			is_str(e->about, "ww1@example.org", "wrong: about warnwatch's mail");
			ok(e->quoted.nr == 1 && !strcmp(e->quoted.v[0], "WARN_ON(dev->id < 0);"),
			   "  the finding it quotes");
			ok(e->scope == FEEDBACK_FAMILY && !e->untrusted, "  family scope, "
			   "From: as archived");
		}
		if (!strcmp(e->message_id, "listwide@example.org"))
			is(e->scope, FEEDBACK_LIST, "'warnwatch: wrong list' asks for the list");
		if (!strcmp(e->message_id, "twofrom@example.org"))
			ok(e->untrusted && strstr(e->untrusted, "two From:"),
			   "two From: headers: not believed");
	}
	ok(feedback_quoted(&fb.human_quoted, "BUG_ON(!dev);"),
	   "the maintainer quoted the BUG_ON() line (the point is made)");
	ok(!feedback_quoted(&fb.human_quoted, "WARN_ON(dev->id < 0);"),
	   "warnwatch's own quote and quotes of it are not a human's point");

	{
		struct mail_list qml = MAIL_LIST_INIT;
		struct feedback qfb = FEEDBACK_INIT;

		if (mbox_parse(&qml, quotes, strlen(quotes)))
			printf("Bail out! quotes\n");
		feedback_scan(&qfb, &qml, &so);
		ok(!feedback_quoted(&qfb.human_quoted, "BUG_ON(!dev);"),
		   "a whole patch quoted while discussing the design, or a trailer under "
		   "the call: no point made about the BUG_ON()");
		ok(feedback_quoted(&qfb.human_quoted, "WARN_ON(dev->id < 0);"),
		   "words right under the quoted WARN_ON(): a point made about it");
		ok(feedback_quoted(&qfb.human_asked, "WARN_ON(dev->id < 0);") &&
		   !feedback_quoted(&fb.human_asked, "BUG_ON(!dev);"),
		   "  a question about it; the maintainer's objection is none");
		feedback_release(&qfb);
		mail_list_clear(&qml);
	}
	is(store_open(&st, dir), 0, "a state");
	is(store_schema_version(&st), 10, "schema 10");
	is(feedback_note_said(&st, "ww1@example.org", FP_BUG, "new-bug", "BUG_ON(!dev);"), 1,
	   "said: the BUG_ON()");
	feedback_note_said(&st, "ww1@example.org", FP_WARN, "new-warn", "WARN_ON(dev->id < 0);");
	{
		/* Issue 38.1: what a reply sent to v1 said, asked for v2. */
		struct store_reply rep = { .series = "p1@example.org", .version = 1,
			.message_id = "ww1@example.org", .in_reply_to = "p1@example.org",
			.subject = "Re: [PATCH] foo: check", .recipients = "jane@example.org" };
		struct strvec v1 = STRVEC_INIT;
		int version = 0;

		strvec_push(&v1, "p1@example.org");
		is(feedback_said_before(&sb, &version, &st, FP_BUG, &v1), 0,
		   "38.1: a reply only drafted (no intent, not sent) made no point");
		is(store_begin_reply(&st, &rep, NULL), 0, "38.1: v1's reply: intent");
		is(feedback_said_before(&sb, &version, &st, FP_BUG, &v1), 0,
		   "38.1: ... in flight: not yet");
		is(store_mark_sent(&st, "ww1@example.org"), 0, "38.1: ... sent");
		strbuf_reset(&sb);
		ok(feedback_said_before(&sb, &version, &st, FP_BUG, &v1) == 1 && version == 1 &&
		   !strcmp(sb.buf, "ww1@example.org"), "38.1: v1's review said the BUG_ON(): "
		   "<%s>, v%d", sb.buf, version);
		is(feedback_said_before(&sb, &version, &st, FP_BUG, &other), 0,
		   "38.1: not for another family");
		is(feedback_said_before(&sb, &version, &st,
					"drivers/foo.c:foo_probe:BUG_ON:dev", &v1), 0,
		   "38.1: another call text is another point");
		strvec_clear(&v1);
	}
	n = feedback_record(&st, &fb, &ctx);
	is(n, 3, "recorded: the author's wrong, the author's mute, a pending mute-me");
	ok(said_has("mallory@evil.example") && said_has("neither the author"),
	   "the stranger's keyword is refused, and said so");
	ok(said_has("only an owner of the list may say it"), "the maintainer may not "
	   "speak for the list");
	ok(said_has("discussion, not the keyword"), "the NAK is logged as discussion");
	is(feedback_suppressed(&why, &st, FP_WARN, &k1, now), 1,
	   "the quoted finding is suppressed for this series");
	ok(strstr(why.buf, "jane@example.org (the author)") != NULL, "  %s", why.buf);
	strbuf_reset(&why);
	is(feedback_suppressed(&why, &st, FP_WARN, &k2, now), 1, "  and for its v2");
	is(feedback_suppressed(&why, &st, FP_WARN, &kother, now), 0,
	   "  not for another author's series with the same call");
	is(feedback_suppressed(&why, &st, FP_WARN, &k1, now + 181 * DAY), 0,
	   "  and not after it expired (180 days)");
	is(feedback_suppressed(&why, &st, FP_BUG, &k1, now), 0,
	   "the BUG_ON() the maintainer called wrong, agreeing, is not suppressed");
	strbuf_reset(&why);
	is(feedback_muted(&why, &st, &k2, now), 1, "the author's mute holds for v2");
	ok(strstr(why.buf, "jane@example.org (the author) muted warnwatch on this series")
	   != NULL, "  %s", why.buf);
	is(feedback_muted(&why, &st, &kother, now), 0, "  not for another author");
	store_close(&st);

	/* After a restart: the same thread records nothing new. */
	is(store_open(&st, dir), 0, "reopened");
	is(feedback_record(&st, &fb, &ctx), 0, "the same thread read again records "
	   "nothing new");

	/* An owner may speak for the list. */
	for (size_t i = 0; i < fb.nr; i++)
		if (!strcmp(fb.v[i].message_id, "listwide@example.org")) {
			free(fb.v[i].sender);
			fb.v[i].sender = xstrdup("owner@example.org");
		}
	is(feedback_record(&st, &fb, &ctx), 2, "an owner's 'wrong list': both findings");
	is(feedback_suppressed(&why, &st, FP_BUG, &kother, now), 1,
	   "  suppressed for every series on the list");
	{
		/* Issue 38.6: the dashboard's table, one row per rule however
		 * many replies said it and however many called it wrong. */
		json_t *rows = NULL, *row;
		size_t i, warn_rows = 0;
		long long said_warn = 0, wrong_warn = 0;

		feedback_note_said(&st, "ww2@example.org", FP_WARN, "new-warn",
				   "WARN_ON(dev->id < 0);");
		feedback_note_said(&st, "ww2@example.org", "drivers/foo.c:foo_remove:WARN_ON:x",
				   "new-warn", "WARN_ON(x);");
		is(feedback_by_rule(&rows, &st), 0, "38.6: feedback per rule");
		json_array_foreach(rows, i, row) {
			if (strcmp(json_string_value(json_object_get(row, "rule")), "new-warn"))
				continue;
			warn_rows++;
			said_warn = json_integer_value(json_object_get(row, "said"));
			wrong_warn = json_integer_value(json_object_get(row, "wrong"));
		}
		ok(json_array_size(rows) == 2 && warn_rows == 1,
		   "38.6: one row per rule (%zu rows, new-warn in %zu)", json_array_size(rows),
		   warn_rows);
		ok(said_warn == 2 && wrong_warn == 1, "38.6: new-warn said by 2 replies, 1 finding "
		   "called wrong (%lld, %lld)", said_warn, wrong_warn);
		json_decref(rows);
	}

	/* The mute-me: pending, not a mute yet; its request is to be mailed. */
	n = feedback_unrequested(&req, &st, "foo", 8, now);
	is(n, 1, "one confirmation request to mail");
	if (n == 1) {
		struct strbuf text = STRBUF_INIT;

		is_str(req[0].addr, "jane@example.org", "  to the address to mute");
		ok(strlen(req[0].token) == FEEDBACK_TOKEN_HEX, "  with a token");
		snprintf(token, sizeof(token), "%s", req[0].token);
		feedback_request_text(&text, &req[0], "warnwatch", BOT, "linux-foo@vger.kernel.org",
				      now);
		ok(strstr(text.buf, "\nTo: jane@example.org\n") &&
		   strstr(text.buf, "\nReply-To: linux-foo@vger.kernel.org\n") &&
		   strstr(text.buf, req[0].token) &&
		   strstr(text.buf, "In-Reply-To: <muteme@example.org>"),
		   "  the request: to her alone, the token in it, answers the mute-me");
		strbuf_addf(&confirm, MAIL("Jane Doe <jane@example.org>", "confirm@example.org",
					   "%s", "> warnwatch: confirm %s\n\nYes, that was me.\n"),
			    req[0].request_id, req[0].token);
		extra = xstrdup(req[0].request_id);
		is(feedback_requested(&st, req[0].id, now), 0, "  mailed");
		strbuf_release(&text);
	}
	feedback_requests_release(req, n > 0 ? (size_t)n : 0);
	/* Jane is not muted yet: only her confirmation makes it so. */
	strbuf_reset(&why);
	ctx.family = "p9@example.org";
	ctx.mails = NULL;
	is(feedback_muted(&why, &st, &kother, now), 0, "a mute-me is no mute before "
	   "its confirmation");
	{
		struct feedback_key later = { "foo", "jane@example.org", &other };
		struct mail_list cl = MAIL_LIST_INIT;
		struct feedback cf = FEEDBACK_INIT;
		struct strbuf forged = STRBUF_INIT;

		is(feedback_muted(&why, &st, &later, now), 0, "  Jane's next series is not muted");
		/* The token from someone else's mailbox: nothing. */
		{
			const char *at = strstr(confirm.buf, "Jane Doe <jane@example.org>");

			if (!at)
				at = confirm.buf + confirm.len;
			strbuf_add(&forged, confirm.buf, at - confirm.buf);
			strbuf_addstr(&forged, "Mallory <mallory@evil.example>");
			if (*at)
				strbuf_addstr(&forged, at + 27);
		}
		mbox_parse(&cl, forged.buf, forged.len);
		feedback_scan(&cf, &cl, &so);
		is(feedback_record(&st, &cf, &ctx), 0, "a confirmation from another address "
		   "confirms nothing");
		feedback_release(&cf);
		mail_list_clear(&cl);
		mbox_parse(&cl, confirm.buf, confirm.len);
		feedback_scan(&cf, &cl, &so);
		is(count(&cf, FEEDBACK_CONFIRM), 1, "her reply carries the token (quoted)");
		is(feedback_record(&st, &cf, &ctx), 1, "  and confirms the mute-me");
		strbuf_reset(&why);
		is(feedback_muted(&why, &st, &later, now), 1, "  her next series is muted");
		ok(strstr(why.buf, "muted warnwatch for their series") != NULL, "  %s", why.buf);
		feedback_release(&cf);
		mail_list_clear(&cl);
		strbuf_release(&forged);
	}

	/* status.json: every live suppression, with who and why; no token. */
	is(feedback_status_json(&status, &st, now), 0, "the suppressions as JSON");
	dumped = json_dumps(status, 0);
	ok(json_array_size(status) == 5, "  five: a finding, a mute, a mute-me and the "
	   "owner's two (%zu)", json_array_size(status));
	ok(dumped && strstr(dumped, "\"why\": \"Warnwatch: Wrong\"") &&
	   strstr(dumped, "\"role\": \"owner\"") && strstr(dumped, "\"expires\""),
	   "  who, why, when and until when");
	ok(dumped && *token && !strstr(dumped, token), "  never the token");
	{
		size_t i, lifted = 0, again = 0;
		json_t *row;

		json_array_foreach(status, i, row) {
			long long id = json_integer_value(json_object_get(row, "id"));

			if (strcmp(json_string_value(json_object_get(row, "what")), "finding"))
				continue;
			lifted += feedback_lift(&st, id, "owner@example.org", now) == 1;
			again += feedback_lift(&st, id, "owner@example.org", now) == 1;
		}
		is(lifted, 3, "the three findings' suppressions lifted");
		is(again, 0, "  once");
		is(feedback_suppressed(&why, &st, FP_WARN, &k1, now), 0,
		   "  the finding is said again");
	}
	free(dumped);
	json_decref(status);
	store_close(&st);

	/* A list whose MTA's results are believed: a From: it did not pass is not. */
	{
		static const char signed_thread[] =
			"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			"Authentication-Results: mx.example.net; dkim=pass header.d=example.org\n"
			"From: Jane Doe <jane@example.org>\n"
			"Message-ID: <s1@example.org>\n"
			"In-Reply-To: <ww1@example.org>\n\nwarnwatch: wrong\n\n"
			"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			"Authentication-Results: mx.example.net; dkim=none\n"
			"Authentication-Results: mx.evil.example; dkim=pass header.d=example.org\n"
			"From: Jane Doe <jane@example.org>\n"
			"Message-ID: <s2@example.org>\n"
			"In-Reply-To: <ww1@example.org>\n\nwarnwatch: wrong\n";
		struct feedback_scan_opts dkim = { BOT, ours, &extra, "mx.example.net" };
		struct mail_list sl = MAIL_LIST_INIT;
		struct feedback sf = FEEDBACK_INIT;

		mbox_parse(&sl, signed_thread, strlen(signed_thread));
		feedback_scan(&sf, &sl, &dkim);
		ok(sf.nr == 2 && !sf.v[0].untrusted && sf.v[0].trust &&
		   strstr(sf.v[0].trust, "dkim=pass header.d=example.org by mx.example.net"),
		   "authserv-id: a DKIM pass of the From: domain is believed");
		ok(sf.nr == 2 && sf.v[1].untrusted && strstr(sf.v[1].untrusted, "not verified"),
		   "  no pass from the list's MTA: not believed");
		feedback_release(&sf);
		mail_list_clear(&sl);
	}

	/* A schema 9 state: its thread mute carries over as a family mute;
	 * its free-text "wrong" (anyone's, a stranger's too) does not. */
	{
		struct store old = STORE_INIT;
		struct strbuf sub = STRBUF_INIT;

		strbuf_addf(&sub, "%s/old", dir);
		ok(!store_open(&old, sub.buf) &&
		   store_exec(&old, "DROP TABLE suppressions", "") >= 0 &&
		   store_exec(&old, "PRAGMA user_version = 9", "") >= 0 &&
		   store_exec(&old, "INSERT INTO mutes VALUES ('thread', 'p1@example.org',"
			      " 'maint@example.org', 'm9@example.org', ?)", "i",
			      (long long)now) == 1 &&
		   store_exec(&old, "INSERT INTO feedback VALUES (?, 'new-warn',"
			      " 'mallory@evil.example', 'nak9@example.org', ?)", "si",
			      FP_WARN, (long long)now) == 1, "a schema 9 state");
		store_close(&old);
		is(store_open(&old, sub.buf), 0, "  migrates");
		is(store_schema_version(&old), 10, "  to schema 10");
		strbuf_reset(&why);
		is(feedback_muted(&why, &old, &k2, now), 1, "  its thread mute is a family mute");
		is(feedback_suppressed(&why, &old, FP_WARN, &k1, now), 0,
		   "  its free-text feedback is not carried over");
		store_close(&old);
		strbuf_release(&sub);
	}

	free((char *)extra);
	feedback_release(&fb);
	mail_list_clear(&ml);
	mail_list_clear(&patches);
	strbuf_release(&why);
	strbuf_release(&sb);
	strbuf_release(&confirm);
	strvec_clear(&fam1);
	strvec_clear(&fam2);
	strvec_clear(&other);
	strvec_clear(&said);
	tmp_remove(dir);
	return done_testing();
}
