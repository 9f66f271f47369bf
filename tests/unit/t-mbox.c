/*
 * Unit tests for mbox.c: splitting mboxes and single messages, header
 * unfolding and RFC 2047 decoding, body transfer encodings and charsets,
 * multipart attachments, and hostile input (NUL bytes, caps, empty input,
 * pathological lines that would make a careless parser quadratic).
 */
#include "mbox.h"
#include "tap.h"

#include <time.h>

static const char *data_dir(void)
{
	static char path[4096];
	const char *top = getenv("WW_TOP");

	snprintf(path, sizeof(path), "%s/tests/unit/data/mail", top ? top : ".");
	return path;
}

static int parse_file(struct mail_list *l, const char *name)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", data_dir(), name);
	ret = strbuf_read_file(&sb, path.buf, 0);
	if (!ret)
		ret = mbox_parse(l, sb.buf, sb.len);
	strbuf_release(&sb);
	strbuf_release(&path);
	return ret;
}

static int parse_str(struct mail_list *l, const char *s)
{
	return mbox_parse(l, s, strlen(s));
}

static char *decode(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	mail_decode_words(&sb, s, strlen(s));
	return strbuf_detach(&sb, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_seed_single_message(void)
{
	struct mail_list l = MAIL_LIST_INIT;

	is(parse_file(&l, "seed-001.eml"), 0, "seed: a saved message without From_ line parses");
	is(l.nr, 1, "seed: one message");
	if (l.nr != 1)
		goto out;
	is_str(l.v[0].subject,
	       "[PATCH] Documentation: coding-style: don't encourage WARN*()",
	       "seed: subject");
	is_str(l.v[0].from, "Alex Elder <elder@linaro.org>", "seed: from");
	is_str(l.v[0].date, "Sun, 14 Apr 2024 12:08:50 -0500", "seed: date");
	is_str(l.v[0].message_id, "", "seed: absent Message-ID is empty, not NULL");
	ok(starts_with(l.v[0].body, "Several times recently Greg KH"), "seed: body starts after the blank line");
	ok(strstr(l.v[0].body, "\ndiff --git a/Documentation/process/coding-style.rst") != NULL,
	   "seed: body holds the diff");
	ok(ends_with(l.v[0].body, "-- \n2.40.1\n"), "seed: body ends with the signature");
	is(l.v[0].offset, 0, "seed: offset 0");
out:
	mail_list_clear(&l);
}

static void test_format_patch_mbox(void)
{
	struct mail_list l = MAIL_LIST_INIT;

	is(parse_file(&l, "series-v1.mbox"), 0, "format-patch: cover + 3 patches parse");
	is(l.nr, 4, "format-patch: four messages");
	if (l.nr != 4)
		goto out;
	is_str(l.v[0].subject, "[PATCH 0/3] foo: parent checks", "format-patch: cover subject");
	is_str(l.v[0].message_id, "cover.1796285251.git.joerg@example.org",
	       "format-patch: Message-Id without <>");
	is_str(l.v[1].in_reply_to, "cover.1796285251.git.joerg@example.org",
	       "format-patch: In-Reply-To without <>");
	is_str(l.v[1].references, "<cover.1796285251.git.joerg@example.org>",
	       "format-patch: References raw");
	is_str(l.v[1].from, "J\xc3\xb6rg R\xc3\xb6" "del <joerg@example.org>",
	       "format-patch: raw UTF-8 From kept");
	ok(starts_with(l.v[1].body, "From the datasheet, the parent"),
	   "format-patch: 'From the datasheet' after a blank line does not split");
	is_str(l.v[2].subject,
	       "[PATCH 2/3] foo: drop the empty note item with a rather long subject line that folds",
	       "format-patch: folded subject unfolded with one space");
	ok(l.v[1].offset > 0 && l.v[2].offset > l.v[1].offset, "format-patch: offsets grow");
	ok(l.v[0].headers && strstr(l.v[0].headers, "MIME-Version: 1.0\n") != NULL,
	   "format-patch: raw header block kept");
	ok(ends_with(l.v[3].body, "2.39.5\n"), "format-patch: separator blank line not in body");
	ok(!ends_with(l.v[3].body, "2.39.5\n\n"), "format-patch: exactly one line end at the end");
out:
	mail_list_clear(&l);
}

static void test_b4_mbx(void)
{
	struct mail_list l = MAIL_LIST_INIT;

	is(parse_file(&l, "b4-series.mbx"), 0, "b4 .mbx parses");
	is(l.nr, 3, "b4 .mbx: three patches");
	if (l.nr == 3) {
		ok(starts_with(l.v[0].body, "From the datasheet, the parent"),
		   "b4 .mbx: >From unquoted in the body");
		ok(strstr(l.v[0].body, ">From the") == NULL, "b4 .mbx: no quoting left");
		is_str(l.v[0].subject, "[PATCH v2 1/3] foo: assert the parent exists", "b4 .mbx: subject");
	}
	mail_list_clear(&l);

	is(parse_file(&l, "b4-series.cover"), 0, "b4 .cover (no From_ line) parses");
	is(l.nr, 1, "b4 .cover: one message");
	if (l.nr == 1)
		is_str(l.v[0].subject, "[PATCH v2 0/3] foo: parent checks", "b4 .cover: subject");
	mail_list_clear(&l);
}

static void test_from_quoting(void)
{
	struct mail_list l = MAIL_LIST_INIT;
	const char *mboxrd =
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: a@example.org\nSubject: one\n\n"
		">From here\n>>From there\n>>>From far\n> From quoted reply\n>Fromage\n"
		"\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: b@example.org\nSubject: two\n\nbody two\n";
	const char *single =
		"From: a@example.org\nSubject: s\n\n>From kept\n\nFrom x Thu Jan  1 00:00:00 1970\nstill body\n";

	is(parse_str(&l, mboxrd), 0, "mboxrd parses");
	is(l.nr, 2, "mboxrd: two messages");
	if (l.nr == 2) {
		is_str(l.v[0].body, "From here\n>From there\n>>From far\n> From quoted reply\n>Fromage\n",
		       "mboxrd: one '>' removed from >*From lines only");
		is_str(l.v[1].subject, "two", "mboxrd: second subject");
		is_str(l.v[1].body, "body two\n", "mboxrd: second body");
	}
	mail_list_clear(&l);

	is(parse_str(&l, single), 0, "single message parses");
	is(l.nr, 1, "single message: a From_ line in the body does not split it");
	if (l.nr == 1)
		ok(starts_with(l.v[0].body, ">From kept\n"), "single message: no >From unquoting");
	mail_list_clear(&l);
}

static void test_from_lines(void)
{
	struct mail_list l = MAIL_LIST_INIT;
	const char *s =
		"From 1234567890123456789012345678901234567890 Mon Sep 17 00:00:00 2001\n"
		"From: a@example.org\nSubject: [PATCH] a\n\n"
		"text\n\nFrom the datasheet: not a separator\n"
		"From nobody: not a separator either\n"
		"last line\n"
		/* format-patch output glued without a blank line still splits */
		"From abcdefabcdefabcdefabcdefabcdefabcdefabcd Mon Sep 17 00:00:00 2001\n"
		"From: b@example.org\nSubject: [PATCH] b\n\nb\n"
		"\nFrom MAILER-DAEMON Fri Jul  8 12:08:34 2011\n"
		"From: c@example.org\nSubject: c\n\nc\n";

	is(parse_str(&l, s), 0, "From_ lines: parses");
	is(l.nr, 3, "From_ lines: only real separators split");
	if (l.nr == 3) {
		ok(strstr(l.v[0].body, "From the datasheet") && strstr(l.v[0].body, "last line\n"),
		   "From_ lines: body lines starting with From stay");
		is_str(l.v[1].subject, "[PATCH] b", "From_ lines: glued format-patch message");
		is_str(l.v[2].subject, "c", "From_ lines: mbox From_ with a sender");
	}
	mail_list_clear(&l);
}

/*
 * b4 am's .mbx never quotes a body's From lines: a commit message that
 * pasted a format-patch header must not split the patch (issue 27).
 */
static void test_pasted_from(void)
{
	struct mail_list l = MAIL_LIST_INIT;
	const char *b4mbx =
		"From git@z Thu Jan  1 00:00:00 1970\n"
		"From: Ann <ann@example.org>\nSubject: [PATCH 1/2] ext4: a\n"
		"Message-Id: <a@example.org>\n\n"
		"As the earlier fix said:\n\n"
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
		"From: Bob <bob@example.org>\n"
		"Subject: [PATCH] ext4: the earlier fix\n\n"
		"Signed-off-by: Ann <ann@example.org>\n---\n"
		"diff --git a/x.c b/x.c\n"
		"From git@z Thu Jan  1 00:00:00 1970\n"
		"From: Ann <ann@example.org>\nSubject: [PATCH 2/2] ext4: b\n"
		"Message-Id: <b@example.org>\n\nb\n";

	is(parse_str(&l, b4mbx), 0, "b4 .mbx with a pasted From <sha> line parses");
	is(l.nr, 2, "  two messages: the pasted line does not split");
	if (l.nr == 2) {
		ok(strstr(l.v[0].body, "From 0123456789abcdef") &&
		   strstr(l.v[0].body, "diff --git a/x.c b/x.c\n"),
		   "  the first keeps its whole body");
		is_str(l.v[1].subject, "[PATCH 2/2] ext4: b", "  the second is patch 2");
	}
	mail_list_clear(&l);
}

static void test_line_ends(void)
{
	struct mail_list l = MAIL_LIST_INIT;

	is(parse_str(&l, "From: a@example.org\r\nSubject: crlf\r\n folded\r\n\r\nline 1\r\nline 2\r\n"), 0,
	   "CRLF parses");
	if (l.nr == 1) {
		is_str(l.v[0].subject, "crlf folded", "CRLF: folded subject");
		is_str(l.v[0].body, "line 1\nline 2\n", "CRLF: body has LF line ends");
	}
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@example.org\rSubject: cr\r\rone\rtwo\r"), 0, "lone CR parses");
	if (l.nr == 1) {
		is_str(l.v[0].subject, "cr", "lone CR: subject");
		is_str(l.v[0].body, "one\ntwo\n", "lone CR: body lines");
	}
	mail_list_clear(&l);

	is(parse_str(&l, "From x Thu Jan  1 00:00:00 1970\r\nFrom: a@x\r\nSubject: 1\r\n\r\nb\r\n\r\n"
			 "From x Thu Jan  1 00:00:00 1970\r\nFrom: a@x\r\nSubject: 2\r\n\r\nc\r\n"), 0,
	   "CRLF mbox parses");
	is(l.nr, 2, "CRLF mbox: two messages");
	mail_list_clear(&l);

	is(parse_str(&l, "\xef\xbb\xbf\n\nFrom: a@x\nSubject: bom\n\nb"), 0,
	   "byte order mark and blank lines before the headers");
	if (l.nr == 1) {
		is_str(l.v[0].subject, "bom", "BOM: subject");
		is_str(l.v[0].body, "b\n", "no final line end: one added");
	}
	mail_list_clear(&l);
}

static void test_encoded_words(void)
{
	struct {
		const char *in, *want, *name;
	} t[] = {
		{ "=?UTF-8?q?J=C3=B6rg?=", "J\xc3\xb6rg", "Q, UTF-8" },
		{ "=?utf-8?Q?J=c3=b6rg_R=C3=B6del?=", "J\xc3\xb6rg R\xc3\xb6" "del", "Q, lower-case hex, _ is space" },
		{ "=?UTF-8?B?SsO2cmc=?=", "J\xc3\xb6rg", "B, UTF-8" },
		{ "=?UTF-8?B?SsO2cmc?=", "J\xc3\xb6rg", "B without padding" },
		{ "=?ISO-8859-1?Q?J=F6rg?=", "J\xc3\xb6rg", "Q, ISO-8859-1" },
		{ "=?iso-8859-15?q?=A4uro?=", "\xe2\x82\xac" "uro", "Q, ISO-8859-15 euro sign" },
		{ "=?windows-1252?Q?=80_and_=93q=94?=", "\xe2\x82\xac and \xe2\x80\x9cq\xe2\x80\x9d", "Q, windows-1252" },
		{ "=?us-ascii?q?plain?=", "plain", "us-ascii" },
		{ "=?UTF-8*en?Q?lang?=", "lang", "RFC 2231 language suffix" },
		{ "=?UTF-8?q?a?= =?UTF-8?q?b?=", "ab", "adjacent words joined" },
		{ "=?UTF-8?q?a?=\t  =?ISO-8859-1?q?=E9?=", "a\xc3\xa9", "adjacent words in two charsets" },
		{ "=?UTF-8?B?w6k=?= =?UTF-8?B?w6k=?=", "\xc3\xa9\xc3\xa9", "adjacent B words" },
		{ "=?UTF-8?B?w6nD?= =?UTF-8?B?qQ==?=", "\xc3\xa9\xc3\xa9", "a character split across two words" },
		{ "Re: =?UTF-8?q?a?= b =?UTF-8?q?c?=", "Re: a b c", "text between words kept" },
		{ "x=?UTF-8?q?a?=y", "xay", "word glued to text" },
		{ "=?UTF-8?q?a=0Ab=0Dc=00d?=", "a b c d", "decoded control characters become spaces" },
		{ "=?UTF-8?B?!!!?=", "=?UTF-8?B?!!!?=", "invalid base64 left as is" },
		{ "=?UTF-8?q?a=ZZ?=", "=?UTF-8?q?a=ZZ?=", "invalid Q escape left as is" },
		{ "=?x-no-such-charset?q?abc?=", "=?x-no-such-charset?q?abc?=", "unknown charset left as is" },
		{ "=?x-bad?q?a?= =?x-bad?q?b?=", "=?x-bad?q?a?= =?x-bad?q?b?=", "unknown charset run left as is" },
		{ "=?UTF-8?X?abc?=", "=?UTF-8?X?abc?=", "unknown encoding left as is" },
		{ "=?UTF-8?q?has space?=", "=?UTF-8?q?has space?=", "word with a space is not a word" },
		{ "=?UTF-8?q?unterminated", "=?UTF-8?q?unterminated", "unterminated word" },
		{ "=?", "=?", "lone =?" },
		{ "a = b ?= c", "a = b ?= c", "no word at all" },
		{ "=?ISO-8859-1?Q?=FF=FE?=", "\xc3\xbf\xc3\xbe", "Latin-1 high bytes" },
		{ "=?UTF-8?q?=FF?=", "\xff", "invalid UTF-8 kept as bytes" },
		{ "", "", "empty" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *got = decode(t[i].in);

		is_str(got, t[i].want, "decode: %s", t[i].name);
		free(got);
	}
}

static void test_folded_encoded_subject(void)
{
	struct mail_list l = MAIL_LIST_INIT;
	const char *s =
		"From: =?UTF-8?q?J=C3=B6rg_R=C3=B6del?= <joerg@example.org>\n"
		"Subject: =?UTF-8?B?W1BBVENIIHYyIDEvMl0gZm9vOiBtYWtlIErDtnJn?=\n"
		" =?UTF-8?B?J3MgZHJpdmVyIHdvcms=?=\n"
		"Message-ID:\n <abc@example.org>\n"
		"To: a@example.org,\n\tb@example.org\n"
		"Cc: c@example.org\n"
		"Cc: d@example.org\n"
		"Subject: second subject ignored\n"
		"\n"
		"body\n";

	is(parse_str(&l, s), 0, "folded encoded subject parses");
	if (l.nr != 1)
		goto out;
	is_str(l.v[0].subject, "[PATCH v2 1/2] foo: make J\xc3\xb6rg's driver work",
	       "base64 subject split across folded lines joined");
	is_str(l.v[0].from, "J\xc3\xb6rg R\xc3\xb6" "del <joerg@example.org>", "encoded From");
	is_str(l.v[0].message_id, "abc@example.org", "folded Message-ID");
	is_str(l.v[0].to, "a@example.org, b@example.org", "folded To");
	is_str(l.v[0].cc, "c@example.org, d@example.org", "two Cc lines joined");
out:
	mail_list_clear(&l);
}

static void test_bodies(void)
{
	struct mail_list l = MAIL_LIST_INIT;

	is(parse_str(&l, "From: a@x\nSubject: qp\nContent-Transfer-Encoding: quoted-printable\n"
			 "Content-Type: text/plain; charset=utf-8\n\n"
			 "a long line that was bro=\nken here, x =3D 1;=20\n"
			 "J=C3=B6rg =   \nsoft break with padding\nstray = sign and =zz\n"), 0,
	   "QP body parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "a long line that was broken here, x = 1; \n"
		       "J\xc3\xb6rg soft break with padding\nstray = sign and =zz\n",
		       "QP: soft breaks, =XX escapes, stray = kept");
	mail_list_clear(&l);

	/* format=flowed (RFC 3676): unstuffed, soft breaks joined, delsp. */
	is(parse_str(&l, "From: a@x\nSubject: flowed\n"
			 "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n"
			 "  \tint x;\n+\tpr_err(\"a wrapped  \nline\");\n"
			 "plain \nflowed\n-- \nsig\n"), 0, "flowed body parses");
	if (l.nr == 1)
		is_str(l.v[0].body, " \tint x;\n+\tpr_err(\"a wrapped line\");\n"
		       "plainflowed\n-- \nsig\n",
		       "flowed: stuffing removed, soft breaks joined, delsp, signature kept");
	mail_list_clear(&l);
	is(parse_str(&l, "From: a@x\nSubject: flowed\n"
			 "Content-Type: text/plain; format=flowed\n\n"
			 "one \ntwo\n"), 0, "flowed without delsp parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "one two\n", "flowed without delsp: the space stays");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: b64\nContent-Transfer-Encoding: BASE64\n\n"
			 "ZGlmZiAtLWdpdCBhL3ggYi94DQorCUJVR19PTih4KTsNCg==\n"), 0,
	   "base64 body parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "diff --git a/x b/x\n+\tBUG_ON(x);\n", "base64: decoded, CRLF made LF");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: latin1\nContent-Type: text/plain; charset=\"ISO-8859-1\"\n"
			 "Content-Transfer-Encoding: 8bit\n\nJ\xf6rg\n"), 0, "Latin-1 body parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "J\xc3\xb6rg\n", "Latin-1 body converted to UTF-8");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: qp latin1\nContent-Type: text/plain; charset=iso-8859-1\n"
			 "Content-Transfer-Encoding: quoted-printable\n\nJ=F6rg\n"), 0, "QP Latin-1 parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "J\xc3\xb6rg\n", "QP Latin-1 body converted");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: bad utf8\n\n\xff\xfe ok \xc3\n"), 0, "invalid UTF-8 body parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "\xff\xfe ok \xc3\n", "invalid UTF-8 bytes kept");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: unknown charset\nContent-Type: text/plain; charset=x-martian\n\nabc\n"),
	   0, "unknown charset parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "abc\n", "unknown charset: bytes kept");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: headers only\nDate: Mon, 1 Jan 2024 00:00:00 +0000"), 0,
	   "truncated message (headers, no body) accepted");
	if (l.nr == 1) {
		is_str(l.v[0].body, "", "truncated message: empty body");
		is_str(l.v[0].date, "Mon, 1 Jan 2024 00:00:00 +0000", "truncated message: last header kept");
	}
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: no blank line\ndiff --git a/x b/x\n+x\n"), 0,
	   "headers ending without a blank line");
	if (l.nr == 1)
		is_str(l.v[0].body, "diff --git a/x b/x\n+x\n", "the first non-header line starts the body");
	mail_list_clear(&l);
}

static void test_multipart(void)
{
	struct mail_list l = MAIL_LIST_INIT;
	const char *s =
		"From: a@x\nSubject: [PATCH] attached\nMIME-Version: 1.0\n"
		"Content-Type: multipart/mixed;\n boundary=\"===b1==\"\n\n"
		"This is a multi-part message in MIME format.\n"
		"--===b1==\n"
		"Content-Type: multipart/alternative; boundary=b2\n\n"
		"--b2\nContent-Type: text/plain; charset=utf-8\n\nPlease apply.\n"
		"--b2\nContent-Type: text/html\n\n<p>Please apply.</p>\n"
		"--b2--\n"
		"--===b1==\n"
		"Content-Type: text/x-patch; name=\"0001-x.patch\"\n"
		"Content-Disposition: attachment; filename=\"0001-x.patch\"\n"
		"Content-Transfer-Encoding: base64\n\n"
		"ZGlmZiAtLWdpdCBhL3ggYi94Ci0tLSBhL3gKKysrIGIveApAQCAtMSArMSBAQAot\n"
		"YQorYgo=\n"
		"--===b1==\n"
		"Content-Type: application/pgp-signature\n\n-----BEGIN PGP SIGNATURE-----\n"
		"--===b1==\n"
		"Content-Type: text/x-diff; charset=iso-8859-1\n"
		"Content-Transfer-Encoding: quoted-printable\n\n"
		"+J=F6rg\n"
		"--===b1==--\n"
		"epilogue\n";

	is(parse_str(&l, s), 0, "multipart parses");
	if (l.nr == 1)
		is_str(l.v[0].body,
		       "Please apply.\n"
		       "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
		       "+J\xc3\xb6rg\n",
		       "multipart: text/plain, x-patch and x-diff parts, decoded, in order");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: fwd\nContent-Type: multipart/mixed; boundary=zz\n\n"
			 "--zz\nContent-Type: text/plain\n\nForwarding.\n"
			 "--zz\nContent-Type: message/rfc822\n\n"
			 "From: b@x\nSubject: [PATCH] y\nContent-Transfer-Encoding: quoted-printable\n\n"
			 "+x =3D 1;\n--zz--\n"), 0, "forwarded message/rfc822 part parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "Forwarding.\n+x = 1;\n", "message/rfc822: the inner body, decoded");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: s\nContent-Type: multipart/mixed; boundary=zz\n\n"
			 "--zz\nContent-Type: text/plain\n\npart one\n--zz\n\nno headers\n"), 0,
	   "multipart without closing boundary parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "part one\nno headers\n", "multipart: truncated last part kept");
	mail_list_clear(&l);

	is(parse_str(&l, "From: a@x\nSubject: s\nContent-Type: multipart/mixed; boundary=zz\n\njust text\n"), 0,
	   "multipart without any boundary parses");
	if (l.nr == 1)
		is_str(l.v[0].body, "just text\n", "multipart without boundary read as text");
	mail_list_clear(&l);
}

static void test_errors(void)
{
	struct mail_list l = MAIL_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	static const char nul[] =
		"From x Thu Jan  1 00:00:00 1970\nFrom: a@x\nSubject: 1\n\nb\n\n"
		"From x Thu Jan  1 00:00:00 1970\nFrom: a@x\nSubject: 2\n\nb\n\n"
		"From x Thu Jan  1 00:00:00 1970\nFrom: a@x\nSubj\0ect: 3\n\nb\n";

	is(mbox_parse(&l, nul, sizeof(nul) - 1), WW_EINPUT, "NUL byte in a header: WW_EINPUT");
	is_str(error_last(), "message 3 (byte 160): NUL byte in header", "NUL: says which message and where");
	is(l.nr, 2, "NUL: the messages before it were parsed");
	mail_list_clear(&l);

	is(parse_str(&l, ""), WW_EINPUT, "empty input: WW_EINPUT");
	is_str(error_last(), "empty input", "empty input: message");
	is(parse_str(&l, "\n \n\t\n"), WW_EINPUT, "blank input: WW_EINPUT");
	is(parse_str(&l, "diff --git a/x b/x\n--- a/x\n+++ b/x\n"), WW_EINPUT, "a bare diff is not mail");
	is_str(error_last(), "message 1 (byte 0): no mail headers", "bare diff: message");
	is(parse_str(&l, "From: a@x\nSubject: 1\n\nb\n\nFrom x Thu Jan  1 00:00:00 1970\n"), 0,
	   "a From_ line inside a single message is body");
	mail_list_clear(&l);
	is(parse_str(&l, "From x Thu Jan  1 00:00:00 1970\nFrom: a@x\n\nb\n\nFrom x Thu Jan  1 00:00:00 1970\n"),
	   WW_EINPUT, "truncated mbox: a From_ line and nothing after it");
	is_str(error_last(), "message 2 (byte 46): no mail headers", "truncated mbox: message");
	mail_list_clear(&l);

	strbuf_addstr(&sb, "From: a@x\nSubject: ");
	strbuf_addchars(&sb, 'x', MAIL_MAX_HEADER_LINE);
	strbuf_addstr(&sb, "\n\nbody\n");
	is(mbox_parse(&l, sb.buf, sb.len), WW_ETOOBIG, "over-long header line: WW_ETOOBIG");
	ok(strstr(error_last(), "message 1 (byte 10): header line longer than") != NULL,
	   "over-long header line: message");
	mail_list_clear(&l);

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "From: a@x\n");
	for (int i = 0; i < 20000; i++)
		strbuf_addf(&sb, "X-Filler-%d: %0100d\n", i, 0);
	strbuf_addstr(&sb, "\nbody\n");
	is(mbox_parse(&l, sb.buf, sb.len), WW_ETOOBIG, "header block over 1 MiB: WW_ETOOBIG");
	mail_list_clear(&l);

	strbuf_reset(&sb);
	for (int i = 0; i <= MBOX_MAX_MESSAGES; i++)
		strbuf_addstr(&sb, "From x Thu Jan  1 00:00:00 1970\nFrom: a@x\nSubject: s\n\nb\n\n");
	is(mbox_parse(&l, sb.buf, sb.len), WW_ETOOBIG, "too many messages: WW_ETOOBIG");
	is_str(error_last(), "more than 10000 messages", "too many messages: message");
	mail_list_clear(&l);

	is(mbox_parse(&l, sb.buf, (size_t)MBOX_MAX_BYTES + 1), WW_ETOOBIG,
	   "input over the byte cap: WW_ETOOBIG before reading it");
	strbuf_reset(&sb);

	strbuf_addstr(&sb, "From: a@x\nSubject: deep\n");
	for (int i = 0; i < 20; i++)
		strbuf_addf(&sb, "Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n", i, i);
	strbuf_addstr(&sb, "\ntext\n");
	is(mbox_parse(&l, sb.buf, sb.len), WW_ETOOBIG, "MIME nested too deep: WW_ETOOBIG");
	mail_list_clear(&l);
	strbuf_release(&sb);
}

/* Inputs that would make a careless parser quadratic must stay fast. */
static void test_pathological(void)
{
	struct mail_list l = MAIL_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	double t;
	size_t i;

	strbuf_addstr(&sb, "From: a@x\nSubject: s\n\n");
	strbuf_addchars(&sb, '\r', 8 << 20);
	strbuf_addch(&sb, '\n');
	t = now();
	is(mbox_parse(&l, sb.buf, sb.len), 0, "8 MB of lone CRs then one LF");
	ok(now() - t < 2.0, "lone CRs: linear (%.2f s)", now() - t);
	mail_list_clear(&l);

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "From: a@x\nSubject: ");
	for (i = 0; i < 60000; i++)
		strbuf_addstr(&sb, i % 1000 ? "=?utf-8?q?" : "\n =?utf-8?q?");
	strbuf_addstr(&sb, "\n\nb\n");
	t = now();
	is(mbox_parse(&l, sb.buf, sb.len), 0, "600 KB of unterminated encoded words");
	ok(now() - t < 2.0, "unterminated encoded words: bounded (%.2f s)", now() - t);
	mail_list_clear(&l);

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "From: a@x\nSubject: ");
	for (i = 0; i < 10; i++) {
		strbuf_addchars(&sb, ' ', 50000);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addch(&sb, ' ');
	strbuf_addstr(&sb, "x\n\nb\n");
	t = now();
	is(mbox_parse(&l, sb.buf, sb.len), 0, "half a megabyte of leading blanks");
	if (l.nr == 1)
		is_str(l.v[0].subject, "x", "leading blanks trimmed");
	ok(now() - t < 2.0, "leading blanks: linear (%.2f s)", now() - t);
	mail_list_clear(&l);

	strbuf_reset(&sb);
	for (i = 0; i < 20000; i++)
		strbuf_addf(&sb, "From x Thu Jan  1 00:00:00 1970\nFrom: a@x\nSubject: [PATCH %zu/20000] x\n\n"
			    "diff --git a/x b/x\n>From quoted\n+\tBUG_ON(x);\n\n", i % 9999 + 1);
	t = now();
	is(mbox_parse(&l, sb.buf, sb.len), WW_ETOOBIG, "20000 messages stop at the cap");
	ok(now() - t < 2.0, "many messages: fast (%.2f s)", now() - t);
	mail_list_clear(&l);
	strbuf_release(&sb);
}

static void test_header_api(void)
{
	struct strbuf sb = STRBUF_INIT;
	const char *h = "X-Mailer: git-send-email\nsubject: =?utf-8?q?caf=C3=A9?=\n  latte\nList-Id: <lkml>\n";

	is(mail_header(&sb, h, strlen(h), "Subject"), 0, "mail_header: found (case-insensitive)");
	is_str(sb.buf, "caf\xc3\xa9 latte", "mail_header: unfolded and decoded");
	strbuf_reset(&sb);
	is(mail_header(&sb, h, strlen(h), "list-id"), 0, "mail_header: last header");
	is_str(sb.buf, "<lkml>", "mail_header: value");
	strbuf_reset(&sb);
	is(mail_header(&sb, h, strlen(h), "X-Missing"), WW_ENOTFOUND, "mail_header: absent");
	is(mail_header(&sb, h, strlen(h), "X-Mail"), WW_ENOTFOUND, "mail_header: no prefix match");

	strbuf_release(&sb);
}

int main(void)
{
	test_seed_single_message();
	test_format_patch_mbox();
	test_b4_mbx();
	test_from_quoting();
	test_from_lines();
	test_pasted_from();
	test_line_ends();
	test_encoded_words();
	test_folded_encoded_subject();
	test_bodies();
	test_multipart();
	test_errors();
	test_pathological();
	test_header_api();
	return done_testing();
}
