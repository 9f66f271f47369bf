/*
 * libFuzzer harness for mail input: mbox_parse() on arbitrary bytes, then
 * series_from_mails() and the header helpers on whatever it produced.
 * Mail comes from strangers; none of this may crash, leak or hang.
 */
#include "series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_list l = MAIL_LIST_INIT;
	struct series s = SERIES_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)mbox_parse(&l, (const char *)data, size);
	(void)series_from_mails(&s, &l);
	for (size_t i = 0; i < l.nr; i++) {
		struct subject_tags t;

		series_parse_subject(&t, l.v[i].subject);
		(void)mail_header(&sb, l.v[i].headers, l.v[i].headers_len, "x-mailer");
	}
	mail_decode_words(&sb, (const char *)data, size);
	strbuf_release(&sb);
	series_release(&s);
	mail_list_clear(&l);
	return 0;
}
