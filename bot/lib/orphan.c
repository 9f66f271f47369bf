/*
 * Recording child process groups, and killing those a dead warnwatch
 * left (see orphan.h).
 *
 * A record is the file DIR/OWNER.PGID holding one line:
 *   "PGID SID LEADER_START OWNER OWNER_START BOOT_ID HOST\n"
 * (start times in clock ticks since boot, /proc/PID/stat field 22).
 */
#include "orphan.h"
#include "mkdirs.h"
#include "strbuf.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

static char *track_dir;		/* set once, before threads start */

struct proc_stat {
	pid_t pgrp, session;
	unsigned long long start;
};

/* /proc/PID/stat's group, session and start time; false when gone. */
static bool read_stat(struct proc_stat *out, pid_t pid)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "PID (COMM) S PPID PGRP SID ...": COMM may hold anything */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return false;
	memset(out, 0, sizeof(*out));
	for (field = 3, p += 2; *p && field <= 22; field++) {
		if (field == 5)
			out->pgrp = (pid_t)strtol(p, NULL, 10);
		else if (field == 6)
			out->session = (pid_t)strtol(p, NULL, 10);
		else if (field == 22)
			out->start = strtoull(p, NULL, 10);
		p = strchr(p, ' ');
		if (!p)
			break;
		p++;
	}
	return field > 22;
}

/* This boot's id and this host's name, for records read back. */
static void whereabouts(struct strbuf *boot, struct strbuf *host)
{
	char name[256] = "localhost";

	if (strbuf_read_file(boot, "/proc/sys/kernel/random/boot_id", 64) < 0)
		error_clear();
	strbuf_trim(boot);
	if (!boot->len)
		strbuf_addstr(boot, "-");
	if (gethostname(name, sizeof(name) - 1))
		snprintf(name, sizeof(name), "localhost");
	for (char *c = name; *c; c++)
		if (*c == ' ' || *c == '\n')
			*c = '_';
	strbuf_addstr(host, name);
}

int orphan_track(const char *dir)
{
	int ret = dir ? mkdirs(dir, 0700, WW_ESTATE) : 0;

	free(track_dir);
	track_dir = ret || !dir ? NULL : xstrdup(dir);
	return ret;
}

static void record_path(struct strbuf *out, pid_t pgid)
{
	strbuf_addf(out, "%s/%ld.%ld", track_dir, (long)getpid(), (long)pgid);
}

void orphan_note(pid_t pgid)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT, boot = STRBUF_INIT;
	struct strbuf host = STRBUF_INIT;
	struct proc_stat leader, self;

	if (!track_dir || !read_stat(&leader, pgid) || !read_stat(&self, getpid()))
		return;
	whereabouts(&boot, &host);
	record_path(&path, pgid);
	strbuf_addf(&line, "%ld %ld %llu %ld %llu %s %s\n", (long)pgid,
		    (long)leader.session, leader.start, (long)getpid(), self.start,
		    boot.buf, host.buf);
	/* best effort: a record not written only loses the reaping */
	if (strbuf_write_file(&line, path.buf) < 0)
		error_clear();
	strbuf_release(&path);
	strbuf_release(&line);
	strbuf_release(&boot);
	strbuf_release(&host);
}

void orphan_forget(pid_t pgid)
{
	struct strbuf path = STRBUF_INIT;

	if (!track_dir)
		return;
	record_path(&path, pgid);
	unlink(path.buf);
	strbuf_release(&path);
}

struct record {
	long pgid, sid, owner;
	unsigned long long start, owner_start;
	char boot[64], host[256];
};

/*
 * Kill the recorded group: its members in the recorded session started
 * no sooner than its leader.  A leader's pid now held by another process
 * (not the start time recorded) means the group id may be someone
 * else's: nothing is killed.
 */
static int kill_group(const struct record *r)
{
	struct proc_stat st;
	struct dirent *de;
	DIR *d;
	int killed = 0;

	if (read_stat(&st, (pid_t)r->pgid) && st.start != r->start)
		return 0;
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (pid <= 0 || *end || !read_stat(&st, (pid_t)pid))
			continue;
		if (st.pgrp != r->pgid || st.session != r->sid || st.start < r->start)
			continue;
		if (!kill((pid_t)pid, SIGKILL))
			killed++;
	}
	if (d)
		closedir(d);
	return killed;
}

/* 1: reaped (or stale), remove it; 0: keep it (alive, another host's). */
static int reap_one(const struct record *r, const char *boot, const char *host,
		    int *killed)
{
	struct proc_stat owner;

	if (strcmp(r->host, host))
		return 0;
	if (strcmp(r->boot, boot))
		return 1;	/* an earlier boot: long gone */
	if (read_stat(&owner, (pid_t)r->owner) && owner.start == r->owner_start)
		return 0;	/* its warnwatch is alive: its own */
	*killed += kill_group(r);
	return 1;
}

int orphan_reap(const char *dir)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf boot = STRBUF_INIT, host = STRBUF_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	int killed = 0;

	if (!d) {
		if (errno == ENOENT)
			return 0;
		return error_code(WW_ESTATE, "cannot read '%s': %s", dir, strerror(errno));
	}
	whereabouts(&boot, &host);
	while ((de = readdir(d))) {
		struct record r = { 0 };

		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		if (strbuf_read_file(&text, path.buf, 1024) < 0) {
			error_clear();
			continue;
		}
		if (sscanf(text.buf, "%ld %ld %llu %ld %llu %63s %255s", &r.pgid, &r.sid,
			   &r.start, &r.owner, &r.owner_start, r.boot, r.host) != 7 ||
		    r.pgid <= 1 || r.owner <= 1 || reap_one(&r, boot.buf, host.buf, &killed))
			unlink(path.buf);	/* unreadable records go too */
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&boot);
	strbuf_release(&host);
	return killed;
}
