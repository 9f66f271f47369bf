/*
 * warnwatch review MSGID | --mbox FILE [MSGID]: fetch a series with b4,
 * check it, and draft (default) or send (--send) the reply a careful
 * maintainer would write.  A sent reply is recorded in the state
 * database first as an intent and then as sent, so that the same series
 * version is never answered twice.
 *
 * Exit status: 0 done (a draft, a sent reply, or nothing to say), 2 an
 * error (one line on stderr, nothing half-written), 3 already answered
 * (nothing sent; the line names the earlier reply's Message-ID), 4 an
 * input over one of warnwatch's limits (intake.h, docs/limits.md):
 * refused before b4 is given it, or as soon as b4 wrote it.
 */
#include "builtin.h"
#include "env.h"
#include "opt.h"
#include "advice.h"
#include "b4.h"
#include "mailfile.h"
#include "mbox.h"
#include "msgid.h"
#include "ci-json.h"
#include "reply.h"
#include "review.h"
#include "series.h"
#include "settings.h"

#include <sys/stat.h>
#include <unistd.h>

#define EXIT_ANSWERED 3
#define EXIT_TOOBIG 4

static const char usage_text[] =
	"usage: warnwatch review [options] MSGID\n"
	"       warnwatch review [options] --mbox FILE [MSGID]\n"
	"\n"
	"Fetch the series MSGID belongs to with b4 (the newest version unless -v),\n"
	"check it, and draft the review reply; --send mails it.\n"
	"\n"
	"  -v N               review version N of the series\n"
	"  --mbox FILE        read the series from FILE instead of the archive\n"
	"  --config FILE      configuration (default: $WARNWATCH_CONFIG or\n"
	"                     ~/.config/warnwatch/warnwatch.conf)\n"
	"  --out DIR          write the draft to DIR/<name>.eml (default: stdout)\n"
	"  --send             send it over SMTP and record it in the state database\n"
	"  --force            send even if this series version was answered before\n"
	"  --always           reply even when there is nothing to say\n"
	"  --tree DIR         the kernel tree under review (coding-style quotes,\n"
	"                     wrapper macros; the series applied to a scratch copy\n"
	"                     of the files it touches for facts and compiled rewrites)\n"
	"  --build-dir DIR    the tree's configured build directory (make O=DIR):\n"
	"                     each object's own compile command from its .o.cmd\n"
	"                     (default: the tree itself, else kernel-ci's cached\n"
	"                     build of the same release)\n"
	"  --format FMT       mail (default) or json: the reply and, per call, the\n"
	"                     advice given with its evidence and the rewrite compiled\n"
	"  --verdict FILE     kernel-ci's verdict to include (ci.json, docs/ci.md)\n"
	"  --rules DIR        rule files (default: %s)\n"
	"  -h, --help         this text\n"
	"\n"
	"exit status: 0 done (drafted, sent, or nothing to say), 2 error,\n"
	"3 already answered (nothing sent), 4 input over warnwatch's limits\n"
	"(docs/limits.md)\n";

struct review {
	/* command line */
	struct strvec args;	/* the arguments that are not options */
	const char *msgid_arg;
	const char *mbox;
	const char *config_path;
	const char *out_dir;
	const char *tree;
	const char *build_dir;
	const char *verdict_path;
	const char *rules_dir;
	const char *format;
	int version;
	bool send, force, always;

	struct settings set;
	struct strbuf msgid;		/* normalised MSGID, or empty */
	struct b4_opts b4;		/* the settings', for this series */
	struct strbuf mbox_copy;	/* --mbox normalised for b4, or empty */
	struct ruleset rules;

	/* this version */
	struct b4_series fetched;
	struct mail_list raw;	/* the chosen moved out into series.mails */
	struct series series;

	/* the previous version, when found */
	struct b4_series prev_fetched;
	struct mail_list prev_raw;	/* ... into prev.mails */
	struct series prev;
	bool have_prev;

	struct guide guide;
	bool have_guide;
	struct strbuf tree_name;
	struct ci_verdict verdict;
	bool have_verdict;
	struct advice advice;
	bool have_advice;
};

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "warnwatch: review: %s%s%s%s\n", what, arg ? " '" : "",
		arg ? arg : "", arg ? "'" : "");
	return EXIT_USAGE;
}

/* 0: go on; OPT_HELP: usage printed; EXIT_USAGE: bad command line. */
static int parse_args(struct review *rv, int argc, const char **argv)
{
	const char *version = NULL;
	int ret;
	struct opt opts[] = {
		OPT_FLAG(0, "send", &rv->send),
		OPT_FLAG(0, "force", &rv->force),
		OPT_FLAG(0, "always", &rv->always),
		OPT_STRING('v', NULL, &version, "a version number"),
		OPT_STRING(0, "mbox", &rv->mbox, "FILE"),
		OPT_STRING(0, "config", &rv->config_path, "FILE"),
		OPT_STRING(0, "out", &rv->out_dir, "DIR"),
		OPT_STRING(0, "tree", &rv->tree, "DIR"),
		OPT_STRING(0, "build-dir", &rv->build_dir, "DIR"),
		OPT_STRING(0, "verdict", &rv->verdict_path, "FILE"),
		OPT_STRING(0, "rules", &rv->rules_dir, "DIR"),
		OPT_STRING(0, "format", &rv->format, "mail or json"),
		OPT_END(),
	};

	ret = opt_parse(&rv->args, argc, argv, opts, 0);
	if (ret == OPT_HELP) {
		printf(usage_text, rules_default_dir());
		return OPT_HELP;
	}
	if (ret < 0)
		return usage_error(error_last(), NULL);
	if (version) {
		char *end;
		long n = strtol(version, &end, 10);

		if (!*version || *end || n < 1 || n > 99)
			return usage_error("-v wants a version number from 1 to 99, not",
					   version);
		rv->version = (int)n;
	}
	if (rv->format && strcmp(rv->format, "mail") && strcmp(rv->format, "json"))
		return usage_error("--format takes mail or json, not", rv->format);
	if (rv->format && !strcmp(rv->format, "json") && rv->send)
		return usage_error("--format=json drafts; it does not go with", "--send");
	if (rv->args.nr > 1)
		return usage_error("too many arguments:", rv->args.v[1]);
	if (rv->args.nr)
		rv->msgid_arg = rv->args.v[0];
	if (!rv->msgid_arg && !rv->mbox) {
		fprintf(stderr, usage_text, rules_default_dir());
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * --mbox takes what `check` takes: a lone saved message (no From_ line)
 * or a gzipped thread is turned into an mbox in a temporary file, since
 * b4 reads only mboxes.  The reply's name for it stays the user's file.
 */
static int normalise_mbox(struct review *rv)
{
	struct mailfile mf = MAILFILE_INIT;
	const char *tmp = env_get(ENV_TMPDIR);
	int fd, ret;

	if (!rv->mbox)
		return 0;
	ret = mailfile_read(&mf, rv->mbox);
	if (ret || !mailfile_rewritten(&mf))
		goto out;
	strbuf_addf(&rv->mbox_copy, "%s/warnwatch-review-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(rv->mbox_copy.buf);
	if (fd < 0) {
		ret = error("cannot create '%s': %s", rv->mbox_copy.buf, strerror(errno));
		strbuf_reset(&rv->mbox_copy);
		goto out;
	}
	close(fd);
	ret = strbuf_write_file(&mf.mbox, rv->mbox_copy.buf);
	if (!ret)
		rv->b4.mbox = rv->mbox_copy.buf;
out:
	mailfile_release(&mf);
	return ret;
}

/* ---- the series ---------------------------------------------------------- */

/*
 * The raw messages (exact headers) of the series b4 chose: every message
 * of `raw` whose Message-ID is in b4's .mbx or .cover, moved into `out`.
 */
static int choose_mails(struct mail_list *out, struct mail_list *raw,
			const struct b4_series *f, const char *name)
{
	struct mail_list picked = MAIL_LIST_INIT;
	int ret;

	ret = mbox_parse(&picked, f->mbx.buf, f->mbx.len);
	if (!ret && f->cover.len)
		ret = mbox_parse(&picked, f->cover.buf, f->cover.len);
	if (ret) {
		ret = error_prefix(ret, "b4's series for %s", name);
		goto out;
	}
	ret = mbox_parse(raw, f->thread.buf, f->thread.len);
	if (ret) {
		ret = error_prefix(ret, "the thread of %s", name);
		goto out;
	}
	ret = review_choose_mails(out, raw, &picked, name);
out:
	mail_list_clear(&picked);
	return ret;
}

static void name_of(struct strbuf *out, const struct review *rv)
{
	if (rv->mbox && rv->msgid.len)
		strbuf_addf(out, "'%s' <%s>", rv->mbox, rv->msgid.buf);
	else if (rv->mbox)
		strbuf_addf(out, "'%s'", rv->mbox);
	else
		strbuf_addf(out, "<%s>", rv->msgid.buf);
}

static int fetch(struct review *rv)
{
	struct strbuf name = STRBUF_INIT;
	int ret;

	name_of(&name, rv);
	ret = b4_fetch(&rv->fetched, rv->msgid.len ? rv->msgid.buf : NULL, &rv->b4);
	if (ret)
		goto out;
	ret = choose_mails(&rv->series.mails, &rv->raw, &rv->fetched, name.buf);
	if (ret)
		goto out;
	ret = series_from_mails(&rv->series, &rv->series.mails);
	if (ret)
		ret = error_prefix(ret, "%s", name.buf);
out:
	strbuf_release(&name);
	return ret;
}

/* ---- the previous version ------------------------------------------------ */

/*
 * The message-id of version `v` named in the cover letter or first patch:
 * "Link to v1: https://lore.kernel.org/r/<id>" (b4 send), "v1: <url>".
 */
static bool find_link(struct strbuf *out, const struct series *s, int v)
{
	const struct mail *m = s->cover ? s->cover : (s->nr ? s->patches[0].mail : NULL);
	struct strbuf tag = STRBUF_INIT, id = STRBUF_INIT;
	const char *p;
	bool found = false;

	if (!m || !m->body)
		return false;
	strbuf_addf(&tag, "v%d", v);
	for (p = m->body; *p && !found; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t n = strcspn(p, "\n");
		const char *line_end = p + n, *url, *seg;

		if (!memmem(p, n, tag.buf, tag.len) || !(url = memmem(p, n, "://", 3)))
			continue;
		/* The last path segment holding an '@' is the message-id. */
		for (seg = url + 3; seg < line_end;) {
			size_t len = strcspn(seg, "/ \t>\n");

			if (seg + len > line_end)
				len = line_end - seg;
			if (memchr(seg, '@', len)) {
				strbuf_reset(&id);
				strbuf_add(&id, seg, len);
			}
			seg += len;
			while (seg < line_end && *seg == '/')
				seg++;
			if (seg < line_end && strchr(" \t>", *seg))
				break;
		}
		if (id.len && !msgid_normalize(out, id.buf))
			found = true;
		error_clear();
	}
	strbuf_release(&tag);
	strbuf_release(&id);
	return found;
}

/* Messages of version `v` in the thread we already have, moved into
 * `out` (the chosen version's were moved out of `raw` before). */
static void same_thread(struct mail_list *out, struct mail_list *raw, int v)
{
	for (size_t i = 0; i < raw->nr; i++) {
		struct subject_tags t;

		if (!raw->v[i].message_id)
			continue;
		series_parse_subject(&t, raw->v[i].subject);
		if (!t.is_patch || t.is_reply || t.version != v)
			continue;
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr++] = raw->v[i];
		memset(&raw->v[i], 0, sizeof(raw->v[i]));
	}
}

/* The previous version, compared by review_run(). */
static int load_previous(struct review *rv)
{
	struct b4_opts o = rv->b4;
	struct strbuf id = STRBUF_INIT;
	int want = rv->series.version - 1, ret = 0;

	if (want < 1)
		return 0;
	same_thread(&rv->prev.mails, &rv->raw, want);
	if (!rv->prev.mails.nr && find_link(&id, &rv->series, want)) {
		o.version = want;
		ret = b4_fetch(&rv->prev_fetched, id.buf, &o);
		if (!ret)
			ret = choose_mails(&rv->prev.mails, &rv->prev_raw, &rv->prev_fetched,
					   id.buf);
	}
	if (ret || !rv->prev.mails.nr)
		goto out;
	ret = series_from_mails(&rv->prev, &rv->prev.mails);
	rv->have_prev = !ret;
out:
	if (ret)
		warning("v%d of the series not used: %s", want, error_last());
	strbuf_release(&id);
	return 0;	/* without it the reply only lacks the credits */
}

/* ---- the reply ------------------------------------------------------------ */

/*
 * The reply's advice from the rules directory review was given (--rules,
 * [review] rules), with a tree or without: the reply would otherwise read
 * the installed rules/advice.json, whatever --rules says.  With a tree,
 * the facts review_run() reads name the allocators the advice knows.
 */
static void load_advice(struct review *rv)
{
	if (!advice_load(&rv->advice, rv->rules_dir ? rv->rules_dir : rv->set.rules_dir.buf))
		rv->have_advice = true;
	error_clear();
}

/* The review's options: the configuration's, then ours. */
static void run_opts(struct review_run_opts *o, struct review *rv)
{
	review_reply_from(&o->reply, &rv->set.reply);
	o->reply.always = rv->always;
	o->reply.guide = rv->have_guide ? &rv->guide : NULL;
	o->reply.tree_name = rv->tree_name.len ? rv->tree_name.buf : NULL;
	o->reply.verdict = rv->have_verdict ? &rv->verdict : NULL;
	o->rules = &rv->rules;
	o->tree = rv->tree;
	o->prev = rv->have_prev ? &rv->prev : NULL;
	/* Facts from the tree under review, when there is one. */
	if (rv->have_advice) {
		o->reply.advice = &rv->advice;
		o->facts_tree = rv->tree ? rv->tree : rv->set.review_tree;
		if (o->facts_tree && !*o->facts_tree)
			o->facts_tree = NULL;
		/* What an entry says of the kernel's headers, checked in it. */
		advice_hold(&rv->advice, o->facts_tree);
		o->build_dir = rv->build_dir ? rv->build_dir : rv->set.review_build_dir;
		o->cache_dir = rv->set.cache_dir.buf;
	}
}

/* A reply review_run() decided not to write, said; 0 when it wrote one. */
static int say_decision(const struct review *rv, int decision)
{
	if (decision == REVIEW_NOTHING)
		printf("no reply: nothing to say about %s v%d (no BUG/WARN change "
		       "that needs a word)\n",
		       rv->series.message_id, rv->series.version);
	else if (decision == REVIEW_NO_ISSUE)
		printf("no reply: no issue to raise in %s v%d, only thanks or notes "
		       "(--always drafts it)\n", rv->series.message_id, rv->series.version);
	else if (decision == REVIEW_SKIPPED)
		printf("no reply: the author asked not to get these reviews ([review] skip-authors)\n");
	return decision;
}

/* "reply-<series id>-v<N>.eml", with nothing a path could trip on. */
static void draft_name(struct strbuf *out, const struct series *s)
{
	strbuf_addstr(out, "reply-");
	for (const char *p = s->message_id; *p; p++)
		strbuf_addch(out, *p == '/' ? '_' : *p);
	strbuf_addf(out, "-v%d.eml", s->version);
}

static int write_draft(struct review *rv, const struct reply *r)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (stat(rv->out_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		ret = error_code(WW_ENOTFOUND, "--out '%s' is not a directory", rv->out_dir);
		goto out;
	}
	strbuf_addf(&path, "%s/", rv->out_dir);
	draft_name(&path, &rv->series);
	ret = strbuf_write_file(&r->text, path.buf);
	if (!ret)
		printf("draft: %s\n", path.buf);
out:
	strbuf_release(&path);
	return ret;
}

/* Say why nothing is sent: `how` is REVIEW_ANSWERED or REVIEW_MAYBE_SENT. */
static void answered(const struct review *rv, const struct store_reply *prev, int how)
{
	if (how == REVIEW_ANSWERED)
		printf("already answered: %s v%d got <%s>; nothing sent (--force sends again)\n",
		       rv->series.message_id, rv->series.version, prev->message_id);
	else
		printf("maybe answered: sending <%s> to %s v%d was interrupted; check the "
		       "archive, then --force to send it again (same Message-ID)\n",
		       prev->message_id, rv->series.message_id, rv->series.version);
}

/*
 * Send with the intent recorded first (review_deliver()).  Sets
 * EXIT_ANSWERED when the state database says this series version was
 * answered (or maybe was).
 */
static int send_reply(struct review *rv, struct store *st, int *exit_status)
{
	struct store_reply prev = STORE_REPLY_INIT;
	struct review_run_opts o = REVIEW_RUN_OPTS_INIT;
	struct review_outgoing out = REVIEW_OUTGOING_INIT;
	struct reply r = REPLY_INIT;
	int ret;

	ret = review_known(&prev, st, rv->series.message_id, rv->series.version);
	if (ret > 0 && !rv->force) {
		answered(rv, &prev, ret);
		*exit_status = EXIT_ANSWERED;
		ret = 0;
		goto out;
	}
	if (ret < 0)
		goto out;
	run_opts(&o, rv);
	/* Retrying an interrupted or failed send: same Message-ID, so that
	 * a copy that did get through is de-duplicated downstream. */
	if (prev.message_id && prev.state != REPLY_SENT)
		o.reply.message_id = prev.message_id;
	ret = review_run(&r, &rv->series, &o);
	if (ret > 0) {
		say_decision(rv, ret);
		ret = 0;
		goto out;
	}
	if (!ret && rv->out_dir)
		ret = write_draft(rv, &r);
	if (!ret)
		ret = review_outgoing_parse(&out, r.text.buf, r.text.len);
	if (ret)
		goto out;
	store_reply_release(&prev);
	ret = review_deliver(&prev, st, &rv->set.smtp, &out, rv->series.message_id,
			     rv->series.version, rv->force);
	if (ret == REVIEW_ANSWERED || ret == REVIEW_MAYBE_SENT) {
		/* Another process recorded one between our look and now. */
		answered(rv, &prev, ret);
		*exit_status = EXIT_ANSWERED;
		ret = 0;
	} else if (ret == REVIEW_UNRECORDED) {
		/* It went out: say so even though the record did not follow. */
		printf("sent <%s> to %s, but could not record it\n", out.message_id,
		       out.rcpt_text.buf);
		ret = WW_ESTATE;
	} else if (!ret) {
		printf("sent <%s> to %s, in reply to <%s>\n", out.message_id,
		       out.rcpt_text.buf, out.in_reply_to);
	}
	/* WW_ETIMEOUT: maybe delivered, the intent stays, so that the next
	 * run says "maybe answered" instead of sending it again. */
out:
	reply_release(&r);
	review_outgoing_release(&out);
	store_reply_release(&prev);
	return ret;
}

static int draft_reply(struct review *rv)
{
	struct review_run_opts o = REVIEW_RUN_OPTS_INIT;
	struct reply r = REPLY_INIT;
	int ret;

	run_opts(&o, rv);
	ret = review_run(&r, &rv->series, &o);
	if (ret >= 0 && rv->format && !strcmp(rv->format, "json")) {
		json_t *doc = json_object();

		json_object_set_new(doc, "reply", ret == REVIEW_DRAFTED ?
				    json_string(r.text.buf) : json_null());
		json_object_set_new(doc, "calls", r.record ? json_incref(r.record) : json_array());
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
		ret = 0;
	} else if (ret > 0)
		say_decision(rv, ret);
	else if (!ret && rv->out_dir)
		ret = write_draft(rv, &r);
	else if (!ret)
		fwrite(r.text.buf, 1, r.text.len, stdout);
	reply_release(&r);
	return ret < 0 ? ret : 0;
}

static int run(struct review *rv, int *exit_status)
{
	struct store st = STORE_INIT;
	const char *tree;
	struct stat sb;
	int ret;

	ret = settings_load(&rv->set, rv->config_path, SETTINGS_OPTIONAL |
			    (rv->send ? SETTINGS_SENDING : 0));
	if (ret)
		return ret;
	if (rv->msgid_arg) {
		ret = msgid_normalize(&rv->msgid, rv->msgid_arg);
		if (ret) {
			struct strbuf q = STRBUF_INIT;

			msgid_quote(&q, rv->msgid_arg);
			ret = error_prefix(ret, "invalid message-id '%s'", q.buf);
			strbuf_release(&q);
			return ret;
		}
	}
	rv->b4 = rv->set.b4;
	rv->b4.version = rv->version;
	rv->b4.mbox = rv->mbox;
	ret = normalise_mbox(rv);
	if (!ret && rv->verdict_path) {
		ret = ci_verdict_load(&rv->verdict, rv->verdict_path);
		rv->have_verdict = !ret;
	}
	if (ret)
		return ret;
	/* What can be wrong without fetching anything is said before fetching. */
	if (rv->out_dir && (stat(rv->out_dir, &sb) < 0 || !S_ISDIR(sb.st_mode)))
		return error_code(WW_ENOTFOUND, "--out '%s' is not a directory", rv->out_dir);
	ret = rules_load(&rv->rules, rv->rules_dir ? rv->rules_dir : rv->set.rules_dir.buf);
	if (!ret)
		ret = fetch(rv);
	if (!ret)
		ret = load_previous(rv);
	if (ret)
		return ret;
	tree = rv->tree ? rv->tree : rv->set.review_tree;
	ret = review_load_guide(&rv->guide, &rv->tree_name, tree, rv->set.review_source,
				rv->set.cache_dir.buf, tree ? REVIEW_GUIDE_REQUIRED : 0,
				NULL);
	if (ret < 0)
		return ret;
	rv->have_guide = ret > 0;
	load_advice(rv);
	if (!rv->send)
		return draft_reply(rv);

	ret = settings_state_open(&st, &rv->set);
	if (!ret)
		ret = send_reply(rv, &st, exit_status);
	store_close(&st);
	return ret;
}

static void review_release(struct review *rv)
{
	strvec_clear(&rv->args);
	settings_release(&rv->set);
	strbuf_release(&rv->msgid);
	if (rv->mbox_copy.len)
		unlink(rv->mbox_copy.buf);
	strbuf_release(&rv->mbox_copy);
	ruleset_release(&rv->rules);
	series_release(&rv->series);
	mail_list_clear(&rv->raw);
	b4_series_release(&rv->fetched);
	series_release(&rv->prev);
	mail_list_clear(&rv->prev_raw);
	b4_series_release(&rv->prev_fetched);
	guide_release(&rv->guide);
	strbuf_release(&rv->tree_name);
	ci_verdict_release(&rv->verdict);
	advice_release(&rv->advice);
}

int cmd_review(int argc, const char **argv)
{
	struct review rv = {
		.args = STRVEC_INIT, .set = SETTINGS_INIT, .msgid = STRBUF_INIT,
		.b4 = B4_OPTS_INIT, .mbox_copy = STRBUF_INIT, .rules = RULESET_INIT,
		.fetched = B4_SERIES_INIT, .raw = MAIL_LIST_INIT,
		.series = SERIES_INIT,
		.prev_fetched = B4_SERIES_INIT, .prev_raw = MAIL_LIST_INIT,
		.prev = SERIES_INIT, .guide = GUIDE_INIT,
		.tree_name = STRBUF_INIT, .verdict = CI_VERDICT_INIT,
		.advice = ADVICE_INIT,
	};
	int status = EXIT_OK, ret;

	ret = parse_args(&rv, argc, argv);
	if (ret) {
		review_release(&rv);
		return ret == OPT_HELP ? EXIT_OK : ret;
	}
	ret = run(&rv, &status);
	if (ret) {
		struct strbuf name = STRBUF_INIT;

		if (rv.msgid.len || rv.mbox) {
			strbuf_addstr(&name, "review ");
			name_of(&name, &rv);
		} else {
			strbuf_addstr(&name, "review");
		}
		status = report_error(name.buf);
		if (ret == WW_ETOOBIG)
			status = EXIT_TOOBIG;
		strbuf_release(&name);
	}
	fflush(stdout);
	review_release(&rv);
	return status;
}
