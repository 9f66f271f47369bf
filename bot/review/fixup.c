/*
 * check --suggest --tree: the review's compiled rewrites as a patch
 * (fixup.h).
 */
#include "fixup.h"
#include "advice.h"
#include "ktree.h"
#include "patched.h"
#include "reply.h"
#include "safefs.h"

#define FIXUP_FILE_MAX (8u << 20)

/* Why call `f` gets no rewrite, into `skipped`. */
static void left_out(struct strbuf *skipped, const struct finding *f, const char *why)
{
	strbuf_addf(skipped, "%s:%d: %s(): %s\n", f->file, f->line, f->rule->macro, why);
}

/* The rewrite of finding i, compiled: 1 with `e` filled, 0 left out. */
static int one(struct suggest_edit *e, struct strbuf *text, struct strbuf *code,
	       struct strbuf *skipped, struct patched *pt, const struct series *s,
	       size_t i, const struct advice *a)
{
	const struct finding *f = &pt->r->v[i];
	struct strbuf exit = STRBUF_INIT;
	const char *how = NULL;
	int ret = 0;

	if (!pt->paths[i] || !pt->facts[i].found) {
		left_out(skipped, f, "no function holds it in the tree after the series: "
			 "no rewrite");
		goto out;
	}
	if (pt->facts[i].by_name) {
		left_out(skipped, f, "the series does not apply to this function here "
			 "(facts read by name from the base): no fixup");
		goto out;
	}
	reply_rewrite(code, &exit, s, f, &pt->facts[i], a);
	if (!code->len) {
		left_out(skipped, f, "no rewrite the facts support");
		goto out;
	}
	ret = patched_compile(pt, f, code->buf, &how);
	if (ret <= 0) {
		strbuf_reset(&exit);
		if (ret < 0)
			strbuf_addf(&exit, "not compiled (%s): left out", error_last());
		else
			strbuf_addf(&exit, "the rewrite does not compile (%s command): left out",
				    how ? how : "gcc");
		error_clear();
		left_out(skipped, f, exit.buf);
		ret = 0;
		goto out;
	}
	if (safefs_read(text, pt->dir.buf, pt->paths[i], FIXUP_FILE_MAX, SAFEFS_NO_SYMLINKS)) {
		left_out(skipped, f, error_last());
		error_clear();
		ret = 0;
		goto out;
	}
	e->path = pt->paths[i];
	e->line = pt->lines[i];
	e->n = f->source_lines > 0 ? f->source_lines : 1;
	e->function = f->function;
	ret = 1;
out:
	strbuf_release(&exit);
	return ret;
}

int fixup_series(struct strbuf *out, struct strbuf *skipped, const struct series *s,
		 const struct check_result *r, const struct suggest_tree_opts *o)
{
	struct advice a = ADVICE_INIT;
	struct patched pt = PATCHED_INIT;
	struct patched_opts po = PATCHED_OPTS_INIT;
	struct strbuf cache = STRBUF_INIT;
	struct suggest_edit *edits = xcalloc(r->nr + 1, sizeof(*edits));
	struct strbuf *texts = xcalloc(r->nr + 1, sizeof(*texts));
	struct strbuf *codes = xcalloc(r->nr + 1, sizeof(*codes));
	size_t nr = 0;
	int ret;

	for (size_t i = 0; i < r->nr; i++) {
		strbuf_init(&texts[i], 0);
		strbuf_init(&codes[i], 0);
	}
	/* Without advice.json, the gentler forms alone. */
	if (advice_load(&a, o->rules_dir))
		error_clear();
	ktree_cache_dir(&cache, NULL);
	po.alloc_calls = &a.alloc_calls;
	po.build_dir = o->build_dir;
	po.cache_dir = cache.buf;
	ret = patched_apply(&pt, o->tree, s, r, &po);
	if (ret)
		goto out;
	for (size_t i = 0; i < r->nr; i++) {
		const struct finding *f = &r->v[i];

		if (f->kind != FINDING_ADDED || f->moved || f->conversion ||
		    f->severity < SEV_WARNING || !f->rule)
			continue;
		if (one(&edits[nr], &texts[nr], &codes[nr], skipped, &pt, s, i, &a)) {
			edits[nr].text = texts[nr].buf;
			edits[nr].code = codes[nr].buf;
			nr++;
		} else {
			strbuf_reset(&codes[nr]);
			strbuf_reset(&texts[nr]);
		}
	}
	suggest_edits(out, skipped, edits, nr);
out:
	for (size_t i = 0; i < r->nr; i++) {
		strbuf_release(&texts[i]);
		strbuf_release(&codes[i]);
	}
	free(edits);
	free(texts);
	free(codes);
	patched_release(&pt);
	advice_release(&a);
	strbuf_release(&cache);
	return ret;
}
