/*
 * Unit tests for bot/history/cycle.c: the shipped kernel-ci/releases.json loads
 * and is sane, dates and base-commits land in the documented buckets, a
 * broken table is refused naming the entry, mail Date: headers parse.
 */
#include "cycle.h"
#include "tap.h"

static time_t day(const char *s)
{
	time_t t = 0;

	cycles_parse_day(&t, s);
	return t;
}

static const char *bucket(const struct cycles *c, const char *date,
			  const char *base)
{
	time_t t = 0;

	if (date && !cycles_mail_date(&t, date))
		return "(bad date)";
	return c->v[cycles_find(c, t, base)].name;
}

static void shipped(void)
{
	char path[4096];
	struct cycles c = CYCLES_INIT;
	bool sorted = true, rc1_ok = true;
	const char *top = getenv("WW_TOP");

	/* tests/run says where the checkout is; by hand, run from its top */
	snprintf(path, sizeof(path), "%s/kernel-ci/releases.json", top ? top : ".");
	if (!ok(cycles_load(&c, path) == 0,
		"kernel-ci/releases.json loads: %s", error_last())) {
		cycles_release(&c);
		return;
	}
	is_str(c.releases[0].name, "v4.0", "the table starts at v4.0");
	is_str(c.releases[c.nr_releases - 1].name, "v6.18", "and ends at v6.18");
	ok(c.releases[c.nr_releases - 1].date == day("2025-11-30"), "v6.18 released 2025-11-30");
	is(c.nr_releases, 60, "v4.0 .. v4.20, v5.0 .. v5.19, v6.0 .. v6.18: 60 releases");
	for (size_t i = 1; i < c.nr_releases; i++) {
		const struct cycle_release *r = &c.releases[i];
		long gap = (long)(r->date - r[-1].date) / 86400;

		sorted &= gap >= 56 && gap <= 84;	/* 8 to 12 weeks */
		/* the merge window: two weeks, give or take a day */
		rc1_ok &= r->rc1 - r[-1].date >= 12 * 86400 && r->rc1 - r[-1].date <= 15 * 86400;
	}
	ok(sorted, "releases 8 to 12 weeks apart, in order");
	ok(rc1_ok, "every rc1 closes a merge window of about two weeks");
	is(c.nr, c.nr_releases + 2, "buckets: older, one per window, unreleased, unknown");
	is_str(bucket(&c, "Wed, 15 Oct 2025 10:00:00 +0000", NULL), "v6.19",
	       "posted after v6.17, before v6.18: aims at the v6.19 merge window (upcoming)");
	is_str(bucket(&c, "Sun, 28 Sep 2025 00:00:00 +0000", NULL), "v6.19",
	       "on v6.17's release day: v6.19");
	is_str(bucket(&c, "Sat, 27 Sep 2025 23:59:59 +0000", NULL), "v6.18",
	       "the second before v6.17: v6.18");
	is_str(bucket(&c, "Sun, 28 Sep 2025 01:00:00 +0200", NULL), "v6.18",
	       "the zone counts (23:00 UTC the day before)");
	is_str(bucket(&c, "Mon, 1 Dec 2025 10:00:00 +0000", NULL), "unreleased",
	       "after the last release: unreleased");
	is_str(bucket(&c, "1 Jan 2014 10:00 GMT", NULL), "older", "before v4.0: older");
	is_str(c.v[cycles_find(&c, day("2022-06-14"), NULL)].name, "v6.0",
	       "June 2022 (between v5.18 and v5.19): the v6.0 window");
	is_str(bucket(&c, NULL, NULL), "unknown", "no date: unknown");
	is_str(bucket(&c, NULL, "v6.1"), "v6.3", "based on v6.1: posted after it, v6.3");
	is_str(bucket(&c, "Mon, 1 Dec 2025 10:00:00 +0000", "v6.1"), "v6.3",
	       "a base-commit naming a release wins over the date");
	is_str(bucket(&c, NULL, "v6.12-rc3"), "v6.13", "based on v6.12-rc3: before v6.12, v6.13");
	is_str(bucket(&c, NULL, "6.1.150"), "v6.3", "a stable tag names its release");
	is_str(bucket(&c, NULL, "v6.18"), "unreleased", "based on the last release: unreleased");
	is_str(bucket(&c, "Wed, 15 Oct 2025 10:00:00 +0000", "0123456789abcdef"), "v6.19",
	       "a commit hash not in the table: by date");
	is_str(bucket(&c, NULL, "v9.9"), "unknown", "a tag not in the table, no date: unknown");
	cycles_release(&c);
}

static void commits_and_errors(void)
{
	static const char good[] =
		"{\"upcoming\": \"v1.3\", \"releases\": ["
		"{\"name\": \"v1.0\", \"date\": \"2020-01-05\", \"commit\": \"aaaaaaa\"},"
		"{\"name\": \"v1.1\", \"date\": \"2020-03-01\", \"rc1_commit\": \"bbbbbbbb\"},"
		"{\"name\": \"v1.2\", \"date\": \"2020-05-03\"}]}";
	struct cycles c = CYCLES_INIT;

	ok(cycles_load_buf(&c, good, strlen(good), "t.json") == 0, "a small table loads");
	is(c.nr, 5, "three releases: older, v1.2, v1.3, unreleased, unknown");
	is_str(c.v[1].name, "v1.2", "bucket 1 is v1.2");
	ok(c.v[1].from == day("2020-01-05") && c.v[1].to == day("2020-03-01"),
	   "v1.2's bucket runs from v1.0's release to v1.1's");
	is_str(c.v[2].name, "v1.3", "the upcoming release names the last window");
	is_str(c.v[cycles_find(&c, 0, "aaaaaaa")].name, "v1.2", "a release's commit: as its tag");
	is_str(c.v[cycles_find(&c, 0, "bbbbbbbb")].name, "v1.2", "an rc1's commit: as its tag");
	cycles_release(&c);

#define BAD(doc, msg, what) do { \
	struct cycles b = CYCLES_INIT; \
	ok(cycles_load_buf(&b, doc, strlen(doc), "r.json") == WW_EINPUT && \
	   strstr(error_last(), msg), what " (%s)", error_last()); \
	cycles_release(&b); \
} while (0)
	BAD("{\"upcoming\": \"v2\", \"releases\": [{\"name\": \"v1\", \"date\": \"2020-01-05\"},"
	    "{\"name\": \"v2\", \"date\": \"2020-13-01\"}]}",
	    "r.json: releases[1].date: not a YYYY-MM-DD date", "a bad date names the entry");
	BAD("{\"upcoming\": \"v2\", \"releases\": [{\"name\": \"v1\", \"date\": \"2020-01-05\"},"
	    "{\"name\": \"v2\", \"date\": \"2019-01-01\"}]}",
	    "releases[1].date: not after the previous", "out of order refused");
	BAD("{\"upcoming\": \"v2\", \"releases\": [{\"name\": \"v1\", \"date\": \"2020-01-05\"},"
	    "{\"name\": \"v2\", \"date\": \"2020-03-01\", \"commit\": \"XYZ\"}]}",
	    "releases[1].commit: not a commit id", "a bad commit refused");
	BAD("{\"releases\": []}", "releases: not an array", "an empty table refused");
	BAD("{", "r.json:", "bad JSON names the file");
}

static void mail_dates(void)
{
	time_t t;

	ok(cycles_mail_date(&t, "Tue, 3 Dec 2024 10:00:00 +0100") &&
	   t == day("2024-12-03") + 9 * 3600, "RFC 5322 date with zone");
	ok(cycles_mail_date(&t, "3 Dec 2024 10:00 -0030") &&
	   t == day("2024-12-03") + 10 * 3600 + 1800, "no day name, no seconds, odd zone");
	ok(cycles_mail_date(&t, "Fri, 01 Jan 99 00:00:00 GMT") && t == day("1999-01-01"),
	   "two-digit year");
	ok(!cycles_mail_date(&t, "yesterday"), "not a date");
	ok(!cycles_mail_date(&t, ""), "empty");
	ok(!cycles_mail_date(&t, "Tue, 3 Foo 2024 10:00:00"), "unknown month");
}

int main(void)
{
	shipped();
	commits_and_errors();
	mail_dates();
	return done_testing();
}
