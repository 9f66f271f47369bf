/*
 * Which tests a series gets in the guest, from the files it touches:
 * kselftest targets (and which of their binaries), KUnit suites, config
 * fragments and workloads, read from kernel-ci/tests.json (jansson).
 * Format and the reasons behind each choice: docs/kernel-ci-tests.md.
 *
 * Path patterns follow MAINTAINERS F: syntax (maintainers_pattern_match():
 * "kernel/cgroup/" takes the directory, "fs/ext4/x*.c" globs without
 * crossing '/', "mm/memcontrol.c" one file).  For each touched path only
 * the most specific matching map entry counts (deepest pattern, then the
 * longest, then the earlier one), so "mm/memcontrol.c" gets cgroup and not
 * the mm tests; the selection is the union over the paths, in order of
 * first appearance, without duplicates.
 */
#ifndef WW_TESTMAP_H
#define WW_TESTMAP_H

#include "ww.h"
#include "strvec.h"

enum testmap_runner {
	TESTMAP_RUNNER_KSELFTEST,	/* listed in kselftest-list.txt: run_kselftest.sh -t DIR:NAME */
	TESTMAP_RUNNER_DIRECT,		/* TEST_GEN_FILES (mm): /init runs the binary itself */
};

/* One test binary to run, with its own deadline. */
struct testmap_test {
	char *target;		/* tree directory under tools/testing/selftests: "cgroup", "vm" (6.1) */
	char *name;		/* binary or script in it: "test_core" */
	unsigned int timeout_s;
	enum testmap_runner runner;
};

struct testmap_sel {
	/* TARGETS= for `make -C tools/testing/selftests`, as directories of
	 * the selected tree ("cgroup", "mm" or "vm", "filesystems/epoll"). */
	struct strvec kselftests;
	/* Every test to run, "target:name" as run_kselftest.sh -t takes it
	 * and as fired[].suite names it ("cgroup:test_core"); parallel to
	 * `tests`. */
	struct strvec test_names;
	struct testmap_test *tests;
	size_t nr_tests, alloc_tests;
	/* KUnit suite names ("time_test_cases"); a suite the tree does not
	 * have simply does not run (ext4_mballoc_test is 6.12 only). */
	struct strvec kunit_suites;
	/* Tree-relative config fragments of the selected targets
	 * ("tools/testing/selftests/cgroup/config"), only those that exist in
	 * the tree.  Some list =m options (mm: TEST_HMM, TEST_VMALLOC) that
	 * only serve skipped tests. */
	struct strvec config_fragments;
	/* Workloads by name ("ext4": kernel-ci/workloads/ext4.sh + .json). */
	struct strvec workloads;
	/* "target:name" of the selected targets' binaries that are built but
	 * must not run (not safe or not bounded under TCG); reasons are in
	 * tests.json and given by testmap_skip_reason(). */
	struct strvec tests_skip;
};

#define TESTMAP_SEL_INIT { .kselftests = STRVEC_INIT, .test_names = STRVEC_INIT, \
			.kunit_suites = STRVEC_INIT, .config_fragments = STRVEC_INIT, \
			.workloads = STRVEC_INIT, .tests_skip = STRVEC_INIT }

struct testmap;		/* opaque */

/*
 * Read and check a tests.json (normally <datadir>/kernel-ci/tests.json).
 * Errors: WW_ENOTFOUND (no file), WW_EINPUT naming the file and the key
 * ("tests.json: map[3].kselftests[0]: unknown target 'cgrop'").  `*out`
 * is the caller's: testmap_free() it.
 */
int testmap_load(struct testmap **out, const char *path);
/* The same from memory; `name` is for error messages. */
int testmap_load_buf(struct testmap **out, const char *buf, size_t len,
		     const char *name);

/*
 * Fill `out` (initialised with TESTMAP_SEL_INIT, or released) with the
 * tests for `paths` (tree-relative, no "a/" or "./"), on the tree of
 * release `base` ("6.1", "6.12.57"; NULL means the newest layout).  A base
 * matches a "bases"/"dir" key when it equals it or starts with key + ".".
 * Paths no entry matches add nothing.  Returns 0.
 */
int testmap_select(struct testmap_sel *out, const struct testmap *m,
		   const struct strvec *paths, const char *base);

/* Why "target:name" is skipped (borrowed), or NULL when it is not. */
const char *testmap_skip_reason(const struct testmap *m, const char *test);

void testmap_sel_release(struct testmap_sel *sel);
void testmap_free(struct testmap *m);

#endif
