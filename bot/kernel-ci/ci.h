/*
 * warnwatch ci: does a series' WARN really fire?  Apply the series to the
 * distro kernel, build it, boot it in QEMU with panic_on_warn=1 and say
 * which added line fired, during which KUnit suite.
 *
 * The pipeline: check (static findings) -> apply -> build -> boot with
 * panic_on_warn=1 -> (if it panicked) boot again with panic_on_warn=0 to
 * list every WARNING -> attribute each fired FILE:LINE to the series'
 * added lines (post-image of the final tree) and to the unpatched base
 * boot (cached once per config) -> verdict.
 *
 * `warnwatch ci` prints the verdict with ci_verdict_text() (ci-words.h,
 * the verdict in words); its JSON form (ci.json, the one verdict schema)
 * is ci-json.h's.
 */
#ifndef WW_CI_H
#define WW_CI_H

#include "check.h"
#include "console.h"
#include "kapply.h"
#include "series.h"
#include "strvec.h"

#include <jansson.h>

enum ci_verdict_kind {
	CI_CLEAN,		/* booted, ran the suites, nothing fired */
	CI_PANICKED,		/* a WARN/BUG fired and panic_on_warn panicked */
	CI_BUILD_FAILED,
	CI_APPLY_FAILED,
	CI_HUNG,		/* the boot deadline passed */
	CI_ERROR,		/* QEMU or the machinery failed: no verdict */
	CI_FS_CORRUPTED,	/* booted clean, but e2fsck -fn finds a workload's
				   file system corrupted afterwards */
	CI_UNTESTABLE,		/* the series could not be tested on the base we
				   have: it does not apply or build there, and that
				   base is not the one it was written for (reason
				   says why); never the series' fault */
	CI_FIRED,		/* a WARN/BUG (or another report) fired and the
				   boot went on without a panic: panic_on_warn=1
				   did not stop it, or the console lost the panic
				   line.  What fired is proof; never clean */
};

/* How many kinds there are: arrays indexed by kind, loops over them. */
#define CI_NR_KINDS (CI_FIRED + 1)

/* A test that ran in the guest: a KUnit suite, a kselftest, a workload. */
struct ci_test {
	char *name;		/* "time_test_cases", "cgroup:test_core", "workload:ext4" */
	const char *kind;	/* "kunit", "kselftest", "workload" (static) */
	const char *result;	/* "pass", "fail", "skip", "crashed" (static) */
	char *image;		/* a workload's image, or NULL */
	char *detail;		/* "timeout", "did not build", or NULL */
	const char *base_result; /* the same test on the unpatched kernel
				    (ci_compare_base()), or NULL: not run there */
	const char *rerun_result; /* a failed test run again (ci_compare_rerun()),
				     or NULL: not rerun */
};

/* A BUG/WARN-family call the series adds: did it run, did it fire. */
struct ci_call {
	char *file;		/* in the final tree */
	int line;		/* in its patch's post-image: what the author sees */
	int tree_line;		/* where it landed in the booted tree (base) */
	char *macro;		/* "WARN_ON_ONCE" */
	int patch;
	long long reached;	/* execution count, -1: not measured */
	char *reached_why;	/* why not measured, when reached < 0 */
	bool fired;
	char *suite;		/* the test running when it fired, or NULL */
};

/* A workload's file system image, checked with e2fsck -fn after the boot. */
struct ci_image {
	char *name;		/* "ext4-4k-default" */
	char *features;		/* mke2fs -O */
	bool clean;
	char *fsck_output;	/* corrupted: e2fsck's first lines */
};

/* One WARNING/BUG that fired, and whose fault it is. */
struct ci_fired {
	enum fired_kind kind;
	char *file;		/* NULL when the console did not say */
	int line;		/* added_by_series: in its patch's post-image,
				   else tree_line */
	int tree_line;		/* as the console says: in the booted tree */
	char *function;
	char *suite;		/* KUnit suite running when it fired, or NULL */
	char *test;		/* test case when known, or NULL */
	char *trace;		/* trimmed call trace */
	char *message;
	int patch;		/* series patch that added the line, 0 if none */
	bool added_by_series;	/* FILE:LINE is a line the series adds */
	bool preexisting;	/* the base boot fired the same FILE:FUNCTION */
	bool in_first_boot;	/* fired in the panic_on_warn=1 boot */
	char *source;		/* the added call as written, when a finding */
	/* Parent vs patched (0-day's table): how many times it fired in a
	 * patched boot (the most of any one boot) and in the base boot with
	 * the same tests; base_count -1: the base was not booted.  A line the
	 * series adds is not in the base: base_count 0 by construction. */
	int patched_count, base_count;
	char *fingerprint;	/* console_fingerprint() */
	char *known;		/* kernel-ci/known.json's note for the fingerprint
				   on this base, or NULL: new */
	int reproduced;		/* not the series': fired again when the patched
				   kernel was booted again (1), did not (0: flaky),
				   not rerun (-1) */
};

struct ci_suite {
	char *name;
	enum ktap_result result;
	int pass, fail, skip;
};

struct ci_timings {
	double check;		/* static findings */
	double tree;		/* opening the base tree: lock wait, first extract */
	double apply, build, boot, boot2, base_boot, total;
	double rerun;		/* the boot to tell flaky from real */
	double kselftests, images, initramfs, fsck; /* the guest's user space */
};

struct ci_verdict {
	enum ci_verdict_kind kind;
	char *base;		/* "6.1.192" */
	char *reason;		/* one line: why this verdict */
	char *accel;		/* "kvm" / "tcg" */
	char *console;		/* console log of the panic_on_warn=1 boot */
	char *console2;		/* of the panic_on_warn=0 boot, or NULL */
	char *panic_message;	/* "kernel: panic_on_warn set ..." or NULL */
	char *panic_suite;
	int planned_suites;	/* the boot's "1..N", -1 when it never said */
	struct ci_suite *suites; /* as reported by the decisive boot */
	size_t nr_suites, alloc_suites;
	struct strvec enabled;	/* suites selected for the touched files */
	struct strvec config_added; /* symbols enabled beyond base.config */
	struct ci_fired *fired;
	size_t nr_fired, alloc_fired;
	int warn_count;		/* WARNING blocks in the panic_on_warn=0 boot */
	bool warn_flood;	/* that boot was stopped at CI_SECOND_BOOT_MAX_CONSOLE:
				   warn_count is a lower bound */
	char *build_error;	/* first compiler error, for build-failed */
	char *apply_note;	/* e.g. why base-commit: was not used, or NULL */
	char *base_error;	/* the unpatched boot failed: preexisting unknown */
	int failed_patch;	/* apply-failed: 1-based patch, else 0 */
	char *failed_file;	/* apply-failed: file, or NULL */
	int failed_hunk;	/* apply-failed: 1-based hunk, or 0 */
	int nr_patches;
	/* The static findings (check), or NULL (a verdict read from JSON,
	 * see findings_doc): the caller's (ci_opts.checked, borrowed), or
	 * own_findings.  Read through ci_verdict_findings(). */
	const struct check_result *findings;
	struct check_result *own_findings; /* ci_run checked the series itself */
	struct ruleset *own_rules; /* rules ci_run loaded itself (no opts->rules):
				      findings point into them */
	struct ci_timings t;
	/* Issue 10: the guest's user space (fields past the INIT macro). */
	char *base_why;		/* why this base tree ("base-commit names v6.1") */
	bool user_space;	/* booted with kernel-ci/init and an initramfs */
	struct ci_test *tests;	/* every test that ran, in console order */
	size_t nr_tests, alloc_tests;
	struct ci_call *calls;	/* one per added BUG/WARN-family call */
	size_t nr_calls, alloc_calls;
	struct ci_image *images;
	size_t nr_images, alloc_images;
	struct strvec not_built; /* "target: first error" of kselftests that
				    did not (all) build */
	char *guest_error;	/* why the guest had no user space, or NULL */
	const struct ruleset *rules; /* the findings' rules (borrowed, or own_rules);
					NULL in a verdict read from JSON */
	struct ci_landed *landed; /* ci_land(): where the added lines landed */
	bool base_compared;	/* the base booted with the same tests */
	bool rerun;		/* the patched kernel booted once more */
	/* Issue 28. */
	bool own_base;		/* the base is the one the series names: its
				   base-commit: exactly, or the release it names */
	char *applied;		/* "applied", "applied 3-way", or NULL */
	char *git_why;		/* why the git repository gave no base, or NULL */
	/*
	 * Issue 25: a verdict read from JSON (ci_verdict_from_json) keeps
	 * the "findings" and "damaged" it read as they were, one object
	 * holding both arrays (its own reference), and ci_verdict_to_json()
	 * writes them out again unchanged; its `findings` stay empty and it
	 * has no rules.  Nobody who reads a verdict (review, serve's reply,
	 * the dashboard, kcover) looks at its findings: they have their own
	 * from check.  NULL in the verdict ci_run makes.
	 */
	json_t *findings_doc;
	/* Issue 26. */
	char *base_log;		/* the base boot's cached console, or NULL */
	bool base_cached;	/* the base boot came from that cache */
	/* Issue 39: the facts the untestable reply is written from. */
	char *base_commit;	/* the series' base-commit: trailer, or NULL */
	struct strvec tried;	/* trees tried before `base` ("6.12.118") ... */
	struct strvec tried_why; /* ... and why each did not fit, in words */
	struct strvec missing;	/* untestable: what the base lacks ("the
				   struct member 's_x'"), kblame.h */
};

#define CI_VERDICT_INIT { .kind = CI_ERROR, .planned_suites = -1, .enabled = STRVEC_INIT, \
			.config_added = STRVEC_INIT, \
			.not_built = STRVEC_INIT, .tried = STRVEC_INIT, \
			.tried_why = STRVEC_INIT, .missing = STRVEC_INIT }

/* v->findings, or no findings at all (a verdict read from JSON). */
static inline const struct check_result *ci_verdict_findings(const struct ci_verdict *v)
{
	static const struct check_result none = CHECK_RESULT_INIT;

	return v->findings ? v->findings : &none;
}

/* The panic_on_warn=0 boot only lists the WARNINGs: a WARN_ON() firing in
 * a loop need not be followed for long. */
#define CI_SECOND_BOOT_MAX_CONSOLE (1u << 20)

enum ci_flags {
	CI_PROGRESS = 1 << 0,	/* stage + elapsed time on stderr */
	CI_NO_SECOND_BOOT = 1 << 1, /* skip the panic_on_warn=0 boot */
	CI_NO_BASE_BOOT = 1 << 2, /* do not boot the base for comparison */
	CI_NO_USER_SPACE = 1 << 3, /* KUnit only: no initramfs, kselftests,
				      workloads or gcov counters */
	CI_NO_RERUN = 1 << 4,	/* do not boot again to tell flaky from real */
	CI_BASE_BOOT = 1 << 5,	/* boot the base even when nothing needs it:
				   every test gets its base result (make
				   bench-ci times the parent boot with it) */
};

struct ci_opts {
	const char *cache_dir;	/* NULL: $WARNWATCH_CACHE or ~/.cache/warnwatch */
	const char *tree;	/* a base tarball or version ("6.1"), NULL: default */
	struct ruleset *rules;	/* for the static findings (wrappers get added) */
	/*
	 * The series' findings when the caller has them: check_series() of
	 * the same series with `rules` and no tree (borrowed; it outlives
	 * the verdict).  NULL: ci_run checks the series itself.
	 */
	const struct check_result *checked;
	unsigned int boot_timeout_s; /* per boot; 0: KBOOT_DEFAULT_TIMEOUT_S */
	const char *accel;	/* "auto" (NULL), "kvm", "tcg" */
	unsigned int flags;	/* enum ci_flags */
	const char *repo;	/* a git kernel repository ([ci] repo, --repo), or
				   NULL; tree = "git:PATH#BRANCH" names one too */
	const char *branch;	/* its branch when base-commit: is not in it */
	unsigned int keep_bases; /* git bases kept; 0: KTREE_KEEP_BASES */
	unsigned int keep_logs;	/* run directories kept; 0: CI_KEEP_LOGS */
};

#define CI_OPTS_INIT { 0 }

/*
 * Run directories kept in <cache>/ci/logs ([ci] keep-logs), this run's
 * included: a few days of the service's series, up to 36 MB each.
 */
#define CI_KEEP_LOGS 32
/*
 * Parent-boot consoles kept (<cache>/ci/base-*.log, 40-90 KB each): one
 * per base build and test set, so a new script version or test set adds
 * one and the old ones are never asked for again.  64 covers the bases
 * and test sets in use many times over.
 */
#define CI_KEEP_BASE_LOGS 64

/* Whether `name` is a run directory's: "<%Y%m%d-%H%M%S>-<pid>". */
bool ci_is_run_dir_name(const char *name);

/*
 * Remove the oldest run directories in `logs_dir` (by the stamp in their
 * names) beyond the newest `keep`.  Only entries named as ci_run() names
 * them are counted or touched; never `current` (a name in `logs_dir`, or
 * NULL) nor the directory of a run another live process owns (its pid is
 * in the name).  Removal is rmtree()'s: links are removed, not followed.
 * Returns how many it removed, or the first failure (negative, with the
 * message set) after trying the rest.
 */
int ci_prune_logs(const char *logs_dir, const char *current, unsigned int keep);

/*
 * Remove the parent-boot consoles (regular files "base-*.log") in `ci_dir`
 * beyond the `keep` newest by mtime (a cache hit renews it).  Returns how
 * many it removed, or the first failure after trying the rest.
 */
int ci_prune_base_logs(const char *ci_dir, unsigned int keep);

/*
 * Run the whole pipeline on `s`.  Returns 0 whenever there is a verdict
 * (build-failed, apply-failed, hung... are verdicts in out->kind, not
 * errors); a negative code when warnwatch itself could not run (no base
 * tree, cannot write the cache), with the error message set.
 */
int ci_run(struct ci_verdict *out, const struct series *s,
	   const struct ci_opts *opts);

/*
 * Where each line the series adds landed in the tree that was booted:
 * the tree of each patch's commit (ap->commits, on ap->base in `repo`)
 * is diffed against its parent's with libgit2, and each line the patch
 * adds is matched, in order and by content, with a line that diff adds.
 * A hunk applied at an offset (or placed by libgit2 further down) moves
 * its lines; the patch's own numbers stay what the author sees.  Kept
 * in out->landed for ci_attribute() and ci_calls(); without it they take
 * the patches' own numbers as the tree's.
 */
int ci_land(struct ci_verdict *out, const struct series *s,
	    git_repository *repo, const struct kapply_result *ap);

/*
 * Fill out->fired from a parsed console and attribute each to the series:
 * `findings` (check_series on `s`) and the diffs of `s` give the added
 * lines of the final tree; `base` (may be NULL) is the unpatched boot.
 * Separate from ci_run() so that it can be tested on captured logs.
 */
void ci_attribute(struct ci_verdict *out, const struct console_result *boot,
		  bool first_boot, const struct series *s,
		  const struct console_result *base);

/*
 * Parent vs patched: `base` is the unpatched kernel's boot with the same
 * config, KUnit suites, kselftests and workloads (panic_on_warn=0).  Each
 * report the series did not add gets base_count (reports of the same
 * kind, file and function there) and is preexisting when it is not 0;
 * each test gets base_result, so that one failing on the base is marked,
 * not blamed.
 */
void ci_compare_base(struct ci_verdict *out, const struct console_result *base);

/*
 * Flaky: `rerun` is the patched kernel booted once more (panic_on_warn=0)
 * because a report the series did not add, or a failed test, was seen.
 * Sets fired[].reproduced of those reports and tests[].rerun_result of
 * the failed tests.  (Reports of the panic_on_warn=1 boot seen again in
 * the panic_on_warn=0 boot are reproduced already: ci_attribute().)
 */
void ci_compare_rerun(struct ci_verdict *out, const struct console_result *rerun);

/* Should the patched kernel be booted once more / the base be booted? */
bool ci_needs_rerun(const struct ci_verdict *v);
bool ci_needs_base(const struct ci_verdict *v);

/*
 * Mark fired[].known from `path` (kernel-ci/known.json): an object whose
 * keys are bases ("6.12.118", or a release "6.12" for all of its
 * versions) and whose values are arrays of {"fingerprint": ..., "note":
 * ...}.  A missing file is no error (nothing is known).  Errors: WW_EINPUT
 * for a file in another shape, naming it.
 */
int ci_mark_known(struct ci_verdict *out, const char *path);

/* Decide out->kind and out->reason from the panic_on_warn=1 boot. */
void ci_decide(struct ci_verdict *out, const struct console_result *boot,
	       bool timed_out);

/*
 * Fill out->tests from a parsed console (KUnit suites, then the user-space
 * tests in console order) and out->calls from out->findings: each added
 * call's final-tree line, whether it fired (out->fired), and how often it
 * ran: `gcda_dir` holds the guest's .gcda files and `build_dir` the .gcno
 * (gcov.h), `src_dir` (may be NULL) the tree as built, for a call whose
 * line has no record (gcov_statement()); `no_gcov` (when not NULL) says
 * why nothing could be measured.
 * Exposed for tests.
 */
void ci_tests_from_console(struct ci_verdict *out,
			   const struct console_result *boot);
void ci_calls(struct ci_verdict *out, const struct series *s, const char *src_dir,
	      const char *build_dir, const char *gcda_dir, const char *no_gcov);

void ci_verdict_release(struct ci_verdict *v);

/* The cache directory (ktree_cache_dir() without --cache). */
void ci_cache_dir(struct strbuf *out);

/*
 * For steering series to workers (serve --role=worker): the release
 * ("6.12") ci_run() would try `s` on first, into `out`; nothing when
 * opts->tree or $WARNWATCH_BASE_TARBALL names a tree, or no
 * linux-source tarball is installed (then every worker is alike).
 */
void ci_first_base(struct strbuf *out, const struct series *s,
		   const struct ci_opts *opts);

/*
 * The releases whose kernel is built in cache directory `cache`
 * (build/6.1.192-<config>/arch/x86/boot/bzImage: "6.1"), into `out` as
 * ",6.1,6.12," (empty when none): the shape queue_claim() matches.
 */
void ci_warm_bases(struct strbuf *out, const char *cache);

#endif
