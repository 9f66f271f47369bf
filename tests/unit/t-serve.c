/*
 * The service's configuration and policy: [serve] and [list.NAME] keys,
 * their defaults and errors, quiet hours across midnight, allow-lists.
 */
#include "serve.h"
#include "tap.h"

static int load(struct serve_config *cfg, struct settings *c, const char *text)
{
	int ret;

	serve_config_release(cfg);
	settings_release(c);
	*c = (struct settings)SETTINGS_INIT;
	if (config_parse(&c->config, text, strlen(text), "test.conf"))
		return -100;
	ret = settings_apply(c, 0);
	return ret ? ret : serve_config_load(cfg, c);
}

static void test_config(void)
{
	struct settings c = SETTINGS_INIT;
	struct serve_config cfg = SERVE_CONFIG_INIT;
	const struct serve_list *l;

	is(load(&cfg, &c,
		"[identity]\nemail = bot@example.org\n[smtp]\nurl = smtp://127.0.0.1:25\n"
		"[state]\ndir = /var/lib/ww\n"
		"[serve]\nlisten = 127.0.0.1:9000\npoll-interval = 30\nsettle = 5\n"
		"census = /a.json /b.json\n"
		"[review]\nreply-to = author\n"
		"[list.mm]\narchive = https://lore.kernel.org/\naddress = linux-mm@kvack.org\n"
		"tree = 6.1\nboot = yes\nreply = send\n"
		"allow-senders = *@example.org, jane@x.org\nallow-paths = mm/ include/linux/mm*.h\n"
		"quiet-hours = 22:00-07:00\nmin-level = info\nembargo = 6\n"
		"owners = akpm@example.org, *@owners.example.org\n"
		"authserv-id = smtp.subspace.kernel.org\n"
		"[list.netdev]\narchive = http://127.0.0.1:8080\ninbox = netdev-test\n"
		"reply-to = list\npoll-interval = 300\n"), 0, "a full configuration loads");
	is_str(c.state.dir, "/var/lib/ww", "[state] dir, shared with review");
	is_str(cfg.dashboard_dir, "/var/lib/ww/dashboard", "dashboard under the state dir");
	is_str(cfg.listen, "127.0.0.1:9000", "listen");
	is(cfg.poll_interval, 30, "poll-interval");
	is(cfg.queue.settle, 5, "settle");
	is(cfg.queue.max_attempts, 5, "max-attempts default");
	is(cfg.census.nr, 2, "census files");
	is(cfg.nr_lists, 2, "two lists");
	l = serve_config_list(&cfg, "mm");
	ok(l != NULL, "list mm");
	if (l) {
		is_str(l->archive, "https://lore.kernel.org", "archive without the final /");
		is_str(l->inbox, "mm", "inbox defaults to the list name");
		ok(l->boot && l->reply == SERVE_REPLY_SEND, "boot, send");
		is(l->reply_to, REPLY_TO_AUTHOR, "reply-to from [review]");
		is(l->allow_senders.nr, 2, "two sender globs");
		is(l->allow_paths.nr, 2, "two path globs");
		ok(l->quiet_from == 22 * 60 && l->quiet_to == 7 * 60, "quiet hours");
		is(l->poll_interval, 30, "poll interval from [serve]");
		ok(l->policy.min_level == POLICY_LEVEL_INFO && l->policy.embargo == 6 * 3600,
		   "min-level and embargo are [list.NAME] keys (issue 27)");
		ok(policy_owner(&l->policy, "AKPM@example.org") &&
		   policy_owner(&l->policy, "x@owners.example.org") &&
		   !policy_owner(&l->policy, "akpm@example.org.evil"),
		   "owners: addresses and globs, case ignored (issue 40)");
		is_str(l->policy.authserv_id, "smtp.subspace.kernel.org", "authserv-id");
	}
	l = serve_config_list(&cfg, "netdev");
	if (ok(l != NULL, "list netdev")) {
		is_str(l->inbox, "netdev-test", "inbox");
		is(l->reply_to, REPLY_TO_LIST, "reply-to of the list");
		ok(!l->boot && l->reply == SERVE_REPLY_DRAFT, "defaults: check only, drafts");
		is(l->quiet_from, -1, "no quiet hours");
		is(l->poll_interval, 300, "own poll interval");
		ok(!policy_owner(&l->policy, "akpm@example.org") && !l->policy.authserv_id,
		   "no owners, no authserv-id: From: as archived");
	}
	ok(!serve_config_list(&cfg, "nope"), "unknown list");

	is(load(&cfg, &c, "[serve]\nlisten = off\n[list.x]\narchive = http://h\n"), 0,
	   "listen = off");
	is_str(cfg.listen, "", "  no HTTP server");

	is(load(&cfg, &c, "[serve]\n"), WW_EINPUT, "no list is an error");
	ok(strstr(error_last(), "no [list.NAME]"), "  %s", error_last());
	is(load(&cfg, &c, "[list.x]\ninbox = x\n"), WW_EINPUT, "a list needs an archive");
	ok(strstr(error_last(), "needs 'archive'"), "  %s", error_last());
	is(load(&cfg, &c, "[list.x]\narchive = ftp://h\n"), WW_EINPUT, "only http(s)");
	is(load(&cfg, &c, "[list.x]\narchive = http://h\ninbox = ../x\n"), WW_EINPUT,
	   "an inbox name is one path segment");
	is(load(&cfg, &c, "[list.x]\narchive = http://h\nreplyto = list\n"), WW_EINPUT,
	   "a typo in a key is an error");
	ok(strstr(error_last(), "replyto"), "  names it: %s", error_last());
	is(load(&cfg, &c, "[serve]\npoll-intervall = 3\n[list.x]\narchive = http://h\n"),
	   WW_EINPUT, "a typo in [serve] too");
	is(load(&cfg, &c, "[list.x]\narchive = http://h\nreply = maybe\n"), WW_EINPUT,
	   "reply must be none/draft/send");
	is(load(&cfg, &c, "[list.x]\narchive = http://h\nquiet-hours = 22-7\n"), WW_EINPUT,
	   "quiet hours must be HH:MM-HH:MM");
	is(load(&cfg, &c, "[list.x]\narchive = http://h\nquiet-hours = 25:00-07:00\n"),
	   WW_EINPUT, "hour 25");
	is(load(&cfg, &c, "[serve]\nlisten = localhost:80:1\n[list.x]\narchive = http://h\n"),
	   WW_EINPUT, "a bad listen address");
	is(load(&cfg, &c, "[serve]\nlisten = localhost:8025\n[list.x]\narchive = http://h\n"),
	   WW_EINPUT, "a host name is not an address to bind");
	ok(strstr(error_last(), "numeric"), "  %s", error_last());
	is(load(&cfg, &c, "[serve]\nlisten = [::1]:8025\n[list.x]\narchive = http://h\n"),
	   0, "IPv6 loopback");
	is(load(&cfg, &c, "[serve]\nsettle = -1\n[list.x]\narchive = http://h\n"),
	   WW_EINPUT, "a negative settle time");
	is(load(&cfg, &c, "[list.x]\narchive = http://h\nowners = akpm\n"), WW_EINPUT,
	   "an owner is an address");
	ok(strstr(error_last(), "'akpm' is not an address"), "  %s", error_last());
	is(load(&cfg, &c, "[list.x]\narchive = http://h\nauthserv-id = a b\n"), WW_EINPUT,
	   "authserv-id is one name");
	serve_config_release(&cfg);
	settings_release(&c);
}

static time_t at(int hour, int min)
{
	struct tm tm = { .tm_year = 124, .tm_mon = 4, .tm_mday = 6,
			 .tm_hour = hour, .tm_min = min, .tm_isdst = -1 };

	return mktime(&tm);
}

static void test_quiet(void)
{
	struct serve_list l = { .quiet_from = 22 * 60, .quiet_to = 7 * 60 };
	time_t end;

	ok(!serve_quiet(&l, at(21, 59), &end), "21:59 is not quiet");
	ok(serve_quiet(&l, at(22, 0), &end), "22:00 is quiet");
	is(end, at(31, 0), "  until 07:00 the next day");
	ok(serve_quiet(&l, at(3, 30), &end), "03:30 is quiet");
	is(end, at(7, 0), "  until 07:00 the same day");
	ok(!serve_quiet(&l, at(7, 0), &end), "07:00 is not");
	l.quiet_from = 12 * 60;
	l.quiet_to = 13 * 60;
	ok(serve_quiet(&l, at(12, 30), &end) && end == at(13, 0), "lunch: 12:30 until 13:00");
	ok(!serve_quiet(&l, at(13, 30), &end), "13:30 is not");
	l.quiet_from = -1;
	ok(!serve_quiet(&l, at(3, 0), &end), "no quiet hours");
}

static void test_allowed(void)
{
	struct serve_list l = { 0 };
	const char *paths[] = { "mm/slub.c", "include/linux/mm.h", NULL };
	const char *other[] = { "drivers/net/x.c", NULL };
	const char *why = NULL;

	strvec_init(&l.allow_senders);
	strvec_init(&l.allow_paths);
	ok(serve_allowed(&l, "a@b", paths, &why), "no allow-lists: everyone");
	strvec_push(&l.allow_senders, "*@example.org");
	ok(serve_allowed(&l, "Jane@EXAMPLE.org", paths, &why), "sender glob, any case");
	ok(!serve_allowed(&l, "eve@example.net", paths, &why), "other senders refused");
	ok(why && strstr(why, "allow-senders"), "  says why: %s", why);
	strvec_push(&l.allow_paths, "mm/");
	ok(serve_allowed(&l, "jane@example.org", paths, &why), "a directory prefix");
	ok(!serve_allowed(&l, "jane@example.org", other, &why), "nothing in allow-paths");
	ok(why && strstr(why, "allow-paths"), "  says why: %s", why);
	strvec_clear(&l.allow_paths);
	strvec_push(&l.allow_paths, "drivers/*/x.c");
	ok(serve_allowed(&l, "jane@example.org", other, &why), "a glob");
	/* Every recipient but the lists, not only the author (issue 22). */
	{
		struct mail_addr_list rcpt = MAIL_ADDR_LIST_INIT;

		mail_addr_parse(&rcpt, "jane@example.org, linux-mm@kvack.org");
		ok(serve_rcpt_allowed(&l, &rcpt, "linux-mm@kvack.org", &why),
		   "the author and the list");
		ok(!serve_rcpt_allowed(&l, &rcpt, NULL, &why),
		   "no list configured: a list-looking address is not exempt");
		mail_addr_list_clear(&rcpt);
		mail_addr_parse(&rcpt, "jane@example.org, x@lists.evil.example");
		ok(!serve_rcpt_allowed(&l, &rcpt, "linux-mm@kvack.org", &why),
		   "a Cc'd x@lists.evil.example is not the list: refused");
		mail_addr_parse(&rcpt, "victim@elsewhere.example");
		ok(!serve_rcpt_allowed(&l, &rcpt, NULL, &why), "another recipient is refused");
		ok(why && strstr(why, "allow-senders"), "  says why: %s", why);
		ok(!serve_rcpt_allowed(&l, &rcpt, "linux-mm@kvack.org", &why),
		   "the list's own address alone is a list");
		mail_addr_list_clear(&rcpt);
	}
	strvec_clear(&l.allow_senders);
	strvec_clear(&l.allow_paths);
}

/* The example in docs/ must stay a valid configuration. */
static void test_example(void)
{
	struct settings c = SETTINGS_INIT;
	struct serve_config cfg = SERVE_CONFIG_INIT;
	struct strbuf path = STRBUF_INIT;
	const char *top = getenv("WW_TOP");

	strbuf_addf(&path, "%s/docs/serve.conf.example", top ? top : ".");
	is(settings_load(&c, path.buf, 0), 0, "docs/serve.conf.example reads: %s",
	   error_last());
	is(serve_config_load(&cfg, &c), 0, "  and is a valid service configuration");
	ok(cfg.nr_lists == 2 && !strcmp(cfg.listen, "127.0.0.1:8025"),
	   "  two lists, dashboard on 127.0.0.1");
	/* Copied as is, the first replies must not wait until morning. */
	ok(cfg.nr_lists == 2 && cfg.lists[0].quiet_from < 0 && cfg.lists[1].quiet_from < 0,
	   "  no quiet hours unless uncommented");
	ok(cfg.nr_lists == 2 && !cfg.lists[0].policy.positive && cfg.lists[0].policy.daily_cap &&
	   cfg.send.daily_cap && *cfg.send.stop_file,
	   "  the noise policy's safe defaults: positive = no, daily caps, a stop file");
	serve_config_release(&cfg);
	settings_release(&c);
	strbuf_release(&path);
}

/*
 * Issue 25: one table of keys for every section, and a service that sends
 * says at start what is missing to send (not at each series' first send).
 */
static void test_settings(void)
{
	struct settings c = SETTINGS_INIT;
	struct serve_config cfg = SERVE_CONFIG_INIT;
	static const char list_send[] = "[smtp]\nurl = smtp://127.0.0.1:25\n"
		"[list.mm]\narchive = https://lore.kernel.org\nreply = send\n";

	is(load(&cfg, &c, "[smtp]\nurl = smtp://127.0.0.1:25\nport = 25\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), WW_EINPUT,
	   "an unknown [smtp] key stops the service: %s", error_last());
	is(load(&cfg, &c, "[identity]\nmail = a@b\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), WW_EINPUT,
	   "an unknown [identity] key too");
	is(load(&cfg, &c, "[review]\nreply_to = list\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), WW_EINPUT,
	   "an unknown [review] key too");
	is(load(&cfg, &c, "[state]\nstart-wait = 10\nlease = 30\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), 0,
	   "[state] start-wait and lease are known");
	is(c.state.start_wait, 10, "  start-wait");
	is(c.state.lease, 30, "  lease");
	is(load(&cfg, &c, "[list.mm]\narchive = https://lore.kernel.org\n"
		"[reveiw]\nrules = /etc/ww-rules\n"), WW_EINPUT,
	   "an unknown section stops the service");
	is_str(error_last(), "test.conf:3: unknown section '[reveiw]'",
	       "  one line naming file:line");
	is(load(&cfg, &c, "[list.mm]\narchive = https://lore.kernel.org\n[reveiw]\n"),
	   WW_EINPUT, "an unknown section without keys too: %s", error_last());
	is(load(&cfg, &c, "[list.]\narchive = https://lore.kernel.org\n"), WW_EINPUT,
	   "[list.] names no list");
	is(load(&cfg, &c, "[ci]\nrepo = /srv/linux\nkeep-bases = 5\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), 0, "[ci] is known");
	ok(c.ci.repo && !strcmp(c.ci.repo, "/srv/linux") && c.ci.keep_bases == 5,
	   "  [ci] repo and keep-bases are typed settings");
	is(load(&cfg, &c, "[ci]\nrepos = /srv/linux\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), WW_EINPUT,
	   "a typo in a [ci] key: %s", error_last());
	is(load(&cfg, &c, "[review]\nrules = /etc/ww-rules\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), 0, "[review] rules");
	is_str(c.rules_dir.buf, "/etc/ww-rules", "  the service's rules are [review] rules");

	is(load(&cfg, &c, "[smtp]\nurl = smtp://127.0.0.1:25\n"
		"[list.mm]\narchive = https://lore.kernel.org\n"), 0,
	   "drafting lists need no identity");
	is(load(&cfg, &c, list_send),
	   WW_EINPUT, "a sending list without [identity] email: refused at start");
	ok(strstr(error_last(), "[identity] email") != NULL, "  naming it: %s", error_last());
	is(load(&cfg, &c, "[identity]\nemail = bot@example.org\n"
		"[list.mm]\narchive = https://lore.kernel.org\nreply = send\n"),
	   WW_EINPUT, "a sending list without [smtp] url: refused at start");
	ok(strstr(error_last(), "[smtp] url") != NULL, "  naming it: %s", error_last());
	is(load(&cfg, &c, "[identity]\nemail = bot@example.org\n"
		"[smtp]\nurl = smtp://127.0.0.1:25\nuser = bot\n"
		"[list.mm]\narchive = https://lore.kernel.org\nreply = send\n"),
	   WW_EINPUT, "[smtp] user without a password file: refused at start");
	is(load(&cfg, &c, "[identity]\nemail = bot@example.org\n"
		"[smtp]\nurl = smtp://127.0.0.1:25\nstarttls = maybe\n"
		"[list.mm]\narchive = https://lore.kernel.org\nreply = send\n"),
	   WW_EINPUT, "a bad [smtp] starttls: refused at start");
	is(load(&cfg, &c, "[identity]\nemail = bot@example.org\n"
		"[smtp]\nurl = smtp://127.0.0.1:25\n"
		"[list.mm]\narchive = https://lore.kernel.org\nreply = send\n"), 0,
	   "identity and smtp: the service starts");
	ok(c.sending && c.smtp.url && !strcmp(c.smtp.url, "smtp://127.0.0.1:25"),
	   "  with the SMTP options read once");
	serve_config_release(&cfg);
	settings_release(&c);
}

int main(void)
{
	/* Quiet hours are local time: pin the zone. */
	setenv("TZ", "UTC", 1);
	tzset();
	test_config();
	test_quiet();
	test_allowed();
	test_example();
	test_settings();
	return done_testing();
}
