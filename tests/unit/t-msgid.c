/*
 * Unit tests for bot/mail/msgid.c: message-ids come from strangers.
 */
#include "msgid.h"
#include "tap.h"

static void good(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	int ret = msgid_normalize(&sb, in);

	msgid_quote(&name, in);
	ok(ret == 0, "accepts '%s'", name.buf);
	is_str(sb.buf, want, "normalises '%s'", name.buf);
	strbuf_release(&sb);
	strbuf_release(&name);
}

static void bad(const char *in, const char *label)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = msgid_normalize(&sb, in);

	is(ret, WW_EINPUT, "rejects %s", label);
	is(sb.len, 0, "leaves nothing behind for %s", label);
	ok(*error_last(), "says why for %s (%s)", label, error_last());
	strbuf_release(&sb);
}

int main(void)
{
	char big[MSGID_MAX + 10];
	struct strbuf sb = STRBUF_INIT;

	good("20240414170850.148122-1-elder@linaro.org",
	     "20240414170850.148122-1-elder@linaro.org");
	good("<20240414170850.148122-1-elder@linaro.org>",
	     "20240414170850.148122-1-elder@linaro.org");
	good("  <CAHk-=wg+x_Y2@mail.gmail.com>\n", "CAHk-=wg+x_Y2@mail.gmail.com");
	good("id:87a5x.fsf@intel.com", "87a5x.fsf@intel.com");
	good("YZ/abc.def@kroah.com", "YZ/abc.def@kroah.com");
	good("{a}|b~c$d*e^f!@x.y", "{a}|b~c$d*e^f!@x.y");
	bad("a@[127.0.0.1]", "a domain literal");

	bad("", "an empty id");
	bad("<>", "empty brackets");
	bad("-v@example.org", "a leading '-' (b4 option)");
	bad("<--help@x>", "a bracketed option");
	bad("no-at-sign", "no '@'");
	bad("a@b@c", "two '@'");
	bad("@example.org", "empty local part");
	bad("abc@", "empty domain");
	bad("../../etc/passwd@x", "a '..' path segment");
	bad("a/../b@x", "an inner '..' segment");
	bad("a/./b@x", "a '.' segment");
	bad("a//b@x", "an empty segment");
	bad("/abs@x", "a leading '/'");
	bad("abc@x/", "a trailing '/'");
	bad("a b@x", "a space");
	bad("a\r\nBcc: x@y@z", "CR/LF");
	bad("a%2e%2e@x", "percent escapes");
	bad("a?q=1@x", "a query");
	bad("a#frag@x", "a fragment");
	bad("a&b@x", "an ampersand");
	bad("a;rm -rf@x", "shell metacharacters");
	bad("`id`@x", "backquotes");
	bad("caf\xc3\xa9@x", "non-ASCII");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	big[5] = '@';
	bad(big, "an id over the length cap");

	ok(msgid_valid("a@b"), "msgid_valid agrees on a good id");
	ok(!msgid_valid("<a@b>"), "msgid_valid wants no brackets");

	msgid_quote(&sb, "a\r\n\x01@\xff");
	is_str(sb.buf, "a\\x0d\\x0a\\x01@\\xff", "msgid_quote makes it printable");
	strbuf_release(&sb);
	return done_testing();
}
