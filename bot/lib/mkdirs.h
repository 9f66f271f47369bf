/*
 * Creating a directory and its missing parents (mkdir -p).
 */
#ifndef WW_MKDIRS_H
#define WW_MKDIRS_H

#include "ww.h"

#include <sys/types.h>

/*
 * Create `dir` and every missing parent with `mode` (existing ones are
 * left as they are).  On failure returns `code` (a WW_E* value) with the
 * message "cannot create '<the component that failed>': <reason>".
 */
int mkdirs(const char *dir, mode_t mode, int code);

#endif
