/*
 * Unit tests for bot/serve/stage-reply.c, the reply stage on its own: a
 * real SQLite state and queue in a scratch directory, one series whose
 * artifacts are written here, and the stage run under each list policy
 * that decides before any SMTP session: replies off, an ignored sender,
 * an embargo (said in hours, minutes or seconds), no artifacts, a reply
 * drafted already (draft-only, paths not allowed, quiet hours), a reply
 * file that is no mail, and the state database gone.  (The serve e2e
 * tests run the whole service; these reach the branches they cannot.)
 */
#include "queue.h"
#include "serve-priv.h"
#include "stage.h"
#include "diff.h"
#include "tap.h"
#include "tmpdir.h"

#include <unistd.h>

#define NOW 1717243200	/* 2024-06-01 12:00 UTC */

static const char patch_mail[] =
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"To: test@example.org\n"
	"Subject: [PATCH] foo: check the length\n"
	"Date: Sat, 01 Jun 2024 11:00:00 +0000\n"
	"Message-ID: <p1@example.org>\n"
	"\n"
	"Check it.\n"
	"\n"
	"Signed-off-by: Jane Doe <jane@example.org>\n"
	"---\n"
	"diff --git a/fs/foo/foo.c b/fs/foo/foo.c\n"
	"--- a/fs/foo/foo.c\n"
	"+++ b/fs/foo/foo.c\n"
	"@@ -10,3 +10,4 @@ int foo(int len)\n"
	" {\n"
	"+\tBUG_ON(len < 0);\n"
	" \treturn len;\n"
	" }\n";

static const char reply_mail[] =
	"From: warnwatch <bot@example.org>\n"
	"To: Jane Doe <jane@example.org>\n"
	"Cc: test@example.org\n"
	"Subject: Re: [PATCH] foo: check the length\n"
	"Message-ID: <ww1@example.org>\n"
	"In-Reply-To: <p1@example.org>\n"
	"\n"
	"This patch adds a BUG_ON().\n";

struct fixture {
	char dir[256];
	struct settings set;
	struct serve_config cfg;
	struct serve sv;
	long long id;
};

static int load(struct fixture *fx, const char *list_extra)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	serve_config_release(&fx->cfg);
	settings_release(&fx->set);
	fx->set = (struct settings)SETTINGS_INIT;
	fx->cfg = (struct serve_config)SERVE_CONFIG_INIT;
	const char *top = getenv("WW_TOP");

	top = top && *top ? top : ".";
	strbuf_addf(&text, "[review]\nrules = %s/rules\ntemplates = %s/templates\n", top, top);
	strbuf_addf(&text, "[identity]\nemail = bot@example.org\n"
		    "[smtp]\nurl = smtp://127.0.0.1:1\n[state]\ndir = %s\n"
		    "[serve]\nlisten = off\n"
		    "[list.test]\narchive = http://127.0.0.1:1\ninbox = test\n"
		    "address = test@example.org\nboot = no\npace = 0\n%s",
		    fx->dir, list_extra);
	ret = config_parse(&fx->set.config, text.buf, text.len, "test.conf");
	if (!ret)
		ret = settings_apply(&fx->set, 0);
	if (!ret)
		ret = serve_config_load(&fx->cfg, &fx->set);
	strbuf_release(&text);
	fx->sv.cfg = &fx->cfg;
	return ret;
}

/* A fresh series <p1@example.org>, checked, with its artifacts or not. */
static int new_series(struct fixture *fx, bool artifacts, bool drafted, const char *reply)
{
	struct queue_msg m = { .inbox = "test", .msgid = "p1@example.org",
			       .subject = "[PATCH] foo: check the length",
			       .author_name = "Jane Doe", .author_email = "jane@example.org" };
	static const char *const names[] = { QUEUE_MBOX, QUEUE_THREAD, QUEUE_REPLY, QUEUE_COVER };
	int ret;

	store_exec(&fx->sv.store, "DELETE FROM queue_messages", "");
	store_exec(&fx->sv.store, "DELETE FROM queue_series", "");
	ret = queue_add_message(&fx->sv.q, &m, NOW - 60, false);
	if (ret < 0)
		return ret;
	ret = queue_series_of(&fx->id, &fx->sv.q, "test", "p1@example.org");
	if (ret != 1)
		return -1;
	/* SQLite gives the new series the old one's id: its files go too. */
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct strbuf path = STRBUF_INIT;

		queue_artifact(&path, &fx->sv.q, fx->id, names[i]);
		unlink(path.buf);
		strbuf_release(&path);
	}
	ret = queue_advance(&fx->sv.q, fx->id, QS_CHECKED, NOW - 30);
	if (!ret && artifacts) {
		ret = stage_put_artifact(&fx->sv, fx->id, QUEUE_MBOX, patch_mail,
					 strlen(patch_mail));
		if (!ret)
			ret = stage_put_artifact(&fx->sv, fx->id, QUEUE_THREAD, patch_mail,
						 strlen(patch_mail));
	}
	if (!ret && drafted)
		ret = stage_put_artifact(&fx->sv, fx->id, QUEUE_REPLY, reply, strlen(reply));
	return ret;
}

/* Run the stage; `reply` gets the series' reply field, `state` its state. */
static int run(struct fixture *fx, struct strbuf *reply, enum queue_state *state, time_t now)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	int ret = queue_load(&s, &fx->sv.q, fx->id);

	if (ret >= 0)
		ret = stage_reply.run(&fx->sv, &s, &fx->cfg.lists[0], now);
	queue_series_release(&s);
	if (queue_load(&s, &fx->sv.q, fx->id) >= 0) {
		strbuf_reset(reply);
		strbuf_addstr(reply, s.reply ? s.reply : "");
		*state = s.state;
	}
	queue_series_release(&s);
	return ret;
}

/* Policy before the draft: off, ignored, embargoed, nothing to read. */
static void test_before_draft(struct fixture *fx)
{
	struct strbuf r = STRBUF_INIT;
	enum queue_state st = QS__NR;
	static const struct { const char *embargo, *says; } held[] = {
		{ "2h", "held for 2 hours after the newest mail (embargo: people first)" },
		{ "5m", "held for 5 minutes after the newest mail (embargo: people first)" },
		{ "90s", "held for 90 s after the newest mail (embargo: people first)" },
	};

	ok(!load(fx, "reply = none\n") && !new_series(fx, true, false, NULL),
	   "reply = none: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED &&
	   !strcmp(r.buf, "none: replies are off for this list"),
	   "replies off: done, said so");

	ok(!load(fx, "reply = send\nignore-senders = jane@example.org\n") &&
	   !new_series(fx, true, false, NULL), "ignore-senders: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED &&
	   !strcmp(r.buf, "none: the author is in ignore-senders"),
	   "an ignored sender: done, said so (%s)", r.buf);

	for (size_t i = 0; i < ARRAY_SIZE(held); i++) {
		struct strbuf extra = STRBUF_INIT;

		strbuf_addf(&extra, "reply = send\nembargo = %s\n", held[i].embargo);
		ok(!load(fx, extra.buf) && !new_series(fx, true, false, NULL),
		   "embargo = %s: loaded", held[i].embargo);
		ok(!run(fx, &r, &st, NOW) && st == QS_CHECKED && !strcmp(r.buf, held[i].says),
		   "embargo = %s: still checked, \"%s\"", held[i].embargo, held[i].says);
		strbuf_release(&extra);
	}

	ok(!load(fx, "reply = send\n") && !new_series(fx, false, false, NULL),
	   "no artifacts: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_FAILED,
	   "a series whose mails are not on disk: failed, not answered");
	strbuf_release(&r);
}

/* A reply drafted already: what keeps it from being sent. */
static void test_drafted(struct fixture *fx)
{
	struct strbuf r = STRBUF_INIT;
	enum queue_state st = QS__NR;

	ok(!load(fx, "reply = draft\n") && !new_series(fx, true, true, reply_mail),
	   "reply = draft, drafted: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED && !strcmp(r.buf, "drafted"),
	   "draft-only: done, \"drafted\"");

	ok(!load(fx, "reply = send\nallow-paths = net/*\n") &&
	   !new_series(fx, true, true, reply_mail), "allow-paths = net/*: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED &&
	   starts_with(r.buf, "drafted, not sent: "),
	   "a patch outside allow-paths: drafted, not sent");

	ok(!load(fx, "reply = send\nquiet-hours = 00:00-23:59\n") &&
	   !new_series(fx, true, true, reply_mail), "quiet hours all day: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_CHECKED &&
	   starts_with(r.buf, "held until ") && ends_with(r.buf, " (quiet hours)"),
	   "quiet hours: held, not sent");

	/* The embargo holds a draft, not a reply drafted already or a
	 * draft-only list's. */
	ok(!load(fx, "reply = draft\nembargo = 2h\n") && !new_series(fx, true, false, NULL) &&
	   !stage_need_rules(&fx->sv), "reply = draft, embargo: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED && !strcmp(r.buf, "drafted"),
	   "a draft-only list does not wait: \"drafted\"");
	ok(!load(fx, "reply = send\nembargo = 2h\n") && !new_series(fx, true, true, reply_mail),
	   "reply = send, embargo, drafted before: loaded");
	ok(!run(fx, &r, &st, NOW) && !starts_with(r.buf, "held for"),
	   "a reply drafted before the embargo began is not held again");

	/* The operator's stop file: nothing is mailed, not even a request. */
	{
		struct strbuf extra = STRBUF_INIT;

		tmp_put(fx->dir, "STOP", "");
		strbuf_addf(&extra, "reply = send\n[serve]\nstop-file = %s/STOP\n", fx->dir);
		ok(!load(fx, extra.buf) && !new_series(fx, true, true, reply_mail),
		   "stop file: loaded");
		ok(!run(fx, &r, &st, NOW) && st == QS_CHECKED && starts_with(r.buf, "held"),
		   "the stop file there: held, not sent");
		strbuf_reset(&extra);
		strbuf_addf(&extra, "%s/STOP", fx->dir);
		unlink(extra.buf);
		strbuf_release(&extra);
	}

	/* A reply file that cannot be read (a directory in its place). */
	ok(!load(fx, "reply = send\n") && !new_series(fx, true, false, NULL), "unreadable reply: loaded");
	{
		struct strbuf path = STRBUF_INIT;

		queue_artifact(&path, &fx->sv.q, fx->id, QUEUE_REPLY);
		ok(!mkdir(path.buf, 0700), "  reply.eml is a directory");
		ok(!run(fx, &r, &st, NOW) && st == QS_FAILED, "  failed, never sent");
		rmdir(path.buf);
		strbuf_release(&path);
	}

	ok(!load(fx, "reply = send\n") && !new_series(fx, true, true, "no mail at all\n"),
	   "a reply file that is no mail: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_FAILED,
	   "a reply file that is no mail: failed, never sent");
	strbuf_release(&r);
}

/*
 * Drafted here (reply = draft): the series' BUG_ON() gets a reply; the
 * list's tree as a source directory (facts) or a tarball (quotes only,
 * said once); a tree that is neither is read as none.
 */
static void test_draft(struct fixture *fx)
{
	struct strbuf r = STRBUF_INIT, extra = STRBUF_INIT, tarball = STRBUF_INIT;
	enum queue_state st = QS__NR;
	const char *trees[3];

	strbuf_addf(&tarball, "%s/linux-source-6.1.tar.xz", fx->dir);
	tmp_put(fx->dir, "linux-source-6.1.tar.xz", "not really\n");
	trees[0] = fx->dir;
	trees[1] = tarball.buf;
	trees[2] = "/nonexistent/tree";
	for (size_t i = 0; i < ARRAY_SIZE(trees); i++) {
		strbuf_reset(&extra);
		strbuf_addf(&extra, "reply = draft\ntree = %s\n", trees[i]);
		fx->sv.inboxes[0].guide_state = 0;
		ok(!load(fx, extra.buf) && !new_series(fx, true, false, NULL) &&
		   !stage_need_rules(&fx->sv), "tree = %s: loaded", trees[i]);
		ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED && !strcmp(r.buf, "drafted"),
		   "tree = %s: drafted, done", trees[i]);
		strbuf_reset(&r);
		ok(!stage_read_artifact(&r, &fx->sv, fx->id, QUEUE_REPLY) &&
		   strstr(r.buf, "BUG_ON(len < 0)") && strstr(r.buf, "In-Reply-To: <p1@example.org>"),
		   "  the reply quotes the BUG_ON() and answers the patch");
		guide_release(&fx->sv.inboxes[0].guide);
	}
	/* Our installation broken (no templates): the series' failure is
	 * recorded, nothing is drafted. */
	strbuf_reset(&extra);
	strbuf_addf(&extra, "reply = draft\n[review]\ntemplates = %s/none\n", fx->dir);
	ok(!load(fx, extra.buf) && !new_series(fx, true, false, NULL),
	   "no templates: loaded");
	ok(!run(fx, &r, &st, NOW) && st != QS_REPLIED && !tmp_exists(fx->dir, "none"),
	   "no templates: nothing drafted, not done");
	strbuf_release(&r);
	strbuf_release(&extra);
	strbuf_release(&tarball);
}

/*
 * The check and the reply stage of one process read and check a series
 * once (stage_checked()): one diff parse for both.  Mail stored anew
 * under the series, by this process or another, is read anew.
 */
static void test_checked_once(struct fixture *fx)
{
	static const char other[] = "+\tBUG_ON(len > 9);\n";
	struct queue_series s = QUEUE_SERIES_INIT;
	struct strbuf r = STRBUF_INIT, mail = STRBUF_INIT, path = STRBUF_INIT;
	enum queue_state st = QS__NR;
	struct diff_counts before, after;
	const char *at;

	ok(!load(fx, "reply = draft\n") && !new_series(fx, true, false, NULL) &&
	   !stage_need_rules(&fx->sv), "checked once: loaded");
	diff_counts(&before);
	ok(queue_load(&s, &fx->sv.q, fx->id) >= 0 &&
	   !stage_check.run(&fx->sv, &s, &fx->cfg.lists[0], NOW), "checked once: the check stage");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED && !strcmp(r.buf, "drafted"),
	   "checked once: the reply stage drafted");
	diff_counts(&after);
	is(after.parses - before.parses, 1, "checked once: one parse for both stages");

	/* another process fetched the series again: other mail, same size */
	ok(!new_series(fx, true, false, NULL), "mail anew: a fresh series");
	queue_series_release(&s);
	ok(queue_load(&s, &fx->sv.q, fx->id) >= 0 &&
	   !stage_check.run(&fx->sv, &s, &fx->cfg.lists[0], NOW), "mail anew: checked");
	at = strstr(patch_mail, "+\tBUG_ON(len < 0);\n");
	if (at) {
		strbuf_add(&mail, patch_mail, at - patch_mail);
		strbuf_addstr(&mail, other);
		strbuf_addstr(&mail, at + strlen(other));
	}
	queue_artifact(&path, &fx->sv.q, fx->id, QUEUE_MBOX);
	unlink(path.buf);
	ok(at && !strbuf_write_file(&mail, path.buf), "mail anew: written behind the stage's back");
	queue_artifact(&path, &fx->sv.q, fx->id, QUEUE_THREAD);
	unlink(path.buf);
	ok(!strbuf_write_file(&mail, path.buf), "mail anew: and its thread");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED, "mail anew: drafted");
	strbuf_reset(&r);
	ok(!stage_read_artifact(&r, &fx->sv, fx->id, QUEUE_REPLY) &&
	   strstr(r.buf, "BUG_ON(len > 9)") && !strstr(r.buf, "len < 0"),
	   "mail anew: the reply is of the mail stored now");
	queue_series_release(&s);
	strbuf_release(&r);
	strbuf_release(&mail);
	strbuf_release(&path);
}

/* A reply on record already: sent (done), or its fate unknown (looked for). */
static void test_on_record(struct fixture *fx)
{
	struct store_reply rep = { .series = "p1@example.org", .version = 1,
		.message_id = "ww1@example.org", .in_reply_to = "p1@example.org",
		.subject = "Re: [PATCH] foo: check the length",
		.recipients = "jane@example.org, test@example.org" };
	struct strbuf r = STRBUF_INIT;
	enum queue_state st = QS__NR;

	store_exec(&fx->sv.store, "DELETE FROM replies", "");
	ok(!load(fx, "reply = send\n") && !new_series(fx, true, true, reply_mail) &&
	   !store_begin_reply(&fx->sv.store, &rep, NULL), "a reply whose intent is recorded");
	ok(!run(fx, &r, &st, NOW) && st != QS_REPLIED,
	   "its fate unknown and the archive unreachable: not sent again, not done");
	ok(!store_mark_sent(&fx->sv.store, "ww1@example.org"), "... then recorded as sent");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED && !strcmp(r.buf, "sent <ww1@example.org>"),
	   "answered already: done, naming the reply");
	store_exec(&fx->sv.store, "DELETE FROM replies", "");

	/* Nothing holds it: sent, but the SMTP server is not there. */
	ok(!load(fx, "reply = send\n") && !new_series(fx, true, true, reply_mail),
	   "reply = send, drafted: loaded");
	ok(!run(fx, &r, &st, NOW) && st == QS_CHECKED && !*r.buf,
	   "no SMTP server: not sent, not done (retried)");

	/* Another series (a resend under another root) answered the patch. */
	rep.series = "other@example.org";
	ok(!load(fx, "reply = send\n") && !new_series(fx, true, true, reply_mail) &&
	   !store_begin_reply(&fx->sv.store, &rep, NULL) &&
	   !store_mark_sent(&fx->sv.store, "ww1@example.org"),
	   "the patch answered under another series");
	ok(!run(fx, &r, &st, NOW) && st == QS_REPLIED && !strcmp(r.buf, "sent <ww1@example.org>"),
	   "the patch answered already, under another series: done, never mailed twice");
	store_exec(&fx->sv.store, "DELETE FROM replies", "");
	strbuf_release(&r);
}

/* The state database failing under the stage: its error, nothing recorded. */
static void test_no_state(struct fixture *fx)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	struct strbuf r = STRBUF_INIT;
	enum queue_state st = QS__NR;

	ok(!load(fx, "reply = send\n") && !new_series(fx, true, false, NULL),
	   "state failing: loaded");
	store_exec(&fx->sv.store, "DROP TABLE suppressions", "");
	ok(!run(fx, &r, &st, NOW) && st != QS_REPLIED,
	   "the feedback unreadable: recorded as the series' failure, not answered");
	error_clear();

	/* What a full disk or a dropped connection looks like to the stage:
	 * its reads and writes fail, one table after another. */
	ok(!load(fx, "reply = send\nembargo = 2h\n") && !new_series(fx, true, false, NULL) &&
	   queue_load(&s, &fx->sv.q, fx->id) >= 0, "embargoed, the series loaded first");
	store_exec(&fx->sv.store, "DROP TABLE queue_series", "");
	ok(stage_reply.run(&fx->sv, &s, &fx->cfg.lists[0], NOW) < 0,
	   "the hold cannot be recorded: an error, not a silent hold");
	error_clear();
	store_exec(&fx->sv.store, "DROP TABLE replies", "");
	ok(!load(fx, "reply = send\n") && stage_reply.run(&fx->sv, &s, &fx->cfg.lists[0], NOW) < 0,
	   "the replies unreadable: an error, nothing decided");
	error_clear();
	ok(!load(fx, "reply = none\n") && stage_reply.run(&fx->sv, &s, &fx->cfg.lists[0], NOW) < 0,
	   "replies off, the state failing: an error, not a silent success");
	error_clear();
	queue_series_release(&s);
	strbuf_release(&r);
}

int main(void)
{
	struct fixture fx = { .set = SETTINGS_INIT, .cfg = SERVE_CONFIG_INIT };
	struct serve_inbox inbox = { 0 };

	snprintf(fx.dir, sizeof(fx.dir), "%s/t-stage-reply.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fx.dir)) {
		printf("Bail out! no scratch directory\n");
		return 1;
	}
	if (store_open(&fx.sv.store, fx.dir) ||
	    queue_init(&fx.sv.q, &fx.sv.store, fx.dir, NULL)) {
		printf("Bail out! no state: %s\n", error_last());
		return 1;
	}
	strvec_init(&inbox.warned);
	fx.sv.inboxes = &inbox;
	snprintf(fx.sv.name, sizeof(fx.sv.name), "test:1");
	test_before_draft(&fx);
	test_drafted(&fx);
	test_draft(&fx);
	test_checked_once(&fx);
	test_on_record(&fx);
	test_no_state(&fx);
	stage_forget(&fx.sv);
	queue_release(&fx.sv.q);
	ruleset_release(&fx.sv.rules);
	store_close(&fx.sv.store);
	strvec_clear(&inbox.warned);
	guide_release(&inbox.guide);
	serve_config_release(&fx.cfg);
	settings_release(&fx.set);
	tmp_remove(fx.dir);
	return done_testing();
}
