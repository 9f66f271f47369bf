/*
 * libFuzzer harness for the headers warnwatch writes from strangers' data
 * (subjects, names, address lists): whatever goes in, what comes out is
 * one header -- no CR, no NUL, every line after the first a folded
 * continuation (starts with a space) -- so nothing can inject another.
 */
#include "mailhdr.h"
#include "fuzz.h"

static void one_header(const char *h, size_t len)
{
	FUZZ_ASSERT(len && h[len - 1] == '\n', "header not ended by a newline");
	FUZZ_ASSERT(strlen(h) == len, "NUL inside a header");
	for (size_t i = 0; i < len; i++) {
		FUZZ_ASSERT(h[i] != '\r', "CR in header: %s", h);
		if (h[i] == '\n' && i + 1 < len)
			FUZZ_ASSERT(h[i + 1] == ' ' || h[i + 1] == '\t',
				    "injected header line: %s", h);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_addr_list l = MAIL_ADDR_LIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *in = xstrndup((const char *)data, size);

	mailhdr_clean(&sb, in, MAILHDR_MAX_TEXT);
	FUZZ_ASSERT(!memchr(sb.buf, '\n', sb.len) && !memchr(sb.buf, '\r', sb.len),
		    "mailhdr_clean() kept a line break");
	strbuf_setlen(&sb, 0);
	mailhdr_add_text(&sb, "Subject", in);
	one_header(sb.buf, sb.len);

	(void)mail_addr_parse(&l, in);
	for (size_t i = 0; i < l.nr; i++)
		FUZZ_ASSERT(mail_addr_valid(l.v[i].addr), "kept invalid '%s'",
			    l.v[i].addr);
	if (l.nr) {
		strbuf_setlen(&sb, 0);
		mailhdr_add_addrs(&sb, "To", &l);
		one_header(sb.buf, sb.len);
	}
	strbuf_setlen(&sb, 0);
	mailhdr_encode_words(&sb, in, 60);
	FUZZ_ASSERT(!memchr(sb.buf, '\r', sb.len), "CR in encoded words");
	mail_addr_list_clear(&l);
	strbuf_release(&sb);
	free(in);
	return 0;
}
