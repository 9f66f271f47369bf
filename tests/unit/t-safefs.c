/*
 * Unit tests for safefs.c and strbuf_write_file(): what a sandboxed build
 * or a patched tree can plant (symlinks at the names warnwatch writes or
 * reads, links that lead out, FIFOs) is never written through nor read.
 */
#include "safefs.h"
#include "tap.h"
#include "tmpdir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[] = "/tmp/t-safefs.XXXXXX";


static void get(struct strbuf *out, const char *rel)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_reset(out);
	strbuf_addf(&p, "%s/%s", tmp, rel);
	if (strbuf_read_file(out, p.buf, 0) < 0)
		strbuf_addstr(out, "(missing)");
	strbuf_release(&p);
}

static void link_at(const char *target, const char *rel)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", tmp, rel);
	if (symlink(target, p.buf) < 0)
		perror(p.buf);
	strbuf_release(&p);
}

static void test_write(void)
{
	struct strbuf victim = STRBUF_INIT, sb = STRBUF_INIT, p = STRBUF_INIT;
	struct stat st;

	tmp_put(tmp, "victim", "precious\n");
	strbuf_addf(&victim, "%s/victim", tmp);
	/* The names the old strbuf_write_file() used: PATH.tmp.<pid>. */
	strbuf_addf(&p, "log.tmp.%ld", (long)getpid());
	link_at(victim.buf, p.buf);
	link_at(victim.buf, "log");
	strbuf_addstr(&sb, "attacker's make output\n");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/log", tmp);
	is(strbuf_write_file(&sb, p.buf), 0, "write over a planted symlink");
	get(&sb, "victim");
	is_str(sb.buf, "precious\n", "... the file the links point to is untouched");
	get(&sb, "log");
	is_str(sb.buf, "attacker's make output\n", "... the data is in the file named");
	ok(!lstat(p.buf, &st) && S_ISREG(st.st_mode), "... which is a regular file now");
	strbuf_release(&p);
	strbuf_release(&sb);
	strbuf_release(&victim);
}

static void test_read(void)
{
	struct strbuf sb = STRBUF_INIT, root = STRBUF_INIT, p = STRBUF_INIT;

	strbuf_addf(&root, "%s/tree", tmp);
	mkdir(root.buf, 0755);
	tmp_put(tmp, "tree/a.c", "int a;\n");
	tmp_put(tmp, "secret", "root:x:0:0\n");
	strbuf_addf(&p, "%s/d", root.buf);
	mkdir(p.buf, 0755);
	strbuf_addstr(&p, "/e");
	mkdir(p.buf, 0755);
	/* The two-link chain of issue 22: each link alone looks inside. */
	link_at("../..", "tree/d/e/s");
	link_at("s/../secret", "tree/d/e/l");
	link_at("a.c", "tree/in");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/fifo", root.buf);
	mkfifo(p.buf, 0644);

	is(safefs_read(&sb, root.buf, "a.c", 0, 0), 0, "a plain file reads");
	is_str(sb.buf, "int a;\n", "... its text");
	strbuf_reset(&sb);
	is(safefs_read(&sb, root.buf, "in", 0, 0), 0, "a link inside the tree reads");
	strbuf_reset(&sb);
	is(safefs_read(&sb, root.buf, "in", 0, SAFEFS_NO_SYMLINKS), WW_EINPUT,
	   "... not with SAFEFS_NO_SYMLINKS");
	is(safefs_read(&sb, root.buf, "d/e/l", 0, 0), WW_EINPUT,
	   "a chain of links that leads out is refused");
	is(sb.len, (size_t)0, "... nothing read");
	is(safefs_read(&sb, root.buf, "../secret", 0, 0), WW_EINPUT, "'..' out is refused");
	is(safefs_read(&sb, root.buf, "/etc/hostname", 0, 0), WW_EINPUT,
	   "an absolute path is refused");
	is(safefs_read(&sb, root.buf, "fifo", 0, 0), WW_EINPUT, "a FIFO is refused (no hang)");
	is(safefs_read(&sb, root.buf, "nope", 0, 0), WW_ENOTFOUND, "a missing file is WW_ENOTFOUND");
	ok(safefs_is_regular(root.buf, "a.c", SAFEFS_NO_SYMLINKS), "safefs_is_regular: a file");
	ok(!safefs_is_regular(root.buf, "in", SAFEFS_NO_SYMLINKS), "... not a link");
	ok(!safefs_is_regular(root.buf, "d", 0), "... not a directory");
	strbuf_release(&p);
	strbuf_release(&root);
	strbuf_release(&sb);
}

int main(void)
{
	if (!mkdtemp(tmp))
		return 1;
	test_write();
	test_read();
	tmp_remove(tmp);
	return done_testing();
}
