/*
 * warnwatch-all cfacts REQUEST: the C front end as the review's
 * sandboxed child (cfront.h), not a command for people.  The file's
 * text comes on stdin, the request (JSON) as the one argument; the
 * facts go to stdout as JSON.  Nothing is written to stderr unless
 * something broke: libclang's own diagnostics stay off.
 */
#include "builtin.h"
#include "cfront.h"

#include <unistd.h>

int cmd_cfacts(int argc, const char **argv)
{
	struct strbuf out = STRBUF_INIT;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: warnwatch-all cfacts REQUEST (the review's own child)\n");
		return EXIT_USAGE;
	}
	ret = cfront_child(&out, argv[1], STDIN_FILENO);
	if (!ret)
		ret = fwrite(out.buf, 1, out.len, stdout) == out.len && !fflush(stdout) ? 0 :
		      error("cannot write the facts: %s", strerror(errno));
	strbuf_release(&out);
	return ret ? report_error("cfacts") : EXIT_OK;
}
