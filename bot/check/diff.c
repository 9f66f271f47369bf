/*
 * Unified diffs into libgit2: see diff.h.
 *
 * One pass over the input, line by line, with a small state machine:
 * prose -> file header (git's, or a "--- "/"+++ " pair) -> hunks.  Each
 * file's header is rewritten into git's dialect and its hunks are copied
 * after it into one reusable buffer (the "segment"), which libgit2 then
 * parses.  Hunks that contain none of the caller's anchors are checked
 * and dropped without being copied onward, which keeps libgit2 (the
 * slowest stage, see docs/check.md) off text that cannot matter.
 */
#include "diff.h"
#include "diff-priv.h"
#include "gitlib.h"

#include <ctype.h>
#include <limits.h>
#include <git2.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ANCHOR_TEDDY 1
#include <tmmintrin.h>
#endif


const char *diff_status_name(enum diff_status s)
{
	static const char *const names[] = {
		[DIFF_MODIFIED] = "modified",
		[DIFF_ADDED] = "added",
		[DIFF_DELETED] = "deleted",
		[DIFF_RENAMED] = "renamed",
		[DIFF_COPIED] = "copied",
	};

	return (size_t)s < ARRAY_SIZE(names) ? names[s] : "unknown";
}

bool diff_looks_like(const char *buf, size_t len)
{
	static const char *const starts[] = { "diff ", "--- ", "Index: " };

	for (size_t i = 0; i < ARRAY_SIZE(starts); i++) {
		size_t n = strlen(starts[i]);

		if (len >= n && !memcmp(buf, starts[i], n))
			return true;
	}
	return false;
}

bool diff_parser_line_is(const struct parser *p, const char *prefix)
{
	size_t n = strlen(prefix);

	return p->line_len >= n && !memcmp(p->line, prefix, n);
}

const char *diff_parser_path(const struct parser *p)
{
	if (p->f.new_path.len)
		return p->f.new_path.buf;
	return p->f.old_path.len ? p->f.old_path.buf : "(unnamed file)";
}

/*
 * A damaged hunk (1-based) or, for hunk 0, file header: the error
 * "'FILE' hunk N<tail>" or "'FILE'<tail>", where opts->damaged may take
 * it and the parse go on (see run()).
 */
int diff_parser_damage(struct parser *p, int hunk, const char *fmt, ...)
{
	struct strbuf tail = STRBUF_INIT;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	strbuf_vaddf(&tail, fmt, ap);
	va_end(ap);
	if (hunk)
		ret = error_code(WW_EINPUT, "'%s' hunk %d%s", diff_parser_path(p), hunk, tail.buf);
	else
		ret = error_code(WW_EINPUT, "'%s'%s", diff_parser_path(p), tail.buf);
	p->damaged_hunk = hunk;
	strbuf_release(&tail);
	return ret;
}

/* Advance to the next line; false at the end of the input. */
static bool next_line(struct parser *p)
{
	const char *s, *nl;
	size_t n;

	if (p->pos >= p->len)
		return false;
	s = p->buf + p->pos;
	nl = memchr(s, '\n', p->len - p->pos);
	n = nl ? (size_t)(nl - s) : p->len - p->pos;
	p->pos += n + (nl ? 1 : 0);
	if (p->crlf && n && s[n - 1] == '\r')
		n--;
	p->line = s;
	p->line_len = n;
	return true;
}

/* The line after the current one, without consuming it. */
static bool peek_line(const struct parser *p, const char **out, size_t *len)
{
	const char *s, *nl;

	if (p->pos >= p->len)
		return false;
	s = p->buf + p->pos;
	nl = memchr(s, '\n', p->len - p->pos);
	*out = s;
	*len = nl ? (size_t)(nl - s) : p->len - p->pos;
	return true;
}

void diff_parser_file_reset(struct cur_file *f)
{
	f->git = f->noprefix = f->binary = f->want = f->have_index = false;
	memset(f->header_seen, 0, sizeof(f->header_seen));
	f->status = DIFF_MODIFIED;
	strbuf_reset(&f->old_path);
	strbuf_reset(&f->new_path);
	f->hunks_total = 0;
	f->sel_nr = 0;
	f->header_damaged = false;
	f->ranges_nr = 0;
	strbuf_reset(&f->shape);
}

bool diff_parser_want_path(const struct parser *p, const char *path)
{
	if (!p->opts || !p->opts->want_file)
		return true;
	return p->opts->want_file(path, p->opts->data);
}

/* A line of a file that libgit2 cannot take: too long, or with a NUL. */
static int bad_line(struct parser *p, const char *what)
{
	if (p->state == S_HUNK || p->state == S_AFTER_HUNK)
		return diff_parser_damage(p, p->f.hunks_total, ", line %zu: %s",
			      p->hunk_line + 1, what);
	return diff_parser_damage(p, 0, ": header line %s", what);
}

static int check_line(struct parser *p)
{
	char what[64];

	if (p->line_len > DIFF_MAX_LINE) {
		snprintf(what, sizeof(what), "longer than %u bytes", DIFF_MAX_LINE);
		return bad_line(p, what);
	}
	/* libgit2 copies the diff as a C string: a NUL would cut it short. */
	if (memchr(p->line, '\0', p->line_len))
		return bad_line(p, "has a NUL byte (binary data in a text diff)");
	return 0;
}

/* Fill the file's hunks and lines from libgit2's parse of `seg`. */
static int fill_from_patch(struct parser *p, struct diff_file *df,
			   git_patch *patch)
{
	size_t nh = git_patch_num_hunks(patch), total = 0;

	if (nh != p->f.sel_nr)
		return error_code(WW_EINPUT, "'%s': libgit2 found %zu hunks, expected %zu",
				  diff_parser_path(p), nh, p->f.sel_nr);
	for (size_t h = 0; h < nh; h++) {
		const git_diff_hunk *gh;
		size_t nl;

		if (git_patch_get_hunk(&gh, &nl, patch, h) < 0)
			return error_code(WW_EINPUT, "'%s': %s", diff_parser_path(p),
					  gitlib_error());
		total += nl;
	}
	ALLOC_GROW(p->hunks, nh, p->hunks_alloc);
	ALLOC_GROW(p->lines, total, p->lines_alloc);

	total = 0;
	for (size_t h = 0; h < nh; h++) {
		const git_diff_hunk *gh;
		struct diff_hunk *dh = &p->hunks[h];
		size_t nl, hl;
		const char *ctx, *end;

		git_patch_get_hunk(&gh, &nl, patch, h);
		dh->index = p->f.sel[h];
		dh->old_start = gh->old_start;
		dh->old_lines = gh->old_lines;
		dh->new_start = gh->new_start;
		dh->new_lines = gh->new_lines;
		dh->header = gh->header;
		hl = strnlen(gh->header, gh->header_len);
		while (hl && (gh->header[hl - 1] == '\n' || gh->header[hl - 1] == '\r'))
			hl--;
		dh->header_len = hl;
		/* The function context follows the second "@@". */
		ctx = hl > 2 ? memmem(gh->header + 2, hl - 2, "@@", 2) : NULL;
		end = gh->header + hl;
		ctx = ctx ? ctx + 2 : end;
		while (ctx < end && (*ctx == ' ' || *ctx == '\t'))
			ctx++;
		while (end > ctx && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		dh->context = ctx;
		dh->context_len = end - ctx;
		dh->lines = p->lines + total;
		dh->nr = 0;
		for (size_t l = 0; l < nl; l++) {
			const git_diff_line *gl;
			struct diff_line *dl;
			size_t n;

			if (git_patch_get_line_in_hunk(&gl, patch, h, l) < 0)
				return error_code(WW_EINPUT, "'%s': %s", diff_parser_path(p),
						  gitlib_error());
			if (gl->origin != GIT_DIFF_LINE_CONTEXT &&
			    gl->origin != GIT_DIFF_LINE_ADDITION &&
			    gl->origin != GIT_DIFF_LINE_DELETION) {
				/* "\ No newline at end of file" */
				if (dh->nr)
					dh->lines[dh->nr - 1].no_eol = true;
				continue;
			}
			dl = &dh->lines[dh->nr++];
			dl->origin = (char)gl->origin;
			dl->no_eol = false;
			dl->old_lineno = gl->old_lineno;
			dl->new_lineno = gl->new_lineno;
			n = gl->content_len;
			if (n && gl->content[n - 1] == '\n')
				n--;
			dl->content = gl->content;
			dl->len = n;
		}
		total += dh->nr;
	}
	df->hunks = p->hunks;
	df->nr = nh;
	return 0;
}

static enum diff_status status_from_git(git_delta_t s)
{
	switch (s) {
	case GIT_DELTA_ADDED: return DIFF_ADDED;
	case GIT_DELTA_DELETED: return DIFF_DELETED;
	case GIT_DELTA_RENAMED: return DIFF_RENAMED;
	case GIT_DELTA_COPIED: return DIFF_COPIED;
	default: return DIFF_MODIFIED;
	}
}

/* Hand the file's selected hunks to libgit2 and then to the callback. */
static int deliver_parsed(struct parser *p, struct diff_file *df)
{
	git_diff *diff = NULL;
	git_patch *patch = NULL;
	const git_diff_delta *delta;
	int ret;

	/* Only now: a diff without anchors never needs libgit2 at all. */
	gitlib_init();
	if (git_diff_from_buffer(&diff, p->seg.buf, p->seg.len) < 0) {
		ret = error_code(WW_EINPUT, "'%s': %s", diff_parser_path(p), gitlib_error());
		goto out;
	}
	if (git_diff_num_deltas(diff) != 1 ||
	    git_patch_from_diff(&patch, diff, 0) < 0 || !patch) {
		ret = error_code(WW_EINPUT, "'%s': libgit2 cannot parse the file's diff",
				 diff_parser_path(p));
		goto out;
	}
	delta = git_diff_get_delta(diff, 0);
	df->old_path = delta->old_file.path;
	df->new_path = delta->new_file.path;
	/* libgit2 leaves one side NULL for an added or deleted file whose
	 * name starts with a blank ("+++ b/ f.c"); diff.h promises both. */
	if (!df->old_path)
		df->old_path = df->new_path;
	if (!df->new_path)
		df->new_path = df->old_path;
	if (!df->old_path) {
		ret = error_code(WW_EINPUT, "'%s': the diff names no file", diff_parser_path(p));
		goto out;
	}
	df->status = status_from_git(delta->status);
	ret = fill_from_patch(p, df, patch);
	if (ret < 0)
		goto out;
	ret = p->fn(df, p->data);
out:
	git_patch_free(patch);
	git_diff_free(diff);
	return ret;
}

/* The current file is complete: parse and deliver it. */
int diff_parser_finish_file(struct parser *p)
{
	struct diff_file df = { 0 };
	int ret = 0;

	if (p->state == S_TEXT)
		return 0;
	if (p->state == S_GIT_HEADER || p->state == S_PLAIN_HEADER)
		p->f.want = diff_parser_want_path(p, diff_parser_path(p));	/* a file without hunks */
	p->state = S_TEXT;
	if (!p->f.want && !p->f.binary &&
	    (!p->fn || p->normalised || !p->opts || !p->opts->every_file))
		return 0;
	if (p->normalised) {
		if (p->f.binary)
			return 0;
		strbuf_addbuf(p->normalised, &p->seg);
		return 0;
	}
	df.old_path = p->f.old_path.len ? p->f.old_path.buf : diff_parser_path(p);
	df.new_path = diff_parser_path(p);
	df.status = p->f.status;
	df.binary = p->f.binary;
	df.git = p->f.git;
	df.hunks_total = p->f.hunks_total;
	df.ranges = p->f.ranges;
	df.ranges_nr = p->f.ranges_nr;
	df.shape = p->f.shape.buf;
	df.shape_len = p->f.shape.len;
	df.wanted = p->f.want;
	if (p->f.want && p->f.sel_nr && !p->f.binary)
		ret = deliver_parsed(p, &df);
	else if (p->fn)
		ret = p->fn(&df, p->data);
	return ret;
}

/* Parse "@@ -a[,b] +c[,d] @@"; false if the line is not a hunk header. */
static bool parse_range(const char **s, const char *end, int *start, int *count)
{
	long v = 0;
	const char *c = *s;

	if (c >= end || *c < '0' || *c > '9')
		return false;
	while (c < end && *c >= '0' && *c <= '9') {
		v = v * 10 + (*c++ - '0');
		if (v > INT_MAX / 2)
			return false;
	}
	*start = (int)v;
	*count = 1;
	if (c < end && *c == ',') {
		c++;
		v = 0;
		if (c >= end || *c < '0' || *c > '9')
			return false;
		while (c < end && *c >= '0' && *c <= '9') {
			v = v * 10 + (*c++ - '0');
			if (v > INT_MAX / 2)
				return false;
		}
		*count = (int)v;
	}
	*s = c;
	return true;
}

bool diff_parser_hunk_header(struct parser *p)
{
	const char *s = p->line, *end = p->line + p->line_len;

	if (p->line_len < 4 || memcmp(s, "@@ -", 4))
		return false;
	s += 4;
	if (!parse_range(&s, end, &p->old_start, &p->old_count))
		return false;
	if (end - s < 2 || memcmp(s, " +", 2))
		return false;
	s += 2;
	if (!parse_range(&s, end, &p->new_start, &p->new_count))
		return false;
	return end - s >= 3 && !memcmp(s, " @@", 3);
}

/* Append the current line to the segment, as a hunk or header line. */
void diff_parser_seg_add_line(struct parser *p)
{
	strbuf_add(&p->seg, p->line, p->line_len);
	strbuf_addch(&p->seg, '\n');
}

static void select_hunk(struct parser *p)
{
	ALLOC_GROW(p->f.sel, p->f.sel_nr + 1, p->f.sel_alloc);
	p->f.sel[p->f.sel_nr++] = p->f.hunks_total;
}

/*
 * Where a hunk may be cut: a line that opens a function definition at
 * the top level (git's default funcname rule: it starts with a letter or
 * '_', has a '(', and is not a statement), not continuing a macro.
 */
static bool split_point(const char *line, size_t len, const char *prev, size_t prev_len)
{
	const char *c = line + 1, *end = line + len;

	if (len < 2 || line[0] == '\\' || !(isalpha((unsigned char)*c) || *c == '_'))
		return false;
	while (end > c && isspace((unsigned char)end[-1]))
		end--;
	if (end == c || end[-1] == ';' || !memchr(c, '(', end - c))
		return false;
	while (prev_len > 1 && isspace((unsigned char)prev[prev_len - 1]))
		prev_len--;
	return !(prev_len > 1 && prev[prev_len - 1] == '\\');
}

/*
 * Does the hunk body (its lines after the header) both add and remove
 * lines?  Then only a definition on a context line may start a piece: one
 * on an added line is no definition of the removed lines after it, and
 * the piece's header would name the wrong function for them (a BUG()
 * removed from f() "removed from" the g() added above it, so its move
 * into the rewritten f() went unseen).
 */
static bool hunk_mixed(const char *body, const char *end)
{
	bool plus = false, minus = false;

	for (const char *q = body; q < end && !(plus && minus);) {
		const char *nl = memchr(q, '\n', end - q);

		plus |= *q == '+';
		minus |= *q == '-';
		q = nl ? nl + 1 : end;
	}
	return plus && minus;
}

/* Append one piece of a split hunk to the segment, with its own header. */
static void emit_piece(struct parser *p, const char *body, size_t len,
		       int old_pos, int old_n, int new_pos, int new_n,
		       const char *ctx, size_t ctx_len)
{
	strbuf_addf(&p->seg, "@@ -%d,%d +%d,%d @@",
		    old_n ? old_pos : old_pos - 1, old_n,
		    new_n ? new_pos : new_pos - 1, new_n);
	if (ctx_len) {
		strbuf_addch(&p->seg, ' ');
		strbuf_add(&p->seg, ctx, ctx_len > HUNK_CONTEXT_MAX ?
			   HUNK_CONTEXT_MAX : ctx_len);
	}
	strbuf_addch(&p->seg, '\n');
	strbuf_add(&p->seg, body, len);
	select_hunk(p);
}

/*
 * One pass finds all anchors: a bit per pair of first bytes and a bit per
 * hash of the first three bytes, checked at every position, then a
 * memcmp() on a hit.  (memmem() once per anchor was the slowest part of
 * the parse.)  Anchors shorter than three bytes fall back to memmem().
 */
#define ANCHOR_HASH_BITS 16

struct teddy;

struct diff_anchors {
	const char **v;
	size_t *len;
	size_t nr;
	bool slow;
	struct teddy *teddy;	/* the SIMD tables, when they apply */
	uint64_t pairs[65536 / 64];
	uint64_t hashes[(1u << ANCHOR_HASH_BITS) / 64];
};

static inline uint32_t anchor_hash(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t k = u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16;

	return (k * 2654435761u) >> (32 - ANCHOR_HASH_BITS);
}

#ifdef ANCHOR_TEDDY
static struct teddy *teddy_new(const struct diff_anchors *a);
#endif

static _Thread_local struct diff_counts counts;

void diff_counts(struct diff_counts *out)
{
	*out = counts;
}

struct diff_anchors *diff_anchors_new(const char *const *v)
{
	struct diff_anchors *a = xcalloc(1, sizeof(*a));

	counts.anchor_sets++;
	while (v[a->nr])
		a->nr++;
	a->v = xcalloc(a->nr + 1, sizeof(*a->v));
	a->len = xcalloc(a->nr + 1, sizeof(*a->len));
	for (size_t i = 0; i < a->nr; i++) {
		uint32_t h;

		a->v[i] = xstrdup(v[i]);
		a->len[i] = strlen(v[i]);
		if (a->len[i] < 3) {
			a->slow = true;
			continue;
		}
		h = (unsigned char)v[i][0] | (uint32_t)(unsigned char)v[i][1] << 8;
		a->pairs[h >> 6] |= (uint64_t)1 << (h & 63);
		h = anchor_hash(v[i]);
		a->hashes[h >> 6] |= (uint64_t)1 << (h & 63);
	}
#ifdef ANCHOR_TEDDY
	a->teddy = teddy_new(a);
#endif
	return a;
}

void diff_anchors_free(struct diff_anchors *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr; i++)
		free((char *)a->v[i]);
	free(a->v);
	free(a->len);
	free(a->teddy);
	free(a);
}

static bool anchor_at(const struct diff_anchors *a, const char *s, size_t n)
{
	for (size_t k = 0; k < a->nr; k++)
		if (a->len[k] <= n && !memcmp(s, a->v[k], a->len[k]))
			return true;
	return false;
}

#ifdef ANCHOR_TEDDY
/*
 * With up to eight anchors (the rules give eight: BUG, WARN, panic and five
 * long names), sixteen positions at a time, after Hyperscan's "Teddy":
 * each anchor owns one bit, and for each of its first three bytes two
 * 16-entry tables (low nibble, high nibble) hold the bits of the anchors
 * that have that byte there.  Two PSHUFB lookups per byte position and
 * a few ANDs leave, per position, the anchors whose first three bytes are
 * exactly there; memcmp() confirms the rest.  About 1.5 instructions a
 * byte, whatever the number of anchors up to eight, where comparing each
 * anchor in turn cost 8.  Needs SSSE3 (checked at run time).
 */
#define TEDDY_MAX 8

struct teddy {
	uint8_t lo[3][16], hi[3][16];
};

static struct teddy *teddy_new(const struct diff_anchors *a)
{
	struct teddy *t;

	if (a->slow || !a->nr || a->nr > TEDDY_MAX ||
	    !__builtin_cpu_supports("ssse3"))
		return NULL;
	t = xcalloc(1, sizeof(*t));
	for (size_t k = 0; k < a->nr; k++)
		for (int j = 0; j < 3; j++) {
			unsigned char c = (unsigned char)a->v[k][j];

			t->lo[j][c & 15] |= 1u << k;
			t->hi[j][c >> 4] |= 1u << k;
		}
	return t;
}

__attribute__((target("ssse3")))
static inline __m128i teddy_lookup(const struct teddy *t, int j, __m128i v)
{
	const __m128i nib = _mm_set1_epi8(0x0f);
	__m128i lo = _mm_and_si128(v, nib);
	__m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), nib);

	return _mm_and_si128(
		_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)t->lo[j]), lo),
		_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)t->hi[j]), hi));
}

/* Returns how far it got; the caller finishes the tail byte by byte. */
__attribute__((target("ssse3")))
static size_t find_teddy(const struct diff_anchors *a, const struct teddy *t,
			 const char *s, size_t n, bool *found)
{
	size_t i = 0;

	for (; i + 18 <= n; i += 16) {
		__m128i m = _mm_and_si128(
			_mm_and_si128(
				teddy_lookup(t, 0, _mm_loadu_si128((const __m128i *)(s + i))),
				teddy_lookup(t, 1, _mm_loadu_si128((const __m128i *)(s + i + 1)))),
			teddy_lookup(t, 2, _mm_loadu_si128((const __m128i *)(s + i + 2))));
		unsigned int mask = ~(unsigned int)_mm_movemask_epi8(
			_mm_cmpeq_epi8(m, _mm_setzero_si128())) & 0xffff;

		while (mask) {
			unsigned int bit = (unsigned int)__builtin_ctz(mask);

			if (anchor_at(a, s + i + bit, n - i - bit)) {
				*found = true;
				return i;
			}
			mask &= mask - 1;
		}
	}
	return i;
}
#endif

bool diff_anchors_find(const struct diff_anchors *a, const char *s, size_t n)
{
	size_t start = 0;

	if (a->slow) {
		for (size_t i = 0; i < a->nr; i++)
			if (memmem(s, n, a->v[i], a->len[i]))
				return true;
		return false;
	}
#ifdef ANCHOR_TEDDY
	if (a->teddy) {
		bool found = false;

		start = find_teddy(a, a->teddy, s, n, &found);
		if (found)
			return true;
	}
#endif
	for (size_t i = start; i + 3 <= n; i++) {
		const unsigned char *u = (const unsigned char *)s + i;
		uint32_t pair = u[0] | (uint32_t)u[1] << 8, h;

		if (!(a->pairs[pair >> 6] >> (pair & 63) & 1))
			continue;
		h = anchor_hash(s + i);
		if (!(a->hashes[h >> 6] >> (h & 63) & 1))
			continue;
		if (anchor_at(a, s + i, n - i))
			return true;
	}
	return false;
}

static bool has_anchor(const struct parser *p, const char *s, size_t n)
{
	return diff_anchors_find(p->anchors, s, n);
}

/*
 * A long hunk (a new file is one) is cut at function definitions and
 * only the pieces holding an anchor are kept, each with a header of its
 * own whose line numbers and function context are what git would write
 * for it.  A piece starts at a definition, so nothing a scanner needs
 * (the enclosing function, an open #define) lies before it.
 */
static void split_hunk(struct parser *p)
{
	struct strbuf *t = &p->tmp;
	const char *s, *end, *hdr_end, *prev = NULL, *run = NULL;
	const char *ctx, *run_ctx = NULL, *piece_ctx;
	size_t prev_len = 0, ctx_len, run_ctx_len = 0, piece_ctx_len;
	int old_pos, new_pos, run_old = 0, run_new = 0, run_on = 0, run_nn = 0;
	bool mixed;

	strbuf_reset(t);
	strbuf_add(t, p->seg.buf + p->hunk_start, p->seg.len - p->hunk_start);
	strbuf_setlen(&p->seg, p->hunk_start);
	s = t->buf;
	end = t->buf + t->len;
	hdr_end = memchr(s, '\n', end - s);
	ctx = memmem(s + 2, hdr_end - s - 2, "@@", 2) + 2;
	while (ctx < hdr_end && *ctx == ' ')
		ctx++;
	ctx_len = hdr_end - ctx;
	old_pos = p->old_count ? p->old_start : p->old_start + 1;
	new_pos = p->new_count ? p->new_start : p->new_start + 1;
	piece_ctx = ctx;
	piece_ctx_len = ctx_len;
	mixed = hunk_mixed(hdr_end + 1, end);

	for (const char *piece = hdr_end + 1; piece < end;) {
		const char *q = piece;
		const char *first_end = memchr(piece, '\n', end - piece);
		size_t first_len = (first_end ? first_end : end) - piece;
		bool at_def = piece != hdr_end + 1 ||
			      ((!mixed || *piece == ' ') &&
			       split_point(piece, first_len, NULL, 0));
		int po = old_pos, pn = new_pos, on = 0, nn = 0;

		/* One piece: from `piece` up to the next split point. */
		while (q < end) {
			const char *nl = memchr(q, '\n', end - q);
			size_t n = (nl ? nl : end) - q;

			if (q != piece && (!mixed || *q == ' ') &&
			    split_point(q, n, prev, prev_len))
				break;
			if (*q != '\\') {
				on += *q != '+';
				nn += *q != '-';
			}
			prev = q;
			prev_len = n;
			q = nl ? nl + 1 : end;
		}
		if (has_anchor(p, piece, q - piece)) {
			if (!run) {
				run = piece;
				run_old = po;
				run_new = pn;
				run_on = run_nn = 0;
				run_ctx = piece_ctx;
				run_ctx_len = piece_ctx_len;
			}
			run_on += on;
			run_nn += nn;
		} else if (run) {
			emit_piece(p, run, piece - run, run_old, run_on, run_new,
				   run_nn, run_ctx, run_ctx_len);
			run = NULL;
		}
		old_pos += on;
		new_pos += nn;
		/* git's context for the next piece: this piece's definition. */
		if (at_def) {
			piece_ctx = piece + 1;
			piece_ctx_len = first_len - 1;
		}
		piece = q;
	}
	if (run)
		emit_piece(p, run, end - run, run_old, run_on, run_new, run_nn,
			   run_ctx, run_ctx_len);
}

/* The hunk (and any "\ No newline" after it) ended: keep or drop it. */
static void close_hunk(struct parser *p)
{
	if (!p->copying)
		return;
	p->copying = false;
	if (!p->anchors) {
		select_hunk(p);
		return;
	}
	if (!has_anchor(p, p->seg.buf + p->hunk_start, p->seg.len - p->hunk_start)) {
		strbuf_setlen(&p->seg, p->hunk_start);
		return;
	}
	if (p->hunk_line < SPLIT_MIN_LINES) {
		select_hunk(p);
		return;
	}
	split_hunk(p);
}

/* A header too long for libgit2: rewrite it with the context cut. */
static void add_hunk_header(struct parser *p)
{
	const char *ctx, *end = p->line + p->line_len;

	if (p->line_len < 100) {
		diff_parser_seg_add_line(p);
		return;
	}
	ctx = memmem(p->line + 2, p->line_len - 2, "@@", 2) + 2;
	while (ctx < end && *ctx == ' ')
		ctx++;
	strbuf_addf(&p->seg, "@@ -%d,%d +%d,%d @@ %.*s\n",
		    p->old_start, p->old_count, p->new_start, p->new_count,
		    (int)(end - ctx > HUNK_CONTEXT_MAX ? HUNK_CONTEXT_MAX : end - ctx), ctx);
}

int diff_parser_begin_hunk(struct parser *p)
{
	if (!diff_parser_hunk_header(p)) {
		p->f.hunks_total++;	/* the next one is the hunk after it */
		p->copying = false;
		return diff_parser_damage(p, p->f.hunks_total, ": malformed hunk header '%.*s'",
			      (int)(p->line_len > 80 ? 80 : p->line_len), p->line);
	}
	p->f.hunks_total++;
	ALLOC_GROW(p->f.ranges, p->f.ranges_nr + 1, p->f.ranges_alloc);
	p->f.ranges[p->f.ranges_nr++] = (struct diff_range){
		p->old_start, p->old_count, p->new_start, p->new_count };
	p->hunk_tab = false;
	p->hunk_space_indent = 0;
	p->old_left = p->old_count;
	p->new_left = p->new_count;
	p->hunk_line = 0;
	p->copying = p->f.want && !p->f.binary;
	p->hunk_start = p->seg.len;
	if (p->copying)
		add_hunk_header(p);
	p->state = p->old_left || p->new_left ? S_HUNK : S_AFTER_HUNK;
	return 0;
}

/*
 * A C hunk without a single tab whose pre-image (lines the author did not
 * write) is indented with spaces: a mail client turned the tabs into
 * spaces.  Its lines are still diff lines and its findings stand, but it
 * would not apply: reported as damage, and kept.
 */
const char diff_reason_tabs[] =
	"has its tabs turned to spaces: it would not apply (its findings are kept)";

static void spaces_for_tabs(struct parser *p)
{
	const char *path = diff_parser_path(p);
	struct strbuf msg = STRBUF_INIT;

	if (p->hunk_tab || p->hunk_space_indent < 2 || !p->opts ||
	    !p->opts->damaged || !(ends_with(path, ".c") || ends_with(path, ".h")))
		return;
	strbuf_addf(&msg, "'%s' hunk %d %s", path, p->f.hunks_total, diff_reason_tabs);
	p->opts->damaged(path, p->f.hunks_total, diff_reason_tabs, msg.buf,
			 p->opts->damaged_data);
	strbuf_release(&msg);
}

static int hunk_line(struct parser *p)
{
	char c = p->line_len ? p->line[0] : '\n';

	p->hunk_line++;
	switch (c) {
	case ' ':
	case '\n':		/* an empty context line, its space eaten */
		if (!p->old_left || !p->new_left)
			goto lie;
		p->old_left--;
		p->new_left--;
		break;
	case '-':
		if (!p->old_left)
			goto lie;
		p->old_left--;
		break;
	case '+':
		if (!p->new_left)
			goto lie;
		p->new_left--;
		break;
	case '\\':
		p->hunk_line--;
		goto counted;
	default:
		/* Not a diff line: it may start the next file (reparsed). */
		p->reparse = true;
		return diff_parser_damage(p, p->f.hunks_total,
			      " is truncated at its line %zu: "
			      "%ld old and %ld new lines missing",
			      p->hunk_line, p->old_left, p->new_left);
	}
	strbuf_addch(&p->f.shape, c == '\n' ? ' ' : c);
counted:
	if (p->copying) {
		if (c == '\n')
			strbuf_addstr(&p->seg, " \n");
		else
			diff_parser_seg_add_line(p);
	}
	if (p->line_len && memchr(p->line, '\t', p->line_len))
		p->hunk_tab = true;
	else if ((c == ' ' || c == '-') && p->line_len > 8 &&
		 !memcmp(p->line + 1, "        ", 8))
		p->hunk_space_indent++;
	if (!p->old_left && !p->new_left) {
		p->state = S_AFTER_HUNK;
		spaces_for_tabs(p);
	}
	return 0;
lie:
	return diff_parser_damage(p, p->f.hunks_total,
		      ", line %zu: more %s lines than its header "
		      "'@@ -%d,%d +%d,%d @@' says", p->hunk_line,
		      c == '+' ? "added" : c == '-' ? "removed" : "context",
		      p->old_start, p->old_count, p->new_start, p->new_count);
}

/* A line outside any file: a file start, noise, or prose. */
static int text_line(struct parser *p)
{
	const char *next;
	size_t next_len;

	if (diff_parser_line_is(p, "diff --git ")) {
		diff_header_git_start(p);
		return 0;
	}
	if (diff_parser_line_is(p, "--- ") && peek_line(p, &next, &next_len) &&
	    next_len >= 4 && !memcmp(next, "+++ ", 4)) {
		diff_header_plain_start(p, next, next_len);
		next_line(p);
		return 0;
	}
	if (diff_parser_line_is(p, "Binary files "))
		return diff_header_plain_binary(p);
	/* "Index:", "diff -ruN a b", "Only in", "====", prose: nothing. */
	return 0;
}

/*
 * A line after a hunk's counts ran out.  "+"/"-" lines here mean the
 * counts lie: libgit2 would silently drop them, and with them findings.
 * The mail signature ("-- ") and "---" rules are not diff lines.
 */
static bool stray_diff_line(const struct parser *p)
{
	size_t i;

	if (!p->line_len || (p->line[0] != '+' && p->line[0] != '-'))
		return false;
	if (diff_parser_line_is(p, "--- ") || diff_parser_line_is(p, "-- ") || diff_parser_line_is(p, "+++ "))
		return false;
	for (i = 0; i < p->line_len && p->line[i] == p->line[0]; i++)
		;
	return i < p->line_len;
}

static int after_hunk_line(struct parser *p)
{
	if (diff_parser_line_is(p, "\\")) {
		if (p->copying)
			diff_parser_seg_add_line(p);
		return 0;
	}
	if (diff_parser_line_is(p, "@@ -")) {
		close_hunk(p);
		return diff_parser_begin_hunk(p);
	}
	/* Before close_hunk(): a damaged hunk is dropped, not kept. */
	if (stray_diff_line(p))
		return diff_parser_damage(p, p->f.hunks_total,
			      ": lines past the end its header "
			      "'@@ -%d,%d +%d,%d @@' gives",
			      p->old_start, p->old_count, p->new_start, p->new_count);
	close_hunk(p);
	return 1;
}

/*
 * Skipping what is left of a damaged hunk (or a file whose header is
 * damaged) up to the next hunk header or file.  Its "+"/"-" lines are
 * the hunk's, not a new file, unless a "+++ " line follows a "--- ".
 */
static int skip_line(struct parser *p)
{
	const char *next;
	size_t next_len;

	if (diff_parser_line_is(p, "@@ -") && !p->f.header_damaged)
		return diff_parser_begin_hunk(p);
	if (diff_parser_line_is(p, "diff --git "))
		return 1;
	/* A damaged git header's own "---"/"+++" pair is still its. */
	if (p->f.header_damaged && p->f.git)
		return 0;
	if (diff_parser_line_is(p, "--- ") && peek_line(p, &next, &next_len) &&
	    next_len >= 4 && !memcmp(next, "+++ ", 4))
		return 1;
	return 0;
}

/* Report the damage that `err` (from parse_line()) is, and skip past it. */
static int recover(struct parser *p, int err)
{
	const char *msg = error_last();
	const char *tail;
	struct strbuf prefix = STRBUF_INIT;

	if (err != WW_EINPUT || p->damaged_hunk < 0 || !p->opts ||
	    !p->opts->damaged)
		return err;
	/* The reason is the message after "'FILE' hunk N" and its ": ". */
	strbuf_addf(&prefix, "'%s'", diff_parser_path(p));
	if (p->damaged_hunk)
		strbuf_addf(&prefix, " hunk %d", p->damaged_hunk);
	tail = starts_with(msg, prefix.buf) ? msg + prefix.len : msg;
	if (*tail == ':' || *tail == ',')
		tail++;
	tail += strspn(tail, " ");
	p->opts->damaged(diff_parser_path(p), p->damaged_hunk, tail, msg,
			 p->opts->damaged_data);
	strbuf_release(&prefix);
	error_clear();
	if (!p->damaged_hunk) {
		p->f.header_damaged = true;
		p->f.want = false;	/* nothing of it is delivered */
	}
	if (p->copying)
		strbuf_setlen(&p->seg, p->hunk_start);
	p->copying = false;
	p->damaged_hunk = -1;
	p->state = S_SKIP;
	return 0;
}

static int parse_line(struct parser *p)
{
	int ret;

	if (p->state != S_TEXT && p->state != S_BINARY && p->state != S_SKIP) {
		ret = check_line(p);
		if (ret < 0)
			return ret;
	}
	switch (p->state) {
	case S_TEXT:
		return text_line(p);
	case S_GIT_HEADER:
		ret = diff_header_git_line(p);
		break;
	case S_PLAIN_HEADER:
		ret = diff_header_plain_first_hunk(p);
		break;
	case S_HUNK:
		return hunk_line(p);
	case S_AFTER_HUNK:
		ret = after_hunk_line(p);
		break;
	case S_BINARY:
		ret = diff_parser_line_is(p, "diff --git ") || diff_parser_line_is(p, "--- ") ||
		      diff_parser_line_is(p, "-- ");
		break;
	case S_SKIP:
		ret = skip_line(p);
		break;
	default:
		BUG("diff parser in state %d", p->state);
	}
	if (ret <= 0)
		return ret;
	/* Not part of the file: it ended; the line starts whatever is next. */
	ret = diff_parser_finish_file(p);
	if (ret < 0)
		return ret;
	return text_line(p);
}

static void parser_init(struct parser *p, const char *buf, size_t len,
			const struct diff_opts *opts)
{
	memset(p, 0, sizeof(*p));
	p->damaged_hunk = -1;
	p->buf = buf;
	p->len = len;
	p->opts = opts;
	strbuf_init(&p->f.old_path, 0);
	strbuf_init(&p->f.new_path, 0);
	strbuf_init(&p->f.shape, 0);
	strbuf_init(&p->seg, 0);
	strbuf_init(&p->tmp, 0);
	if (opts && opts->anchor_set)
		p->anchors = opts->anchor_set;
	else if (opts && opts->anchors)
		p->anchors = p->own_anchors = diff_anchors_new(opts->anchors);
}

static void parser_release(struct parser *p)
{
	strbuf_release(&p->f.old_path);
	strbuf_release(&p->f.new_path);
	free(p->f.sel);
	free(p->f.ranges);
	strbuf_release(&p->f.shape);
	strbuf_release(&p->seg);
	strbuf_release(&p->tmp);
	diff_anchors_free(p->own_anchors);
	free(p->hunks);
	free(p->lines);
}

/* Input saved with CRLF line ends throughout: its first diff line says so. */
static bool detect_crlf(const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', end - s);
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if ((n >= 11 && !memcmp(s, "diff --git ", 11)) ||
		    (n >= 4 && !memcmp(s, "--- ", 4)))
			return n && s[n - 1] == '\r';
		if (!nl)
			break;
		s = nl + 1;
	}
	return false;
}

static int run(struct parser *p)
{
	int ret = 0;

	p->crlf = detect_crlf(p->buf, p->len);
	while (next_line(p)) {
		p->reparse = false;
		ret = parse_line(p);
		if (ret < 0)
			ret = recover(p, ret);
		/* A truncated hunk's first foreign line: once more, skipping. */
		if (!ret && p->reparse && p->state == S_SKIP)
			ret = parse_line(p);
		if (ret < 0)
			ret = recover(p, ret);
		if (ret < 0)
			return ret;
	}
	if (p->state == S_HUNK) {
		ret = diff_parser_damage(p, p->f.hunks_total, " is truncated: the diff ends "
			     "with %ld old and %ld new lines missing",
			     p->old_left, p->new_left);
		ret = recover(p, ret);
		if (ret < 0)
			return ret;
	}
	if (p->state == S_AFTER_HUNK)
		close_hunk(p);
	return diff_parser_finish_file(p);
}

int diff_parse(const char *buf, size_t len, const struct diff_opts *opts,
	       diff_file_fn fn, void *data)
{
	struct parser p;
	int ret;

	counts.parses++;
	parser_init(&p, buf, len, opts);
	p.fn = fn;
	p.data = data;
	ret = run(&p);
	parser_release(&p);
	return ret;
}

/* Copy `len` bytes of `s` into the arena at *at, NUL-terminated. */
static const char *arena_put(char **at, const char *s, size_t len)
{
	char *to = *at;

	if (len)
		memcpy(to, s, len);
	to[len] = '\0';
	*at += len + 1;
	return to;
}

/* Every string of `f` lives in one arena, allocated with the struct. */
struct diff_file *diff_file_dup(const struct diff_file *f)
{
	size_t size = strlen(f->old_path) + strlen(f->new_path) + f->shape_len + 3;
	size_t lines = 0;
	struct diff_file *d;
	struct diff_line *dl;
	char *at;

	for (size_t h = 0; h < f->nr; h++) {
		size += f->hunks[h].header_len + 1;
		for (size_t i = 0; i < f->hunks[h].nr; i++)
			size += f->hunks[h].lines[i].len + 1;
		lines += f->hunks[h].nr;
	}
	d = xcalloc(1, sizeof(*d) + size);
	*d = *f;
	at = (char *)(d + 1);
	d->old_path = arena_put(&at, f->old_path, strlen(f->old_path));
	d->new_path = arena_put(&at, f->new_path, strlen(f->new_path));
	d->shape = arena_put(&at, f->shape ? f->shape : "", f->shape_len);
	d->ranges = NULL;	/* not the parser's */
	if (f->ranges_nr) {
		struct diff_range *r = xcalloc(f->ranges_nr, sizeof(*r));

		memcpy(r, f->ranges, f->ranges_nr * sizeof(*r));
		d->ranges = r;
	}
	d->hunks = f->nr ? xcalloc(f->nr, sizeof(*d->hunks)) : NULL;
	dl = lines ? xcalloc(lines, sizeof(*dl)) : NULL;
	for (size_t h = 0; h < f->nr; h++) {
		const struct diff_hunk *fh = &f->hunks[h];
		struct diff_hunk *dh = &d->hunks[h];

		*dh = *fh;
		dh->header = arena_put(&at, fh->header, fh->header_len);
		dh->context = dh->header + (fh->context - fh->header);
		dh->lines = dl;
		for (size_t i = 0; i < fh->nr; i++) {
			dl[i] = fh->lines[i];
			dl[i].content = arena_put(&at, fh->lines[i].content, fh->lines[i].len);
		}
		dl += fh->nr;
	}
	return d;
}

void diff_file_free(struct diff_file *f)
{
	if (!f)
		return;
	free((void *)f->ranges);
	if (f->nr)
		free(f->hunks[0].lines);
	free(f->hunks);
	free(f);
}

int diff_normalise(struct strbuf *out, const char *buf, size_t len)
{
	struct parser p;
	int ret;

	parser_init(&p, buf, len, NULL);
	p.normalised = out;
	ret = run(&p);
	parser_release(&p);
	return ret;
}

int diff_to_git(git_diff **out, const char *buf, size_t len)
{
	struct strbuf norm = STRBUF_INIT;
	int ret = 0;

	gitlib_init();
	*out = NULL;
	if (!git_diff_from_buffer(out, buf, len) && git_diff_num_deltas(*out))
		return 0;
	git_diff_free(*out);
	*out = NULL;
	if ((ret = diff_normalise(&norm, buf, len)) < 0)
		goto out;
	if (git_diff_from_buffer(out, norm.buf, norm.len) < 0) {
		ret = error_code(WW_EINPUT, "%s", gitlib_error());
		goto out;
	}
	if (!git_diff_num_deltas(*out))
		ret = error_code(WW_EINPUT, "no file in the diff");
out:
	if (ret < 0) {
		git_diff_free(*out);
		*out = NULL;
	}
	strbuf_release(&norm);
	return ret;
}
