/*
 * warnwatch check [options] INPUT...: the BUG/WARN calls a patch series
 * adds or removes.  INPUT is an mbox, a single saved message, a plain
 * diff, or "-" for stdin; --git REPO RANGE reads commits with libgit2.
 * Exit 0: nothing at error level; 1: findings at error level; 2: usage or
 * input error, with one line naming the input and what is wrong.
 */
#include "builtin.h"
#include "gitlib.h"
#include "check.h"
#include "diff.h"
#include "mbox.h"
#include "opt.h"
#include "report.h"
#include "series.h"
#include "srcfile.h"
#include "strvec.h"
#include "suggest.h"

#include <ctype.h>
#include <sys/stat.h>
#include <git2.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: warnwatch check [options] INPUT...\n"
	"       warnwatch check [options] --git REPO RANGE\n"
	"       warnwatch check [options] -g REV...\n"
	"       warnwatch check [options] -f FILE...\n"
	"       warnwatch check [options]          (in a git work tree)\n"
	"\n"
	"INPUT is an mbox (git format-patch, b4 .mbx), a single saved message,\n"
	"a unified diff (git, quilt, diff -u/-ruN), or - for stdin.\n"
	"\n"
	"  --git REPO RANGE   check the commits of RANGE (A..B, or one commit) in REPO;\n"
	"                     --git REV... with no REPO directory is -g, as in checkpatch.pl\n"
	"  -g, --git-revs     INPUTs are revisions of the repository around the current\n"
	"                     directory (A..B, or one commit each), as checkpatch.pl -g\n"
	"  -f, --file         INPUTs are source files: every call in them is reported\n"
	"                     as if added, as checkpatch.pl -f\n"
	"  no INPUT           standard input when it is not a terminal and not empty;\n"
	"                     else, in a git work tree, @{upstream}..HEAD (with no\n"
	"                     upstream, the commits since the remote's default\n"
	"                     branch or main/master; at most %d commits, never a\n"
	"                     root commit)\n"
	"  --tree DIR         resolve BUG/WARN wrappers defined in kernel tree DIR\n"
	"  --rules DIR        rule files (default: %s)\n"
	"  --format text|json|gcc|b4|b4-review\n"
	"                     text (default); json; gcc (FILE:LINE:COL: error: ...,\n"
	"                     for vim's quickfix, Emacs' compilation mode, VS Code);\n"
	"                     b4 (b4.prep-perpatch-check-cmd: one line per warning or\n"
	"                     error, nothing when clean; no INPUT reads stdin);\n"
	"                     b4-review (b4.review-perpatch-check-cmd: a JSON array)\n"
	"  --column-unit display|byte\n"
	"                     gcc: display (default, as gcc: a tab to the next\n"
	"                     multiple of 8) or byte (vim's %%c)\n"
	"  --suggest          with --tree: print, instead of the report, a patch (for\n"
	"                     git apply on top of the series) with the review's rewrite\n"
	"                     of each new call, from the function as the series leaves\n"
	"                     it in DIR and compiled there; never applied for you.\n"
	"                     Without --tree: no code (the diff shows neither the\n"
	"                     return type nor the function's exits)\n"
	"  --build-dir DIR    --suggest: DIR's configured build directory (make O=),\n"
	"                     whose .o.cmd files give each object's compile command\n"
	"  -q, --quiet        text: only warnings, errors and accepted calls, no total\n"
	"  --strict           exit status 1 for warnings too\n"
	"  -h, --help         this text\n"
	"\n"
	"A call that must stay is accepted by a 'Warnwatch-accepted: FILE:FUNCTION\n"
	"REASON' trailer in the commit message of the patch that adds it.\n"
	"\n"
	"checkpatch.pl's spellings, for scripts and b4 configurations written for it:\n"
	"  --terse            text: one line per finding, without the call's lines\n"
	"  --no-summary       text: no total\n"
	"  --mailback         text: nothing at all unless a finding is a warning or error\n"
	"  --subjective       the same as --strict\n"
	"  --root DIR         the same as --tree DIR\n"
	"  --color WHEN       never or auto (warnwatch prints no colour); always is refused\n"
	"  --no-color         accepted: no colour\n"
	"  --showfile         accepted: text always names the patched file's line\n"
	"  --emacs            accepted: text lines start with FILE:LINE: already\n"
	"  --no-tree          accepted: no tree is needed unless --tree\n"
	"  --patch            accepted: INPUTs are patches unless -f\n"
	"  --no-signoff       accepted: warnwatch checks no Signed-off-by:\n"
	"  --no-fixes-tag     accepted: warnwatch checks no Fixes:\n"
	"  --show-types       accepted: b4 and gcc lines name the rule\n"
	"  --summary-file     accepted: several INPUTs are named in the text\n"
	"  --max-line-length N  accepted: warnwatch checks no line length\n"
	"  --codespell        accepted: warnwatch checks no spelling\n"
	"  --codespellfile FILE  accepted, as --codespell\n"
	"  --ignore TYPES     accepted for checkpatch's types; AVOID_BUG or a warnwatch\n"
	"                     rule is refused (accept a call with its trailer)\n"
	"checkpatch.pl's --types, --list-types, --fix, --fix-inplace, --test-only and\n"
	"--verbose are refused, each with what to do instead.\n"
	"\n"
	"exit status: 0 nothing at error level, 1 findings at error level (with\n"
	"--strict: at warning level), 2 usage or input error\n";

struct check_cmd {
	const char *git_repo;
	const char *git_range;
	bool git_revs;		/* -g: inputs are revisions */
	bool whole_files;	/* -f: inputs are source files, read whole */
	bool strict;		/* --strict: warnings make the exit status 1 */
	bool suggest;		/* --suggest: the review's rewrites as a diff */
	const char *tree;
	const char *build_dir;	/* --build-dir, for --suggest --tree */
	/* warnwatch-all's fixup_series(), or NULL */
	int (*suggest_tree)(struct strbuf *out, struct strbuf *skipped, const struct series *s,
			    const struct check_result *r, const struct suggest_tree_opts *o);
	const char *rules_dir;
	struct report_opts ropts;
	struct strvec inputs;
	struct ruleset rules;
	size_t emitted;		/* JSON documents written so far */
	struct strbuf piped;	/* stdin, read to see whether it is empty */
	bool have_piped;	/* ... and it is the input ("-") */
	struct strbuf prefix;	/* the current directory below the work tree's top */
	enum { RANGE_GIVEN, RANGE_UPSTREAM, RANGE_DEFAULT_BRANCH } defaulted;
};

/* No INPUT checks at most this many commits above the upstream. */
#define CHECK_DEFAULT_MAX_COMMITS 100

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "warnwatch: check: %s%s%s%s\n", what,
		arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

static const char *const format_names[] = { "text", "json", "gcc", "b4", "b4-review", NULL };
static const enum report_format formats[] = { REPORT_TEXT, REPORT_JSON, REPORT_GCC, REPORT_B4,
					      REPORT_B4_REVIEW };
static const char *const unit_names[] = { "display", "byte", NULL };

/*
 * checkpatch.pl's options that mean nothing here and that scripts
 * written for it pass routinely (b4's default check command, LTP's
 * .b4-config, CI wrappers): accepted, ignored.  The flags first.
 */
static const char *const checkpatch_ignored[] = {
	"showfile", "emacs", "no-tree", "patch", "no-signoff", "no-fixes-tag",
	"show-types", "summary-file", "codespell", "no-color", "nocolor",
};

/* ... and those refused, with what to do instead (`value`: takes one). */
static const struct {
	const char *name;
	bool value;
	const char *instead;
} checkpatch_refused[] = {
	{ "types", true, "it selects checkpatch's message types; warnwatch checks BUG/WARN "
	  "calls only: leave it out" },
	{ "list-types", false, "warnwatch's rules are rules/*.json (docs/rules.md)" },
	{ "fix", false, "warnwatch edits no file: --suggest --tree DIR prints the "
	  "rewrites as a patch" },
	{ "fix-inplace", false, "warnwatch edits no file: --suggest --tree DIR prints the "
	  "rewrites as a patch" },
	{ "test-only", true, "leave it out (warnwatch has one kind of finding)" },
	{ "verbose", false, "each finding says why already" },
};

#define NR_CHECK_OPTS 20	/* the fixed entries of parse_args()'s table */

static const char *const color_names[] = { "never", "auto", "always", NULL };

/*
 * checkpatch's --ignore TYPES: its own types mean nothing here, but
 * AVOID_BUG (its type for BUG_ON()) or a warnwatch rule would hide the
 * calls warnwatch is for.
 */
static int check_ignored_types(const struct check_cmd *cmd, const struct strvec *types)
{
	for (size_t i = 0; i < types->nr; i++) {
		const char *t = types->v[i];

		while (*t) {
			size_t n = strcspn(t, ",");

			if ((n == 9 && !strncasecmp(t, "AVOID_BUG", n)) ||
			    (n > 4 && !strncmp(t, "new-", 4)))
				return usage_error("--ignore cannot hide the calls warnwatch is "
						   "for: accept a justified call with a "
						   "'Warnwatch-accepted: FILE:FUNCTION REASON' "
						   "trailer (docs/check.md); not", types->v[i]);
			t += n + (t[n] == ',');
		}
	}
	return 0;
}

/*
 * --git X...: warnwatch's --git REPO RANGE when X is a directory, else
 * checkpatch.pl's --git (-g) with X the first revision.
 */
static int git_args(struct check_cmd *cmd)
{
	struct stat st;

	if (stat(cmd->git_repo, &st) < 0 || !S_ISDIR(st.st_mode)) {
		struct strvec revs = STRVEC_INIT;

		/* the revision comes first, as it was written */
		strvec_push(&revs, cmd->git_repo);
		for (size_t i = 0; i < cmd->inputs.nr; i++)
			strvec_push(&revs, cmd->inputs.v[i]);
		strvec_clear(&cmd->inputs);
		cmd->inputs = revs;
		cmd->git_repo = NULL;
		cmd->git_revs = true;
		return 0;
	}
	if (!cmd->inputs.nr)
		return usage_error("--git needs REPO and RANGE", NULL);
	if (cmd->inputs.nr > 1)
		return usage_error("--git takes no other INPUT, got", cmd->inputs.v[1]);
	cmd->git_range = cmd->inputs.v[0];
	return 0;
}

/* 0: go on; 1: done (--help); EXIT_USAGE: bad command line. */
/* What the options say of the inputs that cannot be, or NULL. */
static const char *inputs_conflict(const struct check_cmd *cmd)
{
	if (cmd->git_repo && cmd->git_revs)
		return "-g and --git do not go together";
	if (cmd->git_revs && !cmd->inputs.nr)
		return "-g needs at least one revision";
	if (cmd->whole_files && (cmd->git_repo || cmd->git_revs))
		return "-f takes source files, not commits (-g, --git)";
	if (cmd->whole_files && !cmd->inputs.nr)
		return "-f needs at least one FILE";
	for (size_t i = 0; cmd->whole_files && i < cmd->inputs.nr; i++)
		if (!strcmp(cmd->inputs.v[i], "-"))
			return "-f needs FILE names, not '-' (the name says whether it "
			       "is C and which path rules apply)";
	/* The rewrites mirror the function's own exits: only the tree shows them. */
	if (cmd->suggest && !cmd->tree)
		return "--suggest needs --tree DIR, a kernel tree the series "
		       "applies to (the rewrites are compiled there)";
	return NULL;
}

static int parse_args(struct check_cmd *cmd, int argc, const char **argv)
{
	int format = -1, unit = 0, color = 0, ret;
	bool ignored = false;
	unsigned refused = 0;
	const char *refused_value[ARRAY_SIZE(checkpatch_refused)] = { 0 };
	unsigned long max_line = 0;
	const char *root = NULL, *dummy = NULL, *why;
	struct strvec ignore_types = STRVEC_INIT;
	struct opt opts[NR_CHECK_OPTS + ARRAY_SIZE(checkpatch_ignored) +
			ARRAY_SIZE(checkpatch_refused) + 1] = {
		OPT_FLAG('q', "quiet", &cmd->ropts.quiet),
		OPT_CHOICE(0, "format", &format, format_names),
		OPT_CHOICE(0, "column-unit", &unit, unit_names),
		OPT_STRING(0, "tree", &cmd->tree, "a directory"),
		OPT_STRING(0, "build-dir", &cmd->build_dir, "a directory"),
		OPT_STRING(0, "rules", &cmd->rules_dir, "a directory"),
		OPT_FLAG(0, "suggest", &cmd->suggest),
		OPT_FLAG('g', "git-revs", &cmd->git_revs),
		OPT_STRING(0, "git", &cmd->git_repo, "REPO and RANGE"),
		OPT_FLAG('f', "file", &cmd->whole_files),
		OPT_FLAG(0, "strict", &cmd->strict),
		OPT_FLAG(0, "subjective", &cmd->strict),
		OPT_FLAG(0, "terse", &cmd->ropts.terse),
		OPT_FLAG(0, "no-summary", &cmd->ropts.no_summary),
		OPT_FLAG(0, "mailback", &cmd->ropts.mailback),
		OPT_STRING(0, "root", &root, "a directory"),
		OPT_CHOICE(0, "color", &color, color_names),
		OPT_ULONG(0, "max-line-length", &max_line, "a number"),
		OPT_STRING(0, "codespellfile", &dummy, "a file"),
		OPT_LIST(0, "ignore", &ignore_types, "TYPES"),
	};
	size_t n = NR_CHECK_OPTS;

	for (size_t i = 0; i < ARRAY_SIZE(checkpatch_ignored); i++)
		opts[n++] = (struct opt)OPT_FLAG(0, checkpatch_ignored[i], &ignored);
	for (size_t i = 0; i < ARRAY_SIZE(checkpatch_refused); i++)
		opts[n++] = checkpatch_refused[i].value ?
			(struct opt)OPT_STRING(0, checkpatch_refused[i].name, &refused_value[i],
					       "a value") :
			(struct opt)OPT_BIT(0, checkpatch_refused[i].name, &refused, 1u << i);
	opts[n] = (struct opt)OPT_END();
	ret = opt_parse(&cmd->inputs, argc, argv, opts, 0);
	if (ret == OPT_HELP) {
		printf(usage_text, CHECK_DEFAULT_MAX_COMMITS, rules_default_dir());
		ret = 1;
		goto out;
	}
	if (ret < 0) {
		ret = usage_error(error_last(), NULL);
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(checkpatch_refused); i++)
		if ((refused & (1u << i)) || refused_value[i]) {
			error("checkpatch.pl's --%s means nothing here: %s",
			      checkpatch_refused[i].name, checkpatch_refused[i].instead);
			ret = usage_error(error_last(), NULL);
			goto out;
		}
	ret = EXIT_USAGE;
	if (color == 2) {
		usage_error("--color=always: warnwatch prints no colour (never or auto)", NULL);
		goto out;
	}
	if (check_ignored_types(cmd, &ignore_types))
		goto out;
	if (root && cmd->tree && strcmp(root, cmd->tree)) {
		usage_error("--root and --tree name two trees", NULL);
		goto out;
	}
	if (root)
		cmd->tree = root;
	if (format >= 0)
		cmd->ropts.format = formats[format];
	cmd->ropts.byte_columns = unit == 1;
	if (cmd->git_repo && git_args(cmd))
		goto out;
	if ((why = inputs_conflict(cmd))) {
		usage_error(why, NULL);
		goto out;
	}
	ret = 0;
out:
	strvec_clear(&ignore_types);
	return ret;
}

/* Several inputs make a JSON array of documents, written as they come. */
static bool json_array_out(const struct check_cmd *cmd)
{
	return cmd->inputs.nr > 1;
}

static int emit(struct check_cmd *cmd, const char *input, const struct series *s,
		const struct check_result *r, const char *const *commits)
{
	if (cmd->suggest) {
		struct strbuf diff = STRBUF_INIT, skipped = STRBUF_INIT;
		struct suggest_tree_opts o = { cmd->tree, cmd->build_dir, cmd->rules_dir };

		if (cmd->tree && cmd->suggest_tree(&diff, &skipped, s, r, &o) < 0) {
			struct strbuf prefix = STRBUF_INIT;

			strbuf_addf(&prefix, "suggest: '%s'", input);
			report_error(prefix.buf);
			strbuf_release(&prefix);
		}
		if (diff.len)
			printf("warnwatch check --suggest: rewrites of the calls '%s' adds, compiled in '%s'.\n"
			       "Read each hunk before applying it (git apply); nothing is applied for you.\n\n%s",
			       input, cmd->tree, diff.buf);
		for (char *p = skipped.buf, *nl; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			fprintf(stderr, "warnwatch: suggest: %.*s\n", (int)(nl - p), p);
		}
		strbuf_release(&diff);
		strbuf_release(&skipped);
	} else if (cmd->ropts.format == REPORT_JSON) {
		if (json_array_out(cmd))
			fputs(cmd->emitted ? ",\n  " : "[\n  ", stdout);
		report_json_write(stdout, input, s, r, &cmd->rules, commits,
				  json_array_out(cmd));
		if (!json_array_out(cmd))
			putchar('\n');
		cmd->emitted++;
	} else if (cmd->ropts.format == REPORT_GCC) {
		report_gcc(stdout, s, r, &cmd->ropts);
	} else if (cmd->ropts.format == REPORT_B4) {
		report_b4(stdout, r);
	} else if (cmd->ropts.format == REPORT_B4_REVIEW) {
		report_b4_review(stdout, s, r, &cmd->rules);
	} else {
		report_text(stdout, input, s, r, &cmd->ropts);
	}
	if (cmd->strict && (r->worst >= SEV_WARNING || r->nr_stale))
		return EXIT_FOUND;
	return r->worst >= SEV_ERROR ? EXIT_FOUND : EXIT_OK;
}

/*
 * One error line per damaged hunk, as a refused patch would have had:
 * the input is still bad (exit status 2), though the rest was checked.
 */
static int report_damaged(const char *input, const struct check_result *r,
			  int status)
{
	for (size_t i = 0; i < r->nr_damaged; i++) {
		const struct check_damage *d = &r->damaged[i];

		if (d->patch)
			fprintf(stderr, "warnwatch: '%s': patch %d: %s\n", input,
				d->patch, d->message);
		else
			fprintf(stderr, "warnwatch: '%s': %s\n", input, d->message);
	}
	return r->nr_damaged ? EXIT_USAGE : status;
}

/*
 * Is a missing INPUT written as git writes revisions (HEAD~4.., A..B,
 * X^!, @{u})?  Then the user meant -g, as checkpatch.pl -g takes them.
 */
static bool looks_like_revision(const char *input)
{
	return strstr(input, "..") || strchr(input, '~') || strchr(input, '^') ||
	       strchr(input, '@') || !strcmp(input, "HEAD");
}

/* -f: the source file `input` as the one patch that adds it (srcfile.h). */
static int load_source_file(struct series *s, const char *input)
{
	struct strbuf text = STRBUF_INIT;
	int ret = strbuf_read_file(&text, input, MBOX_MAX_BYTES);

	if (ret >= 0)
		ret = srcfile_diff(&s->raw, srcfile_path(input), text.buf, text.len);
	if (ret >= 0)
		series_from_diff(s, s->raw.buf, s->raw.len, input);
	strbuf_release(&text);
	return ret;
}

static int check_one(struct check_cmd *cmd, const char *input)
{
	struct series s = SERIES_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts opts = CHECK_OPTS_INIT;
	bool piped = cmd->have_piped && !strcmp(input, "-");
	int ret;

	opts.rules = &cmd->rules;
	opts.tree = cmd->tree;
	/* stdin was read to see whether it is empty: the series takes it */
	if (piped)
		strbuf_swap(&s.raw, &cmd->piped);
	if (cmd->whole_files)
		ret = load_source_file(&s, input);
	else	/* Mail without patches (a review reply): nothing to find. */
		ret = series_load(&s, input, SERIES_LOAD_EMPTY_OK |
				  (piped ? SERIES_LOAD_HAVE_BUF : 0), NULL, NULL);
	if (ret == WW_ENOTFOUND && looks_like_revision(input))
		error_code(ret, "cannot open '%s': no such file; to check commits, give them "
			   "with -g: warnwatch check -g %s", input, input);
	if (ret < 0) {
		ret = report_error(NULL);	/* the message names the input */
		goto out;
	}
	ret = check_series(&r, &s, &opts);
	if (ret < 0) {
		struct strbuf prefix = STRBUF_INIT;

		strbuf_addf(&prefix, "'%s'", input);
		report_error(prefix.buf);
		strbuf_release(&prefix);
		ret = EXIT_USAGE;
	} else {
		if (cmd->whole_files)
			srcfile_mark(&r, input);
		ret = emit(cmd, input, &s, &r, NULL);
		ret = report_damaged(input, &r, ret);
	}
out:
	check_result_clear(&r);
	series_release(&s);
	return ret;
}

/* --git: each commit of the range is a patch, diffed against its first parent. */

static int git_fail(const char *what)
{
	return error_code(WW_EINPUT, "%s: %s", what, gitlib_error());
}

static int commit_diff(struct strbuf *out, git_repository *repo, git_commit *c)
{
	git_tree *tree = NULL, *parent_tree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	git_buf buf = GIT_BUF_INIT;
	git_diff_options dopts;
	git_diff_find_options fopts;
	int ret = -1;

	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	git_diff_find_options_init(&fopts, GIT_DIFF_FIND_OPTIONS_VERSION);

	if (git_commit_tree(&tree, c) < 0)
		goto out;
	if (git_commit_parentcount(c) > 0 &&
	    (git_commit_parent(&parent, c, 0) < 0 ||
	     git_commit_tree(&parent_tree, parent) < 0))
		goto out;
	if (git_diff_tree_to_tree(&diff, repo, parent_tree, tree, &dopts) < 0)
		goto out;
	fopts.flags = GIT_DIFF_FIND_RENAMES;
	if (git_diff_find_similar(diff, &fopts) < 0)
		goto out;
	if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) < 0)
		goto out;
	strbuf_add(out, buf.ptr, buf.size);
	ret = 0;
out:
	git_buf_dispose(&buf);
	git_diff_free(diff);
	git_tree_free(parent_tree);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret < 0 ? git_fail("cannot diff commit") : 0;
}

static char *format_date(const git_signature *sig)
{
	char buf[64];
	time_t t = (time_t)sig->when.time + sig->when.offset * 60;
	struct tm tm;
	int off = abs(sig->when.offset) % (24 * 60);
	struct strbuf sb = STRBUF_INIT;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S", &tm);
	strbuf_addf(&sb, "%s %c%02d%02d", buf, sig->when.offset < 0 ? '-' : '+',
		    off / 60, off % 60);
	return strbuf_detach(&sb, NULL);
}

static void add_commit_patch(struct series *s, git_commit *c, const struct strbuf *diff,
			     const struct strbuf *log, int index)
{
	const git_signature *a = git_commit_author(c);
	struct series_patch *p;
	struct strbuf sb = STRBUF_INIT;
	const char *summary = git_commit_summary(c);

	ALLOC_GROW(s->patches, s->nr + 1, s->alloc);
	p = &s->patches[s->nr++];
	memset(p, 0, sizeof(*p));
	p->index = index;
	p->subject = xstrdup(summary ? summary : "");
	p->title = xstrdup(p->subject);
	p->message_id = xstrdup("");
	strbuf_addf(&sb, "%s <%s>", a->name, a->email);
	p->author = strbuf_detach(&sb, NULL);
	p->date = format_date(a);
	p->diff = diff->buf;
	p->diff_len = diff->len;
	p->log = log->buf;	/* its trailers: Warnwatch-accepted: (accept.h) */
	p->log_len = log->len;
}

/* The commit `obj` names (a tag peeled), or WW_EINPUT naming `rev`. */
static int peel_commit(git_oid *out, git_object *obj, const char *rev)
{
	git_object *c = NULL;

	if (git_object_peel(&c, obj, GIT_OBJECT_COMMIT) < 0) {
		error_clear();
		return error_code(WW_EINPUT, "'%s' is a %s, not a commit", rev,
				  git_object_type2string(git_object_type(obj)));
	}
	git_oid_cpy(out, git_object_id(c));
	git_object_free(c);
	return 0;
}

/*
 * Hide from `walk` every merge base of `a` and `b`: what A...B leaves
 * out, as git rev-list does (the commits of either side, not of both).
 */
static int hide_merge_bases(git_revwalk *walk, git_repository *repo,
			    const git_oid *a, const git_oid *b)
{
	git_oidarray bases = { 0 };
	int ret = git_merge_bases(&bases, repo, a, b);

	if (ret == GIT_ENOTFOUND)
		return 0;	/* unrelated histories: both sides whole */
	for (size_t i = 0; ret == 0 && i < bases.count; i++)
		ret = git_revwalk_hide(walk, &bases.ids[i]);
	git_oidarray_dispose(&bases);
	return ret;
}

/*
 * Append the commits of `range`, oldest first, as git rev-list reads it:
 * one revision (X, or X^!: X without its parents) is that commit; A..B
 * the commits of B not in A; A...B those of A or B that are not in both.
 */
static int walk_range(git_oid **out, size_t *nr, size_t *alloc, git_repository *repo,
		      const char *range)
{
	struct strbuf one = STRBUF_INIT;
	git_revwalk *walk = NULL;
	git_revspec spec = { 0 };
	git_oid from, to, oid;
	size_t len = strlen(range);
	int ret;

	if (len > 2 && !strcmp(range + len - 2, "^!"))
		strbuf_add(&one, range, len - 2);
	else
		strbuf_addstr(&one, range);
	if (git_revparse(&spec, repo, one.buf) < 0) {
		ret = error_code(WW_EINPUT, "'%s': unknown revision or range: %s", range,
				 gitlib_error());
		goto out;
	}
	if (one.len != len || (spec.flags & GIT_REVSPEC_SINGLE)) {
		if (!(spec.flags & GIT_REVSPEC_SINGLE)) {
			ret = error_code(WW_EINPUT, "'%s': ^! takes one revision", range);
			goto out;
		}
		ret = peel_commit(&oid, spec.from, range);
		if (ret < 0)
			goto out;
		ALLOC_GROW(*out, *nr + 1, *alloc);
		git_oid_cpy(&(*out)[(*nr)++], &oid);
		goto out;
	}
	ret = peel_commit(&from, spec.from, range);
	if (ret >= 0)
		ret = peel_commit(&to, spec.to, range);
	if (ret < 0)
		goto out;
	if (git_revwalk_new(&walk, repo) < 0)
		goto out_git;
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push(walk, &to) < 0)
		goto out_git;
	if (spec.flags & GIT_REVSPEC_MERGE_BASE) {
		if (git_revwalk_push(walk, &from) < 0 ||
		    hide_merge_bases(walk, repo, &from, &to) < 0)
			goto out_git;
	} else if (git_revwalk_hide(walk, &from) < 0) {
		goto out_git;
	}
	while ((ret = git_revwalk_next(&oid, walk)) == 0) {
		ALLOC_GROW(*out, *nr + 1, *alloc);
		git_oid_cpy(&(*out)[(*nr)++], &oid);
	}
	if (ret == GIT_ITEROVER) {
		ret = 0;
		goto out;
	}
out_git:
	ret = error_code(WW_EINPUT, "'%s': cannot walk: %s", range, gitlib_error());
out:
	git_revwalk_free(walk);
	git_object_free(spec.from);
	git_object_free(spec.to);
	strbuf_release(&one);
	return ret;
}

/*
 * Which repository and which revisions: --git REPO RANGE; -g REV... in
 * the repository around the current directory; or, with neither, the
 * commits not yet upstream (@{upstream}..HEAD, or HEAD), as checkpatch -g.
 */
/*
 * The full name of the current branch's upstream, from branch.<name>.remote
 * and .merge as git's default refspec maps them (refs/remotes/R/B, or the
 * local branch for remote "."), when that ref exists; WW_ENOTFOUND else.
 * Read from the config rather than with git_branch_upstream() or
 * "@{upstream}": libgit2 1.5's remote lookup behind both leaks pcre2 match
 * data at every call (LeakSanitizer, t0030).
 */
static int upstream_ref(struct strbuf *out, git_repository *repo)
{
	git_reference *head = NULL, *ref = NULL;
	git_config *cfg = NULL;
	struct strbuf key = STRBUF_INIT;
	const char *branch, *remote, *merge, *name;
	int ret = WW_ENOTFOUND;

	if (git_repository_head(&head, repo) < 0 || !git_reference_is_branch(head) ||
	    git_repository_config_snapshot(&cfg, repo) < 0)
		goto out;
	branch = git_reference_shorthand(head);
	strbuf_addf(&key, "branch.%s.remote", branch);
	if (git_config_get_string(&remote, cfg, key.buf) < 0)
		goto out;
	strbuf_reset(&key);
	strbuf_addf(&key, "branch.%s.merge", branch);
	if (git_config_get_string(&merge, cfg, key.buf) < 0)
		goto out;
	if (!strcmp(remote, "."))
		strbuf_addstr(out, merge);
	else if (skip_prefix(merge, "refs/heads/", &name))
		strbuf_addf(out, "refs/remotes/%s/%s", remote, name);
	else
		goto out;
	if (git_reference_lookup(&ref, repo, out->buf) == 0)
		ret = 0;
	else
		strbuf_reset(out);
out:
	git_reference_free(ref);
	git_reference_free(head);
	git_config_free(cfg);
	strbuf_release(&key);
	return ret;
}

/*
 * With no upstream, where the branch's own commits start: the remote's
 * default branch (refs/remotes/origin/HEAD first, then any remote's
 * HEAD), else a local default branch (init.defaultBranch, main, master)
 * that is not the current branch.  Its short name into `out`;
 * WW_ENOTFOUND when there is none (then no default is guessed).
 */
static int default_base(struct strbuf *out, git_repository *repo)
{
	static const char *const locals[] = { "main", "master" };
	git_reference *head = NULL, *ref = NULL;
	git_reference_iterator *it = NULL;
	git_config *cfg = NULL;
	const char *cur = NULL, *name, *def = NULL;
	int ret = WW_ENOTFOUND;

	if (git_repository_head(&head, repo) == 0 && git_reference_is_branch(head))
		cur = git_reference_name(head);
	if (git_reference_lookup(&ref, repo, "refs/remotes/origin/HEAD") < 0 &&
	    git_reference_iterator_glob_new(&it, repo, "refs/remotes/*/HEAD") == 0 &&
	    git_reference_next(&ref, it) < 0)
		ref = NULL;
	if (ref && git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC &&
	    (name = git_reference_symbolic_target(ref)) &&
	    skip_prefix(name, "refs/remotes/", &name)) {
		strbuf_addstr(out, name);
		ret = 0;
		goto out;
	}
	if (git_repository_config_snapshot(&cfg, repo) == 0 &&
	    git_config_get_string(&def, cfg, "init.defaultBranch") < 0)
		def = NULL;
	for (int i = -1; i < (int)ARRAY_SIZE(locals); i++) {
		struct strbuf full = STRBUF_INIT;
		const char *b = i < 0 ? def : locals[i];
		git_reference *l = NULL;

		if (!b)
			continue;
		strbuf_addf(&full, "refs/heads/%s", b);
		if ((!cur || strcmp(cur, full.buf)) &&
		    git_reference_lookup(&l, repo, full.buf) == 0) {
			strbuf_addstr(out, b);
			ret = 0;
		}
		git_reference_free(l);
		strbuf_release(&full);
		if (!ret)
			break;
	}
out:
	git_reference_free(ref);
	git_reference_iterator_free(it);
	git_reference_free(head);
	git_config_free(cfg);
	error_clear();
	return ret;
}

static int open_repo(git_repository **repo, struct strvec *ranges, struct check_cmd *cmd)
{
	struct strbuf up = STRBUF_INIT;

	if (cmd->git_repo) {
		strvec_push(ranges, cmd->git_range);
		if (git_repository_open_ext(repo, cmd->git_repo,
					    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
			return git_fail("not a git repository");
		return 0;
	}
	if (git_repository_open_ext(repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL) < 0)
		return git_fail("not in a git work tree");
	if (cmd->git_revs) {
		for (size_t i = 0; i < cmd->inputs.nr; i++)
			strvec_push(ranges, cmd->inputs.v[i]);
		return 0;
	}
	if (upstream_ref(&up, *repo) == 0) {
		const char *name = up.buf;

		if (!skip_prefix(name, "refs/remotes/", &name))
			skip_prefix(name, "refs/heads/", &name);
		strvec_pushf(ranges, "%s..HEAD", name);
		cmd->defaulted = RANGE_UPSTREAM;
	} else if (default_base(&up, *repo) == 0) {
		/* A --no-track branch: its commits since the default branch. */
		strvec_pushf(ranges, "%s..HEAD", up.buf);
		cmd->defaulted = RANGE_DEFAULT_BRANCH;
	} else {
		strbuf_release(&up);
		return error_code(WW_EINPUT, "the branch has no upstream and there is no "
				  "default branch to compare it with: give the commits to "
				  "check (warnwatch check -g A..B), or set an upstream "
				  "(git branch --set-upstream-to=BRANCH)");
	}
	error_clear();
	strbuf_release(&up);
	return 0;
}

/* Is the current directory inside a git work tree (not a bare repository)? */
static bool in_work_tree(void)
{
	git_repository *repo = NULL;
	bool yes;

	gitlib_init();
	if (git_repository_open_ext(&repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL) < 0)
		return false;
	yes = !git_repository_is_bare(repo);
	git_repository_free(repo);
	return yes;
}

/*
 * No INPUT: say on stderr (text) what is checked, and refuse what no one
 * means to send: more than CHECK_DEFAULT_MAX_COMMITS commits, or a root
 * commit (the import of a whole tree).
 */
static int check_default_range(const struct check_cmd *cmd, git_repository *repo,
			       const char *range, const git_oid *oids, size_t nr)
{
	const char *hint = cmd->defaulted == RANGE_DEFAULT_BRANCH ?
		"the branch has no upstream (git branch --set-upstream-to=REMOTE/BRANCH); "
		"give the range to check: warnwatch check -g A..B" :
		"give the range to check: warnwatch check -g A..B";

	if (nr > CHECK_DEFAULT_MAX_COMMITS)
		return error_code(WW_EINPUT, "'%s' is %zu commits, more than %d: %s",
				  range, nr, CHECK_DEFAULT_MAX_COMMITS, hint);
	for (size_t i = 0; i < nr; i++) {
		git_commit *c;
		unsigned parents;

		if (git_commit_lookup(&c, repo, &oids[i]) < 0)
			return git_fail("cannot read commit");
		parents = git_commit_parentcount(c);
		git_commit_free(c);
		if (!parents)
			return error_code(WW_EINPUT, "'%s' holds a root commit (a whole tree, "
					  "not a patch to send): %s", range, hint);
	}
	if (cmd->ropts.format == REPORT_TEXT)
		fprintf(stderr, "warnwatch: checking %s: %zu commit%s%s\n", range, nr,
			nr == 1 ? "" : "s", cmd->defaulted == RANGE_DEFAULT_BRANCH ?
			" (the branch has no upstream: its commits since the default branch)" :
			"");
	return 0;
}

static int check_git(struct check_cmd *cmd)
{
	git_repository *repo = NULL;
	git_oid *oids = NULL;
	size_t nr = 0, alloc = 0;
	struct strbuf *diffs = NULL, *logs = NULL, name = STRBUF_INIT, revs = STRBUF_INIT;
	struct series s = SERIES_INIT;
	struct check_result r = CHECK_RESULT_INIT;
	struct check_opts opts = CHECK_OPTS_INIT;
	struct strvec commits = STRVEC_INIT, ranges = STRVEC_INIT;
	int ret;

	gitlib_init();
	ret = open_repo(&repo, &ranges, cmd);
	for (size_t i = 0; ret >= 0 && i < ranges.nr; i++) {
		strbuf_addf(&revs, "%s%s", i ? " " : "", ranges.v[i]);
		ret = walk_range(&oids, &nr, &alloc, repo, ranges.v[i]);
	}
	if (ret >= 0 && cmd->defaulted != RANGE_GIVEN)
		ret = check_default_range(cmd, repo, revs.buf, oids, nr);
	if (ret < 0)
		goto out;
	if (cmd->git_repo)
		strbuf_addf(&name, "%s %s", cmd->git_repo, revs.buf);
	else
		strbuf_addbuf(&name, &revs);
	diffs = xcalloc(nr ? nr : 1, sizeof(*diffs));
	logs = xcalloc(nr ? nr : 1, sizeof(*logs));
	for (size_t i = 0; i < nr; i++) {
		git_commit *c;
		char hex[GIT_OID_HEXSZ + 1];

		if (git_commit_lookup(&c, repo, &oids[i]) < 0) {
			ret = git_fail("cannot read commit");
			goto out;
		}
		strbuf_init(&diffs[i], 0);
		strbuf_init(&logs[i], 0);
		strbuf_addstr(&logs[i], git_commit_message(c) ? git_commit_message(c) : "");
		ret = commit_diff(&diffs[i], repo, c);
		if (ret >= 0)
			add_commit_patch(&s, c, &diffs[i], &logs[i], (int)i + 1);
		git_commit_free(c);
		if (ret < 0)
			goto out;
		strvec_push(&commits, git_oid_tostr(hex, sizeof(hex), &oids[i]));
	}
	for (size_t i = 0; i < s.nr; i++)
		s.patches[i].total = (int)s.nr;
	s.subject = xstrdup(revs.buf);
	s.message_id = xstrdup("");
	opts.rules = &cmd->rules;
	opts.tree = cmd->tree;
	ret = check_series(&r, &s, &opts);
	if (ret >= 0)
		ret = emit(cmd, name.buf, &s, &r, commits.v);
out:
	if (ret < 0) {
		struct strbuf prefix = STRBUF_INIT;

		/* walk_range() names the range; the repository is --git's */
		if (cmd->git_repo)
			strbuf_addf(&prefix, "'%s'", cmd->git_repo);
		else
			strbuf_addstr(&prefix, "check");
		report_error(prefix.buf);
		strbuf_release(&prefix);
		ret = EXIT_USAGE;
	}
	check_result_clear(&r);
	series_release(&s);
	for (size_t i = 0; diffs && i < nr; i++) {
		strbuf_release(&diffs[i]);
		strbuf_release(&logs[i]);
	}
	free(diffs);
	free(logs);
	free(oids);
	strvec_clear(&commits);
	strvec_clear(&ranges);
	git_repository_free(repo);
	strbuf_release(&name);
	strbuf_release(&revs);
	return ret;
}

/*
 * The current directory below the top of the work tree around it, with
 * a '/' ("mm/damon/"), or "" (at the top, or outside a work tree):
 * --format=gcc prints paths from there, as git does.
 */
static void cwd_prefix(struct strbuf *out)
{
	git_repository *repo = NULL;
	char *top = NULL, *cwd = NULL;
	const char *rest;

	gitlib_init();
	if (git_repository_open_ext(&repo, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL) < 0 ||
	    !git_repository_workdir(repo))
		goto out;
	top = realpath(git_repository_workdir(repo), NULL);
	cwd = realpath(".", NULL);
	if (top && cwd && skip_prefix(cwd, top, &rest) && (*rest == '/' || !*rest)) {
		while (*rest == '/')
			rest++;
		if (*rest)
			strbuf_addf(out, "%s/", rest);
	}
out:
	error_clear();
	free(top);
	free(cwd);
	git_repository_free(repo);
}

/*
 * No INPUT and a stdin that is not a terminal (`git diff | warnwatch
 * check`): stdin is the input when it holds anything, as checkpatch.pl
 * reads it.  An empty one (/dev/null, a closed pipe: CI, cron) leaves
 * the work tree's branch to check.
 */
static int read_piped(struct check_cmd *cmd)
{
	int ret;

	if (isatty(0))
		return 0;
	ret = strbuf_read_fd(&cmd->piped, 0, MBOX_MAX_BYTES);
	if (ret < 0 && errno == EBADF) {	/* no stdin at all */
		error_clear();
		return 0;
	}
	if (ret < 0)
		return error_prefix(ret, "'-'");
	if (cmd->piped.len) {
		strvec_push(&cmd->inputs, "-");
		cmd->have_piped = true;
	}
	return 0;
}

int check_main(int argc, const char **argv,
	       int (*suggest_tree)(struct strbuf *out, struct strbuf *skipped,
				   const struct series *s, const struct check_result *r,
				   const struct suggest_tree_opts *o))
{
	struct check_cmd cmd = { 0 };
	int ret, status = EXIT_OK;

	cmd.ropts = (struct report_opts)REPORT_OPTS_INIT;
	cmd.suggest_tree = suggest_tree;
	strvec_init(&cmd.inputs);
	strbuf_init(&cmd.piped, 0);
	strbuf_init(&cmd.prefix, 0);
	ret = parse_args(&cmd, argc, argv);
	if (ret) {
		strvec_clear(&cmd.inputs);
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	}
	/* The review's rewrites need libclang: warnwatch-all's, before any input is read. */
	if (cmd.suggest && cmd.tree && !cmd.suggest_tree) {
		strvec_clear(&cmd.inputs);
		return EXIT_RUN_ALL;
	}
	cmd.ropts.files = cmd.whole_files;
	/* -f names files from the current directory already */
	if (cmd.ropts.format == REPORT_GCC && !cmd.whole_files) {
		cwd_prefix(&cmd.prefix);
		cmd.ropts.prefix = cmd.prefix.buf;
	}
	if (!cmd.rules_dir)
		cmd.rules_dir = rules_default_dir();
	ret = rules_load(&cmd.rules, cmd.rules_dir);
	if (ret < 0) {
		status = report_error(NULL);
		goto out;
	}
	/* b4 pipes each patch to the command and runs it in the work tree:
	 * there, no INPUT means stdin, not the branch. */
	if ((cmd.ropts.format == REPORT_B4 || cmd.ropts.format == REPORT_B4_REVIEW) &&
	    !cmd.inputs.nr && !cmd.git_repo)
		strvec_push(&cmd.inputs, "-");
	if (!cmd.inputs.nr && !cmd.git_repo && !cmd.git_revs && read_piped(&cmd) < 0) {
		status = report_error(NULL);
		goto out;
	}
	cmd.ropts.name_input = cmd.inputs.nr > 1 && !cmd.git_revs;
	if (!cmd.git_repo && !cmd.git_revs && !cmd.inputs.nr && !in_work_tree()) {
		status = usage_error("no INPUT given (see --help)", NULL);
	} else if (cmd.git_repo || cmd.git_revs || !cmd.inputs.nr) {
		status = check_git(&cmd);
	} else {
		for (size_t i = 0; i < cmd.inputs.nr; i++) {
			ret = check_one(&cmd, cmd.inputs.v[i]);
			if (ret > status)
				status = ret;
			if (cmd.inputs.nr > 1 && i + 1 < cmd.inputs.nr &&
			    cmd.ropts.format == REPORT_TEXT && !cmd.ropts.quiet)
				putchar('\n');
		}
	}
	if (cmd.ropts.format == REPORT_JSON && json_array_out(&cmd))
		fputs(cmd.emitted ? "\n]\n" : "[]\n", stdout);
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the report: %s", strerror(errno));
		status = report_error(NULL);
	}
out:
	ruleset_release(&cmd.rules);
	strvec_clear(&cmd.inputs);
	strbuf_release(&cmd.piped);
	strbuf_release(&cmd.prefix);
	return status;
}

int cmd_check(int argc, const char **argv)
{
	return check_main(argc, argv, NULL);
}
