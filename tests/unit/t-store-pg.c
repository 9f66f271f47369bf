/*
 * The PostgreSQL backend of the state store against a real server
 * (tests/unit/pg.h starts one): migrations, the password file, claims by
 * concurrent workers (never the same series twice), lease expiry handing
 * a series to another worker and fencing the first, the one-reply unique
 * index under a race, an intent surviving a killed worker, the poller's
 * advisory lock, and a cut connection.
 */
#include "queue.h"
#include "tap.h"
#include "pg.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#define NR_SERIES 40
#define NR_CLAIMERS 4
#define CLAIM_WORK_US 10000
#define NR_RACERS 6

static const char *url, *pwfile;

static int open_pg(struct store *s)
{
	return store_open_url(s, url, pwfile);
}

static void test_open(void)
{
	struct store s = STORE_INIT, s2 = STORE_INIT;
	char bad[] = "/tmp/t-store-pg-pw.XXXXXX";
	int fd;

	is(open_pg(&s), 0, "opens %s", url);
	is_str(store_backend_name(&s), "postgresql", "the PostgreSQL backend");
	ok(store_is_shared(&s), "shared between machines");
	is(store_schema_version(&s), 10, "migrated to the current schema");
	ok(!strstr(s.path, "pw-"), "the name in messages has no password (%s)", s.path);
	is(open_pg(&s2), 0, "a second process opens the migrated database");
	is(store_schema_version(&s2), 10, "  and finds the same version");
	store_close(&s2);

	fd = mkstemp(bad);
	if (write(fd, "x\n", 2) != 2)
		BUG("write");
	close(fd);
	chmod(bad, 0644);
	is(store_open_url(&s2, url, bad), WW_EINPUT, "a password file others can read is refused");
	ok(strstr(error_last(), "chmod 600"), "  saying so: %s", error_last());
	chmod(bad, 0600);
	is(store_open_url(&s2, url, bad), WW_ESTATE, "a wrong password is a state error");
	ok(strstr(error_last(), "cannot connect"), "  %s", error_last());
	unlink(bad);
	store_close(&s);
}

/* A port nobody listens on, on 127.0.0.1 (bound, then closed). */
static int dead_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* A server that does not answer is WW_ENET: serve waits for it at start. */
static void test_unreachable(void)
{
	struct store s = STORE_INIT;
	char dead[128];

	snprintf(dead, sizeof(dead), "postgresql://warnwatch@127.0.0.1:%d/warnwatch", dead_port());
	is(store_open_url(&s, dead, NULL), WW_ENET, "no server on the port: WW_ENET");
	ok(strstr(error_last(), "cannot connect"), "  %s", error_last());
	store_close(&s);
}

static void add_series(struct queue *q, int n, time_t now)
{
	for (int i = 0; i < n; i++) {
		char mid[64], subj[64];
		struct queue_msg m = {
			.inbox = "test", .msgid = mid, .parent = "",
			.subject = subj, .author_name = "Jane",
			.author_email = "jane@x.org",
		};

		snprintf(mid, sizeof(mid), "p%d@x", i);
		snprintf(subj, sizeof(subj), "[PATCH] foo: change %d", i);
		queue_add_message(q, &m, now, false);
	}
}

/* Claimers in separate processes and connections, started together: every
 * series is claimed by exactly one of them. */
static void test_claims(void)
{
	struct queue_opts opts = QUEUE_OPTS_INIT;
	struct store s = STORE_INIT;
	struct queue q;
	int out[2], go[2];
	int seen[NR_SERIES * 2 + 1] = { 0 };
	int total = 0, twice = 0, per[NR_CLAIMERS] = { 0 };
	long long id;
	struct timespec t0, t1;
	double ms;
	FILE *f;

	opts.settle = 0;
	open_pg(&s);
	queue_init(&q, &s, "/tmp", &opts);
	add_series(&q, NR_SERIES, 1000);
	is(store_exec(&s, "UPDATE queue_series SET next_at = 0", ""), NR_SERIES,
	   "%d series due", NR_SERIES);
	if (pipe(out) || pipe(go))
		BUG("pipe");
	for (int c = 0; c < NR_CLAIMERS; c++) {
		if (fork() == 0) {
			struct store cs = STORE_INIT;
			struct queue cq;
			char owner[32], b;
			FILE *w = fdopen(out[1], "w");

			close(out[0]);
			close(go[1]);
			snprintf(owner, sizeof(owner), "claimer:%d", c);
			if (open_pg(&cs))
				_exit(1);
			queue_init(&cq, &cs, "/tmp", &opts);
			if (read(go[0], &b, 1) < 0)
				_exit(1);
			while (queue_claim(&id, &cq, owner, 600, 2000) == 1) {
				fprintf(w, "%d %lld\n", c, id);
				fflush(w);
				/* The stage's work: a claimer that took the
				 * CPU first must not empty the queue before
				 * the others are scheduled on a busy machine. */
				usleep(CLAIM_WORK_US);
			}
			_exit(0);
		}
	}
	close(out[1]);
	close(go[0]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (write(go[1], "go", 2) != 2)	/* unblocks them all at once */
		BUG("write");
	close(go[1]);
	f = fdopen(out[0], "r");
	{
		int c;

		while (fscanf(f, "%d %lld", &c, &id) == 2) {
			total++;
			if (id > 0 && id <= NR_SERIES * 2 && seen[id]++)
				twice++;
			if (c >= 0 && c < NR_CLAIMERS)
				per[c]++;
		}
	}
	fclose(f);
	while (wait(NULL) > 0)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000.0 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("# %d claims by %d workers in %.0f ms, each claim held %d ms "
	       "(%.0f claims/s, incl. the last empty claim each)\n", total,
	       NR_CLAIMERS, ms, CLAIM_WORK_US / 1000,
	       ms > 0 ? total * 1000.0 / ms : 0);
	is(total, NR_SERIES, "%d claims for %d series", total, NR_SERIES);
	is(twice, 0, "no series claimed twice");
	{
		int busy = 0;

		for (int c = 0; c < NR_CLAIMERS; c++)
			busy += per[c] > 0;
		printf("# claims per worker: %d %d %d %d\n", per[0], per[1], per[2], per[3]);
		ok(busy >= 2, "the work was shared (%d workers claimed)", busy);
	}
	is(queue_claim(&id, &q, "late", 600, 2000), 0, "nothing left while the leases hold");
	queue_release(&q);
	store_close(&s);
}

/* A lease that expires hands the series to another worker, and fences
 * the first one out of its transitions. */
static void test_lease(void)
{
	struct store sa = STORE_INIT, sb = STORE_INIT;
	struct queue qa, qb;
	struct queue_opts opts = QUEUE_OPTS_INIT;
	long long a, b, id;
	struct queue_series s = QUEUE_SERIES_INIT;

	open_pg(&sa);
	open_pg(&sb);
	queue_init(&qa, &sa, "/tmp", &opts);
	queue_init(&qb, &sb, "/tmp", &opts);
	store_exec(&sa, "UPDATE queue_series SET lease_until = 0, lease_owner = '', "
		   "next_at = 0", "");
	store_exec(&sa, "UPDATE queue_series SET state = 'skipped' WHERE id NOT IN "
		   "(SELECT min(id) FROM queue_series)", "");
	qa.owner = "A:1";
	qb.owner = "B:2";
	is(queue_claim(&a, &qa, "A:1", 30, 3000), 1, "worker A claims the series");
	is(queue_claim(&b, &qb, "B:2", 30, 3010), 0, "B finds nothing while A's lease holds");
	is(queue_renew(&qa, a, "A:1", 30, 3020), 1, "A renews its lease");
	is(queue_claim(&b, &qb, "B:2", 30, 3040), 0, "  which then still holds");
	is(queue_claim(&b, &qb, "B:2", 30, 3051), 1, "after it expires, B claims the series");
	is(b, a, "  the same series");
	is(queue_renew(&qa, a, "A:1", 30, 3052), 0, "A learns its lease is lost");
	is(queue_advance(&qa, a, QS_FETCHED, 3053), WW_ESTATE, "A cannot move it on");
	ok(strstr(error_last(), "taken over"), "  %s", error_last());
	is(queue_advance(&qb, b, QS_FETCHED, 3054), 0, "B can, which releases it");
	queue_load(&s, &qb, b);
	is(s.state, QS_FETCHED, "  fetched");
	queue_series_release(&s);
	is(queue_claim(&id, &qa, "A:1", 30, 3055), 1, "the next stage is free for anyone");
	is(queue_unclaim(&qa, id, "A:1"), 0, "a claim given back");
	is(queue_claim(&id, &qb, "B:2", 30, 3056), 1, "  is free at once");
	queue_release(&qa);
	queue_release(&qb);
	store_close(&sa);
	store_close(&sb);
}

static struct store_reply reply(const char *series, const char *mid)
{
	struct store_reply r = STORE_REPLY_INIT;

	r.series = (char *)series;
	r.version = 1;
	r.message_id = (char *)mid;
	r.in_reply_to = (char *)series;
	r.subject = "Re: x";
	r.recipients = "a@x";
	return r;
}

/* Racers in separate connections, each with its own Message-ID: exactly
 * one records an intent. */
static void test_reply_race(void)
{
	struct store s = STORE_INIT;
	struct store_rows *rows;
	int go[2], wins = 0, dups = 0, status;

	open_pg(&s);
	if (pipe(go))
		BUG("pipe");
	for (int c = 0; c < NR_RACERS; c++) {
		if (fork() == 0) {
			struct store cs = STORE_INIT;
			char mid[32], b;
			struct store_reply r;
			int ret;

			close(go[1]);
			snprintf(mid, sizeof(mid), "racer-%d@bot", c);
			r = reply("race@x", mid);
			if (open_pg(&cs))
				_exit(3);
			if (read(go[0], &b, 1) < 0)
				_exit(3);
			ret = store_begin_reply(&cs, &r, NULL);
			_exit(ret == 0 ? 0 : ret == WW_EDUP ? 1 : 2);
		}
	}
	close(go[0]);
	close(go[1]);	/* EOF: all go */
	while (wait(&status) > 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			wins++;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
			dups++;
	}
	is(wins, 1, "%d racers: exactly one records its intent", NR_RACERS);
	is(dups, NR_RACERS - 1, "  the others are told it is a duplicate");
	if (store_query(&rows, &s, "SELECT count(*) FROM replies WHERE series = ?",
			"s", "race@x") == 1) {
		is(store_rows_int(rows, 0), 1, "one row in the replies table");
		store_rows_free(rows);
	} else {
		ok(0, "one row in the replies table: %s", error_last());
	}
	{
		struct store_reply r = reply("race@x", "direct@bot");

		is(store_exec(&s, "INSERT INTO replies (series, version, message_id, "
			      "in_reply_to, subject, recipients, state, created, updated) "
			      "VALUES (?, 1, ?, '', '', '', 'intent', 0, 0)", "ss",
			      r.series, r.message_id), WW_EDUP,
		   "the unique index refuses a second intent even past the API");
	}
	store_close(&s);
}

/* Racers of different queue entries (a thread taken for several series)
 * answering one message, each with its own Message-ID: one reply. */
static void test_answer_race(void)
{
	struct store s = STORE_INIT;
	struct store_rows *rows;
	int go[2], wins = 0, dups = 0, status;

	open_pg(&s);
	if (pipe(go))
		BUG("pipe");
	for (int c = 0; c < NR_RACERS; c++) {
		if (fork() == 0) {
			struct store cs = STORE_INIT;
			char mid[32], series[32], b;
			struct store_reply r;
			int ret;

			close(go[1]);
			snprintf(mid, sizeof(mid), "answer-%d@bot", c);
			snprintf(series, sizeof(series), "entry-%d@x", c);
			r = reply(series, mid);
			r.in_reply_to = "patch-15@x";
			if (open_pg(&cs))
				_exit(3);
			if (read(go[0], &b, 1) < 0)
				_exit(3);
			ret = store_begin_reply(&cs, &r, NULL);
			_exit(ret == 0 ? 0 : ret == WW_EDUP ? 1 : 2);
		}
	}
	close(go[0]);
	close(go[1]);
	while (wait(&status) > 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			wins++;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
			dups++;
	}
	is(wins, 1, "%d entries answering one message: exactly one records", NR_RACERS);
	is(dups, NR_RACERS - 1, "  the others are told it is answered");
	if (store_query(&rows, &s, "SELECT count(*) FROM replies WHERE in_reply_to = ?",
			"s", "patch-15@x") == 1) {
		is(store_rows_int(rows, 0), 1, "one row answers it");
		store_rows_free(rows);
	} else {
		ok(0, "one row answers it: %s", error_last());
	}
	store_close(&s);
}

/* A worker killed right after its intent committed: the intent is there
 * for the next one, which may not send again. */
static void test_killed_worker(void)
{
	struct store s = STORE_INIT;
	struct store_reply got = STORE_REPLY_INIT, r;
	pid_t pid;
	int status;

	pid = fork();
	if (pid == 0) {
		struct store cs = STORE_INIT;
		struct store_reply cr = reply("killed@x", "first@bot");

		if (open_pg(&cs) || store_begin_reply(&cs, &cr, NULL))
			_exit(1);
		raise(SIGKILL);	/* before the SMTP session: maybe sent */
		_exit(2);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the worker died by SIGKILL");
	open_pg(&s);
	is(store_find_reply(&got, &s, "killed@x", 1), 0, "its intent survived");
	is(got.state, REPLY_INTENT, "  in the intent state (maybe sent)");
	r = reply("killed@x", "second@bot");
	is(store_begin_reply(&s, &r, &got), WW_EDUP, "another worker may not send again");
	is_str(got.message_id, "first@bot", "  and learns the first Message-ID, to look up");
	store_reply_release(&got);
	store_close(&s);
}

/* One poller at a time: a session advisory lock, free again when the
 * holder's connection ends. */
static void test_poll_lock(void)
{
	struct store a = STORE_INIT, b = STORE_INIT;

	open_pg(&a);
	open_pg(&b);
	is(store_try_lock(&a, 4242), 1, "the first poller takes the lock");
	is(store_try_lock(&b, 4242), 0, "the second does not get it");
	store_close(&a);	/* a poller that died: its session ends */
	{
		/* The server ends the session a moment after the client goes. */
		int got = 0, tries;

		for (tries = 0; tries < 50 && got == 0; tries++) {
			got = store_try_lock(&b, 4242);
			if (!got)
				usleep(100 * 1000);
		}
		is(got, 1, "taken over once the first is gone (%d tries)", tries);
	}
	is(store_unlock(&b, 4242), 0, "and given back");
	store_close(&b);
}

/* A connection cut under a worker (the server ends it, as a restart or a
 * network failure would): one statement fails, the next reconnects. */
static void test_cut(void)
{
	struct store a = STORE_INIT, b = STORE_INIT;
	struct store_rows *rows;
	int ret;

	open_pg(&a);
	open_pg(&b);
	store_exec(&a, "SET application_name = 'victim'", "");
	ret = store_query(&rows, &b, "SELECT pg_terminate_backend(pid) FROM "
			  "pg_stat_activity WHERE application_name = 'victim'", "");
	is(ret, 1, "the connection is cut");
	if (ret == 1)
		store_rows_free(rows);
	ret = store_exec(&a, "UPDATE queue_workers SET heartbeat = 0", "");
	ok(ret == WW_ESTATE || ret >= 0, "the next statement fails or reconnects (%d)", ret);
	is(store_exec(&a, "UPDATE queue_workers SET heartbeat = 0", ""), 0,
	   "the one after works on a new connection");
	store_close(&a);
	store_close(&b);
}

/* A statement that fails inside a transaction aborts it on PostgreSQL:
 * the commit that follows must say so, not report the writes before it
 * as committed. */
static void test_aborted_commit(void)
{
	struct store s = STORE_INIT;
	struct store_rows *rows;
	int ret;

	open_pg(&s);
	is(store_begin(&s), 0, "a transaction begins");
	is(store_exec(&s, "INSERT INTO queue_events (at, level, message) "
		      "VALUES (?, 'info', 'lost with the transaction')", "t",
		      (time_t)1), 1, "  a row is written");
	ok(store_exec(&s, "INSERT INTO no_such_table VALUES (1)", "") == WW_ESTATE,
	   "  a statement fails (its error ignored by the caller)");
	ret = store_commit(&s);
	is(ret, WW_ESTATE, "the commit fails: the server rolled back");
	ok(strstr(error_last(), "rolled back"), "  saying so: %s", error_last());
	ret = store_query(&rows, &s, "SELECT 1 FROM queue_events WHERE message = "
			  "'lost with the transaction'", "");
	is(ret, 0, "the first row is not in the database");
	if (ret == 1)
		store_rows_free(rows);
	is(store_exec(&s, "UPDATE queue_workers SET heartbeat = 0 WHERE 1 = 0", ""), 0,
	   "the connection works on");
	store_close(&s);
}

int main(int argc, char **argv)
{
	pg_test_env(argv);
	url = getenv("WW_TEST_PG_URL");
	pwfile = getenv("WW_TEST_PG_PWFILE");
	test_open();
	test_unreachable();
	test_claims();
	test_lease();
	test_reply_race();
	test_answer_race();
	test_killed_worker();
	test_poll_lock();
	test_cut();
	test_aborted_commit();
	return done_testing();
}
