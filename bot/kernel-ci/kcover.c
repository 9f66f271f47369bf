/*
 * Evidence coverage over a set of kernel-ci verdicts (kcover.h): sums,
 * not judgements.  The verdicts come from ci-json.c; which call was
 * reached or fired is the verdict's own word (ci_call_fired()).
 */
#include "kcover.h"

#include "ci-json.h"
#include "kbase.h"

#include <dirent.h>
#include <sys/stat.h>

bool kcover_booted(enum ci_verdict_kind k)
{
	return k == CI_CLEAN || k == CI_PANICKED || k == CI_HUNG ||
	       k == CI_FS_CORRUPTED || k == CI_FIRED;
}

static struct kcover_reason *add_reason(struct kcover *cov, const char *reason)
{
	struct kcover_reason *r;

	if (!reason || !*reason)
		reason = "(no reason given)";
	for (size_t i = 0; i < cov->nr_untestable; i++)
		if (!strcmp(cov->untestable[i].reason, reason)) {
			cov->untestable[i].count++;
			return &cov->untestable[i];
		}
	ALLOC_GROW(cov->untestable, cov->nr_untestable + 1, cov->alloc_untestable);
	r = &cov->untestable[cov->nr_untestable++];
	memset(r, 0, sizeof(*r));
	r->reason = xstrdup(reason);
	r->count = 1;
	return r;
}

static void tally(struct kcover_reason *r, const char *what)
{
	for (size_t i = 0; i < r->nr_missing; i++)
		if (!strcmp(r->missing[i].what, what)) {
			r->missing[i].count++;
			return;
		}
	ALLOC_GROW(r->missing, r->nr_missing + 1, r->alloc_missing);
	r->missing[r->nr_missing].what = xstrdup(what);
	r->missing[r->nr_missing++].count = 1;
}

/* Would the operator's clone have made `v` testable?  Else say why not. */
static void look_up(struct kcover *cov, struct kcover_reason *r, const struct ci_verdict *v)
{
	struct strbuf why = STRBUF_INIT, what = STRBUF_INIT;
	bool own = false;
	git_oid oid;
	int ret = 0;

	if (!v->base_commit || !*v->base_commit) {
		strbuf_addstr(&what, "a base-commit: line (git format-patch --base=auto)");
	} else if (!cov->repo) {
		strbuf_addstr(&what, "a clone to find its base-commit in ([ci] repo)");
	} else {
		ret = kbase_git(&oid, &own, &why, cov->repo, NULL, v->base_commit);
		if (ret < 0) {
			strbuf_addf(&what, "a clone that opens (%s)", error_last());
			error_clear();
		} else if (ret && own) {
			r->with_repo++;
			cov->untestable_with_repo++;
		} else {
			strbuf_addstr(&what, "its base-commit in the clone");
		}
	}
	if (what.len) {
		tally(r, what.buf);
		for (size_t i = 0; i < v->missing.nr; i++)
			tally(r, v->missing.v[i]);
	}
	strbuf_release(&why);
	strbuf_release(&what);
}

void kcover_add(struct kcover *cov, const struct ci_verdict *v)
{
	cov->series++;
	if ((unsigned int)v->kind < CI_NR_KINDS)
		cov->kinds[v->kind]++;
	if (kcover_booted(v->kind))
		cov->booted++;
	if (v->kind == CI_UNTESTABLE)
		look_up(cov, add_reason(cov, v->reason), v);
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

static int cmp_tally(const void *a, const void *b)
{
	const struct kcover_tally *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->what, y->what);
}

void kcover_sort(struct kcover *cov)
{
	if (cov->nr_untestable)
		qsort(cov->untestable, cov->nr_untestable,
		      sizeof(*cov->untestable), cmp_reason);
	for (size_t i = 0; i < cov->nr_untestable; i++)
		if (cov->untestable[i].nr_missing)
			qsort(cov->untestable[i].missing, cov->untestable[i].nr_missing,
			      sizeof(*cov->untestable[i].missing), cmp_tally);
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
	for (int k = 0; k < CI_NR_KINDS; k++)
		if (cov->kinds[k])
			strbuf_addf(out, "  %-21s %zu\n", ci_verdict_name(k),
				    cov->kinds[k]);
	for (size_t i = 0; i < cov->nr_untestable; i++) {
		const struct kcover_reason *r = &cov->untestable[i];

		strbuf_addf(out, "    untestable %zu: %s\n", r->count, r->reason);
		strbuf_addf(out, "      testable with %s: %zu\n",
			    cov->repo ? "the clone" : "a clone ([ci] repo unset)", r->with_repo);
		for (size_t j = 0; j < r->nr_missing; j++)
			strbuf_addf(out, "      lacking %s: %zu\n", r->missing[j].what,
				    r->missing[j].count);
	}
	if (cov->nr_untestable)
		strbuf_addf(out, "  untestable, testable with %s: %zu\n",
			    cov->repo ? cov->repo : "a clone ([ci] repo unset)",
			    cov->untestable_with_repo);
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

	for (int k = 0; k < CI_NR_KINDS; k++)
		json_object_set_new(kinds, ci_verdict_name(k),
				    json_integer((json_int_t)cov->kinds[k]));
	for (size_t i = 0; i < cov->nr_untestable; i++) {
		const struct kcover_reason *r = &cov->untestable[i];
		json_t *missing = json_array();

		for (size_t j = 0; j < r->nr_missing; j++)
			json_array_append_new(missing, json_pack("{s:s, s:I}",
				"what", r->missing[j].what,
				"count", (json_int_t)r->missing[j].count));
		json_array_append_new(reasons, json_pack("{s:s, s:I, s:I, s:o}",
			"reason", r->reason, "count", (json_int_t)r->count,
			"with_repo", (json_int_t)r->with_repo, "missing", missing));
	}
	json_object_set_new(o, "repo", cov->repo ? json_string(cov->repo) : json_null());
	json_object_set_new(o, "untestable_with_repo",
			    json_integer((json_int_t)cov->untestable_with_repo));
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
	for (size_t i = 0; i < cov->nr_untestable; i++) {
		for (size_t j = 0; j < cov->untestable[i].nr_missing; j++)
			free(cov->untestable[i].missing[j].what);
		free(cov->untestable[i].missing);
		free(cov->untestable[i].reason);
	}
	free(cov->untestable);
	memset(cov, 0, sizeof(*cov));
}
