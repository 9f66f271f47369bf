/*
 * What a reviewer on the kernel lists says about an added BUG/WARN, as
 * data: the "review" object of rules/advice.json (format: docs/review.md).
 * One explanation per class of macro, the coding-style sentences that
 * back it, and advice entries, each a named matcher ("on-disk",
 * "user-input", "lock-held", ...) that looks at the call, its condition
 * and the lines around it, with the text to say once per reply and the
 * rewrite to show under each matching call.
 */
#ifndef WW_ADVICE_H
#define WW_ADVICE_H

#include "cfacts.h"
#include "check.h"
#include "strvec.h"

#define ADVICE_FILE "advice.json"

struct advice_fs {
	char *path;		/* "fs/ext4/" */
	char *name;		/* "ext4" */
	char *rewrite;		/* code, {cond} {ret} ... */
	struct strvec markers;	/* on-disk reads in the condition/context */
};

enum advice_match {
	AM_ON_DISK,		/* a filesystem checking what it read from disk */
	AM_USER_INPUT,		/* user space can make the condition true */
	AM_LOCK_HELD,		/* !spin_is_locked(x) and friends */
	AM_REFCOUNT,		/* a reference count */
	AM_AFTER_ALLOC,		/* !p right after p = kmalloc() */
	AM_DEREF_AFTER,		/* WARN_ON(!p); then p-> anyway */
	AM_OR_CONDITIONS,	/* one WARN over a || b */
	AM_BARE_STATEMENT,	/* WARN_ON(c); and carry on */
	AM_IMPOSSIBLE,		/* an unsigned < 0: never true */
	AM_DUP_IF,		/* the enclosing if tests the same */
	AM_PATH,		/* a file under one of the entry's "paths" */
	AM_FOLD_IF,		/* if (c) { WARN_ON(1); ...: if (WARN_ON(c)) */
	AM_UNLIKELY,		/* WARN_ON(unlikely(c)): unlikely() twice */
	AM_CARRIES_ON,		/* WARN_ON(n > max); then n used anyway */
	AM_REFCOUNT_DEC,	/* WARN_ON(refcount_dec_and_test(r)): refcount_dec() */
	AM_HAND_REFCOUNT,	/* WARN_ON(cnt < 0) on a count kept by hand */
	AM_DEBUGFS,		/* a debugfs call's result tested: meant to be ignored */
	AM_TEST_CALL,		/* the condition is [!]f(...), f one of the entry's "calls" */
	AM_DEREF_BEFORE,	/* p->x on the way to WARN_ON(!p): the test comes too late */
	AM_BUILD_TIME,		/* sizeof()/ARRAY_SIZE()/offsetof() and numbers only */
	AM__NR
};

struct advice_entry {
	char *id;
	enum advice_match match;
	unsigned classes;	/* bit per enum rule_class */
	char *say;		/* said once per reply */
	char *again;		/* later matches: what differs, or NULL */
	char *rewrite;		/* NULL: the default rewrite */
	struct strvec replaces;	/* ids (or "explain") not said with this */
	struct strvec paths;	/* AM_PATH: "mm/" ... */
	struct strvec calls;	/* AM_TEST_CALL: "rcu_read_lock_held" ... */
	int negated;		/* AM_TEST_CALL: 1 "!f()" only, 0 "f()" only, -1 either */
	/* "holds": what the sentence says of the kernel's own headers, as
	 * text a file of the tree must contain ("include/linux/rcupdate.h"
	 * defining rcu_read_lock_held() as 1); with a tree that lacks it,
	 * advice_hold() turns the entry off. */
	struct strvec hold_files, hold_texts;
	bool off;
	/* A point specific enough to be said for an info-level call too
	 * (a WARN_ON_ONCE()), as the facts that user space reaches it are. */
	bool speaks;
};

struct advice {
	char *explain[RC__NR];		/* per class */
	struct strvec guide[RC__NR];	/* coding-style sentence starts */
	/* A second coding-style section quoted for a class when the tree has
	 * it ("The panic_on_warn kernel option" for WARNs), and its sentences. */
	char *also_section[RC__NR];
	struct strvec also[RC__NR];
	struct advice_entry *v;
	size_t nr, alloc;
	struct advice_fs *fs;
	size_t nr_fs, alloc_fs;
	struct strvec user_suffixes, user_prefixes, user_markers;
	struct strvec alloc_calls;	/* "kmalloc(", ... */
	struct strvec lock_tests;	/* "spin_is_locked", ... */
	struct strvec refcount_markers;	/* "refcount_read(", ... */
	struct strvec locks, unlocks;	/* "spin_lock(" and its "spin_unlock(" */
	char *guide_intro;		/* before the coding-style quote */
	/* "conversions": when the new call of an in-patch conversion is
	 * commented as well as thanked -- always, or when an entry that
	 * speaks holds for it (plan.c). */
	bool conv_always[RC__NR], conv_speaks[RC__NR];
};

#define ADVICE_INIT { .user_suffixes = STRVEC_INIT, .user_prefixes = STRVEC_INIT, \
			.user_markers = STRVEC_INIT, .alloc_calls = STRVEC_INIT, \
			.lock_tests = STRVEC_INIT, .refcount_markers = STRVEC_INIT, \
			.locks = STRVEC_INIT, .unlocks = STRVEC_INIT }

/* Load DIR/advice.json.  WW_ENOTFOUND when absent, WW_EINPUT naming the key. */
int advice_load(struct advice *out, const char *dir);
int advice_load_buf(struct advice *out, const char *buf, size_t len, const char *name);
/* advice_load_buf() for its errors alone: rules.c's rules_part_fn for
 * "review" (main() registers it with rules_own_part()). */
int advice_check_buf(const char *buf, size_t len, const char *name);

/* What a match found, for the rewrite's placeholders. */
struct advice_hit {
	const struct advice_entry *e;
	const struct advice_fs *fs;	/* AM_ON_DISK */
	char *arg;			/* the lock (AM_LOCK_HELD), the pointer */
	/* Why it fired, for the reply's JSON record: the fact ("disk",
	 * "user", "alloc", ... as struct cfacts names them, or "diff" for
	 * what the patch's own lines show) and its evidence ("es->s_foo"). */
	const char *fact;
	char *evidence;
};

/*
 * The entries that apply to added call `f` (in data order), into `*out`,
 * an array that is the caller's to free with advice_hits_free() (with
 * each hit's `arg` and `evidence`; NULL when none applies), however many
 * entries rules/advice.json has.  Returns how many.
 *
 * `cf`: the facts about the call from the file after the patch
 * (cfacts.h), or NULL without a tree.  Each entry fires only when its
 * fact holds: on-disk, user-input, impossible, dup-if and
 * bare-statement need facts; the others (after-alloc, deref-after,
 * or-conditions, lock-held, refcount, path) fall back to what the
 * diff's own lines prove.
 */
size_t advice_match(struct advice_hit **out, const struct advice *a, const struct finding *f,
		    const struct cfacts *cf);
void advice_hits_free(struct advice_hit *h, size_t nr);

/* Whether `fn` is a handler user space calls (ioctl, sysfs store, syscall). */
bool advice_user_entry(const struct advice *a, const char *fn);

/* The condition of the call ("BUG_ON(!x)" -> "!x"); false without one. */
bool advice_call_args(struct strbuf *out, const char *source);

/*
 * The unlock calls a way out of `f`'s function needs before it leaves:
 * locks taken above the call in the function's lines the hunk shows and
 * not released there ("spin_unlock(&inode->i_lock);"), innermost first,
 * one per line, appended to `out`.
 */
void advice_unlocks(struct strbuf *out, const struct advice *a, const struct finding *f);

/*
 * Check each entry's "holds" against kernel tree `tree` (the tree under
 * review): an entry whose header text the tree's file lacks (or that
 * cannot be read) is turned off, so it says nothing of that tree.  With
 * no tree the entries stay as loaded: their "holds" were checked against
 * Debian's 6.1 and 6.12 sources when they were written (t-advice-holds).
 */
void advice_hold(struct advice *a, const char *tree);

void advice_release(struct advice *a);

#endif
