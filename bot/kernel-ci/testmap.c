/*
 * kernel-ci/tests.json: from touched paths to the tests the guest runs
 * (kselftest binaries with their timeouts, KUnit suites, config fragments,
 * workloads).  Matching reuses MAINTAINERS' F: pattern rules.
 */
#include "testmap.h"
#include "maintainers.h"
#include "strbuf.h"

#include <jansson.h>
#include <limits.h>

#define TESTMAP_FILE_MAX (1024 * 1024)
#define TESTMAP_TIMEOUT_MAX 3600

struct tm_test {
	char *name;
	unsigned int timeout_s;
	struct strvec bases;	/* empty: every base */
};

struct tm_skip {
	char *name;
	char *reason;
};

struct tm_target {
	char *name;		/* logical name: "mm" */
	struct strvec dir_keys;	/* bases with another directory: "6.1" */
	struct strvec dir_vals;	/* ... and that directory: "vm" */
	enum testmap_runner runner;
	bool config;		/* has tools/testing/selftests/DIR/config */
	struct strvec bases;	/* empty: every base */
	struct tm_test *tests;
	size_t nr_tests, alloc_tests;
	struct tm_skip *skips;
	size_t nr_skips, alloc_skips;
};

struct tm_entry {
	char *path;
	int depth;
	size_t len;
	size_t *targets;	/* indices into testmap.targets */
	size_t nr_targets;
	struct strvec kunit;
	struct strvec workloads;
};

struct testmap {
	struct tm_target *targets;
	size_t nr_targets, alloc_targets;
	struct tm_entry *entries;
	size_t nr_entries, alloc_entries;
};

static bool base_matches(const char *base, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(base, key, n) && (base[n] == '\0' || base[n] == '.');
}

/* Whether `base` is one of `bases`.  An empty list takes every base; a
 * NULL base is the newest tree, which has every test the file names. */
static bool in_bases(const struct strvec *bases, const char *base)
{
	if (!bases->nr || !base)
		return true;
	for (size_t i = 0; i < bases->nr; i++)
		if (base_matches(base, bases->v[i]))
			return true;
	return false;
}

static const char *target_dir(const struct tm_target *t, const char *base)
{
	if (base)
		for (size_t i = 0; i < t->dir_keys.nr; i++)
			if (base_matches(base, t->dir_keys.v[i]))
				return t->dir_vals.v[i];
	return t->name;
}

static ssize_t find_target(const struct testmap *m, const char *name)
{
	for (size_t i = 0; i < m->nr_targets; i++)
		if (!strcmp(m->targets[i].name, name))
			return (ssize_t)i;
	return -1;
}

static int load_strings(struct strvec *out, json_t *arr, const char *name,
			const char *key)
{
	size_t i;
	json_t *v;

	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return error_code(WW_EINPUT, "%s: %s: not an array", name, key);
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v) || !json_string_length(v))
			return error_code(WW_EINPUT, "%s: %s[%zu]: not a name",
					  name, key, i);
		strvec_push(out, json_string_value(v));
	}
	return 0;
}

static int load_test(struct tm_target *t, json_t *j, const char *name,
		     const char *key)
{
	json_t *n = json_object_get(j, "name");
	json_t *to = json_object_get(j, "timeout");
	struct tm_test *test;
	struct strbuf k = STRBUF_INIT;
	int ret;

	if (!json_is_string(n) || !json_string_length(n))
		return error_code(WW_EINPUT, "%s: %s.name: missing", name, key);
	if (!json_is_integer(to) || json_integer_value(to) <= 0 ||
	    json_integer_value(to) > TESTMAP_TIMEOUT_MAX)
		return error_code(WW_EINPUT, "%s: %s.timeout: want 1..%d seconds",
				  name, key, TESTMAP_TIMEOUT_MAX);
	ALLOC_GROW(t->tests, t->nr_tests + 1, t->alloc_tests);
	test = &t->tests[t->nr_tests++];
	test->name = xstrdup(json_string_value(n));
	test->timeout_s = (unsigned int)json_integer_value(to);
	strvec_init(&test->bases);
	strbuf_addf(&k, "%s.bases", key);
	ret = load_strings(&test->bases, json_object_get(j, "bases"), name, k.buf);
	strbuf_release(&k);
	return ret;
}

static int load_skip(struct tm_target *t, json_t *j, const char *name,
		     const char *key)
{
	json_t *n = json_object_get(j, "name");
	json_t *r = json_object_get(j, "reason");
	struct tm_skip *s;

	if (!json_is_string(n) || !json_string_length(n))
		return error_code(WW_EINPUT, "%s: %s.name: missing", name, key);
	if (!json_is_string(r) || !json_string_length(r))
		return error_code(WW_EINPUT, "%s: %s.reason: say why it is skipped",
				  name, key);
	ALLOC_GROW(t->skips, t->nr_skips + 1, t->alloc_skips);
	s = &t->skips[t->nr_skips++];
	s->name = xstrdup(json_string_value(n));
	s->reason = xstrdup(json_string_value(r));
	return 0;
}

static int load_target(struct testmap *m, const char *tname, json_t *j,
		       const char *name)
{
	struct strbuf key = STRBUF_INIT;
	struct tm_target *t;
	json_t *runner, *dir, *tests, *skips, *v;
	const char *k;
	size_t i;
	int ret = WW_EINPUT;

	ALLOC_GROW(m->targets, m->nr_targets + 1, m->alloc_targets);
	t = &m->targets[m->nr_targets++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(tname);
	strvec_init(&t->dir_keys);
	strvec_init(&t->dir_vals);
	strvec_init(&t->bases);

	if (!json_is_object(j)) {
		error_code(WW_EINPUT, "%s: targets.%s: not an object", name, tname);
		goto out;
	}
	runner = json_object_get(j, "runner");
	if (json_is_string(runner) && !strcmp(json_string_value(runner), "kselftest")) {
		t->runner = TESTMAP_RUNNER_KSELFTEST;
	} else if (json_is_string(runner) && !strcmp(json_string_value(runner), "direct")) {
		t->runner = TESTMAP_RUNNER_DIRECT;
	} else {
		error_code(WW_EINPUT, "%s: targets.%s.runner: want \"kselftest\" or \"direct\"",
			   name, tname);
		goto out;
	}
	t->config = json_is_true(json_object_get(j, "config"));
	dir = json_object_get(j, "dir");
	if (dir && !json_is_object(dir)) {
		error_code(WW_EINPUT, "%s: targets.%s.dir: not an object", name, tname);
		goto out;
	}
	json_object_foreach(dir, k, v) {
		if (!json_is_string(v) || !json_string_length(v)) {
			error_code(WW_EINPUT, "%s: targets.%s.dir.%s: not a directory",
				   name, tname, k);
			goto out;
		}
		strvec_push(&t->dir_keys, k);
		strvec_push(&t->dir_vals, json_string_value(v));
	}
	strbuf_addf(&key, "targets.%s.bases", tname);
	ret = load_strings(&t->bases, json_object_get(j, "bases"), name, key.buf);
	if (ret < 0)
		goto out;
	ret = WW_EINPUT;

	tests = json_object_get(j, "tests");
	if (!json_is_array(tests) || !json_array_size(tests)) {
		error_code(WW_EINPUT, "%s: targets.%s.tests: want a non-empty array",
			   name, tname);
		goto out;
	}
	json_array_foreach(tests, i, v) {
		strbuf_setlen(&key, 0);
		strbuf_addf(&key, "targets.%s.tests[%zu]", tname, i);
		ret = load_test(t, v, name, key.buf);
		if (ret < 0)
			goto out;
	}
	skips = json_object_get(j, "skip");
	if (skips && !json_is_array(skips)) {
		ret = error_code(WW_EINPUT, "%s: targets.%s.skip: not an array",
				 name, tname);
		goto out;
	}
	json_array_foreach(skips, i, v) {
		strbuf_setlen(&key, 0);
		strbuf_addf(&key, "targets.%s.skip[%zu]", tname, i);
		ret = load_skip(t, v, name, key.buf);
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&key);
	return ret;
}

static int load_entry(struct testmap *m, json_t *j, size_t idx,
		      const char *name)
{
	struct strbuf key = STRBUF_INIT;
	struct strvec ks = STRVEC_INIT;
	struct tm_entry *e;
	json_t *path;
	int ret = WW_EINPUT;

	ALLOC_GROW(m->entries, m->nr_entries + 1, m->alloc_entries);
	e = &m->entries[m->nr_entries++];
	memset(e, 0, sizeof(*e));
	strvec_init(&e->kunit);
	strvec_init(&e->workloads);
	path = json_object_get(j, "path");
	if (!json_is_string(path) || !json_string_length(path)) {
		error_code(WW_EINPUT, "%s: map[%zu].path: missing", name, idx);
		goto out;
	}
	e->path = xstrdup(json_string_value(path));
	e->depth = maintainers_pattern_depth(e->path);
	e->len = strlen(e->path);

	strbuf_addf(&key, "map[%zu].kselftests", idx);
	ret = load_strings(&ks, json_object_get(j, "kselftests"), name, key.buf);
	if (ret < 0)
		goto out;
	e->targets = xcalloc(ks.nr + 1, sizeof(*e->targets));
	for (size_t i = 0; i < ks.nr; i++) {
		ssize_t t = find_target(m, ks.v[i]);

		if (t < 0) {
			ret = error_code(WW_EINPUT, "%s: %s[%zu]: unknown target '%s'",
					 name, key.buf, i, ks.v[i]);
			goto out;
		}
		e->targets[e->nr_targets++] = (size_t)t;
	}
	strbuf_setlen(&key, 0);
	strbuf_addf(&key, "map[%zu].kunit", idx);
	ret = load_strings(&e->kunit, json_object_get(j, "kunit"), name, key.buf);
	if (ret < 0)
		goto out;
	strbuf_setlen(&key, 0);
	strbuf_addf(&key, "map[%zu].workloads", idx);
	ret = load_strings(&e->workloads, json_object_get(j, "workloads"),
			   name, key.buf);
out:
	strvec_clear(&ks);
	strbuf_release(&key);
	return ret;
}

static int load_doc(struct testmap *m, json_t *root, const char *name)
{
	json_t *targets, *map, *v;
	const char *k;
	size_t i;
	int ret;

	if (!json_is_object(root))
		return error_code(WW_EINPUT, "%s: not a JSON object", name);
	targets = json_object_get(root, "targets");
	if (!json_is_object(targets))
		return error_code(WW_EINPUT, "%s: targets: missing", name);
	json_object_foreach(targets, k, v) {
		ret = load_target(m, k, v, name);
		if (ret < 0)
			return ret;
	}
	map = json_object_get(root, "map");
	if (!json_is_array(map))
		return error_code(WW_EINPUT, "%s: map: missing", name);
	json_array_foreach(map, i, v) {
		if (!json_is_object(v))
			return error_code(WW_EINPUT, "%s: map[%zu]: not an object",
					  name, i);
		ret = load_entry(m, v, i, name);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int testmap_load_buf(struct testmap **out, const char *buf, size_t len,
		     const char *name)
{
	struct testmap *m = xcalloc(1, sizeof(*m));
	json_error_t jerr;
	json_t *root;
	int ret;

	*out = NULL;
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		ret = error_code(WW_EINPUT, "%s:%d: %s", name, jerr.line, jerr.text);
		goto out_free;
	}
	ret = load_doc(m, root, name);
	json_decref(root);
	if (ret < 0)
		goto out_free;
	*out = m;
	return 0;
out_free:
	testmap_free(m);
	return ret;
}

int testmap_load(struct testmap **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	*out = NULL;
	ret = strbuf_read_file(&sb, path, TESTMAP_FILE_MAX);
	if (ret < 0)
		goto out;
	ret = testmap_load_buf(out, sb.buf, sb.len, path);
out:
	strbuf_release(&sb);
	return ret;
}

static void push_unique(struct strvec *sv, const char *s)
{
	if (!strvec_has(sv, s))
		strvec_push(sv, s);
}

static void select_target(struct testmap_sel *out, const struct tm_target *t,
			  const char *base)
{
	const char *dir = target_dir(t, base);
	struct strbuf sb = STRBUF_INIT;

	if (!in_bases(&t->bases, base) || strvec_has(&out->kselftests, dir))
		return;
	strvec_push(&out->kselftests, dir);
	if (t->config)
		strvec_pushf(&out->config_fragments,
			     "tools/testing/selftests/%s/config", dir);
	for (size_t i = 0; i < t->nr_tests; i++) {
		const struct tm_test *src = &t->tests[i];
		struct testmap_test *dst;

		if (!in_bases(&src->bases, base))
			continue;
		ALLOC_GROW(out->tests, out->nr_tests + 1, out->alloc_tests);
		dst = &out->tests[out->nr_tests++];
		dst->target = xstrdup(dir);
		dst->name = xstrdup(src->name);
		dst->timeout_s = src->timeout_s;
		dst->runner = t->runner;
		strvec_pushf(&out->test_names, "%s:%s", dir, src->name);
	}
	for (size_t i = 0; i < t->nr_skips; i++) {
		strbuf_setlen(&sb, 0);
		strbuf_addf(&sb, "%s:%s", dir, t->skips[i].name);
		push_unique(&out->tests_skip, sb.buf);
	}
	strbuf_release(&sb);
}

/* The most specific entry matching `path`, or NULL. */
static const struct tm_entry *best_entry(const struct testmap *m,
					 const char *path)
{
	const struct tm_entry *best = NULL;

	for (size_t i = 0; i < m->nr_entries; i++) {
		const struct tm_entry *e = &m->entries[i];

		if (!maintainers_pattern_match(e->path, path))
			continue;
		if (!best || e->depth > best->depth ||
		    (e->depth == best->depth && e->len > best->len))
			best = e;
	}
	return best;
}

int testmap_select(struct testmap_sel *out, const struct testmap *m,
		   const struct strvec *paths, const char *base)
{
	for (size_t p = 0; p < paths->nr; p++) {
		const struct tm_entry *e = best_entry(m, paths->v[p]);

		if (!e)
			continue;
		for (size_t i = 0; i < e->nr_targets; i++)
			select_target(out, &m->targets[e->targets[i]], base);
		for (size_t i = 0; i < e->kunit.nr; i++)
			push_unique(&out->kunit_suites, e->kunit.v[i]);
		for (size_t i = 0; i < e->workloads.nr; i++)
			push_unique(&out->workloads, e->workloads.v[i]);
	}
	return 0;
}

const char *testmap_skip_reason(const struct testmap *m, const char *test)
{
	const char *colon = strchr(test, ':');
	size_t tlen;

	if (!colon)
		return NULL;
	tlen = (size_t)(colon - test);
	for (size_t i = 0; i < m->nr_targets; i++) {
		const struct tm_target *t = &m->targets[i];
		bool hit = strlen(t->name) == tlen && !strncmp(t->name, test, tlen);

		for (size_t d = 0; !hit && d < t->dir_vals.nr; d++)
			hit = strlen(t->dir_vals.v[d]) == tlen &&
			      !strncmp(t->dir_vals.v[d], test, tlen);
		if (!hit)
			continue;
		for (size_t s = 0; s < t->nr_skips; s++)
			if (!strcmp(t->skips[s].name, colon + 1))
				return t->skips[s].reason;
	}
	return NULL;
}

void testmap_sel_release(struct testmap_sel *sel)
{
	strvec_clear(&sel->kselftests);
	strvec_clear(&sel->test_names);
	for (size_t i = 0; i < sel->nr_tests; i++) {
		free(sel->tests[i].target);
		free(sel->tests[i].name);
	}
	free(sel->tests);
	sel->tests = NULL;
	sel->nr_tests = sel->alloc_tests = 0;
	strvec_clear(&sel->kunit_suites);
	strvec_clear(&sel->config_fragments);
	strvec_clear(&sel->workloads);
	strvec_clear(&sel->tests_skip);
}

void testmap_free(struct testmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_targets; i++) {
		struct tm_target *t = &m->targets[i];

		free(t->name);
		strvec_clear(&t->dir_keys);
		strvec_clear(&t->dir_vals);
		strvec_clear(&t->bases);
		for (size_t j = 0; j < t->nr_tests; j++) {
			free(t->tests[j].name);
			strvec_clear(&t->tests[j].bases);
		}
		free(t->tests);
		for (size_t j = 0; j < t->nr_skips; j++) {
			free(t->skips[j].name);
			free(t->skips[j].reason);
		}
		free(t->skips);
	}
	free(m->targets);
	for (size_t i = 0; i < m->nr_entries; i++) {
		free(m->entries[i].path);
		free(m->entries[i].targets);
		strvec_clear(&m->entries[i].kunit);
		strvec_clear(&m->entries[i].workloads);
	}
	free(m->entries);
	free(m);
}
