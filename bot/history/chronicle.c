/*
 * The history serve keeps by itself (see chronicle.h): its own epochs
 * backfilled a batch at a time, each list's tree counted once per version.
 */
#include "chronicle.h"
#include "backfill.h"
#include "census.h"
#include "mkdirs.h"
#include "serve.h"
#include "settings.h"
#include "strbuf.h"

#include <ctype.h>
#include <jansson.h>
#include <sys/stat.h>

/* One list: the next batch of its epochs.  1 when mails were recorded. */
static int backfill_list(struct chronicle *c, const struct serve_config *cfg,
			 const struct serve_list *l, struct store *st)
{
	struct backfill_opts bo = BACKFILL_OPTS_INIT;
	struct backfill_epoch_stats stats = { 0 };
	struct strbuf dir = STRBUF_INIT, url = STRBUF_INIT;
	struct stat sb;
	int ret = 0;

	strbuf_addf(&dir, "%s/epochs/%s", cfg->settings->state.dir, l->name);
	if (stat(dir.buf, &sb) || !S_ISDIR(sb.st_mode))
		goto out;	/* nothing fetched yet (or an archive without git) */
	strbuf_addf(&url, "%s/%s/", l->archive, l->inbox);
	bo.list = l->name;
	bo.url = url.buf;
	bo.rules = &c->rules;
	bo.max_mails = cfg->history_batch;
	ret = backfill_inbox(&stats, st, dir.buf, &bo);
	if (ret == WW_ENOTFOUND) {	/* the directory holds no epoch yet */
		error_clear();
		ret = 0;
	}
	if (!ret && stats.mails) {
		c->last_mails += stats.mails;
		ret = 1;
	}
	if (ret < 0)
		ret = error_prefix(ret, "history of '%s'", l->name);
out:
	backfill_epoch_stats_release(&stats);
	strbuf_release(&dir);
	strbuf_release(&url);
	return ret;
}

/* The tree a list names as a census reads it ("6.1": Debian's tarball, as
 * kernel-ci takes it); false for none or a git: tree. */
static bool census_source(struct strbuf *out, const char *tree)
{
	strbuf_reset(out);
	if (!*tree || starts_with(tree, "git:"))
		return false;
	if (strchr(tree, '/'))
		strbuf_addstr(out, tree);
	else
		strbuf_addf(out, "/usr/src/linux-source-%s.tar.xz", tree);
	return true;
}

/*
 * STATE/census/NAME-STAMP: the tree's version as the file system shows it
 * (a tarball's size and mtime, a directory's top Makefile's), so a new
 * linux-source package or a tree moved to another release is counted
 * again and an unchanged one never is.  false when the tree is not there.
 */
static bool census_name(struct strbuf *out, const char *state_dir, const char *src)
{
	struct strbuf mk = STRBUF_INIT;
	const char *base = strrchr(src, '/');
	struct stat sb;
	bool ok;

	strbuf_addstr(&mk, src);
	if (!stat(src, &sb) && S_ISDIR(sb.st_mode))
		strbuf_addstr(&mk, "/Makefile");
	ok = !stat(mk.buf, &sb) && S_ISREG(sb.st_mode);
	strbuf_release(&mk);
	if (!ok)
		return false;
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s/", state_dir, CHRONICLE_CENSUS_DIR);
	for (base = base ? base + 1 : src; *base && out->len < 200; base++)
		strbuf_addch(out, isalnum((unsigned char)*base) || *base == '.' ||
			     *base == '-' ? *base : '_');
	strbuf_addf(out, "-%jd-%jd", (intmax_t)sb.st_size, (intmax_t)sb.st_mtime);
	return true;
}

/* One tree, counted unless it was for this version (or failed for it).
 * 1 when a census was written. */
static int census_once(struct chronicle *c, const struct serve_config *cfg,
		       const char *src)
{
	struct census cs = CENSUS_INIT;
	struct census_opts co = CENSUS_OPTS_INIT;
	struct ruleset rs = RULESET_INIT;
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct stat sb;
	json_t *j = NULL;
	char *dump = NULL;
	int ret = 0;

	if (!census_name(&name, cfg->settings->state.dir, src))
		goto out;	/* not there (yet): nothing to count */
	strbuf_addf(&path, "%s.json", name.buf);
	if (!stat(path.buf, &sb))
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s.failed", name.buf);
	if (!stat(path.buf, &sb))
		goto out;	/* said once, when it failed */
	strbuf_reset(&text);
	strbuf_addf(&text, "%s/%s", cfg->settings->state.dir, CHRONICLE_CENSUS_DIR);
	if ((ret = mkdirs(text.buf, 0755, WW_ERROR)) < 0)
		goto out;
	/* A census adds the tree's wrappers to its rules: a fresh set each. */
	ret = rules_load(&rs, cfg->settings->rules_dir.buf);
	if (!ret)
		ret = census_tree(&cs, src, &rs, &co);
	strbuf_reset(&text);
	if (ret < 0) {
		/* Not again for this version: the reason stays next to it. */
		strbuf_addf(&text, "%s\n", error_last());
		strbuf_write_file(&text, path.buf);
		ret = error_prefix(ret, "census of '%s' for the dashboard", src);
		goto out;
	}
	j = census_to_json(&cs);
	dump = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	strbuf_addstr(&text, dump ? dump : "{}");
	strbuf_addch(&text, '\n');
	strbuf_reset(&path);
	strbuf_addf(&path, "%s.json", name.buf);
	ret = strbuf_write_file(&text, path.buf);
	if (!ret) {
		c->last_census++;
		ret = 1;
	}
out:
	free(dump);
	json_decref(j);
	census_release(&cs);
	ruleset_release(&rs);
	strbuf_release(&name);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

int chronicle_step(void *data, const struct serve_config *cfg, struct store *st,
		   time_t now)
{
	struct chronicle *c = data;
	struct strbuf src = STRBUF_INIT;
	int ret = 0, changed = 0;

	c->last_mails = c->last_census = 0;
	if (!c->rules_loaded) {
		ret = rules_load(&c->rules, cfg->settings->rules_dir.buf);
		if (ret < 0)
			return ret;
		c->rules_loaded = true;
	}
	for (size_t i = 0; i < cfg->nr_lists; i++) {
		int r = backfill_list(c, cfg, &cfg->lists[i], st);

		if (r < 0 && !ret)
			ret = r;
		else if (r > 0)
			changed = 1;
	}
	for (size_t i = 0; i < cfg->nr_lists; i++) {
		int r;

		if (!census_source(&src, cfg->lists[i].tree))
			continue;
		r = census_once(c, cfg, src.buf);
		if (r < 0 && !ret)
			ret = r;
		else if (r > 0)
			changed = 1;
	}
	strbuf_release(&src);
	return ret < 0 ? ret : changed;
}

void chronicle_release(struct chronicle *c)
{
	if (c->rules_loaded)
		ruleset_release(&c->rules);
	c->rules_loaded = false;
}
