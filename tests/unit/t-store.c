/*
 * Unit tests for bot/state/store.c: migrations, intent -> sent, no double send,
 * --force, failures, reopening, concurrent processes.
 */
#include "store.h"
#include "tap.h"

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

static struct store_reply reply(const char *series, int v, const char *id, bool forced)
{
	struct store_reply r = STORE_REPLY_INIT;

	r.series = (char *)series;
	r.version = v;
	r.message_id = (char *)id;
	r.in_reply_to = (char *)series;
	r.subject = (char *)"Re: [PATCH] x";
	r.recipients = (char *)"a@x, b@x";
	r.forced = forced;
	return r;
}

int main(void)
{
	char dir[] = "/tmp/t-store.XXXXXX";
	struct store s = STORE_INIT, s2 = STORE_INIT;
	struct store_reply r, got = STORE_REPLY_INIT, existing = STORE_REPLY_INIT;
	struct strbuf sub = STRBUF_INIT;
	pid_t pid;
	int status;

	if (!mkdtemp(dir))
		return 1;
	strbuf_addf(&sub, "%s/state/deeper", dir);
	is(store_open(&s, sub.buf), 0, "opens, creating the directory");
	/* 1: replies, 2: the service queue (queue.h), 3: backfill (backfill.h),
	 * 4: workers (queue.h), 5: affinity (queue.h), 6: one reply per
	 * message answered, 7: epochs read (queue.h), 8: b4 runs and missing
	 * patches (queue.h), 9: feedback (feedback.h) */
	is(store_schema_version(&s), 10, "migrated to the current schema");
	{
		sqlite3_stmt *st;
		const char *mode = "";

		sqlite3_prepare_v2(s.db, "PRAGMA journal_mode", -1, &st, NULL);
		if (sqlite3_step(st) == SQLITE_ROW)
			mode = (const char *)sqlite3_column_text(st, 0);
		is_str(mode, "wal", "WAL mode");
		sqlite3_finalize(st);
	}

	is(store_find_reply(&got, &s, "cover@x", 1), WW_ENOTFOUND, "nothing recorded yet");
	r = reply("cover@x", 1, "ours-1@bot", false);
	is(store_begin_reply(&s, &r, NULL), 0, "intent recorded");
	is(store_find_reply(&got, &s, "cover@x", 1), 0, "found");
	is(got.state, REPLY_INTENT, "in the intent state");
	is_str(got.message_id, "ours-1@bot", "with our message-id");
	ok(got.created > 0, "with a timestamp");

	r = reply("cover@x", 1, "ours-2@bot", false);
	is(store_begin_reply(&s, &r, &existing), WW_EDUP,
	   "an interrupted send blocks a second one");
	is_str(existing.message_id, "ours-1@bot", "and says which reply it was");
	ok(strstr(error_last(), "<ours-1@bot> (intent)") != NULL, "message: %s", error_last());

	is(store_mark_sent(&s, "ours-1@bot"), 0, "marked sent");
	store_find_reply(&got, &s, "cover@x", 1);
	is(got.state, REPLY_SENT, "state is sent");
	is(store_begin_reply(&s, &r, &existing), WW_EDUP, "a sent reply blocks another");
	is(store_find_reply(&got, &s, "cover@x", 2), WW_ENOTFOUND,
	   "another version is another series");

	r = reply("cover@x", 1, "ours-2@bot", true);
	is(store_begin_reply(&s, &r, NULL), 0, "--force records a new intent");
	store_find_reply(&got, &s, "cover@x", 1);
	is_str(got.message_id, "ours-2@bot", "the newest row wins");
	ok(got.forced, "marked as forced");
	is(store_mark_failed(&s, "ours-2@bot", "550 no such user"), 0, "marked failed");
	store_find_reply(&got, &s, "cover@x", 1);
	is(got.state, REPLY_FAILED, "state failed");
	is_str(got.error, "550 no such user", "with the reason");
	r = reply("cover@x", 1, "ours-2@bot", false);
	is(store_begin_reply(&s, &r, NULL), 0, "a failed send may be retried, same id");
	store_find_reply(&got, &s, "cover@x", 1);
	is(got.state, REPLY_INTENT, "back to intent");
	ok(got.error == NULL, "error cleared");
	is(store_mark_sent(&s, "nope@bot"), WW_ESTATE, "unknown id cannot be marked");
	store_close(&s);

	is(store_open(&s, sub.buf), 0, "reopens");
	is(store_find_reply(&got, &s, "cover@x", 1), 0, "state survives a restart");
	is_str(got.message_id, "ours-2@bot", "same row");

	/* Two queue entries (a cover without a tag made one "series" per
	 * patch) answering the same message: one reply, not two. */
	r = reply("p1@x", 1, "first-p1@bot", false);
	r.in_reply_to = (char *)"p15@x";
	is(store_begin_reply(&s, &r, NULL), 0, "entry 1 answers patch 15");
	is(store_mark_sent(&s, "first-p1@bot"), 0, "  sent");
	r = reply("p2@x", 1, "first-p2@bot", false);
	r.in_reply_to = (char *)"p15@x";
	is(store_begin_reply(&s, &r, &existing), WW_EDUP,
	   "entry 2 may not answer patch 15 again");
	is_str(existing.message_id, "first-p1@bot", "  and learns the reply that did");
	ok(strstr(error_last(), "to <p15@x>") != NULL, "  message: %s", error_last());
	is(store_find_reply(&got, &s, "p2@x", 1), WW_ENOTFOUND, "  nothing recorded for it");
	r.in_reply_to = (char *)"p14@x";
	is(store_begin_reply(&s, &r, NULL), 0, "another message answered is another reply");
	is(store_exec(&s, "INSERT INTO replies (series, version, message_id, in_reply_to,"
		      " subject, recipients, state, created, updated) VALUES"
		      " ('p3@x', 1, 'direct@bot', 'p15@x', '', '', 'sent', 0, 0)", ""),
	   WW_EDUP, "the unique index refuses a second answer even past the API");
	r = reply("p3@x", 1, "forced-p3@bot", true);
	r.in_reply_to = (char *)"p15@x";
	is(store_begin_reply(&s, &r, NULL), 0, "--force still answers again");

	/* A state written by the old schema, with the copies the bug sent:
	 * the migration keeps the rows, the first one owns the answer. */
	sqlite3_exec(s.db, "DROP INDEX replies_answer_once; DROP TABLE queue_epochs;"
		     " PRAGMA user_version = 5;"
		     "ALTER TABLE queue_series DROP COLUMN b4_runs;"
		     "ALTER TABLE queue_series DROP COLUMN missing;"
		     "DROP TABLE mutes; DROP TABLE findings_said; DROP TABLE feedback;"
		     "DROP TABLE suppressions;"
		     "INSERT INTO replies (series, version, message_id, in_reply_to,"
		     " subject, recipients, state, created, updated) VALUES"
		     " ('q1@x', 1, 'q1@bot', 'q9@x', '', '', 'sent', 0, 0),"
		     " ('q2@x', 1, 'q2@bot', 'q9@x', '', '', 'sent', 0, 0);",
		     NULL, NULL, NULL);
	store_close(&s);
	is(store_open(&s, sub.buf), 0, "a state with duplicate answers migrates");
	is(store_schema_version(&s), 10, "  to the current schema");
	store_find_reply(&got, &s, "q1@x", 1);
	ok(!got.forced, "  the first answer holds the message");
	store_find_reply(&got, &s, "q2@x", 1);
	ok(got.forced && got.state == REPLY_SENT, "  the copy is kept, outside the index");
	r = reply("q3@x", 1, "q3@bot", false);
	r.in_reply_to = (char *)"q9@x";
	is(store_begin_reply(&s, &r, NULL), WW_EDUP, "  and blocks a third");

	/* Two processes racing for the same series: exactly one wins. */
	is(store_open(&s2, sub.buf), 0, "second handle");
	pid = fork();
	if (pid == 0) {
		struct store c = STORE_INIT;
		struct store_reply cr = reply("race@x", 1, "child@bot", false);

		if (store_open(&c, sub.buf))
			_exit(3);
		_exit(store_begin_reply(&c, &cr, NULL) == 0 ? 0 : 1);
	}
	r = reply("race@x", 1, "parent@bot", false);
	{
		int mine = store_begin_reply(&s2, &r, NULL) == 0;

		waitpid(pid, &status, 0);
		is(mine + (WEXITSTATUS(status) == 0), 1, "exactly one of two racing processes records");
	}
	store_close(&s2);

	/* A database from a newer warnwatch is refused, not downgraded. */
	sqlite3_exec(s.db, "PRAGMA user_version = 99", NULL, NULL, NULL);
	store_close(&s);
	is(store_open(&s, sub.buf), WW_ESTATE, "a newer schema is refused");
	ok(strstr(error_last(), "newer than this warnwatch") != NULL, "%s", error_last());

	store_reply_release(&got);
	store_reply_release(&existing);
	{
		struct strbuf cmd = STRBUF_INIT;

		/* Clean up without a shell: three files and two directories. */
		const char *files[] = { "warnwatch.db", "warnwatch.db-wal", "warnwatch.db-shm" };

		for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
			strbuf_reset(&cmd);
			strbuf_addf(&cmd, "%s/%s", sub.buf, files[i]);
			unlink(cmd.buf);
		}
		rmdir(sub.buf);
		strbuf_reset(&cmd);
		strbuf_addf(&cmd, "%s/state", dir);
		rmdir(cmd.buf);
		rmdir(dir);
		strbuf_release(&cmd);
	}
	strbuf_release(&sub);
	return done_testing();
}
