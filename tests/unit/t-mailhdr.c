/*
 * Unit tests for bot/mail/mailhdr.c: no header injection, RFC 2047 encoding,
 * folding that unfolds back to the value, address lists, ids, dates.
 */
#include "mailhdr.h"
#include "msgid.h"
#include "env.h"
#include "tap.h"

/* Undo folding: drop "\n" before a space, and the final newline. */
static char *unfold(const char *h)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = h; *p; p++) {
		if (*p == '\n' && (p[1] == ' ' || p[1] == '\t'))
			continue;
		if (*p == '\n' && !p[1])
			continue;
		strbuf_addch(&sb, *p);
	}
	return strbuf_detach(&sb, NULL);
}

static bool lines_ok(const char *h, size_t max)
{
	const char *p = h;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n > max)
			return false;
		if (p != h && p[0] != ' ')
			return false;	/* every continuation starts with a space */
		p += n + (nl ? 1 : 0);
	}
	return true;
}

static void test_clean(void)
{
	struct strbuf sb = STRBUF_INIT;
	char big[1000];

	mailhdr_clean(&sb, "  Re: [PATCH]\r\nBcc: victim@example.org\0", 100);
	is_str(sb.buf, "Re: [PATCH]  Bcc: victim@example.org", "CR/LF become spaces: no new header");
	strbuf_reset(&sb);
	mailhdr_clean(&sb, "a\tb\033c\x7f" "d\xff" "e", 100);
	is_str(sb.buf, "a b c d\xef\xbf\xbd" "e", "controls become spaces, bad UTF-8 U+FFFD");
	strbuf_reset(&sb);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	mailhdr_clean(&sb, big, 20);
	is(sb.len, 20, "over-long values are cut to the cap");
	ok(!strcmp(sb.buf + 17, "..."), "and marked with '...'");
	strbuf_reset(&sb);
	mailhdr_clean(&sb, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 5);
	is_str(sb.buf, "\xc3\xa9\xc3\xa9...", "cuts at character boundaries");
	strbuf_release(&sb);
}

static void test_text(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *u;
	const char *subj = "Re: [PATCH v2 2/3] time: warn about out-of-range offsets in time64_to_tm() and some more words to fold";

	mailhdr_add_text(&sb, "Subject", "Re: [PATCH 1/3] time: catch a NULL result");
	is_str(sb.buf, "Subject: Re: [PATCH 1/3] time: catch a NULL result\n", "short ASCII as is");
	strbuf_reset(&sb);
	mailhdr_add_text(&sb, "Subject", subj);
	ok(lines_ok(sb.buf, MAILHDR_LINE), "long subject folded at 78");
	ok(strchr(sb.buf, '\n') < sb.buf + sb.len - 1, "it has a fold");
	u = unfold(sb.buf);
	ok(!strcmp(u + strlen("Subject: "), subj), "unfolds to the exact subject");
	free(u);

	strbuf_reset(&sb);
	mailhdr_add_text(&sb, "Subject", "Re: caf\xc3\xa9 \xe2\x80\x94 na\xc3\xafve");
	is_str(sb.buf, "Subject: =?UTF-8?q?Re=3A_caf=C3=A9_=E2=80=94_na=C3=AFve?=\n",
	       "non-ASCII becomes a Q encoded word");
	strbuf_reset(&sb);
	mailhdr_add_text(&sb, "Subject", "=?UTF-8?q?fake?= injection\r\nBcc: x@y");
	ok(!strstr(sb.buf, "\nBcc") && strstr(sb.buf, "=?UTF-8?q?=3D=3FUTF-8") != NULL,
	   "encoded-word lookalikes and CR/LF are encoded, not passed");
	strbuf_reset(&sb);
	{
		struct strbuf in = STRBUF_INIT;

		for (int i = 0; i < 30; i++)
			strbuf_addstr(&in, "\xc3\x85ngstr\xc3\xb6m ");
		mailhdr_add_text(&sb, "Subject", in.buf);
		ok(lines_ok(sb.buf, MAILHDR_LINE), "long encoded subject: lines <= 78");
		ok(strstr(sb.buf, "?=\n =?UTF-8?q?") != NULL, "split into several encoded words");
		strbuf_release(&in);
	}
	strbuf_release(&sb);
}

static void test_addrs(void)
{
	struct mail_addr_list l = MAIL_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	int dropped;
	char *u;

	/* Raw header text, as mail.to_raw holds it: the name with a comma
	 * comes from an encoded word, GMime decodes it. */
	dropped = mail_addr_parse(&l,
		"Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m <zoe@example.org>, \"Doe, Jane\" <jane@example.org>, "
		"bare@example.org, old@example.org (Old Style), =?UTF-8?q?Keeper=2C_Tomasz?= <tomasz@example.org>, "
		"bad address <a b@x>, ZOE@example.org, <evil@x>\r\nBcc: <y@z>, \"Q\\\"uote\" <q@example.org>, "
		"-oQ@example.org");
	is(dropped, 1, "an invalid address counted as dropped");
	ok(!mail_addr_has(&l, "a b@x") && !mail_addr_has(&l, "b@x"), "an address with a space is none");
	is(l.nr, 8, "eight addresses kept (duplicate dropped)");
	if (l.nr >= 8) {
		is_str(l.v[0].name, "Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m", "decoded name");
		is_str(l.v[0].addr, "zoe@example.org", "its address");
		is_str(l.v[1].name, "Doe, Jane", "quoted name with a comma");
		is_str(l.v[2].addr, "bare@example.org", "bare address");
		is_str(l.v[2].name, "", "bare address has no name");
		is_str(l.v[3].name, "Old Style", "comment as name");
		is_str(l.v[4].name, "Keeper, Tomasz", "encoded name with a comma");
		is_str(l.v[4].addr, "tomasz@example.org", "its address");
		for (size_t i = 0; i < l.nr; i++)
			ok(!strchr(l.v[i].name, '\n') && !strchr(l.v[i].name, '\r'),
			   "CR/LF inside a list stays out of name %zu", i);
		is_str(l.v[7].name, "Q\"uote", "escaped quote in a name");
	}
	mailhdr_add_addrs(&sb, "Cc", &l);
	u = unfold(sb.buf);
	ok(lines_ok(sb.buf, MAILHDR_LINE), "address header folded at 78");
	ok(strstr(sb.buf, "=?UTF-8?q?Zo=C3=AB_=C3=85ngstr=C3=B6m?= <zoe@example.org>") != NULL,
	   "non-ASCII name encoded");
	ok(strstr(u, "\"Doe, Jane\" <jane@example.org>") != NULL, "comma name quoted");
	ok(strstr(u, "\"Q\\\"uote\" <q@example.org>") != NULL, "quote escaped");
	ok(strstr(sb.buf, ">,\n ") != NULL, "folds between addresses");
	free(u);
	ok(!strstr(sb.buf, "\nBcc"), "no injected header");

	ok(!mail_addr_valid("-oQ@x"), "no leading '-' (sendmail option)");
	ok(!mail_addr_valid("a@b@c"), "one '@'");
	ok(!mail_addr_valid("a\n@b"), "no LF");
	ok(!mail_addr_valid("a@"), "needs a domain");
	ok(mail_addr_valid("linux-kernel@vger.kernel.org"), "a list address is fine");
	ok(!mail_addr_add(&l, "x", "zoe@EXAMPLE.org"), "mail_addr_add refuses duplicates");
	mail_addr_list_clear(&l);
	strbuf_release(&sb);
}

/* Issue 22: addresses an attacker hides in names and comments. */
static void test_addrs_hostile(void)
{
	static const struct {
		const char *value, *addrs, *what;
	} cases[] = {
		{ "jane@ok.example (Jane <victim@elsewhere.example>)", "jane@ok.example",
		  "an <address> in a comment is none" },
		{ "=?UTF-8?q?x_=3Cvictim=40gmail=2Ecom=3E=2C?= <jane@ok.example>", "jane@ok.example",
		  "an encoded display name holding '<v@x>,' stays a name" },
		{ "\"Jane <victim@elsewhere.example>, \" <jane@ok.example>", "jane@ok.example",
		  "an <address> in a quoted name is none" },
		{ "jane@ok.example (a (nested <victim@elsewhere.example>) comment)", "jane@ok.example",
		  "nested comments" },
		{ "team: a@ok.example, \"B\" <b@ok.example>;, c@ok.example",
		  "a@ok.example b@ok.example c@ok.example", "a group stands for its members" },
		{ "undisclosed-recipients:;", "", "an empty group is nobody" },
		/* issue 33.6: a word RFC 2047 forbids in a phrase is still text */
		{ "=?UTF-8?Q?Jane_<victim3@gmail.com>,_Bob?= <jane@example.org>",
		  "jane@example.org", "a <mailbox> inside a broken Q word is text" },
		{ "=?UTF-8?B?SmFuZSA8dmljdGltM0BnbWFpbC5jb20+LCBCb2I=?= <jane@example.org>",
		  "jane@example.org", "... in a B word" },
		{ "=?UTF-8?Q?Jane_<victim3@?= =?utf-8?q?gmail.com>,?=\n <jane@example.org>",
		  "jane@example.org", "... spread over two words, folded" },
		{ "=?UTF-8?Q?Jane_<victim3@gmail.com>?=", "",
		  "... alone: no mailbox at all" },
		{ "=?UTF-8?Q?Jane_<vic?=tim3@gmail.com> <jane@example.org>", "",
		  "a word ending inside the <address>: nothing read as one" },
		{ "=?UTF-8?Q?a\"b_<victim@x.org>?= <jane@example.org>", "jane@example.org",
		  "a quote inside the word does not end the name" },
		{ "\"=?UTF-8?Q?x?=\" <a@ok.example>, (=?UTF-8?Q?_<victim@x.org>?=) b@ok.example",
		  "a@ok.example b@ok.example", "words inside quotes and comments are left to them" },
		{ "=?UTF-8?Q?J=C3=B6rg?= <joerg@ok.example>, Bob <bob@ok.example>",
		  "joerg@ok.example bob@ok.example", "a valid word: the mailbox is read as before" },
	};
	const size_t cases_nr = ARRAY_SIZE(cases);
	struct strbuf got = STRBUF_INIT;

	for (size_t i = 0; i < cases_nr; i++) {
		struct mail_addr_list l = MAIL_ADDR_LIST_INIT;

		mail_addr_parse(&l, cases[i].value);
		strbuf_reset(&got);
		for (size_t j = 0; j < l.nr; j++)
			strbuf_addf(&got, "%s%s", j ? " " : "", l.v[j].addr);
		is_str(got.buf, cases[i].addrs, "%s", cases[i].what);
		if (i == 1 && l.nr == 1)
			is_str(l.v[0].name, "x <victim@gmail.com>,", "the decoded name kept as a name");
		if (i == 6 && l.nr == 1)
			is_str(l.v[0].name, "Jane <victim3@gmail.com>, Bob",
			       "the broken word decoded into the display name");
		if (i == cases_nr - 1 && l.nr == 2)
			is_str(l.v[0].name, "J\xc3\xb6rg", "its name decoded");
		mail_addr_list_clear(&l);
	}
	strbuf_release(&got);
}

static void test_ids_dates(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *ids[] = { "a@b", "bad id", "20240502091500.4711-0-zoe@example.org",
			      "20240502091500.4711-1-zoe@example.org" };

	mailhdr_add_ids(&sb, "References", ids, 4);
	is_str(sb.buf, "References: <a@b> <20240502091500.4711-0-zoe@example.org>\n"
		       " <20240502091500.4711-1-zoe@example.org>\n",
	       "ids folded between ids, invalid ones skipped");
	strbuf_reset(&sb);
	mailhdr_add_ids(&sb, "In-Reply-To", ids + 1, 1);
	is_str(sb.buf, "", "no header when no id is valid");

	strbuf_reset(&sb);
	mailhdr_new_msgid(&sb, "example.org");
	ok(msgid_valid(sb.buf), "new message-id is valid: %s", sb.buf);
	ok(ends_with(sb.buf, "-warnwatch@example.org"), "in our domain");
	{
		struct strbuf other = STRBUF_INIT;

		mailhdr_new_msgid(&other, "example.org");
		ok(strcmp(sb.buf, other.buf), "two ids differ");
		strbuf_release(&other);
	}
	strbuf_reset(&sb);
	mailhdr_new_msgid(&sb, "bad domain/..");
	ok(msgid_valid(sb.buf) && ends_with(sb.buf, "@localhost"), "bad domain falls back");

	strbuf_reset(&sb);
	mailhdr_date(&sb, 1714641300);
	is_str(sb.buf, "Thu, 02 May 2024 09:15:00 +0000", "RFC 5322 date");
	setenv("SOURCE_DATE_EPOCH", "1714641300", 1);
	env_reload();
	is(mailhdr_now(), 1714641300, "SOURCE_DATE_EPOCH pins the date");
	unsetenv("SOURCE_DATE_EPOCH");
	env_reload();
	strbuf_release(&sb);
}

int main(void)
{
	test_clean();
	test_text();
	test_addrs();
	test_addrs_hostile();
	test_ids_dates();
	return done_testing();
}
