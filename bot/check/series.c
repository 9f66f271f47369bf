/*
 * A patch series from the messages of an mbox: which messages carry
 * patches (their subject tags say so and their body holds a diff), which
 * one is the cover letter, which version of the series to keep when b4
 * returned several, and in what order the patches go.  A review reply
 * that quotes a patch ("> +	BUG_ON(x);") holds no diff and is no patch.
 */
#include "series.h"
#include "diff.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* n/m numbers above this are not patch numbers (and would overflow). */
#define SERIES_MAX_NUMBER 100000

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_ws(int c)
{
	return c == ' ' || c == '\t';
}

static bool istarts(const char *s, size_t n, const char *prefix)
{
	size_t i, pl = strlen(prefix);

	if (n < pl)
		return false;
	for (i = 0; i < pl; i++)
		if (lower((unsigned char)s[i]) != prefix[i])
			return false;
	return true;
}

/* Digits [p, p+n) as a number, or -1 (empty, not digits, too big). */
static int number(const char *p, size_t n)
{
	int v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
		if (v > SERIES_MAX_NUMBER)
			return -1;
	}
	return v;
}

/* "v2", "V3" (also the tail of "PATCHv2", "RFC-v2") as a version. */
static int version_token(const char *p, size_t n)
{
	if (n && (*p == '-' || *p == '_'))
		p++, n--;
	if (n < 2 || lower((unsigned char)*p) != 'v')
		return -1;
	return number(p + 1, n - 1);
}

/* "SET", "BOMB", "BLIZZARD": three letters or more (not PATCHES' "ES"). */
static bool collection_word(const char *p, size_t n)
{
	if (n < 3)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z')))
			return false;
	return true;
}

static void subject_token(struct subject_tags *out, const char *p, size_t n)
{
	const char *slash = memchr(p, '/', n);
	int v;

	if (istarts(p, n, "patch")) {
		out->is_patch = true;
		/* "PATCHv2", "PATCH-v2" */
		if ((v = version_token(p + 5, n - 5)) > 0)
			out->version = v;
		/* A word after PATCH that is no version names a collection:
		 * PATCHSET, PATCHBOMB, PATCHBLIZZARD (a letter above sets). */
		else if (collection_word(p + 5, n - 5))
			out->patchset = true;
	} else if (istarts(p, n, "rfc")) {
		out->is_patch = true;
		out->rfc = true;
		if ((v = version_token(p + 3, n - 3)) > 0)
			out->version = v;
	} else if ((v = version_token(p, n)) > 0) {
		out->version = v;
	} else if (slash) {
		int i = number(p, slash - p);
		int t = number(slash + 1, n - (slash - p) - 1);

		if (i >= 0 && t > 0) {
			out->index = i;
			out->total = t;
		}
	}
	/* anything else ("net-next", "RESEND", "6.1") says nothing we use */
}

/* The words of one [..] group, separated by blanks or commas. */
static void subject_group(struct subject_tags *out, const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t start;

		while (i < n && (is_ws(p[i]) || p[i] == ','))
			i++;
		start = i;
		while (i < n && !is_ws(p[i]) && p[i] != ',')
			i++;
		if (i > start)
			subject_token(out, p + start, i - start);
	}
}

/* "Re:", "RE :", "Aw:", "Fwd:", "Re[2]:" ...: the length, or 0. */
static size_t reply_prefix(const char *p)
{
	static const char *const words[] = {
		"re", "aw", "fwd", "fw", "sv", "vs", "antw", "odp", "wg", "tr",
	};
	size_t i = 0;

	while (p[i] && ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z')))
		i++;
	for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
		size_t j = i;

		if (strlen(words[w]) != i || !istarts(p, i, words[w]))
			continue;
		if (p[j] == '[') {	/* "Re[2]:" */
			while (is_digit(p[++j]))
				;
			if (p[j++] != ']')
				return 0;
		}
		while (is_ws(p[j]))
			j++;
		return p[j] == ':' ? j + 1 : 0;
	}
	return 0;
}

void series_parse_subject(struct subject_tags *out, const char *subject)
{
	const char *p = subject;

	memset(out, 0, sizeof(*out));
	out->version = 1;
	out->index = -1;
	out->total = -1;
	for (;;) {
		const char *close;
		size_t n;

		while (is_ws(*p))
			p++;
		if (*p == '[' && (close = strchr(p, ']')) != NULL) {
			subject_group(out, p + 1, close - p - 1);
			p = close + 1;
			continue;
		}
		/* "[list] Re: [PATCH]" yes; "[PATCH] fw: loader" is a title */
		if (!out->is_patch && (n = reply_prefix(p)) != 0) {
			out->is_reply = true;
			p += n;
			continue;
		}
		break;
	}
	out->title_off = p - subject;
	if (out->is_reply)
		out->is_patch = false;
}

/* ---- the diff inside a mail body ---- */

static bool line_starts(const char *p, size_t n, const char *prefix)
{
	size_t pl = strlen(prefix);

	return n >= pl && !memcmp(p, prefix, pl);
}

/* Does a diff start at this line (`next`: the line after it)? */
static bool diff_starts(const char *p, size_t n, const char *next,
			const char *end)
{
	size_t nn;

	if (line_starts(p, n, "diff --git "))
		return true;
	if (next >= end)
		return false;
	nn = end - next;
	/* quilt: "Index: file" then "=====" or "--- " */
	if (line_starts(p, n, "Index: "))
		return line_starts(next, nn, "====") || line_starts(next, nn, "--- ");
	/* diff -u */
	return line_starts(p, n, "--- ") && line_starts(next, nn, "+++ ");
}

/* "@@ -a[,b] +c[,d] @@": the line counts b and d (1 when absent). */
static bool hunk_header(const char *p, size_t n, long *old_n, long *new_n)
{
	const char *end = p + n;
	long *cnt[2] = { old_n, new_n };
	const char sign[2] = { '-', '+' };

	if (!line_starts(p, n, "@@ "))
		return false;
	p += 3;
	for (int k = 0; k < 2; k++) {
		if (p >= end || *p++ != sign[k])
			return false;
		while (p < end && is_digit(*p))
			p++;
		*cnt[k] = 1;
		if (p < end && *p == ',') {
			long v = 0;

			for (p++; p < end && is_digit(*p); p++)
				if (v < 100000000)
					v = v * 10 + (*p - '0');
			*cnt[k] = v;
		}
		if (p < end && *p == ' ')
			p++;
	}
	return true;
}

/* Does a line of a hunk with old/new lines still to come belong to it? */
static bool hunk_line(const char *p, size_t n, long *old_rem, long *new_rem)
{
	switch (n ? p[0] : ' ') {	/* an empty line: whitespace-damaged context */
	case ' ':
		if (*old_rem > 0)
			(*old_rem)--;
		if (*new_rem > 0)
			(*new_rem)--;
		return true;
	case '-':
		if (*old_rem > 0)
			(*old_rem)--;
		return true;
	case '+':
		if (*new_rem > 0)
			(*new_rem)--;
		return true;
	case '\\':		/* "\ No newline at end of file" */
		return true;
	default:
		return false;
	}
}

/*
 * The diff in a patch mail's body: from its first "diff --git " (or
 * quilt "Index: ", or "--- " + "+++ ") line to the "-- " signature line
 * that follows format-patch output, or to "base-commit:", or to the end.
 * Hunk line counts are followed so that a removed line "- " ("-- " in
 * the diff) inside a hunk does not end it.
 */
static bool find_diff(const char *body, size_t len, const char **out,
		      size_t *out_len)
{
	const char *p = body, *end = body + len, *start = NULL;
	long old_rem = 0, new_rem = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *next = nl ? nl + 1 : end;
		size_t n = (nl ? nl : end) - p;

		if (!start) {
			if (diff_starts(p, n, next, end))
				start = p;
			p = next;
			continue;
		}
		if (old_rem > 0 || new_rem > 0) {
			if (hunk_line(p, n, &old_rem, &new_rem)) {
				p = next;
				continue;
			}
			old_rem = new_rem = 0;
		}
		if ((n == 3 && !memcmp(p, "-- ", 3)) || (n == 2 && !memcmp(p, "--", 2)) ||
		    line_starts(p, n, "base-commit: "))
			break;
		hunk_header(p, n, &old_rem, &new_rem);
		p = next;
	}
	if (!start)
		return false;
	*out = start;
	*out_len = p - start;
	return true;
}

/* "base-commit: <hex>" (or a release tag, "v6.1", "v6.12-rc3": see
 * kbase.h) anywhere in a body, as a new string, or NULL. */
static char *find_base_commit(const char *body, size_t len)
{
	const char *p = body, *end = body + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;

		if (line_starts(p, n, "base-commit: ")) {
			const char *h = p + 13, *e = h;

			while (e < p + n && is_ws(*e))
				h++, e++;
			if (e + 1 < p + n && *e == 'v' && e[1] >= '0' && e[1] <= '9') {
				e++;
				while (e < p + n && (isalnum((unsigned char)*e) ||
						     *e == '.' || *e == '-'))
					e++;
				if (e - h <= 32)
					return xstrndup(h, e - h);
				return NULL;
			}
			while (e < p + n && ((*e >= '0' && *e <= '9') ||
					     (*e >= 'a' && *e <= 'f')))
				e++;
			if (e - h >= 7 && e - h <= 64)
				return xstrndup(h, e - h);
		}
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

/*
 * The author of a patch: git format-patch puts "From: Name <addr>" (and
 * "Date: ...") first in the body when the commit's author is not the
 * sender.  Returns new strings or NULL.
 */
static void in_body_author(char **author, char **date, const char *body,
			   size_t len)
{
	const char *p = body, *end = body + len;

	while (p < end && *p == '\n')
		p++;
	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;
		struct strbuf sb = STRBUF_INIT;
		char **slot = NULL;
		size_t skip = 0;

		if (line_starts(p, n, "From:"))
			slot = author, skip = 5;
		else if (line_starts(p, n, "Date:"))
			slot = date, skip = 5;
		else if (!line_starts(p, n, "Subject:"))
			return;		/* not an in-body header block */
		if (slot && !*slot) {
			mail_decode_words(&sb, p + skip, n - skip);
			strbuf_trim(&sb);
			*slot = strbuf_detach(&sb, NULL);
		}
		p = nl ? nl + 1 : end;
	}
}

/* ---- the series ---- */

struct candidate {
	const struct mail *mail;
	struct subject_tags tags;
	bool cover;
	int index;		/* in the series, after numbering */
	const char *diff;
	size_t diff_len;
};

static int cmp_by_message_id(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;
	int r = strcmp(x->mail->message_id, y->mail->message_id);

	return r ? r : (x->mail > y->mail) - (x->mail < y->mail);
}

/*
 * Keep one of several copies of a message (cross-posted to two lists,
 * or an mbox saved twice into one file): the first in mail order.
 * Sorting keeps this O(n log n) on an mbox of 10000 patches.
 */
static size_t drop_copies(struct candidate *c, size_t nr)
{
	struct candidate **by_id = xcalloc(nr ? nr : 1, sizeof(struct candidate *));
	size_t kept = 0;

	for (size_t i = 0; i < nr; i++)
		by_id[i] = &c[i];
	qsort(by_id, nr, sizeof(struct candidate *), cmp_by_message_id);
	for (size_t i = 1, first = 0; i < nr; i++) {
		const char *id = by_id[i]->mail->message_id;

		if (id[0] && !strcmp(id, by_id[first]->mail->message_id))
			by_id[i]->mail = NULL;
		else
			first = i;
	}
	free(by_id);
	for (size_t i = 0; i < nr; i++)
		if (c[i].mail)
			c[kept++] = c[i];
	return kept;
}

static size_t collect(struct candidate *c, const struct mail_list *mails,
		      bool need_tags, unsigned int flags)
{
	size_t nr = 0;

	for (size_t i = 0; i < mails->nr; i++) {
		const struct mail *m = &mails->v[i];
		struct candidate *k = &c[nr];
		bool has_diff;

		memset(k, 0, sizeof(*k));
		series_parse_subject(&k->tags, m->subject);
		if (k->tags.is_reply || (need_tags && !k->tags.is_patch))
			continue;
		has_diff = find_diff(m->body, m->body_len, &k->diff, &k->diff_len);
		if ((flags & SERIES_GROUPED) && k->tags.patchset)
			k->tags.index = 0;	/* [PATCHSET v7 3/9]: the cover */
		if (k->tags.index == 0) {
			k->cover = true;
			k->diff = NULL;
			k->diff_len = 0;
		} else if (!has_diff && k->tags.index < 0) {
			continue;	/* [RFC] discussion, not a patch */
		}
		k->mail = m;
		k->index = k->tags.index;
		nr++;
	}
	return drop_copies(c, nr);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Record the versions seen, ascending; return the newest. */
static int pick_version(struct series *out, const struct candidate *c,
			size_t nr)
{
	size_t n = 0;

	out->versions = xcalloc(nr ? nr : 1, sizeof(int));
	for (size_t i = 0; i < nr; i++)
		out->versions[i] = c[i].tags.version;
	qsort(out->versions, nr, sizeof(int), cmp_int);
	for (size_t i = 0; i < nr; i++)
		if (!n || out->versions[n - 1] != out->versions[i])
			out->versions[n++] = out->versions[i];
	out->versions_nr = n;
	return n ? out->versions[n - 1] : 1;
}

static int cmp_candidate(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->index != y->index)
		return (x->index > y->index) - (x->index < y->index);
	/* equal numbers: keep mail order, for the duplicate message */
	return (x->mail > y->mail) - (x->mail < y->mail);
}

/*
 * Number unnumbered patches in mail order ("[PATCH] a" and "[PATCH] b"
 * in one file, as `cat *.patch` gives), then check that the numbers make
 * one whole series.
 */
static int check_numbers(struct candidate *c, size_t nr, size_t npatch,
			 bool have_cover, unsigned int flags)
{
	bool grouped = flags & SERIES_GROUPED;
	size_t unnumbered = 0;
	int total = -1, seq = 0;

	for (size_t i = 0; i < nr; i++)
		if (!c[i].cover && c[i].index < 0)
			unnumbered++;
	if (unnumbered && unnumbered != npatch)
		return error_code(WW_EINPUT,
				  "patches with and without n/m numbers in one series");
	for (size_t i = 0; i < nr; i++)
		if (!c[i].cover && c[i].index < 0)
			c[i].index = ++seq;
	qsort(c, nr, sizeof(*c), cmp_candidate);
	if (unnumbered)
		return 0;

	for (size_t i = 0; i < nr; i++) {
		if (total < 0)
			total = c[i].tags.total;
		else if (c[i].tags.total != total && !grouped)
			return error_code(WW_EINPUT,
					  "patches disagree on the series length (%d/%d and %d/%d)",
					  c[0].index, total, c[i].index,
					  c[i].tags.total);
		if (i && c[i].index == c[i - 1].index)
			return error_code(WW_EINPUT, "duplicate patch %d/%d",
					  c[i].index, c[i].tags.total);
		if (c[i].index > c[i].tags.total && !grouped)
			return error_code(WW_EINPUT,
					  "patch %d/%d is beyond the series length",
					  c[i].index, c[i].tags.total);
	}
	/* one patch alone ([PATCH 2/5] saved by itself) may be checked; so
	 * may what is there of a series grouped from its thread */
	if (npatch + have_cover <= 1 || grouped)
		return 0;
	for (int want = 1, i = have_cover; want <= total; want++) {
		if ((size_t)i < nr && c[i].index == want) {
			i++;
			continue;
		}
		return error_code(WW_EINPUT, "series incomplete: missing patch %d/%d",
				  want, total);
	}
	return 0;
}

static void add_patch(struct series *out, const struct candidate *k)
{
	const struct mail *m = k->mail;
	struct series_patch *p;
	char *author = NULL, *date = NULL;

	in_body_author(&author, &date, m->body, m->body_len);
	ALLOC_GROW(out->patches, out->nr + 1, out->alloc);
	p = &out->patches[out->nr++];
	memset(p, 0, sizeof(*p));
	p->index = k->index;
	p->total = k->tags.total > 0 ? k->tags.total : 0;
	p->subject = xstrdup(m->subject);
	p->title = xstrdup(m->subject + k->tags.title_off);
	p->message_id = xstrdup(m->message_id);
	p->author = author ? author : xstrdup(m->from);
	p->date = date ? date : xstrdup(m->date);
	p->diff = k->diff ? k->diff : m->body + m->body_len;
	p->diff_len = k->diff_len;
	p->mail = m;
}

int series_from_mails(struct series *out, const struct mail_list *mails)
{
	return series_from_mails_flags(out, mails, 0);
}

int series_from_mails_flags(struct series *out, const struct mail_list *mails,
			    unsigned int flags)
{
	struct candidate *c = xcalloc(mails->nr ? mails->nr : 1, sizeof(*c));
	size_t nr, kept = 0, npatch = 0;
	const struct candidate *cover = NULL;
	int version, ret;

	nr = collect(c, mails, true, flags);
	/* No [PATCH] tag anywhere: a patch mailed with a plain subject
	 * (format-patch -k) still counts if it holds a diff. */
	if (!nr)
		nr = collect(c, mails, false, flags);
	version = pick_version(out, c, nr);
	for (size_t i = 0; i < nr; i++) {
		/* Grouped: one series, whichever members spell the version. */
		if (c[i].tags.version != version && !(flags & SERIES_GROUPED))
			continue;
		c[kept++] = c[i];
		npatch += !c[kept - 1].cover;
	}
	if (!npatch) {
		ret = error_code(WW_ENOTFOUND, "no patches found");
		goto out_free;
	}
	ret = check_numbers(c, kept, npatch, kept > npatch, flags);
	if (ret < 0)
		goto out_free;

	out->version = version;
	for (size_t i = 0; i < kept; i++) {
		out->rfc |= c[i].tags.rfc;
		if (c[i].cover) {
			cover = &c[i];
			continue;
		}
		add_patch(out, &c[i]);
	}
	out->cover = cover ? cover->mail : NULL;
	out->subject = xstrdup(cover ? cover->mail->subject : out->patches[0].subject);
	out->message_id = xstrdup(cover ? cover->mail->message_id :
				  out->patches[0].message_id);
	if (cover)
		out->base_commit = find_base_commit(cover->mail->body,
						    cover->mail->body_len);
	/* in a patch, it is before the diff or after it, never inside */
	for (size_t i = 0; !out->base_commit && i < out->nr; i++) {
		const struct series_patch *p = &out->patches[i];
		const char *body = p->mail->body, *after = p->diff + p->diff_len;

		out->base_commit = find_base_commit(body, p->diff - body);
		if (!out->base_commit)
			out->base_commit = find_base_commit(after, body + p->mail->body_len - after);
	}
	ret = 0;
out_free:
	if (ret < 0) {
		free(out->versions);
		out->versions = NULL;
		out->versions_nr = 0;
	}
	free(c);
	return ret;
}

void series_from_diff(struct series *out, const char *diff, size_t len,
		      const char *name)
{
	struct series_patch *p;

	ALLOC_GROW(out->patches, out->nr + 1, out->alloc);
	p = &out->patches[out->nr++];
	memset(p, 0, sizeof(*p));
	p->subject = xstrdup(name);
	p->title = xstrdup(name);
	p->message_id = xstrdup("");
	p->author = xstrdup("");
	p->date = xstrdup("");
	p->diff = diff;
	p->diff_len = len;
	if (!out->subject)
		out->subject = xstrdup(name);
	if (!out->message_id)
		out->message_id = xstrdup("");
}

/*
 * A mail starts with a From_ line or a header ("Name: value"); anything
 * else that is not a diff header is taken as a diff with prose in front
 * (a quilt patch with its description).
 */
static bool looks_like_mail(const char *buf, size_t len)
{
	size_t i = 0;

	if (diff_looks_like(buf, len))
		return false;
	if (len >= 5 && !memcmp(buf, "From ", 5))
		return true;
	while (i < len && (buf[i] == '-' || is_digit(buf[i]) ||
			   (lower(buf[i]) >= 'a' && lower(buf[i]) <= 'z')))
		i++;
	return i > 0 && i < len && buf[i] == ':';
}

/*
 * Does text that is neither mail nor a diff header hold a diff after all?
 * The line test that finds the diff in a mail body, not a parse: the
 * check that follows parses the patch, once.
 */
static bool holds_diff(const char *buf, size_t len)
{
	const char *diff;
	size_t diff_len;

	return find_diff(buf, len, &diff, &diff_len);
}

/* series_read() of the bytes already in out->raw. */
static int read_raw(struct series *out, const char *name)
{
	const char *buf = out->raw.buf;
	size_t i, len = out->raw.len;
	int ret;

	/* Nothing to check is a mistake (an empty download, a wrong file),
	 * not a clean bill of health. */
	for (i = 0; i < len && (is_ws(buf[i]) || buf[i] == '\n' || buf[i] == '\r' ||
				buf[i] == '\f' || buf[i] == '\v'); i++)
		;
	if (i == len)
		return error_code(WW_EINPUT, "empty input");
	if (!looks_like_mail(buf, len)) {
		/* Prose then a diff (a quilt patch) is fine; prose alone is not. */
		if (!diff_looks_like(buf, len) && !holds_diff(buf, len))
			return error_code(WW_EINPUT, "neither a mail, an mbox nor a diff");
		series_from_diff(out, buf, len, name);
		return 0;
	}
	ret = mbox_parse(&out->mails, buf, len);
	if (ret < 0)
		return ret;
	return series_from_mails(out, &out->mails);
}

int series_read(struct series *out, const char *buf, size_t len, const char *name)
{
	strbuf_reset(&out->raw);
	strbuf_add(&out->raw, buf, len);
	return read_raw(out, name);
}

enum series_source series_source_of(const char *arg)
{
	if (!strcmp(arg, "-"))
		return SERIES_SOURCE_STDIN;
	if (strchr(arg, '@') && !strchr(arg, '/') && access(arg, F_OK) < 0)
		return SERIES_SOURCE_MSGID;
	return SERIES_SOURCE_FILE;
}

/* A whole file (or stdin for "-"), capped like an mbox. */
static int read_source(struct strbuf *out, const char *name)
{
	struct stat st;
	int fd, ret;

	if (!strcmp(name, "-")) {
		ret = strbuf_read_fd(out, 0, MBOX_MAX_BYTES);
		return ret < 0 ? error_prefix(ret, "'-'") : 0;
	}
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot open '%s': %s", name, strerror(errno));
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			return error_code(WW_EINPUT, "'%s': is a directory", name);
		}
		/* One read of the right size instead of doubling. */
		if (S_ISREG(st.st_mode) && (size_t)st.st_size <= MBOX_MAX_BYTES)
			strbuf_grow(out, st.st_size + 1);
	}
	ret = strbuf_read_fd(out, fd, MBOX_MAX_BYTES);
	close(fd);
	return ret < 0 ? error_prefix(ret, "'%s'", name) : 0;
}

int series_load(struct series *out, const char *arg, unsigned flags,
		series_fetch_fn fetch, void *data)
{
	int ret;

	if (fetch && !(flags & SERIES_LOAD_HAVE_BUF) &&
	    series_source_of(arg) == SERIES_SOURCE_MSGID) {
		ret = fetch(&out->mails, arg, data);
		if (ret < 0)
			return ret;	/* the fetcher's message names it */
		ret = series_from_mails(out, &out->mails);
	} else {
		ret = flags & SERIES_LOAD_HAVE_BUF ? 0 : read_source(&out->raw, arg);
		if (ret < 0)
			return ret;
		ret = read_raw(out, arg);
	}
	if (ret == WW_ENOTFOUND && (flags & SERIES_LOAD_EMPTY_OK)) {
		series_release(out);
		error_clear();
		return 0;
	}
	return ret < 0 ? error_prefix(ret, "'%s'", arg) : 0;
}

void series_release(struct series *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->patches[i].subject);
		free(s->patches[i].title);
		free(s->patches[i].message_id);
		free(s->patches[i].author);
		free(s->patches[i].date);
	}
	free(s->patches);
	free(s->subject);
	free(s->message_id);
	free(s->base_commit);
	free(s->versions);
	/* after the patches, which point into them */
	mail_list_clear(&s->mails);
	strbuf_release(&s->raw);
	*s = (struct series)SERIES_INIT;
}

char *series_base_commit(const char *body, size_t len)
{
	return find_base_commit(body, len);
}
