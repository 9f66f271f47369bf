/*
 * Unit tests for bot/mail/epoch.c and the queue's epoch bookkeeping
 * (queue_epoch_*, bot/serve/queue.c), on v2 epochs written here with
 * libgit2 (tests/unit/pi.h): reading oldest first, from after a commit,
 * only the newest N, deletions and history rewritten; fetching an epoch
 * into a bare repository and again after more mail; the position per
 * epoch surviving a reopened store (a restarted service).
 */
#include "epoch.h"
#include "gitlib.h"
#include "queue.h"
#include "strbuf.h"
#include "strvec.h"
#include "tap.h"
#include "tmpdir.h"
#include "pi.h"

#include <unistd.h>

static git_repository *repo;

static void mail(int n)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "From: Jane <jane@example.org>\nSubject: [PATCH] m%d\n"
		    "Message-ID: <m%d@example.org>\n\nText %d.\n", n, n, n);
	pi_add_mail(repo, sb.buf);
	strbuf_release(&sb);
}

/* A deletion, as public-inbox records one: the tree holds "d". */
static void deletion(void)
{
	git_oid blob, tree, commit, parent;
	git_treebuilder *tb = NULL;
	git_signature *sig = NULL;
	git_tree *t = NULL;
	git_commit *p = NULL;

	git_reference_name_to_id(&parent, repo, "HEAD");
	git_blob_create_from_buffer(&blob, repo, "x", 1);
	git_treebuilder_new(&tb, repo, NULL);
	git_treebuilder_insert(NULL, tb, "d", &blob, GIT_FILEMODE_BLOB);
	git_treebuilder_write(&tree, tb);
	git_tree_lookup(&t, repo, &tree);
	git_signature_new(&sig, "t", "t@example.org", 1700000000, 0);
	git_commit_lookup(&p, repo, &parent);
	git_commit_create_v(&commit, repo, "HEAD", sig, sig, NULL, "d", t, 1, p);
	git_commit_free(p);
	git_tree_free(t);
	git_signature_free(sig);
	git_treebuilder_free(tb);
}

/* epoch_walk()'s callback: the subjects' numbers, in order, and the
 * commits; stops (returns 1) at `stop_at` mails when set. */
struct seen {
	struct strvec ids, commits;
	size_t stop_at;
};

static int collect(void *data, const char *commit, const char *buf, size_t len)
{
	struct seen *s = data;
	const char *m = memmem(buf, len, "] m", 3);
	struct strbuf id = STRBUF_INIT;

	if (m)
		strbuf_add(&id, m + 2, strcspn(m + 2, "\n"));
	strvec_push(&s->ids, id.buf);
	strbuf_release(&id);
	strvec_push(&s->commits, commit);
	return s->stop_at && s->ids.nr == s->stop_at ? 1 : 0;
}

static void seen_reset(struct seen *s)
{
	strvec_clear(&s->ids);
	strvec_clear(&s->commits);
	s->stop_at = 0;
}

static char *joined(const struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", v->v[i]);
	return strbuf_detach(&sb, NULL);
}

static void head(git_oid *out, git_repository *r)
{
	git_reference_name_to_id(out, r, "HEAD");
}

static void test_walk(void)
{
	struct seen s = { STRVEC_INIT, STRVEC_INIT, 0 };
	struct epoch_walk st = { 0 };
	git_oid h, since;
	char *j;

	for (int i = 1; i <= 5; i++)
		mail(i);
	head(&h, repo);
	is(epoch_walk(&st, repo, NULL, &h, 0, collect, &s), 0, "walk a whole epoch");
	is_str(j = joined(&s.ids), "m1 m2 m3 m4 m5", "  oldest first");
	free(j);
	is((int)st.commits, 5, "  five commits");
	git_oid_fromstr(&since, s.commits.v[2]);
	seen_reset(&s);
	is(epoch_walk(&st, repo, &since, &h, 0, collect, &s), 0, "walk from after the third");
	is_str(j = joined(&s.ids), "m4 m5", "  only what came after it");
	free(j);
	seen_reset(&s);
	is(epoch_walk(&st, repo, &h, &h, 0, collect, &s), 0, "walk from the head");
	is((int)s.ids.nr, 0, "  reads nothing");
	seen_reset(&s);
	is(epoch_walk(&st, repo, NULL, &h, 2, collect, &s), 0, "the newest two");
	is_str(j = joined(&s.ids), "m4 m5", "  oldest first");
	free(j);
	seen_reset(&s);
	is(epoch_walk(&st, repo, NULL, &h, 50, collect, &s), 0, "a limit over the epoch's size");
	is((int)s.ids.nr, 5, "  reads it all");
	seen_reset(&s);
	s.stop_at = 2;
	is(epoch_walk(&st, repo, NULL, &h, 0, collect, &s), 1,
	   "the callback's non-zero return stops the walk and is returned");
	is((int)s.ids.nr, 2, "  after the second mail");
	seen_reset(&s);

	deletion();
	mail(6);
	st = (struct epoch_walk){ 0 };
	since = h;
	head(&h, repo);
	is(epoch_walk(&st, repo, &since, &h, 0, collect, &s), 0, "a deletion, then a mail");
	is_str(j = joined(&s.ids), "m6", "  the mail is read");
	free(j);
	is((int)st.skipped, 1, "  the deletion is counted as skipped");
	seen_reset(&s);
	git_oid_fromstr(&since, "0123456789012345678901234567890123456789");
	is(epoch_walk(&st, repo, &since, &h, 0, collect, &s), 0,
	   "a last commit the epoch does not have (rewritten)");
	is((int)s.ids.nr, 6, "  reads the whole epoch again");
	seen_reset(&s);
}

static void test_fetch(const char *tmp)
{
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT, empty = STRBUF_INIT;
	git_repository *r = NULL, *e = NULL;
	git_oid h, want;
	bool has;

	strbuf_addf(&src, "%s/src/git/0.git", tmp);
	strbuf_addf(&dst, "%s/state/epochs/test/0.git", tmp);
	head(&want, repo);
	is(epoch_fetch(&r, &h, &has, dst.buf, src.buf), 0, "fetch an epoch into a new bare repository");
	ok(has && git_oid_equal(&h, &want), "  its head is the epoch's");
	ok(r && git_repository_is_bare(r), "  bare");
	git_repository_free(r);
	mail(7);
	head(&want, repo);
	is(epoch_fetch(&r, &h, &has, dst.buf, src.buf), 0, "fetch it again after a mail");
	ok(has && git_oid_equal(&h, &want), "  the new head");
	git_repository_free(r);

	strbuf_addf(&empty, "%s/src/git/1.git", tmp);
	git_repository_init(&e, empty.buf, 1);
	git_repository_free(e);
	strbuf_reset(&dst);
	strbuf_addf(&dst, "%s/state/epochs/test/1.git", tmp);
	is(epoch_fetch(&r, &h, &has, dst.buf, empty.buf), 0, "fetch an epoch without commits");
	ok(!has, "  no head");
	git_repository_free(r);
	strbuf_addstr(&empty, "-missing");
	is(epoch_fetch(&r, &h, &has, dst.buf, empty.buf), WW_ENET,
	   "an epoch that is not there: WW_ENET");
	ok(!r, "  no repository handed out");
	error_clear();
	strbuf_release(&src);
	strbuf_release(&dst);
	strbuf_release(&empty);
}

static void test_url(void)
{
	struct strbuf sb = STRBUF_INIT;

	epoch_url(&sb, "https://lore.kernel.org", "linux-ext4", 1);
	is_str(sb.buf, "https://lore.kernel.org/linux-ext4/git/1.git", "epoch_url");
	strbuf_release(&sb);
}

static void test_positions(const char *tmp)
{
	struct strbuf dir = STRBUF_INIT;
	struct store s = STORE_INIT;
	struct queue q;
	struct queue_epoch e;
	const char *c1 = "1111111111111111111111111111111111111111";
	const char *c2 = "2222222222222222222222222222222222222222";

	strbuf_addf(&dir, "%s/db", tmp);
	if (store_open(&s, dir.buf) < 0) {
		printf("Bail out! store: %s\n", error_last());
		exit(1);
	}
	queue_init(&q, &s, dir.buf, NULL);
	is(queue_epoch_newest(&e, &q, "test"), 0, "a list never read through git: none");
	is(queue_epoch_save(&q, "test", 0, "", 100), 0, "begin epoch 0");
	is(queue_epoch_newest(&e, &q, "test"), 1, "  now it has one");
	ok(e.epoch == 0 && !*e.last_commit && !e.commits, "  epoch 0, nothing read");
	queue_epoch_save(&q, "test", 0, c1, 101);
	queue_epoch_save(&q, "test", 0, c2, 102);
	queue_epoch_newest(&e, &q, "test");
	is_str(e.last_commit, c2, "the last commit saved is the position");
	is((int)e.commits, 2, "  two commits read");
	queue_epoch_save(&q, "test", 1, "", 103);
	queue_epoch_newest(&e, &q, "test");
	ok(e.epoch == 1 && !*e.last_commit, "a new epoch is the newest");
	is(queue_epoch_newest(&e, &q, "other"), 0, "another list has its own");
	queue_release(&q);
	store_close(&s);

	/* a restarted service */
	store_open(&s, dir.buf);
	queue_init(&q, &s, dir.buf, NULL);
	queue_epoch_save(&q, "test", 1, c1, 104);
	is(queue_epoch_newest(&e, &q, "test"), 1, "after a restart");
	ok(e.epoch == 1 && !strcmp(e.last_commit, c1) && e.commits == 1,
	   "  the position is where it was left");
	queue_release(&q);
	store_close(&s);
	strbuf_release(&dir);
}

int main(void)
{
	char tmp[] = "/tmp/t-epoch.XXXXXX";
	struct strbuf path = STRBUF_INIT;

	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	gitlib_init();
	strbuf_addf(&path, "%s/src/git/0.git", tmp);
	if (git_repository_init(&repo, path.buf, 1) < 0) {
		printf("Bail out! git init\n");
		return 1;
	}
	test_walk();
	test_fetch(tmp);
	test_url();
	test_positions(tmp);
	git_repository_free(repo);
	strbuf_release(&path);
	tmp_remove(tmp);
	return done_testing();
}
