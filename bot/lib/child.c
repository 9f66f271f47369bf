/*
 * Running other programs with argv, a deadline and captured output.
 * See child.h for the contract.
 */
#include "child.h"
#include "orphan.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

void child_init(struct child *c)
{
	struct child blank = CHILD_INIT;

	*c = blank;
}

void child_release(struct child *c)
{
	strvec_clear(&c->args);
	strvec_clear(&c->env);
	strbuf_release(&c->out);
	strbuf_release(&c->err);
}

static bool env_matches(const char *entry, const char *name)
{
	size_t n = strcspn(name, "=");

	return !strncmp(entry, name, n) && entry[n] == '=';
}

/* environ (unless CLEAN_ENV) with c->env applied; entries borrowed. */
static void build_env(struct strvec *out, const struct child *c)
{
	char **e;
	size_t i;

	if (!(c->flags & CHILD_CLEAN_ENV)) {
		for (e = environ; *e; e++) {
			bool overridden = false;

			for (i = 0; i < c->env.nr; i++)
				if (env_matches(*e, c->env.v[i]))
					overridden = true;
			if (!overridden)
				strvec_push(out, *e);
		}
	}
	for (i = 0; i < c->env.nr; i++)
		if (strchr(c->env.v[i], '='))
			strvec_push(out, c->env.v[i]);
}

static void close_inherited(int keep)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int dfd;

	if (!d) {
		for (int fd = 3; fd < 1024; fd++)
			if (fd != keep)
				close(fd);
		return;
	}
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);

		if (fd > 2 && fd != dfd && fd != keep)
			close(fd);
	}
	closedir(d);
}

static void reset_signals(void)
{
	sigset_t none;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* ---- the reaper ------------------------------------------------------- */

/*
 * Every program runs under a reaper, a fork of warnwatch that never execs
 * and outlives warnwatch's death by the seconds it takes to end the
 * program's group:
 *
 *   warnwatch --fork--> reaper (process group leader: pgid = its pid)
 *                          --fork--> program (the same group)
 *
 * child_run() sees the reaper as the child: it signals the group as it
 * always did (the reaper ignores SIGTERM, so that it reports the
 * program's status, 128+N for a signal N as child_run() does), and the
 * reaper exits with the program's status.  Only async-signal-safe calls
 * here: the fork of a threaded process (serve) never execs.
 *
 * The reaper holds on without warnwatch:
 *   - PR_SET_PDEATHSIG tells it when warnwatch dies (REAPER_PARENT_SIG;
 *     getppid() is checked besides), and it ends the group: SIGTERM, then
 *     SIGKILL REAPER_TERM_S later, itself last;
 *   - its own deadline, the child's plus REAPER_GRACE_S (child_run()'s
 *     SIGTERM and SIGKILL come first), ends the group the same way should
 *     warnwatch be alive but stuck;
 *   - as a child subreaper (PR_SET_CHILD_SUBREAPER) it inherits the
 *     program's descendants whose parent died, those that left the group
 *     too (setsid), and kills them when the program ends.
 * The program itself gets PR_SET_PDEATHSIG(SIGKILL): should the reaper
 * be killed (child_run()'s SIGKILL to the group, the OOM killer), the
 * program goes with it.  The kernel clears it when a set-user-ID program
 * is executed: Debian's bwrap is not one (user namespaces).
 *
 * PDEATHSIG fires when the *thread* that forked exits, not the process:
 * child_run() waits for the reaper in the thread that forked it, so that
 * thread outlives the reaper unless the whole process dies, which is the
 * case the signal is for (no warnwatch thread is ever cancelled).
 */
#define REAPER_PARENT_SIG SIGUSR1
#define REAPER_GRACE_S 15	/* past the child's deadline */
#define REAPER_TERM_S 2		/* from SIGTERM to SIGKILL */

static WW_NORETURN void report_errno(int report_fd)
{
	int saved = errno;

	if (write(report_fd, &saved, sizeof(saved)) < 0)
		_exit(127);
	_exit(127);
}

/* In the program's process: never returns. */
static WW_NORETURN void exec_program(const struct child *c, int report_fd,
				     const char **envp, pid_t reaper)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != reaper)
		_exit(128 + SIGKILL);	/* the reaper died before we asked */
	reset_signals();
	if (c->dir && chdir(c->dir) < 0)
		report_errno(report_fd);
	execvpe(c->args.v[0], (char *const *)c->args.v, (char *const *)envp);
	report_errno(report_fd);
}

/*
 * Signal the reaper's children -- the program, and orphans reparented to
 * it -- and the groups those lead (one that left ours with setsid), from
 * /proc/self/task/PID/children; nothing when the kernel has no such file.
 */
static void signal_children(int sig)
{
	char path[64] = "/proc/self/task/", buf[4096];
	char *p = path + strlen(path), digits[24];
	long pid = getpid(), n = 0;
	int fd, i = 0;
	ssize_t len;

	do
		digits[i++] = '0' + pid % 10;
	while ((pid /= 10));
	while (i)
		*p++ = digits[--i];
	memcpy(p, "/children", sizeof("/children"));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (ssize_t k = 0; k < len; k++) {
		if (buf[k] >= '0' && buf[k] <= '9') {
			n = n * 10 + buf[k] - '0';
			continue;
		}
		if (n > 0) {
			kill((pid_t)-n, sig);
			kill((pid_t)n, sig);
		}
		n = 0;
	}
}

/* Reap what has exited; the program's status into *status (true then). */
static bool reap(pid_t prog, int *status)
{
	bool done = false;
	pid_t w;
	int st;

	while ((w = waitpid(-1, &st, WNOHANG)) > 0)
		if (w == prog) {
			*status = st;
			done = true;
		}
	return done;
}

/* Wait for a signal in `set` (blocked), at most `seconds`. */
static void wait_signal(const sigset_t *set, double seconds)
{
	struct timespec ts;
	siginfo_t si;

	if (seconds > 1)
		seconds = 1;	/* getppid() is looked at every second too */
	if (seconds < 0.001)
		seconds = 0.001;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - ts.tv_sec) * 1e9);
	sigtimedwait(set, &si, &ts);
}

/* warnwatch died or the deadline passed: end the group, the reaper last. */
static WW_NORETURN void teardown(const sigset_t *set, pid_t prog)
{
	double until = monotonic_now() + REAPER_TERM_S;
	int status;

	kill(0, SIGTERM);		/* the group; the reaper ignores it */
	signal_children(SIGTERM);
	while (monotonic_now() < until) {
		reap(prog, &status);
		if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
			break;		/* no child left */
		wait_signal(set, until - monotonic_now());
	}
	signal_children(SIGKILL);
	kill(0, SIGKILL);
	_exit(128 + SIGKILL);
}

static WW_NORETURN void reaper_wait(pid_t prog, pid_t parent, double deadline,
				    const sigset_t *set)
{
	int status = 0;

	while (!reap(prog, &status)) {
		if (getppid() != parent || monotonic_now() >= deadline)
			teardown(set, prog);
		wait_signal(set, deadline - monotonic_now());
	}
	/* Stragglers in the group are child_run()'s to kill, unless no
	 * one is left to: the orphans that left it are ours. */
	signal_children(SIGKILL);
	if (getppid() != parent)
		kill(0, SIGKILL);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) :
	      WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127);
}

/* In the forked reaper: never returns. */
static WW_NORETURN void run_reaper(const struct child *c, int in_fd, int out_fd,
				   int err_fd, int report_fd, const char **envp,
				   pid_t parent, double deadline)
{
	sigset_t set;
	pid_t prog, self = getpid();
	int null;

	setpgid(0, 0);
	reset_signals();
	signal(SIGTERM, SIG_IGN);	/* child_run()'s SIGTERM is the program's */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, REAPER_PARENT_SIG);
	sigprocmask(SIG_BLOCK, &set, NULL);
	prctl(PR_SET_PDEATHSIG, REAPER_PARENT_SIG);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (getppid() != parent)
		_exit(128 + SIGKILL);	/* warnwatch died before we asked */
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		report_errno(report_fd);
	close_inherited(report_fd);
	prog = fork();
	if (prog < 0)
		report_errno(report_fd);
	if (!prog)
		exec_program(c, report_fd, envp, self);
	close(report_fd);
	/* Hold no end of the program's pipes: their EOF is its. */
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		close(null);
	}
	reaper_wait(prog, parent, deadline, &set);
}

static void capture(struct child *c, struct strbuf *sb, const char *buf,
		    size_t n)
{
	size_t cap = c->cap ? c->cap : CHILD_DEFAULT_CAP;

	if (sb->len + n > cap) {
		c->truncated = true;
		n = sb->len < cap ? cap - sb->len : 0;
	}
	strbuf_add(sb, buf, n);
}

/* Read what is ready on `fd`; returns false at EOF or error. */
static bool drain(struct child *c, int fd, bool is_out, int file_fd)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (is_out && c->on_stdout)
		c->on_stdout(c->data, buf, n);
	if (is_out && file_fd >= 0) {
		if (write(file_fd, buf, n) != n)
			c->truncated = true;
	} else {
		capture(c, is_out ? &c->out : &c->err, buf, n);
	}
	return true;
}

static void kill_group(pid_t pid, int sig)
{
	if (kill(-pid, sig) < 0)
		kill(pid, sig);
}

struct pipes {
	int in[2], out[2], err[2], report[2];
	int file_fd;
};

static int open_pipes(struct pipes *p, const struct child *c)
{
	p->in[0] = p->in[1] = p->out[0] = p->out[1] = -1;
	p->err[0] = p->err[1] = p->report[0] = p->report[1] = -1;
	p->file_fd = -1;
	if (pipe2(p->report, O_CLOEXEC) < 0 || pipe2(p->out, O_CLOEXEC) < 0 ||
	    pipe2(p->err, O_CLOEXEC) < 0)
		return error("pipe: %s", strerror(errno));
	if (c->in) {
		if (pipe2(p->in, O_CLOEXEC) < 0)
			return error("pipe: %s", strerror(errno));
	} else {
		p->in[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (p->in[0] < 0)
			return error("/dev/null: %s", strerror(errno));
	}
	if (c->out_path) {
		p->file_fd = open(c->out_path, O_WRONLY | O_CREAT | O_TRUNC |
				  O_CLOEXEC, 0644);
		if (p->file_fd < 0)
			return error("cannot create '%s': %s", c->out_path,
				     strerror(errno));
	}
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_pipes(struct pipes *p)
{
	close_fd(&p->in[0]);
	close_fd(&p->in[1]);
	close_fd(&p->out[0]);
	close_fd(&p->out[1]);
	close_fd(&p->err[0]);
	close_fd(&p->err[1]);
	close_fd(&p->report[0]);
	close_fd(&p->report[1]);
	close_fd(&p->file_fd);
}

/* Pump stdin/stdout/stderr until both outputs close or the deadline. */
static void pump(struct child *c, struct pipes *p, pid_t pid, double deadline)
{
	size_t in_off = 0;
	bool killed = false;
	double kill_at = 0;

	for (;;) {
		struct pollfd fds[3];
		int nfds = 0, wait_ms;
		double t = monotonic_now();

		if (p->out[0] >= 0)
			fds[nfds++] = (struct pollfd){ p->out[0], POLLIN, 0 };
		if (p->err[0] >= 0)
			fds[nfds++] = (struct pollfd){ p->err[0], POLLIN, 0 };
		if (p->in[1] >= 0)
			fds[nfds++] = (struct pollfd){ p->in[1], POLLOUT, 0 };
		if (!nfds)
			return;
		if (!killed && t >= deadline) {
			c->timed_out = true;
			kill_group(pid, SIGTERM);
			killed = true;
			kill_at = t + 2.0;
		} else if (killed && t >= kill_at) {
			kill_group(pid, SIGKILL);
			kill_at = t + 3600;
			/* Grandchildren may keep the pipes open: stop listening. */
			if (t >= deadline + 10)
				return;
		}
		wait_ms = (int)(((killed ? kill_at : deadline) - t) * 1000) + 1;
		if (wait_ms > 1000)
			wait_ms = 1000;
		if (poll(fds, nfds, wait_ms) < 0 && errno != EINTR)
			return;
		for (int i = 0; i < nfds; i++) {
			if (!fds[i].revents)
				continue;
			if (fds[i].fd == p->in[1]) {
				ssize_t n = write(p->in[1], c->in + in_off,
						  c->in_len - in_off);

				if (n > 0)
					in_off += n;
				if (n < 0 || in_off >= c->in_len)
					close_fd(&p->in[1]);
			} else if (fds[i].fd == p->out[0]) {
				if (!drain(c, p->out[0], true, p->file_fd))
					close_fd(&p->out[0]);
			} else if (!drain(c, p->err[0], false, -1)) {
				close_fd(&p->err[0]);
			}
		}
	}
}

int child_run(struct child *c)
{
	struct strvec envp = STRVEC_INIT;
	struct pipes p;
	double start = monotonic_now();
	double timeout_s = (c->timeout_ms ? c->timeout_ms : CHILD_DEFAULT_TIMEOUT_MS) / 1000.0;
	int status = 0, exec_errno = 0, ret = -1;
	int out_fd, err_fd;
	pid_t pid, parent = getpid();

	c->status = -1;
	c->timed_out = c->truncated = false;
	if (!c->args.nr)
		BUG("child_run without a program");
	if (open_pipes(&p, c) < 0)
		goto out;
	build_env(&envp, c);
	out_fd = (c->flags & CHILD_STDOUT_PASS) ? 1 : p.out[1];
	err_fd = (c->flags & CHILD_STDERR_PASS) ? 2 :
		 (c->flags & CHILD_STDERR_TO_OUT) ? out_fd : p.err[1];
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = error("fork: %s", strerror(errno));
		goto out;
	}
	if (!pid)
		run_reaper(c, p.in[0], out_fd, err_fd, p.report[1], envp.v, parent,
			   start + timeout_s + REAPER_GRACE_S);
	setpgid(pid, pid);
	orphan_note(pid);
	close_fd(&p.report[1]);
	close_fd(&p.in[0]);
	close_fd(&p.out[1]);
	close_fd(&p.err[1]);
	if (read(p.report[0], &exec_errno, sizeof(exec_errno)) <= 0)
		exec_errno = 0;
	if (!c->in)
		close_fd(&p.in[1]);
	else
		fcntl(p.in[1], F_SETFL, O_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);
	pump(c, &p, pid, start + timeout_s);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* Leave nothing behind: stragglers in the child's group go too. */
	kill(-pid, SIGKILL);
	orphan_forget(pid);
	c->seconds = monotonic_now() - start;
	if (WIFEXITED(status))
		c->status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		c->status = 128 + WTERMSIG(status);
	if (exec_errno) {
		ret = error_code(WW_ENOTFOUND, "cannot run '%s': %s",
				 c->args.v[0], strerror(exec_errno));
		goto out;
	}
	if (c->timed_out) {
		ret = error_code(WW_ETIMEOUT, "'%s' did not finish within %u s",
				 c->args.v[0], (c->timeout_ms ? c->timeout_ms :
						CHILD_DEFAULT_TIMEOUT_MS) / 1000);
		goto out;
	}
	ret = 0;
out:
	close_pipes(&p);
	strvec_clear(&envp);
	return ret;
}

void child_last_line(struct strbuf *out, const struct strbuf *sb)
{
	size_t end = sb->len, start;

	while (end && (sb->buf[end - 1] == '\n' || sb->buf[end - 1] == '\r' ||
		       sb->buf[end - 1] == ' '))
		end--;
	start = end;
	while (start && sb->buf[start - 1] != '\n')
		start--;
	strbuf_add(out, sb->buf + start, end - start);
}

int child_error(const struct child *c, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT, last = STRBUF_INIT;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	child_last_line(&last, c->err.len ? &c->err : &c->out);
	ret = error_code(WW_ECHILD, "%s%s%s", msg.buf, last.len ? ": " : "",
			 last.buf);
	strbuf_release(&last);
	strbuf_release(&msg);
	return ret;
}

int child_run_ok(struct child *c)
{
	int ret = child_run(c);

	if (ret < 0 || !c->status)
		return ret;
	return child_error(c, "'%s' failed with status %d", c->args.v[0], c->status);
}
