/*
 * Mail parsing: an mbox (git format-patch output, a b4 .mbx, a mail
 * client's or public-inbox's mboxrd/mboxo) or one saved message, split
 * into messages whose headers are unfolded and RFC 2047 decoded and whose
 * bodies are transfer-decoded to UTF-8 text with LF line ends.
 *
 * The input is read once, line by line, without a normalised copy: the
 * line reader handles CRLF and lone CR itself, so the byte offsets in
 * error messages are offsets in the caller's buffer.  Everything here is
 * linear in the input (a 200 MB mbox must not take minutes), and input
 * from strangers is held to the caps stated in mbox.h.
 */
#include "mbox.h"
#include "mbox-priv.h"

/* ---- the line reader: LF, CRLF and lone CR all end a line ---- */

struct line_reader {
	const char *buf;
	size_t len;
	size_t pos;		/* start of the next line */
	/*
	 * Cached positions of the next '\n' and '\r' at or after `pos`
	 * (`len` when there is none): a file of lone CRs must not make
	 * every line search to the far-away next LF again.
	 */
	size_t next_lf, next_cr;
};

struct line {
	const char *p;
	size_t len;		/* without the line end */
	size_t off;		/* offset in the input */
	bool lf;		/* ended by a single '\n' (can be copied as is) */
};

static size_t find_byte(const char *buf, size_t len, size_t pos, int c)
{
	const char *q = memchr(buf + pos, c, len - pos);

	return q ? (size_t)(q - buf) : len;
}

static void reader_init(struct line_reader *r, const char *buf, size_t len,
			size_t pos)
{
	r->buf = buf;
	r->len = len;
	r->pos = pos;
	r->next_lf = find_byte(buf, len, pos, '\n');
	r->next_cr = find_byte(buf, len, pos, '\r');
}

static bool reader_next(struct line_reader *r, struct line *out)
{
	size_t end, next;

	if (r->pos >= r->len)
		return false;
	if (r->next_lf < r->pos)
		r->next_lf = find_byte(r->buf, r->len, r->pos, '\n');
	if (r->next_cr < r->pos)
		r->next_cr = find_byte(r->buf, r->len, r->pos, '\r');
	end = r->next_lf;
	next = end < r->len ? end + 1 : end;
	out->lf = end < r->len;
	if (r->next_cr < end) {
		out->lf = false;
		end = r->next_cr;
		next = end + 1;
		if (next < r->len && r->buf[next] == '\n')
			next++;
	}
	out->p = r->buf + r->pos;
	out->len = end - r->pos;
	out->off = r->pos;
	r->pos = next;
	return true;
}

/* Is there no CR from the next line on (so no line end to convert)? */
static bool reader_rest_plain(struct line_reader *r)
{
	if (r->next_cr < r->pos)
		r->next_cr = find_byte(r->buf, r->len, r->pos, '\r');
	return r->next_cr == r->len;
}

/* git format-patch's "From <sha> Mon Sep 17 00:00:00 2001". */
static bool is_format_patch_line(const char *p, size_t n)
{
	static const char date[] = " Mon Sep 17 00:00:00 2001";
	size_t i = 5, dl = sizeof(date) - 1;

	if (n < 5 || memcmp(p, "From ", 5) != 0)
		return false;
	while (i < n && hexval((unsigned char)p[i]) >= 0)
		i++;
	return (i == 45 || i == 69) && n - i == dl && !memcmp(p + i, date, dl);
}

/*
 * A From_ line: "From SENDER DATE" where DATE has a hh:mm time, the
 * check git mailsplit makes so that a body line "From the datasheet"
 * after a blank line is not taken for one.
 */
static bool is_from_line(const char *p, size_t n)
{
	if (n < 6 || memcmp(p, "From ", 5) != 0 || is_ws(p[5]))
		return false;
	for (size_t i = 6; i + 2 < n; i++) {
		if (is_digit(p[i - 1]) && p[i] == ':' && is_digit(p[i + 1]) &&
		    is_digit(p[i + 2]))
			return true;
	}
	return false;
}

/*
 * The From_ line b4 (am's .mbx, mbox) and public-inbox (mboxrd) write
 * before every message, the same each time; their bodies are not always
 * quoted (b4 am's .mbx never is), so in such an input only that line
 * separates, and a body's pasted "From <sha> Mon Sep 17 ..." stays.
 */
static bool is_fixed_separator(const char *p, size_t n)
{
	static const char *const seps[] = {
		"From git@z Thu Jan  1 00:00:00 1970",
		"From mboxrd@z Thu Jan  1 00:00:00 1970",
	};

	for (size_t i = 0; i < ARRAY_SIZE(seps); i++)
		if (n == strlen(seps[i]) && !memcmp(p, seps[i], n))
			return true;
	return false;
}

struct mbox_state {
	struct mail_list *out;
	bool mbox;		/* the input has From_ lines */
	bool fixed;		/* ... all the same, is_fixed_separator() */
	size_t msgno;		/* 1-based, of the message being read */
	size_t msg_off;
	bool started, in_body, prev_blank, any_header;
	struct strbuf hdr;	/* header block, LF line ends */
	struct strbuf body;	/* raw body, LF line ends, >From unquoted */
	/* Body lines not yet copied to `body`: the input has them as they
	 * must be, so they are copied in one go (no per-line work). */
	const char *run;
	size_t run_len;
};

static void flush_run(struct mbox_state *st)
{
	if (st->run_len)
		strbuf_add(&st->body, st->run, st->run_len);
	st->run_len = 0;
}

static void start_message(struct mbox_state *st, size_t off)
{
	st->msgno++;
	st->msg_off = off;
	st->started = true;
	st->in_body = false;
	st->prev_blank = false;
	st->any_header = false;
	strbuf_reset(&st->hdr);
	strbuf_reset(&st->body);
	st->run_len = 0;
}

static int header_line(struct mbox_state *st, const struct line *l)
{
	const char *nul = memchr(l->p, '\0', l->len);

	if (nul)
		return error_code(WW_EINPUT, "message %zu (byte %zu): NUL byte in header",
				  st->msgno, l->off + (size_t)(nul - l->p));
	if (l->len > MAIL_MAX_HEADER_LINE)
		return error_code(WW_ETOOBIG,
				  "message %zu (byte %zu): header line longer than %u bytes",
				  st->msgno, l->off, MAIL_MAX_HEADER_LINE);
	if (!l->len) {
		if (!st->any_header)
			return error_code(WW_EINPUT, "message %zu (byte %zu): no mail headers",
					  st->msgno, st->msg_off);
		st->in_body = true;
		st->prev_blank = true;
		return 0;
	}
	if (!(st->any_header && is_ws(l->p[0])) && !mbox_is_field(l->p, l->len)) {
		/* Not a header: the headers ended without a blank line and
		 * this is the body (lenient, as git mailinfo is). */
		if (!st->any_header)
			return error_code(WW_EINPUT, "message %zu (byte %zu): no mail headers",
					  st->msgno, st->msg_off);
		st->in_body = true;
		return 1;
	}
	if (st->hdr.len + l->len + 1 > MAIL_MAX_HEADER_BYTES)
		return error_code(WW_ETOOBIG,
				  "message %zu (byte %zu): header block larger than %u bytes",
				  st->msgno, st->msg_off, MAIL_MAX_HEADER_BYTES);
	strbuf_add(&st->hdr, l->p, l->len);
	strbuf_addch(&st->hdr, '\n');
	st->any_header = true;
	return 0;
}

static void body_line(struct mbox_state *st, const struct line *l)
{
	const char *p = l->p;
	size_t n = l->len;

	bool as_is = l->lf;

	/* mboxrd quotes ">*From " with one more '>', mboxo "From " alone */
	if (st->mbox && n > 5 && p[0] == '>') {
		size_t i = 1;

		while (i < n && p[i] == '>')
			i++;
		if (n - i >= 5 && !memcmp(p + i, "From ", 5)) {
			p++;
			n--;
			as_is = false;
		}
	}
	st->prev_blank = n == 0;
	if (as_is && st->run_len && st->run + st->run_len == p) {
		st->run_len += n + 1;
		return;
	}
	flush_run(st);
	if (as_is) {
		st->run = p;
		st->run_len = n + 1;
		return;
	}
	strbuf_add(&st->body, p, n);
	strbuf_addch(&st->body, '\n');
}

/* The rest of the input is the body, unchanged: copy it in one go. */
static void body_rest(struct mbox_state *st, struct line_reader *r)
{
	flush_run(st);
	strbuf_add(&st->body, r->buf + r->pos, r->len - r->pos);
	if (st->body.len && st->body.buf[st->body.len - 1] != '\n')
		strbuf_addch(&st->body, '\n');
	r->pos = r->len;
}

/*
 * Header fields of a finished message into `m`.  Several To:/Cc: lines
 * are gathered raw into one buffer each and decoded once at the end:
 * joining the decoded list again for every line made 40k To: lines take
 * 22 s (issue 22); this is linear in the header block.
 */
static void fill_headers(struct mail *m, const char *hdr, size_t len)
{
	struct hdr_iter it = { hdr, hdr + len };
	struct strbuf to = STRBUF_INIT, cc = STRBUF_INIT;
	const char *n, *v;
	size_t nlen, vlen;

	while (mbox_hdr_next(&it, &n, &nlen, &v, &vlen)) {
		char **slot = NULL;
		struct strbuf *list = NULL;
		bool decode = true, id = false;

		if (mem_ieq(n, nlen, "from"))
			slot = &m->from;
		else if (mem_ieq(n, nlen, "to"))
			list = &to;
		else if (mem_ieq(n, nlen, "cc"))
			list = &cc;
		else if (mem_ieq(n, nlen, "subject"))
			slot = &m->subject;
		else if (mem_ieq(n, nlen, "date"))
			slot = &m->date, decode = false;
		else if (mem_ieq(n, nlen, "message-id"))
			slot = &m->message_id, id = true;
		else if (mem_ieq(n, nlen, "in-reply-to"))
			slot = &m->in_reply_to, id = true;
		else if (mem_ieq(n, nlen, "references"))
			slot = &m->references, decode = false;
		if (list) {
			size_t start;

			if (list->len)
				strbuf_addstr(list, ", ");
			start = list->len;
			mbox_unfold(list, v, vlen);
			if (list->len == start && start)
				strbuf_setlen(list, start - 2);	/* an empty To: */
			continue;
		}
		if (!slot || *slot)
			continue;	/* the first one counts */
		*slot = id ? mbox_msgid_text(v, vlen) : mbox_header_text(v, vlen, decode);
		if (slot == &m->from)
			m->from_raw = mbox_header_text(v, vlen, false);
	}
	m->to_raw = strbuf_detach(&to, NULL);
	m->cc_raw = strbuf_detach(&cc, NULL);
	m->to = mbox_header_text(m->to_raw, strlen(m->to_raw), true);
	m->cc = mbox_header_text(m->cc_raw, strlen(m->cc_raw), true);

	char **all[] = {
		&m->from, &m->from_raw, &m->subject, &m->date,
		&m->message_id, &m->in_reply_to, &m->references,
	};

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (!*all[i])
			*all[i] = xstrdup("");
}

static int finish_message(struct mbox_state *st)
{
	struct mail *m;
	struct strbuf body = STRBUF_INIT;
	struct mime_walk mw = { 0, st->msgno, st->msg_off };
	struct mime_info mi;
	int ret;

	flush_run(st);
	if (!st->any_header)
		return error_code(WW_EINPUT, "message %zu (byte %zu): no mail headers",
				  st->msgno, st->msg_off);
	if (st->out->nr >= MBOX_MAX_MESSAGES)
		return error_code(WW_ETOOBIG, "more than %d messages",
				  MBOX_MAX_MESSAGES);
	/* the blank line before the next From_ line separates, it is not body */
	if (st->mbox && st->body.len && st->body.buf[st->body.len - 1] == '\n' &&
	    (st->body.len == 1 || st->body.buf[st->body.len - 2] == '\n'))
		strbuf_setlen(&st->body, st->body.len - 1);

	mbox_mime_headers(&mi, st->hdr.buf, st->hdr.len);
	if (!starts_with(mi.type, "multipart/") && mi.cte == CTE_IDENTITY &&
	    mbox_charset_is_utf8(mi.charset) && !mi.flowed) {
		/* the common case: the body is already what we want */
		strbuf_swap(&body, &st->body);
		ret = 0;
	} else {
		ret = mbox_mime_collect(&body, &mw, st->hdr.buf, st->hdr.len,
				   st->body.buf, st->body.len, 0);
	}
	if (ret < 0) {
		strbuf_release(&body);
		return ret;
	}
	ALLOC_GROW(st->out->v, st->out->nr + 1, st->out->alloc);
	m = &st->out->v[st->out->nr++];
	memset(m, 0, sizeof(*m));
	fill_headers(m, st->hdr.buf, st->hdr.len);
	m->body = strbuf_detach(&body, &m->body_len);
	m->offset = st->msg_off;
	m->headers = xstrndup(st->hdr.buf, st->hdr.len);
	m->headers_len = st->hdr.len;
	st->started = false;
	return 0;
}

/* Skip a UTF-8 byte order mark and blank lines before the first message. */
static size_t skip_preamble(const char *buf, size_t len)
{
	struct line_reader r;
	struct line l;
	size_t pos = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;
	reader_init(&r, buf, len, pos);
	while (reader_next(&r, &l)) {
		if (!blank_line(l.p, l.len))
			return l.off;
	}
	return len;
}

int mbox_parse(struct mail_list *out, const char *buf, size_t len)
{
	struct mbox_state st = { .out = out, .hdr = STRBUF_INIT, .body = STRBUF_INIT };
	struct line_reader r;
	struct line l;
	size_t start;
	int ret = 0;

	if (len > MBOX_MAX_BYTES)
		return error_code(WW_ETOOBIG, "input larger than %u MiB",
				  MBOX_MAX_BYTES >> 20);
	start = skip_preamble(buf, len);
	if (start >= len)
		return error_code(WW_EINPUT, "empty input");
	st.mbox = len - start >= 5 && !memcmp(buf + start, "From ", 5);
	reader_init(&r, buf, len, start);
	if (st.mbox) {
		reader_next(&r, &l);	/* the first From_ line */
		st.fixed = is_fixed_separator(l.p, l.len);
	}
	start_message(&st, start);

	for (;;) {
		/* One message, no CR left: the rest is its body as it is. */
		if (st.in_body && !st.mbox && reader_rest_plain(&r)) {
			body_rest(&st, &r);
			break;
		}
		if (!reader_next(&r, &l))
			break;
		if (st.mbox && l.len > 5 && l.p[0] == 'F' &&
		    (st.fixed ? is_fixed_separator(l.p, l.len) :
		     is_format_patch_line(l.p, l.len) ||
		     ((!st.in_body || st.prev_blank) && is_from_line(l.p, l.len)))) {
			ret = finish_message(&st);
			if (ret < 0)
				goto out;
			start_message(&st, l.off);
			continue;
		}
		if (!st.in_body) {
			ret = header_line(&st, &l);
			if (ret < 0)
				goto out;
			if (ret == 0)
				continue;
		}
		body_line(&st, &l);
	}
	ret = finish_message(&st);
out:
	strbuf_release(&st.hdr);
	strbuf_release(&st.body);
	return ret < 0 ? ret : 0;
}

void mail_release(struct mail *m)
{
	free(m->from);
	free(m->to);
	free(m->cc);
	free(m->subject);
	free(m->date);
	free(m->message_id);
	free(m->in_reply_to);
	free(m->references);
	free(m->from_raw);
	free(m->to_raw);
	free(m->cc_raw);
	free(m->body);
	free(m->headers);
	memset(m, 0, sizeof(*m));
}

void mail_list_clear(struct mail_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		mail_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
