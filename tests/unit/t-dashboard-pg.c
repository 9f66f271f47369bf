/*
 * The dashboard and backfill on the shared PostgreSQL state, against a
 * real server (tests/unit/pg.h starts one).  The same events -- series
 * going through the queue at pinned times, with artifacts, a new version,
 * a failure and a series seen before watching, plus a list archive read
 * by backfill -- are recorded once in SQLite and once in PostgreSQL; the
 * dashboards built from the two must be the same: the same model
 * (dashboard.json but for the state's own path) and the same pages.
 * backfill writes into PostgreSQL, and a second read there reads nothing.
 */
#include "backfill.h"
#include "child.h"
#include "dashboard.h"
#include "gitlib.h"
#include "queue.h"
#include "store.h"
#include "strbuf.h"
#include "env.h"
#include "tap.h"
#include "pi.h"
#include "pg.h"

#include <git2.h>
#include <unistd.h>

#define diag(...) (printf("# "), printf(__VA_ARGS__), printf("\n"))

static git_repository *repo;

static void mail(const char *mid, const char *subject, const char *date,
		 const char *refs, const char *diff)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "From: Jane <jane@example.org>\nSubject: %s\n", subject);
	if (date)
		strbuf_addf(&sb, "Date: %s\n", date);
	strbuf_addf(&sb, "Message-ID: <%s>\n", mid);
	if (refs)
		strbuf_addf(&sb, "In-Reply-To: <%s>\nReferences: <%s>\n", refs, refs);
	strbuf_addf(&sb, "\nText.\n---\n%s-- \n2.47.0\n", diff ? diff : "");
	pi_add_mail(repo, sb.buf);
	strbuf_release(&sb);
}

#define HUNK(file, func, body) \
	"diff --git a/" file " b/" file "\n--- a/" file "\n+++ b/" file "\n" \
	"@@ -1,2 +1,3 @@ " func "\n a;\n" body "\n b;\n"

static void make_archive(void)
{
	mail("a1@x", "[PATCH 1/2] mm: a", "Tue, 1 Oct 2024 10:00:00 +0000", NULL,
	     HUNK("mm/a.c", "void f(void)", "+\tBUG_ON(x);\n+\tBUG_ON(y);"));
	mail("a2@x", "[PATCH 2/2] mm: b", "Tue, 1 Oct 2024 10:00:01 +0000", "a1@x",
	     HUNK("mm/b.c", "void g(void)", "+\tWARN_ON(y);\n-\tBUG();"));
	mail("b1@x", "[PATCH v2 1/1] mm: a", "Tue, 8 Oct 2024 10:00:00 +0000", NULL,
	     HUNK("mm/a.c", "void f(void)", "+\tWARN_ON_ONCE(x);\n+\tBUG_ON(y);"));
	mail("r@x", "Re: [PATCH v2 1/1] mm: a", "Wed, 9 Oct 2024 11:00:00 +0000", "b1@x",
	     "> +\tBUG_ON(x);\n");
	mail("c0@x", "[PATCH 0/1] net: cover", "Mon, 2 Jun 2025 09:00:00 +0000", NULL, NULL);
	mail("c1@x", "[PATCH 1/1] net: c", NULL, "c0@x",
	     HUNK("net/c.c", "int h(void)", "+\tpanic(\"z\");"));
}

static long long add_series(struct queue *q, const char *mid, const char *subject,
			    time_t now)
{
	struct queue_msg m = {
		.inbox = "linux-mm", .msgid = mid, .parent = "", .subject = subject,
		.author_name = "Jane Dev", .author_email = "jane@example.org",
	};
	long long id = 0;

	queue_add_message(q, &m, now, false);
	if (queue_find(&id, q, "linux-mm", mid) != 1)
		return 0;
	return id;
}

static void artifact(struct queue *q, long long id, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	queue_series_dir(&path, q, id, true);
	strbuf_addf(&path, "/%s", name);
	strbuf_addstr(&sb, text);
	strbuf_write_file(&sb, path.buf);
	strbuf_release(&path);
	strbuf_release(&sb);
}

/* The same events into `st`, artifacts under `dir`: 0 or the first error. */
static int record_events(struct store *st, const char *dir, const char *epoch,
			 const struct ruleset *rs, const char *name)
{
	struct queue_opts qo = QUEUE_OPTS_INIT;
	struct backfill_opts bo = BACKFILL_OPTS_INIT;
	struct backfill_epoch_stats s1 = { 0 }, s2 = { 0 };
	struct queue q;
	struct queue_msg old = {
		.inbox = "linux-mm", .msgid = "old@x", .parent = "",
		.subject = "[PATCH] old: before we watched", .author_name = "Old",
		.author_email = "old@example.org",
	};
	long long v1, v2, v3;
	int ret;

	qo.max_attempts = 1;
	if ((ret = queue_init(&q, st, dir, &qo)))
		return ret;
	queue_add_message(&q, &old, 500, true);
	v1 = add_series(&q, "v1@x", "[PATCH] mm: add a VM_BUG_ON <oops>", 1000);
	queue_advance(&q, v1, QS_FETCHED, 1050);
	queue_advance(&q, v1, QS_CHECKED, 1060);
	queue_set_verdict(&q, v1, "findings", 1);
	queue_set_reply(&q, v1, "sent <r1@bot>");
	queue_advance(&q, v1, QS_REPLIED, 1100);
	artifact(&q, v1, QUEUE_FINDINGS, "{\"findings\": [{\"kind\": \"added\", \"file\": "
		 "\"mm/slub.c\", \"line\": 7, \"macro\": \"VM_BUG_ON\", \"class\": \"bug\", "
		 "\"severity\": \"error\", \"message\": \"new VM_BUG_ON()\", \"conversion\": "
		 "false, \"moved\": false}], \"summary\": {\"added\": {\"bug\": 1}, "
		 "\"removed\": {}}}");
	artifact(&q, v1, QUEUE_REPLY, "Subject: Re: [PATCH] mm: add a VM_BUG_ON\n\nPlease don't.\n");
	v2 = add_series(&q, "v2@x", "[PATCH v2] mm: add a VM_BUG_ON <oops>", 2000);
	queue_prev_version(&q, v2);
	queue_set_verdict(&q, v2, "clean", 0);
	queue_advance(&q, v2, QS_REPLIED, 2100);
	artifact(&q, v2, QUEUE_CI, "{\"verdict\": \"clean\", \"reason\": \"booted\"}");
	v3 = add_series(&q, "v3@x", "[PATCH] net: a series b4 cannot fetch", 3000);
	queue_fail(&q, v3, "b4: That message-id is not known.", true, 3100);
	queue_release(&q);
	if (!v1 || !v2 || !v3)
		return error("%s: a series was not queued", name);

	bo.list = "linux-mm";
	bo.url = "http://127.0.0.1:1/linux-mm/";
	bo.rules = rs;
	ret = backfill_inbox(&s1, st, epoch, &bo);
	if (!ret)
		ret = backfill_inbox(&s2, st, epoch, &bo);
	ok(!ret && s1.commits == 6 && s1.patches == 4 && s2.commits == 0,
	   "%s: backfill read 6 commits, 4 patch mails, then 0 again (%zu, %zu, %zu) %s",
	   name, s1.commits, s1.patches, s2.commits, ret ? error_last() : "");
	backfill_epoch_stats_release(&s1);
	backfill_epoch_stats_release(&s2);
	return ret;
}

static json_t *model(const char *state_dir, struct store *st)
{
	struct dashboard_opts opts = DASHBOARD_OPTS_INIT;
	json_t *m = NULL;

	opts.state_dir = state_dir;
	opts.store = st;
	opts.now = 1750000000;
	if (dashboard_model(&m, &opts) < 0) {
		diag("dashboard_model: %s", error_last());
		return NULL;
	}
	/* where the artifacts are on this machine: the one expected difference */
	json_object_del(m, "lists_base");
	return m;
}

static int site(const char *out, const char *state_dir, struct store *st,
		const char *templates)
{
	struct dashboard_opts opts = DASHBOARD_OPTS_INIT;

	opts.out_dir = out;
	opts.state_dir = state_dir;
	opts.store = st;
	opts.templates = templates;
	opts.now = 1750000000;
	return dashboard_write(&opts);
}

static int run(const char *prog, const char *a, const char *b, const char *c,
	       const char *d, const char *e)
{
	struct child ch;
	int ret;

	child_init(&ch);
	strvec_push(&ch.args, prog);
	if (a)
		strvec_pushl(&ch.args, a, b, c, d, e, NULL);
	ret = child_run(&ch);
	if (ret)
		diag("%s: exit %d: %.2000s", prog, ret, ch.out.buf);
	child_release(&ch);
	return ret;
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/t-dashboard-pg.XXXXXX";
	const char *top = getenv("WW_TOP"), *url, *pwfile;
	struct strbuf rules = STRBUF_INIT, rel = STRBUF_INIT, templates = STRBUF_INIT;
	struct strbuf epoch = STRBUF_INIT, ldir = STRBUF_INIT, pdir = STRBUF_INIT;
	struct strbuf lsite = STRBUF_INIT, psite = STRBUF_INIT;
	struct ruleset rs = RULESET_INIT;
	struct cycles cy = CYCLES_INIT;
	struct store lite = STORE_INIT, pg = STORE_INIT;
	json_t *ml = NULL, *mp = NULL, *rl = NULL, *rp = NULL;

	(void)argc;
	pg_test_env(argv);
	url = getenv("WW_TEST_PG_URL");
	pwfile = getenv("WW_TEST_PG_PWFILE");
	if (!mkdtemp(tmp))
		return 1;
	gitlib_init();
	strbuf_addf(&rules, "%s/rules", top ? top : ".");
	strbuf_addf(&rel, "%s/kernel-ci", top ? top : ".");
	setenv("WARNWATCH_KERNEL_CI", rel.buf, 1);	/* the history's release dates */
	env_reload();
	strbuf_addstr(&rel, "/releases.json");
	strbuf_addf(&templates, "%s/templates/dashboard", top ? top : ".");
	strbuf_addf(&epoch, "%s/inbox/git/0.git", tmp);
	strbuf_addf(&ldir, "%s/sqlite-state", tmp);
	strbuf_addf(&pdir, "%s/pg-state", tmp);
	strbuf_addf(&lsite, "%s/sqlite-site", tmp);
	strbuf_addf(&psite, "%s/pg-site", tmp);
	ok(!rules_load(&rs, rules.buf) && !cycles_load(&cy, rel.buf), "rules and releases load");
	ok(!git_repository_init(&repo, epoch.buf, 1), "an epoch repository");
	make_archive();

	is(store_open(&lite, ldir.buf), 0, "the SQLite state opens");
	is(store_open_url(&pg, url, pwfile), 0, "the PostgreSQL state opens: %s", url);
	is_str(store_backend_name(&pg), "postgresql", "  through the PostgreSQL backend");
	is(record_events(&lite, ldir.buf, epoch.buf, &rs, "sqlite"), 0, "events into SQLite");
	is(record_events(&pg, pdir.buf, epoch.buf, &rs, "postgresql"), 0,
	   "the same events into PostgreSQL: %s", error_last());

	ok(!backfill_report(&rl, &lite, &cy, NULL, BACKFILL_REPORT_MAILS) &&
	   !backfill_report(&rp, &pg, &cy, NULL, BACKFILL_REPORT_MAILS),
	   "backfill reports from both: %s", error_last());
	ok(rl && rp && json_equal(rl, rp), "backfill's report is the same from PostgreSQL");
	ok(rp && json_integer_value(json_object_get(json_array_get(
		json_object_get(rp, "lists"), 0), "patch_mails")) == 4,
	   "  and says what PostgreSQL holds: 4 patch mails");

	ml = model(ldir.buf, NULL);
	mp = model(pdir.buf, &pg);
	ok(ml && mp, "a dashboard model from each state");
	ok(mp && json_array_size(json_object_get(mp, "lists")) == 1 &&
	   json_object_get(mp, "history"),
	   "the PostgreSQL one has the list's series and the history");
	if (ml && mp && !json_equal(ml, mp)) {
		char *a = json_dumps(ml, JSON_SORT_KEYS), *b = json_dumps(mp, JSON_SORT_KEYS);

		diag("sqlite:     %.3000s", a);
		diag("postgresql: %.3000s", b);
		free(a);
		free(b);
	}
	ok(ml && mp && json_equal(ml, mp), "the two models are equal");

	is(site(lsite.buf, ldir.buf, NULL, templates.buf), 0, "the site from SQLite");
	is(site(psite.buf, pdir.buf, &pg, templates.buf), 0, "the site from PostgreSQL: %s",
	   error_last());
	is(run("diff", "-r", "-x", "dashboard.json", lsite.buf, psite.buf), 0,
	   "the same pages, series pages and copied artifacts");

	json_decref(ml);
	json_decref(mp);
	json_decref(rl);
	json_decref(rp);
	store_close(&lite);
	store_close(&pg);
	git_repository_free(repo);
	ruleset_release(&rs);
	cycles_release(&cy);
	run("rm", "-rf", tmp, NULL, NULL, NULL);
	strbuf_release(&rules);
	strbuf_release(&rel);
	strbuf_release(&templates);
	strbuf_release(&epoch);
	strbuf_release(&ldir);
	strbuf_release(&pdir);
	strbuf_release(&lsite);
	strbuf_release(&psite);
	return done_testing();
}
