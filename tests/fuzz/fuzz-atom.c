/*
 * libFuzzer harness for public-inbox Atom feeds (they come over the
 * network): atom_parse() on arbitrary bytes.  Every entry it keeps must
 * carry a Message-ID atom_msgid_ok() accepts; URLs and timestamps are
 * fuzzed too.
 */
#include "atom.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct atom_feed f = ATOM_FEED_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *s;
	time_t t;

	if (atom_parse(&f, (const char *)data, size) >= 0) {
		FUZZ_ASSERT(f.nr <= ATOM_MAX_ENTRIES, "%zu entries", f.nr);
		for (size_t i = 0; i < f.nr; i++) {
			const struct atom_entry *e = &f.v[i];

			FUZZ_ASSERT(atom_msgid_ok(e->message_id, strlen(e->message_id)),
				    "entry %zu kept with Message-ID '%s'", i,
				    e->message_id);
			FUZZ_ASSERT(!strchr(e->title, '\n') && !strchr(e->title, '\r'),
				    "title of entry %zu spans lines", i);
		}
	}
	atom_feed_release(&f);
	/* The same bytes as one URL and as one timestamp. */
	s = xstrndup((const char *)data, size);
	if (atom_msgid_from_url(&sb, s) >= 0)
		FUZZ_ASSERT(atom_msgid_ok(sb.buf, sb.len), "url gave '%s'", sb.buf);
	(void)atom_parse_time(&t, s);
	free(s);
	strbuf_release(&sb);
	error_clear();
	return 0;
}
