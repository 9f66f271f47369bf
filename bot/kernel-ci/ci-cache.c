/*
 * What kernel-ci's cache keeps (see ci.h): the newest run directories
 * under <cache>/ci/logs ([ci] keep-logs) and the newest parent-boot
 * consoles <cache>/ci/base-*.log.  Every run adds one of the first and
 * every new test set or script version one of the second; without these
 * bounds the service fills the disk.
 */
#include "ci.h"
#include "rmtree.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/* "20260103-081500": strftime's "%Y%m%d-%H%M%S" in make_logdir(). */
#define STAMP_LEN 15

/* Digits only, at least one: a pid in a run directory's name. */
static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

bool ci_is_run_dir_name(const char *name)
{
	for (int i = 0; i < STAMP_LEN; i++) {
		bool dash = i == 8;

		if (dash ? name[i] != '-' : (name[i] < '0' || name[i] > '9'))
			return false;
	}
	return name[STAMP_LEN] == '-' && all_digits(name + STAMP_LEN + 1) &&
	       strlen(name + STAMP_LEN + 1) <= 10;
}

static long run_pid(const char *name)
{
	return strtol(name + STAMP_LEN + 1, NULL, 10);
}

/* Oldest first: the stamp, then the pid (two runs in one second). */
static int cmp_runs(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = strncmp(x, y, STAMP_LEN);
	long px = run_pid(x), py = run_pid(y);

	if (c)
		return c;
	return px < py ? -1 : px > py;
}

/*
 * Another process's run still going (b4_sweep()'s test): its directory
 * is being written.  Our own pid's other directories are finished runs:
 * one process runs ci_run() once at a time.
 */
static bool run_alive(const char *name)
{
	long pid = run_pid(name);

	if (pid <= 0 || pid > INT_MAX || pid == (long)getpid())
		return false;
	return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

int ci_prune_logs(const char *logs_dir, const char *current, unsigned int keep)
{
	struct strvec runs = STRVEC_INIT;
	struct strbuf path = STRBUF_INIT;
	DIR *d = opendir(logs_dir);
	struct dirent *e;
	int ret = 0, removed = 0;

	if (!d)
		return error("cannot read '%s': %s", logs_dir, strerror(errno));
	while ((e = readdir(d)))
		if (ci_is_run_dir_name(e->d_name))
			strvec_push(&runs, e->d_name);
	closedir(d);
	qsort(runs.v, runs.nr, sizeof(*runs.v), cmp_runs);
	for (size_t i = 0; i + keep < runs.nr; i++) {
		int r;

		if ((current && !strcmp(runs.v[i], current)) || run_alive(runs.v[i]))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", logs_dir, runs.v[i]);
		r = rmtree(path.buf);
		if (r < 0 && !ret)
			ret = r;	/* the rest are still tried */
		else if (!r)
			removed++;
	}
	strvec_clear(&runs);
	strbuf_release(&path);
	return ret < 0 ? ret : removed;
}

struct base_log {
	char *name;
	struct timespec mtime;
};

/* Newest first; the name breaks a tie so the order is the same each time. */
static int cmp_newest(const void *a, const void *b)
{
	const struct base_log *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec > y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec > y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

int ci_prune_base_logs(const char *ci_dir, unsigned int keep)
{
	struct base_log *logs = NULL;
	size_t nr = 0, alloc = 0;
	DIR *d = opendir(ci_dir);
	struct dirent *e;
	int ret = 0, removed = 0;

	if (!d)
		return error("cannot read '%s': %s", ci_dir, strerror(errno));
	while ((e = readdir(d))) {
		struct stat st;

		/* Not "base-*.log.tmp": a base boot still writing it. */
		if (!starts_with(e->d_name, "base-") || !ends_with(e->d_name, ".log"))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;	/* gone meanwhile, or not ours to judge */
		ALLOC_GROW(logs, nr + 1, alloc);
		logs[nr].name = xstrdup(e->d_name);
		logs[nr++].mtime = st.st_mtim;
	}
	if (nr)		/* qsort() wants a real array, even of none */
		qsort(logs, nr, sizeof(*logs), cmp_newest);
	for (size_t i = keep; i < nr; i++) {
		if (unlinkat(dirfd(d), logs[i].name, 0) == 0)
			removed++;
		else if (errno != ENOENT && !ret)
			ret = error("cannot remove '%s/%s': %s", ci_dir,
				    logs[i].name, strerror(errno));
	}
	closedir(d);
	for (size_t i = 0; i < nr; i++)
		free(logs[i].name);
	free(logs);
	return ret < 0 ? ret : removed;
}
