/*
 * public-inbox epochs with libgit2: reading them commit by commit, and
 * fetching them over HTTP (see epoch.h).
 */
#include "epoch.h"
#include "gitlib.h"

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

/* A mail over EPOCH_MAX_MAIL: counted, and said to the caller. */
static int skip_big(struct epoch_walk *st, const char *hex, size_t size, void *data)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	error_clear();
	st->skipped++;
	st->too_big++;
	if (!st->on_skip)
		return 0;
	strbuf_addf(&why, "commit %s: its mail is %zu bytes, over the %u MiB cap: "
		    "not read", hex, size, EPOCH_MAX_MAIL >> 20);
	ret = st->on_skip(data, hex, why.buf);
	strbuf_release(&why);
	return ret;
}

static int read_commit(struct epoch_walk *st, git_repository *repo, const git_oid *oid,
		       epoch_mail_fn fn, void *data)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *c = NULL;
	git_tree *tree = NULL;
	const git_tree_entry *e;
	git_oid *blobs = NULL, one;
	size_t nr = 0;
	int ret = 0;

	git_oid_tostr(hex, sizeof(hex), oid);
	st->commits++;
	if (git_commit_lookup(&c, repo, oid) < 0 || git_commit_tree(&tree, c) < 0) {
		ret = error("cannot read commit %s: %s", hex, gitlib_error());
		goto out;
	}
	if ((e = git_tree_entry_byname(tree, "m"))) {		/* v2 */
		one = *git_tree_entry_id(e);
		blobs = &one;
		nr = 1;
	} else if (git_tree_entry_byname(tree, "d")) {		/* v2 deletion */
		st->skipped++;
		goto out;
	} else if (v1_blobs(&blobs, &nr, repo, c, tree) < 0) {
		ret = error("cannot diff commit %s: %s", hex, gitlib_error());
		goto out;
	}
	for (size_t i = 0; !ret && i < nr; i++) {
		git_blob *b = NULL;
		size_t size;

		/* the size from the object's header: a bomb is never inflated */
		ret = gitlib_blob_read(&b, &size, repo, &blobs[i], EPOCH_MAX_MAIL);
		if (ret == WW_ETOOBIG) {
			ret = skip_big(st, hex, size, data);
			continue;
		}
		if (ret < 0) {
			ret = error_prefix(ret, "commit %s: cannot read its mail", hex);
			break;
		}
		ret = fn(data, hex, git_blob_rawcontent(b), git_blob_rawsize(b));
		git_blob_free(b);
	}
out:
	if (blobs != &one)
		free(blobs);
	git_tree_free(tree);
	git_commit_free(c);
	return ret;
}

static int new_walk(git_revwalk **out, git_repository *repo, const git_oid *since,
		    const git_oid *head, unsigned int sorting)
{
	if (git_revwalk_new(out, repo) < 0 || git_revwalk_sorting(*out, sorting) < 0 ||
	    git_revwalk_push(*out, head) < 0)
		return error("cannot walk: %s", gitlib_error());
	/* a last commit the epoch no longer has (history rewritten): read it
	 * all again; the caller skips the Message-IDs it has */
	if (since && git_revwalk_hide(*out, since) < 0)
		error_clear();
	return 0;
}

int epoch_walk(struct epoch_walk *st, git_repository *repo, const git_oid *since,
	       const git_oid *head, size_t limit, epoch_mail_fn fn, void *data)
{
	git_revwalk *walk = NULL;
	git_oid oid, *newest = NULL;
	size_t nr = 0;
	int ret, rc = GIT_ITEROVER;

	if (since && git_oid_equal(since, head))
		return 0;
	if (!limit) {
		ret = new_walk(&walk, repo, since, head,
			       GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
		while (!ret && !(rc = git_revwalk_next(&oid, walk)))
			ret = read_commit(st, repo, &oid, fn, data);
		goto out;
	}
	/* the newest `limit`, then read oldest first */
	ret = new_walk(&walk, repo, since, head, GIT_SORT_TOPOLOGICAL);
	newest = xcalloc(limit, sizeof(*newest));
	while (!ret && nr < limit && !(rc = git_revwalk_next(&newest[nr], walk)))
		nr++;
	if (nr == limit)
		rc = GIT_ITEROVER;
	while (!ret && nr > 0)
		ret = read_commit(st, repo, &newest[--nr], fn, data);
out:
	if (!ret && rc != GIT_ITEROVER)
		ret = error("cannot walk: %s", gitlib_error());
	free(newest);
	git_revwalk_free(walk);
	return ret;
}

/* ---- fetching ---------------------------------------------------------- */

struct fetch_limits {
	double deadline;
	int why;		/* 0, WW_ETOOBIG, WW_ETIMEOUT: why we stopped it */
};

static int fetch_progress(const git_indexer_progress *p, void *payload)
{
	struct fetch_limits *fl = payload;

	if (p->received_bytes > EPOCH_MAX_FETCH)
		fl->why = WW_ETOOBIG;
	else if (monotonic_now() > fl->deadline)
		fl->why = WW_ETIMEOUT;
	return fl->why ? -1 : 0;
}

/* The tip of the epoch's branch: master, else the first one. */
static bool branch_head(git_oid *out, git_repository *repo)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	bool found = false;

	if (!git_reference_name_to_id(out, repo, "refs/heads/master"))
		return true;
	if (git_reference_iterator_glob_new(&it, repo, "refs/heads/*") < 0)
		return false;
	if (!git_reference_next(&ref, it)) {
		found = !git_reference_name_to_id(out, repo, git_reference_name(ref));
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	return found;
}

int epoch_fetch(git_repository **out_repo, git_oid *out_head, bool *has_head,
		const char *dir, const char *url)
{
	char *mirror[] = { "+refs/heads/*:refs/heads/*" };
	git_strarray specs = { mirror, 1 };
	git_fetch_options fo;
	git_remote_create_options ro;
	struct fetch_limits fl = { .deadline = monotonic_now() + EPOCH_FETCH_SECONDS };
	git_remote *remote = NULL;
	int ret = 0;

	gitlib_init();
	if (starts_with(url, "https://") && (ret = gitlib_enable_tls()) < 0)
		return ret;
	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	*out_repo = NULL;
	*has_head = false;
	if (git_repository_open_bare(out_repo, dir) < 0 &&
	    git_repository_init(out_repo, dir, 1) < 0)
		return error("cannot create '%s': %s", dir, gitlib_error());
	fo.callbacks.transfer_progress = fetch_progress;
	fo.callbacks.payload = &fl;
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	fo.update_fetchhead = 0;
	/* anonymous, and without url.*.insteadOf: libgit2 1.5 matches those
	 * keys with PCRE2 and leaks its match data (about 20 KiB a key, each
	 * poll of a long-running serve) */
	git_remote_create_options_init(&ro, GIT_REMOTE_CREATE_OPTIONS_VERSION);
	ro.repository = *out_repo;
	ro.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF |
		   GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC;
	if (git_remote_create_with_opts(&remote, url, &ro) < 0) {
		ret = error_code(WW_EINPUT, "'%s': %s", url, gitlib_error());
		goto out;
	}
	if (git_remote_fetch(remote, &specs, &fo, NULL) < 0) {
		if (fl.why == WW_ETOOBIG)
			ret = error_code(fl.why, "'%s': more than %llu bytes", url,
					 EPOCH_MAX_FETCH);
		else if (fl.why)
			ret = error_code(fl.why, "'%s': not fetched in %d s", url,
					 EPOCH_FETCH_SECONDS);
		else
			ret = error_code(WW_ENET, "cannot fetch '%s': %s", url,
					 gitlib_error());
		goto out;
	}
	*has_head = branch_head(out_head, *out_repo);
out:
	git_remote_free(remote);
	if (ret < 0) {
		git_repository_free(*out_repo);
		*out_repo = NULL;
	}
	return ret;
}

int epoch_exists(const char *url, const struct archive_opts *opts)
{
	struct strbuf u = STRBUF_INIT, body = STRBUF_INIT;
	long status = 0;
	int ret;

	strbuf_addf(&u, "%s/info/refs?service=git-upload-pack", url);
	ret = archive_get(&body, &status, u.buf, opts);
	if (ret == WW_ENOTFOUND) {
		error_clear();
		ret = 0;
	} else if (!ret) {
		ret = 1;
	}
	strbuf_release(&u);
	strbuf_release(&body);
	return ret;
}

void epoch_url(struct strbuf *out, const char *archive, const char *inbox,
	       unsigned int n)
{
	strbuf_addf(out, "%s/%s/git/%u.git", archive, inbox, n);
}
