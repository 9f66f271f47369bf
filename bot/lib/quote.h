/*
 * Patch text on its way out.  Every string that comes from a series (file
 * and function names, subjects, author names, console lines from the
 * guest) passes quote_c_style_n() before it reaches a reply, a report or
 * a status line, so that nothing in a series can start a line of its own
 * or reach a terminal as an escape sequence.
 *
 * The escaping is git's quote_c_style() (the form git uses for quoted
 * paths): \a \b \t \n \v \f \r \" \\ by name, every other control byte
 * as a three-digit octal escape "\033".  Unlike git, valid UTF-8 stays as
 * it is (an author called Jörg stays Jörg); what counts as a control
 * character: C0 bytes, DEL, C1 controls (U+0080..U+009F), the Unicode
 * line and paragraph separators (U+2028, U+2029) and the bidirectional
 * overrides and isolates (U+202A..U+202E, U+2066..U+2069); their bytes
 * come out in octal.  Bytes that are not valid UTF-8 come out in octal
 * too.
 */
#ifndef WW_QUOTE_H
#define WW_QUOTE_H

#include "strbuf.h"

enum quote_flags {
	/* A string that needs escaping is wrapped in double quotes (and
	 * then '"' and '\\' are escaped too), as git quotes a path; one
	 * that needs none is appended as it is.  Without this flag only
	 * the control characters are escaped, never wrapped: for lines of
	 * code, where '"' and '\\' are code. */
	QUOTE_WRAP = 1 << 0,
	/* TAB is kept (kernel code is indented with TABs). */
	QUOTE_KEEP_TAB = 1 << 1,
};

/*
 * Append `len` bytes of `s` to `out`, escaped as above.  The one escaping
 * function: everything below is built on it.
 */
void quote_c_style_n(struct strbuf *out, const char *s, size_t len, unsigned flags);

/* A one-line value (a name, a subject): quote_c_style_n() with QUOTE_WRAP.
 * NULL appends nothing. */
void quote_c_style(struct strbuf *out, const char *s);

/* `pre`, then `s` as quote_c_style() writes it, then `post`: a name in
 * a sentence of ours ("(test NAME)"). */
void quote_between(struct strbuf *out, const char *pre, const char *s, const char *post);

/*
 * The same into `tmp` (reset first), returned for a printf("%s"):
 * borrowed, valid until `tmp` changes.  NULL stays NULL.
 */
const char *quote_str(struct strbuf *tmp, const char *s);

/* Escape what `sb` holds in place (quote_c_style_n() with `flags`). */
void quote_buf(struct strbuf *sb, unsigned flags);

/*
 * Quoted text: every line of `len` bytes of `text` (split at LF) appended
 * as `prefix`, the line escaped with QUOTE_KEEP_TAB, and a LF.  A last
 * line without its LF gets one; empty text appends nothing.  With
 * prefix "> " every line of a mail quote starts with "> ", whatever the
 * text holds.
 */
void quote_lines(struct strbuf *out, const char *prefix, const char *text, size_t len);

/* Does `len` bytes of `s` hold anything quote_c_style_n() escapes (other
 * than '"' and '\\')?  With QUOTE_KEEP_TAB a TAB does not count. */
bool quote_needed(const char *s, size_t len, unsigned flags);

/* Length of the valid UTF-8 sequence at `p` (at most `len` bytes, len >
 * 0): 1 for ASCII, 0 for a byte that does not start a valid sequence
 * (overlong forms, surrogates and code points over U+10FFFF are
 * invalid). */
size_t quote_utf8_len(const unsigned char *p, size_t len);

#endif
