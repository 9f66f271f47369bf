/*
 * warnwatch backfill: public-inbox epochs -> the state database, and the
 * per-cycle report (see backfill.h).
 */
#include "backfill.h"
#include "check.h"
#include "gitlib.h"
#include "mailhdr.h"
#include "mbox.h"
#include "series.h"
#include "strvec.h"

#include <ctype.h>
#include <dirent.h>
#include <git2.h>
#include <limits.h>
#include <sys/stat.h>

const char backfill_schema_sql[] =
	/* the last commit read per epoch repository of a list */
	"CREATE TABLE backfill_epochs ("
	"  list TEXT NOT NULL,"
	"  repo TEXT NOT NULL,"
	"  last_commit TEXT NOT NULL,"
	"  commits INTEGER NOT NULL,"
	"  updated INTEGER NOT NULL,"
	"  PRIMARY KEY (list, repo)"
	");"
	/* every mail read; kind says what it is */
	"CREATE TABLE backfill_mails ("
	"  id INTEGER PRIMARY KEY,"
	"  list TEXT NOT NULL,"
	"  message_id TEXT NOT NULL,"
	"  commit_id TEXT NOT NULL,"
	"  date INTEGER,"			/* NULL: no readable Date: */
	"  kind TEXT NOT NULL CHECK (kind IN ('patch', 'cover', 'reply', 'other')),"
	"  subject TEXT NOT NULL,"
	"  title TEXT NOT NULL,"		/* the subject after its [tags] */
	"  prefix TEXT NOT NULL,"		/* the [tags]: "[PATCH net-next v2 3/5]" */
	"  version INTEGER NOT NULL,"
	"  idx INTEGER NOT NULL,"		/* n of n/m; -1 none */
	"  total INTEGER NOT NULL,"		/* m of n/m; -1 none */
	"  author TEXT NOT NULL,"
	"  email TEXT NOT NULL,"		/* the author's address, lower case */
	"  in_reply_to TEXT NOT NULL,"
	"  refs TEXT NOT NULL,"			/* References:, raw */
	"  base_commit TEXT,"
	"  UNIQUE (list, message_id)"
	");"
	"CREATE INDEX backfill_mails_kind ON backfill_mails (list, kind);"
	/* every call a patch mail's diff adds or removes */
	"CREATE TABLE backfill_calls ("
	"  mail INTEGER NOT NULL REFERENCES backfill_mails (id) ON DELETE CASCADE,"
	"  kind TEXT NOT NULL CHECK (kind IN ('added', 'removed')),"
	"  macro TEXT NOT NULL,"
	"  class TEXT NOT NULL,"
	"  file TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  function TEXT NOT NULL,"
	"  conversion INTEGER NOT NULL,"
	"  moved INTEGER NOT NULL"
	");"
	"CREATE INDEX backfill_calls_mail ON backfill_calls (mail);"
	/* where each list's archive is on the web (for links to mails) */
	"CREATE TABLE backfill_lists ("
	"  name TEXT PRIMARY KEY,"
	"  url TEXT NOT NULL"
	");";

/* ---- reading epochs ---- */

struct ingest {
	struct store *s;
	const struct backfill_opts *opts;
	const char *list;
	struct check_opts copts;
	struct backfill_epoch_stats *st;
	struct strbuf sb;
};

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
		if (ret < 0) {
			/* a diff check cannot read is a mail without calls */
			error_clear();
			ret = 0;
		}
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

/* v1: the blobs a commit added (one mail, normally). */
static int v1_blobs(git_oid **out, size_t *nr, git_repository *repo,
		    git_commit *c, git_tree *tree)
{
	git_commit *parent = NULL;
	git_tree *ptree = NULL;
	git_diff *diff = NULL;
	int ret = -1;

	*out = NULL;
	*nr = 0;
	if (git_commit_parentcount(c) &&
	    (git_commit_parent(&parent, c, 0) < 0 || git_commit_tree(&ptree, parent) < 0))
		goto out;
	if (git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL) < 0)
		goto out;
	*out = xcalloc(git_diff_num_deltas(diff) + 1, sizeof(**out));
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_ADDED || d->status == GIT_DELTA_MODIFIED)
			(*out)[(*nr)++] = d->new_file.id;
	}
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_commit_free(parent);
	return ret;
}

static int read_commit(struct ingest *in, git_repository *repo, const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *c = NULL;
	git_tree *tree = NULL;
	const git_tree_entry *e;
	git_oid *blobs = NULL, one;
	size_t nr = 0;
	int ret = 0;

	git_oid_tostr(hex, sizeof(hex), oid);
	if (git_commit_lookup(&c, repo, oid) < 0 || git_commit_tree(&tree, c) < 0) {
		ret = error("cannot read commit %s: %s", hex, gitlib_error());
		goto out;
	}
	if ((e = git_tree_entry_byname(tree, "m"))) {		/* v2 */
		one = *git_tree_entry_id(e);
		blobs = &one;
		nr = 1;
	} else if (git_tree_entry_byname(tree, "d")) {		/* v2 deletion */
		in->st->skipped++;
		goto out;
	} else if (v1_blobs(&blobs, &nr, repo, c, tree) < 0) {
		ret = error("cannot diff commit %s: %s", hex, gitlib_error());
		goto out;
	}
	for (size_t i = 0; !ret && i < nr; i++) {
		git_blob *b = NULL;

		if (git_blob_lookup(&b, repo, &blobs[i]) < 0) {
			ret = error("commit %s: cannot read its mail: %s", hex, gitlib_error());
			break;
		}
		if (git_blob_rawsize(b) > BACKFILL_MAX_MAIL)
			in->st->skipped++;
		else
			ret = record_mail(in, hex, git_blob_rawcontent(b),
					  git_blob_rawsize(b));
		git_blob_free(b);
	}
out:
	if (blobs != &one)
		free(blobs);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
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
	git_revwalk *walk = NULL;
	git_oid head, last, oid;
	bool have_last;
	double t0 = monotonic_now();
	int ret, rc;

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
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push(walk, &head) < 0) {
		ret = error("'%s': cannot walk: %s", path, gitlib_error());
		goto out;
	}
	/* a last commit the epoch no longer has (history rewritten): read it
	 * all again; the Message-IDs already recorded are skipped */
	if (have_last && git_revwalk_hide(walk, &last) < 0)
		error_clear();
	if ((ret = store_begin(in->s)) < 0)
		goto out;
	while (!(rc = git_revwalk_next(&oid, walk))) {
		in->st->commits++;
		if ((ret = read_commit(in, repo, &oid)) < 0)
			break;
	}
	if (!ret && rc != GIT_ITEROVER)
		ret = error("'%s': cannot walk: %s", path, gitlib_error());
	if (!ret)
		ret = save_epoch(in, real, &head, in->st->commits);
	if (!ret)
		ret = store_commit(in->s);
	else
		store_rollback(in->s);
	if (ret < 0)
		error_prefix(ret, "%s", path);
out:
	in->st->seconds = monotonic_now() - t0;
	git_revwalk_free(walk);
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

/* The epoch repositories of `path`: git/N.git in order, else `path`. */
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
		strvec_push(out, path);		/* v1, or one epoch */
		goto out;
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

static int save_url(struct ingest *in, const char *url)
{
	int ret = store_exec(in->s, "INSERT INTO backfill_lists (name, url)"
			     " VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET"
			     " url = excluded.url", "ss", in->list, url);

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
		if (!ret && opts->progress)
			opts->progress(opts->data, in.list, &st);
		backfill_epoch_stats_release(&st);
		if (ret < 0)
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

/* ---- the report ---- */

enum rkind { RK_PATCH, RK_COVER };

struct rcall {
	bool added;
	bool conversion;
	enum rule_class class;
	char *macro;
	char *where;		/* "file\nfunction": where a call is, for versions */
};

struct rmail {
	long long id;
	enum rkind kind;
	char *mid, *irt, *refs, *email, *title, *subject, *base;
	int version, idx;
	time_t date;
	struct rcall *calls;
	size_t nr_calls, alloc_calls;
	size_t anchor;		/* the posting it belongs to (index) */
	size_t series;		/* the series of its posting (index) */
};

struct rseries {
	size_t newest;		/* the anchor counted */
	size_t *postings;	/* anchors, by version then date */
	size_t nr_postings;
};

struct rlist {
	struct rmail *v;
	size_t nr, alloc;
	size_t *by_mid;		/* indexes sorted by message-id */
	struct rseries *series;
	size_t nr_series;
};

static char *col(struct store_rows *r, int i)
{
	return xstrdup(store_rows_text(r, i));
}

static const struct rmail *sort_base;

static int cmp_mid(const void *a, const void *b)
{
	return strcmp(sort_base[*(const size_t *)a].mid, sort_base[*(const size_t *)b].mid);
}

static long find_mid(const struct rlist *l, const char *mid)
{
	size_t lo = 0, hi = l->nr;

	while (lo < hi) {
		size_t mi = (lo + hi) / 2;
		int c = strcmp(l->v[l->by_mid[mi]].mid, mid);

		if (!c)
			return l->by_mid[mi];
		if (c < 0)
			lo = mi + 1;
		else
			hi = mi;
	}
	return -1;
}

static int load_list(struct rlist *l, struct store *s, const char *list)
{
	struct store_rows *st = NULL;
	int rc;

	rc = store_query(&st, s, "SELECT id, kind, message_id, in_reply_to, refs, email,"
			 " title, subject, base_commit, version, idx, date FROM backfill_mails"
			 " WHERE list = ? AND kind IN ('patch', 'cover') ORDER BY id", "s", list);
	while (rc == 1 && (rc = store_rows_next(st)) == 1) {
		struct rmail *m;

		if (l->nr == l->alloc) {
			l->alloc = l->alloc ? 2 * l->alloc : 256;
			l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
		}
		m = &l->v[l->nr++];
		memset(m, 0, sizeof(*m));
		m->id = store_rows_int(st, 0);
		m->kind = !strcmp(store_rows_text(st, 1), "cover") ? RK_COVER : RK_PATCH;
		m->mid = col(st, 2);
		m->irt = col(st, 3);
		m->refs = col(st, 4);
		m->email = col(st, 5);
		m->title = col(st, 6);
		m->subject = col(st, 7);
		m->base = store_rows_is_null(st, 8) ? NULL : col(st, 8);
		m->version = store_rows_int(st, 9);
		m->idx = store_rows_int(st, 10);
		m->date = store_rows_int(st, 11);
	}
	store_rows_free(st);
	return rc < 0 ? error_prefix(rc, "cannot read the mails of '%s'", list) : 0;
}

static int load_calls(struct rlist *l, struct store *s, const char *list)
{
	struct store_rows *st = NULL;
	struct strbuf sql = STRBUF_INIT;
	size_t j = 0;
	int rc;

	/* both in id order: one merge pass; a mail's calls as recorded */
	strbuf_addf(&sql, "SELECT c.mail, c.kind, c.macro, c.class, c.file, c.function,"
		    " c.conversion FROM backfill_calls c JOIN backfill_mails m"
		    " ON m.id = c.mail WHERE m.list = ? AND m.kind = 'patch'"
		    " AND c.moved = 0 ORDER BY c.mail, c.%s", store_insert_order(s));
	rc = store_query(&st, s, sql.buf, "s", list);
	strbuf_release(&sql);
	while (rc == 1 && (rc = store_rows_next(st)) == 1) {
		long long id = store_rows_int(st, 0);
		struct rmail *m;
		struct rcall *c;
		struct strbuf where = STRBUF_INIT;

		while (j < l->nr && l->v[j].id < id)
			j++;
		if (j == l->nr || l->v[j].id != id)
			continue;
		m = &l->v[j];
		if (m->nr_calls == m->alloc_calls) {
			m->alloc_calls = m->alloc_calls ? 2 * m->alloc_calls : 4;
			m->calls = xrealloc(m->calls, m->alloc_calls * sizeof(*m->calls));
		}
		c = &m->calls[m->nr_calls++];
		c->added = !strcmp(store_rows_text(st, 1), "added");
		c->macro = col(st, 2);
		if (rule_class_parse(&c->class, store_rows_text(st, 3)) < 0) {
			error_clear();
			c->class = RC_WARN;
		}
		strbuf_addf(&where, "%s\n", store_rows_text(st, 4));
		strbuf_addstr(&where, store_rows_text(st, 5));
		c->where = strbuf_detach(&where, NULL);
		c->conversion = store_rows_int(st, 6);
	}
	store_rows_free(st);
	return rc < 0 ? error_prefix(rc, "cannot read the calls of '%s'", list) : 0;
}

/*
 * The posting a mail belongs to: the first message it answers (References
 * in order, then In-Reply-To) that is a cover letter or a patch 1 of the
 * same version -- or, for a patch 2/n and later, any patch of the same
 * version -- else itself.  A v2 sent in reply to v1 is its own posting.
 */
static size_t find_anchor(const struct rlist *l, size_t i)
{
	const struct rmail *m = &l->v[i];
	const char *p = m->refs;
	char id[1024];

	if (m->kind == RK_COVER)
		return i;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			p = m->irt;
		while (*p) {
			const char *lt = pass ? p : strchr(p, '<'), *gt;
			size_t n;
			long j;

			if (!lt)
				break;
			if (pass) {
				n = strlen(lt);
				p += n;
			} else {
				lt++;
				if (!(gt = strchr(lt, '>')))
					break;
				n = gt - lt;
				p = gt + 1;
			}
			if (!n || n >= sizeof(id))
				continue;
			memcpy(id, lt, n);
			id[n] = '\0';
			j = find_mid(l, id);
			/* a patch of the same version: its posting (resolved
			 * by group_series: deep threading, 3 -> 2 -> 1) */
			if (j >= 0 && (size_t)j != i && l->v[j].version == m->version &&
			    (m->idx > 1 || l->v[j].kind == RK_COVER || l->v[j].idx == 1))
				return j;
		}
	}
	return i;
}

static int cmp_posting(const struct rlist *l, size_t a, size_t b)
{
	const struct rmail *x = &l->v[a], *y = &l->v[b];

	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Series identity: the posting's author and title, case and blanks folded. */
static char *series_key(const struct rmail *m)
{
	struct strbuf sb = STRBUF_INIT;
	bool blank = false;

	strbuf_addf(&sb, "%s\n", m->email);
	for (const char *p = m->title; *p; p++) {
		if (isspace((unsigned char)*p)) {
			blank = sb.len && sb.buf[sb.len - 1] != '\n';
			continue;
		}
		if (blank)
			strbuf_addch(&sb, ' ');
		blank = false;
		strbuf_addch(&sb, tolower((unsigned char)*p));
	}
	return strbuf_detach(&sb, NULL);
}

struct keyed {
	char *key;
	size_t anchor;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->anchor > y->anchor) - (x->anchor < y->anchor);
}

static void group_series(struct rlist *l)
{
	struct keyed *k = xcalloc(l->nr + 1, sizeof(*k));
	size_t nk = 0;

	l->by_mid = xcalloc(l->nr + 1, sizeof(*l->by_mid));
	for (size_t i = 0; i < l->nr; i++)
		l->by_mid[i] = i;
	sort_base = l->v;
	qsort(l->by_mid, l->nr, sizeof(*l->by_mid), cmp_mid);
	for (size_t i = 0; i < l->nr; i++)
		l->v[i].anchor = find_anchor(l, i);
	/* patch 3 answering patch 1 answering the cover: the cover's */
	for (size_t i = 0; i < l->nr; i++)
		for (int hops = 0; hops < 8 && l->v[l->v[i].anchor].anchor != l->v[i].anchor; hops++)
			l->v[i].anchor = l->v[l->v[i].anchor].anchor;
	for (size_t i = 0; i < l->nr; i++) {
		if (l->v[i].anchor == i) {
			k[nk].key = series_key(&l->v[i]);
			k[nk++].anchor = i;
		}
	}
	qsort(k, nk, sizeof(*k), cmp_keyed);
	l->series = xcalloc(nk + 1, sizeof(*l->series));
	for (size_t i = 0; i < nk; ) {
		struct rseries *s = &l->series[l->nr_series];
		size_t j = i;

		while (j < nk && !strcmp(k[j].key, k[i].key))
			j++;
		s->postings = xcalloc(j - i, sizeof(*s->postings));
		for (size_t x = i; x < j; x++) {
			size_t a = k[x].anchor, y = s->nr_postings++;

			/* insertion by version, then date */
			while (y && cmp_posting(l, s->postings[y - 1], a) > 0) {
				s->postings[y] = s->postings[y - 1];
				y--;
			}
			s->postings[y] = a;
			l->v[a].series = l->nr_series;
		}
		s->newest = s->postings[s->nr_postings - 1];
		l->nr_series++;
		i = j;
	}
	for (size_t i = 0; i < l->nr; i++)
		l->v[i].series = l->v[l->v[i].anchor].series;
	for (size_t i = 0; i < nk; i++)
		free(k[i].key);
	free(k);
}

static void rlist_release(struct rlist *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		struct rmail *m = &l->v[i];

		for (size_t j = 0; j < m->nr_calls; j++) {
			free(m->calls[j].macro);
			free(m->calls[j].where);
		}
		free(m->calls);
		free(m->mid);
		free(m->irt);
		free(m->refs);
		free(m->email);
		free(m->title);
		free(m->subject);
		free(m->base);
	}
	for (size_t i = 0; i < l->nr_series; i++)
		free(l->series[i].postings);
	free(l->series);
	free(l->v);
	free(l->by_mid);
	memset(l, 0, sizeof(*l));
}

struct rcycle {
	bool used;
	long adding[RC__NR], added[RC__NR], removed[RC__NR];
	long conversions, review_conversions;
	/* BACKFILL_REPORT_MAILS: the mails behind the numbers */
	json_t *m_adding[RC__NR], *m_removed, *m_conversions;
};

static bool is_bug_class(enum rule_class c)
{
	return c == RC_BUG || c == RC_PANIC;
}

static bool is_warn_class(enum rule_class c)
{
	return c == RC_WARN || c == RC_WARN_ONCE || c == RC_WARN_LIKE;
}

static void day_str(char *buf, size_t size, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

static json_t *mail_json(const struct rmail *m)
{
	char date[32] = "";
	struct tm tm;

	if (m->date) {
		gmtime_r(&m->date, &tm);
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	return json_pack("{s:s, s:s, s:s?}", "message_id", m->mid, "subject", m->subject,
			 "date", m->date ? date : NULL);
}

/* Add `m` to `arr` once (the last entry is the only candidate twin). */
static void add_mail(json_t **arr, const struct rmail *m)
{
	size_t n;

	if (!*arr)
		*arr = json_array();
	n = json_array_size(*arr);
	if (n && !strcmp(json_string_value(json_object_get(json_array_get(*arr, n - 1),
							   "message_id")), m->mid))
		return;
	json_array_append_new(*arr, mail_json(m));
}

struct where_count {
	const char *where;
	int bug[2], warn[2];
	const struct rmail *warn_mail;	/* the newer posting's mail adding a WARN */
};

static void count_where(struct where_count **v, size_t *nr, const struct rmail *m,
			int side)
{
	for (size_t i = 0; i < m->nr_calls; i++) {
		const struct rcall *c = &m->calls[i];
		struct where_count *w = NULL;

		if (!c->added || (!is_bug_class(c->class) && !is_warn_class(c->class)))
			continue;
		for (size_t j = 0; j < *nr && !w; j++)
			if (!strcmp((*v)[j].where, c->where))
				w = &(*v)[j];
		if (!w) {
			*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
			w = &(*v)[(*nr)++];
			memset(w, 0, sizeof(*w));
			w->where = c->where;
		}
		if (is_bug_class(c->class)) {
			w->bug[side]++;
		} else {
			w->warn[side]++;
			if (side)
				w->warn_mail = m;
		}
	}
}

/*
 * Conversions the review of a series made: in each file and function, a
 * BUG-class call that version N added and N+1 no longer adds, where N+1
 * adds a WARN-class call instead.
 */
static void review_conversions(struct rcycle *rc, const struct rlist *l,
			       const size_t *order, size_t nr_order,
			       const struct rseries *s, bool mails)
{
	for (size_t p = 0, q; p + 1 < s->nr_postings; p = q) {
		struct where_count *w = NULL;
		size_t nw = 0;

		/* the last posting of a version against the last of the next
		 * one: a resend replaces what it resends */
		if (l->v[s->postings[p]].version == l->v[s->postings[p + 1]].version) {
			q = p + 1;
			continue;
		}
		q = p + 1;
		while (q + 1 < s->nr_postings &&
		       l->v[s->postings[q]].version == l->v[s->postings[q + 1]].version)
			q++;

		for (size_t k = 0; k < nr_order; k++) {
			const struct rmail *m = &l->v[order[k]];

			if (m->anchor == s->postings[p])
				count_where(&w, &nw, m, 0);
			else if (m->anchor == s->postings[q])
				count_where(&w, &nw, m, 1);
		}
		for (size_t j = 0; j < nw; j++) {
			int dropped = w[j].bug[0] - w[j].bug[1];
			int gained = w[j].warn[1] - w[j].warn[0];
			int n = dropped < gained ? dropped : gained;

			if (n <= 0)
				continue;
			rc->used = true;
			rc->review_conversions += n;
			if (mails)
				add_mail(&rc->m_conversions, w[j].warn_mail);
		}
		free(w);
	}
}

/* The cycle of a series: its newest posting's date and base-commit. */
static size_t series_cycle(const struct rlist *l, const size_t *order, size_t nr_order,
			   const struct rseries *s, const struct cycles *c)
{
	const struct rmail *a = &l->v[s->newest];
	const char *base = a->base;
	time_t date = a->date;

	for (size_t k = 0; k < nr_order; k++) {
		const struct rmail *m = &l->v[order[k]];

		if (m->anchor != s->newest)
			continue;
		if (!base && m->base)
			base = m->base;
		if (!date || (m->date && m->date < date))
			date = m->date;
	}
	return cycles_find(c, date, base);
}

static json_t *class_counts(const long *v)
{
	json_t *o = json_object();

	for (int i = 0; i < RC__NR; i++)
		json_object_set_new(o, rule_class_name(i), json_integer(v[i]));
	return o;
}

static void bump(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	json_object_set_new(o, key, json_integer(v ? json_integer_value(v) + 1 : 1));
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static json_t *cycles_json(struct rcycle *rc, const struct cycles *c, bool mails)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < c->nr; i++) {
		struct rcycle *r = &rc[i];
		char from[16], to[16];
		json_t *o;

		if (!r->used)
			continue;
		day_str(from, sizeof(from), c->v[i].from);
		day_str(to, sizeof(to), c->v[i].to);
		o = json_pack("{s:s, s:s?, s:s?, s:o, s:o, s:o, s:I}",
			      "release", c->v[i].name,
			      "from", c->v[i].from ? from : NULL,
			      "to", c->v[i].to ? to : NULL,
			      "patches_adding", class_counts(r->adding),
			      "calls_added", class_counts(r->added),
			      "calls_removed", class_counts(r->removed),
			      "conversions", (json_int_t)r->conversions + r->review_conversions);
		if (mails) {
			json_t *m = json_object(), *ad = json_object();

			for (int k = 0; k < RC__NR; k++)
				json_object_set_new(ad, rule_class_name(k),
						    r->m_adding[k] ? r->m_adding[k] : json_array());
			json_object_set_new(m, "patches_adding", ad);
			json_object_set_new(m, "calls_removed",
					    r->m_removed ? r->m_removed : json_array());
			json_object_set_new(m, "conversions",
					    r->m_conversions ? r->m_conversions : json_array());
			json_object_set_new(o, "mails", m);
			json_object_set_new(o, "review_conversions",
					    json_integer(r->review_conversions));
			memset(r->m_adding, 0, sizeof(r->m_adding));
			r->m_removed = r->m_conversions = NULL;
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

static void count_patch(struct rcycle *r, const struct rmail *m, bool mails)
{
	bool adds[RC__NR] = { false };

	r->used = true;
	for (size_t i = 0; i < m->nr_calls; i++) {
		const struct rcall *c = &m->calls[i];

		if (c->added) {
			r->added[c->class]++;
			adds[c->class] = true;
			continue;
		}
		r->removed[c->class]++;
		if (mails)
			add_mail(&r->m_removed, m);
		if (c->conversion && is_bug_class(c->class)) {
			r->conversions++;
			if (mails)
				add_mail(&r->m_conversions, m);
		}
	}
	for (int k = 0; k < RC__NR; k++) {
		r->adding[k] += adds[k];
		if (adds[k] && mails)
			add_mail(&r->m_adding[k], m);
	}
}

/* The list's archive URL ("http://host/NAME/"): as recorded by --url,
 * else lore's. */
static json_t *list_url(struct store *s, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	struct store_rows *st = NULL;
	json_t *j;

	if (store_query(&st, s, "SELECT url FROM backfill_lists WHERE name = ?", "s",
			name) == 1)
		strbuf_addstr(&sb, store_rows_text(st, 0));
	else
		error_clear();	/* no URL recorded: lore's */
	store_rows_free(st);
	if (!sb.len)
		strbuf_addf(&sb, "https://lore.kernel.org/%s/", name);
	if (sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	j = json_string(sb.buf);
	strbuf_release(&sb);
	return j;
}

static int list_report(json_t *lists, json_t *tot_added, json_t *tot_removed,
		       struct store *s, const struct cycles *c, const char *name,
		       long mails_total, bool mails)
{
	struct rlist l = { 0 };
	struct rcycle *rc = xcalloc(c->nr, sizeof(*rc));
	size_t *order = NULL, nr_order = 0, *scycle = NULL;
	long patch_mails = 0;
	int ret;

	if ((ret = load_list(&l, s, name)) < 0 || (ret = load_calls(&l, s, name)) < 0)
		goto out;
	group_series(&l);
	/* patch mails by posting, then patch number */
	order = xcalloc(l.nr + 1, sizeof(*order));
	for (size_t i = 0; i < l.nr; i++)
		if (l.v[i].kind == RK_PATCH)
			order[nr_order++] = i;
	qsort(order, nr_order, sizeof(*order), cmp_size);
	scycle = xcalloc(l.nr_series + 1, sizeof(*scycle));
	for (size_t i = 0; i < l.nr_series; i++) {
		scycle[i] = series_cycle(&l, order, nr_order, &l.series[i], c);
		if (l.series[i].nr_postings > 1)
			review_conversions(&rc[scycle[i]], &l, order, nr_order,
					   &l.series[i], mails);
	}
	for (size_t k = 0; k < nr_order; k++) {
		const struct rmail *m = &l.v[order[k]];

		patch_mails++;
		for (size_t i = 0; i < m->nr_calls; i++)
			bump(m->calls[i].added ? tot_added : tot_removed, m->calls[i].macro);
		if (m->anchor == l.series[m->series].newest)
			count_patch(&rc[scycle[m->series]], m, mails);
	}
	json_array_append_new(lists, json_pack("{s:s, s:I, s:I, s:o}", "name", name,
					       "mails", (json_int_t)mails_total,
					       "patch_mails", (json_int_t)patch_mails,
					       "cycles", cycles_json(rc, c, mails)));
	if (mails)
		json_object_set_new(json_array_get(lists, json_array_size(lists) - 1), "url",
				    list_url(s, name));
out:
	for (size_t i = 0; i < c->nr; i++) {
		for (int k = 0; k < RC__NR; k++)
			json_decref(rc[i].m_adding[k]);
		json_decref(rc[i].m_removed);
		json_decref(rc[i].m_conversions);
	}
	free(rc);
	free(order);
	free(scycle);
	rlist_release(&l);
	return ret;
}

/* Sort a {MACRO: N} object by name: stable output for tests and diffs. */
static json_t *sorted_object(json_t *o)
{
	struct strvec keys = STRVEC_INIT;
	const char *k;
	json_t *v, *out = json_object();

	json_object_foreach(o, k, v)
		strvec_push(&keys, k);
	strvec_sort(&keys);
	for (size_t i = 0; i < keys.nr; i++)
		json_object_set(out, keys.v[i], json_object_get(o, keys.v[i]));
	strvec_clear(&keys);
	json_decref(o);
	return out;
}

bool backfill_is_empty(struct store *s)
{
	struct store_rows *st = NULL;
	bool empty = store_query(&st, s, "SELECT 1 FROM backfill_mails LIMIT 1", "") != 1;

	store_rows_free(st);
	error_clear();
	return empty;
}

int backfill_report(json_t **out, struct store *s, const struct cycles *c,
		    const char *list, unsigned int flags)
{
	json_t *lists = json_array(), *added = json_object(), *removed = json_object();
	struct store_rows *st = NULL;
	int rc, ret = 0;

	*out = NULL;
	/* all lists when `list` is NULL ("" binds as no list) */
	rc = store_query(&st, s, "SELECT list, count(*) FROM backfill_mails"
			 " WHERE ? = '' OR list = ? GROUP BY list ORDER BY list", "ss",
			 list, list);
	while (rc == 1 && (rc = store_rows_next(st)) == 1) {
		char *name = col(st, 0);

		ret = list_report(lists, added, removed, s, c, name,
				  store_rows_int(st, 1), flags & BACKFILL_REPORT_MAILS);
		free(name);
		if (ret < 0)
			goto out;
	}
	if (rc < 0) {
		ret = error_prefix(rc, "cannot read the lists");
		goto out;
	}
	*out = json_pack("{s:o, s:{s:o, s:o}}", "lists", lists, "totals",
			 "calls_added", sorted_object(added),
			 "calls_removed", sorted_object(removed));
	lists = added = removed = NULL;
out:
	store_rows_free(st);
	json_decref(lists);
	json_decref(added);
	json_decref(removed);
	return ret;
}
