/*
 * Mail headers from untrusted values: cleaning, RFC 2047 encoding,
 * folding, address lists, message-ids and dates.  See mailhdr.h.
 */
#include "mailhdr.h"
#include "env.h"
#include "mbox.h"
#include "msgid.h"
#include "template.h"

#include <ctype.h>
#include <gmime/gmime.h>
#include <pthread.h>
#include <sys/random.h>
#include <unistd.h>

void mailhdr_clean(struct strbuf *out, const char *in, size_t max)
{
	struct strbuf tmp = STRBUF_INIT, valid = STRBUF_INIT;
	size_t chars, keep, i, n = 0;

	/* Controls become spaces first, so that "a\r\nb" stays two words. */
	for (const unsigned char *p = (const unsigned char *)in; *p; p++)
		strbuf_addch(&tmp, *p < 0x20 || *p == 0x7f ? ' ' : *p);
	template_clean(&valid, tmp.buf, tmp.len);
	strbuf_trim(&valid);
	chars = template_columns(valid.buf, valid.len);
	if (chars <= max || max < 4) {
		strbuf_addbuf(out, &valid);
		goto out;
	}
	/* Cut at a character boundary, leaving room for "...". */
	keep = max - 3;
	for (i = 0; i < valid.len; i++)
		if (((unsigned char)valid.buf[i] & 0xc0) != 0x80 && n++ == keep)
			break;
	strbuf_setlen(&valid, i);
	strbuf_rtrim(&valid);
	strbuf_addbuf(out, &valid);
	strbuf_addstr(out, "...");
out:
	strbuf_release(&tmp);
	strbuf_release(&valid);
}

/* ---- folding ----------------------------------------------------------- */

/* Append `line` (one header, no newline) folded at MAILHDR_LINE, breaking
 * before spaces only, so that unfolding gives the line back exactly.
 * `min` is where the value starts (never break inside "Name:"). */
static void fold(struct strbuf *out, const char *line, size_t len, size_t min)
{
	size_t pos = 0;

	while (len - pos > MAILHDR_LINE) {
		size_t brk = 0, comma = 0, limit = pos + MAILHDR_LINE;

		for (size_t i = pos + 1; i < len && i <= limit; i++) {
			if (line[i] != ' ' || i <= min)
				continue;
			brk = i;
			if (line[i - 1] == ',')
				comma = i;	/* between addresses reads best */
		}
		if (comma)
			brk = comma;
		if (!brk) {
			/* Nothing fits: break at the next space, if any. */
			for (size_t i = limit; i < len && !brk; i++)
				if (line[i] == ' ' && i > min)
					brk = i;
			if (!brk)
				break;
		}
		strbuf_add(out, line + pos, brk - pos);
		strbuf_addch(out, '\n');
		pos = brk;
		min = 0;
	}
	strbuf_add(out, line + pos, len - pos);
	strbuf_addch(out, '\n');
}

/* ---- RFC 2047 ---------------------------------------------------------- */

#define EW_PREFIX "=?UTF-8?q?"
#define EW_SUFFIX "?="
/* Keep "Subject: " + one word within MAILHDR_LINE. */
#define EW_MAX 66

static bool q_safe(unsigned char c)
{
	/* RFC 2047 5(3): what an encoded word in a phrase may hold. */
	return isalnum(c) || c == '!' || c == '*' || c == '+' || c == '-' ||
	       c == '/';
}

void mailhdr_encode_words(struct strbuf *out, const char *text, size_t first_room)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t word_len = 0;
	bool open = false;

	(void)first_room;
	while (*p) {
		size_t n = 1, enc = 0;

		if (*p >= 0x80)
			while (n < 4 && (p[n] & 0xc0) == 0x80)
				n++;
		for (size_t i = 0; i < n; i++)
			enc += (q_safe(p[i]) || p[i] == ' ') ? 1 : 3;
		if (open && word_len + enc + strlen(EW_SUFFIX) > EW_MAX) {
			strbuf_addstr(out, EW_SUFFIX " ");
			open = false;
		}
		if (!open) {
			strbuf_addstr(out, EW_PREFIX);
			word_len = strlen(EW_PREFIX);
			open = true;
		}
		for (size_t i = 0; i < n; i++) {
			if (p[i] == ' ')
				strbuf_addch(out, '_');
			else if (q_safe(p[i]))
				strbuf_addch(out, p[i]);
			else
				strbuf_addf(out, "=%02X", p[i]);
		}
		word_len += enc;
		p += n;
	}
	if (open)
		strbuf_addstr(out, EW_SUFFIX);
}

static bool needs_encoding(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0x80)
			return true;
	/* Text that looks like an encoded word must not be decoded as one. */
	return strstr(s, "=?") != NULL;
}

void mailhdr_add_text(struct strbuf *out, const char *name, const char *value)
{
	struct strbuf line = STRBUF_INIT, clean = STRBUF_INIT;

	mailhdr_clean(&clean, value, MAILHDR_MAX_TEXT);
	strbuf_addf(&line, "%s: ", name);
	if (needs_encoding(clean.buf))
		mailhdr_encode_words(&line, clean.buf, 0);
	else
		strbuf_addbuf(&line, &clean);
	fold(out, line.buf, line.len, strlen(name) + 1);
	strbuf_release(&line);
	strbuf_release(&clean);
}

/* ---- addresses --------------------------------------------------------- */

bool mail_addr_valid(const char *addr)
{
	const char *at = strchr(addr, '@');
	size_t len = strlen(addr);

	if (!at || at == addr || !at[1] || strchr(at + 1, '@') || len > MAILHDR_MAX_ADDR)
		return false;
	if (addr[0] == '-' || addr[0] == '.' || at[1] == '.' || addr[len - 1] == '.')
		return false;
	for (const unsigned char *p = (const unsigned char *)addr; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || strchr("()<>[]\\,;:\"", *p))
			return false;
	return true;
}

bool mail_addr_has(const struct mail_addr_list *l, const char *addr)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcasecmp(l->v[i].addr, addr))
			return true;
	return false;
}

bool mail_addr_add(struct mail_addr_list *l, const char *name, const char *addr)
{
	struct strbuf clean = STRBUF_INIT;

	if (l->nr >= (l->max ? l->max : MAILHDR_MAX_ADDRS) ||
	    !mail_addr_valid(addr) || mail_addr_has(l, addr))
		return false;
	mailhdr_clean(&clean, name ? name : "", MAILHDR_MAX_TEXT / 4);
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].name = strbuf_detach(&clean, NULL);
	l->v[l->nr].addr = xstrdup(addr);
	l->nr++;
	return true;
}

void mail_addr_list_clear(struct mail_addr_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].name);
		free(l->v[i].addr);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;	/* the cap stays */
}

/* GMime's type system is set up once per process, whichever thread asks. */
static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;

static void gmime_start(void)
{
	g_mime_init();
}

/* Append the mailboxes of `list`, a group's members in place of the group. */
static int add_gmime_list(struct mail_addr_list *out, InternetAddressList *list,
			  int depth)
{
	int dropped = 0, n = internet_address_list_length(list);

	for (int i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);
		const char *name = internet_address_get_name(ia), *addr;

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			/* RFC 5322 groups do not nest; GMime's never do either. */
			if (!depth)
				dropped += add_gmime_list(out,
					internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)),
					depth + 1);
			continue;
		}
		addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
		if (!addr || !mail_addr_valid(addr))
			dropped++;
		else
			mail_addr_add(out, name, addr);
	}
	return dropped;
}

/*
 * The length of the encoded word at `p`, read leniently
 * ("=?CHARSET?Q|B?TEXT?=", TEXT anything but '?' and white space: a word
 * RFC 2047 forbids in a phrase, holding '<', '@' or ',', counts), or 0.
 */
static size_t encoded_word(const char *p)
{
	size_t i = 2, cs;

	if (p[0] != '=' || p[1] != '?')
		return 0;
	cs = i;
	while (p[i] && p[i] != '?' && !isspace((unsigned char)p[i]))
		i++;
	if (i == cs || p[i] != '?' || !p[i + 1] || !strchr("QqBb", p[i + 1]) ||
	    p[i + 2] != '?')
		return 0;
	i += 3;
	while (p[i] && p[i] != '?' && !isspace((unsigned char)p[i]))
		i++;
	return p[i] == '?' && p[i + 1] == '=' ? i + 2 : 0;
}

/*
 * `value` with each run of encoded words (white space between them)
 * outside quoted strings and comments replaced by one quoted string of
 * their decoded text, into `out`.  GMime reads a word such as
 * "=?UTF-8?Q?Jane_<v@x>,_Bob?=" as the atom "=?UTF-8?Q?Jane_", then the
 * mailbox <v@x>: a recipient the sender hid inside a display name.  As a
 * quoted string it stays what its writer meant, text.
 */
static void words_as_text(struct strbuf *out, const char *value)
{
	struct strbuf text = STRBUF_INIT;
	const char *p = value;
	int comment = 0;
	bool quoted = false;

	while (*p) {
		size_t n = quoted || comment ? 0 : encoded_word(p);
		const char *run = p, *end;

		if (!n) {
			if (*p == '\\' && p[1] && (quoted || comment))
				strbuf_addch(out, *p++);
			else if (*p == '"' && !comment)
				quoted = !quoted;
			else if (*p == '(' && !quoted)
				comment++;
			else if (*p == ')' && !quoted && comment)
				comment--;
			strbuf_addch(out, *p++);
			continue;
		}
		/* the run: words with only white space between them */
		end = p + n;
		for (;;) {
			const char *q = end;

			while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
				q++;
			if (q == end || !(n = encoded_word(q)))
				break;
			end = q + n;
		}
		strbuf_reset(&text);
		mail_decode_words(&text, run, end - run);
		strbuf_addch(out, '"');
		for (size_t i = 0; i < text.len; i++) {
			if (text.buf[i] == '"' || text.buf[i] == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, text.buf[i]);
		}
		strbuf_addch(out, '"');
		p = end;
	}
	strbuf_release(&text);
}

int mail_addr_parse(struct mail_addr_list *out, const char *value)
{
	InternetAddressList *list;
	struct strbuf text = STRBUF_INIT;
	int dropped;

	if (!value || !*value)
		return 0;
	pthread_once(&gmime_once, gmime_start);
	words_as_text(&text, value);
	list = internet_address_list_parse(NULL, text.buf);
	strbuf_release(&text);
	if (!list)
		return 1;	/* nothing GMime could read as an address */
	dropped = add_gmime_list(out, list, 0);
	g_object_unref(list);
	return dropped;
}

static void add_phrase(struct strbuf *out, const char *name)
{
	bool plain = true;

	if (needs_encoding(name)) {
		mailhdr_encode_words(out, name, 0);
		return;
	}
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(" !#$%&'*+-/=?^_`{|}~", *p))
			plain = false;
	if (plain) {
		strbuf_addstr(out, name);
		return;
	}
	strbuf_addch(out, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

void mail_addr_format(struct strbuf *out, const char *name, const char *addr)
{
	if (name && *name) {
		add_phrase(out, name);
		strbuf_addf(out, " <%s>", addr);
	} else {
		strbuf_addstr(out, addr);
	}
}

void mailhdr_add_addrs(struct strbuf *out, const char *name,
		       const struct mail_addr_list *l)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s: ", name);
	for (size_t i = 0; i < l->nr; i++) {
		if (i)
			strbuf_addstr(&line, ", ");
		mail_addr_format(&line, l->v[i].name, l->v[i].addr);
	}
	fold(out, line.buf, line.len, strlen(name) + 1);
	strbuf_release(&line);
}

void mailhdr_add_ids(struct strbuf *out, const char *name,
		     const char *const *ids, size_t nr)
{
	struct strbuf line = STRBUF_INIT;
	bool any = false;

	strbuf_addf(&line, "%s:", name);
	for (size_t i = 0; i < nr; i++) {
		if (!msgid_valid(ids[i]))
			continue;
		strbuf_addf(&line, " <%s>", ids[i]);
		any = true;
	}
	if (any)
		fold(out, line.buf, line.len, strlen(name) + 1);
	strbuf_release(&line);
}

/* ---- message-ids and dates --------------------------------------------- */

void mailhdr_new_msgid(struct strbuf *out, const char *domain)
{
	unsigned char rnd[8] = { 0 };
	struct strbuf tmp = STRBUF_INIT;
	time_t now = time(NULL);
	struct tm tm;

	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd)) {
		/* No entropy: time and pid alone are still unique enough here. */
		memset(rnd, 0, sizeof(rnd));
	}
	gmtime_r(&now, &tm);
	strbuf_addf(&tmp, "%04d%02d%02d%02d%02d%02d.%ld.", tm.tm_year + 1900,
		    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		    (long)getpid());
	for (size_t i = 0; i < sizeof(rnd); i++)
		strbuf_addf(&tmp, "%02x", rnd[i]);
	strbuf_addf(&tmp, "-warnwatch@%s", domain && *domain ? domain : "localhost");
	if (!msgid_valid(tmp.buf)) {
		/* A domain we cannot use verbatim (odd characters). */
		char *at = strrchr(tmp.buf, '@');

		strbuf_setlen(&tmp, at - tmp.buf);
		strbuf_addstr(&tmp, "@localhost");
	}
	strbuf_addbuf(out, &tmp);
	strbuf_release(&tmp);
}

void mailhdr_date(struct strbuf *out, time_t t)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	gmtime_r(&t, &tm);
	strbuf_addf(out, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday],
		    tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
}

time_t mailhdr_now(void)
{
	const char *e = env_get(ENV_SOURCE_DATE_EPOCH);
	char *end;
	long long v;

	if (e && *e) {
		errno = 0;
		v = strtoll(e, &end, 10);
		if (!*end && !errno && v >= 0)
			return (time_t)v;
	}
	return time(NULL);
}
