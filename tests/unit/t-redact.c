/*
 * Unit tests for bot/lib/redact.c: secrets out of text on its way out,
 * and through error.c, which redacts every message it keeps.
 */
#include "redact.h"
#include "tap.h"

static void r(const char *in, const char *want, const char *what)
{
	char *got = redact(in, 0), *again = redact(want, 0);

	is_str(got, want, "%s", what);
	is_str(again, want, "  and once more changes nothing");
	free(got);
	free(again);
}

static void as_link(const char *in, const char *want, const char *what)
{
	char *got = redact(in, REDACT_LINK);

	is_str(got, want, "link: %s", what);
	free(got);
}

int main(void)
{
	/* URL userinfo, in every scheme the configuration holds. */
	r("smtp://bot:S3cret@mail.example.org:587", "smtp://bot:***@mail.example.org:587",
	  "an SMTP URL's password");
	r("https://u:S3cret@lore.example.org/all/", "https://u:***@lore.example.org/all/",
	  "an archive URL's password");
	r("postgresql://ww:S3cret@db:5432/warnwatch", "postgresql://ww:***@db:5432/warnwatch",
	  "a PostgreSQL URL's password");
	r("https://u@host/x", "https://u@host/x", "a user without a password stays");
	r("https://u:@host/x", "https://u:***@host/x", "an empty password is said to be there");
	r("https://u:p@ss'w:rd@host/x", "https://u:***@host/x",
	  "a password holding '@', a quote and ':' (the last '@' ends it)");
	r("https://u:p%2Fss@host/", "https://u:***@host/", "a percent-encoded password");
	r("http://127.0.0.1:8080/test/abc@example.org/t.mbox.gz",
	  "http://127.0.0.1:8080/test/abc@example.org/t.mbox.gz",
	  "a message-id's '@' in the path is no userinfo");
	r("http://u:pw@[::1]:80/", "http://u:***@[::1]:80/", "an IPv6 host");
	r("git+ssh://u:pw@h/r", "git+ssh://u:***@h/r", "a scheme with '+'");

	/* Where they stand in messages. */
	r("SMTP server 'smtp://bot:S3cret@127.0.0.1:1' refused the message: 554 no",
	  "SMTP server 'smtp://bot:***@127.0.0.1:1' refused the message: 554 no",
	  "a URL in quotes inside a message");
	r("'https://u:S3cret@h/test/new.atom': HTTP 500",
	  "'https://u:***@h/test/new.atom': HTTP 500", "a URL with a path, then a colon");
	r("cannot fetch 'http://u:S3cret@h:1/git/0.git': failed to connect",
	  "cannot fetch 'http://u:***@h:1/git/0.git': failed to connect", "libgit2's words");
	r("URL using bad/illegal format (smtp://u:S3cret@h)",
	  "URL using bad/illegal format (smtp://u:***@h)", "in parentheses");
	r("from <https://u:S3cret@h/>", "from <https://u:***@h/>", "in angle brackets");
	r("\"https://u:S3cret@h/\"", "\"https://u:***@h/\"", "in JSON quotes");
	r("two: 'http://a:X1@h/','http://b:X2@h/'", "two: 'http://a:***@h/','http://b:***@h/'",
	  "two URLs with nothing between");
	r("http://h/login?next=https://u:S3cret@h2/", "http://h/login?next=https://u:***@h2/",
	  "a URL inside another's query");
	r("smtp://a:X@h\nhttps://b:Y@h", "smtp://a:***@h\nhttps://b:***@h", "one a line");
	r("mailto:bob@example.org and bob:pw@h", "mailto:bob@example.org and bob:pw@h",
	  "no scheme with '//': nothing to redact");
	r("", "", "the empty string");

	/* Query parameters. */
	r("https://h/x?token=S3cret&list=a", "https://h/x?token=***&list=a", "?token=");
	r("https://h/?a=1&PassWord=S3cret#top", "https://h/?a=1&PassWord=***#top",
	  "&password= in any case, a fragment after it");
	r("postgresql://h/db?sslmode=require&password=S3cret",
	  "postgresql://h/db?sslmode=require&password=***", "libpq's URL parameter");
	r("https://h/?api_key=S3cret': HTTP 403", "https://h/?api_key=***': HTTP 403",
	  "a quoted URL's value ends at the quote");
	r("https://h/?monkey=1&keys=2", "https://h/?monkey=1&keys=2",
	  "parameters that only contain a secret's name stay");
	r("https://h/page#token=x", "https://h/page#token=x", "a fragment is no query");

	/* libpq keyword/value strings. */
	r("host=db user=ww password=S3cret dbname=w", "host=db user=ww password=*** dbname=w",
	  "password= in a keyword/value string");
	r("host=db password = 'it\\'s S3cret' dbname=w", "host=db password=*** dbname=w",
	  "a quoted value with an escaped quote and spaces");
	r("sslpassword=S3cret", "sslpassword=***", "sslpassword=");
	r("password authentication failed for user \"ww\"",
	  "password authentication failed for user \"ww\"", "the word alone is no secret");
	r("mypassword=x old_password=y", "mypassword=x old_password=y",
	  "only the keyword itself, as a word");

	/* Links for visitors: no userinfo at all. */
	as_link("https://u:S3cret@lore.example.org/all/", "https://lore.example.org/all/",
	     "the userinfo goes whole");
	as_link("https://u@h/x", "https://h/x", "a user alone too");
	as_link("https://h/x?token=S3cret", "https://h/x?token=***", "a secret parameter");
	as_link("https://lore.kernel.org/all/", "https://lore.kernel.org/all/", "a plain link stays");

	ok(redact_needed("at 'smtp://a:b@h'"), "redact_needed: a password");
	ok(!redact_needed("at 'smtp://a@h'"), "redact_needed: a user alone");
	ok(!redact_needed("nothing here"), "redact_needed: plain text");

	/* error.c redacts what it keeps, whatever formatted it. */
	error("cannot talk to SMTP server '%s': %s", "smtp://bot:S3cret@h:1",
	      "Failed to connect to h port 1: password=S3cret");
	is_str(error_last(), "cannot talk to SMTP server 'smtp://bot:***@h:1': "
	       "Failed to connect to h port 1: password=***", "error() redacts its message");
	error_prefix(WW_ENET, "'%s'", "https://u:S3cret@h/x");
	ok(!strstr(error_last(), "S3cret"), "error_prefix() too: %s", error_last());
	/* The message is cut to ERROR_MSG_MAX after redaction: a password
	 * straddling the cut is not half shown. */
	{
		char pad[ERROR_MSG_MAX];

		memset(pad, 'a', sizeof(pad));
		pad[ERROR_MSG_MAX - 30] = '\0';
		error("%s 'https://u:S3cretS3cretS3cretS3cret@h/'", pad);
		ok(strlen(error_last()) > ERROR_MSG_MAX - 30 && !strstr(error_last(), "S3c"),
		   "a password at the cut of a long message: none of it kept (%s)",
		   error_last() + ERROR_MSG_MAX - 40);
	}
	error_clear();
	return done_testing();
}
