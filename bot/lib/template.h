/*
 * A small template engine for plain-text mail (and anything else that is
 * text): placeholders, sections (conditionals and loops), partials, and
 * a paragraph filler that wraps prose at 72 columns but never touches
 * quoted or indented lines.  The syntax is a subset of mustache:
 *
 *   {{name}}             the value of `name` (looked up in the innermost
 *                        section first, then outwards); absent: nothing
 *   {{.}}                the current value inside a section over a string
 *   {{#name}}..{{/name}} a list: once per item; a non-empty string: once;
 *                        absent or empty: not at all
 *   {{^name}}..{{/name}} only when `name` is absent, empty or an empty list
 *   {{> file}}           another template from the same directory
 *   {{! comment }}       nothing
 *   {{br}}               a hard line break inside a filled paragraph
 *   @index @first @last  inside a list: 1-based position, first/last item
 *
 * A line holding nothing but a section, comment or partial tag (and
 * spaces) disappears entirely, so templates can be laid out readably.
 *
 * Escaping policy (plain text): a value cannot carry control characters.
 * CR, NUL, ESC, DEL and every other C0 byte except TAB and LF are dropped,
 * invalid UTF-8 becomes U+FFFD.  Values are never re-parsed as template
 * syntax.  Header encoding is not the template's job (see mailhdr.h).
 *
 * Filling (width > 0): consecutive prose lines form a paragraph that is
 * re-filled at `width` columns (counted in UTF-8 characters).  Verbatim,
 * never wrapped nor joined: lines starting with '>', '|', a space or a
 * TAB (quoted mail, quoted code, indented blocks), blank lines, and
 * everything after a "-- " signature separator.  Runs of blank lines
 * become one (outside the signature).  "- ", "* " and "1. "
 * start a list item whose continuation lines hang under its text.  A word
 * longer than the width (a URL) gets a line of its own, unbroken.
 */
#ifndef WW_TEMPLATE_H
#define WW_TEMPLATE_H

#include "strbuf.h"

#define TEMPLATE_MAX_BYTES (1u << 20)
#define TEMPLATE_MAX_DEPTH 32		/* nested sections + partials */
#define TEMPLATE_WIDTH 72

/* The values a template sees: names bound to strings or to lists of
 * further tmpl_vars.  Everything is copied in; the tree owns it all. */
struct tmpl_vars;

struct tmpl_vars *tmpl_vars_new(void);
void tmpl_vars_free(struct tmpl_vars *v);

/* Bind `name` to a copy of `value` (NULL unbinds).  Rebinding replaces. */
void tmpl_set(struct tmpl_vars *v, const char *name, const char *value);
void tmpl_setf(struct tmpl_vars *v, const char *name, const char *fmt, ...)
	WW_PRINTF(3, 4);
/* true binds "1", false unbinds: for {{#flag}} / {{^flag}}. */
void tmpl_set_bool(struct tmpl_vars *v, const char *name, bool on);
/* Append a new item to list `name` (created if needed); returns it,
 * borrowed: it belongs to `v`. */
struct tmpl_vars *tmpl_add(struct tmpl_vars *v, const char *name);
/* The string bound to `name` in `v` itself, or NULL (borrowed). */
const char *tmpl_get(const struct tmpl_vars *v, const char *name);

struct template_opts {
	const char *dir;	/* where {{> partials}} live; NULL: none allowed */
	const char *name;	/* the template's name, for error messages */
	unsigned int width;	/* fill paragraphs at this column; 0: don't */
};

#define TEMPLATE_OPTS_INIT { .name = "template", .width = TEMPLATE_WIDTH }

/*
 * Render `len` bytes of template `text` with `vars`, appending to `out`.
 * Syntax errors give WW_EINPUT naming the template and line ("template
 * 'reply.txt' line 12: section 'findings' is not closed"); a missing
 * partial WW_ENOTFOUND.  On error `out` is left as it was.
 */
int template_render(struct strbuf *out, const char *text, size_t len,
		    const struct tmpl_vars *vars,
		    const struct template_opts *opts);

/* Render the file `dir`/`file` (partials from `dir` too). */
int template_render_file(struct strbuf *out, const char *dir, const char *file,
			 const struct tmpl_vars *vars, unsigned int width);

/* The filler on its own: fill `text` as described above into `out`. */
void template_fill(struct strbuf *out, const char *text, size_t len,
		   unsigned int width);

/* The escaping policy on its own: append `in` to `out` without control
 * characters and with invalid UTF-8 replaced. */
void template_clean(struct strbuf *out, const char *in, size_t len);

/* Width of `s` in columns (UTF-8 characters; TAB counts to the next 8). */
size_t template_columns(const char *s, size_t len);

#endif
