/*
 * Unit tests for bot/mail/b4.c that need no archive: the private git config,
 * finding a Message-Id, b4 missing, the deadline, bad input, intake.h's
 * caps on what b4 is given and what it writes.  Fetching
 * from a real public-inbox is tested in tests/e2e/t0100-review.sh.
 */
#include "b4.h"
#include "env.h"
#include "tap.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * A stand-in b4 that writes, as b4 would, a thread (b4 mbox -o DIR -n
 * NAME) of one mail of 1,001 MIME parts, and records being run.
 */
static const char bomb_b4[] =
	"#!/bin/sh\n"
	"echo \"$@\" >> \"${0%/*}/called\"\n"
	"while [ $# -gt 0 ]; do\n"
	"\tcase $1 in -o) dir=$2; shift ;; -n) name=$2; shift ;; esac; shift\n"
	"done\n"
	"awk 'BEGIN { print \"From x@y Thu Jan  1 00:00:00 1970\"\n"
	"\tprint \"Message-ID: <a@example.org>\\nContent-Type: multipart/mixed; boundary=b\\n\"\n"
	"\tfor (i = 0; i <= 1000; i++) print \"--b\\n\\nx\"; print \"--b--\" }' "
	">\"$dir/$name\"\n";

/* intake.h's caps on what b4 writes back and on what it is given. */
static void test_caps(struct b4_opts *o)
{
	char dir[] = "/tmp/t-b4-caps.XXXXXX";
	struct strbuf script = STRBUF_INIT, body = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf called = STRBUF_INIT, mbox = STRBUF_INIT;
	struct b4_series s = B4_SERIES_INIT;
	struct b4_opts mo = *o;

	if (!mkdtemp(dir)) {
		skip("mkdtemp failed", "b4's output held to the caps");
		return;
	}
	strbuf_addf(&script, "%s/b4", dir);
	strbuf_addf(&called, "%s/called", dir);
	strbuf_addstr(&body, bomb_b4);
	strbuf_write_file(&body, script.buf);
	chmod(script.buf, 0755);
	setenv("WARNWATCH_B4", script.buf, 1);
	env_reload();
	o->timeout_s = 30;
	is(b4_thread(&out, "a@example.org", o, NULL), WW_ETOOBIG,
	   "a thread b4 wrote over check's caps: refused");
	is_str(error_last(), "b4's thread of <a@example.org>: message 1 (byte 0): more "
	       "than 1000 MIME parts", "  naming it and the cap");
	ok(out.len > 1000 && starts_with(out.buf, "From x@y"),
	   "  what b4 wrote is handed back, to be kept as received");

	/* an mbox over the caps never reaches b4 */
	unlink(called.buf);
	strbuf_addf(&mbox, "%s/in.mbox", dir);
	strbuf_reset(&body);
	strbuf_addstr(&body, "From x@y Thu Jan  1 00:00:00 1970\nSubject: x\n\n");
	for (int i = 0; i <= INTAKE_MAX_LINES; i++)
		strbuf_addstr(&body, "+\n");
	strbuf_write_file(&body, mbox.buf);
	mo.mbox = mbox.buf;
	is(b4_fetch(&s, NULL, &mo), WW_ETOOBIG, "--mbox over a million lines: refused");
	is_str(error_last(), "more than 1000000 lines", "  says so");
	ok(access(called.buf, F_OK) < 0, "  before b4 ran");

	unlink(called.buf);
	unlink(mbox.buf);
	unlink(script.buf);
	rmdir(dir);
	unsetenv("WARNWATCH_B4");
	env_reload();
	b4_series_release(&s);
	strbuf_release(&script);
	strbuf_release(&body);
	strbuf_release(&out);
	strbuf_release(&called);
	strbuf_release(&mbox);
}

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
	env_reload();
	is(b4_fetch(&s, "a@example.org", &o), WW_ENOTFOUND, "b4 missing");
	ok(strstr(error_last(), "is b4 installed?") != NULL, "says so: %s", error_last());

	/* A b4 that hangs (as it does on a stalled server) meets the deadline. */
	if (mkdtemp(dir)) {
		strbuf_addf(&script, "%s/b4", dir);
		strbuf_addstr(&body, "#!/bin/sh\nsleep 30\n");
		strbuf_write_file(&body, script.buf);
		chmod(script.buf, 0755);
		setenv("WARNWATCH_B4", script.buf, 1);
		env_reload();
		o.timeout_s = 1;
		t0 = time(NULL);
		is(b4_fetch(&s, "a@example.org", &o), WW_ETIMEOUT, "deadline enforced");
		ok(time(NULL) - t0 < 10, "within seconds, not 30");
		ok(strstr(error_last(), "within 1 s") != NULL, "message: %s", error_last());
		unlink(script.buf);

		/* Issue 38.5: b4 finds no patch in the messages the service
		 * chose: its own code, naming a real Message-ID, never "<>". */
		{
			struct strbuf mbox = STRBUF_INIT, mpath = STRBUF_INIT;

			strbuf_reset(&body);
			strbuf_addstr(&body, "#!/bin/sh\necho 'No patches found.' >&2\nexit 0\n");
			strbuf_write_file(&body, script.buf);
			chmod(script.buf, 0755);
			strbuf_addf(&mpath, "%s/covers.mbox", dir);
			strbuf_addstr(&mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
				      "Message-ID: <bliz@example.org>\n"
				      "Subject: [PATCHBLIZZARD v7] fuse: all of it\n\nThe plan.\n");
			strbuf_write_file(&mbox, mpath.buf);
			o.mbox = mpath.buf;
			o.timeout_s = 10;
			is(b4_fetch(&s, NULL, &o), WW_ENOPATCH, "38.5: no patches: WW_ENOPATCH");
			ok(strstr(error_last(), "<bliz@example.org>") && !strstr(error_last(), "<>"),
			   "  naming the mbox's first Message-ID: %s", error_last());
			o.mbox = NULL;
			unlink(script.buf);
			unlink(mpath.buf);
			strbuf_release(&mbox);
			strbuf_release(&mpath);
		}
		rmdir(dir);
	}
	unsetenv("WARNWATCH_B4");
	env_reload();
	test_caps(&o);

	/*
	 * The real b4 on a saved mbox whose Subject is folded, as
	 * git format-patch folds every long one: b4 0.12 dies on the line
	 * break when it opens the file by name.
	 */
	if (access("/usr/bin/b4", X_OK) == 0) {
		char mdir[] = "/tmp/t-b4-mbox.XXXXXX";
		struct b4_opts mo = B4_OPTS_INIT;
		struct b4_series ms = B4_SERIES_INIT;
		struct strbuf path = STRBUF_INIT, mbox = STRBUF_INIT;

		ok(mkdtemp(mdir) != NULL, "a directory for the mbox");
		strbuf_addf(&path, "%s/series.mbox", mdir);
		strbuf_addstr(&mbox,
			      "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
			      "Message-Id: <folded.1@example.org>\n"
			      "From: Ada Tester <ada@example.org>\n"
			      "Date: Mon, 5 Jan 2026 10:00:00 +0000\n"
			      "Subject: [PATCH] time: warn when time64_to_tm() is given a time before the\n"
			      " epoch\n\n"
			      "Why.\n\nSigned-off-by: Ada Tester <ada@example.org>\n---\n"
			      "diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,3 @@\n"
			      " int a;\n+int b;\n int c;\n-- \n2.39.5\n\n");
		strbuf_write_file(&mbox, path.buf);
		mo.mbox = path.buf;
		mo.timeout_s = 60;
		mo.midmask = "http://127.0.0.1:9/all/%s";	/* offline: never asked */
		is(b4_fetch(&ms, NULL, &mo), 0, "a folded Subject: %s",
		   error_last() ? error_last() : "");
		ok(strstr(ms.mbx.buf, "Subject: [PATCH] time: warn when") != NULL,
		   "b4's am-ready mbox has the patch");
		ok(ms.thread.len == mbox.len, "the raw thread is the file itself");
		unlink(path.buf);
		rmdir(mdir);
		b4_series_release(&ms);
		strbuf_release(&path);
		strbuf_release(&mbox);
	} else {
		skip("not-installed: b4", "a folded Subject");
	}
	b4_series_release(&s);
	strbuf_release(&sb);
	strbuf_release(&script);
	strbuf_release(&body);
	return done_testing();
}
