/*
 * libFuzzer harness for the template engine.  The input is a template,
 * "\n====\n", then values, one a line: "name=value" binds in the current
 * scope, "+name" opens a new item of list `name` inside it, "-" goes back
 * out.  Values come from strangers: when the template itself has no
 * control bytes, neither may the output (besides TAB and LF), whatever the
 * values hold.  The filler and the cleaner are fuzzed on the raw bytes.
 */
#include "template.h"
#include "fuzz.h"

#define MAX_NEST 8

static void bind(struct tmpl_vars *root, const char *text, size_t len)
{
	struct tmpl_vars *stack[MAX_NEST] = { root };
	size_t depth = 0;
	char *all = xstrndup(text, len), *save = all, *line;

	while ((line = strsep(&save, "\n"))) {
		char *eq;

		if (line[0] == '+' && line[1] && depth + 1 < MAX_NEST) {
			stack[depth + 1] = tmpl_add(stack[depth], line + 1);
			depth++;
		} else if (line[0] == '-' && !line[1] && depth) {
			depth--;
		} else if ((eq = strchr(line, '=')) && eq != line) {
			*eq = '\0';
			tmpl_set(stack[depth], line, eq + 1);
		}
	}
	free(all);
}

static bool has_controls(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if ((c < ' ' && c != '\t' && c != '\n') || c == 0x7f)
			return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct template_opts opts = TEMPLATE_OPTS_INIT;
	struct tmpl_vars *v = tmpl_vars_new();
	struct strbuf out = STRBUF_INIT;
	const char *rest, *text = (const char *)data;
	size_t len, rest_len;

	fuzz_split(data, size, &len, &rest, &rest_len);
	if (rest)
		bind(v, rest, rest_len);
	opts.name = "fuzz.txt";
	opts.width = size & 1 ? 0 : TEMPLATE_WIDTH;
	if (template_render(&out, text, len, v, &opts) >= 0 &&
	    !has_controls(text, len))
		FUZZ_ASSERT(!has_controls(out.buf, out.len),
			    "a value put a control byte into the output");
	strbuf_setlen(&out, 0);
	template_fill(&out, text, len, 20);
	strbuf_setlen(&out, 0);
	template_clean(&out, text, len);
	FUZZ_ASSERT(!has_controls(out.buf, out.len), "template_clean() kept a control byte");
	(void)template_columns(text, len);
	strbuf_release(&out);
	tmpl_vars_free(v);
	error_clear();
	return 0;
}
