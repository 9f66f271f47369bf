/*
 * Unit tests for rmtree.c: a tree removed whole, links removed and not
 * followed (at the top and below), a missing path, a failure reported
 * with the entry's name while the rest is still removed.
 */
#include "rmtree.h"
#include "mkdirs.h"
#include "strbuf.h"
#include "tap.h"
#include "tmpdir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void touch(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	int fd;

	strbuf_addf(&p, "%s/%s", dir, name);
	fd = open(p.buf, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		BUG("cannot create '%s'", p.buf);
	close(fd);
	strbuf_release(&p);
}

int main(void)
{
	char tmpl[] = "/tmp/t-rmtree-XXXXXX";
	const char *top = mkdtemp(tmpl);
	struct strbuf tree = STRBUF_INIT, p = STRBUF_INIT, target = STRBUF_INIT;

	if (!top)
		BUG("mkdtemp failed");
	strbuf_addf(&target, "%s/target", top);
	mkdirs(target.buf, 0755, WW_ERROR);
	touch(target.buf, "precious");

	strbuf_addf(&tree, "%s/tree", top);
	strbuf_addf(&p, "%s/a/b/c", tree.buf);
	mkdirs(p.buf, 0755, WW_ERROR);
	touch(p.buf, "deep");
	touch(tree.buf, "file");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/a/link", tree.buf);
	if (symlink(target.buf, p.buf) < 0)
		BUG("symlink failed");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/dangling", tree.buf);
	if (symlink("/nonexistent/x", p.buf) < 0)
		BUG("symlink failed");

	is(rmtree(tree.buf), 0, "a tree with files, directories and links");
	ok(!tmp_exists(top, "tree"), "  is gone");
	ok(tmp_exists(target.buf, "precious"), "  a link's target is untouched");

	strbuf_reset(&p);
	strbuf_addf(&p, "%s/toplink", top);
	if (symlink(target.buf, p.buf) < 0)
		BUG("symlink failed");
	is(rmtree(p.buf), 0, "a link at the top");
	ok(!tmp_exists(top, "toplink"), "  is removed itself");
	ok(tmp_exists(target.buf, "precious"), "  not what it points to");

	is(rmtree(tree.buf), 0, "a path that does not exist is no error");

	/* A directory we may not write: its entry stays, the rest goes. */
	if (geteuid() == 0) {
		skip("root: root removes from a read-only directory",
		     "an entry it cannot remove");
	} else {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/locked", tree.buf);
		mkdirs(p.buf, 0755, WW_ERROR);
		touch(p.buf, "stuck");
		touch(tree.buf, "loose");
		chmod(p.buf, 0555);
		is(rmtree(tree.buf), WW_ERROR, "an entry it cannot remove");
		ok(strstr(error_last(), "tree/locked/stuck") != NULL,
		   "  is named: %s", error_last());
		ok(!tmp_exists(tree.buf, "loose"), "  the rest is still removed");
		chmod(p.buf, 0755);
		is(rmtree(tree.buf), 0, "  and the tree goes once it can");
	}

	/* Deeper than RMTREE_MAX_DEPTH: refused there, the rest removed. */
	strbuf_reset(&p);
	strbuf_addstr(&p, tree.buf);
	for (int i = 0; i <= RMTREE_MAX_DEPTH + 1; i++)
		strbuf_addstr(&p, "/d");
	mkdirs(p.buf, 0755, WW_ERROR);
	touch(tree.buf, "loose");
	is(rmtree(tree.buf), WW_ERROR, "a tree too deep");
	ok(strstr(error_last(), "directories deep") != NULL, "  says so");
	ok(!tmp_exists(tree.buf, "loose"), "  the rest is still removed");

	tmp_remove(top);
	strbuf_release(&tree);
	strbuf_release(&p);
	strbuf_release(&target);
	return done_testing();
}
