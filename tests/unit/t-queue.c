/*
 * The service queue: grouping messages into series the way public-inbox
 * threads them, settle and completeness, version linkage, stage
 * transitions with retries, poll state; in a real state store.
 */
#include "queue.h"
#include "tap.h"
#include "tmpdir.h"

#include <sys/stat.h>
#include <unistd.h>
#ifdef T_QUEUE_PG
#include "pg.h"
#endif

static struct queue q;
static struct store store = STORE_INIT;
static char tmpdir[] = "/tmp/t-queue.XXXXXX";

static int add(const char *mid, const char *parent, const char *subject,
	       const char *email, time_t now)
{
	struct queue_msg m = {
		.inbox = "test", .msgid = mid, .parent = parent,
		.subject = subject, .author_name = "Jane Dev",
		.author_email = email,
	};

	return queue_add_message(&q, &m, now, false);
}

static long long series_of(const char *mid)
{
	struct store_rows *st;
	long long id = -1;

	if (store_query(&st, &store, "SELECT series_id FROM queue_messages "
			"WHERE msgid = ?", "s", mid) == 1) {
		id = store_rows_int(st, 0);
		store_rows_free(st);
	}
	return id;
}

static void test_grouping(void)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	long long id;

	is(add("c1@x", "", "[PATCH 0/2] foo: tidy up", "Jane@X.org", 1000),
	   QUEUE_ADDED, "cover letter starts a series");
	id = series_of("c1@x");
	ok(id > 0, "  it has a series");
	is(add("p1@x", "c1@x", "[PATCH 1/2] foo: add a check", "jane@x.org", 1001),
	   QUEUE_ADDED, "patch 1/2 added");
	is(series_of("p1@x"), id, "  joins the cover's series");
	is(add("r1@x", "p1@x", "Re: [PATCH 1/2] foo: add a check", "rev@x.org", 1002),
	   QUEUE_IGNORED, "a reply is recorded but not grouped");
	is(series_of("r1@x"), 0, "  no series");
	is(add("p1@x", "c1@x", "[PATCH 1/2] foo: add a check", "jane@x.org", 1003),
	   QUEUE_KNOWN, "the same message again is known");

	queue_load(&s, &q, id);
	is_str(s.title, "foo: tidy up", "series title from the cover");
	is_str(s.author_email, "jane@x.org", "author address lower-cased");
	is_str(s.author, "Jane Dev <jane@x.org>", "author");
	is(s.total, 2, "total 2");
	is(s.nr_seen, 1, "one patch seen");
	ok(s.has_cover, "has a cover");
	is(s.state, QS_RECEIVED, "received");
	is(s.next_at, 1000 + (time_t)q.opts.max_wait,
	   "incomplete: waits for the archive to bring the rest, up to max-wait "
	   "(no b4 run every settle seconds)");
	queue_series_release(&s);

	is(add("p2@x", "c1@x", "[PATCH 2/2] foo: second", "jane@x.org", 1010),
	   QUEUE_ADDED, "patch 2/2 added");
	queue_load(&s, &q, id);
	is(s.nr_seen, 2, "both patches seen");
	is(s.next_at, 1010, "complete: due at once");
	queue_series_release(&s);

	/* Deep threading (--chain-reply-to), no cover letter. */
	add("d1@x", "", "[PATCH 1/3] bar: one", "bob@x.org", 2000);
	add("d2@x", "d1@x", "[PATCH 2/3] bar: two", "bob@x.org", 2001);
	add("d3@x", "d2@x", "[PATCH 3/3] bar: three", "bob@x.org", 2002);
	id = series_of("d1@x");
	ok(id > 0 && series_of("d2@x") == id && series_of("d3@x") == id,
	   "chained patches without a cover form one series");
	queue_load(&s, &q, id);
	is_str(s.title, "bar: one", "title from the first patch");
	ok(!s.has_cover, "no cover");
	is(s.nr_seen, 3, "three seen");
	queue_series_release(&s);

	/* Out of order: 2/2 before its cover and 1/2. */
	add("o2@x", "oc@x", "[PATCH v3 2/2] baz: later", "amy@x.org", 3000);
	id = series_of("o2@x");
	ok(id > 0, "a patch whose cover is unseen gets a series keyed by the cover");
	add("oc@x", "", "[PATCH v3 0/2] baz: the cover", "amy@x.org", 3001);
	is(series_of("oc@x"), id, "the cover adopts that series");
	add("o1@x", "oc@x", "[PATCH v3 1/2] baz: first", "amy@x.org", 3002);
	is(series_of("o1@x"), id, "patch 1 joins it");
	queue_load(&s, &q, id);
	is_str(s.title, "baz: the cover", "title taken from the late cover");
	is(s.version, 3, "version 3");
	is(s.nr_seen, 2, "complete");
	queue_series_release(&s);

	/* A v2 threaded under v1's cover is a series of its own. */
	add("v2c@x", "c1@x", "[PATCH v2 0/2] foo: tidy up", "jane@x.org", 4000);
	add("v2p1@x", "v2c@x", "[PATCH v2 1/2] foo: add a check", "jane@x.org", 4001);
	add("v2p2@x", "v2c@x", "[PATCH v2 2/2] foo: second", "jane@x.org", 4002);
	id = series_of("v2c@x");
	ok(id > 0 && id != series_of("c1@x"), "v2 in reply to v1 is a new series");
	is(series_of("v2p1@x"), id, "  its patches join it");
	/* A patch that spells another version than the cover does not join
	 * it; one that spells none is the cover's version (as b4 reads it). */
	add("odd@x", "v2c@x", "[PATCH v4 1/2] foo: add a check", "jane@x.org", 4003);
	ok(series_of("odd@x") != id, "a different version does not join");

	/* Lone patch. */
	is(add("solo@x", "", "[PATCH net-next] qux: fix", "kim@x.org", 5000),
	   QUEUE_ADDED, "a lone patch");
	queue_load(&s, &q, series_of("solo@x"));
	ok(s.total == 1 && s.nr_seen == 1 && s.next_at == 5000,
	   "a lone patch is complete at once");
	queue_series_release(&s);

	is(add("chat@x", "", "what about BUG_ON?", "kim@x.org", 5001), QUEUE_IGNORED,
	   "a discussion is not a series");
}

/* Shapes of real covers and series seen on linux-ext4 (issue 27). */
static void test_real_shapes(void)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	char mid[64], subj[128];
	long long id;
	bool one = true;

	/* hch's fsverity v4: the cover has no [PATCH] tag. */
	is(add("hch0@lst.de", "", "fsverity: support for larger folios v4",
	       "hch@lst.de", 50000), QUEUE_IGNORED, "a cover without a tag alone "
	   "is not a series yet");
	for (int i = 1; i <= 15; i++) {
		snprintf(mid, sizeof(mid), "hch%d@lst.de", i);
		snprintf(subj, sizeof(subj), "[PATCH %02d/15] fsverity: step %d", i, i);
		add(mid, "hch0@lst.de", subj, "hch@lst.de", 50000 + i);
		one &= series_of(mid) == series_of("hch1@lst.de");
	}
	id = series_of("hch1@lst.de");
	ok(id > 0 && one, "its 15 patches are one series, not 15");
	is(series_of("hch0@lst.de"), id, "  the untagged cover is its member");
	queue_load(&s, &q, id);
	is_str(s.root_msgid, "hch0@lst.de", "  rooted at the cover");
	ok(s.has_cover, "  has a cover");
	is_str(s.title, "fsverity: support for larger folios v4", "  titled by it");
	ok(s.total == 15 && s.nr_seen == 15 && s.next_at == 50015,
	   "  complete: due at once");
	queue_series_release(&s);

	/* The untagged cover arriving after a patch that answers it. */
	add("late2@x", "late0@x", "[PATCH 2/2] ext4: two", "ted@x.org", 51000);
	id = series_of("late2@x");
	is(add("late0@x", "", "ext4: two small things", "ted@x.org", 51001),
	   QUEUE_ADDED, "a late untagged cover adopts the series its patches keyed");
	is(series_of("late0@x"), id, "  it joins");
	add("late1@x", "late0@x", "[PATCH 1/2] ext4: one", "ted@x.org", 51002);
	is(series_of("late1@x"), id, "  patch 1 joins through it");
	queue_load(&s, &q, id);
	ok(s.has_cover && !strcmp(s.title, "ext4: two small things") &&
	   s.nr_seen == 2, "  named by the cover, complete");
	queue_series_release(&s);

	/* A lone patch answering a bug report is not the report's series. */
	add("report@x", "", "kernel BUG at fs/ext4/inode.c:1234", "bot@x.org", 51100);
	add("fix@x", "report@x", "[PATCH] ext4: fix the BUG", "ann@x.org", 51101);
	queue_load(&s, &q, series_of("fix@x"));
	is_str(s.root_msgid, "fix@x", "a lone patch answering a report is its own series");
	queue_series_release(&s);

	/* Darrick's fuse: [PATCHSET v7 3/9] covers, [PATCH 1/2] patches. */
	is(add("djw3@k.org", "bomb@k.org", "[PATCHSET v7 3/9] fuse: cache iomap mappings",
	       "djwong@kernel.org", 52000), QUEUE_ADDED, "a PATCHSET m/n is a cover");
	add("djw3a@k.org", "djw3@k.org", "[PATCH 1/2] fuse: cache iomaps",
	    "djwong@kernel.org", 52001);
	add("djw3b@k.org", "djw3@k.org", "[PATCH 2/2] fuse: invalidate iomaps",
	    "djwong@kernel.org", 52002);
	id = series_of("djw3@k.org");
	ok(id > 0 && series_of("djw3a@k.org") == id && series_of("djw3b@k.org") == id,
	   "  its patches join it although they spell no version");
	queue_load(&s, &q, id);
	is(s.version, 7, "  version 7, from the cover");
	is(s.total, 2, "  two patches (not the 9 sets)");
	ok(s.nr_seen == 2 && s.next_at == 52002, "  complete: due at once");
	is(s.patch_version, 1, "  its patches spell no version (b4 is not told v7)");
	queue_series_release(&s);
	add("djw4@k.org", "bomb@k.org", "[PATCHSET v7 4/9] fuse: iomap direct io",
	    "djwong@kernel.org", 52003);
	add("djw4a@k.org", "djw4@k.org", "[PATCH 1/1] fuse: direct io",
	    "djwong@kernel.org", 52004);
	ok(series_of("djw4a@k.org") == series_of("djw4@k.org") &&
	   series_of("djw4@k.org") != id, "  the next set is a series of its own");

	/* A review that kept the patch's subject, without "Re:". */
	add("echo@k.org", "djw3a@k.org", "[PATCH 1/2] fuse: cache iomaps",
	    "reviewer@x.org", 52005);
	queue_load(&s, &q, series_of("echo@k.org"));
	ok(s.state == QS_SKIPPED && s.id != id, "a review keeping the subject is "
	   "set aside at once, no b4 run");
	ok(strstr(s.error, "the same series as #") != NULL, "  says whose: %s", s.error);
	queue_series_release(&s);

	/* Patches that disagree on the length, chained. */
	add("len1@x", "", "[PATCH v2 1/3] jbd2: one", "jan@x.org", 53000);
	add("len2@x", "len1@x", "[PATCH v2 2/3] jbd2: two", "jan@x.org", 53001);
	add("len3@x", "len2@x", "[PATCH v2 3/4] jbd2: three", "jan@x.org", 53002);
	id = series_of("len1@x");
	ok(series_of("len2@x") == id && series_of("len3@x") == id,
	   "patches disagreeing on the count are one series");
	queue_load(&s, &q, id);
	ok(s.total == 3 && s.nr_seen == 3 && s.next_at == 53002,
	   "  1..3 there: complete, due at once");
	queue_series_release(&s);
}

static void test_settle_caps(void)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	long long id;

	add("s1@x", "", "[PATCH 1/3] slow: one", "sam@x.org", 10000);
	id = series_of("s1@x");
	add("s2@x", "s1@x", "[PATCH 2/3] slow: two", "sam@x.org",
	    10000 + q.opts.max_wait - 10);
	queue_load(&s, &q, id);
	is(s.next_at, 10000 + (time_t)q.opts.max_wait,
	   "settle never pushes past first_seen + max_wait");
	queue_series_release(&s);
}

static void test_skip(void)
{
	struct queue_msg m = {
		.inbox = "test", .msgid = "old0@x", .parent = "",
		.subject = "[PATCH 0/1] old: before we watched",
		.author_name = "", .author_email = "old@x.org",
	};
	struct queue_series s = QUEUE_SERIES_INIT;

	is(queue_add_message(&q, &m, 6000, true), QUEUE_ADDED, "skip: recorded");
	queue_load(&s, &q, series_of("old0@x"));
	is(s.state, QS_SKIPPED, "series created skipped");
	ok(strstr(s.error, "before the service watched"), "  says why");
	is_str(s.author, "old@x.org", "author without a name");
	queue_series_release(&s);
	add("old1@x", "old0@x", "[PATCH 1/1] old: one", "old@x.org", 6001);
	queue_load(&s, &q, series_of("old1@x"));
	is(s.state, QS_SKIPPED, "its patch joins the skipped series");
	queue_series_release(&s);
}

static void test_versions(void)
{
	long long v1 = series_of("c1@x"), v2 = series_of("v2c@x"), id;

	is(queue_prev_version(&q, v1), 0, "v1 has no earlier version");
	is(queue_prev_version(&q, v2), v1, "v2 linked to v1 by title and author");
	is(queue_prev_version(&q, v2), v1, "  (stored)");

	/* v2 without a cover: matched on a patch title. */
	add("w1@x", "", "[PATCH 1/2] bar: one", "bob@x.org", 7000);
	add("w2@x", "w1@x", "[PATCH 2/2] bar: two", "bob@x.org", 7001);
	add("w2a@x", "", "[PATCH v2] bar: one", "bob@x.org", 7002);
	is(queue_prev_version(&q, series_of("w2a@x")), series_of("w1@x"),
	   "v2 without cover linked through a patch title");
	add("x2@x", "", "[PATCH v2] bar: one", "eve@x.org", 7003);
	is(queue_prev_version(&q, series_of("x2@x")), 0,
	   "same title by someone else is not linked");

	/* v3 links to v2, not v1. */
	add("v3c@x", "", "[PATCH v3 0/2] foo:  Tidy  up", "jane@x.org", 8000);
	id = series_of("v3c@x");
	is(queue_prev_version(&q, id), v2, "v3 links to the newest earlier version "
	   "(title case and spacing ignored)");
}

static void test_stages(void)
{
	struct queue_series s = QUEUE_SERIES_INIT;
	long long id, due = 0;
	int n = 0;

	/* Everything so far that is received and due by t=19999. */
	while (queue_next_due(&due, &q, 19999) == 1 && n++ < 50)
		queue_advance(&q, due, QS_REPLIED, 19999);
	ok(n > 3 && n < 50, "drained %d due series", n);
	is(queue_next_due(&due, &q, 19999), 0, "nothing due");

	add("f1@x", "", "[PATCH] fail: me", "fay@x.org", 20000);
	id = series_of("f1@x");
	is(queue_next_wakeup(&q), 20000, "wake-up time of the next series");
	is(queue_next_due(&due, &q, 20000), 1, "due");
	is(due, id, "  it is the new one");
	is(queue_advance(&q, id, QS_FETCHED, 20000), 0, "advance to fetched");
	is(queue_fail(&q, id, "b4: server down", false, 20001), QS_FETCHED,
	   "first failure keeps the stage");
	queue_load(&s, &q, id);
	ok(s.attempts == 1 && s.next_at == 20001 + (time_t)q.opts.retry_base &&
	   !strcmp(s.error, "b4: server down"), "retry after retry_base");
	queue_series_release(&s);
	/* The callers' way: the reason is the stored message, which
	 * queue_load() inside queue_fail() clears. */
	error_code(WW_ENET, "again");
	queue_fail(&q, id, error_last(), false, 20100);
	queue_load(&s, &q, id);
	is(s.next_at, 20100 + 2 * (time_t)q.opts.retry_base, "delay doubles");
	is_str(s.error, "again", "the reason is error_last() before the failure");
	queue_series_release(&s);
	error_clear();
	queue_fail(&q, id, error_last(), false, 20200);
	queue_load(&s, &q, id);
	is_str(s.error, "failed with no message (code -1)",
	       "a failure without a message is not recorded with an empty reason");
	queue_series_release(&s);
	queue_fail(&q, id, "4", false, 20300);
	is(queue_fail(&q, id, "5: gave up", false, 20400), QS_FAILED,
	   "max attempts: failed");
	queue_load(&s, &q, id);
	ok(s.state == QS_FAILED && s.failed_in == QS_FETCHED && s.attempts == 5,
	   "failed, remembering the stage");
	queue_series_release(&s);
	is(queue_next_due(&due, &q, 99999), 0, "failed series are not due");

	is(queue_retry(&q, 424242, false, 1), WW_ENOTFOUND, "retry of unknown id");
	is(queue_retry(&q, id, false, 30000), 0, "retry");
	queue_load(&s, &q, id);
	ok(s.state == QS_FETCHED && s.attempts == 0 && s.next_at == 30000,
	   "back at the failed stage, due now");
	queue_series_release(&s);
	is(queue_retry(&q, id, false, 30000), WW_EINPUT, "retry of an active series refused");
	is(queue_retry(&q, id, true, 30000), 0, "  unless forced");
	is(queue_fail(&q, id, "corrupt mbox", true, 30001), QS_FAILED,
	   "permanent failure fails at once");
	queue_set_verdict(&q, id, "findings", 3);
	queue_set_reply(&q, id, "sent <r@x>");
	queue_load(&s, &q, id);
	ok(!strcmp(s.verdict, "findings") && s.findings == 3 &&
	   !strcmp(s.reply, "sent <r@x>"), "verdict and reply recorded");
	queue_series_release(&s);
	is(queue_defer(&q, 77777, 1), WW_ENOTFOUND, "defer of unknown id");

	add("dup@x", "", "[PATCH] dup: me", "dan@x.org", 40000);
	is(queue_find(&due, &q, "test", "dup@x"), 1, "find by root");
	is(due, series_of("dup@x"), "  the right one");
	is(queue_find(&due, &q, "other", "dup@x"), 0, "  not in another list");
	is(queue_skip(&q, series_of("dup@x"), "the same series as #1", 40001), 0, "skip");
	queue_load(&s, &q, series_of("dup@x"));
	ok(s.state == QS_SKIPPED && !strcmp(s.error, "the same series as #1"),
	   "  skipped, with the reason");
	queue_series_release(&s);
	is(queue_skip(&q, 99999, "x", 1), WW_ENOTFOUND, "skip of unknown id");

	/* What the dashboard lists: newest first, the skipped left out. */
	{
		long long *ids = NULL;
		int nr = queue_recent(&ids, &q, 1000);
		bool has_skipped = false, newest_first = true;

		ok(nr > 1, "queue_recent lists the series: %d", nr);
		for (int i = 0; i < nr; i++) {
			struct queue_series a = QUEUE_SERIES_INIT, b = QUEUE_SERIES_INIT;

			has_skipped |= ids[i] == series_of("dup@x");
			if (i && !queue_load(&a, &q, ids[i - 1]) && !queue_load(&b, &q, ids[i]))
				newest_first &= a.first_seen >= b.first_seen;
			queue_series_release(&a);
			queue_series_release(&b);
		}
		ok(!has_skipped, "  not the skipped one");
		ok(newest_first, "  newest first");
		free(ids);
		is(queue_recent(&ids, &q, 1), 1, "  at most max");
		free(ids);
	}
}

static void test_inbox_state(void)
{
	struct archive_inbox st = ARCHIVE_INBOX_INIT, back = ARCHIVE_INBOX_INIT;
	bool primed = true;

	is(queue_inbox_load(&back, &primed, &q, "test"), 0, "unknown inbox loads");
	ok(!primed && !*back.etag && !back.failures, "  empty state");
	st.etag = xstrdup("\"abc\"");
	st.last_modified = xstrdup("Mon, 01 Jan 2024 10:00:00 GMT");
	st.failures = 3;
	st.next_at = 1234;
	st.last_ok = 1000;
	is(queue_inbox_save(&q, "test", &st, true, "HTTP 503"), 0, "save");
	is(queue_inbox_save(&q, "test", &st, true, "HTTP 503"), 0, "save again (upsert)");
	queue_inbox_load(&back, &primed, &q, "test");
	ok(primed && !strcmp(back.etag, "\"abc\"") && back.failures == 3 &&
	   back.next_at == 1234 && back.last_ok == 1000 &&
	   !strcmp(back.last_modified, st.last_modified), "round trip");
	archive_inbox_release(&st);
	archive_inbox_release(&back);
}

static void test_dirs(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	is(queue_series_dir(&sb, &q, 42, true), 0, "series dir created");
	ok(!stat(sb.buf, &st) && S_ISDIR(st.st_mode), "  exists: %s", sb.buf);
	queue_artifact(&sb, &q, 42, QUEUE_FINDINGS);
	ok(ends_with(sb.buf, "/series/42/findings.json"), "artifact path");
	strbuf_release(&sb);
}

/* The clock serve counts retry delays from (t0401's "retry in 1 s" came
 * 0.55 s later when they counted from time(NULL) at the stage's start).
 * The bounds read CLOCK_REALTIME as time_ceil() does: glibc's time(NULL)
 * reads the coarse clock, up to a tick behind (CI saw ceil = time + 2). */
static time_t now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

static void test_time_ceil(void)
{
	time_t before = now_sec(), c = time_ceil(), after = now_sec();

	ok(c >= before && c <= after + 1,
	   "time_ceil() is the current second or the next (%lld in %lld..%lld)",
	   (long long)c, (long long)before, (long long)after + 1);
}

/*
 * t-queue-pg.c includes this file with T_QUEUE_PG defined: the same tests
 * on the PostgreSQL backend, so that the SQL written once behaves the same.
 */
#ifdef T_QUEUE_PG
static int open_store(char **argv)
{
	pg_test_env(argv);
	if (!mkdtemp(tmpdir))
		return -1;
	return store_open_url(&store, getenv("WW_TEST_PG_URL"),
			      getenv("WW_TEST_PG_PWFILE"));
}
#else
static int open_store(char **argv)
{
	if (!mkdtemp(tmpdir))
		return -1;
	return store_open(&store, tmpdir);
}
#endif

/* Workers' heartbeats, each with the releases it has built. */
static void beat(const char *name, const char *warm, time_t now)
{
	struct queue_worker w = { .name = name, .host = "h", .pid = 1,
				  .role = "worker", .started = now,
				  .stage = "idle", .warm = warm, .lease = 60 };

	queue_heartbeat(&q, &w, now);
}

static long long checked(const char *mid, const char *base, time_t now)
{
	char subject[64];
	long long id;

	snprintf(subject, sizeof(subject), "[PATCH] affinity: %s", mid);
	add(mid, "", subject, "jo@x.org", now);
	id = series_of(mid);
	store_exec(&store, "UPDATE queue_series SET state = 'checked', next_at = ?, "
		   "lease_until = 0 WHERE id = ?", "ti", now, id);
	queue_set_base(&q, id, base);
	return id;
}

/* Builds go to the worker that has their kernel built (queue_claim()). */
static void test_affinity(void)
{
	const time_t t = 50000;
	struct queue_series s = QUEUE_SERIES_INIT;
	long long a, b, c, id = 0;
	const char *was = q.warm;

	store_exec(&store, "UPDATE queue_series SET state = 'replied' WHERE state IN "
		   "('received', 'fetched', 'checked', 'booted')", "");
	a = checked("aff-a@x", "6.12", t);
	b = checked("aff-b@x", "6.1", t + 1);
	c = checked("aff-c@x", "", t + 2);
	beat("w612", ",6.12,", t);
	beat("w61", ",6.1,", t);
	queue_load(&s, &q, a);
	is_str(s.base, "6.12", "the base is stored");
	queue_series_release(&s);

	q.warm = ",6.1,";
	is(queue_claim(&id, &q, "w61", 600, t + 5), 1, "a 6.1-warm worker claims");
	is(id, b, "  the 6.1 build, before the older 6.12 one");
	queue_unclaim(&q, id, "w61");

	q.warm = "";
	is(queue_claim(&id, &q, "cold", 600, t + 5), 1, "a cold worker claims");
	is(id, c, "  the series without a build, not those warm elsewhere");
	queue_unclaim(&q, id, "cold");
	queue_advance(&q, c, QS_REPLIED, t + 5);
	is(queue_claim(&id, &q, "cold", 600, t + 5), 0,
	   "  and leaves the builds to the warm workers");
	is(queue_claim_id(&q, a, "cold", 600, t + 5), 0,
	   "  nor goes on with one itself (queue_claim_id)");
	q.warm = ",6.12,";
	is(queue_claim_id(&q, a, "w612", 600, t + 5), 1, "the 6.12-warm worker does");
	queue_unclaim(&q, a, "w612");

	q.warm = "";
	is(queue_claim(&id, &q, "cold", 600, t + (time_t)q.opts.warm_wait), 1,
	   "after warm_wait (%u s) a cold worker takes a build", q.opts.warm_wait);
	is(id, a, "  the oldest");
	queue_unclaim(&q, id, "cold");
	is(queue_claim(&id, &q, "cold", 30, t + 100), 1,
	   "a build whose warm worker fell silent (30 s lease) is anyone's");
	is(id, a, "  the oldest again");
	queue_unclaim(&q, id, "cold");
	queue_advance(&q, a, QS_REPLIED, t + 100);
	queue_advance(&q, b, QS_REPLIED, t + 100);
	q.warm = was;
}

/* The "queue" of queue_status_json(): what tests/e2e/lib.sh's
 * wait_idle() reads to know the service has nothing left to do. */
static json_int_t work(const char *key, time_t now)
{
	json_t *st = NULL;
	json_int_t v = -1;

	if (queue_status_json(&st, &q, 10, now) == 0)
		v = json_integer_value(json_object_get(json_object_get(st, "queue"), key));
	json_decref(st);
	return v;
}

static void test_work_left(void)
{
	long long id, due;
	int n = 0;

	while (queue_next_due(&due, &q, 1LL << 40) == 1 && n++ < 100)
		queue_advance(&q, due, QS_REPLIED, 90000);
	ok(work("active", 90000) == 0 && work("due", 90000) == 0 && work("held", 90000) == 0,
	   "status queue: nothing active once drained");
	add("idle@x", "", "[PATCH] idle: me", "ida@x.org", 90000);
	id = series_of("idle@x");
	ok(work("active", 90000) == 1 && work("due", 90000) == 1 &&
	   work("next_at", 90000) == 90000, "a new series: active, due now");
	queue_defer(&q, id, 90050);
	ok(work("due", 90000) == 0 && work("held", 90000) == 0 && work("next_at", 90000) == 90050,
	   "  deferred (settling): not due, not held, next at 90050");
	queue_set_reply(&q, id, "held until 07:00 (quiet hours)");
	ok(work("held", 90000) == 1 && work("active", 90000) == 1,
	   "  a policy holds it: held");
	ok(work("due", 90050) == 1, "  due again at its time");
	queue_advance(&q, id, QS_REPLIED, 90060);
	ok(work("active", 90060) == 0 && work("held", 90060) == 0, "  done: nothing left");
}

/*
 * Issue 38.5: what became of a series, in a list owner's words, from the
 * words the reply stage and the queue record.
 */
static void test_outcomes(void)
{
	static const struct {
		const char *state, *reply, *error;
		enum queue_outcome want;
		const char *why;	/* a part of it */
	} t[] = {
		{ "replied", "sent <r1@x> to a@x, l@x", "", QO_ANSWERED, "sent <r1@x>" },
		{ "replied", "sent <r1@x> (confirmed by the archive)", "", QO_ANSWERED, "archive" },
		{ "replied", "none: <p@x> was answered already by <r@x> (series <c@x> v1)", "",
		  QO_ANSWERED, "answered already" },
		{ "replied", "none: nothing to say", "", QO_NOTHING, "nothing to say" },
		{ "replied", "none: no issue, only thanks (positive = no)", "", QO_NOTHING,
		  "only thanks" },
		{ "replied", "none: every point was made in the thread already or called "
		  "wrong before", "", QO_NOTHING, "point was made" },
		{ "replied", "none: replies are off for this list", "", QO_HELD, "reply = none" },
		{ "replied", "none: the author is in ignore-senders", "", QO_HELD,
		  "ignore-senders" },
		{ "replied", "none: only info-level notes, with no evidence (min-level = "
		  "warning)", "", QO_HELD, "min-level" },
		{ "replied", "none: a@x (the author) muted warnwatch on this series "
		  "(<m@x>, family scope), until 2027-01-01 (suppression #3)", "", QO_HELD,
		  "a mute" },
		{ "replied", "drafted", "", QO_HELD, "reply = draft" },
		{ "replied", "drafted, not sent: a@x is not in allow-senders", "", QO_HELD,
		  "allow-senders" },
		{ "checked", "held for 20 s after the newest mail (embargo: people first)", "",
		  QO_HELD, "embargo" },
		{ "booted", "held until 09:00 (quiet hours)", "", QO_HELD, "quiet hours" },
		{ "checked", "held: pace (one mail per author per 3600 s on this list): the "
		  "last to a@x went 20 s ago", "", QO_HELD, "pace" },
		{ "checked", "held: the list's daily-cap (20 replies in 24 hours) is reached",
		  "", QO_HELD, "daily-cap" },
		{ "received", "", "", QO_IN_PROGRESS, "" },
		{ "skipped", "", "a cover of patchsets (<b@x>): each set under it is a series "
		  "of its own", QO_SKIPPED, "cover of patchsets" },
		{ "failed", "", "cannot reach the archive 'http://x'", QO_FAILED, "cannot reach" },
	};
	struct strbuf why = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		enum queue_outcome o;

		strbuf_reset(&why);
		o = queue_outcome_of(&why, t[i].state, t[i].reply, t[i].error);
		ok(o == t[i].want && strstr(why.buf, t[i].why),
		   "38.5: %s '%.40s': %s (%s)", t[i].state, t[i].reply,
		   queue_outcome_name(o), why.buf);
	}
	strbuf_release(&why);
}

int main(int argc, char **argv)
{
	struct queue_opts opts = QUEUE_OPTS_INIT;

	if (open_store(argv) < 0) {
		printf("Bail out! setup: %s\n", error_last());
		return 1;
	}
	ok(store_schema_version(&store) >= 2, "the store ran the queue's migration");
	queue_init(&q, &store, tmpdir, &opts);
	test_grouping();
	test_settle_caps();
	test_skip();
	test_versions();
	test_stages();
	test_inbox_state();
	test_dirs();
	test_time_ceil();
	test_affinity();
	test_real_shapes();
	test_work_left();
	test_outcomes();
	queue_release(&q);
	store_close(&store);
	tmp_remove(tmpdir);
	return done_testing();
}
