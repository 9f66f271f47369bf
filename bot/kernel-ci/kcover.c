/*
 * Evidence coverage over a set of kernel-ci verdicts (kcover.h): sums,
 * not judgements.  The verdicts come from ci-json.c; which call was
 * reached or fired is the verdict's own word (ci_call_fired()).
 */
#include "kcover.h"

#include "ci-json.h"

#include <dirent.h>
#include <sys/stat.h>

bool kcover_booted(enum ci_verdict_kind k)
{
	return k == CI_CLEAN || k == CI_PANICKED || k == CI_HUNG ||
	       k == CI_FS_CORRUPTED;
}

static void add_reason(struct kcover *cov, const char *reason)
{
	struct kcover_reason *r;

	if (!reason || !*reason)
		reason = "(no reason given)";
	for (size_t i = 0; i < cov->nr_untestable; i++)
		if (!strcmp(cov->untestable[i].reason, reason)) {
			cov->untestable[i].count++;
			return;
		}
	ALLOC_GROW(cov->untestable, cov->nr_untestable + 1, cov->alloc_untestable);
	r = &cov->untestable[cov->nr_untestable++];
	r->reason = xstrdup(reason);
	r->count = 1;
}

void kcover_add(struct kcover *cov, const struct ci_verdict *v)
{
	cov->series++;
	if ((unsigned int)v->kind <= CI_UNTESTABLE)
		cov->kinds[v->kind]++;
	if (kcover_booted(v->kind))
		cov->booted++;
	if (v->kind == CI_UNTESTABLE)
		add_reason(cov, v->reason);
	for (size_t i = 0; i < v->nr_calls; i++) {
		const struct ci_call *c = &v->calls[i];

		cov->calls++;
		if (c->reached > 0 || ci_call_fired(v, c, NULL))
			cov->evidence++;
		else if (!c->reached)
			cov->not_reached++;
		else
			cov->unmeasured++;
	}
}

static int load_file(struct kcover *cov, const char *path)
{
	struct ci_verdict v = CI_VERDICT_INIT;
	int ret = ci_verdict_load(&v, path);

	if (!ret)
		kcover_add(cov, &v);
	ci_verdict_release(&v);
	return ret;
}

static int load_dir(struct kcover *cov, const char *dir)
{
	struct strvec names = STRVEC_INIT;
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (!(d = opendir(dir)))
		return error("cannot open '%s': %s", dir, strerror(errno));
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && ends_with(de->d_name, ".json"))
			strvec_push(&names, de->d_name);
	closedir(d);
	if (!names.nr)
		ret = error_code(WW_ENOTFOUND, "no verdict files (*.json) in '%s'",
				 dir);
	strvec_sort(&names);
	for (size_t i = 0; !ret && i < names.nr; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, names.v[i]);
		ret = load_file(cov, path.buf);
	}
	strbuf_release(&path);
	strvec_clear(&names);
	return ret;
}

int kcover_load(struct kcover *cov, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return error_code(errno == ENOENT ? WW_ENOTFOUND : WW_ERROR,
				  "cannot open '%s': %s", path, strerror(errno));
	return S_ISDIR(st.st_mode) ? load_dir(cov, path) : load_file(cov, path);
}

static int cmp_reason(const void *a, const void *b)
{
	const struct kcover_reason *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->reason, y->reason);
}

void kcover_sort(struct kcover *cov)
{
	if (cov->nr_untestable)
		qsort(cov->untestable, cov->nr_untestable,
		      sizeof(*cov->untestable), cmp_reason);
}

/* "12 of 40 (30%)": the share, or no percentage of nothing. */
static void share(struct strbuf *out, size_t n, size_t total)
{
	strbuf_addf(out, "%zu", n);
	if (total)
		strbuf_addf(out, " (%.0f%%)", 100.0 * (double)n / (double)total);
}

void kcover_text(struct strbuf *out, const struct kcover *cov)
{
	strbuf_addf(out, "series:                 %zu\n", cov->series);
	strbuf_addstr(out, "  with a boot verdict:  ");
	share(out, cov->booted, cov->series);
	strbuf_addch(out, '\n');
	for (int k = CI_CLEAN; k <= CI_UNTESTABLE; k++)
		if (cov->kinds[k])
			strbuf_addf(out, "  %-21s %zu\n", ci_verdict_name(k),
				    cov->kinds[k]);
	for (size_t i = 0; i < cov->nr_untestable; i++)
		strbuf_addf(out, "    untestable %zu: %s\n",
			    cov->untestable[i].count, cov->untestable[i].reason);
	strbuf_addf(out, "added calls:            %zu\n", cov->calls);
	strbuf_addstr(out, "  runtime evidence:     ");
	share(out, cov->evidence, cov->calls);
	strbuf_addstr(out, "\n  never reached:        ");
	share(out, cov->not_reached, cov->calls);
	strbuf_addstr(out, "\n  not measured:         ");
	share(out, cov->unmeasured, cov->calls);
	strbuf_addch(out, '\n');
}

json_t *kcover_to_json(const struct kcover *cov)
{
	json_t *o = json_object(), *kinds = json_object(), *reasons = json_array();

	for (int k = CI_CLEAN; k <= CI_UNTESTABLE; k++)
		json_object_set_new(kinds, ci_verdict_name(k),
				    json_integer((json_int_t)cov->kinds[k]));
	for (size_t i = 0; i < cov->nr_untestable; i++)
		json_array_append_new(reasons, json_pack("{s:s, s:I}",
			"reason", cov->untestable[i].reason,
			"count", (json_int_t)cov->untestable[i].count));
	json_object_set_new(o, "series", json_integer((json_int_t)cov->series));
	json_object_set_new(o, "booted", json_integer((json_int_t)cov->booted));
	json_object_set_new(o, "verdicts", kinds);
	json_object_set_new(o, "untestable", reasons);
	json_object_set_new(o, "calls", json_integer((json_int_t)cov->calls));
	json_object_set_new(o, "evidence", json_integer((json_int_t)cov->evidence));
	json_object_set_new(o, "not_reached",
			    json_integer((json_int_t)cov->not_reached));
	json_object_set_new(o, "unmeasured",
			    json_integer((json_int_t)cov->unmeasured));
	json_object_set_new(o, "evidence_coverage", cov->calls ?
			    json_real((double)cov->evidence / (double)cov->calls) :
			    json_null());
	return o;
}

void kcover_release(struct kcover *cov)
{
	for (size_t i = 0; i < cov->nr_untestable; i++)
		free(cov->untestable[i].reason);
	free(cov->untestable);
	memset(cov, 0, sizeof(*cov));
}
