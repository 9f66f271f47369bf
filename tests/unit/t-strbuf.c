/*
 * Unit tests for strbuf.c.
 */
#include "strbuf.h"
#include "tap.h"

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	size_t len;

	is_str(sb.buf, "", "fresh strbuf is empty string");
	strbuf_addstr(&sb, "hello");
	strbuf_addch(&sb, ' ');
	strbuf_addf(&sb, "%s %d", "world", 42);
	is_str(sb.buf, "hello world 42", "add, addch, addf");
	strbuf_addchars(&sb, 'x', 1000);
	is(sb.len, 1014, "addchars grows");
	strbuf_setlen(&sb, 5);
	is_str(sb.buf, "hello", "setlen truncates");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "  \tpad \r\n");
	strbuf_trim(&sb);
	is_str(sb.buf, "pad", "trim");
	p = strbuf_detach(&sb, &len);
	is(len, 3, "detach length");
	is_str(sb.buf, "", "detached strbuf is empty");
	free(p);
	is(strbuf_read_file(&sb, "/nonexistent/file", 0), WW_ENOTFOUND,
	   "missing file is WW_ENOTFOUND");
	is(strbuf_read_file(&sb, "/proc/self/status", 10), WW_ETOOBIG,
	   "cap gives WW_ETOOBIG");
	/* strbuf_unwrap(): only a wrapper around all of it */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, " unlikely( a > b ) ");
	ok(strbuf_unwrap(&sb, "unlikely(") && !strcmp(sb.buf, "a > b"), "unwrap: unlikely(a > b)");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "unlikely(a) && b");
	ok(!strbuf_unwrap(&sb, "unlikely(") && !strcmp(sb.buf, "unlikely(a) && b"),
	   "unwrap: not unlikely(a) && b");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "unlikely(f(x))");
	ok(strbuf_unwrap(&sb, "unlikely(") && !strcmp(sb.buf, "f(x)"), "unwrap: nested parens");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "unlikely(a");
	ok(!strbuf_unwrap(&sb, "unlikely("), "unwrap: unclosed");
	strbuf_release(&sb);
	return done_testing();
}
