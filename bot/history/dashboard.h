/*
 * warnwatch dashboard: a static site (HTML + inline SVG, no JavaScript)
 * showing BUG/WARN calls per release (from `census --format=json` files)
 * and what the watched lists' series did (from the service's state, or
 * from a JSON document of the same shape), plus dashboard.json, the data
 * it was made from.  Pages come from templates/dashboard/ through the
 * template engine; every value is HTML-escaped before it reaches a
 * template, so a subject line cannot inject markup.
 *
 * Layout of the output directory:
 *   index.html  style.css  dashboard.json
 *   series/ID/index.html   (findings, verdict, reply of one series)
 *   series/ID/findings.json, console.log, reply.eml, series.mbx (copied)
 */
#ifndef WW_DASHBOARD_H
#define WW_DASHBOARD_H

#include "ww.h"

#include <jansson.h>
#include <time.h>

struct store;

#define DASHBOARD_RECENT 25		/* series per list in the table */
#define DASHBOARD_MAX_SERIES 5000	/* per list read from the state */
#define DASHBOARD_MAX_ARTIFACT (64u << 20)
#define DASHBOARD_MAX_INPUT (256u << 20)	/* one census or lists JSON */
#define DASHBOARD_MAX_CENSUS 100	/* census files serve wrote, read */
/* A series' Date: is believed from 1991-08-25 (Linux announced) to a day
 * after serve read it; else the page shows when serve read it. */
#define DASHBOARD_POSTED_FLOOR 683078400
#define DASHBOARD_POSTED_SKEW (24 * 3600)

/* A list the service watches: shown from the start, series or not. */
struct dashboard_watched {
	const char *name;
	const char *url;		/* its archive, or NULL */
};

/*
 * What each series' artifacts say (findings.json's counts, ci.json's
 * verdict), kept across dashboard_write() calls by a caller that draws
 * the page again and again: serve draws it after every stage and must not
 * parse thousands of unchanged files each time.  An entry holds while its
 * file has the same inode, size and mtime (artifacts are replaced by
 * rename); entries of series no longer listed are dropped at each write.
 */
struct dashboard_cache {
	json_t *parts;		/* path -> { "stamp", "part" } */
	size_t parsed;		/* artifacts the last write had to parse (tests) */
};

#define DASHBOARD_CACHE_INIT { 0 }

void dashboard_cache_release(struct dashboard_cache *c);

struct dashboard_opts {
	const char *out_dir;
	/* The service's state, or NULL: its series' artifacts are under
	 * state_dir, its tables in `store` when set (borrowed, open: the
	 * shared PostgreSQL of a multi-machine deployment, or serve's own
	 * connection), else in state_dir's SQLite file. */
	const char *state_dir;
	const char *lists_file;		/* or lists from this JSON, or NULL */
	const char **census;		/* census JSON files (tree or --git) */
	size_t nr_census;
	const char *templates;		/* NULL: dashboard_templates_dir() */
	const char *title;		/* NULL: "warnwatch" */
	size_t recent;			/* 0: DASHBOARD_RECENT */
	time_t now;			/* 0: time(NULL); tests pin it */
	struct store *store;		/* see state_dir */
	/* With state_dir: the lists serve watches (borrowed), or none. */
	const struct dashboard_watched *watched;
	size_t nr_watched;
	/* With state_dir: what the previous writes read (borrowed, updated),
	 * or NULL to parse every artifact. */
	struct dashboard_cache *cache;
};

#define DASHBOARD_OPTS_INIT { 0 }

/*
 * The model the site is made from: { "generated", "title", "releases":
 * [tree census...] (oldest release first), "changes": [git census...],
 * "lists": [{ "name", "url", "series": [...] }] }.  A new reference.
 * Errors name the file that could not be read.
 */
int dashboard_model(json_t **out, const struct dashboard_opts *opts);

/* Render `model` into opts->out_dir (created), copying artifacts. */
int dashboard_render(const json_t *model, const struct dashboard_opts *opts);

/* Both: what `warnwatch dashboard` and `warnwatch serve` call. */
int dashboard_write(const struct dashboard_opts *opts);

/* The dashboard templates: $WARNWATCH_TEMPLATES/dashboard, the source
 * tree's templates/dashboard next to the binary, or the installed one. */
const char *dashboard_templates_dir(void);

/* Compare release strings numerically ("6.1.192" < "6.12.3"). */
int dashboard_release_cmp(const char *a, const char *b);

#endif
