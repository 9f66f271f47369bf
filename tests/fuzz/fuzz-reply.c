/*
 * libFuzzer harness for the review reply: a stranger's mbox, checked,
 * then the reply drafted with the shipped templates.  Whatever the series
 * holds (CR/LF in subjects and names, odd ids, Cc lists), the drafted
 * mail's header block may only hold the headers reply.c writes, each
 * once, and every recipient must be a valid address.
 */
#include "reply.h"
#include "msgid.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)fuzz_rules();
	return 0;
}

static const char *const allowed[] = {
	"From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To",
	"References", "X-Patchwork-Hint", "MIME-Version", "Content-Type",
	"Content-Transfer-Encoding",
};

static void check_headers(const struct reply *rp)
{
	const char *p = rp->text.buf, *end = strstr(p, "\n\n");
	int seen[ARRAY_SIZE(allowed)] = { 0 };

	FUZZ_ASSERT(end, "reply without a header/body separator");
	FUZZ_ASSERT(!memchr(p, '\r', end - p), "CR in the reply's headers");
	while (p <= end) {
		const char *nl = strchr(p, '\n'), *colon;
		size_t i;

		if (*p == ' ' || *p == '\t') {
			p = nl + 1;
			continue;
		}
		colon = memchr(p, ':', nl - p);
		FUZZ_ASSERT(colon, "header line without a name: %.*s",
			    (int)(nl - p), p);
		for (i = 0; i < ARRAY_SIZE(allowed); i++)
			if (strlen(allowed[i]) == (size_t)(colon - p) &&
			    !strncmp(allowed[i], p, colon - p))
				break;
		FUZZ_ASSERT(i < ARRAY_SIZE(allowed), "injected header: %.*s",
			    (int)(nl - p), p);
		FUZZ_ASSERT(!seen[i]++, "header %s twice", allowed[i]);
		p = nl + 1;
	}
	for (size_t i = 0; i < rp->rcpt.nr; i++)
		FUZZ_ASSERT(mail_addr_valid(rp->rcpt.v[i].addr),
			    "recipient '%s'", rp->rcpt.v[i].addr);
	FUZZ_ASSERT(rp->in_reply_to && msgid_valid(rp->in_reply_to),
		    "answers an invalid message-id '%s'",
		    rp->in_reply_to ? rp->in_reply_to : "(null)");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_opts copts = CHECK_OPTS_INIT;
	struct reply_opts ropts = REPLY_OPTS_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct mail_list l = MAIL_LIST_INIT;
	struct series s = SERIES_INIT;
	struct reply rp = REPLY_INIT;

	copts.rules = fuzz_rules();
	if (mbox_parse(&l, (const char *)data, size) < 0 ||
	    series_from_mails(&s, &l) < 0 || check_series(&r, &s, &copts) < 0)
		goto out;
	ropts.from = "warnwatch <bot@example.org>";
	ropts.template_dir = WW_DATADIR "/templates";
	ropts.always = size & 1;
	ropts.message_id = "reply.1@example.org";
	ropts.date = 1700000000;
	ropts.policy = (enum reply_policy)(size % 4);
	if (reply_build(&rp, &s, &r, &ropts) >= 0 && !rp.empty)
		check_headers(&rp);
out:
	reply_release(&rp);
	check_result_clear(&r);
	series_release(&s);
	mail_list_clear(&l);
	error_clear();
	return 0;
}
