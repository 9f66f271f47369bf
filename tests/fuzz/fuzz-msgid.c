/*
 * libFuzzer harness for message-id validation.  What msgid_normalize()
 * accepts goes into b4's argv, URLs and file names: it must never start
 * with '-' or hold a control byte, a quoting, shell-syntax or URL
 * metacharacter (argv is never a shell line, so '$' and '|' are mere
 * bytes), a "." or ".." path segment, or exceed MSGID_MAX.
 * msgid_quote() must give one printable line.
 */
#include "msgid.h"
#include "fuzz.h"

static void check_id(const char *id)
{
	size_t n = strlen(id);

	FUZZ_ASSERT(n > 0 && n <= MSGID_MAX, "accepted id of %zu bytes", n);
	FUZZ_ASSERT(id[0] != '-', "accepted id '%s' starting with '-'", id);
	FUZZ_ASSERT(strchr(id, '@'), "accepted id '%s' without '@'", id);
	for (const char *p = id; *p; p++)
		FUZZ_ASSERT(*p > ' ' && *p < 0x7f &&
			    !strchr("`;&<>()\\\"' ?[],:#%", *p),
			    "accepted id '%s' with byte 0x%02x", id,
			    (unsigned char)*p);
	for (const char *seg = id;;) {
		const char *end = strchrnul(seg, '/');
		size_t len = (size_t)(end - seg);

		FUZZ_ASSERT(len > 0 && !(len == 1 && seg[0] == '.') &&
			    !(len == 2 && seg[0] == '.' && seg[1] == '.'),
			    "accepted id '%s' with an empty, '.' or '..' segment", id);
		if (!*end)
			break;
		seg = end + 1;
	}
	FUZZ_ASSERT(msgid_valid(id), "normalised id '%s' is not valid", id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT, q = STRBUF_INIT;
	char *in = xstrndup((const char *)data, size);

	if (msgid_normalize(&out, in) >= 0)
		check_id(out.buf);
	if (msgid_valid(in))
		check_id(in);
	msgid_quote(&q, in);
	for (size_t i = 0; i < q.len; i++)
		FUZZ_ASSERT((unsigned char)q.buf[i] >= ' ' && q.buf[i] != 0x7f,
			    "msgid_quote() kept byte 0x%02x",
			    (unsigned char)q.buf[i]);
	free(in);
	strbuf_release(&out);
	strbuf_release(&q);
	error_clear();
	return 0;
}
