/*
 * warnwatch backfill: public-inbox epochs -> the state database (the
 * per-cycle report is backfill-report.c's; see backfill.h).
 */
#include "backfill.h"
#include "check.h"
#include "epoch.h"
#include "gitlib.h"
#include "mailhdr.h"
#include "mbox.h"
#include "redact.h"
#include "series.h"
#include "strvec.h"

#include <ctype.h>
#include <dirent.h>
#include <git2.h>
#include <limits.h>
#include <sys/stat.h>

/* ---- reading epochs ---- */

struct ingest {
	struct store *s;
	const struct backfill_opts *opts;
	const char *list;
	struct check_opts copts;
	struct backfill_epoch_stats *st;
	struct strbuf sb;
	size_t left;		/* mails this run may still read; 0: no limit */
	bool limited;		/* opts->max_mails set */
	git_oid stop;		/* the last commit read when the budget ran out */
};

/* epoch_walk()'s "stop here": the budget of mails is spent. */
#define BUDGET_SPENT 1

/* A store error (its message names the database), with what we did. */
static int db_error(struct ingest *in, int ret, const char *what)
{
	return error_prefix(ret, "%s", what);
}

/* The first mailbox of a raw From: ("Jane Doe <Jane@Example.org>"), in
 * lower case ("jane@example.org"); "" when there is none. */
static void author_email(struct strbuf *out, const char *from_raw)
{
	struct mail_addr_list l = MAIL_ADDR_LIST_INIT;

	strbuf_reset(out);
	mail_addr_parse(&l, from_raw);
	if (l.nr)
		strbuf_addstr(out, l.v[0].addr);
	for (size_t i = 0; i < out->len; i++)
		out->buf[i] = tolower((unsigned char)out->buf[i]);
	mail_addr_list_clear(&l);
}

static int record_calls(struct ingest *in, long long mail,
			const struct check_result *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];
		int ret;

		if (f->kind == FINDING_DEFINE)
			continue;
		ret = store_exec(in->s, "INSERT INTO backfill_calls (mail, kind, macro,"
				 " class, file, line, function, conversion, moved)"
				 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", "issssisii", mail,
				 f->kind == FINDING_ADDED ? "added" : "removed",
				 f->rule->macro, rule_class_name(f->rule->class),
				 f->file ? f->file : "", (long long)f->line,
				 f->function ? f->function : "",
				 (long long)f->conversion, (long long)f->moved);
		if (ret < 0)
			return db_error(in, ret, "cannot record a call");
	}
	return 0;
}

/*
 * The diff of a patch mail and its base-commit, through the same code
 * as `review` (a one-mail series).  false: no diff.
 */
static bool patch_diff(struct series *s, const struct mail_list *one)
{
	if (series_from_mails(s, one) < 0) {
		error_clear();
		return false;
	}
	return s->nr == 1 && s->patches[0].diff_len > 0;
}

static int record_mail(struct ingest *in, const char *commit,
		       const char *buf, size_t len)
{
	struct mail_list one = MAIL_LIST_INIT;
	struct series ser = SERIES_INIT;
	struct check_result res = CHECK_RESULT_INIT;
	struct subject_tags tags;
	const struct mail *m;
	struct store_rows *row = NULL;
	const char *kind = "other";
	char *base = NULL, *prefix;
	time_t date = 0;
	bool checked = false;
	int ret = 0;

	if (mbox_parse(&one, buf, len) < 0 || one.nr != 1 || !*one.v[0].message_id) {
		error_clear();
		in->st->skipped++;
		goto out;
	}
	m = &one.v[0];
	series_parse_subject(&tags, m->subject);
	if (tags.is_reply) {
		kind = "reply";
	} else if (tags.is_patch && tags.index == 0) {
		kind = "cover";
		base = series_base_commit(m->body, m->body_len);
	} else if (tags.is_patch && patch_diff(&ser, &one)) {
		kind = "patch";
		if (ser.base_commit)
			base = xstrdup(ser.base_commit);
		ret = check_diff(&res, ser.patches[0].diff, ser.patches[0].diff_len, 1,
				 &in->copts);
		if (ret < 0)	/* a diff check cannot read is a mail without calls */
			error_clear();
		checked = true;
	}
	if (!cycles_mail_date(&date, m->date))
		date = 0;
	author_email(&in->sb, m->from_raw);
	prefix = xstrndup(m->subject, tags.title_off);

	/* NULLIF: no readable date and no base-commit are NULL, as the
	 * report reads them; no row back: a Message-ID seen before. */
	ret = store_query(&row, in->s, "INSERT INTO backfill_mails (list, message_id,"
			  " commit_id, date, kind, subject, title, prefix, version, idx,"
			  " total, author, email, in_reply_to, refs, base_commit)"
			  " VALUES (?, ?, ?, NULLIF(CAST(? AS BIGINT), 0), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
			  " NULLIF(?, '')) ON CONFLICT (list, message_id) DO NOTHING"
			  " RETURNING id", "ssstssssiiisssss", in->list, m->message_id,
			  commit, date, kind, m->subject, m->subject + tags.title_off,
			  prefix, (long long)tags.version, (long long)tags.index,
			  (long long)tags.total, m->from, in->sb.buf, m->in_reply_to,
			  m->references, base);
	free(prefix);
	if (ret < 0) {
		ret = db_error(in, ret, "cannot record a mail");
		goto out;
	}
	if (!ret) {
		in->st->skipped++;	/* a Message-ID seen before */
		goto out;
	}
	in->st->mails++;
	ret = 0;
	if (checked) {
		in->st->patches++;
		ret = record_calls(in, store_rows_int(row, 0), &res);
	}
out:
	store_rows_free(row);
	free(base);
	check_result_clear(&res);
	series_release(&ser);
	mail_list_clear(&one);
	return ret;
}

/* epoch_walk()'s callback: one mail of the epoch, within the budget. */
static int ingest_mail(void *data, const char *commit, const char *buf, size_t len)
{
	struct ingest *in = data;
	int ret = record_mail(in, commit, buf, len);

	if (ret || !in->limited || --in->left)
		return ret;
	if (git_oid_fromstr(&in->stop, commit) < 0)
		return error("epoch commit '%s' is no object id", commit);
	return BUDGET_SPENT;
}

/* epoch_walk()'s: a mail over the cap, said to the caller. */
static int skipped_mail(void *data, const char *commit, const char *reason)
{
	struct ingest *in = data;

	(void)commit;
	if (in->opts->skipped)
		in->opts->skipped(in->opts->data, in->list, in->st->repo, reason);
	return 0;
}

static int last_commit(struct ingest *in, const char *repo, git_oid *out, bool *have)
{
	struct store_rows *row = NULL;
	int ret;

	*have = false;
	ret = store_query(&row, in->s, "SELECT last_commit FROM backfill_epochs"
			  " WHERE list = ? AND repo = ?", "ss", in->list, repo);
	if (ret < 0)
		return db_error(in, ret, "cannot read the epochs");
	if (ret)
		*have = !git_oid_fromstr(out, store_rows_text(row, 0));
	store_rows_free(row);
	return 0;
}

static int save_epoch(struct ingest *in, const char *repo, const git_oid *head,
		      size_t commits)
{
	char hex[GIT_OID_HEXSZ + 1];
	int ret;

	git_oid_tostr(hex, sizeof(hex), head);
	ret = store_exec(in->s, "INSERT INTO backfill_epochs (list, repo, last_commit,"
			 " commits, updated) VALUES (?, ?, ?, ?, ?) ON CONFLICT (list, repo)"
			 " DO UPDATE SET last_commit = excluded.last_commit,"
			 " commits = backfill_epochs.commits + excluded.commits,"
			 " updated = excluded.updated", "sssit", in->list, repo, hex,
			 (long long)commits, time(NULL));
	return ret < 0 ? db_error(in, ret, "cannot record the epoch") : 0;
}

/* One epoch repository, in one transaction. */
static int read_epoch(struct ingest *in, const char *path)
{
	char real[PATH_MAX];
	git_repository *repo = NULL;
	struct epoch_walk walk = { .on_skip = skipped_mail };
	git_oid head, last;
	bool have_last;
	double t0 = monotonic_now();
	int ret;

	if (!realpath(path, real))
		return error_code(WW_ENOTFOUND, "cannot open '%s': %s", path, strerror(errno));
	in->st->repo = xstrdup(path);
	if (git_repository_open_ext(&repo, real, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
		return error_code(WW_ENOTFOUND, "'%s' is not a git repository: %s", path,
				  gitlib_error());
	if (git_reference_name_to_id(&head, repo, "HEAD") < 0) {
		ret = 0;			/* an epoch without commits yet */
		goto out;
	}
	if ((ret = last_commit(in, real, &last, &have_last)) < 0)
		goto out;
	if (have_last && git_oid_equal(&last, &head))
		goto out;
	if ((ret = store_begin(in->s)) < 0)
		goto out;
	ret = epoch_walk(&walk, repo, have_last ? &last : NULL, &head, 0, ingest_mail, in);
	in->st->commits += walk.commits;
	in->st->skipped += walk.skipped;
	if (ret == BUDGET_SPENT) {	/* read on from here next time */
		in->st->more = true;
		ret = save_epoch(in, real, &in->stop, in->st->commits);
	} else if (!ret) {
		ret = save_epoch(in, real, &head, in->st->commits);
	}
	if (!ret)
		ret = store_commit(in->s);
	else
		store_rollback(in->s);
	if (ret < 0)
		error_prefix(ret, "%s", path);
out:
	in->st->seconds = monotonic_now() - t0;
	git_repository_free(repo);
	return ret;
}

static int cmp_epoch(const void *a, const void *b)
{
	long x = atol(*(const char *const *)a), y = atol(*(const char *const *)b);

	return (x > y) - (x < y);
}

/* "NNN.git": a v2 epoch's name. */
static bool is_epoch_name(const char *n)
{
	size_t d = strspn(n, "0123456789");

	return d > 0 && d < 10 && !strcmp(n + d, ".git");
}

/* Whether the directory `path` holds an N.git (serve's epochs of a list). */
static bool holds_epochs(const char *path)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(path);

	while (d && !found && (de = readdir(d)))
		found = is_epoch_name(de->d_name);
	if (d)
		closedir(d);
	return found;
}

/* The epoch repositories of `path`: git/N.git in order, else N.git in
 * order, else `path`. */
static int list_epochs(struct strvec *out, const char *path)
{
	struct strbuf dir = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	struct stat sb;
	DIR *d;
	int ret = 0;

	strbuf_addf(&dir, "%s/git", path);
	if (stat(dir.buf, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		/* serve's copy (STATE/epochs/LIST/N.git), a v1 inbox, or one epoch */
		strbuf_reset(&dir);
		strbuf_addstr(&dir, path);
		if (!holds_epochs(path)) {
			strvec_push(out, path);
			goto out;
		}
	}
	if (!(d = opendir(dir.buf))) {
		ret = error("cannot open '%s': %s", dir.buf, strerror(errno));
		goto out;
	}
	while ((de = readdir(d)) && names.nr <= BACKFILL_MAX_EPOCHS)
		if (is_epoch_name(de->d_name))
			strvec_push(&names, de->d_name);
	closedir(d);
	if (names.nr > BACKFILL_MAX_EPOCHS) {
		ret = error_code(WW_ETOOBIG, "'%s': more than %d epochs", dir.buf,
				 BACKFILL_MAX_EPOCHS);
		goto out;
	}
	if (!names.nr) {
		ret = error_code(WW_ENOTFOUND, "'%s' holds no epoch (N.git)", dir.buf);
		goto out;
	}
	qsort(names.v, names.nr, sizeof(*names.v), cmp_epoch);
	for (size_t i = 0; i < names.nr; i++)
		strvec_pushf(out, "%s/%s", dir.buf, names.v[i]);
out:
	strvec_clear(&names);
	strbuf_release(&dir);
	return ret;
}

/* The inbox's name: its directory's ("/srv/lists/linux-mm/" -> "linux-mm"). */
static char *inbox_name(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *slash;

	strbuf_addstr(&sb, path);
	while (sb.len > 1 && sb.buf[sb.len - 1] == '/')
		strbuf_setlen(&sb, sb.len - 1);
	if (ends_with(sb.buf, ".git"))
		strbuf_setlen(&sb, sb.len - 4);
	slash = strrchr(sb.buf, '/');
	if (slash) {
		char *name = xstrdup(slash + 1);

		strbuf_release(&sb);
		return name;
	}
	return strbuf_detach(&sb, NULL);
}

/* The URL is only ever a link on the dashboard: stored as one, without
 * credentials (redact.h), never a password in the state. */
static int save_url(struct ingest *in, const char *url)
{
	char *link = redact(url, REDACT_LINK);
	int ret = store_exec(in->s, "INSERT INTO backfill_lists (name, url)"
			     " VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET"
			     " url = excluded.url", "ss", in->list, link);

	free(link);
	return ret < 0 ? db_error(in, ret, "cannot record the list's URL") : 0;
}

int backfill_inbox(struct backfill_epoch_stats *out, struct store *s,
		   const char *path, const struct backfill_opts *opts)
{
	struct ingest in = { .s = s, .opts = opts, .sb = STRBUF_INIT };
	struct strvec epochs = STRVEC_INIT;
	char *name = opts->list ? NULL : inbox_name(path);
	int ret;

	gitlib_init();
	in.list = opts->list ? opts->list : name;
	in.copts.rules = (struct ruleset *)opts->rules;
	in.left = opts->max_mails;
	in.limited = opts->max_mails > 0;
	if ((ret = list_epochs(&epochs, path)) < 0 ||
	    (opts->url && (ret = save_url(&in, opts->url)) < 0))
		goto out;
	for (size_t i = 0; i < epochs.nr; i++) {
		struct backfill_epoch_stats st = { 0 };

		in.st = &st;
		ret = read_epoch(&in, epochs.v[i]);
		out->commits += st.commits;
		out->mails += st.mails;
		out->patches += st.patches;
		out->skipped += st.skipped;
		out->seconds += st.seconds;
		out->more |= st.more;
		if (!ret && opts->progress)
			opts->progress(opts->data, in.list, &st);
		backfill_epoch_stats_release(&st);
		if (ret < 0 || out->more)
			break;
	}
out:
	strvec_clear(&epochs);
	strbuf_release(&in.sb);
	free(name);
	return ret;
}

void backfill_epoch_stats_release(struct backfill_epoch_stats *st)
{
	free(st->repo);
	st->repo = NULL;
}
