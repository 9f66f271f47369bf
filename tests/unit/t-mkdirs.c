/*
 * Unit tests for mkdirs.c.
 */
#include "mkdirs.h"
#include "strbuf.h"
#include "tap.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir_mode(const char *path, mode_t mode)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == mode;
}

int main(void)
{
	char tmpl[] = "/tmp/t-mkdirs-XXXXXX";
	const char *top = mkdtemp(tmpl);
	struct strbuf p = STRBUF_INIT, q = STRBUF_INIT;
	mode_t old = umask(022);

	if (!top)
		BUG("mkdtemp failed");
	strbuf_addf(&p, "%s/a/b/c", top);
	is(mkdirs(p.buf, 0700, WW_ESTATE), 0, "creates a path and its parents");
	ok(is_dir_mode(p.buf, 0700), "with the mode asked for");
	strbuf_addf(&q, "%s/a", top);
	ok(is_dir_mode(q.buf, 0700), "parents too");
	is(mkdirs(p.buf, 0700, WW_ESTATE), 0, "an existing path is fine");
	strbuf_addstr(&p, "/");
	is(mkdirs(p.buf, 0755, WW_ESTATE), 0, "a trailing slash is fine");
	strbuf_reset(&q);
	strbuf_addf(&q, "%s/file", top);
	close(open(q.buf, O_CREAT | O_WRONLY, 0600));
	strbuf_addstr(&q, "/sub");
	is(mkdirs(q.buf, 0755, WW_ESTATE), WW_ESTATE, "a file in the way: the caller's code");
	ok(strstr(error_last(), "/file/sub': Not a directory") != NULL,
	   "the message names the path: %s", error_last());
	is(mkdirs("/", 0755, WW_ERROR), 0, "the root exists");
	umask(old);
	/* Clean up, deepest first. */
	strbuf_reset(&q);
	strbuf_addf(&q, "%s/file", top);
	unlink(q.buf);
	for (int i = 0; i < 3; i++) {
		strbuf_reset(&q);
		strbuf_addf(&q, "%s/%s", top, i == 0 ? "a/b/c" : i == 1 ? "a/b" : "a");
		rmdir(q.buf);
	}
	rmdir(top);
	strbuf_release(&p);
	strbuf_release(&q);
	return done_testing();
}
