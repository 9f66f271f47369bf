/*
 * A list's public-inbox epochs into the queue (see follow.h).
 */
#include "follow.h"
#include "epoch.h"
#include "mailfile.h"
#include "mailhdr.h"
#include "mbox.h"
#include "mkdirs.h"
#include "msgid.h"

struct reader {
	struct queue *q;
	const struct follow_opts *opts;
	struct follow_result *res;
	unsigned int epoch;
	time_t now;
	bool skip;
};

/* public-inbox's parent of a message: In-Reply-To, else the last of
 * References (what its feed's thr:in-reply-to says). */
static void parent_of(struct strbuf *out, const struct mail *m)
{
	const char *lt, *gt;

	strbuf_reset(out);
	if (msgid_valid(m->in_reply_to)) {
		strbuf_addstr(out, m->in_reply_to);
		return;
	}
	lt = strrchr(m->references, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (gt)
		strbuf_add(out, lt + 1, gt - lt - 1);
	if (!msgid_valid(out->buf))
		strbuf_reset(out);
}

static int add_mail(struct reader *r, const struct mail *m)
{
	return follow_add_mail(r->res, r->q, r->opts->list, m, r->skip, r->now);
}

int follow_add_mail(struct follow_result *res, struct queue *q, const char *list,
		    const struct mail *m, bool skip, time_t now)
{
	struct mail_addr_list from = MAIL_ADDR_LIST_INIT;
	struct strbuf parent = STRBUF_INIT;
	struct queue_msg qm = { .inbox = list, .msgid = m->message_id,
				.subject = m->subject };
	int ret;

	parent_of(&parent, m);
	qm.parent = parent.buf;
	mail_addr_parse(&from, m->from_raw);
	qm.author_name = from.nr ? from.v[0].name : "";
	qm.author_email = from.nr ? from.v[0].addr : "";
	ret = queue_add_message(q, &qm, now, skip);
	if (ret >= 0) {
		res->fresh += ret != QUEUE_KNOWN;
		res->added += ret == QUEUE_ADDED;
		ret = 0;
	}
	mail_addr_list_clear(&from);
	strbuf_release(&parent);
	return ret;
}

/* epoch_walk()'s callback: the message, then the position after it (a
 * kill between the two reads the message again, known by then). */
static int read_mail(void *data, const char *commit, const char *buf, size_t len)
{
	struct reader *r = data;
	struct mail_list one = MAIL_LIST_INIT;
	char kill_at[32];
	int ret = 0;

	r->res->read++;
	if (mbox_parse(&one, buf, len) < 0 || one.nr != 1 ||
	    !msgid_valid(one.v[0].message_id)) {
		error_clear();
		r->res->skipped++;	/* as the feed drops an entry without one */
	} else {
		ret = add_mail(r, &one.v[0]);
	}
	mail_list_clear(&one);
	if (!ret)
		ret = queue_epoch_save(r->q, r->opts->list, r->epoch, commit, r->now);
	snprintf(kill_at, sizeof(kill_at), "follow-%zu", r->res->read);
	test_kill_point(kill_at);
	if (!ret && r->opts->stop && r->opts->stop())
		ret = 1;		/* stopping: the position is saved */
	return ret;
}

/* epoch_walk()'s: a mail over the cap, never read: said in the events,
 * and the position moves past it as past a message read. */
static int skip_mail(void *data, const char *commit, const char *reason)
{
	struct reader *r = data;

	r->res->read++;
	queue_log(r->q, 0, r->opts->list, QL_WARN, "epoch %u: skipped: %s", r->epoch,
		  reason);
	return queue_epoch_save(r->q, r->opts->list, r->epoch, commit, r->now);
}

static int exists(const struct follow_opts *o, unsigned int n)
{
	struct strbuf url = STRBUF_INIT;
	int ret;

	epoch_url(&url, o->archive, o->inbox, n);
	ret = epoch_exists(url.buf, o->http);
	strbuf_release(&url);
	return ret;
}

/* A list never read through git: its newest epoch. */
static int discover(unsigned int *out, const struct follow_opts *o)
{
	int ret = exists(o, 0);

	if (!ret)
		return error_code(WW_ENOTFOUND, "'%s/%s' serves no git epoch", o->archive,
				  o->inbox);
	for (*out = 0; ret > 0 && *out < FOLLOW_MAX_EPOCH; ) {
		ret = exists(o, *out + 1);
		if (ret > 0)
			++*out;
	}
	return ret < 0 ? ret : 0;
}

/* Fetch epoch `pos->epoch` and read it from after pos->last_commit (all
 * of it when "", the newest `limit` when limit > 0).  *changed: it had
 * commits we had not read. */
static int read_epoch(struct reader *r, const struct queue_epoch *pos, size_t limit,
		      bool *changed)
{
	const struct follow_opts *o = r->opts;
	struct strbuf dir = STRBUF_INIT, url = STRBUF_INIT;
	struct epoch_walk st = { .on_skip = skip_mail };
	git_repository *repo = NULL;
	git_oid head, last;
	bool has_head, has_last = false;
	int ret;

	*changed = false;
	r->epoch = pos->epoch;
	strbuf_addf(&dir, "%s/epochs/%s", o->state_dir, o->list);
	ret = mkdirs(dir.buf, 0755, WW_ESTATE);
	if (ret)
		goto out;
	strbuf_addf(&dir, "/%u.git", pos->epoch);
	epoch_url(&url, o->archive, o->inbox, pos->epoch);
	ret = epoch_fetch(&repo, &head, &has_head, dir.buf, url.buf);
	if (ret < 0 || !has_head)
		goto out;
	if (*pos->last_commit)
		has_last = !git_oid_fromstr(&last, pos->last_commit);
	if (has_last && git_oid_equal(&last, &head))
		goto out;
	*changed = true;
	ret = epoch_walk(&st, repo, has_last ? &last : NULL, &head, limit, read_mail, r);
	r->res->skipped += st.skipped;
	if (ret < 0 && ret != WW_ESTATE)
		ret = error_prefix(ret, "'%s'", url.buf);
out:
	git_repository_free(repo);
	strbuf_release(&dir);
	strbuf_release(&url);
	return ret;
}

int follow_list(struct follow_result *out, struct queue *q,
		const struct follow_opts *opts, time_t now)
{
	struct reader r = { .q = q, .opts = opts, .res = out, .now = now,
			    .skip = opts->skip };
	struct queue_epoch pos;
	size_t limit = 0;
	bool changed;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = queue_epoch_newest(&pos, q, opts->list);
	if (ret < 0)
		return ret;
	if (!ret) {
		/* the first read: the newest FOLLOW_FIRST messages, as the
		 * feed would have shown them */
		ret = discover(&pos.epoch, opts);
		if (ret < 0)
			return ret;
		ret = queue_epoch_save(q, opts->list, pos.epoch, "", now);
		if (ret < 0)
			return ret;
		limit = FOLLOW_FIRST;
	}
	/* each epoch to its end, then the next one if there is one; a few
	 * per poll at most */
	for (int turn = 0; turn < 4; turn++) {
		out->epoch = pos.epoch;
		ret = read_epoch(&r, &pos, limit, &changed);
		if (ret || changed)
			break;		/* N+1 is asked for once N is quiet */
		if (pos.epoch >= FOLLOW_MAX_EPOCH)
			break;
		ret = exists(opts, pos.epoch + 1);
		if (ret <= 0)
			break;
		/* a new epoch: all of it is new mail */
		pos.epoch++;
		*pos.last_commit = '\0';
		limit = 0;
		r.skip = false;
		out->new_epoch = true;
		ret = queue_epoch_save(q, opts->list, pos.epoch, "", now);
		if (ret < 0)
			break;
	}
	return ret < 0 ? ret : 0;
}

int follow_fill_thread(struct follow_result *out, struct queue *q,
		       const struct follow_opts *opts, const char *msgid, time_t now)
{
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT;
	struct mailfile mf = MAILFILE_INIT;
	struct mail_list thread = MAIL_LIST_INIT;
	long status = 0;
	int ret;

	strbuf_addf(&url, "%s/%s/", opts->archive, opts->inbox);
	archive_escape_msgid(&url, msgid);
	strbuf_addstr(&url, "/t.mbox.gz");
	ret = archive_get(&body, &status, url.buf, opts->http);
	if (!ret)
		ret = mailfile_parse(&mf, body.buf, body.len, url.buf);
	if (!ret)
		ret = mbox_parse(&thread, mf.mbox.buf, mf.mbox.len);
	for (size_t i = 0; ret >= 0 && i < thread.nr; i++) {
		out->read++;
		if (msgid_valid(thread.v[i].message_id))
			ret = follow_add_mail(out, q, opts->list, &thread.v[i],
					      opts->skip, now);
		else
			out->skipped++;
	}
	mail_list_clear(&thread);
	mailfile_release(&mf);
	strbuf_release(&url);
	strbuf_release(&body);
	return ret < 0 ? ret : 0;
}
