/*
 * Unit tests for bot/lib/orphan.c: the group of a dead recorder is
 * killed, leader and members, and its record removed; a live recorder's
 * group, a reused pid, another host's record are left alone; a record of
 * an earlier boot or one that does not parse is removed.  And child.c
 * records a running child's group and forgets it when it ends.
 */
#include "orphan.h"
#include "child.h"
#include "strbuf.h"
#include "proc.h"
#include "tap.h"
#include "tmpdir.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static size_t records(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* A group of two sleeps (leader and member); its leader's pid. */
static pid_t sleepers(void)
{
	pid_t pid = fork();

	if (!pid) {
		setpgid(0, 0);
		if (!fork())
			execlp("sleep", "sleep", "300", (char *)NULL);
		execlp("sleep", "sleep", "300", (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	usleep(200 * 1000);	/* both started */
	return pid;
}

/* The first line of the only record in `dir`. */
static void read_record(struct strbuf *out, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strbuf path = STRBUF_INIT;

	strbuf_reset(out);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		strbuf_read_file(out, path.buf, 1024);
		break;
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
}

/* Rewrite the record of `dir` with field `field` (0-based) set to `v`. */
static void edit_record(const char *dir, int field, const char *v)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT, path = STRBUF_INIT;
	char *save = NULL, *tok;
	int i = 0;

	read_record(&text, dir);
	strbuf_trim(&text);
	for (tok = strtok_r(text.buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		strbuf_addf(&out, "%s%s", i ? " " : "", i == field ? v : tok);
		i++;
	}
	strbuf_addch(&out, '\n');
	tmp_remove(dir);
	strbuf_addf(&path, "%s/1.1", dir);
	mkdir(dir, 0700);
	strbuf_write_file(&out, path.buf);
	strbuf_release(&text);
	strbuf_release(&out);
	strbuf_release(&path);
}

static void test_dead_owner(const char *dir)
{
	pid_t owner, leader, member;
	int fds[2];
	long pids[2] = { 0 };

	/* a warnwatch that records a group, then dies without forgetting it */
	if (pipe(fds) < 0)
		return;
	fflush(stdout);
	owner = fork();
	if (!owner) {
		pid_t g;

		orphan_track(dir);
		g = sleepers();
		orphan_note(g);
		pids[0] = g;
		if (write(fds[1], pids, sizeof(pids)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], pids, sizeof(pids)) != sizeof(pids))
		pids[0] = 0;
	close(fds[0]);
	waitpid(owner, NULL, 0);
	leader = (pid_t)pids[0];
	ok(leader > 0 && proc_alive(leader), "a dead warnwatch's group runs on");
	is((long)records(dir), 1, "  its record is there");
	member = 0;
	{
		/* the member: the leader's child, in its group */
		struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;

		strbuf_addf(&p, "/proc/%ld/task/%ld/children", (long)leader, (long)leader);
		if (!strbuf_read_file(&t, p.buf, 256))
			member = (pid_t)atol(t.buf);
		error_clear();
		strbuf_release(&p);
		strbuf_release(&t);
	}
	ok(member > 0 && proc_alive(member), "  with a member (%ld)", (long)member);
	is(orphan_reap(dir), 2, "orphan_reap kills the leader and the member");
	usleep(100 * 1000);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	ok(!proc_alive(leader) && (member <= 0 || !proc_alive(member)), "  both gone");
	is((long)records(dir), 0, "  the record removed");
	if (leader > 0 && proc_alive(leader))
		kill(-leader, SIGKILL);
}

static void test_kept(const char *dir)
{
	struct strbuf line = STRBUF_INIT;
	pid_t g = sleepers();

	orphan_track(dir);
	orphan_note(g);
	is(orphan_reap(dir), 0, "a live recorder's group (ours): not killed");
	ok(proc_alive(g), "  alive");
	is((long)records(dir), 1, "  its record kept");

	edit_record(dir, 3, "999999999");	/* a dead owner */
	edit_record(dir, 2, "1");		/* the leader started at tick 1 */
	is(orphan_reap(dir), 0, "a group id whose leader's start time differs (reused): "
	   "not killed");
	ok(proc_alive(g), "  alive");
	is((long)records(dir), 0, "  the record removed");

	orphan_note(g);
	edit_record(dir, 3, "999999999");
	edit_record(dir, 6, "another-host");
	is(orphan_reap(dir), 0, "another host's record: nothing killed");
	is((long)records(dir), 1, "  kept");
	edit_record(dir, 5, "an-earlier-boot");
	{
		/* the same host as ours, but another boot */
		char host[256] = "localhost";

		gethostname(host, sizeof(host) - 1);
		edit_record(dir, 6, host);
	}
	is(orphan_reap(dir), 0, "a record of an earlier boot: nothing killed");
	is((long)records(dir), 0, "  removed");
	ok(proc_alive(g), "  the group lives on");

	strbuf_reset(&line);
	strbuf_addstr(&line, "not a record\n");
	tmp_put(dir, "9.9", line.buf);
	is(orphan_reap(dir), 0, "a record that does not parse");
	is((long)records(dir), 0, "  removed");
	kill(-g, SIGKILL);
	waitpid(g, NULL, 0);
	orphan_track(NULL);
	strbuf_release(&line);
}

static void test_child_records(const char *dir)
{
	struct child c = CHILD_INIT;

	orphan_track(dir);
	strvec_pushl(&c.args, "sh", "-c", "ls \"$0\"", dir, NULL);
	is(child_run(&c), 0, "a child runs while tracked");
	ok(c.out.len > 0 && strchr(c.out.buf, '.'), "  its group was recorded: %s", c.out.buf);
	is((long)records(dir), 0, "  and forgotten when it ended");
	orphan_track(NULL);
	child_release(&c);
}

int main(void)
{
	char tmp[] = "/tmp/t-orphan.XXXXXX";
	struct strbuf dir = STRBUF_INIT;

	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	strbuf_addf(&dir, "%s/children", tmp);
	is(orphan_reap(dir.buf), 0, "no directory: nothing to reap");
	test_dead_owner(dir.buf);
	test_kept(dir.buf);
	test_child_records(dir.buf);
	tmp_remove(tmp);
	strbuf_release(&dir);
	return done_testing();
}
