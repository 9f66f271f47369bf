/*
 * Kernel config fragments, and which KUnit suites cover a series.
 *
 * A fragment is a set of "CONFIG_FOO=y" / "# CONFIG_FOO is not set" lines
 * (kernel-ci/base.config plus what suite selection adds).  Its normal form
 * (one line per symbol, sorted, later lines win) is what gets written to
 * O=/.config before `make olddefconfig`, and its hash names the build
 * directory, so that the same config always reuses the same directory.
 *
 * Suite selection: for every file a series touches, the KUnit test objects
 * next to it (Makefile lines such as obj-$(CONFIG_TIME_KUNIT_TEST) +=
 * time_test.o in its directory, its parent and a tests/ or kunit/
 * subdirectory) whose Kconfig symbol depends on KUNIT are enabled, with the
 * symbols they depend on (a bounded walk of "depends on" and enclosing
 * "if" blocks).  The suites' names come from the test sources'
 * struct kunit_suite { .name = "..." }.
 */
#ifndef WW_KCONFIG_H
#define WW_KCONFIG_H

#include "strbuf.h"
#include "strvec.h"

/* How far "depends on" is followed from a test symbol. */
#define KCONFIG_DEPTH_MAX 4
/* Caps on what a (patched, untrusted) tree can make us read. */
#define KCONFIG_FILE_CAP (1u << 20)
#define KCONFIG_SYMBOLS_MAX 64

struct kconfig_entry {
	char *name;		/* without CONFIG_ */
	char *value;		/* "y", "m", "\"str\"", ...; NULL: is not set */
};

struct kconfig_frag {
	struct kconfig_entry *v;
	size_t nr, alloc;
};

#define KCONFIG_FRAG_INIT { 0 }

void kconfig_frag_release(struct kconfig_frag *f);

/* Set NAME (no CONFIG_ prefix) to `value` (NULL: not set), replacing. */
void kconfig_frag_set(struct kconfig_frag *f, const char *name,
		      const char *value);
/* The entry for NAME, or NULL (borrowed). */
const struct kconfig_entry *kconfig_frag_get(const struct kconfig_frag *f,
					     const char *name);

/*
 * Merge the lines of a fragment or a .config into `f` (later lines win;
 * other comments and blank lines are ignored).  `name` is for messages:
 * a line that is neither is WW_EINPUT "'<name>' line N: ...".
 */
int kconfig_frag_parse(struct kconfig_frag *f, const char *text, size_t len,
		       const char *name);
int kconfig_frag_read(struct kconfig_frag *f, const char *path);

/* The normal form: one line per symbol, sorted by name. */
void kconfig_frag_format(struct strbuf *out, const struct kconfig_frag *f);

/* First 12 hex digits of the git blob hash of the normal form. */
void kconfig_frag_hash(struct strbuf *out, const struct kconfig_frag *f);

/*
 * Which requested options the final config does not have as requested
 * (olddefconfig silently drops what is unmet): "CONFIG_FOO=y (got: not set)",
 * one string per option, into `out`.  A "not set" request is met by absence.
 */
void kconfig_frag_missing(struct strvec *out, const struct kconfig_frag *want,
			  const struct kconfig_frag *got);

struct kconfig_suites {
	struct strvec tests;	/* test symbols found (no CONFIG_), sorted */
	struct strvec symbols;	/* every symbol to set =y: tests + deps */
	struct strvec suites;	/* KUnit suite names of those tests */
	struct strvec objects;	/* "kernel/time/time_test.o", for messages */
};

#define KCONFIG_SUITES_INIT { .tests = STRVEC_INIT, .symbols = STRVEC_INIT, \
			.suites = STRVEC_INIT, .objects = STRVEC_INIT }

/*
 * Find the KUnit tests covering `touched` (paths relative to `srctree`)
 * in the kernel tree at `srctree`.  Reads Makefiles and every Kconfig
 * file of the tree (about 1,700, some milliseconds).  Not finding any is
 * not an error.
 */
int kconfig_select_suites(struct kconfig_suites *out, const char *srctree,
			  const struct strvec *touched);

void kconfig_suites_release(struct kconfig_suites *s);

#endif
