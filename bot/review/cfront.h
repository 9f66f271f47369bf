/*
 * The C front end on hostile text: everything the review parses or
 * compiles (libclang's facts, cfacts.h; `gcc -fsyntax-only` of a rewrite,
 * patched.h) is a series' text, and the build directory whose flags it
 * uses was written by a series' build.  So:
 *
 *  - the text is screened first (cfront_screen()): an #include,
 *    #include_next, #import or #embed, or a __has_include,
 *    __has_include_next or __has_embed, that names an absolute path, a
 *    path leaving the tree, a file that is not a regular one (a device, a
 *    link out of the tree), the file itself, or that is computed by a
 *    macro, a `#pragma GCC dependency` (it opens its file), a _Pragma of
 *    anything but a string literal, and an identifier that token pasting
 *    could make one of those operators of ("__has_", "_", "has_include"),
 *    refuse the file with a one-line reason: the answer never depends on
 *    the host.  A compile's and a parse's -D flags are screened the same;
 *  - the touched files of the scratch copy are screened together
 *    (cfront_screen_copy()): each as above, and no include cycle among
 *    them (a file that includes itself twice per level is exponential);
 *  - the parse and the compile run in the review's sandbox
 *    (bwrap_review_argv(): no network, uid 65534, the tree, the build
 *    directory and the scratch copy read-only, only /dev/null, RLIMIT_AS
 *    CFRONT_MEM_MB, RLIMIT_CPU CFRONT_CPU_S, a CFRONT_TIMEOUT_MS wall
 *    deadline, --die-with-parent), never in this process: libclang runs
 *    in `warnwatch-all cfacts` (cmd/cfacts.c), re-executed inside it,
 *    one child per file text for all of its calls, the facts back as
 *    JSON on stdout.
 *
 * warnwatch-all only (libclang and jansson).
 */
#ifndef WW_CFRONT_H
#define WW_CFRONT_H

#include "cfacts.h"
#include "strbuf.h"
#include "strvec.h"

/* Limits of one child (docs/limits.md). */
#define CFRONT_MEM_MB 1024
#define CFRONT_CPU_S 20
#define CFRONT_TIMEOUT_MS (60 * 1000)
/* The largest file text handed to the front end (patched.c's cap). */
#define CFRONT_TEXT_MAX (8u << 20)

struct cfront {
	const char *tree;	/* the base tree, absolute (borrowed) */
	const char *scratch;	/* the scratch copy, absolute (borrowed) */
	char *exe;		/* warnwatch-all, or NULL until cfront_init() */
};

#define CFRONT_INIT { NULL }

/*
 * Find warnwatch-all for the facts' child: this program when it is
 * warnwatch-all, else $WARNWATCH_EXEC_PATH's, else the one beside this
 * program.  WW_ENOTFOUND when none can run.
 */
int cfront_init(struct cfront *cf, const char *tree, const char *scratch);
void cfront_release(struct cfront *cf);

/*
 * Screen `text` (len bytes) of file `rel` of the tree as the series left
 * it (a scratch-copy file, looked up beside it in the scratch copy and
 * then the tree).  0, or WW_EINPUT with "REL:LINE: WHAT: WHY" as the
 * message (`#include "/dev/zero": an absolute path`).
 */
int cfront_screen(const struct cfront *cf, const char *rel, const char *text, size_t len);

/*
 * Screen every regular file of the scratch copy (cfront_screen()) and
 * the quoted includes among them for a cycle.  0 or WW_EINPUT (said why).
 */
int cfront_screen_copy(const struct cfront *cf);

/* One call of a file for cfront_facts(). */
struct cfront_call {
	int line;		/* 1-based */
	const char *macro;	/* "WARN_ON" */
};

/*
 * The facts (cfacts_read()) of `n` calls of the file `path` (absolute,
 * in the scratch copy) whose text is `text`, screened as `rel`, parsed
 * once by a sandboxed child with compiler flags `flags`; `build` (or
 * NULL) is bound read-only too (the flags name it).  0: the child
 * answered, each out[i] filled and rets[i] 0 or the call's own error
 * (WW_ENOTFOUND, WW_EINPUT: no facts for it).  Negative for the whole
 * file, said why in one line: refused by the screen (WW_EINPUT), over a
 * limit or the deadline (WW_ETIMEOUT, WW_ECHILD), the sandbox or the
 * child failing (WW_ECHILD).
 */
int cfront_facts(struct cfacts *out, int *rets, const struct cfront *cf, const char *rel,
		 const char *path, const char *text, size_t len, const struct cfront_call *calls,
		 size_t n, const struct strvec *flags, const struct strvec *alloc_calls,
		 const char *build);

/*
 * The child's side (`warnwatch-all cfacts REQUEST`, in the sandbox):
 * the request (JSON: path, flags, calls, alloc_calls) and the text on
 * `in_fd`, parsed once (cfacts_read_calls()), the answer appended to
 * `out` as JSON ({"calls": [{"ret": 0, "facts": {...}}, ...]}).
 * Errors: a request that does not read (WW_EINPUT), the text over
 * CFRONT_TEXT_MAX.
 */
int cfront_child(struct strbuf *out, const char *request, int in_fd);

/*
 * Compile `file` (absolute, in the scratch copy; its text `text`,
 * screened as `rel`) with the compiler and flags `argv` (-fsyntax-only
 * among them) in the sandbox, `build` (or NULL) bound read-only too.
 * 1 it compiles, 0 not, negative when it could not be tried (refused by
 * the screen, the sandbox failing, a limit).
 */
int cfront_compile(const struct cfront *cf, const char *rel, const char *file,
		   const struct strbuf *text, const struct strvec *argv, const char *build);

#endif
