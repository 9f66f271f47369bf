/*
 * Unit tests for bot/mail/b4.c that need no archive: the private git config,
 * finding a Message-Id, b4 missing, the deadline, bad input.  Fetching
 * from a real public-inbox is tested in tests/e2e/t0100-review.sh.
 */
#include "b4.h"
#include "tap.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct b4_opts o = B4_OPTS_INIT;
	struct b4_series s = B4_SERIES_INIT;
	struct strbuf sb = STRBUF_INIT;
	char dir[] = "/tmp/t-b4.XXXXXX";
	struct strbuf script = STRBUF_INIT, body = STRBUF_INIT;
	time_t t0;

	o.midmask = "http://127.0.0.1:1234/all/%s";
	o.user_email = "bot@example.org";
	is(b4_gitconfig(&sb, &o), 0, "git config for b4");
	ok(strstr(sb.buf, "\tmidmask = \"http://127.0.0.1:1234/all/%s\"\n") != NULL, "midmask");
	ok(strstr(sb.buf, "\tlinkmask = \"http://127.0.0.1:1234/all/%s\"\n") != NULL,
	   "linkmask defaults to the midmask");
	ok(strstr(sb.buf, "\tsearchmask = \"http://127.0.0.1:1234/all/?x=m&t=1&q=%s\"\n") != NULL,
	   "searchmask derived (never b4's lore default)");
	ok(strstr(sb.buf, "attestation-policy = \"off\"") != NULL, "attestation off");
	ok(strstr(sb.buf, "attestation-check-dkim = \"no\"") != NULL, "no DKIM look-ups");
	ok(strstr(sb.buf, "\temail = \"bot@example.org\"") != NULL, "user.email set");

	strbuf_reset(&sb);
	o.midmask = "http://x/\"evil\\%s";
	is(b4_gitconfig(&sb, &o), 0, "quotes are escaped");
	ok(strstr(sb.buf, "midmask = \"http://x/\\\"evil\\\\%s\"") != NULL, "escaped");
	strbuf_reset(&sb);
	o.midmask = "http://x/%s\n[core]\n\tpager = evil";
	is(b4_gitconfig(&sb, &o), WW_EINPUT, "a newline cannot add config");
	o.midmask = "http://x/all/";
	is(b4_gitconfig(&sb, &o), WW_EINPUT, "a mask without %%s is refused");

	{
		const char *mbox = "From git@z Thu Jan  1 00:00:00 1970\n"
				   "Subject: [PATCH 1/3] x\nMessage-Id:\n <a.1@example.org>\n\nbody\n"
				   "Message-Id: <later@x>\n";

		is(b4_first_msgid(&sb, mbox, strlen(mbox)), 0, "first Message-Id");
		is_str(sb.buf, "a.1@example.org", "folded Message-Id unfolded");
		is(b4_first_msgid(&sb, "Subject: x\n\nMessage-Id: <b@x>\n", 30),
		   WW_ENOTFOUND, "only the header block counts");
		is(b4_first_msgid(&sb, "Message-Id: <-rf@x>\n", 20), WW_EINPUT,
		   "an invalid id is refused");
	}

	o.midmask = "http://127.0.0.1:9/all/%s";
	is(b4_fetch(&s, "-v@x", &o), WW_EINPUT, "an invalid message-id never reaches b4");
	is(b4_fetch(&s, NULL, &o), WW_EUSAGE, "a message-id is needed without --mbox");

	setenv("WARNWATCH_B4", "/nonexistent/b4", 1);
	is(b4_fetch(&s, "a@example.org", &o), WW_ENOTFOUND, "b4 missing");
	ok(strstr(error_last(), "is b4 installed?") != NULL, "says so: %s", error_last());

	/* A b4 that hangs (as it does on a stalled server) meets the deadline. */
	if (mkdtemp(dir)) {
		strbuf_addf(&script, "%s/b4", dir);
		strbuf_addstr(&body, "#!/bin/sh\nsleep 30\n");
		strbuf_write_file(&body, script.buf);
		chmod(script.buf, 0755);
		setenv("WARNWATCH_B4", script.buf, 1);
		o.timeout_s = 1;
		t0 = time(NULL);
		is(b4_fetch(&s, "a@example.org", &o), WW_ETIMEOUT, "deadline enforced");
		ok(time(NULL) - t0 < 10, "within seconds, not 30");
		ok(strstr(error_last(), "within 1 s") != NULL, "message: %s", error_last());
		unlink(script.buf);
		rmdir(dir);
	}
	unsetenv("WARNWATCH_B4");
	b4_series_release(&s);
	strbuf_release(&sb);
	strbuf_release(&script);
	strbuf_release(&body);
	return done_testing();
}
