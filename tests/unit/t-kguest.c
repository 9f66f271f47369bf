/*
 * Tests for kguest.c without a kernel: reading the gcov disk /init writes
 * (a ustar from offset 0, then zeros) back into the build layout, with
 * unsafe paths and other files left out; an empty disk is "not found".
 * And the base boot's cache key (kguest_test_set()): the same tests and
 * scripts give the same text, a changed workload script or /init another.
 */
#include "kguest.h"
#include "child.h"
#include "mkdirs.h"

#include "tap.h"
#include "tmpdir.h"

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


static void test_set(const char *dir)
{
	struct kguest g = KGUEST_INIT;
	struct strbuf kci = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;

	strbuf_addf(&kci, "%s/kci/workloads", dir);
	mkdirs(kci.buf, 0755, WW_ERROR);
	strbuf_setlen(&kci, kci.len - strlen("/workloads"));
	tmp_put(kci.buf, "init", "#!/bin/sh\n");
	tmp_put(kci.buf, "workloads/ext4.sh", "mv \"$n\" \"$r\"\n");
	tmp_put(kci.buf, "workloads/ext4.json", "{ \"workload\": \"ext4\" }\n");
	g.kernel_ci = xstrdup(kci.buf);
	strvec_push(&g.sel.test_names, "cgroup:test_core");
	strvec_push(&g.sel.workloads, "ext4");

	is(kguest_test_set(&a, &g), 0, "test set: %s", error_last());
	ok(strstr(a.buf, "test cgroup:test_core\n") && strstr(a.buf, "workload ext4\n"),
	   "names the tests and workloads");
	is(kguest_test_set(&b, &g), 0, "again");
	is_str(b.buf, a.buf, "same tests, same scripts: same text (the cache answers)");

	tmp_put(kci.buf, "workloads/ext4.sh", "rm \"$p\"-*\n");
	strbuf_reset(&b);
	is(kguest_test_set(&b, &g), 0, "after the script changed");
	ok(strcmp(a.buf, b.buf), "a changed workload script is another test set");

	strbuf_reset(&a);
	tmp_put(kci.buf, "init", "#!/bin/sh\nsync\n");
	is(kguest_test_set(&a, &g), 0, "after /init changed");
	ok(strcmp(a.buf, b.buf), "a changed /init is another test set");

	tmp_put(kci.buf, "workloads/ext4.json", "");
	strbuf_reset(&b);
	is(kguest_test_set(&b, &g), 0, "after the workload's JSON changed");
	ok(strcmp(a.buf, b.buf), "a changed workload JSON is another test set");

	strbuf_addstr(&kci, "/workloads/ext4.sh");
	unlink(kci.buf);
	strbuf_reset(&b);
	ok(kguest_test_set(&b, &g) < 0, "a missing script is an error, not a key");
	error_clear();

	kguest_release(&g);
	strbuf_release(&kci);
	strbuf_release(&a);
	strbuf_release(&b);
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

	test_set(dir);

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
