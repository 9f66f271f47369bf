/*
 * warnwatch ci: the pipeline from a series to a boot verdict (see ci.h)
 * that applies, builds and boots (ci_run, at the end), and the choice of
 * base trees.  Attribution is ci-attribute.c's, deciding the verdict
 * ci-verdict.c's, its words ci-words.c's, its JSON ci-json.c's.
 */
#include "ci-priv.h"
#include "env.h"
#include "mkdirs.h"
#include "gitlib.h"
#include "diff.h"

#include "kapply.h"
#include "kboot.h"
#include "kbuild.h"
#include "ktree.h"
#include "gcov.h"
#include "kbase.h"
#include "kblame.h"
#include "kguest.h"
#include "quote.h"
#include "safefs.h"

#include <git2.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void ci_cache_dir(struct strbuf *out)
{
	ktree_cache_dir(out, NULL);
}

/* ---- the pipeline ---- */

struct ci_ctx {
	const struct ci_opts *opts;
	struct strbuf cache;
	struct strbuf logdir;	/* where this run's console logs go */
	double start;
	enum kboot_accel accel;
	struct kguest *guest;	/* the user space, or NULL: KUnit only */
	struct strbuf no_gcov;	/* why the counters are missing; "" when read */
	bool collected;		/* counters and fsck done after a boot */
};

static void progress(const struct ci_ctx *c, const char *fmt, ...)
	WW_PRINTF(2, 3);
static void progress(const struct ci_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (!(c->opts->flags & CI_PROGRESS))
		return;
	fprintf(stderr, "warnwatch ci: [%4.0fs] ", monotonic_now() - c->start);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * What a pruning of the cache did (ci_prune_logs(), ci_prune_base_logs():
 * `n` removed or an error).  A failure costs disk space, never the
 * verdict: a warning, and the next run tries again.
 */
static void pruned(const struct ci_ctx *c, int n, const char *what,
		   const char *dir)
{
	if (n < 0) {
		warning("pruning %s in '%s': %s", what, dir, error_last());
		error_clear();
	} else if (n) {
		progress(c, "pruned %s in %s: %d removed", what, dir, n);
	}
}

/*
 * "<cache>/ci/logs/20260103-081500-1234": one per run, the newest
 * keep-logs kept (ci_prune_logs()).
 */
static int make_logdir(struct ci_ctx *c)
{
	struct strbuf logs = STRBUF_INIT;
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	int ret;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	strbuf_addf(&c->logdir, "%s/ci/logs/%s-%ld", c->cache.buf, stamp,
		    (long)getpid());
	ret = mkdirs(c->logdir.buf, 0755, WW_ERROR);
	if (ret < 0)
		return ret;
	/* The old runs' directories, once this run has its own. */
	strbuf_addf(&logs, "%s/ci/logs", c->cache.buf);
	pruned(c, ci_prune_logs(logs.buf, c->logdir.buf + logs.len + 1,
				c->opts->keep_logs ? c->opts->keep_logs :
				CI_KEEP_LOGS), "old run directories", logs.buf);
	strbuf_release(&logs);
	return 0;
}

/* "6.1" -> Debian's tarball; a path is taken as it is. */
static void tarball_for(struct strbuf *out, const char *tree)
{
	if (!tree)
		return;
	if (strchr(tree, '/'))
		strbuf_addstr(out, tree);
	else
		strbuf_addf(out, "/usr/src/linux-source-%s.tar.xz", tree);
}

static int boot(struct ci_ctx *c, struct kboot_result *res, const char *kernel,
		const char *console, bool panic_on_warn)
{
	struct kboot_opts ko = KBOOT_OPTS_INIT;
	int ret;

	if (!panic_on_warn)
		ko.max_console = CI_SECOND_BOOT_MAX_CONSOLE;
	if (c->guest) {
		ko.initrd = c->guest->initrd;
		kguest_drives(&ko.drives, c->guest);
		ko.timeout_s = c->opts->boot_timeout_s ? c->opts->boot_timeout_s :
			       KGUEST_KUNIT_S + c->guest->deadline_s;
	}

	ko.kernel = kernel;
	ko.console_path = console;
	ko.accel = c->accel;
	ko.cache_dir = c->cache.buf;
	ko.panic_on_warn = panic_on_warn;
	if (!ko.timeout_s)
		ko.timeout_s = c->opts->boot_timeout_s;
	progress(c, "booting with panic_on_warn=%d (%s), console: %s",
		 panic_on_warn, kboot_accel_name(c->accel), console);
	ret = kboot_run(res, &ko);
	kboot_opts_release(&ko);
	return ret;
}

static enum kboot_accel accel_option(const char *s)
{
	if (s && !strcmp(s, "kvm"))
		return KBOOT_ACCEL_KVM;
	if (s && !strcmp(s, "tcg"))
		return KBOOT_ACCEL_TCG;
	return KBOOT_ACCEL_AUTO;
}

static int pick_accel(struct ci_ctx *c, struct ci_verdict *out, const char *kernel)
{
	struct kboot_opts ko = KBOOT_OPTS_INIT;
	struct strbuf why = STRBUF_INIT;
	int ret;

	ko.kernel = kernel;
	ko.accel = accel_option(c->opts->accel);
	ko.cache_dir = c->cache.buf;
	ret = kboot_probe_accel(&c->accel, &why, &ko);
	if (!ret) {
		progress(c, "accelerator: %s (%s)", kboot_accel_name(c->accel), why.buf);
		out->accel = xstrdup(kboot_accel_name(c->accel));
	}
	strbuf_release(&why);
	kboot_opts_release(&ko);
	return ret;
}

/* The added call as it reads in the final tree, when check had none
 * (f->file is named by the console: read beneath the tree, safefs.h). */
static void read_sources(struct ci_verdict *v, const char *worktree)
{
	for (size_t i = 0; i < v->nr_fired; i++) {
		struct ci_fired *f = &v->fired[i];
		struct strbuf text = STRBUF_INIT;
		const char *p;
		int line = 1;

		if (!f->added_by_series || f->source || !f->file)
			continue;
		/* f->file comes from the console: beneath the tree only,
		 * whatever links the series left there. */
		if (safefs_read(&text, worktree, f->file, 8u << 20, 0) < 0) {
			error_clear();
			goto next;
		}
		for (p = text.buf; *p && line < f->tree_line; p++)
			if (*p == '\n')
				line++;
		if (line == f->tree_line) {
			size_t n = strcspn(p, "\n");

			while (n && (p[n - 1] == ';' || p[n - 1] == ' ' ||
				     p[n - 1] == '{' || p[n - 1] == '\t'))
				n--;
			while (n && (*p == ' ' || *p == '\t')) {
				p++;
				n--;
			}
			if (n && n < 200)
				f->source = xstrndup(p, n);
		}
next:
		strbuf_release(&text);
	}
}

/*
 * What the guest runs, as a key for the base boot's cache: the KUnit-only
 * boot is "kunit"; else a hash of the kselftests, workloads and images
 * and of the scripts that run them (kguest_test_set()).
 */
static int test_set_key(struct strbuf *out, const struct kguest *g)
{
	struct strbuf text = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;
	int ret;

	if (!g) {
		strbuf_addstr(out, "kunit");
		return 0;
	}
	ret = kguest_test_set(&text, g);
	if (ret < 0)
		goto out;
	gitlib_init();
	if (git_odb_hash(&oid, text.buf, text.len, GIT_OBJECT_BLOB) < 0)
		BUG("git_odb_hash failed");
	git_oid_tostr(hex, sizeof(hex), &oid);
	strbuf_add(out, hex, 12);
out:
	strbuf_release(&text);
	return ret;
}

/*
 * The unpatched kernel's boot (panic_on_warn=0) with the same config and
 * the same KUnit suites, kselftests and workloads as the patched one:
 * cached as <cache>/ci/base-<version>-<confighash>-<tests>.log, so it is
 * built and booted once per base build and test set (scripts included),
 * the CI_KEEP_BASE_LOGS most recently used kept;
 * v->base_cached says whether the cache answered.  Leaves the worktree at
 * the base when it builds.
 */
static int base_boot(struct ci_ctx *c, struct console_result *out,
		     struct ktree *t, const struct kapply_result *ap,
		     const struct kbuild_result *kb, struct ci_verdict *v)
{
	struct strbuf log = STRBUF_INIT, tmp = STRBUF_INIT, dir = STRBUF_INIT;
	struct kbuild_opts bo = KBUILD_OPTS_INIT;
	struct kbuild_result base = KBUILD_RESULT_INIT;
	struct kboot_result res = KBOOT_RESULT_INIT;
	double t0 = monotonic_now();
	int ret;

	strbuf_addf(&log, "%s/ci/base-%s-%s-", c->cache.buf, t->version,
		    kb->config_hash ? kb->config_hash : "none");
	ret = test_set_key(&log, c->guest);
	if (ret < 0)
		goto out;
	strbuf_addstr(&log, ".log");
	v->base_log = xstrdup(log.buf);
	if (!access(log.buf, R_OK)) {
		progress(c, "base boot: cached in %s", log.buf);
		v->base_cached = true;
		/* Used again: the newest by mtime are kept (ci_prune_base_logs());
		 * a failure only makes it look older. */
		utimensat(AT_FDCWD, log.buf, NULL, 0);
		ret = console_parse_file(out, log.buf);
		goto out;
	}
	progress(c, "building the unpatched base with the same config");
	ret = ktree_checkout(t, &t->base);
	if (ret < 0)
		goto out;
	bo.touched = &ap->touched;
	bo.progress = c->opts->flags & CI_PROGRESS;
	ret = kbuild_run(&base, t, &bo);
	if (ret < 0) {
		ret = error_prefix(ret, "building the unpatched base");
		goto out;
	}
	strbuf_addf(&tmp, "%s.tmp", log.buf);
	if (c->guest) {
		/* Fresh images and gcov disk: the same tests as the patched boot. */
		ret = kguest_reset_disks(c->guest);
		if (ret < 0)
			goto out;
	}
	ret = boot(c, &res, base.bzimage, tmp.buf, false);
	if (ret < 0)
		goto out;
	if (rename(tmp.buf, log.buf) < 0) {
		ret = error("cannot rename '%s': %s", tmp.buf, strerror(errno));
		goto out;
	}
	/* The old ones, now that there is a new one. */
	strbuf_addf(&dir, "%s/ci", c->cache.buf);
	pruned(c, ci_prune_base_logs(dir.buf, CI_KEEP_BASE_LOGS),
	       "old base boot logs", dir.buf);
	ret = console_parse_file(out, log.buf);
out:
	v->t.base_boot = monotonic_now() - t0;
	unlink(tmp.buf);
	strbuf_release(&log);
	strbuf_release(&tmp);
	strbuf_release(&dir);
	kbuild_result_release(&base);
	kboot_result_release(&res);
	return ret;
}


/*
 * Boot the patched kernel once more (panic_on_warn=0, fresh disks) to
 * tell a flaky report or test failure from a real one.
 */
static int rerun_boot(struct ci_ctx *c, struct ci_verdict *v, const char *kernel)
{
	struct kboot_result res = KBOOT_RESULT_INIT;
	struct console_result con = CONSOLE_RESULT_INIT;
	struct strbuf path = STRBUF_INIT;
	int ret = 0;

	if (c->guest)
		ret = kguest_reset_disks(c->guest);
	strbuf_addf(&path, "%s/boot-rerun.log", c->logdir.buf);
	progress(c, "booting again: a report or a failed test the series did "
		 "not add (flaky?)");
	if (!ret)
		ret = boot(c, &res, kernel, path.buf, false);
	v->t.rerun = res.seconds;
	if (!ret)
		ret = console_parse_file(&con, path.buf);
	if (!ret)
		ci_compare_rerun(v, &con);
	strbuf_release(&path);
	console_result_release(&con);
	kboot_result_release(&res);
	return ret;
}

/*
 * GCOV_PROFILE for the .c files the series adds calls to (kguest.h), as
 * a commit on top of the series, checked out for the build.
 */
static int gcov_lines(struct ci_ctx *c, struct ci_verdict *out, struct ktree *t,
		      const struct kapply_result *ap)
{
	struct strvec files = STRVEC_INIT;
	git_oid head;
	int ret;

	for (size_t i = 0; i < ci_verdict_findings(out)->nr; i++)
		if (ci_verdict_findings(out)->v[i].kind == FINDING_ADDED)
			strvec_push(&files, ci_verdict_findings(out)->v[i].file);
	ret = kguest_gcov_commit(&head, t, &ap->head, &files);
	if (!ret && !git_oid_equal(&head, &ap->head)) {
		progress(c, "gcov for the touched objects");
		ret = ktree_checkout(t, &head);
	}
	strvec_clear(&files);
	return ret;
}

/* Apply, build: a verdict when either fails (returns 1), else 0. */
static int apply_and_build(struct ci_ctx *c, struct ci_verdict *out,
			   struct ktree *t, const struct series *s,
			   struct kapply_result *ap, struct kbuild_result *kb)
{
	struct kbuild_opts bo = KBUILD_OPTS_INIT;
	double t0 = monotonic_now();
	int ret;

	progress(c, "applying %zu patch%s to linux %s", s->nr,
		 s->nr == 1 ? "" : "es", t->version);
	ret = kapply_series(ap, t, s);
	out->t.apply = monotonic_now() - t0;
	if (ret == WW_EAPPLY) {
		out->kind = CI_APPLY_FAILED;
		out->failed_patch = ap->fail.patch;
		ci_set_reason(out, "%s", error_last());
		out->failed_file = ap->fail.file ? xstrdup(ap->fail.file) : NULL;
		out->failed_hunk = ap->fail.hunk;
		error_clear();
		return 1;
	}
	if (ret < 0)
		return ret;
	if (ap->note.len)
		out->apply_note = xstrdup(ap->note.buf);
	free(out->applied);
	out->applied = xstrdup(ap->three_way ? "applied 3-way" : "applied");
	ret = ci_land(out, s, t->repo, ap);
	if (ret < 0)
		return ret;
	ret = gcov_lines(c, out, t, ap);
	if (ret < 0)
		return ret;
	progress(c, "building");
	t0 = monotonic_now();
	bo.touched = &ap->touched;
	bo.progress = c->opts->flags & CI_PROGRESS;
	ret = kbuild_run(kb, t, &bo);
	out->t.build = monotonic_now() - t0;
	for (size_t i = 0; i < kb->suites.nr; i++)
		strvec_push(&out->enabled, kb->suites.v[i]);
	for (size_t i = 0; i < kb->symbols.nr; i++)
		strvec_push(&out->config_added, kb->symbols.v[i]);
	if (ret == WW_EBUILD) {
		out->kind = CI_BUILD_FAILED;
		out->build_error = xstrdup(kb->error.len ? kb->error.buf : error_last());
		ci_set_reason(out, "the patched kernel does not build");
		error_clear();
		return 1;
	}
	if (ret == WW_ETIMEOUT) {
		out->kind = CI_ERROR;
		ci_set_reason(out, "%s", error_last());
		error_clear();
		return 1;
	}
	return ret;
}

static void images_to_verdict(struct ci_verdict *out, const struct kguest *g)
{
	for (size_t i = 0; i < g->nr_images; i++) {
		const struct kguest_image *im = &g->images[i];
		struct ci_image *ci;

		ALLOC_GROW(out->images, out->nr_images + 1, out->alloc_images);
		ci = &out->images[out->nr_images++];
		ci->name = xstrdup(im->name);
		ci->features = ci_xstrdup_or_null(im->features);
		ci->clean = im->clean;
		ci->fsck_output = im->clean ? NULL : xstrdup(im->fsck_output.buf);
		if (!im->clean && out->kind == CI_CLEAN) {
			out->kind = CI_FS_CORRUPTED;
			ci_set_reason(out, "e2fsck -fn finds image %s (%s) corrupted: %.*s",
				   im->name, im->features ? im->features : "",
				   (int)strcspn(im->fsck_output.buf, "\n"),
				   im->fsck_output.buf);
		}
	}
}

/*
 * After a boot whose /init finished: the .gcda files off the gcov disk,
 * e2fsck on every image.  Only once: the first boot that finished.
 */
static int collect(struct ci_ctx *c, struct ci_verdict *out,
		   const struct console_result *con)
{
	size_t nr = 0;
	int ret;

	if (!c->guest || c->collected || !con->init_done)
		return 0;
	c->collected = true;
	strbuf_reset(&c->no_gcov);
	if (!con->gcov_result || strcmp(con->gcov_result, "ok")) {
		strbuf_addf(&c->no_gcov, "kernel-ci/init copied no gcov counters "
			    "out of the guest (result=%s)",
			    con->gcov_result ? con->gcov_result : "missing");
	} else if (kguest_read_gcda(c->guest, &nr) < 0) {
		strbuf_addstr(&c->no_gcov, error_last());
		error_clear();
	}
	progress(c, "read %zu gcov counter file%s", nr, nr == 1 ? "" : "s");
	ret = kguest_fsck(c->guest);
	out->t.fsck = c->guest->fsck_seconds;
	if (ret < 0)
		return ret;
	images_to_verdict(out, c->guest);
	return 0;
}

/* Boot with panic_on_warn=1, and again with 0 when that panicked. */
static int boot_and_judge(struct ci_ctx *c, struct ci_verdict *out,
			  const struct series *s, const char *kernel)
{
	struct kboot_result res = KBOOT_RESULT_INIT, res2 = KBOOT_RESULT_INIT;
	struct console_result con = CONSOLE_RESULT_INIT, con2 = CONSOLE_RESULT_INIT;
	struct strbuf path = STRBUF_INIT;
	int ret;

	ret = pick_accel(c, out, kernel);
	if (ret < 0)
		goto out;
	strbuf_addf(&path, "%s/boot.log", c->logdir.buf);
	out->console = xstrdup(path.buf);
	ret = boot(c, &res, kernel, path.buf, true);
	out->t.boot = res.seconds;
	if (ret < 0) {
		out->kind = CI_ERROR;
		ci_set_reason(out, "%s", error_last());
		error_clear();
		ret = 0;
		goto out;
	}
	ret = console_parse_file(&con, path.buf);
	if (ret < 0)
		goto out;
	ci_decide(out, &con, res.timed_out);
	if (res.flooded && out->kind != CI_PANICKED && out->kind != CI_FIRED) {
		out->kind = CI_ERROR;
		ci_set_reason(out, "the kernel printed more than %u MB on its console "
			   "(a message in a loop?) and was stopped; last line: %s",
			   KBOOT_DEFAULT_MAX_CONSOLE >> 20,
			   con.last_line ? con.last_line : "");
	}
	ci_attribute(out, &con, true, s, NULL);
	ci_tests_from_console(out, &con);
	progress(c, "%s after %.1f s", ci_verdict_name(out->kind), res.seconds);
	ret = collect(c, out, &con);
	if (ret < 0)
		goto out;
	if (out->kind != CI_PANICKED || (c->opts->flags & CI_NO_SECOND_BOOT))
		goto out;
	if (c->guest) {
		ret = kguest_reset_disks(c->guest);
		if (ret < 0)
			goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/boot-panic_on_warn-0.log", c->logdir.buf);
	out->console2 = xstrdup(path.buf);
	ret = boot(c, &res2, kernel, path.buf, false);
	out->t.boot2 = res2.seconds;
	if (ret < 0) {
		/* The verdict stands; the list of every WARNING is lost. */
		warning("second boot: %s", error_last());
		error_clear();
		ret = 0;
		goto out;
	}
	ret = console_parse_file(&con2, path.buf);
	if (ret < 0)
		goto out;
	ci_attribute(out, &con2, false, s, NULL);
	out->warn_flood = res2.flooded;
	if (res2.flooded && c->guest && !c->collected) {
		strbuf_reset(&c->no_gcov);
		strbuf_addf(&c->no_gcov, "the boot with panic_on_warn=0 was stopped "
			    "after %u MB of console output (WARNINGs in a loop) "
			    "before kernel-ci/init could copy the counters out",
			    CI_SECOND_BOOT_MAX_CONSOLE >> 20);
	}
	ret = collect(c, out, &con2);
out:
	strbuf_release(&path);
	console_result_release(&con);
	console_result_release(&con2);
	kboot_result_release(&res);
	kboot_result_release(&res2);
	return ret;
}

static int static_findings(struct ci_verdict *out, const struct series *s,
			   const struct ci_opts *opts)
{
	struct check_opts co = CHECK_OPTS_INIT;
	int ret;

	co.rules = opts->rules;
	out->rules = co.rules;
	if (opts->checked && co.rules) {
		/* checked by the caller, with the same rules: not again */
		out->findings = opts->checked;
		return 0;
	}
	if (!co.rules) {
		/* The findings borrow their rules: the verdict keeps them. */
		out->own_rules = xcalloc(1, sizeof(*out->own_rules));
		ret = rules_load(out->own_rules, rules_default_dir());
		if (ret < 0)
			return ret;
		co.rules = out->own_rules;
		out->rules = out->own_rules;
	}
	out->own_findings = xcalloc(1, sizeof(*out->own_findings));
	out->findings = out->own_findings;
	return check_series(out->own_findings, s, &co);
}

/* The Debian source tarballs we have: "6.1", "6.12" (sorted by kbase). */
static void available_bases(struct strvec *out)
{
	DIR *d = opendir("/usr/src");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		const char *v;
		size_t n;

		if (!skip_prefix(e->d_name, "linux-source-", &v))
			continue;
		n = strlen(v);
		if (n <= 7 || strcmp(v + n - 7, ".tar.xz"))
			continue;
		n -= 7;
		if (strspn(v, "0123456789.") >= n)
			strvec_pushf(out, "%.*s", (int)n, v);
	}
	if (d)
		closedir(d);
}

/* "v6.1.192" / "6.12-rc3" -> "6.1" / "6.12"; "" when not a release. */
static void release_of(struct strbuf *out, const char *base_commit)
{
	const char *p = base_commit;
	size_t n;

	if (!p)
		return;
	if (*p == 'v')
		p++;
	n = strspn(p, "0123456789");
	if (!n || p[n] != '.' || !strspn(p + n + 1, "0123456789"))
		return;
	n += 1 + strspn(p + n + 1, "0123456789");
	strbuf_add(out, p, n);
}

/* The tree --tree or $WARNWATCH_BASE_TARBALL names, or NULL. */
static const char *named_tree(const struct ci_opts *opts, const char **why)
{
	const char *env = env_get(ENV_WARNWATCH_BASE_TARBALL);

	const char *tree = opts->tree && !starts_with(opts->tree, "git:") ?
			   opts->tree : NULL;	/* "git:" is git_base()'s */

	*why = tree ? "--tree" : "$WARNWATCH_BASE_TARBALL";
	return tree ? tree : env && *env ? env : NULL;
}

/* The installed releases in the order to try them (kbase.h); `out` stays
 * empty when no linux-source tarball is installed. */
static int release_order(struct strvec *out, struct strbuf *why,
			 const struct series *s)
{
	struct strvec avail = STRVEC_INIT;
	int ret = 0;

	available_bases(&avail);
	if (avail.nr)
		ret = kbase_order(out, s->base_commit, &avail, why);
	strvec_clear(&avail);
	return ret;
}

/*
 * The trees to try, in order (kbase.h), and whether only the first counts:
 * --tree or $WARNWATCH_BASE_TARBALL name one; a base-commit: naming a
 * release we have names one too (a series written for v6.1 that does not
 * apply there is not tried on 6.12); otherwise newest first until one
 * applies.
 */
static int pick_bases(struct strvec *out, bool *only_first, struct ci_verdict *v,
		      const struct series *s, const struct ci_opts *opts)
{
	struct strbuf why = STRBUF_INIT, rel = STRBUF_INIT;
	const char *named_why, *named = named_tree(opts, &named_why);
	int ret = 0;

	*only_first = true;
	if (named) {
		strvec_push(out, named);
		v->base_why = xstrdup(named_why);
		goto out;
	}
	ret = release_order(out, &why, s);
	if (ret < 0)
		goto out;
	if (!out->nr) {
		strvec_push(out, "6.1");	/* ktree says what is missing */
		v->base_why = xstrdup("no /usr/src/linux-source-*.tar.xz found");
		goto out;
	}
	release_of(&rel, s->base_commit);
	*only_first = rel.len && !strcmp(out->v[0], rel.buf);
	v->own_base = *only_first;	/* the release base-commit: names */
	v->base_why = strbuf_detach(&why, NULL);
out:
	strbuf_release(&why);
	strbuf_release(&rel);
	return ret;
}

void ci_first_base(struct strbuf *out, const struct series *s,
		   const struct ci_opts *opts)
{
	struct strvec bases = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;
	const char *named_why;

	if (!named_tree(opts, &named_why) && release_order(&bases, &why, s) >= 0 &&
	    bases.nr)
		strbuf_addstr(out, bases.v[0]);
	strvec_clear(&bases);
	strbuf_release(&why);
}

/* "6.1.192-3f56d44cddd9" -> "6.1"; false when not a build directory. */
static bool build_release(struct strbuf *out, const char *name)
{
	size_t a = strspn(name, "0123456789"), b;

	if (!a || name[a] != '.')
		return false;
	b = strspn(name + a + 1, "0123456789");
	if (!b || (name[a + 1 + b] != '.' && name[a + 1 + b] != '-'))
		return false;
	strbuf_reset(out);
	strbuf_add(out, name, a + 1 + b);
	return true;
}

void ci_warm_bases(struct strbuf *out, const char *cache)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, rel = STRBUF_INIT;
	struct strvec seen = STRVEC_INIT;
	struct dirent *e;
	DIR *d;

	strbuf_addf(&dir, "%s/build", cache);
	d = opendir(dir.buf);
	while (d && (e = readdir(d))) {
		if (!build_release(&rel, e->d_name) || strvec_has(&seen, rel.buf))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/arch/x86/boot/bzImage", dir.buf, e->d_name);
		if (!access(path.buf, R_OK))
			strvec_push(&seen, rel.buf);
	}
	if (d)
		closedir(d);
	/* Sorted: the same set is the same string in every heartbeat. */
	strvec_sort(&seen);
	for (size_t i = 0; i < seen.nr; i++)
		strbuf_addf(out, "%s%s,", i ? "" : ",", seen.v[i]);
	strvec_clear(&seen);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&rel);
}

/* kernel-ci/known.json: a broken file is said, not a failed verdict. */
static void known_reports(struct ci_verdict *v)
{
	struct strbuf path = STRBUF_INIT;

	kbuild_config_dir(&path);
	strbuf_addstr(&path, "/known.json");
	if (ci_mark_known(v, path.buf) < 0) {
		warning("%s", error_last());
		error_clear();
	}
	strbuf_release(&path);
}

/*
 * An apply or build failure on a base that is not the series' own: the
 * series' fault, or the base's (kblame.h)?  A build failure is the base's
 * when its log names symbols the base tree lacks.
 */
static void blame(struct ci_verdict *out, struct ktree *t,
		  const struct kapply_result *ap, const struct kbuild_result *kb)
{
	struct strvec missing = STRVEC_INIT, whats = STRVEC_INIT;
	struct strbuf log = STRBUF_INIT;

	/* A refused series is refused on every base: it stays the series'. */
	if (out->own_base || ap->fail.refused)
		return;
	if (out->kind == CI_BUILD_FAILED) {
		if (!kb->log_path ||
		    strbuf_read_file(&log, kb->log_path, 16u << 20) < 0)
			strbuf_addstr(&log, out->build_error ? out->build_error : "");
		if (kblame_missing_symbols(&missing, &whats, log.buf, t->worktree,
					   &ap->touched, t->repo, &ap->base) < 0)
			error_clear();	/* then the error stays the series' */
	}
	kblame_classify(out, &missing, &whats);
	strvec_clear(&missing);
	strvec_clear(&whats);
	strbuf_release(&log);
}

/* Forget an apply failure before trying the next tree. */
static void clear_apply_failure(struct ci_verdict *v, const char *base,
				struct strbuf *tried)
{
	struct strbuf why = STRBUF_INIT;

	strbuf_addf(tried, "%sdoes not apply to linux %s (%s)",
		    tried->len ? "; " : "", base, v->reason ? v->reason : "");
	/* For the reply (issue 39): where it stopped, in words. */
	if (v->failed_patch > 0)
		strbuf_addf(&why, "patch %d/%d does not apply", v->failed_patch,
			    v->nr_patches);
	else
		strbuf_addstr(&why, "the series does not apply");
	if (v->failed_file) {
		strbuf_addf(&why, " (%s", v->failed_file);
		if (v->failed_hunk > 0)
			strbuf_addf(&why, ", hunk %d", v->failed_hunk);
		strbuf_addch(&why, ')');
	}
	strvec_push(&v->tried, base);
	strvec_push(&v->tried_why, why.buf);
	strbuf_release(&why);
	v->kind = CI_ERROR;
	free(v->failed_file);
	v->failed_file = NULL;
	v->failed_patch = v->failed_hunk = 0;
}

/* The guest's user space, or a note why there is none. */
static void prepare_guest(struct ci_ctx *c, struct ci_verdict *out,
			  struct kguest *g, struct ktree *t,
			  const struct kapply_result *ap,
			  const struct kbuild_result *kb)
{
	struct kguest_opts go = KGUEST_OPTS_INIT;
	struct strbuf dotconfig = STRBUF_INIT;

	if (c->opts->flags & CI_NO_USER_SPACE) {
		strbuf_addstr(&c->no_gcov, "booted without user space "
			      "(--no-user-space): nothing copied the counters out");
		return;
	}
	progress(c, "the guest's user space: kselftests, images, initramfs");
	strbuf_addf(&dotconfig, "%s/.config", kb->build_dir);
	go.cache_dir = c->cache.buf;
	go.dotconfig = dotconfig.buf;
	if (kguest_prepare(g, t, &ap->touched, c->logdir.buf, &go) < 0) {
		out->guest_error = xstrdup(error_last());
		strbuf_addf(&c->no_gcov, "the guest had no user space to copy the "
			    "counters out (%s)", error_last());
		error_clear();
	} else {
		c->guest = g;
		out->user_space = true;
		for (size_t i = 0; i < g->not_built.nr; i++)
			strvec_push(&out->not_built, g->not_built.v[i]);
		strbuf_addstr(&c->no_gcov, "the guest did not finish kernel-ci/init, "
			      "so its gcov counters were not copied out");
	}
	out->t.kselftests = g->kselftest_seconds;
	out->t.images = g->image_seconds;
	out->t.initramfs = g->initramfs_seconds;
	strbuf_release(&dotconfig);
}

/*
 * The git repository as the base (kbase_git()): --repo/[ci] repo, or a
 * tree "git:PATH#BRANCH".  1 with `t` open, 0 to go on with the Debian
 * trees (out->git_why says why), or an error.
 */
static int git_base(struct ci_ctx *c, struct ci_verdict *out, struct ktree *t,
		    const struct series *s, const struct ci_opts *opts)
{
	struct ktree_opts ko = KTREE_OPTS_INIT;
	struct strbuf repo = STRBUF_INIT, branch = STRBUF_INIT, why = STRBUF_INIT;
	const char *p;
	git_oid commit;
	bool own;
	double t0;
	int ret = 0;

	if (opts->tree && skip_prefix(opts->tree, "git:", &p)) {
		strbuf_add(&repo, p, strcspn(p, "#"));
		if (p[repo.len] == '#')
			strbuf_addstr(&branch, p + repo.len + 1);
	} else if (opts->repo && *opts->repo) {
		strbuf_addstr(&repo, opts->repo);
	}
	if (!repo.len)
		goto out;
	if (!branch.len && opts->branch)
		strbuf_addstr(&branch, opts->branch);
	ret = kbase_git(&commit, &own, &why, repo.buf, branch.buf, s->base_commit);
	if (ret <= 0) {
		out->git_why = strbuf_detach(&why, NULL);
		goto out;
	}
	ko.cache_dir = c->cache.buf;
	ko.repo = repo.buf;
	ko.keep_bases = opts->keep_bases;
	ko.progress = opts->flags & CI_PROGRESS;
	progress(c, "opening the base %.12s of %s", git_oid_tostr_s(&commit), repo.buf);
	t0 = monotonic_now();
	ret = ktree_open_git(t, &ko, &commit);
	out->t.tree += monotonic_now() - t0;	/* seeding a new base: a minute */
	if (ret < 0)
		goto out;
	out->own_base = own;
	free(out->base_why);
	out->base_why = strbuf_detach(&why, NULL);
	ret = 1;
out:
	strbuf_release(&why);
	strbuf_release(&branch);
	strbuf_release(&repo);
	return ret;
}

/*
 * Boot the built series and judge it, then what the verdict asks for:
 * the calls it reached, a second boot for a report that is not the
 * series', the base's boot to compare with.  Negative only when the
 * first boot could not be judged (our machinery).
 */
static int boot_and_compare(struct ci_ctx *c, struct ci_verdict *out, const struct series *s,
			    struct ktree *t, struct kapply_result *ap, struct kbuild_result *kb,
			    struct kguest *guest)
{
	struct console_result base = CONSOLE_RESULT_INIT;
	int ret;

	prepare_guest(c, out, guest, t, ap, kb);
	ret = boot_and_judge(c, out, s, kb->bzimage);
	if (ret < 0)
		return ret;
	read_sources(out, t->worktree);
	/* While the worktree is the patched tree (the base boot checks out the base). */
	ci_calls(out, s, t->worktree, kb->build_dir ? kb->build_dir : "",
		 guest->gcda_dir ? guest->gcda_dir : "",
		 c->no_gcov.len ? c->no_gcov.buf : NULL);
	if (ci_needs_rerun(out) && !(c->opts->flags & CI_NO_RERUN) &&
	    rerun_boot(c, out, kb->bzimage) < 0) {
		warning("booting again: %s", error_last());
		error_clear();
	}
	if ((ci_needs_base(out) || (c->opts->flags & CI_BASE_BOOT)) &&
	    !(c->opts->flags & CI_NO_BASE_BOOT)) {
		/* Without the base, the verdict stands; "preexisting" is unknown. */
		if (base_boot(c, &base, t, ap, kb, out) < 0) {
			out->base_error = xstrdup(error_last());
			error_clear();
		} else {
			ci_compare_base(out, &base);
		}
	}
	known_reports(out);
	console_result_release(&base);
	return 0;
}

/*
 * Open each of `bases` in turn and apply and build the series there,
 * until one takes it (or only the first is to be tried): a series that
 * does not apply on one release may on the next.  `t`, `ap` and `kb`
 * hold the last one tried; `tried` says which refused it.  Returns
 * apply_and_build()'s result, negative for our machinery.
 */
static int try_bases(struct ci_ctx *c, struct ci_verdict *out, struct ktree *t,
		     const struct series *s, struct kapply_result *ap,
		     struct kbuild_result *kb, const struct strvec *bases,
		     bool only_first, struct strbuf *tried)
{
	struct ktree_opts ko = KTREE_OPTS_INIT;
	struct strbuf tarball = STRBUF_INIT;
	double t0;
	int ret = 0;

	for (size_t i = 0; i < bases->nr; i++) {
		bool last = only_first || i + 1 == bases->nr;

		strbuf_reset(&tarball);
		tarball_for(&tarball, bases->v[i]);
		ko.cache_dir = c->cache.buf;
		ko.tarball = tarball.buf;
		ko.progress = c->opts->flags & CI_PROGRESS;
		progress(c, "opening the base tree %s (waits while another run "
			 "uses it)", bases->v[i]);
		t0 = monotonic_now();
		ret = ktree_open(t, &ko);
		out->t.tree += monotonic_now() - t0;
		if (ret < 0)
			break;
		free(out->base);
		out->base = xstrdup(t->version);
		ret = apply_and_build(c, out, t, s, ap, kb);
		if (ret <= 0 || out->kind != CI_APPLY_FAILED || last)
			break;
		clear_apply_failure(out, t->version, tried);
		kapply_result_release(ap);
		kbuild_result_release(kb);
		ktree_release(t);
	}
	strbuf_release(&tarball);
	return ret;
}

int ci_run(struct ci_verdict *out, const struct series *s,
	   const struct ci_opts *opts)
{
	struct ci_ctx c = { .opts = opts, .cache = STRBUF_INIT, .logdir = STRBUF_INIT,
			    .start = monotonic_now(), .accel = KBOOT_ACCEL_AUTO,
			    .no_gcov = STRBUF_INIT };
	struct ktree t = KTREE_INIT;
	struct kapply_result ap = KAPPLY_RESULT_INIT;
	struct kbuild_result kb = KBUILD_RESULT_INIT;
	struct kguest guest = KGUEST_INIT;
	struct strbuf tried = STRBUF_INIT;
	struct strvec bases = STRVEC_INIT;
	bool only_first;
	int ret;

	out->nr_patches = (int)s->nr;
	if (s->base_commit && *s->base_commit)
		out->base_commit = xstrdup(s->base_commit);
	ret = static_findings(out, s, opts);
	out->t.check = monotonic_now() - c.start;
	if (ret < 0)
		goto out;
	ktree_cache_dir(&c.cache, opts->cache_dir);
	ret = make_logdir(&c);
	if (ret < 0)
		goto out;
	ret = git_base(&c, out, &t, s, opts);
	if (ret < 0)
		goto out;
	if (ret > 0) {
		/* The git base: the one tree to try. */
		free(out->base);
		out->base = xstrdup(t.version);
		ret = apply_and_build(&c, out, &t, s, &ap, &kb);
		goto built;
	}
	ret = pick_bases(&bases, &only_first, out, s, opts);
	if (ret < 0)
		goto out;
	if (out->git_why) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%s%s", out->git_why, out->base_why);
		free(out->base_why);
		out->base_why = strbuf_detach(&why, NULL);
	}
	ret = try_bases(&c, out, &t, s, &ap, &kb, &bases, only_first, &tried);
	if (ret < 0)
		goto out;
built:
	if (ret > 0)
		blame(out, &t, &ap, &kb);
	if (tried.len) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%s; %s", out->base_why, tried.buf);
		free(out->base_why);
		out->base_why = strbuf_detach(&why, NULL);
	}
	if (ret < 0)
		goto out;	/* our machinery, not the series: no verdict */
	if (ret) {
		strbuf_addstr(&c.no_gcov, out->kind == CI_UNTESTABLE ?
			      "the series could not be tested on this base: nothing ran" :
			      out->kind == CI_APPLY_FAILED ?
			      "the series does not apply: nothing ran" :
			      out->kind == CI_BUILD_FAILED ?
			      "the patched kernel does not build: nothing ran" :
			      "the build did not finish: nothing ran");
		goto calls;
	}
	ret = boot_and_compare(&c, out, s, &t, &ap, &kb, &guest);
	goto out;
calls:
	ci_calls(out, s, t.worktree, kb.build_dir ? kb.build_dir : "",
		 guest.gcda_dir ? guest.gcda_dir : "",
		 c.no_gcov.len ? c.no_gcov.buf : NULL);
	ret = 0;
out:
	out->t.total = monotonic_now() - c.start;
	kbuild_result_release(&kb);
	kapply_result_release(&ap);
	kguest_release(&guest);
	ktree_release(&t);
	strbuf_release(&tried);
	strvec_clear(&bases);
	strbuf_release(&c.cache);
	strbuf_release(&c.logdir);
	strbuf_release(&c.no_gcov);
	return ret;
}
