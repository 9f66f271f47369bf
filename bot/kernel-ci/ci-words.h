/*
 * The kernel-ci verdict in words, written in one place for both of its
 * readers: the text `warnwatch ci` prints and the kernel-ci paragraph
 * of a review reply (whose framing sentences are templates/verdict.txt).
 * Every name and line that came from the series or the guest is escaped
 * here (quote.h): one line per item.
 */
#ifndef WW_CI_WORDS_H
#define WW_CI_WORDS_H

#include "ci.h"

struct say_book;

/* A reply's kernel-ci paragraph quotes at most this many console lines. */
#define CI_WORDS_LOG_LINES 12

/* The verdict as text for people (as JSON: ci-json.h), in the book's
 * ci-text-* sentences (say.h).  `s` (may be
 * NULL) names the patch that did not apply.  A clean verdict's text names
 * the static findings ci_run made; one read from JSON has none (ci.h,
 * findings_doc) and its text leaves them out. */
void ci_verdict_text(struct strbuf *out, const struct ci_verdict *v,
		     const struct series *s, const struct say_book *book);

/* What a reply's kernel-ci paragraph says besides the verdict itself. */
struct ci_words {
	struct strbuf first;	/* the first WARN/BUG that fired, or empty */
	struct strbuf log;	/* console lines to quote: the reason, then the
				   build error or the first trace */
	bool has_log;
	struct strbuf tests;	/* "a, b and c ran, and b failed", or empty */
	struct strvec calls;	/* per added call: did it run, did it fire */
};

#define CI_WORDS_INIT { .first = STRBUF_INIT, .log = STRBUF_INIT, \
			.tests = STRBUF_INIT, .calls = STRVEC_INIT }

/* Fill `w` (CI_WORDS_INIT) from `v`; ci_words_release() it. */
/* A test by its kind: "KUnit suite time_test_cases", "kselftest
 * cgroup:test_core", "the ext4 workload" (from the name's form, as
 * ci_tests_from_console() names them), the name escaped (quote.h). */
void ci_words_test(struct strbuf *out, const char *name, const struct say_book *book);

void ci_words_of(struct ci_words *w, const struct ci_verdict *v, const struct say_book *book);
void ci_words_release(struct ci_words *w);

/* What went wrong ("the kernel did not build") for a verdict that is
 * not clean, not untestable and not an error of kernel-ci's, appended to
 * `out`; else nothing.  The words are the book's (say.h), as are those
 * of the functions below and of ci_words_of(). */
void ci_words_outcome(struct strbuf *out, enum ci_verdict_kind k, const struct say_book *book);

/*
 * Why an untestable series could not be tested, in plain words, as one
 * clause (no full stop), appended to `out` (issue 39): why the trees
 * were tried in that order (no base-commit: line, or one naming a tree
 * kernel-ci lacks), each tree tried and why it did not fit (the patch,
 * file and hunk that did not apply; what the last tree lacks).  From the
 * verdict's facts only; a verdict without them gives its reason.
 */
void ci_words_untestable(struct strbuf *out, const struct ci_verdict *v,
			 const struct say_book *book);

/* For an untestable series without a base-commit: line, one sentence on
 * how to add one; else nothing. */
void ci_words_base_hint(struct strbuf *out, const struct ci_verdict *v,
			const struct say_book *book);

#endif
