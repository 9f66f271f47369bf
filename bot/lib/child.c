/*
 * Running other programs with argv, a deadline and captured output.
 * See child.h for the contract.
 */
#include "child.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
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

/* In the forked child: never returns. */
static void exec_child(const struct child *c, int in_fd, int out_fd,
		       int err_fd, int report_fd, const char **envp)
{
	int saved;

	setpgid(0, 0);
	reset_signals();
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		goto fail;
	close_inherited(report_fd);
	if (c->dir && chdir(c->dir) < 0)
		goto fail;
	execvpe(c->args.v[0], (char *const *)c->args.v, (char *const *)envp);
fail:
	saved = errno;
	if (write(report_fd, &saved, sizeof(saved)) < 0)
		_exit(127);
	_exit(127);
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
	int status = 0, exec_errno = 0, ret = -1;
	int out_fd, err_fd;
	pid_t pid;

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
		exec_child(c, c->in ? p.in[0] : p.in[0], out_fd, err_fd,
			   p.report[1], envp.v);
	setpgid(pid, pid);
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
	pump(c, &p, pid, start + (c->timeout_ms ? c->timeout_ms :
				  CHILD_DEFAULT_TIMEOUT_MS) / 1000.0);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* Leave nothing behind: stragglers in the child's group go too. */
	kill(-pid, SIGKILL);
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
