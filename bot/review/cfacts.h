/*
 * Facts about an added BUG/WARN call from the C file as it stands after
 * the patch, read with libclang (clang-c/Index.h): the enclosing
 * function's return type and its own failure exits, what runs after the
 * call, and where the operands of the condition come from (disk format,
 * user space, an allocator).  The review reply says only what these
 * facts support (docs/review.md); why libclang: docs/HACKING.md.
 *
 * libclang is linked into warnwatch-all only: check (the lean binary)
 * must never reach this module.  A caller hands the reply plain
 * `struct cfacts` data (reply.h), never a function of this file.
 */
#ifndef WW_CFACTS_H
#define WW_CFACTS_H

#include "inloop.h"
#include "kcmd.h"
#include "strbuf.h"
#include "strvec.h"

enum cfacts_ret {
	CF_RET_UNKNOWN,		/* no function found */
	CF_RET_VOID,
	CF_RET_INT,		/* an integer that carries -Exxx */
	CF_RET_BOOL,		/* bool, or an int that carries a truth value (1 / a == b) */
	CF_RET_PTR,		/* a pointer; NULL on failure */
	CF_RET_ERR_PTR,		/* a pointer whose returns use ERR_PTR()/ERR_CAST() */
	CF_RET_OTHER,		/* a struct, a hash value...: no errno to return */
};

struct cfacts {
	bool found;		/* a function definition encloses the line */
	char *function;
	/* The line its definition starts on (1-based), where a macro head
	 * such as SYSCALL_DEFINE3(ioctl, ...) is written: its name as the
	 * text has it is there, not in `function`.  0 when unknown. */
	int def_line;
	char *ret_type;		/* as written: "struct buffer_head *" */
	enum cfacts_ret ret;
	/*
	 * The function's own failure exit nearest the call, as written, one
	 * statement per line without indentation ("return -ENOMEM;",
	 * "err = -EIO;\ngoto out_free;", "return ERR_PTR(err);"), and its
	 * line; NULL when the function has none besides the call's own.
	 */
	char *exit;
	int exit_line;
	/* An exit such as "if (err) goto out;": the variable the way out
	 * must set first ("err"), else NULL. */
	char *exit_var;
	/* The errno the function's own failure exits report corruption
	 * with ("-EFSCORRUPTED", "-EUCLEAN"), or NULL.  A way out of the
	 * call says that rather than the errno of another failure that
	 * happens to be nearest ("-ENOSPC" of a full block, issue 35). */
	char *corrupt;
	/* The call statement is followed by another before the function
	 * returns (a return right after does not count). */
	bool follows;
	/* The next statement already recovers: a return, goto, break or
	 * continue, or an assignment to a variable of the condition. */
	bool recovers;
	char *cond;		/* the condition as written, or NULL */
	bool cond_or;		/* ... is a || b at its top level */
	/* A comparison of an unsigned operand that cannot hold ("u < 0",
	 * "u >= 0"), as written, or NULL. */
	char *impossible;
	/* An operand of __le* / __be* type, directly or through a local
	 * assigned from one: its name. */
	char *disk;
	/* An operand whose value comes from user space (copy_from_user(),
	 * get_user(), memdup_user(), an ioctl's `arg`): its name. */
	char *user;
	/* The pointer the condition tests for NULL, when it was last
	 * assigned from an allocator. */
	char *alloc;
	/* The pointer tested for NULL is dereferenced in the statements
	 * right after the call, which does not leave the function. */
	char *deref;
	/* An enclosing if tests the same condition. */
	bool dup_if;
	/* The macro expands to a statement (VM_WARN_ON*, BUG_ON): it cannot
	 * be an if's condition. */
	bool statement_macro;
	/* The macro asserts what must hold (J_ASSERT, ASSERT): its
	 * condition is the good state, not the bad one. */
	bool assertion;
	/* A lock taken before the call is still held there (more lock
	 * calls than unlock calls above it in the function): a way out
	 * must drop it, so only an exit at the same locking state will do,
	 * and without one there is none. */
	bool locked;
	/* Not read from the tree after the patch: patch refused the hunk,
	 * so these are of the base's function of the name the hunk gives,
	 * with the hunk's lines placed in it (patched.h).  A rewrite from
	 * them is offered only when it compiled. */
	bool by_name;
	/* ... and of a function a refused hunk adds whole: the function as
	 * the hunk writes it, in place of the base's definition of that name
	 * or after the base's text (byname_append()). */
	bool appended;
	/* Whether the call is inside a loop of the function (inloop.h),
	 * read from the text once libclang found the function (def_line);
	 * INLOOP_UNKNOWN when not found.  It crosses the sandbox in the
	 * child's answer ("loop": "no"), like the rest.  Advice says how to
	 * leave the function only on INLOOP_NO. */
	enum inloop loop;
};

#define CFACTS_INIT { .ret = CF_RET_UNKNOWN }

struct cfacts_opts {
	const char *macro;		/* the call's macro, "WARN_ON" */
	const struct strvec *alloc_calls;	/* "kmalloc(" ... (advice.json) */
	const struct strvec *flags;	/* compiler flags; NULL: none */
};

#define CFACTS_OPTS_INIT { 0 }

/*
 * Facts about the call of o->macro on line `line` (1-based) of the C
 * file `path` whose text (after the patch) is text[0..len).  The file
 * need not compile: libclang recovers, and the facts come from what it
 * understood.  out->found is false when no function definition holds
 * the line.  Errors: WW_EINPUT (libclang cannot parse it at all),
 * WW_ENOTFOUND (no call of the macro on that line).
 */
int cfacts_read(struct cfacts *out, const char *path, const char *text, size_t len,
		int line, const struct cfacts_opts *o);

/* One call of a file for cfacts_read_calls(). */
struct cfacts_call {
	int line;		/* 1-based */
	const char *macro;	/* "WARN_ON" */
};

/*
 * cfacts_read() of `n` calls of one file, parsed once: out[i] and
 * rets[i] (0, WW_ENOTFOUND: no such call on its line, WW_EINPUT:
 * libclang cannot parse the file) for calls[i]; o->macro is not used.
 * No message is set.  Returns 0, WW_ENOTFOUND when no call was found
 * (then nothing was parsed), WW_EINPUT when libclang cannot parse the
 * file, WW_ECHILD when it crashed doing so (out of memory, under
 * RLIMIT_AS).
 */
int cfacts_read_calls(struct cfacts *out, int *rets, const char *path, const char *text,
		      size_t len, const struct cfacts_call *calls, size_t n,
		      const struct cfacts_opts *o);

/*
 * The facts as a JSON object (a new reference) and back: the sandboxed
 * child's answer (cfront.h).  cfacts_from_json() fills `out` (CFACTS_INIT)
 * or returns WW_EINPUT naming `what`, out released.
 */
struct json_t;
struct json_t *cfacts_json(const struct cfacts *f);
int cfacts_from_json(struct cfacts *out, const struct json_t *o, const char *what);

/*
 * The compiler flags for `rel` (a .c path in kernel tree `tree`) that
 * libclang takes: kbuild's own for that object (`k`, kcmd.h: the
 * configured build's .o.cmd) without the gcc-only flags; without one
 * (k NULL or empty), a minimal fallback (-nostdinc, the tree's include
 * dirs, -D__KERNEL__).  Appended to `out`.  Returns 1 when kbuild's
 * were used, 0 for the fallback.
 */
int cfacts_flags(struct strvec *out, const char *tree, const char *rel,
		 const struct kcmd *k);

void cfacts_release(struct cfacts *f);

#endif
