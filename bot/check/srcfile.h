/*
 * `check -f FILE`, as checkpatch.pl -f: a source file read whole, every
 * BUG/WARN-family call in it reported with its class and severity as if
 * a patch added it.  The file is made the patch that creates it and goes
 * through check_series() like any patch (census --git counts a file a
 * commit adds the same way): the same scanner, rules, path overrides,
 * functions and --tree wrappers, no second scanner.  Its findings say
 * "BUG_ON()", never "new BUG_ON()": nothing is new in a file.
 */
#ifndef WW_SRCFILE_H
#define WW_SRCFILE_H

#include "check.h"

/*
 * The diff that creates `path` with the `len` bytes of `text` (a last
 * line without a newline marked as git marks it), appended to `out`.
 * WW_EINPUT for text holding a NUL byte (not a source file).  `path` is
 * the name the diff gives the file: relative, no leading "./" or "/".
 */
int srcfile_diff(struct strbuf *out, const char *path, const char *text, size_t len);

/* The name `srcfile_diff()` should give the file `arg` names (borrowed
 * from it): "./" and leading '/' dropped. */
const char *srcfile_path(const char *arg);

/*
 * Make the findings of such a check speak of a file: whole_file set, the
 * rule's "new X()" said "X()", and each file named `name` (the argument
 * as given) again.
 */
void srcfile_mark(struct check_result *r, const char *name);

#endif
