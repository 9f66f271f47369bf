/*
 * check -f: a source file as the patch that adds it; see srcfile.h.
 */
#include "srcfile.h"

const char *srcfile_path(const char *arg)
{
	for (;;) {
		if (*arg == '/')
			arg++;
		else if (starts_with(arg, "./"))
			arg += 2;
		else
			return arg;
	}
}

int srcfile_diff(struct strbuf *out, const char *path, const char *text, size_t len)
{
	size_t lines = 0;

	if (memchr(text, '\0', len))
		return error_code(WW_EINPUT, "'%s' holds NUL bytes: not a source file", path);
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		lines++;
	strbuf_addf(out, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n",
		    path, path, path);
	if (!lines)
		return 0;
	strbuf_addf(out, "@@ -0,0 +1,%zu @@\n", lines);
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		strbuf_addch(out, '+');
		strbuf_add(out, p, n);
		strbuf_addch(out, '\n');
		if (!nl)
			strbuf_addstr(out, "\\ No newline at end of file\n");
		p += n + 1;
	}
	return 0;
}

void srcfile_mark(struct check_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr; i++) {
		struct finding *f = &r->v[i];
		const char *rest;

		f->whole_file = true;
		if (skip_prefix(f->message, "new ", &rest))
			memmove(f->message, rest, strlen(rest) + 1);
		free(f->file);
		f->file = xstrdup(name);
	}
}
