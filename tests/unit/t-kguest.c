/*
 * Tests for kguest.c without a kernel: reading the gcov disk /init writes
 * (a ustar from offset 0, then zeros) back into the build layout, with
 * unsafe paths and other files left out; an empty disk is "not found".
 */
#include "kguest.h"
#include "child.h"
#include "mkdirs.h"

#include "tap.h"

#include <sys/stat.h>
#include <unistd.h>

static int run(const char *const *argv)
{
	struct child c = CHILD_INIT;
	int ret;

	strvec_pushv(&c.args, (const char **)argv);
	c.timeout_ms = 60000;
	ret = child_run(&c);
	if (!ret && c.status)
		ret = -1;
	child_release(&c);
	return ret;
}

int main(void)
{
	char tmpl[] = "/tmp/t-kguest.XXXXXX";
	const char *dir = mkdtemp(tmpl);
	struct kguest g = KGUEST_INIT;
	struct strbuf p = STRBUF_INIT, data = STRBUF_INIT;
	size_t nr = 99;

	if (!dir) {
		ok(0, "mkdtemp");
		return done_testing();
	}
	strbuf_addf(&p, "%s/src/fs/ext4", dir);
	mkdirs(p.buf, 0755, WW_ERROR);
	strbuf_addstr(&p, "/namei.gcda");
	strbuf_addstr(&data, "gcda-bytes");
	strbuf_write_file(&data, p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/src/notes.txt", dir);
	strbuf_write_file(&data, p.buf);

	strbuf_reset(&p);
	strbuf_addf(&p, "%s/gcov.raw", dir);
	g.gcov_disk = strbuf_detach(&p, NULL);
	strbuf_addf(&p, "%s/gcda", dir);
	g.gcda_dir = strbuf_detach(&p, NULL);

	/* An empty (zeroed) disk: /init never wrote the tar. */
	{
		const char *argv[] = { "truncate", "-s", "1M", g.gcov_disk, NULL };

		ok(run(argv) == 0, "a zeroed 1 MB disk");
	}
	ok(kguest_read_gcda(&g, &nr) == WW_ENOTFOUND && nr == 0,
	   "zeroed disk: no archive (not found)");
	error_clear();

	/* busybox tar as /init runs it, then the disk's zeros after it. */
	{
		const char *argv[] = { "tar", "-C", NULL, "-c", "-f", g.gcov_disk,
				       "fs/ext4/namei.gcda", "notes.txt", NULL };

		strbuf_addf(&p, "%s/src", dir);
		argv[2] = p.buf;
		ok(run(argv) == 0, "tar onto the disk");
		strbuf_reset(&p);
	}
	{
		const char *argv[] = { "truncate", "-s", "1M", g.gcov_disk, NULL };

		ok(run(argv) == 0, "padded with zeros");
	}
	is(kguest_read_gcda(&g, &nr), 0, "the tar reads back");
	is(nr, 1, "one .gcda file (notes.txt is not one)");
	strbuf_addf(&p, "%s/fs/ext4/namei.gcda", g.gcda_dir);
	strbuf_reset(&data);
	ok(strbuf_read_file(&data, p.buf, 1024) == 0 && !strcmp(data.buf, "gcda-bytes"),
	   "fs/ext4/namei.gcda in the build layout, same bytes");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/notes.txt", g.gcda_dir);
	ok(access(p.buf, F_OK) != 0, "other files are left out");

	{
		const char *argv[] = { "rm", "-rf", dir, NULL };

		run(argv);
	}
	free(g.gcov_disk);
	g.gcov_disk = NULL;	/* already gone */
	kguest_release(&g);
	strbuf_release(&p);
	strbuf_release(&data);
	return done_testing();
}
