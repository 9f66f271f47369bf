/*
 * The per-release history `warnwatch serve` keeps by itself, so that the
 * dashboard's first page has its numbers without a manual step: after
 * each round of polls, a batch of the mails its own epochs hold
 * (STATE/epochs/LIST/N.git, what follow.c fetched) is backfilled, and the
 * kernel tree of each list (`tree`) is counted by the census once per
 * version of it, into STATE/census/.  serve/ cannot include history/ (a
 * floor above it): `warnwatch serve` hands chronicle_step() in.
 */
#ifndef WW_CHRONICLE_H
#define WW_CHRONICLE_H

#include "rules.h"

#include <time.h>

struct serve_config;
struct store;

/* Where the census JSON files of the trees go, under the state directory;
 * the dashboard of a state shows every one it finds there. */
#define CHRONICLE_CENSUS_DIR "census"

struct chronicle {
	struct ruleset rules;	/* [review] rules, loaded at the first step */
	bool rules_loaded;
	size_t last_mails;	/* mails the last step recorded (tests, logs) */
	size_t last_census;	/* census files the last step wrote */
};

#define CHRONICLE_INIT { .rules = RULESET_INIT }

/*
 * One step, `data` a struct chronicle: for each list, at most
 * cfg->history_batch mails of its epochs that were not read yet; then the
 * census of each list's tree that has none for its version.  1 when it
 * recorded something (the dashboard is drawn again), 0 when not, negative
 * on error (the first; the other lists and trees are still done).
 */
int chronicle_step(void *data, const struct serve_config *cfg, struct store *st,
		   time_t now);

void chronicle_release(struct chronicle *c);

#endif
