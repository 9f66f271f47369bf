/*
 * Running b4 to fetch a series: private configuration, a deadline, and
 * the checks that turn b4's free-form output into one clear error.
 * See b4.h.
 */
#include "b4.h"
#include "env.h"
#include "intake.h"
#include "config.h"
#include "child.h"
#include "datadir.h"
#include "mkdirs.h"
#include "msgid.h"
#include "rmtree.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *program(const struct b4_opts *o)
{
	const char *env = env_get(ENV_WARNWATCH_B4);

	if (env && *env)
		return env;
	return o->program ? o->program : "b4";
}

/* A git config value in double quotes; newlines cannot be written. */
static int add_value(struct strbuf *out, const char *key, const char *v)
{
	if (strpbrk(v, "\r\n"))
		return error_code(WW_EINPUT, "b4 setting '%s' contains a newline", key);
	strbuf_addf(out, "\t%s = \"", key);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *v);
	}
	strbuf_addstr(out, "\"\n");
	return 0;
}

int b4_gitconfig(struct strbuf *out, const struct b4_opts *o)
{
	struct strbuf search = STRBUF_INIT;
	int ret = 0;

	if (!o->midmask || !strstr(o->midmask, "%s"))
		return error_code(WW_EINPUT, "the archive URL mask '%s' needs a '%%s'",
				  o->midmask ? o->midmask : "");
	if (o->searchmask) {
		strbuf_addstr(&search, o->searchmask);
	} else {
		/* ".../all/%s" -> ".../all/?x=m&t=1&q=%s": public-inbox search.
		 * Always set: b4's default searches lore.kernel.org. */
		const char *pct = strstr(o->midmask, "%s");

		strbuf_add(&search, o->midmask, pct - o->midmask);
		strbuf_addstr(&search, "?x=m&t=1&q=%s");
	}
	strbuf_addstr(out, "# written by warnwatch for one b4 run\n[b4]\n");
	ret = add_value(out, "midmask", o->midmask);
	if (!ret)
		ret = add_value(out, "linkmask", o->linkmask ? o->linkmask : o->midmask);
	if (!ret)
		ret = add_value(out, "searchmask", search.buf);
	/* No DNS look-ups for DKIM, no failing on unsigned mail. */
	if (!ret)
		ret = add_value(out, "attestation-policy", "off");
	if (!ret)
		ret = add_value(out, "attestation-check-dkim", "no");
	if (!ret) {
		strbuf_addstr(out, "[user]\n");
		ret = add_value(out, "name", o->user_name && *o->user_name ?
				o->user_name : "warnwatch");
	}
	/* Without user.email, b4 am stops silently after the first patch. */
	if (!ret)
		ret = add_value(out, "email", o->user_email && *o->user_email ?
				o->user_email : "warnwatch@localhost");
	strbuf_release(&search);
	return ret;
}

int b4_first_msgid(struct strbuf *out, const char *mbox, size_t len)
{
	const char *p = mbox, *end = mbox + len;

	strbuf_reset(out);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct strbuf v = STRBUF_INIT;
		int ret;

		if (!n && p != mbox)
			break;		/* end of the first header block */
		if (n >= 11 && !strncasecmp(p, "Message-Id:", 11)) {
			strbuf_add(&v, p + 11, n - 11);
			/* A folded value continues on the next line. */
			if (nl && nl + 1 < end && (nl[1] == ' ' || nl[1] == '\t')) {
				const char *nl2 = memchr(nl + 1, '\n', end - nl - 1);

				strbuf_add(&v, nl + 1, (nl2 ? nl2 : end) - nl - 1);
			}
			ret = msgid_normalize(out, v.buf);
			strbuf_release(&v);
			return ret;
		}
		p += n + 1;
	}
	return WW_ENOTFOUND;
}

struct b4_run {
	char *dir;		/* private temp dir: config + outputs */
	struct strbuf config;
	const struct b4_opts *o;
};

/* Where b4's working directories go: $WARNWATCH_CACHE/b4-tmp. */
static void work_root(struct strbuf *out)
{
	datadir_cache(out, NULL);
	strbuf_addstr(out, "/b4-tmp");
}

void b4_sweep(void)
{
	struct strbuf root = STRBUF_INIT, p = STRBUF_INIT;
	DIR *d;
	struct dirent *de;

	work_root(&root);
	d = opendir(root.buf);
	while (d && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (pid <= 0 || *end != '.' || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;	/* its owner is alive (or not ours to ask) */
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", root.buf, de->d_name);
		rmtree(p.buf);	/* best effort: the next sweep tries again */
	}
	if (d)
		closedir(d);
	strbuf_release(&root);
	strbuf_release(&p);
}

static pthread_once_t sweep_once = PTHREAD_ONCE_INIT;

/*
 * A private directory <cache>/b4-tmp/<pid>.XXXXXX: the owner's pid in the
 * name, so that b4_sweep() (run before the process's first one) can
 * remove those a killed process left.
 */
static int run_init(struct b4_run *r, const struct b4_opts *o)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	r->o = o;
	r->dir = NULL;
	strbuf_init(&r->config, 0);
	pthread_once(&sweep_once, b4_sweep);
	work_root(&path);
	ret = mkdirs(path.buf, 0700, WW_ERROR);
	if (ret < 0) {
		strbuf_release(&path);
		return ret;
	}
	strbuf_addf(&path, "/%ld.XXXXXX", (long)getpid());
	if (!mkdtemp(path.buf)) {
		ret = error("cannot create a working directory '%s': %s",
			    path.buf, strerror(errno));
		strbuf_release(&path);
		return ret;
	}
	r->dir = strbuf_detach(&path, NULL);
	ret = b4_gitconfig(&r->config, o);
	if (!ret) {
		strbuf_addf(&path, "%s/gitconfig", r->dir);
		ret = strbuf_write_file(&r->config, path.buf);
		strbuf_release(&path);
	}
	return ret;
}

static void run_release(struct b4_run *r)
{
	if (r->dir)
		rmtree(r->dir);	/* best effort: b4_sweep() takes what is left */
	free(r->dir);
	r->dir = NULL;
	strbuf_release(&r->config);
}

static void setup_child(struct child *c, const struct b4_run *r)
{
	const struct b4_opts *o = r->o;

	strvec_push(&c->args, program(o));
	strvec_pushf(&c->env, "GIT_CONFIG_GLOBAL=%s/gitconfig", r->dir);
	strvec_push(&c->env, "GIT_CONFIG_NOSYSTEM=1");
	strvec_pushf(&c->env, "XDG_CACHE_HOME=%s", o->cache_dir && *o->cache_dir ?
		     o->cache_dir : r->dir);
	strvec_pushf(&c->env, "XDG_CONFIG_HOME=%s", r->dir);
	/* Not inside the caller's repository: its .git/config could
	 * override our masks. */
	strvec_pushf(&c->env, "GIT_CEILING_DIRECTORIES=%s", r->dir);
	strvec_pushl(&c->env, "GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG",
		     "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", (char *)NULL);
	strvec_push(&c->env, "PYTHONDONTWRITEBYTECODE=1");
	c->dir = r->dir;
	c->timeout_ms = (o->timeout_s ? o->timeout_s : B4_DEFAULT_TIMEOUT_S) * 1000;
	c->cap = 1u << 20;
}

/* The archive's host part of the midmask, for messages. */
static void archive_name(struct strbuf *out, const struct b4_opts *o)
{
	const char *m = o->midmask ? o->midmask : "", *pct = strstr(m, "%s");

	strbuf_add(out, m, pct ? (size_t)(pct - m) : strlen(m));
}

/* Turn a failed or odd b4 run into one error. */
static int diagnose(const struct child *c, int run_ret, const char *what,
		    const char *msgid, const struct b4_opts *o)
{
	struct strbuf arch = STRBUF_INIT;
	const char *err = c->err.buf;
	int ret;

	archive_name(&arch, o);
	if (run_ret == WW_ENOTFOUND) {
		ret = error_code(WW_ENOTFOUND, "cannot run '%s' (is b4 installed? apt-get install b4)",
				 c->args.v[0]);
	} else if (run_ret == WW_ETIMEOUT) {
		ret = error_code(WW_ETIMEOUT, "b4 did not get %s <%s> from '%s' within %u s",
				 what, msgid ? msgid : "", arch.buf, c->timeout_ms / 1000);
	} else if (run_ret) {
		ret = run_ret;
	} else if (strstr(err, "That message-id is not known") ||
		   strstr(err, "Could not find")) {
		ret = error_code(WW_ENOTFOUND, "message-id <%s> is not known to '%s'",
				 msgid ? msgid : "", o->mbox ? o->mbox : arch.buf);
	} else if (strstr(err, "ConnectionError") || strstr(err, "Connection refused") ||
		   strstr(err, "Max retries exceeded") || strstr(err, "NewConnectionError")) {
		ret = error_code(WW_ENET, "cannot reach the archive '%s'", arch.buf);
	} else if (strstr(err, "Unable to find revision")) {
		ret = error_code(WW_ENOTFOUND, "version %d of the series of <%s> is not in '%s'",
				 o->version, msgid ? msgid : "", o->mbox ? o->mbox : arch.buf);
	} else if (strstr(err, "No patches found")) {
		if (msgid && *msgid)
			ret = error_code(WW_ENOPATCH, "no patches in the thread of <%s>", msgid);
		else
			ret = error_code(WW_ENOPATCH, "no patches in '%s'",
					 o->mbox ? o->mbox : arch.buf);
	} else if (c->status) {
		ret = child_error(c, "b4 failed with status %d", c->status);
	} else {
		ret = child_error(c, "b4 wrote no %s for <%s>", what, msgid ? msgid : "");
	}
	strbuf_release(&arch);
	return ret;
}

/*
 * b4's file `name`, held to intake.h's caps before anyone parses it
 * (`what` names it in the error: "b4's series for <id>"); on WW_ETOOBIG
 * `out` keeps what b4 wrote.
 */
static int read_output(struct strbuf *out, const struct b4_run *r, const char *name,
		       bool must, const char *what, const char *msgid)
{
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT;
	size_t start = out->len;
	int ret;

	strbuf_addf(&path, "%s/%s", r->dir, name);
	ret = strbuf_read_file(out, path.buf, B4_MAX_BYTES);
	if (ret == WW_ENOTFOUND && !must) {
		error_clear();
		ret = 0;
	} else if (!ret) {
		strbuf_addf(&label, "b4's %s", what);
		if (msgid)
			strbuf_addf(&label, " <%s>", msgid);
		ret = intake_check(NULL, out->buf + start, out->len - start, label.buf);
	}
	strbuf_release(&path);
	strbuf_release(&label);
	return ret;
}

/* "ERROR: missing [2/3]!" -> " (missing [2/3])" for the message. */
static void missing_parts(struct strbuf *out, const char *err)
{
	const char *p = err;

	while ((p = strstr(p, "missing ["))) {
		const char *close = strchr(p, ']');

		if (!close)
			break;
		strbuf_addf(out, "%s%.*s", out->len ? ", " : " (", (int)(close - p + 1), p);
		p = close;
	}
	if (out->len)
		strbuf_addch(out, ')');
}

static int run_am(struct b4_series *out, struct b4_run *r, const char *msgid)
{
	const struct b4_opts *o = r->o;
	struct child c = CHILD_INIT;
	struct strbuf first = STRBUF_INIT;
	/* Errors name a real Message-ID: the mbox's first when none is given. */
	const char *label = msgid;
	int ret;

	if (!label && o->mbox) {
		if (!b4_first_msgid(&first, out->thread.buf, out->thread.len))
			label = first.buf;
		error_clear();
	}

	setup_child(&c, r);
	if (o->mbox)
		strvec_push(&c.args, "--offline-mode");
	strvec_pushl(&c.args, "--no-stdin", "am", (char *)NULL);
	if (o->mbox) {
		/*
		 * On standard input, not by name: b4 0.12 reads a named mbox
		 * with Python's compat32 policy, keeps a folded Subject's
		 * line break, and then dies setting it ("Header values may
		 * not contain linefeed"), which is every long format-patch
		 * subject.  "-m -" goes through its mailsplit, which unfolds.
		 */
		strvec_pushl(&c.args, "-m", "-", (char *)NULL);
		c.in = out->thread.buf;
		c.in_len = out->thread.len;
	} else
		strvec_push(&c.args, "-C");	/* fresh: a new version may have come */
	if (o->version > 0)
		strvec_pushf(&c.args, "-v%d", o->version);
	else if (!o->mbox)
		strvec_push(&c.args, "-c");	/* newest revision, even in another thread */
	strvec_pushl(&c.args, "-o", r->dir, "-n", "series", (char *)NULL);
	if (msgid)
		strvec_pushl(&c.args, "--", msgid, (char *)NULL);

	ret = child_run(&c);
	out->seconds += c.seconds;
	if (ret || c.status) {
		ret = diagnose(&c, ret, "the series", label, o);
		goto out;
	}
	ret = read_output(&out->mbx, r, "series.mbx", true, "series for", msgid);
	if (ret == WW_ENOTFOUND) {
		error_clear();
		ret = diagnose(&c, 0, "series", label, o);
		goto out;
	}
	if (ret)
		goto out;
	/* A saved file holds what its owner saved: one patch of a series
	 * alone is reviewed as it is (series_from_mails() says what else is
	 * missing); an archive is expected to have the whole series. */
	if (!o->mbox &&
	    (strstr(c.err.buf, "Thread incomplete") || strstr(c.err.buf, "ERROR: missing ["))) {
		struct strbuf parts = STRBUF_INIT;

		missing_parts(&parts, c.err.buf);
		ret = error_code(WW_EINPUT, "the series of <%s> is incomplete in the archive%s",
				 label ? label : "", parts.buf);
		strbuf_release(&parts);
		goto out;
	}
	ret = read_output(&out->cover, r, "series.cover", false, "cover letter for", msgid);
out:
	child_release(&c);
	strbuf_release(&first);
	return ret;
}

static int run_mbox(struct strbuf *out, struct b4_run *r, const char *msgid,
		    double *seconds)
{
	struct child c = CHILD_INIT;
	int ret;

	setup_child(&c, r);
	strvec_pushl(&c.args, "--no-stdin", "mbox", "-C", "-o", r->dir, "-n",
		     "thread.mbox", "--", msgid, (char *)NULL);
	ret = child_run(&c);
	if (seconds)
		*seconds += c.seconds;
	if (ret || c.status)
		ret = diagnose(&c, ret, "the thread", msgid, r->o);
	else
		ret = read_output(out, r, "thread.mbox", true, "thread of", msgid);
	if (ret == WW_ENOTFOUND && !c.status)
		ret = diagnose(&c, 0, "thread", msgid, r->o);
	child_release(&c);
	return ret;
}

int b4_fetch(struct b4_series *out, const char *msgid, const struct b4_opts *o)
{
	struct strbuf first = STRBUF_INIT;
	struct b4_opts local;
	struct b4_run r;
	int ret;

	if (msgid && !msgid_valid(msgid))
		return error_code(WW_EINPUT, "invalid message-id");
	if (!msgid && !o->mbox)
		return error_code(WW_EUSAGE, "a message-id is needed without --mbox");
	if (o->mbox) {
		/* A missing file is reported before b4 starts. */
		char *abs = realpath(o->mbox, NULL);

		if (!abs)
			return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
					  "cannot read '%s': %s", o->mbox, strerror(errno));
		local = *o;
		local.mbox = abs;
		o = &local;
	}
	ret = run_init(&r, o);
	if (ret)
		goto out;
	/* The file itself is the raw thread, headers untouched; b4 reads it
	 * from there (run_am). */
	if (o->mbox) {
		ret = strbuf_read_file(&out->thread, o->mbox, B4_MAX_BYTES);
		if (ret == WW_ETOOBIG) {
			/* not the path: it may be the caller's temporary copy */
			error_clear();
			ret = error_code(ret, "more than %u MiB", INTAKE_MAX_BYTES >> 20);
		}
		/* warnwatch's caps before b4's minutes; the caller names the file */
		if (!ret)
			ret = intake_check(NULL, out->thread.buf, out->thread.len, NULL);
		if (ret)
			goto out;
	}
	ret = run_am(out, &r, msgid);
	if (ret || o->mbox)
		goto out;
	/* b4 am rewrites headers (no To/Cc/References): get the originals
	 * of the series it chose, from its own thread. */
	ret = b4_first_msgid(&first, out->cover.len ? out->cover.buf : out->mbx.buf,
			     out->cover.len ? out->cover.len : out->mbx.len);
	if (ret) {
		ret = error_code(WW_ECHILD, "b4's series for <%s> has no Message-Id", msgid);
		goto out;
	}
	ret = run_mbox(&out->thread, &r, first.buf, &out->seconds);
out:
	run_release(&r);
	strbuf_release(&first);
	if (o == &local)
		free((char *)local.mbox);
	return ret;
}

int b4_thread(struct strbuf *out, const char *msgid, const struct b4_opts *o,
	      double *seconds)
{
	struct b4_run r;
	int ret;

	if (!msgid_valid(msgid))
		return error_code(WW_EINPUT, "invalid message-id");
	ret = run_init(&r, o);
	if (!ret)
		ret = run_mbox(out, &r, msgid, seconds);
	run_release(&r);
	return ret;
}

void b4_series_release(struct b4_series *s)
{
	strbuf_release(&s->mbx);
	strbuf_release(&s->cover);
	strbuf_release(&s->thread);
}

int b4_opts_from_config(struct b4_opts *out, struct strbuf *midmask,
			const struct config *cfg)
{
	const char *url = config_get(cfg, "archive", "url");
	const char *mask = config_get(cfg, "archive", "midmask");
	unsigned long timeout;
	int ret;

	if (mask && *mask) {
		strbuf_addstr(midmask, mask);
	} else {
		strbuf_addstr(midmask, url && *url ? url : B4_DEFAULT_ARCHIVE);
		if (midmask->buf[midmask->len - 1] != '/')
			strbuf_addch(midmask, '/');
		strbuf_addstr(midmask, "%s");
	}
	ret = config_get_uint(&timeout, cfg, "archive", "timeout",
			      B4_DEFAULT_TIMEOUT_S, 1, 3600);
	if (ret)
		return ret;
	out->midmask = midmask->buf;
	out->linkmask = config_get(cfg, "archive", "linkmask");
	out->searchmask = config_get(cfg, "archive", "searchmask");
	out->user_name = config_get(cfg, "identity", "name");
	out->user_email = config_get(cfg, "identity", "email");
	out->timeout_s = (unsigned int)timeout;
	return 0;
}
