/*
 * Atom parsing: real feeds saved from public-inbox-httpd 1.9
 * (tests/unit/atom/regen.sh), then hostile and broken documents.
 */
#include "atom.h"
#include "tap.h"

static int load(struct atom_feed *feed, const char *name)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	const char *top = getenv("WW_TOP");
	int ret;

	strbuf_addf(&path, "%s/tests/unit/atom/%s", top ? top : ".", name);
	ret = strbuf_read_file(&buf, path.buf, 0);
	if (!ret)
		ret = atom_parse(feed, buf.buf, buf.len);
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}

static int parse_str(struct atom_feed *feed, const char *doc)
{
	return atom_parse(feed, doc, strlen(doc));
}

static void test_series_feed(void)
{
	struct atom_feed f = ATOM_FEED_INIT;

	is(load(&f, "series.atom"), 0, "real series feed parses");
	is(f.nr, 4, "four entries");
	is(f.dropped, 0, "none dropped");
	is_str(f.title, "public inbox for test@example.org", "feed title");
	if (f.nr != 4)
		goto out;
	/* Newest first, as public-inbox writes them. */
	is_str(f.v[0].message_id, "reply1@example.org", "reply's id");
	is_str(f.v[0].title, "Re: [PATCH 1/2] foo: add a check", "reply's title");
	is_str(f.v[0].in_reply_to, "patch1/weird%id+x@example.org",
	       "reply's parent: %%2F and %%25 decoded");
	is_str(f.v[1].author_name, "J\xc3\xb6rg", "RFC 2047 author arrives as UTF-8");
	is_str(f.v[1].author_email, "jorg@example.org", "author email");
	is_str(f.v[2].message_id, "patch1/weird%id+x@example.org",
	       "message-id with '/' and '%%' from the link");
	is_str(f.v[2].in_reply_to, "cover.1@example.org", "patch 1's parent is the cover");
	is_str(f.v[3].title, "[PATCH 0/2] foo: tidy up <things> & \"stuff\"",
	       "type=html title: entities decoded once");
	is_str(f.v[3].in_reply_to, "", "cover letter has no parent");
	is_str(f.v[3].updated, "2024-01-01T10:00:00Z", "updated as written");
	is(f.v[3].updated_at, 1704103200, "updated parsed");
	ok(starts_with(f.v[3].id, "urn:uuid:"), "atom:id kept");
out:
	atom_feed_release(&f);
}

static void test_full_and_search(void)
{
	struct atom_feed f = ATOM_FEED_INIT;

	is(load(&f, "full25.atom"), 0, "feed at public-inbox's cap parses");
	is(f.nr, 25, "25 entries");
	/* Ordered by the Date: header (the test mails carry no Received:),
	 * newest first: the 12:00 reply before the 11:00:30 message. */
	ok(f.nr == 25 && !strcmp(f.v[0].message_id, "reply1@example.org") &&
	   !strcmp(f.v[1].message_id, "m30@x.org"), "newest first");
	atom_feed_release(&f);

	is(load(&f, "search.atom"), 0, "search result (?x=A) parses");
	is(f.nr, 4, "search result entries");
	atom_feed_release(&f);

	/* Entries accumulate across calls (gap filling appends). */
	load(&f, "series.atom");
	load(&f, "series.atom");
	is(f.nr, 8, "second parse appends");
	atom_feed_release(&f);
}

static void test_empty_inbox(void)
{
	struct atom_feed f = ATOM_FEED_INIT;

	/* What public-inbox answers (with 404) for an inbox without mail:
	 * the poller recognises it; the parser must reject it cleanly. */
	is(load(&f, "empty-inbox.txt"), WW_EINPUT, "404 body is not a feed");
	is(f.nr, 0, "no entries");
	atom_feed_release(&f);
	is(parse_str(&f, "<feed xmlns='http://www.w3.org/2005/Atom'/>"), 0,
	   "feed without entries");
	is(f.nr, 0, "  zero entries");
	atom_feed_release(&f);
}

static void test_hostile(void)
{
	struct atom_feed f = ATOM_FEED_INIT;
	struct strbuf big = STRBUF_INIT;
	int ret;

	ret = parse_str(&f,
		"<?xml version='1.0'?>\n"
		"<!DOCTYPE feed [<!ENTITY a 'aaaaaaaaaa'>"
		"<!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'>"
		"<!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;'>]>\n"
		"<feed xmlns='http://www.w3.org/2005/Atom'><title>&c;</title></feed>");
	is(ret, WW_EINPUT, "entity expansion (billion laughs) refused");
	ok(strstr(error_last(), "line 2"), "error names the line: %s", error_last());
	atom_feed_release(&f);

	ret = parse_str(&f,
		"<!DOCTYPE feed SYSTEM 'file:///etc/passwd'>"
		"<feed xmlns='http://www.w3.org/2005/Atom'/>");
	is(ret, WW_EINPUT, "external DTD refused");
	atom_feed_release(&f);

	ret = parse_str(&f, "<feed xmlns='http://www.w3.org/2005/Atom'><entry>"
			"<title>x</title><link href='http://h/i/a@b/'/>");
	is(ret, WW_EINPUT, "truncated document is an error");
	atom_feed_release(&f);

	is(parse_str(&f, "<rss><channel/></rss>"), WW_EINPUT, "RSS is not Atom");
	ok(strstr(error_last(), "not an Atom feed"), "says why: %s", error_last());
	atom_feed_release(&f);

	is(parse_str(&f, ""), WW_EINPUT, "empty document");
	atom_feed_release(&f);
	is(parse_str(&f, "\x00\x01\x02"), WW_EINPUT, "binary junk");
	atom_feed_release(&f);

	/* Entries without a usable Message-ID are dropped, not passed on. */
	ret = parse_str(&f, "<feed xmlns='http://www.w3.org/2005/Atom'>"
		"<entry><title>no link</title></entry>"
		"<entry><link href='http://h/i/a%2/'/></entry>"
		"<entry><link href='http://h/i/a%0Ab@c/'/></entry>"
		"<entry><link href='http://h/i/a%3Eb@c/'/></entry>"
		"<entry><link href='http://h/i/a%00b@c/'/></entry>"
		"<entry><link href='/'/></entry>"
		"<entry><link rel='self' href='http://h/i/wrong@x/'/>"
		"<link href='http://h/i/right@x/'/><title>t\n\tu</title></entry>"
		"</feed>");
	is(ret, 0, "feed with bad entries parses");
	is(f.nr, 1, "only the good entry kept");
	is(f.dropped, 6, "six dropped");
	if (f.nr) {
		is_str(f.v[0].message_id, "right@x", "alternate link chosen over rel=self");
		is_str(f.v[0].title, "t  u", "control characters in title become spaces");
	}
	atom_feed_release(&f);

	/* Over-long fields are cut, not grown without bound. */
	strbuf_addstr(&big, "<feed xmlns='http://www.w3.org/2005/Atom'><entry><title>");
	strbuf_addchars(&big, 'x', 100000);
	strbuf_addstr(&big, "</title><link href='http://h/i/a@b/'/></entry></feed>");
	is(atom_parse(&f, big.buf, big.len), 0, "100 kB title parses");
	ok(f.nr == 1 && strlen(f.v[0].title) == ATOM_MAX_FIELD, "title cut at the cap");
	atom_feed_release(&f);

	strbuf_reset(&big);
	strbuf_addstr(&big, "<feed xmlns='http://www.w3.org/2005/Atom'>");
	for (int i = 0; i <= ATOM_MAX_ENTRIES; i++)
		strbuf_addf(&big, "<entry><link href='http://h/i/%d@b/'/></entry>", i);
	strbuf_addstr(&big, "</feed>");
	is(atom_parse(&f, big.buf, big.len), WW_ETOOBIG, "too many entries");
	atom_feed_release(&f);

	strbuf_reset(&big);
	strbuf_addchars(&big, ' ', ATOM_MAX_BYTES + 1);
	is(atom_parse(&f, big.buf, big.len), WW_ETOOBIG, "over the size cap");
	atom_feed_release(&f);

	/* Deep nesting is fine for a streaming parser. */
	strbuf_reset(&big);
	strbuf_addstr(&big, "<feed xmlns='http://www.w3.org/2005/Atom'><entry><title>");
	for (int i = 0; i < 10000; i++)
		strbuf_addstr(&big, "<b>");
	strbuf_addstr(&big, "deep");
	for (int i = 0; i < 10000; i++)
		strbuf_addstr(&big, "</b>");
	strbuf_addstr(&big, "</title><link href='http://h/i/d@b/'/></entry></feed>");
	is(atom_parse(&f, big.buf, big.len), 0, "deeply nested markup in a title");
	ok(f.nr == 1 && !strcmp(f.v[0].title, "deep"), "text of nested markup kept");
	atom_feed_release(&f);
	strbuf_release(&big);
}

static void test_msgid_url(void)
{
	struct strbuf sb = STRBUF_INIT;

	is(atom_msgid_from_url(&sb, "http://h/inbox/abc@def/"), 0, "plain");
	is_str(sb.buf, "abc@def", "  id");
	is(atom_msgid_from_url(&sb, "http://h/inbox/abc@def"), 0, "no trailing slash");
	is_str(sb.buf, "abc@def", "  id");
	is(atom_msgid_from_url(&sb, "http://h/inbox/a%2Fb%25c+d@e/?x=1#f"), 0, "escapes");
	is_str(sb.buf, "a/b%c+d@e", "  decoded");
	is(atom_msgid_from_url(&sb, "abc@def"), WW_EINPUT, "no path");
	is(atom_msgid_from_url(&sb, "http://h/i/a%zz/"), WW_EINPUT, "bad escape");
	is(atom_msgid_from_url(&sb, "http://h/i/a%2"), WW_EINPUT, "short escape");
	is(atom_msgid_from_url(&sb, "http://h/i/a%20b/"), WW_EINPUT, "space inside");
	ok(atom_msgid_ok("x\xc3\xa9@y", 4), "UTF-8 id accepted");
	ok(!atom_msgid_ok("", 0), "empty id refused");
	strbuf_release(&sb);
}

static void test_time(void)
{
	time_t t;

	is(atom_parse_time(&t, "1970-01-01T00:00:00Z"), 0, "epoch");
	is(t, 0, "  value");
	is(atom_parse_time(&t, "2024-01-01T12:00:00+02:00"), 0, "offset");
	is(t, 1704103200, "  value");
	is(atom_parse_time(&t, "2024-01-01T10:00:00.123-00:30"), 0, "fraction");
	is(t, 1704105000, "  value");
	is(atom_parse_time(&t, "2024-13-01T10:00:00Z"), WW_EINPUT, "month 13");
	is(atom_parse_time(&t, "2024-01-01T10:00:00"), WW_EINPUT, "no zone");
	is(atom_parse_time(&t, "yesterday"), WW_EINPUT, "words");
}

int main(void)
{
	test_series_feed();
	test_full_and_search();
	test_empty_inbox();
	test_hostile();
	test_msgid_url();
	test_time();
	return done_testing();
}
