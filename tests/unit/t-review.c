/*
 * Unit tests for bot/review/review.c: the archived messages of b4's choice, the
 * reply options from the configuration, review_run()'s decisions (a reply,
 * nothing to say, the author skipped, a previous version that does not
 * check), the state (settings_state_open()), and the exactly-once
 * send -- a refused send is a failure to retry, a timed-out one is "maybe
 * sent" and never sent again without --force.  t-review-pg.c runs the
 * same against a real PostgreSQL.
 */
#include "review.h"
#include "rules.h"
#include "series.h"
#include "settings.h"
#include "tap.h"
#include "tmpdir.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef T_REVIEW_PG
#include "pg.h"
#endif

static const char thread_mbox[] =
	"From a@x Thu Jan  1 00:00:00 1970\n"
	"From: A <a@example.org>\nSubject: [PATCH 0/2] x\nMessage-ID: <c@x>\n\ncover\n\n"
	"From a@x Thu Jan  1 00:00:00 1970\n"
	"From: A <a@example.org>\nSubject: [PATCH 1/2] x\nMessage-ID: <p1@x>\n"
	"In-Reply-To: <c@x>\nCc: list@example.org\n\none\n\n"
	"From b@x Thu Jan  1 00:00:00 1970\n"
	"From: B <b@example.org>\nSubject: Re: [PATCH 1/2] x\nMessage-ID: <r@x>\n"
	"In-Reply-To: <p1@x>\n\nreview\n\n"
	"From a@x Thu Jan  1 00:00:00 1970\n"
	"From: A <a@example.org>\nSubject: [PATCH 2/2] x\nMessage-ID: <p2@x>\n"
	"In-Reply-To: <c@x>\n\ntwo\n";

static const char picked_mbox[] =
	"From a@x Thu Jan  1 00:00:00 1970\n"
	"From: A <a@example.org>\nSubject: [PATCH 2/2] x\nMessage-ID: <p2@x>\n\ntwo\n\n"
	"From a@x Thu Jan  1 00:00:00 1970\n"
	"From: A <a@example.org>\nSubject: [PATCH 1/2] x\nMessage-ID: <p1@x>\n\none\n";

static void test_choose(void)
{
	struct mail_list thread = MAIL_LIST_INIT, picked = MAIL_LIST_INIT;
	struct mail_list out = MAIL_LIST_INIT;

	mbox_parse(&thread, thread_mbox, strlen(thread_mbox));
	mbox_parse(&picked, picked_mbox, strlen(picked_mbox));
	is(review_choose_mails(&out, &thread, &picked, "<c@x>"), 0, "b4's choice found");
	is((int)out.nr, 2, "two messages");
	is_str(out.v[0].message_id, "p1@x", "in thread order");
	is_str(out.v[1].message_id, "p2@x", "both");
	is_str(out.v[0].cc, "list@example.org", "as archived (Cc: kept)");
	ok(!thread.v[1].message_id && !thread.v[3].message_id, "moved out of the thread");
	is_str(thread.v[2].message_id, "r@x", "the rest stays");
	mail_list_clear(&out);
	mail_list_clear(&thread);

	mbox_parse(&thread, thread_mbox, 0);
	is(review_choose_mails(&out, &thread, &picked, "<c@x>"), WW_EINPUT,
	   "missing from the thread: WW_EINPUT");
	is_str(error_last(), "2 of the 2 messages b4 chose for <c@x> are not in the thread",
	       "says how many and whose");
	mail_list_clear(&out);
	mail_list_clear(&thread);
	mail_list_clear(&picked);
}

static void test_reply_opts(void)
{
	struct config c = CONFIG_INIT;
	struct reply_opts ro = REPLY_OPTS_INIT;
	struct settings_reply keep = SETTINGS_REPLY_INIT;

	is(review_reply_opts(&ro, &keep, &c, 0), 0, "no configuration: defaults");
	is_str(ro.from, "warnwatch <warnwatch@localhost>", "default identity for drafts");
	is(ro.policy, REPLY_TO_BOTH, "author and lists by default");
	ok(ro.template_dir && *ro.template_dir, "the installed templates");
	is(review_reply_opts(&ro, &keep, &c, REVIEW_SENDING), WW_EINPUT,
	   "sending needs an [identity] email");
	config_set(&c, "identity", "email", "not an address");
	is(review_reply_opts(&ro, &keep, &c, 0), WW_EINPUT, "a bad email is an error");
	config_set(&c, "identity", "email", "bot@example.org");
	config_set(&c, "identity", "name", "Bot");
	config_set(&c, "review", "reply-to", "list");
	config_set(&c, "review", "lists", "*@vger.example.org");
	config_set(&c, "review", "patchwork-hint", "yes");
	config_set(&c, "review", "contact", "owner@example.org");
	is(review_reply_opts(&ro, &keep, &c, REVIEW_SENDING), 0, "configured");
	is_str(ro.from, "Bot <bot@example.org>", "identity");
	is(ro.policy, REPLY_TO_LIST, "reply-to");
	is_str(ro.lists, "*@vger.example.org", "lists");
	ok(ro.patchwork_hint, "patchwork-hint");
	is_str(ro.contact, "owner@example.org", "contact");
	/* Issue 22: a name with a comma or quotes is one quoted display name. */
	config_set(&c, "identity", "name", "Doe, Jane \"JD\" \\ <x@y>");
	is(review_reply_opts(&ro, &keep, &c, 0), 0, "a name with a comma and quotes");
	is_str(ro.from, "\"Doe, Jane \\\"JD\\\" \\\\ <x@y>\" <bot@example.org>",
	       "  quoted per RFC 5322");
	{
		struct mail_addr_list l = MAIL_ADDR_LIST_INIT;

		ok(!mail_addr_parse(&l, ro.from) && l.nr == 1 &&
		   !strcmp(l.v[0].addr, "bot@example.org") &&
		   !strcmp(l.v[0].name, "Doe, Jane \"JD\" \\ <x@y>"),
		   "  parsed back: one mailbox, the name as configured");
		mail_addr_list_clear(&l);
	}
	config_set(&c, "identity", "name", "Bot");
	config_set(&c, "review", "reply-to", "everyone");
	ok(review_reply_opts(&ro, &keep, &c, 0) < 0, "a bad reply-to is an error");
	settings_reply_release(&keep);
	config_release(&c);
}

/* A TCP port that accepts connections (the kernel's backlog) and never
 * says a word: an SMTP session on it times out. */
static int silent_port(int *out_fd)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 8) || getsockname(fd, (struct sockaddr *)&a, &len))
		return -1;
	*out_fd = fd;
	return ntohs(a.sin_port);
}

/* A port with nothing listening: bound, then closed. */
static int closed_port(void)
{
	int fd, port = silent_port(&fd);

	close(fd);
	return port;
}

static struct store_reply rec(const char *series, const char *id, bool forced)
{
	struct store_reply r = STORE_REPLY_INIT;

	r.series = (char *)series;
	r.version = 1;
	r.message_id = (char *)id;
	r.in_reply_to = (char *)series;	/* each series answers its own mail */
	r.subject = (char *)"Re: [PATCH 1/2] x";
	r.recipients = (char *)"a@example.org";
	r.forced = forced;
	return r;
}

static void test_send(struct store *st, const char *tag)
{
	static const char msg[] = "From: Bot <bot@example.org>\nTo: a@example.org\n"
		"Subject: Re: x\nMessage-ID: <m@bot>\n\nhello\n";
	struct smtp_opts so = SMTP_OPTS_INIT;
	struct mail_addr_list rcpt = MAIL_ADDR_LIST_INIT;
	struct store_reply old = STORE_REPLY_INIT, r;
	struct strbuf url = STRBUF_INIT, s1 = STRBUF_INIT, s2 = STRBUF_INIT;
	struct strbuf s3 = STRBUF_INIT, id = STRBUF_INIT;
	int fd = -1, port;

	/* Unique per run: a PostgreSQL database outlives one test. */
	strbuf_addf(&s1, "refused-%s-%ld@x", tag, (long)getpid());
	strbuf_addf(&s2, "timeout-%s-%ld@x", tag, (long)getpid());
	strbuf_addf(&s3, "sent-%s-%ld@x", tag, (long)getpid());
	mail_addr_parse(&rcpt, "a@example.org");
	so.starttls = SMTP_TLS_NO;
	so.connect_timeout_s = 2;
	so.timeout_s = 1;

	is(review_known(&old, st, s1.buf, 1), 0, "nothing known yet");
	ok(!old.message_id, "no earlier reply");
	strbuf_addf(&url, "smtp://127.0.0.1:%d", closed_port());
	so.url = url.buf;
	strbuf_addf(&id, "a-%s", s1.buf);
	r = rec(s1.buf, id.buf, false);
	is(review_send(&old, st, &so, &r, "bot@example.org", &rcpt, msg, strlen(msg)),
	   WW_ENET, "no server: not delivered");
	store_reply_release(&old);
	is(review_known(&old, st, s1.buf, 1), 0, "a failed send blocks nothing");
	is(old.state, REPLY_FAILED, "recorded as failed");
	is_str(old.message_id, id.buf, "its Message-ID kept for the retry");
	store_reply_release(&old);

	port = silent_port(&fd);
	ok(port > 0, "a silent SMTP server");
	strbuf_reset(&url);
	strbuf_addf(&url, "smtp://127.0.0.1:%d", port);
	so.url = url.buf;
	strbuf_reset(&id);
	strbuf_addf(&id, "a-%s", s2.buf);
	r = rec(s2.buf, id.buf, false);
	is(review_send(&old, st, &so, &r, "bot@example.org", &rcpt, msg, strlen(msg)),
	   WW_ETIMEOUT, "a session that times out: maybe sent");
	store_reply_release(&old);
	is(review_known(&old, st, s2.buf, 1), REVIEW_MAYBE_SENT, "the intent stays");
	is_str(old.message_id, id.buf, "under our Message-ID");
	store_reply_release(&old);
	/* Nothing listens any more: a second send would fail, not time out. */
	close(fd);
	strbuf_reset(&id);
	strbuf_addf(&id, "b-%s", s2.buf);
	r = rec(s2.buf, id.buf, false);
	is(review_send(&old, st, &so, &r, "bot@example.org", &rcpt, msg, strlen(msg)),
	   REVIEW_MAYBE_SENT, "not sent again without --force");
	is(old.state, REPLY_INTENT, "the earlier intent reported");
	store_reply_release(&old);

	strbuf_reset(&id);
	strbuf_addf(&id, "a-%s", s3.buf);
	r = rec(s3.buf, id.buf, false);
	is(store_begin_reply(st, &r, NULL), 0, "another reply's intent");
	is(store_mark_sent(st, id.buf), 0, "and its delivery");
	is(review_known(&old, st, s3.buf, 1), REVIEW_ANSWERED, "known as answered");
	store_reply_release(&old);
	strbuf_reset(&id);
	strbuf_addf(&id, "b-%s", s3.buf);
	r = rec(s3.buf, id.buf, false);
	is(review_send(&old, st, &so, &r, "bot@example.org", &rcpt, msg, strlen(msg)),
	   REVIEW_ANSWERED, "answered: nothing sent");
	store_reply_release(&old);

	mail_addr_list_clear(&rcpt);
	strbuf_release(&url);
	strbuf_release(&s1);
	strbuf_release(&s2);
	strbuf_release(&s3);
	strbuf_release(&id);
}

static const char two_authors[] =
	"From a@x Thu Jan  1 00:00:00 1970\n"
	"From: Alice <Alice@Example.ORG>\nSubject: [PATCH 0/1] x\nMessage-ID: <c@x>\n\ncover\n\n"
	"From b@x Thu Jan  1 00:00:00 1970\n"
	"From: Bob <bob@example.net>\nSubject: [PATCH 1/1] x\nMessage-ID: <p1@x>\n"
	"In-Reply-To: <c@x>\n\none\n---\n"
	"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
	"@@ -1 +1 @@\n-\tfoo();\n+\tBUG_ON(x);\n";

/* [review] skip-authors, as `review` and serve's reply stage both ask it. */
static void test_skip_authors(void)
{
	struct config c = CONFIG_INIT;
	struct series s = SERIES_INIT;
	struct reply r = REPLY_INIT;

	if (series_read(&s, two_authors, strlen(two_authors), "x.mbox") < 0) {
		printf("# series_read: %s\n", error_last());
		ok(0, "skip-authors: the series reads");
		return;
	}
	r.answered = 0;
	ok(!review_author_skipped(config_get(&c, "review", "skip-authors"), &r, &s), "skip-authors unset: nobody skipped");
	config_set(&c, "review", "skip-authors", "nobody@x, alice@example.org");
	ok(review_author_skipped(config_get(&c, "review", "skip-authors"), &r, &s), "the cover's author, in a list, without case");
	r.answered = 1;
	ok(!review_author_skipped(config_get(&c, "review", "skip-authors"), &r, &s), "a reply to patch 1 goes to Bob: not skipped");
	config_set(&c, "review", "skip-authors", "*@example.net");
	ok(review_author_skipped(config_get(&c, "review", "skip-authors"), &r, &s), "a glob takes Bob");
	config_set(&c, "review", "skip-authors", "");
	ok(!review_author_skipped(config_get(&c, "review", "skip-authors"), &r, &s), "empty: nobody skipped");
	series_release(&s);
	config_release(&c);
}

/*
 * Issue 22: skip-authors holds for every address the reply would go to,
 * not only the first one of From:; a skipped author gets no reply and
 * nobody else gets one instead.
 */
static void test_skip_every_recipient(void)
{
	static const char mbox[] =
		"From a@x Thu Jan  1 00:00:00 1970\n"
		"From: Jane <jane@example.org>, Skip <skip@elsewhere.example>\n"
		"To: list@vger.kernel.org\n"
		"Cc: Other <other@elsewhere.example>, ok@example.org\n"
		"Subject: [PATCH] x\nMessage-ID: <h@x>\n\none\n---\n"
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1 +1 @@\n-\tfoo();\n+\tBUG_ON(x);\n";
	struct config c = CONFIG_INIT;
	struct series s = SERIES_INIT;
	struct reply r = REPLY_INIT;
	struct reply_opts ro = REPLY_OPTS_INIT;
	struct settings_reply keep = SETTINGS_REPLY_INIT;
	struct check_result none = CHECK_RESULT_INIT;
	struct strbuf got = STRBUF_INIT, templates = STRBUF_INIT;
	const char *top = getenv("WW_TOP");

	strbuf_addf(&templates, "%s/templates", top && *top ? top : ".");
	if (series_read(&s, mbox, strlen(mbox), "h.mbox") < 0) {
		ok(0, "skip every recipient: the series reads: %s", error_last());
		return;
	}
	config_set(&c, "identity", "email", "bot@example.org");
	config_set(&c, "review", "reply-to", "all");
	config_set(&c, "review", "skip-authors", "*@elsewhere.example");
	is(review_reply_opts(&ro, &keep, &c, 0), 0, "skip every recipient: options");
	ro.always = true;
	ro.template_dir = templates.buf;
	is(reply_build(&r, &s, &none, &ro), 0, "reply-to = all builds: %s", error_last());
	ok(!review_author_skipped(config_get(&c, "review", "skip-authors"), &r, &s), "the author (first mailbox) is not skipped");
	for (size_t i = 0; i < r.rcpt.nr; i++)
		strbuf_addf(&got, "%s%s", i ? " " : "", r.rcpt.v[i].addr);
	is_str(got.buf, "jane@example.org list@vger.kernel.org ok@example.org",
	       "skip-authors holds for every recipient, From:'s second mailbox is none");

	/* The author skipped: no reply, and no mail to anyone. */
	reply_release(&r);
	config_set(&c, "review", "skip-authors", "jane@example.org");
	is(review_reply_opts(&ro, &keep, &c, 0), 0, "skip the author: options");
	ro.always = true;
	ro.template_dir = templates.buf;
	ro.policy = REPLY_TO_AUTHOR;
	is(reply_build(&r, &s, &none, &ro), 0, "a skipped author is no error");
	ok(review_author_skipped(config_get(&c, "review", "skip-authors"), &r, &s), "the author is skipped");
	is(r.rcpt.nr, 0, "and nobody else gets the reply instead");
	reply_release(&r);
	settings_reply_release(&keep);
	strbuf_release(&got);
	strbuf_release(&templates);
	series_release(&s);
	config_release(&c);
}

static void warned(void *data, const char *msg)
{
	strbuf_addf(data, "%s\n", msg);
}

/*
 * Issue 34: a reply with no point to make -- thanks for a BUG_ON()
 * made a WARN_ON_ONCE(), with or without notes on calls no fact makes
 * specific (notes alone are REVIEW_NOTHING already) -- is not drafted:
 * REVIEW_NO_ISSUE.  The service
 * (positive) and --always (reply.always) draft it all the same.
 */
static void test_no_issue(struct review_run_opts *o)
{
	static const char *const mails[] = {
		"From a@x Thu Jan  1 00:00:00 1970\n"
		"From: Alice <alice@example.org>\nTo: list@vger.kernel.org\n"
		"Subject: [PATCH] x\nMessage-ID: <c@x>\n\none\n---\n"
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1,3 +1,3 @@ int a(int n)\n {\n-\tBUG_ON(n < 0);\n+\tWARN_ON_ONCE(n < 0);\n }\n",
	};
	static const char *const what[] = { "only thanks" };

	for (size_t i = 0; i < ARRAY_SIZE(mails); i++) {
		struct series s = SERIES_INIT;
		struct reply r = REPLY_INIT;

		if (series_read(&s, mails[i], strlen(mails[i]), "c.mbox") < 0) {
			ok(0, "no issue: setup: %s", error_last());
			return;
		}
		is(review_run(&r, &s, o), REVIEW_NO_ISSUE, "%s: no reply", what[i]);
		ok(!r.issues && r.credits + r.notes == 1, "  %s: it had %d credit(s), %d note(s)",
		   what[i], r.credits, r.notes);
		reply_release(&r);
		r = (struct reply)REPLY_INIT;
		o->positive = true;
		is(review_run(&r, &s, o), REVIEW_DRAFTED, "  %s: the service drafts it", what[i]);
		o->positive = false;
		reply_release(&r);
		r = (struct reply)REPLY_INIT;
		o->reply.always = true;
		is(review_run(&r, &s, o), REVIEW_DRAFTED, "  %s: and --always", what[i]);
		o->reply.always = false;
		reply_release(&r);
		series_release(&s);
	}
}

/* review_run(): the one decision both `review` and the service take. */
static void test_run(void)
{
	static const char clean[] =
		"From a@x Thu Jan  1 00:00:00 1970\n"
		"From: Alice <alice@example.org>\nTo: list@vger.kernel.org\n"
		"Subject: [PATCH] x\nMessage-ID: <n@x>\n\none\n---\n"
		"diff --git a/mm/a.c b/mm/a.c\n--- a/mm/a.c\n+++ b/mm/a.c\n"
		"@@ -1 +1 @@\n-\tfoo();\n+\tbar();\n";
	struct review_run_opts o = REVIEW_RUN_OPTS_INIT;
	struct settings_reply keep = SETTINGS_REPLY_INIT;
	struct ruleset rules = RULESET_INIT;
	struct config c = CONFIG_INIT;
	struct series adds = SERIES_INIT, none = SERIES_INIT;
	struct strbuf dir = STRBUF_INIT, templates = STRBUF_INIT, warn = STRBUF_INIT;
	struct reply r = REPLY_INIT;
	const char *top = getenv("WW_TOP");

	strbuf_addf(&dir, "%s/rules", top && *top ? top : ".");
	strbuf_addf(&templates, "%s/templates", top && *top ? top : ".");
	if (rules_load(&rules, dir.buf) < 0 ||
	    series_read(&adds, two_authors, strlen(two_authors), "a.mbox") < 0 ||
	    series_read(&none, clean, strlen(clean), "n.mbox") < 0) {
		ok(0, "review_run: setup: %s", error_last());
		goto out;
	}
	config_set(&c, "identity", "email", "bot@example.org");
	is(review_reply_opts(&o.reply, &keep, &c, 0), 0, "review_run: options");
	o.reply.template_dir = templates.buf;
	o.rules = &rules;
	o.warn.fn = warned;
	o.warn.data = &warn;

	is(review_run(&r, &adds, &o), REVIEW_DRAFTED, "a series adding BUG_ON: a reply");
	ok(r.text.len && strstr(r.text.buf, "BUG_ON"), "  which talks about it");
	/* Handed the caller's check (serve's stages): the same reply, and
	 * the series is not parsed again. */
	{
		struct check_result cr = CHECK_RESULT_INIT;
		struct check_opts co = CHECK_OPTS_INIT;
		struct reply again = REPLY_INIT;
		struct diff_counts before, after;

		co.rules = &rules;
		is(check_series(&cr, &adds, &co), 0, "the caller's check");
		o.checked = &cr;
		diff_counts(&before);
		is(review_run(&again, &adds, &o), REVIEW_DRAFTED, "  handed down: a reply");
		diff_counts(&after);
		is(after.parses - before.parses, 0, "  with no parse of its own");
		/* the same but for the Message-ID, new for every reply */
		ok(strstr(r.text.buf, "\n\n") && strstr(again.text.buf, "\n\n") &&
		   !strcmp(strstr(r.text.buf, "\n\n"), strstr(again.text.buf, "\n\n")),
		   "  the same reply");
		o.checked = NULL;
		reply_release(&again);
		check_result_clear(&cr);
	}
	reply_release(&r);
	r = (struct reply)REPLY_INIT;
	is(review_run(&r, &none, &o), REVIEW_NOTHING, "no BUG/WARN change: nothing to say");
	ok(!r.text.len, "  and no text");
	reply_release(&r);
	r = (struct reply)REPLY_INIT;
	o.reply.always = true;
	is(review_run(&r, &none, &o), REVIEW_DRAFTED, "  unless always");
	o.reply.always = false;
	reply_release(&r);
	r = (struct reply)REPLY_INIT;
	test_no_issue(&o);
	o.reply.skip = "BOB@example.net";
	is(review_run(&r, &adds, &o), REVIEW_SKIPPED, "the author in skip-authors: skipped");
	o.reply.skip = NULL;
	reply_release(&r);
	r = (struct reply)REPLY_INIT;

	/* The previous version is checked and compared, without a word. */
	o.prev = &none;
	is(review_run(&r, &adds, &o), REVIEW_DRAFTED, "with a previous version: a reply");
	is_str(warn.buf, "", "  compared without a warning");
	o.prev = NULL;
	reply_release(&r);
	r = (struct reply)REPLY_INIT;
	/* With a tree for facts: the scratch copy's paths and each call's
	 * hunk come from the check's own parse, one parse per patch. */
	{
		char tree[] = "/tmp/t-review-tree-XXXXXX";
		struct diff_counts before, after;

		if (!mkdtemp(tree)) {
			ok(0, "facts tree: mkdtemp: %s", strerror(errno));
		} else {
			tmp_put(tree, "mm/a.c", "\tfoo();\n");
			o.facts_tree = tree;
			diff_counts(&before);
			is(review_run(&r, &adds, &o), REVIEW_DRAFTED, "with a facts tree: a reply");
			diff_counts(&after);
			is(after.parses - before.parses, adds.nr,
			   "  the series' %zu patch(es) parsed once, by the check", adds.nr);
			strbuf_reset(&warn);	/* the C front end's program is not at hand here */
			o.facts_tree = NULL;
			reply_release(&r);
			r = (struct reply)REPLY_INIT;
			tmp_remove(tree);
		}
	}
	o.tree = "/nonexistent/tree";
	ok(review_run(&r, &adds, &o) < 0, "a series that does not check: an error");
	o.name = "<c@x>";
	ok(review_run(&r, &adds, &o) < 0 && strstr(error_last(), "<c@x>"),
	   "  naming the series: %s", error_last());
out:
	reply_release(&r);
	settings_reply_release(&keep);
	ruleset_release(&rules);
	config_release(&c);
	series_release(&adds);
	series_release(&none);
	strbuf_release(&dir);
	strbuf_release(&templates);
	strbuf_release(&warn);
}

int main(int argc, char **argv)
{
	struct settings set = SETTINGS_INIT;
	struct config *c = &set.config;
	struct store st = STORE_INIT;

#ifdef T_REVIEW_PG
	pg_test_env(argv);
	config_set(c, "state", "url", getenv("WW_TEST_PG_URL"));
	if (getenv("WW_TEST_PG_PWFILE"))
		config_set(c, "state", "password-file", getenv("WW_TEST_PG_PWFILE"));
#else
	char dir[] = "/tmp/t-review.XXXXXX";

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		return 1;
	config_set(c, "state", "dir", dir);
#endif
	test_choose();
	test_reply_opts();
	test_skip_authors();
	test_skip_every_recipient();
	test_run();
	is(settings_apply(&set, 0), 0, "the settings apply");
	is(settings_state_open(&st, &set), 0, "the configured state opens");
#ifdef T_REVIEW_PG
	is_str(store_backend_name(&st), "postgresql", "[state] url: PostgreSQL");
	test_send(&st, "pg");
#else
	is_str(store_backend_name(&st), "sqlite", "[state] dir: SQLite");
	test_send(&st, "sqlite");
#endif
	store_close(&st);
	settings_release(&set);
	return done_testing();
}
