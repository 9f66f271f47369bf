/*
 * The service's stages, one module each, as a table of ops that serve.c
 * runs (see serve.h for the pipeline):
 *
 *   stage-fetch.c  received -> fetched: the series and its thread by b4
 *   stage-check.c  fetched  -> checked: the findings (findings.json)
 *   stage-ci.c     checked  -> booted:  kernel-ci build and boot (lists
 *                                       with boot = yes)
 *   stage-reply.c  checked/booted -> replied: draft, maybe send (review.h)
 *
 * A stage reads its inputs and writes its results as artifacts in the
 * series' directory (queue.h) before it moves the series on, so that a
 * killed service redoes at most the stage it was in.  Adding a stage is
 * one stage-NAME.c defining a `struct stage` and its line in serve.c's
 * table.  The helpers below are what the stages share.
 */
#ifndef WW_STAGE_H
#define WW_STAGE_H

#include "serve-priv.h"
#include "mbox.h"
#include "series.h"

/* A bit per queue state, for stage.from. */
#define STAGE_FROM(st) (1u << (st))

struct stage {
	const char *name;
	unsigned int from;	/* STAGE_FROM() of the states it starts from */
	/* Whether the stage applies to the series of list `l`; NULL: always.
	 * A series whose state no wanted stage starts from is a BUG. */
	bool (*wanted)(const struct serve_list *l);
	/*
	 * Run the stage for series `s` of list `l`: 0 when the stage moved
	 * the series on, deferred it or recorded its failure (serve_fail());
	 * negative when our own machinery failed (WW_ESTATE: the state
	 * database), which the loop records and retries.
	 */
	int (*run)(struct serve *sv, const struct queue_series *s,
		   const struct serve_list *l, time_t now);
};

extern const struct stage stage_fetch, stage_check, stage_ci, stage_reply;

/* Write `len` bytes to the series' artifact `name` (temp file + rename:
 * a crash leaves the old file or the new one, never half of one). */
int stage_put_artifact(struct serve *sv, long long id, const char *name,
		       const char *buf, size_t len);
/* Read the series' artifact `name` into `out`. */
int stage_read_artifact(struct strbuf *out, struct serve *sv, long long id,
			const char *name);
/*
 * The series of `id` as a stage reads it, parsed once per stage run into
 * `out` (SERIES_INIT): the messages b4 chose (review_choose_mails()), each
 * as the list archived it, owned by the series (out->mails), pointing
 * into the thread as archived (out->raw).  series_release() it, also on
 * error.
 */
int stage_load_series(struct series *out, struct serve *sv, long long id);
/* The rules, loaded once per process (sv->rules). */
int stage_need_rules(struct serve *sv);

/* A series as the stages share it: read and checked once. */
struct stage_series {
	long long id;
	struct series s;	/* stage_load_series() */
	struct check_result r;	/* check_series() with sv->rules, no tree */
	struct strbuf stamp;	/* the stored mail it was read from, as stat() saw it */
	size_t nr_rules;	/* sv->rules when it was checked */
};

/*
 * Series `id` and its findings, parsed and checked once: the check, boot
 * and reply stages of one process hand the same series and result down
 * (ci_opts.checked, review_run_opts.checked) rather than parsing and
 * checking the stored mail again.  Read again when the mail stored for it
 * changed (a fetch, another process) or the rules grew.  `*out` is valid
 * until the next stage_checked() or stage_forget().  The rules must be
 * loaded (stage_need_rules()).
 */
int stage_checked(struct serve *sv, long long id, const struct stage_series **out);
/* Drop the kept series (the service's end). */
void stage_forget(struct serve *sv);

/*
 * The thread of `root` on list `l` as the archive has it now (`b4 mbox`,
 * the way the fetch stage reads a thread), into `out`: to see what people
 * said after the series was fetched.  b4's codes on failure.
 */
int stage_fetch_thread(struct strbuf *out, struct serve *sv,
		       const struct serve_list *l, const char *root);

#endif
