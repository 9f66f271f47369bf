/*
 * The sendemail-validate hook: see hook.h.
 */
#include "hook.h"
#include "accept.h"
#include "check.h"
#include "datadir.h"
#include "gitlib.h"
#include "mkdirs.h"
#include "mbox.h"
#include "report.h"
#include "series.h"
#include "template.h"

#include <fcntl.h>
#include <limits.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

/* A format-patch file is at most this big. */
#define HOOK_MAIL_MAX (64u << 20)

int hook_dir(struct strbuf *out, const char *repo_path)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	git_buf buf = GIT_BUF_INIT;
	const char *top;
	int ret;

	gitlib_init();
	if (repo_path)
		ret = git_repository_open_ext(&repo, repo_path, 0, NULL);
	else
		ret = git_repository_open_ext(&repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (ret < 0)
		return error_code(WW_EINPUT, "not a git repository: %s", gitlib_error());
	ret = git_repository_config_snapshot(&cfg, repo);
	if (ret == 0 && git_config_get_path(&buf, cfg, "core.hooksPath") == 0 && buf.size) {
		top = git_repository_workdir(repo);
		if (!top)
			top = git_repository_path(repo);
		strbuf_reset(out);
		if (buf.ptr[0] != '/')
			strbuf_addstr(out, top);
		strbuf_addstr(out, buf.ptr);
	} else {
		git_buf_dispose(&buf);
		error_clear();
		ret = git_repository_item_path(&buf, repo, GIT_REPOSITORY_ITEM_HOOKS);
		if (ret < 0) {
			ret = error_code(WW_EINPUT, "no hooks directory: %s", gitlib_error());
			goto out;
		}
		strbuf_reset(out);
		strbuf_addstr(out, buf.ptr);
	}
	strbuf_rtrim(out);
	while (out->len > 1 && out->buf[out->len - 1] == '/')
		strbuf_setlen(out, out->len - 1);
	ret = 0;
out:
	git_buf_dispose(&buf);
	git_config_free(cfg);
	git_repository_free(repo);
	return ret;
}

/* 'text' for sh, whatever it holds. */
static void sh_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/* Does the file at `path` hold the line `marker`? */
static bool has_line(const char *path, const char *marker)
{
	struct strbuf sb = STRBUF_INIT;
	bool yes = false;

	if (strbuf_read_file(&sb, path, 1 << 20) == 0)
		yes = strstr(sb.buf, marker) != NULL;
	error_clear();
	strbuf_release(&sb);
	return yes;
}

static bool is_ours(const char *path)
{
	return has_line(path, HOOK_MARKER);
}

static int render_hook(struct strbuf *out, const char *warnwatch, bool chained,
		       unsigned flags, bool made_dir)
{
	char dir[PATH_MAX + 16];
	struct tmpl_vars *v = tmpl_vars_new();
	struct strbuf q = STRBUF_INIT;
	int ret;

	sh_quote(&q, warnwatch);
	tmpl_set(v, "warnwatch", q.buf);
	/* Found beside the hook when it runs: the repository may move. */
	tmpl_set_bool(v, "chained", chained);
	tmpl_set(v, "chained_name", HOOK_CHAINED);
	tmpl_set_bool(v, "strict", flags & HOOK_STRICT);
	tmpl_set_bool(v, "made_dir", made_dir);
	ret = template_render_file(out, datadir_find(dir, sizeof(dir), "templates",
						     ENV_WARNWATCH_TEMPLATES, NULL),
				   HOOK_NAME ".sh", v, 0);
	if (ret >= 0 && !strstr(out->buf, HOOK_MARKER))
		ret = error_code(WW_EINPUT, "template '" HOOK_NAME ".sh' lacks the line '%.*s'",
				 (int)strlen(HOOK_MARKER) - 1, HOOK_MARKER);
	tmpl_vars_free(v);
	strbuf_release(&q);
	return ret;
}

/* Write `text` as an executable `path`: never over a file unless `replace`. */
static int write_exec(const char *path, const struct strbuf *text, bool replace)
{
	struct strbuf tmp = STRBUF_INIT;
	int ret = -1, fd;

	strbuf_addf(&tmp, "%s.warnwatch-tmp.%ld", path, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (fd < 0) {
		ret = error("cannot create '%s': %s", tmp.buf, strerror(errno));
		goto out;
	}
	if (write(fd, text->buf, text->len) != (ssize_t)text->len || fsync(fd) < 0) {
		ret = error("cannot write '%s': %s", tmp.buf, strerror(errno));
		close(fd);
		goto out_unlink;
	}
	close(fd);
	if (replace ? rename(tmp.buf, path) : link(tmp.buf, path)) {
		ret = error_code(errno == EEXIST ? WW_EDUP : WW_ERROR, "cannot create '%s': %s",
				 path, strerror(errno));
		goto out_unlink;
	}
	ret = 0;
out_unlink:
	unlink(tmp.buf);
out:
	strbuf_release(&tmp);
	return ret;
}

int hook_install(struct strbuf *what, const char *dir, const char *warnwatch,
		 unsigned flags)
{
	struct strbuf hook = STRBUF_INIT, chained = STRBUF_INIT, text = STRBUF_INIT;
	struct stat st;
	bool have_chained, have_hook, ours, made_dir;
	int ret;

	strbuf_addf(&hook, "%s/" HOOK_NAME, dir);
	strbuf_addf(&chained, "%s/" HOOK_CHAINED, dir);
	have_hook = lstat(hook.buf, &st) == 0;
	have_chained = lstat(chained.buf, &st) == 0;
	ours = have_hook && is_ours(hook.buf);
	if (ours && !(flags & HOOK_FORCE)) {
		ret = error_code(WW_EDUP, "'%s' is already warnwatch's hook "
				 "(--force writes it again)", hook.buf);
		goto out;
	}
	if (have_hook && !ours && have_chained) {
		ret = error_code(WW_EDUP, "'%s' is not warnwatch's, and '%s' is already taken: "
				 "move one of them away first", hook.buf, chained.buf);
		goto out;
	}
	/* A directory made here goes again with the hook (uninstall). */
	made_dir = ours ? has_line(hook.buf, HOOK_MADE_DIR) : stat(dir, &st) < 0;
	ret = mkdirs(dir, 0755, WW_ERROR);
	if (ret < 0)
		goto out;
	/*
	 * Only a hook that is really there is chained: our own hook being
	 * rewritten (--force) with nothing beside it chains nothing.
	 */
	ret = render_hook(&text, warnwatch, (have_hook && !ours) || have_chained, flags,
			  made_dir);
	if (ret < 0)
		goto out;
	if (have_hook && !ours) {
		/* Keep the old hook under the chained name: never lost. */
		if (link(hook.buf, chained.buf) || unlink(hook.buf)) {
			ret = error("cannot move '%s' to '%s': %s", hook.buf, chained.buf,
				    strerror(errno));
			goto out;
		}
	}
	ret = write_exec(hook.buf, &text, ours);
	if (ret < 0 && have_hook && !ours && rename(chained.buf, hook.buf) == 0)
		goto out;	/* put back as it was */
	if (ret < 0)
		goto out;
	strbuf_addf(what, "%s '%s'", ours ? "rewrote" : "installed", hook.buf);
	if (have_hook && !ours)
		strbuf_addf(what, "; the hook that was there is now '%s' and runs first",
			    chained.buf);
	else if (have_chained)
		strbuf_addf(what, "; it runs '%s' first", chained.buf);
	ret = 0;
out:
	strbuf_release(&hook);
	strbuf_release(&chained);
	strbuf_release(&text);
	return ret;
}

int hook_uninstall(struct strbuf *what, const char *dir)
{
	struct strbuf hook = STRBUF_INIT, chained = STRBUF_INIT;
	struct stat st;
	bool made_dir;
	int ret;

	strbuf_addf(&hook, "%s/" HOOK_NAME, dir);
	strbuf_addf(&chained, "%s/" HOOK_CHAINED, dir);
	if (lstat(hook.buf, &st)) {
		ret = error_code(WW_ENOTFOUND, "no hook '%s' to remove", hook.buf);
		goto out;
	}
	if (!is_ours(hook.buf)) {
		ret = error_code(WW_EINPUT, "'%s' is not warnwatch's hook: left alone", hook.buf);
		goto out;
	}
	made_dir = has_line(hook.buf, HOOK_MADE_DIR);
	if (unlink(hook.buf)) {
		ret = error("cannot remove '%s': %s", hook.buf, strerror(errno));
		goto out;
	}
	strbuf_addf(what, "removed '%s'", hook.buf);
	if (lstat(chained.buf, &st) == 0) {
		if (rename(chained.buf, hook.buf)) {
			ret = error("cannot move '%s' back to '%s': %s", chained.buf, hook.buf,
				    strerror(errno));
			goto out;
		}
		strbuf_addf(what, "; restored the hook it chained");
	} else if (made_dir && rmdir(dir) == 0) {
		strbuf_addf(what, "; removed the directory '%s' install made", dir);
	}
	ret = 0;
out:
	strbuf_release(&hook);
	strbuf_release(&chained);
	return ret;
}

/* The series of the mails in out->raw; WW_ENOTFOUND when none has a patch. */
static int parse_series(struct series *out)
{
	int ret = mbox_parse(&out->mails, out->raw.buf, out->raw.len);

	return ret < 0 ? ret : series_from_mails(out, &out->mails);
}

struct verdict {
	struct check_result block;	/* borrowed findings (v only is ours) */
	struct check_result warn;
	struct check_result accepted;	/* accepted by a trailer: said, sent */
};

static void keep(struct check_result *r, const struct finding *f)
{
	ALLOC_GROW(r->v, r->nr + 1, r->alloc);
	r->v[r->nr++] = *f;
	r->by_severity[f->severity]++;
}

/* Every call the file's patches add, by severity: check's, as in every format. */
static void judge(struct verdict *out, const struct check_result *r, unsigned flags)
{
	enum severity stop = flags & HOOK_STRICT ? SEV_WARNING : SEV_ERROR;

	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->accepted && f->accepted_severity >= SEV_WARNING)
			keep(&out->accepted, f);
		if (f->kind == FINDING_REMOVED || f->severity < SEV_WARNING)
			continue;
		if (f->severity >= stop)
			keep(&out->block, f);
		else
			keep(&out->warn, f);
	}
}

int hook_validate(FILE *err, const char *path, struct ruleset *rules, unsigned flags)
{
	struct series one = SERIES_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts opts = CHECK_OPTS_INIT;
	struct report_opts ropts = REPORT_OPTS_INIT;
	struct verdict v = { .block = CHECK_RESULT_INIT, .warn = CHECK_RESULT_INIT,
			     .accepted = CHECK_RESULT_INIT };
	const struct series_patch *p;
	int ret;

	ret = strbuf_read_file(&one.raw, path, HOOK_MAIL_MAX);
	if (ret < 0) {
		fprintf(err, "warnwatch: %s\n", error_last());
		ret = 2;
		goto out;
	}
	ret = parse_series(&one);
	if (ret == WW_ENOTFOUND || (ret == 0 && one.nr == 0)) {
		ret = 0;	/* a cover letter, or no patch at all: silence */
		goto out;
	}
	if (ret < 0) {
		fprintf(err, "warnwatch: '%s' not checked: %s\n", path, error_last());
		ret = 0;
		goto out;
	}
	p = &one.patches[0];
	if (!p->diff_len) {
		ret = 0;
		goto out;
	}
	/*
	 * The file alone: git 2.39 tells the hook nothing of the other files
	 * of the send (not which, not how many), and a file beside this one
	 * may never be sent.  A call a later patch converts blocks here as it
	 * fails everywhere else (docs/check.md).
	 */
	opts.rules = rules;
	ret = check_series(&r, &one, &opts);
	if (ret < 0) {
		fprintf(err, "warnwatch: '%s' not checked: %s\n", path, error_last());
		ret = 0;
		goto out;
	}
	judge(&v, &r, flags);
	/* a trailer that accepts nothing is a warning (accept.h) */
	v.warn.stale = r.stale;
	v.warn.nr_stale = r.nr_stale;
	ropts.quiet = true;
	if (v.accepted.nr) {
		fprintf(err, "warnwatch: %s: %zu call%s accepted by the patch's "
			ACCEPT_KEY ": trailer (sent):\n", p->subject, v.accepted.nr,
			v.accepted.nr == 1 ? "" : "s");
		report_text(err, path, &one, &v.accepted, &ropts);
	}
	if (v.warn.nr + v.warn.nr_stale) {
		fprintf(err, "warnwatch: %s: %zu warning%s (not blocking%s):\n", p->subject,
			v.warn.nr + v.warn.nr_stale, v.warn.nr + v.warn.nr_stale == 1 ? "" : "s",
			flags & HOOK_STRICT ? "" : "; `warnwatch hook install --strict --force` blocks them");
		report_text(err, path, &one, &v.warn, &ropts);
	}
	/* --strict: a stale trailer blocks as a warning does */
	if (v.block.nr || ((flags & HOOK_STRICT) && r.nr_stale)) {
		if (v.block.nr) {
			fprintf(err, "warnwatch: %s: %zu new call%s at %s level; nothing is sent:\n",
				p->subject, v.block.nr, v.block.nr == 1 ? "" : "s",
				flags & HOOK_STRICT ? "warning or error" : "error");
			report_text(err, path, &one, &v.block, &ropts);
		} else {
			fprintf(err, "warnwatch: %s: a " ACCEPT_KEY ": trailer that accepts "
				"nothing (--strict); nothing is sent\n", p->subject);
		}
		fprintf(err, "warnwatch: fix the patch (`warnwatch check --suggest --tree DIR '%s'`, "
			"with DIR a kernel tree this patch applies to, prints a gentler form "
			"compiled there)%s;\n"
			"warnwatch: a call that must stay: a '" ACCEPT_KEY ": FILE:FUNCTION REASON' "
			"trailer in its commit message accepts it (docs/check.md);\n"
			"warnwatch: to send anyway: git send-email --no-validate ...\n",
			path, p->total > 1 ?
			"; if a later patch of the series converts the call, fold that change into "
			"this patch: each patch must stand on its own (bisection)" : "");
		ret = 1;
	} else {
		ret = 0;
	}
out:
	free(v.block.v);
	free(v.warn.v);
	free(v.accepted.v);
	check_result_clear(&r);
	series_release(&one);
	return ret;
}
