/*
 * Unit tests for bot/serve/policy.c: the per-list noise keys and their
 * defaults, ignore-senders, the stop file and the daily caps counted
 * from the store.
 */
#include "policy.h"
#include "queue.h"
#include "tap.h"
#include "tmpdir.h"

#include <fcntl.h>
#include <unistd.h>

static void add_reply_by(struct store *st, const char *inbox, const char *root,
			 const char *author, const char *state, time_t when)
{
	struct strbuf id = STRBUF_INIT;

	strbuf_addf(&id, "r-%s", root);
	store_exec(st, "INSERT INTO queue_series (inbox, root_msgid, author_email, state,"
		   " first_seen, last_seen, updated) VALUES (?, ?, ?, 'replied', 0, 0, 0)",
		   "sss", inbox, root, author);
	store_exec(st, "INSERT INTO replies (series, version, message_id, in_reply_to,"
		   " subject, recipients, state, created, updated) VALUES"
		   " (?, 1, ?, ?, '', '', ?, ?, ?)", "ssssttt", root, id.buf, root, state,
		   when, when);
	strbuf_release(&id);
}

static void add_reply(struct store *st, const char *inbox, const char *root,
		      const char *state, time_t when)
{
	add_reply_by(st, inbox, root, "", state, when);
}

/*
 * Issue 38.7: one mail per author per list per `pace`; a family
 * cross-posted as three series gets its mail spaced out, not lost.
 */
static void test_pace(struct store *st, const struct policy_global *pg, time_t now)
{
	struct config c = CONFIG_INIT;
	struct policy_list pl;
	struct strbuf why = STRBUF_INIT;
	struct policy_series second = { "ext4", "Djwong@Kernel.org", "fam2@x" };
	time_t until = 0;
	static const struct { const char *text; int ret; unsigned int secs; } e[] = {
		{ "0", 0, 0 }, { "60", 0, 3600 }, { "20s", 0, 20 }, { "2h", 0, 7200 },
		{ "1440", 0, 86400 }, { "25h", WW_EINPUT, 0 }, { "1441", WW_EINPUT, 0 },
		{ "soon", WW_EINPUT, 0 }, { "", WW_EINPUT, 0 },
	};

	is(policy_list_load(&pl, &c, "list.ext4"), 0, "38.7: no pace key");
	is(pl.pace, POLICY_DEFAULT_PACE, "  pace is on by default (%u s)", pl.pace);
	pl.daily_cap = 0;
	for (size_t i = 0; i < ARRAY_SIZE(e); i++) {
		unsigned int secs = 12345;
		int ret = policy_parse_pace(&secs, e[i].text);

		ok(ret == e[i].ret && (ret || secs == e[i].secs),
		   "38.7: pace = '%s': %s %u s", e[i].text, ret ? "refused" : "", secs);
		error_clear();
	}
	add_reply_by(st, "ext4", "fam1@x", "djwong@kernel.org", "sent", now - 20);
	is(policy_hold(&until, &why, st, pg, &pl, &second, now), 1,
	   "38.7: the family's second series, 20 s after the first mail: held");
	ok(strstr(why.buf, "pace") && strstr(why.buf, "Djwong@Kernel.org"), "  %s", why.buf);
	is(until, now - 20 + 3600 + 1, "  until an hour after the first");
	strbuf_reset(&why);
	second.root = "fam1@x";
	is(policy_hold(&until, &why, st, pg, &pl, &second, now), 0,
	   "  the series' own reply does not hold it");
	second.root = "fam2@x";
	second.author = "other@kernel.org";
	is(policy_hold(&until, &why, st, pg, &pl, &second, now), 0, "  another author: go");
	second.author = "djwong@kernel.org";
	second.inbox = "xfs";
	is(policy_hold(&until, &why, st, pg, &pl, &second, now), 0,
	   "  the same author on another list: go");
	second.inbox = "ext4";
	is(policy_hold(&until, &why, st, pg, &pl, &second, now + 3600), 0,
	   "  an hour later: go");
	pl.pace = 0;
	is(policy_hold(&until, &why, st, pg, &pl, &second, now), 0, "  pace = 0: go");
	policy_list_release(&pl);
	config_release(&c);
	strbuf_release(&why);
}

int main(void)
{
	char dir[] = "/tmp/t-policy.XXXXXX";
	struct config c = CONFIG_INIT;
	struct policy_list pl;
	struct policy_global pg;
	struct store st = STORE_INIT;
	struct strbuf why = STRBUF_INIT, stop = STRBUF_INIT;
	time_t now = 1700000000, until = 0;
	struct policy_series ext4 = { "ext4", NULL, "me@x" };
	int fd;

	if (!mkdtemp(dir))
		return 1;
	/* Defaults: the safe side. */
	is(policy_list_load(&pl, &c, "list.ext4"), 0, "no keys: defaults");
	ok(!pl.positive, "positive = no by default");
	is(pl.min_level, POLICY_LEVEL_WARNING, "min-level = warning by default");
	is(pl.embargo, 0, "no embargo by default");
	is(policy_embargo_until(&pl, 1000), 0, "  so no wait");
	is(pl.daily_cap, POLICY_DEFAULT_LIST_CAP, "a daily cap per list by default");
	ok(policy_ignored(&pl, "syzbot+abc123@syzkaller.appspotmail.com"), "syzbot ignored");
	ok(policy_ignored(&pl, "lkp@intel.com"), "the kernel test robot ignored");
	ok(!policy_ignored(&pl, "jane@example.org"), "a person is not");
	policy_list_release(&pl);
	is(policy_global_load(&pg, &c, dir), 0, "[serve] defaults");
	is(pg.daily_cap, POLICY_DEFAULT_CAP, "an overall cap by default");
	strbuf_addf(&stop, "%s/stop", dir);
	is_str(pg.stop_file, stop.buf, "the stop file is STATE_DIR/stop");
	policy_global_release(&pg);

	config_set(&c, "list.ext4", "positive", "yes");
	config_set(&c, "list.ext4", "ignore-senders", "*@bots.example.org");
	config_set(&c, "list.ext4", "daily-cap", "2");
	is(policy_list_load(&pl, &c, "list.ext4"), 0, "keys set");
	ok(pl.positive && pl.daily_cap == 2, "positive = yes, daily-cap = 2");
	config_set(&c, "list.ext4", "min-level", "info");
	config_set(&c, "list.ext4", "embargo", "12");
	policy_list_release(&pl);
	is(policy_list_load(&pl, &c, "list.ext4"), 0, "min-level and embargo set");
	ok(pl.min_level == POLICY_LEVEL_INFO && pl.embargo == 12 * 3600,
	   "min-level = info, embargo = 12 (hours)");
	is(policy_embargo_until(&pl, 1000), 1000 + 12 * 3600, "the embargo ends 12 h after the newest mail");
	{
		static const struct { const char *text; int ret; unsigned int secs; } e[] = {
			{ "0", 0, 0 }, { "20s", 0, 20 }, { "90m", 0, 5400 }, { "2h", 0, 7200 },
			{ "720", 0, 720 * 3600 }, { "721", WW_EINPUT, 0 },
			{ "2592001s", WW_EINPUT, 0 }, { "99999999999999999999", WW_EINPUT, 0 },
			{ "", WW_EINPUT, 0 }, { "-1", WW_EINPUT, 0 }, { "1d", WW_EINPUT, 0 },
			{ "1 h", WW_EINPUT, 0 }, { "h", WW_EINPUT, 0 }, { "1.5", WW_EINPUT, 0 },
		};

		for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
			unsigned int secs = 12345;
			int ret = policy_parse_embargo(&secs, e[i].text);

			ok(ret == e[i].ret && (ret || secs == e[i].secs),
			   "embargo = '%s': %s %u s", e[i].text, ret ? "refused" : "", secs);
			error_clear();
		}
		config_set(&c, "list.ext4", "embargo", "1d");
		policy_list_release(&pl);
		is(policy_list_load(&pl, &c, "list.ext4"), WW_EINPUT, "a bad embargo is refused");
		ok(strstr(error_last(), "list.ext4.embargo") != NULL, "  naming the key: %s",
		   error_last());
		error_clear();
		config_set(&c, "list.ext4", "embargo", "20s");
		policy_list_release(&pl);
		is(policy_list_load(&pl, &c, "list.ext4"), 0, "embargo = 20s");
		is(policy_embargo_until(&pl, 1000), 1020, "  ends 20 s after the newest mail");
		config_set(&c, "list.ext4", "embargo", "12");
	}
	config_set(&c, "list.ext4", "min-level", "error");
	policy_list_release(&pl);
	is(policy_list_load(&pl, &c, "list.ext4"), WW_EINPUT, "a bad min-level is refused");
	config_set(&c, "list.ext4", "min-level", "warning");
	ok(policy_ignored(&pl, "ci@bots.example.org") && !policy_ignored(&pl, "lkp@intel.com"),
	   "ignore-senders replaces the default list");
	policy_list_release(&pl);
	config_set(&c, "list.ext4", "daily-cap", "lots");
	is(policy_list_load(&pl, &c, "list.ext4"), WW_EINPUT, "a bad daily-cap is refused");
	policy_list_release(&pl);
	config_set(&c, "list.ext4", "daily-cap", "2");
	config_set(&c, "list.ext4", "positive", "maybe");
	is(policy_list_load(&pl, &c, "list.ext4"), WW_EINPUT, "a bad positive is refused");
	policy_list_release(&pl);
	config_set(&c, "list.ext4", "positive", "no");
	policy_list_load(&pl, &c, "list.ext4");
	config_set(&c, "serve", "daily-cap", "3");
	config_set(&c, "serve", "stop-file", stop.buf);
	is(policy_global_load(&pg, &c, "/nonexistent"), 0, "[serve] keys set");

	is(store_open(&st, dir), 0, "a state");
	is(policy_hold(&until, &why, &st, &pg, &pl, &ext4, now), 0, "nothing sent: go");
	fd = open(stop.buf, O_CREAT | O_WRONLY, 0600);
	close(fd);
	is(policy_hold(&until, &why, &st, &pg, &pl, &ext4, now), 1, "the stop file halts sending");
	ok(strstr(why.buf, "stop file") && until > now, "  saying so: %s", why.buf);
	unlink(stop.buf);
	strbuf_reset(&why);

	/* Five hours ago: still within the day the caps count. */
	add_reply(&st, "ext4", "a@x", "sent", now - 5 * 3600);
	add_reply(&st, "ext4", "old@x", "sent", now - 2 * 86400);
	add_reply(&st, "ext4", "f@x", "failed", now - 50);
	add_reply(&st, "xfs", "b@x", "sent", now - 90);
	is(policy_hold(&until, &why, &st, &pg, &pl, &ext4, now), 0,
	   "one reply on the list today (the old and the failed one do not count)");
	add_reply(&st, "ext4", "c@x", "intent", now - 10);
	is(policy_hold(&until, &why, &st, &pg, &pl, &ext4, now), 1, "the list's cap");
	ok(strstr(why.buf, "daily-cap (2") != NULL, "  %s", why.buf);
	is(until, now - 5 * 3600 + 86400 + 1, "  until the oldest of the day is a day old");
	strbuf_reset(&why);
	pl.daily_cap = 0;
	is(policy_hold(&until, &why, &st, &pg, &pl, &ext4, now), 1,
	   "the overall cap counts every list");
	ok(strstr(why.buf, "[serve] daily-cap (3") != NULL, "  %s", why.buf);
	pg.daily_cap = 0;
	test_pace(&st, &pg, now);

	store_close(&st);
	policy_list_release(&pl);
	policy_global_release(&pg);
	config_release(&c);
	strbuf_release(&why);
	strbuf_release(&stop);
	tmp_remove(dir);
	return done_testing();
}
