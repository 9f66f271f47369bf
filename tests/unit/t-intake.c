/*
 * Unit tests for bot/mail/intake.c: each cap at its bound and one past
 * it, lines counted as written and as decoded (base64), file headers of
 * git and quilt diffs, a bare diff read by series_load(), names in the
 * messages.
 */
#include "intake.h"
#include "mbox.h"
#include "tap.h"

#define HDR "From: Jane <jane@example.org>\nSubject: [PATCH] x\nMessage-ID: <%d@x>\n"

/* One message of `lines` body lines "x". */
static void mail_of_lines(struct strbuf *out, size_t lines)
{
	strbuf_addf(out, HDR "\n", 1);
	for (size_t i = 0; i < lines; i++)
		strbuf_addstr(out, "x\n");
}

/* A git diff touching `n` files, as one message (or bare with !mail). */
static void diff_of_files(struct strbuf *out, size_t n, bool mail, bool quilt)
{
	if (mail)
		strbuf_addf(out, HDR "\n---\n", 1);
	for (size_t i = 0; i < n; i++) {
		if (!quilt)
			strbuf_addf(out, "diff --git a/f%zu.c b/f%zu.c\n", i, i);
		strbuf_addf(out, "--- a/f%zu.c\n+++ b/f%zu.c\n@@ -1 +1 @@\n-a\n+b\n", i, i);
	}
}

static void test_lines(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct intake_counts c;

	/* the header's 4 lines and the blank line count too */
	mail_of_lines(&sb, INTAKE_MAX_LINES - 4);
	is(intake_check(&c, sb.buf, sb.len, NULL), 0, "a million lines: accepted");
	is((long)c.lines, INTAKE_MAX_LINES, "  counted: %zu", c.lines);
	strbuf_addstr(&sb, "x\n");
	is(intake_check(NULL, sb.buf, sb.len, "'big.mbox'"), WW_ETOOBIG,
	   "one line more: refused");
	is_str(error_last(), "'big.mbox': more than 1000000 lines", "  says so, naming it");
	strbuf_release(&sb);
}

/* base64 packs 19 of "x\n" lines into one written line */
static void test_decoded(void)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	struct strbuf sb = STRBUF_INIT, plain = STRBUF_INIT;
	size_t col = 0;

	for (size_t i = 0; i <= INTAKE_MAX_LINES; i++)
		strbuf_addstr(&plain, "x\n");
	strbuf_addf(&sb, HDR "Content-Transfer-Encoding: base64\n\n", 1);
	for (size_t i = 0; i < plain.len; i += 3) {
		unsigned char a = plain.buf[i];
		unsigned char b = i + 1 < plain.len ? plain.buf[i + 1] : 0;
		unsigned char d = i + 2 < plain.len ? plain.buf[i + 2] : 0;

		strbuf_addch(&sb, b64[a >> 2]);
		strbuf_addch(&sb, b64[((a & 3) << 4) | (b >> 4)]);
		strbuf_addch(&sb, i + 1 < plain.len ? b64[((b & 15) << 2) | (d >> 6)] : '=');
		strbuf_addch(&sb, i + 2 < plain.len ? b64[d & 63] : '=');
		if ((col += 4) >= 76) {
			strbuf_addch(&sb, '\n');
			col = 0;
		}
	}
	strbuf_addch(&sb, '\n');
	is(intake_check(NULL, sb.buf, sb.len, NULL), WW_ETOOBIG,
	   "a million and one lines in base64 (%zu written): refused", sb.len / 77);
	is_str(error_last(), "more than 1000000 lines once decoded", "  once decoded");
	strbuf_release(&sb);
	strbuf_release(&plain);
}

static void test_files(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct mail_list none = MAIL_LIST_INIT;
	struct intake_counts c;

	diff_of_files(&sb, INTAKE_MAX_FILES, true, false);
	is(intake_check(&c, sb.buf, sb.len, NULL), 0, "a diff of 10,000 files: accepted");
	is((long)c.files, INTAKE_MAX_FILES, "  counted: %zu", c.files);
	strbuf_reset(&sb);
	diff_of_files(&sb, INTAKE_MAX_FILES + 1, true, false);
	is(intake_check(NULL, sb.buf, sb.len, NULL), WW_ETOOBIG, "10,001 files: refused");
	is_str(error_last(), "its diffs touch more than 10000 files", "  says so");
	strbuf_reset(&sb);
	diff_of_files(&sb, INTAKE_MAX_FILES + 1, true, true);
	is(intake_check(NULL, sb.buf, sb.len, NULL), WW_ETOOBIG,
	   "10,001 files of a quilt diff (no diff --git): refused");
	strbuf_reset(&sb);
	diff_of_files(&sb, INTAKE_MAX_FILES + 1, false, false);
	is(intake_check_parsed(NULL, sb.buf, sb.len, &none, "'x.diff'"), WW_ETOOBIG,
	   "a bare diff (no mails) of 10,001 files: refused");
	is_str(error_last(), "'x.diff': its diffs touch more than 10000 files", "  naming it");
	strbuf_reset(&sb);
	diff_of_files(&sb, 3, false, false);
	is(intake_check_parsed(&c, sb.buf, sb.len, &none, NULL), 0, "a bare diff of 3 files");
	is((long)c.files, 3, "  3 files");
	strbuf_release(&sb);
}

static void test_sizes(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t line;

	/* one message of 16 MiB and a little more, in 64 KiB lines */
	strbuf_addf(&sb, "From x@y Thu Jan  1 00:00:00 1970\n" HDR "\n", 1);
	line = 65536;
	while (sb.len <= INTAKE_MAX_MAIL) {
		strbuf_addchars(&sb, 'a', line - 1);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addf(&sb, "From x@y Thu Jan  1 00:00:00 1970\n" HDR "\nsmall\n", 2);
	is(intake_check(NULL, sb.buf, sb.len, NULL), WW_ETOOBIG,
	   "a message over 16 MiB in an mbox: refused");
	is_str(error_last(), "message 1 (byte 0): more than 16 MiB", "  says which");
	strbuf_reset(&sb);
	strbuf_addchars(&sb, '\n', 16);
	strbuf_addchars(&sb, 'a', INTAKE_MAX_BYTES);
	is(intake_check(NULL, sb.buf, sb.len, "'huge'"), WW_ETOOBIG,
	   "over 64 MiB: refused before it is parsed");
	is_str(error_last(), "'huge': 67108880 bytes, more than 64 MiB", "  says so");
	strbuf_reset(&sb);
	strbuf_addf(&sb, HDR "MIME-Version: 1.0\n"
		    "Content-Type: multipart/mixed; boundary=\"b\"\n\n", 1);
	for (int i = 0; i <= MAIL_MAX_MIME_PARTS; i++)
		strbuf_addstr(&sb, "--b\nContent-Type: text/plain\n\nx\n");
	strbuf_addstr(&sb, "--b--\n");
	is(intake_check(NULL, sb.buf, sb.len, NULL), WW_ETOOBIG,
	   "check's caps hold too: 1,001 MIME parts refused");
	is_str(error_last(), "message 1 (byte 0): more than 1000 MIME parts", "  mbox.c's words");
	strbuf_release(&sb);
}

int main(void)
{
	test_lines();
	test_decoded();
	test_files();
	test_sizes();
	return done_testing();
}
